"""Colour: the one place that knows RGB, CMYK, ICC output profiles, rendering intents and ink limits.

Every colour the PDF carries goes through a :class:`Converter` built for one output:

* ``rgb`` outputs (``tokengen build``, PNG exports): everything is sRGB. Catalogue hex colours are
  sRGB already; catalogue CMYK colours and art tagged with any other ICC profile (Adobe RGB,
  ProPhoto, a CMYK press profile) are converted to sRGB by LittleCMS (Pillow's ``ImageCms``).
* ``cmyk`` outputs (print-shop profiles): sRGB (or the art's own profile) → the output profile's
  CMYK with a stated rendering intent, relative colorimetric with black-point compensation by
  default (the usual prepress choice; ``perceptual`` is selectable). The default output profile
  is :data:`DEFAULT_ICC`, built for the FOGRA39 condition (offset, coated paper, ISO 12647-2) with
  black generation on the K plate and a 300 % total ink limit (see ``data/icc/README.md``);
  through it sRGB black is C77 M65 Y50 K98 and 50 % grey C16 M14 Y14 K55 (not C100 M100 Y100 K0
  and C50 M50 Y50 K0 as the naive formula gives). A print profile's ``icc:`` key names another
  (a shop's own) profile.
* ``formula`` (``colour: formula`` in a profile): CMYK by the device formula with full
  grey-component replacement, k = 1 − max(r, g, b), c = (1 − r − k)/(1 − k), …
  (:func:`tokengen.model.formula_cmyk`, the one rule for colours and art; art through
  :func:`formula_image`), as tokengen did before ICC profiles: every grey and black, in
  colours and art alike, prints on the K plate alone (black C0 M0 Y0 K100, 50 % grey K50).
  Pillow's own ``convert("CMYK")`` is not used: it puts black on C, M and Y (C100 M100 Y100 K0).

Two rules every prepress tool applies, applied here to every fill, stroke and image pixel:

* pure black (``#000000``) text and lines are 100 % K only (:meth:`Converter.paint` with
  ``area=False``): four-colour small text never registers; large black areas stay rich black;
  registration (C100 M100 Y100 K100) lines stay on every plate: crop marks lie outside the trim;
* the total ink C+M+Y+K never exceeds the ink limit (``ink_limit``, percent, default 300): a
  colour above it keeps its K and scales C, M and Y down until the sum equals the limit.
"""

from __future__ import annotations

import io
import operator
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import RenderError
from .model import Colour, formula_cmyk

if TYPE_CHECKING:  # Pillow is imported where pixels or profiles are used: a preflight needs neither
    from PIL import Image, ImageCms

#: The bundled CMYK output profile (FOGRA39 condition, TAC 300 %, black on K).
DEFAULT_ICC_NAME = "tokengen-fogra39.icc"
#: PDF/X output-intent fields for the bundled profile: the characterized condition it stands for.
DEFAULT_CONDITION = "FOGRA39"
DEFAULT_CONDITION_INFO = "Offset printing on coated paper (ISO 12647-2), characterization data FOGRA39"
#: The ICC's registry of characterization data (PDF/X ``RegistryName``).
REGISTRY = "http://www.color.org"
#: The bundled output profiles in ``tokengen/data/icc`` by file name: the registered condition each
#: stands for (``OutputConditionIdentifier`` as the ICC registry names it, and a line for ``Info``).
#: Each is made by ``tools/make-icc-profile.sh`` from Debian ``icc-profiles-free`` data (README there).
BUNDLED_CONDITIONS = {
    DEFAULT_ICC_NAME: (DEFAULT_CONDITION, DEFAULT_CONDITION_INFO),
    "tokengen-tr006.icc": ("CGATS TR 006", "Offset lithographic printing on grade 1 coated paper (GRACoL, US), "
                                           "characterization data CGATS TR 006"),
}
#: Rendering intents by the name a profile gives (``rendering_intent:``), as LittleCMS numbers them
#: (the values of Pillow's ``ImageCms.Intent``: PERCEPTUAL 0, RELATIVE_COLORIMETRIC 1, SATURATION 2,
#: ABSOLUTE_COLORIMETRIC 3; plain numbers, so reading a profile does not import Pillow).
INTENTS = {
    "relative": 1,
    "perceptual": 0,
    "saturation": 2,
    "absolute": 3,
}
#: Default total ink limit, percent (C+M+Y+K): the usual sheet-fed coated limit (FOGRA39: 300–330 %).
INK_LIMIT = 300.0
#: Accepted ink limits, percent.
INK_LIMIT_RANGE = (100.0, 400.0)


def default_icc_path() -> Path:
    """The bundled output profile (``tokengen/data/icc/tokengen-fogra39.icc``)."""
    return Path(str(resources.files("tokengen").joinpath(f"data/icc/{DEFAULT_ICC_NAME}")))


@dataclass(frozen=True)
class OutputProfile:
    """The CMYK output profile of a print profile, with what a PDF/X output intent names.

    Attributes:
        path: the ICC file.
        description: the profile's own description (``desc`` tag).
        condition: the ``OutputConditionIdentifier``: ``"FOGRA39"`` for the default profile,
            ``"CGATS TR 006"`` for the bundled US one (:data:`BUNDLED_CONDITIONS`), ``"Custom"`` for a user's own (with ``info`` saying what it is).
        info: one line for the output intent's ``Info`` (and the PDF Subject).
        registry: ``http://www.color.org`` (the ICC characterization registry).
    """

    path: Path
    description: str
    condition: str
    info: str
    registry: str = REGISTRY

    @property
    def data(self) -> bytes:
        """The ICC profile's bytes (to embed as ``DestOutputProfile``)."""
        return self.path.read_bytes()


def output_profile(icc: str | Path | None = None) -> OutputProfile:
    """The CMYK output profile at ``icc`` (a print profile's ``icc:`` key), or the bundled default.

    A bundled profile (a file of ``tokengen/data/icc`` named in :data:`BUNDLED_CONDITIONS`) names
    its registered condition; any other file is a ``"Custom"`` condition described by its ``desc`` tag.

    Pass ``profile.icc`` of a :class:`tokengen.sources.profiles.Profile` (None: the default).

    Raises:
        RenderError: ``icc`` cannot be read, is not an ICC profile, or is not a CMYK output
            profile (one line naming the file).
    """
    if icc is None:
        path = default_icc_path()
        return OutputProfile(path, _profile(str(path))[1], DEFAULT_CONDITION, DEFAULT_CONDITION_INFO)
    path = Path(icc)
    description = _profile(str(path))[1]
    bundled = BUNDLED_CONDITIONS.get(path.name) if path.resolve().parent == default_icc_path().parent.resolve() else None
    if bundled is not None:
        return OutputProfile(path, description, bundled[0], bundled[1])
    return OutputProfile(path, description, "Custom", description)


def icc_version(icc: str | Path) -> float:
    """The ICC version of the CMYK output profile at ``icc`` (from its header: ``2.2``, ``4.3``).

    Raises:
        RenderError: as :func:`output_profile`.
    """
    return float(_profile(str(Path(icc)))[0].profile.version)


@lru_cache(maxsize=16)
def _profile(path: str) -> tuple[ImageCms.ImageCmsProfile, str]:
    """(profile, description) of the ICC file at ``path``, checked to be a CMYK output profile."""
    from PIL import ImageCms

    try:
        profile = ImageCms.getOpenProfile(path)
    except (OSError, ImageCms.PyCMSError) as exc:
        reason = getattr(exc, "strerror", None) or "not a readable ICC profile"
        raise RenderError(f"{path}: cannot use as the CMYK output profile: {reason}") from None
    space = profile.profile.xcolor_space.strip()
    if space != "CMYK":
        raise RenderError(f"{path}: the output profile must be a CMYK profile, not {space}")
    return profile, ImageCms.getProfileDescription(profile).strip() or Path(path).name


@lru_cache(maxsize=1)
def _srgb() -> Any:
    """LittleCMS's built-in sRGB profile (``ImageCms.createProfile("sRGB")``, made once)."""
    from PIL import ImageCms

    return ImageCms.createProfile("sRGB")


@lru_cache(maxsize=64)
def _transform(source: bytes | None, source_mode: str, target: str | None, target_mode: str,
               intent: int) -> ImageCms.ImageCmsTransform:
    """A cached LittleCMS transform: ``source`` ICC bytes (None: sRGB) → ``target`` ICC path
    (None: sRGB), with black-point compensation; ``intent`` a value of :data:`INTENTS`."""
    from PIL import ImageCms

    src = ImageCms.ImageCmsProfile(io.BytesIO(source)) if source else _srgb()
    dst = _profile(target)[0] if target else _srgb()
    return ImageCms.buildTransform(src, dst, source_mode, target_mode, renderingIntent=ImageCms.Intent(intent),
                                   flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)


@dataclass(frozen=True)
class ColourOptions:
    """How a print profile asks for CMYK (ignored for RGB outputs except ``icc``/``intent``, used
    to show catalogue CMYK colours and CMYK art in sRGB).

    Attributes:
        conversion: ``"icc"`` (LittleCMS through the output profile) or ``"formula"``.
        icc: the CMYK output profile file; None: the bundled :data:`DEFAULT_ICC_NAME`.
        intent: a key of :data:`INTENTS`.
        ink_limit: total ink limit, percent (100–400).
    """

    conversion: str = "icc"
    icc: Path | None = None
    intent: str = "relative"
    ink_limit: float = INK_LIMIT


@dataclass
class Converter:
    """Converts catalogue colours and art for one output. Results are cached per colour.

    Args:
        model: ``"rgb"`` or ``"cmyk"``.
        options: see :class:`ColourOptions`.
    Raises:
        RenderError: the output profile cannot be used (see :func:`output_profile`).
    """

    model: str = "rgb"
    options: ColourOptions = field(default_factory=ColourOptions)

    def __post_init__(self) -> None:
        # an RGB output reads the CMYK profile only for a CMYK colour or picture (:attr:`profile`):
        # a plain sheet's start-up skips LittleCMS and the ICC file (issue 39)
        self._profile = output_profile(self.options.icc) if self.model == "cmyk" else None
        self.intent = INTENTS[self.options.intent]
        self._cache: dict[tuple[Colour, bool], tuple[float, ...]] = {}

    @property
    def profile(self) -> OutputProfile:
        """The CMYK output profile (:func:`output_profile` of ``options.icc``), read when first
        needed by an RGB output.

        Raises:
            RenderError: the output profile cannot be used.
        """
        if self._profile is None:
            self._profile = output_profile(self.options.icc)
        return self._profile

    @property
    def formula(self) -> bool:
        """True when CMYK comes from the naive formula rather than the ICC profile."""
        return self.options.conversion == "formula"

    def describe(self) -> str:
        """One line for the PDF metadata: what the colours were converted for."""
        if self.model == "rgb":
            return "colour: sRGB"
        if self.formula:
            return f"colour: CMYK by the naive formula (no ICC profile), ink limit {self.options.ink_limit:g} %"
        return (f"colour: CMYK for output profile {self.profile.description} ({self.profile.condition}), "
                f"{self.options.intent} intent with black-point compensation, ink limit {self.options.ink_limit:g} %")

    def paint(self, colour: Colour, *, area: bool = False) -> tuple[float, ...]:
        """``colour`` in this output's model: (r, g, b) or (c, m, y, k), each 0..1.

        Args:
            colour: a catalogue colour.
            area: True for large fills (backgrounds, plates): pure black stays rich black there;
                False for text and lines, where pure ``#000000`` becomes 100 % K only.
        """
        key = (colour, area)
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = self._paint(colour, area)
        return found

    def _paint(self, colour: Colour, area: bool) -> tuple[float, ...]:
        from PIL import Image

        if self.model == "rgb":
            if colour.space == "rgb":
                return colour.to_rgb()
            if self.formula:
                return colour.to_rgb()
            pixel = Image.new("CMYK", (1, 1), tuple(round(v * 255) for v in colour.values))
            out = _apply(pixel, _transform(self.profile.data, "CMYK", None, "RGB", self.intent))
            return _first_pixel(out)
        if colour.space == "cmyk":
            if colour.values == (1.0, 1.0, 1.0, 1.0) and not area:
                return (1.0, 1.0, 1.0, 1.0)  # registration: crop marks on every plate, outside the trim
            return limit_ink(colour.values, self.options.ink_limit)
        if colour.values == (0.0, 0.0, 0.0) and not area:
            return (0.0, 0.0, 0.0, 1.0)
        if self.formula:
            return limit_ink(colour.to_cmyk(), self.options.ink_limit)
        pixel = Image.new("RGB", (1, 1), tuple(round(v * 255) for v in colour.values))
        out = self.image_to_cmyk(pixel)
        return _first_pixel(out)

    # -- images ------------------------------------------------------------------------------
    def image_to_srgb(self, im: Image.Image) -> Image.Image:
        """``im`` (mode ``L``, ``RGB`` or ``CMYK``, optionally tagged with ``info["icc_profile"]``)
        in sRGB: mode ``L`` or ``RGB``. Untagged (or sRGB-tagged) L/RGB is sRGB already (returned
        as is); untagged CMYK converts by Pillow's formula (what viewers without a CMYK profile
        show); anything tagged otherwise goes through LittleCMS to sRGB RGB. A profile that does
        not fit the pixels' colour space is ignored (the pixels are taken as sRGB)."""
        from PIL import ImageCms

        icc = im.info.get("icc_profile")
        if im.mode == "CMYK" and not icc:
            return im.convert("RGB")
        if not icc or is_srgb(icc):
            return im
        try:  # a grey profile (L pixels) also goes to sRGB RGB: sRGB has no grey form
            transform = _transform(icc, im.mode, None, "RGB", self.intent)
        except (OSError, ImageCms.PyCMSError):  # a profile for another colour space than the pixels
            return im if im.mode != "CMYK" else im.convert("RGB")
        return _apply(im, transform)

    def image_to_cmyk(self, im: Image.Image) -> Image.Image:
        """``im`` (``L``, ``RGB`` or ``CMYK``, optionally ICC-tagged) as CMYK for this output's
        profile, with the ink limit applied. Untagged CMYK is taken as already meant for the
        press (kept, only ink-limited)."""
        from PIL import ImageCms

        icc = im.info.get("icc_profile")
        if self.formula:
            out = im if im.mode == "CMYK" else formula_image(im)
        elif im.mode == "CMYK" and not icc:
            out = im
        else:
            if im.mode == "L" and (not icc or _space(icc) != "GRAY"):
                im, icc = im.convert("RGB"), None
            try:
                transform = _transform(icc or None, im.mode, str(self.profile.path), "CMYK", self.intent)
            except (OSError, ImageCms.PyCMSError):  # unusable embedded profile: take it as sRGB
                transform = _transform(None, "RGB", str(self.profile.path), "CMYK", self.intent)
                im = im.convert("RGB")
            out = _apply(im, transform)
        return limit_image_ink(out, self.options.ink_limit)


def formula_image(im: Image.Image) -> Image.Image:
    """``im`` (any mode Pillow turns into RGB: ``L``, ``RGB``, ``P``…) as a CMYK image of the same
    size by :func:`tokengen.model.formula_cmyk`, every pixel at once (ImageMath on float bands,
    no Python loop), each channel rounded to 8 bits: black (0, 0, 0) → (0, 0, 0, 255), grey
    (128, 128, 128) → (0, 0, 0, 127), red (255, 0, 0) → (0, 255, 255, 0)."""
    from PIL import Image, ImageMath

    r, g, b = (band.convert("F") for band in im.convert("RGB").split())

    def channel(index: int) -> Image.Image:
        return ImageMath.lambda_eval(
            lambda a: a["convert"](formula_cmyk(a["r"] / 255, a["g"] / 255, a["b"] / 255, a["max"], operator.truediv)[index] * 255 + 0.5, "L"),
            r=r, g=g, b=b)

    return Image.merge("CMYK", [channel(i) for i in range(4)])


def _apply(im: Image.Image, transform: ImageCms.ImageCmsTransform) -> Image.Image:
    """``ImageCms.applyTransform`` without tagging the result: Pillow tags it with the output
    profile's bytes, which LittleCMS cannot re-serialise for some valid profiles (Ghostscript's
    ``ps_cmyk.icc``: "Could not determine profile size"); we never need that tag."""
    from PIL import Image, ImageCms

    try:
        out = ImageCms.applyTransform(im, transform)
    except OSError:
        out = Image.new(transform.output_mode, im.size)
        im.load()
        transform.transform.apply(im.getim(), out.getim())
    assert out is not None  # applyTransform returns None only when asked to work in place
    out.info.pop("icc_profile", None)
    return out


def _first_pixel(im: Image.Image) -> tuple[float, ...]:
    """The bands of ``im``'s top-left pixel, 0–1 (``im`` has several bands: RGB, CMYK)."""
    pixel = im.getpixel((0, 0))
    assert isinstance(pixel, tuple), im.mode  # a one-band image would give a number
    return tuple(v / 255 for v in pixel)


def is_srgb(icc: bytes) -> bool:
    """True when the ICC profile ``icc`` (bytes) describes itself as sRGB (or cannot be read)."""
    from PIL import ImageCms

    try:
        description = ImageCms.getProfileDescription(ImageCms.ImageCmsProfile(io.BytesIO(icc)))
    except (OSError, ImageCms.PyCMSError):
        return True  # unreadable: treat as untagged (sRGB)
    return "srgb" in description.lower().replace(" ", "")


def _space(icc: bytes) -> str:
    from PIL import ImageCms

    try:
        return ImageCms.ImageCmsProfile(io.BytesIO(icc)).profile.xcolor_space.strip()
    except (OSError, ImageCms.PyCMSError):
        return ""


def limit_ink(cmyk: tuple[float, ...], limit: float) -> tuple[float, float, float, float]:
    """``cmyk`` (0..1 each) with total ink at most ``limit`` percent: K kept, C, M, Y scaled
    down by one factor. ``(1, 1, 1, 1)`` at 300 % → C0.667 M0.667 Y0.667 K1."""
    c, m, y, k = cmyk
    total = (c + m + y + k) * 100
    if total <= limit + 1e-9 or c + m + y == 0:
        return (c, m, y, k)
    scale = max(0.0, limit / 100 - k) / (c + m + y)
    return (c * scale, m * scale, y * scale, k)


def limit_image_ink(im: Image.Image, limit: float) -> Image.Image:
    """A CMYK image with every pixel's total ink at most ``limit`` percent (as :func:`limit_ink`,
    rounded down so no pixel ends above it). Returns ``im`` itself when no pixel is over."""
    from PIL import Image, ImageMath

    cap = limit / 100 * 255
    c, m, y, k = im.split()
    total = ImageMath.lambda_eval(lambda a: a["c"] + a["m"] + a["y"] + a["k"], c=c, m=m, y=y, k=k)
    if total.getextrema()[1] <= cap:
        return im

    def channel(band: Image.Image) -> Image.Image:
        return ImageMath.lambda_eval(
            lambda a: a["convert"](a["int"](a["v"] * a["min"]((cap - a["k"]) / a["max"](a["c"] + a["m"] + a["y"], 1.0), 1.0)), "L"),
            v=band.convert("F"), c=c.convert("F"), m=m.convert("F"), y=y.convert("F"), k=k.convert("F"))

    out = Image.merge("CMYK", (channel(c), channel(m), channel(y), k))
    out.info = dict(im.info)
    return out


def ink_within(im: Image.Image, limit: float) -> bool:
    """Whether every pixel of the CMYK image ``im`` has total ink at most ``limit`` percent, in
    8-bit units (C+M+Y+K summed as integers, at most ``limit`` / 100 × 255): the test
    :func:`limit_image_ink` meets, and the preflight's ``ink`` check reads (it sums the same bands)."""
    from PIL import ImageMath

    c, m, y, k = (band.convert("I") for band in im.split())
    total = ImageMath.lambda_eval(lambda a: a["c"] + a["m"] + a["y"] + a["k"], c=c, m=m, y=y, k=k)
    return bool(total.getextrema()[1] <= limit / 100 * 255 + 1e-9)


def ink_coverage(im: Image.Image) -> float:
    """Highest total ink (percent) of any pixel of a CMYK image."""
    from PIL import ImageMath

    c, m, y, k = im.split()
    total = ImageMath.lambda_eval(lambda a: a["c"] + a["m"] + a["y"] + a["k"], c=c, m=m, y=y, k=k)
    return total.getextrema()[1] / 255 * 100
