"""The ``tokengen`` command line: parse options, call one library function, map errors to exit codes.

Exit codes: 0 success; 1 a check found problems; 2 bad input or usage; 130 interrupted.
"""

from __future__ import annotations

import signal
import sys
from pathlib import Path
from typing import Any

import click

from . import __version__
from .build import MAX_PAGES, MAX_TOKENS, BuildOptions, build_pdf
from .catalogue import load_catalogue
from .errors import TokengenError
from .imposition import SheetSpec
from .units import parse_length, parse_page

DEFAULT_CATALOGUE = "token_defs.yaml"


class LengthType(click.ParamType):
    """A click parameter: a length with a unit (``0.25in``, ``3mm``) → pt."""

    name = "LENGTH"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        if isinstance(value, float):
            return value
        try:
            return parse_length(value)
        except ValueError as exc:
            self.fail(str(exc), param, ctx)


LENGTH = LengthType()


def _sheet_options(f: Any) -> Any:
    """The page and imposition options shared by every command that lays out sheets."""
    options = [
        click.option("--page", default="letter", show_default=True, metavar="NAME|WxH",
                     help="letter, a4, legal, a3, tabloid, or WIDTHxHEIGHT such as 210mmx297mm."),
        click.option("--landscape", is_flag=True, help="Turn the page sideways."),
        click.option("--margin", type=LENGTH, default="0.25in", show_default=True, help="Border kept clear on every side."),
        click.option("--gutter", type=LENGTH, default="0", show_default=True, help="Space between tokens (0: shared cut edges)."),
        click.option("--columns", type=click.IntRange(1, 1000), default=None, help="At most N columns (default: the catalogue's columns, else as many as fit)."),
        click.option("--cut-lines/--no-cut-lines", default=True, show_default=True, help="Full-length cut lines on the token edges."),
        click.option("--crop-marks", is_flag=True, help="Short crop marks outside the grid."),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def sheet_spec(page: str, landscape: bool, margin: float, gutter: float, columns: int | None,
               cut_lines: bool, crop_marks: bool, size: float, bleed: float = 0.0) -> SheetSpec:
    """Turn the shared CLI options into a :class:`SheetSpec` (raises click's BadParameter)."""
    try:
        page_size = parse_page(page, landscape=landscape)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--page'") from None
    return SheetSpec(page=page_size, size=size, margin=margin, gutter=gutter, bleed=bleed, columns=columns,
                     cut_lines=cut_lines, crop_marks=crop_marks)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="tokengen")
def cli() -> None:
    """Turn a YAML catalogue of game tokens into print-ready PDF sheets.

    \b
    Example:
      tokengen build token_defs.yaml -o meatshields.pdf
    """


@cli.command()
@click.argument("catalogue", default=DEFAULT_CATALOGUE, type=click.Path(dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default="meatshields.pdf", show_default=True, help="PDF to write.")
@_sheet_options
@click.option("--copies", type=click.IntRange(1, 100_000), default=1, show_default=True, help="Every token N times.")
@click.option("--max-tokens", type=click.IntRange(1), default=MAX_TOKENS, show_default=True, help="Refuse runs with more tokens.")
@click.option("--max-pages", type=click.IntRange(1), default=MAX_PAGES, show_default=True, help="Refuse runs with more pages.")
@click.option("--allow-outside-art", is_flag=True, help="Accept art paths that leave the catalogue's folder.")
def build(catalogue: Path, output: Path, page: str, landscape: bool, margin: float, gutter: float, columns: int | None,
          cut_lines: bool, crop_marks: bool, copies: int, max_tokens: int, max_pages: int, allow_outside_art: bool = False) -> None:
    """Build the token sheets of CATALOGUE (default token_defs.yaml) as one PDF.

    \b
    Examples:
      tokengen build -o meatshields.pdf
      tokengen build token_defs.yaml --page a4 --columns 3 -o a4.pdf
      tokengen build --copies 2 --crop-marks --no-cut-lines -o two-sets.pdf
    """
    cat = load_catalogue(catalogue, allow_outside_art=allow_outside_art)
    spec = sheet_spec(page, landscape, margin, gutter, columns or cat.columns, cut_lines, crop_marks, cat.size)
    result = build_pdf(cat, BuildOptions(sheet=spec, copies=copies, max_tokens=max_tokens, max_pages=max_pages), output)
    click.echo(f"wrote {result.path}: {result.tokens} tokens on {result.pages} page(s)")


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``tokengen`` script: runs :func:`cli` and turns every error into a
    one-line message on stderr and an exit code (never a traceback)."""
    try:
        cli.main(args=argv, prog_name="tokengen", standalone_mode=False)
    except TokengenError as exc:
        click.echo(f"tokengen: error: {exc}", err=True)
        return exc.exit_code
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.Abort:
        click.echo("tokengen: interrupted", err=True)
        return 130
    except click.ClickException as exc:
        exc.show()
        return 2
    except KeyboardInterrupt:
        click.echo("tokengen: interrupted", err=True)
        return 130
    return 0



def run() -> None:
    """Console-script wrapper: ``sys.exit(main())``. A plain ``kill`` (SIGTERM) exits 143
    through the normal clean-up, so no temporary file is left behind."""
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    sys.exit(main())
