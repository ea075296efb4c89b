"""Building sheets: catalogue + options → imposed, drawn, atomically written PDF."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Concatenate, ParamSpec, TypeVar

from .._version import __version__
from ..errors import LayoutError, UsageError
from ..faces.art import art_named
from ..faces.pagesetup import apply_printer_scale, scale_keywords, set_page_boxes
from ..faces.pagestream import end_page, save
from ..faces.render import ALL_SEPARATION, BLACK, CROP_STROKE, CUT_COLOUR, CUT_STROKE, SheetCanvas, binary_streams, open_canvas
from ..faces.scale import small_text_warnings
from ..geometry import bands, foldover, furniture, pager
from ..geometry.imposition import PageLayout, Rect, SheetSpec
from ..io import guard, progress, testhook
from ..io.atomic import atomic_files
from ..limits import MAX_PAGES, MAX_TOKENS  # noqa: F401  (re-exported: tokengen.build.MAX_TOKENS)
from ..model import Catalogue
from ..units import counted, format_length
from . import tiles
from .backs import BackSheets, backs_path
from .options import BuildOptions
from .result import BuildResult, art_library, pictures_of

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas


_P = ParamSpec("_P")
_R = TypeVar("_R")


def naming_art(function: Callable[Concatenate[Catalogue, _P], _R]) -> Callable[Concatenate[Catalogue, _P], _R]:
    """Decorate an output whose first argument is the catalogue: runs it :func:`art_named`."""
    @functools.wraps(function)
    def run(catalogue: Catalogue, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        with art_named(catalogue):
            return function(catalogue, *args, **kwargs)
    return run


#: What a caller will write from a build's PDF besides it (previews): given the PDF and its page
#: count, the files; checked with the build's own outputs before anything is written.
Also = Callable[[Path, int], Sequence[Path]]


@naming_art
def build_pdf(catalogue: Catalogue, options: BuildOptions, out: str | Path, *, also: Also | None = None) -> BuildResult:
    """Impose every token of ``catalogue`` (× ``options.copies``) and write the sheets to ``out``.

    The PDF is deterministic (ReportLab invariant mode: same input, same bytes), embeds subsets
    of the bundled fonts only, asks viewers to print at actual size
    (``/ViewerPreferences /PrintScaling /None``) and carries Title, Author and Subject. Every
    output (the PDF, separate backs, and what ``also`` names) is checked before any is written.
    The stages: :func:`plan_build` (sizes, bands, pages, outputs guarded), :func:`open_sheet`
    (canvas and face forms), :func:`draw_page` for each page, :func:`finish` (rules sheet, save,
    backs).

    Raises:
        LayoutError: the tokens do not fit the page, or the run exceeds the limits.
        RenderError: a glyph is missing from the font.
        CatalogueError: a picture cannot be used, named where the catalogue names it (:func:`art_named`).
        ExportError: an output cannot be written (nothing is left behind).
    """
    if catalogue.standee_base is not None:
        from . import standees  # only standees need it: a plain sheet's start-up leaves it out

        return standees.build_standees(catalogue, options, out)
    if tiles.oversized(catalogue, options):
        return tiles.build_tiled(catalogue, options, out, also)
    plan = plan_build(catalogue, options, Path(out), also)
    with atomic_files(plan.outputs, inputs=plan.inputs) as temps:  # face and backs: both or neither
        drawing = open_sheet(catalogue, plan, temps)
        for page in pager.band_pages(plan.counts, plan.run.specs, fold=plan.options.fold):
            draw_page(drawing, page)
        rules_pages = finish(drawing)
    return drawing.result(rules_pages)


@dataclass(frozen=True)
class Plan:
    """A build settled before anything is drawn: the layout (:class:`Settled`), the files it
    writes (the PDF, then separate backs), the inputs they must not overwrite."""

    catalogue: Catalogue
    run: Settled
    out: Path
    backs_out: Path | None
    inputs: tuple[Path, ...]

    @property
    def options(self) -> BuildOptions:
        """The options with the first band's settled sheet."""
        return self.run.options

    @property
    def outputs(self) -> list[Path]:
        """The files written together: the PDF, and the backs' file when separate."""
        return [self.out, *([self.backs_out] if self.backs_out else [])]

    @property
    def counts(self) -> list[int]:
        """Tokens of each band, all sets."""
        return [self.run.copies * band.count for band in self.run.bands]


def plan_build(catalogue: Catalogue, options: BuildOptions, out: Path, also: Also | None = None) -> Plan:
    """Settle the plan: sizes, bands, pages (:func:`settle_bands`), and every output (the PDF,
    separate backs, what ``also`` names for ``out`` and the PDF's page count) guarded before the
    first byte is written.

    Raises:
        UsageError, LayoutError: as :func:`settle_bands`.
        ExportError: an output cannot be written or would overwrite an input.
    """
    run = settle_bands(catalogue, options)
    inputs = tuple(catalogue.files_read())
    backs_out = backs_path(out) if run.options.backs == "separate" else None
    plan = Plan(catalogue, run, out, backs_out, inputs)
    extra = also(out, pdf_pages(catalogue, run.options, run.pages)) if also else ()
    guard.check_outputs([*plan.outputs, *extra], inputs)  # all of them before the first byte
    return plan


@dataclass
class Drawing:
    """A build being drawn: the canvas and its sheets (one per band), the face forms each
    placement draws (and the backs' when folded over), the back sheets, the warnings so far
    (once each, in order)."""

    plan: Plan
    canvas: Canvas
    sheets: list[SheetCanvas]
    tokens: bands.Run
    placed: Sequence[str]
    folded: Sequence[str]
    backs: BackSheets | None
    warnings: dict[str, None]

    @property
    def sheet(self) -> SheetCanvas:
        """The first band's sheet, which draws every page."""
        return self.sheets[0]

    def result(self, rules_pages: int) -> BuildResult:
        """What the build wrote, once saved."""
        plan, sheet, backs = self.plan, self.sheet, self.backs
        return BuildResult(plan.out, plan.run.pages, len(self.tokens), backs.count if backs else 0, plan.backs_out,
                           plan.catalogue.warnings + tuple(sheet.art.warnings(plan.catalogue.path.parent)) + tuple(self.warnings)
                           + tuple(sheet.warnings) + tuple(backs.warnings if backs else ()), plan.run.copies, rules_pages,
                           tuple(sheet.notes))


def open_sheet(catalogue: Catalogue, plan: Plan, temps: Sequence[Path]) -> Drawing:
    """Open the sheet: the art library, the canvas writing ``temps[0]`` (its metadata), a sheet
    per band, every token's face form (the back's too when folded over), the back sheets writing
    ``temps[1]`` when separate, and the small-text warnings of the faces as they were drawn.

    Raises:
        RenderError: a glyph is missing, or the output profile cannot be used.
        ArtError: a picture cannot be used.
    """
    run, options = plan.run, plan.options
    spec, specs, pages = options.sheet, run.specs, run.pages
    # whole sets one after another, so each row keeps the catalogue's grouping and a cut-out set is
    # complete; with several sizes, band after band (each band's sets one after another)
    tokens = bands.Run(run.bands, run.copies)  # by index, without a list: memory flat in the token count
    keywords = " ".join(k for k in (scale_keywords(options.printer_scale), options.keywords) if k)
    library = art_library(options)
    library.reserve(pictures_of(catalogue))
    canvas = open_canvas(temps[0], spec.page, title=catalogue.title, author=catalogue.author or "tokengen",
                         subject=(options.subject or f"{counted(len(tokens), 'token')}, {bands.describe_all(specs)}, {counted(pages, 'page')}")
                         + (f"; {library.colour.describe()}" if options.colour_model == "cmyk" else ""),
                         keywords=keywords, colour_model=options.colour_model)
    sheet = SheetCanvas(canvas, spec.size, spec.bleed, options.colour_model, safe=options.safe, art=library, page=spec.page, design=catalogue.safe_area,
                        height=spec.height, shape=spec.shape)
    sheets = [sheet] + [sheet.resized(s.size, s.height, s.shape, k + 1, options.safe) for k, s in enumerate(specs[1:], 1)]
    forms = {t.id: sheets[k].face_form(t) for k, band in enumerate(run.bands) for t in band.tokens}
    placed = tokens.each(lambda k, t: forms[t.id])
    backs = BackSheets(options, catalogue, tokens, sheet, temps[1] if plan.backs_out else None, pages, specs=specs) if options.backs else None
    warnings: dict[str, None] = {}  # small text, furniture left out: once each, in order
    for band, band_spec, band_sheet in zip(run.bands, specs, sheets, strict=True):  # the texts as the faces were drawn
        warnings.update(dict.fromkeys(small_text_warnings(bands.band_catalogue(catalogue, band), band_spec.size, safe=options.safe,
                                                          layouts=band_sheet.layouts)))
    folded = tokens.each(lambda k, t: sheets[k].back_form(t.back)) if options.fold else []
    return Drawing(plan, canvas, sheets, tokens, placed, folded, backs, warnings)


def draw_page(drawing: Drawing, page: PageLayout) -> None:
    """Everything on one page, in order: page boxes and printer scale, the bleed fills, the
    placed faces (and, folded over, the backs and the fold line), cut lines and outlines,
    registration marks, the die line, crop marks, the calibration strip and its captions; then
    the page is ended, its back sheet added, and progress reported.
    """
    plan, canvas, sheet, tokens = drawing.plan, drawing.canvas, drawing.sheet, drawing.tokens
    options = plan.options
    if options.boxes:
        set_page_boxes(canvas, page.block, options.sheet.bleed)
    apply_printer_scale(canvas, options.sheet.page, options.printer_scale)
    sheet.fill_rects([(r, tokens[i].style.background) for i, r in page.outer_bleed])
    sheet.zone_bands(page.zones)
    sheet.place(drawing.placed, page)
    if options.fold:
        _draw_folded_backs(drawing, page, options.fold)
    sheet.lines(page.cut_lines, CUT_STROKE, CUT_COLOUR)
    sheet.outlines(page.cut_paths, CUT_STROKE, CUT_COLOUR)
    _draw_marks(drawing, page)
    _warn_unprintable(drawing, page, draw_calibration(drawing, page) if page.calibration else [])
    end_page(canvas)  # the finished page kept small until the save: memory flat in the token count
    if drawing.backs:
        drawing.backs.add(page)
    testhook.checkpoint("page")
    progress.report("pages", page.number + 1, plan.run.pages)


def _draw_folded_backs(drawing: Drawing, page: PageLayout, fold: str) -> None:
    """``--fold`` (``fold``: long or short): the backs on the other half of the page (with the
    faces' home bleed, mirrored) and the dashed fold line between."""
    spec = drawing.plan.options.sheet
    backs_half = foldover.backs_of(page, fold)
    drawing.sheet.fill_rects([(r, drawing.tokens[i].back.background) for i, r in backs_half.outer_bleed])
    drawing.sheet.place(drawing.folded, backs_half)
    drawing.sheet.dashed(foldover.fold_line(spec.page, fold), CUT_STROKE, CUT_COLOUR, foldover.FOLD_DASH)


def _draw_marks(drawing: Drawing, page: PageLayout) -> None:
    """The marks outside the tokens: registration marks for a cutting machine, the die line
    (on its own layer when asked) and crop marks; in CMYK the marks print on every separation."""
    options, sheet = drawing.plan.options, drawing.sheet
    mark_colour = ALL_SEPARATION if options.colour_model == "cmyk" else BLACK
    if options.registration:
        from .cutsvg import REG_STROKE, registration_marks

        for mark in registration_marks(options.sheet.page):
            sheet.outlines([mark.outline], REG_STROKE, mark_colour, fill=mark.filled)
    if options.die_line:
        from .cutsvg import page_outlines
        from .dieline import LAYER

        sheet.die_line(page_outlines(page, options.sheet), options.die_line, LAYER if options.die_layer else None)
    sheet.lines(page.crop_marks, CROP_STROKE, ALL_SEPARATION if options.colour_model == "cmyk" else CUT_COLOUR)


def _warn_unprintable(drawing: Drawing, page: PageLayout, extras: list[Rect]) -> None:
    """Warn (once a run) when sheet furniture or other ``extras`` lie in the strip along the page
    edge most printers cannot print (:data:`furniture.UNPRINTABLE`)."""
    edge = furniture.in_unprintable(page, extras)
    if edge:
        drawing.warnings[f"{' and '.join(edge)} {'lies' if edge == ['sheet furniture'] else 'lie'} within {format_length(furniture.UNPRINTABLE)} of the page edge, where most "
                         f"printers cannot print (a margin of {format_length(furniture.UNPRINTABLE)} or more keeps them clear)"] = None


def draw_calibration(drawing: Drawing, page: PageLayout) -> list[Rect]:
    """The page's calibration strip with the longest caption that fits (title, page, what it
    holds, the version); its warnings join the build's. Returns the furniture's boxes on the page."""
    plan, tokens = drawing.plan, drawing.tokens
    specs, pages, title = plan.run.specs, plan.run.pages, plan.catalogue.title
    assert page.calibration is not None
    where = f"page {page.number + 1} of {pages}"
    what = f"{counted(len(page.cells), 'token')}, {bands.describe_all([specs[k] for k in dict.fromkeys(tokens.band(c.index) for c in page.cells)] or specs)}"
    captions = (f"{title} · {where} · {what} · tokengen {__version__}", f"{title} · {where} · {what}", f"{title} · {where}", where)
    laid = drawing.sheet.calibration(page.calibration, captions)
    drawing.warnings.update(dict.fromkeys(laid.warnings))
    return furniture.on_page(furniture.boxes(laid, drawing.sheet.measure), page.calibration)


def finish(drawing: Drawing) -> int:
    """Finish: the rules sheet when asked, the save (piece by piece), the back sheets' file.
    Returns the rules sheet's page count."""
    options, canvas = drawing.plan.options, drawing.canvas
    rules_pages = 0
    if options.rules:
        from ..games.meatshields import rulesheet  # platypus: imported only when a rules sheet is asked for

        rules_pages = rulesheet.draw_rules(canvas, drawing.plan.catalogue, options.sheet.page, options.printer_scale) or 0
    with binary_streams():
        save(canvas)  # piece by piece: no copy of the whole file in memory
        if drawing.backs:
            drawing.backs.finish()
    return rules_pages


def settle(catalogue: Catalogue, options: BuildOptions) -> tuple[BuildOptions, int, int]:
    """How a build of ``catalogue`` with ``options`` is laid out, before anything is drawn:
    the options with the settled sheet (shape, columns; with several sizes, the first band's),
    the number of sets and of face pages (see :func:`settle_bands`).

    Raises:
        UsageError: --fold with --backs, or --rules with a catalogue of its own fields.
        LayoutError: the tokens do not fit the page, or the run exceeds the limits.
    """
    run = settle_bands(catalogue, options)
    return run.options, run.copies, run.pages


@dataclass(frozen=True)
class Settled:
    """A build laid out before anything is drawn: the options with the first band's settled
    sheet, the number of sets and of face pages, the catalogue's bands
    (:func:`tokengen.geometry.bands.bands`: one unless its layouts declare sizes of their own)
    and each band's settled sheet."""

    options: BuildOptions
    copies: int
    pages: int
    bands: tuple[bands.Band, ...]
    specs: tuple[SheetSpec, ...]


def settle_bands(catalogue: Catalogue, options: BuildOptions) -> Settled:
    """:func:`settle` with the catalogue's bands: each size a layout declares laid out in rows of
    its own on the same sheets (:func:`tokengen.geometry.pager.plan_bands`); one size is laid out
    exactly as before.

    Raises:
        UsageError: --fold with --backs, or --rules with a catalogue of its own fields.
        LayoutError: the tokens do not fit the page, or the run exceeds the limits.
    """
    if options.fold and options.backs:
        raise UsageError("--fold puts the backs beside the faces: it cannot be combined with --backs")
    if options.rules and catalogue.fields:
        raise UsageError(f"{catalogue.path}: --rules prints the Meatshields rules sheet; this catalogue declares its own fields")
    found = bands.bands(catalogue)
    if catalogue.hand_sheet is not None:
        _check_hand(catalogue, options, len(found))
    specs = bands.band_specs(options.sheet, catalogue, found)  # cards, circles, hexes: height and shape
    try:
        copies, specs, pages = pager.plan_bands([b.count for b in found], specs, options.copies, options.fill, fold=options.fold)
    except LayoutError as exc:
        if options.sheet.size != catalogue.size:  # --size/--scale: the command line's size, not the file's
            raise
        raise LayoutError(f"{catalogue.path}: {exc}") from None
    try:  # counted before any list is made: 10,000 × 10,000 is not built
        pager.check_limits(catalogue.count * copies, pages, max_tokens=options.max_tokens, max_pages=options.max_pages)
    except LayoutError as exc:
        raise LayoutError(f"{catalogue.path}: {exc}") from None
    return Settled(replace(options, sheet=specs[0]), copies, pages, tuple(found), tuple(specs))


def _check_hand(catalogue: Catalogue, options: BuildOptions, band_count: int) -> None:
    """Refuse what a hand-laid sheet (``sheet:``) cannot show as asked: fold-over sheets (the
    slots cover the whole sheet), ``--columns`` (the slots fix the columns), and tokens of
    several sizes (one slot, one size).

    Raises:
        UsageError: naming the catalogue and the option or its layouts.
    """
    where = catalogue.hand_sheet.source
    if options.fold:
        raise UsageError(f"{where}: a sheet laid out by hand (sheet:) covers the whole sheet: it cannot be combined with --fold")
    if options.sheet.columns is not None:
        raise UsageError(f"{where}: a sheet laid out by hand (sheet:) places every token in its slot: --columns cannot change it")
    if band_count > 1:
        raise UsageError(f"{catalogue.path}: a sheet laid out by hand (sheet:) holds tokens of one size; this catalogue's layouts declare sizes of their own")


def pdf_pages(catalogue: Catalogue, options: BuildOptions, pages: int) -> int:
    """Pages of the PDF a build with ``pages`` face sheets writes: with a back sheet after each
    in duplex, and the rules sheet (laid out once more here to count it)."""
    rules = 0
    if options.rules:
        from ..games.meatshields import rulesheet

        rules = rulesheet.page_count(catalogue, options.sheet.page, options.printer_scale)
    return pages * (2 if options.backs == "duplex" else 1) + rules


def describe(result: BuildResult) -> str:
    """One line for the CLI: ``"18 tokens (1 set) on 3 pages: 1 face page, 1 back page, 1 rules page"``.
    Back sheets in a separate file are counted there (``in NAME-backs.pdf``)."""
    parts = [counted(result.pages, "face page")]
    if result.back_pages:
        parts.append(counted(result.back_pages, "back page") + (f" in {result.backs_path.name}" if result.backs_path else ""))
    if result.rules_pages:
        parts.append(counted(result.rules_pages, "rules page"))
    in_file = result.pages + result.rules_pages + (0 if result.backs_path else result.back_pages)
    where = ", ".join(parts) if len(parts) == 1 else f"{counted(in_file, 'page')}: " + ", ".join(parts)
    return f"{counted(result.tokens, 'token')} ({counted(result.sets, 'set')}) on {where}"
