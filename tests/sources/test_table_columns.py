"""Spreadsheet columns the catalogue does not declare, and how spreadsheet errors name the file.

A ``Notes`` column is left out with one warning a run (silenced by ``ignore:``); a column close to
a field's name is still a typo. Errors name the spreadsheet relative to the current folder, as
catalogue errors do. Sheets are written into tmp_path; messages are checked whole."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tests.conftest import write_sheet
from tokengen import load_catalogue
from tokengen.errors import CatalogueError

CATALOGUE = """\
title: Columns
fields: {name: text, strength: integer}
template:
  - {text: "{name} {strength}", at: [0.5, 0.5], size: 0.12}
tokens: tokens.{ext}
"""
WARNING = ("tokengen: warning: tokens.{ext}: column Notes is not a field of the catalogue; it is not printed "
           "(list it under ignore: to say so)\n")


def catalogue(folder: Path, rows: list[list] | str, ext: str = "csv", extra: str = "") -> Path:
    write_sheet(folder, rows, ext)
    path = folder / "cat.yaml"
    path.write_text(textwrap.dedent(CATALOGUE.replace("{ext}", ext)) + extra, "utf-8")
    return path


@pytest.mark.parametrize("ext, rows", [
    ("csv", "name,strength,Notes\nAlpha,3,ask Sam\nBeta,4,\n"),
    ("xlsx", [["name", "strength", "Notes"], ["Alpha", 3, "ask Sam"], ["Beta", 4, None]]),
])
def test_a_notes_column_is_left_out_with_one_warning(run, tmp_path: Path, monkeypatch, ext, rows):
    monkeypatch.chdir(tmp_path)
    path = catalogue(tmp_path, rows, ext)
    cat = load_catalogue(path)
    assert [(t.id, t.value("name"), t.value("strength")) for t in cat.tokens] == [("1", "Alpha", 3), ("2", "Beta", 4)]
    assert all(name != "Notes" for t in cat.tokens for name, _ in t.values)
    result = run("build", "cat.yaml", "-o", "x.pdf")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == WARNING.replace("{ext}", ext)  # one line for the run, not one a row


def test_several_undeclared_columns_share_one_line(run, tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    catalogue(tmp_path, "name,Notes,strength,Comments\nAlpha,x,3,y\n")
    result = run("build", "cat.yaml", "-o", "x.pdf")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ("tokengen: warning: tokens.csv: columns Notes, Comments are not fields of the catalogue; "
                             "they are not printed (list them under ignore: to say so)\n")


def test_ignore_lists_the_columns_and_silences_the_warning(run, tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    catalogue(tmp_path, "name,strength,Notes,Comments\nAlpha,3,x,y\n", extra="ignore: [notes, Comments]\n")
    result = run("build", "cat.yaml", "-o", "x.pdf")
    assert (result.exit_code, result.stderr) == (0, "")
    catalogue(tmp_path, "name,strength,Notes,Comments\nAlpha,3,x,y\n", extra="ignore: [Notes]\n")
    result = run("build", "cat.yaml", "-o", "x.pdf")
    assert result.stderr == ("tokengen: warning: tokens.csv: column Comments is not a field of the catalogue; "
                             "it is not printed (list it under ignore: to say so)\n")


def test_ignore_is_schema_checked(tmp_path: Path):
    path = catalogue(tmp_path, "name,strength\nAlpha,3\n", extra="ignore: Notes\n")
    with pytest.raises(CatalogueError) as info:
        load_catalogue(path)
    assert "ignore" in str(info.value) and "list" in str(info.value), str(info.value)


@pytest.mark.parametrize("ext, rows, message", [
    ("csv", "name,strenght,Notes\nAlpha,3,x\n",
     "tokens.csv:1: strenght (column B): unknown field; did you mean 'strength'? (fields: id, copies, name, strength)"),
    ("xlsx", [["nmae", "strength"], ["Alpha", 3]],
     "tokens.xlsx:1: nmae (column A): unknown field; did you mean 'name'? (fields: id, copies, name, strength)"),
])
def test_a_misspelt_field_is_still_an_error(run, tmp_path: Path, monkeypatch, ext, rows, message):
    monkeypatch.chdir(tmp_path)
    catalogue(tmp_path, rows, ext)
    result = run("build", "cat.yaml", "-o", "x.pdf")
    assert (result.exit_code, result.stderr) == (2, f"tokengen: error: {message}\n")


# -- the spreadsheet's path in messages -----------------------------------------------------------
@pytest.mark.parametrize("ext, rows, where", [
    ("csv", "name,strength\nAlpha,3\nBeta,x\n", "tokens.csv:3: strength (column B): expected a whole number, got 'x'"),
    ("csv", "name,strength\nAlpha,3,9\n", "tokens.csv:2: row has a value in column C, past the header's 2 columns"),
    ("xlsx", [["name", "strength"], ["Alpha", "lots"]], "tokens.xlsx:2: strength (column B): expected a whole number, got 'lots'"),
])
def test_spreadsheet_errors_name_the_file_relative_to_the_current_folder(run, tmp_path: Path, monkeypatch, ext, rows, where):
    game = tmp_path / "games" / "status"
    game.mkdir(parents=True)
    catalogue(game, rows, ext)
    monkeypatch.chdir(tmp_path)
    result = run("build", "games/status/cat.yaml", "-o", "x.pdf")
    assert (result.exit_code, result.stderr) == (2, f"tokengen: error: games/status/{where}\n")
    monkeypatch.chdir(game)
    result = run("build", "cat.yaml", "-o", "x.pdf")
    assert (result.exit_code, result.stderr) == (2, f"tokengen: error: {where}\n")


def test_a_spreadsheet_outside_the_current_folder_is_named_as_the_catalogue_names_it(tmp_path: Path, monkeypatch):
    game = tmp_path / "game"
    game.mkdir()
    path = catalogue(game, "name,strength\nAlpha,x\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    with pytest.raises(CatalogueError) as info:
        load_catalogue(path)
    assert str(info.value) == f"{game / 'tokens.csv'}:2: strength (column B): expected a whole number, got 'x'"
