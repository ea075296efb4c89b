"""Print-shop export: one catalogue, one :class:`~tokengen.sources.profiles.Profile`, the files a shop takes.

:func:`export` reads as its stages: settle the job (one token size, the run's trim, the names),
plan the files with the writer of the profile's ``output`` (:mod:`tokengen.outputs.writers`,
every limit checked and every file named before any is written), guard every file named and
make the folder, then write. The kinds of output, one writer each:

* ``sheets`` (:mod:`tokengen.outputs.writers.sheets`): tokens imposed on pages by
  :func:`tokengen.outputs.build.build_pdf`; ``cut-svg``, ``cut-dxf`` and ``cricut``
  (:mod:`tokengen.outputs.writers.cutfiles`) add cut files (and print images) per sheet.
* ``single-pages`` (:mod:`tokengen.outputs.writers.pages`): one PDF, one token side a page.
* ``png`` (:mod:`tokengen.outputs.writers.chits`): the single-token PDF rasterised into a PNG
  per design and per distinct back.
* ``tts`` (:mod:`tokengen.outputs.writers.tabletop`): a Tabletop Simulator saved object.

Bleed is drawn per token (the face and back forms fill their background to trim + bleed);
ReportLab's ``cropMarks`` option is not used because it scales the page content. Every file is
written atomically (:func:`tokengen.io.atomic.atomic_path`). The preflight of what was written
is :func:`preflight_results`, which the front ends call.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Concatenate, ParamSpec

from ..errors import ExportError, LayoutError, UsageError
from ..geometry import bands
from ..geometry.sizing import proportions_problem
from ..io import guard
from ..io.atomic import no_empty_folder_left
from ..limits import MAX_ART_PIXELS, MAX_PNG_PIXELS
from ..limits import MAX_PNG_TOTAL_PIXELS as MAX_TOTAL_PIXELS
from ..model import Catalogue
from ..sources import bundled
from ..sources.profiles import SHEET_OUTPUTS, Profile
from ..units import format_length
from .build import MAX_PAGES, MAX_TOKENS, Also, naming_art
from .tiles import board_note, whole_board
from .writers import WRITERS, Job, Planned
from .writers.base import check_run as _check_run  # noqa: F401  (the names export has always had)
from .writers.base import finish_pdf as _finish  # noqa: F401
from .writers.sides import (  # noqa: F401
    _runs,
    png_backs,
    png_name,
    print_path,
    slug,
    token_page,
    write_png,
    write_single_pages,
)

if TYPE_CHECKING:
    from ..preflight.checks import Check

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
    """Write the files ``profile`` asks for into ``out_dir`` (created if missing), by the writer of
    its ``output`` (:data:`tokengen.outputs.writers.WRITERS`). ``dpi`` overrides the profile's;
    ``size`` (pt, ``--size``) overrides the trim (:func:`product_trim`); ``also`` is what the caller
    will write from the PDF (previews), given the PDF and its page count, checked with the export's
    own files. The other parameters are :class:`tokengen.outputs.writers.base.Job`'s fields.

    Returns:
        The paths written, in a stable order (PDF first, then e.g. PNGs: faces in catalogue order,
        then each distinct back, named by :func:`png_backs`); a PNG set is all or nothing.
    Raises:
        ExportError: the folder cannot be created, a file cannot be written, or a target is an
            input (every target, ``also``'s too, checked before any is written or the folder
            created). A failed export leaves no folder it made behind.
        LayoutError: the tokens do not fit the profile's sheet, or the run passes a limit.
        RenderError: a glyph is missing from the font, or pdfium cannot rasterise a page.
        CatalogueError: a picture cannot be used, named where the catalogue names it.
    """
    one_size(catalogue, profile)
    profile = board_profile(catalogue, profile, notes)
    catalogue = product_trim(catalogue, profile, size, notes)
    out_dir = Path(out_dir)
    stem = slug(catalogue.title)
    job = Job(catalogue, profile, out_dir, stem, out_dir / f"{stem}-{slug(profile.name)}.pdf", catalogue.files_read(),
              dpi or profile.dpi, max_tokens, max_pages, max_pixels, max_total_pixels, keep_resolution, warnings, notes,
              image_url, max_art_pixels, workers, cut_marks)
    planned = WRITERS[profile.output](job)
    ready(job, planned, also)
    return planned.write()


def board_profile(catalogue: Catalogue, profile: Profile, notes: list[str] | None = None) -> Profile:
    """``profile``, or for a board on a shop's sheet profile the single-pages profile that prints
    it whole (:func:`tokengen.outputs.tiles.whole_board`), saying so in ``notes``."""
    board = whole_board(catalogue, profile)
    if board is None:
        return profile
    if notes is not None:
        notes.append(board_note(catalogue, profile))
    return board


def ready(job: Job, planned: Planned, also: Also | None = None) -> None:
    """Check every file of the run (the ``planned`` targets and ``also``'s for a PDF of its
    pages: none may be an input, :func:`tokengen.io.guard.check_outputs`), then make the folder.

    Raises:
        ExportError: a target is an input, or the folder cannot be made.
    """
    guard.check_outputs([*planned.targets, *(also(job.pdf, planned.pages) if also else ())], job.inputs)
    try:
        job.out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ExportError(f"{job.out_dir}: cannot create the output folder: {exc.strerror or exc}") from None
    if not job.out_dir.is_dir():
        raise ExportError(f"{job.out_dir}: not a folder")


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
    own_width, own_height = catalogue.size, catalogue.trim_height
    _fits_the_shape(catalogue, profile, square, own_width / own_height)
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


def _fits_the_shape(catalogue: Catalogue, profile: Profile, square: bool, proportion: float) -> None:
    """Refuse a product trim that cannot hold the catalogue's shape: circles need a square trim,
    hexes one lying their way (:func:`_same_hex_orientation`).

    Raises:
        LayoutError: as above.
    """
    assert profile.trim is not None
    kind = getattr(catalogue.shape, "kind", None)
    if not square and kind == "circle":
        width, height = profile.trim
        raise LayoutError(f"{catalogue.path}: profile {profile.name} is for {format_length(width)} x {format_length(height)} "
                          f"{profile.product or 'cards'}; circle tokens need a square trim")
    if kind == "hex":
        _same_hex_orientation(catalogue, profile, proportion)


def _same_hex_orientation(catalogue: Catalogue, profile: Profile, proportion: float) -> None:
    """Refuse hex tokens lying the other way from the hexes of ``profile``'s trim (a flat-top
    product's trim is 2/√3 as wide as tall, a pointy-top one √3/2), naming the catalogue key
    that turns them; ``proportion`` is the tokens' box width / height.

    Raises:
        LayoutError: the trim's proportions are the tokens' turned a quarter (within 1 %).
    """
    assert profile.trim is not None
    width, height = profile.trim
    if abs(width / height * proportion - 1) > 0.01 or abs(width - height) < 1e-6:
        return
    wanted = "flat" if width > height else "pointy"
    raise LayoutError(f"{bundled.shown(catalogue.path)}: profile {profile.name} is for {wanted}-top hexes "
                      f"({format_length(width)} x {format_length(height)}); set shape: {{kind: hex, orientation: {wanted}}} "
                      "in the catalogue")


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
