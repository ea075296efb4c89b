"""The one pager (tokengen/geometry/pager.py): squares, shaped tokens and fold-over sheets are planned,
counted and paged by the same functions, with the limits checked in one place. Figures worked
out by hand on Letter (612 × 792 pt) with the default 18 pt margin:

* 1 in squares: 576 / 72 = 8 columns; (792 - 36 - 28) / 72 → 10 rows: 80 a sheet.
* long fold: a 306 × 792 half without the calibration strip: 270 / 72 → 3 columns, 756 / 72 → 10
  rows: 30. Short fold: a 612 × 396 half: 8 × 5 = 40.
* 1 in circles, 9 pt punch room: pitch 81; 1 + (576 - 72) // 81 = 7 columns, 1 + (728 - 72) // 81
  = 9 rows: 63.
"""

from __future__ import annotations

import pytest

from tokengen.errors import LayoutError, UsageError
from tokengen.geometry import pager
from tokengen.geometry.imposition import SheetSpec
from tokengen.geometry.pager import Plan, capacity, check_limits, page_count, plan
from tokengen.geometry.shapes import Shape

LETTER = (612.0, 792.0)
CIRCLES = SheetSpec(LETTER, shape=Shape("circle"))


def test_capacity_of_every_kind_of_sheet():
    assert capacity(SheetSpec(LETTER)) == 80
    assert capacity(SheetSpec(LETTER), "long") == 30
    assert capacity(SheetSpec(LETTER), "short") == 40
    assert capacity(CIRCLES) == 63
    assert [page_count(n, CIRCLES) for n in (0, 63, 64)] == [1, 1, 2]
    assert [page_count(n, SheetSpec(LETTER), "long") for n in (30, 31, 61)] == [1, 2, 3]


def test_plan_fills_shaped_and_fold_over_sheets_as_squares():
    spec = SheetSpec(LETTER, group=3)
    # fold-over halves: as many columns as fit, the grouping is not widened (spec kept as given)
    assert plan(18, spec, fold="long") == Plan(1, spec, 1, 30)
    assert plan(18, spec, 5, fill=True, fold="long") == Plan(5, spec, 3, 30)  # 90 tokens: 3 sheets, 90 // 18 = 5
    assert plan(18, spec, fill=True, fold="short") == Plan(2, spec, 1, 40)   # 40 // 18 = 2
    assert plan(18, CIRCLES, 2, fill=True) == Plan(3, CIRCLES, 1, 63)        # 63 // 18 = 3
    assert plan(100, CIRCLES, fill=True) == Plan(1, CIRCLES, 2, 63)          # a set over a sheet: still one
    with pytest.raises(LayoutError) as err:
        plan(0, CIRCLES)
    assert str(err.value) == "nothing to lay out: the set has no tokens"


def test_not_one_token_fits_is_the_same_check_for_every_sheet():
    with pytest.raises(LayoutError) as err:
        plan(1, SheetSpec((100.0, 100.0)))
    assert str(err.value) == ("a 1in token does not fit on a 100.00pt × 100.00pt page with a 0.25in margin; "
                              "the largest token that fits is 0.5in (12.7mm)")  # 100 - 36 - 28 (the strip) = 36 pt
    with pytest.raises(LayoutError) as err:
        plan(1, SheetSpec((100.0, 100.0), shape=Shape("circle")))
    assert str(err.value) == "a 1in × 1in circle token does not fit on a 100.00pt × 100.00pt page with a 0.25in margin"
    with pytest.raises(LayoutError) as err:  # a half of Letter cannot take an 8 in token
        next(pager.pages(1, SheetSpec(LETTER, size=576.0, calibration=False), fold="long"))
    assert str(err.value) == "a 8in token does not fit on a 4.25in × 11in page with a 0.25in margin; the largest token that fits is 3.75in (95.2mm)"


def test_unknown_fold_is_refused_before_anything_is_laid_out():
    with pytest.raises(UsageError) as err:
        next(pager.pages(1, SheetSpec(LETTER), fold="sideways"))
    assert str(err.value) == "unknown fold 'sideways': use long or short"
    with pytest.raises(UsageError):
        plan(18, SheetSpec(LETTER), fold="sideways")


def test_the_limits_are_checked_in_one_place():
    check_limits(200, 3, max_tokens=200, max_pages=3)  # at the limits: accepted
    check_limits(10**9, 10**6)  # no limits
    with pytest.raises(LayoutError) as err:
        check_limits(201, 3, max_tokens=200, max_pages=1)  # the token limit is checked first
    assert str(err.value) == "201 tokens requested, more than the limit of 200 (raise it with --max-tokens)"
    with pytest.raises(LayoutError) as err:
        check_limits(200, 4, max_tokens=200, max_pages=3)
    assert str(err.value) == "200 tokens need 4 pages, more than the limit of 3 (raise it with --max-pages)"
    with pytest.raises(LayoutError) as err:  # the pager's own page limit says the same
        next(pager.pages(64, CIRCLES, max_pages=1))
    assert str(err.value) == "64 tokens need 2 pages, more than the limit of 1 (raise it with --max-pages)"
    with pytest.raises(LayoutError) as err:
        pager.impose(31, SheetSpec(LETTER), fold="long", max_pages=1)
    assert str(err.value) == "31 tokens need 2 pages, more than the limit of 1 (raise it with --max-pages)"


def test_build_and_export_word_the_limits_with_the_catalogue(tmp_path, run, catalogue_path):
    result = run("build", str(catalogue_path), "--copies", "3", "--max-tokens", "50", "-o", str(tmp_path / "x.pdf"))
    assert result.exit_code != 0
    assert f"{catalogue_path}: 54 tokens requested, more than the limit of 50 (raise it with --max-tokens)" in result.stderr
    result = run("build", str(catalogue_path), "--fold", "--copies", "2", "--max-pages", "1", "-o", str(tmp_path / "x.pdf"))
    assert result.exit_code != 0
    assert f"{catalogue_path}: 36 tokens need 2 pages, more than the limit of 1 (raise it with --max-pages)" in result.stderr
    assert not (tmp_path / "x.pdf").exists()
