"""The catalogue kept between the page's rebuilds (issue 27): read again only when a file it read changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tokengen.errors import CatalogueError
from tokengen.sources import fonts
from tokengen.sources.catalogue import load_unchanged
from tokengen.sources.template import substitute

CATALOGUE = ("title: Counters\nsize: 1in\nfields: {unit: text}\n"
             "template:\n  - {text: \"{unit}\", font: bold, at: [0.5, 0.5], size: 0.2, width: 0.7}\n"
             "tokens: units.csv\n")


def _write(folder: Path, rows: str) -> Path:
    (folder / "units.csv").write_text("id,unit\n" + rows, "utf-8")
    path = folder / "counters.yaml"
    path.write_text(CATALOGUE, "utf-8")
    return path


def test_same_files_give_the_same_catalogue(tmp_path: Path) -> None:
    path = _write(tmp_path, "a,1/2\nb,3/4\n")
    first = load_unchanged(path)
    assert load_unchanged(path) is first
    assert [dict(t.values)["unit"] for t in first.tokens] == ["1/2", "3/4"]


def test_a_changed_spreadsheet_is_read_again(tmp_path: Path) -> None:
    path = _write(tmp_path, "a,1/2\n")
    first = load_unchanged(path)
    (tmp_path / "units.csv").write_text("id,unit\na,5/6\n", "utf-8")
    second = load_unchanged(path)
    assert second is not first
    assert dict(second.tokens[0].values)["unit"] == "5/6"


def test_a_broken_catalogue_still_raises(tmp_path: Path) -> None:
    path = _write(tmp_path, "a,1/2\n")
    load_unchanged(path)
    path.write_text(CATALOGUE.replace("size: 1in", "size: big"), "utf-8")
    with pytest.raises(CatalogueError):
        load_unchanged(path)


@pytest.mark.parametrize(("text", "values", "expected"), [
    ("", {}, ""), ("plain", {}, "plain"), ("{a}", {"a": 2.0}, "2"), ("x{{y}}z", {}, "x{y}z"),
    ("}}{a}{b}", {"a": 1.5, "b": None}, "}1.5"), ("{a}/{a}", {"a": "q"}, "q/q")])
def test_substitute_with_parsed_texts_kept(text: str, values: dict, expected: str) -> None:
    assert substitute(text, values) == expected
    assert substitute(text, values) == expected  # the second time from the kept parse


def test_coverage_kept_per_character() -> None:
    fonts.register()
    assert fonts.missing_glyphs("AB ★", fonts.BOLD) == []
    assert fonts.missing_glyphs("AB漢", fonts.BOLD) == ["漢"]  # a known character beside an unknown one
    assert fonts.missing_glyphs("AB漢", fonts.BOLD) == ["漢"]
    assert fonts.missing_glyphs("BA", fonts.BOLD) == []
