"""Token pages to PNG files: pdfium's render of each page of a single-token PDF, encoded as
8-bit sRGB PNGs, the pages shared out among worker processes.

:func:`rasterise_pages` renders the pages one at a time (the tabletop card sheets and the
print-then-cut prints come from it) and :func:`png_pages` encodes the same renders as PNGs
straight from pdfium's bitmap (the chits and the tabletop tiles): one renderer. :func:`write_pngs` writes one PNG per
page of the chit PDF: with more than :data:`POOL_PAGES` pages and more than one worker, runs of
pages go to worker processes (:func:`tokengen.io.workers.run_pool`, never ``fork``; their fork
server imports pypdfium2 and Pillow once for all of them), each opening the written PDF itself,
once for all its runs, and writing its PNGs to the temporary files it is handed; the PDF is drawn
once, in this process, and never sent to a worker.

:func:`encode_png` and :func:`png_pages` write the PNG with :mod:`tokengen.io.pngwrite` (rows
unfiltered, deflated by ISA-L), not Pillow, whose per-row filters cannot be turned off: on the
Meatshields 375 × 375 chits the rows deflated by the standard library's zlib took 1.5 ms a chit
where Pillow at level 1 takes 2.4-2.9 ms, and ISA-L's deflate takes 0.14 ms where zlib's took
0.90 ms. The pixels are the render's exactly (PNG is lossless).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import ExportError, RenderError
from ..io import progress

if TYPE_CHECKING:
    from PIL import Image

#: PNG sRGB chunk rendering intent (0 = perceptual) and the gAMA value PNG 1.2 pairs with sRGB.
SRGB_INTENT = 0
SRGB_GAMMA = 45455

#: Fewest pages worth worker processes: below it a worker's start (a fresh interpreter
#: importing pypdfium2 and Pillow) costs more than it saves.
POOL_PAGES = 200

#: Pages a worker is handed at a time (a worker opens the PDF once for all its runs, :func:`_kept_open`).
RUN_PAGES = 50

#: What a worker's job imports (about 0.1 s of CPU): the fork server imports it once for every worker.
WORKER_IMPORTS = ("pypdfium2", "pypdfium2.raw", "tokengen.io.pngwrite")


def rasterise_pages(pdf: bytes | Path, dpi: int, edge: float, first: int = 0, count: int | None = None) -> Iterator[Image.Image]:
    """Render each page of ``pdf`` (bytes or a file) at ``dpi`` into an RGB image of exactly
    ``round(w / 72 × dpi)`` × ``round(h / 72 × dpi)`` px for a page of w × h pt (pdfium, white
    paper under the page), one page at a time: only the image being yielded is held. ``edge`` is
    the token page's width, pt (square tokens: both sides). ``first``, ``count``: only pages
    ``first`` to ``first + count - 1`` (0-based; ``count`` None: to the last).

    Raises:
        RenderError: pdfium cannot open or render the PDF.
    """
    document = _open(pdf)
    try:
        yield from _render(document, dpi, first, count)
    finally:
        document.close()


def _open(pdf: bytes | Path) -> Any:
    """``pdf`` opened by pdfium (a ``pypdfium2.PdfDocument``; RenderError when it cannot be)."""
    import pypdfium2 as pdfium

    try:
        return pdfium.PdfDocument(str(pdf) if isinstance(pdf, Path) else pdf)
    except pdfium.PdfiumError as exc:
        raise RenderError(f"pdfium cannot render the token pages: {exc}") from None


def _render(document: Any, dpi: int, first: int, count: int | None) -> Iterator[Image.Image]:
    """The pages of the open ``document`` as :func:`rasterise_pages` renders them (RenderError when one cannot be)."""
    from PIL import Image

    for bitmap, px, py in _bitmaps(document, dpi, first, count):
        if bitmap.width >= px and bitmap.height >= py:  # pdfium rounds the bitmap up: its top left px × py,
            # copied (an RGB image cannot share the bitmap's memory), so the bitmap may close
            image = Image.frombuffer("RGB", (px, py), bitmap.buffer, "raw", "RGB", bitmap.stride, 1)
        else:
            image = bitmap.to_pil().resize((px, py), Image.Resampling.LANCZOS)
        bitmap.close()
        yield image


def png_pages(pdf: bytes | Path, dpi: int, first: int = 0, count: int | None = None) -> Iterator[bytes]:
    """The pages of ``pdf`` as :func:`rasterise_pages` renders them, each as the bytes of its
    PNG (:func:`encode_png`'s chunks): encoded straight from pdfium's bitmap, whose rows are
    read in place (no Pillow image is made, nor a copy of the pixels), so the pixels are the
    render's exactly, as :func:`encode_png` of :func:`rasterise_pages`'s image gives them.

    Raises:
        RenderError: pdfium cannot open or render the PDF.
    """
    document = _open(pdf)
    try:
        yield from _pngs(document, dpi, first, count)
    finally:
        document.close()


def _pngs(document: Any, dpi: int, first: int, count: int | None) -> Iterator[bytes]:
    """The pages of the open ``document`` as :func:`png_pages` gives them."""
    from ..io.pngwrite import encode_rgb

    for bitmap, px, py in _bitmaps(document, dpi, first, count):
        try:
            if bitmap.width >= px and bitmap.height >= py:  # the bitmap's top left px × py, read in place
                data = encode_rgb(bitmap.buffer, px, py, dpi, stride=bitmap.stride, srgb_intent=SRGB_INTENT, gamma=SRGB_GAMMA)
            else:  # never seen: pdfium's bitmap smaller than asked, resampled as rasterise_pages does
                from PIL import Image

                data = encode_png(bitmap.to_pil().resize((px, py), Image.Resampling.LANCZOS), dpi)
        finally:
            bitmap.close()
        yield data


def _bitmaps(document: Any, dpi: int, first: int, count: int | None) -> Iterator[tuple[Any, int, int]]:
    """(pdfium bitmap, px, py) of each page ``first`` … of the open ``document``: the render at
    ``dpi`` (white paper, RGB byte order) and the size the page's image is, ``round(w / 72 × dpi)``
    × ``round(h / 72 × dpi)`` px. The caller closes each bitmap.

    Raises:
        RenderError: pdfium cannot render a page.
    """
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    end = len(document) if count is None else min(len(document), first + count)
    for index in range(first, end):
        page = document[index]
        try:
            width, height = page.get_size()
            px = round(width / 72 * dpi)
            py = round(height / 72 * dpi) if abs(height - width) > 1e-6 else px  # cards are not square
            # pdfium writes RGB itself (24-bit BGR, byte order reversed): no conversion after it
            bitmap = page.render(scale=px / width, fill_color=(255, 255, 255, 255), draw_annots=False,
                                 force_bitmap_format=pdfium_c.FPDFBitmap_BGR, rev_byteorder=True)
        except pdfium.PdfiumError as exc:
            raise RenderError(f"pdfium cannot render the token pages: {exc}") from None
        finally:
            page.close()
        yield bitmap, px, py


def encode_png(image: Image.Image, dpi: int) -> bytes:
    """``image`` (RGB, 8 bits a channel) as PNG bytes written by :func:`tokengen.io.pngwrite.encode_rgb`
    (every row unfiltered, ISA-L deflate level 1), with sRGB (perceptual) and gAMA (1/2.2, as PNG pairs
    with sRGB) chunks and ``dpi`` in pHYs (px per metre, rounded: 300 DPI is 11811).

    Raises:
        ValueError: ``image`` is not RGB.
    """
    from ..io.pngwrite import encode_rgb

    if image.mode != "RGB":
        raise ValueError(f"encode_png takes RGB images, not {image.mode}")
    return encode_rgb(image.tobytes(), image.width, image.height, dpi, srgb_intent=SRGB_INTENT, gamma=SRGB_GAMMA)


def _write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` (raises OSError as the disk reports it)."""
    with open(path, "wb") as f:
        f.write(data)


def _render_run(pdf: Path, dpi: int, edge: float, first: int, temps: Sequence[Path], shown: Sequence[Path]) -> None:
    """Pages ``first`` … of ``pdf`` into ``temps`` (one a page), named ``shown`` in errors; the
    PDF stays open for this process's next run of it (:func:`_kept_open`).

    Raises:
        RenderError: pdfium cannot open the PDF or render a page.
        ExportError: a PNG cannot be written.
    """
    for temp, target, data in zip(temps, shown, _pngs(_kept_open(pdf), dpi, first, len(temps)), strict=True):
        write_png_file(data, temp, target)


def save_png(image: Image.Image, dpi: int, temp: Path, target: Path) -> None:
    """:func:`encode_png` of ``image`` (RGB) written to ``temp``, a temporary file standing for
    ``target``; ``image`` is closed once encoded. The chits and a Tabletop Simulator save's images
    are written by it.

    Raises:
        ExportError: the file cannot be written, naming ``target``.
        ValueError: ``image`` is not RGB.
    """
    data = encode_png(image, dpi)
    image.close()
    write_png_file(data, temp, target)


def write_png_file(data: bytes, temp: Path, target: Path) -> None:
    """The PNG bytes ``data`` written to ``temp``, a temporary file standing for ``target``.

    Raises:
        ExportError: the file cannot be written, naming ``target``.
    """
    try:
        _write(temp, data)
    except OSError as exc:
        raise ExportError(f"{target}: cannot write PNG: {exc.strerror or exc}; no file of the set was replaced") from None


#: The PDF this process keeps open between the runs it renders: (path, its identity when opened, the document).
_kept: list[tuple[Path, tuple[int, ...] | None, Any]] = []


def _kept_open(pdf: Path) -> Any:
    """``pdf`` opened by pdfium once for every run a worker renders of it, not once a run: a freshly
    opened document finds page n by reading the page tree up to it (15-20 ms for page 500 of 1,001
    chits, pdfium 5.15), and loads the fonts of its first page anew. Kept until another file (or the
    same path rewritten: another device, inode, size or mtime) is asked for; a worker ends with its pool.

    Raises:
        RenderError: pdfium cannot open the PDF.
    """
    try:
        st = pdf.stat()
        identity: tuple[int, ...] | None = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
    except OSError:
        identity = None  # never matched: pdfium says what is wrong with the file, and it is opened anew next time
    if _kept and identity is not None and _kept[0][:2] == (pdf, identity):
        return _kept[0][2]
    while _kept:
        _kept.pop()[2].close()
    document = _open(pdf)
    _kept.append((pdf, identity, document))
    return document


#: One worker's run: (pdf, dpi, edge, first page, temporary files, the targets they stand for).
Run = tuple[Path, int, float, int, tuple[Path, ...], tuple[Path, ...]]


def render_run(run: Run) -> tuple[str, str] | None:
    """A worker's job (:func:`tokengen.io.workers.run_pool`): :func:`_render_run` of ``run``;
    None when done, else (``"render"`` or ``"write"``, the message): a worker never raises."""
    try:
        _render_run(*run)
    except RenderError as exc:
        return ("render", str(exc))
    except ExportError as exc:
        return ("write", str(exc))
    return None


def pool_size(total: int, workers: int | None = None) -> int:
    """The processes :func:`write_pngs` uses for ``total`` PNGs given ``workers`` (None: every core):
    1 (this one) for at most :data:`POOL_PAGES` PNGs, else at most one worker per run of :data:`RUN_PAGES`."""
    if total <= POOL_PAGES:
        return 1
    return max(1, min(workers or os.cpu_count() or 1, -(-total // RUN_PAGES)))


def start_workers(total: int, workers: int | None = None) -> None:
    """Call before drawing the PDF of ``total`` PNGs that :func:`write_pngs` will write with
    ``workers``: when it will use worker processes, their fork server starts now and imports what
    they need while the PDF is drawn (:func:`tokengen.io.workers.start_server`); else nothing."""
    if pool_size(total, workers) > 1:
        from ..io.workers import start_server

        start_server(render_run, WORKER_IMPORTS)


def write_pngs(pdf: Path, dpi: int, edge: float, temps: Sequence[Path], shown: Sequence[Path], workers: int | None = None) -> None:
    """Write page ``i`` of ``pdf`` (a written single-token PDF) as the PNG ``temps[i]`` (each a
    temporary file standing for ``shown[i]``) at ``dpi``: :func:`png_pages`, each PNG encoded
    from pdfium's bitmap in place. ``workers``: processes to use (None: every core); with 1, or with at most
    :data:`POOL_PAGES` pages, all in this process. Reports ``"PNGs"`` progress.

    Raises:
        RenderError: pdfium cannot render a page.
        ExportError: a PNG cannot be written, naming its ``shown`` target.
    """
    total = len(temps)
    workers = pool_size(total, workers)
    if workers == 1:
        for number, (temp, target, data) in enumerate(zip(temps, shown, png_pages(pdf, dpi), strict=True), 1):
            write_png_file(data, temp, target)
            progress.report("PNGs", number, total)
        return
    from ..io.workers import run_pool

    runs: list[Run] = [(pdf, dpi, edge, first, tuple(temps[first:first + RUN_PAGES]), tuple(shown[first:first + RUN_PAGES]))
                       for first in range(0, total, RUN_PAGES)]
    failures: list[tuple[int, tuple[str, str]]] = []
    done = [0]

    def finished(index: int, result: tuple[str, str] | None) -> None:
        if result is not None:
            failures.append((index, result))
        done[0] += len(runs[index][4])
        progress.report("PNGs", done[0], total)

    run_pool(render_run, runs, range(len(runs)), workers, finished,
             lambda index, reason: ("render", f"pdfium cannot render the token pages: {reason}"), preload=WORKER_IMPORTS)
    if failures:  # the first failing run's, as one process would have met it
        kind, message = min(failures)[1]
        raise (RenderError if kind == "render" else ExportError)(message)
