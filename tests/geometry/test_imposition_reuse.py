"""Pages with as many tokens share one layout (issue 11: a 10,008-token build lays out two pages,
not 126): every page the pager (:func:`tokengen.geometry.pager.pages`) gives must equal the page
laid out on its own, for squares, shaped tokens and fold-over sheets alike."""

from __future__ import annotations

import pytest

from tokengen.geometry import foldover, imposition, pager, shapes
from tokengen.geometry.imposition import PageLayout, SheetSpec, grid_for, layout_page
from tokengen.geometry.pager import page_slices, renumbered
from tokengen.geometry.shapes import Shape, hex_box, packing_for

LETTER = (612.0, 792.0)


def _alone(count: int, spec: SheetSpec) -> list:
    grid = grid_for(spec)
    return [layout_page(number, indices, spec, grid) for number, indices in page_slices(count, grid.per_page)]


@pytest.mark.parametrize("spec", [
    SheetSpec(LETTER),
    SheetSpec(LETTER, home_bleed=4.5),
    SheetSpec(LETTER, home_bleed=4.5, calibration=False),
    SheetSpec(LETTER, bleed=9.0, gutter=18.0, crop_marks=True),
    SheetSpec((297.0, 420.0), size=54.0, margin=9.0, home_bleed=4.5, columns=3),
])
@pytest.mark.parametrize("count", [1, 18, 80, 81, 200, 241])
def test_every_page_equals_the_page_laid_out_alone(spec: SheetSpec, count: int) -> None:
    pages = list(pager.pages(count, spec))
    assert pages == _alone(count, spec)
    assert [c.index for p in pages for c in p.cells] == list(range(count))


def test_renumbered_moves_cells_and_home_bleed_together() -> None:
    spec = SheetSpec(LETTER, home_bleed=4.5)
    first = layout_page(0, range(0, 5), spec, grid_for(spec))
    moved = renumbered(first, 3, 100)
    assert moved.number == 3
    assert [c.index for c in moved.cells] == [100, 101, 102, 103, 104]
    assert [c.trim for c in moved.cells] == [c.trim for c in first.cells]
    assert [(i - 100, r) for i, r in moved.outer_bleed] == list(first.outer_bleed)
    assert moved.cut_lines == first.cut_lines and moved.calibration == first.calibration
    assert renumbered(first, 2, 0).number == 2
    later = layout_page(1, range(10, 15), spec, grid_for(spec))  # a page whose tokens start at 10
    assert [c.index for c in renumbered(later, 4, 100).cells] == [100, 101, 102, 103, 104]
    empty = layout_page(0, range(0), spec, grid_for(spec))
    assert renumbered(empty, 2, 7) == PageLayout(2, empty.size, (), empty.block, empty.cut_lines, empty.crop_marks,
                                                 empty.calibration, ())
    assert renumbered(first, 2, 0).cells == first.cells


def test_each_page_size_is_laid_out_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []

    def counted(number, indices, spec, grid):
        calls.append(len(indices))
        return layout_page(number, indices, spec, grid)

    monkeypatch.setattr(imposition, "layout_page", counted)
    spec = SheetSpec(LETTER, home_bleed=4.5)
    per_page = grid_for(spec).per_page
    pages = list(pager.pages(3 * per_page + 5, spec))
    assert calls == [per_page, 5]  # two layouts for four pages: one full, one partial
    assert [p.number for p in pages] == [0, 1, 2, 3]


SHAPED = [
    SheetSpec(LETTER, size=54.0, shape=Shape("circle")),
    SheetSpec(LETTER, size=54.0, shape=Shape("circle", punch=True), crop_marks=True),
    SheetSpec(LETTER, size=hex_box(54.0, "pointy")[0], height=hex_box(54.0, "pointy")[1], shape=Shape("hex")),
    SheetSpec(LETTER, size=hex_box(54.0, "flat")[0], height=hex_box(54.0, "flat")[1], shape=Shape("hex", orientation="flat"),
              bleed=4.5, gutter=9.0, crop_marks=True),
    SheetSpec(LETTER, size=178.6, height=249.4, shape=Shape("rounded", radius=8.5), crop_marks=True),
]


@pytest.mark.parametrize("spec", SHAPED)
@pytest.mark.parametrize("count", [1, 9, 40, 41, 97])
def test_every_shaped_page_equals_the_page_laid_out_alone(spec: SheetSpec, count: int) -> None:
    packing = packing_for(spec)
    alone = [shapes.layout_page(number, indices, spec, packing) for number, indices in page_slices(count, packing.per_page)]
    pages = list(pager.pages(count, spec))
    assert pages == alone
    assert [c.index for p in pages for c in p.cells] == list(range(count))


@pytest.mark.parametrize("spec", [SheetSpec(LETTER, home_bleed=4.5), SHAPED[2], SHAPED[4]])
@pytest.mark.parametrize("fold", ["long", "short"])
def test_every_fold_over_page_equals_its_half_laid_out_alone_and_moved(spec: SheetSpec, fold: str) -> None:
    half = foldover.half_spec(spec, fold)
    count = 2 * pager.capacity(spec, fold) + 3
    per_page = pager.capacity(half)
    assert per_page == pager.capacity(spec, fold)
    lay = shapes.layout_page if shapes.shaped(half) else imposition.layout_page
    fit = packing_for(half) if shapes.shaped(half) else grid_for(half)
    alone = [foldover.onto_sheet(lay(number, indices, half, fit), spec, fold) for number, indices in page_slices(count, per_page)]
    pages = list(pager.pages(count, spec, fold=fold))
    assert pages == alone
    assert [len(p.cells) for p in pages] == [per_page, per_page, 3]
    assert all(p.size == spec.page and p.calibration is None for p in pages)


def test_each_shaped_and_fold_over_page_size_is_laid_out_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    original = shapes.layout_page

    def counted(number, indices, spec, packing):
        calls.append(len(indices))
        return original(number, indices, spec, packing)

    monkeypatch.setattr(shapes, "layout_page", counted)
    spec = SHAPED[2]
    per_page = packing_for(spec).per_page
    assert [p.number for p in pager.pages(3 * per_page + 5, spec)] == [0, 1, 2, 3]
    assert calls == [per_page, 5]
    calls.clear()
    folded = pager.capacity(spec, "long")
    assert [p.number for p in pager.pages(4 * folded, spec, fold="long")] == [0, 1, 2, 3]
    assert calls == [folded]  # four full fold-over sheets: one layout
