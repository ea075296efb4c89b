"""Token art: PNG/JPEG images read as an image viewer shows them, converted once, sized for the print.

Lengths are in pt (1 in = 72 pt); image sizes in pixels; resolution in DPI (pixels per inch
at the printed size). The catalogue loader has already resolved every art path to an absolute
file inside the catalogue's folder (:func:`tokengen.sources.artpath.resolve_art`); this module reads
the pixels (with Pillow), and :mod:`tokengen.faces.render` draws them.

The pipeline, once per file, printed size and output (:meth:`ArtLibrary.load`):

1. **Checks before decoding**: a regular file; PNG or JPEG; at most ``max_pixels`` (a
   decompression bomb: a small file that expands into gigabytes); for PNG, every chunk's length
   fits the file, no ancillary chunk above :data:`MAX_CHUNK` bytes, and the image data no larger
   than the header's size can need (a header claiming a small image with gigabytes of data).
2. **Decoding**, with every Pillow warning an error naming the file (a truncated or odd file
   is never printed as a blank or garbled picture). A JPEG far above the print resolution is
   decoded at 1/2, 1/4 or 1/8 size (Pillow's ``draft``), so memory follows what the print needs.
3. **Every mode to 8 bits**: 1-bit and 16-bit grey (``I;16``) to ``L``, palette to RGB or RGBA
   (with its tRNS transparency), 16-bit RGB(A) and grey+alpha as Pillow reads them, CMYK JPEG
   (Adobe's inverted ones included) as CMYK.
4. **Resampling once** (Lanczos) to ``max_dpi`` at the printed size when the art is above it,
   with one warning for all such files (``2 pictures resampled to 600 DPI (art/cover.jpg,
   art/orc.png); --keep-resolution keeps them``);
   ``max_dpi=None`` (``--keep-resolution``) keeps every pixel.
5. **EXIF orientation** (``ImageOps.exif_transpose``): the placed size follows the displayed
   orientation (:meth:`ArtLibrary.size` reads it from the header).
6. **Colour** through :class:`tokengen.colour.Converter`: the embedded ICC profile honoured (to
   sRGB for RGB outputs, to the output profile's CMYK for CMYK outputs, ink-limited).
7. **Transparency**: RGB outputs keep it as a soft mask; CMYK outputs flatten it onto the
   colour beneath the picture (:mod:`tokengen.faces.beneath`; its CMYK as the vector fill gets it),
   so print-shop PDFs never rely on transparency and the bleed never shows paper white.
8. **Embedding**: a JPEG that needs none of the above for an RGB output is embedded as its own
   DCT bytes, never decoded: whole (it ends with its end-of-image marker and its frame header
   reads as Pillow's does; otherwise it is decoded as in step 2, to refuse it or prove it
   whole) and named by the SHA-256 of its bytes (:class:`EmbeddedJpeg`); other JPEG art is
   re-encoded as JPEG (quality 95, no chroma subsampling), named the same way (a CMYK one
   measured after encoding so no pixel decodes over the ink limit: :func:`_jpeg`); PNG art is
   Flate-compressed. Binary streams are never ASCII85-wrapped (see :mod:`tokengen.faces.render`).

SVG art (``.svg``) is read by :func:`tokengen.faces.svgart.read_svg` instead, once per file
(:meth:`ArtLibrary.svg`): vectors have no pixels, so steps 1 to 8 do not apply; its colours go
through the same converter. An SVG that svglib cannot draw as a browser does is drawn by resvg
at ``min_dpi`` (300 by default) at its printed size (:meth:`ArtLibrary.svg_picture`), then
takes steps 6 to 8 as a PNG's pixels would: colour, ink limit, transparency flattened in CMYK.

Memory: one picture is decoded at a time (at most ``max_pixels``, less for a JPEG decoded with
``draft``) and its pixels are released once embedded (:meth:`ArtLibrary.release`); the pixels of
every picture after resampling are bounded in total by ``max_total_pixels``
(``--max-art-pixels``), which bounds the work and the PDF's size with ``--keep-resolution``.
"""

from __future__ import annotations

import hashlib
import io
import math
import os
import re
import stat
import struct
import sys
import threading
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import TracebackType
from typing import Literal

from PIL import Image, ImageMath, UnidentifiedImageError
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfutils import readJPEGInfo

from ..colour import Converter, ink_within, is_srgb, limit_image_ink
from ..errors import ArtError, CatalogueError, RenderError
from ..geometry.imposition import Rect
from ..limits import MAX_SVG_ELEMENTS
from ..model import Catalogue, Colour
from .svgart import SvgArt, is_svg, read_svg

#: Resolution (DPI) below which art is reported: the usual print-shop minimum.
MIN_DPI = 300.0
#: Resolution (DPI) above which art is resampled down by default (``max_dpi`` in profiles): 600.
#: Pixels of art held at once for one build (``--max-art-pixels``): MAX_TOTAL_PIXELS, 100 Mpx.
#: Both live in :mod:`tokengen.limits` (the command line shows them without importing Pillow).
from ..limits import MAX_ART_PIXELS as MAX_TOTAL_PIXELS  # noqa: E402
from ..limits import MAX_DPI, PICTURE_SHARE  # noqa: E402

#: Largest image accepted by default, in pixels (width × height): 50 megapixels is a 7000 × 7000
#: image, enough for a 23 in token at 300 DPI; ``--max-art-pixels`` above its default raises it
#: (:func:`picture_limit`). Anything far larger is treated as a decompression bomb.
MAX_PIXELS = MAX_TOTAL_PIXELS // PICTURE_SHARE
#: A picture over this many times its limit is named a possible decompression bomb with no hint.
_BOMB = 20


def picture_limit(max_total_pixels: int) -> int:
    """The most pixels one picture may have in a build whose art may hold ``max_total_pixels``
    (``--max-art-pixels``): a fifth of it (:data:`tokengen.limits.PICTURE_SHARE`), never below
    :data:`MAX_PIXELS`."""
    return max(MAX_PIXELS, max_total_pixels // PICTURE_SHARE)
#: Largest PNG chunk other than image data (``IDAT``), bytes: ICC profiles and text are far smaller.
MAX_CHUNK = 16 * 1024 * 1024
#: Formats accepted (Pillow format names): an ``MPO`` is a phone's JPEG with a second picture
#: (a depth map, a preview) appended; its first frame is the photo, read as a JPEG.
FORMATS = ("PNG", "JPEG", "MPO")
#: EXIF orientations that swap width and height (transpose, 90°, transverse, 270°).
_SWAPPED = (5, 6, 7, 8)
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_PNG_CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


@dataclass(frozen=True)
class ArtImage:
    """A decoded, converted image ready to embed.

    Attributes:
        path: the source file (absolute).
        width, height: size in pixels as embedded (after orientation and any resampling).
        mode: Pillow mode after conversion (``L``, ``LA``, ``RGB``, ``RGBA`` or ``CMYK``).
        reader: the ReportLab :class:`ImageReader` wrapping the pixels, or the JPEG bytes to
            embed (:class:`EmbeddedJpeg`: named by their digest, never decoded to name them).
        passthrough: the file's own JPEG bytes are embedded (DCT, no re-encoding).
        source: (width, height) of the file as displayed (after EXIF orientation).
        pixels: the converted pixels ``reader`` wraps, for Flate-compressed art (None otherwise).
    """

    path: Path
    width: int
    height: int
    mode: str
    reader: ImageReader | EmbeddedJpeg | None = field(compare=False, repr=False)
    passthrough: bool = False
    source: tuple[int, int] = (0, 0)
    pixels: Image.Image | None = field(default=None, compare=False, repr=False)

    @property
    def aspect(self) -> float:
        """Width / height."""
        return self.width / self.height


def fit(width: float, height: float, box: Rect, mode: str = "contain") -> Rect:
    """Where to draw a ``width`` × ``height`` image (any unit: only the ratio matters) in ``box``.

    Args:
        width, height: image size (pixels); both > 0.
        box: the target rectangle, pt.
        mode: ``"contain"``: the largest rectangle of the image's aspect inside ``box``, centred;
            ``"cover"``: the smallest one covering ``box``, centred (the caller clips to ``box``).
    Returns:
        The drawing rectangle in pt; its aspect ratio equals ``width / height`` (no distortion).
    Raises:
        ValueError: unknown ``mode``.
    """
    if mode not in ("contain", "cover"):
        raise ValueError(f"unknown fit mode {mode!r}")
    scale_x, scale_y = box.w / width, box.h / height
    scale = min(scale_x, scale_y) if mode == "contain" else max(scale_x, scale_y)
    w, h = width * scale, height * scale
    return Rect(box.x + (box.w - w) / 2, box.y + (box.h - h) / 2, w, h)


def effective_dpi(pixels: tuple[int, int], drawn: Rect) -> float:
    """Resolution (DPI) of an image of ``pixels`` (width, height) drawn at ``drawn`` (pt).

    The smaller of the two axes' pixels per inch (they are equal when drawn undistorted).
    """
    return min(pixels[0] / (drawn.w / 72.0), pixels[1] / (drawn.h / 72.0))


class ArtLibrary:
    """Loads each art file once per printed size and output, and remembers warnings.

    Args:
        colour: ``"rgb"``, ``"cmyk"`` or a :class:`~tokengen.colour.Converter` (which also
            carries the output profile, rendering intent and ink limit).
        max_pixels: refuse images with more pixels than this (decompression bombs); None:
            :func:`picture_limit` of ``max_total_pixels``.
        min_dpi: warn about art printed below this resolution.
        max_dpi: resample art printed above this resolution down to it (None: keep every pixel).
        max_total_pixels: refuse a build whose art holds more pixels than this after resampling.
        max_svg_elements: refuse SVG art with more elements (or shapes drawn) than this.
    """

    def __init__(self, colour: str | Converter = "rgb", *, max_pixels: int | None = None, min_dpi: float = MIN_DPI,
                 max_dpi: float | None = MAX_DPI, max_total_pixels: int = MAX_TOTAL_PIXELS,
                 max_svg_elements: int = MAX_SVG_ELEMENTS):
        self.colour = colour if isinstance(colour, Converter) else Converter(colour)
        self.colour_model = self.colour.model
        self.max_pixels = picture_limit(max_total_pixels) if max_pixels is None else max_pixels
        self.min_dpi = min_dpi
        self.max_dpi = max_dpi
        self.max_total_pixels = max_total_pixels
        self._images: dict[tuple, ArtImage] = {}
        self._sizes: dict[Path, _Header] = {}
        self._warnings: dict[Path, float] = {}
        self._resampled: dict[Path, tuple[float, float]] = {}
        self._held = 0
        self.max_svg_elements = max_svg_elements
        self._svgs: dict[Path, SvgArt] = {}
        self._transparent: dict[Path, tuple[float, float, float, float] | None] = {}

    def svg(self, path: Path) -> SvgArt:
        """The SVG art at ``path``, read, checked and colour-converted the first time it is asked for.

        Raises:
            RenderError: see :func:`tokengen.faces.svgart.read_svg`.
        """
        path = Path(path)
        found = self._svgs.get(path)
        if found is None:
            found = self._svgs[path] = read_svg(path, self.colour, max_elements=self.max_svg_elements, dpi=self.min_dpi)
        return found

    def svg_picture(self, path: Path, drawn: Rect, background: Colour | None = None) -> ArtImage:
        """The SVG at ``path`` that svglib cannot draw right (:attr:`SvgArt.outside`), drawn by
        resvg at ``min_dpi`` for the size ``drawn`` (pt), then converted as PNG art is (steps 6
        and 7: colour and ink limit, transparency flattened onto ``background`` in CMYK). Its
        pixels count towards ``max_total_pixels`` and ``max_pixels`` as a PNG's do.

        Raises:
            RenderError: see :meth:`svg`; the picture's pixels pass a limit; resvg fails.
        """
        from .svgart import rasterise

        svg = self.svg(path)
        width = max(1, math.ceil(drawn.w / 72 * self.min_dpi - 1e-6))
        height = max(1, math.ceil(drawn.h / 72 * self.min_dpi - 1e-6))
        flatten = background if self.colour_model == "cmyk" else None
        key = (Path(path), (width, height), flatten)
        cached = self._images.get(key)
        if cached is not None and cached.reader is not None:
            return cached
        _check_pixels(Path(path), width, height, self.max_pixels)
        if cached is None:
            self._charge(Path(path), width * height)
        converted = _colour(rasterise(svg, width, height), self.colour, flatten)
        image = ArtImage(Path(path), width, height, converted.mode, ImageReader(converted), False, (width, height), converted)
        self._images[key] = image
        return image

    def size(self, path: Path) -> tuple[float, float]:
        """(width, height) of the art at ``path`` as displayed: pixels (EXIF orientation
        applied), read from the header after the checks of step 1 (no pixels decoded); for SVG
        art, its size in pt.

        Raises:
            RenderError: see :meth:`load` (SVG: :meth:`svg`).
        """
        path = Path(path)
        if is_svg(path):
            art = self.svg(path)
            return art.width, art.height
        return self._pixels(path)

    def transparent_part(self, path: Path) -> tuple[float, float, float, float] | None:
        """Where the art at ``path`` has pixels that are not fully opaque: (x0, y0, x1, y1) as
        fractions of the picture as displayed, from its top-left corner; None when every pixel
        is opaque (a JPEG, a PNG with no alpha channel or tRNS key, or one whose alpha is 255
        throughout). SVG art counts as transparent all over (what it leaves unpainted). Read
        once per file (the alpha channel alone is kept, as its bounding box).

        Raises:
            RenderError: see :meth:`load`.
        """
        path = Path(path)
        if path in self._transparent:
            return self._transparent[path]
        found: tuple[float, float, float, float] | None = (0.0, 0.0, 1.0, 1.0)
        if not is_svg(path):
            head = self._head(path)
            found = None
            if head.format == "PNG":
                with _reading(path, self.max_pixels), Image.open(path) as im:
                    if im.mode in ("RGBA", "LA", "PA", "RGBa", "La") or "transparency" in im.info:
                        alpha = (im if im.mode in ("RGBA", "LA") else im.convert("RGBA")).getchannel("A")
                        box = alpha.point(lambda a: 255 if a < 255 else 0).getbbox()  # the pixels not fully opaque
                        if box is not None:
                            w, h = alpha.size
                            found = (box[0] / w, box[1] / h, box[2] / w, box[3] / h) if head.orientation == 1 else (0.0, 0.0, 1.0, 1.0)
        self._transparent[path] = found
        return found

    def _pixels(self, path: Path) -> tuple[int, int]:
        found = self._head(path)
        return found.width, found.height

    def _head(self, path: Path) -> _Header:
        found = self._sizes.get(path)
        if found is None:
            found = self._sizes[path] = _header(path, self.max_pixels)
        return found

    def load(self, path: Path, drawn: Rect | None = None, background: Colour | None = None) -> ArtImage:
        """The image at ``path``, decoded and converted the first time it is asked for.

        Args:
            path: the art file.
            drawn: where it will be drawn (pt), to resample art above ``max_dpi``; None keeps
                the file's pixels.
            background: the colour under the art; transparent pixels are flattened onto it in
                CMYK outputs (None: white paper).
        Raises:
            RenderError: the file is missing, not a regular file, not a PNG/JPEG, larger than
                ``max_pixels`` (or Pillow flags it as a decompression bomb), has PNG chunks that
                claim more data than the image can hold, cannot be decoded or decodes with a
                warning, or the build's art exceeds ``max_total_pixels``. The message is one
                line naming the file.
        """
        path = Path(path)
        head = self._head(path)
        width, height = head.width, head.height
        target = None
        if drawn is not None and self.max_dpi is not None:
            dpi = effective_dpi((width, height), drawn)
            if dpi > self.max_dpi + 0.5:
                scale = self.max_dpi / dpi
                target = (max(1, round(width * scale)), max(1, round(height * scale)))
                self._resampled[path] = (dpi, float(self.max_dpi))
        flatten = background if self.colour_model == "cmyk" else None
        key = (path, target, flatten)
        cached = self._images.get(key)
        if cached is not None and cached.reader is None:  # released after embedding: asked again by another PDF
            cached = self._images[key] = _decoded(path, head, self.colour, target, flatten, self.max_pixels)
        elif cached is None:
            embedded = target or (width, height)  # from the header: refused before it is decoded
            self._charge(path, embedded[0] * embedded[1])
            cached = _decoded(path, head, self.colour, target, flatten, self.max_pixels)
            self._images[key] = cached
        return cached

    def _charge(self, path: Path, pixels: int) -> None:
        self._held += pixels
        if self._held > self.max_total_pixels:
            raise ArtError(path, f"the art of this build holds {self._held} pixels as embedded, more than the "
                              f"limit of {self.max_total_pixels} (raise it with --max-art-pixels)")

    def reserve(self, paths: list[Path]) -> None:
        """With ``max_dpi`` None (every pixel kept), refuse before any picture is decoded when
        the distinct art files of ``paths`` hold more pixels in all, read from their headers,
        than ``max_total_pixels``: six 49 Mpx PNGs (294 Mpx, over the 250 Mpx default) are refused
        at the sixth header, not after five were decoded. (Resampled art is charged as it is loaded, also before decoding.)

        Raises:
            RenderError: the file whose pixels pass the limit, with the total and the flag; or
                see :meth:`size`.
        """
        if self.max_dpi is not None:
            return
        total = self._held
        for path in dict.fromkeys(Path(p) for p in paths):
            if is_svg(path):  # vectors: no pixels
                continue
            width, height = self._pixels(path)
            total += width * height
            if total > self.max_total_pixels:
                raise ArtError(path, f"the art of this build holds {total} pixels as embedded, more than the "
                                  f"limit of {self.max_total_pixels} (raise it with --max-art-pixels)")

    def release(self, image: ArtImage) -> None:
        """Forget ``image``'s pixels once they are embedded (the PDF keeps the compressed
        stream), so a build holds one decoded picture at a time; sizes and warnings stay."""
        for key, value in self._images.items():
            if value is image:
                self._images[key] = replace(image, reader=None, pixels=None)
                return

    def check_resolution(self, image: ArtImage | SvgArt, drawn: Rect) -> float:
        """Effective DPI of ``image`` drawn at ``drawn`` (pt); records a warning below ``min_dpi``.
        SVG art has no pixels: infinite."""
        if isinstance(image, SvgArt):
            return math.inf
        dpi = effective_dpi((image.width, image.height), drawn)
        if dpi + 1e-6 < self.min_dpi:
            self._warnings[image.path] = min(dpi, self._warnings.get(image.path, dpi))
        return dpi

    def warnings(self, folder: Path | None = None) -> list[str]:
        """One message per low-resolution file, e.g. ``art/knight.png: 150 DPI at its printed
        size, below 300 DPI; it may print blurred``, then one line for all the resampled ones,
        naming the first two relative to ``folder`` (the catalogue's), e.g. ``3 pictures
        resampled to 600 DPI (art/orc.png, art/elf.png, …); --keep-resolution keeps them``."""
        low = [f"{shown_in(path, folder)}: {dpi:.0f} DPI at its printed size, below {self.min_dpi:.0f} DPI; it may print blurred"
               for path, dpi in self._warnings.items()]
        low += [f"{shown_in(art.path, folder)}: SVG: {line}" for art in self._svgs.values() for line in art.warnings]
        return low + [resampled_warning(list(self._resampled), self.max_dpi or 0, folder)] if self._resampled else low


@contextmanager
def art_named(catalogue: Catalogue) -> Iterator[None]:
    """Inside, a picture that cannot be used (:class:`~tokengen.errors.ArtError`: missing,
    unreadable, refused, over a pixel limit) is named as every other input error is: at the
    file, line and field of ``catalogue`` (or its spreadsheet) that names it
    (:meth:`~tokengen.model.Catalogue.art_place`), the picture relative to the catalogue's folder:
    ``cat.yaml:9: tokens[0].art: art/huge.jpg: image of 10000 × 7000 pixels exceeds …``.

    Raises:
        CatalogueError: in place of each ArtError raised inside.
    """
    try:
        yield
    except ArtError as exc:
        file, line, field = catalogue.art_place(exc.path)
        picture = shown_in(exc.path, catalogue.path.parent) + ("" if exc.line is None else f":{exc.line}")
        raise CatalogueError(file, f"{picture}: {exc.reason}", line, field) from None


def shown_in(path: Path | str, folder: Path | None) -> str:
    """``path`` relative to ``folder`` (the catalogue's) when inside it (``art/knight.png``), else as is."""
    if folder is not None and Path(os.path.abspath(path)).is_relative_to(os.path.abspath(folder)):
        return os.path.relpath(path, folder)
    return str(path)


def resampled_warning(paths: list[Path], dpi: float, folder: Path | None = None) -> str:
    """``2 pictures resampled to 600 DPI (art/orc.png, art/elf.png); --keep-resolution keeps
    them``: the first two ``paths`` named relative to ``folder`` when inside it, ``…`` for more."""
    names = ", ".join([shown_in(p, folder) for p in paths[:2]] + (["…"] if len(paths) > 2 else []))
    one = len(paths) == 1
    return (f"{len(paths)} picture{'' if one else 's'} resampled to {dpi:.0f} DPI ({names}); "
            f"--keep-resolution keeps {'it' if one else 'them'}")


@dataclass(frozen=True)
class _Header:
    """What a picture's header says, read once (:func:`_header`) and used again when it is
    loaded, so a pass-through JPEG is never opened with Pillow a second time.

    Attributes:
        width, height: size in pixels as displayed (EXIF orientation applied).
        format: Pillow's format name (``PNG``, ``JPEG``, ``MPO``).
        mode: Pillow's mode as the file stores it (``L``, ``RGB``, ``CMYK``, ``P``, …).
        stored: (width, height) in pixels as stored (before orientation).
        orientation: the EXIF orientation (1: as stored).
        icc: the embedded ICC profile's bytes, or None.
    """

    width: int
    height: int
    format: str
    mode: str
    stored: tuple[int, int]
    orientation: int
    icc: bytes | None = field(repr=False)


def picture_size(path: Path | str) -> tuple[int, int]:
    """(width, height) in pixels, as displayed, of the PNG or JPEG at ``path``, read from its
    header after the checks that need no decoding (its type, its PNG chunks, Pillow's own
    decompression-bomb limit); the run's pixel limits are applied when it is loaded
    (:meth:`ArtLibrary.load`). For the aspect of an icon in boxed text.

    Raises:
        ArtError: one line naming the file: missing, not a regular file, not a readable PNG or
            JPEG, damaged chunks.
    """
    head = _header(Path(path), sys.maxsize)
    return head.width, head.height


def _header(path: Path, max_pixels: int) -> _Header:
    """What the header says, after the checks that need no decoding."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise ArtError(path, "art file not found") from None
    except OSError as exc:
        raise ArtError(path, f"cannot read art: {exc.strerror or exc}") from None
    if not stat.S_ISREG(info.st_mode):
        raise ArtError(path, "art is not a regular file")
    with _reading(path, max_pixels):
        exif = _check_png_chunks(path, info.st_size)  # before Pillow reads a chunk that claims gigabytes
        # by its name, not an open file: Pillow then imports the one plugin its extension names
        with Image.open(path) as im:
            if im.format not in FORMATS:
                raise ArtError(path, f"art must be PNG or JPEG, not {im.format}")
            _check_pixels(path, im.width, im.height, max_pixels)
            # a PNG's getexif decodes the whole picture to look for EXIF after the image data;
            # with none there (the chunk walk), the chunks read on opening are all it can find
            orientation = (im.getexif() if exif else Image.Image.getexif(im)).get(0x0112, 1)
            w, h = im.size
            shown = (h, w) if orientation in _SWAPPED else (w, h)
            return _Header(shown[0], shown[1], im.format, im.mode, (w, h), orientation, im.info.get("icc_profile"))


def _check_pixels(path: Path, width: int, height: int, max_pixels: int) -> None:
    pixels = width * height
    if pixels > max_pixels * _BOMB:
        raise ArtError(path, f"image of {width} × {height} pixels exceeds the limit of "
                          f"{max_pixels} pixels (possible decompression bomb)")
    if pixels > max_pixels:  # a big photo, not a bomb: say how to let it through
        raise ArtError(path, f"image of {width} × {height} pixels exceeds the limit of {max_pixels} pixels "
                          f"for one picture; --max-art-pixels {pixels * PICTURE_SHARE} lets it through (one picture "
                          "may hold a fifth of it), or save it smaller")


def _check_png_chunks(path: Path, size: int) -> bool:
    """For a PNG (by its signature; other files pass), walk the chunk headers (seeking, never
    reading data) and refuse lengths that run past the file, ancillary chunks over
    :data:`MAX_CHUNK`, or image data (``IDAT``) larger than the header's image can need (twice
    its raw size plus 1 MiB: zlib makes data at most a little larger).

    Returns:
        False for a PNG with no chunk after its image data that can hold an orientation
        (``eXIf``, or text: EXIF or XMP in ``tEXt``, ``zTXt``, ``iTXt``), so Pillow has every
        one once it has opened the file; True otherwise (another format too).
    """
    exif = pixels = False  # a chunk that may hold an orientation seen after the image data; image data seen
    with open(path, "rb") as f:
        if f.read(len(_PNG_SIGNATURE)) != _PNG_SIGNATURE:
            return True
        head = f.read(8 + 13)
        if len(head) < 21 or head[4:8] != b"IHDR":
            return True  # Pillow reports it as unreadable
        width, height = struct.unpack(">II", head[8:16])
        depth, colour_type = head[16], head[17]
        row = math.ceil(width * _PNG_CHANNELS.get(colour_type, 4) * max(depth, 1) / 8) + 1
        budget = 2 * row * height + (1 << 20)  # raw size (doubled: interlace passes, zlib overhead) + 1 MiB
        pos, data = len(_PNG_SIGNATURE), 0
        for _ in range(1_000_000):
            f.seek(pos)
            header = f.read(8)
            if len(header) < 8:
                return True  # no IEND: Pillow decides
            length, kind = struct.unpack(">I4s", header)
            exif = exif or (pixels and kind in (b"eXIf", b"tEXt", b"zTXt", b"iTXt"))
            pixels = pixels or kind == b"IDAT"
            if pos + 12 + length > size:
                raise ArtError(path, f"PNG chunk {kind.decode('latin-1')!r} claims {length} bytes, past the end of the file")
            if kind == b"IDAT":
                data += length
                if data > budget:
                    raise ArtError(path, f"PNG image data of more than {budget} bytes for a {width} × {height} image "
                                      "(a damaged or hostile file)")
            elif length > MAX_CHUNK:
                raise ArtError(path, f"PNG chunk {kind.decode('latin-1')!r} of {length} bytes, more than the limit of {MAX_CHUNK}")
            if kind == b"IEND":
                return exif
            pos += 12 + length
        raise ArtError(path, "PNG with more than 1000000 chunks")


class _reading:
    """Context: Pillow warnings become errors; Pillow's and the OS's exceptions become one-line
    :class:`RenderError` naming ``path``."""

    def __init__(self, path: Path, max_pixels: int):
        self.path, self.max_pixels = path, max_pixels

    def __enter__(self) -> None:
        self._warnings = warnings.catch_warnings()
        self._warnings.__enter__()
        warnings.simplefilter("error")

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> Literal[False]:
        self._warnings.__exit__(kind, exc, tb)
        path = self.path
        if exc is None or isinstance(exc, RenderError):
            return False
        if isinstance(exc, (Image.DecompressionBombWarning, Image.DecompressionBombError)):
            # Pillow checks the header size itself (above Image.MAX_IMAGE_PIXELS it warns, above
            # twice that it raises) before we see the size: report it in our own words.
            found = re.search(r"\((\d+) pixels\)", str(exc))
            pixels = int(found.group(1)) if found else 0
            limit = f"the limit of {self.max_pixels}" if pixels > self.max_pixels else f"Pillow's limit of {Image.MAX_IMAGE_PIXELS}"
            raise ArtError(path, f"image of {pixels} pixels exceeds {limit} pixels (possible decompression bomb)") from None
        if isinstance(exc, FileNotFoundError):
            raise ArtError(path, "art file not found") from None
        if isinstance(exc, UnidentifiedImageError):
            raise ArtError(path, "not a readable PNG or JPEG image") from None
        if isinstance(exc, Warning):
            raise ArtError(path, f"the image reads with a warning: {_one_line(exc)}") from None
        if isinstance(exc, (OSError, SyntaxError, ValueError, struct.error, IndexError, MemoryError)):  # truncated or corrupt
            raise ArtError(path, f"cannot decode image: {_one_line(exc)}") from None
        return False


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:200] or type(exc).__name__


class _Kept:
    """Pictures decoded and converted by earlier builds of this process, by (SHA-256 of the
    file, size embedded, colour under transparency, colour model and options): what
    :func:`keep_decoded` turns on for ``--watch`` and the page, so a rebuild decodes only the
    files that changed. Least recently used first out once ``limit`` bytes are held; 0 keeps none."""

    def __init__(self) -> None:
        self.limit = 0
        self.held = 0
        self.items: dict[tuple, tuple[ArtImage, int]] = {}
        self.lock = threading.Lock()  # the page renders in worker threads

    def get(self, key: tuple) -> ArtImage | None:
        with self.lock:
            found = self.items.pop(key, None)
            if found is None:
                return None
            self.items[key] = found  # most recently used last
            return found[0]

    def put(self, key: tuple, image: ArtImage) -> None:
        size = len(image.reader.data) if isinstance(image.reader, EmbeddedJpeg) else image.width * image.height * len(image.mode)
        with self.lock:
            if size > self.limit or key in self.items:
                return
            self.items[key] = (image, size)
            self.held += size
            self.trim()

    def trim(self) -> None:
        """Drop the least recently used until at most ``limit`` bytes are held (lock held)."""
        while self.items and self.held > self.limit:
            self.held -= self.items.pop(next(iter(self.items)))[1]


_KEPT = _Kept()


def keep_decoded(limit: int = 256 * 1024 * 1024) -> None:
    """Keep pictures decoded (resampled, converted) between builds of this process, up to
    ``limit`` bytes of their embedded data (default 256 MiB; 0: keep none, as a one-off build
    does, which holds one decoded picture at a time). A file is known again by its bytes'
    SHA-256, so an edited picture is decoded afresh. For ``--watch`` and the page."""
    with _KEPT.lock:
        _KEPT.limit = limit
        _KEPT.trim()


def _decoded(path: Path, head: _Header, colour: Converter, target: tuple[int, int] | None, background: Colour | None,
             max_pixels: int) -> ArtImage:
    """:func:`_decode`, or the picture an earlier build decoded from the same bytes (see
    :func:`keep_decoded`); a pass-through JPEG is never kept (nothing was decoded). The file is
    read and hashed once either way (its bytes and digest go on to :func:`_decode`)."""
    if _KEPT.limit <= 0:
        return _decode(path, head, colour, target, background, max_pixels)
    try:
        data = path.read_bytes()
    except OSError:
        return _decode(path, head, colour, target, background, max_pixels)  # says why, naming the file
    digest = hashlib.sha256(data).hexdigest()
    key = (digest, target, background, colour.model, colour.options)
    found = _KEPT.get(key)
    if found is None:
        found = _decode(path, head, colour, target, background, max_pixels, (data, digest))
        if found.passthrough:
            return found
        _KEPT.put(key, found)
    # a fresh reader each time: ReportLab keeps the pixels' bytes on the one it was given
    reader = ImageReader(found.pixels) if found.pixels is not None else found.reader
    return replace(found, path=path, reader=reader)


def _passes_through(head: _Header, colour: Converter, target: tuple[int, int] | None) -> bool:
    """Whether a JPEG with header ``head`` can be embedded as its own bytes (step 8): an RGB
    output, no resampling, no rotation, 8-bit grey or RGB, untagged or tagged sRGB."""
    return (colour.model == "rgb" and head.format == "JPEG" and target is None and head.orientation == 1
            and head.mode in ("L", "RGB") and (not head.icc or is_srgb(head.icc)))


def _decode(path: Path, head: _Header, colour: Converter, target: tuple[int, int] | None, background: Colour | None,
            max_pixels: int, read: tuple[bytes, str] | None = None) -> ArtImage:
    """The picture at ``path`` (header ``head``, read by :func:`_header`) ready to embed; ``read``:
    its bytes and their SHA-256 when the caller has them already."""
    if _passes_through(head, colour, target):
        with _reading(path, max_pixels):
            data, digest = read or (path.read_bytes(), None)
        if _whole_jpeg(data, *head.stored, head.mode):  # as the header said: never opened with Pillow again
            return ArtImage(path, *head.stored, head.mode, EmbeddedJpeg(data, digest), True, (head.width, head.height))
    with _reading(path, max_pixels):
        loaded = _load(path, colour, target)
    if isinstance(loaded, ArtImage):
        return loaded
    return _converted(path, loaded, colour, target, background)


@dataclass(frozen=True)
class _Loaded:
    """A picture decoded by :func:`_load`: its 8-bit ``pixels`` as stored, its EXIF
    ``orientation``, its size in pixels as ``displayed``, its ICC profile, and whether it was a
    JPEG (lossy already, so re-encoded as one)."""

    pixels: Image.Image
    orientation: int
    displayed: tuple[int, int]
    icc: bytes | None
    jpeg: bool


def _stored(target: tuple[int, int], swapped: bool) -> tuple[int, int]:
    """The pixel size ``target`` (as displayed) as the file stores it (turned when ``swapped``)."""
    return (target[1], target[0]) if swapped else target


def _load(path: Path, colour: Converter, target: tuple[int, int] | None) -> ArtImage | _Loaded:
    """Open and decode the picture at ``path``: a JPEG that passes through after all (its bytes
    were not whole, or changed since the header was read) as its :class:`ArtImage`, else its pixels."""
    with Image.open(path) as im:
        orientation = im.getexif().get(0x0112, 1)
        swapped = orientation in _SWAPPED
        displayed = (im.height, im.width) if swapped else im.size
        icc = im.info.get("icc_profile")
        if _passes_through(_Header(*displayed, im.format or "", im.mode, im.size, orientation, icc), colour, target):
            return _reopened_jpeg(path, im, displayed)
        jpeg = im.format in ("JPEG", "MPO")  # an MPO: its first frame (Pillow opens it there), re-encoded
        if jpeg and target is not None:  # decode at 1/2, 1/4 or 1/8 when that still covers the target
            im.draft(None, _stored(target, swapped))
        im.load()
        return _Loaded(_eight_bit(im), orientation, displayed, icc, jpeg)


def _reopened_jpeg(path: Path, im: Image.Image, displayed: tuple[int, int]) -> ArtImage:
    """The JPEG ``im`` (open) embedded as its own bytes, decoded fully first when they are not a
    whole JPEG, so a truncated or odd one is refused here, not in a viewer."""
    data = path.read_bytes()  # not whole (or changed since its header was read)
    if not _whole_jpeg(data, im.width, im.height, im.mode):
        im.load()
    return ArtImage(path, im.width, im.height, im.mode, EmbeddedJpeg(data), True, displayed)


def _oriented(loaded: _Loaded, target: tuple[int, int] | None) -> Image.Image:
    """The pixels of ``loaded`` resampled to ``target`` (as displayed), turned upright by their
    EXIF orientation, tagged with their ICC profile."""
    pixels = loaded.pixels
    if target is not None:
        stored = _stored(target, loaded.orientation in _SWAPPED)
        if pixels.size != stored:
            # reducing_gap: whole-factor box reduction first while the image is over 3× the
            # target (Pillow documents the result as indistinguishable from plain Lanczos), ~5× faster
            pixels = pixels.resize(stored, Image.Resampling.LANCZOS, reducing_gap=3.0)
    if loaded.orientation != 1:
        from PIL import ImageOps  # only for a rotated picture (and its palette modules with it)

        pixels = ImageOps.exif_transpose(pixels)
    if loaded.icc:
        pixels.info["icc_profile"] = loaded.icc
    return pixels


def _converted(path: Path, loaded: _Loaded, colour: Converter, target: tuple[int, int] | None,
               background: Colour | None) -> ArtImage:
    """``loaded`` sized, upright and in the output's colours, encoded as JPEG (DCT) when it was
    one (lossy already) and that holds the ink limit, else as pixels for Flate."""
    converted = _colour(_oriented(loaded, target), colour, background)
    encoded = _jpeg(converted, colour) if loaded.jpeg else None
    if encoded is not None:
        return ArtImage(path, converted.width, converted.height, converted.mode, EmbeddedJpeg(encoded), False, loaded.displayed)
    return ArtImage(path, converted.width, converted.height, converted.mode, ImageReader(converted), False, loaded.displayed,
                    converted)


#: Ink headroom (percent below the limit) tried in turn when a CMYK JPEG decodes over the ink limit.
JPEG_HEADROOM = (1.0, 2.0, 4.0, 8.0)


def _jpeg(converted: Image.Image, colour: Converter) -> bytes | None:
    """``converted`` encoded as JPEG (quality 95, no chroma subsampling); None when it must be
    stored losslessly (Flate) instead.

    DCT is lossy: a CMYK picture ink-limited to exactly the limit can decode a few units over it
    (a saturated, detailed photo at 240 %: 247 %). So a CMYK JPEG is decoded again (Pillow, as
    the preflight reads it) and measured (:func:`tokengen.colour.ink_within`); when over, it is
    encoded again from the picture ink-limited :data:`JPEG_HEADROOM` percent lower, and measured
    again; when none measures within, None (Flate keeps every pixel as limited). A picture that
    measures within at once is encoded exactly as before."""
    limit = colour.options.ink_limit
    for headroom in (0.0, *JPEG_HEADROOM):
        picture = converted if not headroom else limit_image_ink(converted, limit - headroom)
        buffer = io.BytesIO()
        picture.save(buffer, "JPEG", quality=95, subsampling=0)
        data = buffer.getvalue()
        if converted.mode != "CMYK":
            return data
        with Image.open(io.BytesIO(data)) as back:
            if ink_within(back, limit):
                return data
    return None


def _whole_jpeg(data: bytes, width: int, height: int, mode: str) -> bool:
    """Whether ``data`` is a JPEG whose bytes can be embedded as they are without decoding them:
    it ends with its end-of-image marker (so it is not truncated) and ReportLab reads the same
    size and channels from its frame header as Pillow did (``width`` × ``height``, ``mode``).
    When False the caller decodes the file, which refuses it or proves it whole."""
    if not data.endswith(b"\xff\xd9"):
        return False
    try:
        found = readJPEGInfo(io.BytesIO(data))
    except Exception:  # ReportLab raises PDFError, struct.error, IndexError, ... on odd headers
        return False
    return found is not None and tuple(found[:3]) == (width, height, 1 if mode == "L" else 3)


class EmbeddedJpeg:
    """JPEG bytes embedded as they are (DCT), in place of an :class:`ImageReader` in
    ``canvas.drawImage``: ReportLab names an image given so by its ``str`` (here the bytes'
    SHA-256) instead of an md5 of its decoded pixels, and reads the stream from ``jpeg_fh``
    (its ``loadImageFromJPEG``: the frame header only, no decoding).

    Args:
        data: the JPEG file's bytes.
        digest: their SHA-256 (hex) when the caller has hashed them already; None: hashed here.
    Attributes:
        data: the JPEG file's bytes.
        digest: their SHA-256, hex.
    """

    def __init__(self, data: bytes, digest: str | None = None):
        self.data = data
        self.digest = digest or hashlib.sha256(data).hexdigest()

    def jpeg_fh(self) -> io.BytesIO:
        """The bytes as a file ReportLab reads the frame header and stream from."""
        return io.BytesIO(self.data)

    def __str__(self) -> str:
        return f"jpeg-sha256-{self.digest}"


def _eight_bit(im: Image.Image) -> Image.Image:
    """``im`` in one of L, LA, RGB, RGBA, CMYK (8 bits per channel), as a viewer shows it."""
    mode = im.mode
    if mode in ("1", "L", "RGB") and "transparency" in im.info:  # a tRNS colour key: transparent where it matches
        return im.convert("RGBA" if mode == "RGB" else "LA")
    if mode in ("L", "LA", "RGB", "RGBA", "CMYK"):
        return im
    if mode == "1":
        return im.convert("L")
    if mode.startswith("I"):  # 16-bit grey (I;16, I;16B, I): 0..65535 → 0..255
        grey = im.convert("I")
        scaled = grey.point(lambda v: v / 257).convert("L")  # scale first: convert alone clips at 255
        key = im.info.get("transparency")
        if isinstance(key, int):  # a 16-bit tRNS grey key: transparent where the grey equals it
            alpha = ImageMath.lambda_eval(lambda a: a["notequal"](a["g"], key) * 255, g=grey).convert("L")
            scaled.putalpha(alpha)
        return scaled
    if mode in ("P", "PA"):
        transparent = mode == "PA" or "transparency" in im.info
        return im.convert("RGBA" if transparent else "RGB")
    if mode in ("RGBa", "La"):
        return im.convert(mode[:-1] + "A")
    return im.convert("RGB")  # YCbCr, RGBX, LAB, HSV, …


def _colour(im: Image.Image, colour: Converter, background: Colour | None) -> Image.Image:
    """Convert ``im`` (8-bit, maybe with alpha, maybe ICC-tagged) for ``colour``'s output."""
    alpha = im.getchannel("A") if im.mode in ("LA", "RGBA") else None
    if alpha is not None and alpha.getextrema()[0] == 255:  # fully opaque: no mask needed
        alpha = None
    base = im.convert(im.mode[:-1]) if im.mode in ("LA", "RGBA") else im
    if "icc_profile" in im.info:
        base.info["icc_profile"] = im.info["icc_profile"]
    if colour.model == "rgb":
        out = colour.image_to_srgb(base)
        if alpha is not None:
            out = out.copy()
            out.putalpha(alpha)
        return out
    out = colour.image_to_cmyk(base)
    if alpha is not None:
        under = colour.paint(background, area=True) if background is not None else (0.0, 0.0, 0.0, 0.0)
        plate = Image.new("CMYK", out.size, tuple(round(v * 255) for v in under))
        out = Image.composite(out, plate, alpha)
    out.info.pop("icc_profile", None)
    return out
