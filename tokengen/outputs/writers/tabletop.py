"""The ``tts`` writer: a Tabletop Simulator saved object (:mod:`tokengen.outputs.tts`): the
single-token PDF of the faces and backs, without bleed, rasterised as the ``png`` chits are into
card sheets or tile images, the saved object's JSON and its thumbnail."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ...errors import ExportError
from ...io.atomic import atomic_files
from ..pngs import rasterise_pages, save_png
from .base import Job, Planned, check_run
from .sides import png_backs, png_name, write_single_pages


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
        urls = {name: tts.image_url(out_dir / name, job.image_url) for _, name in plan.images}
        with atomic_files(targets, inputs=catalogue.files_read()) as temps:
            temp = dict(zip(names, temps[1:], strict=True))
            try:
                write_single_pages(catalogue, profile, iter(plan.sides), temps[0], len(plan.sides), job.keep_resolution, job.warnings,
                                   job.max_art_pixels)
            except OSError as exc:  # named after the output, not its hidden temporary file
                raise ExportError(f"{job.pdf}: write failed: {exc.strerror or exc}; no file of the set was replaced") from None
            for name, image in tts.compose(plan, rasterise_pages(temps[0], dpi, catalogue.size)):
                save_png(image, dpi, temp[name], out_dir / name)  # as the chits are written (tokengen.io.pngwrite)
            temp[plan.json].write_text(tts.saved_object(catalogue, plan, urls), encoding="utf-8")
        return targets

    return Planned(targets, len(plan.sides), write)
