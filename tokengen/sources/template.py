"""Face templates as data: the elements a face (or back) is drawn from, in drawing order.

A template is a list of elements, each a mapping with exactly one *kind* key:

* ``text: "{name} ({cost})"``: one line of text, ``{field}`` replaced by the token's value
  (``{{`` and ``}}`` print braces; a place may compute, ``{cost + 1}``, ``{name|upper}``:
  :mod:`tokengen.sources.expr`). With ``box: [x, y, w, h]`` it is a paragraph wrapped in
  that box instead (:mod:`tokengen.faces.textbox`): markup (``**bold**``, ``*italic*``,
  ``:icon:``, newlines; :mod:`tokengen.sources.markup`) unless ``markup: false``, shrunk as one
  piece from ``size`` down to ``min_size`` (5 pt) unless ``fit: false``, placed by ``align``
  (also ``justify``), ``valign`` and ``leading``. ``glyph:`` is the same with the bold font and tight letter
  spacing (a symbol read across the table).
* ``image: "{art}"`` (or a literal path): a picture fitted into ``box``.
* ``rect: fill`` / ``circle: fill`` / ``frame: stroke``: shapes (the value is a free word).
* ``line: [[x1, y1], [x2, y2], …]``: an open polyline (``width``, ``colour``, ``dash: [on, off]``,
  ``cap``, ``join``); ``polygon: [[x, y], …]``: a closed one (``fill``, ``stroke``, ``width``);
  ``regular: N`` and ``star: N``: a regular N-gon or an N-pointed star about ``at`` with radius
  ``r`` (a star's notches at ``inner`` · ``r``); ``ellipse: fill``: the ellipse in ``box``;
  ``sector: fill``: the wedge about ``at`` of radius ``r`` from ``start`` to ``end`` (degrees
  clockwise from 12 o'clock), a ring segment with ``inner``. The geometry is
  :mod:`tokengen.geometry.figures`.
* ``path: "M x y L … C … Q … A … Z"``: SVG path data in fractions of the token
  (:mod:`tokengen.geometry.svgpath`), filled and stroked as a polygon.
* ``group: NAME`` with ``elements: [...]``: its elements moved so the token's centre lands on
  ``at`` and turned ``rotate`` about it (flattened when parsed: each element carries the turn).
* ``stack: [...]`` with ``box: [x, y, w, h]``: its elements placed one below another (``direction:
  row``: beside), each as tall (wide) as its content, ``gap`` apart, ``- fill: WEIGHT`` spacers
  sharing the space left, ``align`` (``start``, ``centre``, ``end``, ``stretch``) across; its
  texts grow to their natural height and shrink together only when the stack is full
  (:mod:`tokengen.geometry.stack` places them, :mod:`tokengen.faces.stacks` measures them).
* ``arc_text: "{name}"``: one line of text set along the circle about ``at`` of radius ``r``,
  from ``start`` (and up to ``end``) as ``align`` says, on its ``outside`` or ``inside``, read
  ``clockwise`` or ``anticlockwise``.

Any element takes ``repeat:`` (:class:`Repeat`: ``count`` or ``over`` copies, each shifted by
``step`` and turned by ``turn`` about ``about`` more than the last; ``{i}``, ``{n}``, ``{item}``
in its text). Any element takes ``rotate: DEG``: it is turned clockwise (as the face is seen) about its box
centre (a one-line text: its ``at`` point; a figure about ``at``: that point; a line or polygon:
the centre of its corners' box). A filled shape's ``fill`` may be a gradient:
``{gradient: [COLOUR, …], angle: DEG}`` (linear, running in the direction ``angle`` clockwise
from 12 o'clock as CSS's ``linear-gradient``; default 180, top to bottom) or
``{radial: [COLOUR, …]}`` (from the shape's centre out), with optional ``stops``.

Positions and sizes are fractions of the token so a template rescales with the token: ``x`` and
widths of the token width, ``y`` and heights of the token height, measured from the token's
top-left corner (as a designer reads a card); font sizes, radii and stroke widths are fractions
of the token's smaller side, or lengths with a unit (``9pt``). Colours are ``"#rrggbb"``,
``[c, m, y, k]`` or ``"{field}"`` naming a ``colour`` field.

Any element may take ``when:`` and ``unless:`` (:class:`Condition`: a field name, ``{FIELD:
VALUE}``, ``{FIELD: [V1, V2]}``), and any of its values may be a value map ``{by: FIELD, map:
{VALUE: X}, default: X}`` (:class:`Pick`). A catalogue's ``layouts:`` name element lists
(:func:`parse_layouts`, with ``extends``); ``template:`` and ``back:`` name one, list elements,
or choose a layout per token with a layout map. :func:`resolve` settles all of it once per
token, so what is drawn is a plain :class:`Template`.

This module parses and checks templates and substitutes values; :mod:`tokengen.faces.facedraw`
draws them with ReportLab. Errors are :class:`~tokengen.errors.CatalogueError` naming the file,
line and field (``template[2].font: unknown font 'titel'; did you mean 'title'?``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache, lru_cache, partial
from importlib import resources
from pathlib import Path
from typing import Any

from ..errors import CatalogueError
from ..geometry.bands import Trim
from ..model import Colour, Token
from ..units import parse_length
from . import expr, fonts, schemas
from .fonts import Family
from .schemas import line_at, show, suggest
from .table import Marked
from .yamlsrc import Lines, dotted, read_yaml

#: The element kinds, in the order they are looked for in an element mapping.
KINDS = ("text", "glyph", "image", "rect", "circle", "frame", "line", "polygon", "regular", "star", "ellipse", "sector", "arc_text",
         "path", "group", "stack")
#: The kinds drawn as filled (and stroked) figures: they take ``fill`` (a colour or a gradient), ``stroke``, ``width``.
FIGURES = ("polygon", "regular", "star", "ellipse", "sector", "path")
#: The kinds whose value is text with ``{field}`` places.
TEXT_KINDS = ("text", "glyph", "image", "arc_text")
#: Field types a catalogue may declare (``fields: {name: text, cost: number, art: image}``).
FIELD_TYPES = ("text", "number", "integer", "image", "colour")
#: Built-in fonts (the bundled DejaVu Sans), by the names templates use.
BUILTIN_FONTS = ("regular", "bold")
#: A colour in a template: a literal :class:`Colour`, or the name of a colour field (str).
ColourRef = Colour | str | None
#: A field name: a letter or ``_``, then letters, digits, ``_`` or ``-`` (decksmith's ``first-paragraph``).
FIELD_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


@dataclass(frozen=True)
class Gradient:
    """A gradient fill: ``kind`` ``linear`` (running in the direction ``angle``, degrees
    clockwise from 12 o'clock as CSS's ``linear-gradient``: 180 is top to bottom) or ``radial``
    (from ``centre``, fractions of the shape's box from its top-left, out to ``radius`` times
    its larger side: by default from the box's centre to half its larger side); its ``colours``
    (each a :data:`ColourRef`, or a :class:`Pick` of them until :func:`resolve` chooses per
    token) at ``stops`` (fractions 0..1 along the way, increasing; empty: evenly)."""

    kind: str
    colours: tuple[Any, ...]
    angle: float = 180.0
    stops: tuple[float, ...] = ()
    centre: tuple[float, float] = (0.5, 0.5)
    radius: float = 0.5

    def resolve(self, values: dict[str, Any]) -> tuple[Colour, ...] | None:
        """The colours with these field ``values`` (None when a colour field has no colour; a
        value map not yet chosen stands for its default, else its first colour)."""
        found = [colour_of(c.default if c.has_default else c.choices[0][1], values) if isinstance(c, Pick) else colour_of(c, values)
                 for c in self.colours]
        return None if any(c is None for c in found) else tuple(c for c in found if c is not None)

    def chosen(self, values: dict[str, Any], fail: Callable[[str | None, str], Exception]) -> Gradient:
        """This gradient with each value map in its colours chosen by the token's ``values``."""
        if not any(isinstance(c, Pick) for c in self.colours):
            return self
        return replace(self, colours=tuple(c.choose(values, fail) if isinstance(c, Pick) else c for c in self.colours))


#: A fill in a template: a colour or a gradient.
FillRef = ColourRef | Gradient


@dataclass(frozen=True)
class Size:
    """A size given as a fraction of the token's smaller side (``frac``) or in pt (``pt``)."""

    frac: float = 0.0
    pt: float | None = None

    def resolve(self, side: float) -> float:
        """The size in pt on a token whose smaller side is ``side`` pt."""
        return self.pt if self.pt is not None else self.frac * side


#: How an element key's value is read once the schema (``data/template.schema.json``, which says
#: which keys each kind takes and what their values are) has passed it: key → :class:`_Parser`
#: method. A key not named here is taken as the schema gave it (a flag, a word, a number).
_READ = {"at": "point", "box": "point", "clip": "point", "width": "size", "size": "size", "radius": "size", "inset": "size",
         "r": "size", "colour": "colour", "fill": "fill", "stroke": "colour", "plate_colour": "colour", "font": "font",
         "stroke_width": "size",
         "align": "align", "spacing": "spacing",
         "min_size": "size", "leading": "number", "rotate": "number", "dash": "dash", "inner": "number",
         "start": "number", "end": "number", "lang": "lang"}
#: What an element of each kind has when its keys do not say.
_DEFAULTS: dict[str, dict[str, Any]] = {
    "text": {"width": Size(0.8)},
    "glyph": {"font": "bold", "spacing": -0.08, "size": Size(0.36), "width": Size(0.8)},
    "image": {"fit": "contain"},
    "rect": {"width": Size(0.0)}, "circle": {"width": Size(0.0)}, "frame": {"width": Size(0.0)},
    "line": {"width": Size(0.02)}, "polygon": {"width": Size(0.0)}, "regular": {"width": Size(0.0)},
    "star": {"width": Size(0.0), "inner": 0.4}, "ellipse": {"width": Size(0.0)}, "sector": {"width": Size(0.0)},
    "arc_text": {"size": Size(0.1)}, "path": {"width": Size(0.0)},
    "stack": {"direction": "column", "align": "stretch"},
}
#: The kinds that take ``box`` only as an element of a stack (elsewhere their points, path or
#: ``at`` and ``r`` place them).
_SIZED_IN_STACK = ("circle", "line", "polygon", "regular", "star", "sector", "path")
#: The kinds a stack may hold (besides ``fill`` spacers); a frame follows the trim, text on a
#: circle its circle, and a group or another stack is not measured (refused when parsed).
STACKABLE = ("text", "glyph", "image", "rect", "circle", "line", "polygon", "regular", "star", "ellipse", "sector", "path")


#: The names a repeated element's text may read besides the fields: the copy's number (from 0),
#: the number of copies, and (``over:``) the copy's item. Inside a repeat they hide fields so named.
REPEAT_NAMES = ("i", "n", "item")
#: Most copies one ``repeat`` draws.
MAX_REPEAT = 1000


@dataclass(frozen=True)
class Repeat:
    """An element's ``repeat:``: ``count`` copies, or one per item of ``items`` (a list written in
    the template), or as the field ``over`` says per token (a number field: that many; a text
    field: one per comma-separated part). Copy ``k`` (from 0) is shifted ``k`` · ``step`` (dx, dy
    fractions of the token) and turned ``k`` · ``turn`` degrees clockwise about ``about`` (x, y
    fractions from the top-left)."""

    count: int = 0
    items: tuple[Any, ...] = ()
    over: str = ""
    step: tuple[float, float] = (0.0, 0.0)
    turn: float = 0.0
    about: tuple[float, float] = (0.5, 0.5)

    @property
    def most(self) -> int:
        """The most copies this repeat may draw (a field's: :data:`MAX_REPEAT`)."""
        return MAX_REPEAT if self.over else len(self.items) or self.count

    def items_for(self, values: dict[str, Any], fail: Callable[[str | None, str], Exception]) -> list[Any]:
        """The copies' items with one token's field ``values`` (``count``: 0 … count - 1).

        Raises:
            the exception ``fail(field, message)`` returns: a field's number below 0, not whole,
            or above :data:`MAX_REPEAT`; text of more than that many parts.
        """
        if not self.over:
            return list(self.items) if self.items else list(range(self.count))
        value = values.get(self.over)
        if value is None:
            return []
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if not (0 <= value <= MAX_REPEAT and float(value).is_integer()):
                raise fail(self.over, f"repeat over '{self.over}' needs a whole number from 0 to {MAX_REPEAT}, got {format_value(value)}")
            return list(range(int(value)))
        parts = [part.strip() for part in str(value).split(",") if part.strip()]
        if len(parts) > MAX_REPEAT:
            raise fail(self.over, f"repeat over '{self.over}' draws at most {MAX_REPEAT} copies, got {len(parts)} parts")
        return parts


@dataclass(frozen=True)
class Element:
    """One drawing element. Fractions are of the token (see the module docstring); ``y`` runs
    down from the top edge. ``line`` is where it is defined (for messages).

    Attributes:
        kind: one of :data:`KINDS`.
        content: text with ``{field}`` places (text, glyph, image, arc_text), else the kind's word
            (empty for line and polygon).
        at: (x, y) anchor: a text's baseline point (at its left end, centre or right end as
            ``align`` says) or the centre of a circle, regular polygon, star, sector or arc text.
        box: (x, y, w, h) of rect, ellipse and image (x, y = top-left corner).
        width: text: the width text is fitted into; rect, circle, frame: stroke width (Size).
        size: text: the largest font size (Size).
        font: ``regular``, ``bold`` or a catalogue font name.
        align: ``left``, ``centre`` or ``right``; a boxed text also ``justify``.
        colour, fill, stroke, plate_colour: colours (see :data:`ColourRef`); a one-line text or
            glyph with a ``stroke`` is outlined in it (PDF text render mode 2: filled, then stroked).
        stroke_width: a one-line text's outline width (Size; None: 1/20 of the printed size).
        fit: text: shrink to fit ``width``; image: ``contain`` or ``cover``.
        spacing: extra space between characters, a fraction of the font size (glyph: -0.08), or
            a length (``Size(pt=…)``: the space at the text's full ``size``, shrunk with it).
        plate: name of the opaque plate group drawn under this text when the face has art.
        radius: corner radius (Size) of rect, frame or the image's clip.
        inset: frame inset from the trim (Size).
        r: circle radius (Size).
        clip: image clip box (x, y, w, h), or None for ``box``.
        bleed: rect: also fill the bleed past the trim; image: cover the bleed box when the
            sheet has bleed.
        boxed: text, glyph: the element gave a ``box``, so it is a paragraph wrapped in it.
        min_size: a boxed text's smallest size (Size; default 5 pt).
        valign: a boxed text's place in a taller box: ``top``, ``middle`` or ``bottom``.
        leading: a boxed text's baseline-to-baseline distance, a multiple of the size.
        markup: a boxed text's ``**``, ``*``, ``:icon:`` and ``\\`` are read (False: printed as written).
        smallcaps: a boxed text's lower-case letters are drawn as capitals at 0.7 of the size
            (:data:`tokengen.faces.textbox.SMALL_CAPS`).
        lang: a boxed text's language, for hyphenation (a pyphen dictionary, :func:`hyphenation_lang`;
            "": the template's :attr:`Template.lang`).
        rotate: degrees the element is turned clockwise about its centre (see the module docstring).
        points: line, polygon: the corners (x, y) in order, fractions of the token from its top-left.
        commands: path: its outline, absolute ``M``/``L``/``C``/``Z`` commands in fractions of the
            token from its top-left (:func:`tokengen.geometry.svgpath.parse_path`).
        sides: regular: the number of corners; star: of points.
        inner: star: the notches' distance from the centre, a fraction of ``r``; sector: the
            inner radius of a ring segment, a fraction of ``r`` (0: a wedge from the centre).
        start, end: sector: from where to where it runs, degrees clockwise from 12 o'clock; arc
            text: where it begins (and may end), the same way (``end`` None: not bounded).
        dash: line and figure outlines: (on, off) lengths (Size), or None for a solid line.
        cap, join: how line ends and corners are drawn (``butt``/``round``/``square``,
            ``miter``/``round``/``bevel``).
        side: arc text: ``outside`` (letters beyond the circle) or ``inside`` (within it).
        direction: arc text: read ``clockwise`` (letters' tops outwards) or ``anticlockwise`` (towards the centre).
        when, unless: the element is drawn only on a token where ``when`` holds and ``unless``
            does not (:class:`Condition`; None: always).
        picks: (key, :class:`Pick`) for each key given as a value map: the value chosen by a
            field's value (the attribute holds the map's default, else its first value, until
            :func:`resolve` chooses per token). A resolved element has no picks and no conditions.
        repeat: the element drawn again and again (:class:`Repeat`); :func:`resolve` makes the copies.
        orbit: turns the element is drawn through, outermost first, each (degrees, x, y): turned
            that much clockwise about (x, y), fractions of the token from its top-left (a
            ``group``'s ``rotate``, a turned repeat's copy).
        children: stack: its elements in order (a ``fill`` spacer is kind ``spacer``).
        gap: stack: the space between its elements (Size).
        weight: spacer: its share of the space a stack leaves.
        sized: an element of a stack gave a ``box``: its width and height are its size there
            (a text's height is always its content's).
    """

    kind: str
    content: str = ""
    at: tuple[float, float] = (0.5, 0.5)
    box: tuple[float, float, float, float] = (0.0, 0.0, 1.0, 1.0)
    width: Size | None = None
    size: Size = Size(0.12)
    font: str = "regular"
    align: str = "centre"
    colour: ColourRef = None
    fill: FillRef = None
    stroke: ColourRef = None
    stroke_width: Size | None = None
    fit: bool | str = True
    spacing: float | Size = 0.0
    plate: str | None = None
    plate_colour: ColourRef = None
    radius: Size = Size(0.0)
    inset: Size = Size(0.0)
    r: Size = Size(0.4)
    clip: tuple[float, float, float, float] | None = None
    bleed: bool = False
    boxed: bool = False
    min_size: Size = Size(pt=5.0)
    valign: str = "top"
    leading: float = 1.2
    markup: bool = True
    smallcaps: bool = False
    lang: str = ""
    rotate: float = 0.0
    points: tuple[tuple[float, float], ...] = ()
    sides: int = 0
    inner: float = 0.0
    start: float = 0.0
    end: float | None = None
    dash: tuple[Size, Size] | None = None
    cap: str = "butt"
    join: str = "miter"
    side: str = "outside"
    direction: str = "clockwise"
    when: Condition | None = None
    unless: Condition | None = None
    picks: tuple[tuple[str, Pick], ...] = ()
    repeat: Repeat | None = None
    commands: tuple[tuple[float | str, ...], ...] = ()
    orbit: tuple[tuple[float, float, float], ...] = ()
    children: tuple[Element, ...] = ()
    gap: Size = Size(0.0)
    weight: float = 0.0
    sized: bool = False
    line: int | None = None
    where: str = ""  # its place in the file, as a field path: template[2]

    def spacing_of(self, side: float) -> float:
        """The extra space between characters as a fraction of the font size, on a token whose
        smaller side is ``side`` pt: a length is taken at the text's full ``size``."""
        if isinstance(self.spacing, Size):
            largest = self.size.resolve(side)
            return (self.spacing.pt or 0.0) / largest if largest > 0 else 0.0
        return self.spacing

    def fit_width(self, face_w: float) -> float:
        """The width (pt) a text is fitted into on a ``face_w`` pt wide face: ``width``, or 0.8 of the face."""
        return self.width.pt if self.width and self.width.pt is not None else (self.width.frac if self.width else 0.8) * face_w

    def text_span(self, face_w: float) -> tuple[float, float]:
        """That width about the text's anchor, placed as ``align`` says: (left, right) in pt from
        the trim's left edge."""
        w, x = self.fit_width(face_w), self.at[0] * face_w
        return {"left": (x, x + w), "right": (x - w, x)}.get(self.align, (x - w / 2, x + w / 2))

    def fields(self) -> list[str]:
        """The field names this element reads (its text places and its colour fields; unresolved:
        also its conditions' and value maps' fields and every value a map may choose)."""
        names = placeholders(self.content) if self.kind in TEXT_KINDS else []
        for child in self.children:
            names += child.fields()
        if self.repeat is not None:
            names = [name for name in names if name not in REPEAT_NAMES]
            names += [self.repeat.over] if self.repeat.over else []
        names += self._colour_fields()
        for condition in (self.when, self.unless):
            names += [clause.field for clause in condition.clauses] if condition else []
        for key, pick in self.picks:
            names += self._pick_fields(key, pick)
        return names

    def _colour_fields(self) -> list[str]:
        """The colour fields this element's colours name (a gradient's too, and what its value
        maps read and may choose)."""
        fills: list[Any] = list(self.fill.colours) if isinstance(self.fill, Gradient) else [self.fill]
        for pick in [c for c in fills if isinstance(c, Pick)]:
            fills += [pick.by, *pick.values()]
        return [c for c in (self.colour, *fills, self.stroke, self.plate_colour) if isinstance(c, str)]

    def _pick_fields(self, key: str, pick: Pick) -> list[str]:
        """The fields a value map for ``key`` reads: the one it is chosen by, and those its
        values name (a text's places, a colour field)."""
        names = [pick.by]
        for value in pick.values():
            if key == "content" and self.kind in TEXT_KINDS:
                names += placeholders(value)
            elif key in _COLOUR_KEYS and isinstance(value, str):
                names.append(value)
        return names


#: The element keys whose values are colours (a str value: the name of a colour field).
_COLOUR_KEYS = ("colour", "fill", "stroke", "plate_colour")


#: Whether a field value counts as given for ``when: FIELD`` (:func:`tokengen.sources.expr.truthy`).
truthy = expr.truthy


def _same(value: Any, kind: str) -> Any:
    """A token's field value in the form map keys and condition values are compared in: a
    number field's value as a float, anything else as it is."""
    if kind in ("number", "integer") and isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return value


@dataclass(frozen=True)
class Clause:
    """One key of a condition (a clause): field ``field`` is given (``values`` None; ``given`` False: is
    not), or equals one of ``values`` (each in the form :func:`_same` gives: numbers as floats)."""

    field: str
    kind: str
    values: tuple[Any, ...] | None = None
    given: bool = True

    def holds(self, values: dict[str, Any]) -> bool:
        value = values.get(self.field)
        if self.values is None:
            return truthy(value) == self.given
        return _same(value, self.kind) in self.values


@dataclass(frozen=True)
class Condition:
    """A ``when:`` or ``unless:``: it holds when every clause holds."""

    clauses: tuple[Clause, ...]

    def holds(self, values: dict[str, Any]) -> bool:
        return all(clause.holds(values) for clause in self.clauses)


@dataclass(frozen=True)
class Pick:
    """A value chosen per token: ``{by: FIELD, map: {VALUE: X, ...}, default: X}``.

    Attributes:
        by, kind: the field whose value chooses, and its type.
        choices: (key, X) in map order, each key in the form :func:`_same` gives and each X
            read as the element key's own value is (a layout map: a :class:`Template`).
        keys: the map's keys as written, for messages.
        default: X for a value the map lacks; ``has_default`` False: such a value is an error.
        where, line, source: the map's place (``template[2].fill``, its line, the catalogue).
    """

    by: str
    kind: str
    choices: tuple[tuple[Any, Any], ...]
    keys: tuple[str, ...]
    default: Any = None
    has_default: bool = False
    where: str = ""
    line: int | None = None
    source: str = ""

    def values(self) -> list[Any]:
        """Every value this map may choose (its default last)."""
        return [v for _, v in self.choices] + ([self.default] if self.has_default else [])

    def choose(self, values: dict[str, Any], fail: Callable[[str, str], Exception]) -> Any:
        """The value chosen by the token field ``values``.

        Raises:
            the exception ``fail(field, message)`` returns: the value is not in the map and the
            map has no default (the message names the value, the map and its keys).
        """
        value = values.get(self.by)
        key = _same(value, self.kind)
        for choice, chosen in self.choices:
            if choice == key:
                return chosen
        if self.has_default:
            return self.default
        shown = "the empty value" if value is None or value == "" else show(value) if isinstance(value, str) else format_value(value)
        place = f"{Path(self.source).name}:{self.line}" if self.line else Path(self.source).name or "a built-in template"
        raise fail(self.by, f"{shown} is not in the value map at {self.where} ({place}): its keys are {', '.join(self.keys)} "
                            "and it has no default") from None


@dataclass(frozen=True)
class Template:
    """A face or back design: its elements in drawing order, its name when built in, the
    catalogue fonts it may use (template font name → registered ReportLab font name) and icons
    (name → image file, for ``:name:`` in a boxed text), and a layout's own trim."""

    elements: tuple[Element, ...]
    name: str = ""
    fonts: tuple[tuple[str, str], ...] = ()  # catalogue font name → ReportLab font name
    icons: tuple[tuple[str, str], ...] = ()  # catalogue icon name → image file (absolute path)
    source: str = ""  # the file it was read from (empty for a built-in template)
    #: catalogue font family name → registered (regular, bold, italic, bold_italic), "" for a style not given
    families: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: a layout's own size and shape (``size:``/``shape:`` in the layout), None: the catalogue's;
    #: its tokens get a band of their own on the sheets (:mod:`tokengen.geometry.bands`)
    trim: Trim | None = None
    #: the catalogue's ``lang`` (a pyphen dictionary name, "" for none): boxed texts without their own
    lang: str = ""

    def place(self, element: Element) -> str:
        """Where ``element`` is defined, for messages: ``units.yaml:14: template[3]`` (a
        built-in template: ``template 'meatshield' [3]``)."""
        if not self.source:
            return f"template '{self.name}' {element.where.rpartition('.')[2] or element.where}"
        return f"{self.source}:{element.line}: {element.where}" if element.line else f"{self.source}: {element.where}"

    def fields(self) -> tuple[str, ...]:
        """Every field the template reads, in first-use order (worked out once per template: the
        catalogue asks it of every token's face and back)."""
        found: tuple[str, ...] | None = self.__dict__.get("_fields")
        if found is None:
            found = tuple(dict.fromkeys(f for e in self.elements for f in e.fields()))
            object.__setattr__(self, "_fields", found)  # frozen: kept beside the fields, not one of them
        return found

    def every(self) -> tuple[Element, ...]:
        """Its elements, each stack followed by its own elements (what the checks of fonts,
        pictures, conditions and strokes go through; spacers left out)."""
        return tuple(c for e in self.elements for c in (e, *e.children) if c.kind != "spacer")

    def kinds(self) -> frozenset[str]:
        """The kinds of its elements, ``"boxed"`` added when a text or glyph is boxed (worked out
        once per template: the drawing of every face asks whether it has pictures, boxed texts,
        texts on a circle)."""
        found: frozenset[str] | None = self.__dict__.get("_kinds")
        if found is None:
            found = frozenset(e.kind for e in self.elements) | ({"boxed"} if any(e.boxed for e in self.elements) else set())
            object.__setattr__(self, "_kinds", found)  # frozen: kept beside the fields, as fields() is
        return found

    @property
    def plain(self) -> bool:
        """True when no element has a condition or a value map (the template needs no
        :func:`resolve` beyond leaving out empty texts and pictures). Worked out once per template."""
        found: bool | None = self.__dict__.get("_plain")
        if found is None:
            found = all(e.kind != "stack" and e.when is None and e.unless is None and not e.picks and e.repeat is None
                        and not (isinstance(e.fill, Gradient) and any(isinstance(c, Pick) for c in e.fill.colours))
                        and not (e.kind in TEXT_KINDS and (computes(e.content) or _reads_others(e.content))) for e in self.elements)
            object.__setattr__(self, "_plain", found)  # frozen: kept beside the fields, as fields() is
        return found


#: A catalogue's face or back before it is resolved per token: one template, or a layout map
#: (:class:`Pick` whose values are templates).
Face = Template | Pick


@lru_cache(maxsize=4096)
def _pieces(text: str) -> tuple[tuple[str, str | None], ...]:
    """``text`` split once per distinct text into (literal, place or None) pieces: a place is what
    stands between braces (``{{`` and ``}}`` are literal braces; a quoted ``}`` inside a place is
    part of it). A template's few texts are split once, not once per token and use.

    Raises:
        ValueError: a brace without its partner.
    """
    out: list[tuple[str, str | None]] = []
    literal: list[str] = []
    at, end = 0, len(text)
    while at < end:
        ch = text[at]
        if ch in "{}" and text[at + 1:at + 2] == ch:
            literal.append(ch)
            at += 2
        elif ch == "}":
            raise ValueError("single '}' in the text; write '}}' to print a brace")
        elif ch != "{":
            literal.append(ch)
            at += 1
        else:
            close = _place_end(text, at + 1)
            out.append(("".join(literal), text[at + 1:close]))
            literal = []
            at = close + 1
    if literal or not out:
        out.append(("".join(literal), None))
    return tuple(out)


def _place_end(text: str, start: int) -> int:
    """Where the place that begins at ``start`` (just after its ``{``) ends: the index of its
    closing ``}``, passing over any inside quotes (``"…"`` or ``'…'``).

    Raises:
        ValueError: no closing brace.
    """
    close, quote = start, ""
    while close < len(text) and (quote or text[close] != "}"):
        if quote and text[close] == quote:
            quote = ""
        elif not quote and text[close] in "\"'":
            quote = text[close]
        close += 1
    if close >= len(text):
        raise ValueError("single '{' in the text; write '{{' to print a brace")
    return close


#: A place naming another token's value: ``ref:ID.field`` (by its id) or ``row:N.field`` (the Nth token, from 1).
REF = re.compile(r"(ref):([a-z0-9][a-z0-9_-]{0,63})\.([A-Za-z_][A-Za-z0-9_-]*)|(row):([0-9]{1,7})\.([A-Za-z_][A-Za-z0-9_-]*)")
#: The name a template reads for the token's number in the catalogue (1 for the first), when no field is so named.
ROW = "row"


def is_ref(place: str) -> bool:
    """Whether a brace place names another token's value (``ref:orc.name``, ``row:7.name``)."""
    return place.startswith(("ref:", "row:")) and REF.fullmatch(place) is not None


def is_computed(place: str) -> bool:
    """Whether a brace place is an expression (``cost + 1``) rather than a plain field name or a
    reference to another token's value."""
    return not FIELD_NAME.fullmatch(place) and not is_ref(place)


@dataclass(frozen=True)
class Others:
    """The catalogue's tokens as one token's template sees them: ``row`` its own number (from 1),
    ``by_id`` id → field values, ``rows`` every token's field values in order (None: references
    are not needed, so the tokens were not read ahead)."""

    row: int
    by_id: dict[str, dict[str, Any]] | None = None
    rows: list[dict[str, Any]] | None = None

    def value(self, place: str) -> Any:
        """The value a reference place names (``ref:orc.name``, ``row:7.name``).

        Raises:
            ExprError: no token has that id, or no token that number.
        """
        m = REF.fullmatch(place)
        if m is None or self.by_id is None or self.rows is None:
            raise expr.ExprError("references to other tokens are not read here")
        if m.group(1):
            token, field = m.group(2), m.group(3)
            if token not in self.by_id:
                raise expr.ExprError(f"no token has id '{token}'{suggest(token, list(self.by_id))}")
            return self.by_id[token].get(field)
        number, field = int(m.group(5)), m.group(6)
        if not 1 <= number <= len(self.rows):
            raise expr.ExprError(f"there is no token {number}: the catalogue has {len(self.rows)}")
        return self.rows[number - 1].get(field)


@lru_cache(maxsize=4096)
def _reads_others(text: str) -> bool:
    """Whether ``text`` has a place that :func:`resolve` works out per token: a reference, or one
    reading the token's ``row`` number."""
    try:
        for _, place in _pieces(text):
            if place is not None and (is_ref(place) or (place == ROW if not is_computed(place) else ROW in expr.names(expr.parse(place)))):
                return True
    except ValueError:
        return False
    return False


def references(face: Face) -> bool:
    """Whether any element of ``face`` names another token's value (``{ref:ID.field}``, ``{row:N.field}``)."""
    return any(e.kind in TEXT_KINDS and any(p is not None and is_ref(p) for _, p in _pieces(e.content))
               for template in templates_of(face) for e in template.elements)


def placeholders(text: str) -> list[str]:
    """The field names ``text`` reads: its ``{field}`` places and the fields its computed places
    (``{cost + 1}``, :mod:`tokengen.sources.expr`) read; ``{{``/``}}`` are literal braces.

    Raises:
        ValueError: unbalanced braces, or an expression that cannot be read (the message quotes it).
    """
    names: list[str] = []
    for _, place in _pieces(text):
        if place is None or is_ref(place):
            continue
        if not is_computed(place):
            names.append(place)
            continue
        try:
            names += expr.names(expr.parse(place))
        except expr.ExprError as exc:
            raise ValueError(f"{{{place}}}: {exc}") from None
    return list(dict.fromkeys(names))


def computes(text: str) -> bool:
    """Whether ``text`` has a computed place (an expression in braces)."""
    try:
        return any(place is not None and is_computed(place) for _, place in _pieces(text))
    except ValueError:
        return False


def format_value(value: Any) -> str:
    """A field value as printed: whole numbers without ``.0``; text as is."""
    if type(value) is str:  # the most common value first
        return value
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, Path):
        return str(value)
    return "" if value is None else str(value)


def _place_value(place: str, values: dict[str, Any]) -> str:
    if is_ref(place):
        return ""  # resolved per token (resolve): never met in a drawing
    if not is_computed(place):
        return format_value(values.get(place))
    return expr.as_text(expr.evaluate(expr.parse(place), values))


def substitute(text: str, values: dict[str, Any], plain: bool = False) -> str:
    """``text`` with every ``{field}`` replaced by ``values[field]`` (see :func:`format_value`)
    and every computed place by its value (:func:`tokengen.sources.expr.evaluate`).
    ``plain``: for text that reads no markup (one line, on an arc), a rich spreadsheet cell
    (:class:`~tokengen.sources.table.Marked`) gives its text without its bold and italic runs'
    stars; else its markup.

    Raises:
        ExprError: a computed place that cannot be worked out with these values (:func:`resolve`
            tries each token's once, so a drawing never meets one).
    """
    if plain:
        values = {k: (v.plain if isinstance(v, Marked) else v) for k, v in values.items()} if any(
            isinstance(v, Marked) for v in values.values()) else values
    pieces = _pieces(text)
    if len(pieces) == 1:
        literal, name = pieces[0]
        if name is None:  # no field place: the text itself
            return literal
        if not literal:  # "{field}" alone: its value
            return _place_value(name, values)
    out = []
    for literal, name in pieces:
        out.append(literal)
        if name is not None:
            out.append(_place_value(name, values))
    return "".join(out)


#: Where an empty field stood while a boxed text's markup is tidied (:func:`boxed_text`).
_GONE = "\x00"
#: Stars around nothing but empty fields: ``*{flavour}*`` with no flavour.
_EMPTY_MARKUP = re.compile(r"(?<!\\)(\*{1,3})\x00+\1")


def boxed_text(element: Element, values: dict[str, Any]) -> str:
    """What a boxed text ``element`` reads with these ``values``: :func:`substitute`, and when
    its markup is read (``markup: true``, the default), the stars around a field that is empty
    go with it: ``"*{flavour}*"`` with an empty flavour is empty text, not a literal ``**``
    (markup reads stars with nothing between them as stars). Stars around text and fields of
    which one has a value stay."""
    pieces = _pieces(element.content)
    if not element.markup:  # printed as written: a rich cell's words, not its stars
        return substitute(element.content, values, plain=True)
    if len(pieces) == 1 or any(_GONE in literal for literal, *_ in pieces):
        return substitute(element.content, values)
    out = []
    for literal, name in pieces:
        out.append(literal)
        if name is not None:
            value = _place_value(name, values)
            out.append(value if value.strip() else _GONE)  # spaces alone count as empty, as for when:
    return _EMPTY_MARKUP.sub("", "".join(out)).replace(_GONE, "")


#: Dropped from one-line text: the soft hyphen marks where a word may break, and one line never breaks.
SOFT_HYPHEN = "\u00ad"


def line_text(element: Element, values: dict[str, Any]) -> str:
    """What a one-line text or glyph ``element`` prints with these ``values``: substituted,
    normalised to NFC (a decomposed ``e`` + U+0302 + U+0303 is the one glyph ``ễ``), soft hyphens
    dropped; no-break spaces and Private Use characters (icon fonts) kept."""
    text = substitute(element.content, values, plain=True)
    if text.isascii():  # NFC already, and no soft hyphen
        return text
    return unicodedata.normalize("NFC", text).replace(SOFT_HYPHEN, "")


def printable_on_one_line(ch: str) -> bool:
    """Whether one-line text may hold ``ch``: a printable character, a space of any width
    (no-break spaces: category Zs), or a Private Use character (an icon font's glyph; whether
    the font has it is checked apart). Line breaks, tabs and other controls are not."""
    return ch.isprintable() or unicodedata.category(ch) in ("Zs", "Co")


def colour_of(ref: FillRef, values: dict[str, Any]) -> Colour | None:
    """The colour ``ref`` stands for with these field ``values`` (None: not drawn); a gradient
    stands for its middle colour (what a picture over it is flattened onto, what its bleed shows)."""
    if isinstance(ref, Gradient):
        colours = ref.resolve(values)
        return colours[len(colours) // 2] if colours else None
    if isinstance(ref, str):
        value = values.get(ref)
        return value if isinstance(value, Colour) else None
    return ref


def _given(value: Any) -> list[Any]:
    """The values a key was given as written: a value map's values (and its default), else the
    value itself (none when the key is absent)."""
    if isinstance(value, dict):
        return [*value["map"].values(), *([value["default"]] if "default" in value else [])]
    return [] if value is None else [value]


def _points(value: Any, where: tuple[Any, ...]) -> tuple[tuple[float, float], ...]:
    """A line's or polygon's corners as the schema passed them: [[x, y], …] → ((x, y), …)."""
    return tuple((float(x), float(y)) for x, y in value)


def _count(value: Any, where: tuple[Any, ...]) -> int:
    """A regular polygon's corners or a star's points: a whole number."""
    return int(value)


def _as_given(value: Any, where: tuple[Any, ...]) -> Any:
    """A key's value as the schema passed it (a flag, a word, a number)."""
    return value


class _Parser:
    """Reads one schema-checked template list at ``where`` in a YAML file's data (see
    :func:`parse_template`): what the schema cannot say, the fields, fonts and files it names."""

    def __init__(self, path: Path, lines: Lines, fields: dict[str, str], font_names: tuple[str, ...]):
        self.path, self.lines, self.fields, self.fonts = path, lines, fields, font_names

    def fail(self, where: tuple[Any, ...], message: str) -> CatalogueError:
        return CatalogueError(self.path, message, line=line_at(self.lines, where), field=dotted(where))

    def lang(self, value: str, where: tuple[Any, ...]) -> str:
        return hyphenation_lang(value, self.fail(where, ""))

    def point(self, value: list[float], where: tuple[Any, ...]) -> tuple[float, ...]:
        return tuple(float(v) for v in value)

    def number(self, value: float, where: tuple[Any, ...]) -> float:
        return float(value)

    def size(self, value: str | float, where: tuple[Any, ...]) -> Size:
        if isinstance(value, str):
            try:
                pt = parse_length(value)
            except ValueError as exc:
                raise self.fail(where, str(exc)) from None
            owner = where  # the key set: a value map's entry or default sets the key holding the map
            if where[-2:-1] == ("map",):
                owner = where[:-2]
            elif where[-1:] == ("default",):
                owner = where[:-1]
            if pt <= 0 and owner[-1:] in (("size",), ("min_size",)):  # a text's sizes (a value map's too): above 0, as the schema says of fractions
                raise self.fail(where, f"expected a length above 0, got {value!r}")
            return Size(pt=pt)
        return Size(float(value))

    def spacing(self, value: str | float, where: tuple[Any, ...]) -> float | Size:
        """Letter spacing: a fraction of the font size, or a length (``0.5pt``)."""
        if isinstance(value, str):
            try:
                return Size(pt=parse_length(value))
            except ValueError as exc:
                raise self.fail(where, str(exc)) from None
        return float(value)

    def colour(self, value: str | list[float], where: tuple[Any, ...]) -> ColourRef:
        if isinstance(value, str) and value.startswith("{"):
            name = value[1:-1]
            kind = self.fields.get(name)
            if kind is None:
                raise self.fail(where, f"unknown field '{name}'{suggest(name, list(self.fields))}")
            if kind != "colour":
                raise self.fail(where, f"field '{name}' is {kind}, not colour")
            return name
        return Colour.parse(value)

    def font(self, value: str, where: tuple[Any, ...]) -> str:
        known = BUILTIN_FONTS + self.fonts
        if value not in known:
            raise self.fail(where, f"unknown font {value!r}{suggest(value, known)} (fonts: {', '.join(known)})")
        return value

    def dash(self, value: list[str | float], where: tuple[Any, ...]) -> tuple[Size, Size]:
        on, off = (self.size(v, where + (i,)) for i, v in enumerate(value))
        if on.frac <= 0 and not on.pt:
            raise self.fail(where, f"a dash needs an 'on' length above 0, got {value[0]!r}")
        return (on, off)

    def fill(self, value: Any, where: tuple[Any, ...]) -> FillRef:
        """A colour, or a gradient ``{gradient: [...], angle: DEG}`` / ``{radial: [...]}``.

        Raises:
            CatalogueError: both kinds or neither; a key of the other kind; stops that are not one
                increasing fraction per colour; a colour :meth:`colour` refuses.
        """
        if not isinstance(value, dict):
            return self.colour(value, where)
        kind = self._gradient_kind(value, where)
        colours = tuple(self.pick(c, where + (kind, i), self.colour) if isinstance(c, dict) else self.colour(c, where + (kind, i))
                        for i, c in enumerate(value[kind]))
        stops = self._gradient_stops(value, len(colours), where)
        if kind == "gradient" and ("centre" in value or "radius" in value):
            key = "centre" if "centre" in value else "radius"
            raise self.fail(where + (key,), f"'{key}' is for a radial gradient; a linear one runs along its angle")
        centre = tuple(float(v) for v in value.get("centre", (0.5, 0.5)))
        return Gradient("linear" if kind == "gradient" else "radial", colours, float(value.get("angle", 180.0)), stops,
                        (centre[0], centre[1]), float(value.get("radius", 0.5)))

    def _gradient_stops(self, value: dict[str, Any], count: int, where: tuple[Any, ...]) -> tuple[float, ...]:
        """A gradient's ``stops``: none, or one increasing fraction for each of its ``count`` colours."""
        stops = tuple(float(v) for v in value.get("stops", ()))
        if stops and (len(stops) != count or any(b < a for a, b in zip(stops, stops[1:], strict=False))):
            raise self.fail(where + ("stops",), f"stops must be {count} increasing fractions, one for each colour, got {list(value['stops'])}")
        return stops

    def _gradient_kind(self, value: dict[str, Any], where: tuple[Any, ...]) -> str:
        """Which gradient a fill map gives, ``gradient`` (linear) or ``radial``: exactly one, and
        a radial one without an ``angle``."""
        kinds = [k for k in ("gradient", "radial") if k in value]
        if len(kinds) != 1:
            raise self.fail(where, "a gradient fill has either gradient: [COLOUR, …] (linear) or radial: [COLOUR, …]"
                            + (", not both" if kinds else ""))
        if kinds[0] == "radial" and "angle" in value:
            raise self.fail(where + ("angle",), "'angle' is for a linear gradient; a radial one runs from the centre out")
        return kinds[0]

    def align(self, value: str, where: tuple[Any, ...]) -> str:
        return "centre" if value == "center" else value

    def repeat(self, value: dict[str, Any], where: tuple[Any, ...]) -> Repeat:
        """A ``repeat:`` that passed ``$defs/repeat``: exactly one of ``count`` and ``over``."""
        given = [k for k in ("count", "over") if k in value]
        if len(given) != 1:
            raise self.fail(where, "a repeat needs count: N or over: \"{field}\" / [ITEMS]" + (", not both" if given else ""))
        step = tuple(float(v) for v in value.get("step", (0.0, 0.0)))
        about = tuple(float(v) for v in value.get("about", (0.5, 0.5)))
        turn = float(value.get("turn", 0.0))
        over = value.get("over")
        if isinstance(over, str):
            name = over[1:-1]
            if name not in self.fields:
                raise self.fail(where + ("over",), f"unknown field '{name}'{suggest(name, list(self.fields))}{self._fields_listed()}")
            if self.fields[name] not in ("number", "integer", "text"):
                raise self.fail(where + ("over",), f"field '{name}' is {self.fields[name]}; a repeat goes over a number (that many copies) or a text (one per comma-separated part)")
            return Repeat(over=name, step=(step[0], step[1]), turn=turn, about=(about[0], about[1]))
        items = tuple(over) if isinstance(over, list) else ()
        return Repeat(count=int(value.get("count", 0)), items=items, step=(step[0], step[1]), turn=turn, about=(about[0], about[1]))

    def content(self, kind: str, content: str, where: tuple[Any, ...], extra: tuple[str, ...] = ()) -> str:
        """The text of a text, glyph or image element, its ``{field}`` places declared (an
        image's of type image; a literal picture resolved inside the catalogue's folder).

        Raises:
            CatalogueError: an unpaired brace; a place the template cannot read
                (:meth:`_check_refs`, :meth:`_check_place_names`); a picture not found.
        """
        if kind not in TEXT_KINDS:
            return content
        try:
            names = placeholders(content)
        except ValueError as exc:
            raise self.fail(where, str(exc)) from None
        computed = self._computed_places(kind, content, where)
        self._check_refs(kind, content, where)
        for name in names:
            if not (name in extra or (name == ROW and ROW not in self.fields)):
                self._check_place_name(kind, name, computed, where)
        if kind == "image" and not names and content:
            from .artpath import resolve_art

            return str(resolve_art(self.path, content, False, self.fail(where, "")))
        return content if kind == "image" else unicodedata.normalize("NFC", content)

    def _computed_places(self, kind: str, content: str, where: tuple[Any, ...]) -> list[str]:
        """The computed places (``{cost + 1}``) of a text; a picture's name has none."""
        computed = [place for _, place in _pieces(content) if place is not None and is_computed(place)]
        if kind == "image" and computed:
            raise self.fail(where, f"{{{computed[0]}}}: a picture is named by a field, {{field}}; computed values are for text")
        return computed

    def _fields_listed(self) -> str:
        """The declared fields for a message: `` (fields: a, b)``."""
        return f" (fields: {', '.join(self.fields) or 'none declared'})"

    def _check_refs(self, kind: str, content: str, where: tuple[Any, ...]) -> None:
        """Each ``{ref:ID.field}`` / ``{row:N.field}`` place names a declared text or number field,
        in a text (a picture is named by the token's own field)."""
        for _, place in _pieces(content):
            if place is None or not is_ref(place):
                continue
            m = REF.fullmatch(place)
            field = (m.group(3) or m.group(6)) if m else ""
            if field not in self.fields:
                raise self.fail(where, f"{{{place}}}: unknown field '{field}'{suggest(field, list(self.fields))}{self._fields_listed()}")
            if self.fields[field] in ("image", "colour") or kind == "image":
                raise self.fail(where, f"{{{place}}}: a reference names another token's text or number for a text")

    def _check_place_name(self, kind: str, name: str, computed: list[str], where: tuple[Any, ...]) -> None:
        """A field a text's place reads is declared (a hint when ``a-b`` meant a subtraction), is
        an image field in a picture's name, and is a text or number field in a computed value."""
        if name not in self.fields:
            parts = name.split("-")
            hint = (f" (to subtract, put spaces around '-': {{{' - '.join(parts)}}})"
                    if len(parts) > 1 and all(p in self.fields for p in parts) else "")
            raise self.fail(where, f"unknown field '{name}'{suggest(name, list(self.fields))}{self._fields_listed()}{hint}")
        if kind == "image" and self.fields[name] != "image":
            raise self.fail(where, f"field '{name}' is {self.fields[name]}, not image")
        if self.fields[name] in ("image", "colour") and any(name in placeholders("{" + c + "}") for c in computed):
            raise self.fail(where, f"field '{name}' is {self.fields[name]}; a computed value reads text and number fields")

    def field_of(self, name: Any, where: tuple[Any, ...], what: str) -> str:
        """The declared field ``name`` a condition or value map reads (``what``: for messages).

        Raises:
            CatalogueError: no such field (with a did-you-mean), or an image field.
        """
        if name not in self.fields:
            raise self.fail(where, f"unknown field {show(name)}{suggest(str(name), list(self.fields))}{self._fields_listed()}")
        if self.fields[name] == "image":
            raise self.fail(where, f"field '{name}' is an image: {what} can test only whether it is given (when: {name})")
        return str(name)

    def key(self, value: Any, field: str, where: tuple[Any, ...]) -> Any:
        """A map key or condition value written for ``field``, in the form token values are
        compared in (:func:`_same`): a number for a number field, text for a text field, a
        :class:`Colour` for a colour field."""
        kind = self.fields[field]
        if kind in ("number", "integer"):
            number: float | None = None
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                number = float(value)
            elif isinstance(value, str):
                try:
                    number = float(value.strip())
                except ValueError:
                    number = None
            if number is None:
                raise self.fail(where, f"field '{field}' is a number; {show(value)} is not")
            return number
        if isinstance(value, bool):
            word = str(value).lower()  # YAML 1.2: only true and false are booleans (yamlsrc)
            raise self.fail(where, f"YAML reads an unquoted {word} as a boolean; to compare text, put it in quotes ('{word}')")
        if kind == "colour":
            if isinstance(value, str) and re.fullmatch(r"#[0-9A-Fa-f]{6}", value.strip()):
                return Colour.parse(value.strip())
            raise self.fail(where, f"field '{field}' is a colour; expected \"#rrggbb\", got {show(value)}")
        return format_value(value)

    def condition(self, spec: str | dict[Any, Any], where: tuple[Any, ...]) -> Condition:
        """A ``when:`` or ``unless:``: a field name (the field is given), or {FIELD: VALUE} /
        {FIELD: [VALUES]} (equal to one of them; true or false: given or not), every key holding.

        Raises:
            CatalogueError: an unknown field or a value it cannot hold (:meth:`_clause`).
        """
        if isinstance(spec, str):
            return Condition((self._clause(spec, True, where),))
        return Condition(tuple(self._clause(name, wanted, where + (name,)) for name, wanted in spec.items()))

    def _clause(self, name: Any, wanted: Any, where: tuple[Any, ...]) -> Clause:
        """One key of a condition: the token's ``row`` number (when no field is so named), a field
        given or not (true, false), or a field equal to one of the values listed."""
        if name == ROW and ROW not in self.fields:  # the token's number in the catalogue, from 1
            return self._row_clause(wanted, where)
        if isinstance(wanted, bool) and name in self.fields:  # FIELD, {FIELD: true}, {FIELD: false}: given or not
            return Clause(str(name), self.fields[name], None, wanted)
        field = self.field_of(name, where, "a condition")
        listed = wanted if isinstance(wanted, list) else [wanted]
        keys = tuple(self.key(v, field, where + ((i,) if isinstance(wanted, list) else ())) for i, v in enumerate(listed))
        return Clause(field, self.fields[field], keys)

    def _row_clause(self, wanted: Any, where: tuple[Any, ...]) -> Clause:
        """``row: N`` or ``row: [N, …]``: the token's number in the catalogue, from 1."""
        listed = wanted if isinstance(wanted, list) else [wanted]
        if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in listed):
            raise self.fail(where, f"row takes token numbers from 1 (the first token), got {show(wanted)}")
        return Clause(ROW, "integer", tuple(float(v) for v in listed))

    def pick(self, spec: dict[str, Any], where: tuple[Any, ...], read: Callable[[Any, tuple[Any, ...]], Any]) -> Pick:
        """A value map ``{by: FIELD, map: {VALUE: X}, default: X}``, each X read by ``read``."""
        field = self.field_of(spec["by"], where + ("by",), "a value map")
        choices = []
        for key, value in spec["map"].items():
            choices.append((self.key(key, field, where + ("map", key)), read(value, where + ("map", key))))
        has_default = "default" in spec
        default = read(spec["default"], where + ("default",)) if has_default else None
        keys = tuple(format_value(k) for k in spec["map"])
        return Pick(field, self.fields[field], tuple(choices), keys, default, has_default, dotted(where),
                    line_at(self.lines, where), str(self.path))

    def element(self, spec: dict[str, Any], where: tuple[Any, ...], in_stack: bool = False) -> Element:
        """One element that passed ``template.schema.json#/$defs/element`` (one kind key, that
        kind's keys, values of the right form; any value may be a value map). ``in_stack``: an
        element of a stack, where every text is a boxed text.

        Raises:
            CatalogueError: a value the schema cannot judge (a field, font or file it names), or a
                rule across keys (:meth:`_check_element`).
        """
        kind = next(k for k in KINDS if k in spec)
        args: dict[str, Any] = {"kind": kind, "line": self.lines.get(where), "where": dotted(where), **_DEFAULTS.get(kind, {})}
        picks = self._element_keys(spec, kind, where, args)
        if kind in ("line", "polygon", "regular", "star", "path"):
            args.setdefault("content", "")
        if kind in ("text", "glyph"):
            args["boxed"] = "box" in spec or in_stack
        self._check_element(spec, kind, where, in_stack, args)
        return Element(**args, picks=picks)

    def _element_keys(self, spec: dict[str, Any], kind: str, where: tuple[Any, ...],
                      args: dict[str, Any]) -> tuple[tuple[str, Pick], ...]:
        """Each of an element's keys read into ``args`` (its :class:`Element` attributes) in the
        order written; returns its value maps, (attribute, :class:`Pick`) each. A mapped key's
        attribute holds the map's default, else its first value."""
        picks = []
        for key, value in spec.items():
            at = where + (key,)
            if key in ("when", "unless"):
                args[key] = self.condition(value, at)
            elif key == "repeat":
                args["repeat"] = self.repeat(value, at)
            elif isinstance(value, dict) and "by" in value and "map" in value:  # a value map (a gradient has neither key)
                read, name = self._reader(spec, kind, key)
                pick = self.pick(value, at, read)
                picks.append((name, pick))
                args[name] = pick.default if pick.has_default else pick.choices[0][1]
            else:
                read, name = self._reader(spec, kind, key)
                args[name] = read(value, at)
        return tuple(picks)

    def _reader(self, spec: dict[str, Any], kind: str, key: str) -> tuple[Callable[[Any, tuple[Any, ...]], Any], str]:
        """How an element's key is read and the :class:`Element` attribute it sets: the kind's
        own key by :meth:`_kind_reader`, another by the method :data:`_READ` names (else as the
        schema passed it)."""
        if key == kind:
            return self._kind_reader(spec, kind)
        return (getattr(self, _READ[key]) if key in _READ else _as_given), key

    def _kind_reader(self, spec: dict[str, Any], kind: str) -> tuple[Callable[[Any, tuple[Any, ...]], Any], str]:
        """How the kind's own key (``text: …``, ``line: …``) is read and the attribute it sets: a
        line's or polygon's corners, a regular polygon's or star's count, a path's outline, else
        the element's text (a repeated one's may read ``{i}``, ``{n}``, ``{item}``)."""
        if kind in ("line", "polygon"):
            return _points, "points"
        if kind in ("regular", "star"):
            return _count, "sides"
        if kind == "path":
            return self.path_data, "commands"
        return partial(self.content, kind, extra=REPEAT_NAMES if "repeat" in spec else ()), "content"

    def _positive_box(self, box: list[float], where: tuple[Any, ...], what: str = "a box") -> None:
        """Refuse a box ``[x, y, w, h]`` whose width or height is not above 0."""
        if not (box[2] > 0 and box[3] > 0):
            raise self.fail(where, f"{what} needs a width and height above 0, got {list(box)}")

    def _check_element(self, spec: dict[str, Any], kind: str, where: tuple[Any, ...], in_stack: bool,
                       args: dict[str, Any]) -> None:
        """The rules across an element's keys: a figure takes a box only in a stack; a box or clip
        above 0; then its kind's own rules (:data:`_KIND_RULES`).

        Raises:
            CatalogueError: the first rule broken, at the key that breaks it.
        """
        if "box" in spec and kind in _SIZED_IN_STACK and not in_stack:
            raise self.fail(where + ("box",), f"a {kind} takes a box only in a stack (its size there); elsewhere its "
                            + ("points" if kind in ("line", "polygon") else "path" if kind == "path" else "at and r") + " place it")
        for key in ("box", "clip") if kind not in ("text", "glyph") else ():
            for box in _given(spec.get(key)):
                self._positive_box(box, where + (key,))
        rule = _KIND_RULES.get(kind)
        if rule is not None:
            rule(self, spec, where, args)

    def _check_arc_text(self, spec: dict[str, Any], where: tuple[Any, ...], args: dict[str, Any]) -> None:
        """Text on a circle: aligned left, centre or right (not justified)."""
        if args.get("align") == "justify":
            raise self.fail(where + ("align",), "text on a circle is aligned left, centre or right")

    def _check_sector(self, spec: dict[str, Any], where: tuple[Any, ...], args: dict[str, Any]) -> None:
        """A sector: its ``start`` and ``end`` differ (a whole circle leaves ``end`` out)."""
        if "start" in spec and "end" in spec and spec["start"] == spec["end"]:
            raise self.fail(where + ("end",), f"a sector from {spec['start']} to {spec['end']} degrees is empty; for a whole circle leave end out")

    def _check_text(self, spec: dict[str, Any], where: tuple[Any, ...], args: dict[str, Any]) -> None:
        """A text or glyph: its box above 0, then the keys of a text in a box
        (:meth:`_check_boxed_text`) or of a one-line text (:meth:`_check_one_line_text`)."""
        for box in _given(spec.get("box")):
            self._positive_box(box, where + ("box",), "a text's box")
        if args["boxed"]:
            self._check_boxed_text(spec, where)
        else:
            self._check_one_line_text(spec, where)

    def _check_boxed_text(self, spec: dict[str, Any], where: tuple[Any, ...]) -> None:
        """A text in a box is drawn filled only, in its colour: no stroke, outline, dash or fill."""
        for key in ("stroke", "stroke_width", "dash", "fill"):
            if key in spec:
                raise self.fail(where + (key,), f"'{key}' is for a one-line text; a text in a box is drawn filled only, "
                                                "in its colour")

    def _check_one_line_text(self, spec: dict[str, Any], where: tuple[Any, ...]) -> None:
        """A one-line text: none of a boxed text's keys, not justified, a fill only as a gradient,
        and an outline's width or dash only with its ``stroke``."""
        for key in ("min_size", "valign", "leading", "markup", "lang", "smallcaps"):
            if key in spec:
                raise self.fail(where + (key,), f"'{key}' is for a text in a box; add box: [x, y, w, h]")
        if "justify" in _given(spec.get("align")):
            raise self.fail(where + ("align",), "'justify' is for a text in a box; add box: [x, y, w, h] or use left, centre or right")
        if "fill" in spec and not isinstance(spec["fill"], dict):
            raise self.fail(where + ("fill",), "a text's fill is a gradient ({gradient: [COLOUR, ...]} or {radial: [...]}); "
                                               "give a plain colour as colour:")
        for key in ("stroke_width", "dash"):
            if key in spec and "stroke" not in spec:
                raise self.fail(where + (key,), f"'{key}' outlines a text in its stroke colour; add stroke: \"#rrggbb\"")

    def path_data(self, value: str, where: tuple[Any, ...]) -> tuple[tuple[float | str, ...], ...]:
        """``path:`` SVG path data in fractions of the token (:func:`tokengen.geometry.svgpath.parse_path`)."""
        from ..geometry.svgpath import parse_path

        try:
            return tuple(parse_path(value))
        except ValueError as exc:
            raise self.fail(where, str(exc)) from None

    def group(self, spec: dict[str, Any], where: tuple[Any, ...]) -> tuple[Element, ...]:
        """A ``group:``'s elements, drawn as the token's own (fractions of the token), then moved
        so that the token's centre lands on the group's ``at`` and turned ``rotate`` degrees
        clockwise about it; its ``when``/``unless`` hold for each of them besides their own."""
        at = tuple(float(v) for v in spec.get("at", (0.5, 0.5)))
        turn = float(spec.get("rotate", 0.0))
        when = self.condition(spec["when"], where + ("when",)) if "when" in spec else None
        unless = self.condition(spec["unless"], where + ("unless",)) if "unless" in spec else None
        out = []
        for element in self.elements(spec["elements"], where + ("elements",)):
            moved = _shifted(element, at[0] - 0.5, at[1] - 0.5)
            if turn:
                moved = replace(moved, orbit=((turn, at[0], at[1]), *moved.orbit))
            if when is not None:
                moved = replace(moved, when=Condition(((moved.when.clauses if moved.when else ()) + when.clauses)))
            if unless is not None and moved.unless is not None:
                raise self.fail(where + ("unless",), f"{moved.where} has an unless of its own; a group's unless and its "
                                                     "element's cannot both be given (one holds when either does)")
            if unless is not None:
                moved = replace(moved, unless=unless)
            out.append(moved)
        return tuple(out)

    def stack(self, spec: dict[str, Any], where: tuple[Any, ...]) -> Element:
        """A ``stack:`` that passed the schema: its own keys (``box``, ``gap``, ``direction``,
        ``align``, ``when``, ``unless``) and its elements, each read as any element is (a text
        is a boxed text, its box its width) or a ``fill: WEIGHT`` spacer.

        Raises:
            CatalogueError: a child the stack cannot place (:meth:`_check_stack_child`); a box
                not above 0.
        """
        children = tuple(self._stack_child(child, where + ("stack", i)) for i, child in enumerate(spec["stack"]))
        args: dict[str, Any] = {"kind": "stack", "line": self.lines.get(where), "where": dotted(where), **_DEFAULTS["stack"],
                                "children": children}
        readers: dict[str, Callable[[Any, tuple[Any, ...]], Any]] = {
            "when": self.condition, "unless": self.condition, "box": self._stack_box, "gap": self.size,
            "direction": _as_given, "align": self.align}
        for key, read in readers.items():
            if key in spec:
                args[key] = read(spec[key], where + (key,))
        return Element(**args)

    def _stack_box(self, value: list[float], where: tuple[Any, ...]) -> tuple[float, ...]:
        """A stack's ``box: [x, y, w, h]``, its width and height above 0."""
        self._positive_box(value, where)
        return tuple(float(v) for v in value)

    def _stack_child(self, child: dict[str, Any], where: tuple[Any, ...]) -> Element:
        """One element of a stack: a ``fill: WEIGHT`` spacer, or an element read as any is,
        ``sized`` if it gave a box (a text or glyph there is always boxed)."""
        if set(child) == {"fill"}:
            return Element("spacer", weight=float(child["fill"]), line=self.lines.get(where), where=dotted(where))
        self._check_stack_child(child, next((k for k in KINDS if k in child), ""), where)
        element = self.element(child, where, in_stack=True)
        return replace(element, sized="box" in child, boxed=element.kind in ("text", "glyph"))

    def _check_stack_child(self, child: dict[str, Any], kind: str, where: tuple[Any, ...]) -> None:
        """What a stack refuses of an element: a kind it cannot measure (a frame, text on a
        circle, a group, another stack); ``at`` on one it places by its box; a text's ``width``;
        a figure without its box; a repeat's ``step``, ``turn`` or ``about`` (it places each copy)."""
        if kind not in STACKABLE:
            raise self.fail(where + (kind,), f"a stack cannot hold a {kind} (it holds {', '.join(STACKABLE)} and fill spacers)")
        if "at" in child and kind in ("text", "glyph", "image", "rect", "ellipse"):
            raise self.fail(where + ("at",), "the stack places its elements: leave 'at' out (a box gives the size only)")
        if "width" in child and kind in ("text", "glyph"):
            raise self.fail(where + ("width",), "a text in a stack is as wide as the stack, or as its box: [0, 0, w, h]")
        if "box" not in child and kind in ("image", "rect", "ellipse", "polygon", "path"):
            raise self.fail(where, f"a {kind} in a stack needs box: [0, 0, w, h] (its size there)")
        repeat = child.get("repeat") or {}
        for key in ("step", "turn", "about"):
            if key in repeat:
                raise self.fail(where + ("repeat", key), f"a stack places each copy after the last: '{key}' is not used in a stack")

    def elements(self, spec: list[Any], where: tuple[Any, ...]) -> tuple[Element, ...]:
        out: list[Element] = []
        for i, e in enumerate(spec):
            if isinstance(e, dict) and "group" in e:
                out += self.group(e, where + (i,))
            elif isinstance(e, dict) and "stack" in e:
                out.append(self.stack(e, where + (i,)))
            else:
                out.append(self.element(e, where + (i,)))
        return tuple(out)

    def template(self, spec: list[Any], where: tuple[Any, ...], name: str = "") -> Template:
        source = "" if name else str(self.path)
        return Template(self.elements(spec, where), name, source=source)


#: The rules across an element's keys that belong to its kind (:meth:`_Parser._check_element`).
_KIND_RULES: dict[str, Callable[[_Parser, dict[str, Any], tuple[Any, ...], dict[str, Any]], None]] = {
    "arc_text": _Parser._check_arc_text, "sector": _Parser._check_sector,
    "text": _Parser._check_text, "glyph": _Parser._check_text}


def parse_layouts(path: Path, spec: dict[str, Any], lines: Lines, fields: dict[str, str],
                  fonts: tuple[str, ...] = ()) -> dict[str, Template]:
    """Parse a catalogue's ``layouts:`` (name → an element list, or ``{extends: NAME, elements:
    [...]}``: the parent's elements drawn first, then its own).

    Raises:
        CatalogueError: what :func:`parse_template` finds in an element; an ``extends`` naming
            no layout (with a did-you-mean) or closing a circle (``a → b → a``); a layout with
            neither elements nor extends.
    """
    parser = _Parser(path, lines, fields, fonts)
    done: dict[str, Template] = {}

    def build(name: str, chain: tuple[str, ...]) -> Template:
        if name in done:
            return done[name]
        entry = spec[name]
        where: tuple[Any, ...] = ("layouts", name)
        if isinstance(entry, list):
            elements = parser.elements(entry, where)
        else:
            parent: tuple[Element, ...] = ()
            if "extends" in entry:
                base = entry["extends"]
                if base not in spec:
                    raise parser.fail(where + ("extends",), f"unknown layout {show(base)}{suggest(str(base), list(spec))} (layouts: {', '.join(spec)})")
                if base in chain + (name,):
                    circle = chain[chain.index(base):] + (name, base) if base in chain else (name, base)
                    raise parser.fail(where + ("extends",), f"layouts extend each other in a circle: {' → '.join(circle)}")
                parent = build(base, chain + (name,)).elements
            elif "elements" not in entry:
                raise parser.fail(where, "a layout needs elements: [...] or extends: LAYOUT")
            elements = parent + parser.elements(entry.get("elements", []), where + ("elements",))
        done[name] = Template(elements, name, source=str(path))
        return done[name]

    for name in spec:
        build(name, ())
    return done


def parse_template(path: Path, spec: Any, lines: Lines, where: tuple[Any, ...], fields: dict[str, str],
                   fonts: tuple[str, ...] = (), layouts: dict[str, Template] | None = None) -> Face:
    """Parse the template ``spec`` found at ``where`` in ``path``.

    Args:
        spec: a list of element mappings, the name of one of ``layouts`` or of a built-in
            template (``meatshield``), or a layout map ``{by: FIELD, map: {VALUE: LAYOUT},
            default: LAYOUT}`` (each LAYOUT a name or an element list), that passed
            ``data/template.schema.json#/$defs/template`` (the catalogue schema refers
            to it: unknown kinds and keys, values of the wrong form are found there).
        lines: source lines from :func:`tokengen.sources.yamlsrc.read_yaml`.
        fields: the catalogue's declared fields, name → type (see :data:`FIELD_TYPES`).
        fonts: the catalogue's own font names (besides ``regular`` and ``bold``).
        layouts: the catalogue's layouts (:func:`parse_layouts`), by name.
    Returns:
        A :class:`Template`, or for a layout map a :class:`Pick` of templates; either may hold
        conditions and value maps, which :func:`resolve` settles per token.
    Raises:
        CatalogueError: an unknown field, font, layout or built-in template (with a did-you-mean), a
            field of the wrong type, a length without a known unit, a picture outside the
            catalogue's folder, or a built-in template reading a field the catalogue lacks.
    """
    parser = _Parser(path, lines, fields, fonts)
    layouts = layouts or {}

    def named(name: str, at: tuple[Any, ...]) -> Template:
        if name in layouts:
            return layouts[name]
        known = builtin_names()
        if name not in known:
            listed = f"layouts: {', '.join(layouts)}; built in: {', '.join(known)}" if layouts else f"built in: {', '.join(known)}"
            raise parser.fail(at, f"unknown template {name!r}{suggest(name, list(layouts) + list(known))} ({listed})")
        template = builtin(name)
        for element in template.elements:
            for field in element.fields():
                if field not in fields:
                    raise parser.fail(at, f"the built-in template '{name}' reads field '{field}', which is not declared in fields")
        return template

    def one(value: Any, at: tuple[Any, ...]) -> Template:
        return named(value, at) if isinstance(value, str) else parser.template(value, at)

    if isinstance(spec, dict):
        return parser.pick(spec, where, one)
    return one(spec, where)


def templates_of(face: Face) -> list[Template]:
    """The templates a face may be drawn from: itself, or every template its layout map chooses."""
    return [face] if isinstance(face, Template) else list(dict.fromkeys(face.values()))


def dressed(face: Face, fonts: tuple[tuple[str, str], ...], icons: tuple[tuple[str, str], ...],
            families: tuple[tuple[str, tuple[str, ...]], ...] = (), lang: str = "",
            field_langs: tuple[tuple[str, str], ...] = ()) -> Face:
    """``face`` (each template of a layout map) with the catalogue's fonts, icons, font
    families (:attr:`Template.families`) and language (:attr:`Template.lang`); a boxed text with
    no ``lang`` of its own takes the language of the first field it prints that declares one
    (``field_langs``: field name → pyphen dictionary)."""
    if isinstance(face, Template):
        return replace(face, fonts=fonts, icons=icons, families=families, lang=lang,
                       elements=tuple(_field_lang(e, dict(field_langs)) for e in face.elements))
    return replace(face, choices=tuple((k, dressed(v, fonts, icons, families, lang, field_langs)) for k, v in face.choices),
                   default=dressed(face.default, fonts, icons, families, lang, field_langs) if face.has_default else None)


def _field_lang(element: Element, langs: dict[str, str]) -> Element:
    if not langs or element.lang or not element.boxed:
        return element
    found = next((langs[name] for name in placeholders(element.content) if name in langs), "")
    return replace(element, lang=found) if found else element


#: The install line for :func:`hyphenation_lang`'s dictionaries (docs/guide/install.md, extras).
HYPHENS_EXTRA = "pip install 'tokengen-print[hyphens]'"


def hyphenation_lang(code: str, where: CatalogueError) -> str:
    """The pyphen dictionary for the language ``code`` (``en`` → ``en``, ``en-gb`` → ``en_GB``).

    Raises:
        CatalogueError: ``where`` (file, line, key) with the message that pyphen has no
            dictionary for ``code``, or that pyphen (the ``hyphens`` extra,
            :data:`HYPHENS_EXTRA`) is not installed.
    """
    try:
        import pyphen  # only catalogues that declare a language pay for loading its list of dictionaries
    except ImportError:
        raise CatalogueError(where.path, f"hyphenation by the language '{code}' needs pyphen, the hyphens extra: "
                             f"{HYPHENS_EXTRA}", where.line, where.field) from None
    found = pyphen.language_fallback(code.replace("-", "_"))
    if found is None:
        known = ", ".join(sorted(name for name in pyphen.LANGUAGES if "_" not in name))
        raise CatalogueError(where.path, f"no hyphenation dictionary for the language '{code}' (pyphen has: {known})", where.line, where.field)
    return str(found)


def pictures(face: Face) -> list[Path]:
    """The literal pictures (``image: art/back.png``, also as a value map's values) a face may
    show: absolute paths, resolved when parsed."""
    found = []
    for template in templates_of(face):
        for element in template.every():
            if element.kind != "image":
                continue
            given = [element.content] + [v for key, pick in element.picks if key == "content" for v in pick.values()]
            found += [Path(v) for v in given if v and not placeholders(v)]
    return list(dict.fromkeys(found))


def picture_places(face: Face) -> list[tuple[Path, int | None, str]]:
    """The literal pictures of :func:`pictures`, each with the line and field path of the first
    image element naming it (``(Path('/…/art/frame.png'), 7, 'template[2].image')``)."""
    found: dict[Path, tuple[int | None, str]] = {}
    for template in templates_of(face):
        for element in template.every():
            if element.kind != "image":
                continue
            given = [element.content] + [v for key, pick in element.picks if key == "content" for v in pick.values()]
            for value in given:
                if value and not placeholders(value):
                    found.setdefault(Path(value), (element.line, f"{element.where}.image" if element.where else "image"))
    return [(path, line, field) for path, (line, field) in found.items()]


def image_source(element: Element, values: dict[str, Any]) -> Path | None:
    """The picture an image ``element`` shows with these field ``values``: the art file of a
    ``"{field}"`` naming an image field (None when the field is empty), else the substituted
    path (None when empty)."""
    if element.content.startswith("{") and element.content.endswith("}") and element.content.count("{") == 1:
        value = values.get(element.content[1:-1])
        return value if isinstance(value, Path) else None
    text = substitute(element.content, values)
    return Path(text) if text else None


def _empty(element: Element, values: dict[str, Any]) -> bool:
    """Whether ``element`` shows nothing with these values: a text or glyph whose text is empty
    (or only spaces), a picture that names no file."""
    if element.kind in ("text", "glyph"):
        return not (boxed_text(element, values) if element.boxed else substitute(element.content, values)).strip()
    if element.kind == "image":
        return image_source(element, values) is None
    return False


def resolve(face: Face, values: dict[str, Any], fail: Callable[[str | None, str], Exception], others: Others | None = None) -> Template:
    """The plain template one token is drawn with: its layout chosen (a layout map), every
    element whose ``when`` fails or whose ``unless`` holds left out, every value map settled,
    and every text or picture left empty by the token's values left out (with its plate, which
    is drawn for the texts present only). Done once per token (when the catalogue is read), so
    the drawing, the checks and the backs' sharing see plain elements. Returns ``face`` itself
    when nothing changes.

    Raises:
        the exception ``fail(field, message)`` returns: a token value a map lacks, with no default.
    """
    template = face.choose(values, fail) if isinstance(face, Pick) else face
    if template.plain and template.kinds().isdisjoint(("text", "glyph", "image")):
        return template
    seen = values if others is None or ROW in values else {**values, ROW: others.row}  # what conditions see
    kept = _kept(template, template.elements, values, fail, others, seen)
    if len(kept) == len(template.elements) and all(a is b for a, b in zip(kept, template.elements, strict=True)):
        return template
    return replace(template, elements=tuple(kept))


def _kept(template: Template, elements: tuple[Element, ...], values: dict[str, Any], fail: Callable[[str | None, str], Exception],
          others: Others | None, seen: dict[str, Any]) -> list[Element]:
    """The plain elements :func:`resolve` keeps of ``elements`` (a stack's own, in its place):
    those shown (:func:`_shown`), settled (:func:`_settled`), each copy that shows something."""
    kept: list[Element] = []
    for element in elements:
        if _shown(element, seen):
            kept += _drawn(template, _settled(template, element, values, fail, others, seen), values, fail)
    return kept


def _shown(element: Element, seen: dict[str, Any]) -> bool:
    """Whether ``element``'s ``when`` holds and its ``unless`` does not for the values ``seen``."""
    return (element.when is None or element.when.holds(seen)) and (element.unless is None or not element.unless.holds(seen))


def _settled(template: Template, element: Element, values: dict[str, Any], fail: Callable[[str | None, str], Exception],
             others: Others | None, seen: dict[str, Any]) -> Element:
    """``element`` for one token: its conditions dropped, its value maps and gradient chosen, a
    stack's elements kept as :func:`_kept` keeps them, its references to other tokens worked out
    (``element`` itself when nothing changes)."""
    if element.picks or element.when is not None or element.unless is not None:
        chosen = {key: pick.choose(values, fail) for key, pick in element.picks}
        element = replace(element, when=None, unless=None, picks=(), **chosen)
    if isinstance(element.fill, Gradient) and element.fill.chosen(values, fail) is not element.fill:
        element = replace(element, fill=element.fill.chosen(values, fail))
    if element.kind == "stack":
        element = _kept_stack(template, element, values, fail, others, seen)
    if element.kind in TEXT_KINDS and others is not None and _reads_others(element.content):
        element = replace(element, content=_bound(template, element, element.content, {} if ROW in values else {ROW: others.row},
                                                  values, fail, others))
    return element


def _kept_stack(template: Template, stack: Element, values: dict[str, Any], fail: Callable[[str | None, str], Exception],
                others: Others | None, seen: dict[str, Any]) -> Element:
    """A stack with the elements :func:`_kept` keeps of its own (``stack`` itself when it keeps all as they are)."""
    children = _kept(template, stack.children, values, fail, others, seen)
    if len(children) != len(stack.children) or any(a is not b for a, b in zip(children, stack.children, strict=True)):
        return replace(stack, children=tuple(children))
    return stack


def _drawn(template: Template, element: Element, values: dict[str, Any], fail: Callable[[str | None, str], Exception]) -> list[Element]:
    """The copies of a settled ``element`` (itself, unless it repeats) that show something, each
    one's computed places tried first (:func:`_try_computed`)."""
    out = []
    for copy in copies(template, element, values, fail) if element.repeat is not None else (element,):
        if copy.kind in TEXT_KINDS and computes(copy.content):
            _try_computed(template, copy, values, fail)
        if not _empty(copy, values):
            out.append(copy)
    return out


def _shifted(element: Element, dx: float, dy: float) -> Element:
    """``element`` moved by (dx, dy), fractions of the token."""
    if not dx and not dy:
        return element
    x, y, w, h = element.box
    clip = element.clip
    repeat = element.repeat
    if repeat is not None:
        repeat = replace(repeat, about=(repeat.about[0] + dx, repeat.about[1] + dy))
    return replace(element, at=(element.at[0] + dx, element.at[1] + dy), box=(x + dx, y + dy, w, h),
                   clip=None if clip is None else (clip[0] + dx, clip[1] + dy, clip[2], clip[3]),
                   points=tuple((px + dx, py + dy) for px, py in element.points),
                   commands=tuple((c[0], *(float(v) + (dx if i % 2 == 0 else dy) for i, v in enumerate(c[1:]))) for c in element.commands),
                   repeat=repeat)


def _bound(template: Template, element: Element, text: str, names: dict[str, Any], values: dict[str, Any],
           fail: Callable[[str | None, str], Exception], others: Others | None = None) -> str:
    """``text`` with every place reading one of ``names`` (a repeat's ``{i}``, ``{n + 1}``,
    ``{item}``; the token's ``{row}``) worked out over the field ``values``, and (with
    ``others``) every reference to another token's value, braces in the result doubled (printed
    as written); the other places are left for the token's values."""
    out = []
    for literal, place in _pieces(text):
        out.append(literal.replace("{", "{{").replace("}", "}}"))
        if place is None:
            continue
        ref = is_ref(place)
        read = [] if ref else [place] if not is_computed(place) else expr.names(expr.parse(place))
        if not (ref and others is not None) and not any(name in names for name in read):
            out.append("{" + place + "}")
            continue
        try:
            value = others.value(place) if ref and others is not None else expr.evaluate(expr.parse(place), {**values, **names})
        except expr.ExprError as exc:
            raise fail(None, f"{{{place}}} ({template.place(element)}): {exc}") from None
        out.append(expr.as_text(value).replace("{", "{{").replace("}", "}}"))
    return "".join(out)


def copies(template: Template, element: Element, values: dict[str, Any],
           fail: Callable[[str | None, str], Exception]) -> list[Element]:
    """The copies a repeated ``element`` draws on one token (see :class:`Repeat`), each plain:
    shifted by its step, given its turn as an ``orbit``, its ``{i}``, ``{n}`` and ``{item}``
    worked out in its text.

    Raises:
        the exception ``fail(field, message)`` returns (see :meth:`Repeat.items_for`).
    """
    repeat = element.repeat
    if repeat is None:
        return [element]
    items = repeat.items_for(values, fail)
    out = []
    for k, item in enumerate(items):
        copy = _shifted(replace(element, repeat=None), k * repeat.step[0], k * repeat.step[1])
        if repeat.turn and k:
            copy = replace(copy, orbit=(*copy.orbit, (k * repeat.turn, *repeat.about)))
        if copy.kind in TEXT_KINDS and placeholders(copy.content):
            copy = replace(copy, content=_bound(template, element, copy.content, {"i": k, "n": len(items), "item": item}, values, fail))
        out.append(copy)
    return out


def _try_computed(template: Template, element: Element, values: dict[str, Any], fail: Callable[[str | None, str], Exception]) -> None:
    """Work out ``element``'s computed places with one token's ``values`` (so a drawing never
    meets one that fails).

    Raises:
        the exception ``fail(None, message)`` returns (the token's line), naming the template's
        place and the expression: ``units.yaml:12: template[2]: {cost + 1}: '+' needs numbers``.
    """
    for _, place in _pieces(element.content):
        if place is not None and is_computed(place):
            try:
                expr.evaluate(expr.parse(place), values)
            except expr.ExprError as exc:
                raise fail(None, f"{{{place}}} ({template.place(element)}): {exc}") from None


@cache
def _builtin_data() -> tuple[Path, Any, Lines]:
    source = resources.files("tokengen").joinpath("data/templates.yaml")
    with resources.as_file(source) as path:
        data, lines = read_yaml(path, ("template",))
        schemas.check(Path(path), data, lines, "template")
        return Path(path), data, lines


def builtin_names() -> tuple[str, ...]:
    """Names of the built-in templates (package data ``data/templates.yaml``)."""
    return tuple(_builtin_data()[1]["templates"])


@cache
def builtin(name: str) -> Template:
    """The built-in template ``name``, parsed with the fields it declares itself."""
    path, data, lines = _builtin_data()
    entry = data["templates"][name]
    parser = _Parser(path, lines, dict(entry["fields"]), ())
    return parser.template(entry["elements"], ("templates", name, "elements"), name)


#: The built-in template that draws a token without a template of its own (``Token.template`` is
#: None): a token of the Meatshields format, whose loader writes this template's fields into its
#: values (:func:`tokengen.sources.catalogue.meatshield_values`).
DEFAULT_FACE = "meatshield"


def face_of(token: Token) -> Template:
    """The face template of a :class:`~tokengen.model.Token`: its own, else the built-in
    :data:`DEFAULT_FACE`."""
    own: Template | None = token.template
    return own if own is not None else builtin(DEFAULT_FACE)


def token_values(token: Token) -> dict[str, Any]:
    """The field values a :class:`~tokengen.model.Token`'s templates read (name → text, number,
    Colour or art Path): its ``values`` as a dict, whatever the game."""
    return dict(token.values)


def font_name(template: Template, font: str) -> str:
    """The ReportLab font name for a template font (``regular``, ``bold`` or a catalogue font)."""
    if font == "regular":
        return fonts.REGULAR
    if font == "bold":
        return fonts.BOLD
    return dict(template.fonts).get(font, fonts.REGULAR)


def family_of(template: Template, font: str) -> Family:
    """The four fonts a boxed text in template ``font`` is set in: ``regular`` the bundled DejaVu
    Sans family, ``bold`` its bold (italic: bold oblique), a catalogue family its files (a style
    not given falls back as :func:`tokengen.sources.fonts.family` says), a catalogue font of one
    file that file in every style.

    Raises:
        RenderError: a bundled font file is missing or unreadable.
    """
    bundled = fonts.register_family()
    if font == "regular":
        return bundled
    if font == "bold":
        return fonts.family(bundled.bold, bundled.bold, bundled.bold_italic, bundled.bold_italic)
    styles = dict(template.families).get(font)
    if styles:
        regular, bold, italic, bold_italic = styles
        return fonts.family(regular, bold or None, italic or None, bold_italic or None)
    return fonts.family(font_name(template, font))
