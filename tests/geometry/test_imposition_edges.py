"""Issue 18: the imposition and units behaviours mutation testing showed untested: layouts with
bleed (bleed boxes, capacity, gutter tolerance, crop-mark and guide offsets, mirrored backs) and
zero or degenerate sizes. Every expected figure is worked out by hand in the comment beside it."""

from __future__ import annotations

import math

import pytest

from tokengen.errors import LayoutError
from tokengen.geometry.imposition import (
    CALIBRATION_GAP,
    CALIBRATION_HEIGHT,
    CROP_LENGTH,
    CROP_OFFSET,
    GUIDE_LENGTH,
    Line,
    Rect,
    SheetSpec,
    grid_for,
    mirror,
)
from tokengen.geometry.pager import impose
from tokengen.units import PAGES, PT_PER_MM, format_length, parse_length, parse_page

LETTER = PAGES["letter"]
MM3 = 3 * PT_PER_MM


# -- layouts with bleed ------------------------------------------------------------------------
@pytest.mark.parametrize("bleed,columns,rows", [
    (0.0, 8, 10),   # 576 / 72 = 8; (792 - 36 - 28) = 728 / 72 = 10.1
    (4.5, 7, 8),    # usable 576 - 9 = 567: 1 + (567 - 72) // 81 = 7; 719: 1 + 647 // 81 = 8
    (9.0, 6, 8),    # 558: 1 + 486 // 90 = 6; 710: 1 + 638 // 90 = 8
    (MM3, 6, 8),    # 3 mm = 8.504 pt: 558.99: 1 + 486.99 // 89.01 = 6; 710.99: 1 + 638.99 // 89.01 = 8
])
def test_capacity_and_bleed_box_for_several_bleeds(bleed: float, columns: int, rows: int):
    spec = SheetSpec(page=LETTER, bleed=bleed, gutter=2 * bleed)
    grid = grid_for(spec)
    assert (grid.columns, grid.rows, grid.per_page) == (columns, rows, columns * rows)
    assert grid.pitch == pytest.approx(72 + 2 * bleed)
    page = impose(columns * rows, spec)[0]
    for cell in page.cells:
        box = cell.bleed_box
        assert (box.w, box.h) == pytest.approx((72 + 2 * bleed, 72 + 2 * bleed))
        assert (box.x, box.y) == pytest.approx((cell.trim.x - bleed, cell.trim.y - bleed))
        assert grid.area.contains(box)
    # neighbours' bleed boxes meet exactly when the gutter is twice the bleed
    a, b = page.cells[0].bleed_box, page.cells[1].bleed_box
    assert b.x == pytest.approx(a.x1)


def test_capacity_with_bleed_is_one_less_when_the_bleed_does_not_fit():
    # 4 in wide area holds 4 × 1 in trims with no bleed; 1/16 in bleed each side needs 4.125 in
    spec = SheetSpec(page=(4 * 72 + 36, 400.0), margin=18.0, calibration=False)
    assert grid_for(spec).columns == 4
    assert grid_for(SheetSpec(page=spec.page, margin=18.0, calibration=False, bleed=4.5, gutter=9.0)).columns == 3


@pytest.mark.parametrize("gutter,ok", [(17.0, False), (18.0 - 1e-6, False), (18.0 - 1e-10, True), (18.0, True), (19.0, True)])
def test_gutter_must_hold_two_bleeds_to_a_billionth_of_a_point(gutter: float, ok: bool):
    spec = SheetSpec(page=LETTER, bleed=9.0, gutter=gutter)
    if ok:
        assert grid_for(spec).columns >= 1
    else:
        with pytest.raises(LayoutError) as err:
            grid_for(spec)
        assert str(err.value).startswith(f"gutter {format_length(gutter)} is narrower than twice the bleed (0.25in)")


def test_crop_marks_sit_past_the_bleed_at_every_trim_edge():
    spec = SheetSpec(page=LETTER, columns=3, crop_marks=True, cut_lines=False, bleed=9.0, gutter=18.0)
    page = impose(18, spec)[0]
    block = page.block
    # 3 columns of 1 in at 1.25 in pitch: 252 wide, centred: x = (612 - 252) / 2 = 180
    assert (block.x, block.w, block.h) == (180.0, 252.0, 6 * 72 + 5 * 18)
    offset = max(CROP_OFFSET, 9.0 + 1.5)  # 10.5 pt past the bleed edge
    xs = [180.0, 252.0, 270.0, 342.0, 360.0, 432.0]
    below = [m for m in page.crop_marks if m.x0 == m.x1 and m.y0 < block.y]
    above = [m for m in page.crop_marks if m.x0 == m.x1 and m.y0 > block.y1]
    assert [m.x0 for m in below] == xs and [m.x0 for m in above] == xs
    for m in below:
        assert (m.y0, m.y1) == (block.y - 9.0 - offset, block.y - 9.0 - offset - CROP_LENGTH)
    for m in above:
        assert (m.y0, m.y1) == (block.y1 + 9.0 + offset, block.y1 + 9.0 + offset + CROP_LENGTH)
    left = [m for m in page.crop_marks if m.y0 == m.y1 and m.x0 < block.x]
    assert len(left) == 12 and all(m.x0 == block.x - 9.0 - offset and m.x1 == m.x0 - CROP_LENGTH for m in left)
    # no bleed: the marks start CROP_OFFSET from the trim
    bare = impose(3, SheetSpec(page=LETTER, columns=3, crop_marks=True))[0]
    assert min(m.y0 for m in bare.crop_marks if m.x0 == m.x1) == pytest.approx(bare.block.y - CROP_OFFSET)


def test_guides_run_guide_length_past_the_block_or_half_into_the_margin():
    spec = SheetSpec(page=LETTER, columns=3)
    page = impose(18, spec)[0]
    block = page.block  # 216 × 432, centred at x = 198, y = (792 - 432) / 2 = 180
    assert (block.x, block.y) == (198.0, 180.0)
    vertical = [ln for ln in page.cut_lines if ln.x0 == ln.x1]
    horizontal = [ln for ln in page.cut_lines if ln.y0 == ln.y1]
    assert [ln.x0 for ln in vertical] == [198.0, 270.0, 342.0, 414.0]
    assert [ln.y0 for ln in horizontal] == [180.0 + 72 * i for i in range(7)]
    for ln in vertical:
        assert (ln.y0, ln.y1) == (block.y - GUIDE_LENGTH, block.y1 + GUIDE_LENGTH)
    for ln in horizontal:
        assert (ln.x0, ln.x1) == (block.x - GUIDE_LENGTH, block.x1 + GUIDE_LENGTH)
    # a full page: the guides stop half-way into the margin (top) and 1 pt above the strip (bottom)
    full = impose(80, SheetSpec(page=LETTER))[0]
    v = [ln for ln in full.cut_lines if ln.x0 == ln.x1][0]
    h = [ln for ln in full.cut_lines if ln.y0 == ln.y1][0]
    assert v.y1 == 792 - 9.0 and v.y0 == 18 + CALIBRATION_HEIGHT + 1.0
    assert (h.x0, h.x1) == (9.0, 612 - 9.0)


def test_mirror_keeps_every_field_of_a_back_placement():
    spec = SheetSpec(page=LETTER, columns=4, crop_marks=True, bleed=9.0, gutter=18.0)
    face = impose(18, spec)[0]
    back = mirror(face, "long", offset=(1.5, -2.0))
    assert (back.number, back.size, back.calibration, back.cut_lines) == (face.number, face.size, None, ())
    for f, b in zip(face.cells, back.cells, strict=True):
        assert (b.index, b.row, b.col, b.bleed) == (f.index, f.row, f.col, f.bleed)
        assert (b.trim.x, b.trim.y, b.trim.w, b.trim.h) == pytest.approx((612 - f.trim.x1 + 1.5, f.trim.y - 2.0, 72, 72))
    assert back.block == Rect(612 - face.block.x1 + 1.5, face.block.y - 2.0, face.block.w, face.block.h)
    got = [v for m in back.crop_marks for v in (m.x0, m.y0, m.x1, m.y1)]
    assert got == pytest.approx([v for m in face.crop_marks for v in (612 - m.x0 + 1.5, m.y0 - 2.0, 612 - m.x1 + 1.5, m.y1 - 2.0)])
    short = mirror(face, "short")
    assert [c.trim.y for c in short.cells] == pytest.approx([792 - c.trim.y1 for c in face.cells])
    assert [c.trim.x for c in short.cells] == [c.trim.x for c in face.cells]
    landscape = impose(4, SheetSpec(page=(792.0, 612.0), columns=4))[0]
    turned = mirror(landscape, "long")  # landscape: the long edge is horizontal, so y flips
    assert [c.trim.y for c in turned.cells] == pytest.approx([612 - c.trim.y1 for c in landscape.cells])
    with pytest.raises(LayoutError, match="unknown flip 'side': use long or short"):
        mirror(face, "side")


# -- zero and degenerate sizes ------------------------------------------------------------------
@pytest.mark.parametrize("page,size,message", [
    ((0.0, 792.0), 72.0, "page width must be a positive length, got 0.0 pt"),
    ((612.0, 0.0), 72.0, "page height must be a positive length, got 0.0 pt"),
    ((612.0, -1.0), 72.0, "page height must be a positive length, got -1.0 pt"),
    ((math.nan, 792.0), 72.0, "page width must be a positive length, got nan pt"),
    ((612.0, math.inf), 72.0, "page height must be a positive length, got inf pt"),
    ((612.0, 792.0), 0.0, "token size must be a positive length, got 0.0 pt"),
    ((612.0, 792.0), math.nan, "token size must be a positive length, got nan pt"),
    ((612.0, 792.0), math.inf, "token size must be a positive length, got inf pt"),
])
def test_zero_and_non_finite_sizes_are_refused(page, size, message):
    with pytest.raises(LayoutError) as err:
        grid_for(SheetSpec(page=page, size=size))
    assert str(err.value) == message


def test_zero_width_page_text_and_bare_zero_margin():
    with pytest.raises(ValueError) as err:
        parse_page("0inx11in")
    assert str(err.value) == "length must be greater than zero: '0in'"
    with pytest.raises(ValueError) as err:
        parse_page("8.5inx0mm")
    assert str(err.value) == "length must be greater than zero: '0mm'"
    assert parse_length("0") == 0.0 and parse_length(0) == 0.0
    grid = grid_for(SheetSpec(page=LETTER, margin=parse_length("0"), calibration=False))
    assert (grid.columns, grid.rows, grid.area) == (8, 11, Rect(0.0, 0.0, 612.0, 792.0))


def test_page_size_without_units_gets_the_hint():
    with pytest.raises(ValueError) as err:
        parse_page("8.5x11")
    assert str(err.value) == "page size '8.5x11' needs units, e.g. 8.5inx11in or 210mmx297mm"


def test_cli_reports_zero_page_and_unitless_page(run, tmp_path):
    from tests.conftest import CATALOGUE

    result = run("build", str(CATALOGUE), "-o", str(tmp_path / "x.pdf"), "--page", "0inx11in")
    assert (result.exit_code, result.stderr) == (2, "tokengen: error: tokengen build: Invalid value for '--page': length must be "
                                                    "greater than zero: '0in' (see 'tokengen build --help')\n")
    result = run("build", str(CATALOGUE), "-o", str(tmp_path / "x.pdf"), "--page", "8.5x11")
    assert result.stderr == ("tokengen: error: tokengen build: Invalid value for '--page': page size '8.5x11' needs units, "
                             "e.g. 8.5inx11in or 210mmx297mm (see 'tokengen build --help')\n")
    assert run("build", str(CATALOGUE), "-o", str(tmp_path / "x.pdf"), "--margin", "0").exit_code == 0


@pytest.mark.parametrize("text,shown", [("12.5mm", "12.5mm"), ("25mm", "25mm"), ("0.125in", "0.125in"), ("3mm", "3mm"),
                                        ("12.25mm", "34.72pt"), ("7pt", "7.00pt")])
def test_millimetres_keep_their_tenth_in_messages(text: str, shown: str):
    assert format_length(parse_length(text)) == shown


def test_a_12_5mm_token_is_named_exactly_in_the_no_fit_message():
    with pytest.raises(LayoutError) as err:
        grid_for(SheetSpec(page=(30.0, 30.0), size=parse_length("12.5mm"), margin=0.0, calibration=False))
    assert str(err.value) == ("a 12.5mm token does not fit on a 30.00pt × 30.00pt page with a 0in margin; "
                              "the largest token that fits is 0.41in (10.5mm)")


def test_layout_without_the_calibration_strip():
    # 3 rows of 1 in need 216 pt; the page leaves 272 - 36 = 236: with the 28 pt strip only 208
    page = (4 * 72 + 36, 272.0)
    with_strip = grid_for(SheetSpec(page=page))
    without = grid_for(SheetSpec(page=page, calibration=False))
    assert CALIBRATION_HEIGHT + CALIBRATION_GAP == 28.0
    assert (with_strip.rows, without.rows) == (2, 3)
    assert with_strip.area == Rect(18.0, 46.0, 288.0, 208.0) and without.area == Rect(18.0, 18.0, 288.0, 236.0)
    laid = impose(12, SheetSpec(page=page, calibration=False))[0]
    assert laid.calibration is None
    assert laid.block == Rect(18.0, 10.0 + 18.0, 288.0, 216.0)  # centred: (272 - 216) / 2 = 28
    # the guides are free to run down to half the margin: no strip to stop at
    assert min(ln.y0 for ln in laid.cut_lines if ln.x0 == ln.x1) == 28.0 - min(GUIDE_LENGTH, 28.0 - 9.0)
    assert isinstance(laid.cut_lines[0], Line)
