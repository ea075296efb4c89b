"""The safe YAML reader: values, line numbers, and the limits (issue 7)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tokengen.errors import CatalogueError
from tokengen.sources import yamlsrc
from tokengen.sources.yamlsrc import dotted, read_yaml


def read(tmp_path: Path, text: str):
    path = tmp_path / "x.yaml"
    path.write_text(text, "utf-8")
    return read_yaml(path)


def test_values_and_lines(tmp_path: Path):
    data, lines = read(tmp_path, "a: 1\nb:\n  - x\n  - {c: 2.5, d: null, e: true, f: '3'}\ng: 2024-01-01\n")
    assert data == {"a": 1, "b": ["x", {"c": 2.5, "d": None, "e": True, "f": "3"}], "g": "2024-01-01"}
    assert lines[("a",)] == 1 and lines[("b",)] == 2 and lines[("b", 0)] == 3 and lines[("b", 1, "d")] == 4
    assert lines[()] == 1


def test_aliases_share_and_count(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    data, lines = read(tmp_path, "a: &x [1, 2, 3]\nb: *x\nc: *x\n")
    assert data["b"] is data["a"] and lines[("c",)] == 3
    monkeypatch.setattr(yamlsrc, "MAX_NODES", 10)  # 4 + 4 + 4 (+1 for the top) > 10
    with pytest.raises(CatalogueError, match=r"x.yaml:3: more than 10 values"):
        read(tmp_path, "a: &x [1, 2, 3]\nb: *x\nc: *x\n")


def test_duplicate_key_deep(tmp_path: Path):
    with pytest.raises(CatalogueError) as caught:
        read(tmp_path, "a:\n  b: 1\n  c: 2\n  b: 3\n")
    assert (caught.value.line, caught.value.field, caught.value.message) == (4, "a.b", "duplicate key (first given at line 2)")


def test_depth_limit(tmp_path: Path):
    ok = "a: " + "[" * (yamlsrc.MAX_DEPTH - 1) + "]" * (yamlsrc.MAX_DEPTH - 1) + "\n"
    read(tmp_path, ok)
    with pytest.raises(CatalogueError, match="nested more than 64 deep"):
        read(tmp_path, "a: " + "[" * yamlsrc.MAX_DEPTH + "]" * yamlsrc.MAX_DEPTH + "\n")


@pytest.mark.parametrize("text, message", [
    ("a: !!binary aGk=\n", "unsupported YAML tag !!binary"),
    ("a: !!set {x}\n", "unsupported YAML tag !!set"),
    ("a: !!python/name:os.system\n", "unsupported YAML tag !!python/name:os.system"),
    ("!!python/object:os.Foo {}\n", "unsupported YAML tag !!python/object:os.Foo"),
    ("a: !!int x\n", "bad !!int value"),
])
def test_only_plain_tags(tmp_path: Path, text: str, message: str):
    with pytest.raises(CatalogueError, match=re.escape(message)):
        read(tmp_path, text)


def test_explicit_plain_tags_are_fine(tmp_path: Path):
    data, _ = read(tmp_path, "a: !!str 12\nb: !!int '7'\n")
    assert data == {"a": "12", "b": 7}


def test_dotted_is_one_short_line():
    assert dotted(("tokens", 3, "priority")) == "tokens[3].priority"
    assert dotted(("a\nb",)) == "a\\nb"
    assert len(dotted(("x" * 500,) + (0,) * 100)) <= 100


def test_a_pdf_given_as_the_catalogue_is_named(tmp_path):
    from tokengen.errors import CatalogueError
    from tokengen.sources.yamlsrc import read_yaml

    pdf = tmp_path / "sheet.pdf"
    pdf.write_bytes(b"%PDF-1.4\n%\x93\x8c\x8b\x9e ReportLab\n")
    with pytest.raises(CatalogueError) as err:
        read_yaml(pdf)
    assert str(err.value) == f"{pdf}: this is a PDF, not a YAML file"
