"""Face templates as data: the elements a face (or back) is drawn from, in drawing order.

A template is a list of elements, each a mapping with exactly one *kind* key:

* ``text: "{name} ({cost})"``: one line of text, ``{field}`` replaced by the token's value
  (``{{`` and ``}}`` print braces). With ``box: [x, y, w, h]`` it is a paragraph wrapped in
  that box instead (:mod:`tokengen.faces.textbox`): markup (``**bold**``, ``*italic*``,
  ``:icon:``, newlines; :mod:`tokengen.sources.markup`) unless ``markup: false``, shrunk as one
  piece from ``size`` down to ``min_size`` (5 pt) unless ``fit: false``, placed by ``align``
  (also ``justify``), ``valign`` and ``leading``. ``glyph:`` is the same with the bold font and tight letter
  spacing (a symbol read across the table).
* ``image: "{art}"`` (or a literal path): a picture fitted into ``box``.
* ``rect: fill`` / ``circle: fill`` / ``frame: stroke``: shapes (the value is a free word).

Positions and sizes are fractions of the token so a template rescales with the token: ``x`` and
widths of the token width, ``y`` and heights of the token height, measured from the token's
top-left corner (as a designer reads a card); font sizes, radii and stroke widths are fractions
of the token's smaller side, or lengths with a unit (``9pt``). Colours are ``"#rrggbb"``,
``[c, m, y, k]`` or ``"{field}"`` naming a ``colour`` field.

This module parses and checks templates and substitutes values; :mod:`tokengen.faces.facedraw`
draws them with ReportLab. Errors are :class:`~tokengen.errors.CatalogueError` naming the file,
line and field (``template[2].font: unknown font 'titel'; did you mean 'title'?``).
"""

from __future__ import annotations

import string
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from ..errors import CatalogueError
from ..model import Colour, Token
from ..units import parse_length
from . import fonts, schemas
from .fonts import Family
from .schemas import line_at, suggest
from .yamlsrc import Lines, dotted, read_yaml

#: The element kinds, in the order they are looked for in an element mapping.
KINDS = ("text", "glyph", "image", "rect", "circle", "frame")
#: Field types a catalogue may declare (``fields: {name: text, cost: number, art: image}``).
FIELD_TYPES = ("text", "number", "integer", "image", "colour")
#: Built-in fonts (the bundled DejaVu Sans), by the names templates use.
BUILTIN_FONTS = ("regular", "bold")
#: A colour in a template: a literal :class:`Colour`, or the name of a colour field (str).
ColourRef = Colour | str | None


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
         "r": "size", "colour": "colour", "fill": "colour", "stroke": "colour", "plate_colour": "colour", "font": "font",
         "align": "align", "spacing": "number",
         "min_size": "size", "leading": "number"}
#: What an element of each kind has when its keys do not say.
_DEFAULTS: dict[str, dict[str, Any]] = {
    "text": {"width": Size(0.8)},
    "glyph": {"font": "bold", "spacing": -0.08, "size": Size(0.36), "width": Size(0.8)},
    "image": {"fit": "contain"},
    "rect": {"width": Size(0.0)}, "circle": {"width": Size(0.0)}, "frame": {"width": Size(0.0)},
}


@dataclass(frozen=True)
class Element:
    """One drawing element. Fractions are of the token (see the module docstring); ``y`` runs
    down from the top edge. ``line`` is where it is defined (for messages).

    Attributes:
        kind: one of :data:`KINDS`.
        content: text with ``{field}`` places (text, glyph, image), else the kind's word.
        at: (x, y) anchor: a text's baseline point (at its left end, centre or right end as
            ``align`` says) or a circle's centre.
        box: (x, y, w, h) of rect and image (x, y = top-left corner).
        width: text: the width text is fitted into; rect, circle, frame: stroke width (Size).
        size: text: the largest font size (Size).
        font: ``regular``, ``bold`` or a catalogue font name.
        align: ``left``, ``centre`` or ``right``; a boxed text also ``justify``.
        colour, fill, stroke, plate_colour: colours (see :data:`ColourRef`).
        fit: text: shrink to fit ``width``; image: ``contain`` or ``cover``.
        spacing: extra space between characters, a fraction of the font size (glyph: -0.08).
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
    fill: ColourRef = None
    stroke: ColourRef = None
    fit: bool | str = True
    spacing: float = 0.0
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
    line: int | None = None
    where: str = ""  # its place in the file, as a field path: template[2]

    def fit_width(self, face_w: float) -> float:
        """The width (pt) a text is fitted into on a ``face_w`` pt wide face: ``width``, or 0.8 of the face."""
        return self.width.pt if self.width and self.width.pt is not None else (self.width.frac if self.width else 0.8) * face_w

    def text_span(self, face_w: float) -> tuple[float, float]:
        """That width about the text's anchor, placed as ``align`` says: (left, right) in pt from
        the trim's left edge."""
        w, x = self.fit_width(face_w), self.at[0] * face_w
        return {"left": (x, x + w), "right": (x - w, x)}.get(self.align, (x - w / 2, x + w / 2))

    def fields(self) -> list[str]:
        """The field names this element reads (its text places and its colour fields)."""
        names = placeholders(self.content) if self.kind in ("text", "glyph", "image") else []
        names += [c for c in (self.colour, self.fill, self.stroke, self.plate_colour) if isinstance(c, str)]
        return names


@dataclass(frozen=True)
class Template:
    """A face or back design: its elements in drawing order, its name when built in, and the
    catalogue fonts it may use (template font name → registered ReportLab font name) and icons
    (name → image file, for ``:name:`` in a boxed text)."""

    elements: tuple[Element, ...]
    name: str = ""
    fonts: tuple[tuple[str, str], ...] = ()  # catalogue font name → ReportLab font name
    icons: tuple[tuple[str, str], ...] = ()  # catalogue icon name → image file (absolute path)
    source: str = ""  # the file it was read from (empty for a built-in template)

    def place(self, element: Element) -> str:
        """Where ``element`` is defined, for messages: ``units.yaml:14: template[3]`` (a
        built-in template: ``template 'meatshield' [3]``)."""
        if not self.source:
            return f"template '{self.name}' {element.where.rpartition('.')[2] or element.where}"
        return f"{self.source}:{element.line}: {element.where}" if element.line else f"{self.source}: {element.where}"

    def fields(self) -> tuple[str, ...]:
        """Every field the template reads, in first-use order."""
        return tuple(dict.fromkeys(f for e in self.elements for f in e.fields()))


def placeholders(text: str) -> list[str]:
    """The ``{field}`` names in ``text`` (``{{``/``}}`` are literal braces).

    Raises:
        ValueError: unbalanced braces, or a place with a conversion, format spec or index.
    """
    names = []
    for _, name, spec, conversion in string.Formatter().parse(text):
        if name is None:
            continue
        if not name.isidentifier() or spec or conversion:
            raise ValueError(f"'{{{name}{'!' + conversion if conversion else ''}{':' + spec if spec else ''}}}' is not a field place; write {{field}}")
        names.append(name)
    return names


def format_value(value: Any) -> str:
    """A field value as printed: whole numbers without ``.0``; text as is."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, Path):
        return str(value)
    return "" if value is None else str(value)


def substitute(text: str, values: dict[str, Any]) -> str:
    """``text`` with every ``{field}`` replaced by ``values[field]`` (see :func:`format_value`)."""
    out = []
    for literal, name, _, _ in string.Formatter().parse(text):
        out.append(literal)
        if name is not None:
            out.append(format_value(values.get(name)))
    return "".join(out)


def colour_of(ref: ColourRef, values: dict[str, Any]) -> Colour | None:
    """The colour ``ref`` stands for with these field ``values`` (None: not drawn)."""
    if isinstance(ref, str):
        value = values.get(ref)
        return value if isinstance(value, Colour) else None
    return ref


class _Parser:
    """Reads one schema-checked template list at ``where`` in a YAML file's data (see
    :func:`parse_template`): what the schema cannot say, the fields, fonts and files it names."""

    def __init__(self, path: Path, lines: Lines, fields: dict[str, str], font_names: tuple[str, ...]):
        self.path, self.lines, self.fields, self.fonts = path, lines, fields, font_names

    def fail(self, where: tuple[Any, ...], message: str) -> CatalogueError:
        return CatalogueError(self.path, message, line=line_at(self.lines, where), field=dotted(where))

    def point(self, value: list[float], where: tuple[Any, ...]) -> tuple[float, ...]:
        return tuple(float(v) for v in value)

    def number(self, value: float, where: tuple[Any, ...]) -> float:
        return float(value)

    def size(self, value: str | float, where: tuple[Any, ...]) -> Size:
        if isinstance(value, str):
            try:
                return Size(pt=parse_length(value))
            except ValueError as exc:
                raise self.fail(where, str(exc)) from None
        return Size(float(value))

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

    def align(self, value: str, where: tuple[Any, ...]) -> str:
        return "centre" if value == "center" else value

    def content(self, kind: str, content: str, where: tuple[Any, ...]) -> str:
        """The text of a text, glyph or image element, its ``{field}`` places declared (an
        image's of type image; a literal picture resolved inside the catalogue's folder)."""
        if kind not in ("text", "glyph", "image"):
            return content
        try:
            names = placeholders(content)
        except ValueError as exc:
            raise self.fail(where, str(exc)) from None
        for name in names:
            if name not in self.fields:
                raise self.fail(where, f"unknown field '{name}'{suggest(name, list(self.fields))} (fields: {', '.join(self.fields) or 'none declared'})")
            if kind == "image" and self.fields[name] != "image":
                raise self.fail(where, f"field '{name}' is {self.fields[name]}, not image")
        if kind == "image" and not names and content:
            from .artpath import resolve_art

            return str(resolve_art(self.path, content, False, self.fail(where, "")))
        return content

    def element(self, spec: dict[str, Any], where: tuple[Any, ...]) -> Element:
        """One element that passed ``template.schema.json#/$defs/element`` (one kind key, that
        kind's keys, values of the right form)."""
        kind = next(k for k in KINDS if k in spec)
        args: dict[str, Any] = {"kind": kind, "line": self.lines.get(where), "where": dotted(where), **_DEFAULTS.get(kind, {})}
        for key, value in spec.items():
            if key == kind:
                args["content"] = self.content(kind, value, where + (key,))
            else:
                args[key] = getattr(self, _READ[key])(value, where + (key,)) if key in _READ else value
        if kind in ("text", "glyph"):
            args["boxed"] = "box" in spec
            if args["boxed"] and not (args["box"][2] > 0 and args["box"][3] > 0):
                raise self.fail(where + ("box",), f"a text's box needs a width and height above 0, got {list(spec['box'])}")
            if not args["boxed"]:
                for key in ("min_size", "valign", "leading", "markup"):
                    if key in spec:
                        raise self.fail(where + (key,), f"'{key}' is for a text in a box; add box: [x, y, w, h]")
                if args.get("align") == "justify":
                    raise self.fail(where + ("align",), "'justify' is for a text in a box; add box: [x, y, w, h] or use left, centre or right")
        return Element(**args)

    def template(self, spec: list[Any], where: tuple[Any, ...], name: str = "") -> Template:
        source = "" if name else str(self.path)
        return Template(tuple(self.element(e, where + (i,)) for i, e in enumerate(spec)), name, source=source)


def parse_template(path: Path, spec: Any, lines: Lines, where: tuple[Any, ...], fields: dict[str, str],
                   fonts: tuple[str, ...] = ()) -> Template:
    """Parse the template ``spec`` found at ``where`` in ``path``.

    Args:
        spec: a list of element mappings, or the name of a built-in template (``meatshield``),
            that passed ``data/template.schema.json#/$defs/template`` (the catalogue schema refers
            to it: unknown kinds and keys, values of the wrong form are found there).
        lines: source lines from :func:`tokengen.sources.yamlsrc.read_yaml`.
        fields: the catalogue's declared fields, name → type (see :data:`FIELD_TYPES`).
        fonts: the catalogue's own font names (besides ``regular`` and ``bold``).
    Raises:
        CatalogueError: an unknown field, font or built-in template (with a did-you-mean), a
            field of the wrong type, a length without a known unit, a picture outside the
            catalogue's folder, or a built-in template reading a field the catalogue lacks.
    """
    parser = _Parser(path, lines, fields, fonts)
    if isinstance(spec, str):
        known = builtin_names()
        if spec not in known:
            raise parser.fail(where, f"unknown template {spec!r}{suggest(spec, known)} (built in: {', '.join(known)})")
        template = builtin(spec)
        for element in template.elements:
            for name in element.fields():
                if name not in fields:
                    raise parser.fail(where, f"the built-in template '{spec}' reads field '{name}', which is not declared in fields")
        return template
    return parser.template(spec, where)


@cache
def _builtin_data() -> tuple[Path, Any, Lines]:
    source = resources.files("tokengen").joinpath("data/templates.yaml")
    with resources.as_file(source) as path:
        data, lines = read_yaml(path)
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
    Sans family, ``bold`` its bold (italic: bold oblique), a catalogue font that one file in
    every style.

    Raises:
        RenderError: a bundled font file is missing or unreadable.
    """
    bundled = fonts.register_family()
    if font == "regular":
        return bundled
    if font == "bold":
        return fonts.family(bundled.bold, bundled.bold, bundled.bold_italic, bundled.bold_italic)
    return fonts.family(font_name(template, font))
