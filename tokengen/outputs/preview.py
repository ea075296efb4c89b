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
from pathlib import Path

from PIL import Image

from ..errors import RenderError, UsageError
from ..io import progress
from ..io.atomic import atomic_files

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


def render_pages(pdf: bytes | str | Path, dpi: int = DEFAULT_DPI, page: int | None = None,
                 flags: tuple[str, str] = ("--dpi", "--page"), limit: int | None = None) -> list[Image.Image]:
    """Render the pages of ``pdf`` (bytes or a path) at ``dpi``, or only page ``page`` (1-based).
    ``flags`` name the DPI and page options in messages; ``limit`` renders only the first
    ``limit`` pages (instead of refusing more than :data:`MAX_PAGES`).

    Returns:
        RGB images, each exactly :func:`page_pixels` of its page.
    Raises:
        UsageError: ``dpi`` outside :data:`DPI_RANGE`, ``page`` outside the document, a page
            larger than :data:`MAX_PIXELS`, or more than :data:`MAX_PAGES` pages without ``page``.
        RenderError: pdfium cannot open the file as a PDF or cannot render a page.
    """
    import pypdfium2 as pdfium

    if not DPI_RANGE[0] <= dpi <= DPI_RANGE[1]:
        raise UsageError(f"{flags[0]}: {dpi} is outside {DPI_RANGE[0]}..{DPI_RANGE[1]}")
    name = "the PDF" if isinstance(pdf, bytes) else str(pdf)
    source = pdf if isinstance(pdf, bytes) else Path(pdf)
    if isinstance(source, Path) and not source.is_file():
        raise RenderError(f"{name}: no such file" if not source.exists() else f"{name}: not a file")
    try:
        document = pdfium.PdfDocument(source)
    except (pdfium.PdfiumError, OSError) as exc:
        raise RenderError(f"{name}: cannot read as a PDF ({exc})") from None
    try:
        count = len(document)
        if page is not None and not 1 <= page <= count:
            raise UsageError(f"{flags[1]} {page}: {name} has {count} page{'s' if count != 1 else ''}")
        if limit is not None:
            count = min(count, limit)
        elif page is None and count > MAX_PAGES:
            raise UsageError(f"{name} has {count} pages, more than the preview limit of {MAX_PAGES}; preview one with {flags[1]} N")
        images = []
        for index in ([page - 1] if page is not None else range(count)):
            pdf_page = document[index]
            try:
                images.append(_render(pdf_page, dpi, f"{name} page {index + 1}", flags[0]))
            finally:
                pdf_page.close()
        return images
    finally:
        document.close()


def _render(pdf_page: object, dpi: int, what: str, flag: str) -> Image.Image:
    import pypdfium2 as pdfium

    assert isinstance(pdf_page, pdfium.PdfPage)
    width, height = pdf_page.get_size()
    px = page_pixels((width, height), dpi)
    if px[0] * px[1] > MAX_PIXELS:
        raise UsageError(f"{what} at {dpi} DPI would be {px[0]} × {px[1]} px, more than the {MAX_PIXELS:,} px limit; lower {flag}")
    try:
        bitmap = pdf_page.render(scale=dpi / 72, fill_color=(255, 255, 255, 255), draw_annots=False)
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
                   flags: tuple[str, str] = ("--dpi", "--page")) -> list[Path]:
    """Render ``pdf`` (see :func:`render_pages`) and write the PNGs (see :func:`preview_paths`).

    Args:
        pdf: the PDF file to preview.
        target: ``FILE.png``; None: :func:`default_target` of ``pdf``.
        dpi: px per in. page: one page (1-based) instead of all.
        inputs: files a preview must never overwrite (the PDF itself is always one).
        flags: the DPI and page options as the user gave them (for messages).
    Returns:
        The PNG paths written, in page order.
    Raises:
        UsageError, RenderError: as :func:`render_pages`. ExportError: a PNG cannot be written.
    """
    pdf = Path(pdf)
    images = render_pages(pdf, dpi, page, flags)
    paths = preview_paths(target if target is not None else default_target(pdf), len(images), page)
    with atomic_files(paths, inputs=(pdf, *inputs)) as temps:  # every PNG checked before the first is written; all or none
        for number, (image, temp) in enumerate(zip(images, temps, strict=True), 1):
            temp.write_bytes(png_bytes(image, dpi))
            progress.report("PNGs", number, len(images))
    return paths
