"""Hand-laid sheets as plain geometry (issue 41): slots placed where the sheet says, turned slots
taking the turned box, blocks of counters inside the printable area and never overlapping, with
no PDF drawn."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokengen.errors import CatalogueError
from tokengen.geometry import handsheet, pager
from tokengen.geometry.handsheet import Groups, HandSheet, Slot, Zone
from tokengen.geometry.imposition import SheetSpec
from tokengen.geometry.shapes import Shape
from tokengen.model import Colour

LETTER = (612.0, 792.0)


def test_a_slot_is_measured_from_the_top_left_and_a_turn_swaps_its_box():
    spec = SheetSpec(page=LETTER, size=72.0, height=144.0, margin=18.0,
                     hand=HandSheet("s.yaml", (Slot(36.0, 36.0), Slot(200.0, 36.0, 90), Slot(36.0, 300.0, 270))))
    placed, bands = handsheet.placements(spec.hand, spec)
    assert [(p.trim.x, p.trim.y, p.trim.w, p.trim.h, p.rotate) for p in placed] == [
        (36.0, 792 - 36 - 144, 72.0, 144.0, 0), (200.0, 792 - 36 - 72, 144.0, 72.0, 90), (36.0, 792 - 300 - 72, 144.0, 72.0, 270)]
    assert bands == ()


def test_more_tokens_than_slots_go_on_to_the_next_page_on_the_same_slots():
    spec = SheetSpec(page=LETTER, size=72.0, hand=HandSheet("s.yaml", (Slot(36.0, 36.0), Slot(200.0, 36.0, 90))))
    pages = list(pager.pages(5, spec))
    assert [len(p.cells) for p in pages] == [2, 2, 1]
    assert [(c.trim, c.rotate) for c in pages[1].cells] == [(c.trim, c.rotate) for c in pages[0].cells]
    assert pages[2].cells[0].index == 4 and pages[1].cells[1].rotate == 90


def test_a_quarter_turned_hex_lies_flat():
    assert handsheet.turned(Shape("hex", orientation="pointy"), 90).orientation == "flat"
    assert handsheet.turned(Shape("hex", orientation="pointy"), 180).orientation == "pointy"


@settings(max_examples=60, deadline=None)
@given(columns=st.integers(1, 8), rows=st.integers(1, 8), gap=st.floats(0, 60), bleed=st.sampled_from([0.0, 4.5, 9.0]),
       zones=st.lists(st.integers(1, 4), max_size=3))
def test_blocks_stay_inside_the_printable_area_and_never_overlap(columns, rows, gap, bleed, zones):
    hand = HandSheet("s.yaml", groups=Groups(columns, rows, gap, 3),
                     zones=tuple(Zone(f"zone {k}", Colour("rgb", (0.5, 0.5, 0.5)), n, 4 + k) for k, n in enumerate(zones)))
    spec = SheetSpec(page=LETTER, size=36.0, margin=18.0, gutter=2 * bleed, bleed=bleed, hand=hand)
    try:
        placed, bands = handsheet.placements(hand, spec)
    except CatalogueError as exc:
        assert exc.path == "s.yaml" and exc.line in (3, 4, 5, 6) and exc.field.startswith("sheet.")
        return
    area = handsheet.printable(spec)
    boxes = [p.trim.grow(bleed) for p in placed]
    assert all(area.contains(b) for b in boxes)
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert a.x1 <= b.x + 1e-6 or b.x1 <= a.x + 1e-6 or a.y1 <= b.y + 1e-6 or b.y1 <= a.y + 1e-6
    assert len(bands) == len(zones)
    for band in bands:  # a zone's band covers no counter
        assert all(band.rect.y >= b.y1 - 1e-6 or band.rect.y1 <= b.y + 1e-6 or band.rect.x1 <= b.x or band.rect.x >= b.x1 for b in boxes)
    if zones:
        assert len(placed) == sum(zones) * columns * rows


def test_overlapping_slots_are_refused_naming_the_later_slot_and_its_line():
    hand = HandSheet("s.yaml", (Slot(36.0, 36.0, 0, 3), Slot(80.0, 36.0, 0, 4)))
    with pytest.raises(CatalogueError) as caught:
        handsheet.placements(hand, SheetSpec(page=LETTER, size=72.0, hand=hand))
    assert str(caught.value).startswith("s.yaml:4: sheet.slots[1]: the slot overlaps sheet.slots[0]")
