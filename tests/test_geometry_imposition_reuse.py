"""Pages with as many tokens share one layout (issue 11: a 10,008-token build lays out two pages,
not 126): every page :func:`iter_pages` gives must equal the page laid out on its own."""

from __future__ import annotations

import pytest

from tokengen.geometry import imposition
from tokengen.geometry.imposition import PageLayout, SheetSpec, grid_for, iter_pages, layout_page, page_slices, renumbered

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
    pages = list(iter_pages(count, spec))
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
    pages = list(imposition.iter_pages(3 * per_page + 5, spec))
    assert calls == [per_page, 5]  # two layouts for four pages: one full, one partial
    assert [p.number for p in pages] == [0, 1, 2, 3]
