"""Preflight: read any PDF and say, check by check, why a print shop would reject it.

Checks (each one :class:`Check`, in this order):

``pages``       at least one page, at most :data:`MAX_PAGES`; an even count for a
                ``single-pages`` profile (every token has two sides).
``boxes``       every page has its own TrimBox and BleedBox (when the profile sets ``boxes``).
``bleed``       BleedBox minus TrimBox is at least the profile's bleed on all four sides, and
                BleedBox lies inside the MediaBox.
``trim-size``   ``sheets``: the MediaBox is the profile's page (either way round);
                single pages: every page has the same trim, equal to ``size`` when given.
``fonts``       every font is embedded (FontFile, FontFile2 or FontFile3 in its descriptor; Type0
                fonts through their descendant; Type3 fonts are drawn by the file itself), for
                fonts of the page and of every Form XObject it uses.
``colour``      in a CMYK profile: no ``rg``/``RG`` operators, no ``sc``/``scn`` in an RGB colour
                space (DeviceRGB, CalRGB, 3-channel ICCBased, Indexed over those), no RGB image;
                page and Form XObject content streams, inline images included.
``images``      every placed image has at least the profile's DPI at its placed size: pixels /
                (placed length / 72 pt), the lesser of both axes, tracking the transformation
                matrix through ``q``/``Q``/``cm`` and ``Do``, into Form XObjects.
``safe-area``   every visible character's box (pdfplumber: advance width × font size) lies at
                least the profile's ``safe`` inside its trim: the trim of the token it sits on
                (see :func:`pieces`), else the page's TrimBox (the MediaBox when there is none).

On a sheet of many tokens the TrimBox is the block of trims (see
:class:`tokengen.build.BuildOptions`); the trims of single tokens are not in the PDF, so
``safe-area`` finds them as Form XObjects placed on the page whose BBox is trim + bleed (how
tokengen draws tokens); a sheet drawn otherwise is checked against the block's outer edges only.
Shadings and annotations are not scanned for colour.
"""

from __future__ import annotations

import contextlib
import logging
import math
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .errors import PreflightError
from .profiles import Profile
from .units import format_length

#: Most pages a sensible token file has (the build limit).
MAX_PAGES = 5_000
#: Length tolerance, pt.
TOL = 0.01
#: Problems listed per check (the count is always complete).
MAX_DETAILS = 20

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
RGB_SPACES = {"/DeviceRGB", "/RGB", "/CalRGB"}
MAX_FORM_DEPTH = 12
#: Most Form XObject placements followed on one page (a hostile file can nest forms so that
#: a few bytes expand to billions of placements).
MAX_PLACEMENTS = 50_000


@dataclass(frozen=True)
class Check:
    """The outcome of one check.

    Attributes:
        name: ``pages``, ``boxes``, ``bleed``, ``trim-size``, ``fonts``, ``colour``, ``images``
            or ``safe-area``.
        passed: True when nothing is wrong.
        message: one line with the numbers (for a failure: how many problems, and the first).
        page: 1-based page of the first problem, or None.
        problems: one line per problem (at most :data:`MAX_DETAILS`), each naming its page.
    """

    name: str
    passed: bool
    message: str
    page: int | None = None
    problems: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: name, passed, message, page, problems (a list)."""
        data = asdict(self)
        data["problems"] = list(self.problems)
        return data


def preflight(pdf_path: str | Path, profile: Profile, *, size: float | None = None) -> list[Check]:
    """Check ``pdf_path`` against ``profile``; ``size`` (pt) is the expected token trim for
    single-page profiles.

    Returns:
        One :class:`Check` per check, in the order of the module docstring.
    Raises:
        PreflightError: the file is missing, not a PDF, encrypted or too damaged to read.
    """
    import pypdf

    path = Path(pdf_path)
    with _quiet_pypdf():
        return _preflight(pypdf, path, profile, size)


@contextlib.contextmanager
def _quiet_pypdf() -> Iterator[None]:
    """pypdf logs repairs of damaged files as warnings; preflight reports its own findings."""
    logger = logging.getLogger("pypdf")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        logger.setLevel(level)


def _preflight(pypdf: Any, path: Path, profile: Profile, size: float | None) -> list[Check]:
    try:
        reader = pypdf.PdfReader(path, strict=False)
        if reader.is_encrypted and not reader.decrypt(""):  # an empty user password opens it as a viewer would
            raise PreflightError(f"{path}: the PDF is encrypted with a password; preflight needs a file that opens without one")
        pages = list(reader.pages)
    except PreflightError:
        raise
    except FileNotFoundError:
        raise PreflightError(f"{path}: file not found") from None
    except IsADirectoryError:
        raise PreflightError(f"{path}: is a folder, not a file") from None
    except Exception as exc:  # noqa: BLE001 - pypdf raises many types for damaged files
        raise PreflightError(f"{path}: not a readable PDF ({type(exc).__name__}: {exc})") from None
    try:
        parsed: dict[int, Any] = {}
        walks = [_walk_page(page, parsed) for page in pages]
        checks = [
            _pages(len(pages), profile),
            _boxes(pages, profile),
            _bleed(pages, profile),
            _trim(pages, profile, size),
            _fonts(walks),
            _colour(walks, profile),
            _images(walks, profile),
            _safe(path, pages, walks, profile),
        ]
    except PreflightError as exc:
        raise PreflightError(f"{path}: {exc}") from None
    except Exception as exc:  # noqa: BLE001 - the same, while reading page contents
        raise PreflightError(f"{path}: cannot read the page contents ({type(exc).__name__}: {exc})") from None
    return checks


def _result(name: str, problems: list[tuple[int, str]], ok: str) -> Check:
    if not problems:
        return Check(name, True, ok)
    first_page, first = problems[0]
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    lines = tuple(f"page {p}: {text}" for p, text in problems[:MAX_DETAILS])
    if len(problems) > MAX_DETAILS:
        lines += (f"… {len(problems) - MAX_DETAILS} more not shown",)
    return Check(name, False, f"page {first_page}: {first}{more}", first_page, lines)


def _box(page: Any, key: str) -> tuple[float, float, float, float] | None:
    """The page's own ``key`` box (``/TrimBox`` …) normalised to (x0, y0, x1, y1) pt, or None."""
    if key not in page:
        return None
    x0, y0, x1, y1 = (float(v) for v in page[key])
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def _media(page: Any) -> tuple[float, float, float, float]:
    box = page.mediabox
    return (float(box.left), float(box.bottom), float(box.right), float(box.top))


def _pt(v: float) -> str:
    return f"{v:.2f} pt ({v / 72:.3f} in, {v * 25.4 / 72:.2f} mm)"


# -- page structure ----------------------------------------------------------------------------
def _pages(count: int, profile: Profile) -> Check:
    problems: list[tuple[int, str]] = []
    if count == 0:
        return Check("pages", False, "the PDF has no pages")
    if count > MAX_PAGES:
        problems.append((1, f"{count} pages, more than {MAX_PAGES}"))
    if profile.output == "single-pages" and count % 2:
        problems.append((count, f"{count} pages: an odd count, but every token needs a back and a face"))
    return _result("pages", problems, f"{count} page(s)")


def _boxes(pages: list[Any], profile: Profile) -> Check:
    if not profile.boxes:
        return Check("boxes", True, f"not required by profile {profile.name}")
    problems = [(n, f"no {' and no '.join(k[1:] for k in ('/TrimBox', '/BleedBox') if k not in page)}")
                for n, page in enumerate(pages, 1) if "/TrimBox" not in page or "/BleedBox" not in page]
    return _result("boxes", problems, f"every page ({len(pages)}) has a TrimBox and a BleedBox")


def _bleed(pages: list[Any], profile: Profile) -> Check:
    if not profile.boxes and profile.bleed <= 0:
        return Check("bleed", True, f"no bleed required by profile {profile.name}")
    problems: list[tuple[int, str]] = []
    least = math.inf
    for n, page in enumerate(pages, 1):
        trim, bleed, media = _box(page, "/TrimBox"), _box(page, "/BleedBox"), _media(page)
        if trim is None or bleed is None:
            problems.append((n, "no bleed: TrimBox or BleedBox missing"))
            continue
        sides = (trim[0] - bleed[0], trim[1] - bleed[1], bleed[2] - trim[2], bleed[3] - trim[3])
        smallest = min(sides)
        least = min(least, smallest)
        if smallest + TOL < profile.bleed:
            problems.append((n, f"bleed {_pt(smallest)} is less than the profile's {format_length(profile.bleed)} ({profile.bleed:.2f} pt)"))
        if bleed[0] < media[0] - TOL or bleed[1] < media[1] - TOL or bleed[2] > media[2] + TOL or bleed[3] > media[3] + TOL:
            problems.append((n, f"BleedBox {list(bleed)} runs off the MediaBox {list(media)}"))
    return _result("bleed", problems, f"bleed at least {_pt(least if least < math.inf else 0.0)} on every side of every page (profile: {format_length(profile.bleed)})")


def _trim(pages: list[Any], profile: Profile, size: float | None) -> Check:
    problems: list[tuple[int, str]] = []
    if profile.output in ("sheets", "cut-svg"):
        want = sorted(profile.page)
        for n, page in enumerate(pages, 1):
            x0, y0, x1, y1 = _media(page)
            got = sorted((x1 - x0, y1 - y0))
            if abs(got[0] - want[0]) > 0.5 or abs(got[1] - want[1]) > 0.5:
                problems.append((n, f"page is {got[0]:.1f} × {got[1]:.1f} pt, the profile's sheet is {want[0]:.1f} × {want[1]:.1f} pt"))
            trim = _box(page, "/TrimBox")
            if trim and (trim[0] < x0 - TOL or trim[1] < y0 - TOL or trim[2] > x1 + TOL or trim[3] > y1 + TOL):
                problems.append((n, f"TrimBox {list(trim)} runs off the page"))
        return _result("trim-size", problems, f"every page is the profile's {want[0]:.1f} × {want[1]:.1f} pt sheet")
    first: tuple[float, float] | None = None
    for n, page in enumerate(pages, 1):
        trim = _box(page, "/TrimBox") or (None if profile.boxes else _media(page))
        if trim is None:  # reported by the boxes check
            continue
        dims = (trim[2] - trim[0], trim[3] - trim[1])
        expected = (size, size) if size is not None else first
        if expected is not None and (abs(dims[0] - expected[0]) > TOL * 10 or abs(dims[1] - expected[1]) > TOL * 10):
            problems.append((n, f"trim {dims[0]:.2f} × {dims[1]:.2f} pt, expected {expected[0]:.2f} × {expected[1]:.2f} pt"))
        first = first or dims
    shown = f"{first[0]:.2f} × {first[1]:.2f} pt" if first else "none"
    return _result("trim-size", problems, f"every page has the same trim, {shown}")


# -- content streams ---------------------------------------------------------------------------
@dataclass
class _Walk:
    """What one page's content streams (and their forms) hold."""

    fonts: dict[str, Any] = field(default_factory=dict)        # font key → font dict
    rgb: list[str] = field(default_factory=list)                # RGB uses, described
    images: list[tuple[int, int, float, float, str]] = field(default_factory=list)  # px w, px h, placed w, h pt, name
    forms: list[tuple[float, float, float, float]] = field(default_factory=list)  # page-space BBox of each top-level form placed
    parsed: dict[int, Any] = field(default_factory=dict)  # id of a form stream → its parsed operations (shared by pages)
    placements: int = 0


def _mul(m: Matrix, n: Matrix) -> Matrix:
    """m × n (PDF row-vector convention: apply m, then n)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def _space(value: Any, resources: Any) -> str:
    """Classify a colour space (a name or an array) as ``"rgb"`` or ``"other"``."""
    value = value.get_object() if hasattr(value, "get_object") else value
    if isinstance(value, str):
        if value in RGB_SPACES:
            return "rgb"
        named = resources.get("/ColorSpace", {}) if resources is not None else {}
        named = named.get_object() if hasattr(named, "get_object") else named
        if value in named:
            return _space(named[value], None)
        return "other"
    if isinstance(value, list) and value:
        kind = str(value[0])
        if kind == "/CalRGB":
            return "rgb"
        if kind == "/ICCBased":
            stream = value[1].get_object()
            return "rgb" if int(stream.get("/N", 0)) == 3 else "other"
        if kind in ("/Indexed", "/I") and len(value) > 1:
            return _space(value[1], resources)
    return "other"


def _walk_page(page: Any, parsed: dict[int, Any]) -> _Walk:
    walk = _Walk(parsed=parsed)
    resources = page.get("/Resources")
    resources = resources.get_object() if resources is not None else {}
    contents = page.get_contents()
    if contents is not None:
        _walk_stream(contents, resources, IDENTITY, walk, 0, "page")
    return walk


def _walk_stream(stream: Any, resources: Any, ctm: Matrix, walk: _Walk, depth: int, where: str) -> None:
    from pypdf.generic import ContentStream

    if depth > MAX_FORM_DEPTH:
        return
    fonts = resources.get("/Font", {}) if resources else {}
    fonts = fonts.get_object() if hasattr(fonts, "get_object") else fonts
    for key, ref in fonts.items():
        walk.fonts.setdefault(f"{where}:{key}", ref.get_object())
    xobjects = resources.get("/XObject", {}) if resources else {}
    xobjects = xobjects.get_object() if hasattr(xobjects, "get_object") else xobjects
    if isinstance(stream, ContentStream):
        operations = stream.operations
    else:
        key = id(stream)
        if key not in walk.parsed:
            walk.parsed[key] = (stream, ContentStream(stream, None).operations)  # keep stream alive: ids stay unique
        operations = walk.parsed[key][1]
    fill_space: Any = "/DeviceGray"
    stroke_space: Any = "/DeviceGray"
    stack: list[tuple[Matrix, Any, Any]] = []  # the graphics state q saves: CTM and colour spaces
    for operands, op in operations:
        if op == b"q":
            stack.append((ctm, fill_space, stroke_space))
        elif op == b"Q":
            if stack:
                ctm, fill_space, stroke_space = stack.pop()
        elif op == b"cm" and len(operands) == 6:
            ctm = _mul(tuple(float(v) for v in operands), ctm)  # type: ignore[arg-type]
        elif op in (b"rg", b"RG"):
            walk.rgb.append(f"{op.decode()} operator in {where}")
        elif op == b"cs" and operands:
            fill_space = operands[0]
        elif op == b"CS" and operands:
            stroke_space = operands[0]
        elif op in (b"sc", b"scn", b"SC", b"SCN"):
            space = fill_space if op in (b"sc", b"scn") else stroke_space
            if _space(space, resources) == "rgb":
                walk.rgb.append(f"{op.decode()} in colour space {space} in {where}")
        elif op == b"INLINE IMAGE":
            settings = operands.get("settings", {}) if isinstance(operands, dict) else {}
            image_space = settings.get("/CS", settings.get("/ColorSpace"))
            if image_space is not None and _space(image_space, resources) == "rgb":
                walk.rgb.append(f"inline RGB image in {where}")
            w, h = int(settings.get("/W", settings.get("/Width", 0))), int(settings.get("/H", settings.get("/Height", 0)))
            walk.images.append((w, h, math.hypot(ctm[0], ctm[1]), math.hypot(ctm[2], ctm[3]), f"inline image in {where}"))
        elif op == b"Do" and operands:
            name = operands[0]
            if name not in xobjects:
                continue
            xobject = xobjects[name].get_object()
            subtype = xobject.get("/Subtype")
            if subtype == "/Image":
                if not xobject.get("/ImageMask") and _space(xobject.get("/ColorSpace", "/DeviceGray"), resources) == "rgb":
                    walk.rgb.append(f"RGB image {name} in {where}")
                walk.images.append((int(xobject.get("/Width", 0)), int(xobject.get("/Height", 0)),
                                    math.hypot(ctm[0], ctm[1]), math.hypot(ctm[2], ctm[3]), f"image {name} in {where}"))
            elif subtype == "/Form":
                walk.placements += 1
                if walk.placements > MAX_PLACEMENTS:
                    raise PreflightError(f"more than {MAX_PLACEMENTS} Form XObject placements on one page (nested forms)")
                matrix = tuple(float(v) for v in xobject.get("/Matrix", IDENTITY))
                if depth == 0 and "/BBox" in xobject:
                    walk.forms.append(_bounds([float(v) for v in xobject["/BBox"]], _mul(matrix, ctm)))  # type: ignore[arg-type]
                inner = xobject.get("/Resources")
                inner = inner.get_object() if inner is not None else resources
                _walk_stream(xobject, inner, _mul(matrix, ctm), walk, depth + 1, f"form {name}")  # type: ignore[arg-type]


def _bounds(bbox: list[float], m: Matrix) -> tuple[float, float, float, float]:
    """The page-space bounding box (x0, y0, x1, y1) of ``bbox`` transformed by ``m``."""
    x0, y0, x1, y1 = bbox
    points = [(x * m[0] + y * m[2] + m[4], x * m[1] + y * m[3] + m[5]) for x in (x0, x1) for y in (y0, y1)]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (min(xs), min(ys), max(xs), max(ys))


def pieces(walk: _Walk, trim: tuple[float, float, float, float], bleed: float) -> list[tuple[float, float, float, float]]:
    """The token trims on a sheet: every Form XObject placed on the page whose BBox lies inside
    ``trim`` grown by ``bleed`` and is smaller than it (tokengen draws each token that way, its
    BBox = trim + bleed), shrunk by ``bleed``. Empty when the page is one piece."""
    outer = (trim[0] - bleed - TOL, trim[1] - bleed - TOL, trim[2] + bleed + TOL, trim[3] + bleed + TOL)
    area = (trim[2] - trim[0]) * (trim[3] - trim[1])
    found = []
    for x0, y0, x1, y1 in dict.fromkeys(walk.forms):
        inner = (x0 + bleed, y0 + bleed, x1 - bleed, y1 - bleed)
        if inner[2] <= inner[0] or inner[3] <= inner[1]:
            continue
        if x0 >= outer[0] and y0 >= outer[1] and x1 <= outer[2] and y1 <= outer[3] and (inner[2] - inner[0]) * (inner[3] - inner[1]) < area * 0.99:
            found.append(inner)
    return found


def _embedded(font: Any) -> bool:
    subtype = font.get("/Subtype")
    if subtype == "/Type3":
        return True
    if subtype == "/Type0":
        descendants = font.get("/DescendantFonts")
        descendants = descendants.get_object() if descendants is not None else []
        return bool(descendants) and _embedded(descendants[0].get_object())
    descriptor = font.get("/FontDescriptor")
    if descriptor is None:
        return False
    descriptor = descriptor.get_object()
    return any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))


def _fonts(walks: list[_Walk]) -> Check:
    problems: list[tuple[int, str]] = []
    names: set[str] = set()
    for n, walk in enumerate(walks, 1):
        for key, font in walk.fonts.items():
            base = str(font.get("/BaseFont", key))
            names.add(base)
            if not _embedded(font):
                problems.append((n, f"font {base} is not embedded"))
    unique = list(dict.fromkeys(problems))
    return _result("fonts", unique, f"all {len(names)} font(s) embedded" if names else "no fonts used")


def _colour(walks: list[_Walk], profile: Profile) -> Check:
    if profile.colour != "cmyk":
        return Check("colour", True, f"profile {profile.name} accepts RGB")
    problems = [(n, f"{len(walk.rgb)} RGB use(s), first: {walk.rgb[0]}") for n, walk in enumerate(walks, 1) if walk.rgb]
    return _result("colour", problems, "no RGB colour operators, colour spaces or images")


def _images(walks: list[_Walk], profile: Profile) -> Check:
    problems: list[tuple[int, str]] = []
    count = 0
    least = math.inf
    for n, walk in enumerate(walks, 1):
        for w, h, pw, ph, name in walk.images:
            count += 1
            if pw <= 0 or ph <= 0:
                continue
            dpi = min(w / (pw / 72), h / (ph / 72))
            least = min(least, dpi)
            if dpi + 0.5 < profile.dpi:
                problems.append((n, f"{name}: {w} × {h} px placed at {pw / 72:.3f} × {ph / 72:.3f} in is {dpi:.0f} DPI, less than {profile.dpi}"))
    if not count:
        return Check("images", True, "no images placed")
    return _result("images", problems, f"{count} image placement(s), the least {least:.0f} DPI (profile: {profile.dpi})")


def _safe(path: Path, pages: list[Any], walks: list[_Walk], profile: Profile) -> Check:
    import pdfplumber

    problems: list[tuple[int, str]] = []
    chars = 0
    tokens = 0
    safe = profile.safe
    with pdfplumber.open(path) as pdf:
        for n, (plumb, page, walk) in enumerate(zip(pdf.pages, pages, walks, strict=True), 1):
            media = _media(page)
            trim = _box(page, "/TrimBox") or media
            bleed_box = _box(page, "/BleedBox")
            bleed = min(trim[0] - bleed_box[0], trim[1] - bleed_box[1], bleed_box[2] - trim[2], bleed_box[3] - trim[3]) if bleed_box else 0.0
            trims = pieces(walk, trim, max(bleed, 0.0))
            tokens += len(trims)
            height = float(plumb.height)
            for ch in plumb.chars:
                if not ch["text"].strip():
                    continue
                chars += 1
                # pdfplumber measures from the MediaBox's lower-left corner, y downwards
                x0, x1 = float(ch["x0"]) + media[0], float(ch["x1"]) + media[0]
                y0, y1 = height - float(ch["bottom"]) + media[1], height - float(ch["top"]) + media[1]
                cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
                home = next((t for t in trims if t[0] <= cx <= t[2] and t[1] <= cy <= t[3]), None)
                where = "the token's trim"
                if home is None:
                    home, where = trim, ("the trim, outside every token" if trims else "the trim")
                gap = min(x0 - home[0], y0 - home[1], home[2] - x1, home[3] - y1)
                if gap + TOL < safe:
                    problems.append((n, f"text {ch['text']!r} at ({x0:.1f}, {y0:.1f}) pt is {gap:.2f} pt from {where}; the safe area starts {format_length(safe)} ({safe:.2f} pt) inside"))
    per = f", each token's own trim for {tokens} token(s) placed as forms" if tokens else ""
    return _result("safe-area", problems, f"all {chars} character(s) at least {format_length(safe)} inside the trim{per}")
