"""Issue 14: sheets for real paper, measured from the PDFs: filled sheets (counts per page), the
home bleed past the outer cut on faces and backs, cut guides only where there are tokens, and
marks at every cut on every profile's every page."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pdfplumber
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import CATALOGUE
from tests.pdfmeasure import unmarked_cuts
from tokengen.geometry.imposition import HOME_BLEED, SheetSpec
from tokengen.geometry.pager import impose, plan
from tokengen.units import PAGES

FACE_BG = (0.937255, 0.894118, 0.784314)  # #efe4c8
BACK_BG = (0x3B / 255, 0x2A / 255, 0x20 / 255)  # #3b2a20, the back's background in token_defs.yaml
TOL = 0.01


def squares(page, size: float) -> list[tuple[float, float, float, float]]:
    """Filled squares of ``size`` pt on a pdfplumber page, as (x0, y0, x1, y1) in PDF space."""
    return sorted({(round(r["x0"], 3), round(page.height - r["bottom"], 3), round(r["x1"], 3), round(page.height - r["top"], 3))
                   for r in page.rects if r["fill"] and abs(r["width"] - size) <= TOL and abs(r["height"] - size) <= TOL})


def build(run, tmp_path: Path, *args: str, name: str = "out.pdf") -> tuple[Path, str]:
    out = tmp_path / name
    result = run("build", str(CATALOGUE), "-o", str(out), *args)
    assert result.exit_code == 0, result.stderr
    return out, result.stdout


# -- fill ---------------------------------------------------------------------------------------

def test_plan_keeps_the_grouping_and_widens_it_to_save_pages():
    letter = SheetSpec(page=PAGES["letter"], group=3)
    assert (plan(18, letter).spec.columns, plan(18, letter).pages) == (3, 1)
    three = plan(18, letter, copies=3)  # 54 tokens: 2 pages at 3 columns, 1 at 6
    assert (three.copies, three.spec.columns, three.pages, three.per_page) == (3, 6, 1, 60)
    filled = plan(18, letter, fill=True)
    assert (filled.copies, filled.spec.columns, filled.pages) == (3, 6, 1)
    assert plan(18, letter, copies=5, fill=True).copies == 6  # 2 pages of 60 hold 6 whole sets
    free = plan(18, SheetSpec(page=PAGES["letter"]), fill=True)  # no grouping: 8 × 10 = 80
    assert (free.copies, free.spec.columns, free.per_page) == (4, None, 80)
    # the group wider than what fits: as many as fit
    small = plan(18, SheetSpec(page=(216.0, 216.0), margin=9.0, calibration=False, group=3), fill=True)
    assert (small.spec.columns, small.per_page, small.copies) == (2, 4, 1)
    # fill never places fewer sets than asked
    assert plan(18, letter, copies=7, fill=True).copies == 10


def test_fill_on_the_default_sheet_counts_tokens_and_sets(run, tmp_path: Path):
    pdf, out = build(run, tmp_path, "--fill")
    assert out == f"wrote {pdf}: 54 tokens (3 sets) on 1 face page\n"
    with pdfplumber.open(pdf) as doc:
        cells = squares(doc.pages[0], 72.0)
    assert len(cells) == 54
    assert len({c[0] for c in cells}) == 6 and len({c[1] for c in cells}) == 9  # 6 columns × 9 rows


def test_copies_three_take_one_page_not_two(run, tmp_path: Path):
    pdf, out = build(run, tmp_path, "--copies", "3")
    assert "54 tokens (3 sets) on 1 face page" in out
    with pdfplumber.open(pdf) as doc:
        assert len(doc.pages) == 1 and len(squares(doc.pages[0], 72.0)) == 54


def test_fill_with_columns_0_uses_the_whole_page(run, tmp_path: Path):
    pdf, out = build(run, tmp_path, "--fill", "--columns", "0")
    assert "72 tokens (4 sets) on 1 face page" in out
    with pdfplumber.open(pdf) as doc:
        assert len(squares(doc.pages[0], 72.0)) == 72


def test_rows_keep_one_attribute_per_group_of_three(run, tmp_path: Path):
    pdf, _ = build(run, tmp_path, "--fill")
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[0]
        codes = [w for w in page.extract_words() if w["text"] in ("AGI", "CON", "MAG", "MRL", "PER", "STR")]
    rows: dict[float, list[tuple[float, str]]] = {}
    for w in codes:
        rows.setdefault(round(w["top"], 1), []).append((w["x0"], w["text"]))
    assert len(rows) == 9
    for row in rows.values():
        names = [t for _, t in sorted(row)]
        assert len(names) == 6 and len(set(names[:3])) == 1 and len(set(names[3:])) == 1


@pytest.mark.parametrize("profile,per_page", [("print-shop", 36), ("eu-3mm", 36)])
def test_shop_profiles_are_full_sheets_of_whole_sets(run, tmp_path: Path, profile: str, per_page: int):
    result = run("export", str(CATALOGUE), "--profile", profile, "-o", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    pdf = next(tmp_path.glob("*.pdf"))
    with pdfplumber.open(pdf) as doc:
        bleed = 9.0 if profile == "print-shop" else 3 * 72 / 25.4
        assert [len(squares(p, 72 + 2 * bleed)) for p in doc.pages] == [per_page, per_page]


def test_export_takes_copies_columns_fill_size_page(run, tmp_path: Path):
    result = run("export", str(CATALOGUE), "--profile", "print-shop", "-o", str(tmp_path), "--page", "tabloid",
                 "--size", "0.75in", "--no-fill", "--copies", "2", "--columns", "4")
    assert result.exit_code == 0, result.stderr
    pdf = next(tmp_path.glob("*.pdf"))
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[0]
        assert (page.width, page.height) == (792, 1224)
        cells = squares(page, 54 + 18)
        assert len(cells) == 36 and len({c[0] for c in cells}) == 4


def test_profile_keys_columns_copies_fill(tmp_path: Path):
    from tokengen.sources.profiles import get_profile

    user = tmp_path / "p.yaml"
    user.write_text("mine:\n  extends: home\n  columns: 0\n  copies: 2\n  fill: true\n", "utf-8")
    p = get_profile("mine", user)
    assert (p.columns, p.copies, p.fill, p.home_bleed) == (0, 2, True, HOME_BLEED)
    user.write_text("mine:\n  copies: 0\n", "utf-8")
    from tokengen.errors import CatalogueError

    with pytest.raises(CatalogueError, match="copies: expected a whole number from 1 to 100000, got 0"):
        get_profile("mine", user)


# -- home bleed ---------------------------------------------------------------------------------

def test_home_bleed_runs_past_the_outer_cut_only(run, tmp_path: Path):
    pdf, _ = build(run, tmp_path)
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[0]
        cells = squares(page, 72.0)
        x0, y0 = min(c[0] for c in cells), min(c[1] for c in cells)
        x1, y1 = max(c[2] for c in cells), max(c[3] for c in cells)
        face = [r for r in page.rects if r["fill"] and tuple(r["non_stroking_color"]) == FACE_BG]
        xs0 = min(r["x0"] for r in face)
        xs1 = max(r["x1"] for r in face)
        ys0 = min(page.height - r["bottom"] for r in face)
        ys1 = max(page.height - r["top"] for r in face)
        # the background reaches exactly 1/16 in past the outer trim on all four sides
        assert (x0 - xs0, xs1 - x1, y0 - ys0, ys1 - y1) == pytest.approx((4.5, 4.5, 4.5, 4.5), abs=TOL)
        # the cut lines still mark the trim
        verticals = sorted({round(ln["x0"], 2) for ln in page.lines
                            if abs(ln["x0"] - ln["x1"]) < TOL and ln["bottom"] < page.height - 60})  # not the ruler
        assert verticals[0] == pytest.approx(x0, abs=TOL) and verticals[-1] == pytest.approx(x1, abs=TOL)


def test_home_bleed_zero_turns_it_off(run, tmp_path: Path):
    pdf, _ = build(run, tmp_path, "--home-bleed", "0")
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[0]
        face = [r for r in page.rects if r["fill"] and tuple(r["non_stroking_color"]) == FACE_BG]
        assert all(abs(r["width"] - 72) < TOL and abs(r["height"] - 72) < TOL for r in face)


def test_duplex_back_has_home_bleed_so_an_offset_back_shows_back_colour(run, tmp_path: Path):
    pdf, _ = build(run, tmp_path, "--backs", "--columns", "4")
    with pdfplumber.open(pdf) as doc:
        back = doc.pages[1]
        bg = [r for r in back.rects if r["fill"] and all(abs(a - b) < 0.01 for a, b in zip(r["non_stroking_color"], BACK_BG))]
        trims = [r for r in bg if abs(r["width"] - 72) < TOL and abs(r["height"] - 72) < TOL]
        assert len(trims) == 18
        tx0, tx1 = min(r["x0"] for r in trims), max(r["x1"] for r in trims)
        bx0, bx1 = min(r["x0"] for r in bg), max(r["x1"] for r in bg)
        assert (tx0 - bx0, bx1 - tx1) == pytest.approx((4.5, 4.5), abs=TOL)
        # a back printed 1.5 mm to the left still covers the face's left cut with back colour
        assert bx0 < tx0 - 1.5 * 72 / 25.4


def test_home_bleed_geometry_on_a_partial_last_row():
    spec = SheetSpec(page=PAGES["letter"], columns=4, home_bleed=4.5)
    page = impose(18, spec)[0]
    by_token = Counter(i for i, _ in page.outer_bleed)
    # corner token 0 (top-left): left and top strips and the corner square
    assert by_token[0] == 3
    # an inner token of a full row in the middle of the block: none
    assert by_token[5] == 0
    # token 15 (row 3, last column) sits above an empty cell: a strip below it and one right
    last = page.cells[15].trim
    rects = [r for i, r in page.outer_bleed if i == 15]
    assert any(abs(r.y1 - last.y) < 1e-6 and abs(r.h - 4.5) < 1e-6 and abs(r.w - 72) < 1e-6 for r in rects)
    # nothing covers another token's trim
    for _, r in page.outer_bleed:
        for c in page.cells:
            ov = min(r.x1, c.trim.x1) - max(r.x, c.trim.x), min(r.y1, c.trim.y1) - max(r.y, c.trim.y)
            assert ov[0] <= 1e-6 or ov[1] <= 1e-6
    # with bleed or gutter the tokens are cut apart: no home bleed
    assert impose(18, SheetSpec(page=PAGES["letter"], gutter=9.0, home_bleed=4.5))[0].outer_bleed == ()


# -- cut guides ---------------------------------------------------------------------------------

def test_guides_end_at_the_last_token_of_a_partial_row(run, tmp_path: Path):
    pdf, _ = build(run, tmp_path, "--columns", "4")
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[0]
        cells = squares(page, 72.0)
        lines = [(ln["x0"], page.height - ln["bottom"], ln["x1"], page.height - ln["top"]) for ln in page.lines]
    last_row_y0 = min(c[1] for c in cells)
    last_row = [c for c in cells if abs(c[1] - last_row_y0) < TOL]
    assert len(last_row) == 2
    end = max(c[2] for c in last_row)
    bottom_line = [ln for ln in lines if abs(ln[1] - ln[3]) < TOL and abs(ln[1] - last_row_y0) < TOL]
    assert len(bottom_line) == 1 and bottom_line[0][2] == pytest.approx(end, abs=TOL)
    # verticals right of the last token stop at the bottom of the full rows
    full_bottom = last_row_y0 + 72
    for x in (end + 72, end + 144):
        v = [ln for ln in lines if abs(ln[0] - ln[2]) < TOL and abs(ln[0] - x) < TOL]
        assert len(v) == 1 and min(v[0][1], v[0][3]) == pytest.approx(full_bottom, abs=TOL)
    # no line crosses an empty cell
    for ln in lines:
        assert not (end + TOL < (ln[0] + ln[2]) / 2 < end + 144 - TOL and min(ln[1], ln[3]) < full_bottom - TOL)


# -- marks on every profile ---------------------------------------------------------------------

def page_lines(page) -> list[tuple[float, float, float, float]]:
    return [(ln["x0"], page.height - ln["bottom"], ln["x1"], page.height - ln["top"]) for ln in page.lines]


@pytest.mark.parametrize("profile,bleed", [("home", 0.0), ("print-shop", 9.0), ("eu-3mm", 3 * 72 / 25.4)])
def test_every_page_of_every_sheet_profile_marks_every_cut(run, tmp_path: Path, profile: str, bleed: float):
    result = run("export", str(CATALOGUE), "--profile", profile, "-o", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    pdf = next(tmp_path.glob("*.pdf"))
    with pdfplumber.open(pdf) as doc:
        assert doc.pages
        for page in doc.pages:
            if profile == "home" and page.page_number > 1:
                break
            trims = [(x0 + bleed, y0 + bleed, x1 - bleed, y1 - bleed) for x0, y0, x1, y1 in squares(page, 72 + 2 * bleed)]
            assert len(trims) > 1
            assert unmarked_cuts(trims, page_lines(page)) == [], f"page {page.page_number}"


def test_unmarked_cuts_names_the_missing_cut():
    trims = [(0.0, 0.0, 72.0, 72.0), (72.0, 0.0, 144.0, 72.0)]
    lines = [(0.0, -20.0, 0.0, -5.0), (144.0, -20.0, 144.0, -5.0), (-20.0, 0.0, -5.0, 0.0), (-20.0, 72.0, -5.0, 72.0)]
    assert unmarked_cuts(trims, lines) == ["vertical cut at x = 72.00pt is not marked"]
    assert unmarked_cuts(trims, lines + [(72.3, 80.0, 72.3, 95.0)]) == []
    assert unmarked_cuts(trims[:1], []) == []  # one token: the page is the cut


def test_the_example_chit_job_fills_its_12x18_sheet(run, tmp_path: Path):
    from tests.conftest import ROOT

    result = run("batch", str(ROOT / "examples" / "batch-jobs.yaml"), "-o", str(tmp_path), "-j", "1")
    assert result.exit_code == 0, result.stderr
    with pdfplumber.open(tmp_path / "meatshields_chits.pdf") as doc:
        page = doc.pages[0]
        assert (page.width, page.height) == (864, 1296)
        # 0.5 in chits at 0.625 in (45 pt) pitch: 1 + (828 - 36) // 45 = 18 columns (a multiple of
        # 3); 1296 - 36 - 28 (calibration strip) = 1232: 1 + (1232 - 36) // 45 = 27 rows: 486
        # places, exactly 27 whole sets of 18
        chits = squares(page, 36.0)
    assert len(chits) == 486 and len({c[0] for c in chits}) == 18
    assert "meatshields_chits.pdf: 486 tokens, 1 page," in result.stdout


# -- properties ---------------------------------------------------------------------------------


@settings(max_examples=120, deadline=None)
@given(set_size=st.integers(1, 60), copies=st.integers(1, 6), group=st.one_of(st.none(), st.integers(1, 6)),
       width=st.floats(150.0, 1300.0), height=st.floats(150.0, 1300.0), size=st.floats(18.0, 110.0), fill=st.booleans())
def test_plan_places_whole_sets_on_the_fewest_pages(set_size, copies, group, width, height, size, fill):
    from tokengen.errors import LayoutError
    from tokengen.geometry.imposition import grid_for

    spec = SheetSpec(page=(width, height), size=size, group=group)
    try:
        widest = grid_for(spec)
    except LayoutError:
        return
    settled = plan(set_size, spec, copies, fill)
    grid = grid_for(settled.spec)
    assert settled.copies >= copies and settled.per_page == grid.per_page
    assert settled.pages == -(-set_size * settled.copies // grid.per_page)
    if group:
        cols = settled.spec.columns
        assert cols == min(widest.columns, group) or cols % group == 0
        # no wider multiple would need fewer pages
        wide = widest.columns // group * group if widest.columns >= group else widest.columns
        at_widest = grid_for(SheetSpec(page=(width, height), size=size, columns=wide)).per_page
        assert settled.pages == -(-set_size * settled.copies // at_widest)
    if fill:
        assert (settled.copies + 1) * set_size > settled.pages * settled.per_page


@settings(max_examples=80, deadline=None)
@given(count=st.integers(1, 90), columns=st.one_of(st.none(), st.integers(1, 9)), d=st.floats(0.5, 9.0))
def test_home_bleed_never_covers_a_token_and_stays_on_the_page(count, columns, d):
    spec = SheetSpec(page=PAGES["letter"], columns=columns, home_bleed=d)
    for page in impose(count, spec):
        trims = [c.trim for c in page.cells]
        for _, r in page.outer_bleed:
            assert r.x >= 0 and r.y >= page.calibration.y1 and r.x1 <= 612 and r.y1 <= 792
            assert r.w <= 72 + 1e-9 and r.h <= 72 + 1e-9 and min(r.w, r.h) <= d + 1e-9
            for t in trims:
                assert min(r.x1, t.x1) - max(r.x, t.x) <= 1e-6 or min(r.y1, t.y1) - max(r.y, t.y) <= 1e-6
        # every outer trim edge is covered: the block's outline grown by d is background
        left = min(t.x for t in trims)
        assert any(abs(r.x - (left - d)) < 1e-6 for _, r in page.outer_bleed)


@settings(max_examples=120, deadline=None)
@given(set_size=st.integers(1, 30), copies=st.integers(1, 4), width=st.floats(150.0, 1300.0), height=st.floats(150.0, 1300.0),
       size=st.floats(18.0, 200.0), furniture=st.sampled_from(["full", "compact"]))
def test_fill_places_at_least_the_sets_any_copies_place_on_as_many_pages(set_size, copies, width, height, size, furniture):
    """With the calibration strip free to move, ``--fill`` holds at least as many whole sets as any
    ``--copies`` does on the pages ``copies`` sets need (the strip up the side when that holds more)."""
    from tokengen.errors import LayoutError

    spec = SheetSpec(page=(width, height), size=size, furniture=furniture)
    try:
        filled = plan(set_size, spec, copies, True)
    except LayoutError:
        return
    for more in range(copies, filled.copies + 4):
        other = plan(set_size, spec, more)
        if other.pages <= filled.pages:
            assert other.copies <= filled.copies
