"""The library's pager is bounded like a build (issue 24): ``impose()`` holds every cell at
once, so a count is refused before it is laid out (a 0.001 pt token on a billion-token run ended
in MemoryError); a gutter, margin or bleed that is not a finite length is a LayoutError, not
Python's ValueError from the cell arithmetic."""

from __future__ import annotations

import math

import pytest

from tokengen.errors import LayoutError
from tokengen.geometry.imposition import SheetSpec, grid_for
from tokengen.geometry.pager import impose

LETTER = (612.0, 792.0)


def test_impose_bounds_the_count_by_default():
    with pytest.raises(LayoutError) as info:
        impose(10**9, SheetSpec(page=LETTER, size=9.0))
    assert str(info.value) == "1000000000 tokens requested, more than the limit of 200000 (raise it with --max-tokens)"
    with pytest.raises(LayoutError, match=r"^1000 tokens need 13 pages, more than the limit of 5 \(raise it with --max-pages\)$"):
        impose(1000, SheetSpec(page=LETTER), max_pages=5)
    assert len(impose(1000, SheetSpec(page=LETTER))) == 13
    assert sum(len(p.cells) for p in impose(5_000, SheetSpec(page=LETTER, size=9.0), max_tokens=None)) == 5_000


@pytest.mark.parametrize("field", ["gutter", "margin", "bleed", "home_bleed"])
@pytest.mark.parametrize("value", [math.nan, math.inf, -1.0])
def test_lengths_that_are_not_lengths_are_layout_errors(field: str, value: float):
    with pytest.raises(LayoutError) as info:
        grid_for(SheetSpec(page=LETTER, **{field: value}))
    assert str(info.value) == f"{field.replace('_', ' ')} must be a length of 0 or more, got {value!r} pt"
