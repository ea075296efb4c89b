"""Spreadsheets read as their authors see them (issue 24): the visible sheet, blank rows, the
row and column limits, number formats, Excel's ``sep=`` line. Every file is made by the test."""

from __future__ import annotations

import textwrap
from pathlib import Path

import openpyxl
import pytest

from tokengen import load_catalogue
from tokengen.errors import CatalogueError
from tokengen.sources.table import Shown, read_table

CATALOGUE = """\
title: From a sheet
fields: {name: text}
template:
  - {text: "{name}", at: [0.5, 0.5], size: 0.12}
tokens: tokens.{ext}
"""


def names(folder: Path, ext: str) -> list[str]:
    path = folder / "cat.yaml"
    path.write_text(CATALOGUE.replace("{ext}", ext), "utf-8")
    return [t.value("name") for t in load_catalogue(path).tokens]


def error(path: Path) -> str:
    with pytest.raises(CatalogueError) as info:
        read_table(path, ["id", "name"])
    return str(info.value)


def test_the_visible_sheet_is_read_not_a_hidden_first_one(tmp_path: Path):
    book = openpyxl.Workbook()
    hidden = book.active
    hidden.title = "old"
    hidden.append(["name"])
    hidden.append(["secret"])
    seen = book.create_sheet("tokens")
    seen.append(["name"])
    seen.append(["shown"])
    hidden.sheet_state = "hidden"
    book.active = 1
    book.save(tmp_path / "tokens.xlsx")
    assert names(tmp_path, "xlsx") == ["shown"]
    book.active = 0  # an active sheet that is hidden (a broken file): the first visible one
    book.save(tmp_path / "tokens.xlsx")
    assert names(tmp_path, "xlsx") == ["shown"]


def test_the_active_visible_sheet_is_read(tmp_path: Path):
    book = openpyxl.Workbook()
    book.active.append(["name"])
    book.active.append(["first"])
    second = book.create_sheet("second")
    second.append(["name"])
    second.append(["second"])
    book.active = 1
    book.save(tmp_path / "tokens.xlsx")
    assert names(tmp_path, "xlsx") == ["second"]


def test_blank_lines_do_not_count_towards_the_row_limit(tmp_path: Path):
    (tmp_path / "tokens.csv").write_text("name\na\n" + "\n" * 10_001 + "b\n", "utf-8")
    assert names(tmp_path, "csv") == ["a", "b"]
    rows = read_table(tmp_path / "tokens.csv")
    assert [r.line for r in rows] == [2, 10_004]


def test_a_row_past_the_limit_is_an_error_not_a_cut_csv(tmp_path: Path):
    path = tmp_path / "tokens.csv"
    path.write_text("name\n\n" + "".join(f"t{i}\n" for i in range(10_001)), "utf-8")
    assert error(path) == (f"{path}:10003: has more than 10,000 token rows, the most one catalogue holds (a fixed limit, "
                           "not counting blank rows): split the tokens into two catalogues, or give repeated tokens a 'copies' column")
    path.write_text("name\n\n" + "".join(f"t{i}\n" for i in range(10_000)), "utf-8")
    assert len(read_table(path)) == 10_000


def test_a_row_past_the_limit_is_an_error_not_a_cut_xlsx(tmp_path: Path):
    book = openpyxl.Workbook()
    book.active.append(["name"])
    book.active.append([])
    for i in range(10_001):
        book.active.append([f"t{i}"])
    path = tmp_path / "tokens.xlsx"
    book.save(path)
    assert error(path).startswith(f"{path}:10003: has more than 10,000 token rows, the most one catalogue holds")


@pytest.mark.parametrize("column, letter", [(5, "E"), (257, "IW"), (300, "KN"), (16384, "XFD")])
def test_a_value_past_the_header_is_refused_at_any_column(tmp_path: Path, column: int, letter: str):
    book = openpyxl.Workbook()
    book.active.append(["id", "name"])
    book.active.append(["a", "x"])
    book.active.cell(row=2, column=column, value="stray")
    path = tmp_path / "tokens.xlsx"
    book.save(path)
    assert error(path) == f"{path}:2: row has a value in column {letter}, past the header's 2 columns"


def test_a_header_past_the_column_limit_is_refused(tmp_path: Path):
    book = openpyxl.Workbook()
    book.active.append(["id"])
    book.active.cell(row=1, column=300, value="late")
    path = tmp_path / "tokens.xlsx"
    book.save(path)
    assert error(path) == f"{path}:1: header has a name in column KN, past the 256 columns read"


def formatted(tmp_path: Path, cells: list[tuple[object, str]]) -> Path:
    book = openpyxl.Workbook()
    book.active.append(["name"])
    for value, fmt in cells:
        book.active.append([value])
        book.active.cell(row=book.active.max_row, column=1).number_format = fmt
    path = tmp_path / "tokens.xlsx"
    book.save(path)
    return path


def test_formatted_numbers_print_as_the_spreadsheet_shows_them(tmp_path: Path):
    formatted(tmp_path, [(7, "000"), (0.5, "0%"), (1234.5, "#,##0.00"), (0.125, "0.00"), (-1234, "#,##0;(#,##0)"),
                         (3, "General"), (2.5, '0.0 "gp"')])
    assert names(tmp_path, "xlsx") == ["007", "50%", "1,234.50", "0.13", "(1,234)", "3", "2.5 gp"]
    values = [r.values["name"] for r in read_table(tmp_path / "tokens.xlsx")]
    assert values == [Shown("007", 7), Shown("50%", 0.5), Shown("1,234.50", 1234.5), Shown("0.13", 0.125),
                      Shown("(1,234)", -1234), 3, Shown("2.5 gp", 2.5)]


def test_sep_line_names_the_separator(tmp_path: Path):
    path = tmp_path / "tokens.csv"
    path.write_text("sep=;\nid;name\na;x, y\nb;z\n", "utf-8")
    rows = read_table(path)
    assert [(r.values, r.line, r.header_line, r.decimal_comma) for r in rows] == [
        ({"id": "a", "name": "x, y"}, 3, 2, True), ({"id": "b", "name": "z"}, 4, 2, True)]
    path.write_text("\ufeffsep=|\r\nid|name\r\na|x;y,z\r\n", "utf-8")
    assert [(r.values, r.line, r.decimal_comma) for r in read_table(path)] == [({"id": "a", "name": "x;y,z"}, 3, False)]
    path.write_text("sep=,\nid,name\nb\n\nc,d,e\n", "utf-8")
    assert error(path) == f"{path}:5: row has a value in column C, past the header's 2 columns"


def test_a_header_named_sep_without_a_separator_is_a_header(tmp_path: Path):
    path = tmp_path / "tokens.csv"
    path.write_text(textwrap.dedent("""\
        sep=,name
        1,x
        """), "utf-8")
    assert [r.values for r in read_table(path)] == [{"sep=": "1", "name": "x"}]


def test_a_number_field_takes_the_number_behind_its_format(tmp_path: Path):
    """A number or integer field reads the stored number of a formatted cell (``0.00``, ``0%``,
    ``000``); a text field beside it shows the cell as the spreadsheet does."""
    book = openpyxl.Workbook()
    book.active.append(["name", "strength", "copies"])
    for row, (value, fmt) in enumerate([(7, "000"), (0.5, "0%"), (1234.5, "#,##0.00")], start=2):
        book.active.append([value, value, 2])
        for column in (1, 2, 3):
            book.active.cell(row=row, column=column).number_format = fmt if column < 3 else "00"
    book.save(tmp_path / "tokens.xlsx")
    path = tmp_path / "cat.yaml"
    path.write_text(CATALOGUE.replace("fields: {name: text}", "fields: {name: text, strength: number}").replace("{ext}", "xlsx"), "utf-8")
    tokens = load_catalogue(path).tokens
    assert [(t.value("name"), t.value("strength"), t.copies) for t in tokens] == [("007", 7, 2), ("50%", 0.5, 2), ("1,234.50", 1234.5, 2)]


@pytest.mark.parametrize("csv", [
    "name;strength\nA;25 %\nB;12,5\u00a0%\nC;-3%\n",  # LibreOffice in German: a decimal comma, a space before %
    "name,strength\nA,25%\nB,12.5 %\nC,-3%\n",
])
def test_a_csv_percentage_in_a_number_field_is_the_number_an_xlsx_percentage_cell_holds(tmp_path: Path, csv: str):
    """``25 %`` in a CSV number field is 0.25, as an .xlsx cell shown as 25% is (the stored number)."""
    book = openpyxl.Workbook()
    book.active.append(["name", "strength"])
    for name, value in (("A", 0.25), ("B", 0.125), ("C", -0.03)):
        book.active.append([name, value])
        book.active.cell(row=book.active.max_row, column=2).number_format = "0.0%"
    book.save(tmp_path / "tokens.xlsx")
    (tmp_path / "tokens.csv").write_text(csv, "utf-8")
    read = {}
    for ext in ("xlsx", "csv"):
        path = tmp_path / f"{ext}.yaml"
        path.write_text(CATALOGUE.replace("fields: {name: text}", "fields: {name: text, strength: number}").replace("{ext}", ext), "utf-8")
        read[ext] = [(t.value("name"), t.value("strength")) for t in load_catalogue(path).tokens]
    assert read["csv"] == read["xlsx"] == [("A", 0.25), ("B", 0.125), ("C", -0.03)]


def test_a_csv_percentage_in_an_integer_field_is_not_whole(tmp_path: Path):
    (tmp_path / "tokens.csv").write_text("name,copies\nA,25 %\n", "utf-8")
    path = tmp_path / "cat.yaml"
    path.write_text(CATALOGUE.replace("{ext}", "csv"), "utf-8")
    with pytest.raises(CatalogueError) as info:
        load_catalogue(path)
    assert str(info.value).endswith("tokens.csv:2: copies (column B): expected a whole number, got '25 %'")


def test_hidden_rows_are_skipped_with_one_warning(run, tmp_path: Path, monkeypatch):
    """Rows hidden by hand, or filtered out by an autofilter (Excel marks both ``hidden``), are not
    tokens: one warning names the spreadsheet and the rows; a hidden blank row is not counted."""
    monkeypatch.chdir(tmp_path)
    book = openpyxl.Workbook()
    sheet = book.active
    for row in (["name"], ["a"], ["b"], ["gone"], ["c"], [], ["d"], ["e"], ["filtered"], ["f"]):
        sheet.append(row)
    sheet.auto_filter.ref = "A1:A10"
    sheet.auto_filter.add_filter_column(0, ["a", "b", "c", "d", "e", "f"])
    for number in (4, 6, 9):  # 4 hidden by hand, 6 blank, 9 filtered out
        sheet.row_dimensions[number].hidden = True
    book.save(tmp_path / "tokens.xlsx")
    assert names(tmp_path, "xlsx") == ["a", "b", "c", "d", "e", "f"]
    hidden: list[int] = []
    assert [r.line for r in read_table(tmp_path / "tokens.xlsx", ["name"], hidden)] == [2, 3, 5, 7, 8, 10]
    assert hidden == [4, 9]
    result = run("build", "cat.yaml", "-o", "x.pdf")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == "tokengen: warning: tokens.xlsx: 2 hidden rows skipped (rows 4, 9)\n"


def test_a_sheet_whose_token_rows_are_all_hidden_says_so(tmp_path: Path):
    book = openpyxl.Workbook()
    book.active.append(["name"])
    book.active.append(["gone"])
    book.active.row_dimensions[2].hidden = True
    path = tmp_path / "tokens.xlsx"
    book.save(path)
    assert error(path) == f"{path}: has a header but no token rows; 1 hidden row skipped (row 2)"
