"""Token art: PNG/JPEG images loaded once, checked for size and resolution, fitted without distortion.

Lengths are in pt (1 in = 72 pt); image sizes in pixels; resolution in DPI (pixels per inch
at the printed size). The catalogue loader has already resolved every art path to an absolute
file inside the catalogue's folder (:func:`tokengen.catalogue.resolve_art`); this module reads
the pixels (with Pillow), and :mod:`tokengen.render` draws them.

* Each file is decoded and converted **once** per :class:`ArtLibrary` (one per build): to RGB
  (RGBA when it has transparency) for an ``rgb`` build, to CMYK for a ``cmyk`` one.
* Images larger than ``max_pixels`` are refused before decoding (a decompression bomb: a small
  file that expands into gigabytes). Pillow's own ``DecompressionBombWarning`` is turned into
  the same :class:`~tokengen.errors.RenderError`.
* :func:`fit` places an image inside a box keeping its aspect ratio (``contain``: inside the safe
  area) or covering it (``cover``: the whole bleed box, cropped by a clip).
* :func:`effective_dpi` gives the resolution at the printed size; below :data:`MIN_DPI` the
  library records a warning naming the file and its DPI (print shops ask for 300 DPI).
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image, UnidentifiedImageError
from reportlab.lib.utils import ImageReader

from .errors import RenderError
from .imposition import Rect

#: Resolution (DPI) below which art is reported: the usual print-shop minimum.
MIN_DPI = 300.0
#: Largest image accepted, in pixels (width × height): 50 megapixels is a 7000 × 7000 image,
#: enough for a 23 in token at 300 DPI. Anything larger is treated as a decompression bomb.
MAX_PIXELS = 50_000_000
#: Formats accepted (Pillow format names).
FORMATS = ("PNG", "JPEG")


@dataclass(frozen=True)
class ArtImage:
    """A decoded, converted image ready to embed.

    Attributes:
        path: the source file (absolute).
        width, height: size in pixels.
        mode: Pillow mode after conversion (``RGB``, ``RGBA`` or ``CMYK``).
        reader: the ReportLab :class:`ImageReader` wrapping the converted pixels.
    """

    path: Path
    width: int
    height: int
    mode: str
    reader: ImageReader = field(compare=False, repr=False)

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
    """Loads each art file once and remembers low-resolution warnings.

    Args:
        colour_model: ``"rgb"`` or ``"cmyk"``: what every image is converted to.
        max_pixels: refuse images with more pixels than this (decompression bombs).
        min_dpi: warn about art printed below this resolution.
    """

    def __init__(self, colour_model: str = "rgb", *, max_pixels: int = MAX_PIXELS, min_dpi: float = MIN_DPI):
        self.colour_model = colour_model
        self.max_pixels = max_pixels
        self.min_dpi = min_dpi
        self._images: dict[Path, ArtImage] = {}
        self._warnings: dict[Path, float] = {}

    def load(self, path: Path) -> ArtImage:
        """The image at ``path``, decoded and converted the first time it is asked for.

        Raises:
            RenderError: the file is missing or not a PNG/JPEG, is larger than ``max_pixels``
                (or Pillow flags it as a decompression bomb), or cannot be decoded. The message
                is one line naming the file.
        """
        path = Path(path)
        cached = self._images.get(path)
        if cached is None:
            cached = self._images[path] = _decode(path, self.colour_model, self.max_pixels)
        return cached

    def check_resolution(self, image: ArtImage, drawn: Rect) -> float:
        """Effective DPI of ``image`` drawn at ``drawn`` (pt); records a warning below ``min_dpi``."""
        dpi = effective_dpi((image.width, image.height), drawn)
        if dpi + 1e-6 < self.min_dpi:
            self._warnings[image.path] = min(dpi, self._warnings.get(image.path, dpi))
        return dpi

    @property
    def warnings(self) -> list[str]:
        """One message per low-resolution file, e.g. ``art/knight.png: 150 DPI at its printed
        size, below 300 DPI; it may print blurred``."""
        return [
            f"{path}: {dpi:.0f} DPI at its printed size, below {self.min_dpi:.0f} DPI; it may print blurred"
            for path, dpi in self._warnings.items()
        ]


def _decode(path: Path, colour_model: str, max_pixels: int) -> ArtImage:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(path) as im:
                if im.format not in FORMATS:
                    raise RenderError(f"{path}: art must be PNG or JPEG, not {im.format}")
                pixels = im.width * im.height
                if pixels > max_pixels:
                    raise RenderError(
                        f"{path}: image of {im.width} × {im.height} pixels exceeds the limit of "
                        f"{max_pixels} pixels (possible decompression bomb)")
                im.load()
                converted = _convert(im, colour_model)
    except (Image.DecompressionBombWarning, Image.DecompressionBombError) as exc:
        # Pillow checks the header size itself (above Image.MAX_IMAGE_PIXELS it warns, above
        # twice that it raises) before we see the size: report it in our own words.
        found = re.search(r"\((\d+) pixels\)", str(exc))
        pixels = int(found.group(1)) if found else 0
        limit = f"the limit of {max_pixels}" if pixels > max_pixels else f"Pillow's limit of {Image.MAX_IMAGE_PIXELS}"
        raise RenderError(f"{path}: image of {pixels} pixels exceeds {limit} pixels (possible decompression bomb)") from None
    except FileNotFoundError:
        raise RenderError(f"{path}: art file not found") from None
    except UnidentifiedImageError:
        raise RenderError(f"{path}: not a readable PNG or JPEG image") from None
    except (OSError, SyntaxError, ValueError) as exc:  # truncated or corrupt data
        raise RenderError(f"{path}: cannot decode image: {exc}") from None
    return ArtImage(path, converted.width, converted.height, converted.mode, ImageReader(converted))


def _convert(im: Image.Image, colour_model: str) -> Image.Image:
    """Convert once: CMYK for a CMYK build (transparency flattened on white), else RGB/RGBA."""
    has_alpha = im.mode in ("RGBA", "LA", "PA") or (im.mode == "P" and "transparency" in im.info)
    if colour_model == "cmyk":
        if has_alpha:
            rgba = im.convert("RGBA")
            flat = Image.new("RGB", rgba.size, (255, 255, 255))
            flat.paste(rgba, mask=rgba.getchannel("A"))
            return flat.convert("CMYK")
        return im if im.mode == "CMYK" else im.convert("RGB").convert("CMYK")
    if has_alpha:
        return im.convert("RGBA")
    return im.convert("RGB")
