"""Sheets: ``tokengen build``, ``init``, ``align`` and ``preview``."""

from __future__ import annotations

import dataclasses
import functools
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..limits import (
    MAX_ART_PIXELS,
    MAX_DPI,
    MAX_FONT_CODE_POINTS,
    MAX_PAGES,
    MAX_SVG_ELEMENTS,
    MAX_TOKENS,
    RENDER_MEMORY_MB,
    RENDER_SECONDS,
)
from ..units import counted, parse_page
from .app import cli
from .completion import complete_page
from .habits import data, say, step, warn
from .params import (
    CATALOGUE,
    DEFAULT_CATALOGUE,
    FORMAT,
    LENGTH,
    REPORT,
    SIZE,
    _echo_json,
    _preview_options,
    _sheet_options,
    backs_options,
    output_file,
    preflight_limits,
    sheet_spec,
    written_report,
)

if TYPE_CHECKING:
    from ..model import Catalogue
    from ..outputs.options import BuildOptions


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
    say(f"wrote {out}: duplex alignment test, {flip}-edge flip (2 pages)")
    for warning in warnings:
        warn(f"tokengen: warning: {warning}")


def echo_build_report(result: Any, fmt: str = "text") -> None:
    """Echo what a build wrote (the PDF, the separate backs file) and its warnings on stderr
    (``tokengen: warning: …``), in the words of :mod:`tokengen.outputs.summary`; with ``fmt``
    "json" the lines give way to :func:`tokengen.cli.params.written_report`'s object, printed
    once the previews are written too."""
    from ..outputs.summary import build_lines, warning_line

    if fmt == "text":
        for line in build_lines(result):
            say(line)
    for warning in result.warnings:
        warn(warning_line(warning))


def build_json(result: Any) -> None:
    """Print a build's ``--format json`` object: the PDF, the backs file and the previews."""
    previews = click.get_current_context().meta.get("tokengen.previews", [])
    files = [result.path, *([result.backs_path] if result.backs_path else []), *previews]
    _echo_json(written_report("build", files, result.pages + result.back_pages + result.rules_pages, result.tokens, list(result.warnings),
                              sets=result.sets, face_pages=result.pages, back_pages=result.back_pages, rules_pages=result.rules_pages))


@cli.command()
@click.argument("catalogue", default=DEFAULT_CATALOGUE, type=CATALOGUE)
@click.option("-o", "--output", type=click.Path(path_type=str), default=None,
              help="PDF to write (default: named after the catalogue, in the current folder: meatshields.pdf); "
                   "an existing folder (DIR/) gets the same name in DIR.")
@_sheet_options
@click.option("--copies", type=click.IntRange(1, 100_000), default=1, show_default=True, help="N whole sets of the catalogue, one after another.")
@click.option("--size", "token_size", type=SIZE, default=None, metavar="LENGTH", help="Token trim size (0.75in, 25mm, 72pt, or WIDTHxHEIGHT: 63mmx88mm, 63x88mm); default: the catalogue's size.")
@click.option("--scale", type=float, default=None, metavar="FACTOR", help="Scale the catalogue's token size by FACTOR (1.25); exclusive with --size.")
@click.option("--max-tokens", type=click.IntRange(1), default=MAX_TOKENS, show_default=True, help="Refuse runs with more tokens.")
@click.option("--max-pages", type=click.IntRange(1), default=MAX_PAGES, show_default=True, help="Refuse runs with more pages.")
@backs_options
@click.option("--allow-outside-art", is_flag=True, help="Accept art paths that leave the catalogue's folder.")
@click.option("--max-font-code-points", type=click.IntRange(1), default=MAX_FONT_CODE_POINTS, show_default=True,
              help="Refuse catalogue fonts whose cmap maps more code points.")
@click.option("--fold", type=click.Choice(["long", "short"]), default=None, is_flag=False, flag_value="long",
              help="Fold-over sheets for printers without duplex: backs beside the faces, mirrored across a dashed fold line "
                   "(long: the line runs along the sheet's long edges; short: across).")
@click.option("--tile/--no-tile", default=True, show_default=True,
              help="A board larger than the page: print it over several pages with overlaps, marks and an assembly key (catalogue key tile:); "
                   "--no-tile refuses it.")
@click.option("--sheet", "sheet_file", type=click.Path(dir_okay=False, path_type=Path), default=None, metavar="FILE",
              help="Lay the sheets out by hand from FILE (slots by position, or groups and zones), as a catalogue's sheet: does.")
@click.option("--punch", is_flag=True, help="Circle tokens: four centring ticks around each for a circle punch, instead of the cut circle.")
@click.option("--keep-resolution", is_flag=True, help="Embed art at its own resolution (no resampling down to 600 DPI).")
@click.option("--max-art-pixels", type=click.IntRange(1), default=MAX_ART_PIXELS, show_default=True,
              help="Refuse builds whose art embeds more pixels in all (after resampling); one picture may hold a fifth of it (at least 50 Mpx).")
@click.option("--max-svg-elements", type=click.IntRange(1), default=MAX_SVG_ELEMENTS, show_default=True,
              help="Refuse SVG art with more elements (its <use> copies counted).")
@click.option("--furniture", type=click.Choice(["full", "compact", "none"]), default="full", show_default=True,
              help="The calibration ruler and caption: full (across the foot, or up the left margin when the foot strip would cost a sheet), "
                   "compact (up the left margin whenever the sheet still holds as many tokens), none.")
@FORMAT
@_preview_options(watch=True)
def build(catalogue: Path, output: str, page: str, landscape: bool, margin: float, gutter: float, columns: int | None,
          cut_lines: bool, crop_marks: bool, fill: bool, home_bleed: float, copies: int, token_size: float | tuple[float, float] | None, scale: float | None,
          max_tokens: int, max_pages: int, backs: dict[str, Any], allow_outside_art: bool = False, fold: str | None = None,
          punch: bool = False, keep_resolution: bool = False, max_art_pixels: int = MAX_ART_PIXELS, max_svg_elements: int = MAX_SVG_ELEMENTS,
          furniture: str = "full", tile: bool = True, sheet_file: Path | None = None,
          max_font_code_points: int = MAX_FONT_CODE_POINTS, previews: Any = None, fmt: str = "text") -> Any:
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
      tokengen build board.yaml -o board.pdf         # a board larger than the page, tiled over pages
      tokengen build game.yaml -o game.pdf           # a project: every part after a contents page
      tokengen build --backs --back-offset 0.5mm,-1mm --rules -o duplex.pdf
      tokengen build --size 25mm --page a4 -o a4-25mm.pdf
      tokengen build --scale 1.25 -o big.pdf
      tokengen build examples/poker-cards/cards.yaml --furniture compact -o cards.pdf
      tokengen build --preview -o sheet.pdf        # and sheet-1.png, sheet-2.png at 100 DPI
      tokengen build --watch --preview -o sheet.pdf  # rebuild on every save
      tokengen build --format json -o sheet.pdf      # what was written, as JSON
    """
    from ..geometry import sizing
    from ..outputs.build import build_pdf
    from ..sources.bundled import default_output
    from ..sources.project import is_project

    _check_build_flags(token_size is not None, scale is not None, fmt)
    load = functools.partial(_load, allow_outside_art=allow_outside_art, max_font_code_points=max_font_code_points,
                             sheet_file=sheet_file)
    options_for = functools.partial(
        _build_options, sheet=dict(page=page, landscape=landscape, margin=margin, gutter=gutter, columns=columns,
                                   cut_lines=cut_lines, crop_marks=crop_marks, home_bleed=home_bleed),
        token_size=token_size, scale=scale, furniture=furniture, punch=punch,
        options=dict(copies=copies, max_tokens=max_tokens, max_pages=max_pages, fill=fill, fold=fold, **backs,
                     max_dpi=None if keep_resolution else MAX_DPI, max_art_pixels=max_art_pixels,
                     max_svg_elements=max_svg_elements), tile=tile)
    if is_project(catalogue):
        return _build_project(catalogue, output, load, options_for, fmt)
    cat = load(catalogue)
    options = options_for(cat)
    default = default_output(catalogue, cat.title)
    target = default if output is None else output_file(output, default.name)
    with step(f"built {target}"):
        result = build_pdf(cat, options, target, also=previews)
    note = sizing.height_note(token_size, cat.size, cat.height)  # a card's height follows --size's width
    if note:
        result = dataclasses.replace(result, notes=(note, *result.notes))
    echo_build_report(result, fmt)
    if fmt == "json":
        click.get_current_context().meta[REPORT] = lambda: build_json(result)  # after the previews
    return result


def _check_build_flags(size: bool, scale: bool, fmt: str) -> None:
    """Raise UsageError for ``--size`` with ``--scale``, or ``--format json`` with ``--watch``."""
    from ..outputs.summary import SIZE_OR_SCALE

    if size and scale:
        raise click.UsageError(SIZE_OR_SCALE)
    if fmt == "json" and click.get_current_context().params.get("watch"):
        raise click.UsageError("--format json is for one build, not --watch")


def _load(path: Path, *, allow_outside_art: bool, max_font_code_points: int, sheet_file: Path | None) -> Catalogue:
    """Read the catalogue at ``path`` (a project's part, or the one built), with the sheets laid
    out by hand from ``--sheet FILE`` when given."""
    from ..sources.catalogue import load_catalogue

    with step(f"read {path}"):
        cat = load_catalogue(path, allow_outside_art=allow_outside_art, max_font_code_points=max_font_code_points)
    if sheet_file is not None:
        from ..sources.handsheets import load_sheet

        with step(f"read {sheet_file}"):
            cat = dataclasses.replace(cat, hand_sheet=load_sheet(sheet_file))
    return cat


def _build_options(cat: Catalogue, *, sheet: dict[str, Any], token_size: float | tuple[float, float] | None,
                   scale: float | None, furniture: str, punch: bool, options: dict[str, Any], tile: bool) -> BuildOptions:
    """The build options of ``cat`` (a project's part, or the one built): its sheet from the
    ``sheet`` options (page, landscape, margin, gutter, columns, cut lines, crop marks, home
    bleed; lengths in pt) at its token size, ``--furniture``, ``--punch`` (circle tokens only: raises UsageError
    otherwise) and the catalogue's own tiling; ``options`` the rest of BuildOptions' fields."""
    from ..geometry import sizing
    from ..outputs.options import BuildOptions

    spec = sheet_spec(**sheet, size=sizing.token_size(cat.size, token_size, scale, cat.shape, base_height=cat.height),
                      group=cat.columns)
    spec = dataclasses.replace(spec, furniture="full" if furniture == "none" else furniture, calibration=furniture != "none")
    if punch:
        if cat.shape is None or cat.shape.kind != "circle":
            raise click.UsageError("--punch is for circle tokens (shape: circle)")
        spec = dataclasses.replace(spec, shape=dataclasses.replace(cat.shape, punch=True))
    return BuildOptions(sheet=spec, **options, tile=tile and cat.tile_overlap is not None,
                        overlap=cat.tile_overlap or BuildOptions.overlap)


def _build_project(path: Path, output: str | None, load: Any, options_for: Any, fmt: str) -> Any:
    """``tokengen build project.yaml``: every part into one PDF after a contents page."""
    from ..outputs.project import build_project
    from ..sources.project import load_project

    project = load_project(path)
    target = output_file(output, f"{path.stem}.pdf") if output else Path(f"{path.stem}.pdf")
    with step(f"built {target}"):
        result = build_project(project, load, options_for, target)
    for warning in result.warnings:
        warn(warning)
    parts = ", ".join(f"{project.parts[n].name} from page {start}" for n, (_, start) in enumerate(result.parts))
    say(f"wrote {target}: {counted(len(result.parts), 'part')} on {counted(result.pages, 'page')} (contents on page 1; {parts})")
    return result


cli.add_command(align)


def _list_starters(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """``init --list``: name every starter and stop."""
    if not value or ctx.resilient_parsing:
        return
    from ..sources.bundled import STARTERS

    for name, what in STARTERS.items():
        data(f"{name:<12} {what}")
    ctx.exit(0)


@cli.command("init")
@click.argument("folder", default=".", type=click.Path(file_okay=False, path_type=Path))
@click.option("--starter", default="meatshields", show_default=True, metavar="NAME",
              help="What to start from: meatshields, counters, markers or cards (see --list).")
@click.option("--list", "list_starters", is_flag=True, is_eager=True, expose_value=False, callback=_list_starters,
              help="Name every starter and exit.")
def init_command(folder: Path, starter: str) -> None:
    """Write a small, complete catalogue to start from into FOLDER (default: the current
    folder): by default an editable token_defs.yaml (the Meatshields set) and a short guide to its
    fields; --starter counters, markers or cards writes that kind, with its spreadsheet and art.
    Each builds as it stands. Never overwrites a file.

    \b
    Examples:
      tokengen init
      tokengen init my-tokens && cd my-tokens && tokengen build
      tokengen init --list
      tokengen init my-counters --starter counters && cd my-counters && tokengen build counters.yaml
    """
    from ..sources.bundled import init

    for path in init(folder, starter):
        say(f"wrote {path}")


@cli.command("box")
@click.argument("catalogue", default=DEFAULT_CATALOGUE, type=CATALOGUE)
@click.option("-o", "--output", type=click.Path(path_type=str), default=None,
              help="PDF to write (default: named after the catalogue, with -box: cards-box.pdf).")
@click.option("--page", default="letter", show_default=True, help="Page size (letter, a4, … or WIDTHxHEIGHT).")
@click.option("--landscape", is_flag=True, help="Turn the page sideways.")
@click.option("--cards", type=click.IntRange(1, 10_000), default=None, help="Cards the box holds (default: the catalogue's tokens).")
@click.option("--thickness", type=LENGTH, default="0.3mm", show_default=True, help="Thickness of one card (sleeved cards: about 0.6mm).")
@click.option("--clearance", type=LENGTH, default="1mm", show_default=True, help="Room added to each inside dimension.")
def box_command(catalogue: Path, output: str | None, page: str, landscape: bool, cards: int | None, thickness: float, clearance: float) -> None:
    """Draw a tuck box for CATALOGUE's cards: its inside is the deck (card width and height, the
    cards' thickness) plus a clearance, with glue flap, dust flaps, tuck flaps and a thumb notch;
    the deck's back on its front and back, its title up the sides. Cut on the solid line, fold on
    the dashed ones.

    \b
    Examples:
      tokengen box cards.yaml -o cards-box.pdf
      tokengen box cards.yaml --cards 54 --thickness 0.32mm --page a4
    """
    from ..geometry import sizing
    from ..outputs.box import write_box
    from ..outputs.options import BuildOptions
    from ..sources.bundled import default_output
    from ..sources.catalogue import load_catalogue
    from ..units import format_length

    with step(f"read {catalogue}"):
        cat = load_catalogue(catalogue)
    spec = sheet_spec(page, landscape, 0.25 * 72, 0.0, None, True, False,
                      sizing.token_size(cat.size, None, None, cat.shape, base_height=cat.height), group=cat.columns)
    default = default_output(catalogue, cat.title)
    target = output_file(output, default.name) if output else default.with_name(default.stem + "-box.pdf")
    box = write_box(cat, BuildOptions(sheet=spec), target, cards, thickness, clearance)
    say(f"wrote {target}: a tuck box {format_length(box.width)} wide, {format_length(box.height)} high, "
        f"{format_length(box.depth)} deep (inside)")


@cli.command("sizes")
def sizes_command() -> None:
    """List the card and tile sizes known by name, for a catalogue's size: and --size: each name,
    the other names it answers to, its trim in mm and in, and where the figure comes from.

    \b
    Examples:
      tokengen sizes
      tokengen build cards.yaml --size bridge
    """
    from ..units import PT_PER_IN, PT_PER_MM, named_sizes, named_sleeves

    for heading, table in (("", named_sizes()), ("\nsleeves (sleeve: NAME draws the card the sleeve holds):", named_sleeves())):
        if heading:
            data(heading)
        for size in dict.fromkeys(table.values()):
            mm = f"{size.width / PT_PER_MM:g} x {size.height / PT_PER_MM:g} mm"
            inch = f"{size.width / PT_PER_IN:.3g} x {size.height / PT_PER_IN:.3g} in"
            also = f" (also {', '.join(size.also)})" if size.also else ""
            data(f"{size.name:<18} {mm:<20} {inch:<18} {size.source}{also}")


@cli.command("preview")
@click.argument("pdf", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None, metavar="FILE.png",
              help="FILE.png for one --page, else FILE-1.png … per page, FILE-01.png … past 9 pages (default: the PDF's name with .png).")
@click.option("--dpi", type=click.IntRange(10, 1200), default=100, show_default=True, help="Resolution (px per in).")
@click.option("--page", type=click.IntRange(1), default=None, metavar="N", help="Only page N.")
@click.option("--max-render-mb", type=click.IntRange(16), default=RENDER_MEMORY_MB, show_default=True,
              help="Memory (MiB of heap and private mappings) of the process that renders the pages; a page needing more is refused.")
@click.option("--max-render-seconds", type=click.IntRange(1), default=RENDER_SECONDS, show_default=True,
              help="Longest one page may take to render, s.")
@preflight_limits
def preview_command(pdf: Path, output: Path | None, dpi: int, page: int | None, max_render_mb: int, max_render_seconds: int,
                    limits: Any) -> None:
    """Render any PDF to PNG, one file per page (or page N), at a stated DPI (pdfium).
    A page W × H pt becomes round(W/72 × DPI) × round(H/72 × DPI) px.

    The file is first read within preflight's work budget (the --max-… limits, as 'tokengen
    preflight'), then rendered in a process of its own within --max-render-mb and
    --max-render-seconds; a file past a limit is one line and exit 2, with no PNG written.

    \b
    Examples:
      tokengen preview meatshields.pdf                    # meatshields-1.png … at 100 DPI
      tokengen preview meatshields.pdf --page 2 --dpi 200 -o page2.png
    """
    from ..outputs.preview import Bounds, check_target, write_previews

    bounds = Bounds(limits, max_render_mb, max_render_seconds)
    with step(f"rendered {pdf}"):
        pngs = write_previews(pdf, output if output is None else check_target(output, "-o/--output"), dpi, page, bounds=bounds)
    say(f"wrote {len(pngs)} PNG{'s' if len(pngs) != 1 else ''} at {dpi} DPI: {pngs[0]}" + (f" … {pngs[-1].name}" if len(pngs) > 1 else ""))
