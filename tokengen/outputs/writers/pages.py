"""The ``single-pages`` writer: one PDF where each page is one token side: page = trim + 2 ×
bleed square, TrimBox = the trim, BleedBox = the page. For every physical token (copies
included) its two sides follow each other in the profile's ``order`` (face, then back, by
default)."""

from __future__ import annotations

from pathlib import Path

from ...io.atomic import atomic_path
from .base import Job, Planned, check_run, finish_pdf
from .sides import write_single_pages


def single_pages(job: Job) -> Planned:
    """``output: single-pages``: one page per side of every physical token, counted against the
    run's limits here."""
    catalogue, profile = job.catalogue, job.profile
    tokens = catalogue.count * profile.copies
    pages = tokens * len(profile.order)
    check_run(catalogue, tokens, pages, job.max_tokens, job.max_pages)  # one page a side of a token

    def write() -> list[Path]:
        sides = ((side, t) for _ in range(profile.copies) for t in catalogue.tokens for _ in range(t.copies) for side in profile.order)
        with atomic_path(job.pdf, inputs=job.inputs) as temp:
            write_single_pages(catalogue, profile, sides, temp, pages, job.keep_resolution, job.warnings, job.max_art_pixels,
                               job.notes)
        return finish_pdf(job.pdf, catalogue, profile)

    return Planned([job.pdf], pages, write)
