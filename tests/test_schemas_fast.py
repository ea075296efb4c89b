"""The schema layer's pre-check (:func:`tokengen.schemas.surely_valid`, issue 11) against
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

from tokengen import schemas
from tokengen.yamlsrc import read_yaml

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
