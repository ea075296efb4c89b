"""The ``png`` writer: a single-token PDF (one page per design plus one per distinct back) is
written, then each page is rasterised with pdfium into a PNG of exactly
``round((trim + 2 × bleed) / 72 × dpi)`` px square, 8-bit sRGB, with the DPI in its pHYs chunk: a
1 in chit with 1/8 in bleed at 300 DPI is 375 × 375 px. (The Game Crafter prints at 300 DPI and
asks for 1/8 in bleed and a 1/8 in safe zone: help.thegamecrafter.com, "DPI (dots per inch)";
1/8 in is also the usual US bleed.) PNG stores the DPI as pixels per metre, so 300 DPI is
written as 11811 px/m and reads back as 299.9994. PNG and PDF come from one drawing, so they
cannot disagree. The pages are rasterised and encoded by :func:`tokengen.outputs.pngs.write_pngs`,
in worker processes for large sets."""

from __future__ import annotations

from pathlib import Path

from ...errors import ExportError, LayoutError
from ...io.atomic import atomic_files
from ...units import counted
from ..pngs import start_workers, write_pngs
from .base import Job, Planned, check_run
from .sides import png_backs, png_name, token_page, write_single_pages


def chits(job: Job) -> Planned:
    """``output: png``: the PDF, then a PNG per face design in catalogue order and one per
    distinct back; all or nothing.

    Raises:
        LayoutError: a PNG would pass ``--max-pixels``, the set ``--max-total-pixels``, or the
            run its token or page limit.
    """
    catalogue, profile, dpi, stem = job.catalogue, job.profile, job.dpi, job.stem
    page_w, page_h, _, _ = token_page(catalogue, profile)
    px, py = round(page_w / 72 * dpi), round(page_h / 72 * dpi)
    back_pngs = png_backs(stem, catalogue)
    count = len(catalogue.tokens) + len(back_pngs)
    if px * py > job.max_pixels:
        raise LayoutError(f"{catalogue.path}: each PNG would be {px} x {py} px ({px * py:,} pixels) at {dpi} DPI, more than "
                          f"the limit of {job.max_pixels:,} (raise it with --max-pixels, or lower --dpi)")
    if px * py * count > job.max_total_pixels:
        raise LayoutError(f"{catalogue.path}: {counted(count, 'PNG')} of {px} x {py} px are {px * py * count:,} pixels, more than the limit "
                          f"of {job.max_total_pixels:,} per run (raise it with --max-total-pixels, or lower --dpi)")
    check_run(catalogue, len(catalogue.tokens), count, job.max_tokens, job.max_pages)  # before any PNG is named
    png_sides = [("face", t) for t in catalogue.tokens] + [("back", t) for t, _ in back_pngs]
    names = [png_name(stem, i, t) for i, t in enumerate(catalogue.tokens, 1)] + [name for _, name in back_pngs]
    targets = [job.pdf] + [job.out_dir / name for name in names]

    def write() -> list[Path]:
        with atomic_files(targets, inputs=job.inputs) as temps:
            start_workers(len(png_sides), job.workers)  # their start beside the drawing of the PDF
            try:
                write_single_pages(catalogue, profile, iter(png_sides), temps[0], len(png_sides), job.keep_resolution, job.warnings,
                                   job.max_art_pixels, job.notes)
            except OSError as exc:  # named after the output, not its hidden temporary file
                raise ExportError(f"{job.pdf}: write failed: {exc.strerror or exc}; no file of the set was replaced") from None
            write_pngs(temps[0], dpi, page_w, temps[1:], targets[1:], job.workers)
        return targets

    return Planned(targets, len(png_sides), write)
