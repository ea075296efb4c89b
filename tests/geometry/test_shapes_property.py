"""Property tests for shaped sheets (hypothesis): every token lies inside the printable area,
no two tokens overlap, and neighbours keep the gutter (circles: at least the punch room)."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from tokengen.errors import LayoutError
from tokengen.geometry.imposition import SheetSpec
from tokengen.geometry.pager import pages
from tokengen.geometry.shapes import PUNCH_ROOM, Shape, hex_box, packing_for
from tokengen.units import PAGES


@settings(max_examples=60, deadline=None)
@given(kind=st.sampled_from(["circle", "hex-pointy", "hex-flat", "rounded"]),
       size=st.floats(18, 200), ratio=st.floats(1.0, 1.6), gutter=st.floats(0, 20),
       page=st.sampled_from(["letter", "a4"]), count=st.integers(1, 120))
def test_shaped_cells_stay_inside_and_apart(kind, size, ratio, gutter, page, count):
    if kind.startswith("hex"):
        orientation = kind.split("-")[1]
        shape = Shape("hex", orientation=orientation)
        w, h = hex_box(size, orientation)
    elif kind == "circle":
        shape, w, h = Shape("circle"), size, None
    else:
        shape, w, h = Shape("rounded", radius=size / 10), size, size * ratio
    spec = SheetSpec(page=PAGES[page], size=w, height=h, shape=shape, gutter=gutter)
    try:
        packing = packing_for(spec)
    except LayoutError:
        return
    cells = [c for p in pages(count, spec, max_pages=1000) for c in p.cells if p.number == 0]
    assert len(cells) == min(count, packing.per_page)
    for c in cells:
        assert packing.area.contains(c.trim, tol=1e-6)
    centres = [(c.trim.x + c.trim.w / 2, c.trim.y + c.trim.h / 2) for c in cells]
    for i, a in enumerate(centres):
        for b in centres[i + 1:]:
            d = math.dist(a, b)
            if kind == "circle":
                assert d >= size + max(gutter, PUNCH_ROOM) - 1e-6
            elif kind.startswith("hex"):
                assert d >= size + gutter - 1e-6  # hexes across the flats apart: edges never overlap
            else:
                ca, cb = cells[centres.index(a)].trim, cells[centres.index(b)].trim
                apart_x = abs(a[0] - b[0]) >= ca.w + gutter - 1e-6
                apart_y = abs(a[1] - b[1]) >= ca.h + gutter - 1e-6
                assert apart_x or apart_y, (ca, cb)
