"""One token side per page: its page (:func:`token_page`), the PDF of such pages
(:func:`write_single_pages`, which the ``single-pages``, ``png`` and ``tts`` writers share), the
names of the PNGs made from them (:func:`png_name`, :func:`png_backs`) and the PNG file itself
(:func:`write_png`)."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from PIL import Image, PngImagePlugin

from ...colour import Converter
from ...errors import ExportError, LayoutError
from ...faces.art import ArtLibrary
from ...faces.render import SheetCanvas, binary_streams, open_canvas
from ...faces.scale import small_text_warnings
from ...io import progress
from ...limits import MAX_ART_PIXELS
from ...model import Back, Catalogue, Token
from ...sources.profiles import Profile
from ...units import counted, format_length
from ..build import pictures_of
from ..pngs import SRGB_GAMMA, SRGB_INTENT


def token_page(catalogue: Catalogue, profile: Profile) -> tuple[float, float, float, float]:
    """The page of one token side on single pages and PNGs: (width, height, left bleed, bottom
    bleed), pt. Without ``canvas_px`` the page is the trim + 2 × the profile's bleed; with it the
    page is the canvas (px / dpi × 72 pt: The Game Crafter's 825 × 1125 px at 300 DPI is
    198 × 270 pt) and the trim sits centred on it, so a euro poker trim (178.56 × 249.12 pt)
    has 9.72 pt of bleed left and right and 10.44 pt top and bottom.

    Raises:
        LayoutError: the trim is larger than the canvas.
    """
    size, height = catalogue.size, catalogue.trim_height
    if profile.canvas_px is None:
        return size + 2 * profile.bleed, height + 2 * profile.bleed, profile.bleed, profile.bleed
    width, tall = (v / profile.dpi * 72 for v in profile.canvas_px)
    if size > width + 1e-6 or height > tall + 1e-6:
        raise LayoutError(f"{catalogue.path}: a {format_length(size)} x {format_length(height)} token does not fit profile "
                          f"{profile.name}'s {profile.canvas_px[0]} x {profile.canvas_px[1]} px canvas at {profile.dpi} DPI "
                          f"({format_length(width)} x {format_length(tall)})")
    return width, tall, (width - size) / 2, (tall - height) / 2


def print_path(out_stem: Path, number: int) -> Path:
    """The print image of sheet ``number`` (1-based) of a print-then-cut bundle: ``<out_stem>-print-<number>.png``."""
    return out_stem.with_name(f"{out_stem.name}-print-{number}.png")


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


def png_backs(stem: str, catalogue: Catalogue) -> list[tuple[Token, str]]:
    """One (token, PNG name) per distinct back, in order of first use: ``meatshields-back.png``
    when every face has the same back, else the back named by the numbers of the faces it goes
    behind, runs of three or more shortened: ``hex-counters-01-back.png``,
    ``hex-counters-02-05-back.png``, ``hex-counters-06to09-back.png``.
    """
    users: dict[Back, list[int]] = {}
    first: dict[Back, Token] = {}
    for number, token in enumerate(catalogue.tokens, 1):
        back = _back(catalogue, token)
        users.setdefault(back, []).append(number)
        first.setdefault(back, token)
    if len(users) == 1:
        return [(catalogue.tokens[0], f"{stem}-back.png")]
    return [(first[back], f"{stem}-{_runs(numbers)}-back.png") for back, numbers in users.items()]


def _runs(numbers: list[int]) -> str:
    """``[2, 5, 6, 7, 8]`` → ``"02-05to08"``: two-digit numbers, runs of three or more as ``AtoB``."""
    parts: list[str] = []
    start = 0
    for i in range(1, len(numbers) + 1):
        if i == len(numbers) or numbers[i] != numbers[i - 1] + 1:
            run = numbers[start:i]
            parts.append(f"{run[0]:02d}to{run[-1]:02d}" if len(run) > 2 else "-".join(f"{n:02d}" for n in run))
            start = i
    return "-".join(parts)


def write_single_pages(catalogue: Catalogue, profile: Profile, sides: Iterator[tuple[str, Token]],
                       target: Path | io.BytesIO, count: int, keep_resolution: bool = False,
                       warnings: list[str] | None = None, max_art_pixels: int = MAX_ART_PIXELS,
                       notes: list[str] | None = None) -> None:
    """Write a PDF with one token side per page to ``target`` (a path or a binary buffer) from
    ``sides``, an iterator of ``count`` (``"face"`` or ``"back"``, token) pairs taken one page at
    a time: each page is one form placement, so memory grows by a few hundred bytes per page,
    never by a list of the pages or their drawings. The catalogue's, the art's and the small-text
    warnings (:func:`tokengen.faces.scale.small_text_warnings`, measured on the faces as drawn) are
    added to ``warnings``.

    Each page is the trim grown by the bleed on every side (``size + 2 × bleed`` pt square; a
    card's width and height each + 2 × bleed) with TrimBox = the trim (inset by the bleed) and
    BleedBox = MediaBox. Deterministic (ReportLab invariant mode); only the bundled fonts,
    embedded as subsets; in a CMYK profile ReportLab refuses any non-CMYK colour.

    Raises:
        RenderError: a glyph is missing from the font; the art cannot be read.
    """
    size = catalogue.size
    height = catalogue.trim_height  # cards: not square
    edge, page_h, bx, by = token_page(catalogue, profile)
    bleed = max(bx, by)  # the art's bleed: it reaches every page edge of an uneven canvas
    library = ArtLibrary(Converter(profile.colour, profile.colour_options()), max_dpi=None if keep_resolution else profile.max_dpi,
                         max_total_pixels=max_art_pixels)
    library.reserve(pictures_of(catalogue))  # --keep-resolution: refused from the headers, before any is decoded
    described = f"; {library.colour.describe()}" if profile.colour == "cmyk" else ""
    canvas = open_canvas(target, (edge, page_h), title=catalogue.title, author=catalogue.author or "tokengen",
                         subject=f"{counted(count, 'token side')}, {format_length(size)} trim + {format_length(bleed)} bleed, profile {profile.name}"
                         + described, colour_model=profile.colour)
    sheet = SheetCanvas(canvas, size, bleed, profile.colour, safe=profile.safe, art=library, height=height, shape=catalogue.shape,
                        design=catalogue.safe_area)
    forms: dict[tuple[str, str], str] = {}
    for number, (side, token) in enumerate(sides, 1):
        key = (side, token.id)
        if key not in forms:  # once per design, before the page draws anything (equal backs share one form)
            forms[key] = sheet.face_form(token) if side == "face" else sheet.back_form(_back(catalogue, token))
        canvas.setTrimBox([bx, by, bx + size, by + height])
        canvas.setBleedBox([0, 0, edge, page_h])
        canvas.saveState()
        canvas.translate(bx, by)
        canvas.doForm(forms[key])
        canvas.restoreState()
        canvas.showPage()
        progress.report("pages", number, count)
    if warnings is not None:  # as a sheet build gives them; the small texts as the faces were drawn
        warnings.extend(catalogue.warnings)
        warnings.extend(library.warnings(catalogue.path.parent))
        warnings.extend(small_text_warnings(catalogue, size, safe=profile.safe, layouts=sheet.layouts))
        warnings.extend(sheet.warnings)
    if notes is not None:
        notes.extend(sheet.notes)
    with binary_streams():
        canvas.save()


def _back(catalogue: Catalogue, token: Token) -> Back:
    return catalogue.back or token.back


def write_png(image: Image.Image, path: Path | BinaryIO, dpi: int, *, shown: Path | None = None) -> None:
    """Save ``image`` as an 8-bit RGB PNG with ``dpi`` in pHYs (px per metre, as PNG stores it)
    and sRGB + gAMA chunks, so shops read the right physical size and colour space. ``path`` is a
    file or a binary file object.

    Raises:
        ExportError: the write failed, naming ``shown`` (the output a temporary ``path`` stands
            for) or else ``path``.
    """
    info = PngImagePlugin.PngInfo()
    info.add(b"sRGB", bytes([SRGB_INTENT]))
    info.add(b"gAMA", SRGB_GAMMA.to_bytes(4, "big"))
    try:
        image.save(path, format="PNG", dpi=(dpi, dpi), pnginfo=info, optimize=False)
    except OSError as exc:
        raise ExportError(f"{shown or path}: cannot write PNG: {exc.strerror or exc}"
                          + ("; no file of the set was replaced" if shown else "")) from None
