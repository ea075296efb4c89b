"""Catalogue loading: YAML → schema check → game checks → :class:`~tokengen.model.Catalogue`.

Every error names the file, the line and the field (``token_defs.yaml:54: tokens[3].priority:
unknown priority 'lowest'; did you mean 'low'?``). The schema is published as
``tokengen/data/catalogue.schema.json`` (JSON Schema 2020-12) for editors and other tools.
"""

from __future__ import annotations

import difflib
import hashlib
import math
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import CatalogueError
from ..limits import MAX_FONT_CODE_POINTS, MIN_SIZE
from ..model import Attribute, Back, Catalogue, Colour, Draws, FaceStyle, Game, Priority, Token, Variant
from ..units import parse_length
from . import bundled, gamedata, schemas, scripts
from .artpath import resolve_art
from .declared import declared
from .schemas import foreign, line_at, show, suggest, what
from .yamlsrc import Lines, dotted, floats, one_line, read_yaml

DEFAULT_STYLE = {"background": "#ffffff", "ink": "#000000", "accent": "#000000"}
DEFAULT_BACK = {"text": "", "background": "#ffffff", "ink": "#000000"}


def schema() -> dict[str, Any]:
    """The catalogue JSON Schema as a dict (package data ``data/catalogue.schema.json``)."""
    return schemas.schema("catalogue")


def declares_fields(data: Any) -> bool:
    """Whether ``data`` (a YAML file as read) is a catalogue with declared fields (any game)
    rather than one in the Meatshields format: it has ``fields``; or it has neither ``fields``
    nor ``game`` (which the Meatshields format requires) and a key only the any-game format
    knows (``template``) or an unknown key closest to one (``feilds``, ``tempalte``), so a typo
    is reported as one (with a did-you-mean) and not as a missing ``game``."""
    if not isinstance(data, dict):
        return False
    if "fields" in data:
        return True
    if "game" in data:
        return False
    legacy = set(schemas.schema("catalogue")["properties"])
    ours = set(schemas.schema("catalogue-fields")["properties"]) - legacy
    known = sorted(legacy | ours)
    for key in data:
        if not isinstance(key, str) or key in legacy:
            continue
        if key in ours:
            return True
        close = difflib.get_close_matches(key.lower(), known, n=1, cutoff=0.6)  # as schemas.suggest matches
        if close and close[0] in ours:
            return True
    return False


def schema_name(data: Any) -> str:
    """The schema ``data`` is checked against: ``catalogue-fields`` (a catalogue with declared
    fields, any game, as :func:`declares_fields` tells: ``data/catalogue-fields.schema.json``),
    else ``catalogue``."""
    return "catalogue-fields" if declares_fields(data) else "catalogue"


def load_catalogue(path: str | Path, *, allow_outside_art: bool = False,
                   max_font_code_points: int = MAX_FONT_CODE_POINTS) -> Catalogue:
    """Load and validate a catalogue file.

    Args:
        path: the YAML file.
        allow_outside_art: accept art paths that leave the catalogue's folder.
        max_font_code_points: most code points a catalogue font's cmap may map.
    Returns:
        The validated :class:`Catalogue` (token size in pt, colours parsed, art paths absolute).
    Raises:
        CatalogueError: the first problem found, with file, line and field.
    """
    path = Path(path)
    if path.suffix.lower() in (".csv", ".xlsx", ".ods"):
        raise CatalogueError(path, f"a spreadsheet holds tokens, not a catalogue: name it in a catalogue's tokens: key (tokens: {path.name}) beside its fields and template")
    bundled.require(path)  # a missing file: say both ways to get a catalogue
    data, lines = read_yaml(path, ("catalogue", "catalogue-fields"))
    # a tokens: list longer than the schemas allow was refused by the reader, at its 10,001st entry
    problems = validate_schema(path, data, lines)
    if problems:
        raise problems[0]
    return catalogue_from_data(path, data, lines, allow_outside_art=allow_outside_art, max_font_code_points=max_font_code_points)


#: Catalogues read by :func:`load_unchanged`: (path, options) → (each file read with the SHA-256
#: of its bytes, the catalogue).
_READ: dict[tuple[str, bool, int], tuple[tuple[tuple[Path, bytes], ...], Catalogue]] = {}


def _digest(path: Path) -> bytes | None:
    try:
        return hashlib.sha256(path.read_bytes()).digest()
    except OSError:
        return None


def load_unchanged(path: str | Path, *, allow_outside_art: bool = False,
                   max_font_code_points: int = MAX_FONT_CODE_POINTS) -> Catalogue:
    """:func:`load_catalogue`, or the catalogue read before from ``path`` when none of the files
    it read (:meth:`tokengen.model.Catalogue.files_read`: the catalogue, its spreadsheet, fonts,
    icons and art) has changed its bytes since: for the page's and ``--watch``'s rebuilds, whose
    faces, laid out once, are then shared too (the same template elements).

    Raises:
        CatalogueError: as :func:`load_catalogue` (a file that changed is read again).
    """
    key = (str(Path(path).absolute()), allow_outside_art, max_font_code_points)
    found = _READ.get(key)
    if found is not None and all(_digest(p) == digest for p, digest in found[0]):
        return found[1]
    _READ.pop(key, None)
    catalogue = load_catalogue(path, allow_outside_art=allow_outside_art, max_font_code_points=max_font_code_points)
    read = [(p, _digest(p)) for p in catalogue.files_read()]
    kept = tuple((p, digest) for p, digest in read if digest is not None)
    if len(kept) == len(read):  # every file could be read back: its bytes are the key
        _READ[key] = (kept, catalogue)
    return catalogue


def validate_schema(path: Path, data: Any, lines: Lines) -> list[CatalogueError]:
    """Check ``data`` against the catalogue schema (through :mod:`tokengen.sources.schemas`, the layer
    every YAML input shares).

    Returns:
        One :class:`CatalogueError` per problem, sorted by line (empty when valid).
    """
    if not isinstance(data, dict):
        if data is None:
            return [CatalogueError(path, "the file holds no keys (title, game, tokens, …)", line=lines.get((), 1))]
        return [CatalogueError(path, f"the top level must be a mapping of keys (title, game, tokens, …), not {what(data)}", line=lines.get((), 1))]
    if "parts" in data and "tokens" not in data:  # a project file (tokengen.sources.project) given where a catalogue goes
        return [CatalogueError(path, "a project (parts:), not a catalogue: 'tokengen build' and 'tokengen export' take every part; check and box "
                                     "take one part's catalogue", line=lines.get(("parts",), 1), field="parts")]
    return schemas.validate(path, data, lines, schema_name(data))


def _lookalike(value: str, glyphs: dict[str, str]) -> str:
    """A hint for a value that looks like a priority glyph but is other characters
    (``⬇`` U+2B07 for ``↓`` U+2193): names both code points, or ``""``."""
    if value.isascii():
        return ""
    codes = " ".join(f"U+{ord(ch):04X}" for ch in value[:4])

    def shape(text: str) -> tuple[str, ...]:
        out = []
        for ch in text:
            name = unicodedata.name(ch, "")
            out.append("".join(d for d in ("UP", "DOWN", "LEFT", "RIGHT") if f"{d}WARDS" in name or f" {d} " in f" {name} ") if "ARROW" in name else ch)
        return tuple(out)

    for glyph, code in glyphs.items():
        if shape(glyph) == shape(value):
            want = " ".join(f"U+{ord(ch):04X}" for ch in glyph)
            return f" ({codes}); did you mean '{glyph}' ({want}) or '{code}'?"
    return f" ({codes})"


def _refuse_infinite(data: dict[str, Any], fail: Callable[[tuple[Any, ...], str], CatalogueError]) -> None:
    """Refuse a number that is not finite anywhere in the catalogue (JSON Schema's minimum and
    maximum let NaN through).

    Raises:
        CatalogueError: the first one, at its key.
    """
    for where, value in floats(data):
        if not math.isfinite(value):
            raise fail(where, f"expected a finite number, got {value!r}")


def _check_drawable(data: dict[str, Any], fail: Callable[[tuple[Any, ...], str], CatalogueError]) -> None:
    """Refuse a text of the catalogue (title, attribute codes and names, priority glyphs, back
    texts, labels) that the bundled fonts cannot draw on one line.

    Raises:
        CatalogueError: a control character, an unsupported script or a missing glyph, at its key.
    """
    from . import fonts  # ReportLab's font machinery: imported when a catalogue is built, not at start-up

    regular, bold = fonts.register()

    def drawable(text: str, font: str, where: tuple[Any, ...]) -> None:
        """Refuse text the bundled font cannot draw (it would print as boxes)."""
        control = next((ch for ch in text if not ch.isprintable() and unicodedata.category(ch) != "Zs"), None)  # spaces (U+00A0) are text
        if control is not None:
            raise fail(where, f"character U+{ord(control):04X} (a line break, tab or other control) cannot be printed on one line")
        script = scripts.unsupported(text)
        if script:
            raise fail(where, script)
        missing = fonts.missing_glyphs(text, font)
        if missing:
            shown = ", ".join(f"{show(ch)} (U+{ord(ch):04X})" for ch in missing[:3])
            raise fail(where, f"the bundled font {font} has no glyph for {shown}")

    drawable(data["title"], regular, ("title",))
    for i, a in enumerate(data["game"]["attributes"]):
        drawable(a["code"], bold, ("game", "attributes", i, "code"))
        drawable(a["name"], regular, ("game", "attributes", i, "name"))
    for i, p in enumerate(data["game"]["priorities"]):
        drawable(p["glyph"], bold, ("game", "priorities", i, "glyph"))
    drawable(data.get("back", {}).get("text", ""), bold, ("back", "text"))
    for i, t in enumerate(data["tokens"]):
        drawable(t.get("label", ""), regular, ("tokens", i, "label"))
        drawable(t.get("back", {}).get("text", ""), bold, ("tokens", i, "back", "text"))


def _size(data: dict[str, Any], fail: Callable[[tuple[Any, ...], str], CatalogueError]) -> float:
    """The catalogue's token ``size`` in pt (72, 1 in, when it gives none).

    Raises:
        CatalogueError: not a length, or smaller than :data:`MIN_SIZE`, at ``size``.
    """
    size = 72.0
    if "size" in data:
        try:
            size = parse_length(data["size"], allow_zero=False)
        except ValueError as exc:
            raise fail(("size",), one_line(str(exc))) from None
        if size < MIN_SIZE:
            raise fail(("size",), f"{show(data['size'])} is smaller than the smallest token size, 0.125in (3.2mm)")
    return size


def _game(data: dict[str, Any], fail: Callable[[tuple[Any, ...], str], CatalogueError]) -> tuple[Game, tuple[str, ...]]:
    """The catalogue's ``game`` (attributes, priorities, draws, costs, variants; a number it does
    not state taken from the defaults file and named in ``defaulted``) and the variants in play.

    Raises:
        CatalogueError: a duplicate attribute or priority code, an unknown variant in play.
    """
    g = data["game"]
    attributes = tuple(Attribute(a["code"], a["name"]) for a in g["attributes"])
    priorities = tuple(Priority(p["code"], p["glyph"], p["name"]) for p in g["priorities"])
    for kind, codes in (("attributes", [a.code for a in attributes]), ("priorities", [p.code for p in priorities])):
        seen: set[str] = set()
        for i, code in enumerate(codes):
            if code in seen:
                raise fail(("game", kind, i, "code"), f"duplicate code {show(code)}")
            seen.add(code)
    defaulted: list[str] = []

    def number(group: str, name: str) -> Any:
        """``game.<group>.<name>`` as the catalogue states it, else from the defaults file."""
        value = g.get(group, {}).get(name)
        if value is None:
            defaulted.append(f"{group}.{name}")
            return gamedata.default(group, name)
        return tuple(value) if isinstance(value, list) else value

    draws = Draws(*(number("draws", n) for n in ("settlement_danger_levels", "town_levels", "explored_bonus", "solo_start")))
    variants = tuple(
        Variant(name, v["description"], v.get("hire_gp"), v.get("trade_gp")) for name, v in g.get("variants", {}).items()
    )
    game = Game(attributes, priorities, draws, number("costs", "hire_gp"), number("costs", "trade_gp"), variants,
                wounds=number("damage", "wounds"), defaulted=tuple(defaulted))
    in_play = tuple(data.get("variants", ()))
    for i, name in enumerate(in_play):
        if game.variant(name) is None:
            known = [v.name for v in variants]
            raise fail(("variants", i), f"unknown variant {show(name)}{foreign(name)}{suggest(name, known)}")
    return game, in_play


def _attribute_priority(token: dict[str, Any], where: tuple[Any, ...], game: Game,
                        fail: Callable[[tuple[Any, ...], str], CatalogueError]) -> tuple[Attribute, Priority]:
    """A Meatshields token's attribute (by code) and targeting priority (by code or glyph).

    Raises:
        CatalogueError: an unknown attribute or priority, with a did-you-mean or the known ones.
    """
    t, attributes, priorities = token, game.attributes, game.priorities
    by_attr = {a.code: a for a in attributes}
    by_prio = {p.code: p for p in priorities} | {p.glyph: p for p in priorities}
    attribute = by_attr.get(t["attribute"])
    if attribute is None:
        hint = suggest(t["attribute"], list(by_attr))
        raise fail(where + ("attribute",), f"unknown attribute {show(t['attribute'])}{foreign(t['attribute'])}{hint or ' (known: ' + ', '.join(by_attr) + ')'}")
    priority = by_prio.get(t["priority"])
    if priority is None:
        codes = [p.code for p in priorities]
        hint = (_lookalike(t["priority"], {p.glyph: p.code for p in priorities}) if not t["priority"].isascii() else "") or suggest(t["priority"], codes)
        if not hint or not hint.endswith("?"):
            hint += " (known: " + ", ".join(f"{p.code} {p.glyph}" for p in priorities) + ")"
        raise fail(where + ("priority",), f"unknown priority {show(t['priority'])}{hint}")
    return attribute, priority


def _build(path: Path, data: dict[str, Any], lines: Lines, allow_outside_art: bool) -> Catalogue:
    def fail(where: tuple[Any, ...], message: str) -> CatalogueError:
        return CatalogueError(path, message, line=line_at(lines, where), field=dotted(where))

    def colours(spec: dict[str, Any], defaults: dict[str, Any]) -> dict[str, Colour]:
        return {k: Colour.parse(spec.get(k, defaults[k])) for k in defaults}

    places: dict[Path, tuple[str, int | None, str | None]] = {}  # where each picture is first named

    def art(spec: dict[str, Any], where: tuple[Any, ...]) -> Path | None:
        if "art" not in spec:
            return None
        found = resolve_art(path, spec["art"], allow_outside_art, fail(where + ("art",), ""))
        places.setdefault(found, (str(path), line_at(lines, where + ("art",)), dotted(where + ("art",))))
        return found

    def make_back(spec: dict[str, Any], where: tuple[Any, ...]) -> Back:
        paint = colours(spec, {k: v for k, v in DEFAULT_BACK.items() if k != "text"})
        return Back(text=spec.get("text", ""), background=paint["background"], ink=paint["ink"], art=art(spec, where))

    _refuse_infinite(data, fail)
    _check_drawable(data, fail)

    size = _size(data, fail)

    game, in_play = _game(data, fail)

    base_style = data.get("style", {})
    base_back_spec = data.get("back", {})
    base_back = make_back(base_back_spec, ("back",))
    tokens: list[Token] = []
    first_line: dict[str, int | None] = {}
    for i, t in enumerate(data["tokens"]):
        where = ("tokens", i)
        if t["id"] in first_line:
            raise fail(where + ("id",), f"duplicate id {show(t['id'])} (first at line {first_line[t['id']]})")
        first_line[t["id"]] = line_at(lines, where)
        attribute, priority = _attribute_priority(t, where, game, fail)
        style_spec = {**base_style, **t.get("style", {})}
        art_at = where + ("style",) if "art" in t.get("style", {}) else ("style",)  # the token's own art, else the default
        style = FaceStyle(**colours(style_spec, DEFAULT_STYLE), art=art(style_spec, art_at))
        back = base_back
        if "back" in t:
            spec = {**base_back_spec, **t["back"]}
            back = make_back(spec, where + ("back",))
        tokens.append(Token(t["id"], style, back, t.get("copies", 1), line_at(lines, where),
                            values=meatshield_values(attribute, priority, t.get("label"), style)))
    return Catalogue(
        path=path, title=data["title"], game=game, tokens=tuple(tokens), size=size,
        subtitle=data.get("subtitle", ""), author=data.get("author", ""), back=base_back, variants=in_play,
        columns=data.get("columns"), interpretations=tuple(data.get("interpretations", {}).items()),
        module="meatshields",  # the format is the Meatshields game's: its module checks it
        art_places=tuple((picture, *place) for picture, place in places.items()),
        declared=declared(data, lines),
        choices=(("attribute", tuple(a.code for a in game.attributes)), ("priority", tuple(p.code for p in game.priorities))),
    )


def meatshield_values(attribute: Attribute, priority: Priority, label: str | None, style: FaceStyle) -> tuple[tuple[str, Any], ...]:
    """The field values of a token of the Meatshields format, as generic data (text, Colour, art
    Path) for :attr:`Token.values <tokengen.model.Token.values>`: the token's ``attribute`` and
    ``priority`` codes as the catalogue names them (the Meatshields game reads them back against
    ``game.attributes`` and ``game.priorities``: :mod:`tokengen.games.meatshields.model`), then
    the fields of the built-in ``meatshield`` face template that draws it: the priority
    ``glyph``, the attribute ``code``, the ``caption`` (the label, else the attribute's full
    name), ``art`` (None without) and the face colours.

    The Meatshields format is parsed here, below the games, because loading checks the codes
    against the catalogue's own lists (file, line and field in each message); the game gives
    the codes their meaning."""
    return (("attribute", attribute.code), ("priority", priority.code),
            ("glyph", priority.glyph), ("code", attribute.code), ("caption", label or attribute.name),
            ("art", style.art), ("background", style.background), ("ink", style.ink), ("accent", style.accent))


def catalogue_from_data(path: str | Path, data: dict[str, Any], lines: Lines, *, allow_outside_art: bool = False,
                        max_font_code_points: int = MAX_FONT_CODE_POINTS) -> Catalogue:
    """Build the :class:`Catalogue` from data already read by ``read_yaml`` and passed by
    :func:`validate_schema` (for callers that report schema problems themselves, such as
    ``tokengen check``).

    Raises:
        CatalogueError: the first problem found beyond the schema, with file, line and field.
    """
    if "fields" in data:  # any game: declared fields and a face template
        from .fields import build_fields_catalogue

        return build_fields_catalogue(Path(path), data, lines, allow_outside_art, max_font_code_points)
    return _build(Path(path), data, lines, allow_outside_art)


