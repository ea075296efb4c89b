"""Boxed face text: a paragraph of rules text set inside a box, shrunk as one piece until it fits.

The layout is ReportLab's (``platypus.Paragraph``: line breaking, justification, ``<b>``/``<i>``
through a registered font family, inline ``<img>``, breaks at soft hyphens and after a word's own
hyphen, and hyphenation by pyphen's dictionary when a language is given); this module
only chooses the size and places the block. A word with a hyphen of its own breaks after it
(ReportLab's ``embeddedHyphenation=2``: the word moves to the next line and breaks there when its
first part does not fit the rest of this one) before the word is split between letters. A paragraph
of Chinese, Japanese or Korean text gets its line breaks from :mod:`tokengen.geometry.linebreak`
(UAX #14) first, since ReportLab breaks only at spaces and hyphens. Words are kerned as the
font says (ReportLab's ``shaping``: HarfBuzz with the features of
:func:`tokengen.sources.fonts.kern_paragraphs`), and the kerned widths break, fit and place alike;
a paragraph holding a soft hyphen is left unkerned (:func:`_kernable`). Text comes in as markup (:mod:`tokengen.sources.markup`) or already parsed.

Lengths are in pt. A box is ``box_w`` × ``box_h``; :func:`draw` puts its lower-left corner at
(x, y) on the canvas, y up. Every line of a box is set at one size (:attr:`Laid.size`), the
baseline ``leading × size`` below the last; the block is the lines' height plus whatever the
font's descender reaches below the last line's leading, so no glyph box (the box preflight
measures, as pdfminer does: ascent..descent about the baseline) leaves the box. Icons are ``size`` high,
their bottom edge on the baseline, as wide as their picture's aspect ratio makes them.

:func:`fit_box` finds the size by bisection, to 0.01 pt, between ``min_size`` and ``size``: the
largest size at which every paragraph wraps inside the width with no word split and the block is
no taller than the box. When even ``min_size`` does not fit, it keeps as many words as fit at
``min_size`` (words longer than the line are split there) and ends the last one with ``…``;
:attr:`Laid.cut_words` and :attr:`Laid.cut_chars` say how much was left out. Bisection is sound
because the fit is monotonic in the size: a line ReportLab lets run past the width by a little
(its ``spaceShrinkage``) is drawn narrowed to the width, and each line's gaps are counted as the
spaces it prints (:func:`_wrap`), so an icon glued to punctuation (``:sword:;``) or a justified
line holding an icon ends exactly on the box's edge.
"""

from __future__ import annotations

import math
import unicodedata
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from os import PathLike
from pathlib import Path
from typing import Any, Literal

from reportlab.lib.colors import Color, black
from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY, TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

from ..errors import RenderError
from ..geometry import linebreak
from ..model import Colour
from ..sources import fonts
from ..sources import markup as mk
from ..sources.fonts import Family
from ..sources.markup import Doc, Icon, Run
from .art import picture_size
from .svgart import is_svg, read_svg

ALIGNS: dict[str, Literal[0, 1, 2, 4]] = {"left": TA_LEFT, "centre": TA_CENTER, "center": TA_CENTER, "right": TA_RIGHT, "justify": TA_JUSTIFY}
VALIGNS = ("top", "middle", "bottom")
#: Space between paragraphs, a fraction of the line pitch (``leading × size``).
PARAGRAPH_GAP = 0.5
#: The size lower-case letters are drawn at as capitals under ``smallcaps: true``, a fraction of
#: the text size: the factor WebKit and Blink synthesise small caps with
#: (``smallCapsFontSizeMultiplier`` / ``kSmallCapsFontSizeMultiplier``, 0.7f, in their font code).
SMALL_CAPS = 0.7
#: Width (pt) a line may run past the box for floating-point noise.
_FUZZ = 1e-6
#: Characters never checked for glyphs: the soft hyphen prints as ``-`` only when a line breaks there.
_UNPRINTED = {"\u00ad"}
#: The text colour :func:`fit_box` lays paragraphs out in: this one object, so that :func:`draw` finds
#: every fragment in the text's own colour by identity and gives it the colour it draws (the layout
#: does not depend on the colour; spans keep the colours the XML gives them).
_INK = Color(0, 0, 0)
#: How many texts keep their wrapped paragraphs (:attr:`Laid.wrapped`, about 40 KB a rules card's
#: text): the latest set or drawn. A face's boxed text is drawn in the same pass over the faces
#: as it is set (its cut and small-text warnings first), so a few hundred cover a build's reuse;
#: a text drawn after this many others is wrapped once more from its XML (:func:`_wrapped`).
KEEP_WRAPPED = 256
_kept: deque[list[tuple[Paragraph, float]]] = deque()


@dataclass(frozen=True)
class Laid:
    """A text set in its box, ready for :func:`draw`.

    Attributes:
        size: the font size (pt) every line is printed at: the one number to report.
        leading: baseline to baseline (pt).
        lines: the printed lines' text, top to bottom (icons as ``:name:``; a soft hyphen where
            a line breaks as ``-``).
        box_w, box_h: the box (pt).
        height: the block's height (pt) from the first line's top to the lowest descender.
        valign: ``top``, ``middle`` or ``bottom``.
        shrunk: the size is smaller than the one asked for.
        cut_words, cut_chars: what was left out to fit at the smallest size (0 when all fits);
            characters count non-space characters, an icon as one.
        xml: each paragraph as the ReportLab XML drawn.
        icons: each paragraph's icon files in the order they print (``:name:`` by ``:name:``).
        justify_breaks: each paragraph's ReportLab ``justifyBreaks`` (a justified paragraph broken
            before an icon to keep it with its punctuation stays justified up to that break).
    """

    size: float
    leading: float
    lines: tuple[str, ...]
    box_w: float
    box_h: float
    height: float
    valign: str
    shrunk: bool
    cut_words: int
    cut_chars: int
    xml: tuple[str, ...]
    align: str = "left"
    family: Family | None = None
    hyphenate: str = ""
    icons: tuple[tuple[str, ...], ...] = ()
    justify_breaks: tuple[bool, ...] = ()
    #: each paragraph's (leading as a multiple of the size, room above its first line pt, room
    #: below its last line pt), grown for icons larger than the text or shifted (:func:`_pitch`);
    #: empty: every paragraph at ``leading`` with no extra room
    pitches: tuple[tuple[float, float, float], ...] = ()
    #: span colours (:class:`tokengen.sources.markup.Run` ``colour``) by the ``#rrggbb`` the XML holds
    spans: tuple[tuple[str, Colour], ...] = ()
    #: each paragraph as :func:`fit_box` wrapped it (in :data:`_INK`), with its height (pt): what
    #: :func:`draw` draws, so a text is laid out once however often it is drawn. Kept for the
    #: latest :data:`KEEP_WRAPPED` texts only (emptied after: draw then wraps the XML again).
    #: Not part of the value (equality, hash).
    wrapped: list[tuple[Paragraph, float]] = field(default_factory=list, compare=False, repr=False)

    @property
    def truncated(self) -> bool:
        """Some of the text did not fit and was left out (the last line ends in ``…``)."""
        return self.cut_words > 0

    @property
    def top_gap(self) -> float:
        """Distance (pt) from the box's top edge down to the block's top, as ``valign`` places it."""
        room = max(0.0, self.box_h - self.height)
        return {"top": 0.0, "bottom": room}.get(self.valign, room / 2)


def icon_src(path: str) -> str:
    """The ``<img src>`` of the icon at ``path``: the path itself for a PNG or JPEG; for an SVG,
    tokengen's blank 1 × 1 PNG (ReportLab reads every ``src`` with Pillow while parsing), which
    :func:`draw` replaces by the icon's own form."""
    return str(_blank()) if is_svg(path) else path


@cache
def _blank() -> Path:
    return Path(str(resources.files("tokengen").joinpath("data", "blank.png")))


def _src(icon: Icon) -> str:
    return icon_src(icon.path)


@cache
def _aspect(path: str) -> float:
    if is_svg(path):  # its size as the SVG states it, after the checks of tokengen.faces.svgart
        svg = read_svg(Path(path))
        return svg.aspect
    w, h = picture_size(path)  # the header only, checked as art is (ArtError naming the file)
    return w / h if h else 1.0


def _icon_size(size: float) -> Callable[[Icon], tuple[float, float]]:
    def measure(icon: Icon) -> tuple[float, float]:
        return size * icon.scale * _aspect(icon.path), size * icon.scale
    return measure


def _style(family: Family, size: float, leading: float, align: str, hyphenate: str, split_long: bool,
           colour: object = None, justify_breaks: bool = False, kern: bool = True, grow: bool = False) -> ParagraphStyle:
    extra: dict[str, Any] = {"textColor": colour} if colour is not None else {}  # a ReportLab colour
    fonts.kern_paragraphs()  # shaping: each word kerned by HarfBuzz, to fit and to draw alike
    if grow:  # a line holding a larger or shifted icon is as tall as what it holds (at least the leading)
        extra["autoLeading"] = "max"
    return ParagraphStyle("tokengen-box", fontName=family.regular, fontSize=size, leading=size * leading,
                          alignment=ALIGNS[align], hyphenationLang=_hyphenator(hyphenate), splitLongWords=int(split_long),
                          embeddedHyphenation=2, justifyBreaks=int(justify_breaks), shaping=int(kern),
                          spaceBefore=0, spaceAfter=0, **extra)


@cache
def _hyphenator(lang: str) -> str:
    """The pyphen dictionary name for ``lang`` ("" for none: no hyphenation), as ReportLab's
    ``hyphenationLang`` takes it: ReportLab then tries pyphen's (head, tail) splits of a word of 5
    letters or more (its ``hyphenationMinWordLength``), longest head first, and keeps the first
    whose head and ``-`` fit the line.

    Raises:
        ValueError: pyphen has no dictionary for ``lang``.
    """
    if not lang:
        return ""
    import pyphen  # ReportLab imports it too, when it is installed: a declared dependency here

    found = pyphen.language_fallback(lang.replace("-", "_"))
    if found is None:
        raise ValueError(f"no hyphenation dictionary for the language {lang!r}")
    return str(found)

def _wrap(para: Paragraph, width: float) -> float:
    """Wrap ``para`` to ``width`` pt and return its height (pt), each line's count of word gaps
    put right first.

    ReportLab stretches (``justify``) or shrinks (a line it let run up to ``spaceShrinkage`` of its
    spaces past the width) a line by spreading the difference over ``wordCount - 1`` gaps, but
    counts an ``<img>`` and the text glued to it (``:sword:;``) as words of their own while the
    spaces around the picture are real: the spread then misses a gap or finds one too many, and the
    line ends a gap's share short of or past the box. The gaps are the space characters the line
    prints, so ``wordCount`` is set to that count plus one (no-break spaces ReportLab adds itself).
    """
    height = para.wrap(width, 1e9)[1]
    for line in para.blPara.lines:  # type: ignore[attr-defined]  # set by wrap(); types-reportlab lacks it
        if not isinstance(line, tuple):
            line.wordCount = 1 + sum(f.text.count(" ") for f in line.words if not hasattr(f, "cbDefn"))
    return height


def _line_widths_ok(para: Paragraph) -> bool:
    """Every line of a wrapped ``para`` prints within its width: it is no wider, or it has word
    gaps ReportLab narrows to bring it back (by at most ``spaceShrinkage`` of each)."""
    for line in para.blPara.lines:  # type: ignore[attr-defined]  # set by wrap(); types-reportlab lacks it
        if isinstance(line, tuple):
            extra, gaps = line[0], len(line[1]) - 1
        else:
            extra, gaps = line.extraSpace, line.wordCount - 1 + sum(f.text.count("\u00a0") for f in line.words if not hasattr(f, "cbDefn"))
        if extra < -_FUZZ and gaps <= 0:
            return False
    return True


def _kernable(xml: str) -> bool:
    """The paragraph (its ReportLab XML) is kerned: it holds no soft hyphen (HarfBuzz hides one as a
    default-ignorable character, and ReportLab's shaped word then has no place left to break at)."""
    return "\u00ad" not in xml


#: Punctuation no line may begin with after an inline icon: closing brackets and final quotes
#: (Unicode categories Pe, Pf) and these, after UAX #14's classes CL, CP, EX, IS and IN.
_CLOSING = set(".,;:!?\u2026\u2025%\u2030\u3001\u3002\uff0c\uff0e\uff1a\uff1b\uff01\uff1f")


def _closes(ch: str) -> bool:
    return ch in _CLOSING or unicodedata.category(ch) in ("Pe", "Pf")


def _icon_before_punctuation(para: Paragraph) -> int | None:
    """The index (in the order they print) of the first icon that ends a line of the wrapped
    ``para`` while the next line begins with closing punctuation (``:sword:`` / ``. Take 2``)."""
    seen = 0
    ends_in_icon = False
    for line in para.blPara.lines:  # type: ignore[attr-defined]  # set by wrap(); types-reportlab lacks it
        if isinstance(line, tuple):  # a paragraph of one plain run: no icons
            return None
        if ends_in_icon and _starts_with_closing(line.words):
            return seen - 1
        imgs = [f for f in line.words if _is_icon(f)]
        seen += len(imgs)
        texts = [f for f in line.words if _is_text(f)]
        ends_in_icon = bool(imgs) and (not texts or line.words.index(texts[-1]) < line.words.index(imgs[-1]))
    return None


def _is_icon(frag: Any) -> bool:
    """The fragment of a wrapped line is an inline ``<img>``."""
    return getattr(getattr(frag, "cbDefn", None), "kind", "") == "img"


def _is_text(frag: Any) -> bool:
    """The fragment of a wrapped line is text that prints something besides white space."""
    return not hasattr(frag, "cbDefn") and bool(frag.text.strip())


def _starts_with_closing(words: list[Any]) -> bool:
    """A wrapped line (its fragments) begins with closing punctuation, not with an icon."""
    if not words or _is_icon(words[0]):
        return False
    first = next((f.text.lstrip() for f in words if _is_text(f)), "")
    return bool(first) and _closes(first[0])


def _break_before_icon(items: tuple[mk.Item, ...], icon: int) -> tuple[mk.Item, ...] | None:
    """``items`` with a line break before the word that holds the ``icon``-th icon (the last
    white space before it), or None when that word starts the paragraph or a line already."""
    at = [k for k, item in enumerate(items) if isinstance(item, Icon)][icon]
    for k in range(at - 1, -1, -1):
        item = items[k]
        if isinstance(item, mk.Break):
            return None
        if isinstance(item, Run):
            cut = max(item.text.rfind(ch) for ch in " \t")
            if cut < 0:
                continue
            head, tail = item.text[:cut].rstrip(" \t"), item.text[cut + 1:]
            before = (item.but(head),) if head else ()
            after = (item.but(tail),) if tail else ()
            if not before and not items[:k]:
                return None
            return (*items[:k], *before, mk.Break(), *after, *items[k + 1:])
    return None


def _unspaced_lines(items: tuple[mk.Item, ...], family: Family, size: float, width: float) -> tuple[mk.Item, ...]:
    """A paragraph of Chinese, Japanese or Korean text with a line break at each place
    :func:`tokengen.geometry.linebreak.fill` ends a line of ``width`` pt at ``size`` (ReportLab
    breaks only at spaces and hyphens); white space at each such break is dropped."""
    text = "".join(i.text if isinstance(i, Run) else "\ufffc" if isinstance(i, Icon) else "\n" for i in items)
    cuts = set(linebreak.fill(text, _char_widths(items, family, size), width + _FUZZ))
    out: list[mk.Item] = []
    at = 0
    for item in items:
        if isinstance(item, Run):
            _run_cut(out, item, sorted(c - at for c in cuts if at <= c < at + len(item.text)))
            at += len(item.text)
            continue
        if at in cuts and out:
            out.append(mk.Break())
        out.append(item)
        at += 1
    return tuple(out)


def _char_widths(items: tuple[mk.Item, ...], family: Family, size: float) -> list[float]:
    """The width (pt) of each character of the paragraph's text at ``size``: a run's characters in
    its style's font, an icon as one character as wide as it prints, a line break as 0."""
    widths: list[float] = []
    for item in items:
        if isinstance(item, Run):
            font = family.font(item.style)
            widths += [pdfmetrics.stringWidth(ch, font, size) for ch in item.text]
        else:
            widths.append(_icon_size(size)(item)[0] if isinstance(item, Icon) else 0.0)
    return widths


def _run_cut(out: list[mk.Item], run: Run, cuts: list[int]) -> None:
    """Append ``run`` to ``out`` with a line break at each of ``cuts`` (character offsets into its
    text, in order), dropping the white space at the end of a line and at the start of the next."""
    start = 0
    for cut in cuts:
        head = run.text[start:cut].rstrip()
        if head:
            out.append(run.but(head))
        if out and not isinstance(out[-1], mk.Break):
            out.append(mk.Break())
        start = cut
        while start < len(run.text) and run.text[start] in " \t":
            start += 1
    if run.text[start:]:
        out.append(run.but(run.text[start:]))


def span_hex(colour: Colour) -> str:
    """The ``#rrggbb`` a span's colour is written as in the XML (:func:`draw` paints the colour itself)."""
    return "#" + "".join(f"{round(v * 255):02x}" for v in colour.to_rgb())


def _pitch(items: tuple[mk.Item, ...], leading: float, below: float) -> tuple[float, float, float]:
    """A paragraph's (leading, room above its first line, room below its last line), per pt of
    size. With no icon scaled or shifted: ``leading`` and no room. Else every line of the paragraph
    is spaced so the highest icon top (``scale + shift`` above the baseline) clears the descender of
    the line above (the font's, ``leading - 1 + below`` below the baseline, ``below`` from
    :func:`_overhang`) and the lowest icon bottom (``-shift``) clears the next line's top; the
    first line gets the room its icons rise above 1 size, the last what they drop below the
    descender."""
    icons = [i for i in items if isinstance(i, Icon) and (i.scale != 1.0 or i.shift)]
    if not icons:
        return leading, 0.0, 0.0
    descent = leading - 1.0 + below
    rise = max(1.0, max(i.scale + i.shift for i in icons))
    drop = max(-i.shift for i in icons)
    return max(leading, rise + descent, 1.0 + drop), rise - 1.0, max(0.0, drop - descent)


def _overhang(family: Family, leading: float) -> tuple[float, float]:
    """(above, below) the block's line boxes the glyphs reach, per pt of size."""
    ascent = max(pdfmetrics.getAscentDescent(f, 1.0)[0] for f in {family.regular, family.bold, family.italic, family.bold_italic})
    descent = max(-pdfmetrics.getAscentDescent(f, 1.0)[1] for f in {family.regular, family.bold, family.italic, family.bold_italic})
    return max(0.0, ascent - 1.0), max(0.0, descent - (leading - 1.0))


@dataclass(frozen=True)
class _Set:
    """One doc set at one size by :meth:`_Setter.set`: its paragraphs wrapped to the box width (pt),
    their XML, each one's height and the block's (pt), whether every line prints within the width,
    each paragraph's ``justifyBreaks`` (True where :func:`_break_before_icon` broke a justified
    paragraph that has no line breaks of its own), and whether no line holds a word wider than the
    width (:func:`_splits_nothing`)."""

    paras: list[Paragraph]
    xml: list[str]
    heights: list[float]
    height: float
    widths_ok: bool
    forced: list[bool]
    splits_nothing: bool


def _splits_nothing(para: Paragraph) -> bool:
    """No line of the wrapped ``para`` runs past its width without a space in it. ReportLab's
    ``splitLongWords`` acts only on a word wider than the line, and without it such a word is set
    on a line of its own that runs past the width: so when no such line exists, wrapping again
    with ``splitLongWords`` gives the same lines."""
    for line in para.blPara.lines:  # type: ignore[attr-defined]  # set by wrap(); types-reportlab lacks it
        if isinstance(line, tuple):
            extra, spaced = line[0], len(line[1]) > 1
        else:  # wordCount: 1 + the spaces the line prints (_wrap)
            extra, spaced = line.extraSpace, line.wordCount > 1
        if extra < 0 and not spaced:
            return False
    return True


class _Setter:
    """Sets one doc at trial sizes (one of these a :func:`fit_box` call)."""

    def __init__(self, box_w: float, box_h: float, family: Family, leading: float, align: str, hyphenate: str,
                 small_caps: bool = False):
        self.box_w, self.box_h, self.family, self.leading, self.align, self.hyphenate = box_w, box_h, family, leading, align, hyphenate
        self.above, self.below = _overhang(family, leading)
        self.small_caps = small_caps
        self._done: dict[tuple[Doc, float, bool], _Set] = {}

    def set(self, doc: Doc, size: float, split_long: bool) -> _Set:
        """``doc`` set at ``size``, each distinct (doc, size, split_long) once: a setting without
        split words stands for the one that may split them when it holds no word wider than a
        line (:func:`_splits_nothing`), since ReportLab's ``splitLongWords`` then changes nothing."""
        key = (doc, size, split_long)
        if key in self._done:
            return self._done[key]
        unsplit = self._done.get((doc, size, False)) if split_long else None
        if unsplit is not None and unsplit.splits_nothing:
            return unsplit
        done = self._done[key] = self._set(doc, size, split_long)
        return done

    def _set(self, doc: Doc, size: float, split_long: bool) -> _Set:
        paras, xml, forced, heights = [], [], [], []
        for items in doc:
            p, x, h, justify_breaks = self._paragraph(items, size, split_long)
            paras.append(p)
            xml.append(x)
            forced.append(justify_breaks)
            heights.append(h)
        height = sum(heights)
        if paras:
            height += PARAGRAPH_GAP * self.leading * size * (len(paras) - 1) + (self.above + self.below) * size
        return _Set(paras, xml, heights, height, all(_line_widths_ok(p) for p in paras), forced,
                    all(_splits_nothing(p) for p in paras))

    def _paragraph(self, items: tuple[mk.Item, ...], size: float, split_long: bool) -> tuple[Paragraph, str, float, bool]:
        """One paragraph wrapped, re-wrapped with a line break before each icon ReportLab left at a
        line's end with its punctuation starting the next line (at most once an icon)."""
        justify_breaks = False
        if linebreak.unspaced(mk.plain(items)):
            items = _unspaced_lines(items, self.family, size, self.box_w)
            justify_breaks = self.align == "justify"
        pitch, lift, sink = _pitch(items, self.leading, self.below)
        for _ in range(1 + sum(isinstance(i, Icon) for i in items)):
            xml = mk.to_xml(items, _icon_size(size), icon_src=_src, span_colour=span_hex,
                            small_caps=SMALL_CAPS * size if self.small_caps else None)
            style = _style(self.family, size, pitch, self.align, self.hyphenate, split_long, _INK, justify_breaks=justify_breaks,
                           kern=_kernable(xml))
            para = Paragraph(xml, style)
            height = _wrap(para, self.box_w) + (lift + sink) * size
            orphan = _icon_before_punctuation(para)
            moved = None if orphan is None else _break_before_icon(items, orphan)
            if moved is None:
                break
            justify_breaks = justify_breaks or (self.align == "justify" and not any(isinstance(i, mk.Break) for i in items))
            items = moved
        return para, xml, height, justify_breaks

    def fits(self, doc: Doc, size: float, split_long: bool = False) -> bool:
        done = self.set(doc, size, split_long)
        return done.widths_ok and done.height <= self.box_h + _FUZZ


def fit_box(text: str | Doc, box_w: float, box_h: float, family: Family | None = None, size: float = 10.0, *,
            min_size: float = 5.0, leading: float = 1.2, align: str = "left", valign: str = "top", fit: bool = True,
            markup: bool = True, icons: Mapping[str, str | PathLike[str]] | None = None,
            hyphenate: str | None = None, small_caps: bool = False) -> Laid:
    """Set ``text`` in a ``box_w`` × ``box_h`` pt box at the largest size up to ``size`` that fits.

    Args:
        text: markup (see :mod:`tokengen.sources.markup`), or a doc :func:`tokengen.sources.markup.parse` made
            (so a template reports markup errors with its file, line and field).
        family: the four fonts (default: the bundled DejaVu Sans, :func:`fonts.register_family`).
        size: the largest font size (pt).
        min_size: the smallest (pt); text that does not fit there is cut and ends in ``…``.
        leading: baseline-to-baseline distance as a multiple of the size.
        align: ``left``, ``centre`` (``center``), ``right`` or ``justify``.
        valign: ``top``, ``middle`` or ``bottom``: where the block sits in a taller box.
        fit: False to print at ``size`` with no shrinking at all (cut with ``…`` if too long).
        markup: False to print a str ``text`` exactly as written.
        icons: icon name → image path, for ``:name:`` in a str ``text``.
        hyphenate: a pyphen language (``en``, ``en_GB``) to hyphenate words at line ends, before
            the text shrinks (a size that fits with hyphens is kept).
        small_caps: draw lower-case letters as capitals at :data:`SMALL_CAPS` of the size.
    Returns:
        The :class:`Laid` text.
    Raises:
        CatalogueError: bad markup in a str ``text`` (an unknown icon, an unclosed ``*``).
        RenderError: a glyph missing from the font of a style the text uses; an unreadable icon.
        ValueError: an unknown ``align``/``valign``, a size or box that is not positive, a
            ``hyphenate`` language pyphen has no dictionary for.
    """
    _check_box(align, valign, size, min_size, leading, box_w, box_h)
    _hyphenator(hyphenate or "")  # an unknown language is refused before anything is set
    family = family or fonts.register_family()
    doc = mk.parse(text, icons, markup=markup) if isinstance(text, str) else text
    require_glyphs(doc, family, "text")
    setter = _Setter(box_w, box_h, family, leading, align, hyphenate or "", small_caps)
    chosen = _largest_size(setter, doc, size, min_size) if fit else size
    fits = setter.fits(doc, chosen) or setter.fits(doc, chosen, split_long=True)  # words longer than a line split
    cut_words = cut_chars = 0
    if not fits:
        doc, cut_words, cut_chars = _cut(setter, doc, chosen)
        require_glyphs(doc, family, "text")
    return _laid(setter, doc, chosen, valign, shrunk=chosen < size, cut=(cut_words, cut_chars))


def _check_box(align: str, valign: str, size: float, min_size: float, leading: float, box_w: float, box_h: float) -> None:
    """Raise ValueError for an unknown ``align`` or ``valign``, or a size, leading or box that is not positive."""
    if align not in ALIGNS:
        raise ValueError(f"unknown align {align!r} (left, centre, right, justify)")
    if valign not in VALIGNS:
        raise ValueError(f"unknown valign {valign!r} (top, middle, bottom)")
    if not (size > 0 and min_size > 0 and box_w > 0 and box_h >= 0 and leading > 0):
        raise ValueError(f"size {size}, min_size {min_size}, leading {leading} and box {box_w} x {box_h} must be positive")


def _largest_size(setter: _Setter, doc: Doc, size: float, min_size: float) -> float:
    """The largest size (pt, in steps of 1/100 pt) from ``min_size`` up to ``size`` at which ``doc``
    fits with no word split: ``size`` when it fits there or ``min_size`` is not smaller; ``min_size``
    (rounded up to 1/100 pt) when nothing fits; else found by bisection."""
    if min_size >= size or setter.fits(doc, size):
        return size
    lo, hi = math.ceil(min_size * 100 - 1e-6), math.floor(size * 100 + 1e-6)  # sizes in 1/100 pt
    if hi > lo and setter.fits(doc, hi / 100):
        return hi / 100
    if setter.fits(doc, lo / 100):
        while hi - lo > 1:  # lo fits, hi does not
            mid = (lo + hi) // 2
            if setter.fits(doc, mid / 100):
                lo = mid
            else:
                hi = mid
    return lo / 100


def _laid(setter: _Setter, doc: Doc, size: float, valign: str, shrunk: bool, cut: tuple[int, int]) -> Laid:
    """The :class:`Laid` of ``doc`` set at ``size`` pt (words longer than a line split), with what
    was ``cut`` (words, characters) to fit; its wrapped paragraphs kept for :func:`draw`."""
    done = setter.set(doc, size, split_long=True)
    in_order = tuple(tuple(item for item in items if isinstance(item, Icon)) for items in doc)
    lines = tuple(line for p, used in zip(done.paras, in_order, strict=True) for line in _line_texts(p, used))
    return Laid(size=size, leading=setter.leading * size, lines=lines, box_w=setter.box_w, box_h=setter.box_h,
                height=done.height if done.paras else 0.0, valign=valign, shrunk=shrunk, cut_words=cut[0], cut_chars=cut[1],
                xml=tuple(done.xml), align=setter.align, family=setter.family, hyphenate=setter.hyphenate,
                icons=tuple(tuple(i.path for i in used) for used in in_order), justify_breaks=tuple(done.forced),
                pitches=_pitches(doc, setter.leading, setter.below, size), spans=_spans(doc),
                wrapped=_keep([(p, p.height) for p in done.paras]))


def _keep(wrapped: list[tuple[Paragraph, float]]) -> list[tuple[Paragraph, float]]:
    """``wrapped`` (a :attr:`Laid.wrapped`), kept among the latest :data:`KEEP_WRAPPED`: the oldest
    kept list is emptied to make room. (The library draws one job at a time, see
    :data:`tokengen.web.jobs.LIBRARY_LOCK`.)"""
    if len(_kept) >= KEEP_WRAPPED:
        _kept.popleft().clear()
    _kept.append(wrapped)
    return wrapped


def _pitches(doc: Doc, leading: float, below: float, size: float) -> tuple[tuple[float, float, float], ...]:
    """Each paragraph's :func:`_pitch` in pt of room (empty when no paragraph grows)."""
    found = [_pitch(items, leading, below) for items in doc]
    if all(lift == sink == 0 and pitch == leading for pitch, lift, sink in found):
        return ()
    return tuple((pitch, lift * size, sink * size) for pitch, lift, sink in found)


def _spans(doc: Doc) -> tuple[tuple[str, Colour], ...]:
    """(``#rrggbb`` as written, colour) of each distinct span colour, in order of first use."""
    found: dict[Colour, str] = {}
    for items in doc:
        for item in items:
            if isinstance(item, Run) and item.colour is not None:
                found.setdefault(item.colour, span_hex(item.colour))
    return tuple((hexed, colour) for colour, hexed in found.items())


def _cut(setter: _Setter, doc: Doc, size: float) -> tuple[Doc, int, int]:
    """The longest start of ``doc`` that, ended with ``…``, fits at ``size`` (bisection over words)."""
    total = mk.word_count(doc)
    lo, hi = -1, total  # -1: nothing at all fits, not even "…"; hi: the whole doc does not fit
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if setter.fits(mk.truncate(doc, mid)[0], size, split_long=True):
            lo = mid
        else:
            hi = mid
    if lo < 0:
        return (), total, mk.truncate(doc, 0)[2]
    return mk.truncate(doc, lo)


def _line_texts(para: Paragraph, icons: tuple[Icon, ...]) -> list[str]:
    """The printed lines of ``para``, its ``icons`` (in order) as ``:name:``."""
    names = iter(icon.name for icon in icons)
    out = []
    for line in para.blPara.lines:  # type: ignore[attr-defined]  # set by wrap(); types-reportlab lacks it
        if isinstance(line, tuple):
            out.append(" ".join(line[1]))
            continue
        parts = []
        for frag in line.words:
            defn = getattr(frag, "cbDefn", None)
            if defn is not None and getattr(defn, "kind", "") == "img":
                parts.append(f":{next(names, '?')}:")
            else:
                parts.append(getattr(frag, "text", ""))
        out.append("".join(parts).strip())
    return out


def draw(canvas: Canvas, laid: Laid, x: float, y: float, colour: object = None,
         icon_forms: Mapping[str, str] | None = None, paint: Callable[[Colour], Any] | None = None) -> None:
    """Draw ``laid`` with its box's lower-left corner at (``x``, ``y``) pt on ``canvas``, in
    ``colour`` (a ReportLab colour; default black).

    ``icon_forms`` maps an icon's path to a Form XObject drawing it on the unit square (already
    defined: an SVG icon's vectors, or a raster icon converted for a CMYK output); each such
    icon is drawn as that form where ReportLab's layout puts its ``<img>``. An SVG icon needs
    one; a raster icon without one is drawn by ReportLab from its file. ``paint`` turns a span's
    colour into the ReportLab colour drawn (default: its RGB, as the XML holds it).
    """
    if not laid.xml:
        return
    family = laid.family or fonts.register_family()
    above, _ = _overhang(family, laid.leading / laid.size)
    top = y + laid.box_h - laid.top_gap - above * laid.size
    gap = PARAGRAPH_GAP * laid.leading
    forms = dict(icon_forms or {})
    icons = laid.icons or tuple(() for _ in laid.xml)
    pitches = laid.pitches or tuple((laid.leading / laid.size, 0.0, 0.0) for _ in laid.xml)
    spans = {hexed: paint(c) for hexed, c in laid.spans} if paint is not None else {}
    ink = black if colour is None else colour
    for (p, h), used, (_, lift, sink) in zip(_wrapped(laid, family, pitches), icons, pitches, strict=True):
        _paint(p, ink, spans)
        with _icons_as_forms(canvas, used, forms):
            p.drawOn(canvas, x, top - lift - h)
        top -= h + lift + sink + gap


def _wrapped(laid: Laid, family: Family, pitches: tuple[tuple[float, float, float], ...]) -> tuple[tuple[Paragraph, float], ...]:
    """Each paragraph of ``laid`` wrapped, with its height (pt): as :func:`fit_box` kept them, or
    (when no longer kept, or for a :class:`Laid` made without them) its XML wrapped again as
    :func:`fit_box` wrapped it, in :data:`_INK`, at each paragraph's leading in ``pitches``, and
    kept again."""
    found = tuple(laid.wrapped)
    if len(found) == len(laid.xml):
        return found
    found = ()
    breaks = laid.justify_breaks or tuple(False for _ in laid.xml)
    for xml, justify, (pitch, _, _) in zip(laid.xml, breaks, pitches, strict=True):
        style = _style(family, laid.size, pitch, laid.align, laid.hyphenate, True, _INK, justify, _kernable(xml))
        para = Paragraph(xml, style)
        found += ((para, _wrap(para, laid.box_w)),)
    laid.wrapped[:] = found
    _keep(laid.wrapped)
    return found


def _paint(para: Paragraph, colour: Any, spans: Mapping[str, Any]) -> None:
    """Give the wrapped ``para`` its colours before it is drawn: ``colour`` (a ReportLab colour)
    to every fragment in the text's own colour (:data:`_INK`), and to each span the colour
    ``spans`` paints for its ``#rrggbb`` (a span not in ``spans`` keeps the XML's colour). A
    paragraph drawn again in other colours is painted anew from the colours the layout gave it."""
    for frag, found in _ink_of(para):
        painted = colour if found is _INK else spans.get("#" + found.hexval()[2:].lower(), found) if found is not None else None
        frag.textColor = painted


def _ink_of(para: Paragraph) -> list[tuple[Any, Any]]:
    """(fragment, its colour as laid out) for each fragment drawing the wrapped ``para``'s text,
    read once and kept on the paragraph (the colours are painted over by :func:`_paint`)."""
    found: list[tuple[Any, Any]] | None = getattr(para, "_tokengen_ink", None)
    if found is None:
        bl = para.blPara  # type: ignore[attr-defined]  # set by wrap(); types-reportlab lacks it
        holders = [bl] if bl.kind == 0 else [frag for line in bl.lines for frag in line.words]
        found = [(frag, getattr(frag, "textColor", None)) for frag in holders]
        para._tokengen_ink = found  # type: ignore[attr-defined]  # our own attribute, read above
    return found


@contextmanager
def _icons_as_forms(canvas: Canvas, used: tuple[str, ...], forms: Mapping[str, str]) -> Iterator[None]:
    """While drawing one paragraph whose icons are ``used`` (paths, in order): each icon in
    ``forms`` is drawn as that form. Platypus draws every inline image, line by line and left to
    right, with ``canvas.drawImage(reader, x, y, w, h)``: that call, on this canvas object only,
    is the one place that knows where the layout put it, and the n-th call is the n-th icon."""
    if not any(path in forms for path in used):
        yield
        return
    plain = canvas.drawImage
    queue = iter(used)

    def draw_icon(image: Any, x: float, y: float, width: float | None = None, height: float | None = None,
                  *args: Any, **kwargs: Any) -> Any:
        path = next(queue, None)
        if path is None or getattr(image, "fileName", None) != icon_src(path):
            raise RenderError(f"icon {path or '?'}: drawn out of order by the text layout")  # ReportLab changed how it draws <img>
        name = forms.get(path)
        if name is None or width is None or height is None:
            return plain(image, x, y, width, height, *args, **kwargs)
        canvas.saveState()
        canvas.translate(x, y)
        canvas.scale(width, height)
        canvas.doForm(name)
        canvas.restoreState()
        return width, height

    canvas.drawImage = draw_icon  # type: ignore[method-assign]  # this object only, undone below
    try:
        yield
    finally:
        del canvas.drawImage  # the class's method again


def missing_glyphs(doc: Doc, family: Family) -> list[tuple[str, str]]:
    """(font name, character) for each character of ``doc`` its style's font has no glyph for."""
    found = []
    for style, text in mk.styled_text(doc).items():
        font = family.font(style)
        found_font = pdfmetrics.getFont(font)
        assert isinstance(found_font, TTFont), font  # the family's fonts are TrueType files tokengen registered
        face = found_font.face
        found += [(font, ch) for ch in dict.fromkeys(text)
                  if ord(ch) not in face.charToGlyph and not ch.isspace() and ch not in _UNPRINTED]
    return found


def require_glyphs(doc: Doc, family: Family, what: str) -> None:
    """Raise :class:`RenderError` naming ``what`` when a style's font cannot draw its text:
    ``rules: font DejaVuSans-Oblique has no glyph for '中' (U+4E2D)``."""
    missing = missing_glyphs(doc, family)
    if missing:
        font = missing[0][0]
        shown = ", ".join(f"'{ch}' (U+{ord(ch):04X})" for f, ch in missing if f == font)
        raise RenderError(f"{what}: font {font} has no glyph for {shown}")
