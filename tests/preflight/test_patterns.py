"""Tiling patterns are bounded by what they declare before a viewer paints them (issue 37,
kind 10): pdfium paints a pattern's cell again for every fill with it, so a cell that fills
with its own pattern never ends (three rectangles ran past 60 s of CPU) and nested patterns
multiply (two levels of 2,000 fills, 4.4 s; three, 44 s), while preflight read each cell once
and passed them. A pattern painting inside its own cell is now refused, and the operators the
fills cost (a cell's operators for each fill with it, nested ones multiplied) count against
``--max-operators``."""

from __future__ import annotations

from pathlib import Path

import pikepdf
from pikepdf import Dictionary, Name

from tests.preflight.test_totals import run_timed
from tokengen.preflight.pdfwalk import Budget, Limits, Walker

TILES = ("operators a viewer runs to paint tiling patterns (a cell's for each fill with it, nested patterns multiplied): "
         "more than the limit of {limit:,} (raise it with --max-operators)")


def cell(fills: int, step: float) -> bytes:
    """``fills`` small filled squares spread over a ``step`` pt cell."""
    return b"".join(b"%.2f %.2f 0.3 0.3 re f\n" % ((i * 0.37) % step, (i * 0.61) % step) for i in range(fills))


def patterned(path: Path, fills: int, nest: int = 1, itself: bool = False, step: float = 20) -> Path:
    """A page filled with a tiling pattern whose cell holds ``fills`` squares; each of ``nest`` - 1
    outer patterns fills its squares with the pattern inside it; ``itself``: the cell fills its
    squares with its own pattern."""
    pdf = pikepdf.new()
    page = pdf.add_blank_page(page_size=(612, 792))
    inner = None
    for _ in range(nest):
        content = cell(fills, step) if inner is None else b"/Pattern cs /P scn " + cell(fills, step)
        pattern = pdf.make_stream(content, Type=Name.Pattern, PatternType=1, PaintType=1, TilingType=1, BBox=[0, 0, step, step],
                                  XStep=step, YStep=step, Resources=Dictionary() if inner is None else Dictionary(Pattern=Dictionary(P=inner)))
        if itself:
            pattern.Resources = Dictionary(Pattern=Dictionary(P=pattern))
            pattern.write(b"/Pattern cs /P scn " + content)
        inner = pattern
    page.obj.Resources = Dictionary(Pattern=Dictionary(P=inner))
    page.obj.Contents = pdf.make_stream(b"/Pattern cs /P scn 0 0 612 792 re f")
    pdf.save(path)
    return path


def test_a_pattern_painting_with_itself_is_refused_by_preflight_and_preview(tmp_path: Path):
    path = patterned(tmp_path / "itself.pdf", 3, itself=True)
    refusal = f"tokengen: error: {path}: tiling pattern /P in pattern /P in page paints with itself inside its own cell " \
              "(a fixed refusal: a viewer paints it without end)\n"
    code, out, err, _peak, _cpu = run_timed("preflight", str(path), "--profile", "home")
    assert (code, out, err) == (2, "", refusal)
    code, out, err, _peak, _cpu = run_timed("preview", str(path), "-o", str(tmp_path / "p.png"))
    assert (code, err) == (2, refusal), out
    assert not (tmp_path / "p.png").exists()


def test_nested_patterns_count_their_fills_multiplied(tmp_path: Path):
    path = patterned(tmp_path / "nested.pdf", 2_000, nest=2)  # 2,000 fills × the inner cell's 4,000 operators, and more
    code, out, err, _peak, _cpu = run_timed("preflight", str(path), "--profile", "home")
    assert (code, out, err) == (2, "", f"tokengen: error: {path}: {TILES.format(limit=1_000_000)}\n")
    code, out, err, _peak, _cpu = run_timed("preflight", str(path), "--profile", "home", "--max-operators", "9000000")
    assert (code, err) == (0, ""), out


def test_the_count_is_each_cell_times_its_fills(tmp_path: Path):
    pdf = pikepdf.open(patterned(tmp_path / "three.pdf", 30, nest=3))
    walker = Walker(pdf, Budget(Limits()), 300.0)
    page = walker.page(pdf.pages[0], 1)
    inner = 30 * 2                      # 30 × (re, f)
    middle = 2 + 30 * 2 + 30 * inner    # cs, scn, its own 60, and 30 fills painting the inner cell
    outer = 2 + 30 * 2 + 30 * middle
    assert page.work == 4 + outer       # cs scn re f, and the one fill painting the outer cell
    assert walker.budget.tiles == outer  # charged where it is painted, not again for each cell


def test_a_plain_pattern_costs_its_cell_once_per_fill(tmp_path: Path):
    pdf = pikepdf.open(patterned(tmp_path / "plain.pdf", 100))
    walker = Walker(pdf, Budget(Limits()), 300.0)
    walker.page(pdf.pages[0], 1)
    assert walker.budget.tiles == 200
