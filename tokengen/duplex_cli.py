"""Command-line pieces for backs and duplex printing: the ``build`` options that ask for back
sheets, printer corrections and the rules sheet, and the ``tokengen align`` command.

Kept apart from :mod:`tokengen.cli` so that module stays a thin list of commands.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import click

from .completion import complete_page
from .errors import UsageError
from .units import parse_page


def backs_options(f: Any) -> Any:
    """Add ``--backs [duplex|separate]``, ``--flip``, ``--back-offset``, ``--printer-scale`` and
    ``--rules`` to a command; the command receives them as one ``backs`` dict of
    :class:`~tokengen.options.BuildOptions` keyword arguments (lengths in pt, scale as factors).

    Raises (when the command runs):
        UsageError: a malformed offset or scale, or ``--flip``/``--back-offset`` without ``--backs``.
    """

    @functools.wraps(f)
    def wrapper(*args: Any, backs: str | None, flip: str | None, back_offset: str | None,
                printer_scale: str | None, rules: bool, **kwargs: Any) -> Any:
        if not backs and (flip or back_offset):
            raise UsageError("--flip and --back-offset apply to back sheets: add --backs")
        options: dict[str, Any] = {"backs": backs, "flip": flip or "long", "rules": rules}
        if back_offset:
            from .pagesetup import parse_offset

            options["back_offset"] = parse_offset(back_offset)
        if printer_scale:
            from .pagesetup import parse_scale

            options["printer_scale"] = parse_scale(printer_scale)
        return f(*args, backs=options, **kwargs)

    options = [
        click.option("--backs", type=click.Choice(["duplex", "separate"]), is_flag=False, flag_value="duplex", default=None,
                     help="Add back sheets: alone or 'duplex', a back sheet after each face sheet for duplex printing; "
                          "'separate', the backs in NAME-backs.pdf (one-sided printers)."),
        click.option("--flip", type=click.Choice(["long", "short"]), default=None,
                     help="The edge the sheet turns over in duplex printing (default: long)."),
        click.option("--back-offset", metavar="X,Y", default=None,
                     help="Shift the back sheets by X,Y (lengths, e.g. 0.5mm,-1mm), as read on 'tokengen align'."),
        click.option("--printer-scale", metavar="SX[,SY]", default=None,
                     help="Scale every page about its centre (e.g. 100.4%,99.7%) to correct a printer; stated in the PDF keywords."),
        click.option("--rules", is_flag=True, help="Append a rules sheet (Meatshield rules in our words, the catalogue's numbers and variants)."),
    ]
    for option in reversed(options):
        wrapper = option(wrapper)
    return wrapper


@click.command()
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default="align.pdf", show_default=True, help="PDF to write.")
@click.option("--page", default="letter", show_default=True, metavar="NAME|WxH", shell_complete=complete_page,
              help="letter, a4, legal, a3, tabloid, a ReportLab name (a5, b5, …), or WIDTHxHEIGHT.")
@click.option("--landscape", is_flag=True, help="Turn the page sideways.")
@click.option("--flip", type=click.Choice(["long", "short"]), default="long", show_default=True, help="The edge the sheet turns over.")
@click.option("--back-offset", metavar="X,Y", default=None, help="Print the back with this offset (to check a correction).")
@click.option("--printer-scale", metavar="SX[,SY]", default=None, help="Scale both pages about their centre (to check a correction).")
def align(output: Path, page: str, landscape: bool, flip: str, back_offset: str | None, printer_scale: str | None) -> None:
    """Write a two-page duplex alignment test: crosshairs and mm scales on both sides.

    Print it duplex at actual size, hold it against a light and read the X,Y offset at the
    centre target (see page 1); pass it to 'tokengen build --backs --back-offset X,Y'.

    \b
    Examples:
      tokengen align -o align.pdf
      tokengen align --page a4 --flip short --back-offset 0.5mm,-1mm -o check.pdf
    """
    try:
        size = parse_page(page, landscape=landscape)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--page'") from None
    from .duplex import write_alignment_test
    from .pagesetup import parse_offset, parse_scale

    offset = parse_offset(back_offset) if back_offset else (0.0, 0.0)
    scale = parse_scale(printer_scale) if printer_scale else None
    warnings: list[str] = []
    out = write_alignment_test(output, size, flip, offset, scale, warnings=warnings)
    click.echo(f"wrote {out}: duplex alignment test, {flip}-edge flip (2 pages)")
    for warning in warnings:
        click.echo(f"tokengen: warning: {warning}", err=True)


def echo_build_report(result: Any) -> None:
    """Echo the separate backs file a build wrote, and its warnings on stderr (``tokengen: warning: …``)."""
    if result.back_pages and result.backs_path:
        click.echo(f"wrote {result.backs_path}: {result.back_pages} back page{'s' if result.back_pages != 1 else ''}")
    for warning in result.warnings:
        click.echo(f"tokengen: warning: {warning}", err=True)
