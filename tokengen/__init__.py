"""tokengen: turn a YAML catalogue of game tokens into print-ready PDF sheets.

The public names below are imported on first use (PEP 562), so ``import tokengen`` and the
command line's start-up stay cheap: ReportLab, jsonschema, pikepdf and the rules engine load only
when something needs them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from . import _startup

_startup.quiet_start()  # first: Ctrl-C while the tokengen command imports is one line, exit 130

from ._version import __version__

#: public name → the module that defines it
_EXPORTS = {
    "BuildOptions": "outputs.options", "BuildResult": "outputs.build", "build_pdf": "outputs.build",
    "load_catalogue": "sources.catalogue",
    "CatalogueError": "errors", "ExportError": "errors", "LayoutError": "errors", "RenderError": "errors",
    "TokengenError": "errors", "UsageError": "errors",
    "SheetSpec": "geometry.imposition", "impose": "geometry.pager",
    "Catalogue": "model", "Token": "model",
    # the rules check (issue 3)
    "Finding": "games.meatshields.rules", "Report": "games.meatshields.rules", "check_catalogue": "games.meatshields.rules", "resolve_targets": "games.meatshields.rules",
    # print-shop export and preflight (issue 5). The functions keep their module names
    # (tokengen.outputs.export.export, tokengen.preflight.checks.preflight) so the submodules are not shadowed.
    "Check": "preflight.checks", "Profile": "sources.profiles", "get_profile": "sources.profiles", "load_profiles": "sources.profiles",
}

__all__ = [
    "__version__", "BuildOptions", "BuildResult", "build_pdf", "load_catalogue", "SheetSpec", "impose",
    "Catalogue", "Token", "TokengenError", "CatalogueError", "LayoutError", "RenderError", "ExportError", "UsageError",
    "Finding", "Report", "check_catalogue", "resolve_targets", "Check", "Profile", "get_profile", "load_profiles",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'tokengen' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


if TYPE_CHECKING:  # what type checkers and editors see (py.typed)
    from .errors import CatalogueError, ExportError, LayoutError, RenderError, TokengenError, UsageError
    from .games.meatshields.rules import Finding, Report, check_catalogue, resolve_targets
    from .geometry.imposition import SheetSpec
    from .geometry.pager import impose
    from .model import Catalogue, Token
    from .outputs.build import BuildResult, build_pdf
    from .outputs.options import BuildOptions
    from .preflight.checks import Check
    from .sources.catalogue import load_catalogue
    from .sources.profiles import Profile, get_profile, load_profiles
