"""Several token sizes on the same sheets (tokengen/geometry/pager.py, the band functions): each
size is a band of rows of its own, bands stacked top to bottom :data:`pager.BAND_GAP` apart,
their cut guides cut short half-way into the gap. Figures worked out by hand on Letter
(612 × 792 pt, 18 pt margin, the calibration strip: 728 pt of height for blocks, y 46 … 774):

* 5/8 in (45 pt) counters: 1 + (576 - 45) // 45 = 12 columns, 1 + (728 - 45) // 45 = 16 rows.
* 1 in circles (9 pt punch room, pitch 81): 7 columns, 9 rows.
* 63 × 88 mm rounded cards (178.58 × 249.45 pt): 3 columns, 2 rows.

One set of the example (18 counters, 5 markers, 3 cards) is 2 + 1 + 1 rows:
90 + 18 + 72 + 18 + 249.45 = 447.45 pt, centred: its top at (792 - 447.45) / 2 + 447.45.
"""

from __future__ import annotations

import pytest

from tokengen.geometry import foldover, pager
from tokengen.geometry.imposition import Rect, SheetSpec, mirror
from tokengen.geometry.shapes import Shape

LETTER = (612.0, 792.0)
MM = 72 / 25.4
COUNTERS = SheetSpec(LETTER, size=45.0)
MARKERS = SheetSpec(LETTER, size=72.0, shape=Shape("circle"))
CARDS = SheetSpec(LETTER, size=63 * MM, height=88 * MM, shape=Shape("rounded", 3 * MM))
SPECS = [COUNTERS, MARKERS, CARDS]


def test_each_band_starts_a_row_below_the_last_on_the_same_page():
    assert pager.band_slices([18, 5, 3], SPECS) == [((0, range(0, 18)), (1, range(18, 23)), (2, range(23, 26)))]


def test_a_band_that_does_not_fit_below_goes_on_to_the_next_page_a_row_at_a_time():
    # 3 sets: 5 rows of counters (225 pt) and 3 of markers (72 + 2 × 81 = 234 pt) leave
    # 728 - 225 - 18 - 234 - 18 = 233 pt, less than a card (249.45 pt); 2 rows of cards a page
    assert pager.band_slices([54, 15, 9], SPECS) == [((0, range(0, 54)), (1, range(54, 69))), ((2, range(69, 75)),), ((2, range(75, 78)),)]
    # a band longer than a page: whole pages, then its last rows with the next band below them
    assert pager.band_slices([200, 7], SPECS[:2]) == [((0, range(0, 192)),), ((0, range(192, 200)), (1, range(200, 207)))]


def test_bands_are_stacked_gap_apart_and_centred_as_one_block():
    page, = pager.band_pages([18, 5, 3], SPECS)
    total = 90 + 18 + 72 + 18 + 88 * MM
    top = (792 - total) / 2 + total
    by_band = [[c for c in page.cells if lo <= c.index < hi] for lo, hi in ((0, 18), (18, 23), (23, 26))]
    assert [{(round(c.trim.w, 6), round(c.trim.h, 6)) for c in cells} for cells in by_band] == [
        {(45.0, 45.0)}, {(72.0, 72.0)}, {(round(63 * MM, 6), round(88 * MM, 6))}]
    tops = [max(c.trim.y1 for c in cells) for cells in by_band]
    bottoms = [min(c.trim.y for c in cells) for cells in by_band]
    assert tops[0] == pytest.approx(top)
    assert [tops[k + 1] for k in range(2)] == pytest.approx([bottoms[k] - pager.BAND_GAP for k in range(2)])
    assert bottoms[0] == pytest.approx(top - 90)  # two rows of counters
    # each band centred across the page as alone: 12 counters are 540 pt wide
    assert min(c.trim.x for c in by_band[0]) == pytest.approx(36.0)
    assert page.block.y1 == pytest.approx(top) and page.block.y == pytest.approx(top - total)
    assert page.calibration is not None and len(page.cells) == 26


def test_cut_guides_stop_half_way_into_the_gap_and_cross_no_token():
    page, = pager.band_pages([18, 5, 3], SPECS)
    counters = [c.trim for c in page.cells if c.index < 18]
    low = min(t.y for t in counters)
    vertical = [line for line in page.cut_lines if line.x0 == line.x1]
    assert len(vertical) == 13 and len(page.cut_lines) == 13 + 3  # 13 column edges, 3 row edges of the counters
    assert min(min(line.y0, line.y1) for line in vertical) == pytest.approx(low - pager.BAND_GAP / 2)
    assert max(max(line.y0, line.y1) for line in vertical) == pytest.approx(max(t.y1 for t in counters) + 27.0)  # the top guide, whole
    assert len(page.cut_paths) == 5 + 3  # one outline per circle and per rounded card
    for line in page.cut_lines:
        for cell in page.cells:
            inner = cell.trim.grow(-0.5)
            crosses = (inner.x < line.x0 < inner.x1 and min(line.y0, line.y1) < inner.y1 and max(line.y0, line.y1) > inner.y) \
                if line.x0 == line.x1 else (inner.y < line.y0 < inner.y1 and min(line.x0, line.x1) < inner.x1 and max(line.x0, line.x1) > inner.x)
            assert not crosses, (line, cell)


def test_no_two_bleed_boxes_overlap_with_bleed_and_crop_marks():
    specs = [SheetSpec(LETTER, size=s.size, height=s.height, shape=s.shape, bleed=9.0, gutter=18.0, crop_marks=True) for s in SPECS]
    gap = pager.band_gap(specs)
    assert gap == 2 * (max(4.5, 9 + 1.5) + 17.0 + 9.0) + 2.0  # the crop marks' reach past the bleed, twice
    for page in pager.band_pages([54, 15, 9], specs):
        boxes = [c.bleed_box for c in page.cells]
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                assert a.x1 <= b.x + 1e-6 or b.x1 <= a.x + 1e-6 or a.y1 <= b.y + 1e-6 or b.y1 <= a.y + 1e-6


def test_one_band_is_the_single_size_pager_itself():
    assert list(pager.band_pages([200], [COUNTERS])) == list(pager.pages(200, COUNTERS))
    spec = SheetSpec(LETTER, group=3)
    assert pager.plan_bands([18], [spec], 3) == (3, [pager.plan(18, spec, 3).spec], 1)


def test_fill_adds_whole_sets_while_the_pages_stay_as_many():
    # s sets of (12 counters, 7 markers): s rows of each, 45 s + 18 + 72 + 81 (s - 1) <= 728: s = 5
    assert pager.plan_bands([12, 7], SPECS[:2], fill=True) == (5, SPECS[:2], 1)
    assert pager.plan_bands([12, 7], SPECS[:2], 2) == (2, SPECS[:2], 1)


def test_a_duplex_back_sheet_mirrors_every_band_with_its_cells():
    page, = pager.band_pages([18, 5, 3], SPECS)
    back = mirror(page, "long")
    assert [c.index for c in back.cells] == [c.index for c in page.cells]
    for face, behind in zip(page.cells, back.cells, strict=True):
        assert behind.trim == Rect(612 - face.trim.x - face.trim.w, face.trim.y, face.trim.w, face.trim.h)
    short = mirror(page, "short")
    for face, behind in zip(page.cells, short.cells, strict=True):
        assert behind.trim == Rect(face.trim.x, 792 - face.trim.y - face.trim.h, face.trim.w, face.trim.h)


def test_fold_over_bands_lie_on_the_faces_half_with_their_backs_across_the_fold():
    pages = list(pager.band_pages([18, 5, 3], SPECS, fold="long"))
    # a 306 × 792 pt half (756 pt high, no strip): 3 rows of 6 counters (135 pt), 2 of 3 circles (153 pt)
    # leave 756 - 135 - 18 - 153 - 18 = 432 pt: one card (249.45 pt), the other two on the next sheet
    assert [len(p.cells) for p in pages] == [24, 2]
    for page in pages:
        assert all(c.trim.x1 <= 306 - 18 + 1e-6 for c in page.cells)
        backs = foldover.backs_of(page, "long")
        for face, behind in zip(page.cells, backs.cells, strict=True):
            assert behind.trim.x == pytest.approx(612 - face.trim.x1) and behind.trim.w == face.trim.w


def test_a_band_whose_token_fits_no_page_is_refused():
    from tokengen.errors import LayoutError

    with pytest.raises(LayoutError, match="does not fit on a 8.5in × 11in page"):
        pager.band_slices([1, 1], [COUNTERS, SheetSpec(LETTER, size=700.0)])
