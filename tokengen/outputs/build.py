"""Building sheets: catalogue + options → imposed, drawn, atomically written PDF."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Concatenate, ParamSpec, TypeVar

from .._version import __version__
from ..colour import Converter
from ..errors import LayoutError, UsageError
from ..faces.art import ArtLibrary, art_named
from ..faces.pagesetup import apply_printer_scale, scale_keywords, set_page_boxes
from ..faces.pagestream import end_page, save
from ..faces.render import ALL_SEPARATION, BLACK, CROP_STROKE, CUT_COLOUR, CUT_STROKE, SheetCanvas, binary_streams, open_canvas
from ..faces.scale import small_text_warnings
from ..geometry import bands, foldover, furniture, pager
from ..geometry.imposition import SheetSpec
from ..io import guard, progress, testhook
from ..io.atomic import atomic_files
from ..limits import MAX_PAGES, MAX_TOKENS  # noqa: F401  (re-exported: tokengen.build.MAX_TOKENS)
from ..model import Catalogue
from ..units import counted, format_length
from .backs import BackSheets, backs_path
from .options import BuildOptions


@dataclass(frozen=True)
class BuildResult:
    """What a build wrote: the file, its page count and the number of tokens placed; the back
    sheets (and their file when separate); warnings such as low-resolution art; ``sets``: how
    many copies of the catalogue were placed; ``rules_pages``: pages of the rules sheet."""

    path: Path
    pages: int
    tokens: int
    back_pages: int = 0
    backs_path: Path | None = None
    warnings: tuple[str, ...] = ()
    sets: int = 1
    rules_pages: int = 0
    notes: tuple[str, ...] = ()  # what the build did that the user should know: faces scaled for a larger safe area


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

    Raises:
        LayoutError: the tokens do not fit the page, or the run exceeds the limits.
        RenderError: a glyph is missing from the font.
        CatalogueError: a picture cannot be used, named where the catalogue names it (:func:`art_named`).
        ExportError: an output cannot be written (nothing is left behind).
    """
    out = Path(out)
    run = settle_bands(catalogue, options)
    options, copies, pages, specs = run.options, run.copies, run.pages, run.specs
    spec = options.sheet
    inputs = catalogue.files_read()
    backs_out = backs_path(out) if options.backs == "separate" else None
    extra = also(out, pdf_pages(catalogue, options, pages)) if also else ()
    guard.check_outputs([out, *([backs_out] if backs_out else []), *extra], inputs)  # all of them before the first byte
    # whole sets one after another, so each row keeps the catalogue's grouping and a cut-out set is
    # complete; with several sizes, band after band (each band's sets one after another)
    tokens = bands.Run(run.bands, copies)  # by index, without a list: memory flat in the token count
    with atomic_files([out, *([backs_out] if backs_out else [])], inputs=inputs) as temps:  # face and backs: both or neither
        temp, backs_temp = temps[0], (temps[1] if backs_out else None)
        keywords = " ".join(k for k in (scale_keywords(options.printer_scale), options.keywords) if k)
        library = art_library(options)
        library.reserve(pictures_of(catalogue))
        canvas = open_canvas(temp, spec.page, title=catalogue.title, author=catalogue.author or "tokengen",
                             subject=(options.subject or f"{counted(len(tokens), 'token')}, {bands.describe_all(specs)}, {counted(pages, 'page')}")
                             + (f"; {library.colour.describe()}" if options.colour_model == "cmyk" else ""),
                             keywords=keywords, colour_model=options.colour_model)
        sheet = SheetCanvas(canvas, spec.size, spec.bleed, options.colour_model, safe=options.safe, art=library, page=spec.page, design=catalogue.safe_area,
                            height=spec.height, shape=spec.shape)
        sheets = [sheet] + [sheet.resized(s.size, s.height, s.shape, k + 1, options.safe) for k, s in enumerate(specs[1:], 1)]
        forms = {t.id: sheets[k].face_form(t) for k, band in enumerate(run.bands) for t in band.tokens}
        placed = tokens.each(lambda k, t: forms[t.id])
        backs = BackSheets(options, catalogue, tokens, sheet, backs_temp, pages, specs=specs) if options.backs else None
        rules_pages = 0
        warnings: dict[str, None] = {}  # small text, furniture left out: once each, in order
        for band, band_spec, band_sheet in zip(run.bands, specs, sheets, strict=True):  # the texts as the faces were drawn
            warnings.update(dict.fromkeys(small_text_warnings(bands.band_catalogue(catalogue, band), band_spec.size, safe=options.safe,
                                                              layouts=band_sheet.layouts)))
        folded = tokens.each(lambda k, t: sheets[k].back_form(t.back)) if options.fold else []
        counts = [copies * band.count for band in run.bands]
        for page in pager.band_pages(counts, specs, fold=options.fold):
            if options.boxes:
                set_page_boxes(canvas, page.block, spec.bleed)
            apply_printer_scale(canvas, spec.page, options.printer_scale)
            sheet.fill_rects([(r, tokens[i].style.background) for i, r in page.outer_bleed])
            sheet.place(placed, page)
            if options.fold:  # the backs on the other half (with the faces' home bleed, mirrored), and the dashed fold line
                backs_half = foldover.backs_of(page, options.fold)
                sheet.fill_rects([(r, tokens[i].back.background) for i, r in backs_half.outer_bleed])
                sheet.place(folded, backs_half)
                sheet.dashed(foldover.fold_line(spec.page, options.fold), CUT_STROKE, CUT_COLOUR, foldover.FOLD_DASH)
            sheet.lines(page.cut_lines, CUT_STROKE, CUT_COLOUR)
            sheet.outlines(page.cut_paths, CUT_STROKE, CUT_COLOUR)
            if options.registration:
                from .cutsvg import REG_STROKE, registration_marks

                for mark in registration_marks(spec.page):
                    sheet.outlines([mark.outline], REG_STROKE, ALL_SEPARATION if options.colour_model == "cmyk" else BLACK, fill=mark.filled)
            if options.die_line:
                from .cutsvg import page_outlines
                from .dieline import LAYER

                sheet.die_line(page_outlines(page, spec), options.die_line, LAYER if options.die_layer else None)
            sheet.lines(page.crop_marks, CROP_STROKE, ALL_SEPARATION if options.colour_model == "cmyk" else CUT_COLOUR)
            if page.calibration:
                where = f"page {page.number + 1} of {pages}"
                what = f"{counted(len(page.cells), 'token')}, {bands.describe_all([specs[k] for k in dict.fromkeys(tokens.band(c.index) for c in page.cells)] or specs)}"
                captions = (f"{catalogue.title} · {where} · {what} · tokengen {__version__}", f"{catalogue.title} · {where} · {what}",
                            f"{catalogue.title} · {where}", where)
                laid = sheet.calibration(page.calibration, captions)
                warnings.update(dict.fromkeys(laid.warnings))
                extras = furniture.on_page(furniture.boxes(laid, sheet.measure), page.calibration)
            else:
                extras = []
            edge = furniture.in_unprintable(page, extras)
            if edge:
                warnings[f"{' and '.join(edge)} {'lies' if edge == ['sheet furniture'] else 'lie'} within {format_length(furniture.UNPRINTABLE)} of the page edge, where most "
                         f"printers cannot print (a margin of {format_length(furniture.UNPRINTABLE)} or more keeps them clear)"] = None
            end_page(canvas)  # the finished page kept small until the save: memory flat in the token count
            if backs:
                backs.add(page)
            testhook.checkpoint("page")
            progress.report("pages", page.number + 1, pages)
        if options.rules:
            from ..games.meatshields import rulesheet  # platypus: imported only when a rules sheet is asked for

            rules_pages = rulesheet.draw_rules(canvas, catalogue, spec.page, options.printer_scale) or 0
        with binary_streams():
            save(canvas)  # piece by piece: no copy of the whole file in memory
            if backs:
                backs.finish()
    return BuildResult(out, pages, len(tokens), backs.count if backs else 0, backs_out,
                       catalogue.warnings + tuple(sheet.art.warnings(catalogue.path.parent)) + tuple(warnings) + tuple(sheet.warnings) + tuple(backs.warnings if backs else ()), copies, rules_pages,
                       tuple(sheet.notes))


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


def pdf_pages(catalogue: Catalogue, options: BuildOptions, pages: int) -> int:
    """Pages of the PDF a build with ``pages`` face sheets writes: with a back sheet after each
    in duplex, and the rules sheet (laid out once more here to count it)."""
    rules = 0
    if options.rules:
        from ..games.meatshields import rulesheet

        rules = rulesheet.page_count(catalogue, options.sheet.page, options.printer_scale)
    return pages * (2 if options.backs == "duplex" else 1) + rules


def pictures_of(catalogue: Catalogue) -> list[Path]:
    """The pictures the tokens draw: art of faces and backs and image fields, sorted (as
    :meth:`~tokengen.model.Catalogue.files_read` lists them, without spreadsheets and fonts)."""
    found = {path for t in catalogue.tokens for path in (t.style.art, t.back.art) if path is not None}
    found |= {v for t in catalogue.tokens for _, v in t.values if isinstance(v, Path)}
    if catalogue.back is not None and catalogue.back.art is not None:
        found.add(catalogue.back.art)
    return sorted(found)


def art_library(options: BuildOptions) -> ArtLibrary:
    """The art library (and its colour converter) for a build with ``options``.

    Raises:
        RenderError: the output profile named by ``options.colour.icc`` cannot be used.
    """
    return ArtLibrary(Converter(options.colour_model, options.colour), max_dpi=options.max_dpi,
                      max_total_pixels=options.max_art_pixels, max_svg_elements=options.max_svg_elements)


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
