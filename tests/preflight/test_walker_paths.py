"""The walker's fast paths give what the plain reading gave (issue 27): path-construction
operators are held back until a paint needs their boxes (ink above 0 %, or the die line),
operands are converted once per instruction, fonts set again by name and glyphs met again are
not looked up again. Each test states the summary the plain reading gives, exactly."""

from __future__ import annotations

from typing import Any

import pikepdf
import pytest
from pikepdf import Array, Dictionary, Name

from tokengen.errors import PreflightError
from tokengen.preflight.pdfwalk import INK_BOXES, Budget, Limits, Summary, Walker


def _pdf(content: bytes, fonts: bool) -> Any:
    pdf = pikepdf.new()
    page = pdf.add_blank_page(page_size=(200, 200))
    page.obj.Contents = pdf.make_stream(content)
    res = Dictionary()
    if fonts:  # W: an indirect font 1 em wide (a space half), N: a direct one a quarter em
        wide = pdf.make_indirect(Dictionary(Type=Name.Font, Subtype=Name.Type1, BaseFont=Name.Wide, FirstChar=32,
                                            Widths=[500] + [1000] * 94))
        narrow = Dictionary(Type=Name.Font, Subtype=Name.Type1, BaseFont=Name.Narrow, FirstChar=32, Widths=[250] * 95)
        res.Font = Dictionary(W=wide, N=narrow)
    fn = pdf.make_indirect(Dictionary(FunctionType=2, Domain=[0, 1], C0=[0, 0, 0, 0], C1=[0, 1, 0, 0], N=1))
    res.ColorSpace = Dictionary(Die=Array([Name.Separation, Name.CutContour, Name.DeviceCMYK, fn]))
    page.obj.Resources = res
    return pdf


def read(content: bytes, limits: Limits | None = None, fonts: bool = False,
         area: tuple[float, float, float, float] | None = None) -> tuple[Summary, Budget]:
    """The page summary of ``content`` (with fonts /W and /N) and the budget after reading it."""
    pdf = _pdf(content, fonts)
    budget = Budget(limits or Limits())
    summary = Walker(pdf, budget, 280.0, die="CutContour").page(pdf.pages[0], 1, area)
    return summary, budget


def test_a_path_painted_without_ink_keeps_no_box_and_counts_its_operators():
    summary, budget = read(b"0 0 0 0 k 1 2 m 3 4 l 5 6 7 8 9 10 c 0 0 5 5 re f")
    assert summary.ink == {}
    assert (budget.operators, budget.operands) == (6, 4 + 2 + 2 + 6 + 4)


def test_a_path_painted_with_ink_keeps_the_bounds_of_each_subpath():
    summary, _ = read(b"0 0 0 1 k 1 2 m 3 -4 l 5 6 7 8 9 10 c 20 20 -5 5 re f*")
    assert summary.ink == {(100.0, "fill 100 % in page"): [(1.0, -4.0, 9.0, 10.0), (15.0, 20.0, 20.0, 25.0)]}


def test_the_current_transformation_at_the_paint_places_the_path():
    summary, _ = read(b"0 0 0 1 K 2 w 0 0 m 10 0 l 2 0 0 2 5 5 cm S")
    assert summary.ink == {(100.0, "stroke 100 % in page"): [(5.0, 5.0, 25.0, 5.0)]}
    assert summary.strokes == {(2.0, 2.0, 0.0, 0.0, 2.0): "page"}


def test_n_drops_the_path_and_a_paint_after_it_has_none():
    summary, budget = read(b"0 0 0 1 k 0 0 m 50 50 l n f 10 10 20 20 re f")
    assert summary.ink == {(100.0, "fill 100 % in page"): [(10.0, 10.0, 30.0, 30.0)]}
    assert budget.operators == 7


def test_the_die_line_is_measured_whatever_its_ink():
    summary, _ = read(b"/Die CS 0 SCN 0.5 w 10 10 m 82 10 l 82 82 l 10 82 l h S 100 100 72 72 re n 100 100 72 72 re S")
    assert summary.die == [(10.0, 10.0, 82.0, 82.0), (100.0, 100.0, 172.0, 172.0)]
    assert summary.ink == {}


def test_operands_that_are_not_numbers_count_as_zero_in_a_path():
    summary, budget = read(b"0 0 0 1 k /N 7 m (x) 9 l 1 2 3 4 [5] 6 c 8 9 true 3 re 4 4 v 1 2 3 4 5 6 7 8 c f")
    # m (0, 7); l (0, 9); c (1, 2) (3, 4) (0, 6); re at (8, 9), 1 × 3; v of 2 operands: the point (4, 4); c of 8: 4 points
    assert summary.ink == {(100.0, "fill 100 % in page"): [(0.0, 2.0, 3.0, 9.0), (1.0, 2.0, 9.0, 12.0)]}
    assert (budget.operators, budget.operands) == (8, 4 + 2 + 2 + 6 + 4 + 2 + 8)


def test_more_path_operators_than_are_held_back_at_once():
    lines = b"".join(b"%d %d l\n" % (i % 97, -(i % 89)) for i in range(3000))
    summary, budget = read(b"0 0 0 1 k 50 50 m\n" + lines + b"f")
    assert summary.ink == {(100.0, "fill 100 % in page"): [(0.0, -88.0, 96.0, 50.0)]}
    assert (budget.operators, budget.operands) == (3003, 4 + 2 + 6000)


def test_subpaths_past_4096_grow_the_last():
    moves = b"".join(b"%d 0 m\n" % i for i in range(5000))
    summary, _ = read(b"0 0 0 1 k " + moves + b"f")
    boxes = summary.ink[(100.0, "fill 100 % in page")]
    assert len(boxes) == INK_BOXES
    assert boxes[-1] == (INK_BOXES - 1.0, 0.0, 4999.0, 0.0)  # the 64th and every later box, united


def test_ink_reaching_the_print_area_only():
    summary, _ = read(b"0 0 0 1 k -30 -30 10 10 re f 10 10 10 10 re f", area=(0.0, 0.0, 100.0, 100.0))
    assert summary.ink == {(100.0, "fill 100 % in page"): [(10.0, 10.0, 20.0, 20.0)]}


@pytest.mark.parametrize(("operators", "refused"), [(5, False), (4, True)])
def test_held_back_operators_count_against_the_limit(operators: int, refused: bool):
    content = b"0 0 m 1 1 l 2 2 l 3 3 l n"
    if refused:
        with pytest.raises(PreflightError, match="content-stream operators read in the file"):
            read(content, Limits(operators=operators))
    else:
        assert read(content, Limits(operators=operators))[1].operators == 5


def test_fonts_set_again_by_name_measure_as_the_first_time():
    summary, _ = read(b"0 0 0 1 k BT /W 10 Tf 0 0 Td (ab) Tj /N 10 Tf (ab) Tj /W 20 Tf (a b) Tj /Missing 5 Tf (zz) Tj /N 10 Tf (a) Tj ET",
                      fonts=True)
    xs = [(round(b[0], 6), round(b[2], 6), t) for b, t in summary.chars]
    assert xs == [(0.0, 10.0, "a"), (10.0, 20.0, "b"), (20.0, 22.5, "a"), (22.5, 25.0, "b"),
                  (25.0, 45.0, "a"), (55.0, 75.0, "b"), (75.0, 77.5, "a")]
    assert {name for name, _embedded, _where in summary.fonts.values()} == {"/Narrow", "/Wide"}


def test_white_text_keeps_its_characters_but_no_ink():
    summary, _ = read(b"0 0 0 0 k BT /W 10 Tf (a a) Tj ET", fonts=True)
    assert [t for _, t in summary.chars] == ["a", "a"]
    assert summary.ink == {}
