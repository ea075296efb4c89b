"""The ``tokengen`` command line: parse options, call one library function, map errors to exit codes.

Exit codes: 0 success; 1 a check found problems; 2 bad input or usage; 70 an internal error (a bug);
130 interrupted; 143 terminated.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from .._version import __version__
from ..errors import CheckFailed, ExportError, TokengenError, UsageError
from ..limits import MAX_ART_PIXELS, MAX_DPI, MAX_PAGES, MAX_PNG_PIXELS, MAX_TOKENS
from ..limits import MAX_PNG_TOTAL_PIXELS as MAX_TOTAL_PIXELS_PNG
from ..units import parse_length, parse_page
from . import streams
from .completion import complete_page, complete_profile

if TYPE_CHECKING:
    from ..geometry.imposition import SheetSpec

# Each command imports what it needs when it runs (ReportLab, jsonschema, pypdf, pdfplumber,
# pypdfium2, the rules engine), so `tokengen --version` and `--help` start fast.

DEFAULT_CATALOGUE = "token_defs.yaml"
#: Longest ``--adventurer``/``--monster``/``--deployed`` value (a full Adventurer is about 40).
MAX_SPEC = 200


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


class CatalogueType(click.ParamType):
    """A click parameter: a catalogue file, or the name of a bundled one (``meatshields``) → Path.
    A missing file is reported when it is loaded, naming ``tokengen init`` and the bundled names."""

    name = "CATALOGUE"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Path:
        from ..sources.bundled import resolve

        return resolve(value)


CATALOGUE = CatalogueType()


def _sheet_options(f: Any) -> Any:
    """The page and imposition options shared by every command that lays out sheets."""
    options = [
        click.option("--page", default="letter", show_default=True, metavar="NAME|WxH", shell_complete=complete_page,
                     help="letter, a4, legal, a3, tabloid, a ReportLab name (a5, b5, …), or WIDTHxHEIGHT such as 210mmx297mm."),
        click.option("--landscape", is_flag=True, help="Turn the page sideways."),
        click.option("--margin", type=LENGTH, default="0.25in", show_default=True, help="Border kept clear on every side."),
        click.option("--gutter", type=LENGTH, default="0", show_default=True, help="Space between tokens (0: shared cut edges)."),
        click.option("--columns", type=click.IntRange(0, 1000), default=None,
                     help="At most N columns; 0: as many as fit (default: the catalogue's columns, else as many as fit)."),
        click.option("--cut-lines/--no-cut-lines", default=True, show_default=True, help="Full-length cut lines on the token edges."),
        click.option("--crop-marks", is_flag=True, help="Short crop marks outside the grid."),
        click.option("--fill", is_flag=True, help="Repeat whole sets until no further set fits on the last page (says how many)."),
        click.option("--home-bleed", type=LENGTH, default="0.0625in", show_default=True,
                     help="On shared-edge sheets, run the outer tokens' background this far past the outer cut (0: off)."),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def sheet_spec(page: str, landscape: bool, margin: float, gutter: float, columns: int | None,
               cut_lines: bool, crop_marks: bool, size: float, bleed: float = 0.0, *, group: int | None = None,
               home_bleed: float = 0.0) -> SheetSpec:
    """Turn the shared CLI options into a :class:`SheetSpec` (raises click's BadParameter):
    ``--page`` read here, the rest as :func:`tokengen.geometry.sizing.sheet_spec` takes them
    (``size``: the box width :func:`~tokengen.geometry.sizing.token_size` settled).
    ``columns``: None (use ``group``, the catalogue's columns), 0 (as many as fit) or N."""
    try:
        page_size = parse_page(page, landscape=landscape)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--page'") from None
    from ..geometry import sizing

    return sizing.sheet_spec(page_size, size, margin=margin, gutter=gutter, bleed=bleed, columns=columns, group=group,
                             cut_lines=cut_lines, crop_marks=crop_marks, home_bleed=home_bleed)


def output_file(text: str, name: str) -> Path:
    """Where ``-o TEXT`` writes: TEXT itself, or ``TEXT/NAME`` when TEXT is an existing folder
    or ends with a slash (meaning a folder); ``name`` is what a build without ``-o`` writes
    (:func:`tokengen.sources.bundled.default_output`), so both name the PDF alike.

    Raises:
        UsageError: TEXT ends with a slash and is not an existing folder.
    """
    path = Path(text)
    folder = os.path.isdir(text)  # False (not an error) for a name too long or a symlink loop: the write says why
    if text.endswith(("/", os.sep)) or folder:
        if not folder:
            raise UsageError(f"-o {text}: no such folder (create it first, or name the file, e.g. -o {text.rstrip('/' + os.sep)}/{name})")
        return path / name
    return path


# --- previews and rebuild on save (issue 17): --preview on build and export, --watch on build ---

def _preview_options(*, watch: bool = False) -> Any:
    """Add ``--preview [FILE.png]``, ``--preview-dpi`` and ``--preview-page`` (and ``--watch``
    when ``watch``) to a command whose callback returns what it wrote (a ``BuildResult`` or the
    list of exported paths, the PDF first). The callback gets ``previews``: None, or the PNG
    paths for its PDF and page count, to check with its own outputs before it writes any. The
    command runs as before, then the PDF it wrote is rendered to PNG
    (:func:`tokengen.outputs.preview.write_previews`); with ``--watch`` it runs again on every change of
    its inputs (:func:`tokengen.outputs.watch.watch_build`), one line per run."""

    def decorate(f: Any) -> Any:
        @functools.wraps(f)
        def wrapper(*args: Any, preview: str | None, preview_dpi: int, preview_page: int | None, watch: bool = False,
                    **kwargs: Any) -> Any:
            ctx = click.get_current_context()
            given = [o for o in ("preview_dpi", "preview_page") if ctx.get_parameter_source(o) == click.core.ParameterSource.COMMANDLINE]
            if preview is None and given:
                raise click.UsageError(f"{', '.join('--' + o.replace('_', '-') for o in given)}: add --preview")
            target = None
            if preview:  # checked before anything is built; an optional value can swallow the catalogue's name
                from ..outputs.preview import check_target

                target = check_target(preview, "--preview", " (give the catalogue before --preview, or write --preview=NAME.png)")

            def previews(pdf: Path, pages: int) -> list[Path]:
                """The PNGs a preview of ``pdf`` (``pages`` long) writes: checked with the command's other outputs."""
                from ..outputs.preview import default_target, preview_paths

                return preview_paths(target or default_target(pdf), pages, preview_page)

            def once() -> Any:
                written = f(*args, previews=previews if preview is not None else None, **kwargs)
                if preview is not None:
                    from ..outputs.preview import write_previews

                    pdf = written[0] if isinstance(written, list) else written.path
                    pngs = write_previews(pdf, target, preview_dpi, preview_page, flags=("--preview-dpi", "--preview-page"))
                    click.echo(f"wrote {len(pngs)} preview PNG{'s' if len(pngs) != 1 else ''} at {preview_dpi} DPI: {pngs[0]}" + (f" … {pngs[-1].name}" if len(pngs) > 1 else ""))
                return written

            if not watch:
                return once()
            import contextlib
            import io

            from ..outputs.backs import backs_path as duplex_backs_path
            from ..outputs.watch import catalogue_inputs, watch_build

            allow = kwargs.get("allow_outside_art", False)
            last: list[Path] = [Path(str(kwargs["output"]))]  # the PDF the last good build wrote

            def summary() -> str:
                with contextlib.redirect_stdout(io.StringIO()) as lines:
                    last[0] = once().path
                return "; ".join(line for line in lines.getvalue().splitlines() if line)

            def inputs() -> Any:
                pdf = last[0]
                return catalogue_inputs(kwargs["catalogue"], (pdf, duplex_backs_path(pdf)), allow_outside_art=allow,
                                        previews=target or (pdf.with_suffix(".png") if preview is not None else None))

            watch_build(summary, inputs, echo=lambda line: click.echo(line), error=lambda line: click.echo(line, err=True))
            return None

        options = [
            click.option("--preview", metavar="[FILE.png]", is_flag=False, flag_value="", default=None,
                         help="Also render the PDF to PNG: FILE.png for one --preview-page, else FILE-1.png … per page "
                              "(default FILE: the PDF's name with .png)."),
            click.option("--preview-dpi", type=click.IntRange(10, 1200), default=100, show_default=True, help="Preview resolution (px per in)."),
            click.option("--preview-page", type=click.IntRange(1), default=None, metavar="N", help="Preview only page N."),
        ]
        if watch:
            options.append(click.option("--watch", is_flag=True,
                                        help="Build, then rebuild whenever the catalogue, its art, the fonts or a data file beside it "
                                             "change (Ctrl-C stops; a broken input keeps the last good PDF)."))
        for option in reversed(options):
            wrapper = option(wrapper)
        return wrapper

    return decorate


# -- backs and duplex: the build options that ask for back sheets, and the align command --------


def backs_options(f: Any) -> Any:
    """Add ``--backs [duplex|separate]``, ``--flip``, ``--back-offset``, ``--printer-scale`` and
    ``--rules`` to a command; the command receives them as one ``backs`` dict of
    :class:`~tokengen.outputs.options.BuildOptions` keyword arguments (lengths in pt, scale as factors).

    Raises (when the command runs):
        UsageError: a malformed offset or scale, or ``--flip``/``--back-offset`` without ``--backs``.
    """

    @functools.wraps(f)
    def wrapper(*args: Any, backs: str | None, flip: str | None, back_offset: str | None,
                printer_scale: str | None, rules: bool, **kwargs: Any) -> Any:
        if not backs and (flip or back_offset):
            from ..outputs.summary import BACKS_NEEDED

            raise UsageError(BACKS_NEEDED)
        options: dict[str, Any] = {"backs": backs, "flip": flip or "long", "rules": rules}
        if back_offset:
            from ..faces.pagesetup import parse_offset

            options["back_offset"] = parse_offset(back_offset)
        if printer_scale:
            from ..faces.pagesetup import parse_scale

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
        click.option("--rules", is_flag=True, help="Append the rules sheet of a Meatshields catalogue (the rules in our words, its numbers and variants)."),
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
    from ..faces.pagesetup import parse_offset, parse_scale
    from ..outputs.aligntest import write_alignment_test

    offset = parse_offset(back_offset) if back_offset else (0.0, 0.0)
    scale = parse_scale(printer_scale) if printer_scale else None
    warnings: list[str] = []
    out = write_alignment_test(output, size, flip, offset, scale, warnings=warnings)
    click.echo(f"wrote {out}: duplex alignment test, {flip}-edge flip (2 pages)")
    for warning in warnings:
        click.echo(f"tokengen: warning: {warning}", err=True)


def echo_build_report(result: Any) -> None:
    """Echo what a build wrote (the PDF, the separate backs file) and its warnings on stderr
    (``tokengen: warning: …``), in the words of :mod:`tokengen.outputs.summary`."""
    from ..outputs.summary import build_lines, warning_line

    for line in build_lines(result):
        click.echo(line)
    for warning in result.warnings:
        click.echo(warning_line(warning), err=True)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="tokengen")
def cli() -> None:
    """Turn a YAML catalogue of game tokens into print-ready PDF sheets.

    \b
    Example:
      tokengen build token_defs.yaml -o meatshields.pdf
    """


@cli.command()
@click.argument("catalogue", default=DEFAULT_CATALOGUE, type=CATALOGUE)
@click.option("-o", "--output", type=click.Path(path_type=str), default=None,
              help="PDF to write (default: named after the catalogue, in the current folder: meatshields.pdf); "
                   "an existing folder (DIR/) gets the same name in DIR.")
@_sheet_options
@click.option("--copies", type=click.IntRange(1, 100_000), default=1, show_default=True, help="N whole sets of the catalogue, one after another.")
@click.option("--size", "token_size", type=LENGTH, default=None, metavar="LENGTH", help="Token trim size (0.75in, 25mm, 72pt); default: the catalogue's size.")
@click.option("--scale", type=float, default=None, metavar="FACTOR", help="Scale the catalogue's token size by FACTOR (1.25); exclusive with --size.")
@click.option("--max-tokens", type=click.IntRange(1), default=MAX_TOKENS, show_default=True, help="Refuse runs with more tokens.")
@click.option("--max-pages", type=click.IntRange(1), default=MAX_PAGES, show_default=True, help="Refuse runs with more pages.")
@backs_options
@click.option("--allow-outside-art", is_flag=True, help="Accept art paths that leave the catalogue's folder.")
@click.option("--fold", type=click.Choice(["long", "short"]), default=None, is_flag=False, flag_value="long",
              help="Fold-over sheets for printers without duplex: backs beside the faces, mirrored across a dashed fold line "
                   "(long: the line runs along the sheet's long edges; short: across).")
@click.option("--punch", is_flag=True, help="Circle tokens: four centring ticks around each for a circle punch, instead of the cut circle.")
@click.option("--keep-resolution", is_flag=True, help="Embed art at its own resolution (no resampling down to 600 DPI).")
@click.option("--max-art-pixels", type=click.IntRange(1), default=MAX_ART_PIXELS, show_default=True,
              help="Refuse builds whose art holds more pixels (after resampling).")
@_preview_options(watch=True)
def build(catalogue: Path, output: str, page: str, landscape: bool, margin: float, gutter: float, columns: int | None,
          cut_lines: bool, crop_marks: bool, fill: bool, home_bleed: float, copies: int, token_size: float | None, scale: float | None,
          max_tokens: int, max_pages: int, backs: dict[str, Any], allow_outside_art: bool = False, fold: str | None = None,
          punch: bool = False, keep_resolution: bool = False, max_art_pixels: int = MAX_ART_PIXELS, previews: Any = None) -> Any:
    """Build the token sheets of CATALOGUE (default token_defs.yaml; or a bundled catalogue's
    name: meatshields) as one PDF.

    \b
    Examples:
      tokengen build meatshields
      tokengen build -o meatshields.pdf
      tokengen build token_defs.yaml --page a4 --columns 3 -o a4.pdf
      tokengen build --copies 2 --crop-marks --no-cut-lines -o two-sets.pdf
      tokengen build --copies 50 --columns 0 -o full-pages.pdf
      tokengen build --fill -o full-sheet.pdf
      tokengen build --backs --back-offset 0.5mm,-1mm --rules -o duplex.pdf
      tokengen build --size 25mm --page a4 -o a4-25mm.pdf
      tokengen build --scale 1.25 -o big.pdf
      tokengen build --preview -o sheet.pdf        # and sheet-1.png, sheet-2.png at 100 DPI
      tokengen build --watch --preview -o sheet.pdf  # rebuild on every save
    """
    from ..geometry import sizing
    from ..outputs.build import build_pdf
    from ..outputs.options import BuildOptions
    from ..outputs.summary import SIZE_OR_SCALE
    from ..sources.bundled import default_output
    from ..sources.catalogue import load_catalogue

    if token_size is not None and scale is not None:
        raise click.UsageError(SIZE_OR_SCALE)
    cat = load_catalogue(catalogue, allow_outside_art=allow_outside_art)
    spec = sheet_spec(page, landscape, margin, gutter, columns, cut_lines, crop_marks,
                      sizing.token_size(cat.size, token_size, scale, cat.shape), group=cat.columns, home_bleed=home_bleed)
    default = default_output(catalogue, cat.title)
    target = default if output is None else output_file(output, default.name)
    if punch:
        if cat.shape is None or cat.shape.kind != "circle":
            raise click.UsageError("--punch is for circle tokens (shape: circle)")
        spec = dataclasses.replace(spec, shape=dataclasses.replace(cat.shape, punch=True))
    result = build_pdf(cat, BuildOptions(sheet=spec, copies=copies, max_tokens=max_tokens, max_pages=max_pages, fill=fill, fold=fold, **backs,
                                         max_dpi=None if keep_resolution else MAX_DPI, max_art_pixels=max_art_pixels), target,
                       also=previews)
    echo_build_report(result)
    return result


cli.add_command(align)


@cli.command("init")
@click.argument("folder", default=".", type=click.Path(file_okay=False, path_type=Path))
def init_command(folder: Path) -> None:
    """Write an editable token_defs.yaml (the Meatshields set) and a short guide to its fields
    into FOLDER (default: the current folder). Never overwrites a file.

    \b
    Examples:
      tokengen init
      tokengen init my-tokens && cd my-tokens && tokengen build
    """
    from ..sources.bundled import init

    for path in init(folder):
        click.echo(f"wrote {path}")


def _rules_options(f: Any, note: str = "") -> Any:
    """Variant overrides and interpretation choices shared by ``check`` and ``target``; ``note``
    starts each option's help."""
    from ..games.meatshields.interpretations import INTERPRETATIONS

    options = [
        click.option("--variant", "add", multiple=True, metavar="NAME", help=f"{note}Put an optional rule in play (repeatable)."),
        click.option("--no-variant", "remove", multiple=True, metavar="NAME", help=f"{note}Take an optional rule out of play (repeatable)."),
    ] + [
        click.option(f"--{name.replace('_', '-')}", name, type=click.Choice(list(choices)), default=None,
                     help=note + "; ".join(f"{k}: {v}" for k, v in choices.items()).replace("WOUNDS", "game.damage.wounds")
                     + f". Default: the catalogue's interpretations: entry, else {next(iter(choices))}.")
        for name, choices in INTERPRETATIONS.items()
    ] + [
        click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
                     help="A readable report, or JSON with stable keys for scripts."),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def _check_rules_options(f: Any) -> Any:
    """:func:`_rules_options` for ``check``, which checks any game: each says it is Meatshields'."""
    return _rules_options(f, note="Meatshields only. ")


def _echo_json(data: dict[str, Any]) -> None:
    import json

    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


@cli.command(short_help="Check that a token set prints and plays (its game's rules).")
@click.argument("catalogue", default=DEFAULT_CATALOGUE, type=CATALOGUE)
@_check_rules_options
@click.option("--page", default="letter", show_default=True, metavar="NAME|WxH", shell_complete=complete_page,
              help="Sheet to check the token size against.")
@click.option("--margin", type=LENGTH, default="0.25in", show_default=True, help="Border kept clear on every side.")
@click.option("--size", "token_size", type=LENGTH, default=None, metavar="LENGTH",
              help="Check printing at this token size (default: the catalogue's size).")
def check(catalogue: Path, add: tuple[str, ...], remove: tuple[str, ...], fmt: str, page: str, margin: float,
          token_size: float | None, **readings: str | None) -> None:
    """Check that the token set in CATALOGUE (default token_defs.yaml) can be printed and played:
    every catalogue gets the generic checks (unique ids, matching backs when drawn blind, the
    token fits the sheet, legible text), then the checks of its game module, if it names one.
    A Meatshields catalogue gets the Meatshield rules (bag size, draws, targeting, costs), with
    the variants and readings below. Exit status: 0 playable, 1 not playable, 2 bad input.

    \b
    Examples:
      tokengen check
      tokengen check token_defs.yaml --variant town-draws --no-variant solo-start
      tokengen check --ties all --format json
      tokengen check --size 0.5in
    """
    from ..games.meatshields.rules import Settings
    from ..games.registry import check_catalogue, format_report  # any catalogue: generic checks, then its game module's

    try:
        page_size = parse_page(page)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--page'") from None
    settings = Settings(page=page_size, margin=margin, size=token_size)
    report = check_catalogue(catalogue, settings, add=add, remove=remove, readings=readings)
    if fmt == "json":
        _echo_json(report.as_dict())
    else:
        click.echo(format_report(report), nl=False)
    if not report.playable:
        errors = report.counts()["error"]
        raise CheckFailed(f"{catalogue}: not playable ({errors} error{'s' if errors != 1 else ''})")


@cli.command(short_help="Resolve who each monster attacks this round.")
@click.argument("scenario", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("-c", "--catalogue", default=DEFAULT_CATALOGUE, show_default=True, type=CATALOGUE,
              help="Catalogue giving the attributes, priorities, tokens and variants.")
@click.option("-a", "--adventurer", "adventurers", multiple=True, metavar="NAME:STR=9,AGI=8,...",
              help="An Adventurer and all six scores (repeatable; added to the scenario's).")
@click.option("-m", "--monster", "monsters", multiple=True, metavar="[NAME=]TARGETING",
              help="A monster's targeting: ↓STR, ↑MAG, ↓↑PER, ALL, or low:STR, high:STR, both:STR, all (repeatable).")
@click.option("-d", "--deployed", multiple=True, metavar="TOKEN_ID|SPEC",
              help="The deployed Meatshield: a token id (str-low), a spec (↓STR), or none. Give it once: one Meatshield fights at a time.")
@_rules_options
def target(scenario: Path | None, catalogue: Path, adventurers: tuple[str, ...], monsters: tuple[str, ...],
           deployed: tuple[str, ...], add: tuple[str, ...], remove: tuple[str, ...], fmt: str, **readings: str | None) -> None:
    """Resolve one Establish Targets step: for each monster, who it attacks and how many times.
    SCENARIO is an optional YAML file (adventurers, monsters, deployed, variants).

    \b
    Examples:
      tokengen target -a Ann:STR=6,AGI=3,CON=4,MAG=2,MRL=5,PER=3 \\
                      -a Bob:STR=2,AGI=5,CON=5,MAG=4,MRL=3,PER=6 \\
                      -m "Rat King=↓STR" -m both:PER -m ALL -d str-low
      tokengen target fight.yaml --variant target-all-hits --format json
    """
    from ..games.meatshields.rules import target as resolve

    for option, values in (("--adventurer", adventurers), ("--monster", monsters), ("--deployed", deployed)):
        for value in values:  # every message quotes the value: keep it short
            if len(value) > MAX_SPEC:
                raise click.BadParameter(f"{len(value)} characters, more than {MAX_SPEC}", param_hint=f"'{option}'")
    if len(deployed) > 1:  # one Meatshield takes part in a fight at a time (variant, Combat)
        raise click.BadParameter(f"given {len(deployed)} times ({', '.join(deployed)}); only one Meatshield is deployed at a time, "
                                 "so give it once", param_hint="'-d' / '--deployed'")
    result = resolve(catalogue, scenario, adventurers=adventurers, monsters=monsters, deployed=deployed[0] if deployed else None,
                     add=add, remove=remove, interpretations=readings)
    if fmt == "json":
        _echo_json(result.as_dict())
    else:
        click.echo(result.format(), nl=False)


def _list_profiles(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """``export --list-profiles``: print the profile table and stop (eager, like --version)."""
    if not value or ctx.resilient_parsing:
        return
    from ..outputs.profilelist import profile_table

    click.echo(profile_table(ctx.params.get("profiles_file")), nl=False)
    ctx.exit(0)


@cli.command("export")
@click.argument("catalogue", default=DEFAULT_CATALOGUE, type=CATALOGUE)
@click.option("--profile", "profile_name", required=True, metavar="NAME", shell_complete=complete_profile,
              help="home, print-shop, eu-3mm, cut-svg, cut-dxf, tgc-chits, single-pages, dtc-poker, dtc-euro-poker, "
                   "tgc-poker, tgc-euro-poker, tgc-square-chit-large|medium|small, tgc-round-chit-large|medium|small, "
                   "mpc-poker, or one from --profiles (see --list-profiles).")
@click.option("--list-profiles", is_flag=True, is_eager=True, expose_value=False, callback=_list_profiles,
              help="Print every profile (name, product, output, source) and exit; after --profiles FILE, its ones too.")
@click.option("-o", "--output", "out_dir", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Folder to write into (created if missing).")
@click.option("--dpi", type=click.IntRange(72, 2400), default=None, help="PNG resolution, overriding the profile's.")
@click.option("--profiles", "profiles_file", type=click.Path(dir_okay=False, path_type=Path), default=None, is_eager=True,
              help="YAML file adding or overriding profiles (same shape as the built-in profiles.yaml).")
@click.option("--page", default=None, metavar="NAME|WxH", help="Sheet page, overriding the profile's (letter, a4, …, WxH).")
@click.option("--landscape", is_flag=True, default=None, help="Turn the profile's page sideways.")
@click.option("--columns", type=click.IntRange(0, 1000), default=None, help="At most N columns; 0: as many as fit (overrides the profile).")
@click.option("--copies", type=click.IntRange(1, 100_000), default=None, help="Sets of the catalogue (overrides the profile).")
@click.option("--fill/--no-fill", default=None, help="Repeat whole sets until the last sheet is full (overrides the profile).")
@click.option("--size", "token_size", type=LENGTH, default=None, metavar="LENGTH", help="Token trim size; default: the catalogue's.")
@click.option("--allow-preflight-failures", is_flag=True, help="Exit 0 even when the written file fails its own preflight.")
@click.option("--max-tokens", type=click.IntRange(1), default=MAX_TOKENS, show_default=True, help="Refuse runs with more tokens.")
@click.option("--max-pages", type=click.IntRange(1), default=MAX_PAGES, show_default=True, help="Refuse runs with more pages.")
@click.option("--max-pixels", type=click.IntRange(1), default=MAX_PNG_PIXELS, show_default=True,
              help="Refuse PNGs with more pixels each (png profiles).")
@click.option("--max-total-pixels", type=click.IntRange(1), default=MAX_TOTAL_PIXELS_PNG, show_default=True,
              help="Refuse PNG sets with more pixels in all (png profiles).")
@click.option("--keep-resolution", is_flag=True, help="Embed art at its own resolution (no resampling down to the profile's max_dpi).")
@_preview_options()
def export_command(catalogue: Path, profile_name: str, out_dir: Path, dpi: int | None, profiles_file: Path | None,
                   page: str | None, landscape: bool | None, columns: int | None, copies: int | None, fill: bool | None,
                   token_size: float | None, allow_preflight_failures: bool, max_tokens: int = MAX_TOKENS,
                   max_pages: int = MAX_PAGES, max_pixels: int = MAX_PNG_PIXELS, max_total_pixels: int = MAX_TOTAL_PIXELS_PNG,
                   keep_resolution: bool = False, previews: Any = None) -> list[Path]:
    """Write the files a print shop takes for CATALOGUE (default token_defs.yaml).

    \b
    Examples:
      tokengen export --profile print-shop -o out/shop
      tokengen export token_defs.yaml --profile tgc-chits -o out/tgc
      tokengen export --profile tgc-chits --dpi 600 -o out/tgc600
      tokengen export --profile my-shop --profiles my-profiles.yaml -o out/mine
      tokengen export --profile print-shop -o out/shop --preview
      tokengen export --profile print-shop --page tabloid --size 0.75in -o out/tabloid

    Exit status: 0 written and passing its preflight; 1 written but failing it (unless
    --allow-preflight-failures); 2 bad input.
    """
    from ..faces import scale as scaling
    from ..geometry import sizing
    from ..outputs.export import export, preflight_failures
    from ..outputs.summary import export_line, preflight_failed, preflight_passed, warning_line
    from ..sources.catalogue import load_catalogue
    from ..sources.profiles import get_profile

    profile = get_profile(profile_name, profiles_file)
    profile = _override_profile(profile, page, landscape, columns, copies, fill)
    cat = load_catalogue(catalogue)
    size = sizing.token_size(cat.size, token_size, None, cat.shape)
    notes: list[str] = []
    written = export(cat, profile, out_dir, dpi=dpi, size=size, max_tokens=max_tokens, max_pages=max_pages,
                     max_pixels=max_pixels, max_total_pixels=max_total_pixels, keep_resolution=keep_resolution, warnings=notes,
                     also=previews)
    click.echo(export_line(written, out_dir, profile.name))
    for warning in dict.fromkeys([*scaling.small_text_warnings(cat, size), *notes]):  # sheets' builds repeat the small-text ones
        click.echo(warning_line(warning), err=True)
    pdf = written[0]
    failed = preflight_failures(pdf, profile, cat, size)
    if failed:
        again = [*(("--page", page) if page is not None else ()), *(("--landscape",) if landscape else ())]
        message = preflight_failed(pdf, failed, profile.name, again)
        if not allow_preflight_failures:
            raise CheckFailed(message)
        click.echo(f"warning: {message}", err=True)
    else:
        click.echo(preflight_passed(pdf, profile.name))
    return written


def _override_profile(profile: Any, page: str | None, landscape: bool | None, columns: int | None, copies: int | None,
                      fill: bool | None) -> Any:
    """``profile`` with the sheet keys given on the command line replaced (raises BadParameter)."""
    from dataclasses import replace

    changes: dict[str, Any] = {k: v for k, v in (("columns", columns), ("copies", copies), ("fill", fill)) if v is not None}
    if page is not None or landscape:
        try:
            changes["page"] = parse_page(page, landscape=bool(landscape)) if page is not None else \
                (max(profile.page), min(profile.page))
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="'--page'") from None
    return replace(profile, **changes) if changes else profile


@cli.command("preflight")
@click.argument("pdf", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--profile", "profile_name", default="print-shop", show_default=True, metavar="NAME", shell_complete=complete_profile,
              help="The profile to check against.")
@click.option("--profiles", "profiles_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="YAML file adding or overriding profiles.")
@click.option("--size", type=LENGTH, default=None, help="Expected token trim (single-page profiles), e.g. 1in.")
@click.option("--page", default=None, metavar="NAME|WxH", help="Expected sheet page, overriding the profile's (as export --page).")
@click.option("--landscape", is_flag=True, default=None, help="Expect the profile's page sideways (as export --landscape).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True, help="Report format.")
@click.option("--max-file-mb", type=click.IntRange(1), default=1024, show_default=True, help="Refuse a larger file, MiB.")
@click.option("--max-pages", type=click.IntRange(1), default=5000, show_default=True, help="Refuse a PDF with more pages.")
@click.option("--max-placements", type=click.IntRange(1), default=1_000_000, show_default=True,
              help="Most Form XObject and image placements walked (nested ones included).")
@click.option("--max-operators", type=click.IntRange(1), default=20_000_000, show_default=True, help="Most content-stream operators read.")
@click.option("--max-stream-mb", type=click.IntRange(1), default=64, show_default=True, help="Largest decoded size of one stream, MiB.")
@click.option("--max-decoded-mb", type=click.IntRange(1), default=1024, show_default=True, help="Most bytes decoded from streams in total, MiB.")
def preflight_command(pdf: Path, profile_name: str, profiles_file: Path | None, size: float | None, fmt: str,
                      page: str | None = None, landscape: bool | None = None, **limits: int) -> None:
    """Check PDF the way a print shop would, before you upload it.

    Exit 0 when every check passes, 1 when any fails, 2 when the file cannot be read.

    \b
    Examples:
      tokengen preflight out/shop/meatshields-print-shop.pdf
      tokengen preflight out/cards/meatshields-single-pages.pdf --profile single-pages --size 1in
      tokengen preflight sheet.pdf --profile eu-3mm --format json
      tokengen preflight out/big/meatshields-print-shop.pdf --page tabloid
    """
    import json

    from ..preflight.checks import preflight
    from ..preflight.pdfwalk import Limits
    from ..sources.profiles import get_profile

    profile = _override_profile(get_profile(profile_name, profiles_file), page, landscape, None, None, None)
    checks = preflight(pdf, profile, size=size, limits=Limits(**{k.removeprefix("max_"): v for k, v in limits.items()}))
    failed = [c for c in checks if not c.passed]
    if fmt == "json":
        click.echo(json.dumps({"file": str(pdf), "profile": profile.name, "passed": not failed,
                               "checks": [c.to_dict() for c in checks]}, indent=2, ensure_ascii=False))
    else:
        for check in checks:
            click.echo(f"{'FAIL' if not check.passed else 'WARN' if check.warning else 'PASS'}  {check.name:<12} {check.message}")
            for problem in check.problems[1:]:
                click.echo(f"      {'':<12} {problem}")
        click.echo(f"{pdf}: {len(checks) - len(failed)} of {len(checks)} checks passed (profile {profile.name})")
    if failed:
        raise CheckFailed(f"{pdf}: {len(failed)} of {len(checks)} preflight checks failed ({', '.join(c.name for c in failed)})")


@cli.command()
@click.argument("source", default=DEFAULT_CATALOGUE, metavar="[CATALOGUE|JOBS.yaml]", type=CATALOGUE)
@click.option("-o", "--output-dir", type=click.Path(file_okay=False, path_type=Path), default="out", show_default=True, help="Folder for the PDFs (created if missing).")
@click.option("--size", "sizes", type=LENGTH, multiple=True, metavar="LENGTH", help="A token size; repeat for several (default: the catalogue's).")
@click.option("--scale", "scales", type=float, multiple=True, metavar="FACTOR", help="A factor on the catalogue's size; repeatable.")
@click.option("--page", "pages", multiple=True, metavar="NAME|WxH", shell_complete=complete_page, help="A page (letter, a4, …, WIDTHxHEIGHT); repeatable (default: letter).")
@click.option("--landscape", is_flag=True, help="Turn the pages sideways.")
@click.option("--margin", type=LENGTH, default="0.25in", show_default=True, help="Border kept clear on every side.")
@click.option("--gutter", type=LENGTH, default="0", show_default=True, help="Space between tokens (0: shared cut edges).")
@click.option("--columns", type=click.IntRange(0, 1000), default=None, help="At most N columns; 0: as many as fit.")
@click.option("--cut-lines/--no-cut-lines", default=True, show_default=True, help="Full-length cut lines on the token edges.")
@click.option("--crop-marks", is_flag=True, help="Short crop marks outside the grid.")
@click.option("--copies", type=click.IntRange(1, 100_000), default=1, show_default=True, help="N whole sets of the catalogue, one after another.")
@click.option("-j", "--jobs", "workers", type=click.IntRange(1, 256), default=None, help="Worker processes (default: every core; at most 61 on Windows).")
@click.option("--force", is_flag=True, help="Rebuild outputs that are newer than their inputs.")
def batch(source: Path, output_dir: Path, sizes: tuple[float, ...], scales: tuple[float, ...], pages: tuple[str, ...],
          landscape: bool, margin: float, gutter: float, columns: int | None, cut_lines: bool, crop_marks: bool,
          copies: int, workers: int | None, force: bool) -> None:
    """Build many sheets at once: every --size/--scale × --page of CATALOGUE, or the jobs of a
    job file (a YAML file with a `jobs:` list), in parallel processes.

    Outputs are named after what is inside (meatshields_25mm_a4.pdf). Outputs newer than their
    inputs are skipped unless --force. A failing job does not stop the others; the exit status
    is then 2.

    \b
    Examples:
      tokengen batch --size 0.75in --size 1in --size 25mm --page letter --page a4 -o out
      tokengen batch jobs.yaml -o out --force
    """
    from ..outputs import batch as batching

    if batching.is_job_file(source):
        ctx = click.get_current_context()
        given = [p.opts[-1] for p in ctx.command.params
                 if p.name not in ("source", "output_dir", "workers", "force")
                 and ctx.get_parameter_source(p.name or "") == click.core.ParameterSource.COMMANDLINE]
        if given:
            raise click.UsageError(f"{', '.join(given)}: a job file sets these per job")
        jobs = batching.load_jobs(source, output_dir)
    else:
        jobs = batching.matrix_jobs(source, output_dir, sizes=sizes, scales=scales, pages=pages or ("letter",),
                                    landscape=landscape, margin=margin, gutter=gutter, columns=columns,
                                    cut_lines=cut_lines, crop_marks=crop_marks, copies=copies)
    try:
        output_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ExportError(f"{output_dir}: cannot create folder: {exc.strerror or exc}") from None
    if sys.stdout.isatty():
        with click.progressbar(length=len(jobs), label="building", show_pos=True) as bar:
            results = batching.run_jobs(jobs, workers=workers, force=force, on_result=lambda r: bar.update(1))
    else:
        done = iter(range(1, len(jobs) + 1))
        results = batching.run_jobs(jobs, workers=workers, force=force, on_result=lambda r: click.echo(
            batching.progress_line(r, next(done), len(jobs))))
    click.echo(batching.summary_table(results))
    for warning in dict.fromkeys(w for r in results for w in r.warnings):  # each distinct warning once
        click.echo(f"tokengen: warning: {warning}", err=True)
    failed = [r for r in results if not r.ok]
    if failed:
        raise batching.BatchError(f"{len(failed)} of {len(results)} jobs failed: {', '.join(r.job.name for r in failed)}")


@cli.command("preview")
@click.argument("pdf", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None, metavar="FILE.png",
              help="FILE.png for one --page, else FILE-1.png … per page (default: the PDF's name with .png).")
@click.option("--dpi", type=click.IntRange(10, 1200), default=100, show_default=True, help="Resolution (px per in).")
@click.option("--page", type=click.IntRange(1), default=None, metavar="N", help="Only page N.")
def preview_command(pdf: Path, output: Path | None, dpi: int, page: int | None) -> None:
    """Render any PDF to PNG, one file per page (or page N), at a stated DPI (pdfium).
    A page W × H pt becomes round(W/72 × DPI) × round(H/72 × DPI) px.

    \b
    Examples:
      tokengen preview meatshields.pdf                    # meatshields-1.png … at 100 DPI
      tokengen preview meatshields.pdf --page 2 --dpi 200 -o page2.png
    """
    from ..outputs.preview import check_target, write_previews

    pngs = write_previews(pdf, output if output is None else check_target(output, "-o/--output"), dpi, page)
    click.echo(f"wrote {len(pngs)} PNG{'s' if len(pngs) != 1 else ''} at {dpi} DPI: {pngs[0]}" + (f" … {pngs[-1].name}" if len(pngs) > 1 else ""))


@cli.command("serve")
@click.argument("catalogue", default=DEFAULT_CATALOGUE, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True, help="Port on 127.0.0.1 (0: a free one, printed on start).")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the default browser.")
def serve_command(catalogue: Path, port: int, open_browser: bool) -> None:
    """Serve a local page (http://127.0.0.1 only) to choose options, look at the sheet, read
    the check report and download the files; it re-renders when CATALOGUE changes on disk.
    Needs the web extra: pip install 'tokengen[web]'.

    \b
    Examples:
      tokengen serve                      # token_defs.yaml on a free port
      tokengen serve token_defs.yaml --port 8765 --open
    """
    if not catalogue.is_file():
        raise click.BadParameter(f"{catalogue}: no such file" if not catalogue.exists() else f"{catalogue}: not a file",
                                 param_hint="'CATALOGUE'")
    try:
        from ..web.server import serve
    except ModuleNotFoundError as exc:
        raise TokengenError(f"tokengen serve needs the web extra ({exc.name} is missing): pip install 'tokengen[web]'") from None
    serve(catalogue, port, open_browser, echo=lambda line: click.echo(line) or sys.stdout.flush())


def usage_message(exc: click.ClickException) -> str:
    """One line for a click usage error: click's own message, a hint where a common slip is
    likely, and where to read more (click prints usage, a blank line and the error otherwise)."""
    from ..outputs.summary import BACKS_HINT, usage_line

    message = exc.format_message()
    param = getattr(exc, "param", None)
    if isinstance(exc, click.BadParameter) and param is not None and param.name == "backs":
        message = message.rstrip(".") + BACKS_HINT
    ctx = getattr(exc, "ctx", None)
    if isinstance(exc, click.UsageError) and ctx is not None:
        message = usage_line(ctx.command_path, message)
    return message


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``tokengen`` script: runs :func:`cli` and turns every error into a
    one-line message on stderr and an exit code (never a traceback). With no arguments at all
    it prints the help and exits 0. Standard output that cannot be written (closed pipe, full
    disk, an encoding without the text) is one line and exit code 2 too (:mod:`tokengen.cli.streams`)."""
    completing = "_TOKENGEN_COMPLETE" in os.environ  # shell completion passes its words in the environment
    if not (sys.argv[1:] if argv is None else argv) and not completing:
        with click.Context(cli, info_name="tokengen") as ctx:
            click.echo(cli.get_help(ctx))
        return streams.finish_stdout(0)
    try:
        code = _main(argv)
    except SystemExit:  # click ends a closed pipe (EPIPE) with a silent exit 1
        if not streams.click_pacified():
            raise
        streams.report(streams.BROKEN_PIPE)
        return 2
    return streams.finish_stdout(code)


def _main(argv: list[str] | None) -> int:
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
        click.echo(f"tokengen: error: {usage_message(exc)}", err=True)
        return 2
    except KeyboardInterrupt:
        click.echo("tokengen: interrupted", err=True)
        return 130
    except Exception as exc:  # a bug of ours: one line for the user, the traceback on request
        failure = streams.stdout_failure(exc)
        if failure is not None:
            streams.report(failure)
            return 2
        if os.environ.get("TOKENGEN_DEBUG"):
            raise
        from ..sources.yamlsrc import one_line
        click.echo(f"tokengen: internal error: {type(exc).__name__}: {one_line(str(exc))} "
                   "(please report it; TOKENGEN_DEBUG=1 shows the traceback)", err=True)
        return 70
    return 0



def run() -> None:
    """Console-script wrapper: ``sys.exit(main())``. A plain ``kill`` (SIGTERM) exits 143 and
    a hang-up (SIGHUP, the terminal closed) exits 129, both through the normal clean-up, so no
    temporary file is left behind; Ctrl-C exits 130 (also during start-up, see
    :mod:`tokengen._startup`)."""
    signal.signal(signal.SIGINT, signal.default_int_handler)  # start-up is over: KeyboardInterrupt from here
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, lambda signum, frame: sys.exit(128 + signum))
    from .console import make_safe

    make_safe()  # a cp1252 or ASCII console prints ↓ as v instead of failing
    sys.exit(main())
