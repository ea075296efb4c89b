"""The bundled TrueType fonts (DejaVu Sans in four styles, Bitstream Vera licence, see fonts/LICENSE-DejaVu.txt).

They carry the arrow glyphs (↓ U+2193, ↑ U+2191) that PDF core fonts such as Helvetica lack.
ReportLab embeds them as subsets in every PDF. The package carries them as package data
(``tokengen/data/fonts``, copies of the repository's ``fonts/``, kept equal by a test and
``make data``); ``TOKENGEN_FONT_DIR`` points elsewhere. :func:`register` loads the regular and
bold faces the single-line texts use; :func:`register_family` also the oblique ones, as one
ReportLab font family (:class:`Family`) for the paragraphs of boxed text (``<b>``, ``<i>``).
"""

from __future__ import annotations

import os
import struct
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from ..errors import RenderError
from ..io import guard
from ..limits import MAX_FONT_CODE_POINTS

REGULAR = "DejaVuSans"
BOLD = "DejaVuSans-Bold"
ITALIC = "DejaVuSans-Oblique"
BOLD_ITALIC = "DejaVuSans-BoldOblique"


def font_dir() -> Path:
    """Folder holding the bundled TTF files: ``TOKENGEN_FONT_DIR`` if set, else the package data
    folder ``tokengen/data/fonts`` (read through :mod:`importlib.resources`, so any install
    finds them: a wheel, ``pip install --user``, pipx, a venv anywhere)."""
    if os.environ.get("TOKENGEN_FONT_DIR"):
        return Path(os.environ["TOKENGEN_FONT_DIR"])
    return Path(str(resources.files("tokengen").joinpath("data", "fonts")))


@cache
def register() -> tuple[str, str]:
    """Register the regular and bold fonts with ReportLab once per process.

    Returns:
        (regular, bold) font names for ``canvas.setFont``.
    Raises:
        RenderError: a font file is missing or unreadable.
    """
    for name in (REGULAR, BOLD):
        _load(name)
    return REGULAR, BOLD


def _load(name: str) -> None:
    path = font_dir() / f"{name}.ttf"
    refused = guard.not_regular(path)  # a FIFO or device would hang or never end
    if refused:
        raise RenderError(f"cannot load font {path}: {refused.split(' (')[0]}")
    try:
        mapped = cmap_code_points(path.read_bytes())
    except (OSError, ValueError) as exc:
        raise RenderError(f"cannot load font {path}: {exc}") from None
    if mapped > MAX_FONT_CODE_POINTS:
        raise RenderError(f"cannot load font {path}: {too_many_code_points(mapped, MAX_FONT_CODE_POINTS)}")
    try:
        pdfmetrics.registerFont(ShapedWidthTTFont(name, str(path)))
    except Exception as exc:  # ReportLab raises TTFError or OSError subclasses
        raise RenderError(f"cannot load font {path}: {exc}") from None


def too_many_code_points(mapped: int, limit: int) -> str:
    """The reason a font mapping ``mapped`` code points is refused, naming ``limit`` and its flag."""
    return (f"its cmap maps {mapped:,} code points, more than the {limit:,} read of one font "
            "(raise it with --max-font-code-points N)")


def cmap_code_points(data: bytes) -> int:
    """How many code points the largest subtable of a TrueType/OpenType font's ``cmap`` maps,
    counting a code point once per range naming it: what ReportLab's ``TTFont`` walks (a dict
    entry each) when it loads the font. Read from the table directory and the subtables'
    headers and ranges only, so a huge range (U+0020–U+7FFFFFFF in one format-12 group, a
    740 KB file) is counted in microseconds, not walked.

    Args:
        data: the whole font file (a TrueType collection: its first font).
    Returns:
        The count (0 when the font has no ``cmap``: ReportLab refuses it itself).
    Raises:
        ValueError: a table or subtable lies outside the file, or a subtable's ranges do not fit
            in it (a short reason).
    """
    cmap = _cmap_table(data)
    if cmap is None:
        return 0
    start, length = cmap
    count = _unpack(data, ">HH", start)[1]
    most = 0
    for i in range(count):
        offset = start + _unpack(data, ">HHL", start + 4 + 8 * i)[2]
        fmt = _unpack(data, ">H", offset)[0]
        counter = _SUBTABLE_COUNTS.get(fmt)
        most = max(most, counter(data, offset, fmt, start + length) if counter is not None else 0)
    return most


def _unpack(data: bytes, fmt: str, at: int) -> tuple[int, ...]:
    """``struct.unpack_from(fmt, data, at)`` that refuses to read outside ``data``.

    Raises:
        ValueError: the read would pass either end of the file.
    """
    if at < 0 or at + struct.calcsize(fmt) > len(data):
        raise ValueError("damaged font: a table points past the end of the file")
    return struct.unpack_from(fmt, data, at)


def _cmap_table(data: bytes) -> tuple[int, int] | None:
    """The (offset, length) in bytes of the font's ``cmap`` table, from its table directory (of a
    collection: its first font's), or None when it has none.

    Raises:
        ValueError: a table of the directory ends past the end of the file.
    """
    base = 0
    if data[:4] == b"ttcf":
        base = _unpack(data, ">L", 12)[0]
    tables = _unpack(data, ">H", base + 4)[0]
    cmap = None
    for i in range(tables):
        _, _, offset, length = _unpack(data, ">4sLLL", base + 12 + 16 * i)
        tag = data[base + 12 + 16 * i:base + 16 + 16 * i]
        if offset + length > len(data):
            raise ValueError(f"damaged font: table '{tag.decode('latin-1').strip()}' ends past the end of the file "
                             f"({offset + length:,} of {len(data):,} bytes)")
        if tag == b"cmap":
            cmap = (offset, length)
    return cmap


def _byte_map(data: bytes, offset: int, fmt: int, end: int) -> int:
    """Format 0: 256 single bytes."""
    return 256


def _high_byte(data: bytes, offset: int, fmt: int, end: int) -> int:
    """Format 2: 256 single bytes and each subheader's entries, once per key naming it (ReportLab
    reads each key as a subheader's index)."""
    keys = _unpack(data, ">256H", offset + 6)  # ReportLab reads each key as a subheader's index
    entries = [_unpack(data, ">HH", offset + 518 + 8 * k)[1] for k in range(max(keys) + 1)]
    return 256 + sum(entries[k] for k in keys if k)


def _segments(data: bytes, offset: int, fmt: int, end: int) -> int:
    """Format 4: the code points of its segments (start to end code)."""
    segments = _unpack(data, ">H", offset + 6)[0] // 2
    ends = _unpack(data, f">{segments}H", offset + 14)
    starts = _unpack(data, f">{segments}H", offset + 16 + 2 * segments)
    return sum(max(0, e - s + 1) for s, e in zip(starts, ends, strict=True))


def _trimmed(data: bytes, offset: int, fmt: int, end: int) -> int:
    """Formats 6 and 10: the entry count of their one trimmed range."""
    return _unpack(data, ">H" if fmt == 6 else ">L", offset + (8 if fmt == 6 else 16))[0]


def _groups(data: bytes, offset: int, fmt: int, end: int) -> int:
    """Formats 8, 12 and 13: the code points of their groups, each (start, end, glyph); the
    groups must lie within the ``cmap`` table (ending at ``end``) before they are read.

    Raises:
        ValueError: more groups than the table holds.
    """
    head = 8 + 8192 if fmt == 8 else 12
    groups = _unpack(data, ">L", offset + head)[0]
    if offset + head + 4 + 12 * groups > end:
        raise ValueError(f"damaged font: its cmap's format {fmt} subtable claims {groups:,} ranges, more than the table holds")
    ranges = struct.iter_unpack(">LLL", data[offset + head + 4:offset + head + 4 + 12 * groups])
    return sum(max(0, e - s + 1) for s, e, _ in ranges)


#: A ``cmap`` subtable's format → the count of code points it maps, as (file, subtable offset,
#: format, end of the cmap table) → count; a format not listed counts none.
_SUBTABLE_COUNTS: dict[int, Callable[[bytes, int, int, int], int]] = {
    0: _byte_map, 2: _high_byte, 4: _segments, 6: _trimmed, 10: _trimmed, 8: _groups, 12: _groups, 13: _groups,
}


class ShapedWidthTTFont(TTFont):
    """A TrueType font whose :meth:`stringWidth` of a text ReportLab shaped (a ``ShapedStr``, as a
    paragraph with ``shaping`` holds its kerned words) is the width it prints, kerning included.

    ReportLab draws a shaped text with the shaped advances but measures it, where a paragraph line
    places what follows a run of text (an inline image, the next run after an image), with the
    glyphs' own widths: a picture after a kerned word would sit a kern too far right. Every other
    text is measured as :class:`TTFont` measures it.
    """

    def stringWidth(self, text: str, size: float, encoding: str = "utf8") -> float:  # noqa: N802  (ReportLab's name)
        """Width (pt) of ``text`` at ``size`` pt: a shaped text's glyph advances as HarfBuzz set them
        (each entry's ``x_advance`` replacing the glyph's own ``width``, in 1/1000 of the size;
        characters added to it unshaped count their own widths)."""
        width = super().stringWidth(text, size, encoding)
        shaped = getattr(text, "__shapeData__", None)
        if shaped:
            width += sum(sd.x_advance - sd.width for sd in shaped) * size / 1000
        return float(width)


@dataclass(frozen=True)
class Family:
    """Four registered ReportLab font names, one a style: what ``<b>``, ``<i>`` and both pick in a
    paragraph set in ``regular``."""

    regular: str
    bold: str
    italic: str
    bold_italic: str

    def font(self, style: str) -> str:
        """The font name of ``style`` (``regular``, ``bold``, ``italic`` or ``bold_italic``)."""
        return getattr(self, style)


def family(regular: str, bold: str | None = None, italic: str | None = None, bold_italic: str | None = None) -> Family:
    """Join registered fonts into one ReportLab family (``pdfmetrics.registerFontFamily``), named
    after ``regular``; a style not given falls back to ``bold``/``italic``/``regular``.

    Raises:
        RenderError: one of the names is not a registered font.
    """
    bold = bold or regular
    italic = italic or regular
    fam = Family(regular, bold, italic, bold_italic or (bold if bold != regular else italic))
    for name in (fam.regular, fam.bold, fam.italic, fam.bold_italic):
        try:
            pdfmetrics.getFont(name)
        except KeyError:
            raise RenderError(f"font {name} is not loaded") from None
    pdfmetrics.registerFontFamily(fam.regular, normal=fam.regular, bold=fam.bold, italic=fam.italic, boldItalic=fam.bold_italic)
    return fam


@cache
def _load_family() -> None:
    register()
    for name in (ITALIC, BOLD_ITALIC):
        _load(name)


def register_family() -> Family:
    """Register the bundled DejaVu Sans in its four styles (regular, bold, oblique, bold oblique)
    as one family: the files are read once per process, the family mapping is set again on every
    call, since ReportLab keeps one process-wide mapping per family name that other sheets (the
    rules sheet sets its own italic) may have changed since.

    Raises:
        RenderError: a font file is missing or unreadable.
    """
    _load_family()
    return family(REGULAR, BOLD, ITALIC, BOLD_ITALIC)


#: Per registered font name: (the font face it was for, the characters found in it): a font's
#: coverage is looked up once per distinct character, not once per token (issue 27).
_COVERED: dict[str, tuple[object, set[str]]] = {}


def missing_glyphs(text: str, font: str) -> list[str]:
    """Characters of ``text`` that ``font`` has no glyph for (they would print as boxes): not in
    its cmap, or mapped to a glyph id past the glyph count its ``maxp`` table gives (a damaged
    font, which ReportLab's subsetter would fail on with ``IndexError`` while writing the PDF)."""
    found = pdfmetrics.getFont(font)
    assert isinstance(found, TTFont), font  # every font tokengen draws with is a TrueType file it registered
    face = found.face
    seen = _COVERED.get(font)
    if seen is None or seen[0] is not face:  # first use, or the name registered anew
        seen = _COVERED[font] = (face, set())
    covered = seen[1]
    if covered.issuperset(text):
        return []
    glyphs = face.charToGlyph
    count = face.numGlyphs
    missing = [ch for ch in dict.fromkeys(text) if not ch.isspace() and glyphs.get(ord(ch), count) >= count]
    if not missing:
        covered.update(text)
    return missing


def require_glyphs(text: str, font: str, what: str) -> None:
    """Raise :class:`RenderError` naming ``what`` when ``font`` cannot draw all of ``text``."""
    missing = missing_glyphs(text, font)
    if missing:
        shown = ", ".join(f"'{ch}' (U+{ord(ch):04X})" for ch in missing)
        raise RenderError(f"{what}: font {font} has no glyph for {shown}")


def fit_size(text: str, font: str, width: float, largest: float) -> float:
    """The largest font size (pt) up to ``largest`` at which ``text`` is at most ``width`` pt wide
    (its :func:`advance`, kerning included)."""
    natural = advance(text, font, 1.0)
    return largest if natural <= 0 else min(largest, width / natural)


@cache
def _shaper(path: str) -> tuple[Any, int]:
    """(a HarfBuzz font for the file at ``path``, its units per em)."""
    import uharfbuzz as hb  # loaded on the first one-line text drawn

    face = hb.Face(hb.Blob.from_file_path(path))
    return hb.Font(face), face.upem


#: HarfBuzz features a one-line text is shaped with: kerning on; glyph substitutions ReportLab
#: cannot draw (it draws one glyph a character) off.
_FEATURES = {"kern": True, "liga": False, "clig": False, "calt": False, "dlig": False, "rlig": False, "ccmp": False, "locl": False}


@lru_cache(maxsize=4096)
def kerns(text: str, font: str) -> tuple[float, ...]:
    """The font's kerning after each character of ``text`` (pt at size 1, negative: closer),
    as HarfBuzz applies the font's ``kern`` feature (GPOS pair adjustments, or the legacy
    ``kern`` table): the shaped advance less the glyph's own. DejaVu Sans: ``kerns("To", …)``
    is (-0.16992, 0.0), 348/2048 em. All zeros for a font ReportLab did not load from a
    TrueType file, or a text HarfBuzz would set in other glyphs than one a character.
    """
    found = pdfmetrics.getFont(font)
    path = getattr(getattr(found, "face", None), "filename", None)
    if not text or not isinstance(found, TTFont) or not isinstance(path, str) or not os.path.isfile(path):
        return (0.0,) * len(text)
    import uharfbuzz as hb

    shaper, upem = _shaper(path)
    buf = hb.Buffer()
    buf.add_str(text)
    buf.guess_segment_properties()
    hb.shape(shaper, buf, _FEATURES)
    infos, positions = buf.glyph_infos, buf.glyph_positions
    if [i.cluster for i in infos] != list(range(len(text))) or buf.direction != "ltr":
        return (0.0,) * len(text)
    return tuple((p.x_advance - shaper.get_glyph_h_advance(i.codepoint)) / upem for i, p in zip(infos, positions, strict=True))


def advance(text: str, font: str, size: float) -> float:
    """The width (pt) of ``text`` set in ``font`` at ``size`` pt: the glyphs' advances plus the
    font's kerning between them (:func:`kerns`)."""
    return pdfmetrics.stringWidth(text, font, size) + sum(kerns(text, font)) * size


def kerned_runs(text: str, font: str, size: float, char_space: float = 0.0) -> list[tuple[float, str]]:
    """``text`` cut after each kerned character into runs drawn one after another: (x offset in
    pt from the text's left end, the run). One run at 0 when no pair in ``text`` is kerned, so
    such a text is drawn exactly as one string. ``char_space`` is the extra space (pt) after
    each character, as ReportLab's ``charSpace`` adds it."""
    adjust = kerns(text, font)
    runs: list[tuple[float, str]] = []
    x, start = 0.0, 0
    for i, k in enumerate(adjust):
        if k and i + 1 < len(text):
            piece = text[start:i + 1]
            runs.append((x, piece))
            x += pdfmetrics.stringWidth(piece, font, size) + char_space * len(piece) + k * size
            start = i + 1
    runs.append((x, text[start:]))
    return runs


@cache
def kern_paragraphs() -> None:
    """Make ReportLab's paragraph shaping (``ParagraphStyle(shaping=1)``, HarfBuzz through
    uharfbuzz, ReportLab 4.1 and later) apply the same features as :func:`kerns`: kerning on,
    ligatures and other glyph substitutions off.

    ReportLab shapes each word of a paragraph with ``reportlab.pdfbase.ttfonts.shapeFragWord``,
    whose features default to ``kern``, ``liga`` and ``dlig``; it offers no other way to choose
    them. A ligature would print ``ﬁ`` (U+FB01) in the PDF's text, so a reader copying or searching
    it would not find ``fi``, and a discretionary one (``dlig``: DejaVu Sans joins ``st``) is not
    for running text. The default is replaced once per process (every shaped paragraph in it
    kerns only); ReportLab is pinned below the next untested release, and a test checks the
    signature this relies on.

    Raises:
        RenderError: the installed ReportLab's ``shapeFragWord`` does not take ``features``.
    """
    from reportlab.pdfbase import ttfonts

    shape = ttfonts.shapeFragWord
    defaults = shape.__defaults__ or ()
    names = shape.__code__.co_varnames[1:shape.__code__.co_argcount]
    if names[:1] != ("features",) or len(defaults) != len(names) or not isinstance(defaults[0], dict):
        raise RenderError("this ReportLab shapes paragraphs in a way tokengen was not tested with (kerning needs "
                          "reportlab.pdfbase.ttfonts.shapeFragWord(w, features, ...))")
    shape.__defaults__ = (dict(_FEATURES), *defaults[1:])
