"""The schema layer's fast path (:func:`tokengen.sources.schemas.fast_valid`: jsonschema-rs, issue
11) against jsonschema itself: on every shipped schema, for documents near the real ones, the fast
path says "valid" only when jsonschema finds no problem, so skipping jsonschema on a True can never
let a bad file through; and the shipped files take the fast path (tests/test_package.py checks that
a build of the bundled catalogue imports no jsonschema)."""

from __future__ import annotations

import copy
import datetime
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import CATALOGUE
from tokengen.sources import schemas
from tokengen.sources.yamlsrc import floats, read_yaml

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "tokengen" / "data"
# one real document per schema: the starting points the documents under test are made from
BASES = {
    "catalogue": CATALOGUE,
    "catalogue-fields": ROOT / "examples" / "status-tokens" / "status.yaml",
    "scenario": Path(__file__).parents[1] / "data" / "scenarios" / "fight.yaml",
    "jobs": ROOT / "examples" / "batch-jobs.yaml",
    "profiles": PACKAGE / "profiles.yaml",
    "game_defaults": PACKAGE / "game_defaults.yaml",
    "template": PACKAGE / "templates.yaml",
}


def full_verdict(data: Any, name: str) -> bool:
    """jsonschema's own answer (tokengen's validator, no fast path): no problem at all."""
    return not any(True for _ in schemas.full_validator(name).iter_errors(data))


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
SCALARS = st.sampled_from([None, True, False, 0, 1, -1, 2, 3, 40, 1001, 10**6, 0.0, 1.0, 0.5, 1.5, -0.25, 2.5, -1.5, 1e30, 10**30,
                           float("nan"), "", "a", "a\n", "{colour}", "{", "text", "glyph", "rect", "rekt", "contain", "center",
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
    assert schemas.fast_valid(data, name) is True


@pytest.mark.parametrize("name", sorted(BASES))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_fast_path_agrees_with_jsonschema(name: str, data: st.DataObject) -> None:
    doc = data.draw(near(name))
    fast = schemas.fast_valid(doc, name)
    # the fast path may only be stricter, where the two libraries read a number differently: a
    # whole float (2.0) and NaN, which jsonschema-rs takes for no number and jsonschema for one
    # (the file then goes to jsonschema, and NaN to the unit parser, which refuses it in words)
    assert fast is full_verdict(doc, name) or not fast and any(v.is_integer() or math.isnan(v) for _, v in floats(doc))


def test_the_examples_agree_too() -> None:
    # every shipped catalogue with declared fields (templates and backs of every kind) passes both ways
    for path in sorted((ROOT / "examples").glob("*/*.yaml")):
        data = read_yaml(path)[0]
        if isinstance(data, dict) and "fields" in data:
            assert schemas.fast_valid(data, "catalogue-fields") is full_verdict(data, "catalogue-fields") is True, path


@pytest.mark.parametrize(("doc", "why"), [
    ({"title": "T", "tokens": [], 3: "x"}, "a key that is not text"),
    ({"title": "T", "tokens": [{"id": {1, 2}}]}, "a set"),
    ({"title": "T", "tokens": [{"id": datetime.date(2026, 1, 1)}]}, "a date"),
    ({"title": "T", "columns": 2.0, "game": {"attributes": [], "priorities": []}, "tokens": []}, "a whole float"),
])
def test_what_jsonschema_rs_cannot_judge_goes_to_jsonschema(doc: dict, why: str) -> None:
    assert schemas.fast_valid(doc, "catalogue") is False, why


def test_nan_goes_to_jsonschema_and_is_refused_in_words(tmp_path: Path) -> None:
    """jsonschema-rs takes NaN for no number, jsonschema for one: the fast path says no, jsonschema
    lets the job through, and the length parser refuses it naming the file, line and field."""
    from tokengen.errors import CatalogueError
    from tokengen.outputs.batch import load_jobs

    doc = {"jobs": [{"catalogue": "meatshields", "size": float("nan"), "page": "letter"}]}
    assert schemas.fast_valid(doc, "jobs") is False and full_verdict(doc, "jobs") is True
    jobs = tmp_path / "j.yaml"
    jobs.write_text("jobs:\n  - {catalogue: meatshields, size: .nan, page: letter}\n", "utf-8")
    with pytest.raises(CatalogueError) as caught:
        load_jobs(jobs, tmp_path / "out")
    assert str(caught.value) == f"{jobs}:2: jobs[0].size: a length needs a unit (in, mm, cm, pt): nan"


def test_strict_integers_stay_with_jsonschema(tmp_path: Path) -> None:
    # jsonschema-rs counts 1.0 as an integer; tokengen does not, so a whole float is judged by jsonschema
    text = CATALOGUE.read_text("utf-8").replace("\ncolumns: 3 ", "\ncolumns: 3.0 ", 1)
    bad = tmp_path / "cat.yaml"
    bad.write_text(text, "utf-8")
    data, lines = read_yaml(bad)
    assert [str(p) for p in schemas.validate(bad, data, lines, "catalogue")] == [f"{bad}:36: columns: expected a whole number, got 3.0"]
    # a valid document with a float that is not whole keeps the fast path
    assert schemas.fast_valid({"at": 0.5}, "template") is False and schemas.fast_valid(read_yaml(BASES["jobs"])[0], "jobs") is True


def test_a_valid_document_never_reaches_jsonschema(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(name: str) -> None:
        raise AssertionError("jsonschema was asked about a valid document")

    monkeypatch.setattr(schemas, "full_validator", refuse)
    for name, path in BASES.items():
        data, lines = read_yaml(path)
        assert schemas.validate(path, data, lines, name) == [], name


def test_a_valid_file_never_imports_jsonschema() -> None:
    code = ("import sys\nfrom pathlib import Path\nfrom tokengen.sources import schemas\nfrom tokengen.sources.yamlsrc import read_yaml\n"
            f"for name, path in {[(n, str(p)) for n, p in BASES.items()]!r}:\n"
            "    data, lines = read_yaml(Path(path))\n    assert schemas.validate(Path(path), data, lines, name) == [], name\n"
            "print('jsonschema' in sys.modules, 'jsonschema_rs' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "True"]


def test_every_float_is_found_with_its_path() -> None:
    data = {"a": [1.5, {"b": 2.0, "c": 3}], "d": 4, "e": "5.0", "f": {"g": [[-0.5]]}}
    assert list(floats(data)) == [(("a", 0), 1.5), (("a", 1, "b"), 2.0), (("f", "g", 0, 0), -0.5)]
    assert list(floats(2.5, ("x",))) == [(("x",), 2.5)]


def test_a_bad_catalogue_still_gets_jsonschema_s_message(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(CATALOGUE.read_text("utf-8").replace("title:", "titel:", 1), "utf-8")
    done = subprocess.run([sys.executable, "-m", "tokengen", "check", str(bad)], capture_output=True, text=True)
    assert done.returncode != 0
    assert "titel: unknown key; did you mean 'title'?" in done.stdout + done.stderr
