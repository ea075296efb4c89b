"""Fold-over sheets give the backs the faces' home bleed: rendered with pypdfium2, a pixel 1 mm
outside a back's trim on an open side (towards the fold or an outer cut) shows the back's colour,
as 1 mm outside its face shows the face's, and 3 mm out on an outer side is paper again."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest

from tokengen import BuildOptions, SheetSpec, build_pdf, load_catalogue
from tokengen.geometry import foldover, pager
from tokengen.geometry.imposition import Cell, PageLayout
from tokengen.outputs.build import settle
from tokengen.units import parse_page

MM = 72 / 25.4
SCALE = 4.0  # px per pt
FACE, BACK, PAPER = (0xDD, 0xEE, 0xFF), (0x33, 0x44, 0x55), (0xFF, 0xFF, 0xFF)
CATALOGUE = """\
title: Fold bleed
size: 0.75in
fields: {{name: text}}
template:
  - {{rect: fill, fill: "#ddeeff", bleed: true}}
back:
  - {{rect: fill, fill: "#334455", bleed: true}}
tokens:
{tokens}
"""


def open_sides(cells: tuple[Cell, ...]) -> list[tuple[Cell, float, float]]:
    """(cell, dx, dy) for every side of a cell with no neighbour: the unit step out of it."""
    at = {(round(c.trim.x, 2), round(c.trim.y, 2)) for c in cells}
    out = []
    for c in cells:
        t = c.trim
        for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            if (round(t.x + dx * t.w, 2), round(t.y + dy * t.h, 2)) not in at:
                out.append((c, dx, dy))
    return out


def colour_at(image, height: float, cell: Cell, dx: float, dy: float, out: float) -> tuple[int, int, int]:
    """The pixel ``out`` pt outside the middle of ``cell``'s side facing (dx, dy), in PDF space."""
    t = cell.trim
    x = t.x + t.w / 2 + dx * (t.w / 2 + out)
    y = t.y + t.h / 2 + dy * (t.h / 2 + out)
    return image.getpixel((int(x * SCALE), int((height - y) * SCALE)))[:3]


def close(got: tuple[int, int, int], want: tuple[int, int, int]) -> bool:
    return all(abs(a - b) <= 3 for a, b in zip(got, want, strict=True))


@pytest.mark.parametrize("page, fold", [("letter", "long"), ("letter", "short"), ("a4-landscape", "long")])
def test_backs_get_the_home_bleed_of_their_faces(tmp_path, page, fold):
    path = tmp_path / "fold.yaml"
    path.write_text(CATALOGUE.format(tokens="\n".join(f"  - {{id: t{i}, name: F{i}}}" for i in range(7))), "utf-8")
    cat = load_catalogue(path)
    sheet = parse_page(page.split("-")[0], landscape=page.endswith("landscape"))
    options = BuildOptions(sheet=SheetSpec(page=sheet, size=cat.size, home_bleed=2 * MM), fold=fold)
    out = tmp_path / "fold.pdf"
    build_pdf(cat, options, out)
    settled, copies, _ = settle(cat, options)
    faces: PageLayout = next(iter(pager.band_pages([len(cat.tokens) * copies], [settled.sheet], fold=fold)))
    backs = foldover.backs_of(faces, fold)
    pdf = pdfium.PdfDocument(str(out))
    image = pdf[0].render(scale=SCALE).to_pil().convert("RGB")
    height = sheet[1]
    sides = open_sides(backs.cells)
    assert len(sides) >= 4  # a block of 7 has open sides all round, one of them towards the fold
    fold_line = foldover.fold_line(sheet, fold)
    vertical = fold_line.x0 == fold_line.x1
    for cell, dx, dy in sides:
        assert close(colour_at(image, height, cell, 0, 0, 0), BACK)  # the back itself
        assert close(colour_at(image, height, cell, dx, dy, 1 * MM), BACK), (cell.index, dx, dy)
        t = cell.trim
        x, y = t.x + t.w / 2 + dx * (t.w / 2 + 3 * MM), t.y + t.h / 2 + dy * (t.h / 2 + 3 * MM)
        if abs((x - fold_line.x0) if vertical else (y - fold_line.y0)) > 1:  # clear of the dashed fold line
            assert close(colour_at(image, height, cell, dx, dy, 3 * MM), PAPER), (cell.index, dx, dy)
    for cell, dx, dy in open_sides(faces.cells):  # the faces' home bleed, as before
        assert close(colour_at(image, height, cell, dx, dy, 1 * MM), FACE), (cell.index, dx, dy)
