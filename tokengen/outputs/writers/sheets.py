"""The ``sheets`` writer: tokens imposed on pages by :func:`tokengen.outputs.build.build_pdf` with
the profile's page, margin, gutter, bleed, marks and colour model; with ``boxes`` each page's
TrimBox is the block of token trims and its BleedBox that block grown by the bleed; a
``cut_layer`` adds a die line in a spot colour (:mod:`tokengen.outputs.dieline`). The cut-file
writers (:mod:`tokengen.outputs.writers.cutfiles`) plan and build the same sheet with
:func:`plan_sheet` and :func:`build_sheet`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...geometry.imposition import SheetSpec
from ...geometry.sizing import sheet_spec
from ..build import build_pdf, pdf_pages, settle
from ..options import BuildOptions
from ..result import BuildResult
from .base import Job, Planned, finish_pdf


@dataclass(frozen=True)
class SheetPlan:
    """A sheet export settled: its ``spec`` and build ``options``, its ``sheets`` (pages of
    tokens, one cut file each) and ``pages`` (every page of the PDF, backs and rules sheet too)."""

    spec: SheetSpec
    options: BuildOptions
    sheets: int
    pages: int


def plan_sheet(job: Job) -> SheetPlan:
    """Settle the sheet of ``job`` (sizes, bands, pages) before anything is named.

    Raises:
        LayoutError: the tokens do not fit the profile's sheet, or the run passes a limit.
    """
    catalogue, profile = job.catalogue, job.profile
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
                           colour=profile.colour_options(), max_dpi=None if job.keep_resolution else profile.max_dpi,
                           max_tokens=job.max_tokens, max_pages=job.max_pages, die_line=profile.cut_layer, die_layer=die_layer,
                           max_art_pixels=job.max_art_pixels)
    settled, _, pages = settle(catalogue, options)
    return SheetPlan(spec, options, pages, pdf_pages(catalogue, settled, pages))


def build_sheet(job: Job, plan: SheetPlan) -> BuildResult:
    """Build the sheet PDF of ``job``, add its warnings and notes to the job's, and post-process
    it (:func:`tokengen.outputs.writers.base.finish_pdf`)."""
    built = build_pdf(job.catalogue, plan.options, job.pdf)
    if job.warnings is not None:
        job.warnings.extend(built.warnings)
    if job.notes is not None:
        job.notes.extend(built.notes)
    finish_pdf(job.pdf, job.catalogue, job.profile)
    return built


def sheets(job: Job) -> Planned:
    """``output: sheets``: the sheet PDF alone."""
    plan = plan_sheet(job)

    def write() -> list[Path]:
        build_sheet(job, plan)
        return [job.pdf]

    return Planned([job.pdf], plan.pages, write)
