"""Did-you-mean hints: another tool's name for one of ours, a name that begins as the typed one,
then difflib's closest (:func:`tokengen.sources.schemas.suggest`), read back from ``tokengen check``."""

from __future__ import annotations

import pytest

from tokengen.sources.schemas import suggest

DECK = """\
title: T
size: 1in
fields:
  name: text
  rare: text
  art: image
template:
  - {ELEMENT}
tokens:
  - {id: a, name: A}
"""


@pytest.mark.parametrize("element, message", [
    ('{text: "{name}", font_size: 0.1}', "template[0].font_size: unknown key for a text element; did you mean 'size'?"),
    ('{text: "{name}", fontsize: 0.1}', "template[0].fontsize: unknown key for a text element; did you mean 'size'?"),
    ('{text: "{name}", color: "#000000"}', "template[0].color: unknown key for a text element; did you mean 'colour'?"),
    ('{text: "{name}", when: rarity}', "template[0].when: unknown field 'rarity'; did you mean 'rare'? (fields: name, rare, art)"),
])
def test_check_suggests_the_name_meant(run, tmp_path, element, message):
    catalogue = tmp_path / "deck.yaml"
    catalogue.write_text(DECK.replace("{ELEMENT}", element), "utf-8")
    result = run("check", str(catalogue))
    assert result.exit_code != 0
    assert f"{catalogue}:8: {message}" in result.stderr or f"{catalogue}:8: error catalogue: {message}" in result.stdout.splitlines()


@pytest.mark.parametrize("word, choices, hint", [
    ("font_size", ["size", "min_size", "font"], "size"),  # Squib's and protograf's name
    ("rarity", ["name", "rare", "art"], "rare"),  # begins as 'rare' does; 'art' is closer by difflib's ratio
    ("color", ["colour", "size"], "colour"),
    ("Colr", ["colour", "cost"], "colour"),
    ("mni_size", ["size", "min_size"], "min_size"),  # no prefix in common: difflib's closest
])
def test_suggest_ranks(word, choices, hint):
    assert suggest(word, choices) == f"; did you mean '{hint}'?"


def test_suggest_takes_another_tools_name_only_for_a_choice():
    assert suggest("font_size", ["font", "colour"]) == "; did you mean 'font'?"  # no 'size' here: spelling decides
    assert suggest("zzz", []) == ""
