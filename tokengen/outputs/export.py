"""Print-shop export: one catalogue, one :class:`~tokengen.sources.profiles.Profile`, the files a shop takes.

The kinds of output, chosen by the profile's ``output``:

* ``sheets``: tokens imposed on pages by :func:`tokengen.outputs.build.build_pdf` with the profile's
  page, margin, gutter, bleed, marks and colour model; with ``boxes`` each page's TrimBox is the
  block of token trims and its BleedBox that block grown by the bleed. ``cut-svg`` and ``cut-dxf``
  add a cut file per sheet (:mod:`tokengen.outputs.cutsvg`, :mod:`tokengen.outputs.cutdxf`); a
  ``cut_layer`` adds a die line in a spot colour (:mod:`tokengen.outputs.dieline`).
* ``cricut``: a print-then-cut bundle for Cricut Design Space, which prints its own registration
  frame around a print area of 6.75 × 9.25 in: the sheets at that page size without marks, and
  for each sheet ``<name>-print-<n>.png`` (the sheet at the profile's DPI, 300: 2025 × 2775 px)
  and ``<name>-cut-<n>.svg`` of the same size (171.45 × 234.95 mm), its cut outlines.
* ``single-pages``: one PDF where each page is one token side: page = trim + 2 × bleed square,
  TrimBox = the trim, BleedBox = the page. For every physical token (copies included) its two
  sides follow each other in the profile's ``order`` (face, then back, by default).
* ``png``: the same kind of single-token PDF (one page per design plus one per distinct back) is written,
  then each page is rasterised with pdfium into a PNG of exactly
  ``round((trim + 2 × bleed) / 72 × dpi)`` px square, 8-bit sRGB, with the DPI in its pHYs
  chunk: a 1 in chit with 1/8 in bleed at 300 DPI is 375 × 375 px. (The Game Crafter prints at
  300 DPI and asks for 1/8 in bleed and a 1/8 in safe zone: help.thegamecrafter.com, "DPI (dots
  per inch)"; 1/8 in is also the usual US bleed.) PNG stores the DPI as pixels per metre, so
  300 DPI is written as 11811 px/m and reads back as 299.9994. PNG and PDF come from one
  drawing, so they cannot disagree. The pages are rasterised and encoded by
  :func:`tokengen.outputs.pngs.write_pngs`, in worker processes for large sets.

* ``tts``: a Tabletop Simulator saved object (:mod:`tokengen.outputs.tts`): the same kind of
  single-token PDF, without bleed, rasterised as for ``png`` into card sheets or tile images.

Bleed is drawn per token (the face and back forms fill their background to trim + bleed);
ReportLab's ``cropMarks`` option is not used because it scales the page content. Every file is
written atomically (:func:`tokengen.io.atomic.atomic_path`).
"""

from __future__ import annotations

import functools
import io
import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, Concatenate, ParamSpec

from PIL import Image, PngImagePlugin

from ..colour import Converter
from ..errors import ExportError, LayoutError, UsageError
from ..faces.art import ArtLibrary
from ..faces.render import SheetCanvas, binary_streams, open_canvas
from ..faces.scale import small_text_warnings
from ..geometry import bands
from ..geometry.pager import check_limits
from ..geometry.sizing import proportions_problem, sheet_spec
from ..io import guard, progress
from ..io.atomic import atomic_files, atomic_path, no_empty_folder_left
from ..model import Back, Catalogue, Token
from ..sources import bundled
from ..sources.profiles import SHEET_OUTPUTS, Profile
from ..units import counted, format_length
from .build import MAX_PAGES, MAX_TOKENS, Also, build_pdf, naming_art, pdf_pages, pictures_of, settle

if TYPE_CHECKING:
    from ..preflight.checks import Check
#: Largest PNG written (``--max-pixels``, 40 MP) and largest total of PNG pixels per export run
#: (``--max-total-pixels``, 400 MP): defined in :mod:`tokengen.limits` with their reasons.
from ..limits import (
    MAX_ART_PIXELS,  # noqa: E402
    MAX_PNG_PIXELS,  # noqa: E402
)
from ..limits import MAX_PNG_TOTAL_PIXELS as MAX_TOTAL_PIXELS  # noqa: E402
from .cutsvg import svg_path
from .options import BuildOptions
from .pngs import SRGB_GAMMA, SRGB_INTENT, rasterise_pages, start_workers, write_pngs

_P = ParamSpec("_P")


def _no_folder_left(function: Callable[Concatenate[Catalogue, Profile, str | Path, _P], list[Path]]
                    ) -> Callable[Concatenate[Catalogue, Profile, str | Path, _P], list[Path]]:
    """Decorate :func:`export`: a failed export leaves no output folder it made
    (:func:`tokengen.io.atomic.no_empty_folder_left`)."""
    @functools.wraps(function)
    def run(catalogue: Catalogue, profile: Profile, out_dir: str | Path, /, *args: _P.args, **kwargs: _P.kwargs) -> list[Path]:
        with no_empty_folder_left(out_dir):
            return function(catalogue, profile, out_dir, *args, **kwargs)
    return run


@_no_folder_left
@naming_art
def export(catalogue: Catalogue, profile: Profile, out_dir: str | Path, dpi: int | None = None, *,
           max_tokens: int = MAX_TOKENS, max_pages: int = MAX_PAGES, max_pixels: int = MAX_PNG_PIXELS,
           max_total_pixels: int = MAX_TOTAL_PIXELS, size: float | None = None, keep_resolution: bool = False,
           warnings: list[str] | None = None, also: Also | None = None, image_url: str | None = None,
           max_art_pixels: int = MAX_ART_PIXELS, notes: list[str] | None = None, workers: int | None = None,
           cut_marks: bool = True) -> list[Path]:
    """Write the files ``profile`` asks for into ``out_dir`` (created if missing).

    Args:
        catalogue: the validated catalogue.
        profile: see :mod:`tokengen.sources.profiles`.
        out_dir: output folder.
        dpi: overrides the profile's DPI (PNG resolution, px per in).
        max_tokens, max_pages: refuse runs with more tokens or pages (every profile: a PNG
            set's and a Tabletop Simulator save's PDF pages too), counted before any file is
            named or written.
        max_pixels, max_total_pixels: refuse PNG sets with larger images, or more pixels in all,
            before anything is drawn.
        size: token trim in pt, overriding the catalogue's and the profile's product trim
            (``--size``); None: the profile's product trim when it has one (a note in ``notes``
            says so when it replaces the catalogue's size, see :func:`product_trim`), else the
            catalogue's size.
        keep_resolution: embed art at its own resolution instead of resampling it down to the
            profile's ``max_dpi``.
        warnings: when given, the run's warnings are appended to it: the art's (low resolution,
            resampled, e.g. ``1 picture resampled to 300 DPI (art/cover.jpg); --keep-resolution
            keeps it``) and the face texts printed below 5 pt, measured on the faces as drawn at
            the run's trim (:func:`tokengen.faces.scale.small_text_warnings`).
        notes: when given, what the export did that the user should know is appended to it
            (``faces scaled to 85.5 % about their centres …``, see
            :func:`tokengen.faces.render.scaled_note`).
        also: what the caller will write from the PDF (previews), given the PDF and its page
            count: checked with the export's own files before the first is written.
        image_url: ``output: tts`` only: the URL the images will be hosted under
            (``--image-url``), or None for ``file:///`` URLs (:mod:`tokengen.outputs.tts`).
        max_art_pixels: the most pixels of art the run embeds in all (``--max-art-pixels``),
            one picture a fifth of it (:func:`tokengen.faces.art.picture_limit`).
        workers: ``output: png`` only: processes rendering and encoding the PNGs (None: every
            core; 1: this one), see :func:`tokengen.outputs.pngs.write_pngs`.
        cut_marks: False leaves the registration marks out of the cut files (``cut-svg``,
            ``cut-dxf``; ``--no-marks``): a cutter that cuts every line of its file would cut
            them. The printed sheet keeps its marks.
    Returns:
        The paths written, in a stable order (PDF first, then PNGs: faces in catalogue order, then
        each distinct back in order of first use, named by :func:`png_backs`).
        A PNG set is all or nothing: the PDF and every PNG are written to temporary files and
        renamed into place only when all are complete.
    Raises:
        ExportError: the folder cannot be created, a file cannot be written, or a target is an
            input (checked for every target, ``also``'s too, before any is written or the
            folder created). A failed export leaves no folder it made behind.
        LayoutError: the tokens do not fit the profile's sheet, or the run passes a limit.
        RenderError: a glyph is missing from the font, or pdfium cannot rasterise a page.
        CatalogueError: a picture cannot be used, named where the catalogue names it
            (:func:`tokengen.faces.art.art_named`).
    """
    one_size(catalogue, profile)
    out_dir = Path(out_dir)
    stem = slug(catalogue.title)
    pdf = out_dir / f"{stem}-{slug(profile.name)}.pdf"
    catalogue = product_trim(catalogue, profile, size, notes)
    inputs = catalogue.files_read()

    def ready(targets: list[Path], pages: int) -> None:
        """Check every file of the run (``targets`` and ``also``'s for a PDF of ``pages``), then make the folder."""
        guard.check_outputs([*targets, *(also(pdf, pages) if also else ())], inputs)
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ExportError(f"{out_dir}: cannot create the output folder: {exc.strerror or exc}") from None
        if not out_dir.is_dir():
            raise ExportError(f"{out_dir}: not a folder")

    if profile.output == "tts":  # a Tabletop Simulator saved object, its thumbnail and images
        return _export_tts(catalogue, profile, out_dir, stem, pdf, dpi or profile.dpi, ready, image_url,
                           max_pixels, max_total_pixels, keep_resolution, warnings, max_art_pixels, max_tokens, max_pages)
    if profile.output in SHEET_OUTPUTS:
        spec = sheet_spec(
            profile.page, catalogue.size, margin=profile.margin, gutter=profile.gutter, bleed=profile.bleed,
            columns=profile.columns, group=catalogue.columns,
            cut_lines="cut-lines" in profile.marks, crop_marks="crop-marks" in profile.marks,
            calibration="calibration" in profile.marks, home_bleed=profile.home_bleed, furniture="full",
        )
        backs = "duplex" if profile.backs == "duplex" else None
        registration = "registration" in profile.marks
        die_layer = profile.cut_layer is not None and profile.pdfx == "none"  # PDF/X-1a (PDF 1.3/1.4): the spot colour only
        options = BuildOptions(sheet=spec, colour_model=profile.colour, boxes=profile.boxes, safe=profile.safe,
                               backs=backs, copies=profile.copies, fill=profile.fill, registration=registration,
                               colour=profile.colour_options(), max_dpi=None if keep_resolution else profile.max_dpi,
                               max_tokens=max_tokens, max_pages=max_pages, die_line=profile.cut_layer, die_layer=die_layer,
                               max_art_pixels=max_art_pixels)
        settled, _, pages = settle(catalogue, options)
        cut_files: list[Path] = []
        if profile.output in ("cut-svg", "cricut"):
            cut_files = [svg_path(out_dir / stem, n) for n in range(1, pages + 1)]
        elif profile.output == "cut-dxf":
            from .cutdxf import dxf_path, require_ezdxf

            require_ezdxf(profile.name)
            cut_files = [dxf_path(out_dir / stem, n) for n in range(1, pages + 1)]
        prints = [print_path(out_dir / stem, n) for n in range(1, pages + 1)] if profile.output == "cricut" else []
        ready([pdf, *prints, *cut_files], pdf_pages(catalogue, settled, pages))
        built = build_pdf(catalogue, options, pdf)
        if warnings is not None:
            warnings.extend(built.warnings)
        if notes is not None:
            notes.extend(built.notes)
        _finish(pdf, catalogue, profile)
        if profile.output == "cut-svg":  # beside the sheet PDF: the cut outlines for a plotter
            from .cutsvg import write_cut_svgs

            return [pdf, *write_cut_svgs(catalogue, spec, out_dir / stem, registration and cut_marks, copies=built.sets, cut=profile.cut)]
        if profile.output == "cut-dxf":  # the same outlines as DXF (mm) for cutting machines
            from .cutdxf import write_cut_dxfs

            return [pdf, *write_cut_dxfs(catalogue, spec, out_dir / stem, registration and cut_marks, copies=built.sets, cut=profile.cut)]
        if profile.output == "cricut":  # print then cut: a 300 DPI print image and its cut file, sheet by sheet
            from .cutsvg import write_cut_svgs

            with atomic_files(prints, inputs=inputs) as temps:
                for target, temp, image in zip(prints, temps, rasterise_pages(pdf, dpi or profile.dpi, profile.page[0]), strict=True):
                    write_png(image, temp, dpi or profile.dpi, shown=target)
                    image.close()
            svgs = write_cut_svgs(catalogue, spec, out_dir / stem, False, copies=built.sets, cut=profile.cut)
            return [pdf, *(f for pair in zip(prints, svgs, strict=True) for f in pair)]
        return [pdf]
    if profile.output == "single-pages":
        tokens = catalogue.count * profile.copies
        pages = tokens * len(profile.order)
        _check_run(catalogue, tokens, pages, max_tokens, max_pages)  # one page a side of a token
        sides = ((side, t) for _ in range(profile.copies) for t in catalogue.tokens for _ in range(t.copies) for side in profile.order)
        ready([pdf], pages)
        with atomic_path(pdf, inputs=inputs) as temp:
            write_single_pages(catalogue, profile, sides, temp, pages, keep_resolution, warnings, max_art_pixels, notes)
        return _finish(pdf, catalogue, profile)
    # png: one page per design, then one per distinct back
    dpi = dpi or profile.dpi
    page_w, page_h, _, _ = token_page(catalogue, profile)
    px, py = round(page_w / 72 * dpi), round(page_h / 72 * dpi)
    back_pngs = png_backs(stem, catalogue)
    count = len(catalogue.tokens) + len(back_pngs)
    if px * py > max_pixels:
        raise LayoutError(f"{catalogue.path}: each PNG would be {px} x {py} px ({px * py:,} pixels) at {dpi} DPI, more than "
                          f"the limit of {max_pixels:,} (raise it with --max-pixels, or lower --dpi)")
    if px * py * count > max_total_pixels:
        raise LayoutError(f"{catalogue.path}: {counted(count, 'PNG')} of {px} x {py} px are {px * py * count:,} pixels, more than the limit "
                          f"of {max_total_pixels:,} per run (raise it with --max-total-pixels, or lower --dpi)")
    _check_run(catalogue, len(catalogue.tokens), count, max_tokens, max_pages)  # before any PNG is named
    png_sides = [("face", t) for t in catalogue.tokens] + [("back", t) for t, _ in back_pngs]
    names = [png_name(stem, i, t) for i, t in enumerate(catalogue.tokens, 1)] + [name for _, name in back_pngs]
    targets = [pdf] + [out_dir / name for name in names]
    ready(targets, len(png_sides))
    with atomic_files(targets, inputs=inputs) as temps:
        start_workers(len(png_sides), workers)  # their start beside the drawing of the PDF
        try:
            write_single_pages(catalogue, profile, iter(png_sides), temps[0], len(png_sides), keep_resolution, warnings,
                               max_art_pixels, notes)
        except OSError as exc:  # named after the output, not its hidden temporary file
            raise ExportError(f"{pdf}: write failed: {exc.strerror or exc}; no file of the set was replaced") from None
        write_pngs(temps[0], dpi, page_w, temps[1:], targets[1:], workers)
    return targets


def _export_tts(catalogue: Catalogue, profile: Profile, out_dir: Path, stem: str, pdf: Path, dpi: int,
                ready: Callable[[list[Path], int], None], image_url: str | None, max_pixels: int, max_total_pixels: int,
                keep_resolution: bool, warnings: list[str] | None, max_art_pixels: int = MAX_ART_PIXELS,
                max_tokens: int | None = MAX_TOKENS, max_pages: int | None = MAX_PAGES) -> list[Path]:
    """``output: tts`` (:mod:`tokengen.outputs.tts`): the single-token PDF of the faces and backs
    (no bleed: TTS maps the whole image onto the face), rasterised as the ``png`` chits are, the
    card sheets or tile images composed from those pages, the saved object's JSON and thumbnail;
    all files or none. Returns the PDF, the JSON, the thumbnail, then the images."""
    from . import tts

    tts.check_base(image_url)
    profile = replace(profile, bleed=0.0)
    faces = [png_name(stem, i, t) for i, t in enumerate(catalogue.tokens, 1)]
    plan = tts.plan(catalogue, stem, dpi, faces, png_backs(stem, catalogue), max_pixels=max_pixels,
                    max_total_pixels=max_total_pixels)
    _check_run(catalogue, catalogue.count, len(plan.sides), max_tokens, max_pages)
    names = [plan.json, plan.thumbnail, *(name for _, name in plan.images)]
    targets = [pdf, *(out_dir / name for name in names)]
    ready(targets, len(plan.sides))
    urls = {name: tts.image_url(out_dir / name, image_url) for _, name in plan.images}
    with atomic_files(targets, inputs=catalogue.files_read()) as temps:
        temp = dict(zip(names, temps[1:], strict=True))
        try:
            write_single_pages(catalogue, profile, iter(plan.sides), temps[0], len(plan.sides), keep_resolution, warnings,
                               max_art_pixels)
        except OSError as exc:  # named after the output, not its hidden temporary file
            raise ExportError(f"{pdf}: write failed: {exc.strerror or exc}; no file of the set was replaced") from None
        for name, image in tts.compose(plan, rasterise_pages(temps[0], dpi, catalogue.size)):
            write_png(image, temp[name], dpi, shown=out_dir / name)
            image.close()
        temp[plan.json].write_text(tts.saved_object(catalogue, plan, urls), encoding="utf-8")
    return targets


def _check_run(catalogue: Catalogue, tokens: int, pages: int, max_tokens: int | None, max_pages: int | None) -> None:
    """Refuse a run of ``tokens`` physical tokens whose PDF has ``pages`` pages before its
    first file is named or written (:func:`tokengen.geometry.pager.check_limits`: the same
    limits and words as ``build``). A PNG set's or a Tabletop Simulator save's images are
    counted by their pages, one image per page at most, and their pixels by ``--max-pixels``
    and ``--max-total-pixels``.

    Raises:
        LayoutError: past ``--max-tokens`` or ``--max-pages``, naming the catalogue.
    """
    try:
        check_limits(tokens, pages, max_tokens=max_tokens, max_pages=max_pages)
    except LayoutError as exc:
        raise LayoutError(f"{catalogue.path}: {exc}") from None


def product_trim(catalogue: Catalogue, profile: Profile, size: float | None, notes: list[str] | None = None) -> Catalogue:
    """``catalogue`` at the trim of the run: ``size`` (pt, ``--size``; a card's height scaled
    with it) when given, else the profile's product ``trim`` (width and height, pt) when it has
    one, else the catalogue unchanged. A product trim that replaces the catalogue's own size is
    said once in ``notes`` (``dtc-poker: trim 2.5in × 3.5in replaces the catalogue's 1.5in ×
    1.5in``); one of another shape is refused, as ``--size`` refuses one.

    Raises:
        LayoutError: the product trim is not square and the catalogue's tokens are circles or
            hexes (their outline needs a square box); or its proportions are more than 1 % off
            the catalogue's (square tokens stretched into cards), with the message of
            :func:`tokengen.geometry.sizing.proportions_problem` and the way out (``--size``).
    """
    if size is not None:
        if size == catalogue.size:
            return catalogue
        return replace(catalogue, size=size, height=None if catalogue.height is None else catalogue.height * size / catalogue.size)
    if profile.trim is None:
        return catalogue
    width, height = profile.trim
    square = abs(width - height) < 1e-6
    kind = getattr(catalogue.shape, "kind", None)
    if not square and kind in ("circle", "hex"):
        raise LayoutError(f"{catalogue.path}: profile {profile.name} is for {format_length(width)} x {format_length(height)} "
                          f"{profile.product or 'cards'}; {kind} tokens need a square trim")
    own_width, own_height = catalogue.size, catalogue.trim_height
    if abs(width - own_width) > 0.01 or abs(height - own_height) > 0.01:
        problem = proportions_problem(width, height, own_width, own_height, asked=f"profile {profile.name}'s trim",
                                      remedy="choose a profile made for tokens of this shape (tokengen export --list-profiles), "
                                             "or print-shop, which takes any size")
        if problem:
            raise LayoutError(f"{bundled.shown(catalogue.path)}: {problem}")
        if notes is not None:
            notes.append(f"{profile.name}: trim {format_length(width)} × {format_length(height)} replaces the catalogue's "
                         f"{format_length(own_width)} × {format_length(own_height)}")
    return replace(catalogue, size=width, height=None if square and catalogue.height is None else height)


def one_size(catalogue: Catalogue, profile: Profile) -> None:
    """Refuse a catalogue whose layouts give its tokens several sizes (:mod:`tokengen.geometry.bands`):
    a profile's files (a print shop's sheets and their preflight, single pages, PNGs, cut files,
    a tabletop deck) are made for one trim. ``tokengen build`` prints such a catalogue, each size
    in its own band of rows.

    Raises:
        UsageError: more than one size, naming them.
    """
    found = bands.bands(catalogue)
    if len(found) > 1:
        names = bands.band_names(catalogue, found)
        raise UsageError(f"{catalogue.path}: profile {profile.name} makes files for one token size, and this catalogue's layouts "
                         f"give {len(found)} ({names}); build the sheets of every size with tokengen build")


def token_page(catalogue: Catalogue, profile: Profile) -> tuple[float, float, float, float]:
    """The page of one token side on single pages and PNGs: (width, height, left bleed, bottom
    bleed), pt. Without ``canvas_px`` the page is the trim + 2 × the profile's bleed; with it the
    page is the canvas (px / dpi × 72 pt: The Game Crafter's 825 × 1125 px at 300 DPI is
    198 × 270 pt) and the trim sits centred on it, so a euro poker trim (178.56 × 249.12 pt)
    has 9.72 pt of bleed left and right and 10.44 pt top and bottom.

    Raises:
        LayoutError: the trim is larger than the canvas.
    """
    size, height = catalogue.size, catalogue.trim_height
    if profile.canvas_px is None:
        return size + 2 * profile.bleed, height + 2 * profile.bleed, profile.bleed, profile.bleed
    width, tall = (v / profile.dpi * 72 for v in profile.canvas_px)
    if size > width + 1e-6 or height > tall + 1e-6:
        raise LayoutError(f"{catalogue.path}: a {format_length(size)} x {format_length(height)} token does not fit profile "
                          f"{profile.name}'s {profile.canvas_px[0]} x {profile.canvas_px[1]} px canvas at {profile.dpi} DPI "
                          f"({format_length(width)} x {format_length(tall)})")
    return width, tall, (width - size) / 2, (tall - height) / 2


def _finish(pdf: Path, catalogue: Catalogue, profile: Profile) -> list[Path]:
    """Post-processing of a written PDF export, each rewritten atomically with pikepdf: PDF/X-1a
    when the profile asks (``pdfx: x1a`` or ``x1a-2003``, :func:`tokengen.preflight.pdfx.convert`), else the die
    line's optional-content layer when it has a ``cut_layer`` (:func:`tokengen.outputs.dieline.add_layer`)."""
    from ..preflight import pdfx

    if pdfx.wanted(profile):
        with atomic_path(pdf, inputs=(catalogue.path,)) as temp:
            pdfx.convert(pdf, temp, profile)
    elif profile.cut_layer is not None and profile.output in SHEET_OUTPUTS:
        from .dieline import add_layer

        with atomic_path(pdf, inputs=(catalogue.path,)) as temp:
            add_layer(pdf, temp)
    return [pdf]


def print_path(out_stem: Path, number: int) -> Path:
    """The print image of sheet ``number`` (1-based) of a print-then-cut bundle: ``<out_stem>-print-<number>.png``."""
    return out_stem.with_name(f"{out_stem.name}-print-{number}.png")


def slug(text: str) -> str:
    """``"Meatshields: Hand of Doom"`` → ``"meatshields-hand-of-doom"`` (ASCII letters, digits, ``-``)."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "tokens"


def png_name(stem: str, number: int, token: Token) -> str:
    """Upload-ready PNG name for a face: ``meatshields-01-agi-low.png`` (``-x3`` when 3 copies).

    Lowercase ASCII, digits and hyphens only, numbered in catalogue order so a folder listing
    is the set in order; the copy count is in the name so the quantity is set right on upload.
    """
    copies = f"-x{token.copies}" if token.copies > 1 else ""
    return f"{stem}-{number:02d}-{slug(token.id)}{copies}.png"


def png_backs(stem: str, catalogue: Catalogue) -> list[tuple[Token, str]]:
    """One (token, PNG name) per distinct back, in order of first use: ``meatshields-back.png``
    when every face has the same back, else the back named by the numbers of the faces it goes
    behind, runs of three or more shortened: ``hex-counters-01-back.png``,
    ``hex-counters-02-05-back.png``, ``hex-counters-06to09-back.png``.
    """
    users: dict[Back, list[int]] = {}
    first: dict[Back, Token] = {}
    for number, token in enumerate(catalogue.tokens, 1):
        back = _back(catalogue, token)
        users.setdefault(back, []).append(number)
        first.setdefault(back, token)
    if len(users) == 1:
        return [(catalogue.tokens[0], f"{stem}-back.png")]
    return [(first[back], f"{stem}-{_runs(numbers)}-back.png") for back, numbers in users.items()]


def _runs(numbers: list[int]) -> str:
    """``[2, 5, 6, 7, 8]`` → ``"02-05to08"``: two-digit numbers, runs of three or more as ``AtoB``."""
    parts: list[str] = []
    start = 0
    for i in range(1, len(numbers) + 1):
        if i == len(numbers) or numbers[i] != numbers[i - 1] + 1:
            run = numbers[start:i]
            parts.append(f"{run[0]:02d}to{run[-1]:02d}" if len(run) > 2 else "-".join(f"{n:02d}" for n in run))
            start = i
    return "-".join(parts)


def write_single_pages(catalogue: Catalogue, profile: Profile, sides: Iterator[tuple[str, Token]],
                       target: Path | io.BytesIO, count: int, keep_resolution: bool = False,
                       warnings: list[str] | None = None, max_art_pixels: int = MAX_ART_PIXELS,
                       notes: list[str] | None = None) -> None:
    """Write a PDF with one token side per page to ``target`` (a path or a binary buffer) from
    ``sides``, an iterator of ``count`` (``"face"`` or ``"back"``, token) pairs taken one page at
    a time: each page is one form placement, so memory grows by a few hundred bytes per page,
    never by a list of the pages or their drawings. The catalogue's, the art's and the small-text
    warnings (:func:`tokengen.faces.scale.small_text_warnings`, measured on the faces as drawn) are
    added to ``warnings``.

    Each page is the trim grown by the bleed on every side (``size + 2 × bleed`` pt square; a
    card's width and height each + 2 × bleed) with TrimBox = the trim (inset by the bleed) and
    BleedBox = MediaBox. Deterministic (ReportLab invariant mode); only the bundled fonts,
    embedded as subsets; in a CMYK profile ReportLab refuses any non-CMYK colour.

    Raises:
        RenderError: a glyph is missing from the font; the art cannot be read.
    """
    size = catalogue.size
    height = catalogue.trim_height  # cards: not square
    edge, page_h, bx, by = token_page(catalogue, profile)
    bleed = max(bx, by)  # the art's bleed: it reaches every page edge of an uneven canvas
    library = ArtLibrary(Converter(profile.colour, profile.colour_options()), max_dpi=None if keep_resolution else profile.max_dpi,
                         max_total_pixels=max_art_pixels)
    library.reserve(pictures_of(catalogue))  # --keep-resolution: refused from the headers, before any is decoded
    described = f"; {library.colour.describe()}" if profile.colour == "cmyk" else ""
    canvas = open_canvas(target, (edge, page_h), title=catalogue.title, author=catalogue.author or "tokengen",
                         subject=f"{counted(count, 'token side')}, {format_length(size)} trim + {format_length(bleed)} bleed, profile {profile.name}"
                         + described, colour_model=profile.colour)
    sheet = SheetCanvas(canvas, size, bleed, profile.colour, safe=profile.safe, art=library, height=height, shape=catalogue.shape,
                        design=catalogue.safe_area)
    forms: dict[tuple[str, str], str] = {}
    for number, (side, token) in enumerate(sides, 1):
        key = (side, token.id)
        if key not in forms:  # once per design, before the page draws anything (equal backs share one form)
            forms[key] = sheet.face_form(token) if side == "face" else sheet.back_form(_back(catalogue, token))
        canvas.setTrimBox([bx, by, bx + size, by + height])
        canvas.setBleedBox([0, 0, edge, page_h])
        canvas.saveState()
        canvas.translate(bx, by)
        canvas.doForm(forms[key])
        canvas.restoreState()
        canvas.showPage()
        progress.report("pages", number, count)
    if warnings is not None:  # as a sheet build gives them; the small texts as the faces were drawn
        warnings.extend(catalogue.warnings)
        warnings.extend(library.warnings(catalogue.path.parent))
        warnings.extend(small_text_warnings(catalogue, size, safe=profile.safe, layouts=sheet.layouts))
        warnings.extend(sheet.warnings)
    if notes is not None:
        notes.extend(sheet.notes)
    with binary_streams():
        canvas.save()


def _back(catalogue: Catalogue, token: Token) -> Back:
    return catalogue.back or token.back


def write_png(image: Image.Image, path: Path | BinaryIO, dpi: int, *, shown: Path | None = None) -> None:
    """Save ``image`` as an 8-bit RGB PNG with ``dpi`` in pHYs (px per metre, as PNG stores it)
    and sRGB + gAMA chunks, so shops read the right physical size and colour space. ``path`` is a
    file or a binary file object.

    Raises:
        ExportError: the write failed, naming ``shown`` (the output a temporary ``path`` stands
            for) or else ``path``.
    """
    info = PngImagePlugin.PngInfo()
    info.add(b"sRGB", bytes([SRGB_INTENT]))
    info.add(b"gAMA", SRGB_GAMMA.to_bytes(4, "big"))
    try:
        image.save(path, format="PNG", dpi=(dpi, dpi), pnginfo=info, optimize=False)
    except OSError as exc:
        raise ExportError(f"{shown or path}: cannot write PNG: {exc.strerror or exc}"
                          + ("; no file of the set was replaced" if shown else "")) from None


def preflight_results(pdf: Path, profile: Profile, catalogue: Catalogue, size: float | None, *,
                      max_pages: int = MAX_PAGES) -> list[Check]:
    """Every preflight check (:class:`tokengen.preflight.checks.Check`) of the exported ``pdf``
    against its own ``profile``: the failures, the warnings (``passed`` and ``warning``, such as
    a hairline) and the passes. The token trim ``size`` (pt) is checked only for single-token
    pages of square tokens: a sheet, a cut file or a token with its own height has no one trim.
    ``max_pages`` is the run's ``--max-pages``: the export has held its pages to it, so its
    own preflight reads as many (at least preflight's default).

    Raises:
        PreflightError: the PDF cannot be read (see :func:`tokengen.preflight.checks.preflight`).
    """
    from ..preflight.checks import preflight
    from ..preflight.pdfwalk import Limits

    expected = None if profile.output in SHEET_OUTPUTS or catalogue.height is not None else size
    # our own file, already bounded by --max-tokens and --max-pages: 200,000 tokens of about 15
    # characters each are more than the characters a stranger's file may make preflight check; their operators
    # and operands are counted up to 32 × the default too
    own = Limits(pages=max(Limits.pages, max_pages), placements=4 * Limits.placements, chars=32 * Limits.chars, operators=32 * Limits.operators)
    return list(preflight(pdf, profile, size=expected, limits=own))
