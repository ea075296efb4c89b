"""Card sizes by name (issue 41): ``size: poker`` in a catalogue and ``--size bridge`` read the
package's ``data/sizes.yaml`` through the one size parser; ``tokengen sizes`` lists them."""

from __future__ import annotations

import pytest
from pypdf import PdfReader

from tokengen.units import named_sizes, parse_size

MM = 72 / 25.4

#: each name's trim in mm as its source gives it, written out here on its own (not read from the file)
SOURCES = {
    "poker": (63.5, 88.9), "bridge": (57.15, 88.9), "tarot": (69.85, 120.65), "jumbo": (88.9, 139.7),
    "mini": (44.45, 63.5), "micro": (31.75, 44.45), "euro-poker": (2.48 * 25.4, 3.46 * 25.4),
    "mini-american": (41, 63), "mini-euro": (44, 68), "american": (56, 87), "euro": (59, 92),
    "square": (70, 70), "large-square": (80, 80),
}


@pytest.mark.parametrize("name, mm", SOURCES.items())
def test_every_named_size_matches_its_source(name, mm):
    size = named_sizes()[name]
    assert (size.width / MM, size.height / MM) == (pytest.approx(mm[0], abs=1e-9), pytest.approx(mm[1], abs=1e-9))
    assert size.source


def test_the_file_names_no_size_the_test_does_not_know():
    assert {size.name for size in named_sizes().values()} == set(SOURCES)


def test_names_are_read_in_any_case_and_by_their_other_names():
    assert parse_size("Poker") == parse_size("standard") == (180.0, 252.0)
    assert parse_size("mini-usa") == parse_size("mini-american")
    assert parse_size("square") == (pytest.approx(70 * MM), None)  # square: the width alone, as "1in" is


CATALOGUE = """title: Deck
size: {size}
fields:
  name: text
template:
  - {{rect: fill, fill: "#3366cc"}}
tokens:
  - {{id: a, name: A}}
"""


@pytest.mark.parametrize("size, pt", [("bridge", (162.0, 252.0)), ("tarot", (198.0, 342.0))])
def test_a_catalogue_of_a_named_size_prints_at_that_size(run, tmp_path, size, pt):
    catalogue = tmp_path / "deck.yaml"
    catalogue.write_text(CATALOGUE.format(size=size), "utf-8")
    result = run("export", str(catalogue), "--profile", "single-pages", "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stderr
    [pdf] = (tmp_path / "out").glob("*.pdf")
    trim = PdfReader(pdf).pages[0].trimbox
    assert (float(trim.width), float(trim.height)) == (pytest.approx(pt[0], abs=0.01), pytest.approx(pt[1], abs=0.01))


def test_a_misspelt_name_is_refused_with_a_suggestion(run, tmp_path):
    catalogue = tmp_path / "deck.yaml"
    catalogue.write_text(CATALOGUE.format(size="bridg"), "utf-8")
    result = run("build", str(catalogue), "-o", str(tmp_path / "x.pdf"))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"tokengen: error: {catalogue}:2: size: unknown size name 'bridg': did you mean bridge?")
    assert not (tmp_path / "x.pdf").exists()


def test_sizes_lists_every_name_with_its_trim_and_source(run):
    result = run("sizes")
    assert result.exit_code == 0
    sizes = result.stdout.split("\nsleeves (")[0]  # the sleeves follow under their own heading
    rows = {line.split()[0]: line for line in sizes.splitlines()}
    assert set(rows) == set(SOURCES)
    assert rows["poker"].split()[1:8] == ["63.5", "x", "88.9", "mm", "2.5", "x", "3.5"]
    assert "The Game Crafter" in rows["tarot"]
