"""Lengths and page sizes (tokengen/units.py): exact values and exact messages, edge by edge.

These are the module's own tests for mutation testing (``make mutate``): each asserts a value a user
would see — a size in pt, a page's dimensions, a message.
"""

from __future__ import annotations

import pytest

from tokengen.units import PAGES, PT_PER_IN, PT_PER_MM, UNITS, counted, format_length, parse_length, parse_page

MM = 72 / 25.4


def test_constants():
    assert PT_PER_IN == 72.0
    assert PT_PER_MM == pytest.approx(2.834645669, abs=1e-9)
    assert UNITS == pytest.approx({"in": 72.0, "mm": MM, "cm": 10 * MM, "pt": 1.0})


def test_named_pages_in_points():
    # ANSI letter/legal/tabloid and ISO 216 A4/A3, portrait
    assert PAGES["letter"] == (612.0, 792.0)
    assert PAGES["legal"] == (612.0, 1008.0)
    assert PAGES["tabloid"] == (792.0, 1224.0)
    assert PAGES["a4"] == pytest.approx((595.2756, 841.8898), abs=1e-4)
    assert PAGES["a3"] == pytest.approx((841.8898, 1190.5512), abs=1e-4)
    assert list(PAGES) == ["letter", "legal", "tabloid", "a4", "a3"]


@pytest.mark.parametrize("text,pt", [
    ("1IN", 72.0), ("2Mm", 2 * MM), ("1.5CM", 15 * MM), ("+1in", 72.0), ("1.in", 72.0), ("1 in", 72.0),
    ("\t2.5cm\n", 25 * MM), ("0.001in", 0.072), ("12.5mm", 12.5 * MM), ("0in", 0.0), ("0.0mm", 0.0),
])
def test_parse_length_values(text: str, pt: float):
    assert parse_length(text) == pytest.approx(pt, abs=1e-9)


@pytest.mark.parametrize("text", ["0", "00", "0.", ".0", "0.0", " 0 ", "+0", "-0", "-0.0", 0, 0.0])
def test_a_bare_zero_needs_no_unit(text):
    value = parse_length(text)
    assert value == 0.0 and isinstance(value, float)


@pytest.mark.parametrize("text,message", [
    (True, "expected a length such as 1in or 25mm, got True"),
    (False, "expected a length such as 1in or 25mm, got False"),
    (5, "a length needs a unit (in, mm, cm, pt): 5"),
    (2.5, "a length needs a unit (in, mm, cm, pt): 2.5"),
    (-3, "a length needs a unit (in, mm, cm, pt): -3"),
    ("5", "a length needs a unit (in, mm, cm, pt): '5'"),
    (" 8.5 ", "a length needs a unit (in, mm, cm, pt): ' 8.5 '"),
    (".5", "a length needs a unit (in, mm, cm, pt): '.5'"),
    ("-2", "a length needs a unit (in, mm, cm, pt): '-2'"),
    ("7.", "a length needs a unit (in, mm, cm, pt): '7.'"),
    ("", "expected a length such as 1in or 25mm, got ''"),
    (".", "expected a length such as 1in or 25mm, got '.'"),
    ("1in2", "expected a length such as 1in or 25mm, got '1in2'"),
    ("in", "expected a length such as 1in or 25mm, got 'in'"),
    ("1 2in", "expected a length such as 1in or 25mm, got '1 2in'"),
    ("1e3in", "expected a length such as 1in or 25mm, got '1e3in'"),
    ("3ft", "unknown unit 'ft' in '3ft' (use in, mm, cm or pt)"),
    ("-0.5mm", "length must not be negative: '-0.5mm'"),
    ("9" * 400 + "in", "expected a length such as 1in or 25mm, got 402 characters (at most 64)"),
    ("1in".rjust(65), "expected a length such as 1in or 25mm, got 65 characters (at most 64)"),
])
def test_parse_length_refusals(text, message: str):
    with pytest.raises(ValueError) as err:
        parse_length(text)
    assert str(err.value) == message


@pytest.mark.parametrize("text", ["0", "0in", 0, "0.0mm", "-0in"])
def test_zero_refused_where_a_size_must_be_positive(text):
    with pytest.raises(ValueError) as err:
        parse_length(text, allow_zero=False)
    assert str(err.value) == f"length must be greater than zero: {text!r}"


def test_the_longest_length_text_read():
    assert parse_length("1in".rjust(64)) == 72.0
    assert parse_length("9" * 62 + "in") == float("9" * 62) * 72  # the largest number that fits is still finite


def test_page_text_length_is_bounded():
    assert parse_page("1in".rjust(64) + "x" + "2in".ljust(64)) == (72.0, 144.0)
    with pytest.raises(ValueError) as err:
        parse_page("1in".rjust(65) + "x" + "2in".ljust(64))
    assert str(err.value) == "unknown page: 130 characters is too long for a page name or WIDTHxHEIGHT"


def test_smallest_positive_length_is_fine_where_a_size_must_be_positive():
    assert parse_length("0.01pt", allow_zero=False) == pytest.approx(0.01)
    assert parse_length("1mm", allow_zero=False) == pytest.approx(MM)


@pytest.mark.parametrize("text,size", [
    ("letter", (612.0, 792.0)), (" Letter ", (612.0, 792.0)), ("LEGAL", (612.0, 1008.0)), ("tabloid", (792.0, 1224.0)),
    ("a3", PAGES["a3"]), ("8.5inx11in", (612.0, 792.0)), ("11inx8.5in", (792.0, 612.0)), ("210MMx297MM", PAGES["a4"]),
    ("100ptx50pt", (100.0, 50.0)),
])
def test_parse_page(text: str, size: tuple[float, float]):
    assert parse_page(text) == pytest.approx(size, abs=1e-9)


@pytest.mark.parametrize("text", ["letter", "8.5inx11in", "11inx8.5in"])
def test_landscape_puts_the_long_side_across(text: str):
    assert parse_page(text, landscape=True) == (792.0, 612.0)


def test_landscape_of_a_square_page():
    assert parse_page("5inx5in", landscape=True) == (360.0, 360.0)


@pytest.mark.parametrize("text,message", [
    ("8.5x11", "page size '8.5x11' needs units, e.g. 8.5inx11in or 210mmx297mm"),
    ("210X297", "page size '210X297' needs units, e.g. 210inx297in or 210mmx297mm"),
    ("folio", "unknown page 'folio': use one of letter, legal, tabloid, a4, a3, a ReportLab page name (a5, b5, c4, half_letter, …) or WIDTHxHEIGHT such as 210mmx297mm"),
    ("8.5x11in", "unknown page '8.5x11in': use one of letter, legal, tabloid, a4, a3, a ReportLab page name (a5, b5, c4, half_letter, …) or WIDTHxHEIGHT such as 210mmx297mm"),
    ("0inx11in", "length must be greater than zero: '0in'"),
    ("8.5inx0mm", "length must be greater than zero: '0mm'"),
    ("1inx2inx3in", "expected a length such as 1in or 25mm, got '2inx3in'"),
    ("-1inx2in", "length must not be negative: '-1in'"),
])
def test_parse_page_refusals(text: str, message: str):
    with pytest.raises(ValueError) as err:
        parse_page(text)
    assert str(err.value) == message


@pytest.mark.parametrize("pt,text", [
    (72, "1in"), (54, "0.75in"), (9, "0.125in"), (0.072, "0.001in"), (153, "2.125in"), (0, "0in"), (7200, "100in"),
    (25 * MM, "25mm"), (12.5 * MM, "12.5mm"), (3.5 * MM, "3.5mm"), (0.1 * MM, "0.1mm"), (1000 * MM, "1000mm"),
    (1, "1.00pt"), (100, "100.00pt"), (0.036, "0.04pt"), (12.345, "12.35pt"), (0.05 * MM, "0.14pt"),
])
def test_format_length(pt: float, text: str):
    assert format_length(pt) == text


def test_format_length_tolerates_float_noise_but_not_a_real_fraction():
    assert format_length(72 * (1 + 1e-12)) == "1in"
    assert format_length(25 * MM * (1 + 1e-12)) == "25mm"
    assert format_length(72.01) == "72.01pt"



def test_reportlab_page_names():
    from reportlab.lib import pagesizes

    from tokengen.units import page_names, reportlab_pages

    assert parse_page("a5") == pytest.approx((419.5276, 595.2756), abs=1e-4) == pagesizes.A5
    assert parse_page("Half_Letter") == (396.0, 576.0) == pagesizes.HALF_LETTER
    assert parse_page("ledger") == (1224.0, 792.0)                 # landscape as ReportLab gives it
    assert parse_page("a5", landscape=True) == pytest.approx((595.2756, 419.5276), abs=1e-4)
    assert parse_page("letter") == (612.0, 792.0)                  # ours first
    pages = reportlab_pages()
    assert pages["b5"] == pytest.approx(pagesizes.B5) and all(isinstance(v, float) for size in pages.values() for v in size)
    assert "landscape" not in pages and "portrait" not in pages     # functions, not sizes
    names = page_names()
    assert names[:5] == ["letter", "legal", "tabloid", "a4", "a3"]
    assert names.index("a5") < names.index("a10") < names.index("b0") and "a4" not in names[5:]


def test_reportlab_page_table_read_afresh(monkeypatch):
    # reportlab_pages() keeps its table after the first call: start from an empty cache so the
    # table is built here, then check it against ReportLab's own sizes (pt, portrait but ledger)
    from reportlab.lib import pagesizes

    from tokengen import units

    monkeypatch.setattr(units, "_REPORTLAB_PAGES", None)
    pages = units.reportlab_pages()
    assert pages is units.reportlab_pages()  # built once, then reused
    assert pages["a5"] == (419.52755905511816, 595.2755905511812) == pagesizes.A5
    assert pages["b5"] == (498.8976377952756, 708.6614173228347) == pagesizes.B5
    assert pages["c10"] == pagesizes.C10 and pages["a0"] == pagesizes.A0
    assert pages["half_letter"] == (396.0, 576.0) and pages["ledger"] == (1224.0, 792.0)
    assert pages["junior_legal"] == (360.0, 576.0) and pages["elevenseventeen"] == (792.0, 1224.0)
    assert all(type(v) is float for size in pages.values() for v in size)
    expected = {f"{series}{n}" for series in "abc" for n in range(11)} | {
        "letter", "legal", "elevenseventeen", "junior_legal", "half_letter", "gov_letter", "gov_legal", "tabloid", "ledger"}
    assert set(pages) == expected


def test_only_reportlab_upper_case_sizes_are_page_names(monkeypatch):
    # a lower-case pair in ReportLab's module (a helper, not a named size) is not a page name
    from reportlab.lib import pagesizes

    from tokengen import units

    monkeypatch.setattr(pagesizes, "margin_pair", (1.0, 2.0), raising=False)
    monkeypatch.setattr(units, "_REPORTLAB_PAGES", None)
    assert "margin_pair" not in units.reportlab_pages() and units.reportlab_pages()["a6"] == pagesizes.A6


@pytest.mark.parametrize("text,message", [
    ("201inx11in", "page '201inx11in' is 201in wide, more than 200in (14,400 pt), the largest page a PDF viewer opens "
                   "(PDF 1.7 reference, appendix C)"),
    ("8.5inx5081mm", "page '8.5inx5081mm' is 5081mm high, more than 200in (14,400 pt), the largest page a PDF viewer opens "
                     "(PDF 1.7 reference, appendix C)"),
])
def test_pages_larger_than_a_viewer_opens_are_refused(text: str, message: str):
    with pytest.raises(ValueError) as err:
        parse_page(text)
    assert str(err.value) == message


def test_the_largest_page_is_accepted():
    assert parse_page("200inx200in") == (14_400.0, 14_400.0)
    assert parse_page("200inx1in", landscape=True) == (14_400.0, 72.0)


@pytest.mark.parametrize(("count", "noun", "text"), [
    (0, "token", "0 tokens"), (1, "token", "1 token"), (2, "page", "2 pages"), (18, "set", "18 sets"), (-1, "row", "-1 rows"),
])
def test_counted_says_a_count_with_its_noun(count: int, noun: str, text: str) -> None:
    assert counted(count, noun) == text
