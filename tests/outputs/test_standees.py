"""Standees (issue 41): ``shape: standee`` prints each token as a strip: a base, the face
upright, the back turned 180° above it, a second base; cut outline solid, three folds dashed.

Measured on the written PDF: the forms' placements (the back's matrix turns it 180°), the fold
lines' heights (base, figure, figure: so the strip folds to the figure's size), and the cut
outline's height 2 × figure + 2 × base."""

from __future__ import annotations

import pikepdf
import pytest

MM = 72 / 25.4
CATALOGUE = """title: Heroes
size: 1.5inx2.5in
shape: {shape}
fields:
  name: text
template:
  - {{rect: fill, fill: "#cc6633"}}
  - {{text: "{{name}}", at: [0.5, 0.8], size: 0.12}}
back:
  - {{rect: fill, fill: "#334466"}}
tokens:
  - {{id: a, name: Knight}}
  - {{id: b, name: Archer}}
"""


def _ops(pdf_path):
    with pikepdf.open(pdf_path) as pdf:
        return [([o if isinstance(o, (pikepdf.Name, pikepdf.Array)) else float(o) for o in operands], str(op))
                for operands, op in pikepdf.parse_content_stream(pdf.pages[0])]


def test_a_standee_folds_to_its_figure(run, tmp_path):
    catalogue = tmp_path / "st.yaml"
    catalogue.write_text(CATALOGUE.format(shape="{kind: standee, base: 12mm}"), "utf-8")
    result = run("build", str(catalogue), "-o", str(tmp_path / "st.pdf"))
    assert result.exit_code == 0, result.stderr
    assert "2 standees: cut on the solid lines, fold on the dashed ones" in result.stdout + result.stderr
    ops = _ops(tmp_path / "st.pdf")
    matrices = [tuple(round(v, 3) for v in operands) for operands, op in ops if op == "cm"]
    turned = [m for m in matrices if m[:4] == (-1, 0, 0, -1)]
    assert len(turned) == 2  # each back turned 180°
    placed = [str(operands[0]) for operands, op in ops if op == "Do"]
    assert sum("face" in name for name in placed) == 2 and sum("back" in name for name in placed) == 2
    # the dashed folds: three per strip, at base, base + figure, base + 2 × figure above the strip's foot
    dashed, folds, start = False, [], None
    for operands, op in ops:
        if op == "d":
            dashed = len(operands[0]) > 0
        elif op == "Q":
            dashed = False
        elif op == "m":
            start = operands
        elif op == "l" and dashed:
            folds.append((start[0], start[1], operands[0], operands[1]))
    ys = sorted({round(y0, 2) for x0, y0, x1, y1 in folds})
    assert len(ys) == 3
    assert ys[1] - ys[0] == pytest.approx(180.0, abs=0.01) and ys[2] - ys[1] == pytest.approx(180.0, abs=0.01)  # 2.5 in each
    assert {round(x1 - x0, 2) for x0, y0, x1, y1 in folds} == {108.0}  # 1.5 in wide


def test_the_default_base_and_a_bad_key(run, tmp_path):
    catalogue = tmp_path / "st.yaml"
    catalogue.write_text(CATALOGUE.format(shape="standee"), "utf-8")
    result = run("build", str(catalogue), "-o", str(tmp_path / "st.pdf"))
    assert result.exit_code == 0 and "12mm bases" in result.stdout + result.stderr
    catalogue.write_text(CATALOGUE.format(shape="{kind: standee, bse: 1cm}"), "utf-8")
    result = run("build", str(catalogue), "-o", str(tmp_path / "x.pdf"))
    assert result.exit_code == 2
    assert "st.yaml:3: shape.bse: unknown key for a standee; did you mean 'base'?" in result.stderr


def test_check_counts_the_strips_and_shop_sheets_refuse_them(run, tmp_path):
    catalogue = tmp_path / "st.yaml"
    catalogue.write_text(CATALOGUE.format(shape="standee"), "utf-8")
    result = run("check", str(catalogue))
    assert result.exit_code == 0
    # a strip is 1.5 in wide and 2 x 2.5 in + 2 x 12 mm high: five side by side on Letter, one row
    assert "info sheet: 5 standees of 1.5in × 2.5in fit on one 8.5in × 11in page" in result.stdout
    result = run("export", str(catalogue), "--profile", "print-shop", "-o", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert "standee strips are printed on home sheets (tokengen build) or one side a page" in result.stderr
    assert not any((tmp_path / "out").glob("*.pdf")) if (tmp_path / "out").exists() else True
