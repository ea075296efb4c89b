"""``tokengen serve``: a local page to choose options, look at the sheet and download the files.

Part of the default install (Starlette and uvicorn, 1.6 MB); nothing else in tokengen imports
this package. The page is a thin front end over the command line: every
control becomes the same ``tokengen build`` / ``export`` / ``align`` / ``check`` options, parsed
by the same click commands (so a bad value gets the CLI's own message) and run by the same
callbacks, so a downloaded file is byte for byte what the CLI writes for those options. See
:mod:`tokengen.web.server` for the routes and the safety rules.
"""

from __future__ import annotations

__all__ = ["create_app", "serve"]


def __getattr__(name: str) -> object:  # Starlette is imported only when the page is used
    if name in __all__:
        from . import server

        return getattr(server, name)
    raise AttributeError(name)
