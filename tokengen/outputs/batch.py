"""Batch rescaling: many builds (sizes × pages, or a job file) run in parallel processes.

A :class:`Job` is one ``tokengen build``: a catalogue, a token size (or a scale factor), a page,
the cut-line options and an output file. :func:`matrix_jobs` makes every combination of sizes
and pages for one catalogue; :func:`load_jobs` reads a job file. :func:`run_jobs` builds them
on all cores (drawing is CPU-bound, so processes, not threads); a failing job is reported in its
:class:`JobResult` and does not stop the others, but every output is checked first (an output
that would overwrite an input stops the whole batch before anything is written). Jobs whose output is newer than every input are
skipped unless forced.

Job file (YAML; paths relative to the job file, outputs relative to the output folder)::

    defaults:                 # optional: applied to every job
      catalogue: token_defs.yaml
      page: letter
    jobs:
      - size: 25mm            # or 63mmx88mm, or scale: 1.25 (default: the catalogue's size)
        page: a4              # letter, a4, … or WIDTHxHEIGHT
        landscape: false
        margin: 0.25in
        gutter: 0
        columns: 3
        cut_lines: true
        crop_marks: false
        copies: 1
        output: meatshields_25mm_a4.pdf   # default: <title>_<size>_<page>.pdf
        max_art_pixels: 250000000         # --max-art-pixels: the most art pixels the build embeds
      - profile: tts          # an export instead of a home build: tokengen export --profile tts
        image_url: https://example.org/tts   # tts only: --image-url (default: file:/// paths)
        output: meatshields-tts           # the folder, inside the output folder (default: <title>-<profile>)

A job with ``profile`` is ``tokengen export``: it takes ``size`` or ``scale``, ``image_url``
(``tts`` only), ``max_art_pixels`` and ``output`` (a folder name); the sheet keys (page, margin,
…) are the profile's, so they are refused in such a job (and those of ``defaults`` do not apply).
A PDF it writes is preflighted against the profile; a failure fails the job.

All lengths inside are pt (1 in = 72 pt).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import stat
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .._version import __version__
from ..errors import CatalogueError, TokengenError, UsageError
from ..geometry.imposition import HOME_BLEED
from ..geometry.sizing import Asked, proportions_problem, sheet_spec, token_size
from ..io import guard
from ..io import workers as workers_module
from ..limits import MAX_ART_PIXELS
from ..model import Catalogue
from ..sources import bundled, fonts, schemas
from ..sources.catalogue import line_at, load_catalogue
from ..sources.yamlsrc import dotted, read_yaml
from ..units import PT_PER_IN, PT_PER_MM, format_length, parse_length, parse_page, parse_size
from .build import build_pdf
from .options import BuildOptions

#: The keys of a home build that a job with a ``profile`` leaves to the profile.
SHEET_KEYS = ("page", "landscape", "margin", "gutter", "columns", "cut_lines", "crop_marks", "copies", "fill")
#: Keys added after job fingerprints were first written: left out of the fingerprint at their
#: default, so the outputs of existing jobs keep their Keywords (and stay current).
_LATER = {"max_art_pixels": MAX_ART_PIXELS, "profile": None, "image_url": None}


#: Longest catalogue path, output name or page text in a job file (characters).
MAX_PATH_TEXT = 1024


class BatchError(TokengenError):
    """Some jobs of a batch failed (the others were written)."""


@dataclass(frozen=True)
class Job:
    """One build of a batch. Lengths in pt; picklable, so it can cross to a worker process.

    Attributes:
        catalogue: the catalogue file.
        output: the PDF to write.
        size: token trim width (a job file's or ``--size``'s ``WIDTHxHEIGHT`` gives its width, once
            its height is seen to follow it), or None for the catalogue's size (times ``scale`` if given).
        scale: factor on the catalogue's size; exclusive with ``size``.
        page: page name or ``WIDTHxHEIGHT`` (see :func:`~tokengen.units.parse_page`).
        inputs: files whose change makes the output stale (the catalogue, the job file).
    """

    catalogue: Path
    output: Path
    size: float | None = None
    scale: float | None = None
    page: str = "letter"
    landscape: bool = False
    margin: float = 18.0
    gutter: float = 0.0
    columns: int | None = None
    cut_lines: bool = True
    crop_marks: bool = False
    copies: int = 1
    inputs: tuple[Path, ...] = field(default=())
    fill: bool = False
    #: ``--max-art-pixels``: the most pixels of art the build embeds (one picture a fifth of it).
    max_art_pixels: int = MAX_ART_PIXELS
    #: An export profile (``tokengen export --profile``): ``output`` is then the folder it writes.
    profile: str | None = None
    #: ``--image-url`` of a ``tts`` export.
    image_url: str | None = None
    #: Why the job cannot run (its catalogue is missing or invalid): it fails alone, not the batch.
    problem: str | None = None

    @property
    def name(self) -> str:
        """The job's name in progress lines and the summary: its output file name."""
        return self.output.name

    @property
    def fingerprint(self) -> str:
        """``tokengen-job:`` and a hash of every option that shapes the output (and the tokengen
        version): written into the PDF's Keywords, so a re-run with other options rebuilds."""
        options = {k: v for k, v in asdict(self).items() if k not in ("catalogue", "output", "inputs", "problem")
                   and not (k in _LATER and v == _LATER[k])}
        digest = hashlib.sha256(json.dumps([__version__, options], sort_keys=True).encode()).hexdigest()
        return f"tokengen-job:{digest[:16]}"

    def is_current(self) -> bool:
        """True when the output exists, is newer than every input and was built with the same
        options (its Keywords carry this job's :attr:`fingerprint`): the job can be skipped."""
        try:
            st = self.output.stat()
        except OSError:
            return False
        if not stat.S_ISREG(st.st_mode):  # a FIFO or device is never read (the build refuses it)
            return False
        built = st.st_mtime
        for source in (self.catalogue, *self.inputs):
            try:
                if source.stat().st_mtime >= built:
                    return False
            except OSError:
                return False
        return self.fingerprint in read_keywords(self.output).split()


@dataclass(frozen=True)
class JobResult:
    """What one job did. ``size`` is the token size in pt (0 when the job failed before knowing it),
    ``height`` the token height in pt of a card (a token higher or lower than wide; 0 for one as
    high as wide, a circle or a hex); ``error`` the one-line message of a failed job; ``skipped``
    when the output was up to date."""

    job: Job
    pages: int = 0
    tokens: int = 0
    size: float = 0.0
    seconds: float = 0.0
    error: str | None = None
    skipped: bool = False
    warnings: tuple[str, ...] = ()
    height: float = 0.0

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_dict(self) -> dict[str, Any]:
        """The job's entry in ``tokengen batch --format json``: name, output, pages, tokens,
        seconds (to the millisecond), skipped and error (None when it did not fail)."""
        return {"name": self.job.name, "output": str(self.job.output), "pages": self.pages, "tokens": self.tokens,
                "seconds": round(self.seconds, 3), "skipped": self.skipped, "error": self.error}

    @property
    def shown_size(self) -> str:
        """The size column of the summary: ``25mm``, ``63mmx88mm`` for a card, ``-`` when unknown."""
        if not self.size:
            return "-"
        if not self.height:
            return format_length(self.size)
        width, height = format_length(self.size), format_length(self.height)
        unit = width[-2:]
        if height[-2:] != unit and unit != "pt":  # one unit for both: 2.5inx3.492in, not 2.5inx251.43pt
            height = f"{self.height / (PT_PER_IN if unit == 'in' else PT_PER_MM):.4g}{unit}"
        return f"{width}x{height}"


def card_height(cat: Catalogue, size: float) -> float:
    """The trim height (pt) of ``cat``'s tokens at the box width ``size`` (pt) when they are cards
    (squares or rounded squares higher or lower than wide), else 0."""
    if cat.height is None or (cat.shape is not None and cat.shape.kind not in ("square", "rounded")):
        return 0.0
    height = cat.trim_height * size / cat.size
    return 0.0 if abs(height - size) < 1e-6 else height


def slug(text: str) -> str:
    """A file-name-safe lower-case form of ``text``: ``"Meatshields!"`` → ``"meatshields"``."""
    return re.sub(r"[^a-z0-9.]+", "-", text.lower()).strip("-.") or "tokens"


def output_name(title: str, size: float, page: str, landscape: bool = False) -> str:
    """``<title>_<size>_<page>.pdf``, e.g. ``meatshields_25mm_a4.pdf`` (size in pt, shown with
    :func:`~tokengen.units.format_length`)."""
    page_part = slug(page) + ("-landscape" if landscape else "")
    return f"{slug(title)}_{format_length(size)}_{page_part}.pdf"


def matrix_jobs(catalogue: str | Path, out_dir: str | Path, *, sizes: Sequence[Asked] = (),
                scales: Sequence[float] = (), pages: Sequence[str] = ("letter",), landscape: bool = False,
                margin: float = 18.0, gutter: float = 0.0, columns: int | None = None, cut_lines: bool = True,
                crop_marks: bool = False, copies: int = 1, max_art_pixels: int = MAX_ART_PIXELS) -> list[Job]:
    """Every combination of (sizes + scales) × pages for one catalogue, in that order.

    Args:
        catalogue: the catalogue file (read once here for its title and size).
        out_dir: folder of the outputs.
        sizes: token sizes, pt: a width, or (width, height) whose height must follow the width
            (``--size 63mmx88mm``, :func:`~tokengen.geometry.sizing.token_size`). scales: factors
            on the catalogue size. Neither: the catalogue's size.
        pages: page names or ``WIDTHxHEIGHT``.
        max_art_pixels: ``--max-art-pixels`` of every build.
    Returns:
        The jobs; two combinations giving the same file name are kept once.
    Raises:
        CatalogueError: the catalogue cannot be read. UsageError: a bad page or size.
    """
    catalogue = Path(catalogue)
    cat = load_catalogue(catalogue)
    variants: list[tuple[Asked | None, float | None]] = [(s, None) for s in sizes] + [(None, f) for f in scales]
    jobs: dict[Path, Job] = {}
    for page in pages:
        _check_page(page)
        for asked, scale in variants or [(None, None)]:
            real = token_size(cat.size, asked, scale, cat.shape, base_height=cat.height)
            size = asked[0] if isinstance(asked, tuple) else asked  # its height follows the width
            out = Path(out_dir) / output_name(cat.title, real, page, landscape)
            jobs.setdefault(out, Job(catalogue, out, size, scale, page, landscape, margin, gutter,
                                     columns, cut_lines, crop_marks, copies, max_art_pixels=max_art_pixels))
    return list(jobs.values())


def _check_page(page: str) -> None:
    try:
        parse_page(page)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def is_job_file(path: str | Path) -> bool:
    """True when ``path`` is a YAML mapping with a ``jobs`` key (a job file, not a catalogue).

    Raises:
        CatalogueError: the file cannot be read as YAML.
    """
    bundled.require(Path(path))  # a missing file: say both ways to get a catalogue
    data, _ = read_yaml(path, ("jobs", "catalogue", "catalogue-fields"))  # either kind of file: the longer limit
    return isinstance(data, dict) and "jobs" in data


def load_jobs(path: str | Path, out_dir: str | Path) -> list[Job]:
    """Read a job file (see the module docstring) into jobs writing into ``out_dir``.

    The file's shape, its keys and their types are checked by ``data/jobs.schema.json``; lengths,
    pages and the rules between keys here, beside the job they belong to.

    Raises:
        CatalogueError: unreadable YAML, an unknown key (with a suggestion), a value of the
            wrong type or a bad length/page, a missing catalogue, two jobs writing one file; each
            with the job file's path, line and field.
    """
    path = Path(path)
    data, lines = read_yaml(path, ("jobs",))
    schemas.check(path, data, lines, "jobs")  # a mapping, a non-empty jobs list, known keys, types

    def fail(where: tuple[Any, ...], message: str) -> CatalogueError:
        return CatalogueError(path, message, line=line_at(lines, where), field=dotted(where) or None)

    defaults = _job_fields(data.get("defaults", {}), ("defaults",), fail)
    jobs: list[Job] = []
    seen: dict[Path, int] = {}
    for i, entry in enumerate(data["jobs"]):
        job = _job(path, Path(out_dir), i, {**defaults, **_job_fields(entry, ("jobs", i), fail)}, entry, fail)
        if job.output in seen:
            raise fail(("jobs", i), f"writes {job.output.name}, as job {seen[job.output] + 1} does")
        seen[job.output] = i
        jobs.append(job)
    return jobs


def _job(path: Path, out_dir: Path, i: int, values: dict[str, Any], own: dict[str, Any],
         fail: Callable[..., CatalogueError]) -> Job:
    """Job ``i`` of the job file ``path`` from its ``values`` (``defaults`` and its ``own`` keys,
    converted): the rules between its keys checked, its catalogue read for its size and title (a
    catalogue that cannot be used fails this job alone, when run), its output named."""
    where: tuple[Any, ...] = ("jobs", i)
    _check_job_keys(values, own, where, fail)
    catalogue = (path.parent / values.pop("catalogue")).resolve()
    asked = values.get("size")
    if isinstance(asked, tuple):  # WIDTHxHEIGHT: the job keeps the width, its height must follow it
        values["size"] = asked[0]
    cat, real, problem = _job_catalogue(catalogue, asked, values, where, fail)
    name = _job_output(values.pop("output", None), catalogue, i, cat, real, values)
    return Job(catalogue=catalogue, output=out_dir / name, inputs=(path.resolve(),), problem=problem, **values)


def _check_job_keys(values: dict[str, Any], own: dict[str, Any], where: tuple[Any, ...],
                    fail: Callable[..., CatalogueError]) -> None:
    """The rules between one job's keys: size or scale, a catalogue, a profile's keys (or, with
    no profile, no ``image_url`` and an output ending in ``.pdf``)."""
    if "size" in values and "scale" in values:
        raise fail(where, "give size or scale, not both")
    if "catalogue" not in values:
        raise fail(where, "missing key 'catalogue' (here or in defaults)")
    if "profile" in values:
        _check_profile_job(values, own, where, fail)
    elif "image_url" in values:
        raise fail(where + ("image_url",), "only for a job with profile: tts")
    elif not values.get("output", ".pdf").endswith(".pdf"):
        raise fail(where + ("output",), "must be a plain file name ending in .pdf")


def _job_catalogue(catalogue: Path, asked: Any, values: dict[str, Any], where: tuple[Any, ...],
                   fail: Callable[..., CatalogueError]) -> tuple[Catalogue | None, float | None, str | None]:
    """The job's catalogue, its token size (pt) and the job's problem: ``(cat, size, None)``, or
    ``(cat or None, None, message)`` when the catalogue cannot be used (the job fails when run).
    Raises CatalogueError, named at ``size``, when a ``WIDTHxHEIGHT`` does not follow the
    catalogue's proportions: the job file's mistake, refused at once."""
    cat = real = problem = mismatch = None
    try:
        cat = load_catalogue(catalogue)
        if isinstance(asked, tuple) and asked[1] is not None and asked[0] > 0 and cat.size > 0:
            mismatch = proportions_problem(asked[0], asked[1], cat.size, cat.height, asked="")
        real = token_size(cat.size, values.get("size"), values.get("scale"), cat.shape)
    except TokengenError as exc:  # this job fails when run; the others are built
        problem = str(fail(where + ("catalogue",), f"cannot use catalogue: {exc}"))
    if mismatch:  # the job file's mistake, not the catalogue's: the file is refused, named at the size
        raise fail(where + ("size",), mismatch)
    return cat, real, problem


def _job_output(given: str | None, catalogue: Path, i: int, cat: Catalogue | None, real: float | None,
                values: dict[str, Any]) -> str:
    """The file (or, with a profile, folder) name job ``i`` writes: the one ``given``, else one
    named after what is inside (``meatshields_25mm_a4.pdf``, ``meatshields-tts``), else, when the
    catalogue cannot be read, after its file (``meatshields_job3.pdf``)."""
    if given or real is None or cat is None:
        return given or f"{slug(catalogue.stem)}_job{i + 1}.pdf"
    if "profile" in values:
        return f"{slug(cat.title)}-{slug(values['profile'])}"
    return output_name(cat.title, real, values.get("page", "letter"), values.get("landscape", False))


def _check_profile_job(values: dict[str, Any], own: dict[str, Any], where: tuple[Any, ...],
                       fail: Callable[..., CatalogueError]) -> None:
    """A job with ``profile``: the profile exists, the job sets no sheet key of its own (those of
    ``defaults`` are dropped), ``image_url`` only for ``output: tts``."""
    from ..sources.profiles import get_profile

    try:
        profile = get_profile(values["profile"])
    except TokengenError as exc:
        raise fail(where + ("profile",), str(exc)) from None
    given = [k for k in SHEET_KEYS if k in own]
    if given:
        raise fail(where + (given[0],), f"the profile {profile.name} sets the sheet; a job with a profile takes size, scale, "
                   "image_url, max_art_pixels and output")
    for key in SHEET_KEYS:
        values.pop(key, None)
    if "image_url" in values and profile.output != "tts":
        raise fail(where + ("image_url",), f"only for a tts profile, not {profile.name}")


def _text(key: str, value: str) -> str:
    """A text key (catalogue, output, page, profile, image_url): at most :data:`MAX_PATH_TEXT`
    characters on one line; an output a plain file name; a page one :func:`parse_page` knows.
    Raises ValueError with the message."""
    if not value.strip():
        raise ValueError("must be text")
    if len(value) > MAX_PATH_TEXT:
        raise ValueError(f"text is longer than {MAX_PATH_TEXT} characters ({len(value)})")
    if any(not ch.isprintable() for ch in value):
        raise ValueError("must not hold a line break, tab or other control character")
    if key == "output" and Path(value).name != value:
        raise ValueError("must be a plain file name ending in .pdf")
    if key == "page":
        parse_page(value)
    return value


def _scale(_key: str, value: float) -> float:
    """``scale``: a finite factor above 0 (the schema checks the type and the bounds; a NaN
    passes them). Raises ValueError."""
    if not (math.isfinite(value) and value > 0):
        raise ValueError("must be a positive number such as 1.25")
    return float(value)


def _size(_key: str, value: str | float) -> float | tuple[float, float]:
    """``size``: a length, or ``WIDTHxHEIGHT`` as ``--size`` takes it (pt). Raises ValueError."""
    if not isinstance(value, str):  # a bare number: the length's message
        return parse_length(value, allow_zero=False)
    width, height = parse_size(value)
    return width if height is None else (width, height)


def _length(_key: str, value: str | float) -> float:
    """``margin``, ``gutter``: a length (pt), 0 allowed. Raises ValueError."""
    return parse_length(value, allow_zero=True)


def _as_given(_key: str, value: Any) -> Any:
    """A flag or a whole number, taken as it is (its type and least value are the schema's)."""
    return value


#: How each job key is read, after the schema checked its type: the key and its value in, the
#: value converted (lengths in pt) out; ValueError with the message.
_JOB_FIELD: dict[str, Callable[[str, Any], Any]] = {
    **dict.fromkeys(("catalogue", "output", "page", "profile", "image_url"), _text),
    **dict.fromkeys(("landscape", "cut_lines", "crop_marks", "fill", "columns", "copies", "max_art_pixels"), _as_given),
    "scale": _scale, "size": _size, "margin": _length, "gutter": _length,
}


def _job_fields(entry: dict[str, Any], where: tuple[Any, ...], fail: Callable[..., CatalogueError]) -> dict[str, Any]:
    """One job mapping (or ``defaults``), already checked by the schema: its fields converted
    (lengths in pt). Raises CatalogueError named at the key."""
    out: dict[str, Any] = {}
    for key, value in entry.items():
        try:
            out[key] = _JOB_FIELD[key](key, value)
        except ValueError as exc:
            raise fail(where + (key,), str(exc)) from None
    return out


def run_job(job: Job) -> JobResult:
    """Build one job (in the current process). Never raises for a :class:`TokengenError`: the
    message goes into :attr:`JobResult.error`."""
    start = time.perf_counter()
    size = height = 0.0
    if job.problem is not None:
        return JobResult(job, error=job.problem)
    if job.profile is not None:
        return _run_export(job, start)
    try:
        cat = load_catalogue(job.catalogue)
        size = token_size(cat.size, job.size, job.scale, cat.shape)
        height = card_height(cat, size)  # a failed job's row shows both sides too
        try:
            page = parse_page(job.page, landscape=job.landscape)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        spec = sheet_spec(page, size, margin=job.margin, gutter=job.gutter, columns=job.columns, group=cat.columns,
                          cut_lines=job.cut_lines, crop_marks=job.crop_marks, home_bleed=HOME_BLEED, furniture="full")
        result = build_pdf(cat, BuildOptions(sheet=spec, copies=job.copies, fill=job.fill, keywords=job.fingerprint,
                                             max_art_pixels=job.max_art_pixels), job.output)
    except TokengenError as exc:
        return JobResult(job, size=size, seconds=time.perf_counter() - start, error=str(exc), height=height)
    return JobResult(job, result.pages, result.tokens, size, time.perf_counter() - start, warnings=result.warnings,
                     height=height)


def _run_export(job: Job, start: float) -> JobResult:
    """A job with a ``profile``: ``tokengen export`` into the folder ``job.output``, then the
    export's own preflight of the PDF it wrote (a failure is the job's error)."""
    from ..sources.profiles import get_profile
    from .export import export, preflight_results
    from .summary import preflight_failed

    size = height = 0.0
    try:
        cat = load_catalogue(job.catalogue)
        size = token_size(cat.size, job.size, job.scale, cat.shape)
        height = card_height(cat, size)  # a failed job's row shows both sides too
        profile = get_profile(job.profile or "")
        notes: list[str] = []
        asked = size if job.size is not None or job.scale is not None else None  # else the profile's product trim
        written = export(cat, profile, job.output, size=asked, image_url=job.image_url, max_art_pixels=job.max_art_pixels,
                         warnings=notes)
        pdf = written[0]
        checks = preflight_results(pdf, profile, cat, size) if pdf.suffix == ".pdf" else []
        failed = [c.name for c in checks if not c.passed]
        if failed:
            raise TokengenError(preflight_failed(pdf, failed, profile.name))
        notes += [f"{pdf.name}: preflight warning {c.name}: {c.message}" for c in checks if c.passed and c.warning]
        pages = _page_count(pdf)
    except TokengenError as exc:
        return JobResult(job, size=size, seconds=time.perf_counter() - start, error=str(exc), height=height)
    tokens = sum(t.copies for t in cat.tokens)
    return JobResult(job, pages, tokens, size, time.perf_counter() - start, warnings=tuple(notes), height=height)


def _page_count(pdf: Path) -> int:
    """Pages of a PDF the export just wrote (0 for another kind of first file)."""
    if pdf.suffix != ".pdf":
        return 0
    import pikepdf

    with pikepdf.open(pdf) as document:
        return len(document.pages)


#: Windows' process pools wait on at most 63 handles, two of them their own: 61 workers at most
#: (concurrent.futures.process._MAX_WINDOWS_WORKERS; ProcessPoolExecutor raises ValueError above it).
MAX_WINDOWS_WORKERS = 61


def max_workers(platform: str | None = None) -> int:
    """The most worker processes the process pool of ``platform`` (default: this one) takes: 61
    on Windows, else no cap beyond the command line's own (256)."""
    return MAX_WINDOWS_WORKERS if (platform or sys.platform) == "win32" else 256


def run_jobs(jobs: Sequence[Job], *, workers: int | None = None, force: bool = False,
             on_result: Callable[[JobResult], None] | None = None) -> list[JobResult]:
    """Run ``jobs``, skipping those whose output is current unless ``force``.

    Args:
        workers: processes to use (default: every core); 1 runs in this process.
        on_result: called in this process as each job finishes (progress display).
    Returns:
        One :class:`JobResult` per job, in the order of ``jobs``. A job that failed, even with an
        unexpected exception in its worker, has ``error`` set; the others are still run.
    Raises:
        ExportError: an output would overwrite an input, or cannot be a file (a FIFO, a folder):
            every job's output is checked before any job runs, so nothing is written.
    """
    runnable = [job for job in jobs if job.problem is None and job.profile is None]  # an export checks its own files
    guard.check_outputs([job.output for job in runnable], tuple(p for job in runnable for p in (job.catalogue, *job.inputs)))
    results: dict[int, JobResult] = {}

    def done(i: int, result: JobResult) -> None:
        results[i] = result
        if on_result:
            on_result(result)

    todo = _settle_known(jobs, force, done)
    _build_all(jobs, todo, max(1, min(workers or os.cpu_count() or 1, len(todo), max_workers())), done)
    return [results[i] for i in range(len(jobs))]


def _settle_known(jobs: Sequence[Job], force: bool, done: Callable[[int, JobResult], None]) -> list[int]:
    """The results known without building: a job that cannot run fails with its problem, a
    current one (unless ``force``) is skipped; each passed to ``done``. Returns the indexes of
    the jobs left to build."""
    todo: list[int] = []
    for i, job in enumerate(jobs):
        if job.problem is not None:
            done(i, JobResult(job, error=job.problem))
        elif not force and job.is_current():
            done(i, JobResult(job, skipped=True))
        else:
            todo.append(i)
    return todo


def _build_all(jobs: Sequence[Job], todo: list[int], workers: int, done: Callable[[int, JobResult], None]) -> None:
    """Build the jobs at the indexes ``todo``, in this process when ``workers`` is 1, else in a
    pool of that many processes (one job per worker at a time; Ctrl-C, SIGTERM and SIGHUP stop
    the workers and clean up); each result passed to ``done`` as it comes."""
    if not todo:
        return
    fonts.register()  # once here: workers load the fonts themselves
    if workers == 1:
        for i in todo:
            done(i, _guarded(jobs[i]))
        return
    workers_module.run_pool(_guarded, jobs, todo, workers, done,
                            lambda i, reason: JobResult(jobs[i], error=reason))


def read_keywords(path: Path) -> str:
    """The Keywords of a PDF's document information (pikepdf's public ``docinfo``), where batch
    keeps its fingerprint. qpdf reads the trailer and the cross-reference table, then the Info
    dictionary alone, never the pages, so the up-to-date check of a large output reads a small
    part of it; a file without a readable trailer is not repaired (``attempt_recovery=False``:
    repair would read the whole file). Anything else (not a PDF, a damaged file, no Keywords):
    ``""``, and the job is rebuilt."""
    import pikepdf

    try:
        with pikepdf.open(path, attempt_recovery=False) as pdf:
            words = pdf.docinfo.get("/Keywords")
            return str(words) if isinstance(words, pikepdf.String) else ""
    except (OSError, ValueError, pikepdf.PdfError):
        return ""

def _guarded(job: Job) -> JobResult:
    try:
        return run_job(job)
    except Exception as exc:  # same contract as a worker crash
        return JobResult(job, error=f"{type(exc).__name__}: {exc}")


def check_results(results: Sequence[JobResult]) -> None:
    """Raise :class:`BatchError` naming the jobs that failed, if any did (the others were written)."""
    failed = [r for r in results if not r.ok]
    if failed:
        raise BatchError(f"{len(failed)} of {len(results)} jobs failed: {', '.join(r.job.name for r in failed)}")


def progress_line(result: JobResult, done: int, total: int) -> str:
    """One plain progress line: ``[3/12] meatshields_25mm_a4.pdf: 18 tokens, 1 page, 0.21 s``."""
    head = f"[{done}/{total}] {result.job.name}: "
    if result.skipped:
        return head + "up to date, skipped"
    if not result.ok:
        return head + f"FAILED: {result.error}"
    tokens = f"{result.tokens} token{'s' if result.tokens != 1 else ''}"
    return head + f"{tokens}, {result.pages} page{'s' if result.pages != 1 else ''}, {result.seconds:.2f} s"


def summary_table(results: Iterable[JobResult]) -> str:
    """The summary: one row per job with job, pages, tokens, size, seconds, output (or error)."""
    rows = [("job", "pages", "tokens", "size", "seconds", "output")]
    for r in results:
        status = "skipped" if r.skipped else ("FAILED" if not r.ok else f"{r.seconds:.2f}")
        rows.append((Path(r.job.name).stem, str(r.pages) if r.ok and not r.skipped else "-",
                     str(r.tokens) if r.ok and not r.skipped else "-", r.shown_size, status,
                     str(r.job.output) if r.ok else f"error: {r.error}"))
    widths = [max(len(row[k]) for row in rows) for k in range(5)]
    right = (False, True, True, True, True)
    out = []
    for row in rows:
        cells = [c.rjust(w) if r else c.ljust(w) for c, w, r in zip(row, widths, right)]
        out.append("  ".join(cells + [row[5]]).rstrip())
    return "\n".join(out)

