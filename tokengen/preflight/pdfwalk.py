"""Bounded reading of any PDF's pages for :mod:`tokengen.preflight.checks` (pikepdf / qpdf underneath).

Every content stream (a page's, a Form XObject's, a tiling pattern's, a Type 3 glyph's, an
annotation's appearance) is decoded and read **once** into a :class:`Summary` in its own
coordinate space: fonts, colour spaces, transparency, ink, images, strokes, character boxes and
the forms it places. A form placed 10,000 times is measured once; each placement only applies
its matrix to the cached result (:meth:`Walker.measure`, cached per form and linear part).

Positions are in the page's default user space (PDF 32000-1:2008 8.3.2.3): MediaBox and CropBox
origins and ``/Rotate`` do not move anything in that space, so they cannot change a verdict;
``/UserUnit`` (8.3.2.3, table 30) scales every length, applied by the caller.

Character boxes are advance width wide (PDF 32000-1 9.4.4) and reach from the font's descent to
its ascent (FontDescriptor; descent + 1 em when no ascent is given), as pdfium's loose character
boxes do, transformed by the text matrix and the CTM. For fonts whose ascent − descent is 1 em
(DejaVu, most) that is exactly pdfminer's character box (the tests hold it to 0.1 pt); for a subset whose
descriptor was recomputed (Ghostscript writes the arrows' descent as −14) it stays as tall as the
glyphs are said to be, not one whole em; widths come from the font's ``/Widths`` (simple fonts) or
``/W``/``/DW`` (CID fonts, 2-byte codes), text from ``/ToUnicode`` (ranges are looked up, never
expanded, so a range over all 2^32 codes costs nothing).

Work is bounded by :class:`Limits`: the file size (checked before reading), pages, Form XObject
and image placements walked, operators read, and bytes decoded (per stream and in total, counted
while inflating, so a decompression bomb is stopped at the limit, not read into memory). Each
refusal is a :class:`~tokengen.errors.PreflightError` naming the limit and its ``--max-…`` flag.
Two bounds ride on the operators limit: the items of one array or dictionary in a content stream
(a tenth of it, counted in the bytes before qpdf builds the object: :mod:`.prescan`), and the
operators a viewer runs to paint tiling patterns (a cell's for every fill with it, nested
patterns multiplied: :meth:`Walker.pattern`); a pattern filling inside its own cell is refused.
"""

from __future__ import annotations

import base64
import binascii
import bisect
import logging
import math
import os
import re
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import pikepdf

from ..errors import PreflightError
from ..io import guard
from ..limits import PREFLIGHT_LIMITS
from . import prescan

MiB = 1 << 20
Matrix = tuple[float, float, float, float, float, float]
Box = tuple[float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
#: Forms nested deeper than this are refused (a hostile chain; the pattern cells, glyphs and
#: appearances read as forms count too).
MAX_FORM_DEPTH = 32
#: Most character boxes one form and the forms it places may draw (each is checked).
MAX_CHARS = 400_000
#: Findings kept per stream and kind (counts stay complete).
KEEP = 20
#: Ink totals kept per stream (the highest), and the places kept for each before they merge.
INK_ENTRIES = 16
INK_BOXES = 64
#: Neutral pixels built from C, M and Y (:func:`image_ink`): C, M and Y each at least
#: ``NEUTRAL_MIN`` and within ``NEUTRAL_SPREAD`` of each other, in 8-bit steps (5 % each).
NEUTRAL_MIN = 13
NEUTRAL_SPREAD = 13
#: Pixels of one image looked at for neutrals: a larger image is sampled (nearest pixel) down to this.
NEUTRAL_PIXELS = 1_000_000
#: One array or dictionary in a content stream may hold at most this share of the operators
#: limit in items, nested ones included (100,000 by default): qpdf builds it whole, at about
#: 200 bytes an item, before the reader sees it (:mod:`tokengen.preflight.prescan`).
ITEMS_SHARE = 10
#: The look before parsing (:func:`~tokengen.preflight.prescan.largest_container`) takes at most
#: this many steps per operator of the limit: a step is a string, container or run of comments,
#: each at least one token qpdf would read, so a stream within the operator and operand limits
#: (three tokens an operator) never reaches it; about 0.5 µs a step.
SCAN_STEPS = 6
#: Largest expansion ratio of a filter qpdf decodes for us (LZW: one 12-bit code → 4,096 bytes).
WORST_RATIO = 2_800


@dataclass(frozen=True)
class Limits:
    """Work budget of one preflight run. Defaults fit a 100,000-token sheet file many times over.

    Attributes:
        file_mb: largest input file, MiB (checked before it is opened). ``--max-file-mb``.
        pages: most pages (read from the page tree's ``/Count`` before the pages are listed).
            ``--max-pages``.
        placements: most Form XObject and image placements walked in the file, nested ones
            included (a form placing another twice, 20 deep, is 2^21 placements); a page sharing
            another's content stream counts its placements again (each is checked on its page).
            ``--max-placements``.
        operators: most content-stream operators read in the file, summed over every stream
            read (pages', forms', patterns', glyphs', appearances'; a stream shared by pages or
            placed many times is read, and counted, once); their operands may number twice as
            many (a line ``0 0 m`` is one operator, two operands). The slowest kind measured,
            ``0 0 m f``, reads at about 3 µs an operator or operand: the default 1,000,000 is
            about 6 s of work at worst. It also bounds one array or dictionary's items
            (:data:`ITEMS_SHARE`) and the tiling-pattern fills (:meth:`Budget.charge_tiles`).
            ``--max-operators``.
        stream_mb: largest decoded size of one stream, MiB. ``--max-stream-mb``.
        decoded_mb: most bytes decoded from streams in the file, MiB. ``--max-decoded-mb``.
        chars: most characters checked in the file, on every page that shows them (pages
            sharing one content stream read it once, but each page's characters are checked
            against its own trim). ``--max-chars``.
    """

    file_mb: int = PREFLIGHT_LIMITS["file_mb"]
    pages: int = PREFLIGHT_LIMITS["pages"]
    placements: int = PREFLIGHT_LIMITS["placements"]
    operators: int = PREFLIGHT_LIMITS["operators"]
    stream_mb: int = PREFLIGHT_LIMITS["stream_mb"]
    decoded_mb: int = PREFLIGHT_LIMITS["decoded_mb"]
    chars: int = PREFLIGHT_LIMITS["chars"]


#: The command-line flag that raises each limit.
FLAGS = {"file_mb": "--max-file-mb", "pages": "--max-pages", "placements": "--max-placements",
         "operators": "--max-operators", "stream_mb": "--max-stream-mb", "decoded_mb": "--max-decoded-mb",
         "chars": "--max-chars"}


PLACEMENTS = "Form XObject and image placements (nested forms included):"


class Budget:
    """Counts work against :class:`Limits`; :meth:`charge` raises once a limit is passed."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.placements = 0
        self.operators = 0
        self.operands = 0
        self.decoded = 0
        self.chars = 0
        self.tiles = 0

    def refuse(self, key: str, what: str, unit: str = "") -> PreflightError:
        """The one-line refusal: ``what`` exceeds the limit (with its flag)."""
        limit = getattr(self.limits, key)
        return PreflightError(f"{what} more than the limit of {limit:,}{unit} (raise it with {FLAGS[key]})")

    def charge_placements(self, n: int) -> None:
        """Count ``n`` more placements walked; raises PreflightError past the limit."""
        self.placements += n
        if self.placements > self.limits.placements:
            raise self.refuse("placements", PLACEMENTS)

    def charge_operators(self, n: int, operands: int = 0) -> None:
        """Count ``n`` more operators and their ``operands`` read (the file's totals); raises
        PreflightError past the limit (operands: past twice the limit)."""
        self.operators += n
        self.operands += operands
        if self.operators > self.limits.operators:
            raise self.refuse("operators", "content-stream operators read in the file (each stream once):")
        if self.operands > 2 * self.limits.operators:
            limit = 2 * self.limits.operators
            raise PreflightError(f"content-stream operands read in the file (each stream once): more than the limit of {limit:,} "
                                 f"(twice the operators; raise it with {FLAGS['operators']})")

    def check_items(self, data: bytes, label: str) -> None:
        """Refuse the content stream ``data`` (of ``label``: ``page`` or a form's description)
        when one array or dictionary in it holds more than ``limits.operators`` /
        :data:`ITEMS_SHARE` items (:func:`~tokengen.preflight.prescan.largest_container`),
        before qpdf builds it; a stream too short to hold that many is not scanned.

        Raises:
            PreflightError: naming the limit and ``--max-operators``; also when the look takes
                more than :data:`SCAN_STEPS` × ``limits.operators`` steps.
        """
        cap = max(1, self.limits.operators // ITEMS_SHARE)
        if not prescan.worth_scanning(data, cap):
            return
        where = "a page's content" if label == "page" else f"{label}'s content"
        steps = SCAN_STEPS * self.limits.operators
        try:
            largest = prescan.largest_container(data, cap, steps)
        except prescan.TooManyTokens:
            raise PreflightError(f"strings, arrays, dictionaries and comments in {where}: more than the limit of {steps:,} "
                                 f"({SCAN_STEPS} times the operators; raise it with {FLAGS['operators']})") from None
        if largest > cap:
            raise PreflightError(f"items of one array or dictionary in {where}: more than the limit of {cap:,} "
                                 f"(the operators / {ITEMS_SHARE}; raise it with {FLAGS['operators']})")

    def charge_tiles(self, n: int) -> None:
        """Count ``n`` more operators that painting tiling patterns runs (a cell's operators once
        per fill with its pattern, nested patterns multiplied; each stream counted once), under
        the operators limit; raises PreflightError past it."""
        self.tiles += n
        if self.tiles > self.limits.operators:
            raise self.refuse("operators", "operators a viewer runs to paint tiling patterns (a cell's for each fill "
                                           "with it, nested patterns multiplied):")

    def charge_chars(self, n: int) -> None:
        """Count ``n`` more characters checked (across all pages); raises PreflightError past the limit."""
        self.chars += n
        if self.chars > self.limits.chars:
            raise self.refuse("chars", "characters checked in the file (on every page that shows them):")


# -- opening -------------------------------------------------------------------------------------
def check_input(path: Path, limits: Limits) -> None:
    """Refuse, before any byte is read, what is not a regular file of at most ``limits.file_mb``.

    Raises:
        PreflightError: missing, a folder/FIFO/device/socket, or too large (the message names
            the size, the limit and ``--max-file-mb``).
    """
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise PreflightError("file not found") from None
    except OSError as exc:
        raise PreflightError(f"cannot read: {exc.strerror or exc}") from None
    refused = guard.not_regular(path)  # the same words for every command's inputs
    if refused:
        raise PreflightError(refused)
    if info.st_size > limits.file_mb * MiB:
        raise PreflightError(f"the file is {info.st_size / MiB:,.0f} MiB, more than the limit of {limits.file_mb:,} MiB (raise it with --max-file-mb)")


def open_pdf(path: Path, limits: Limits) -> Any:
    """The PDF at ``path`` opened with pikepdf (lazily: objects are read when used).

    A file encrypted with an empty user password opens (as in a viewer); ``/Root/Pages/Count``
    is checked against ``limits.pages`` before the page tree is walked.

    Raises:
        PreflightError: see :func:`check_input`; encrypted with a password; not a readable PDF;
            more pages than the limit.
    """
    import pikepdf

    check_input(path, limits)
    try:
        pdf = pikepdf.open(path)
    except pikepdf.PasswordError:
        raise PreflightError("the PDF is encrypted with a password; preflight needs a file that opens without one") from None
    except (pikepdf.PdfError, OSError, ValueError, RuntimeError) as exc:
        raise PreflightError(f"not a readable PDF ({_short(exc)})") from None
    try:
        count = int(pdf.Root.Pages.get("/Count", 0))
    except Exception as exc:  # noqa: BLE001 - a damaged catalogue raises many types
        pdf.close()
        raise PreflightError(f"not a readable PDF (no page tree: {_short(exc)})") from None
    if count > limits.pages:
        pdf.close()
        raise PreflightError(f"the PDF has {count:,} pages, more than the limit of {limits.pages:,} (raise it with --max-pages)")
    return pdf


def _short(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 160 else text[:157] + "…"


class quiet_qpdf:  # noqa: N801 - used as a context manager
    """qpdf reports repairs of damaged files through the ``pikepdf`` loggers; preflight reports
    its own findings, one line per problem, so those lines are silenced while it runs."""

    def __enter__(self) -> None:
        self.saved = [(lg, lg.level, lg.propagate) for lg in (logging.getLogger("pikepdf"), logging.getLogger("pikepdf._core"))]
        for lg, _, _ in self.saved:
            lg.setLevel(logging.CRITICAL + 1)
            lg.propagate = False

    def __exit__(self, *exc: object) -> None:
        for lg, level, propagate in self.saved:
            lg.setLevel(level)
            lg.propagate = propagate


# -- decoding ------------------------------------------------------------------------------------
def _filters(stream: Any) -> tuple[list[str], list[Any]]:
    filters = stream.get("/Filter")
    params = stream.get("/DecodeParms")
    if filters is None:
        return [], []
    names = [str(f) for f in filters] if _is_array(filters) else [str(filters)]
    parms = list(params) if params is not None and _is_array(params) else [params] * len(names)
    return names, parms + [None] * (len(names) - len(parms))


def _is_array(obj: Any) -> bool:
    import pikepdf

    return isinstance(obj, pikepdf.Array | list)


def decode(stream: Any, budget: Budget, what: str) -> bytes:
    """The decoded bytes of ``stream``, refused past the per-stream and total limits.

    Chains of ASCIIHex, ASCII85 and Flate (without predictor) are decoded here, inflating at
    most the limit + 1 bytes, so a bomb is stopped without being read whole; other filters are
    decoded by qpdf only when their worst-case expansion (:data:`WORST_RATIO`) fits the limit.

    Raises:
        PreflightError: over a limit (naming ``what``, the limit and its flag), or undecodable.
    """
    limits = budget.limits
    cap = min(limits.stream_mb * MiB, max(0, limits.decoded_mb * MiB - budget.decoded))
    key = "stream_mb" if cap == limits.stream_mb * MiB else "decoded_mb"
    names, parms = _filters(stream)
    try:
        raw = stream.read_raw_bytes()
        if _own_filters(names, parms):
            data = _decode_own(raw, names, cap)
        else:
            data = _decode_qpdf(stream, raw, names, cap, budget, key, what)
        if len(data) > cap:
            raise _too_big(budget, key, what)
    except PreflightError:
        raise
    except Exception as exc:  # noqa: BLE001 - damaged data raises many types
        raise PreflightError(f"cannot decode {what} ({_short(exc)})") from None
    budget.decoded += len(data)
    return data


_OWN = frozenset(("/FlateDecode", "/Fl", "/ASCIIHexDecode", "/AHx", "/ASCII85Decode", "/A85"))
#: Filters whose output is at most a small multiple of their input (images' codecs, run length):
#: qpdf decodes them without the worst-case check of :func:`_decode_qpdf`.
_BOUNDED = frozenset(("/DCTDecode", "/DCT", "/JPXDecode", "/CCITTFaxDecode", "/CCF", "/JBIG2Decode", "/RunLengthDecode", "/RL"))


def _own_filters(names: list[str], parms: list[Any]) -> bool:
    """True when :func:`_decode_own` decodes the chain: ASCIIHex, ASCII85, Flate without a predictor."""
    return all(n in _OWN for n in names) and \
        not any(p is not None and int(p.get("/Predictor", 1)) > 1 for p, n in zip(parms, names) if n in ("/FlateDecode", "/Fl"))


def _unhex(data: bytes, cap: int) -> bytes:
    text = re.sub(rb"\s", b"", data).split(b">")[0]
    return binascii.unhexlify(text + b"0" * (len(text) % 2))


def _un85(data: bytes, cap: int) -> bytes:
    text = re.sub(rb"\s", b"", data)
    text = text[2:] if text.startswith(b"<~") else text
    return base64.a85decode(text.split(b"~>")[0])


def _inflate(data: bytes, cap: int) -> bytes:
    """At most ``cap`` + 1 inflated bytes (what inflates before damage breaks off)."""
    try:
        return zlib.decompressobj().decompress(data, cap + 1)
    except zlib.error:
        return _salvage(data, cap + 1)


_DECODERS = {"/ASCIIHexDecode": _unhex, "/AHx": _unhex, "/ASCII85Decode": _un85, "/A85": _un85, "/FlateDecode": _inflate, "/Fl": _inflate}


def _decode_own(data: bytes, names: list[str], cap: int) -> bytes:
    """``data`` through the chain ``names`` (all in :data:`_DECODERS`), stopping once a step
    gives more than ``cap`` bytes (the caller refuses it)."""
    for name in names:
        data = _DECODERS[name](data, cap)
        if len(data) > cap:
            break
    return data


def _decode_qpdf(stream: Any, raw: bytes, names: list[str], cap: int, budget: Budget, key: str, what: str) -> bytes:
    """``stream`` decoded by qpdf, refused first when a filter that may expand without bound
    (LZW…) could give more than ``cap`` bytes from ``raw``'s size (:data:`WORST_RATIO`) and
    ``raw`` is over a quarter of ``cap``."""
    if len(raw) * WORST_RATIO > cap and any(n not in _BOUNDED for n in names) and len(raw) > cap // 4:
        raise _too_big(budget, key, what)
    return bytes(stream.read_bytes())


def _salvage(data: bytes, cap: int) -> bytes:
    """What inflates before damaged Flate data breaks off (viewers show that much too)."""
    inflate = zlib.decompressobj()
    out = bytearray()
    for i in range(0, len(data), 4096):
        try:
            out += inflate.decompress(data[i:i + 4096], cap + 1 - len(out))
        except zlib.error:
            break
        if len(out) > cap:
            break
    return bytes(out)


def _too_big(budget: Budget, key: str, what: str) -> PreflightError:
    if key == "stream_mb":
        return budget.refuse("stream_mb", f"{what} decodes to", " MiB")
    return budget.refuse("decoded_mb", f"the streams up to {what} decode in total to", " MiB")


# -- geometry ------------------------------------------------------------------------------------
def mul(m: Matrix, n: Matrix) -> Matrix:
    """m × n (PDF row-vector convention: apply m, then n)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def bounds(box: Box, m: Matrix) -> Box:
    """The axis-aligned bounds (x0, y0, x1, y1) of ``box`` transformed by ``m``."""
    x0, y0, x1, y1 = box
    a, b, c, d, e, f = m
    # the corners (x0, y0), (x0, y1), (x1, y0), (x1, y1), in this order (min and max keep the first of equals)
    p, q, r, t = x0 * a + y0 * c + e, x0 * a + y1 * c + e, x1 * a + y0 * c + e, x1 * a + y1 * c + e
    u, v, w, z = x0 * b + y0 * d + f, x0 * b + y1 * d + f, x1 * b + y0 * d + f, x1 * b + y1 * d + f
    return (min(p, q, r, t), min(u, v, w, z), max(p, q, r, t), max(u, v, w, z))


def overlaps(a: Box, b: Box) -> bool:
    """True when boxes ``a`` and ``b`` share some area (touching edges do not count)."""
    return a[0] < b[2] and a[2] > b[0] and a[1] < b[3] and a[3] > b[1]


def scale_of(m: Matrix) -> float:
    """The smaller singular value of ``m``'s linear part: how much a length shrinks at least."""
    a, b, c, d = m[:4]
    s1 = a * a + b * b + c * c + d * d
    det = abs(a * d - b * c)
    disc = math.sqrt(max(0.0, s1 * s1 / 4 - det * det))
    return math.sqrt(max(0.0, s1 / 2 - disc))


def _num(v: Any) -> float:
    try:
        x = float(v)
    except (TypeError, ValueError):
        return 0.0
    return x if math.isfinite(x) else 0.0


def _nums(values: Any) -> list[float]:
    """``[_num(v) for v in values]``: each value as a finite float, 0.0 for what is not one
    (a name, a string, an infinite or overflowing number); converted in one pass when all are."""
    try:
        out = list(map(float, values))
    except Exception:  # noqa: BLE001 - not all numbers: one at a time
        return [_num(v) for v in values]
    if math.isfinite(sum(out)):  # every one finite (an infinity or NaN makes the sum so; so may an overflow: then the slow way)
        return out
    return [_num(v) for v in values]


def _numbers(values: Any) -> list[float]:
    """The numbers among ``values`` (int, float, Decimal; names, strings and null left out), as :func:`_num` gives them."""
    try:
        out = list(map(float, values))  # only numbers convert (pikepdf's names, strings, arrays, null refuse)
    except Exception:  # noqa: BLE001
        return [_num(v) for v in values if isinstance(v, int | float) or hasattr(v, "as_tuple")]
    if math.isfinite(sum(out)):
        return out
    return [_num(v) for v in values if isinstance(v, int | float) or hasattr(v, "as_tuple")]


def _six(v: list[float]) -> Matrix:
    """Six numbers as a :data:`Matrix`."""
    a, b, c, d, e, f = v
    return (a, b, c, d, e, f)


def _matrix(v: Any) -> Matrix:
    try:
        vals = [_num(x) for x in v]
    except TypeError:
        return IDENTITY
    return _six(vals) if len(vals) == 6 else IDENTITY


def _box(v: Any) -> Box | None:
    try:
        x0, y0, x1, y1 = (_num(x) for x in v)
    except (TypeError, ValueError):
        return None
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


# -- fonts ---------------------------------------------------------------------------------------
@dataclass
class Font:
    """What text measurement needs from one font dictionary."""

    name: str
    embedded: bool
    subtype: str
    two_byte: bool = False
    widths: dict[int, float] = field(default_factory=dict)
    ranges: list[tuple[int, int, float]] = field(default_factory=list)  # CID first, last, width (sorted)
    starts: list[int] = field(default_factory=list)
    default: float = 0.0
    descent: float = 0.0        # text-space units per 1 pt of font size (FontDescriptor /Descent / 1000)
    ascent: float = 1.0         # the same for /Ascent (descent + 1 when missing)
    scale: float = 0.001        # glyph space → text space (Type 3: FontMatrix a)
    unicode: dict[int, str] = field(default_factory=dict)
    uranges: list[tuple[int, int, int]] = field(default_factory=list)  # first, last, first code point
    ustarts: list[int] = field(default_factory=list)
    glyphs: dict[int, tuple[float, str, bool]] = field(default_factory=dict)  # code → glyph(code), as met

    def glyph(self, code: int) -> tuple[float, str, bool]:
        """(advance in text-space units per 1 pt of font size, i.e. :meth:`width` × ``scale``; the
        text; whether it shows, i.e. is not blank) of ``code``, kept for the next time."""
        text = self.text(code)
        found = self.glyphs[code] = (self.width(code) * self.scale, text, bool(text.strip()))
        return found

    def width(self, code: int) -> float:
        """Advance of ``code`` in glyph units (1/1000 em for all but Type 3)."""
        w = self.widths.get(code)
        if w is None:
            i = bisect.bisect_right(self.starts, code) - 1
            if i >= 0 and code <= self.ranges[i][1]:
                return self.ranges[i][2]
            return self.default
        return w

    def text(self, code: int) -> str:
        t = self.unicode.get(code)
        if t is not None:
            return t
        i = bisect.bisect_right(self.ustarts, code) - 1
        if i >= 0:
            first, last, start = self.uranges[i]
            if code <= last and 0 <= start + code - first <= 0x10FFFF:
                return chr(start + code - first)
        return "" if self.two_byte else chr(code)


def embedded(font: Any) -> bool:
    """True when the font program is in the file (FontFile, FontFile2 or FontFile3 in the
    descriptor; a Type0 font through its descendant; a Type3 font is drawn by the file itself)."""
    try:
        subtype = str(font.get("/Subtype", ""))
        if subtype == "/Type3":
            return True
        if subtype == "/Type0":
            descendants = font.get("/DescendantFonts")
            return descendants is not None and len(descendants) > 0 and embedded(descendants[0])
        descriptor = font.get("/FontDescriptor")
        return descriptor is not None and any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))
    except Exception:  # noqa: BLE001 - a damaged font dictionary counts as not embedded
        return False


_HEX = rb"<([0-9A-Fa-f\s]*)>"


def _hex(b: bytes) -> int:
    b = re.sub(rb"\s", b"", b)
    return int(b, 16) if b else 0


def _utf16(b: bytes) -> str:
    raw = binascii.unhexlify(re.sub(rb"\s", b"", b) + b"0" * (len(re.sub(rb"\s", b"", b)) % 2))
    return raw.decode("utf-16-be", "replace")


def _read_cmap(font: Font, data: bytes) -> None:
    """bfchar entries into a dict, bfrange entries kept as ranges (never expanded)."""
    for block in re.finditer(rb"beginbfchar(.*?)endbfchar", data, re.S):
        for src, dst in re.findall(_HEX + rb"\s*" + _HEX, block.group(1)):
            font.unicode[_hex(src)] = _utf16(dst)
    for block in re.finditer(rb"beginbfrange(.*?)endbfrange", data, re.S):
        for m in re.finditer(_HEX + rb"\s*" + _HEX + rb"\s*(?:" + _HEX + rb"|\[([^\]]*)\])", block.group(1)):
            lo, hi = _hex(m.group(1)), _hex(m.group(2))
            if m.group(3) is not None:
                start = _utf16(m.group(3))
                if len(start) == 1 and hi >= lo:
                    font.uranges.append((lo, hi, ord(start)))
            else:
                for i, dst in enumerate(re.findall(_HEX, m.group(4))[: max(0, hi - lo + 1)]):
                    font.unicode[lo + i] = _utf16(dst)
    font.uranges.sort()
    font.ustarts = [r[0] for r in font.uranges]


def _cid_widths(descendant: Any, font: Font) -> None:
    """A CID font's default width (``/DW``) and its ``/W`` array: lists of widths from a first
    CID, and ranges of one width (kept as ranges, never expanded)."""
    font.default = _num(descendant.get("/DW", 1000))
    w = descendant.get("/W")
    items = list(w)[:200_000] if w is not None else []
    i = 0
    while i + 1 < len(items):
        first = int(_num(items[i]))
        if _is_array(items[i + 1]):
            for k, width in enumerate(list(items[i + 1])[:65_536]):
                font.widths[first + k] = _num(width)
            i += 2
        elif i + 2 < len(items):
            font.ranges.append((first, int(_num(items[i + 1])), _num(items[i + 2])))
            i += 3
        else:
            break
    font.ranges.sort()
    font.starts = [r[0] for r in font.ranges]


def _descriptor(descriptor: Any, font: Font) -> None:
    """Descent, ascent (descent + 1 em when missing or not above it) and, for a simple font,
    the missing width, from the FontDescriptor (None: nothing)."""
    if descriptor is None:
        return
    font.descent = _num(descriptor.get("/Descent", 0)) / 1000
    ascent = _num(descriptor.get("/Ascent", 0)) / 1000
    font.ascent = ascent if ascent > font.descent else font.descent + 1
    if font.subtype != "/Type0":
        font.default = _num(descriptor.get("/MissingWidth", 0))


# -- summaries -----------------------------------------------------------------------------------
@dataclass
class Summary:
    """What one content stream holds, in its own coordinate space (see the module docstring).

    ``children`` are forms it places: (cache key, placement matrix, label); ``count`` is the
    number of placements in the whole subtree (children, theirs, …) and ``bbox`` the form's BBox.
    """

    label: str
    fonts: dict[Any, tuple[str, bool, str]] = field(default_factory=dict)  # key → (BaseFont, embedded, where)
    rgb: list[str] = field(default_factory=list)
    spaces: list[str] = field(default_factory=list)        # colour spaces PDF/X-1a refuses (ICCBased, Lab, Cal…)
    transparency: list[str] = field(default_factory=list)
    neutrals: list[str] = field(default_factory=list)      # images building greys from C, M and Y (Walker(neutrals=True))
    ink: dict[tuple[float, str], list[Box]] = field(default_factory=dict)  # (total %, what) → where, local bounds
    images: list[tuple[int, int, Matrix, str]] = field(default_factory=list)
    strokes: dict[tuple[float, float, float, float, float], str] = field(default_factory=dict)  # (width, a, b, c, d) → where
    chars: list[tuple[Box, str]] = field(default_factory=list)
    children: list[tuple[Any, Matrix, str]] = field(default_factory=list)
    count: int = 0
    bbox: Box | None = None
    counts: dict[str, int] = field(default_factory=dict)   # complete counts for rgb, spaces, transparency, neutrals
    die: list[Box] = field(default_factory=list)           # bounds of each subpath stroked in the die line's separation
    work: int = 0  # operators pdfium runs to paint this stream once: its own, and its pattern fills' (Walker.pattern)

    def note(self, kind: str, text: str) -> None:
        bucket: list[str] = getattr(self, kind)
        self.counts[kind] = self.counts.get(kind, 0) + 1
        if len(bucket) < KEEP and text not in bucket:
            bucket.append(text)


@dataclass
class Measure:
    """A form's subtree under one linear transformation (translation left out), cached per
    (form, a, b, c, d): least image DPI, thinnest stroke, highest ink, character boxes."""

    bbox: Box | None
    dpi: list[tuple[float, str]]              # (DPI, description) per image, least first, at most KEEP
    stroke: tuple[float, str] | None          # thinnest stroke width pt, where
    ink: list[tuple[float, str, list[Box]]]   # the highest totals, highest first, with where they are
    chars: list[tuple[Box, str]]
    count: int


_RGB = {"/DeviceRGB", "/RGB", "/CalRGB"}
#: The colour-space kind :meth:`Walker._space` gives the ``All`` separation (``[/Separation /All ...]``,
#: how crop and registration marks print on every plate): it counts as no ink.
ALL_SEPARATION = "/Separation /All"
#: The colour-space kind :meth:`Walker._space` gives the die line's separation (the profile's
#: ``cut_layer``, e.g. ``[/Separation /CutContour ...]``): a cut path, not ink; its stroked paths
#: are kept (:attr:`Summary.die`) so preflight can match them to the tokens' trims.
DIE_SEPARATION = "/Separation die"
#: Most die-line paths kept per stream.
MAX_DIE_PATHS = 100_000
_NOT_X1A = {"/Lab": "Lab", "/CalGray": "CalGray", "/CalRGB": "CalRGB"}
#: Path-construction operators, held back by :meth:`_Reader.run` until the path is painted.
_PATH = frozenset(("m", "l", "c", "v", "y", "re"))
_GRAY = ("/DeviceGray", 1)
_CMYK = ("/DeviceCMYK", 4)
_DEVICE = {"/DeviceGray": 1, "/G": 1, "/DeviceCMYK": 4, "/CMYK": 4, "/DeviceRGB": 3, "/RGB": 3}


class Walker:
    """Reads the streams of one open PDF once each, within a :class:`Budget`.

    Args:
        pdf: an open ``pikepdf.Pdf``.
        budget: the work budget.
        ink_limit: total ink (%) above which an ink use is recorded with its bounds.
        die: the die line's separation name (``CutContour``), or None: no separation is one.
    """

    def __init__(self, pdf: Any, budget: Budget, ink_limit: float, die: str | None = None, neutrals: bool = False):
        import pikepdf

        self.neutrals = neutrals  # look for greys built from C, M and Y in CMYK images (Summary.neutrals)

        self.die = None if die is None else "/" + die  # the die line's separation name (profile key cut_layer)
        self.pikepdf = pikepdf
        self.pdf = pdf
        self.budget = budget
        self.ink_limit = ink_limit
        self.forms: dict[Any, Summary] = {}
        self.fonts: dict[Any, Font] = {}
        self.image_ink: dict[Any, ImageInk | None] = {}
        self.measures: dict[tuple[Any, float, float, float, float], Measure] = {}
        #: One scratch stream per nesting level of :meth:`_read` (a form read while its parent is
        #: being parsed gets its own), each the ``/Contents`` of an unlisted page dictionary so
        #: :meth:`pikepdf.Page.parse_contents` can read it. They live in ``pdf`` itself: qpdf's
        #: callbacks may use only the Pdf being parsed, and the reader reads ``pdf``'s resources.
        self.scratch: list[tuple[Any, Any]] = []
        self.reading = 0  # how many streams are being read (nested: a form read while its parent is parsed)
        self._active: set[Any] = set()
        #: Page summaries by content (streams, resources, print area): pages sharing one content
        #: stream are parsed once (its operators counted once), as forms are.
        self.pages: dict[tuple[Any, ...], Summary] = {}
        #: ``/Do`` counts of the first pass, by content streams.
        self.do_counts: dict[tuple[Any, ...], int] = {}
        #: Pages of the first pass by content streams: a page whose streams no other page uses
        #: keeps no summary once read (a sheet's 1,251 distinct pages held 50 MB of them).
        self.uses: dict[tuple[Any, ...], int] = {}

    # -- streams ---------------------------------------------------------------------------------
    def content(self, page: Any, number: int) -> bytes:
        """Page ``number``'s content streams, decoded within the budget and joined."""
        return b"\n".join(decode(s, self.budget, f"the content stream of page {number}") for s in self._streams(page))

    def _streams(self, page: Any) -> list[Any]:
        contents = page.obj.get("/Contents")
        parts = [] if contents is None else (list(contents) if _is_array(contents) else [contents])
        return [s for s in parts if isinstance(s, self.pikepdf.Stream)]

    def _content_key(self, page: Any) -> tuple[Any, ...] | None:
        """The identity of a page's content streams (None when one is a direct object: never shared)."""
        streams = self._streams(page)
        if not all(s.is_indirect for s in streams):
            return None
        return tuple(s.objgen for s in streams)

    def count_placements(self, pages: Any) -> None:
        """A first pass over the page streams counting ``/Name Do`` operations (a regular
        expression, no parsing): a file whose pages alone place more forms and images than the
        budget is refused before any page is read in full.

        Raises:
            PreflightError: over ``limits.placements`` (or a decoding limit).
        """
        total = 0
        for number, page in enumerate(pages, 1):
            key = self._content_key(page)
            found = self.do_counts.get(key) if key is not None else None
            if key is not None:
                self.uses[key] = self.uses.get(key, 0) + 1
            if found is None:
                found = sum(1 for _ in _DO.finditer(self.content(page, number)))
                if key is not None:
                    self.do_counts[key] = found
            total += found
            if total > self.budget.limits.placements:
                raise self.budget.refuse("placements", PLACEMENTS)

    def page(self, page: Any, number: int, area: Box | None = None) -> Summary:
        """The summary of page ``number``'s own content (its forms are children); ink is kept
        only where it reaches ``area`` (the print area, default user space). Pages with the same
        content streams, resources and area share one summary: the stream is parsed once.
        The summary is shared: callers only read it. It is kept for the pages still to come only
        when :meth:`count_placements` met those streams on more than one page (or did not run)."""
        resources = _inherited(page.obj, "/Resources")  # inheritable (PDF 32000-1 7.7.3.4)
        streams = self._content_key(page)
        key = None
        if streams is not None:
            held = resources.objgen if resources is not None and resources.is_indirect else \
                (None if resources is None else resources.unparse())  # a direct dictionary: by its text
            key = (streams, held, area)
            found = self.pages.get(key)
            if found is not None:
                return found
        data = self.content(page, number)
        summary = Summary("page")
        self._read(data, resources, summary, "page", 0, area)
        if key is not None and (streams is None or self.uses.get(streams, 2) > 1):
            self.pages[key] = summary
        return summary

    def form(self, xobject: Any, label: str, depth: int, cell: bool = False) -> tuple[Any, Summary | None]:
        """(cache key, summary) of a Form XObject (also pattern cells, glyphs, appearances); the
        summary is None past :data:`MAX_FORM_DEPTH` or for a form that places itself. A pattern
        ``cell``'s fills with patterns are not charged when it is read (:meth:`pattern` charges
        them with every fill that paints the cell)."""
        key = xobject.objgen if xobject.is_indirect else id(xobject)
        if key in self.forms:
            return key, self.forms[key]
        if key in self._active:  # a form that places itself: drawn once, as viewers do
            return key, None
        if depth > MAX_FORM_DEPTH:
            raise PreflightError(f"Form XObjects nested more than {MAX_FORM_DEPTH} deep (a fixed limit: no printed file needs more)")
        self._active.add(key)
        try:
            summary = Summary(label, bbox=_box(xobject.get("/BBox", [0, 0, 0, 0])))
            group = xobject.get("/Group")
            if group is not None and str(group.get("/S", "")) == "/Transparency":
                summary.note("transparency", f"transparency group in {label}")
            data = decode(xobject, self.budget, label)
            self._read(data, xobject.get("/Resources"), summary, label, depth, cell=cell)
            summary.count = len(summary.children) + len(summary.images) + sum(self.forms[k].count for k, _, _ in summary.children if k in self.forms)
            self.forms[key] = summary
        finally:
            self._active.discard(key)
        return key, summary

    def _read(self, data: bytes, resources: Any, summary: Summary, label: str, depth: int, area: Box | None = None,
              cell: bool = False) -> None:
        if not data.strip():
            return
        level = self.reading
        if level == len(self.scratch):
            stream = self.pikepdf.Stream(self.pdf, b"")
            self.scratch.append((stream, self.pikepdf.Page(self.pdf.make_indirect(self.pikepdf.Dictionary(Contents=stream)))))
        stream, holder = self.scratch[level]
        self.budget.check_items(data, label)
        stream.write(data)
        reader = _Reader(self, resources, summary, label, depth, area)
        self.reading += 1
        try:
            # qpdf groups operands in C++: fast; memory ~300 bytes a token (a stream has at most its bytes + 1 tokens)
            if len(data) < GROUPED_TOKENS or _tokens(data) <= GROUPED_TOKENS:
                reader.run(self.pikepdf.parse_content_stream(stream))
            else:  # one object at a time: flat memory whatever the stream holds
                holder.parse_contents(reader)
        except PreflightError:
            raise
        except Exception as exc:  # noqa: BLE001 - a malformed stream
            raise PreflightError(f"cannot read {label if label != 'page' else 'a page'}'s content ({_short(exc)})") from None
        finally:
            self.reading -= 1
            stream.write(b"")  # the decoded bytes are not kept past the read
        reader.charge()
        summary.work = reader.ops + reader.tile_work
        if not cell:  # a pattern cell's fills are charged with each fill that paints the cell
            self.budget.charge_tiles(reader.tile_work)
        for name in _patterns(resources):
            self.pattern(resources, name, summary, label, depth, used=False)

    def pattern(self, resources: Any, name: str, summary: Summary, label: str, depth: int, *, used: bool = True,
                keep: bool = True) -> int:
        """Read the tiling pattern ``name`` of ``resources`` (once; a form of its own, a child of
        ``summary`` when ``keep``) and return what one fill with it costs pdfium: the operators
        of its cell, its own pattern fills' included (:attr:`Summary.work`); 0 for a shading
        pattern or a name that is not one.

        Raises:
            PreflightError: a pattern ``used`` to paint inside its own cell (directly or through
                the patterns it uses): pdfium paints it without end (a 3-operator cell took more
                than 60 s); or over a limit while reading it.
        """
        try:
            pattern = resources["/Pattern"][name]
        except (KeyError, TypeError):
            return 0
        if int(pattern.get("/PatternType", 0)) != 1 or not isinstance(pattern, self.pikepdf.Stream):
            return 0
        key, inner = self.form(pattern, f"pattern {name} in {label}", depth + 1, cell=True)
        if inner is None:
            if used and key in self._active:
                raise PreflightError(f"tiling pattern {name} in {label if label != 'page' else 'a page'} paints with itself "
                                     "inside its own cell (a fixed refusal: a viewer paints it without end)")
            return 0
        if keep:
            summary.children.append((key, IDENTITY, inner.label))  # fonts/colour only: a pattern cell is not placed
        return inner.work

    # -- fonts -----------------------------------------------------------------------------------
    def font(self, obj: Any, summary: Summary, where: str, depth: int, resource: str = "") -> Font:
        """The :class:`Font` of a font dictionary (read once), recorded in ``summary`` as used
        ``where``; a Type 3 font's glyph procedures are read as forms (their fonts and colours)."""
        key = obj.objgen if obj.is_indirect else id(obj)
        cached = self.fonts.get(key)
        if cached is not None:
            summary.fonts.setdefault(key, (cached.name, cached.embedded, where))
            return cached
        name = str(obj.get("/BaseFont", obj.get("/Name", resource or "(unnamed)")))
        subtype = str(obj.get("/Subtype", ""))
        font = Font(name=name, embedded=embedded(obj), subtype=subtype)
        self.fonts[key] = font
        summary.fonts.setdefault(key, (name, font.embedded, where))
        try:
            self._metrics(obj, font)
        except PreflightError:
            raise
        except Exception:  # noqa: BLE001 - damaged metrics: boxes fall back to the default width
            pass
        if subtype == "/Type3":
            procs = obj.get("/CharProcs")
            res = obj.get("/Resources")
            for glyph in list(procs.keys())[:256] if procs is not None else []:
                stream = procs[glyph]
                if isinstance(stream, self.pikepdf.Stream):
                    if res is not None and "/Resources" not in stream:
                        stream.Resources = res  # glyphs use the font's resources (PDF 32000-1 9.6.5)
                    k, inner = self.form(stream, f"Type 3 glyph {glyph} of font {name}", depth + 1)
                    if inner is not None:
                        summary.children.append((k, IDENTITY, inner.label))
        return font

    def _metrics(self, obj: Any, font: Font) -> None:
        """Widths, ascent and descent, and the ToUnicode map of the font dictionary ``obj``."""
        target = obj
        if font.subtype == "/Type0":
            font.two_byte = True
            target = obj.DescendantFonts[0]
            _cid_widths(target, font)
        elif font.subtype == "/Type3":
            fm = _matrix(obj.get("/FontMatrix", [0.001, 0, 0, 0.001, 0, 0]))
            font.scale = fm[0] or 0.001
        if font.subtype != "/Type0":
            first = int(_num(obj.get("/FirstChar", 0)))
            widths = obj.get("/Widths")
            for k, width in enumerate(list(widths)[:65_536] if widths is not None else []):
                font.widths[first + k] = _num(width)
        _descriptor(target.get("/FontDescriptor"), font)
        if not font.widths and not font.ranges and not font.default:
            font.default = 500.0  # a standard font without metrics: an average advance
        tounicode = obj.get("/ToUnicode")
        if isinstance(tounicode, self.pikepdf.Stream):
            _read_cmap(font, decode(tounicode, self.budget, f"the ToUnicode CMap of font {font.name}"))

    # -- measuring placements ----------------------------------------------------------------------
    def measure(self, key: Any, linear: tuple[float, float, float, float], depth: int = 0) -> Measure:
        """The subtree of form ``key`` under the linear part ``linear`` (cached).

        Raises:
            PreflightError: the subtree draws more than :data:`MAX_CHARS` characters.
        """
        cache = (key, *linear)
        found = self.measures.get(cache)
        if found is not None:
            return found
        summary = self.forms[key]
        m: Matrix = (*linear, 0.0, 0.0)
        result = Measure(bounds(summary.bbox, m) if summary.bbox else None, image_dpis(summary.images, m),
                         thinnest(summary.strokes, m), [(t, w, [bounds(b, m) for b in boxes]) for (t, w), boxes in summary.ink.items()],
                         [(bounds(b, m), t) for b, t in summary.chars], len(summary.children))
        for child, cm, _ in summary.children:
            if child in self.forms and depth <= MAX_FORM_DEPTH:
                inner = mul(cm, m)
                _add_measure(result, self.measure(child, inner[:4], depth + 1), inner[4], inner[5], summary.label)
        result.ink = sorted(result.ink, key=lambda e: -e[0])[:INK_ENTRIES]
        self.measures[cache] = result
        return result


def _add_measure(into: Measure, sub: Measure, dx: float, dy: float, label: str) -> None:
    """Add a child's measure ``sub``, placed at (``dx``, ``dy``), to its parent's ``into``.

    Raises:
        PreflightError: more than :data:`MAX_CHARS` characters in all (``label``: the parent).
    """
    into.dpi = sorted(into.dpi + sub.dpi)[:KEEP]
    if sub.stroke and (into.stroke is None or sub.stroke[0] < into.stroke[0]):
        into.stroke = sub.stroke
    into.ink += [(t, w, [(b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy) for b in boxes]) for t, w, boxes in sub.ink]
    into.chars += [((b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy), t) for b, t in sub.chars]
    if len(into.chars) > MAX_CHARS:
        raise PreflightError(f"more than {MAX_CHARS:,} characters drawn by {label} and the forms it places (a fixed limit)")
    into.count += sub.count


def image_dpis(images: list[tuple[int, int, Matrix, str]], m: Matrix) -> list[tuple[float, str]]:
    """(least DPI of both axes, description) of each image placed by ``images`` under ``m``."""
    out = []
    for w, h, im, name in images:
        t = mul(im, m)
        pw, ph = math.hypot(t[0], t[1]), math.hypot(t[2], t[3])
        if pw <= 0 or ph <= 0:
            continue
        dpi = min(w / (pw / 72), h / (ph / 72))
        out.append((dpi, f"{name}: {w} × {h} px placed at {pw / 72:.3f} × {ph / 72:.3f} in"))
    return sorted(out)[:KEEP]


def thinnest(strokes: dict[tuple[float, float, float, float, float], str], m: Matrix) -> tuple[float, str] | None:
    """The thinnest stroke (pt, where) of ``strokes`` under ``m``."""
    best = None
    for (width, a, b, c, d), where in strokes.items():
        t = mul((a, b, c, d, 0.0, 0.0), m)
        pt = width * scale_of(t)
        if best is None or pt < best[0]:
            best = (pt, where)
    return best


#: Streams of at most this many tokens (operands and operators, an upper estimate) are parsed
#: by qpdf into a list at once; longer ones object by object.
GROUPED_TOKENS = 500_000
#: A Do operation: a name, white space, ``Do`` (PDF 32000-1 8.8).
_DO = re.compile(rb"/[^\s/\[\]()<>{}%]*\s*Do(?![^\s/\[\]()<>{}%])")
_SEPARATORS = (b" ", b"\n", b"\r", b"\t", b"/", b"(", b"[", b"<", b"\x00", b"\x0c")


def _tokens(data: bytes) -> int:
    """An upper estimate of the tokens in a content stream (every token follows a separator)."""
    return 1 + sum(data.count(sep) for sep in _SEPARATORS)


def _patterns(resources: Any) -> Iterator[str]:
    try:
        patterns = resources.get("/Pattern") if resources is not None else None
        return iter(list(patterns.keys())[:64]) if patterns is not None else iter(())
    except Exception:  # noqa: BLE001
        return iter(())


class _Reader(pikepdf.StreamParser):
    """The content-stream interpreter: fed one parsed object at a time by qpdf (flat memory),
    it keeps the graphics and text state and writes what it sees into a :class:`Summary`."""

    def __init__(self, walker: Walker, resources: Any, summary: Summary, label: str, depth: int, area: Box | None = None):
        super().__init__()
        self.area = area
        self.w = walker
        self.pk = pikepdf
        self.operator_type = pikepdf.Operator
        self.res = resources if resources is not None else pikepdf.Dictionary()
        self.s = summary
        self.label = label
        self.depth = depth
        self.operands: list[Any] = []
        self.ops = 0  # operators read
        self.args = 0  # operands read (all of them, also past the 64 kept)
        self.charged = (0, 0)  # (operators, operands) charged to the budget so far
        self.ctm: Matrix = IDENTITY
        self.stack: list[tuple[Any, ...]] = []
        self.fill: tuple[str, int] = ("/DeviceGray", 1)     # space, components
        self.stroke_space: tuple[str, int] = ("/DeviceGray", 1)
        self.fill_ink = 100.0
        self.stroke_ink = 100.0
        self.lw = 1.0
        self.path: list[list[float]] = []   # [x0, y0, x1, y1] of each subpath of the current path
        self.font: Font | None = None
        self.fs = 0.0
        self.tc = self.tw = self.rise = self.tl = 0.0
        self.th = 1.0
        self.mode = 0
        self.tm: Matrix = IDENTITY
        self.tlm: Matrix = IDENTITY
        self.inline: dict[str, Any] = {}
        self.subtree = 0
        self.xobjects: dict[str, tuple[Any, ...]] = {}
        self.ink_names: dict[str, str] = {}  # "fill 100 %" → "fill 100 % in form /F1"
        #: Path-construction operators (m, l, c, v, y, re) with their operands, not yet run: only
        #: painting reads the path, and only with ink or in the die line's separation (see _paint).
        self.pending: list[tuple[Any, Any]] = []
        self.tiles = 0  # the costliest tiling pattern chosen in this stream so far (Walker.pattern), per fill
        self.tile_work = 0  # what the fills with those patterns cost pdfium in all
        self.tf: dict[str, Font | None] = {}  # Tf's font resources met so far, by name (indirect fonts, and names not found)

    def run(self, instructions: list[Any]) -> None:
        """Interpret the instructions of qpdf's grouped parse (operands with their operator), in order.

        Each instruction's operands are counted, and the count charged to the budget whenever
        4,096 operators and operands have gathered since the last charge, before that
        instruction runs (as :meth:`handle_object` does). They are converted to Python objects
        once (a list), except a path-construction operator's (``m l c v y re``): those are held
        back as qpdf gives them and run by :meth:`_build` only when a paint needs the path's boxes
        (:meth:`_paint`), in order; nothing else reads the path, so the result is the same.

        Raises:
            PreflightError: over a limit of the budget (see :meth:`Budget.charge_operators`).
        """
        ops, args = self.ops, self.args
        charged = sum(self.charged)
        table = _OPS
        pending = self.pending
        for ins in instructions:
            op = str(ins.operator)
            if op in _PATH:  # held back unconverted: measured only if the path is painted with ink or as the die line
                o = ins.operands
                ops += 1
                args += len(o)
                if ops + args - charged >= 4096:
                    self.ops, self.args = ops, args
                    self.charge()
                    charged = ops + args
                pending.append((table[op], o))
                if len(pending) >= 1024:
                    self._build()
                continue
            try:
                o = list(ins.operands)  # each item converted once (indexing qpdf's list converts on every access)
            except Exception:  # noqa: BLE001 - an operand that will not convert: the handler meets it, as before
                o = ins.operands
            ops += 1
            args += len(o)
            if ops + args - charged >= 4096:
                self.ops, self.args = ops, args
                self.charge()
                charged = ops + args
            if op == "INLINE IMAGE":
                self.inline = {str(k): v for k, v in ins.iimage.obj.items()}
                op = "EI"
            handler = table.get(op)
            if handler is not None:  # one malformed operator is skipped, as viewers do
                try:
                    handler(self, o)
                except (PreflightError, KeyboardInterrupt):
                    raise
                except Exception:  # noqa: BLE001
                    pass
        self.ops, self.args = ops, args

    def _build(self) -> None:
        """Run the path-construction operators :meth:`run` held back, in order, into the current path."""
        for handler, o in self.pending:
            try:
                handler(self, o)
            except (PreflightError, KeyboardInterrupt):
                raise
            except Exception:  # noqa: BLE001 - one malformed operator is skipped
                pass
        self.pending.clear()

    def charge(self) -> None:
        """Charge the operators and operands read since the last charge to the budget."""
        ops, args = self.charged
        self.charged = (self.ops, self.args)
        self.w.budget.charge_operators(self.ops - ops, self.args - args)

    def _dispatch(self, op: str, operands: Any) -> None:
        """Run ``op``'s handler, if it has one; one malformed operator is skipped, as viewers do."""
        handler = _OPS.get(op)
        if handler is not None:
            try:
                handler(self, operands)
            except (PreflightError, KeyboardInterrupt):
                raise
            except Exception:  # noqa: BLE001
                pass

    # qpdf's ParserCallbacks
    def handle_object(self, obj: Any, offset: int = 0, length: int = 0) -> None:
        if self.ops + self.args - sum(self.charged) >= 4096:
            self.charge()
        if isinstance(obj, self.operator_type):
            self.ops += 1
            op = str(obj)
            self._dispatch(op, self.operands)
            self.operands = [] if op != "ID" else self.operands
            if op == "EI":
                self.operands = []
        else:
            self.args += 1
            if len(self.operands) < 64:
                self.operands.append(obj)

    def handle_eof(self) -> None:
        pass

    # -- helpers
    def _where(self) -> str:
        return self.label

    def _resource(self, category: str, name: Any) -> Any:
        try:
            return self.res[category][str(name)]
        except (KeyError, TypeError, AttributeError):
            return None

    def _space(self, value: Any) -> tuple[str, int]:
        """(kind, components): kind is a device space name, or ``/ICCBased``, ``/Lab``, … ."""
        for _ in range(4):
            if isinstance(value, self.pk.Name) or isinstance(value, str):
                name = str(value)
                if name in _DEVICE or name == "/Pattern":
                    return name, _DEVICE.get(name, 1)
                named = self._resource("/ColorSpace", name)
                if named is None:
                    return name, 1
                value = named
                continue
            try:
                kind = str(value[0])
            except Exception:  # noqa: BLE001
                return "/DeviceGray", 1
            return _ARRAY_SPACES.get(kind, _Reader._other_space)(self, kind, value)
        return "/DeviceGray", 1

    def _icc_space(self, kind: str, value: Any) -> tuple[str, int]:
        return "/ICCBased", int(_num(value[1].get("/N", 0)))

    def _indexed_space(self, kind: str, value: Any) -> tuple[str, int]:
        return f"/Indexed {self._space(value[1])[0]}", 1

    def _separation_space(self, kind: str, value: Any) -> tuple[str, int]:
        if str(value[1]) == "/All":  # registration: every plate, no ink
            return ALL_SEPARATION, 1
        if self.w.die is not None and str(value[1]) == self.w.die:  # the die line: a cut, no ink
            return DIE_SEPARATION, 1
        return kind, 1

    def _other_space(self, kind: str, value: Any) -> tuple[str, int]:
        if kind == "/DeviceN":
            return kind, len(value[1]) if _is_array(value[1]) else 1
        return kind, 3 if kind in ("/CalRGB", "/Lab") else 1

    def _check_space(self, space: tuple[str, int], what: str) -> None:
        kind, n = space
        if kind in ("/DeviceRGB", "/RGB", "/CalRGB") or (kind == "/ICCBased" and n == 3) or kind.startswith("/Indexed /DeviceRGB") \
                or kind.startswith("/Indexed /CalRGB"):
            self.s.note("rgb", f"{what} in colour space {kind} in {self.label}")
        if kind in _NOT_X1A or kind.startswith("/ICCBased") or kind.startswith("/Indexed /ICCBased") or kind.startswith("/Indexed /Lab"):
            self.s.note("spaces", f"{what} in colour space {kind}{f' (N {n})' if kind == '/ICCBased' else ''} in {self.label}")

    def _ink(self, space: tuple[str, int], values: list[Any]) -> float:
        kind, n = space
        nums = _numbers(values)
        if kind in ("/DeviceCMYK", "/CMYK") or (kind == "/ICCBased" and n == 4):
            return 100.0 * sum([max(0.0, min(1.0, v)) for v in nums[:4]])
        if kind in ("/DeviceGray", "/G") or (kind == "/ICCBased" and n == 1):
            return 100.0 * (1 - max(0.0, min(1.0, nums[0]))) if nums else 100.0
        if kind == "/DeviceN":
            return 100.0 * sum(max(0.0, min(1.0, v)) for v in nums)
        if kind == "/Separation":
            return 100.0 * max(0.0, min(1.0, nums[0])) if nums else 100.0
        return 0.0  # the All separation (crop and registration marks) and the die line too: marks, not ink

    def _record_ink(self, total: float, what: str, box: Box) -> None:
        """Keep the highest totals (per total and kind, bounds united); on a page, only ink that
        reaches the print area counts (crop marks in registration colour lie outside it)."""
        if total <= 0 or (self.area is not None and not overlaps(box, self.area)):
            return
        entries = self.s.ink
        named = self.ink_names.get(what)
        if named is None:  # worded once per kind of ink use in this stream, not per character or path
            named = self.ink_names[what] = f"{what} in {self.label}"
        key = (round(total, 1), named)
        if key in entries:
            boxes = entries[key]
            if len(boxes) < INK_BOXES:
                boxes.append(box)
            else:  # past the cap the last box grows to cover the rest
                old = boxes[-1]
                boxes[-1] = (min(old[0], box[0]), min(old[1], box[1]), max(old[2], box[2]), max(old[3], box[3]))
        elif len(entries) < INK_ENTRIES:
            entries[key] = [box]
        else:
            low = min(entries)
            if key > low:
                del entries[low]
                entries[key] = [box]

    def _path_boxes(self) -> list[Box]:
        """The bounds of each subpath of the current path, in the stream's space."""
        return [bounds((p[0], p[1], p[2], p[3]), self.ctm) for p in self.path]

    def _add_point(self, x: float, y: float, new: bool = False) -> None:
        if new or not self.path:
            if len(self.path) < 4096:
                self.path.append([x, y, x, y])
                return
        p = self.path[-1]
        p[0], p[1], p[2], p[3] = min(p[0], x), min(p[1], y), max(p[2], x), max(p[3], y)

    # -- operators
    def op_q(self, o: list[Any]) -> None:
        if len(self.stack) < 1024:
            self.stack.append((self.ctm, self.fill, self.stroke_space, self.fill_ink, self.stroke_ink, self.lw, self.font, self.fs,
                               self.tc, self.tw, self.th, self.tl, self.rise, self.mode))

    def op_Q(self, o: list[Any]) -> None:
        if self.stack:
            (self.ctm, self.fill, self.stroke_space, self.fill_ink, self.stroke_ink, self.lw, self.font, self.fs,
             self.tc, self.tw, self.th, self.tl, self.rise, self.mode) = self.stack.pop()

    def op_cm(self, o: list[Any]) -> None:
        if len(o) == 6:
            try:
                a, b, c, d, e, f = map(float, o)
            except (TypeError, ValueError):
                a, b, c, d, e, f = (_num(v) for v in o)
            A, B, C, D, E, F = self.ctm  # mul((a, …, f), ctm), written out
            self.ctm = (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)

    def op_w(self, o: list[Any]) -> None:
        self.lw = abs(_num(o[0]))

    def op_gs(self, o: list[Any]) -> None:
        state = self._resource("/ExtGState", o[0])
        if state is None:
            return
        name = str(o[0])
        smask = state.get("/SMask")
        if smask is not None and str(smask) != "/None":
            self.s.note("transparency", f"soft mask (ExtGState {name}) in {self.label}")
        for key, what in (("/CA", "stroke"), ("/ca", "fill")):
            if key in state and _num(state[key]) < 1:
                self.s.note("transparency", f"{what} alpha {_num(state[key]):g} (ExtGState {name}) in {self.label}")
        bm = state.get("/BM")
        if bm is not None:
            modes = [str(b) for b in bm] if _is_array(bm) else [str(bm)]
            if modes and modes[0] not in ("/Normal", "/Compatible"):
                self.s.note("transparency", f"blend mode {modes[0]} (ExtGState {name}) in {self.label}")
        if "/LW" in state:
            self.lw = abs(_num(state["/LW"]))

    def _set(self, fill: bool, space: tuple[str, int], values: list[Any], op: str) -> None:
        self._check_space(space, op)
        ink = self._ink(space, values)
        if fill:
            self.fill, self.fill_ink = space, ink
        else:
            self.stroke_space, self.stroke_ink = space, ink

    # g, G, k and K: _set without _check_space, which notes nothing for DeviceGray and DeviceCMYK
    def op_g(self, o: list[Any]) -> None:
        self.fill, self.fill_ink = _GRAY, self._ink(_GRAY, o)

    def op_G(self, o: list[Any]) -> None:
        self.stroke_space, self.stroke_ink = _GRAY, self._ink(_GRAY, o)

    def op_k(self, o: list[Any]) -> None:
        self.fill, self.fill_ink = _CMYK, self._ink(_CMYK, o)

    def op_K(self, o: list[Any]) -> None:
        self.stroke_space, self.stroke_ink = _CMYK, self._ink(_CMYK, o)

    def op_rg(self, o: list[Any]) -> None:
        self.s.note("rgb", f"rg operator in {self.label}")
        self.fill, self.fill_ink = ("/DeviceRGB", 3), 0.0

    def op_RG(self, o: list[Any]) -> None:
        self.s.note("rgb", f"RG operator in {self.label}")
        self.stroke_space, self.stroke_ink = ("/DeviceRGB", 3), 0.0

    def op_cs(self, o: list[Any]) -> None:
        space = self._space(o[0])
        self._check_space(space, "cs")
        self.fill, self.fill_ink = space, self._ink(space, [0, 0, 0, 1] if space[0] in ("/DeviceCMYK", "/ICCBased") and space[1] == 4 else [0])

    def op_CS(self, o: list[Any]) -> None:
        space = self._space(o[0])
        self._check_space(space, "CS")
        self.stroke_space, self.stroke_ink = space, self._ink(space, [0, 0, 0, 1] if space[1] == 4 else [0])

    def op_sc(self, o: list[Any]) -> None:
        self._set(True, self.fill, o, "sc")

    def op_scn(self, o: list[Any]) -> None:
        self._tiling(o)
        self._set(True, self.fill, o, "scn")

    def _tiling(self, o: list[Any]) -> None:
        """Note what a fill with the pattern ``scn``/``SCN`` chose costs (:meth:`Walker.pattern`;
        the stream's pattern resources become its children once it is read)."""
        if o and isinstance(o[-1], self.pk.Name):
            self.tiles = max(self.tiles, self.w.pattern(self.res, str(o[-1]), self.s, self.label, self.depth, keep=False))

    def op_SC(self, o: list[Any]) -> None:
        self._set(False, self.stroke_space, o, "SC")

    def op_SCN(self, o: list[Any]) -> None:
        self._tiling(o)
        self._set(False, self.stroke_space, o, "SCN")

    # m, l, c and re: _add_point written out for the common operand counts (the same boxes)
    def op_m(self, o: list[Any]) -> None:
        if len(o) >= 2:
            x, y = _num(o[0]), _num(o[1])
            path = self.path
            if len(path) < 4096:
                path.append([x, y, x, y])
            else:
                p = path[-1]
                p[0], p[1], p[2], p[3] = min(p[0], x), min(p[1], y), max(p[2], x), max(p[3], y)

    def op_l(self, o: list[Any]) -> None:
        if len(o) >= 2:
            x, y = _num(o[0]), _num(o[1])
            path = self.path
            if path:
                p = path[-1]
                p[0], p[1], p[2], p[3] = min(p[0], x), min(p[1], y), max(p[2], x), max(p[3], y)
            else:
                path.append([x, y, x, y])

    def op_c(self, o: list[Any]) -> None:
        if len(o) != 6:
            for i in range(0, len(o) - 1, 2):
                self._add_point(_num(o[i]), _num(o[i + 1]))
            return
        x0, y0, x1, y1, x2, y2 = _nums(o)
        path = self.path
        if not path:
            path.append([x0, y0, x0, y0])
        p = path[-1]
        p[0], p[1], p[2], p[3] = min(p[0], x0, x1, x2), min(p[1], y0, y1, y2), max(p[2], x0, x1, x2), max(p[3], y0, y1, y2)

    def op_re(self, o: list[Any]) -> None:
        if len(o) == 4:
            x, y, w, h = _nums(o)
            x1, y1 = x + w, y + h
            path = self.path
            if len(path) < 4096:
                path.append([min(x, x1), min(y, y1), max(x, x1), max(y, y1)])
            else:
                p = path[-1]
                p[0], p[1], p[2], p[3] = min(p[0], x, x1), min(p[1], y, y1), max(p[2], x, x1), max(p[3], y, y1)

    def _paint(self, fill: bool, stroke: bool) -> None:
        """Paint the current path: its ink where it has some, its stroke width, the die line's
        paths, and the cost of a pattern fill (:attr:`tile_work`)."""
        die = stroke and self.stroke_space[0] == DIE_SEPARATION
        if die or (stroke and not self.stroke_ink <= 0) or (fill and not self.fill_ink <= 0):
            self._build()
            boxes = self._path_boxes()
        else:  # _record_ink keeps nothing of 0 % ink: the path's boxes are not needed
            self.pending.clear()
            boxes = []
        if self.tiles:
            self._pattern_paint(fill, stroke)
        if die:
            self.s.die.extend(boxes[:max(0, MAX_DIE_PATHS - len(self.s.die))])
        if stroke:
            self._stroke_width()
            what = f"stroke {self.stroke_ink:.0f} %"
            for box in boxes:
                self._record_ink(self.stroke_ink, what, box)
        if fill:
            what = f"fill {self.fill_ink:.0f} %"
            for box in boxes:
                self._record_ink(self.fill_ink, what, box)
        self.path = []

    def _pattern_paint(self, fill: bool, stroke: bool) -> None:
        """A paint with a pattern colour costs a viewer the pattern's cell again (:attr:`tiles`)."""
        if (fill and self.fill[0] == "/Pattern") or (stroke and self.stroke_space[0] == "/Pattern"):
            self.tile_work += self.tiles

    def _stroke_width(self) -> None:
        """Keep the line width under the CTM's linear part (at most 256 kinds; past that, only
        a thinner stroke than every one kept)."""
        strokes = self.s.strokes
        a, b, c, d = self.ctm[:4]
        key = (round(self.lw, 4), round(a, 6), round(b, 6), round(c, 6), round(d, 6))
        if key not in strokes and len(strokes) < 256:
            strokes[key] = self.label
        elif len(strokes) >= 256 and self.lw * scale_of(self.ctm) < min(k[0] for k in strokes):
            strokes[key] = self.label

    def op_S(self, o: list[Any]) -> None:
        self._paint(False, True)

    def op_f(self, o: list[Any]) -> None:
        self._paint(True, False)

    def op_B(self, o: list[Any]) -> None:
        self._paint(True, True)

    def op_n(self, o: list[Any]) -> None:
        self.pending.clear()
        self.path = []

    def op_sh(self, o: list[Any]) -> None:
        shading = self._resource("/Shading", o[0])
        if shading is not None:
            self._check_space(self._space(shading.get("/ColorSpace", "/DeviceGray")), f"shading {o[0]}")

    def op_Do(self, o: list[Any]) -> None:
        name = str(o[0])
        found = self.xobjects.get(name)
        if found is None:
            xobject = self._resource("/XObject", name)
            if xobject is None:
                return
            subtype = str(xobject.get("/Subtype", ""))
            if subtype == "/Form":
                key, summary = self.w.form(xobject, f"form {name}" if self.label == "page" else f"form {name} in {self.label}", self.depth + 1)
                found = (subtype, xobject, key, summary, _matrix(xobject.get("/Matrix", IDENTITY)))
            else:
                found = (subtype, xobject, None, None, IDENTITY)
            self.xobjects[name] = found
        subtype, xobject, key, summary, matrix = found
        if subtype == "/Image":
            self.w.budget.charge_placements(1)
            self._image(xobject, str(name), f"image {name} in {self.label}")
        elif subtype == "/Form":
            if summary is None:
                return
            if len(self.s.children) >= 1_000_000:
                raise self.w.budget.refuse("placements", PLACEMENTS)
            self.s.children.append((key, mul(matrix, self.ctm), summary.label))
            self.subtree += 1 + summary.count
            if self.subtree > self.w.budget.limits.placements:
                raise self.w.budget.refuse("placements", PLACEMENTS)

    def _image(self, image: Any, name: str, what: str) -> None:
        """An image placed under the CTM: its colour space, soft mask, size and ink noted."""
        width, height = int(_num(image.get("/Width", 0))), int(_num(image.get("/Height", 0)))
        mask = bool(image.get("/ImageMask", False))
        if not mask:
            self._image_space(self._space(image.get("/ColorSpace", "/DeviceGray")), what)
        if "/SMask" in image:
            self.s.note("transparency", f"soft mask on {what}")
        if _num(image.get("/SMaskInData", 0)) > 0:
            self.s.note("transparency", f"alpha channel (SMaskInData) in {what}")
        self.s.images.append((width, height, self.ctm, what))
        if not mask:
            self._image_pixels(image, name, what)

    def _image_space(self, space: tuple[str, int], what: str) -> None:
        kind = space[0]
        if kind in _RGB or (kind == "/ICCBased" and space[1] == 3) or kind.startswith("/Indexed /DeviceRGB") or kind.startswith("/Indexed /CalRGB"):
            self.s.note("rgb", f"RGB {what}")
        elif kind in _NOT_X1A or "ICCBased" in kind or "Lab" in kind:
            self.s.note("spaces", f"{what} in colour space {kind}")

    def _image_pixels(self, image: Any, name: str, what: str) -> None:
        """The image's highest ink (and a CMY-built grey) over the whole image's bounds."""
        found = self.w_image_ink(image, what)
        if found is None:
            return
        self._record_ink(found.total, f"image {name} pixel {found.total:.0f} %", bounds((0.0, 0.0, 1.0, 1.0), self.ctm))
        if found.neutral is not None:
            c, m, y, k = (round(v * 100 / 255) for v in found.neutral)
            self.s.note("neutrals", f"{what} builds greys and black from C, M and Y (C{c} M{m} Y{y} K{k})")

    def w_image_ink(self, image: Any, what: str) -> ImageInk | None:
        key = image.objgen if image.is_indirect else id(image)
        if key not in self.w.image_ink:
            self.w.image_ink[key] = image_ink(image, self.w.budget, what, neutrals=self.w.neutrals)
        return self.w.image_ink[key]

    def op_BI(self, o: list[Any]) -> None:
        pass

    def op_ID(self, o: list[Any]) -> None:
        settings = {}
        for i in range(0, len(o) - 1, 2):
            settings[str(o[i])] = o[i + 1]
        self.inline = settings

    def op_EI(self, o: list[Any]) -> None:
        st = self.inline
        self.inline = {}
        space_value = st.get("/CS", st.get("/ColorSpace"))
        w, h = int(_num(st.get("/W", st.get("/Width", 0)))), int(_num(st.get("/H", st.get("/Height", 0))))
        if space_value is not None and not st.get("/IM", st.get("/ImageMask", False)):
            space = self._space(space_value)
            if space[0] in _RGB or (space[0] == "/ICCBased" and space[1] == 3) or space[0].startswith("/Indexed /DeviceRGB"):
                self.s.note("rgb", f"inline RGB image in {self.label}")
        self.w.budget.charge_placements(1)
        self.s.images.append((w, h, self.ctm, f"inline image in {self.label}"))

    # -- text
    def op_BT(self, o: list[Any]) -> None:
        self.tm = self.tlm = IDENTITY

    def op_Tf(self, o: list[Any]) -> None:
        if len(o) >= 2:
            name = str(o[0])
            if name in self.tf:  # this stream set this font before: Walker.font would only find it again
                self.fs = _num(o[1])
                self.font = self.tf[name]
                return
            obj = self._resource("/Font", name)
            self.fs = _num(o[1])
            if obj is not None:
                font = self.w.font(obj, self.s, self.label, self.depth, name)
                if obj.is_indirect:  # a direct dictionary is a new object, a new key, on every lookup: not kept
                    self.tf[name] = font
                self.font = font
            else:
                self.tf[name] = None
                self.font = None

    def op_Tc(self, o: list[Any]) -> None:
        self.tc = _num(o[0])

    def op_Tw(self, o: list[Any]) -> None:
        self.tw = _num(o[0])

    def op_Tz(self, o: list[Any]) -> None:
        self.th = _num(o[0]) / 100

    def op_TL(self, o: list[Any]) -> None:
        self.tl = _num(o[0])

    def op_Ts(self, o: list[Any]) -> None:
        self.rise = _num(o[0])

    def op_Tr(self, o: list[Any]) -> None:
        self.mode = int(_num(o[0]))

    def op_Td(self, o: list[Any]) -> None:
        if len(o) == 2:
            self.tlm = mul((1.0, 0.0, 0.0, 1.0, _num(o[0]), _num(o[1])), self.tlm)
            self.tm = self.tlm

    def op_TD(self, o: list[Any]) -> None:
        if len(o) == 2:
            self.tl = -_num(o[1])
            self.op_Td(o)

    def op_Tm(self, o: list[Any]) -> None:
        if len(o) == 6:
            self.tlm = self.tm = _six(_nums(o))

    def op_Tstar(self, o: list[Any]) -> None:
        self.tlm = mul((1.0, 0.0, 0.0, 1.0, 0.0, -self.tl), self.tlm)  # op_Td([0.0, -tl]): tl is always finite
        self.tm = self.tlm

    def op_Tj(self, o: list[Any]) -> None:
        if o:
            self._show(bytes(o[0]) if isinstance(o[0], self.pk.String) else b"")

    def op_quote(self, o: list[Any]) -> None:
        self.op_Tstar([])
        self.op_Tj(o)

    def op_dquote(self, o: list[Any]) -> None:
        if len(o) == 3:
            self.tw, self.tc = _num(o[0]), _num(o[1])
            self.op_quote(o[2:])

    def op_TJ(self, o: list[Any]) -> None:
        if not o or not _is_array(o[0]):
            return
        for item in o[0]:
            if isinstance(item, self.pk.String):
                self._show(bytes(item))
            else:
                adjust = -_num(item) / 1000 * self.fs * self.th
                self.tm = mul((1.0, 0.0, 0.0, 1.0, adjust, 0.0), self.tm)

    def _show(self, data: bytes) -> None:
        font = self.font
        if font is None:
            return
        step = 2 if font.two_byte else 1
        fs, th, tc, tw = self.fs, self.th, self.tc, self.tw
        visible = self.mode not in (3, 7)
        m = mul(self.tm, self.ctm)  # text space → user space at the string's start
        low = font.descent * fs + self.rise
        high = font.ascent * fs + self.rise
        x = 0.0  # advance along the text line so far, text space
        what = f"text fill {self.fill_ink:.0f} %"  # the fill is the string's: worded once, not per character
        chars = self.s.chars
        glyphs = font.glyphs
        ink = self.fill_ink
        inked = not ink <= 0  # _record_ink keeps nothing of 0 % ink
        # the codes: one byte each, or two (big-endian; an odd last byte is no code)
        codes = data if step == 1 else [int.from_bytes(data[i:i + 2], "big") for i in range(0, len(data) - 1, 2)]
        for code in codes:
            unit, text, shows = glyphs.get(code) or font.glyph(code)
            adv = unit * fs * th  # width × scale × fs × th, in that order
            if visible and shows:
                box = bounds((x, low, x + adv, high), m)
                if len(chars) >= MAX_CHARS:
                    raise PreflightError(f"more than {MAX_CHARS:,} characters in {self.label} (a fixed limit)")
                chars.append((box, text))
                if inked:
                    self._record_ink(ink, what, box)
            space = tw if (step == 1 and code == 32) else 0.0
            x += adv + (tc + space) * th
        self.tm = mul((1.0, 0.0, 0.0, 1.0, x, 0.0), self.tm)


_OPS: dict[str, Any] = {
    "q": _Reader.op_q, "Q": _Reader.op_Q, "cm": _Reader.op_cm, "w": _Reader.op_w, "gs": _Reader.op_gs,
    "g": _Reader.op_g, "G": _Reader.op_G, "k": _Reader.op_k, "K": _Reader.op_K, "rg": _Reader.op_rg, "RG": _Reader.op_RG,
    "cs": _Reader.op_cs, "CS": _Reader.op_CS, "sc": _Reader.op_sc, "scn": _Reader.op_scn, "SC": _Reader.op_SC, "SCN": _Reader.op_SCN,
    "m": _Reader.op_m, "l": _Reader.op_l, "c": _Reader.op_c, "v": _Reader.op_c, "y": _Reader.op_c, "re": _Reader.op_re,
    "S": _Reader.op_S, "s": _Reader.op_S, "f": _Reader.op_f, "F": _Reader.op_f, "f*": _Reader.op_f,
    "B": _Reader.op_B, "B*": _Reader.op_B, "b": _Reader.op_B, "b*": _Reader.op_B, "n": _Reader.op_n, "sh": _Reader.op_sh,
    "Do": _Reader.op_Do, "BI": _Reader.op_BI, "ID": _Reader.op_ID, "EI": _Reader.op_EI,
    "BT": _Reader.op_BT, "Tf": _Reader.op_Tf, "Tc": _Reader.op_Tc, "Tw": _Reader.op_Tw, "Tz": _Reader.op_Tz, "TL": _Reader.op_TL,
    "Ts": _Reader.op_Ts, "Tr": _Reader.op_Tr, "Td": _Reader.op_Td, "TD": _Reader.op_TD, "Tm": _Reader.op_Tm, "T*": _Reader.op_Tstar,
    "Tj": _Reader.op_Tj, "'": _Reader.op_quote, '"': _Reader.op_dquote, "TJ": _Reader.op_TJ,
}


#: The colour-space array kinds :meth:`_Reader._space` reads apart (the rest: :meth:`_Reader._other_space`).
_ARRAY_SPACES: dict[str, Any] = {"/ICCBased": _Reader._icc_space, "/Indexed": _Reader._indexed_space, "/I": _Reader._indexed_space,
                                 "/Separation": _Reader._separation_space}


class ImageInk(NamedTuple):
    """What :func:`image_ink` found in one CMYK image.

    Attributes:
        total: the highest total ink (C+M+Y+K, %) of any pixel.
        what: the image's description.
        neutral: the heaviest pixel (C+M+Y) whose grey is built from C, M and Y (each at least
            :data:`NEUTRAL_MIN`, within :data:`NEUTRAL_SPREAD` of each other), as 8-bit
            (c, m, y, k); None when there is none or when not looked for.
    """

    total: float
    what: str
    neutral: tuple[int, int, int, int] | None = None


def image_ink(image: Any, budget: Budget, what: str, *, neutrals: bool = False) -> ImageInk | None:
    """The highest total ink (%) of any pixel of a DeviceCMYK image, or None for other images;
    with ``neutrals``, also its heaviest grey built from C, M and Y (what a profile that prints
    greys and black on K alone, ``colour: formula``, refuses), looked for on at most
    :data:`NEUTRAL_PIXELS` pixels (a larger image is sampled, nearest pixel).

    The image is decoded within the budget (see :func:`decode`) and read through Pillow; its
    size must match Width × Height × 4 bytes (8 bits per component), else it is skipped.

    Raises:
        PreflightError: the image decodes past a limit of the budget.
    """
    from PIL import ImageMath

    size = _cmyk_size(image)
    if size is None:
        return None
    if size[0] * size[1] * 4 > budget.limits.stream_mb * MiB:
        raise _too_big(budget, "stream_mb", what)
    try:
        pil = _cmyk_image(image, budget, what, size)
    except PreflightError:
        raise
    except Exception:  # noqa: BLE001 - an image Pillow cannot read is not measured
        return None
    if pil is None or pil.mode != "CMYK":
        return None
    c, m, y, k = (band.convert("I") for band in pil.split())
    total = ImageMath.lambda_eval(lambda a: a["c"] + a["m"] + a["y"] + a["k"], c=c, m=m, y=y, k=k)
    high = total.getextrema()[1]
    return ImageInk(float(high) * 100 / 255, what, cmy_neutral(pil) if neutrals else None)


def _cmyk_size(image: Any) -> tuple[int, int] | None:
    """(width, height) of an 8-bit DeviceCMYK image with pixels, else None."""
    space = image.get("/ColorSpace")
    if space is None or str(space) not in ("/DeviceCMYK", "/CMYK") or int(_num(image.get("/BitsPerComponent", 8))) != 8:
        return None
    w, h = int(_num(image.get("/Width", 0))), int(_num(image.get("/Height", 0)))
    return (w, h) if w > 0 and h > 0 else None


def _cmyk_image(image: Any, budget: Budget, what: str, size: tuple[int, int]) -> Any:
    """The CMYK image as a Pillow image (a JPEG through pikepdf, raw samples with their
    ``/Decode`` inversion), or None when it holds fewer bytes than its size needs."""
    import pikepdf
    from PIL import Image

    names, _ = _filters(image)
    if names and names[-1] in ("/DCTDecode", "/DCT"):
        decode(image, budget, what) if len(names) > 1 else None
        return pikepdf.PdfImage(image).as_pil_image()
    w, h = size
    data = decode(image, budget, what)
    if len(data) < w * h * 4:
        return None
    pil = Image.frombytes("CMYK", (w, h), data[: w * h * 4])
    decode_array = image.get("/Decode")
    if decode_array is not None and [_num(v) for v in decode_array][:2] == [1.0, 0.0]:
        pil = Image.eval(pil, lambda v: 255 - v)
    return pil


def cmy_neutral(im: Any) -> tuple[int, int, int, int] | None:
    """The heaviest (C+M+Y) pixel of the CMYK image ``im`` whose C, M and Y are each at least
    :data:`NEUTRAL_MIN` and within :data:`NEUTRAL_SPREAD` of each other (a grey or black built
    from the colour plates), as 8-bit (c, m, y, k); None when there is none. At most
    :data:`NEUTRAL_PIXELS` pixels are read (nearest-pixel sample of a larger image); whole-image
    operations (ImageMath), no per-pixel Python."""
    from PIL import Image, ImageMath

    w, h = im.size
    if w * h > NEUTRAL_PIXELS:
        scale = math.sqrt(NEUTRAL_PIXELS / (w * h))
        im = im.resize((max(1, int(w * scale)), max(1, int(h * scale))), Image.Resampling.NEAREST)
    c, m, y, _ = (band.convert("I") for band in im.split())

    def heaviest(a: dict[str, Any]) -> Any:
        low = a["min"](a["min"](a["c"], a["m"]), a["y"])
        high = a["max"](a["max"](a["c"], a["m"]), a["y"])
        return ((low >= NEUTRAL_MIN) & (high - low <= NEUTRAL_SPREAD)) * (a["c"] + a["m"] + a["y"])

    score = ImageMath.lambda_eval(heaviest, c=c, m=m, y=y)
    best = score.getextrema()[1]
    if best <= 0:
        return None
    hits = ImageMath.lambda_eval(lambda a: a["s"] == best, s=score)
    top = hits.getbbox()[1]
    left = hits.crop((0, top, im.size[0], top + 1)).getbbox()[0]
    pixel = im.getpixel((left, top))
    return (pixel[0], pixel[1], pixel[2], pixel[3])


def page_boxes(page: Any) -> dict[str, Box]:
    """The page's own boxes in default user space: ``media``, ``crop``, ``trim``, ``bleed``
    (inherited MediaBox/CropBox followed; TrimBox/BleedBox only when the page has them)."""
    obj = page.obj
    media = _box(_inherited(obj, "/MediaBox") or [0, 0, 612, 792]) or (0.0, 0.0, 612.0, 792.0)
    out = {"media": media}
    crop = _inherited(obj, "/CropBox")
    out["crop"] = _box(crop) or media  # none, or one that is not four numbers: the MediaBox (PDF 32000-1 14.11.2)
    for key, name in (("/TrimBox", "trim"), ("/BleedBox", "bleed"), ("/ArtBox", "art")):
        if key in obj:
            box = _box(obj[key])
            if box is not None:
                out[name] = box
    return out


def _inherited(obj: Any, key: str) -> Any:
    node = obj
    for _ in range(64):
        if node is None:
            return None
        if key in node:
            return node[key]
        node = node.get("/Parent")
    return None


def user_unit(page: Any) -> float:
    """The page's ``/UserUnit`` (1/72 in per user-space unit × this; default 1)."""
    value = _num(page.obj.get("/UserUnit", 1)) if "/UserUnit" in page.obj else 1.0
    return value if value > 0 else 1.0
