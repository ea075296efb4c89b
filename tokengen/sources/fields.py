"""The any-game catalogue: declared fields, a face template, tokens from YAML or a spreadsheet.

A catalogue with a ``fields`` key is read here (after the schema check of
``data/catalogue-fields.schema.json``)::

    title: Status tokens
    size: 1in                       # or 63mmx88mm; a hex is measured across its flats
    shape: circle                   # square | rounded | circle | hex, or {kind: hex, orientation: flat}
    fields: {name: text, turns: integer, colour: colour}
    fonts: {title: fonts/Title.ttf} # TTF/OTF inside the catalogue's folder, or a family:
                                    # {body: {regular: f/Body.ttf, bold: …, italic: …, bold_italic: …}}
    icons: {sword: icons/sword.png} # for :sword: in a boxed text, inside the catalogue's folder
    template: [...]                 # the face (tokengen.sources.template), or a built-in name
    back: [...]                     # optional: the back, drawn with each token's own fields
    tokens: tokens.csv              # or a list of mappings

Every error names the file, the line (or spreadsheet row) and the field (or column).
"""

from __future__ import annotations

import hashlib
import math
import re
import unicodedata
from collections.abc import Callable
from dataclasses import replace
from decimal import Decimal
from functools import lru_cache, partial
from pathlib import Path
from typing import Any, NoReturn

from ..errors import CatalogueError
from ..geometry.bands import Trim
from ..geometry.handsheet import HandSheet
from ..geometry.shapes import KINDS, ORIENTATIONS, Shape, hex_box
from ..limits import MAX_DESIGN_ELEMENTS, MAX_FONT_CODE_POINTS, MIN_SIZE
from ..model import Back, Catalogue, Colour, Draws, FaceStyle, Game, Token
from ..units import parse_length, parse_size, sleeve_card
from . import fonts, remote, scripts
from . import markup as mk
from .artpath import resolve_art, shown_path
from .declared import declared, field_choices
from .handsheets import hand_sheet
from .remarks import icons_as_text, unmatched_conditions
from .schemas import line_at, show, suggest
from .table import DateCell, Marked, Row, Shown, hidden_rows, read_table
from .template import (
    FIELD_NAME,
    FIELD_TYPES,
    Element,
    Face,
    Others,
    Pick,
    Template,
    boxed_text,
    colour_of,
    dressed,
    family_of,
    font_name,
    hyphenation_lang,
    line_text,
    parse_layouts,
    parse_template,
    picture_places,
    pictures,
    placeholders,
    printable_on_one_line,
    references,
    resolve,
)
from .yamlsrc import Lines, dotted, floats, one_line

#: Keys a token has besides its declared fields.
TOKEN_KEYS = ("id", "copies")
_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
#: In a semicolon-separated CSV: a number with one decimal comma (``2,5``, ``-0,25``), and one
#: with thousands separators (``1.234,5``, ``1 234``), which is refused with a hint.
_DECIMAL_COMMA = re.compile(r"[-+]?\d+,\d+")
_GROUPED = re.compile(r"[-+]?\d{1,3}(?:[. \u00a0\u202f']\d{3})+(?:,\d+)?")
#: ... and ``1.500``, which a spreadsheet writing numbers as shown in a decimal-comma locale means
#: as fifteen hundred: a point between groups of three digits (not after a lone 0: ``0.125``) is
#: refused there rather than read as 1.5.
_POINT_GROUPED = re.compile(r"[-+]?[1-9]\d{0,2}(?:\.\d{3})+")
WHITE = Colour("rgb", (1.0, 1.0, 1.0))
BLACK = Colour("rgb", (0.0, 0.0, 0.0))
#: Numbers from a spreadsheet or YAML field stay below this (18 digits), as YAML's whole numbers do.
MAX_NUMBER = 10**18
#: Largest catalogue font file read, bytes (a full CJK font is about 20 MiB).
MAX_FONT_BYTES = 32 * 1024 * 1024
#: Corner radius of a ``rounded`` shape that gives none: 3 mm, as on poker-size cards.
DEFAULT_RADIUS = 3 * 72 / 25.4
#: The back of a catalogue that gives none: plain white.
PLAIN_BACK = Template((Element(kind="rect", content="fill", fill=WHITE, bleed=True),), name="plain")

#: The game data of a catalogue with declared fields: none (its rules live in its game module).
NO_GAME = Game((), (), Draws((), (), 0, 0), 0, 0)

Locate = Callable[[str | None], "_Error"]  # key → the error located there, waiting for its message


def build_fields_catalogue(path: Path, data: dict[str, Any], lines: Lines, allow_outside_art: bool = False,
                           max_font_code_points: int = MAX_FONT_CODE_POINTS) -> Catalogue:
    """Build the :class:`Catalogue` of an any-game catalogue whose data passed the schema; a
    catalogue font whose cmap maps more than ``max_font_code_points`` code points is refused
    before ReportLab walks it.

    Raises:
        CatalogueError: an unknown field type, font, template key or token field (with a
            did-you-mean), a missing field, a value of the wrong type, a character a font
            cannot draw, a spreadsheet problem — the first one found, with file, line and field.
    """
    def fail(where: tuple[Any, ...], message: str) -> CatalogueError:
        return CatalogueError(path, message, line=line_at(lines, where), field=dotted(where))

    _check_finite(data, fail)
    fields, defaults, optional = _fields(data["fields"], fail)
    font_files: dict[str, Path] = {}
    font_map, families = _fonts(path, data.get("fonts", {}), fail, allow_outside_art, font_files, max_font_code_points)
    icons = {name: str(_inside(path, relative, fail(("icons", name), ""), allow_outside_art, "icon"))
             for name, relative in data.get("icons", {}).items()}
    lang, field_langs = _langs(data, fail)
    dress = tuple(font_map.items()), tuple(icons.items()), tuple(families.items()), lang, field_langs
    layouts = parse_layouts(path, data["layouts"], lines, fields, tuple(font_map)) if "layouts" in data else {}
    data, standee_base = _standee(data, fail)
    width, height, shape = _geometry(data, fail)
    own = Trim(width, height, shape)
    for name, trim in _layout_trims(data, fail).items():  # a layout's own size and shape: a band of its own
        layouts[name] = replace(layouts[name], trim=None if trim == own else trim)
    sides = _sides(path, data, lines, fields, tuple(font_map), layouts, dress)
    tts, tile_overlap, design_safe, hand = _settings(path, data, lines, fields, fail)
    notes: list[str] = []
    sources = [Path(p) for p in font_files.values()] + [Path(p) for p in icons.values()]
    rows, decimal_comma = _rows(path, data, lines, fields, fail, allow_outside_art, sources, notes)
    _check_design_elements(rows, *sides, fail)

    def read(raw: dict[str, Any], locate: Locate, n: int) -> tuple[dict[str, Any], str, int]:
        return _token_values(raw, locate, fields, defaults, path, allow_outside_art, n, decimal_comma, optional)

    choices = field_choices(data["fields"])
    tokens, places = _tokens(rows, sides, read, choices, own, fail)
    _template_places(path, lines, sides, icons, places)
    remarks = unmatched_conditions(sides, tokens) + icons_as_text(tokens, icons)
    shared = tokens[0].back if all(t.back == tokens[0].back for t in tokens) else None
    sources += list(dict.fromkeys(pictures(sides[0]) + pictures(sides[1])))  # literal pictures (resolved when parsed)
    return Catalogue(
        path=path, title=data["title"], game=NO_GAME, tokens=tuple(tokens), size=width,
        subtitle=data.get("subtitle", ""), author=data.get("author", ""), back=shared, columns=data.get("columns"), safe_area=design_safe, tile_overlap=tile_overlap, standee_base=standee_base, hand_sheet=hand,
        fields=tuple(fields.items()), height=height, shape=shape, module=data.get("game", "generic"),
        drawn_blind=bool(data.get("drawn_blind", False)), tts=tts, inputs=tuple(sources), warnings=(*notes, *map(str, remarks)), remarks=tuple(remarks),
        art_places=tuple((picture, *place) for picture, place in places.items()),
        declared=declared(data, lines), choices=choices,
    )


def _sides(path: Path, data: dict[str, Any], lines: Lines, fields: dict[str, str], font_names: tuple[str, ...],
           layouts: dict[str, Any], dress: tuple[Any, ...]) -> tuple[Face, Face]:
    """The face (``template:``) and back (``back:``, else :data:`PLAIN_BACK`) parsed and dressed
    with the catalogue's fonts, icons and languages (:func:`dressed`).

    Raises:
        CatalogueError: a template problem, at its line and key.
    """
    face = dressed(parse_template(path, data["template"], lines, ("template",), fields, font_names, layouts), *dress)
    back_face: Face = PLAIN_BACK
    if "back" in data:
        back_face = dressed(parse_template(path, data["back"], lines, ("back",), fields, font_names, layouts), *dress)
    return face, back_face


def _settings(path: Path, data: dict[str, Any], lines: Lines, fields: dict[str, str],
              fail: Callable[[tuple[Any, ...], str], CatalogueError]) -> tuple[tuple[tuple[str, str], ...], float | None, float | None, HandSheet | None]:
    """The catalogue's settings beside its tokens: (``tts`` texts, a board's tile overlap in pt
    or None, the design safe area in pt or None, the hand sheet or None).

    Raises:
        CatalogueError: a bad TTS text, overlap, safe area or sheet, at its key (in that order).
    """
    tts = _tts_texts(data.get("tts", {}), fields, fail)
    tile_overlap = _tile_overlap(data, fail)
    design_safe = _safe_area(data, fail)
    return tts, tile_overlap, design_safe, hand_sheet(path, data["sheet"], lines) if "sheet" in data else None


#: Reads one token's row (raw values, where its keys are, its index) as (values, id, copies).
ReadToken = Callable[[dict[str, Any], Locate, int], tuple[dict[str, Any], str, int]]
#: Picture file → (file, line, field) where it is first named.
Places = dict[Path, tuple[str, int | None, str | None]]


def _tokens(rows: list[TokenRow], sides: tuple[Face, Face], read: ReadToken, choices: tuple[tuple[str, tuple[Any, ...]], ...],
            own: Trim, fail: Callable[[tuple[Any, ...], str], CatalogueError]) -> tuple[list[Token], Places]:
    """Every row as a :class:`Token` (values read by ``read``, all before the first token when a
    template names other tokens' values), and where each picture a token names is first named.

    Raises:
        CatalogueError: a bad value, a value not among its field's choices, a duplicate id, a
            text a font cannot draw, at the token's field.
    """
    places: Places = {}
    first: dict[str, str] = {}
    checked: dict[int, Template] = {}  # id → a template reading no field whose text was checked (kept: ids stay unique)
    passed: dict[tuple[int, str, str], Element] = {}  # (element id, font, one-line text) → the element: it passed its checks
    ahead: list[tuple[dict[str, Any], str, int]] | None = None  # every token read first: a template names other tokens' values
    if references(sides[0]) or references(sides[1]):
        ahead = [read(raw, locate, n) for n, (raw, locate, _, _) in enumerate(rows)]
    by_id, in_order = _read_ahead(ahead)
    tokens: list[Token] = []
    for n, (raw, locate, line, origin) in enumerate(rows):
        values, token_id, copies = ahead[n] if ahead is not None else read(raw, locate, n)
        _check_choices(values, choices, locate)
        _token_places(values, raw, locate, fail, places)
        if token_id in first:
            raise locate("id")._replace_message(f"duplicate id {show(token_id)} (first at {first[token_id]})")
        first[token_id] = origin
        others = Others(n + 1, by_id, in_order)
        tokens.append(_token(sides, values, (token_id, copies, line), locate, others, own, checked, passed))
    return tokens, places


def _token_places(values: dict[str, Any], raw: dict[str, Any], locate: Locate,
                  fail: Callable[[tuple[Any, ...], str], CatalogueError], places: Places) -> None:
    """Add to ``places`` each picture of a token's ``values`` not named before: at the token's
    field, or at the field's declaration when the picture is its default."""
    for name, value in values.items():
        if isinstance(value, Path) and value not in places:
            at = locate(name) if name in raw else fail(("fields", name), "")  # else the field's default
            places[value] = (at.path, at.line, at.field)


def _read_ahead(ahead: list[tuple[dict[str, Any], str, int]] | None) -> tuple[dict[str, dict[str, Any]] | None, list[dict[str, Any]] | None]:
    """Every token's values read ahead ((values, id, copies) per token, or None when no template
    names other tokens' values) → (values by id, the first of each id; values in order), or
    (None, None)."""
    if ahead is None:
        return None, None
    by_id: dict[str, dict[str, Any]] = {}
    for values, token_id, _ in ahead:
        by_id.setdefault(token_id, values)
    return by_id, [values for values, _, _ in ahead]


#: A token's row: its raw values, where its keys are, its line and where it came from in words.
TokenRow = tuple[dict[str, Any], Locate, int | None, str]


def _check_finite(data: dict[str, Any], fail: Callable[[tuple[Any, ...], str], CatalogueError]) -> None:
    """Refuse a number that is not finite (``.inf``, ``.nan``) anywhere in the catalogue.

    Raises:
        CatalogueError: the first one, at its key.
    """
    for where, value in floats(data):
        if not math.isfinite(value):
            raise fail(where, f"expected a finite number, got {value!r}")


def _langs(data: dict[str, Any], fail: Callable[[tuple[Any, ...], str], CatalogueError]) -> tuple[str, tuple[tuple[str, str], ...]]:
    """The catalogue's hyphenation language (``lang``, "" for none) and each field's own, as
    (field, language) pairs (:func:`hyphenation_lang`).

    Raises:
        CatalogueError: a language with no hyphenation dictionary, at its key.
    """
    lang = hyphenation_lang(data["lang"], fail(("lang",), "")) if "lang" in data else ""
    field_langs = tuple((name, hyphenation_lang(kind["lang"], fail(("fields", name, "lang"), "")))
                        for name, kind in data["fields"].items() if isinstance(kind, dict) and "lang" in kind)
    return lang, field_langs


def _safe_area(data: dict[str, Any], fail: Callable[[tuple[Any, ...], str], CatalogueError]) -> float | None:
    """The catalogue's ``safe_area`` in pt, or None when it has none.

    Raises:
        CatalogueError: not a length, at ``safe_area``.
    """
    if "safe_area" not in data:
        return None
    try:
        return parse_length(data["safe_area"])
    except ValueError as exc:
        raise fail(("safe_area",), str(exc)) from None


def _token(sides: tuple[Face, Face], values: dict[str, Any], named: tuple[str, int, int | None], locate: Locate, others: Others,
           own: Trim, checked: dict[int, Template], passed: dict[tuple[int, str, str], Element]) -> Token:
    """One token: its face and back templates resolved for its ``values`` (once per token:
    plain elements), their texts checked (a template reading no field once for every token,
    kept in ``checked``; elements that passed in ``passed``); ``named`` is (id, copies, line).

    Raises:
        CatalogueError: a back layout with its own size or shape, a value a value map lacks, a
            text the font cannot draw or that does not fit, at the token's field.
    """
    (face, back_face), (token_id, copies, line) = sides, named
    miss = partial(_miss, locate)  # a value a value map lacks: named at the token's field
    template, back_template = resolve(face, values, miss, others), resolve(back_face, values, miss, others)  # once per token: plain elements
    if back_template.trim is not None and back_template.trim != template.trim:
        raise locate(None)._replace_message(
            f"the back layout '{back_template.name}' declares its own size or shape; a back is drawn at its face's "
            f"({_trim_name(template.trim or own)}), so give the size and shape to the face's layout")
    for each in (template, back_template):
        if id(each) not in checked:
            _check_text(each, values, locate, passed)
            if not each.fields():  # reads no field: the same text for every token, checked once
                checked[id(each)] = each
    back_values = tuple((f, values.get(f)) for f in back_template.fields())
    back = Back(text="", background=_background(back_template, values), ink=BLACK, template=back_template, values=back_values)
    style = FaceStyle(_background(template, values), BLACK, BLACK)
    return Token(token_id, style, back, copies, line, values=tuple(values.items()), template=template)


def _rows(path: Path, data: dict[str, Any], lines: Lines, fields: dict[str, str], fail: Callable[[tuple[Any, ...], str], CatalogueError],
          allow_outside_art: bool, sources: list[Path], notes: list[str]) -> tuple[list[TokenRow], bool]:
    """The catalogue's token rows, from its ``tokens:`` list or the spreadsheet it names (added to
    ``sources``, its hidden rows and left-out columns said in ``notes``), and whether the
    spreadsheet writes decimals with a comma.

    Raises:
        CatalogueError: an empty list, a row that is not a mapping, a spreadsheet problem.
    """
    spec = data["tokens"]
    if isinstance(spec, str):
        return _table_rows(path, data, fields, fail, allow_outside_art, sources, notes)
    return _yaml_rows(path, spec, lines, fail), False


def _yaml_rows(path: Path, spec: list[Any], lines: Lines, fail: Callable[[tuple[Any, ...], str], CatalogueError]) -> list[TokenRow]:
    """The token rows of a ``tokens:`` list in the catalogue itself.

    Raises:
        CatalogueError: an empty list, or a token that is not a mapping.
    """
    if not spec:
        raise fail(("tokens",), "must not be empty")
    rows: list[TokenRow] = []
    for i, t in enumerate(spec):
        if not isinstance(t, dict):
            raise fail(("tokens", i), f"expected a mapping of id, copies and fields, got {show(t)}")
        rows.append((t, _yaml_locator(path, lines, i), line_at(lines, ("tokens", i)), f"line {line_at(lines, ('tokens', i))}"))
    return rows


def _table_rows(path: Path, data: dict[str, Any], fields: dict[str, str], fail: Callable[[tuple[Any, ...], str], CatalogueError],
                allow_outside_art: bool, sources: list[Path], notes: list[str]) -> tuple[list[TokenRow], bool]:
    """The token rows of the spreadsheet ``tokens:`` names (a file inside the catalogue's folder,
    added to ``sources``, or a link), each keeping only the declared columns, and whether the
    sheet writes decimals with a comma; what is not printed (hidden rows, columns that are not
    fields, cell styling) is said in ``notes``.

    Raises:
        CatalogueError: a spreadsheet problem, named at the spreadsheet as the catalogue names it.
    """
    spec = data["tokens"]
    table_path, shown = _table_file(path, spec, fail, allow_outside_art, sources, notes)
    known = list(TOKEN_KEYS) + list(fields)
    hidden: list[int] = []
    try:
        table = read_table(table_path, known, hidden)
    except CatalogueError as exc:  # the spreadsheet named as the user knows it, not as resolved
        raise CatalogueError(shown if exc.path == str(table_path) else exc.path, exc.message, exc.line, exc.field) from None
    left_out = _undeclared(table[0], known, data.get("ignore", []), shown)
    notes.extend(_table_notes(table, hidden, left_out, shown))
    return _kept_rows(table, known, spec, shown, table_path), table[0].decimal_comma


def _table_notes(table: list[Row], hidden: list[int], left_out: list[str], shown: str) -> list[str]:
    """What a spreadsheet holds that is not printed, one note each: its hidden rows, its
    columns that are not fields (``left_out``), styling of rich cells beyond bold and italic."""
    notes: list[str] = []
    if hidden:
        notes.append(f"{shown}: {hidden_rows(hidden)}")
    if left_out:
        notes.append(_left_out_note(left_out, shown))
    dropped = [(line, key, cell) for line in table for key, cell in line.values.items() if isinstance(cell, Marked) and cell.dropped]
    if dropped:
        notes.append(_dropped_note(dropped, shown))
    return notes


def _kept_rows(table: list[Row], known: list[str], spec: str, shown: str, table_path: Path) -> list[TokenRow]:
    """The spreadsheet's rows as token rows, each keeping only the ``known`` columns and located
    at the spreadsheet as the catalogue names it (``shown``; a link keeps its ``//``)."""
    link = remote.is_link(spec)
    shown_table: str | Path = shown if link else Path(shown)  # a link keeps its '//'
    table_name, wanted = (shown if link else table_path.name), set(known)  # once, not per row
    return [({k: v for k, v in r.values.items() if k in wanted}, _row_locator(shown_table, r), r.line, f"{table_name} row {r.line}")
            for r in table]


def _table_file(path: Path, spec: str, fail: Callable[[tuple[Any, ...], str], CatalogueError], allow_outside_art: bool,
                sources: list[Path], notes: list[str]) -> tuple[Path, str]:
    """(the file to read, the spreadsheet as messages name it) for ``tokens: <spec>``: a link is
    fetched (or read from the cache; when offline, ``notes`` says which copy was read), a local
    file must lie inside the catalogue's folder and is added to ``sources``.

    Raises:
        CatalogueError: a file outside the folder or missing, a link that cannot be fetched.
    """
    if remote.is_link(spec):  # fetched (or read from the cache), then read as a local table
        at = fail(("tokens",), "")
        table_path, fetched = remote.fetch_table(path, spec, at.line, at.field or "tokens")
        if fetched:  # offline: say which copy was read
            notes.append(fetched)
        return table_path, spec
    table_path = _inside(path, spec, fail(("tokens",), ""), allow_outside_art, "spreadsheet")
    sources.append(table_path)
    return table_path, shown_path(table_path, path.parent / spec)


def _left_out_note(left_out: list[str], shown: str) -> str:
    """The note naming a spreadsheet's columns that are not fields, and so not printed."""
    names = ", ".join(left_out)
    many = len(left_out) > 1
    return (f"{shown}: column{'s' if many else ''} {names} {'are not fields' if many else 'is not a field'} "
            f"of the catalogue; {'they are' if many else 'it is'} not printed (list {'them' if many else 'it'} under ignore: to say so)")


def _dropped_note(dropped: list[tuple[Row, str, Marked]], shown: str) -> str:
    """The note for rich cells whose styling beyond bold and italic is not printed, naming the
    first such cell and counting the rest."""
    first_row, column, marked = dropped[0]
    more = f" (and in {len(dropped) - 1:,} more cell{'s' if len(dropped) > 2 else ''})" if len(dropped) > 1 else ""
    return (f"{shown}: {first_row.columns.get(column, '')}{first_row.line}: the {', '.join(marked.dropped)} of part of the text is "
            f"not printed, only its bold and italic{more}")


def _check_design_elements(rows: list[TokenRow], face: Face, back_face: Face,
                           fail: Callable[[tuple[Any, ...], str], CatalogueError]) -> None:
    """Refuse more template elements in all (each token design's face and back) than
    :data:`MAX_DESIGN_ELEMENTS`, before each is checked, then drawn.

    Raises:
        CatalogueError: too many, at ``tokens``.
    """
    per_design = _most_elements(face) + _most_elements(back_face)
    if len(rows) * per_design > MAX_DESIGN_ELEMENTS:
        raise fail(("tokens",), f"{len(rows):,} token designs × {per_design} template elements (face and back) are "
                                f"{len(rows) * per_design:,}, more than the {MAX_DESIGN_ELEMENTS:,} one catalogue draws "
                                "(a fixed limit): use fewer elements, or split the tokens into two catalogues")


def _check_choices(values: dict[str, Any], choices: tuple[tuple[str, tuple[Any, ...]], ...], locate: Locate) -> None:
    """Refuse a token's value that is not one of its field's ``choices`` (empty values pass).

    Raises:
        CatalogueError: the value and the choices (or a did-you-mean), at the token's field.
    """
    for name, allowed in choices:
        if values.get(name) not in allowed and values.get(name) not in (None, ""):
            shown_choices = [str(c) for c in allowed]
            hint = suggest(str(values[name]), shown_choices) or f" (choices: {', '.join(shown_choices)})"
            raise locate(name)._replace_message(f"{show(values[name])} is not one of the field's choices{hint}")


def _template_places(path: Path, lines: Lines, sides: tuple[Face, Face], icons: dict[str, str],
                     places: dict[Path, tuple[str, int | None, str | None]]) -> None:
    """Add to ``places`` (picture → file, line, field where it is first named) the pictures the
    templates name themselves and the catalogue's icons, where no token named them first."""
    for side in sides:
        for picture, at_line, field in picture_places(side):
            places.setdefault(picture, (str(path), at_line, field))
    for name, icon in icons.items():
        places.setdefault(Path(icon), (str(path), line_at(lines, ("icons", name)), f"icons.{name}"))


def _tts_texts(spec: dict[str, str], fields: dict[str, str], fail: Callable[[tuple[Any, ...], str], CatalogueError]) -> tuple[tuple[str, str], ...]:
    """The catalogue's ``tts: {name: "{name}", description: "{rules}"}`` as (key, text) pairs, each
    place a declared field or ``id``.

    Raises:
        CatalogueError: a place that is not a field (with a did-you-mean), or unbalanced braces.
    """
    known = ["id", *fields]
    for key, text in spec.items():
        try:
            names = placeholders(text)
        except ValueError as exc:
            raise fail(("tts", key), str(exc)) from None
        for name in names:
            if name not in known:
                raise fail(("tts", key), f"{{{name}}} is not a field{suggest(name, known)} (fields: {', '.join(known)})")
    return tuple(spec.items())


def _undeclared(header: Row, known: list[str], ignore: list[str], shown: str) -> list[str]:
    """The header's columns that are not fields (nor ``id``/``copies``) and not in the catalogue's
    ``ignore:`` list (matched ignoring case): left out of every token, and named in one warning.

    Raises:
        CatalogueError: a column whose name is close to a field's (``strenght``): a typo, not a
            note, named at the header with a did-you-mean.
    """
    ignored = {name.lower() for name in ignore}
    left_out: list[str] = []
    for name in header.columns:
        if name in known or name.lower() in ignored:
            continue
        hint = suggest(name, known)
        if hint:
            raise CatalogueError(shown, f"unknown field{hint} (fields: {', '.join(known)})",
                                 line=header.header_line, field=header.where(name))
        left_out.append(name)
    return left_out


def _background(template: Template, values: dict[str, Any]) -> Colour:
    """The colour a template paints into the bleed (its first full-bleed ``rect`` fill), else
    white: what a sheet's home bleed past the outer cuts is filled with."""
    for element in template.elements:
        if element.kind == "rect" and element.bleed:
            return colour_of(element.fill, values) or WHITE
    return WHITE


def _miss(locate: Locate, field: str | None, message: str) -> CatalogueError:
    """A token value a value map lacks, named at the token's ``field``."""
    return locate(field)._replace_message(message)


#: Keys of a field given as a mapping: ``{type: text, default: "", optional: true, lang: fr}``;
#: ``choices: [red, blue]`` lists the values the ``each:`` rule expects (:mod:`.declared`).
FIELD_KEYS = ("type", "default", "optional", "choices", "lang")


def _fields(spec: dict[str, Any], fail: Callable[..., CatalogueError]) -> tuple[dict[str, str], dict[str, Any], set[str]]:
    """The declared fields (name → type), their defaults, and the fields that may be empty
    (``optional: true``: an empty text is ``""``, any other type None)."""
    fields: dict[str, str] = {}
    defaults: dict[str, Any] = {}
    optional: set[str] = set()
    for name, kind in spec.items():
        where: tuple[str, ...] = ("fields", name)
        if not isinstance(name, str) or not FIELD_NAME.fullmatch(name) or name in TOKEN_KEYS:
            reason = f"'{name}' is reserved" if name in TOKEN_KEYS else f"field name {show(name)} must be a word (letters, digits, _ or -)"
            raise fail(where, reason)
        if isinstance(kind, dict):
            unknown = [k for k in kind if k not in FIELD_KEYS]
            if unknown:
                raise fail(where + (unknown[0],), f"unknown key{suggest(str(unknown[0]), FIELD_KEYS)} (known keys: {', '.join(FIELD_KEYS)})")
            if "type" not in kind:
                raise fail(where, "missing required key 'type'")
            if "default" in kind:
                defaults[name] = kind["default"]
            if kind.get("optional"):
                optional.add(name)
            kind = kind["type"]
            where = where + ("type",)
        if kind not in FIELD_TYPES:
            raise fail(where, f"unknown field type {show(kind)}{suggest(str(kind), FIELD_TYPES)} (types: {', '.join(FIELD_TYPES)})")
        fields[name] = kind
    return fields, defaults, optional


def _inside(catalogue: Path, relative: str, where: CatalogueError, allow_outside: bool, what: str) -> Path:
    """A file named by the catalogue, inside its folder (as art is)."""
    try:
        return resolve_art(catalogue, relative, allow_outside, where)
    except CatalogueError as exc:
        raise CatalogueError(exc.path, exc.message.replace("art path", f"{what} path").replace("art file", f"{what} file"), exc.line, exc.field) from None


def _most_elements(face: Face) -> int:
    """The elements of ``face``'s largest layout (a layout map may choose any of its layouts),
    each repeated element counted as the most copies it may draw."""
    if isinstance(face, Pick):
        return max((_most_elements(v) for v in face.values() if isinstance(v, (Template, Pick))), default=0)
    return sum(_most_drawn(e) for e in face.elements)


def _most_drawn(element: Element) -> int:
    """The most elements ``element`` draws: a repeat's copies, a stack's own elements (each with
    its copies) besides the stack."""
    copies = element.repeat.most if element.repeat is not None else 1
    return copies + sum(_most_drawn(c) for c in element.children)


#: The styles of a catalogue font family (``fonts: {body: {regular: …, bold: …}}``), in the order
#: :func:`tokengen.sources.fonts.family` takes them.
FAMILY_STYLES = ("regular", "bold", "italic", "bold_italic")


def _fonts(path: Path, spec: dict[str, Any], fail: Callable[..., CatalogueError], allow_outside: bool,
           files: dict[str, Path], max_code_points: int = MAX_FONT_CODE_POINTS) -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    """Register each catalogue font with ReportLab. Each file's table directory and cmap are read
    first (:func:`fonts.cmap_code_points`): a cmap mapping more than ``max_code_points`` code
    points is refused before ReportLab builds its dict of them.

    A font is one file (``title: fonts/Title.ttf``) or a family, one file a style
    (``body: {regular: …, bold: …, italic: …, bold_italic: …}``, regular required).

    Returns:
        (name → registered font name of its regular style, name → the registered names of a
        family's styles given, in :data:`FAMILY_STYLES` order, "" for a style not given);
        ``files`` receives name (a family's: ``name.style``) → font file.
    """
    fonts.register()
    out: dict[str, str] = {}
    families: dict[str, tuple[str, ...]] = {}
    for name, given in spec.items():
        where = ("fonts", name)
        if name in ("regular", "bold"):
            raise fail(where, f"'{name}' is the bundled font; give yours another name")
        if isinstance(given, dict):
            styles = tuple(_font_file(path, given[style], (*where, style), fail, allow_outside, files, f"{name}.{style}", max_code_points)
                           if style in given else "" for style in FAMILY_STYLES)
            families[name] = styles
            out[name] = styles[0]
        else:
            out[name] = _font_file(path, given, where, fail, allow_outside, files, name, max_code_points)
    return out, families


def _font_file(path: Path, relative: str, where: tuple[Any, ...], fail: Callable[..., CatalogueError], allow_outside: bool,
               files: dict[str, Path], key: str, max_code_points: int = MAX_FONT_CODE_POINTS) -> str:
    """Register the font file ``relative`` (inside the catalogue's folder) once; its ReportLab name."""
    from reportlab.pdfbase import pdfmetrics

    file = _inside(path, relative, fail(where, ""), allow_outside, "font")
    if file.suffix.lower() not in (".ttf", ".otf"):
        raise fail(where, f"font file '{one_line(relative)}' must be a TrueType or OpenType font (.ttf or .otf)")
    if file.stat().st_size > MAX_FONT_BYTES:
        raise fail(where, f"font file '{one_line(relative)}' is larger than {MAX_FONT_BYTES // (1024 * 1024)} MiB")
    try:
        mapped = fonts.cmap_code_points(file.read_bytes())
    except (OSError, ValueError) as exc:
        raise fail(where, f"cannot use font '{one_line(relative)}': {one_line(str(exc))}") from None
    if mapped > max_code_points:
        raise fail(where, f"font file '{one_line(relative)}': {fonts.too_many_code_points(mapped, max_code_points)}")
    digest = hashlib.sha1(str(file).encode()).hexdigest()[:8]
    registered = f"{re.sub(r'[^A-Za-z0-9-]', '', file.stem)[:40] or 'font'}-{digest}"
    try:
        if registered not in pdfmetrics.getRegisteredFontNames():
            font = fonts.ShapedWidthTTFont(registered, str(file))
            _own_face(font, file)
            pdfmetrics.registerFont(font)
    except Exception as exc:  # ReportLab raises TTFError for CFF outlines, bad tables, …
        reason = one_line(str(exc)).split(": ", 1)[-1]
        raise fail(where, f"cannot use font '{one_line(relative)}': {reason} (TrueType outlines are needed)") from None
    files[key] = file
    return registered


def _own_face(font: Any, file: Path) -> None:
    """Give ReportLab's ``font`` a face name of its own when another font already loaded has its
    face name (the PostScript name inside the file, ``DejaVuSans``) but other contents: ReportLab
    keeps one font per face name and would quietly draw with the first one loaded (a cut-down or
    newer copy of a font, or two fonts a font editor named alike). A copy of the same file keeps
    its name (drawing with either is the same)."""
    from reportlab.pdfbase import pdfmetrics

    name = font.face.name
    data = file.read_bytes()
    for other in pdfmetrics.getRegisteredFontNames():
        face: Any = getattr(pdfmetrics.getFont(other), "face", None)
        if getattr(face, "name", None) != name:
            continue
        try:
            same = Path(face.filename).read_bytes() == data
        except (OSError, TypeError, AttributeError):
            same = False
        if not same:
            text = name.decode("latin-1") if isinstance(name, bytes) else str(name)
            own = f"{text[:40]}-{hashlib.sha1(data).hexdigest()[:8]}"
            font.face.name = own.encode("latin-1") if isinstance(name, bytes) else own
        return


def _standee(data: dict[str, Any], fail: Callable[..., CatalogueError]) -> tuple[dict[str, Any], float | None]:
    """``shape: standee`` (base 12 mm) or ``shape: {kind: standee, base: 10mm}``: the catalogue
    without its shape (a standee's figure is a plain rectangle) and the base in pt; else the
    catalogue as it is and None."""
    from ..geometry.standee import BASE

    spec = data.get("shape")
    if spec != "standee" and not (isinstance(spec, dict) and spec.get("kind") == "standee"):
        return data, None
    base = BASE
    if isinstance(spec, dict):
        for key in spec:
            if key not in ("kind", "base"):
                raise fail(("shape", key), f"unknown key for a standee{suggest(str(key), ['kind', 'base'])} (known keys: kind, base)")
        if "base" in spec:
            try:
                base = parse_length(spec["base"], allow_zero=False)
            except ValueError as exc:
                raise fail(("shape", "base"), one_line(str(exc))) from None
    return {k: v for k, v in data.items() if k != "shape"}, base


def _tile_overlap(data: dict[str, Any], fail: Callable[..., CatalogueError]) -> float | None:
    """The overlap (pt) of a board tiled over pages (``tile: {overlap: 6mm}``), the default 6 mm,
    or None for ``tile: false`` (a board larger than the page is refused)."""
    tile = data.get("tile", True)
    if tile is False:
        return None
    if not isinstance(tile, dict) or "overlap" not in tile:
        return 6 * 72 / 25.4
    try:
        return parse_length(tile["overlap"])
    except ValueError as exc:
        raise fail(("tile", "overlap"), str(exc)) from None


def _geometry(data: dict[str, Any], fail: Callable[..., CatalogueError]) -> tuple[float, float | None, Shape | None]:
    """The token's (width, height or None for a square, circle or hex box measured on its width,
    shape or None) from ``sleeve:``, ``size:`` (1 in when neither) and ``shape:``, in pt; a hex's
    box is its width across the flats turned into its bounding box.

    Raises:
        CatalogueError: a bad size, sleeve or shape, or a shape the size does not fit, at its key.
    """
    width, height = _card_size(data, fail)
    if "shape" not in data:
        return width, height, None
    shape = _shape(data["shape"], fail)
    _check_shape_fits(shape, width, height, fail)
    if shape.kind == "hex":
        width, height = hex_box(width, shape.orientation)
    elif shape.kind == "circle":
        height = None
    return width, height, shape


def _card_size(data: dict[str, Any], fail: Callable[..., CatalogueError]) -> tuple[float, float | None]:
    """(width, height or None), pt: the card a ``sleeve:`` holds (data/sizes.yaml), or ``size:``,
    or 1 in.

    Raises:
        CatalogueError: both keys, an unknown sleeve, a bad size or one under :data:`MIN_SIZE`.
    """
    width, height = 72.0, None
    if "sleeve" in data:  # the card the sleeve holds (data/sizes.yaml)
        if "size" in data:
            raise fail(("sleeve",), "give sleeve: or size:, not both (sleeve: sets the card's size)")
        try:
            width, height = sleeve_card(data["sleeve"])
        except ValueError as exc:
            raise fail(("sleeve",), one_line(str(exc))) from None
    if "size" in data:
        try:
            width, height = parse_size(data["size"])
        except ValueError as exc:
            raise fail(("size",), one_line(str(exc), 1000)) from None  # whole: parse_size bounds its text (129 characters)
        for side in (width, height or width):
            if side < MIN_SIZE:
                raise fail(("size",), f"{show(data['size'])} is smaller than the smallest token size, 0.125in (3.2mm)")
    return width, height


def _shape(spec: Any, fail: Callable[..., CatalogueError]) -> Shape:
    """The ``shape:`` key, a name (``rounded``) or a mapping (``{kind: hex, orientation: flat}``),
    as a :class:`Shape`; a ``rounded`` shape that gives no radius has :data:`DEFAULT_RADIUS`.

    Raises:
        CatalogueError: an unknown key, kind or orientation, a missing kind, a bad radius.
    """
    kind, radius, orientation = _shape_keys(spec, fail) if isinstance(spec, dict) else (spec, 0.0, "pointy")
    at = ("shape", "kind") if isinstance(spec, dict) else ("shape",)
    if kind not in KINDS:
        raise fail(at, f"unknown shape {show(kind)}{suggest(str(kind), KINDS)} (shapes: {', '.join(KINDS)})")
    if kind == "rounded" and not (isinstance(spec, dict) and "radius" in spec):
        radius = DEFAULT_RADIUS
    return Shape(kind, radius, orientation)


def _shape_keys(spec: dict[str, Any], fail: Callable[..., CatalogueError]) -> tuple[Any, float, str]:
    """A shape mapping's (kind as given, radius in pt or 0, orientation).

    Raises:
        CatalogueError: an unknown key or orientation, a missing kind, a bad radius, at its key.
    """
    for key in spec:
        if key not in ("kind", "radius", "orientation"):
            raise fail(("shape", key), f"unknown key{suggest(str(key), ['kind', 'radius', 'orientation'])} (known keys: kind, radius, orientation)")
    if "kind" not in spec:
        raise fail(("shape",), "missing required key 'kind'")
    radius = 0.0
    if "radius" in spec:
        try:
            radius = parse_length(spec["radius"])
        except ValueError as exc:
            raise fail(("shape", "radius"), one_line(str(exc))) from None
    orientation = spec.get("orientation", "pointy")
    if orientation not in ORIENTATIONS:
        raise fail(("shape", "orientation"), f"unknown orientation {show(orientation)}{suggest(str(orientation), ORIENTATIONS)} (flat or pointy)")
    return spec["kind"], radius, orientation


def _check_shape_fits(shape: Shape, width: float, height: float | None, fail: Callable[..., CatalogueError]) -> None:
    """Refuse a circle or hex given as WIDTHxHEIGHT, and a corner radius over half the token.

    Raises:
        CatalogueError: at ``size`` or ``shape.radius``.
    """
    kind = shape.kind
    if kind in ("circle", "hex") and height is not None and abs(height - width) > 1e-6:
        raise fail(("size",), f"a {kind} token has one size ({'its diameter' if kind == 'circle' else 'across its flats'}), not WIDTHxHEIGHT")
    if kind == "rounded" and shape.radius > min(width, height or width) / 2:
        raise fail(("shape", "radius"), "the corner radius is more than half the token")


def _layout_trims(data: dict[str, Any], fail: Callable[..., CatalogueError]) -> dict[str, Trim]:
    """The trim of every layout that declares (or inherits through ``extends``) its own ``size``
    or ``shape``: the key it leaves out is the catalogue's. Spelt and checked as the catalogue's
    top-level ``size:`` and ``shape:`` (:func:`_geometry`), errors named at the layout's key."""
    spec: dict[str, Any] = data.get("layouts", {})

    def declared(name: str) -> dict[str, tuple[str, Any]]:  # key → (the layout declaring it, its value)
        entry = spec[name]
        if not isinstance(entry, dict):
            return {}
        inherited = declared(entry["extends"]) if "extends" in entry else {}  # parse_layouts refused circles
        return {**inherited, **{key: (name, entry[key]) for key in ("size", "shape") if key in entry}}

    out: dict[str, Trim] = {}
    for name in spec:
        own = declared(name)
        if not own:
            continue
        merged: dict[str, Any] = {k: data[k] for k in ("size", "sleeve", "shape") if k in data}
        merged.update((k, v) for k, (_, v) in own.items())
        if "size" in own:  # the layout's own size replaces the catalogue's sleeve
            merged.pop("sleeve", None)

        def at(where: tuple[Any, ...], message: str, own: dict[str, tuple[str, Any]] = own, name: str = name) -> CatalogueError:
            # at the key named, where it is declared; a size refused for a shape declared elsewhere
            # (or a size the layout inherits refused for its own shape): at this layout's own key
            mine = [k for k, (declarer, _) in own.items() if declarer == name]
            key = where[0] if where[0] in own and (not mine or own[where[0]][0] == name) else (mine or list(own))[0]
            rest = where[1:] if key == where[0] else ()
            return fail(("layouts", own[key][0], key, *rest), message)

        out[name] = Trim(*_geometry(merged, at))
    return out


def _trim_name(trim: Trim) -> str:
    """A trim for messages: ``1in circle``, ``63mm × 88mm rounded``."""
    from ..geometry.imposition import SheetSpec
    from ..geometry.shapes import describe

    height = trim.height if trim.height is not None and abs(trim.height - trim.width) > 1e-9 else None
    return describe(SheetSpec(page=(0.0, 0.0), size=trim.width, height=height, shape=trim.shape))


def _yaml_locator(path: Path, lines: Lines, i: int) -> Locate:
    def locate(key: str | None) -> _Error:
        where = ("tokens", i) if key is None else ("tokens", i, key)
        return _Error(path, "", line=line_at(lines, where), field=dotted(where))
    return locate


def _row_locator(table: str | Path, row: Row) -> Locate:
    def locate(key: str | None) -> _Error:
        return _Error(table, "", line=row.line, field=row.where(key) if key else None)
    return locate


class _Error(CatalogueError):
    """A located error waiting for its message."""

    def _replace_message(self, message: str) -> CatalogueError:
        return CatalogueError(self.path, message, self.line, self.field)


def _token_values(raw: dict[str, Any], locate: Locate, fields: dict[str, str], defaults: dict[str, Any],
                  path: Path, allow_outside_art: bool, n: int, decimal_comma: bool = False,
                  optional: set[str] | frozenset[str] = frozenset()) -> tuple[dict[str, Any], str, int]:
    """One token's row (``raw``: key → cell or YAML value, the ``n``-th row) read as
    (field → value of its declared type, id, copies): an empty id is the row's number, no
    copies is one, an empty field takes its default (an ``optional`` one: "" or None).

    Raises:
        CatalogueError: an unknown key, a bad id or copies, a missing or empty field, a value of
            the wrong type, at the token's field.
    """
    def fail(key: str | None, message: str) -> CatalogueError:
        return locate(key)._replace_message(message)

    _check_token_keys(raw, fields, fail)
    token_id = _token_id(raw.get("id"), n, fail)
    copies = _token_copies(raw.get("copies"), fail, decimal_comma)

    def convert(name: str, kind: str, value: Any) -> Any:
        return _convert(value, kind, partial(fail, name), path, allow_outside_art, partial(locate, name), decimal_comma)

    values: dict[str, Any] = {}
    for name, kind in fields.items():
        value = raw.get(name)
        quick = _quick_value(value, kind)
        values[name] = quick if quick is not None else _field_value(name, kind, raw, defaults, optional, fail, convert)
    return values, token_id, copies


def _check_token_keys(raw: dict[str, Any], fields: dict[str, str], fail: Callable[[str | None, str], CatalogueError]) -> None:
    """Refuse a token key that is neither a declared field nor ``id``/``copies``, with a did-you-mean."""
    for key in raw:
        if key not in fields and key not in TOKEN_KEYS:
            known = list(TOKEN_KEYS) + list(fields)
            raise fail(str(key), f"unknown field{suggest(str(key), known)} (fields: {', '.join(known)})")


def _token_id(given: Any, n: int, fail: Callable[[str | None, str], CatalogueError]) -> str:
    """A token's id as written (a date cell's ISO form, a rich cell's plain text, a whole float
    without its point), or the row's number ``n + 1`` when empty.

    Raises:
        CatalogueError: an id that is not lowercase letters, digits, '-' or '_', at ``id``.
    """
    token_id = _blank(given)
    if isinstance(token_id, DateCell):  # an id is a key, not printed text: the date in ISO form
        token_id = token_id.iso
    elif isinstance(token_id, Marked):
        token_id = token_id.plain
    if token_id is None:
        token_id = str(n + 1)
    token_id = str(token_id).strip() if not isinstance(token_id, float) else str(int(token_id)) if token_id.is_integer() else str(token_id)
    if not _ID.match(token_id):
        raise fail("id", f"id {show(token_id)} must be lowercase letters, digits, '-' or '_'")
    return token_id


def _token_copies(given: Any, fail: Callable[[str | None, str], CatalogueError], decimal_comma: bool) -> int:
    """A token's ``copies``: 1 when empty, else a whole number 1 to 10000.

    Raises:
        CatalogueError: not a whole number, or out of range, at ``copies``.
    """
    copies = _blank(given)
    if isinstance(copies, Marked):
        copies = copies.plain
    if isinstance(copies, Shown):  # a formatted .xlsx number: the number itself
        copies = copies.value
    if copies is None:
        return 1
    copies = _number(copies, "integer", lambda m: fail("copies", m), decimal_comma)
    if not 1 <= copies <= 10_000:
        raise fail("copies", f"must be 1 to 10000, got {copies}")
    return int(copies)


def _quick_value(value: Any, kind: str) -> Any:
    """The common case read without the full conversion: a short, plain ASCII text for a text
    field (NFC already, as :func:`_convert` would give it) or a ``#rrggbb`` colour; None for
    any other value (then :func:`_field_value` reads it)."""
    if type(value) is not str or not value.isascii() or not 0 < len(value) <= 400 or value.isspace():
        return None
    if kind == "text":
        return value
    return _rgb(value) if kind == "colour" else None


def _field_value(name: str, kind: str, raw: dict[str, Any], defaults: dict[str, Any], optional: set[str] | frozenset[str],
                 fail: Callable[[str | None, str], CatalogueError], convert: Callable[[str, str, Any], Any]) -> Any:
    """The token's field ``name`` (of type ``kind``) from its cell or YAML value, its default
    when empty; ``convert(name, kind, value)`` reads it as the type.

    Raises:
        CatalogueError: a missing or empty field with no default, a cell format tokengen cannot
            show, a value of the wrong type, at the field.
    """
    value = _cell_value(raw.get(name), kind, partial(fail, name))
    if value is None and name not in defaults:
        return _no_value(name, kind, raw, optional, fail)
    if value is None:
        value = defaults[name]
    return convert(name, kind, value)


def _cell_value(value: Any, kind: str, fail: Callable[[str], CatalogueError]) -> Any:
    """A value as a field of type ``kind`` reads it before conversion: None when blank, a rich
    cell's plain text unless the field is text, a formatted .xlsx number as its number for a
    number field, else as the text the sheet shows.

    Raises:
        CatalogueError: a formatted cell tokengen cannot show as the sheet does, for a field
            that is not a number.
    """
    value = _blank(value)
    if isinstance(value, Marked) and kind != "text":  # bold or italic runs style text only
        value = value.plain
    if isinstance(value, (Shown, DateCell)) and value.text is None and kind not in ("number", "integer"):
        raise fail(f"the cell's number format {show(value.fmt)} is not one tokengen can show as the sheet "
                   "does: give the column a format such as General, 0.00 or d-mmm-yyyy, or type the value as text")
    if isinstance(value, Shown):  # a formatted .xlsx number: the number for a number field, else the text as shown
        value = value.value if kind in ("number", "integer") else value.text
    return value


def _no_value(name: str, kind: str, raw: dict[str, Any], optional: set[str] | frozenset[str],
              fail: Callable[[str | None, str], CatalogueError]) -> Any:
    """The value of a field left empty that has no default: "" for an optional text, None for
    another optional field or an empty picture cell.

    Raises:
        CatalogueError: the field is missing (at the token) or empty (at the field).
    """
    if name in optional:  # may be empty: empty text, or no value
        return "" if kind == "text" else None
    if kind == "image" and name in raw:
        return None  # an empty cell: no picture
    raise fail(None if name not in raw else name, f"missing field '{name}'" if name not in raw else f"field '{name}' is empty")


def _blank(value: Any) -> Any:
    return None if value is None or (isinstance(value, str) and not value.strip()) else value


def _got(value: Any) -> str:
    """A value for messages: ``the date 2026-01-01`` for a spreadsheet's date, else its repr."""
    return f"the {value.kind} {value.iso}" if isinstance(value, DateCell) else show(value)


def _number(value: Any, kind: str, fail: Callable[[str], CatalogueError], decimal_comma: bool = False) -> int | float:
    """A cell or YAML value as an int (a whole number) or a float; ``decimal_comma`` (a
    semicolon-separated CSV) also reads ``2,5`` as 2.5. Errors go through ``fail``."""
    given = value
    wanted = "a whole number" if kind == "integer" else "a number"
    if isinstance(value, (bool, DateCell)):
        raise fail(f"expected {wanted}, got {_got(value)}")
    if isinstance(value, str):
        value = _number_text(value, wanted, fail, decimal_comma)
    if not isinstance(value, (int, float)) or not math.isfinite(value):
        raise fail(f"expected a finite number, got {show(value)}")
    if abs(value) >= MAX_NUMBER:  # as YAML's whole numbers: at most 18 digits before the point
        raise fail(f"expected a number of at most 18 digits, got {show(given)}")
    if kind == "integer":
        if not float(value).is_integer():
            raise fail(f"expected a whole number, got {show(given)}")
        return int(value)
    return int(value) if isinstance(value, float) and value.is_integer() and abs(value) < 1e15 else value


def _number_text(value: str, wanted: str, fail: Callable[[str], CatalogueError], decimal_comma: bool) -> float:
    """A number written as text (``-2.5``, ``25 %`` for 0.25, a minus sign U+2212; ``2,5`` when
    ``decimal_comma``) as a float; ``wanted`` names the number in messages.

    Raises:
        CatalogueError (through ``fail``): not a number; in a semicolon-separated sheet, a number
            with thousands separators or a point between groups of three digits.
    """
    text = value.strip().replace("\u2212", "-")
    percent = text.endswith("%")  # 25 % or 25%: 0.25, the number an .xlsx percentage cell holds
    text = text[:-1].rstrip(" \u00a0\u202f") if percent else text
    if decimal_comma and _DECIMAL_COMMA.fullmatch(text):
        text = text.replace(",", ".")
    elif decimal_comma and _POINT_GROUPED.fullmatch(text):
        _refuse_point_grouped(value, text, wanted, fail)
    try:
        return float(Decimal(text).scaleb(-2)) if percent else float(text)
    except (ValueError, ArithmeticError):
        hint = ""
        if decimal_comma and _GROUPED.fullmatch(text):
            hint = f" (write it without thousands separators: {re.sub(r'[^-+0-9,]', '', text)})"
        raise fail(f"expected {wanted}, got {show(value)}{hint}") from None


def _refuse_point_grouped(value: str, text: str, wanted: str, fail: Callable[[str], CatalogueError]) -> NoReturn:
    """Raise for ``1.500`` in a semicolon-separated sheet: such a sheet writes fifteen hundred so
    (:data:`_POINT_GROUPED`); the message gives both readings."""
    plain, (whole, _, part) = text.replace(".", ""), text.partition(".")
    decimal = f" for that, or {whole},{part} for a decimal" if text.count(".") == 1 else ""
    raise fail(f"expected {wanted}, got {show(value)}, which a semicolon-separated sheet writes for {plain}; "
               f"write {plain}{decimal}")


def _convert(value: Any, kind: str, fail: Callable[[str], CatalogueError], path: Path, allow_outside_art: bool,
             where: Callable[[], CatalogueError], decimal_comma: bool = False) -> Any:
    """``value`` as a field of type ``kind``; errors go through ``fail``, an art file's through
    ``where()`` (the located error, made only for a picture: not once per value)."""
    if kind == "text":
        return _as_text(value, fail)
    if kind in ("number", "integer"):
        return _number(value, kind, fail, decimal_comma)
    if kind == "image":
        return _as_image(value, fail, path, allow_outside_art, where)
    return _as_colour(value, fail)


def _as_text(value: Any, fail: Callable[[str], CatalogueError]) -> str:
    """A text field's value in NFC: a spreadsheet's date as the sheet shows it (DateCell), a
    whole float without its point, a rich cell (:class:`Marked`) keeping its markup.

    Raises:
        CatalogueError (through ``fail``): a mapping or list, or more than 400 characters.
    """
    if isinstance(value, (dict, list)):
        raise fail(f"expected text, got {show(value)}")
    text = value if isinstance(value, str) else getattr(value, "written", None) or (
        str(int(value)) if isinstance(value, float) and value.is_integer() else str(value))  # 007 in YAML prints 007
    if isinstance(value, Marked):  # a rich cell: its markup for boxed text, its plain text for one line
        text = Marked(unicodedata.normalize("NFC", value), unicodedata.normalize("NFC", value.plain))
    else:
        text = unicodedata.normalize("NFC", text)  # decomposed accents (macOS, Google Docs) as the font's one glyph
    if len(text) > 400:
        raise fail(f"text is longer than 400 characters ({len(text)})")
    return text


def _as_image(value: Any, fail: Callable[[str], CatalogueError], path: Path, allow_outside_art: bool,
              where: Callable[[], CatalogueError]) -> Path | None:
    """An image field's picture file (inside the catalogue's folder unless ``allow_outside_art``),
    None for an empty text (``default: ""``: no picture).

    Raises:
        CatalogueError: not a path (through ``fail``); a file that is missing or outside (at ``where()``).
    """
    if not isinstance(value, str):
        raise fail(f"expected an image path, got {_got(value)}")
    if not value.strip():  # an empty default (default: ""): no picture
        return None
    return resolve_art(path, value.strip(), allow_outside_art, where())


def _as_colour(value: Any, fail: Callable[[str], CatalogueError]) -> Colour:
    """A colour field's value: ``"#rrggbb"`` or ``[c, m, y, k]`` with channels 0-1.

    Raises:
        CatalogueError (through ``fail``): any other value.
    """
    if isinstance(value, str):
        rgb = _rgb(value)
        if rgb is not None:
            return rgb
    if isinstance(value, list) and len(value) == 4 and all(isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v <= 1 for v in value):
        return Colour.parse(value)
    raise fail(f'expected a colour "#rrggbb" or [c, m, y, k] with channels 0-1, got {_got(value)}')


@lru_cache(maxsize=1024)
def _rgb(text: str) -> Colour | None:
    """The colour ``"#rrggbb"`` (spaces around it allowed) stands for, None for any other text:
    read once per distinct text (a column of colours repeats a few; a :class:`Colour` is immutable)."""
    return Colour.parse(text.strip()) if re.fullmatch(r"\s*#[0-9A-Fa-f]{6}\s*", text) else None


#: Distinct one-line texts remembered as passed while a catalogue is read (then each is checked again).
_PASSED_KEPT = 100_000

#: Characters a boxed text takes that one line refuses: line breaks, the soft hyphen, no-break spaces.
_BOXED_ONLY = "\n\r\u00ad\u00a0\u2007\u202f"


def _check_text(template: Template, values: dict[str, Any], locate: Locate,
                passed: dict[tuple[int, str, str], Element] | None = None) -> None:
    """Refuse text a template's font cannot draw, naming the token field it came from.
    ``passed``: (element id, font, text) → element of one-line texts that passed already (each
    distinct text of an element is checked once; the element is kept, so its id stays unique)."""
    for element in template.every():
        if element.kind not in ("text", "glyph", "arc_text"):
            continue
        if element.boxed:
            _check_boxed(template, element, boxed_text(element, values), next(iter(element.fields()), None), locate)
        else:
            _check_line(template, element, values, locate, passed)


def _check_line(template: Template, element: Element, values: dict[str, Any], locate: Locate,
                passed: dict[tuple[int, str, str], Element] | None) -> None:
    """Refuse a one-line text's control characters, a script tokengen cannot set and characters
    its font cannot draw; a text that passes is kept in ``passed`` (up to :data:`_PASSED_KEPT`)."""
    text = line_text(element, values)
    font = font_name(template, element.font)
    if passed is not None and passed.get((id(element), font, text)) is element:
        return
    control = None if text.isprintable() else next((ch for ch in text if not printable_on_one_line(ch)), None)
    if control is not None:
        source = next(iter(element.fields()), None)
        raise locate(source)._replace_message(
            f"character U+{ord(control):04X} (a line break, tab or other control) cannot be printed on one line")
    script = scripts.unsupported(text)
    if script:
        _refuse_text(element, script, locate)
    missing = fonts.missing_glyphs(text, font)
    if missing:  # the field is named only when refused: not looked up per token
        _refuse_text(element, _no_glyph(element, font, missing), locate)
    if passed is not None and len(passed) < _PASSED_KEPT:
        passed[id(element), font, text] = element


def _no_glyph(element: Element, font: str, missing: list[str]) -> str:
    """The message for characters (the first three of ``missing``) the element's ``font`` cannot
    draw, naming a catalogue font as the catalogue does and a bundled one by its file's name."""
    shown = ", ".join(f"{show(ch)} (U+{ord(ch):04X})" for ch in missing[:3])
    what = f"the font '{element.font}'" if element.font not in ("regular", "bold") else f"the bundled font {font}"
    return f"{what} has no glyph for {shown}"


def _refuse_text(element: Element, why: str, locate: Locate) -> NoReturn:
    """Raise the catalogue error ``why`` for an element's text (a script tokengen cannot set:
    right to left, or needing shaping; a character its font lacks) at the token field it came
    from, else at the template's line."""
    source = next(iter(element.fields()), None)
    if source is None:
        where = f" (template line {element.line})" if element.line else ""
        raise locate(None)._replace_message(f"{why}{where}")
    raise locate(source)._replace_message(why)


def _check_boxed(template: Template, element: Element, text: str, source: str | None, locate: Locate) -> None:
    """Refuse a boxed text's control characters (line breaks and soft hyphens are fine), bad
    markup (named at the template when the template wrote it, else at the token's field) and
    characters the font of the style they are set in cannot draw."""
    control = next((ch for ch in text if not ch.isprintable() and ch != " " and ch not in _BOXED_ONLY), None)
    if control is not None:
        raise locate(source)._replace_message(f"character U+{ord(control):04X} (a tab or other control) cannot be printed")
    styled = mk.styled_text(_boxed_markup(template, element, text, source, locate))
    script = scripts.unsupported("".join(styled.values()))
    if script:
        _refuse_text(element, script, locate)
    family = family_of(template, element.font)
    for style, styled_text in styled.items():
        font = family.font(style)
        missing = [ch for ch in fonts.missing_glyphs(styled_text, font) if ch not in _BOXED_ONLY]
        if missing:
            raise locate(source)._replace_message(_no_glyph(element, font, missing))


def _boxed_markup(template: Template, element: Element, text: str, source: str | None, locate: Locate) -> mk.Doc:
    """A boxed text's markup parsed (:func:`markup.parse_once`).

    Raises:
        CatalogueError: bad markup, at the template when the template wrote it (or names the
            icon), else at the token's field ``source``.
    """
    try:
        return mk.parse_once(text, template.icons, element.markup, template.source, element.line, element.where)
    except CatalogueError as exc:
        icon = re.search(r"':([^']*):'", exc.message)
        in_template = source is None or (icon is not None and f":{icon.group(1)}:" in element.content)
        if in_template:
            raise CatalogueError(template.source or exc.path, exc.message, element.line, element.where) from None
        raise locate(source)._replace_message(exc.message) from None
