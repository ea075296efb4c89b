"""The local page: ``tokengen serve``."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..errors import TokengenError
from .app import cli
from .habits import say
from .params import CATALOGUE, DEFAULT_CATALOGUE


@cli.command("serve")
@click.argument("catalogue", default=DEFAULT_CATALOGUE, type=CATALOGUE)
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True, help="Port on 127.0.0.1 (0: a free one, printed on start).")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the default browser.")
def serve_command(catalogue: Path, port: int, open_browser: bool) -> None:
    """Serve a local page (http://127.0.0.1 only) to choose options, look at the sheet, read
    the check report and download the files; it re-renders when CATALOGUE changes on disk.

    \b
    Examples:
      tokengen serve                      # token_defs.yaml on a free port
      tokengen serve token_defs.yaml --port 8765 --open
      tokengen serve meatshields          # the bundled catalogue, as build takes it
    """
    if not catalogue.is_file():
        raise click.BadParameter(f"{catalogue}: no such file" if not catalogue.exists() else f"{catalogue}: not a file",
                                 param_hint="'CATALOGUE'")
    try:
        from ..web.server import serve
    except ModuleNotFoundError as exc:
        raise TokengenError(f"tokengen serve needs {exc.name}, part of the default install: pip install 'tokengen-print'") from None
    def echo(line: str) -> None:
        say(line)
        sys.stdout.flush()

    serve(catalogue, port, open_browser, echo=echo)
