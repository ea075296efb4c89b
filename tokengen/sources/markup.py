"""Face text markup → a small document model → ReportLab paragraph XML: pure string work, no drawing.

The markup a box of face text (rules text, flavour lines) is written in:

- ``*italic*``, ``**bold**``, ``***bold italic***``; the runs toggle, so ``**bold *both* bold**``
  nests. A run of stars with white space (or the text's edge) on both sides is a plain star
  (``2 * 3``); a backslash before ``*``, ``:`` or ``\\`` prints that character itself.
- ``:name:`` an inline icon, from an ``icons`` mapping name → image path. A name starts with a
  letter, then letters, digits, ``_`` or ``-`` (so ``10:30:00`` and ``Range: 3`` stay text).
  ``:name@1.5:`` draws it 1.5 × the text size high; ``:name@1.5+0.1:`` also raises it by 0.1 × the
  text size (``-0.1`` lowers it; ``:name@+0.1:`` shifts it at its plain size). Scales run from
  :data:`ICON_SCALES` [0] to [1], shifts from -:data:`ICON_SHIFT` to +:data:`ICON_SHIFT`.
- ``[colour=#c0392b]text[/colour]`` (or ``color``) prints ``text`` in that colour: ``#rrggbb``, or
  ``c,m,y,k`` (four numbers 0..1, as a template's ``[c, m, y, k]``). Spans nest; each must be
  closed in its paragraph. Any other ``[`` is text; ``\\[`` prints ``[`` where a tag would be read.
- a newline is a line break; a blank line starts a new paragraph.
- ``markup=False``: the text exactly as written (no stars, icons or backslashes read), still
  with its newlines and blank lines as breaks and paragraphs.

Text is normalised to NFC first, so a decomposed ``e`` + U+0302 + U+0303 prints as the one glyph
``ễ`` the font carries. A soft hyphen (U+00AD) stays in as a place a word may be broken (ReportLab
prints ``-`` there only when it breaks the line); a no-break space (U+00A0, U+202F, U+2007)
stays in and keeps its words on one line; Private Use characters pass through (whether the font
has their glyphs is checked when drawing, :func:`tokengen.faces.textbox.require_glyphs`).

The model (:data:`Doc`) is a tuple of paragraphs, each a tuple of items: :class:`Run` (text in
one style), :class:`Icon` and :class:`Break`. :func:`to_xml` writes one paragraph as the XML
ReportLab's ``Paragraph`` reads (``<b>``, ``<i>``, ``<br/>``, ``<img/>``); :func:`truncate`
keeps the first words and ends them with ``…``.
"""

from __future__ import annotations

import difflib
import os
import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from os import PathLike

from ..errors import CatalogueError
from ..model import Colour

#: What ends a shortened text.
ELLIPSIS = "\u2026"
#: The styles a run can have, as the keys of a font family.
STYLES = ("regular", "bold", "italic", "bold_italic")

_ICON = re.compile(r":([A-Za-z][A-Za-z0-9_-]*)(?:@(\d+(?:\.\d+)?)?([+-]\d+(?:\.\d+)?)?)?:")
#: The smallest and largest ``@`` scale of an inline icon (times the text size).
ICON_SCALES = (0.25, 4.0)
#: The largest ``+``/``-`` shift of an inline icon (times the text size).
ICON_SHIFT = 2.0
_SPAN = re.compile(r"\[(?:colou?r)=([^\]\n]*)\]")
_SPAN_END = re.compile(r"\[/colou?r\]")
_HEX = re.compile(r"#[0-9A-Fa-f]{6}")
_CMYK = re.compile(r"\s*(\d*\.?\d+)\s*,\s*(\d*\.?\d+)\s*,\s*(\d*\.?\d+)\s*,\s*(\d*\.?\d+)\s*")
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n\s*")
#: A word: characters that are not white space, no-break spaces counting as part of the word.
_WORD = re.compile(r"(?:[^\s]|[\u00a0\u2007\u202f])+")
_ESCAPABLE = "*:\\["


def escape(text: str) -> str:
    """``text`` as XML character data: ``&``, ``<`` and ``>`` escaped (what
    ``xml.sax.saxutils.escape`` does, without importing urllib at start-up)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def quoteattr(text: str) -> str:
    """``text`` as a double-quoted XML attribute value."""
    return '"' + escape(text).replace('"', "&quot;") + '"'


@dataclass(frozen=True)
class Run:
    """Text in one style (``bold``, ``italic`` or both)."""

    text: str
    bold: bool = False
    italic: bool = False
    #: the span's colour (``[colour=…]``), or None for the element's own
    colour: Colour | None = None

    def but(self, text: str) -> Run:
        """This run with other ``text`` (same style and colour)."""
        return Run(text, self.bold, self.italic, self.colour)

    @property
    def style(self) -> str:
        """``regular``, ``bold``, ``italic`` or ``bold_italic`` (a key of :data:`STYLES`)."""
        return STYLES[self.bold + 2 * self.italic]


@dataclass(frozen=True)
class Icon:
    """An inline icon: its markup ``name``, the image file ``path``, its height as a multiple of
    the text size (``scale``, ``:name@1.5:``) and how far its bottom edge sits above the baseline,
    a multiple of the text size (``shift``, ``:name@1.5+0.1:``; below it when negative)."""

    name: str
    path: str
    scale: float = 1.0
    shift: float = 0.0


@dataclass(frozen=True)
class Break:
    """A line break inside a paragraph (a newline in the text)."""


Item = Run | Icon | Break
#: A parsed text: paragraphs, each a tuple of items.
Doc = tuple[tuple[Item, ...], ...]


def _fail(message: str, path: str | PathLike[str], line: int | None, field: str | None) -> CatalogueError:
    return CatalogueError(os.fspath(path), message, line, field)


def icon_words(text: str) -> list[str]:
    """The names of the ``:name:`` words in ``text``, in order: what a boxed text reads as icons
    (``"Deal 2 :sword: at 10:30"`` → ``["sword"]``; ``":coin@1.5:"`` → ``["coin"]``)."""
    return [match.group(1) for match in _ICON.finditer(text)]


def _suggest(name: str, names: list[str]) -> str:
    close = difflib.get_close_matches(name, names, n=1)
    return f"; did you mean '{close[0]}'?" if close else ""


def parse(text: str, icons: Mapping[str, str | PathLike[str]] | None = None, *, markup: bool = True,
          path: str | PathLike[str] = "<text>", line: int | None = None, field: str | None = None) -> Doc:
    """Read ``text`` (markup as the module docstring says) into a :data:`Doc`.

    Args:
        text: the text; ``\\r\\n`` counts as a newline.
        icons: icon name → image path, for ``:name:``.
        markup: False to take the text exactly as written.
        path, line, field: where the text is, for messages.
    Returns:
        The paragraphs (empty ones left out), each a tuple of items with adjacent runs of one
        style merged.
    Raises:
        CatalogueError: ``:name:`` names no icon (with a did-you-mean), or a ``*`` run is
            never closed in its paragraph.
    """
    text = unicodedata.normalize("NFC", text.replace("\r\n", "\n").replace("\r", "\n"))
    icons = icons or {}
    doc = []
    for chunk in _PARAGRAPH_BREAK.split(text.strip("\n")):
        items = _plain(chunk) if not markup else _marked(chunk, icons, path, line, field)
        if items:
            doc.append(tuple(items))
    return tuple(doc)


@lru_cache(maxsize=4096)
def parse_once(text: str, icons: tuple[tuple[str, str], ...], markup: bool, path: str, line: int | None,
               field: str | None) -> Doc:
    """:func:`parse` of ``text`` with ``icons`` as (name, image path) pairs, each distinct call made
    once: the catalogue's checks, the drawing of a face and its warnings all read the same texts.
    A :class:`~tokengen.errors.CatalogueError` is raised anew each time (errors are not kept).
    Holds up to 4,096 texts (a pass over a catalogue's faces asks for each once)."""
    return parse(text, dict(icons), markup=markup, path=path, line=line, field=field)


def _plain(chunk: str) -> list[Item]:
    items: list[Item] = []
    for i, part in enumerate(chunk.split("\n")):
        if i:
            items.append(Break())
        if part:
            items.append(Run(part))
    return items


def _marked(chunk: str, icons: Mapping[str, str | PathLike[str]], path: str | PathLike[str],
            line: int | None, field: str | None) -> list[Item]:
    """One paragraph of markup (``chunk``) as items, read left to right by a :class:`_Reader`."""
    reader = _Reader(chunk, icons, (path, line, field))
    at = 0
    while at < len(chunk):
        at = reader.step(at)
    return reader.finish()


#: A stretch of text holding none of the characters markup gives a meaning to.
_PLAIN_RUN = re.compile(r"[^\\\n*:\[]+")


class _Reader:
    """Reads one paragraph of markup into items: the styles and colour spans open so far, the
    items made, and the text read since the last one (merged into a run when the style changes).

    Raises (from :meth:`step` and :meth:`finish`): CatalogueError naming ``where`` (path, line,
    field) for an unknown icon, a bad icon scale or span colour, a span closed but never opened,
    or a ``*`` run or a span never closed in the paragraph.
    """

    def __init__(self, chunk: str, icons: Mapping[str, str | PathLike[str]],
                 where: tuple[str | PathLike[str], int | None, str | None]):
        self.chunk, self.icons, self.where = chunk, icons, where
        self.items: list[Item] = []
        self.bold = self.italic = False
        self.buf: list[str] = []
        self.colours: list[Colour] = []

    def flush(self) -> None:
        """Put the text read so far in a run of the open style (joined to the last run if it has that style)."""
        if not self.buf:
            return
        piece = "".join(self.buf)
        self.buf.clear()
        last = self.items[-1] if self.items else None
        style = (self.bold, self.italic, self.colours[-1] if self.colours else None)
        if isinstance(last, Run) and (last.bold, last.italic, last.colour) == style:
            self.items[-1] = last.but(last.text + piece)
        else:
            self.items.append(Run(piece, *style))

    def step(self, at: int) -> int:
        """Read what starts at index ``at`` of the paragraph; return the index after it."""
        chunk = self.chunk
        plain = _PLAIN_RUN.match(chunk, at)
        if plain:
            self.buf.append(plain.group())
            return plain.end()
        ch = chunk[at]
        if ch == "\\" and at + 1 < len(chunk) and chunk[at + 1] in _ESCAPABLE:
            self.buf.append(chunk[at + 1])
            return at + 2
        if ch == "\n":
            self.flush()
            self.items.append(Break())
            return at + 1
        if ch == "*":
            return self._stars(at)
        found = _ICON.match(chunk, at) if ch == ":" else None
        if found:
            return self._icon(found)
        found = (_SPAN.match(chunk, at) or _SPAN_END.match(chunk, at)) if ch == "[" else None
        if found:
            return self._span(found)
        self.buf.append(ch)
        return at + 1

    def _stars(self, at: int) -> int:
        """A row of stars from ``at``: text when lone (white space both sides) or longer than 3, else
        it toggles bold (``**``), italic (``*``) or both (``***``)."""
        chunk, end = self.chunk, at
        while end < len(chunk) and chunk[end] == "*":
            end += 1
        before = chunk[at - 1] if at else " "
        after = chunk[end] if end < len(chunk) else " "
        if (before.isspace() and after.isspace()) or end - at > 3:
            self.buf.append(chunk[at:end])  # a lone star, or a row of them, is text
        else:
            self.flush()
            self.bold ^= end - at >= 2
            self.italic ^= end - at != 2
        return end

    def _icon(self, m: re.Match[str]) -> int:
        """An inline ``:name:`` icon (with its ``@`` scale and shift), which must be one of ``icons``."""
        name = m.group(1)
        if name not in self.icons:
            known = sorted(self.icons)
            hint = _suggest(name, known) or (" (no icons are defined)" if not known else f" (icons: {', '.join(known)})")
            raise _fail(f"unknown icon ':{name}:'{hint}; write \\: for a colon", *self.where)
        self.flush()
        self.items.append(Icon(name, str(self.icons[name]), *_icon_scale(m, *self.where)))
        return m.end()

    def _span(self, m: re.Match[str]) -> int:
        """A ``[colour=…]`` tag opening a span, or a ``[/colour]`` closing the last one open."""
        if m.re is _SPAN:
            self.flush()
            self.colours.append(_span_colour(m, *self.where))
            return m.end()
        if not self.colours:
            raise _fail(f"'{m.group(0)}' closes no [colour=…] span; write \\[ for a bracket", *self.where)
        self.flush()
        self.colours.pop()
        return m.end()

    def finish(self) -> list[Item]:
        """The paragraph's items (line breaks at its end dropped), once every span and star run is closed."""
        self.flush()
        first = self.chunk.splitlines()[0][:40] if self.chunk else ""
        if self.colours:
            raise _fail(f"'[colour=…]' is never closed by '[/colour]' in the paragraph {first!r}", *self.where)
        if self.bold or self.italic:
            opened = "***" if self.bold and self.italic else "**" if self.bold else "*"
            raise _fail(f"'{opened}' is never closed in the paragraph {first!r}; write \\* for a star", *self.where)
        while self.items and isinstance(self.items[-1], Break):
            self.items.pop()
        return self.items


def _icon_scale(m: re.Match[str], path: str | PathLike[str], line: int | None, field: str | None) -> tuple[float, float]:
    """The (scale, shift) of an icon's ``@`` suffix (1, 0 without one)."""
    scale = float(m.group(2)) if m.group(2) else 1.0
    shift = float(m.group(3)) if m.group(3) else 0.0
    if not ICON_SCALES[0] <= scale <= ICON_SCALES[1]:
        raise _fail(f"icon '{m.group(0)}': a scale from {ICON_SCALES[0]:g} to {ICON_SCALES[1]:g} times the text size, got {scale:g}",
                    path, line, field)
    if abs(shift) > ICON_SHIFT:
        raise _fail(f"icon '{m.group(0)}': a shift from -{ICON_SHIFT:g} to +{ICON_SHIFT:g} times the text size, got {shift:+g}",
                    path, line, field)
    return scale, shift


def _span_colour(m: re.Match[str], path: str | PathLike[str], line: int | None, field: str | None) -> Colour:
    """The colour a ``[colour=…]`` tag names: ``#rrggbb`` or ``c,m,y,k`` (each 0..1)."""
    value = m.group(1).strip()
    if _HEX.fullmatch(value):
        return Colour.parse(value)
    cmyk = _CMYK.fullmatch(value)
    if cmyk and all(float(v) <= 1 for v in cmyk.groups()):
        return Colour("cmyk", tuple(float(v) for v in cmyk.groups()))
    raise _fail(f"'{m.group(0)}': a span's colour is #rrggbb or c,m,y,k (each 0 to 1), got {value!r}", path, line, field)


def to_xml(items: tuple[Item, ...], icon_size: Callable[[Icon], tuple[float, float]],
           valign: str = "baseline", icon_src: Callable[[Icon], str] | None = None, *,
           span_colour: Callable[[Colour], str] | None = None, small_caps: float | None = None) -> str:
    """One paragraph as ReportLab paragraph XML.

    Args:
        items: a paragraph of a :data:`Doc`.
        icon_size: an icon → its (width, height) in pt as printed (its ``scale`` applied).
        valign: the ``<img>`` ``valign`` (``baseline``: the icon's bottom edge on the baseline);
            a shifted icon gets its shift in pt instead (``shift`` × its height / ``scale``).
        icon_src: an icon → the ``src`` written (default: its path).
        span_colour: a span's colour → the ``<font color>`` written (None: spans not coloured).
        small_caps: the size (pt) lower-case letters are printed at as capitals (None: as written).
    Returns:
        XML with the text escaped, ``<b>``/``<i>`` for styles, ``<br/>`` for breaks and
        ``<img src=… width=… height=… valign=…/>`` for icons.
    """
    out = []
    for item in items:
        if isinstance(item, Run):
            body = escape(item.text) if small_caps is None else _small_caps(item.text, small_caps)
            if item.italic:
                body = f"<i>{body}</i>"
            if item.bold:
                body = f"<b>{body}</b>"
            if item.colour is not None and span_colour is not None:
                body = f"<font color={quoteattr(span_colour(item.colour))}>{body}</font>"
            out.append(body)
        elif isinstance(item, Icon):
            w, h = icon_size(item)
            src = item.path if icon_src is None else icon_src(item)
            place = valign if not item.shift else f"{item.shift * h / item.scale:.4f}"
            out.append(f"<img src={quoteattr(src)} width=\"{w:.4f}\" height=\"{h:.4f}\" valign={quoteattr(place)}/>")
        else:
            out.append("<br/>")
    return "".join(out)


def _small_caps(text: str, size: float) -> str:
    """``text`` as XML, each run of lower-case letters upper-cased inside ``<font size>``."""
    return "".join(f'<font size="{size:.4f}">{escape(run.upper())}</font>' if lower else escape(run)
                   for lower, run in _case_runs(text))


def _case_runs(text: str) -> list[tuple[bool, str]]:
    """``text`` cut into (lower-case?, run) pieces: a letter is lower-case when it has an upper
    case of its own (``str.upper`` changes it)."""
    runs: list[tuple[bool, str]] = []
    for ch in text:
        lower = ch.islower() and ch.upper() != ch
        if runs and runs[-1][0] == lower:
            runs[-1] = (lower, runs[-1][1] + ch)
        else:
            runs.append((lower, ch))
    return runs


def _words(doc: Doc) -> list[tuple[int, int, int, int, int]]:
    """Every word: (paragraph, item, start, end, characters); an icon is a word of one character."""
    found = []
    for p, items in enumerate(doc):
        for k, item in enumerate(items):
            if isinstance(item, Icon):
                found.append((p, k, 0, 0, 1))
            elif isinstance(item, Run):
                found += [(p, k, m.start(), m.end(), m.end() - m.start()) for m in _WORD.finditer(item.text)]
    return found


def word_count(doc: Doc) -> int:
    """How many words (runs of non-space characters, an icon counting as one) ``doc`` has."""
    return len(_words(doc))


def truncate(doc: Doc, keep: int) -> tuple[Doc, int, int]:
    """The first ``keep`` words of ``doc`` followed by ``…`` (in the last kept word's style).

    Returns:
        (the shortened doc, words cut, characters cut); characters count the cut words' non-space
        characters, an icon as one. ``keep`` ≥ the word count gives ``doc`` unchanged and (0, 0).
    """
    words = _words(doc)
    if keep >= len(words):
        return doc, 0, 0
    cut_chars = sum(w[4] for w in words[keep:])
    if keep <= 0:
        return ((Run(ELLIPSIS),),), len(words), cut_chars
    p, k, _, end, _ = words[keep - 1]
    items = list(doc[p][:k])
    last = doc[p][k]
    if isinstance(last, Run):
        items.append(last.but(last.text[:end] + ELLIPSIS))
    else:
        items += [last, Run(ELLIPSIS)]
    return (*doc[:p], tuple(items)), len(words) - keep, cut_chars


def plain(items: tuple[Item, ...]) -> str:
    """A paragraph's text without styles: icons as ``:name:``, breaks as newlines."""
    return "".join(i.text if isinstance(i, Run) else f":{i.name}:" if isinstance(i, Icon) else "\n" for i in items)


def styled_text(doc: Doc) -> dict[str, str]:
    """Style (a key of :data:`STYLES`) → all the text ``doc`` sets in it (for glyph checks)."""
    found: dict[str, list[str]] = {}
    for items in doc:
        for item in items:
            if isinstance(item, Run):
                found.setdefault(item.style, []).append(item.text)
    return {style: "".join(parts) for style, parts in found.items()}
