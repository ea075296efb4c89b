"""Many builds: ``tokengen batch``."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..errors import ExportError
from ..io import progress
from ..io.atomic import no_empty_folder_left
from ..limits import MAX_ART_PIXELS
from .app import cli
from .completion import complete_page
from .habits import say, step, warn
from .params import CATALOGUE, DEFAULT_CATALOGUE, FORMAT, LENGTH, SIZE, _echo_json, written_report

if TYPE_CHECKING:
    from ..outputs.batch import JobResult


@cli.command()
@click.argument("source", default=DEFAULT_CATALOGUE, metavar="[CATALOGUE|JOBS.yaml]", type=CATALOGUE)
@click.option("-o", "--output-dir", type=click.Path(file_okay=False, path_type=Path), default="out", show_default=True, help="Folder for the PDFs (created if missing).")
@click.option("--size", "sizes", type=SIZE, multiple=True, metavar="SIZE",
              help="A token size (0.75in, or WIDTHxHEIGHT: 63mmx88mm, 63x88mm); repeat for several (default: the catalogue's).")
@click.option("--scale", "scales", type=float, multiple=True, metavar="FACTOR", help="A factor on the catalogue's size; repeatable.")
@click.option("--page", "pages", multiple=True, metavar="NAME|WxH", shell_complete=complete_page, help="A page (letter, a4, …, WIDTHxHEIGHT); repeatable (default: letter).")
@click.option("--landscape", is_flag=True, help="Turn the pages sideways.")
@click.option("--margin", type=LENGTH, default="0.25in", show_default=True, help="Border kept clear on every side.")
@click.option("--gutter", type=LENGTH, default="0", show_default=True, help="Space between tokens (0: shared cut edges).")
@click.option("--columns", type=click.IntRange(0, 1000), default=None, help="At most N columns; 0: as many as fit.")
@click.option("--cut-lines/--no-cut-lines", default=True, show_default=True, help="Full-length cut lines on the token edges.")
@click.option("--crop-marks", is_flag=True, help="Short crop marks outside the grid.")
@click.option("--copies", type=click.IntRange(1, 100_000), default=1, show_default=True, help="N whole sets of the catalogue, one after another.")
@click.option("--max-art-pixels", type=click.IntRange(1), default=MAX_ART_PIXELS, show_default=True,
              help="Refuse builds whose art embeds more pixels in all; one picture may hold a fifth of it (at least 50 Mpx).")
@click.option("-j", "--jobs", "workers", type=click.IntRange(1, 256), default=None, help="Worker processes (default: every core; at most 61 on Windows).")
@click.option("--force", is_flag=True, help="Rebuild outputs that are newer than their inputs.")
@FORMAT
def batch(source: Path, output_dir: Path, sizes: tuple[float | tuple[float, float], ...], scales: tuple[float, ...], pages: tuple[str, ...],
          landscape: bool, margin: float, gutter: float, columns: int | None, cut_lines: bool, crop_marks: bool,
          copies: int, workers: int | None, force: bool, fmt: str = "text", max_art_pixels: int = MAX_ART_PIXELS) -> None:
    """Build many sheets at once: every --size/--scale × --page of CATALOGUE, or the jobs of a
    job file (a YAML file with a `jobs:` list), in parallel processes.

    Outputs are named after what is inside (meatshields_25mm_a4.pdf). Outputs newer than their
    inputs are skipped unless --force. A failing job does not stop the others; the exit status
    is then 2.

    \b
    Examples:
      tokengen batch --size 0.75in --size 1in --size 25mm --page letter --page a4 -o out
      tokengen batch jobs.yaml -o out --force
      tokengen batch --size 1in --size 25mm -o out --format json

    A job in a job file may name an export profile (profile: tts, print-shop, …): it is then
    tokengen export into a folder of that name.
    """
    from ..outputs import batch as batching

    if batching.is_job_file(source):
        _refuse_sheet_options()
        jobs = batching.load_jobs(source, output_dir)
    else:
        jobs = batching.matrix_jobs(source, output_dir, sizes=sizes, scales=scales, pages=pages or ("letter",),
                                    landscape=landscape, margin=margin, gutter=gutter, columns=columns,
                                    cut_lines=cut_lines, crop_marks=crop_marks, copies=copies, max_art_pixels=max_art_pixels)
    with no_empty_folder_left(output_dir):  # every job failed: no empty folder left behind
        _make_folder(output_dir)
        with step(f"{len(jobs)} jobs"):
            results = batching.run_jobs(jobs, workers=workers, force=force,
                                        on_result=_progress(len(jobs), fmt == "text" and not sys.stdout.isatty()))
        _report(results, fmt)
        batching.check_results(results)


def _refuse_sheet_options() -> None:
    """A job file sets the sheet per job: raise UsageError naming the options given on the
    command line beside it (those of the output, workers, --force and the report are fine)."""
    ctx = click.get_current_context()
    given = [p.opts[-1] for p in ctx.command.params
             if p.name not in ("source", "output_dir", "workers", "force", "fmt", "quiet", "verbose")
             and ctx.get_parameter_source(p.name or "") == click.core.ParameterSource.COMMANDLINE]
    if given:
        raise click.UsageError(f"{', '.join(given)}: a job file sets these per job")


def _make_folder(output_dir: Path) -> None:
    """Create the output folder (and its parents); raise ExportError when it cannot be."""
    try:
        output_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ExportError(f"{output_dir}: cannot create folder: {exc.strerror or exc}") from None


def _progress(total: int, lines: bool) -> Callable[[JobResult], None]:
    """What to do as each of ``total`` jobs finishes: the bar on stderr, on a terminal, and a
    plain progress line on stdout when ``lines`` (text format where no bar is drawn)."""
    from ..outputs.batch import progress_line

    done = iter(range(1, total + 1))

    def finished(result: JobResult) -> None:
        number = next(done)
        progress.report("jobs", number, total)
        if lines:
            say(progress_line(result, number, total))

    return finished


def _report(results: list[JobResult], fmt: str) -> None:
    """The summary (a table, or the ``--format json`` report) on stdout and each distinct
    warning once on stderr."""
    from ..outputs.batch import summary_table

    warnings = list(dict.fromkeys(w for r in results for w in r.warnings))  # each distinct warning once
    if fmt == "json":
        built = [r for r in results if r.ok and not r.skipped]
        _echo_json(written_report("batch", [r.job.output for r in built], sum(r.pages for r in built), sum(r.tokens for r in built), warnings,
                                  jobs=[r.to_dict() for r in results]))
    else:
        say(summary_table(results))
    for warning in warnings:
        warn(f"tokengen: warning: {warning}")
