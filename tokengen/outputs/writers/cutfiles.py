"""The cut-file writers: the sheet PDF (:mod:`tokengen.outputs.writers.sheets`) and beside it

* ``cut-svg``: an SVG of each sheet's cut outlines for a plotter (:mod:`tokengen.outputs.cutsvg`);
* ``cut-dxf``: the same outlines as DXF (mm) for cutting machines (:mod:`tokengen.outputs.cutdxf`);
* ``cricut``: a print-then-cut bundle for Cricut Design Space, which prints its own registration
  frame around a print area of 6.75 × 9.25 in: the sheets at that page size without marks, and
  for each sheet ``<name>-print-<n>.png`` (the sheet at the profile's DPI, 300: 2025 × 2775 px)
  and ``<name>-cut-<n>.svg`` of the same size (171.45 × 234.95 mm), its cut outlines.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ...io.atomic import atomic_files
from ..cutsvg import svg_path
from ..pngs import rasterise_pages
from .base import Job, Planned
from .sheets import build_sheet, plan_sheet
from .sides import print_path, write_png


def cut_svg(job: Job) -> Planned:
    """``output: cut-svg``: the sheet PDF, then one SVG of cut outlines per sheet."""
    from ..cutsvg import write_cut_svgs

    return _with_cut_files(job, svg_path, write_cut_svgs)


def cut_dxf(job: Job) -> Planned:
    """``output: cut-dxf``: the sheet PDF, then one DXF of cut outlines per sheet.

    Raises:
        UsageError: ezdxf is not installed (:func:`tokengen.outputs.cutdxf.require_ezdxf`).
    """
    from ..cutdxf import dxf_path, require_ezdxf, write_cut_dxfs

    return _with_cut_files(job, dxf_path, write_cut_dxfs, lambda: require_ezdxf(job.profile.name))


def _with_cut_files(job: Job, path_of: Callable[[Path, int], Path], write_cut_files: Callable[..., list[Path]],
                    usable: Callable[[], None] = lambda: None) -> Planned:
    """The sheet PDF, then one cut file per sheet: ``path_of(stem, n)`` names sheet n's, and
    ``write_cut_files(catalogue, spec, stem, marks, copies=, cut=)`` writes them all (with the
    registration marks when the profile has them and the job keeps them). ``usable()`` raises
    when the writer cannot run here (a missing extra), once the sheets are planned."""
    plan = plan_sheet(job)
    usable()
    out_stem = job.out_dir / job.stem
    cut_files = [path_of(out_stem, n) for n in range(1, plan.sheets + 1)]

    def write() -> list[Path]:
        built = build_sheet(job, plan)
        marks = "registration" in job.profile.marks and job.cut_marks
        return [job.pdf, *write_cut_files(job.catalogue, plan.spec, out_stem, marks, copies=built.sets, cut=job.profile.cut)]

    return Planned([job.pdf, *cut_files], plan.pages, write)


def cricut(job: Job) -> Planned:
    """``output: cricut``: the sheet PDF, then per sheet a print image at the job's DPI and its
    cut SVG (without registration marks: Design Space prints its own), in pairs."""
    plan = plan_sheet(job)
    out_stem = job.out_dir / job.stem
    cut_files = [svg_path(out_stem, n) for n in range(1, plan.sheets + 1)]
    prints = [print_path(out_stem, n) for n in range(1, plan.sheets + 1)]

    def write() -> list[Path]:
        from ..cutsvg import write_cut_svgs

        built = build_sheet(job, plan)
        with atomic_files(prints, inputs=job.inputs) as temps:
            for target, temp, image in zip(prints, temps, rasterise_pages(job.pdf, job.dpi, job.profile.page[0]), strict=True):
                write_png(image, temp, job.dpi, shown=target)
                image.close()
        svgs = write_cut_svgs(job.catalogue, plan.spec, out_stem, False, copies=built.sets, cut=job.profile.cut)
        return [job.pdf, *(f for pair in zip(prints, svgs, strict=True) for f in pair)]

    return Planned([job.pdf, *prints, *cut_files], plan.pages, write)
