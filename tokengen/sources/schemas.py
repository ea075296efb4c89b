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
* ``x-kind`` on a ``oneOf`` of mappings each requiring one key (a template element: ``text``,
  ``image``, ...) names what they are (``"element"``): the problem is explained by the branch whose
  key the mapping holds, or as a missing, misspelt or doubled kind.
* ``x-for`` on a mapping names it in an unknown-key message (``"unknown key for a text element"``);
  ``x-noun`` on an ``enum`` names its values (``"unknown alignment 'lft'"``).

A valid file is passed by jsonschema-rs (:func:`fast_valid`) without importing jsonschema; only a
file with a problem is read again by jsonschema, whose errors carry what the messages need.
"""

from __future__ import annotations

import difflib
import json
import os
import re
import unicodedata
from collections.abc import Callable, Iterator
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import CatalogueError
from .yamlsrc import Lines, dotted, floats, one_line, plain, unquoted_comment

if TYPE_CHECKING:
    import jsonschema

#: The schemas of tokengen's YAML inputs (``data/<name>.schema.json``).
SCHEMAS = ("catalogue", "scenario", "jobs", "profiles", "game_defaults", "catalogue-fields", "template", "project", "sheet")


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
            yield jsonschema.ValidationError(f"{show(item)} is given twice")
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
        yield jsonschema.ValidationError(f"{show(instance)} does not match {pattern!r}")


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


def _retrieve(uri: str) -> Any:
    """The tokengen schema a ``$ref`` names by its ``$id`` (``https://tokengen.invalid/template.schema.json``):
    read when first referred to, so checking a file loads only the schemas it uses.

    Raises:
        FileNotFoundError: no such schema in the package data.
    """
    return schema(uri.rsplit("/", 1)[-1].split("#")[0].removesuffix(".schema.json"))


@cache
def _compiled(text: str) -> Any:
    """jsonschema-rs's validator of the schema ``text`` (JSON): the yes/no on a valid file without
    importing jsonschema, the largest import of a build (issue 11). It reads a schema as
    jsonschema does but counts ``1.0`` as an integer; :func:`fast_valid` sends such documents to
    jsonschema."""
    import jsonschema_rs

    return jsonschema_rs.validator_for(json.loads(text), retriever=_retrieve)


def fast_valid(data: Any, name: str) -> bool:
    """True only when ``data`` meets schema ``name`` as :func:`validate` reads it, decided by
    jsonschema-rs; False when it does not, or holds what jsonschema-rs cannot take (a key that is
    not text, a date, a set) or a whole float (``1.0``: jsonschema-rs calls it an integer,
    tokengen does not). A False sends the data to jsonschema, which finds and words every
    problem. ``tests/sources/test_schemas_fast.py`` holds it to jsonschema's verdict. Also False
    when jsonschema-rs is not installed (it is the ``fast`` extra: the verdict is the same, only
    slower)."""
    try:
        if any(value.is_integer() for _, value in floats(data)):
            return False
        return bool(_compiled(json.dumps(schema(name))).is_valid(plain(data)))  # 007 and 1.10 as the numbers they are
    except (ValueError, TypeError, OverflowError, RecursionError, ImportError):
        return False


def _registry() -> Any:
    """jsonschema's registry of the tokengen schemas, each read when first referred to (see :func:`_retrieve`)."""
    from referencing import Registry, Resource

    return Registry(retrieve=lambda uri: Resource.from_contents(_retrieve(uri)))  # type: ignore[call-arg]  # types-jsonschema types Registry without its retrieve keyword (referencing takes it)


def full_validator(name: str) -> Any:
    """jsonschema's validator of schema ``name`` (tokengen's strict integers, ECMA ``$``, linear
    ``uniqueItems``), for wording every problem of a file that is not valid."""
    return _validator_class()(schema(name), registry=_registry())


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
        return [CatalogueError(path, f"the top level must be {top}, not {what(data)}", line=lines.get((), 1))]
    long = _over_long(path, data, lines, root, ())
    if long:  # refused before jsonschema builds a validator per entry (100,001 variants: 6 s)
        return long
    if fast_valid(data, name):  # the common case, without importing jsonschema (issue 11)
        return []
    errors = list(full_validator(name).iter_errors(data))
    rank = {"additionalProperties": 0}  # an unknown key explains a missing one: report it first
    problems = [(explain(path, error, lines), rank.get(str(error.validator), 1)) for error in errors]
    ordered = [p for p, _ in sorted(problems, key=lambda pr: (pr[0].line or 0, pr[1], pr[0].field or ""))]
    return list({str(p): p for p in ordered}.values())


def _over_long(path: Path, data: Any, lines: Lines, node: dict[str, Any], where: tuple[Any, ...]) -> list[CatalogueError]:
    """Lists of ``data`` longer than their ``maxItems`` in ``node`` (a schema reached through
    object ``properties`` only), each as the problem jsonschema would give it (and a repeated
    entry, for a list whose items are unique), found without validating their entries; empty
    when none is. The file's other problems are then not listed: the long list comes first."""
    out: list[CatalogueError] = []
    if not isinstance(data, dict):
        return out
    for key, sub in node.get("properties", {}).items():
        value = data.get(key)
        if not isinstance(sub, dict) or value is None:
            continue
        at = (*where, key)
        if isinstance(value, list) and isinstance(sub.get("maxItems"), int) and len(value) > sub["maxItems"]:
            out.append(CatalogueError(path, f"has more than {sub['maxItems']} entries", line=lines.get(at), field=dotted(at)))
            if sub.get("uniqueItems") and len({_same_key(v) for v in value}) < len(value):  # linear, as _unique_items
                out.append(CatalogueError(path, "lists the same entry twice", line=lines.get(at), field=dotted(at)))
        elif isinstance(value, dict):
            out += _over_long(path, value, lines, sub, at)
    return out


def check(path: Path, data: Any, lines: Lines, name: str) -> None:
    """Like :func:`validate`, for callers that stop at the first problem.

    Raises:
        CatalogueError: the first problem, in line order.
    """
    problems = validate(path, data, lines, name)
    if problems:
        raise problems[0]


def explain(path: Path, error: jsonschema.ValidationError, lines: Lines) -> CatalogueError:
    """One jsonschema error as ``file:line: field: message`` in tokengen's words.

    The order: a key left without a value (its comment shown), then the errors that point at
    another place (:data:`_ELSEWHERE`: a mapping's kind, an unknown or missing key, the branch of a
    ``oneOf``/``anyOf`` the value has the shape of), then the schema's own ``x-message``, then the
    words of the failing keyword (:data:`_WORDS`, one small function each), else jsonschema's
    message cut to 160 characters.
    """
    where = tuple(error.absolute_path)
    line = line_at(lines, where)
    field = dotted(where) or None
    comment = _comment_value(path, line) if error.instance is None and where else None
    if comment is not None:
        return CatalogueError(path, f"no value: {unquoted_comment(str(where[-1]), comment)}", line=line, field=field)
    for elsewhere in _ELSEWHERE:
        found = elsewhere(path, error, lines)
        if found is not None:
            return found
    if error.validator in ("maxItems", "maxProperties"):  # the reason, never the value cut short (issue 37)
        return CatalogueError(path, f"has more than {error.validator_value} entries", line=line, field=field)
    schema = error.schema if isinstance(error.schema, dict) else {}
    message = _custom(error, schema) or _words(error, schema, where)
    return CatalogueError(path, message, line=line, field=field)


def _custom(error: jsonschema.ValidationError, schema: dict[str, Any]) -> str | None:
    """The schema's own ``x-message`` with ``{value}`` filled in (a text too long by its length,
    not thousands of its characters), or None when it has none."""
    custom = schema.get("x-message")
    if not custom:
        return None
    value = (f"{len(error.instance)} characters (at most {error.validator_value})"
             if error.validator == "maxLength" and isinstance(error.instance, str) else show(error.instance))
    return str(custom).replace("{value}", value)


def _words(error: jsonschema.ValidationError, schema: dict[str, Any], where: tuple[Any, ...]) -> str:
    """The words of the failing keyword (:data:`_WORDS`), else jsonschema's message cut to 160
    characters."""
    words = _WORDS.get(str(error.validator))
    message = words(error, schema, where) if words else None
    if message is None:
        message = one_line(error.message if len(error.message) < 160 else error.message[:157] + "...", 160)
    return message


def _unknown_key(path: Path, error: jsonschema.ValidationError, lines: Lines) -> CatalogueError | None:
    """``additionalProperties``: the first unknown key, at its own line, with a suggestion or the known keys."""
    if error.validator != "additionalProperties" or not isinstance(error.instance, dict):
        return None
    schema = error.schema if isinstance(error.schema, dict) else {}
    where = tuple(error.absolute_path)
    allowed = sorted(schema.get("properties", {}))
    key = sorted(set(error.instance) - set(allowed))[0]
    hint = suggest(key, allowed)
    known = f" (known keys: {', '.join(allowed)})" if not hint else ""
    owner = f" for {schema['x-for']}" if "x-for" in schema else ""
    return CatalogueError(path, f"unknown key{owner}{foreign(key)}{hint}{known}", line=line_at(lines, where + (key,)), field=dotted(where + (key,)))


def _missing_key(path: Path, error: jsonschema.ValidationError, lines: Lines) -> CatalogueError | None:
    """``required``: the missing key, or the misspelt key that explains it (``titel`` for ``title``)."""
    if error.validator != "required":
        return None
    schema = error.schema if isinstance(error.schema, dict) else {}
    where = tuple(error.absolute_path)
    missing = error.message.split("'")[1] if "'" in error.message else error.message
    known = schema.get("properties", {})
    for key in error.instance if isinstance(error.instance, dict) else ():
        if key not in known and suggest(key, [missing]):
            return CatalogueError(path, f"unknown key{foreign(key)}{suggest(key, [missing])}", line=line_at(lines, where + (key,)), field=dotted(where + (key,)))
    return CatalogueError(path, f"missing required key '{missing}'", line=line_at(lines, where), field=dotted(where) or None)


def _a_kind(path: Path, error: jsonschema.ValidationError, lines: Lines) -> CatalogueError | None:
    """A ``oneOf`` marked ``x-kind`` (:func:`_explain_kind`)."""
    if error.validator == "oneOf" and isinstance(error.schema, dict) and "x-kind" in error.schema:
        return _explain_kind(path, error, lines)
    return None


def _a_branch(path: Path, error: jsonschema.ValidationError, lines: Lines) -> CatalogueError | None:
    """``oneOf``/``anyOf`` (not a colour's): what is wrong inside the first branch the value has
    the shape of, or, with no such branch and no ``x-message``, the types the branches take."""
    schema = error.schema if isinstance(error.schema, dict) else {}
    if error.validator not in ("oneOf", "anyOf") or not error.context or "#rrggbb" in str(schema.get("description", "")):
        return None
    branches = _by_branch(error.context)
    fitting = [subs for subs in branches.values() if not any(_wrong_type(s) for s in subs)]
    if fitting:
        return explain(path, _first_problem(fitting[0]), lines)
    if schema.get("x-message"):
        return None
    kinds = [s.validator_value for subs in branches.values() for s in subs if _wrong_type(s)]
    return _error_at(path, lines, tuple(error.absolute_path),
                     f"expected {' or '.join(dict.fromkeys(_kind(k) for k in kinds))}, got {show(error.instance)}")


def _by_branch(errors: list[jsonschema.ValidationError]) -> dict[Any, list[jsonschema.ValidationError]]:
    """A ``oneOf``'s or ``anyOf``'s ``errors`` grouped by the branch (its index) they are in."""
    branches: dict[Any, list[jsonschema.ValidationError]] = {}
    for sub in errors:
        branches.setdefault(sub.schema_path[0], []).append(sub)
    return branches


def _wrong_type(error: jsonschema.ValidationError) -> bool:
    """Whether a branch's ``error`` is that the value itself is not of the branch's type."""
    return error.validator == "type" and not error.relative_path


def _first_problem(errors: list[jsonschema.ValidationError]) -> jsonschema.ValidationError:
    """The one of a branch's ``errors`` to explain: an unknown key first, else the shallowest."""
    return min(errors, key=lambda s: (s.validator != "additionalProperties", len(s.relative_path)))


def _error_at(path: Path, lines: Lines, where: tuple[Any, ...], message: str) -> CatalogueError:
    """``message`` about the value at ``where`` in the file ``path``: its line, its field path."""
    return CatalogueError(path, message, line=line_at(lines, where), field=dotted(where) or None)


#: The errors explained at another place than the failing value's own words, in order.
_ELSEWHERE: tuple[Callable[[Path, jsonschema.ValidationError, Lines], CatalogueError | None], ...] = (
    _a_kind, _unknown_key, _missing_key, _a_branch)

if TYPE_CHECKING:
    _Words = Callable[[jsonschema.ValidationError, dict[str, Any], tuple[Any, ...]], str | None]


def _enum(error: jsonschema.ValidationError, schema: dict[str, Any], where: tuple[Any, ...]) -> str | None:
    if not isinstance(error.validator_value, list):
        return None
    options = [str(o) for o in error.validator_value]
    hint = suggest(str(error.instance), options) if isinstance(error.instance, str) else ""
    return f"unknown {schema.get('x-noun', 'value')} {show(error.instance)}{hint or ' (use one of ' + ', '.join(options) + ')'}"


def _colour(error: jsonschema.ValidationError, schema: dict[str, Any], where: tuple[Any, ...]) -> str | None:
    if "#rrggbb" not in str(schema.get("description", "")):
        return None
    return f'expected a colour "#rrggbb" or [c, m, y, k] with channels 0-1, got {show(error.instance)}'


def _id_pattern(error: jsonschema.ValidationError, schema: dict[str, Any], where: tuple[Any, ...]) -> str | None:
    return f"id {show(error.instance)} must be lowercase letters, digits, '-' or '_'" if where and where[-1] == "id" else None


def _bound(error: jsonschema.ValidationError, schema: dict[str, Any], where: tuple[Any, ...]) -> str | None:
    return f"must be {'at least' if error.validator == 'minimum' else 'at most'} {error.validator_value}, got {show(error.instance)}"


def _too_long(error: jsonschema.ValidationError, schema: dict[str, Any], where: tuple[Any, ...]) -> str | None:
    if not isinstance(error.instance, str):
        return None
    return f"text is longer than {error.validator_value} characters ({len(error.instance)})"


#: The words for each JSON-Schema keyword: a function of the error, its schema and the value's
#: place, returning None where jsonschema's own message serves better.
_WORDS: dict[str, _Words] = {
    "enum": _enum,
    "type": lambda error, schema, where: f"expected {_kind(error.validator_value)}, got {show(error.instance)}",
    "oneOf": _colour,
    "pattern": _id_pattern,
    "minimum": _bound,
    "maximum": _bound,
    "maxLength": _too_long,
    "minLength": lambda error, schema, where: "must not be empty text" if error.validator_value == 1 else None,
    "minItems": lambda error, schema, where: "must not be empty" if error.validator_value == 1 else None,
    "minProperties": lambda error, schema, where: "must not be empty" if error.validator_value == 1 else None,
    "uniqueItems": lambda error, schema, where: "lists the same entry twice",
}


def _explain_kind(path: Path, error: jsonschema.ValidationError, lines: Lines) -> CatalogueError:
    """A ``oneOf`` marked ``x-kind``: the mapping's kind is the one branch's required key it holds;
    explain that branch's problem, or the kind being absent, misspelt or given twice."""
    where = tuple(error.absolute_path)
    schema = error.schema if isinstance(error.schema, dict) else {}
    noun = schema["x-kind"]
    kinds = [branch["required"][0] for branch in schema["oneOf"]]
    if not isinstance(error.instance, dict):
        return _error_at(path, lines, where, f"expected a mapping with one of {', '.join(kinds)}, got {show(error.instance)}")
    present = [k for k in kinds if k in error.instance]
    if len(present) > 1:
        return _error_at(path, lines, where, f"one {noun} has one kind; this one has {' and '.join(present)}")
    if not present:
        return _kind_missing(path, error, error.instance, lines, noun, kinds)
    branch = kinds.index(present[0])
    inside = [sub for sub in error.context or () if sub.schema_path and sub.schema_path[0] == branch]
    if not inside:  # cannot happen for a failed oneOf whose other branches all lack their key
        return _error_at(path, lines, where, one_line(error.message, 160))
    return explain(path, _first_problem(inside), lines)


def _kind_missing(path: Path, error: jsonschema.ValidationError, instance: dict[Any, Any], lines: Lines, noun: str,
                  kinds: list[str]) -> CatalogueError:
    """A mapping that holds no kind's key: an unknown kind (with a did-you-mean) at the first
    key no kind takes (``{arrow: …, from: …}`` is an unknown kind 'arrow', not a misspelt
    'frame'; a key some kind takes is never blamed), else that it needs one."""
    where = tuple(error.absolute_path)
    schema = error.schema if isinstance(error.schema, dict) else {}
    taken = {key for branch in schema["oneOf"] for key in branch.get("properties", {})}
    near = next((k for k in instance if k not in taken), None)
    if near is not None and suggest(str(near), kinds):
        return _error_at(path, lines, where + (near,), f"unknown {noun} kind{suggest(str(near), kinds)}")
    return _error_at(path, lines, where, f"{'an' if noun[:1] in 'aeiou' else 'a'} {noun} needs one of {', '.join(kinds)}")


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


#: Names other card tools use (Squib, protograf, nanDECK, CSS, American spelling) for ours: the
#: suggestion when the name on the right is one of the choices (``font_size`` → ``size``, which
#: spelling alone would take for ``min_size``).
OTHER_NAMES = {
    "font_size": "size", "fontsize": "size", "font-size": "size", "point_size": "size", "pointsize": "size",
    "font_family": "font", "fontfamily": "font", "font-family": "font", "typeface": "font",
    "color": "colour", "font_color": "colour", "fontcolor": "colour", "text_color": "colour",
}


def suggest(word: str, choices: list[str] | tuple[str, ...]) -> str:
    """``"; did you mean 'x'?"`` for the closest choice (case-insensitive), or ``""``: another
    tool's name for a choice (:data:`OTHER_NAMES`), else among difflib's close matches one that
    begins as ``word`` does (3 letters or more: ``rarity`` → ``rare``, not ``art``), else the closest."""
    lowered = {c.lower(): c for c in choices}
    key = word.lower()
    other = OTHER_NAMES.get(key)
    if other is not None and other in lowered:
        return f"; did you mean '{lowered[other]}'?"
    close = difflib.get_close_matches(key, list(lowered), n=max(len(lowered), 1), cutoff=0.6)
    if not close:
        return ""
    best = max(close, key=lambda c: len(os.path.commonprefix([key, c])) >= 3)  # ties keep difflib's order
    return f"; did you mean '{lowered[best]}'?"


def what(value: Any) -> str:
    """A value's kind in words, for messages."""
    if isinstance(value, bool):
        return "true/false"
    return {list: "a list", dict: "a mapping", str: "text", int: "a number", float: "a number"}.get(type(value), "nothing" if value is None else type(value).__name__)


def _kind(name: Any) -> str:
    names = {"string": "text", "integer": "a whole number", "number": "a number", "array": "a list", "object": "a mapping",
             "boolean": "true or false", "null": "nothing"}
    return names.get(name, str(name)) if isinstance(name, str) else " or ".join(_kind(n) for n in name)


def show(value: Any) -> str:
    """A value as messages quote it: its repr on one line, at most 60 characters."""
    text = one_line(repr(value))
    return text if len(text) <= 60 else text[:57] + "..."


def foreign(text: str) -> str:
    """For text that looks plain but holds non-ASCII look-alikes (Cyrillic ``і`` in ``tіtle``):
    ``" (holds U+0456 CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I)"``; else ``""``."""
    odd = [ch for ch in dict.fromkeys(text) if not ch.isascii()]
    if not odd or not any(ch.isascii() and ch.isalpha() for ch in text):
        return ""
    return " (holds " + ", ".join(f"U+{ord(ch):04X} {unicodedata.name(ch, '?')}" for ch in odd[:2]) + ")"
