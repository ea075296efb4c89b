"""Imposition (tokengen/geometry/imposition.py) in exact points: whole page layouts, backs, plans and the
helpers, each figure worked out by hand (in the comment beside it) with lengths that add up
exactly in binary, so every assertion is an equality.

These are the module's own tests for mutation testing (``make mutate``), with test_geometry_imposition.py
and test_geometry_imposition_edges.py.
"""

from __future__ import annotations

import pytest

from tokengen.errors import LayoutError
from tokengen.geometry import pager
from tokengen.geometry.imposition import (
    Cell,
    Grid,
    Line,
    PageLayout,
    Rect,
    SheetSpec,
    _clip,
    _crop_marks,
    _fit,
    edges,
    grid_for,
    layout_page,
    mirror,
    outer_bleed,
)
from tokengen.geometry.pager import Plan, impose, page_count, page_slices, plan
from tokengen.units import PAGES

LETTER = PAGES["letter"]


# -- rectangles and cells ----------------------------------------------------------------------
def test_rect_edges_and_growth():
    r = Rect(1.0, 2.0, 3.0, 4.0)
    assert (r.x1, r.y1) == (4.0, 6.0)
    assert r.grow(0.5) == Rect(0.5, 1.5, 4.0, 5.0)
    assert Cell(7, 1, 2, Rect(10.0, 20.0, 72.0, 72.0), 4.5).bleed_box == Rect(5.5, 15.5, 81.0, 81.0)
    assert Cell(7, 1, 2, Rect(10.0, 20.0, 72.0, 72.0)).bleed_box == Rect(10.0, 20.0, 72.0, 72.0)
    assert Grid(3, 4, r, 72.0).per_page == 12


@pytest.mark.parametrize("inner,inside", [
    (Rect(0.0, 0.0, 10.0, 10.0), True),
    (Rect(0.0, 0.0, 10.0 + 1e-7, 10.0), True),       # within the default 1e-6 pt
    (Rect(-1e-5, 0.0, 1.0, 1.0), False),             # each side out by 1e-5 pt, one at a time
    (Rect(0.0, -1e-5, 1.0, 1.0), False),
    (Rect(9.0, 0.0, 1.0 + 1e-5, 1.0), False),
    (Rect(0.0, 9.0, 1.0, 1.0 + 1e-5), False),
    (Rect(0.0, 0.0, 10.5, 10.0), False),
])
def test_rect_contains_with_the_default_tolerance(inner: Rect, inside: bool):
    assert Rect(0.0, 0.0, 10.0, 10.0).contains(inner) is inside


@pytest.mark.parametrize("inner", [Rect(-0.5, 0.0, 1.0, 1.0), Rect(0.0, -0.5, 1.0, 1.0), Rect(9.5, 0.0, 1.0, 1.0),
                                   Rect(0.0, 9.5, 1.0, 1.0)])
def test_rect_contains_up_to_the_tolerance_itself(inner: Rect):
    # exactly tol outside on one side is still inside; a quarter point more is not
    outer = Rect(0.0, 0.0, 10.0, 10.0)
    assert outer.contains(inner, tol=0.5) and not outer.contains(inner, tol=0.25)


# -- capacity -------------------------------------------------------------------------------------
def test_capacity_when_the_page_is_exactly_wide_and_high_enough_with_bleed():
    # 3 trims of 72 at pitch 90 (gutter 18) span 252, plus 9 pt of bleed each side: 270, plus 2 × 18 margin
    spec = SheetSpec(page=(306.0, 306.0), bleed=9.0, gutter=18.0, calibration=False)
    assert grid_for(spec) == Grid(3, 3, Rect(18.0, 18.0, 270.0, 270.0), 90.0)
    assert grid_for(SheetSpec(page=(305.0, 305.0), bleed=9.0, gutter=18.0, calibration=False)) == Grid(
        2, 2, Rect(18.0, 18.0, 269.0, 269.0), 90.0)


def test_capacity_when_the_area_is_exactly_one_token():
    assert grid_for(SheetSpec(page=(108.0, 108.0), calibration=False)) == Grid(1, 1, Rect(18.0, 18.0, 72.0, 72.0), 72.0)
    # the strip and its gap (28 pt) come off the foot of the area
    assert grid_for(SheetSpec(page=(108.0, 136.0))) == Grid(1, 1, Rect(18.0, 46.0, 72.0, 72.0), 72.0)


def test_a_token_smaller_than_one_point_is_a_length_like_any_other():
    # 0.5 pt tokens on a 100 pt page without margin: 1 + 99.5 // 0.5 = 200 a side
    assert grid_for(SheetSpec(page=(100.0, 100.0), size=0.5, margin=0.0, calibration=False)) == Grid(
        200, 200, Rect(0.0, 0.0, 100.0, 100.0), 0.5)


def test_gutter_equal_to_twice_the_bleed_less_the_tolerance_is_accepted():
    # 17.999999999 + 1e-9 is 18.0 exactly in binary: on the boundary, accepted
    assert 17.999999999 + 1e-9 == 18.0
    assert grid_for(SheetSpec(page=LETTER, bleed=9.0, gutter=17.999999999)).columns == 6


@pytest.mark.parametrize("page,message", [
    # half a point short: usable 71.5 × 72 pt, so 0.99 in (99.3) and 25.2 mm (252.2 tenths)
    ((107.5, 108.0), "a 1in token does not fit on a 107.50pt × 1.5in page with a 0.25in margin; "
                     "the largest token that fits is 0.99in (25.2mm)"),
    # no room at all across (0 pt): no size to suggest
    ((36.0, 400.0), "a 1in token does not fit on a 0.5in × 400.00pt page with a 0.25in margin"),
    # half a point across: the suggestion rounds down to 0 in but 0.1 mm (1.76 tenths)
    ((36.5, 400.0), "a 1in token does not fit on a 36.50pt × 400.00pt page with a 0.25in margin; "
                    "the largest token that fits is 0in (0.1mm)"),
])
def test_no_fit_messages(page, message: str):
    with pytest.raises(LayoutError) as err:
        grid_for(SheetSpec(page=page, calibration=False))
    assert str(err.value) == message


@pytest.mark.parametrize("space,size,pitch,count", [
    (72.0, 72.0, 72.0, 1), (71.5, 72.0, 72.0, 0), (143.0, 72.0, 72.0, 1), (144.0, 72.0, 72.0, 2),
    (252.0, 72.0, 90.0, 3), (251.0, 72.0, 90.0, 2),
    (71.999999, 72.0, 72.0, 1),          # 1e-6 pt short still fits (the tolerance)
    (0.999999, 1.0, 1.0, 1),             # the same at 1 pt (0.999999 - 1 + 1e-6 would be -3e-17: the sum comes first)
    (1e-6, 2e-6, 2e-6, 1),               # room left exactly 0: one fits
    (432.5 - 1e-6, 72.0, 72.1, 6),       # six need 72 + 5 × 72.1 = 432.5: 1e-6 short still fits
    (432.5 - 2e-6, 72.0, 72.1, 5),
    (-100.0, 72.0, 72.0, 0),             # less than nothing (a page narrower than its margins): none
])
def test_fit_counts_cells_with_the_tolerance(space: float, size: float, pitch: float, count: int):
    assert _fit(space, size, pitch) == count


# -- pages ------------------------------------------------------------------------------------------
def test_page_slices_and_the_page_limit():
    assert list(page_slices(5, 2)) == [(0, range(0, 2)), (1, range(2, 4)), (2, range(4, 5))]
    assert list(page_slices(0, 4)) == [(0, range(0, 0))]
    assert list(page_slices(6, 2, max_pages=3)) == [(0, range(0, 2)), (1, range(2, 4)), (2, range(4, 6))]
    with pytest.raises(LayoutError) as err:
        next(page_slices(5, 2, max_pages=2))
    assert str(err.value) == "5 tokens need 3 pages, more than the limit of 2 (raise it with --max-pages)"


def test_impose_keeps_the_page_limit_and_numbers_the_pages():
    spec = SheetSpec(page=LETTER)  # 80 a sheet
    with pytest.raises(LayoutError) as err:
        impose(81, spec, max_pages=1)
    assert str(err.value) == "81 tokens need 2 pages, more than the limit of 1 (raise it with --max-pages)"
    with pytest.raises(LayoutError):
        next(pager.pages(81, spec, max_pages=1))
    pages = impose(161, spec, max_pages=3)
    assert [p.number for p in pages] == [0, 1, 2] and [len(p.cells) for p in pages] == [80, 80, 1]
    assert [page_count(n, spec) for n in (0, 1, 80, 81, 160, 161)] == [1, 1, 1, 2, 2, 3]


# A 360 × 432 pt sheet, 36 pt margin, 1 in tokens, cut lines and crop marks, 6 tokens.
# Area: x 36..324 (288 = 4 columns), y 64..396 above the 22 pt strip and 6 pt gap.
# Block: 4 × 2 cells, 288 × 144, centred: x = (360 - 288) / 2 = 36, y = (432 - 144) / 2 = 144.
SMALL = SheetSpec(page=(360.0, 432.0), margin=36.0, crop_marks=True)


def small_cells() -> tuple[Cell, ...]:
    top, low = Rect(0, 216.0, 72.0, 72.0), Rect(0, 144.0, 72.0, 72.0)
    return (Cell(0, 0, 0, Rect(36.0, top.y, 72.0, 72.0)), Cell(1, 0, 1, Rect(108.0, top.y, 72.0, 72.0)),
            Cell(2, 0, 2, Rect(180.0, top.y, 72.0, 72.0)), Cell(3, 0, 3, Rect(252.0, top.y, 72.0, 72.0)),
            Cell(4, 1, 0, Rect(36.0, low.y, 72.0, 72.0)), Cell(5, 1, 1, Rect(108.0, low.y, 72.0, 72.0)))


def test_a_partly_filled_page_in_points():
    page = impose(6, SMALL)[0]
    cut = (
        # guides: half the 36 pt margin (18) across, at most 27 pt past the block (117, 315) up and down;
        # columns 3 and 4 have no token in the lower row, so their lines start at that row's top (216)
        Line(36.0, 117.0, 36.0, 315.0), Line(108.0, 117.0, 108.0, 315.0), Line(180.0, 117.0, 180.0, 315.0),
        Line(252.0, 216.0, 252.0, 315.0), Line(324.0, 216.0, 324.0, 315.0),
        # the foot of the lower row ends at its last token (180); the others run to 360 - 18
        Line(18.0, 144.0, 180.0, 144.0), Line(18.0, 216.0, 342.0, 216.0), Line(18.0, 288.0, 342.0, 288.0),
    )
    # crop marks 4.5 pt off the block, 17 pt long, at every trim edge of the whole 4 × 2 block
    xs, ys = (36.0, 108.0, 180.0, 252.0, 324.0), (144.0, 216.0, 288.0)
    crop = (tuple(Line(x, 139.5, x, 122.5) for x in xs) + tuple(Line(x, 292.5, x, 309.5) for x in xs)
            + tuple(Line(31.5, y, 14.5, y) for y in ys) + tuple(Line(328.5, y, 345.5, y) for y in ys))
    assert page == PageLayout(0, (360.0, 432.0), small_cells(), Rect(36.0, 144.0, 288.0, 144.0), cut, crop,
                              Rect(36.0, 36.0, 288.0, 22.0), ())


def test_a_full_page_stops_its_guides_at_the_strip_and_the_margin():
    # 288 × 360 sheet, 18 pt margin: area 252 × 286 above the strip -> 3 × 3 block of 216, at x 36,
    # y = max((360 - 216) / 2, 46) = 72; guides: left/right to half the margin (9, 279; 27 pt out would
    # be 9 and 279 too), bottom 27 pt below (45, above the strip's 41), top 27 pt above (315)
    page = impose(9, SheetSpec(page=(288.0, 360.0), cut_lines=True))[0]
    assert page.block == Rect(36.0, 72.0, 216.0, 216.0)
    assert page.cut_lines[0] == Line(36.0, 45.0, 36.0, 315.0) and page.cut_lines[4] == Line(9.0, 72.0, 279.0, 72.0)
    # a taller block on the same sheet: 3 × 4 = 288 high sits on the strip's gap (y 46); the guides stop
    # 1 pt above the strip (41, not 46 - 27 = 19) and half-way into the top margin (351, not 334 + 27)
    tall = impose(12, SheetSpec(page=(288.0, 360.0)))[0]
    assert tall.block == Rect(36.0, 46.0, 216.0, 288.0)
    assert tall.cut_lines[0] == Line(36.0, 41.0, 36.0, 351.0)


def test_cut_lines_sit_at_the_millionth_of_a_point():
    # an odd page size puts the block at x = y = (100.1234567 - 72) / 2 = 14.06172835: lines at 14.061728
    page = impose(1, SheetSpec(page=(100.1234567, 100.1234567), margin=0.0, calibration=False))[0]
    assert [ln.x0 for ln in page.cut_lines[:2]] == [14.061728, 86.061728]
    assert [ln.y0 for ln in page.cut_lines[2:]] == [14.061728, 86.061728]


def test_cut_lines_of_the_smallest_tokens():
    # 9 pt tokens (the smallest impose() takes), 3 columns, 5 tokens: the third column has no token in
    # the lower row, and the lower row ends a token short of the block's right edge
    page = impose(5, SheetSpec(page=(100.0, 100.0), size=9.0, margin=0.0, calibration=False, columns=3))[0]
    x, y = page.block.x, page.block.y
    assert (x, y) == (36.5, 41.0)
    assert [(ln.x0, ln.y0) for ln in page.cut_lines[:4]] == [(36.5, 14.0), (45.5, 14.0), (54.5, 14.0), (63.5, 50.0)]
    assert [(ln.y0, ln.x1) for ln in page.cut_lines[4:]] == [(41.0, 54.5), (50.0, 90.5), (59.0, 90.5)]


def test_an_empty_page_has_no_lines():
    page = impose(0, SMALL)[0]
    assert (page.number, page.cells, page.cut_lines, page.crop_marks) == (0, (), (), ())


def test_cut_lines_and_crop_marks_can_be_turned_off():
    page = impose(6, SheetSpec(page=(360.0, 432.0), margin=36.0, cut_lines=False))[0]
    assert (page.cut_lines, page.crop_marks, page.cells) == ((), (), small_cells())


def test_home_bleed_clipped_to_the_page():
    # 153 pt square, no margin, no strip: a 2 × 2 grid at 4.5 pt from each edge; 3 tokens; 9 pt home bleed
    page = impose(3, SheetSpec(page=(153.0, 153.0), margin=0.0, calibration=False, home_bleed=9.0))[0]
    assert page.cells == (Cell(0, 0, 0, Rect(4.5, 76.5, 72.0, 72.0)), Cell(1, 0, 1, Rect(76.5, 76.5, 72.0, 72.0)),
                          Cell(2, 1, 0, Rect(4.5, 4.5, 72.0, 72.0)))
    assert page.outer_bleed == (
        # token 0: open left and above (cut to the 4.5 pt left before the page edge), and that corner
        (0, Rect(0.0, 76.5, 4.5, 72.0)), (0, Rect(4.5, 148.5, 72.0, 4.5)), (0, Rect(0.0, 148.5, 4.5, 4.5)),
        # token 1: open right, below (over the empty cell: the full 9 pt) and above; two corners
        (1, Rect(148.5, 76.5, 4.5, 72.0)), (1, Rect(76.5, 67.5, 72.0, 9.0)), (1, Rect(76.5, 148.5, 72.0, 4.5)),
        (1, Rect(148.5, 67.5, 4.5, 9.0)), (1, Rect(148.5, 148.5, 4.5, 4.5)),
        # token 2: open left, right (full 9 pt into the empty cell) and below; two corners
        (2, Rect(0.0, 4.5, 4.5, 72.0)), (2, Rect(76.5, 4.5, 9.0, 72.0)), (2, Rect(4.5, 0.0, 72.0, 4.5)),
        (2, Rect(0.0, 0.0, 4.5, 4.5)), (2, Rect(76.5, 0.0, 9.0, 4.5)),
    )


def test_home_bleed_stops_a_point_above_the_strip_and_at_the_page_edge():
    # 81 × 104.5 sheet, no margin: the strip is y 0..22; one token at (4.5, 28) sits on the strip's gap,
    # its top 4.5 pt under the page edge. 9 pt of home bleed: cut at x 0 and 81, at y 23 (1 pt above the
    # strip) and 104.5
    page = impose(1, SheetSpec(page=(81.0, 104.5), margin=0.0, home_bleed=9.0))[0]
    assert (page.calibration, page.cells[0].trim) == (Rect(0.0, 0.0, 81.0, 22.0), Rect(4.5, 28.0, 72.0, 72.0))
    assert page.outer_bleed == ((0, Rect(0.0, 28.0, 4.5, 72.0)), (0, Rect(76.5, 28.0, 4.5, 72.0)), (0, Rect(4.5, 23.0, 72.0, 5.0)),
                                (0, Rect(4.5, 100.0, 72.0, 4.5)), (0, Rect(0.0, 23.0, 4.5, 5.0)), (0, Rect(76.5, 23.0, 4.5, 5.0)),
                                (0, Rect(0.0, 100.0, 4.5, 4.5)), (0, Rect(76.5, 100.0, 4.5, 4.5)))


@pytest.mark.parametrize("changes", [dict(home_bleed=0.0), dict(bleed=4.5, gutter=9.0, home_bleed=9.0),
                                     dict(gutter=1.0, home_bleed=9.0), dict(home_bleed=1.0)])
def test_home_bleed_only_on_a_shared_edge_sheet(changes):
    page = impose(1, SheetSpec(page=(300.0, 300.0), **changes))[0]
    expected = 0 if changes["home_bleed"] == 0 or changes.get("bleed") or changes.get("gutter") else 8
    assert len(page.outer_bleed) == expected
    if expected:  # 1 pt of home bleed: a 1 pt strip left of the token
        t = page.cells[0].trim
        assert page.outer_bleed[0] == (0, Rect(t.x - 1.0, t.y, 1.0, 72.0))


def test_layout_page_numbers_the_page_it_is_given():
    grid = grid_for(SMALL)
    assert layout_page(4, range(8, 9), SMALL, grid).number == 4
    assert [c.index for c in layout_page(4, range(8, 10), SMALL, grid).cells] == [8, 9]


# -- crop marks and trim edges --------------------------------------------------------------------------
def test_crop_marks_with_bleed_sit_past_the_bleed():
    # 2 × 1 block at (100, 100), gutter 9, bleed 4.5: offset max(4.5, 4.5 + 1.5) = 6 past the bleed edge
    block = Rect(100.0, 100.0, 153.0, 72.0)
    marks = _crop_marks(block, 2, 1, SheetSpec(page=LETTER, bleed=4.5, gutter=9.0))
    xs, ys = (100.0, 172.0, 181.0, 253.0), (100.0, 172.0)
    assert marks == (tuple(Line(x, 89.5, x, 72.5) for x in xs) + tuple(Line(x, 182.5, x, 199.5) for x in xs)
                     + tuple(Line(89.5, y, 72.5, y) for y in ys) + tuple(Line(263.5, y, 280.5, y) for y in ys))
    # a 2 pt bleed: 2 + 1.5 is less than 4.5, so the marks start 4.5 pt past the bleed edge (6.5 from the trim)
    thin = _crop_marks(block, 2, 1, SheetSpec(page=LETTER, bleed=2.0, gutter=9.0))
    assert thin[0] == Line(100.0, 93.5, 100.0, 76.5) and thin[-1] == Line(259.5, 172.0, 276.5, 172.0)


def test_trim_edges_along_one_axis():
    assert edges(10.0, 3, 72.0, 0.0) == [10.0, 82.0, 154.0, 226.0]  # shared edges once
    assert edges(10.0, 2, 72.0, 9.0) == [10.0, 82.0, 91.0, 163.0]
    assert edges(10.0, 0, 72.0, 9.0) == []
    assert edges(0.0, 2, 72.0, 1e-10) == [0.0, 72.0, 144.0000000001]  # closer than 1e-9 pt: one edge
    assert edges(0.0, 2, 72.0, 1e-8) == [0.0, 72.0, 72.00000001, 144.00000001]
    assert edges(0.0, 1, 1e-9, 0.0) == [0.0]  # the two edges of a token exactly 1e-9 pt wide are one


# -- home bleed on its own ------------------------------------------------------------------------------
def test_clip():
    limit = Rect(0.0, 0.0, 100.0, 50.0)
    assert _clip(Rect(-10.0, -5.0, 30.0, 20.0), limit) == Rect(0.0, 0.0, 20.0, 15.0)
    assert _clip(Rect(90.0, 40.0, 30.0, 20.0), limit) == Rect(90.0, 40.0, 10.0, 10.0)
    assert _clip(Rect(10.0, 10.0, 5.0, 5.0), limit) == Rect(10.0, 10.0, 5.0, 5.0)
    assert _clip(Rect(100.0, 10.0, 5.0, 5.0), limit) is None       # touching the right edge only
    assert _clip(Rect(10.0, 50.0, 5.0, 5.0), limit) is None        # touching the top only
    assert _clip(Rect(-5.0, 10.0, 5.0, 5.0), limit) is None
    assert _clip(Rect(10.0, -5.0, 5.0, 5.0), limit) is None
    assert _clip(Rect(99.9999999999, 10.0, 5.0, 5.0), limit) is None  # 1e-10 pt wide: nothing
    assert _clip(Rect(10.0, 49.9999999999, 5.0, 5.0), limit) is None
    assert _clip(Rect(99.99999999, 10.0, 5.0, 5.0), limit) == Rect(99.99999999, 10.0, 100.0 - 99.99999999, 5.0)
    assert _clip(Rect(0.0, 10.0, 1e-9, 5.0), limit) is None          # exactly 1e-9 pt wide (or high): nothing
    assert _clip(Rect(10.0, 0.0, 5.0, 1e-9), limit) is None


def test_outer_bleed_of_one_token_and_of_two_side_by_side():
    page = Rect(0.0, 0.0, 1000.0, 1000.0)
    one = (Cell(3, 0, 0, Rect(100.0, 200.0, 50.0, 50.0)),)
    assert outer_bleed(one, 2.0, page) == (
        (3, Rect(98.0, 200.0, 2.0, 50.0)), (3, Rect(150.0, 200.0, 2.0, 50.0)),
        (3, Rect(100.0, 198.0, 50.0, 2.0)), (3, Rect(100.0, 250.0, 50.0, 2.0)),
        (3, Rect(98.0, 198.0, 2.0, 2.0)), (3, Rect(150.0, 198.0, 2.0, 2.0)),
        (3, Rect(98.0, 250.0, 2.0, 2.0)), (3, Rect(150.0, 250.0, 2.0, 2.0)))
    pair = (Cell(0, 0, 0, Rect(100.0, 200.0, 50.0, 50.0)), Cell(1, 0, 1, Rect(150.0, 200.0, 50.0, 50.0)))
    assert outer_bleed(pair, 2.0, page) == (
        (0, Rect(98.0, 200.0, 2.0, 50.0)), (0, Rect(100.0, 198.0, 50.0, 2.0)), (0, Rect(100.0, 250.0, 50.0, 2.0)),
        (0, Rect(98.0, 198.0, 2.0, 2.0)), (0, Rect(98.0, 250.0, 2.0, 2.0)),
        (1, Rect(200.0, 200.0, 2.0, 50.0)), (1, Rect(150.0, 198.0, 50.0, 2.0)), (1, Rect(150.0, 250.0, 50.0, 2.0)),
        (1, Rect(200.0, 198.0, 2.0, 2.0)), (1, Rect(200.0, 250.0, 2.0, 2.0)))
    stack = (Cell(0, 0, 0, Rect(100.0, 250.0, 50.0, 50.0)), Cell(1, 1, 0, Rect(100.0, 200.0, 50.0, 50.0)))
    assert [r for i, r in outer_bleed(stack, 2.0, page) if i == 0] == [
        Rect(98.0, 250.0, 2.0, 50.0), Rect(150.0, 250.0, 2.0, 50.0), Rect(100.0, 300.0, 50.0, 2.0),
        Rect(98.0, 300.0, 2.0, 2.0), Rect(150.0, 300.0, 2.0, 2.0)]
    # neighbours found within a thousandth of a point
    near = (pair[0], Cell(1, 0, 1, Rect(150.0004, 200.0004, 50.0, 50.0)))
    assert [r for i, r in outer_bleed(near, 2.0, page) if i == 0][0] == Rect(98.0, 200.0, 2.0, 50.0)
    assert len(outer_bleed(near, 2.0, page)) == 10


def test_outer_bleed_of_nothing():
    page = Rect(0.0, 0.0, 100.0, 100.0)
    assert outer_bleed((), 2.0, page) == ()
    assert outer_bleed((Cell(0, 0, 0, Rect(10.0, 10.0, 20.0, 20.0)),), 0.0, page) == ()
    assert outer_bleed((Cell(0, 0, 0, Rect(10.0, 10.0, 20.0, 20.0)),), -1.0, page) == ()
    assert len(outer_bleed((Cell(0, 0, 0, Rect(10.0, 10.0, 20.0, 20.0)),), 1e-3, page)) == 8


# -- backs ----------------------------------------------------------------------------------------------
def test_back_of_a_portrait_sheet_turned_on_its_long_edge():
    face = impose(6, SMALL)[0]
    back = mirror(face, offset=(1.5, -2.0))  # long edge by default: x -> 360 - x - w, then the offset
    cells = tuple(Cell(c.index, c.row, c.col, Rect(360.0 - c.trim.x1 + 1.5, c.trim.y - 2.0, 72.0, 72.0)) for c in small_cells())
    crop = tuple(Line(360.0 - m.x0 + 1.5, m.y0 - 2.0, 360.0 - m.x1 + 1.5, m.y1 - 2.0) for m in face.crop_marks)
    assert back == PageLayout(0, (360.0, 432.0), cells, Rect(37.5, 142.0, 288.0, 144.0), (), crop, None, ())
    assert back.crop_marks[0] == Line(325.5, 137.5, 325.5, 120.5)


def test_back_turned_on_the_short_edge_keeps_bleed_and_moves_home_bleed():
    face = impose(3, SheetSpec(page=(153.0, 160.0), margin=0.0, calibration=False, home_bleed=9.0, crop_marks=True))[0]
    back = mirror(face, "short", offset=(0.5, 0.25))  # portrait, short edge: y -> 160 - y - h
    assert [c.trim for c in back.cells] == [Rect(c.trim.x + 0.5, 160.0 - c.trim.y1 + 0.25, 72.0, 72.0) for c in face.cells]
    assert back.outer_bleed == tuple((i, Rect(r.x + 0.5, 160.0 - r.y1 + 0.25, r.w, r.h)) for i, r in face.outer_bleed)
    assert back.crop_marks == tuple(Line(m.x0 + 0.5, 160.0 - m.y0 + 0.25, m.x1 + 0.5, 160.0 - m.y1 + 0.25)
                                    for m in face.crop_marks)
    assert back.block == Rect(face.block.x + 0.5, 160.0 - face.block.y1 + 0.25, 144.0, 144.0)
    bled = impose(2, SheetSpec(page=LETTER, bleed=4.5, gutter=9.0))[0]
    assert [c.bleed for c in mirror(bled, "short").cells] == [4.5, 4.5]


def test_back_of_a_square_sheet_turns_like_a_portrait_one():
    face = impose(1, SheetSpec(page=(288.0, 288.0), calibration=False, columns=1))[0]
    # one token at x = 108, y = 108: long edge flips x (288 - 180 = 108 again), so shift it to tell
    back = mirror(face, "long", offset=(0.0, 0.0))
    assert back.cells[0].trim == Rect(108.0, 108.0, 72.0, 72.0)
    two = impose(2, SheetSpec(page=(288.0, 288.0), calibration=False))[0]
    turned = mirror(two, "long")
    assert [c.trim.x for c in turned.cells] == [144.0, 72.0] and [c.trim.y for c in turned.cells] == [108.0, 108.0]


def test_unknown_flip_is_refused_by_name():
    with pytest.raises(LayoutError) as err:
        mirror(impose(1, SMALL)[0], "sideways")
    assert str(err.value) == "unknown flip 'sideways': use long or short"


# -- plan -------------------------------------------------------------------------------------------------
def test_plan_without_grouping():
    spec = SheetSpec(page=LETTER)  # 8 × 10 = 80 a sheet
    assert plan(18, spec) == Plan(1, spec, 1, 80)
    assert plan(1, spec) == Plan(1, spec, 1, 80)                   # a set of one token
    assert plan(18, spec, copies=5) == Plan(5, spec, 2, 80)        # 90 tokens
    assert plan(18, spec, fill=True) == Plan(4, spec, 1, 80)       # 80 // 18 = 4 sets fit the one sheet
    assert plan(18, spec, copies=5, fill=True) == Plan(8, spec, 2, 80)   # 160 // 18 = 8 on the two sheets
    assert plan(100, spec, fill=True) == Plan(1, spec, 2, 80)      # a set over a sheet: still one
    assert plan(18, SheetSpec(page=LETTER, group=0)) == Plan(1, SheetSpec(page=LETTER, group=0), 1, 80)


def test_plan_keeps_explicit_columns_over_the_grouping():
    spec = SheetSpec(page=LETTER, columns=2, group=3)
    assert plan(18, spec) == Plan(1, spec, 1, 20)
    assert plan(30, spec, fill=True) == Plan(1, spec, 2, 20)


def test_plan_widens_the_grouping_only_when_it_saves_pages():
    spec = SheetSpec(page=LETTER, group=3)  # 8 columns fit: 3 or 6 wide
    three, six = SheetSpec(page=LETTER, group=3, columns=3), SheetSpec(page=LETTER, group=3, columns=6)
    assert plan(18, spec) == Plan(1, three, 1, 30)
    assert plan(18, spec, copies=3) == Plan(3, six, 1, 60)            # 54: two sheets at 3 wide, one at 6
    assert plan(18, spec, fill=True) == Plan(3, six, 1, 60)           # fill the 6-wide sheet: 60 // 18 = 3
    assert plan(200, spec) == Plan(1, six, 4, 60)                     # 7 sheets at 3 wide, 4 at 6
    wide = SheetSpec(page=LETTER, group=10)                           # wider than fits: as wide as fits
    assert plan(18, wide) == Plan(1, SheetSpec(page=LETTER, group=10, columns=8), 1, 80)
    five = SheetSpec(page=LETTER, group=5)                            # only 5 wide: 8 would split a group
    assert plan(60, five) == Plan(1, SheetSpec(page=LETTER, group=5, columns=5), 2, 50)
    four = SheetSpec(page=LETTER, group=4)                            # 4 or 8 wide
    assert plan(41, four) == Plan(1, SheetSpec(page=LETTER, group=4, columns=8), 1, 80)
    assert plan(40, four) == Plan(1, SheetSpec(page=LETTER, group=4, columns=4), 1, 40)


def test_plan_refuses_an_empty_set():
    with pytest.raises(LayoutError) as err:
        plan(0, SheetSpec(page=LETTER))
    assert str(err.value) == "nothing to lay out: the set has no tokens"
