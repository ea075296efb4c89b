"""Issue 2: the default sheet measured from the PDF itself (cells, cut lines, crop marks,
calibration ruler, fonts, text, metadata, determinism)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

from tests import pdfmeasure as m
from tests.conftest import CATALOGUE

TOL = 0.01
INCH = 72.0


@pytest.fixture(scope="module")
def sheet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tokengen.cli import main

    out = tmp_path_factory.mktemp("sheet") / "meatshields.pdf"
    assert main(["build", str(CATALOGUE), "-o", str(out)]) == 0
    return out


def build(run, tmp_path: Path, *args: str, name: str = "out.pdf") -> Path:
    out = tmp_path / name
    result = run("build", str(CATALOGUE), "-o", str(out), *args)
    assert result.exit_code == 0, result.stderr
    return out


def test_eighteen_cells_exactly_one_inch_on_whole_token_steps(sheet: Path):
    cells = m.cells(sheet)
    assert len(cells) == 18
    for c in cells:
        assert abs(c.w - INCH) <= TOL and abs(c.h - INCH) <= TOL
    x0, top = min(c.x0 for c in cells), max(c.y1 for c in cells)
    for c in cells:
        steps_x, steps_y = (c.x0 - x0) / INCH, (top - c.y1) / INCH
        assert abs(steps_x - round(steps_x)) * INCH <= TOL
        assert abs(steps_y - round(steps_y)) * INCH <= TOL
    # the catalogue asks for one row per attribute: 3 columns × 6 rows
    assert len({round(c.x0, 2) for c in cells}) == 3
    assert len({round(c.y0, 2) for c in cells}) == 6


def test_grid_centred_and_inside_margin(sheet: Path):
    cells = m.cells(sheet)
    width, height = 612.0, 792.0
    margin = 0.25 * INCH
    left, right = min(c.x0 for c in cells), max(c.x1 for c in cells)
    bottom, top = min(c.y0 for c in cells), max(c.y1 for c in cells)
    assert abs(left - (width - right)) <= TOL
    assert abs(bottom - (height - top)) <= TOL
    assert left >= margin and bottom >= margin and right <= width - margin and top <= height - margin


def test_reading_order_is_catalogue_order(sheet: Path):
    chars = m.chars(sheet)
    cells = m.cells(sheet)
    codes = []
    for c in cells:
        inside = [ch for ch in chars if c.x0 <= ch["x0"] and ch["x1"] <= c.x1 and c.y0 <= ch["y0"] and ch["y1"] <= c.y1]
        big = max(ch["size"] for ch in inside if ch["text"].isalpha())
        codes.append("".join(ch["text"] for ch in inside if ch["text"].isalpha() and ch["size"] == big))
    assert codes == [a for a in ("AGI", "CON", "MAG", "MRL", "PER", "STR") for _ in range(3)]


def test_cut_lines_on_every_edge_across_the_grid_and_into_the_margin(sheet: Path):
    cells = m.cells(sheet)
    lines = [ln for ln in m.lines(sheet) if 0.25 <= ln["linewidth"] <= 0.5 and ln["stroking_color"] == (0.25, 0.25, 0.25)]
    left, right = min(c.x0 for c in cells), max(c.x1 for c in cells)
    bottom, top = min(c.y0 for c in cells), max(c.y1 for c in cells)
    xs = sorted({round(v, 3) for c in cells for v in (c.x0, c.x1)})
    ys = sorted({round(v, 3) for c in cells for v in (c.y0, c.y1)})
    vertical = [ln for ln in lines if abs(ln["x0"] - ln["x1"]) < 1e-6]
    horizontal = [ln for ln in lines if abs(ln["y0"] - ln["y1"]) < 1e-6]
    assert sorted(round(ln["x0"], 3) for ln in vertical) == xs
    assert sorted(round(ln["y0"], 3) for ln in horizontal) == ys
    for ln in vertical:  # whole grid, plus guides past both ends
        assert ln["y0"] < bottom - 5 and ln["y1"] > top + 5
    for ln in horizontal:
        assert ln["x0"] < left - 5 and ln["x1"] > right + 5


def test_crop_marks_are_short_and_outside_the_grid(run, tmp_path: Path):
    pdf = build(run, tmp_path, "--crop-marks", "--no-cut-lines")
    cells = m.cells(pdf)
    left, right = min(c.x0 for c in cells), max(c.x1 for c in cells)
    bottom, top = min(c.y0 for c in cells), max(c.y1 for c in cells)
    marks = [ln for ln in m.lines(pdf) if ln["linewidth"] == 0.25 and ln["stroking_color"] == (0.25, 0.25, 0.25)]
    assert len(marks) == 2 * 4 + 2 * 7  # 4 vertical edges top and bottom, 7 horizontal edges left and right
    for ln in marks:
        length = max(ln["x1"] - ln["x0"], ln["y1"] - ln["y0"])
        assert 10 <= length <= 20
        outside = ln["y0"] >= top + 3 or ln["y1"] <= bottom - 3 or ln["x0"] >= right + 3 or ln["x1"] <= left - 3
        assert outside, ln
    # no full-length cut lines in this mode
    assert not [ln for ln in m.lines(pdf) if ln["linewidth"] == 0.3 and ln["stroking_color"] == (0.25, 0.25, 0.25)]


def test_calibration_bar_is_exactly_one_inch_and_says_print_at_actual_size(sheet: Path):
    cells = m.cells(sheet)
    bottom = min(c.y0 for c in cells)
    bars = [r for r in m.rects(sheet) if r["stroke"] and abs(r["width"] - 72) <= TOL and abs(r["height"] - 5) <= TOL]
    assert len(bars) == 1 and bars[0]["y1"] < bottom
    text = m.text(sheet)
    assert "Print at 100% / Actual size" in text and "1 in = 25.4 mm" in text


def test_viewer_prefs_and_metadata(sheet: Path):
    reader = PdfReader(sheet)
    prefs = reader.trailer["/Root"]["/ViewerPreferences"]
    assert prefs["/PrintScaling"] == "/None"
    meta = reader.metadata
    assert meta.title == "Meatshields"
    assert meta.author
    assert meta.subject == "18 tokens, 1in square, 1 page"


def test_every_font_is_an_embedded_subset_of_the_bundled_ttf(sheet: Path):
    fonts = m.fonts(sheet)
    names = sorted(str(f["/BaseFont"]).split("+")[-1] for f in fonts)
    assert names == ["DejaVuSans", "DejaVuSans-Bold"]
    assert all(m.embedded(f) for f in fonts)
    assert all("+" in str(f["/BaseFont"]) for f in fonts)  # subset tag


def test_text_extracts_arrows_and_names(sheet: Path):
    text = m.text(sheet)
    for word in ("Agility", "Constitution", "Magic", "Morale", "Perception", "Strength", "↓↑", "↓", "↑"):
        assert word in text
    assert text.count("↓↑") == 6


def test_face_text_inside_safe_area(sheet: Path):
    safe = INCH / 16
    cells = m.cells(sheet)
    chars = [ch for ch in m.chars(sheet) if ch["y0"] > min(c.y0 for c in cells) - 1]
    assert len(chars) > 18 * 5
    for ch in chars:
        cell = next(c for c in cells if c.x0 <= (ch["x0"] + ch["x1"]) / 2 <= c.x1 and c.y0 <= (ch["y0"] + ch["y1"]) / 2 <= c.y1)
        assert ch["x0"] >= cell.x0 + safe - TOL and ch["x1"] <= cell.x1 - safe + TOL, ch["text"]
        assert ch["y0"] >= cell.y0 + safe - TOL and ch["y1"] <= cell.y1 - safe + TOL, ch["text"]


def test_same_input_same_bytes(run, tmp_path: Path):
    a = build(run, tmp_path, name="a.pdf")
    b = build(run, tmp_path, name="b.pdf")
    assert a.read_bytes() == b.read_bytes()


@pytest.mark.parametrize("page,size", [("letter", (612.0, 792.0)), ("a4", (595.2756, 841.8898))])
def test_eighteen_fit_on_one_page(run, tmp_path: Path, page: str, size: tuple[float, float]):
    for columns in ([], ["--columns", "8"]):
        pdf = build(run, tmp_path, "--page", page, *columns)
        reader = PdfReader(pdf)
        assert len(reader.pages) == 1
        box = reader.pages[0].mediabox
        assert abs(float(box.width) - size[0]) < 0.01 and abs(float(box.height) - size[1]) < 0.01
        assert len(m.cells(pdf)) == 18


def test_page_options_landscape_custom_and_gutter(run, tmp_path: Path):
    pdf = build(run, tmp_path, "--page", "8.5inx11in", "--landscape", "--gutter", "0.125in", "--columns", "6")
    box = PdfReader(pdf).pages[0].mediabox
    assert (float(box.width), float(box.height)) == (792.0, 612.0)
    cells = m.cells(pdf)
    xs = sorted({round(c.x0, 3) for c in cells})
    assert len(xs) == 6
    assert all(abs((b - a) - (72 + 9)) <= TOL for a, b in zip(xs, xs[1:]))


def test_copies_and_multiple_pages(run, tmp_path: Path):
    pdf = build(run, tmp_path, "--copies", "5", "--columns", "8")
    reader = PdfReader(pdf)
    assert len(reader.pages) == 2  # 90 tokens, 80 per letter page
    assert len(m.cells(pdf, 0)) == 80 and len(m.cells(pdf, 1)) == 10


def test_missing_glyph_is_an_error_not_a_box(run, tmp_path: Path):
    source = CATALOGUE.read_text(encoding="utf-8").replace('glyph: "↓↑"', 'glyph: "\U0001F5E1"')
    cat = tmp_path / "cat.yaml"
    cat.write_text(source, encoding="utf-8")
    out = tmp_path / "x.pdf"
    result = run("build", str(cat), "-o", str(out))
    assert result.exit_code == 2
    assert result.stderr == f"tokengen: error: {cat}:59: game.priorities[2].glyph: the bundled font DejaVuSans-Bold has no glyph for '\U0001F5E1' (U+1F5E1)\n"
    assert not out.exists() and list(tmp_path.iterdir()) == [cat]
