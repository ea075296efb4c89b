"""Token lists as spreadsheet programs write them: date and time cells in an .xlsx, capitalised
headers, decimal commas in a semicolon-separated CSV. Workbooks are written with openpyxl into
tmp_path; values are checked on the loaded tokens and in the built PDF's text."""

from __future__ import annotations

import datetime
import json
import re
import textwrap
import zipfile
from pathlib import Path

import pdfplumber
import pytest

from tests.conftest import write_sheet
from tokengen import BuildOptions, SheetSpec, build_pdf, load_catalogue
from tokengen.errors import CatalogueError
from tokengen.units import parse_page

CATALOGUE = """\
title: From a sheet
fields: {name: text, note: text, strength: integer, cost: number}
template:
  - {text: "{name}", at: [0.5, 0.3], size: 0.12}
  - {text: "{note}", at: [0.5, 0.55], size: 0.12}
  - {text: "{strength}/{cost}", at: [0.5, 0.85], size: 0.12}
tokens: tokens.{ext}
"""
HEADER = ["id", "name", "note", "strength", "cost"]


def catalogue(folder: Path, rows: list[list] | str, ext: str = "xlsx") -> Path:
    """Write ``tokens.csv`` (``rows`` is its text) or ``tokens.xlsx`` (``rows`` are its rows)
    and the catalogue reading it; returns the catalogue's path."""
    write_sheet(folder, rows, ext)
    path = folder / "cat.yaml"
    path.write_text(textwrap.dedent(CATALOGUE.replace("{ext}", ext)), "utf-8")
    return path


def error(path: Path) -> str:
    with pytest.raises(CatalogueError) as info:
        load_catalogue(path)
    return str(info.value)


def values(path: Path) -> list[tuple]:
    return [(t.id, t.value("name"), t.value("note"), t.value("strength"), t.value("cost"), t.copies)
            for t in load_catalogue(path).tokens]


def pdf_words(path: Path, out: Path) -> list[str]:
    cat = load_catalogue(path)
    build_pdf(cat, BuildOptions(sheet=SheetSpec(page=parse_page("letter"), size=cat.size)), out)
    with pdfplumber.open(out) as pdf:
        return [w["text"] for w in pdf.pages[0].extract_words()]


# -- dates and times in an .xlsx -----------------------------------------------------------------
def test_date_and_time_cells_in_a_text_field_read_as_the_sheet_shows_them(tmp_path):
    """openpyxl gives a datetime the format yyyy-mm-dd h:mm:ss, a date yyyy-mm-dd, a time h:mm:ss
    and a duration [hh]:mm:ss: the cells show (and print) the parts those formats name."""
    notes = [datetime.datetime(2026, 11, 29), datetime.datetime(2026, 11, 29, 14, 30), datetime.time(14, 30),
             datetime.time(9, 5, 7), datetime.date(2026, 1, 2), datetime.timedelta(hours=36, minutes=30)]
    rows = [HEADER] + [[f"t{i}", f"N{i}", note, 1, 2] for i, note in enumerate(notes)]
    path = catalogue(tmp_path, rows)
    shown = ["2026-11-29 0:00:00", "2026-11-29 14:30:00", "14:30:00", "9:05:07", "2026-01-02", "36:30:00"]
    assert [v[2] for v in values(path)] == shown
    words = pdf_words(path, tmp_path / "out.pdf")
    for word in ("2026-11-29", "0:00:00", "14:30:00", "9:05:07", "2026-01-02", "36:30:00"):
        assert word in words, words
    assert words.count("14:30:00") == 2


def test_a_date_cell_as_the_id_is_its_iso_text(tmp_path):
    path = catalogue(tmp_path, [HEADER, [datetime.datetime(2026, 11, 29), "A", "x", 1, 2]])
    assert values(path) == [("2026-11-29", "A", "x", 1, 2, 1)]


@pytest.mark.parametrize("row, message", [
    (["a", "A", "x", datetime.datetime(2026, 1, 1), 2],
     "tokens.xlsx:2: strength (column D): expected a whole number, got the date 2026-01-01"),
    (["a", "A", "x", 1, datetime.datetime(2026, 1, 1, 14, 30)],
     "tokens.xlsx:2: cost (column E): expected a number, got the date and time 2026-01-01 14:30"),
    (["a", "A", "x", 1, 2, datetime.time(14, 30)],
     "tokens.xlsx:2: copies (column F): expected a whole number, got the time 14:30"),
])
def test_a_date_in_a_number_field_is_named_in_words(tmp_path, row, message):
    path = catalogue(tmp_path, [HEADER + ["copies"], row])
    assert error(path).endswith(message), error(path)


@pytest.mark.parametrize("kind, message", [
    ("colour", 'tokens.xlsx:2: note (column C): expected a colour "#rrggbb" or [c, m, y, k] with channels 0-1, got the date 2026-01-01'),
    ("image", "tokens.xlsx:2: note (column C): expected an image path, got the date 2026-01-01"),
])
def test_a_date_in_a_colour_or_image_field_is_named_in_words(tmp_path, kind, message):
    path = catalogue(tmp_path, [HEADER, ["a", "A", datetime.datetime(2026, 1, 1), 1, 2]])
    path.write_text(path.read_text("utf-8").replace("note: text", f"note: {kind}")
                    .replace('{text: "{note}", at: [0.5, 0.55], size: 0.12}', '{rect: fill}'), "utf-8")
    assert error(path).endswith(message), error(path)


def test_a_date_in_a_number_field_is_one_line_from_the_cli(tmp_path, run):
    path = catalogue(tmp_path, [HEADER, ["a", "A", "x", datetime.datetime(2026, 1, 1), 2]])
    result = run("build", str(path), "-o", str(tmp_path / "x.pdf"))
    assert result.exit_code == 2 and result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert result.stderr.endswith("tokens.xlsx:2: strength (column D): expected a whole number, got the date 2026-01-01\n")


# -- headers as spreadsheets write them ------------------------------------------------------------
# -- formulas in an .xlsx ----------------------------------------------------------------------------
@pytest.mark.parametrize("row, field, formula", [
    (["k", "Knight", "x", 6, "=D2*2"], "cost (column E)", "=D2*2"),  # the last cell: not taken for padding
    (["k", "Knight", "=UPPER(B2)", 6, 1], "note (column C)", "=UPPER(B2)"),
    (["k", "Knight", "x", 6, 1, "=A1"], "column F", "=A1"),  # past the header: no field name
])
def test_a_formula_without_a_saved_value_says_so(tmp_path, row, field, formula):
    """openpyxl (and other scripts) write formulas without calculating them: the cell has no
    value until a spreadsheet program saves the file. Said as such, not as an empty field."""
    path = catalogue(tmp_path, [HEADER, row])
    assert error(path) == (f"{tmp_path / 'tokens.xlsx'}:2: {field}: a formula without a saved value ({formula}): "
                           "save the file in a spreadsheet program (which calculates it), or type the value")


def test_a_formula_with_its_saved_value_reads_the_value(tmp_path):
    import openpyxl

    path = catalogue(tmp_path, [HEADER, ["k", "Knight", "x", 6, 2]])
    sheet = tmp_path / "tokens.xlsx"  # a saved value beside the formula, as a spreadsheet program writes it
    with zipfile.ZipFile(sheet) as z:
        parts = {name: z.read(name) for name in z.namelist()}
    part = "xl/worksheets/sheet1.xml"
    parts[part] = re.sub(rb'<c r="E2"([^>]*)><v>2</v></c>', rb'<c r="E2"\1><f>D2/3</f><v>2</v></c>', parts[part])
    assert b"<f>D2/3</f>" in parts[part]
    with zipfile.ZipFile(sheet, "w") as z:
        for name, data in parts.items():
            z.writestr(name, data)
    assert openpyxl.load_workbook(sheet).active["E2"].value == "=D2/3"
    assert values(path) == [("k", "Knight", "x", 6, 2, 1)]


def test_capitalised_and_padded_headers_are_the_declared_fields(tmp_path):
    path = catalogue(tmp_path, [["ID", " Name ", "NOTE", "Strength", "cost", "Copies"], ["k", "Knight", "x", 6, 2.5, 2]])
    assert values(path) == [("k", "Knight", "x", 6, 2.5, 2)]


def test_a_capitalised_header_keeps_its_column_in_messages(tmp_path):
    path = catalogue(tmp_path, [["ID", "Name", "Note", "Strength", "Cost"], ["k", "Knight", "x", "lots", 2]])
    assert error(path).endswith("tokens.xlsx:2: strength (column D): expected a whole number, got 'lots'")


@pytest.mark.parametrize("header, message", [
    ("name,Name,note,strength,cost", "tokens.csv:1: header names the field 'name' twice: 'name' (column A) and 'Name' (column B)"),
    ("NAME,note,name,strength,cost", "tokens.csv:1: header names the field 'name' twice: 'NAME' (column A) and 'name' (column C)"),
    ("Name,NAME,note,strength,cost", "tokens.csv:1: header names the field 'name' twice: 'Name' (column A) and 'NAME' (column B)"),
    ("Name,note,Name,strength,cost", "tokens.csv:1: header names 'Name' twice (columns A and C)"),
    ("Name,note,Strenght,cost",
     "tokens.csv:1: Strenght (column C): unknown field; did you mean 'strength'? (fields: id, copies, name, note, strength, cost)"),
])
def test_headers_that_collide_or_miss_name_both_columns(tmp_path, header, message):
    got = error(catalogue(tmp_path, header + "\n" + ",".join("1" for _ in header.split(",")) + "\n", "csv"))
    assert got.endswith(message), got


def test_exact_case_wins_over_a_case_insensitive_match(tmp_path):
    path = catalogue(tmp_path, "name,note,strength,cost\nA,x,1,2\n", "csv")
    path.write_text(path.read_text("utf-8").replace("{name: text,", "{name: text, Name: text,")
                    .replace('"{name}"', '"{name}{Name}"'), "utf-8")
    (tmp_path / "tokens.csv").write_text("Name,name,note,strength,cost\nB,A,x,1,2\n", "utf-8")
    cat = load_catalogue(path)
    assert (cat.tokens[0].value("name"), cat.tokens[0].value("Name")) == ("A", "B")
    (tmp_path / "tokens.csv").write_text("NAME,note,strength,cost\nA,x,1,2\n", "utf-8")  # two fields match: neither is taken
    assert error(path).endswith("tokens.csv:1: NAME (column A): unknown field; did you mean 'Name'? (fields: id, copies, name, Name, note, strength, cost)")


# -- decimal commas in a semicolon-separated CSV ----------------------------------------------------
def test_semicolon_csv_reads_decimal_commas(tmp_path):
    text = "\ufeffid;name;note;strength;cost;copies\nk;Chevalier;2,5;6;2,5;2\nm;Mage;x;3,0;-0,25;1\nr;Rôdeur;y;4;\u22120,5;1\n"
    path = catalogue(tmp_path, text, "csv")
    assert values(path) == [("k", "Chevalier", "2,5", 6, 2.5, 2), ("m", "Mage", "x", 3, -0.25, 1), ("r", "Rôdeur", "y", 4, -0.5, 1)]
    words = pdf_words(path, tmp_path / "out.pdf")
    assert words.count("6/2.5") == 2 and "3/-0.25" in words and words.count("2,5") == 2


def test_semicolon_csv_keeps_points_that_are_no_thousands(tmp_path):
    """Only a point between groups of three digits is refused: 0.125, 2.5 and -3.75 stay decimals."""
    path = catalogue(tmp_path, "id;name;note;strength;cost\na;A;x;1;0.125\nb;B;x;2;2.5\nc;C;x;3;-3.75\n", "csv")
    assert [v[4] for v in values(path)] == [0.125, 2.5, -3.75]


@pytest.mark.parametrize("text, message", [
    ("name;note;strength;cost\nA;x;2,5;1\n", "tokens.csv:2: strength (column C): expected a whole number, got '2,5'"),
    ("name;note;strength;cost\nA;x;1;1.234,5\n",
     "tokens.csv:2: cost (column D): expected a number, got '1.234,5' (write it without thousands separators: 1234,5)"),
    ("name;note;strength;cost\nA;x;1 234;1\n",
     "tokens.csv:2: strength (column C): expected a whole number, got '1 234' (write it without thousands separators: 1234)"),
    ("name;note;strength;cost\nA;x;1;1,234,5\n", "tokens.csv:2: cost (column D): expected a number, got '1,234,5'"),
    ("name;note;strength;cost\nA;x;1;1.500\n",  # a thousands point, as a German-locale sheet writes 1500
     "tokens.csv:2: cost (column D): expected a number, got '1.500', which a semicolon-separated sheet writes for 1500; "
     "write 1500 for that, or 1,500 for a decimal"),
    ("name;note;strength;cost\nA;x;12.000.000;1\n",
     "tokens.csv:2: strength (column C): expected a whole number, got '12.000.000', which a semicolon-separated sheet writes "
     "for 12000000; write 12000000"),
    ('name,note,strength,cost\nA,x,1,"2,5"\n', "tokens.csv:2: cost (column D): expected a number, got '2,5'"),
    ('name,note,strength,cost\nA,x,1,"1.234,5"\n', "tokens.csv:2: cost (column D): expected a number, got '1.234,5'"),
])
def test_decimal_comma_errors(tmp_path, text, message):
    got = error(catalogue(tmp_path, text, "csv"))
    assert got.endswith(message), got


# -- CSV quoting (RFC 4180, as Excel writes it) ------------------------------------------------------
@pytest.mark.parametrize("sep", [",", ";"])
def test_csv_quoting_doubled_quotes_separators_and_line_breaks(tmp_path, sep):
    """Only the separator is taken from the header; a quoted field may hold doubled quotes, the
    separator and a line break, in comma and semicolon files alike (BOM kept working)."""
    rows = [["id", "name", "note", "strength", "cost"],
            ["a", '"He said ""hi"" ok"', '"x"""', "1", "2"],
            ["b", '"""y"""', f'"one{sep} two"', "3", "4"]]
    text = "\ufeff" + "".join(sep.join(r) + "\r\n" for r in rows)
    assert values(catalogue(tmp_path, text, "csv")) == [("a", 'He said "hi" ok', 'x"', 1, 2, 1), ("b", '"y"', f"one{sep} two", 3, 4, 1)]


def test_csv_quoted_line_break_is_one_cell(tmp_path):
    """The line break is read inside the cell (then refused: a text field prints on one line)."""
    text = 'id;name;note;strength;cost\na;"two\nlines";x;1;2\nb;B;x;many;2\n'
    assert error(catalogue(tmp_path, text, "csv")).endswith(
        "tokens.csv:2: name (column B): character U+000A (a line break, tab or other control) cannot be printed on one line")


def test_check_names_the_spreadsheet_row_and_column_once(tmp_path, run):
    """check reports a bad cell as build does: the spreadsheet, its row, the column, then the
    message (not nested inside a catalogue line)."""
    path = catalogue(tmp_path, "ID,Name,Note,Strength,Cost\nknight,Knight,x,6,1\n,,,,\nÉlan,Élan,y,3,1\n", "csv")
    sheet = tmp_path / "tokens.csv"
    result = run("check", str(path))
    assert result.exit_code == 1
    assert result.stdout.splitlines()[2:] == [
        f"{sheet}:4: error catalogue: id (column A): id 'Élan' must be lowercase letters, digits, '-' or '_'"]
    result = run("check", str(path), "--format", "json")
    assert json.loads(result.stdout)["findings"] == [{
        "severity": "error", "code": "catalogue", "message": "id 'Élan' must be lowercase letters, digits, '-' or '_'",
        "line": 4, "field": "id (column A)", "data": {}, "file": str(sheet)}]
    assert run("build", str(path), "-o", str(tmp_path / "x.pdf")).stderr == (
        f"tokengen: error: {sheet}:4: id (column A): id 'Élan' must be lowercase letters, digits, '-' or '_'\n")


# -- merged cells: read as the sheet shows them (a new user's sheet, issue 43) -------------------
def _merged_workbook(folder: Path, rows: list[list], merges: list[str]) -> Path:
    """A workbook as a spreadsheet program saves one with merged cells (openpyxl's normal writer),
    and the catalogue reading it."""
    import openpyxl

    book = openpyxl.Workbook()
    for row in rows:
        book.active.append(row)
    for ref in merges:
        book.active.merge_cells(ref)
    book.save(folder / "tokens.xlsx")
    path = folder / "cat.yaml"
    path.write_text(textwrap.dedent(CATALOGUE.replace("{ext}", "xlsx")), "utf-8")
    return path


def test_a_cell_merged_down_a_column_gives_each_row_its_value(tmp_path):
    path = _merged_workbook(tmp_path, [HEADER, ["orc", "Orc", "Infantry", 5, 1], ["gob", "Goblin", None, 3, 1],
                                       ["elf", "Elf", "Archer", 4, 2]], ["C2:C3"])
    assert values(path) == [("orc", "Orc", "Infantry", 5, 1, 1), ("gob", "Goblin", "Infantry", 3, 1, 1),
                            ("elf", "Elf", "Archer", 4, 2, 1)]
    assert pdf_words(path, tmp_path / "out.pdf").count("Infantry") == 2


def test_a_title_merged_across_the_header_is_refused_by_its_range(tmp_path, run):
    path = _merged_workbook(tmp_path, [["Orc army: unit list"], HEADER, ["orc", "Orc", "Infantry", 5, 1]], ["A1:E1"])
    message = ("cells A1:E1 are merged across columns, showing 'Orc army: unit list' over several; each column is one "
               "field (and the first row the field names): unmerge them, or delete a title row above the header")
    result = run("build", str(path), "-o", str(tmp_path / "out.pdf"))
    assert result.exit_code == 2 and not (tmp_path / "out.pdf").exists()
    assert result.stderr == f"tokengen: error: {tmp_path / 'tokens.xlsx'}:1: {message}\n"
    checked = run("check", str(path))
    assert checked.exit_code == 1 and message in checked.stdout
