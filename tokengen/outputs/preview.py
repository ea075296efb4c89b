"""PNG previews of a PDF: every page (or one page) rendered by pdfium at a stated DPI.

Used by ``tokengen build --preview``, ``tokengen export --preview``, ``tokengen preview FILE.pdf``
and the page of ``tokengen serve``. A page W × H pt becomes a PNG of exactly
``round(W / 72 × dpi)`` × ``round(H / 72 × dpi)`` px (8-bit RGB on white paper, the DPI in its
pHYs chunk): US Letter (612 × 792 pt) at the default 100 DPI is 850 × 1100 px. The page size is
pdfium's (the CropBox, which is the MediaBox in every tokengen PDF).

Where the files go (:func:`preview_paths`): for ``FILE.png`` and one page asked for, exactly
``FILE.png``; otherwise one file per page, ``FILE-1.png`` … ``FILE-N.png`` (numbers padded to
the same width, so a folder listing is in page order). The PNGs are written atomically, all or
none, every one checked (:func:`tokengen.io.guard.check_outputs`) before the first is written.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from ..errors import RenderError, UsageError
from ..io import progress
from ..io.atomic import atomic_files
from ..limits import RENDER_MEMORY_MB, RENDER_SECONDS

#: Default preview resolution (px per in).
DEFAULT_DPI = 100
#: Accepted --dpi range for previews.
DPI_RANGE = (10, 1200)
#: Largest rendered page, in pixels (W × H); 100 Mpx is a tabloid page at about 890 DPI.
MAX_PIXELS = 100_000_000
#: Most pages rendered in one call (a preview of more is asked page by page with --page).
MAX_PAGES = 1_000


def page_count(pdf: bytes) -> int:
    """Number of pages of the PDF ``pdf`` (bytes).

    Raises:
        RenderError: pdfium cannot open it.
    """
    import pypdfium2 as pdfium

    try:
        document = pdfium.PdfDocument(pdf)
    except pdfium.PdfiumError as exc:
        raise RenderError(f"the PDF: cannot read as a PDF ({exc})") from None
    try:
        return len(document)
    finally:
        document.close()


def page_pixels(size: tuple[float, float], dpi: int) -> tuple[int, int]:
    """Pixel size (width, height) of a page ``size`` (w, h) pt rendered at ``dpi``."""
    return round(size[0] / 72 * dpi), round(size[1] / 72 * dpi)


@dataclass(frozen=True)
class Bounds:
    """How a preview of a file from elsewhere is rendered: its PDF first read within preflight's
    work budget, then rendered in a worker process of its own under a memory and time limit, so
    a hostile file (nested forms, a content-stream bomb) is one line, never an abort.

    Attributes:
        limits: preflight's budget (:class:`tokengen.preflight.pdfwalk.Limits`; flags ``--max-…``);
            None: defaults.
        memory_mb: the worker's data memory, MiB (``RLIMIT_DATA``, where the platform enforces it).
        seconds: the longest one page may take to render, s.
        flags: the options that raise memory_mb and seconds (for messages).
    """

    limits: Any = None
    memory_mb: int = RENDER_MEMORY_MB
    seconds: float = RENDER_SECONDS
    flags: tuple[str, str] = ("--max-render-mb", "--max-render-seconds")


def render_pages(pdf: bytes | str | Path, dpi: int = DEFAULT_DPI, page: int | None = None,
                 flags: tuple[str, str] = ("--dpi", "--page"), limit: int | None = None,
                 bounds: Bounds | None = None) -> list[Image.Image]:
    """Render the pages of ``pdf`` (bytes or a path) at ``dpi``, or only page ``page`` (1-based).
    ``flags`` name the DPI and page options in messages; ``limit`` renders only the first
    ``limit`` pages (instead of refusing more than :data:`MAX_PAGES`). With ``bounds`` (a path
    only), the file is read within preflight's budget once pdfium has opened it, and pdfium runs
    in a worker process (see :class:`Bounds`); without, in this process (tokengen's own PDFs).
    Filled form fields (AcroForm) are drawn as printed; other annotations are not.

    Returns:
        RGB images, each exactly :func:`page_pixels` of its page.
    Raises:
        UsageError: ``dpi`` outside :data:`DPI_RANGE`, ``page`` outside the document, a page
            larger than :data:`MAX_PIXELS`, or more than :data:`MAX_PAGES` pages without ``page``.
        RenderError: pdfium cannot open the file as a PDF or cannot render a page; the worker
            ran out of memory, died or ran past its time (one line naming the limit and flag).
        PreflightError: over preflight's budget (preflight's own line, naming the ``--max-…`` flag).
    """
    if not DPI_RANGE[0] <= dpi <= DPI_RANGE[1]:
        raise UsageError(f"{flags[0]}: {dpi} is outside {DPI_RANGE[0]}..{DPI_RANGE[1]}")
    name = "the PDF" if isinstance(pdf, bytes) else str(pdf)
    source = pdf if isinstance(pdf, bytes) else Path(pdf)
    if isinstance(source, Path) and not source.is_file():
        raise RenderError(f"{name}: no such file" if not source.exists() else f"{name}: not a file")
    opening = ("open", source, name, page, flags, limit)
    if bounds is None:
        state: dict[str, Any] = {}
        try:
            return [_answer(_step(state, ("page", index, dpi, name, flags[0]))) for index in _answer(_step(state, opening))]
        finally:
            _step(state, ("close",))
    from ..io.workers import Bounded, WorkerDied

    assert isinstance(source, Path), "bounded previews read a file"
    with Bounded(_job, bounds.memory_mb * MiB, bounds.seconds) as worker:
        number = 0
        try:
            indices = _answer(worker.call(opening))
            from ..preflight.checks import read_within

            read_within(source, bounds.limits)
            images = []
            for number in (i + 1 for i in indices):
                images.append(_answer(worker.call(("page", number - 1, dpi, name, flags[0]))))
            return images
        except WorkerDied as died:
            raise RenderError(_died(name, number, died, bounds)) from None


MiB = 1 << 20


def _died(name: str, number: int, died: Any, bounds: Bounds) -> str:
    """The one line for a rendering worker that did not answer (``died``: a WorkerDied)."""
    what = f"{name} page {number}" if number else name
    if died.timed_out:
        return (f"{what}: rendering took more than the limit of {bounds.seconds:g} s, and was stopped "
                f"(raise it with {bounds.flags[1]})")
    if died.memory or died.signal in ("SIGABRT", "SIGSEGV", "SIGBUS", "SIGKILL"):  # what a failed allocation ends in
        how = "ran out of memory" if died.memory else f"ran out of memory or crashed ({died.signal})"
        return f"{what}: pdfium {how} rendering it, past the limit of {bounds.memory_mb:,} MiB (raise it with {bounds.flags[0]})"
    how = f"was stopped ({died.signal})" if died.signal else f"ended unexpectedly (exit code {died.exit_code})"
    return f"{what}: pdfium {how} rendering it, with a limit of {bounds.memory_mb:,} MiB (raise it with {bounds.flags[0]})"


def _answer(reply: tuple[Any, ...]) -> Any:
    """The value of a :func:`_job` reply, or its error raised."""
    if reply[0] == "ok":
        return reply[1]
    raise (UsageError if reply[0] == "usage" else RenderError)(reply[1])


#: The document a worker's :func:`_job` has open (a worker renders one file).
_OPEN: dict[str, Any] = {}


def _job(message: tuple[Any, ...]) -> Any:
    """:func:`_step` in a worker process, over its one open document; a ``MemoryError`` is
    answered as :data:`tokengen.io.workers.OUT_OF_MEMORY`; never raises (a worker must answer)."""
    from ..io.workers import OUT_OF_MEMORY

    try:
        if message[0] == "open":
            _quiet_in_worker()
        return _step(_OPEN, message)
    except MemoryError:
        return OUT_OF_MEMORY


def _step(state: dict[str, Any], message: tuple[Any, ...]) -> tuple[str, Any]:
    """One step of a preview over ``state`` (holds the open document): ``("open", source, name,
    page, flags, limit)`` → the page indices to render; ``("page", index, dpi, what, flag)`` →
    the image; ``("close",)``. Returns ``("ok", value)`` or ``("usage"|"render", message)``."""
    try:
        if message[0] == "open":
            return ("ok", _open(state, *message[1:]))
        if message[0] == "page":
            index, dpi, name, flag = message[1:]
            pdf_page = state["document"][index]
            try:
                return ("ok", _render(pdf_page, dpi, f"{name} page {index + 1}", flag))
            finally:
                pdf_page.close()
        document = state.pop("document", None)
        if document is not None:
            document.close()
        return ("ok", None)
    except (UsageError, RenderError) as exc:
        return ("usage" if isinstance(exc, UsageError) else "render", str(exc))


def _quiet_in_worker() -> None:
    """In a worker process, pdfium's own lines (an abort's) go nowhere: the parent says what
    happened in one line (``TOKENGEN_DEBUG=1`` keeps them)."""
    import multiprocessing
    import os

    if multiprocessing.parent_process() is not None and not os.environ.get("TOKENGEN_DEBUG"):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        os.close(devnull)


def _open(state: dict[str, Any], source: bytes | Path, name: str, page: int | None, flags: tuple[str, str],
          limit: int | None) -> list[int]:
    """Open ``source`` with pdfium (its form environment too) as ``state["document"]``; the
    0-based indices of the pages to render."""
    import pypdfium2 as pdfium

    try:
        document = pdfium.PdfDocument(source)
    except (pdfium.PdfiumError, OSError) as exc:
        raise RenderError(f"{name}: cannot read as a PDF ({exc})") from None
    state["document"] = document
    document.init_forms()  # before any page is loaded: filled form fields are drawn as printed
    count = len(document)
    if page is not None and not 1 <= page <= count:
        raise UsageError(f"{flags[1]} {page}: {name} has {count} page{'s' if count != 1 else ''}")
    if limit is not None:
        count = min(count, limit)
    elif page is None and count > MAX_PAGES:
        raise UsageError(f"{name} has {count} pages, more than the preview limit of {MAX_PAGES}; preview one with {flags[1]} N")
    return [page - 1] if page is not None else list(range(count))


def _render(pdf_page: object, dpi: int, what: str, flag: str) -> Image.Image:
    import pypdfium2 as pdfium

    assert isinstance(pdf_page, pdfium.PdfPage)
    width, height = pdf_page.get_size()
    px = page_pixels((width, height), dpi)
    if px[0] * px[1] > MAX_PIXELS:
        raise UsageError(f"{what} at {dpi} DPI would be {px[0]} × {px[1]} px, more than the {MAX_PIXELS:,} px limit; lower {flag}")
    try:
        bitmap = pdf_page.render(scale=dpi / 72, fill_color=(255, 255, 255, 255), draw_annots=False, may_draw_forms=True)
    except pdfium.PdfiumError as exc:
        raise RenderError(f"{what}: pdfium cannot render it ({exc})") from None
    image = bitmap.to_pil().convert("RGB")
    if image.size != px:  # pdfium rounds the bitmap size its own way: make it exact
        image = image.crop((0, 0, *px)) if image.width >= px[0] and image.height >= px[1] else image.resize(px, Image.Resampling.LANCZOS)
    return image


def preview_paths(target: str | Path, count: int, page: int | None = None) -> list[Path]:
    """Where the previews of ``count`` rendered pages go: ``[target]`` when one page was asked
    for, else ``target`` with ``-1`` … ``-N`` before the suffix (padded to the width of N)."""
    target = Path(target)
    if page is not None:
        return [target]
    width = len(str(count))
    suffix = target.suffix or ".png"
    return [target.with_name(f"{target.stem}-{n:0{width}d}{suffix}") for n in range(1, count + 1)]


def check_target(target: str | Path, flag: str, hint: str = "") -> Path:
    """``target`` as a path when it names a PNG file (``NAME.png``, any case).

    Raises:
        UsageError: any other name (a ``.pdf`` or ``.jpg`` would get PNG bytes under the wrong
            name); the message names ``flag`` and adds ``hint``.
    """
    target = Path(target)
    if target.suffix.lower() != ".png":
        raise UsageError(f"{flag} takes a file name ending in .png, got '{target}'{hint}")
    return target


def default_target(pdf: str | Path) -> Path:
    """The preview name beside ``pdf``: ``sheet.pdf`` → ``sheet.png`` (numbered per page)."""
    return Path(pdf).with_suffix(".png")


def png_bytes(image: Image.Image, dpi: int) -> bytes:
    """``image`` as PNG bytes with ``dpi`` in pHYs and the sRGB chunks (see :func:`tokengen.outputs.export.write_png`)."""
    from .export import write_png

    buffer = io.BytesIO()
    write_png(image, buffer, dpi)
    return buffer.getvalue()


def write_previews(pdf: str | Path, target: str | Path | None = None, dpi: int = DEFAULT_DPI,
                   page: int | None = None, inputs: Sequence[Path] = (),
                   flags: tuple[str, str] = ("--dpi", "--page"), bounds: Bounds | None = None) -> list[Path]:
    """Render ``pdf`` (see :func:`render_pages`) and write the PNGs (see :func:`preview_paths`).

    Args:
        pdf: the PDF file to preview.
        target: ``FILE.png``; None: :func:`default_target` of ``pdf``.
        dpi: px per in. page: one page (1-based) instead of all.
        inputs: files a preview must never overwrite (the PDF itself is always one).
        flags: the DPI and page options as the user gave them (for messages).
        bounds: read and render a file from elsewhere within limits (see :class:`Bounds`).
    Returns:
        The PNG paths written, in page order.
    Raises:
        UsageError, RenderError, PreflightError: as :func:`render_pages` (nothing is written).
        ExportError: a PNG cannot be written.
    """
    pdf = Path(pdf)
    images = render_pages(pdf, dpi, page, flags, bounds=bounds)
    paths = preview_paths(target if target is not None else default_target(pdf), len(images), page)
    with atomic_files(paths, inputs=(pdf, *inputs)) as temps:  # every PNG checked before the first is written; all or none
        for number, (image, temp) in enumerate(zip(images, temps, strict=True), 1):
            temp.write_bytes(png_bytes(image, dpi))
            progress.report("PNGs", number, len(images))
    return paths
