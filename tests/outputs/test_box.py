"""Tuck boxes (issue 41): ``tokengen box`` draws the net of a box whose inside is the deck plus a
clearance, sized from the catalogue's card and a stated thickness.

Measured on the written PDF: the dashed fold lines read back from the page's content stream
space the panels by the deck's width and depth, and are as long as its height; the cut outline
encloses every fold."""

from __future__ import annotations

import pikepdf
import pytest

from tokengen.geometry import tuckbox

MM = 72 / 25.4


def test_the_inside_is_the_deck_plus_the_clearance():
    width, height, depth = tuckbox.inside((63.5 * MM, 88.9 * MM), 54, 0.3 * MM, 1 * MM)
    assert (width / MM, height / MM, depth / MM) == (pytest.approx(64.5), pytest.approx(89.9), pytest.approx(17.2))
    with pytest.raises(ValueError):
        tuckbox.inside((1, 1), 0)


def test_the_net_holds_every_panel_and_the_outline_encloses_them():
    box = tuckbox.tuck_box(*tuckbox.inside((63.5 * MM, 88.9 * MM), 54))
    xs = [x for x, _ in box.outline]
    ys = [y for _, y in box.outline]
    for rect in box.panels.values():
        assert min(xs) - 1e-6 <= rect.x and rect.x + rect.w <= max(xs) + 1e-6
        assert min(ys) - 1e-6 <= rect.y and rect.y + rect.h <= max(ys) + 1e-6
    assert box.panels["front"].w == box.panels["back"].w == box.width
    assert box.panels["side-1"].w == box.panels["side-2"].w == box.panels["lid"].h == box.depth


def _folds(pdf_path) -> list[tuple[float, float, float, float]]:
    """The dashed line segments (x0, y0, x1, y1 pt) stroked on page 1."""
    with pikepdf.open(pdf_path) as pdf:
        dashed, out, start = False, [], None
        for operands, op in pikepdf.parse_content_stream(pdf.pages[0]):
            name = str(op)
            if name == "d":
                dashed = len(operands[0]) > 0
            elif name == "Q":
                dashed = False
            elif name == "m":
                start = (float(operands[0]), float(operands[1]))
            elif name == "l" and dashed and start is not None:
                out.append((start[0], start[1], float(operands[0]), float(operands[1])))
        return out


def test_a_box_for_54_poker_cards_has_the_decks_width_depth_and_height(run, tmp_path):
    catalogue = tmp_path / "deck.yaml"
    catalogue.write_text('title: Deck\nsize: poker\nfields:\n  name: text\ntemplate:\n  - {text: "{name}"}\n'
                         "back:\n  - {rect: fill, fill: \"#223366\"}\ntokens:\n  - {id: a, name: A}\n", "utf-8")
    result = run("box", str(catalogue), "--cards", "54", "--thickness", "0.3mm", "--clearance", "1mm", "-o", str(tmp_path / "box.pdf"))
    assert result.exit_code == 0, result.stderr
    assert "a tuck box 64.5mm wide, 89.9mm high, 17.2mm deep (inside)" in result.stdout
    folds = _folds(tmp_path / "box.pdf")
    vertical = sorted({round(x0, 2) for x0, y0, x1, y1 in folds if abs(x0 - x1) < 1e-6})
    assert len(vertical) == 4  # back|side, side|front, front|side, side|glue
    gaps = [b - a for a, b in zip(vertical, vertical[1:])]
    assert gaps == [pytest.approx(17.2 * MM, abs=0.02), pytest.approx(64.5 * MM, abs=0.02), pytest.approx(17.2 * MM, abs=0.02)]
    heights = {round(abs(y1 - y0), 2) for x0, y0, x1, y1 in folds if abs(x0 - x1) < 1e-6}
    assert len(heights) == 1 and heights.pop() == pytest.approx(89.9 * MM, abs=0.02)


def test_a_box_larger_than_the_page_is_refused(run, tmp_path):
    catalogue = tmp_path / "deck.yaml"
    catalogue.write_text('title: Deck\nsize: tarot\nfields:\n  name: text\ntemplate:\n  - {text: "{name}"}\ntokens:\n  - {id: a, name: A}\n', "utf-8")
    result = run("box", str(catalogue), "--cards", "300", "-o", str(tmp_path / "box.pdf"))
    assert result.exit_code == 2
    assert "the unfolded box is" in result.stderr and "larger than the" in result.stderr
    assert not (tmp_path / "box.pdf").exists()
