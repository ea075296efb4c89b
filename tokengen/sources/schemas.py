"""The one schema layer for every YAML input: catalogues, scenarios, batch job files, profile files.

Each input has a JSON Schema (2020-12) in package data, ``tokengen/data/<name>.schema.json``.
:func:`validate` checks read YAML against one and explains every problem the same way, as
``file:line: field: message``, with a "did you mean" for near-miss keys and values. Types are
strict: ``"false"`` is text, not a boolean; ``1.0`` is not a whole number; ``true`` is not a
number.

Two annotation keywords that JSON Schema ignores steer the wording:

* ``x-message`` on a subschema replaces the generic message for any problem found by that
  subschema; ``{value}`` in it becomes the offending value (``"must be a positive number such
  as 1.25, got {value}"``).
* ``x-top`` on the root schema says what the top level must hold, for a file that is empty or
  not a mapping (``"a scenario is a mapping with keys adventurers, monsters, ..."``).
"""

from __future__ import annotations

import difflib
import json
import re
import unicodedata
from collections.abc import Iterator
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import CatalogueError
from .yamlsrc import Lines, dotted, one_line

if TYPE_CHECKING:
    import jsonschema

#: The schemas of tokengen's YAML inputs (``data/<name>.schema.json``).
SCHEMAS = ("catalogue", "scenario", "jobs", "profiles", "game_defaults", "catalogue-fields")


@cache
def schema(name: str) -> dict[str, Any]:
    """The JSON Schema called ``name`` (one of :data:`SCHEMAS`) as a dict.

    Raises:
        FileNotFoundError: no such schema in the package data (a bug, not bad input).
    """
    return json.loads(resources.files("tokengen").joinpath(f"data/{name}.schema.json").read_text("utf-8"))


def _same_key(value: Any) -> Any:
    """A hashable form of a JSON value, equal exactly when JSON Schema calls two values equal
    (``1 == 1.0``; ``true != 1``; mappings regardless of key order)."""
    if isinstance(value, bool):
        return ("b", value)
    if isinstance(value, (int, float)):
        return ("n", value)
    if isinstance(value, list):
        return ("l", tuple(_same_key(v) for v in value))
    if isinstance(value, dict):
        return ("d", frozenset((k, _same_key(v)) for k, v in value.items()))
    return ("s", value)


def _unique_items(validator: Any, unique: bool, instance: Any, schema: dict[str, Any]) -> Iterator[jsonschema.ValidationError]:
    """``uniqueItems`` in linear time: jsonschema's own compares every pair when the values
    cannot be sorted (a list of 20,000 mixed values took 60 s)."""
    import jsonschema

    if not unique or not validator.is_type(instance, "array"):
        return
    seen: set[Any] = set()
    for item in instance:
        key = _same_key(item)
        if key in seen:
            yield jsonschema.ValidationError(f"{_show(item)} is given twice")
            return
        seen.add(key)


@cache
def _ecma(pattern: str) -> re.Pattern[str]:
    """A schema pattern with ECMA-262's ``$`` (the end of the text only): Python's ``$`` also
    matches before a final newline, which let an id such as ``"a\\n"`` through."""
    return re.compile(re.sub(r"(?<!\\)\$$", r"\\Z", pattern))


def _pattern(validator: Any, pattern: str, instance: Any, schema: dict[str, Any]) -> Iterator[jsonschema.ValidationError]:
    """``pattern`` with ECMA-262 anchoring (see :func:`_ecma`)."""
    import jsonschema

    if validator.is_type(instance, "string") and not _ecma(pattern).search(instance):
        yield jsonschema.ValidationError(f"{_show(instance)} does not match {pattern!r}")


@cache
def _validator_class() -> Any:
    """The schema validator class. jsonschema is imported on the first validation, not at
    start-up (it is the largest import of a build). JSON Schema counts 1.0 as an integer;
    Python's range() does not: whole numbers are ints here. uniqueItems and pattern: linear
    time and ECMA-262 anchoring (issue 10)."""
    import jsonschema

    return jsonschema.validators.extend(
        jsonschema.Draft202012Validator,
        validators={"uniqueItems": _unique_items, "pattern": _pattern},
        type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine(
            "integer", lambda checker, value: isinstance(value, int) and not isinstance(value, bool)),
    )


#: Keywords :func:`surely_valid` knows; annotations it may ignore. Any other keyword makes it give up.
_ANNOTATIONS = frozenset({"$schema", "$id", "$defs", "title", "description", "default", "examples", "x-message", "x-top"})
_JSON_TYPES: dict[str, Any] = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),  # strict: 1.0 is not whole here
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
}


#: Keywords checked by kind of value after the others (strings, mappings, lists, numbers).
_GROUPED = frozenset({"minLength", "maxLength", "pattern", "properties", "additionalProperties", "propertyNames",
                      "minProperties", "maxProperties", "items", "minItems", "maxItems", "uniqueItems", "minimum", "maximum",
                      "exclusiveMinimum"})


class _Unsure(Exception):
    """Raised inside :func:`surely_valid` when the answer needs the full validator."""


def surely_valid(data: Any, root: dict[str, Any]) -> bool:
    """True only when ``data`` certainly meets the JSON Schema ``root`` as :func:`validate` reads
    it (strict integers, ECMA-262 ``$``, linear ``uniqueItems``); False when it does not, or when
    the question needs more than the plain keywords tokengen's schemas use.

    This is a pre-check, not a second validator: a False sends the data to jsonschema, which
    finds and words every problem. A True skips importing jsonschema, half the start-up of a
    small build (issue 11). It knows ``type``, ``enum``, ``pattern``, ``minLength``/``maxLength``,
    ``minimum``/``maximum``/``exclusiveMinimum``, ``properties``, ``required``, ``additionalProperties``,
    ``propertyNames``, ``minProperties``/``maxProperties``, ``items``, ``minItems``/``maxItems``,
    ``uniqueItems``, ``allOf``, ``oneOf``, ``unevaluatedProperties: false`` and local ``$ref``;
    any other keyword, a key that is not text, an unhashable value (a YAML set) or nesting deeper
    than Python's recursion limit gives False. ``tests/test_schemas_fast.py``
    holds it to jsonschema's verdict.
    """
    try:
        return _meets(data, root, root)
    except (_Unsure, RecursionError, KeyError, TypeError):
        return False


def _meets(value: Any, node: Any, root: dict[str, Any]) -> bool:
    if node is True or node == {}:
        return True
    if not isinstance(node, dict) or isinstance(value, dict) and not all(isinstance(k, str) for k in value):
        raise _Unsure
    for key, want in node.items():
        if key in _ANNOTATIONS or key in _GROUPED:
            continue
        if key == "type":
            if not any(_JSON_TYPES[t](value) for t in ([want] if isinstance(want, str) else want)):
                return False
        elif key == "enum":
            if _same_key(value) not in {_same_key(v) for v in want}:
                return False
        elif key == "$ref":
            if not _meets(value, _target(want, root), root):
                return False
        elif key == "allOf":
            if not all(_meets(value, sub, root) for sub in want):
                return False
        elif key == "oneOf":
            if sum(_meets(value, sub, root) for sub in want) != 1:
                return False
        elif key == "unevaluatedProperties" and want is False:
            if isinstance(value, dict) and not set(value) <= _evaluated(value, node, root):
                return False
        elif key == "required":
            if isinstance(value, dict) and any(k not in value for k in want):
                return False
        else:
            raise _Unsure
    if isinstance(value, str):
        return _string_ok(value, node)
    if isinstance(value, dict):
        return _mapping_ok(value, node, root)
    if isinstance(value, list):
        return _list_ok(value, node, root)
    if _JSON_TYPES["number"](value):
        low = node.get("exclusiveMinimum")
        return node.get("minimum", value) <= value <= node.get("maximum", value) and (low is None or value > low)
    return True


def _target(ref: Any, root: dict[str, Any]) -> Any:
    """The subschema a local ``$ref`` ("#/$defs/name") points at."""
    if not isinstance(ref, str) or not ref.startswith("#/") or "~" in ref:
        raise _Unsure
    target: Any = root
    for part in ref[2:].split("/"):
        target = target[part]
    return target


def _string_ok(value: str, node: dict[str, Any]) -> bool:
    if not node.get("minLength", 0) <= len(value) <= node.get("maxLength", len(value)):
        return False
    return "pattern" not in node or bool(_ecma(node["pattern"]).search(value))


def _mapping_ok(value: dict[str, Any], node: dict[str, Any], root: dict[str, Any]) -> bool:
    if not node.get("minProperties", 0) <= len(value) <= node.get("maxProperties", len(value)):
        return False
    known, extra = node.get("properties", {}), node.get("additionalProperties", True)
    return all(_meets(k, node.get("propertyNames", True), root) and _meets(v, known[k] if k in known else extra, root)
               for k, v in value.items())


def _list_ok(value: list[Any], node: dict[str, Any], root: dict[str, Any]) -> bool:
    if not node.get("minItems", 0) <= len(value) <= node.get("maxItems", len(value)):
        return False
    if node.get("uniqueItems") and len({_same_key(v) for v in value}) != len(value):
        return False
    return all(_meets(v, node.get("items", True), root) for v in value)


def _evaluated(value: dict[str, Any], node: dict[str, Any], root: dict[str, Any]) -> set[str]:
    """The keys of ``value`` that ``node`` (already met) or its allOf, $ref and matching oneOf
    subschemas name in ``properties``, or all of them under ``additionalProperties``."""
    if not isinstance(node, dict):
        return set()
    if "additionalProperties" in node:
        return set(value)
    found = set(node.get("properties", {})) & set(value)
    subs = list(node.get("allOf", ())) + [sub for sub in node.get("oneOf", ()) if _meets(value, sub, root)]
    if "$ref" in node:
        subs.append(_target(node["$ref"], root))
    for sub in subs:
        found |= _evaluated(value, sub, root)
    return found


def validate(path: Path, data: Any, lines: Lines, name: str) -> list[CatalogueError]:
    """Check ``data`` (as read by :func:`~tokengen.sources.yamlsrc.read_yaml` from ``path``) against the
    schema ``name``.

    Returns:
        One :class:`CatalogueError` per problem (file, line, field, message), sorted by line; an
        unknown key that explains a missing one ("titel" for "title") is reported once. Empty
        when ``data`` is valid.
    """
    root = schema(name)
    top = root.get("x-top", "a mapping of keys")
    if root.get("type") == "object" and not isinstance(data, dict):
        if data is None:
            return [CatalogueError(path, f"the file holds nothing: it must be {top}", line=lines.get((), 1))]
        return [CatalogueError(path, f"the top level must be {top}, not {_what(data)}", line=lines.get((), 1))]
    if surely_valid(data, root):  # the common case, without importing jsonschema (issue 11)
        return []
    errors = list(_validator_class()(root).iter_errors(data))
    rank = {"additionalProperties": 0}  # an unknown key explains a missing one: report it first
    problems = [(explain(path, error, lines), rank.get(str(error.validator), 1)) for error in errors]
    ordered = [p for p, _ in sorted(problems, key=lambda pr: (pr[0].line or 0, pr[1], pr[0].field or ""))]
    return list({str(p): p for p in ordered}.values())


def check(path: Path, data: Any, lines: Lines, name: str) -> None:
    """Like :func:`validate`, for callers that stop at the first problem.

    Raises:
        CatalogueError: the first problem, in line order.
    """
    problems = validate(path, data, lines, name)
    if problems:
        raise problems[0]


def explain(path: Path, error: jsonschema.ValidationError, lines: Lines) -> CatalogueError:
    """One jsonschema error as ``file:line: field: message`` in tokengen's words."""
    where = tuple(error.absolute_path)
    line = line_at(lines, where)
    field = dotted(where) or None
    kind = error.validator
    comment = _comment_value(path, line) if error.instance is None and where else None
    if comment is not None:
        return CatalogueError(path, f"no value: an unquoted '#' starts a YAML comment, so '{comment}' was read as one; "
                                    f"put the value in quotes: {where[-1]}: \"{comment}\"", line=line, field=field)
    schema = error.schema if isinstance(error.schema, dict) else {}
    custom = schema.get("x-message")
    if kind == "additionalProperties" and isinstance(error.instance, dict):
        allowed = sorted(schema.get("properties", {}))
        extra = sorted(set(error.instance) - set(allowed))
        key = extra[0]
        hint = suggest(key, allowed)
        known = f" (known keys: {', '.join(allowed)})" if not hint else ""
        return CatalogueError(path, f"unknown key{_foreign(key)}{hint}{known}", line=line_at(lines, where + (key,)), field=dotted(where + (key,)))
    if kind == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        known = schema.get("properties", {})
        for key in error.instance if isinstance(error.instance, dict) else ():
            if key not in known and suggest(key, [missing]):  # "titel" explains the missing "title"
                return CatalogueError(path, f"unknown key{_foreign(key)}{suggest(key, [missing])}", line=line_at(lines, where + (key,)), field=dotted(where + (key,)))
        return CatalogueError(path, f"missing required key '{missing}'", line=line, field=field)
    if kind in ("oneOf", "anyOf") and error.context and "#rrggbb" not in str(schema.get("description", "")):
        branches: dict[Any, list[jsonschema.ValidationError]] = {}
        for sub in error.context:
            branches.setdefault(sub.schema_path[0], []).append(sub)
        fitting = [subs for subs in branches.values() if not any(s.validator == "type" and not s.relative_path for s in subs)]
        if fitting:  # the value has the shape of a branch: explain what is wrong inside the first such
            first = min(fitting[0], key=lambda s: (s.validator != "additionalProperties", len(s.relative_path)))
            return explain(path, first, lines)
        if not custom:
            kinds = [s.validator_value for subs in branches.values() for s in subs if s.validator == "type" and not s.relative_path]
            return CatalogueError(path, f"expected {' or '.join(dict.fromkeys(_kind(k) for k in kinds))}, got {_show(error.instance)}", line=line, field=field)
    if custom and kind == "maxLength" and isinstance(error.instance, str):  # the length, not the first 60 of thousands of characters
        shown = f"{len(error.instance)} characters (at most {error.validator_value})"
        return CatalogueError(path, custom.replace("{value}", shown), line=line, field=field)
    if custom:
        return CatalogueError(path, custom.replace("{value}", _show(error.instance)), line=line, field=field)
    if kind == "enum" and isinstance(error.validator_value, list):
        options = [str(o) for o in error.validator_value]
        hint = suggest(str(error.instance), options) if isinstance(error.instance, str) else ""
        return CatalogueError(path, f"unknown value {_show(error.instance)}{hint or ' (use one of ' + ', '.join(options) + ')'}", line=line, field=field)
    if kind == "type":
        return CatalogueError(path, f"expected {_kind(error.validator_value)}, got {_show(error.instance)}", line=line, field=field)
    if kind == "oneOf" and "#rrggbb" in str(schema.get("description", "")):
        return CatalogueError(path, f'expected a colour "#rrggbb" or [c, m, y, k] with channels 0-1, got {_show(error.instance)}', line=line, field=field)
    if kind == "pattern" and where and where[-1] == "id":
        return CatalogueError(path, f"id {_show(error.instance)} must be lowercase letters, digits, '-' or '_'", line=line, field=field)
    if kind in ("minimum", "maximum"):
        bound = "at least" if kind == "minimum" else "at most"
        return CatalogueError(path, f"must be {bound} {error.validator_value}, got {_show(error.instance)}", line=line, field=field)
    if kind == "maxLength" and isinstance(error.instance, str):
        return CatalogueError(path, f"text is longer than {error.validator_value} characters ({len(error.instance)})", line=line, field=field)
    if kind == "minLength" and error.validator_value == 1:
        return CatalogueError(path, "must not be empty text", line=line, field=field)
    if kind == "minItems" and error.validator_value == 1:
        return CatalogueError(path, "must not be empty", line=line, field=field)
    if kind == "maxItems":
        return CatalogueError(path, f"has more than {error.validator_value} entries", line=line, field=field)
    if kind == "uniqueItems":
        return CatalogueError(path, "lists the same entry twice", line=line, field=field)
    message = error.message if len(error.message) < 160 else error.message[:157] + "..."
    return CatalogueError(path, one_line(message, 160), line=line, field=field)


def _comment_value(path: Path, line: int | None) -> str | None:
    """When source line ``line`` of ``path`` reads ``key: #text`` (a value YAML took for a
    comment), ``"#text"``; else None."""
    if not line:
        return None
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for number, text in enumerate(f, 1):
                if number == line:
                    match = re.search(r":\s+(#[^\s#]*)", text)
                    return match.group(1)[:40] if match else None
    except OSError:
        return None
    return None


def line_at(lines: Lines, where: tuple[Any, ...]) -> int | None:
    """The 1-based line of the value at ``where``, or of its nearest enclosing value."""
    while where not in lines and where:
        where = where[:-1]
    return lines.get(where)


def suggest(word: str, choices: list[str] | tuple[str, ...]) -> str:
    """``"; did you mean 'x'?"`` for the closest choice (case-insensitive), or ``""``."""
    lowered = {c.lower(): c for c in choices}
    close = difflib.get_close_matches(word.lower(), list(lowered), n=1, cutoff=0.6)
    return f"; did you mean '{lowered[close[0]]}'?" if close else ""


def _what(value: Any) -> str:
    """A value's kind in words, for messages."""
    if isinstance(value, bool):
        return "true/false"
    return {list: "a list", dict: "a mapping", str: "text", int: "a number", float: "a number"}.get(type(value), "nothing" if value is None else type(value).__name__)


def _kind(name: Any) -> str:
    names = {"string": "text", "integer": "a whole number", "number": "a number", "array": "a list", "object": "a mapping",
             "boolean": "true or false", "null": "nothing"}
    return names.get(name, str(name)) if isinstance(name, str) else " or ".join(_kind(n) for n in name)


def _show(value: Any) -> str:
    text = one_line(repr(value))
    return text if len(text) <= 60 else text[:57] + "..."


def _foreign(text: str) -> str:
    """For text that looks plain but holds non-ASCII look-alikes (Cyrillic ``і`` in ``tіtle``):
    ``" (holds U+0456 CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I)"``; else ``""``."""
    odd = [ch for ch in dict.fromkeys(text) if not ch.isascii()]
    if not odd or not any(ch.isascii() and ch.isalpha() for ch in text):
        return ""
    return " (holds " + ", ".join(f"U+{ord(ch):04X} {unicodedata.name(ch, '?')}" for ch in odd[:2]) + ")"


def _numbers(data: Any, where: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], float]]:
    """Every float in ``data`` with its path (validated data is shallow: no deep recursion)."""
    if isinstance(data, float):
        yield where, data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield from _numbers(value, where + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _numbers(value, where + (i,))
