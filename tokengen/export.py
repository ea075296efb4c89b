"""Print-shop export: one catalogue, one :class:`~tokengen.profiles.Profile`, the files a shop takes.

Three kinds of output, chosen by the profile's ``output``:

* ``sheets``: tokens imposed on pages by :func:`tokengen.build.build_pdf` with the profile's
  page, margin, gutter, bleed, marks and colour model; with ``boxes`` each page's TrimBox is the
  block of token trims and its BleedBox that block grown by the bleed.
* ``single-pages``: one PDF where each page is one token side: page = trim + 2 × bleed square,
  TrimBox = the trim, BleedBox = the page. For every physical token (copies included) its two
  sides follow each other in the profile's ``order`` (face, then back, by default).
* ``png``: the same kind of single-token PDF (one page per design plus one back page) is written,
  then each page is rasterised with pdfium into a PNG of exactly
  ``round((trim + 2 × bleed) / 72 × dpi)`` px square, 8-bit sRGB, with the DPI in its pHYs
  chunk: a 1 in chit with 1/8 in bleed at 300 DPI is 375 × 375 px. (The Game Crafter prints at
  300 DPI and asks for 1/8 in bleed and a 1/8 in safe zone: help.thegamecrafter.com, "DPI (dots
  per inch)"; 1/8 in is also the usual US bleed.) PNG stores the DPI as pixels per metre, so
  300 DPI is written as 11811 px/m and reads back as 299.9994. PNG and PDF come from one
  drawing, so they cannot disagree.

Bleed is drawn per token (the face and back forms fill their background to trim + bleed);
ReportLab's ``cropMarks`` option is not used because it scales the page content. Every file is
written atomically (:func:`tokengen.atomic.atomic_path`).
"""

from __future__ import annotations

import io
import re
from dataclasses import replace
from pathlib import Path

from PIL import Image, PngImagePlugin

from .atomic import atomic_path
from .build import BuildOptions, build_pdf
from .errors import ExportError, RenderError
from .imposition import SheetSpec
from .model import Back, Catalogue, Token
from .profiles import Profile
from .render import SheetCanvas, open_canvas
from .units import format_length

#: PNG sRGB chunk rendering intent (0 = perceptual) and the gAMA value PNG 1.2 pairs with sRGB.
SRGB_INTENT = 0
SRGB_GAMMA = 45455


def export(catalogue: Catalogue, profile: Profile, out_dir: str | Path, dpi: int | None = None, *,
           size: float | None = None) -> list[Path]:
    """Write the files ``profile`` asks for into ``out_dir`` (created if missing).

    Args:
        catalogue: the validated catalogue.
        profile: see :mod:`tokengen.profiles`.
        out_dir: output folder.
        dpi: overrides the profile's DPI (PNG resolution, px per in).
        size: token trim in pt, overriding the catalogue's (``--size``).
    Returns:
        The paths written, in a stable order (PDF first, then PNGs: faces in catalogue order, back).
    Raises:
        ExportError: the folder cannot be created or a file cannot be written.
        LayoutError: the tokens do not fit the profile's sheet.
        RenderError: a glyph is missing from the font, or pdfium cannot rasterise a page.
    """
    out_dir = Path(out_dir)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ExportError(f"{out_dir}: cannot create the output folder: {exc.strerror or exc}") from None
    if not out_dir.is_dir():
        raise ExportError(f"{out_dir}: not a folder")
    stem = slug(catalogue.title)
    pdf = out_dir / f"{stem}-{slug(profile.name)}.pdf"
    if size is not None and size != catalogue.size:
        catalogue = replace(catalogue, size=size)
    if profile.output == "sheets":
        spec = SheetSpec(
            page=profile.page, size=catalogue.size, margin=profile.margin, gutter=profile.gutter, bleed=profile.bleed,
            columns=profile.columns or None, group=catalogue.columns if profile.columns is None else None,
            cut_lines="cut-lines" in profile.marks, crop_marks="crop-marks" in profile.marks,
            calibration="calibration" in profile.marks, home_bleed=profile.home_bleed,
        )
        backs = "duplex" if profile.backs == "duplex" else None
        build_pdf(catalogue, BuildOptions(sheet=spec, colour_model=profile.colour, boxes=profile.boxes, safe=profile.safe,
                                          backs=backs, copies=profile.copies, fill=profile.fill), pdf)
        return [pdf]
    if profile.output == "single-pages":
        sides = [(side, t) for _ in range(profile.copies) for t in catalogue.expanded() for side in profile.order]
        with atomic_path(pdf, inputs=(catalogue.path,)) as temp:
            temp.write_bytes(single_pages_pdf(catalogue, profile, sides))
        return [pdf]
    # png: one page per design, then the back
    sides = [("face", t) for t in catalogue.tokens] + [("back", catalogue.tokens[0])]
    data = single_pages_pdf(catalogue, profile, sides)
    with atomic_path(pdf, inputs=(catalogue.path,)) as temp:
        temp.write_bytes(data)
    names = [png_name(stem, i, t) for i, t in enumerate(catalogue.tokens, 1)] + [f"{stem}-back.png"]
    written = [pdf]
    for name, image in zip(names, rasterise(data, dpi or profile.dpi, catalogue.size + 2 * profile.bleed), strict=True):
        target = out_dir / name
        with atomic_path(target, inputs=(catalogue.path,)) as temp:
            write_png(image, temp, dpi or profile.dpi)
        written.append(target)
    return written


def slug(text: str) -> str:
    """``"Meatshields: Hand of Doom"`` → ``"meatshields-hand-of-doom"`` (ASCII letters, digits, ``-``)."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "tokens"


def png_name(stem: str, number: int, token: Token) -> str:
    """Upload-ready PNG name for a face: ``meatshields-01-agi-low.png`` (``-x3`` when 3 copies).

    Lowercase ASCII, digits and hyphens only, numbered in catalogue order so a folder listing
    is the set in order; the copy count is in the name so the quantity is set right on upload.
    """
    copies = f"-x{token.copies}" if token.copies > 1 else ""
    return f"{stem}-{number:02d}-{slug(token.id)}{copies}.png"


def single_pages_pdf(catalogue: Catalogue, profile: Profile, sides: list[tuple[str, Token]]) -> bytes:
    """A PDF with one token side per page, as bytes.

    Each page is ``size + 2 × bleed`` pt square with TrimBox = the trim square (inset by the
    bleed) and BleedBox = MediaBox. ``sides`` lists (``"face"`` or ``"back"``, token) per page.
    Deterministic (ReportLab invariant mode); only the bundled fonts, embedded as subsets; in a
    CMYK profile ReportLab refuses any non-CMYK colour.

    Raises:
        RenderError: a glyph is missing from the font.
    """
    size, bleed = catalogue.size, profile.bleed
    edge = size + 2 * bleed
    buffer = io.BytesIO()
    canvas = open_canvas(buffer, (edge, edge), title=catalogue.title, author=catalogue.author or "tokengen",
                         subject=f"{len(sides)} token sides, {format_length(size)} trim + {format_length(bleed)} bleed, profile {profile.name}",
                         colour_model=profile.colour)
    sheet = SheetCanvas(canvas, size, bleed, profile.colour, safe=profile.safe)
    forms: dict[tuple[str, str], str] = {}
    for side, token in sides:  # forms first, once per design
        key = (side, token.id if side == "face" else "back")
        if key not in forms:
            forms[key] = sheet.face_form(token) if side == "face" else sheet.back_form(_back(catalogue, token))
    for side, token in sides:
        canvas.setTrimBox([bleed, bleed, bleed + size, bleed + size])
        canvas.setBleedBox([0, 0, edge, edge])
        canvas.saveState()
        canvas.translate(bleed, bleed)
        canvas.doForm(forms[(side, token.id if side == "face" else "back")])
        canvas.restoreState()
        canvas.showPage()
    return canvas.getpdfdata()


def _back(catalogue: Catalogue, token: Token) -> Back:
    return catalogue.back or token.back


def rasterise(pdf: bytes, dpi: int, edge: float) -> list[Image.Image]:
    """Render every page of ``pdf`` (each ``edge`` pt square) at ``dpi`` into RGB images of
    exactly ``round(edge / 72 × dpi)`` px square (pdfium, white paper under the page).

    Raises:
        RenderError: pdfium cannot open or render the PDF.
    """
    import pypdfium2 as pdfium

    px = round(edge / 72 * dpi)
    images: list[Image.Image] = []
    try:
        document = pdfium.PdfDocument(pdf)
        try:
            for index in range(len(document)):
                page = document[index]
                width, _ = page.get_size()
                bitmap = page.render(scale=px / width, fill_color=(255, 255, 255, 255), draw_annots=False)
                image = bitmap.to_pil().convert("RGB")
                if image.size != (px, px):  # pdfium rounds the bitmap up; the page is square
                    image = image.crop((0, 0, px, px)) if min(image.size) >= px else image.resize((px, px), Image.Resampling.LANCZOS)
                images.append(image)
                page.close()
        finally:
            document.close()
    except pdfium.PdfiumError as exc:
        raise RenderError(f"pdfium cannot render the token pages: {exc}") from None
    return images


def write_png(image: Image.Image, path: Path, dpi: int) -> None:
    """Save ``image`` as an 8-bit RGB PNG with ``dpi`` in pHYs (px per metre, as PNG stores it)
    and sRGB + gAMA chunks, so shops read the right physical size and colour space."""
    info = PngImagePlugin.PngInfo()
    info.add(b"sRGB", bytes([SRGB_INTENT]))
    info.add(b"gAMA", SRGB_GAMMA.to_bytes(4, "big"))
    try:
        image.save(path, format="PNG", dpi=(dpi, dpi), pnginfo=info, optimize=False)
    except OSError as exc:
        raise ExportError(f"{path}: cannot write PNG: {exc}") from None
