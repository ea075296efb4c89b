"""Pure geometry: imposition and units, with property tests (no PDF involved)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokengen.errors import LayoutError
from tokengen.geometry.imposition import SheetSpec, grid_for, mirror
from tokengen.geometry.pager import impose
from tokengen.units import PAGES, format_length, parse_length, parse_page


@pytest.mark.parametrize("text,pt", [("1in", 72.0), ("25.4mm", 72.0), ("2.54cm", 72.0), ("18pt", 18.0),
                                     ("0.125in", 9.0), (" 3 mm ", 3 * 72 / 25.4), ("0", 0.0), (".5in", 36.0)])
def test_parse_length(text: str, pt: float):
    assert parse_length(text) == pytest.approx(pt, abs=1e-9)


@pytest.mark.parametrize("text,message", [
    ("1furlong", "unknown unit 'furlong' in '1furlong' (use in, mm, cm or pt)"),
    ("-1in", "length must not be negative: '-1in'"),
    ("5", "a length needs a unit (in, mm, cm, pt): '5'"),
    ("inch", "expected a length such as 1in or 25mm, got 'inch'"),
])
def test_parse_length_errors(text: str, message: str):
    with pytest.raises(ValueError) as err:
        parse_length(text)
    assert str(err.value) == message


def test_pages():
    assert parse_page("letter") == (612.0, 792.0)
    assert parse_page("A4", landscape=True) == pytest.approx((841.8898, 595.2756), abs=1e-3)
    assert parse_page("210mmx297mm") == pytest.approx(PAGES["a4"])
    with pytest.raises(ValueError, match="unknown page 'folio'"):
        parse_page("folio")


def test_format_length():
    assert format_length(72) == "1in" and format_length(54) == "0.75in" and format_length(25 * 72 / 25.4) == "25mm"


def test_letter_capacity_and_a4():
    assert (grid_for(SheetSpec(page=PAGES["letter"])).columns, grid_for(SheetSpec(page=PAGES["letter"])).rows) == (8, 10)
    a4 = grid_for(SheetSpec(page=PAGES["a4"]))
    assert (a4.columns, a4.rows) == (7, 10)


def test_too_small_page_names_largest_size():
    with pytest.raises(LayoutError) as err:
        grid_for(SheetSpec(page=(100.0, 100.0), size=72.0))
    assert str(err.value) == "a 1in token does not fit on a 100.00pt × 100.00pt page with a 0.25in margin; the largest token that fits is 0.5in (12.7mm)"


def test_gutter_must_hold_two_bleeds():
    with pytest.raises(LayoutError, match="narrower than twice the bleed"):
        grid_for(SheetSpec(page=PAGES["letter"], bleed=9.0, gutter=9.0))


def test_mirror_long_and_short_edge():
    spec = SheetSpec(page=PAGES["letter"], columns=3)
    page = impose(18, spec)[0]
    long = mirror(page, "long")
    short = mirror(page, "short", offset=(1.5, -2.0))
    for face, back_l, back_s in zip(page.cells, long.cells, short.cells):
        assert back_l.trim.x == pytest.approx(612 - face.trim.x1) and back_l.trim.y == face.trim.y
        assert back_s.trim.y == pytest.approx(792 - face.trim.y1 - 2.0) and back_s.trim.x == face.trim.x + 1.5


lengths = st.floats(min_value=9.0, max_value=300.0, allow_nan=False)


@settings(max_examples=150, deadline=None)
@given(
    count=st.integers(min_value=1, max_value=400),
    width=st.floats(min_value=144.0, max_value=1400.0),
    height=st.floats(min_value=144.0, max_value=1400.0),
    size=lengths,
    margin=st.floats(min_value=0.0, max_value=36.0),
    bleed=st.floats(min_value=0.0, max_value=12.0),
    extra_gutter=st.floats(min_value=0.0, max_value=20.0),
    columns=st.one_of(st.none(), st.integers(min_value=1, max_value=12)),
)
def test_cells_inside_printable_area_and_never_overlap(count, width, height, size, margin, bleed, extra_gutter, columns):
    spec = SheetSpec(page=(width, height), size=size, margin=margin, bleed=bleed, gutter=2 * bleed + extra_gutter, columns=columns)
    try:
        grid = grid_for(spec)
    except LayoutError:
        assert size + 2 * bleed > min(width - 2 * margin, height - 2 * margin - 28) - 1e-6
        return
    pages = impose(count, spec, max_pages=None)
    assert len(pages) == math.ceil(count / grid.per_page)
    assert [c.index for p in pages for c in p.cells] == list(range(count))
    printable = grid.area
    for page in pages:
        boxes = [c.bleed_box for c in page.cells]
        for box in boxes:
            assert printable.contains(box, tol=1e-6)
            assert box.w == pytest.approx(size + 2 * bleed)
        for a, b in zip(boxes, boxes[1:]):
            overlap_x = min(a.x1, b.x1) - max(a.x, b.x)
            overlap_y = min(a.y1, b.y1) - max(a.y, b.y)
            assert overlap_x <= 1e-6 or overlap_y <= 1e-6
        assert page.block.x == pytest.approx(width - page.block.x1)  # centred horizontally
