"""The schema layer's pre-check (:func:`tokengen.sources.schemas.surely_valid`, issue 11) against
jsonschema itself: on every shipped schema, for documents near the real ones, the pre-check says
"valid" exactly when jsonschema finds no problem, so skipping jsonschema on a True can never let a
bad file through; and the shipped files take the fast path (tests/test_package.py checks that a
build of the bundled catalogue imports no jsonschema)."""

from __future__ import annotations

import copy
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import CATALOGUE
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tokengen.sources import schemas
from tokengen.sources.yamlsrc import read_yaml

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "tokengen" / "data"
# one real document per schema: the starting points the documents under test are made from
BASES = {
    "catalogue": CATALOGUE,
    "catalogue-fields": ROOT / "examples" / "status-tokens" / "status.yaml",
    "scenario": Path(__file__).parent / "data" / "scenarios" / "fight.yaml",
    "jobs": ROOT / "examples" / "batch-jobs.yaml",
    "profiles": PACKAGE / "profiles.yaml",
    "game_defaults": PACKAGE / "game_defaults.yaml",
}


def full_verdict(data: Any, name: str) -> bool:
    """jsonschema's own answer (tokengen's validator class, no pre-check): no problem at all."""
    root = schemas.schema(name)
    return not any(True for _ in schemas._validator_class()(root).iter_errors(data))


def _keys(node: Any) -> set[str]:
    """Every property name any schema mentions, so that changed documents hit real keys."""
    found: set[str] = set()
    if isinstance(node, dict):
        found |= set(node.get("properties", {}))
        for value in node.values():
            found |= _keys(value)
    elif isinstance(node, list):
        for value in node:
            found |= _keys(value)
    return found


KEYS = sorted(set().union(*(_keys(schemas.schema(name)) for name in schemas.SCHEMAS)) | {"titel", "", "x"})
SCALARS = st.sampled_from([None, True, False, 0, 1, -1, 2, 3, 40, 1001, 10**6, 0.0, 1.0, 0.5, 1.5, -0.25, "", "a", "a\n",
                           "#ff0000", "#FF00zz", "#ff00001", "square", "hex", "1in", "63mmx88mm", "↓AGI", "AGI", "both",
                           "cut-lines", "dies", "x" * 41, "y" * 201, "Ab", "ab-1", "ab_1", "source", "value"])
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=5)
                      | st.dictionaries(st.sampled_from(KEYS), inner, max_size=4), max_leaves=12)


def _paths(node: Any, where: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [where]
    if isinstance(node, dict):
        for key, value in node.items():
            out += _paths(value, where + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out += _paths(value, where + (i,))
    return out


@st.composite
def near(draw: st.DrawFn, name: str) -> Any:
    """A real document of schema ``name`` with one to three changes: a value replaced, a key
    removed, a key added, an entry repeated."""
    doc = copy.deepcopy(read_yaml(BASES[name])[0])
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(doc) if p]
        if not paths:
            break
        where = draw(st.sampled_from(paths))
        parent: Any = doc
        for step in where[:-1]:
            parent = parent[step]
        last = where[-1]
        action = draw(st.sampled_from(["replace", "replace", "remove", "add", "repeat"]))
        if action == "replace":
            parent[last] = draw(VALUES)
        elif action == "remove":
            del parent[last]
        elif action == "add" and isinstance(parent, dict):
            parent[draw(st.sampled_from(KEYS))] = draw(VALUES)
        elif action == "repeat" and isinstance(parent, list):
            parent.append(copy.deepcopy(parent[last]))
    return doc


@pytest.mark.parametrize("name", sorted(BASES))
def test_every_shipped_document_takes_the_fast_path(name: str) -> None:
    data = read_yaml(BASES[name])[0]
    assert full_verdict(data, name) is True
    assert schemas.surely_valid(data, schemas.schema(name)) is True


@pytest.mark.parametrize("name", sorted(BASES))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_pre_check_agrees_with_jsonschema(name: str, data: st.DataObject) -> None:
    doc = data.draw(near(name))
    assert schemas.surely_valid(doc, schemas.schema(name)) is full_verdict(doc, name)


COLOUR = {"oneOf": [{"type": "string", "pattern": "^#[0-9A-Fa-f]{6}$"},
                    {"type": "array", "minItems": 4, "maxItems": 4, "items": {"type": "number", "minimum": 0, "maximum": 1}}]}
SOURCED = {"$defs": {"s": {"type": "object", "required": ["source"], "properties": {"source": {"type": "string"}}}},
           "unevaluatedProperties": False, "allOf": [{"$ref": "#/$defs/s"}, {"properties": {"value": {"type": "integer"}}}]}
# (schema, value): each pair is judged by jsonschema at test time, and the pre-check must agree
CASES = [
    ({"type": "string"}, "a"), ({"type": "string"}, 1), ({"type": ["string", "null"]}, None), ({"type": ["string", "null"]}, 0),
    ({"type": "integer"}, 3), ({"type": "integer"}, 3.0), ({"type": "integer"}, False), ({"type": "number"}, 2.5),
    ({"type": "number"}, "2"), ({"type": "boolean"}, False), ({"type": "boolean"}, 0), ({"type": "null"}, None),
    ({"type": "null"}, False), ({"type": "array"}, []), ({"type": "array"}, {}), ({"type": "object"}, {}), ({"type": "object"}, []),
    ({"enum": ["a", "b"]}, "b"), ({"enum": ["a", "b"]}, "c"), ({"enum": [1]}, 1.0), ({"enum": [0]}, False),
    ({"minLength": 2, "maxLength": 3}, "ab"), ({"minLength": 2, "maxLength": 3}, "abc"), ({"minLength": 2, "maxLength": 3}, "a"),
    ({"minLength": 2, "maxLength": 3}, "abcd"), ({"minLength": 2}, 5), ({"pattern": "^a"}, "ba"), ({"pattern": "b"}, "ab"),
    ({"pattern": "^a$"}, "a\n"), ({"pattern": "^a$"}, 7),
    ({"minimum": 1, "maximum": 2}, 1), ({"minimum": 1, "maximum": 2}, 2), ({"minimum": 1, "maximum": 2}, 0.5),
    ({"minimum": 1, "maximum": 2}, 3), ({"minimum": 1}, "0"), ({"minimum": 1}, True), ({"exclusiveMinimum": 0}, 0),
    ({"exclusiveMinimum": 0}, 1e-9), ({"exclusiveMinimum": 0}, -1), ({"exclusiveMinimum": 1e20}, 1e20),
    ({"required": ["a"]}, {"a": 1}), ({"required": ["a"]}, {"b": 1}), ({"required": ["a"]}, []),
    ({"properties": {"a": {"type": "integer"}}}, {"a": 1}), ({"properties": {"a": {"type": "integer"}}}, {"a": "1"}),
    ({"properties": {"a": {"type": "integer"}}}, {"b": "1"}), ({"additionalProperties": False, "properties": {"a": {}}}, {"a": 1}),
    ({"additionalProperties": False, "properties": {"a": {}}}, {"b": 1}), ({"additionalProperties": {"type": "string"}}, {"b": 1}),
    ({"additionalProperties": {"type": "string"}}, {"b": "x"}), ({"propertyNames": {"maxLength": 2}}, {"ab": 1}),
    ({"propertyNames": {"maxLength": 2}}, {"abc": 1}), ({"minProperties": 1, "maxProperties": 2}, {}),
    ({"minProperties": 1, "maxProperties": 2}, {"a": 1}), ({"minProperties": 1, "maxProperties": 2}, {"a": 1, "b": 2}),
    ({"minProperties": 1, "maxProperties": 2}, {"a": 1, "b": 2, "c": 3}), ({"maxProperties": 0}, []),
    ({"items": {"type": "integer"}}, [1, 2]), ({"items": {"type": "integer"}}, [1, "2"]), ({"minItems": 1, "maxItems": 2}, []),
    ({"minItems": 1, "maxItems": 2}, [1]), ({"minItems": 1, "maxItems": 2}, [1, 2]), ({"minItems": 1, "maxItems": 2}, [1, 2, 3]),
    ({"uniqueItems": True}, [1, 2]), ({"uniqueItems": True}, [1, 1]), ({"uniqueItems": True}, [[1], [1]]),
    ({"uniqueItems": True}, [{"a": 1}, {"a": 1.0}]), ({"uniqueItems": False}, [1, 1]), ({"maxItems": 0}, "ab"),
    ({"allOf": [{"type": "integer"}, {"minimum": 2}]}, 3), ({"allOf": [{"type": "integer"}, {"minimum": 2}]}, 1),
    (COLOUR, "#a0B1c2"), (COLOUR, "#a0B1c"), (COLOUR, [0, 0.5, 1, 0]), (COLOUR, [0, 0.5, 1]), (COLOUR, [0, 0.5, 1, 2]),
    (COLOUR, 5), ({"oneOf": [{"type": "integer"}, {"type": "number"}]}, 1),
    (SOURCED, {"source": "x", "value": 1}), (SOURCED, {"source": "x"}), (SOURCED, {"source": "x", "value": "1"}),
    (SOURCED, {"source": "x", "other": 1}), (SOURCED, {"value": 1}), (SOURCED, 3),
    ({"unevaluatedProperties": False, "oneOf": [{"properties": {"a": {"type": "integer"}}, "required": ["a"]},
                                                {"properties": {"b": {}}, "required": ["b"]}]}, {"a": 1}),
    ({"unevaluatedProperties": False, "oneOf": [{"properties": {"a": {"type": "integer"}}, "required": ["a"]},
                                                {"properties": {"b": {}}, "required": ["b"]}]}, {"a": "x", "b": 1}),
    ({"unevaluatedProperties": False, "oneOf": [{"properties": {"a": {"type": "integer"}}, "required": ["a"]},
                                                {"properties": {"b": {}}, "required": ["b"]}]}, {"a": 1, "b": 1}),
    ({"unevaluatedProperties": False, "additionalProperties": True}, {"z": 1}), ({"unevaluatedProperties": False}, {"z": 1}),
    ({"unevaluatedProperties": False}, [1]), ({"$defs": {"n": {"type": "integer"}}, "$ref": "#/$defs/n"}, 1),
    ({"$defs": {"n": {"type": "integer"}}, "$ref": "#/$defs/n"}, "1"), (True, 1), ({}, None),
    ({"$defs": {"a": {"properties": {"a": {}}, "required": ["a"]}}, "unevaluatedProperties": False,
      "oneOf": [{"$ref": "#/$defs/a"}, {"type": "string"}]}, {"a": 1}),
    ({"$defs": {"n": {"maxLength": 2}}, "propertyNames": {"$ref": "#/$defs/n"}}, {"ab": 1}),
    ({"$defs": {"n": {"type": "integer"}}, "oneOf": [{"$ref": "#/$defs/n"}, {"type": "string"}]}, 1),
    ({"$defs": {"a~1b": {"type": "string"}, "a/b": {"type": "integer"}}, "$ref": "#/$defs/a~1b"}, "x"),
    ({"const": False}, {}), ({"maxLength": 3}, ""), ({"pattern": "^$"}, ""),
    ({"title": "t", "description": "d", "default": 1, "examples": [1], "x-message": "m", "x-top": "t", "$schema": "s", "$id": "i"}, 1),
]


@pytest.mark.parametrize(("node", "value"), CASES)
def test_each_keyword_agrees_with_jsonschema(node: Any, value: Any) -> None:
    expected = not any(True for _ in schemas._validator_class()(node).iter_errors(value))
    assert schemas.surely_valid(value, node) is expected


@pytest.mark.parametrize(("doc", "why"), [
    ({"title": "T", "tokens": [], 3: "x"}, "a key that is not text"),
    ({"title": "T", "tokens": [{"id": {1, 2}}]}, "an unhashable value"),
])
def test_what_it_cannot_judge_goes_to_jsonschema(doc: dict, why: str) -> None:
    assert schemas.surely_valid(doc, schemas.schema("catalogue")) is False, why


def test_an_unknown_keyword_makes_it_give_up() -> None:
    # "const" is not used by tokengen's schemas, so the pre-check does not know it: never True
    assert schemas.surely_valid(5, {"const": 5}) is False
    assert schemas.surely_valid({"a": 1}, {"properties": {"a": {"multipleOf": 2}}}) is False
    assert schemas.surely_valid("a", {"$ref": "other.json#/x"}) is False
    assert schemas.surely_valid({"a": 1}, {"unevaluatedProperties": {"type": "integer"}}) is False
    assert schemas.surely_valid(1, {"$ref": 5}) is False


def test_a_valid_document_never_reaches_jsonschema(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse() -> None:
        raise AssertionError("jsonschema was asked about a valid document")

    data, lines = read_yaml(CATALOGUE)
    monkeypatch.setattr(schemas, "_validator_class", refuse)
    assert schemas.validate(CATALOGUE, data, lines, "catalogue") == []


def test_every_float_is_found_with_its_path() -> None:
    data = {"a": [1.5, {"b": 2.0, "c": 3}], "d": 4, "e": "5.0", "f": {"g": [[-0.5]]}}
    assert list(schemas._numbers(data)) == [(("a", 0), 1.5), (("a", 1, "b"), 2.0), (("f", "g", 0, 0), -0.5)]
    assert list(schemas._numbers(2.5, ("x",))) == [(("x",), 2.5)]


def test_strict_integers_and_ecma_end_of_text() -> None:
    assert schemas.surely_valid(1.0, {"type": "integer"}) is False
    assert schemas.surely_valid(True, {"type": "integer"}) is False
    assert schemas.surely_valid(True, {"type": "number"}) is False
    assert schemas.surely_valid("ab\n", {"pattern": "^[a-z]+$"}) is False
    assert schemas.surely_valid([1, 1.0], {"uniqueItems": True}) is False
    assert schemas.surely_valid([1, True], {"uniqueItems": True}) is True
    assert schemas.surely_valid(True, {"enum": [1]}) is False


def test_a_bad_catalogue_still_gets_jsonschema_s_message(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(CATALOGUE.read_text("utf-8").replace("title:", "titel:", 1), "utf-8")
    done = subprocess.run([sys.executable, "-m", "tokengen", "check", str(bad)], capture_output=True, text=True)
    assert done.returncode != 0
    assert "titel: unknown key; did you mean 'title'?" in done.stdout + done.stderr
