"""The ``tts`` writer: a Tabletop Simulator saved object (:mod:`tokengen.outputs.tts`): the
single-token PDF of the faces and backs, without bleed, rasterised as the ``png`` chits are into
card sheets or tile images, the saved object's JSON and its thumbnail."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from ...errors import ExportError
from ...io.atomic import atomic_files
from ..pngs import png_pages, rasterise_pages, save_png, write_png_file
from .base import Job, Planned, check_run
from .sides import png_backs, png_name, write_single_pages

if TYPE_CHECKING:
    from ..tts import Plan


def tabletop(job: Job) -> Planned:
    """``output: tts`` (:mod:`tokengen.outputs.tts`): the single-token PDF of the faces and backs
    (no bleed: TTS maps the whole image onto the face), rasterised as the ``png`` chits are, the
    card sheets or tile images composed from those pages, the saved object's JSON and thumbnail;
    all files or none. Returns the PDF, the JSON, the thumbnail, then the images."""
    from .. import tts

    catalogue, stem, out_dir, dpi = job.catalogue, job.stem, job.out_dir, job.dpi
    tts.check_base(job.image_url)
    profile = replace(job.profile, bleed=0.0)
    faces = [png_name(stem, i, t) for i, t in enumerate(catalogue.tokens, 1)]
    plan = tts.plan(catalogue, stem, dpi, faces, png_backs(stem, catalogue), max_pixels=job.max_pixels,
                    max_total_pixels=job.max_total_pixels)
    check_run(catalogue, catalogue.count, len(plan.sides), job.max_tokens, job.max_pages)
    names = [plan.json, plan.thumbnail, *(name for _, name in plan.images)]
    targets = [job.pdf, *(out_dir / name for name in names)]

    def write() -> list[Path]:
        urls = tts.image_urls(out_dir, [name for _, name in plan.images], job.image_url)
        with atomic_files(targets, inputs=catalogue.files_read()) as temps:
            temp = dict(zip(names, temps[1:], strict=True))
            try:
                write_single_pages(catalogue, profile, iter(plan.sides), temps[0], len(plan.sides), job.keep_resolution, job.warnings,
                                   job.max_art_pixels)
            except OSError as exc:  # named after the output, not its hidden temporary file
                raise ExportError(f"{job.pdf}: write failed: {exc.strerror or exc}; no file of the set was replaced") from None
            _write_images(plan, temps[0], dpi, temp, out_dir)
            temp[plan.json].write_text(tts.saved_object(catalogue, plan, urls), encoding="utf-8")
        return targets

    return Planned(targets, len(plan.sides), write)


def _write_images(plan: Plan, pdf: Path, dpi: int, temp: dict[str, Path], out_dir: Path) -> None:
    """Render the pages of ``pdf`` (``plan.sides``) at ``dpi`` into the plan's images, each
    written to its temporary file in ``temp`` (standing for ``out_dir / name``) as the chits are
    (:mod:`tokengen.io.pngwrite`): tiles' faces and backs encoded straight from pdfium's bitmap
    (:func:`tokengen.outputs.pngs.png_pages`) and the thumbnail made from the first face's PNG;
    cards pasted into their sheets (:func:`tokengen.outputs.tts.compose`).

    Raises:
        RenderError: pdfium cannot render a page.
        ExportError: an image cannot be written, naming its output.
    """
    from PIL import Image

    from .. import tts

    if plan.cards:
        for name, image in tts.compose(plan, rasterise_pages(pdf, dpi, plan.cell[0] / dpi * 72)):
            save_png(image, dpi, temp[name], out_dir / name)
        return
    first: bytes | None = None
    for name, data in zip(plan.faces + plan.backs, png_pages(pdf, dpi), strict=True):
        first = data if first is None else first
        write_png_file(data, temp[name], out_dir / name)
    if first is not None:  # the catalogue loader refuses an empty catalogue
        with Image.open(io.BytesIO(first)) as face:
            save_png(tts.thumbnail(face.convert("RGB")), dpi, temp[plan.thumbnail], out_dir / plan.thumbnail)
