"""Boxed text fitting where ReportLab's line breaker and its spreading of word gaps disagree:
an icon glued to punctuation (``:sword:;``), justified lines holding an icon, lines ReportLab
lets run past the width and then narrows. Measured in the PDF drawn (pdfplumber)."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest
from PIL import Image
from reportlab.lib.units import mm
from reportlab.pdfgen import canvas

from tokengen.faces import textbox

TOL = 0.01
GLUED = ("Deal :sword:; then roll :sword:, and take :sword: a. Again :sword:; more words here to wrap the "
         "lines around :sword:; ok :sword:: fine :sword:\u00a0next. Roll :sword:; keep :sword:, lose :sword:.")


@pytest.fixture(scope="module")
def icons(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("icons")
    Image.new("RGB", (64, 64), (200, 0, 0)).save(folder / "sword.png")
    return {"sword": str(folder / "sword.png")}


def _drawn(path: Path, laid: textbox.Laid, x: float, y: float) -> tuple[list[dict], list[dict]]:
    c = canvas.Canvas(str(path), pagesize=(63 * mm, 88 * mm), invariant=1)
    textbox.draw(c, laid, x, y)
    c.save()
    with pdfplumber.open(path) as pdf:
        return list(pdf.pages[0].chars), list(pdf.pages[0].images)


def test_fit_is_monotonic_with_icons_before_punctuation(icons: dict[str, str]):
    w, h = 40 * mm, 20 * mm
    sizes = [5 + k / 20 for k in range(0, 101)]  # 5 .. 10 pt in 0.05 pt
    cut = [textbox.fit_box(GLUED, w, h, size=s, fit=False, icons=icons).truncated for s in sizes]
    first = cut.index(True)
    assert 0 < first and all(cut[first:]) and not any(cut[:first])  # fits up to one size, never again above it


@pytest.mark.parametrize("align", ["left", "justify", "right"])
def test_largest_size_with_glued_icons_prints_inside(tmp_path: Path, icons: dict[str, str], align: str):
    bx, by, bw, bh = 4 * mm, 4 * mm, 40 * mm, 20 * mm
    laid = textbox.fit_box(GLUED, bw, bh, size=12, icons=icons, align=align)
    assert not laid.truncated and laid.size > 5
    assert textbox.fit_box(GLUED, bw, bh, size=laid.size + 0.01, fit=False, icons=icons, align=align).truncated
    chars, images = _drawn(tmp_path / f"{align}.pdf", laid, bx, by)
    assert len(images) == GLUED.count(":sword:")
    for box in chars + images:
        assert bx - TOL <= box["x0"] and box["x1"] <= bx + bw + TOL, box
        assert by - TOL <= box["y0"] and box["y1"] <= by + bh + TOL, box


def test_justified_lines_with_icons_end_on_the_right_edge(tmp_path: Path, icons: dict[str, str]):
    bx, by, bw, bh = 4 * mm, 4 * mm, 40 * mm, 30 * mm
    laid = textbox.fit_box(GLUED, bw, bh, size=8, icons=icons, align="justify")
    chars, images = _drawn(tmp_path / "j.pdf", laid, bx, by)
    ends: dict[float, float] = {}
    for box in [ch for ch in chars if ch["text"] != " "] + images:
        y = round(box["y0"] if box in images else box["matrix"][5], 1)  # an icon's bottom edge is its baseline
        ends[y] = max(ends.get(y, 0.0), box["x1"])
    rows = [ends[y] for y in sorted(ends, reverse=True)]
    assert len(rows) == len(laid.lines) >= 3
    assert all(x1 == pytest.approx(bx + bw, abs=TOL) for x1 in rows[:-1])  # the last line stays ragged
    assert rows[-1] < bx + bw - 1
