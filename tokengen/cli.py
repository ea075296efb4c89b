"""The ``tokengen`` command line: parse options, call one library function, map errors to exit codes.

Exit codes: 0 success; 1 a check found problems; 2 bad input or usage; 130 interrupted.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from . import __version__, scale as scaling
from .build import MAX_PAGES, MAX_TOKENS, BuildOptions, build_pdf
from .catalogue import load_catalogue
from .errors import ExportError, TokengenError
from .imposition import SheetSpec
from .units import parse_length, parse_page

DEFAULT_CATALOGUE = "token_defs.yaml"


class LengthType(click.ParamType):
    """A click parameter: a length with a unit (``0.25in``, ``3mm``) → pt."""

    name = "LENGTH"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        if isinstance(value, float):
            return value
        try:
            return parse_length(value)
        except ValueError as exc:
            self.fail(str(exc), param, ctx)


LENGTH = LengthType()


def _sheet_options(f: Any) -> Any:
    """The page and imposition options shared by every command that lays out sheets."""
    options = [
        click.option("--page", default="letter", show_default=True, metavar="NAME|WxH",
                     help="letter, a4, legal, a3, tabloid, or WIDTHxHEIGHT such as 210mmx297mm."),
        click.option("--landscape", is_flag=True, help="Turn the page sideways."),
        click.option("--margin", type=LENGTH, default="0.25in", show_default=True, help="Border kept clear on every side."),
        click.option("--gutter", type=LENGTH, default="0", show_default=True, help="Space between tokens (0: shared cut edges)."),
        click.option("--columns", type=click.IntRange(1, 1000), default=None, help="At most N columns (default: the catalogue's columns, else as many as fit)."),
        click.option("--cut-lines/--no-cut-lines", default=True, show_default=True, help="Full-length cut lines on the token edges."),
        click.option("--crop-marks", is_flag=True, help="Short crop marks outside the grid."),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def sheet_spec(page: str, landscape: bool, margin: float, gutter: float, columns: int | None,
               cut_lines: bool, crop_marks: bool, size: float, bleed: float = 0.0) -> SheetSpec:
    """Turn the shared CLI options into a :class:`SheetSpec` (raises click's BadParameter)."""
    try:
        page_size = parse_page(page, landscape=landscape)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--page'") from None
    return SheetSpec(page=page_size, size=size, margin=margin, gutter=gutter, bleed=bleed, columns=columns,
                     cut_lines=cut_lines, crop_marks=crop_marks)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="tokengen")
def cli() -> None:
    """Turn a YAML catalogue of game tokens into print-ready PDF sheets.

    \b
    Example:
      tokengen build token_defs.yaml -o meatshields.pdf
    """


@cli.command()
@click.argument("catalogue", default=DEFAULT_CATALOGUE, type=click.Path(dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default="meatshields.pdf", show_default=True, help="PDF to write.")
@_sheet_options
@click.option("--copies", type=click.IntRange(1, 100_000), default=1, show_default=True, help="Every token N times.")
@click.option("--size", "token_size", type=LENGTH, default=None, metavar="LENGTH", help="Token trim size (0.75in, 25mm, 72pt); default: the catalogue's size.")
@click.option("--scale", type=float, default=None, metavar="FACTOR", help="Scale the catalogue's token size by FACTOR (1.25); exclusive with --size.")
@click.option("--max-tokens", type=click.IntRange(1), default=MAX_TOKENS, show_default=True, help="Refuse runs with more tokens.")
@click.option("--max-pages", type=click.IntRange(1), default=MAX_PAGES, show_default=True, help="Refuse runs with more pages.")
def build(catalogue: Path, output: Path, page: str, landscape: bool, margin: float, gutter: float, columns: int | None,
          cut_lines: bool, crop_marks: bool, copies: int, token_size: float | None, scale: float | None,
          max_tokens: int, max_pages: int) -> None:
    """Build the token sheets of CATALOGUE (default token_defs.yaml) as one PDF.

    \b
    Examples:
      tokengen build -o meatshields.pdf
      tokengen build token_defs.yaml --page a4 --columns 3 -o a4.pdf
      tokengen build --copies 2 --crop-marks --no-cut-lines -o two-sets.pdf
      tokengen build --size 25mm --page a4 -o a4-25mm.pdf
      tokengen build --scale 1.25 -o big.pdf
    """
    if token_size is not None and scale is not None:
        raise click.UsageError("--size and --scale are exclusive: give one or the other")
    cat = load_catalogue(catalogue)
    spec = sheet_spec(page, landscape, margin, gutter, columns or cat.columns, cut_lines, crop_marks,
                      scaling.token_size(cat.size, token_size, scale))
    result = build_pdf(cat, BuildOptions(sheet=spec, copies=copies, max_tokens=max_tokens, max_pages=max_pages), output)
    click.echo(f"wrote {result.path}: {result.tokens} tokens on {result.pages} page(s)")


@cli.command()
@click.argument("source", default=DEFAULT_CATALOGUE, metavar="[CATALOGUE|JOBS.yaml]", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-o", "--output-dir", type=click.Path(file_okay=False, path_type=Path), default="out", show_default=True, help="Folder for the PDFs (created if missing).")
@click.option("--size", "sizes", type=LENGTH, multiple=True, metavar="LENGTH", help="A token size; repeat for several (default: the catalogue's).")
@click.option("--scale", "scales", type=float, multiple=True, metavar="FACTOR", help="A factor on the catalogue's size; repeatable.")
@click.option("--page", "pages", multiple=True, metavar="NAME|WxH", help="A page (letter, a4, …, WIDTHxHEIGHT); repeatable (default: letter).")
@click.option("--landscape", is_flag=True, help="Turn the pages sideways.")
@click.option("--margin", type=LENGTH, default="0.25in", show_default=True, help="Border kept clear on every side.")
@click.option("--gutter", type=LENGTH, default="0", show_default=True, help="Space between tokens (0: shared cut edges).")
@click.option("--columns", type=click.IntRange(1, 1000), default=None, help="At most N columns.")
@click.option("--cut-lines/--no-cut-lines", default=True, show_default=True, help="Full-length cut lines on the token edges.")
@click.option("--crop-marks", is_flag=True, help="Short crop marks outside the grid.")
@click.option("--copies", type=click.IntRange(1, 100_000), default=1, show_default=True, help="Every token N times.")
@click.option("-j", "--jobs", "workers", type=click.IntRange(1, 256), default=None, help="Worker processes (default: every core).")
@click.option("--force", is_flag=True, help="Rebuild outputs that are newer than their inputs.")
def batch(source: Path, output_dir: Path, sizes: tuple[float, ...], scales: tuple[float, ...], pages: tuple[str, ...],
          landscape: bool, margin: float, gutter: float, columns: int | None, cut_lines: bool, crop_marks: bool,
          copies: int, workers: int | None, force: bool) -> None:
    """Build many sheets at once: every --size/--scale × --page of CATALOGUE, or the jobs of a
    job file (a YAML file with a `jobs:` list), in parallel processes.

    Outputs are named after what is inside (meatshields_25mm_a4.pdf). Outputs newer than their
    inputs are skipped unless --force. A failing job does not stop the others; the exit status
    is then 2.

    \b
    Examples:
      tokengen batch --size 0.75in --size 1in --size 25mm --page letter --page a4 -o out
      tokengen batch jobs.yaml -o out --force
    """
    from . import batch as batching

    if batching.is_job_file(source):
        ctx = click.get_current_context()
        given = [p.opts[-1] for p in ctx.command.params
                 if p.name not in ("source", "output_dir", "workers", "force")
                 and ctx.get_parameter_source(p.name or "") == click.core.ParameterSource.COMMANDLINE]
        if given:
            raise click.UsageError(f"{', '.join(given)}: a job file sets these per job")
        jobs = batching.load_jobs(source, output_dir)
    else:
        jobs = batching.matrix_jobs(source, output_dir, sizes=sizes, scales=scales, pages=pages or ("letter",),
                                    landscape=landscape, margin=margin, gutter=gutter, columns=columns,
                                    cut_lines=cut_lines, crop_marks=crop_marks, copies=copies)
    try:
        output_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ExportError(f"{output_dir}: cannot create folder: {exc.strerror or exc}") from None
    if sys.stdout.isatty():
        with click.progressbar(length=len(jobs), label="building", show_pos=True) as bar:
            results = batching.run_jobs(jobs, workers=workers, force=force, on_result=lambda r: bar.update(1))
    else:
        done = iter(range(1, len(jobs) + 1))
        results = batching.run_jobs(jobs, workers=workers, force=force, on_result=lambda r: click.echo(
            batching.progress_line(r, next(done), len(jobs))))
    click.echo(batching.summary_table(results))
    failed = [r for r in results if not r.ok]
    if failed:
        raise batching.BatchError(f"{len(failed)} of {len(results)} jobs failed: {', '.join(r.job.name for r in failed)}")


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``tokengen`` script: runs :func:`cli` and turns every error into a
    one-line message on stderr and an exit code (never a traceback)."""
    try:
        cli.main(args=argv, prog_name="tokengen", standalone_mode=False)
    except TokengenError as exc:
        click.echo(f"tokengen: error: {exc}", err=True)
        return exc.exit_code
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.Abort:
        click.echo("tokengen: interrupted", err=True)
        return 130
    except click.ClickException as exc:
        exc.show()
        return 2
    except KeyboardInterrupt:
        click.echo("tokengen: interrupted", err=True)
        return 130
    return 0



def run() -> None:
    """Console-script wrapper: ``sys.exit(main())``."""
    sys.exit(main())
