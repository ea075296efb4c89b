"""Face templates as data: the elements a face (or back) is drawn from, in drawing order.

A template is a list of elements, each a mapping with exactly one *kind* key:

* ``text: "{name} ({cost})"``: one line of text, ``{field}`` replaced by the token's value
  (``{{`` and ``}}`` print braces). ``glyph:`` is the same with the bold font and tight letter
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

import difflib
import string
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from ..errors import CatalogueError
from ..model import Colour, Token
from ..units import parse_length
from . import fonts
from .yamlsrc import Lines, dotted, read_yaml

#: The element kinds, in the order they are looked for in an element mapping.
KINDS = ("text", "glyph", "image", "rect", "circle", "frame")
#: Field types a catalogue may declare (``fields: {name: text, cost: number, art: image}``).
FIELD_TYPES = ("text", "number", "integer", "image", "colour")
#: Built-in fonts (the bundled DejaVu Sans), by the names templates use.
BUILTIN_FONTS = ("regular", "bold")
#: Keys each kind accepts beside its kind key.
_KEYS = {
    "text": {"at", "width", "size", "font", "align", "colour", "fit", "spacing", "plate", "plate_colour"},
    "image": {"box", "fit", "clip", "radius", "bleed"},
    "rect": {"box", "fill", "stroke", "width", "radius", "bleed"},
    "circle": {"at", "r", "fill", "stroke", "width"},
    "frame": {"inset", "radius", "width", "colour"},
}
_KEYS["glyph"] = _KEYS["text"]
ALIGNS = ("left", "centre", "center", "right")

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
        align: ``left``, ``centre`` or ``right``.
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
    catalogue fonts it may use (template font name → registered ReportLab font name)."""

    elements: tuple[Element, ...]
    name: str = ""
    fonts: tuple[tuple[str, str], ...] = ()  # catalogue font name → ReportLab font name
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


def _suggest(word: str, choices: Any) -> str:
    lowered = {str(c).lower(): c for c in choices}
    close = difflib.get_close_matches(word.lower(), list(lowered), n=1, cutoff=0.6)
    return f"; did you mean '{lowered[close[0]]}'?" if close else ""


class _Parser:
    """Parses one template list at ``where`` in a YAML file's data (see :func:`parse_template`)."""

    def __init__(self, path: Path, lines: Lines, fields: dict[str, str], font_names: tuple[str, ...]):
        self.path, self.lines, self.fields, self.fonts = path, lines, fields, font_names

    def fail(self, where: tuple[Any, ...], message: str) -> CatalogueError:
        at = where
        while at not in self.lines and at:
            at = at[:-1]
        return CatalogueError(self.path, message, line=self.lines.get(at), field=dotted(where))

    def fraction(self, value: Any, where: tuple[Any, ...], low: float = -1.0, high: float = 2.0) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
            raise self.fail(where, f"expected a fraction of the token between {low:g} and {high:g}, got {value!r}")
        return float(value)

    def size(self, value: Any, where: tuple[Any, ...]) -> Size:
        if isinstance(value, str):
            try:
                return Size(pt=parse_length(value))
            except ValueError as exc:
                raise self.fail(where, str(exc)) from None
        return Size(self.fraction(value, where, 0.0, 1.0))

    def point(self, value: Any, where: tuple[Any, ...], n: int) -> tuple[float, ...]:
        if not isinstance(value, list) or len(value) != n:
            shape = "[x, y]" if n == 2 else "[x, y, width, height]"
            raise self.fail(where, f"expected {shape} as fractions of the token, got {value!r}")
        return tuple(self.fraction(v, where + (i,)) for i, v in enumerate(value))

    def colour(self, value: Any, where: tuple[Any, ...]) -> ColourRef:
        if isinstance(value, str) and value.startswith("{") and value.endswith("}"):
            name = value[1:-1]
            kind = self.fields.get(name)
            if kind is None:
                raise self.fail(where, f"unknown field '{name}'{_suggest(name, self.fields)}")
            if kind != "colour":
                raise self.fail(where, f"field '{name}' is {kind}, not colour")
            return name
        if isinstance(value, str) and len(value) == 7 and value[0] == "#":
            try:
                return Colour.parse(value)
            except ValueError:
                pass
        if isinstance(value, list) and len(value) == 4 and all(isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v <= 1 for v in value):
            return Colour.parse(value)
        raise self.fail(where, f'expected a colour "#rrggbb", [c, m, y, k] with channels 0-1 or "{{field}}", got {value!r}')

    def element(self, spec: Any, where: tuple[Any, ...]) -> Element:
        if not isinstance(spec, dict):
            raise self.fail(where, f"expected a mapping with one of {', '.join(KINDS)}, got {spec!r}")
        kinds = [k for k in KINDS if k in spec]
        if len(kinds) != 1:
            if kinds:
                raise self.fail(where, f"one element has one kind; this one has {' and '.join(kinds)}")
            hint = next((_suggest(k, KINDS) for k in spec if _suggest(str(k), KINDS)), "")
            key = next((k for k in spec if _suggest(str(k), KINDS)), None)
            if key is not None:
                raise self.fail(where + (key,), f"unknown element kind{hint}")
            raise self.fail(where, f"an element needs one of {', '.join(KINDS)}")
        kind = kinds[0]
        allowed = _KEYS[kind]
        for key in spec:
            if key != kind and key not in allowed:
                raise self.fail(where + (key,), f"unknown key for a {kind} element{_suggest(str(key), sorted(allowed))} (known keys: {', '.join(sorted(allowed))})")
        args: dict[str, Any] = {"kind": kind, "line": self.lines.get(where), "where": dotted(where)}
        content = spec[kind]
        if not isinstance(content, str):
            raise self.fail(where + (kind,), f"expected text, got {content!r}")
        if kind in ("text", "glyph", "image"):
            try:
                names = placeholders(content)
            except ValueError as exc:
                raise self.fail(where + (kind,), str(exc)) from None
            for name in names:
                if name not in self.fields:
                    raise self.fail(where + (kind,), f"unknown field '{name}'{_suggest(name, self.fields)} (fields: {', '.join(self.fields) or 'none declared'})")
                if kind == "image" and self.fields[name] != "image":
                    raise self.fail(where + (kind,), f"field '{name}' is {self.fields[name]}, not image")
            if kind == "image" and not names and content:  # a literal picture, inside the catalogue's folder
                from .artpath import resolve_art

                content = str(resolve_art(self.path, content, False, self.fail(where + (kind,), "")))
        args["content"] = content
        if kind == "glyph":
            args.update(font="bold", spacing=-0.08, size=Size(0.36))
        for key, value in spec.items():
            at = where + (key,)
            if key == kind:
                continue
            if key == "at":
                args[key] = self.point(value, at, 2)
            elif key in ("box", "clip"):
                args[key] = self.point(value, at, 4)
            elif key in ("width", "size", "radius", "inset", "r"):
                args[key] = self.size(value, at)
            elif key in ("colour", "fill", "stroke", "plate_colour"):
                args[key] = self.colour(value, at)
            elif key == "font":
                if value not in BUILTIN_FONTS + self.fonts:
                    raise self.fail(at, f"unknown font {value!r}{_suggest(str(value), BUILTIN_FONTS + self.fonts)} (fonts: {', '.join(BUILTIN_FONTS + self.fonts)})")
                args[key] = value
            elif key == "align":
                if value not in ALIGNS:
                    raise self.fail(at, f"unknown alignment {value!r}{_suggest(str(value), ALIGNS)} (left, centre, right)")
                args[key] = "centre" if value == "center" else value
            elif key == "fit":
                choices = (True, False) if kind in ("text", "glyph") else ("contain", "cover")
                if value not in choices or isinstance(value, int) and not isinstance(value, bool):
                    raise self.fail(at, f"expected {' or '.join(str(c).lower() for c in choices)}, got {value!r}")
                args[key] = value
            elif key == "bleed":
                if not isinstance(value, bool):
                    raise self.fail(at, f"expected true or false, got {value!r}")
                args[key] = value
            elif key == "spacing":
                args[key] = self.fraction(value, at, -0.5, 1.0)
            elif key == "plate":
                if not isinstance(value, str) or not value:
                    raise self.fail(at, f"expected a plate group name, got {value!r}")
                args[key] = value
        if kind == "image" and "fit" not in args:
            args["fit"] = "contain"
        if kind in ("text", "glyph") and "width" not in args:
            args["width"] = Size(0.8)
        if kind in ("rect", "circle", "frame") and "width" not in args:
            args["width"] = Size(0.0)
        return Element(**args)

    def template(self, spec: Any, where: tuple[Any, ...], name: str = "") -> Template:
        if not isinstance(spec, list) or not spec:
            raise self.fail(where, "expected a list of elements (text, glyph, image, rect, circle, frame) or a built-in template name")
        if len(spec) > 200:
            raise self.fail(where, f"has {len(spec)} elements, more than 200")
        source = "" if name else str(self.path)
        return Template(tuple(self.element(e, where + (i,)) for i, e in enumerate(spec)), name, source=source)


def parse_template(path: Path, spec: Any, lines: Lines, where: tuple[Any, ...], fields: dict[str, str],
                   fonts: tuple[str, ...] = ()) -> Template:
    """Parse the template ``spec`` found at ``where`` in ``path``.

    Args:
        spec: a list of element mappings, or the name of a built-in template (``meatshield``).
        lines: source lines from :func:`tokengen.sources.yamlsrc.read_yaml`.
        fields: the catalogue's declared fields, name → type (see :data:`FIELD_TYPES`).
        fonts: the catalogue's own font names (besides ``regular`` and ``bold``).
    Raises:
        CatalogueError: an unknown kind, key, field, font or alignment (with a did-you-mean), a
            value out of range, or a built-in template reading a field the catalogue lacks.
    """
    parser = _Parser(path, lines, fields, fonts)
    if isinstance(spec, str):
        known = builtin_names()
        if spec not in known:
            raise parser.fail(where, f"unknown template {spec!r}{_suggest(spec, known)} (built in: {', '.join(known)})")
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
