"""Arrays and dictionaries in content streams are bounded before qpdf builds them (issue 37,
kind 10): a page whose ``TJ`` array held 2,000,000 numbers (a 5 KB file) passed preflight after
qpdf had built the array whole, in 400 MB. :mod:`tokengen.preflight.prescan` counts each
outermost container's items in the decoded bytes first; one over ``--max-operators`` / 10 is
refused by name. The scanner's counts are checked here on the lexical cases that could fool it:
strings holding brackets and parentheses (escaped, nested), hexadecimal strings, comments,
dictionaries and inline images."""

from __future__ import annotations

from pathlib import Path

import pikepdf
import pytest
from pikepdf import Dictionary, Name

from tests.preflight.test_totals import run_timed
from tokengen.limits import PREFLIGHT_LIMITS
from tokengen.preflight import prescan
from tokengen.preflight.pdfwalk import ITEMS_SHARE, SCAN_STEPS

CAP = PREFLIGHT_LIMITS["operators"] // ITEMS_SHARE


def tj_page(path: Path, numbers: int) -> Path:
    """One page showing text with a TJ array of ``numbers`` zeros (the reproducer's shape)."""
    pdf = pikepdf.new()
    page = pdf.add_blank_page()
    font = pdf.make_indirect(Dictionary(Type=Name.Font, Subtype=Name.Type1, BaseFont=Name.Helvetica))
    page.obj.Resources = Dictionary(Font=Dictionary(F1=font))
    page.obj.Contents = pdf.make_stream(b"BT /F1 12 Tf 72 72 Td [" + b"0 " * numbers + b"] TJ ET")
    pdf.save(path, compress_streams=True)
    return path


def refusal(path: Path, cap: int = CAP) -> str:
    return (f"tokengen: error: {path}: items of one array or dictionary in a page's content: more than the limit of "
            f"{cap:,} (the operators / {ITEMS_SHARE}; raise it with --max-operators)\n")


def test_a_tj_array_of_two_million_numbers_is_refused_before_qpdf_builds_it(tmp_path: Path):
    path = tj_page(tmp_path / "tj.pdf", 2_000_000)
    assert path.stat().st_size < 10_000
    code, out, err, _peak, _cpu = run_timed("preflight", str(path), "--profile", "home")
    assert (code, out, err) == (2, "", refusal(path))
    code, out, err, _peak, _cpu = run_timed("preview", str(path), "-o", str(tmp_path / "p.png"))
    assert (code, err) == (2, refusal(path)), out
    assert not (tmp_path / "p.png").exists()


def test_the_limit_follows_max_operators(tmp_path: Path):
    path = tj_page(tmp_path / "tj.pdf", CAP + 1)
    code, _out, err, _peak, _cpu = run_timed("preflight", str(path), "--profile", "home")
    assert (code, err) == (2, refusal(path))
    code, out, err, _peak, _cpu = run_timed("preflight", str(path), "--profile", "home", "--max-operators", str(2 * PREFLIGHT_LIMITS["operators"]))
    assert (code, err) == (1, f"tokengen: error: {path}: 1 of 13 preflight checks failed (fonts)\n"), out  # read, not refused
    path = tj_page(tmp_path / "at.pdf", CAP)  # at the limit: read
    code, out, err, _peak, _cpu = run_timed("preflight", str(path), "--profile", "home")
    assert code == 1 and "preflight checks failed (fonts)" in err, out + err


@pytest.mark.parametrize(("data", "items"), [
    (b"[1 2 3] TJ", 3),
    (b"[(]) (\\)]) (a(b)c]) <5D> 0 0] TJ", 6),               # ] and ) inside strings, escaped or in balanced groups
    (b"[(\\\\) 1 2] TJ", 3),                                   # an escaped backslash ends the string at its )
    (b"[(" + b"(" * 20 + b"]" + b")" * 20 + b") 1] TJ", 2),    # nesting past the one-match depth
    (b"[(" + b"(" * 200 + b"\\)" + b")" * 200 + b") 1] TJ", 2),  # an escape inside deep nesting
    (b"/P << /A [1 2 3] /B (x]) >> BDC", 7),                   # a dictionary: keys, values, a nested array's items
    (b"% [ 1 2 3\n[4 5] TJ", 2),                                # a comment is not read
    (b"[1 % ] 9 9\n2] TJ", 2),                                  # nor inside an array
    (b"BI /W 1 /H 1 ID \x00[[[((<< EI [1 2 3] TJ", 3),         # inline image data is skipped
    (b"[/a/b /c[1 2]{ }] TJ", 8),                                # names without spaces, a nested array, braces
    (b"[1 2] TJ [3 4 5 6] TJ [7] TJ", 4),                       # the largest of several
    (b"(unclosed [1 2 3]", 0),
])
def test_items_are_counted_as_qpdf_reads_them(data: bytes, items: int):
    assert prescan.largest_container(data, 1_000, 1_000) == items


def test_the_count_stops_past_the_cap():
    found = prescan.largest_container(b"[" + b"0 " * 5_000_000 + b"]", 100, 10)
    assert 100 < found <= 100 + (1 << 16)  # the count goes on at most one 64 KiB chunk past the cap


@pytest.mark.parametrize("data", [
    b"(" + b"()" * 50_000 + b")",                      # a string of many balanced groups: one match
    b"(" * 1_000_000 + b")" * 1_000_000,              # nested a million deep: a window per doubling
    b"%\n" * 1_000_000 + b"[1]",                      # comments next to each other: one step
])
def test_strings_and_comments_cost_few_steps(data: bytes):
    assert prescan.largest_container(data, 10, 100) <= 1


def test_the_scan_bounds_its_own_steps():
    with pytest.raises(prescan.TooManyTokens):
        prescan.largest_container(b"() " * 2_000, 10, 1_000)  # a string is a step
    with pytest.raises(prescan.TooManyTokens):
        prescan.largest_container(b"(" + (b"(" * 10 + b")" * 10) * 1_000 + b")", 10, 1_000)  # past the one-match depth: about 4 steps a tooth


def test_too_many_steps_is_refused_by_name(tmp_path: Path):
    pdf = pikepdf.new()
    pdf.add_blank_page().obj.Contents = pdf.make_stream(b"[] " * 70)
    pdf.save(tmp_path / "steps.pdf")
    code, _out, err, _peak, _cpu = run_timed("preflight", str(tmp_path / "steps.pdf"), "--profile", "home", "--max-operators", "20")
    assert (code, err) == (2, f"tokengen: error: {tmp_path / 'steps.pdf'}: strings, arrays, dictionaries and comments in a page's content: "
                              f"more than the limit of {SCAN_STEPS * 20:,} ({SCAN_STEPS} times the operators; raise it with --max-operators)\n")


def test_short_streams_are_not_scanned():
    assert not prescan.worth_scanning(b"[1 2 3] TJ", 5)  # 10 bytes, but 5 token starts at most
    assert not prescan.worth_scanning(b"[1 2 3] TJ", 10)  # too short
    assert prescan.worth_scanning(b"[" + b"1 " * 10 + b"]", 5)
