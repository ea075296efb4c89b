"""Cells as the spreadsheet shows them: error values refused by cell name, dates, times, booleans
and numbers printed in the cell's number format, bold and italic runs kept, CSV text as typed.
Workbooks are built with openpyxl in tmp_path; what prints is read back from the built PDF."""

from __future__ import annotations

import datetime
import re
import zipfile
from pathlib import Path

import openpyxl
import pdfplumber
import pytest
from openpyxl.cell.rich_text import CellRichText, TextBlock
from openpyxl.cell.text import InlineFont

from tokengen import BuildOptions, SheetSpec, build_pdf, load_catalogue
from tokengen.errors import CatalogueError
from tokengen.sources.cellformat import format_date
from tokengen.sources.table import format_number
from tokengen.units import parse_page

CATALOGUE = """\
title: Cells
fields: {name: text, cost: number}
template:
  - {text: "{name}", at: [0.5, 0.5], size: 0.12}
tokens: tokens.%s
"""
#: The text in a box, where markup is read.
BOXED = '{text: "{name}", box: [0.05, 0.3, 0.9, 0.4], size: 0.1, fit: false}'



def sheet(folder: Path, cells: list[tuple[object, str | None]], cost: object = 1) -> Path:
    """A catalogue over ``tokens.xlsx``: one token per cell of ``cells`` (value, number format
    or None), in column B under the header ``name``; returns the catalogue's path."""
    book = openpyxl.Workbook()
    book.active.append(["id", "name", "cost"])
    for i, (value, fmt) in enumerate(cells):
        book.active.append([f"t{i}", value, cost])
        if fmt is not None:
            book.active.cell(row=i + 2, column=2).number_format = fmt
    book.save(folder / "tokens.xlsx")
    path = folder / "cat.yaml"
    path.write_text(CATALOGUE % "xlsx", "utf-8")
    return path


def error(path: Path) -> str:
    with pytest.raises(CatalogueError) as info:
        load_catalogue(path)
    return str(info.value)


def printed(path: Path, out: Path) -> list[str]:
    """The tokens' texts as the built PDF holds them (in the sheet's order)."""
    cat = load_catalogue(path)
    build_pdf(cat, BuildOptions(sheet=SheetSpec(page=parse_page("letter"), size=cat.size)), out)
    with pdfplumber.open(out) as pdf:
        lines = []
        for page in pdf.pages:
            words = page.extract_words(keep_blank_chars=True, x_tolerance=1.5, extra_attrs=["size"])
            lines += [w["text"] for w in words if w["size"] > 8]  # the token's text, not the page's small print
        return lines


# -- error values --------------------------------------------------------------------------------
@pytest.mark.parametrize("code", ["#N/A", "#DIV/0!", "#REF!", "#VALUE!", "#NAME?", "#NUM!", "#NULL!"])
def test_an_error_cell_is_refused_at_its_row_and_column(tmp_path, code):
    path = sheet(tmp_path, [("fine", None), ("fine", None), (code, None)])
    assert error(path).startswith(f"{tmp_path / 'tokens.xlsx'}: B4: {code} is an error value in the sheet")


def test_an_error_cell_is_one_line_from_the_cli(tmp_path, run):
    path = sheet(tmp_path, [("#N/A", None)])
    for command in (["check", str(path)], ["build", str(path), "-o", str(tmp_path / "x.pdf")]):
        result = run(*command)
        said = result.stdout + result.stderr
        assert result.exit_code != 0 and "Traceback" not in said
        assert said.count("B2: #N/A is an error value in the sheet") == 1, said
        assert command[0] != "build" or "tokens.xlsx: B2: #N/A is an error value in the sheet" in result.stderr


def test_an_error_cell_in_a_hidden_row_is_skipped_with_the_row(tmp_path):
    path = sheet(tmp_path, [("shown", None), ("#N/A", None)])
    book = openpyxl.load_workbook(tmp_path / "tokens.xlsx")
    book.active.row_dimensions[3].hidden = True
    book.save(tmp_path / "tokens.xlsx")
    assert [t.value("name") for t in load_catalogue(path).tokens] == ["shown"]


# -- number formats --------------------------------------------------------------------------------
SHOWN = [
    (datetime.datetime(2026, 1, 12), "d-mmm", "12-Jan"),  # "1/12" typed in Excel (en-US)
    (datetime.datetime(2026, 1, 12), "d-mmm-yy", "12-Jan-26"),
    (datetime.datetime(2026, 1, 12), "mmm-yy", "Jan-26"),
    (datetime.datetime(2026, 1, 12), "mm-dd-yy", "1/12/2026"),  # built-in 14: the short date (en-US)
    (datetime.datetime(2026, 1, 12), "ddd d mmm", "Mon 12 Jan"),
    (datetime.datetime(2026, 3, 1), "dddd", "Sunday"),
    (datetime.datetime(2026, 3, 1), "mmmm", "March"),
    (datetime.datetime(2026, 1, 12), "DD/MM/YYYY", "12/01/2026"),  # LibreOffice writes codes in capitals
    (datetime.datetime(2026, 1, 12, 14, 5), "h:mm AM/PM", "2:05 PM"),
    (datetime.time(9, 5, 7), "hh:mm:ss", "09:05:07"),
    (datetime.timedelta(hours=36, minutes=30), "[h]:mm", "36:30"),
    (True, None, "TRUE"),
    (False, "0.00", "FALSE"),
    (0.125, "0.00", "0.13"),
    (0.25, "0%", "25%"),
    (1234567, "#,##0", "1,234,567"),
    (42, "General", "42"),
]


def test_cells_print_in_their_number_format(tmp_path):
    path = sheet(tmp_path, [(value, fmt) for value, fmt, _ in SHOWN])
    assert [t.value("name") for t in load_catalogue(path).tokens] == [text for *_, text in SHOWN]
    assert sorted(printed(path, tmp_path / "out.pdf")) == sorted(text for *_, text in SHOWN)


@pytest.mark.parametrize("value, fmt", [(0.75, "# ?/?"), (150, '[>100]"big";"small"'),
                                        (datetime.datetime(2026, 1, 12), "[DBNum1]d")])
def test_a_format_not_shown_is_refused_in_a_text_field(tmp_path, value, fmt):
    path = sheet(tmp_path, [(value, fmt)])
    message = error(path)
    assert message.startswith(f"{tmp_path / 'tokens.xlsx'}:2: name (column B): the cell's number format ")
    assert "is not one tokengen can show as the sheet does" in message


def test_a_format_not_shown_still_gives_a_number_field_its_number(tmp_path):
    book = openpyxl.Workbook()
    book.active.append(["id", "name", "cost"])
    book.active.append(["a", "x", 0.75])
    book.active.cell(row=2, column=3).number_format = "# ?/?"
    book.save(tmp_path / "tokens.xlsx")
    (tmp_path / "cat.yaml").write_text(CATALOGUE % "xlsx", "utf-8")
    assert load_catalogue(tmp_path / "cat.yaml").tokens[0].value("cost") == 0.75


def test_a_csv_keeps_its_text_as_typed(tmp_path):
    (tmp_path / "tokens.csv").write_text("id,name,cost\na,1/12,1\nb,TRUE,2\nc,0.50,3\nd,007,4\n", "utf-8")
    (tmp_path / "cat.yaml").write_text(CATALOGUE % "csv", "utf-8")
    assert [t.value("name") for t in load_catalogue(tmp_path / "cat.yaml").tokens] == ["1/12", "TRUE", "0.50", "007"]


@pytest.mark.parametrize("value, fmt, text", [
    (datetime.datetime(2026, 1, 12, 0, 0, 59, 600_000), "h:mm:ss", "0:01:00"),  # rounded to the shown second
    (datetime.datetime(2026, 1, 12, 0, 0, 59, 600_000), "h:mm:ss.0", "0:00:59.6"),
    (datetime.datetime(2026, 12, 31, 23, 59, 59, 700_000), "yyyy-mm-dd hh:mm:ss", "2027-01-01 00:00:00"),
    (datetime.time(0, 30), "h:mm AM/PM", "12:30 AM"),
    (datetime.time(13, 30), "h:mm A/P", "1:30 P"),
    (datetime.datetime(2026, 3, 4), 'd" of "mmmm', "4 of March"),
    (datetime.datetime(2026, 3, 4), "[$-409]mmmmm", "M"),
    (datetime.datetime(2026, 3, 4), "[Red]d\\.m\\.yy", "4.3.26"),
    (datetime.timedelta(minutes=90, seconds=5), "[mm]:ss", "90:05"),
    (datetime.time(14, 30), "d-mmm", None),  # a date part of a time alone
    (datetime.datetime(2026, 3, 4), "ge.m.d", None),  # an era
    (datetime.datetime(2026, 1, 12), "[$-407]DD. MMMM YYYY", None),  # German names: not shown in English
    (datetime.datetime(2026, 1, 12), "[$-407]DD.MM.YYYY", "12.01.2026"),  # no names: the locale does not matter
    (datetime.datetime(2026, 1, 12), "[$-x-sysdate]dddd, mmmm dd, yyyy", "Monday, January 12, 2026"),
])
def test_format_date(value, fmt, text):
    assert format_date(value, fmt) == text


@pytest.mark.parametrize("value, fmt, text", [
    (5, "+0;-0;0", "+5"), (-5, "+0;-0;0", "-5"), (0, "+0;-0;0", "0"), (-3, "[Red]0;[Red]-0", "-3"),
    (12345, "0.00E+00", "1.23E+04"), (1234.5, '_-* #,##0.00_-;-* #,##0.00_-;_-* "-"??_-;_-@_-', "1,234.50"),
    (0.75, "# ?/?", None), (1e6, "#,##0.0,,", None),
])
def test_format_number(value, fmt, text):
    assert format_number(value, fmt) == text


# -- rich text ---------------------------------------------------------------------------------------
def test_bold_and_italic_runs_of_a_cell_print_bold_and_italic(tmp_path):
    rich = CellRichText("Deal ", TextBlock(InlineFont(b=True), "2 "), "damage, ", TextBlock(InlineFont(i=True), "then"),
                        " ", TextBlock(InlineFont(b=True, i=True), "rest"))
    path = sheet(tmp_path, [(rich, None)])
    path.write_text(path.read_text("utf-8").replace('{text: "{name}", at: [0.5, 0.5], size: 0.12}', BOXED), "utf-8")
    assert load_catalogue(path).tokens[0].value("name") == "Deal **2** damage, *then **rest***"
    build_pdf(load_catalogue(path), BuildOptions(sheet=SheetSpec(page=parse_page("letter"), size=1 * 72)), tmp_path / "o.pdf")
    with pdfplumber.open(tmp_path / "o.pdf") as pdf:
        chars = [c for c in pdf.pages[0].chars if c["text"].strip()][:20]
    fonts = {c["text"]: c["fontname"] for c in chars}
    assert "".join(c["text"] for c in chars) == "Deal2damage,thenrest"
    assert "Bold" in fonts["2"] and "Bold" not in fonts["D"] and "Bold" not in fonts["m"]
    assert "Italic" in fonts["h"] or "Oblique" in fonts["h"]
    assert "Bold" in fonts["r"] and ("Italic" in fonts["r"] or "Oblique" in fonts["r"])


def test_a_rich_cell_and_a_csv_with_the_same_markup_print_alike(tmp_path):
    rich = CellRichText("Take ", TextBlock(InlineFont(b=True), "2"))
    sheet(tmp_path, [(rich, None)])
    xlsx = load_catalogue(tmp_path / "cat.yaml").tokens[0].value("name")
    (tmp_path / "tokens.csv").write_text("id,name,cost\nt0,Take **2**,1\n", "utf-8")
    (tmp_path / "cat.yaml").write_text(CATALOGUE % "csv", "utf-8")
    assert load_catalogue(tmp_path / "cat.yaml").tokens[0].value("name") == xlsx


def test_a_rich_header_or_number_cell_reads_its_plain_text(tmp_path):
    """A header cell with a bold run names its field; a number typed with a bold run is the
    number (bold or italic runs style text fields only)."""
    book = openpyxl.Workbook()
    book.active.append(["id", CellRichText(TextBlock(InlineFont(b=True), "na"), "me"), "cost"])
    book.active.append(["a", "x", CellRichText(TextBlock(InlineFont(i=True), "2"), ".5")])
    book.save(tmp_path / "tokens.xlsx")
    (tmp_path / "cat.yaml").write_text(CATALOGUE % "xlsx", "utf-8")
    token = load_catalogue(tmp_path / "cat.yaml").tokens[0]
    assert (token.value("name"), token.value("cost")) == ("x", 2.5)


def test_a_general_number_prints_without_binary_noise(tmp_path):
    path = sheet(tmp_path, [(0.1 + 0.2, None), (0.1 + 0.2, "General"), (2.5, None), (1 / 3, None)])
    assert [t.value("name") for t in load_catalogue(path).tokens] == ["0.3", "0.3", "2.5", "0.333333333333333"]


def test_a_date_cell_past_the_dates_a_sheet_shows_is_refused_by_cell(tmp_path):
    path = sheet(tmp_path, [(3_000_000, "yyyy-mm-dd")])  # day 3,000,000: past the year 9999
    assert error(path) == (f"{tmp_path / 'tokens.xlsx'}: B2: a date or time cell holds 3000000, outside the dates a "
                           "spreadsheet shows (1900 to 9999)")


def test_a_rich_cell_on_one_line_prints_its_plain_text(tmp_path):
    """One-line text reads no markup: a rich cell prints its words, without stars."""
    path = sheet(tmp_path, [(CellRichText("Take ", TextBlock(InlineFont(b=True), "2")), None)])
    assert printed(path, tmp_path / "out.pdf") == ["Take 2"]


def test_a_rich_cell_in_a_box_without_markup_prints_its_words(tmp_path):
    path = sheet(tmp_path, [(CellRichText("Take ", TextBlock(InlineFont(b=True), "2")), None)])
    path.write_text(path.read_text("utf-8").replace('{text: "{name}", at: [0.5, 0.5], size: 0.12}',
                                                    BOXED.replace("fit: false", "fit: false, markup: false")), "utf-8")
    build_pdf(load_catalogue(path), BuildOptions(sheet=SheetSpec(page=parse_page("letter"), size=1 * 72)), tmp_path / "o.pdf")
    with pdfplumber.open(tmp_path / "o.pdf") as pdf:
        assert pdf.pages[0].extract_text().startswith("Take 2\n")


def shared_strings(path: Path) -> None:
    """Rewrite the .xlsx at ``path`` (openpyxl writes text inline) with its text in a shared
    string table, as Excel and LibreOffice write it: each ``<is>`` becomes an ``<si>``."""
    with zipfile.ZipFile(path) as z:
        parts = {name: z.read(name) for name in z.namelist()}
    sheet_xml = parts["xl/worksheets/sheet1.xml"].decode("utf-8")
    strings: list[str] = []

    def share(match: re.Match[str]) -> str:
        strings.append(match.group(1))
        return f't="s"><v>{len(strings) - 1}</v></c>'

    parts["xl/worksheets/sheet1.xml"] = re.sub(r't="inlineStr"><is>(.*?)</is></c>', share, sheet_xml).encode("utf-8")
    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    parts["xl/sharedStrings.xml"] = (f'<sst xmlns="{main}" count="{len(strings)}" uniqueCount="{len(strings)}">'
                                     + "".join(f"<si>{s}</si>" for s in strings) + "</sst>").encode("utf-8")
    types = parts["[Content_Types].xml"].decode("utf-8")
    parts["[Content_Types].xml"] = types.replace("</Types>", '<Override PartName="/xl/sharedStrings.xml" ContentType='
                                                 '"application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
                                                 "</Types>").encode("utf-8")
    rels = parts["xl/_rels/workbook.xml.rels"].decode("utf-8")
    parts["xl/_rels/workbook.xml.rels"] = rels.replace("</Relationships>", '<Relationship Id="rIdShared" Type="http://schemas.'
                                                       'openxmlformats.org/officeDocument/2006/relationships/sharedStrings" '
                                                       'Target="sharedStrings.xml"/></Relationships>').encode("utf-8")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)


def test_rich_runs_in_the_shared_string_table_are_kept(tmp_path):
    """Excel and LibreOffice keep a cell's text, rich or not, in the shared string table."""
    rich = CellRichText("Deal ", TextBlock(InlineFont(b=True), "2"), " now")
    path = sheet(tmp_path, [(rich, None), ("plain_x005F_x000D_text", None)])
    shared_strings(tmp_path / "tokens.xlsx")
    with zipfile.ZipFile(tmp_path / "tokens.xlsx") as z:
        assert "xl/sharedStrings.xml" in z.namelist()
    assert [t.value("name") for t in load_catalogue(path).tokens] == ["Deal **2** now", "plain_x000D_text"]


def test_run_styles_not_printed_are_named_once_in_build_and_check(tmp_path, run):
    superscript = CellRichText("10 m", TextBlock(InlineFont(vertAlign="superscript"), "2"))
    red = CellRichText("a ", TextBlock(InlineFont(b=True, color="FFFF0000", u="single"), "red"), " word")
    path = sheet(tmp_path, [("plain", None), (superscript, None), (red, None)])
    for command in (["check", str(path)], ["build", str(path), "-o", str(tmp_path / "x.pdf")]):
        said = [line for line in (lambda r: r.stdout + r.stderr)(run(*command)).splitlines() if "not printed" in line]
        assert len(said) == 1 and "tokens.xlsx" in said[0], said
        assert said[0].endswith("B3: the superscript of part of the text is not printed, only its bold and italic "
                                "(and in 1 more cell)"), said


def test_bold_runs_written_with_the_cells_font_are_not_named(tmp_path, run):
    """Excel and LibreOffice write every run with its font, size and colour, the cell's own."""
    rich = CellRichText("Deal ", TextBlock(InlineFont(rFont="Calibri", sz=11, b=True, color="FF000000"), "2"))
    path = sheet(tmp_path, [(rich, None)])
    result = run("build", str(path), "-o", str(tmp_path / "x.pdf"))
    assert result.exit_code == 0 and "not printed" not in result.stderr, result.stderr


def test_check_says_what_build_says_of_hidden_rows(tmp_path, run):
    path = sheet(tmp_path, [("shown", None), ("gone", None)])
    book = openpyxl.load_workbook(tmp_path / "tokens.xlsx")
    book.active.row_dimensions[3].hidden = True
    book.save(tmp_path / "tokens.xlsx")
    built = run("build", str(path), "-o", str(tmp_path / "x.pdf"))
    checked = run("check", str(path))
    assert "1 hidden row skipped (row 3)" in built.stderr
    assert "warning spreadsheet: 1 hidden row skipped (row 3)" in checked.stdout
