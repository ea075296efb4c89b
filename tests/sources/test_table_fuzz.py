"""Generated .xlsx workbooks (hypothesis, issue 24), alongside the catalogue and art fuzzing of
``test_outputs_build_fuzz*.py`` and under the same settings (``make fuzz`` runs many more).

Each workbook is written part by part with zipfile: ``[Content_Types].xml``, the package and
workbook relationships, ``xl/workbook.xml`` (one to three sheets, some hidden, any active tab),
the sheets' XML (inline, shared, number, boolean, error, date and formula cells, any cell
reference, style indexes in and out of range), ``xl/sharedStrings.xml`` (indexes past its end),
``xl/styles.xml`` (number formats, plain and odd), and a comments part that may unpack huge
(it compresses to a few KB on disk). Then one part may be damaged: cut short, bytes flipped,
tags spliced in, or left out; or the zip itself cut.

The property: :func:`read_table` returns rows or raises one :class:`CatalogueError` of one
line naming the workbook (and its row and column where there is one), never another exception,
each example in well under 10 s; ``tokengen check`` over a catalogue reading the workbook exits
0, 1 or 2 with an error of one line naming the workbook or the catalogue.
"""

from __future__ import annotations

import gc
import re
import resource
import tempfile
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

import pytest
from click.testing import CliRunner
from hypothesis import example, given
from hypothesis import strategies as st

from tests.outputs.test_build_fuzz import _Wrapper, examples
from tokengen.cli import main
from tokengen.errors import CatalogueError
from tokengen.sources.table import column_letter, read_table

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG = "http://schemas.openxmlformats.org/package/2006/relationships"
SHEET_TYPE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet"
#: The catalogue's field names, and header cells a hand-made sheet may hold besides.
FIELDS = ["id", "name", "copies", "strength", "cost", "note"]
NAMES = ["ID", "Name", "id", "", " ", "other"]
#: Number formats as spreadsheet programs write them, and some no program writes.
FORMATS = ["0", "000", "0.00", "#,##0.00", "0%", "0.0%", "0.00E+00", '0 "gp"', "#,##0;(#,##0)", "[$€-407]0.00",
           "yyyy-mm-dd", "h:mm", "[h]:mm", "@", "General", "# ?/?", "0,", ";;;", "\\", '"', "0.0E+", "[Red]0", "E+00", ""]
#: Cell values of every kind a sheet holds: (t attribute or None, the <v> text or None, an <f> text or None).
TEXTS = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12)
NUMBERS = st.one_of(st.integers(-10**20, 10**20).map(str), st.floats(allow_nan=True, allow_infinity=True).map(repr),
                    st.sampled_from(["1e308", "1e309", "-0", "NaN", "", "x", "2958466", "-1", "0.5"]))


def _xml(text: str) -> str:
    """``text`` as XML character data (characters XML 1.0 cannot hold are dropped)."""
    return escape(re.sub("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]", "", text))


@st.composite
def cells(draw: Any, strings: int, styles: int) -> str:
    """One ``<c>`` element (without its reference, added by the row); ``strings`` and ``styles``
    are how many shared strings and cell formats the workbook has (an index past them is rare)."""
    kind = draw(st.sampled_from(["inline", "shared", "number", "bool", "error", "date", "str", "formula", "empty"]))
    rare = draw(st.integers(0, 15)) == 0
    style = draw(st.one_of(st.integers(styles, styles + 2), st.just(2**31)) if rare else st.one_of(st.none(), st.integers(0, styles - 1)))
    s = "" if style is None else f' s="{style}"'
    if kind == "inline":
        return f'{s} t="inlineStr"><is><t>{_xml(draw(TEXTS))}</t></is></c>'
    if kind == "shared":  # an index in range, just past it, or far past it (or not a number)
        index = draw(st.one_of(st.integers(strings, strings + 3), st.sampled_from(["-1", "2147483648", "x", ""]))
                     if rare or not strings else st.integers(0, strings - 1))
        return f'{s} t="s"><v>{index}</v></c>'
    if kind == "number":
        return f"{s}><v>{draw(NUMBERS)}</v></c>"
    if kind == "bool":
        return f'{s} t="b"><v>{draw(st.sampled_from(["0", "1", "2", "true", ""]))}</v></c>'
    if kind == "error":
        return f'{s} t="e"><v>{draw(st.sampled_from(["#DIV/0!", "#N/A", "#REF!", "#VALUE!"]))}</v></c>'
    if kind == "date":
        return f'{s} t="d"><v>{draw(st.sampled_from(["2026-11-29", "2026-11-29T14:30:00", "14:30"] * 3 + ["9999-99-99", "x"]))}</v></c>'
    if kind == "str":
        return f'{s} t="str"><v>{_xml(draw(TEXTS))}</v></c>'
    if kind == "formula":  # with no saved value (as openpyxl writes), or with one
        value = draw(st.one_of(st.none(), NUMBERS))
        return f"{s}><f>{_xml(draw(TEXTS))}</f>" + ("" if value is None else f"<v>{value}</v>") + "</c>"
    return f"{s}/>"


@st.composite
def sheets(draw: Any, strings: int, styles: int) -> str:
    """A worksheet part: mostly a header of distinct field names then a few rows no wider than it
    (now and then an odd header: a repeated or empty name, a cell of any kind), any cells."""
    fields = draw(st.lists(st.sampled_from(FIELDS), min_size=1, max_size=len(FIELDS), unique=True))
    if draw(st.integers(0, 7)) == 0:
        fields.insert(draw(st.integers(0, len(fields))), draw(st.sampled_from(NAMES)))
    rows = []
    for number in range(1, draw(st.integers(0, 6)) + 1):
        row = draw(st.sampled_from(["0", "-3", "1048577", "x", None])) if draw(st.integers(0, 15)) == 0 else str(number)
        out = [f'<row r="{row}">' if row is not None else "<row>"]
        width = len(fields) if number == 1 else draw(st.integers(0, len(fields) + (draw(st.integers(0, 7)) == 0)))
        for i in range(width):
            if number == 1 and draw(st.integers(0, 15)) > 0:
                body = f' t="inlineStr"><is><t>{_xml(fields[i])}</t></is></c>'
            else:
                body = draw(cells(strings, styles))
            rare = draw(st.integers(0, 15)) == 0  # a column past MAX_COLUMNS or XFD, no reference, or a bad one
            col = draw(st.sampled_from([260, 16383])) if rare else i
            ref = draw(st.sampled_from(["", ' r="A0"', ' r="1A"', ' r="ZZZZ1"'])) if rare and draw(st.booleans()) else f' r="{column_letter(col)}{row}"'
            out.append(f"<c{ref}{body}")
        out.append("</row>")
        rows.append("".join(out))
    return f'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="{MAIN}"><sheetData>{"".join(rows)}</sheetData></worksheet>'


def workbook_parts(sheets: Sequence[str], strings: Sequence[str] = (), states: Sequence[str] = (), active: int = -1,
                   formats: Sequence[str] = (), xfs: Sequence[str] = ()) -> dict[str, bytes]:
    """The parts of a workbook (name → bytes) holding the worksheet parts ``sheets`` (each a whole
    XML text), the shared strings ``strings``, sheet states (``visible``), the active tab (none
    when negative), custom number formats (ids 164 on) and ``<xf>`` cell formats."""
    count = len(sheets)
    states = states or ["visible"] * count
    xfs = xfs or ['<xf numFmtId="0"/>']
    shared = "".join(f"<si><t>{_xml(t)}</t></si>" for t in strings)
    num_fmts = "".join(f'<numFmt numFmtId="{164 + i}" formatCode="{_xml(f)}"/>' for i, f in enumerate(formats))
    parts: dict[str, str] = {
        "[Content_Types].xml": '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                               '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
                               '<Default Extension="xml" ContentType="application/xml"/>'
                               '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
                               + "".join(f'<Override PartName="/xl/worksheets/sheet{i + 1}.xml" '
                                         'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' for i in range(count))
                               + '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
                               '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>'
                               "</Types>",
        "_rels/.rels": f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{PKG}"><Relationship Id="rId1" '
                       'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
        "xl/workbook.xml": f'<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="{MAIN}" xmlns:r="{REL}">'
                           + ("" if active < 0 else f'<bookViews><workbookView activeTab="{active}"/></bookViews>') + "<sheets>"
                           + "".join(f'<sheet name="S{i + 1}" sheetId="{i + 1}" state="{states[i]}" r:id="rId{i + 1}"/>' for i in range(count))
                           + "</sheets></workbook>",
        "xl/_rels/workbook.xml.rels": f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{PKG}">'
                                      + "".join(f'<Relationship Id="rId{i + 1}" Type="{SHEET_TYPE}" Target="worksheets/sheet{i + 1}.xml"/>' for i in range(count))
                                      + f'<Relationship Id="rId{count + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>'
                                      f'<Relationship Id="rId{count + 2}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>'
                                      "</Relationships>",
        "xl/sharedStrings.xml": f'<?xml version="1.0" encoding="UTF-8"?><sst xmlns="{MAIN}" count="{len(strings)}" uniqueCount="{len(strings)}">{shared}</sst>',
        "xl/styles.xml": f'<?xml version="1.0" encoding="UTF-8"?><styleSheet xmlns="{MAIN}">'
                         + (f'<numFmts count="{len(formats)}">{num_fmts}</numFmts>' if formats else "")
                         + f'<cellXfs count="{len(xfs)}">{"".join(xfs)}</cellXfs></styleSheet>',
    }
    for i, sheet in enumerate(sheets):
        parts[f"xl/worksheets/sheet{i + 1}.xml"] = sheet
    return {name: text.encode("utf-8") for name, text in parts.items()}


@st.composite
def workbooks(draw: Any) -> dict[str, bytes]:
    """The parts of a workbook, name → bytes, one of them possibly damaged or left out."""
    strings = [draw(TEXTS) for _ in range(draw(st.integers(0, 5)))]
    count = draw(st.integers(1, 3))
    states = [draw(st.sampled_from(["visible"] * 12 + ["hidden", "hidden", "veryHidden", "bogus"])) for _ in range(count)]
    active = draw(st.integers(-1, count - 1)) if draw(st.integers(0, 7)) else count
    formats = draw(st.lists(st.sampled_from(FORMATS), max_size=4))
    xfs = ['<xf numFmtId="0"/>'] + [f'<xf numFmtId="{draw(st.one_of(st.integers(0, 49), st.integers(164, 164 + len(formats) + 1)))}"/>'
                                    for _ in range(draw(st.integers(0, 6)))]
    if draw(st.integers(0, 15)) == 0:
        xfs.append(f'<xf numFmtId="{draw(st.sampled_from([-1, 2**31, 2**32]))}"/>')
    sheet_parts = [draw(sheets(len(strings), len(xfs))) for _ in range(count)]
    out = workbook_parts(sheet_parts, strings, states, active, formats, xfs)
    comment = draw(st.sampled_from([0] * 12 + [1_000, 1_000_000, 25 * 1024 * 1024]))  # huge unpacked, a few KB packed
    if comment:
        out["xl/comments1.xml"] = (f'<?xml version="1.0"?><comments xmlns="{MAIN}"><commentList><comment ref="A1"><text><t>'.encode()
                                   + b"a" * comment + b"</t></text></comment></commentList></comments>")
    damage = draw(st.sampled_from(["none"] * 8 + ["cut", "flip", "splice", "drop"]))
    if damage != "none":
        name = draw(st.sampled_from(sorted(out)))
        data = bytearray(out[name])
        if damage == "cut":
            out[name] = bytes(data[: draw(st.integers(0, len(data) - 1))])
        elif damage == "flip":
            for _ in range(draw(st.integers(1, 6))):
                data[draw(st.integers(0, len(data) - 1))] ^= draw(st.integers(1, 255))
            out[name] = bytes(data)
        elif damage == "splice":
            at = draw(st.integers(0, len(data)))
            piece = draw(st.sampled_from([b"<", b"</sheetData>", b"<!DOCTYPE x>", b'<c r="A1" t="s"><v>99</v></c>', b"&bogus;",
                                          b"<row>", b"\xff\xfe", b"<si><t>x</t></si>" * 3, b"<xf numFmtId=\"999\"/>"]))
            out[name] = bytes(data[:at]) + piece + bytes(data[at:])
        else:
            del out[name]
    return out


def write_workbook(parts: dict[str, bytes], path: Path, cut: int | None = None) -> Path:
    """Zip ``parts`` into ``path`` (deflated), the file then cut to ``cut`` bytes if given."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    if cut is not None:
        path.write_bytes(path.read_bytes()[:cut])
    return path


#: Mostly whole files; one in eight cut to a random length.
CUTS = st.integers(0, 7).flatmap(lambda k: st.integers(0, 4000) if k == 0 else st.none())
#: The peak memory (resident set) this process may reach while fuzzing, KiB: a generous bound,
#: far below what an unbounded read of the 25 MiB comment part, or a sheet of 16,384 columns, takes.
PEAK_KIB = 1_500_000


@examples(120)
@given(workbooks(), CUTS)
@example({"[Content_Types].xml": b""}, None)
def test_generated_workbooks_read_or_fail_in_one_line(parts: dict[str, bytes], cut: int | None):
    with tempfile.TemporaryDirectory() as tmp:
        path = write_workbook(parts, Path(tmp) / "tokens.xlsx", cut)
        try:
            rows = read_table(path, ["id", "name", "copies", "strength", "cost", "note"])
        except CatalogueError as exc:
            text = str(exc)
            assert exc.path == str(path), text
            assert text.startswith(f"{path}: ") or text.startswith(f"{path}:{exc.line}: "), text
            assert "\n" not in text and "\r" not in text, text
            if exc.line is not None:
                assert exc.line >= 1, text
        else:
            assert rows and all(r.line >= 1 for r in rows)
            assert all(set(r.values) <= set(r.columns) for r in rows)
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss < PEAK_KIB


CATALOGUE = """\
title: From a sheet
fields: {name: text, note: text, strength: integer, cost: number}
template:
  - {text: "{name}", at: [0.5, 0.3], size: 0.12}
  - {text: "{strength}/{cost}", at: [0.5, 0.85], size: 0.12}
tokens: tokens.xlsx
"""


@examples(30)
@given(workbooks(), CUTS)
def test_checking_a_catalogue_of_generated_workbooks_is_one_line(parts: dict[str, bytes], cut: int | None):
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        book = write_workbook(parts, folder / "tokens.xlsx", cut)
        cat = folder / "cat.yaml"
        cat.write_text(CATALOGUE, "utf-8")
        code: dict[str, int] = {}
        result = CliRunner().invoke(_Wrapper(lambda: code.setdefault("c", main(["check", str(cat)]))), [], catch_exceptions=False)
        assert code["c"] in (0, 1, 2), (code, result.stderr)
        if code["c"] == 2:
            stderr = result.stderr
            assert stderr.startswith((f"tokengen: error: {book}", f"tokengen: error: {cat}")), stderr
            assert stderr.endswith("\n") and stderr.count("\n") == 1, stderr


# ---- found by the fuzzing above ----------------------------------------------------------------


def _sheet(rows: str) -> str:
    return f'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="{MAIN}"><sheetData>{rows}</sheetData></worksheet>'


HEADER_ROW = ('<row r="1"><c r="A1" t="inlineStr"><is><t>id</t></is></c>'
              '<c r="B1" t="inlineStr"><is><t>name</t></is></c></row>')


def _error(tmp_path: Path, rows: str, strings: Sequence[str] = ("a", "last")) -> str:
    path = write_workbook(workbook_parts([_sheet(HEADER_ROW + rows)], strings), tmp_path / "tokens.xlsx")
    try:
        read_table(path, ["id", "name"])
    except CatalogueError as exc:
        return str(exc).replace(str(path), "tokens.xlsx")
    raise AssertionError("read")


def test_a_shared_string_index_below_zero_is_refused_at_its_cell(tmp_path: Path):
    # openpyxl indexes a Python list: -1 read the last shared string ('last') as the cell's text
    assert _error(tmp_path, '<row r="2"><c r="A2" t="s"><v>0</v></c><c r="B2" t="s"><v>-1</v></c></row>') == (
        "tokens.xlsx:2: column B: a shared-string cell refers to string -1, but the workbook has 2 (numbered from 0): a damaged file")


def test_a_shared_string_index_past_the_end_is_named_at_its_cell(tmp_path: Path):
    assert _error(tmp_path, '<row r="3"><c r="A3" t="s"><v>2</v></c></row>') == (
        "tokens.xlsx:3: column A: a shared-string cell refers to string 2, but the workbook has 2 (numbered from 0): a damaged file")


def test_a_shared_string_index_in_range_reads(tmp_path: Path):
    path = write_workbook(workbook_parts([_sheet(HEADER_ROW + '<row r="2"><c r="A2" t="s"><v>0</v></c><c r="B2" t="s"><v>1</v></c></row>')],
                                         ["a", "last"]), tmp_path / "tokens.xlsx")
    assert [r.values for r in read_table(path, ["id", "name"])] == [{"id": "a", "name": "last"}]


def test_an_unreadable_cell_value_is_named_at_its_cell(tmp_path: Path):
    assert _error(tmp_path, '<row r="2"><c r="A2" t="inlineStr"><is><t>a</t></is></c><c r="B2" t="b"><v>true</v></c></row>') == (
        "tokens.xlsx:2: column B: a boolean cell holds 'true', not 0 or 1: a damaged file")


def test_a_style_past_the_cell_formats_is_named_at_its_cell(tmp_path: Path):
    assert _error(tmp_path, '<row r="2"><c r="A2" t="inlineStr"><is><t>a</t></is></c><c r="B2" s="5"><v>7</v></c></row>') == (
        "tokens.xlsx:2: column B: a damaged cell (IndexError: list index out of range)")


@pytest.mark.parametrize("rows, message", [
    ('<row r="2"><c r="A0"><v>1</v></c></row>', "tokens.xlsx:2: cell reference 'A0' is not a cell (A1 to XFD1048576): a damaged file"),
    ('<row r="2"><c r="ZZZZ2"><v>1</v></c></row>', "tokens.xlsx:2: cell reference 'ZZZZ2' is not a cell (A1 to XFD1048576): a damaged file"),
    ('<row r="0"><c><v>1</v></c></row>', "tokens.xlsx: row number 0 is not a row (1 to 1,048,576): a damaged file"),
    ('<row r="-3"><c><v>1</v></c></row>', "tokens.xlsx: row number -3 is not a row (1 to 1,048,576): a damaged file"),
])
def test_a_cell_outside_the_sheet_is_refused(tmp_path: Path, rows: str, message: str):
    assert _error(tmp_path, rows) == message


def _open_files() -> set[str]:
    """The paths this process holds open (Linux: /proc/self/fd)."""
    folder = Path("/proc/self/fd")
    out = set()
    for fd in folder.iterdir():
        try:
            out.add(str(fd.readlink()))
        except OSError:
            continue
    return out


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="reads /proc/self/fd")
def test_a_workbook_openpyxl_refuses_is_closed_at_once(tmp_path: Path):
    # openpyxl left its zip open when it raised (ValueError from its sheet states): the file was
    # closed only by the garbage collector, a ResourceWarning (an error under the test settings)
    path = write_workbook(workbook_parts([_sheet(HEADER_ROW)], states=["bogus"]), tmp_path / "tokens.xlsx")
    gc.collect()
    gc.disable()
    try:
        with pytest.raises(CatalogueError) as info:
            read_table(path, ["id", "name"])
        assert str(path) not in _open_files()
    finally:
        gc.enable()
    # openpyxl's reason, not its "Unable to read workbook … from <file>" over it (a set: in any order)
    text = str(info.value)
    assert text.startswith(f"{path}: not a readable .xlsx workbook (ValueError: Value must be one of {{"), text
    assert sorted(re.findall(r"'(\w+)'", text)) == ["hidden", "veryHidden", "visible"], text
