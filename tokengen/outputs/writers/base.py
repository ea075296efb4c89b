"""The interface every export writer has (:mod:`tokengen.outputs.writers`): a :class:`Job` in,
a :class:`Planned` out.

A writer settles everything it will write before anything is written: it counts the tokens and
pages against the run's limits, names every file, and returns them with a ``write`` that makes
them. :func:`tokengen.outputs.export.export` checks the named files (none may be an input) and
makes the folder between the two, so a refused run writes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ...errors import LayoutError
from ...geometry.pager import check_limits
from ...io.atomic import atomic_path
from ...model import Catalogue
from ...sources.profiles import SHEET_OUTPUTS, Profile


@dataclass(frozen=True)
class Job:
    """One export run as the writers see it: the catalogue already at the run's trim
    (:func:`tokengen.outputs.export.product_trim`), its profile, where the files go and the
    run's limits and options (the parameters of :func:`tokengen.outputs.export.export`).

    Fields:
        catalogue: the validated catalogue, at the run's trim.
        profile: see :mod:`tokengen.sources.profiles`.
        out_dir: the output folder; ``stem``: the files' stem (the title's slug);
            ``pdf``: the PDF every writer writes first, ``<stem>-<profile>.pdf``.
        inputs: the files the catalogue read; no output may be one of them.
        dpi: PNG resolution, px per in (``--dpi``, else the profile's).
        max_tokens, max_pages: refuse runs with more tokens or pages (every profile: a PNG
            set's and a Tabletop Simulator save's PDF pages too), counted before any file is
            named or written.
        max_pixels, max_total_pixels: refuse PNG sets with larger images, or more pixels in all,
            before anything is drawn.
        keep_resolution: embed art at its own resolution instead of resampling it down to the
            profile's ``max_dpi``.
        warnings: when given, the run's warnings are appended to it: the art's (low resolution,
            resampled, e.g. ``1 picture resampled to 300 DPI (art/cover.jpg); --keep-resolution
            keeps it``) and the face texts printed below 5 pt, measured on the faces as drawn at
            the run's trim (:func:`tokengen.faces.scale.small_text_warnings`).
        notes: when given, what the export did that the user should know is appended to it
            (``faces scaled to 85.5 % about their centres …``, see
            :func:`tokengen.faces.render.scaled_note`).
        image_url: ``output: tts`` only: the URL the images will be hosted under
            (``--image-url``), or None for ``file:///`` URLs (:mod:`tokengen.outputs.tts`).
        max_art_pixels: the most pixels of art the run embeds in all (``--max-art-pixels``),
            one picture a fifth of it (:func:`tokengen.faces.art.picture_limit`).
        workers: ``output: png`` only: processes rendering and encoding the PNGs (None: every
            core; 1: this one), see :func:`tokengen.outputs.pngs.write_pngs`.
        cut_marks: False leaves the registration marks out of the cut files (``cut-svg``,
            ``cut-dxf``; ``--no-marks``): a cutter that cuts every line of its file would cut
            them. The printed sheet keeps its marks.
    """

    catalogue: Catalogue
    profile: Profile
    out_dir: Path
    stem: str
    pdf: Path
    inputs: tuple[Path, ...]
    dpi: int
    max_tokens: int
    max_pages: int
    max_pixels: int
    max_total_pixels: int
    keep_resolution: bool
    warnings: list[str] | None
    notes: list[str] | None
    image_url: str | None
    max_art_pixels: int
    workers: int | None
    cut_marks: bool


@dataclass(frozen=True)
class Planned:
    """What a writer will write: ``targets``, every file in the order :func:`export` returns
    them (the PDF first); ``pages``, the PDF's page count (for the caller's previews, checked
    with the targets); ``write``, which writes them all and returns the paths written."""

    targets: list[Path]
    pages: int
    write: Callable[[], list[Path]]


#: A writer: the plan of one kind of output (a profile's ``output``) for a job. It raises
#: before returning when the run passes a limit; nothing is written until ``write`` is called.
Writer = Callable[[Job], Planned]


def check_run(catalogue: Catalogue, tokens: int, pages: int, max_tokens: int | None, max_pages: int | None) -> None:
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


def finish_pdf(pdf: Path, catalogue: Catalogue, profile: Profile) -> list[Path]:
    """Post-processing of a written PDF export, each rewritten atomically with pikepdf: PDF/X-1a
    when the profile asks (``pdfx: x1a``, :func:`tokengen.preflight.pdfx.convert`), else the die
    line's optional-content layer when it has a ``cut_layer`` (:func:`tokengen.outputs.dieline.add_layer`)."""
    from ...preflight import pdfx

    if pdfx.wanted(profile):
        with atomic_path(pdf, inputs=(catalogue.path,)) as temp:
            pdfx.convert(pdf, temp, profile)
    elif profile.cut_layer is not None and profile.output in SHEET_OUTPUTS:
        from ..dieline import add_layer

        with atomic_path(pdf, inputs=(catalogue.path,)) as temp:
            add_layer(pdf, temp)
    return [pdf]
