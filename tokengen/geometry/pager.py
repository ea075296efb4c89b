"""The pager: which page and which cell each token takes, for every sheet tokengen lays out —
squares, cards, circles, hexes, and fold-over sheets of any of them. Pure geometry, no drawing
(no ReportLab import).

All lengths are in pt (1 in = 72 pt), origin at the page's lower-left corner. Every caller that
pages tokens (``build``, the cut files, the facade's :func:`impose`) goes through here:

* :func:`plan` settles a run before anything is laid out: the columns, the number of whole sets
  (``fill``) and the number of pages; :func:`check_limits` holds it to the token and page limits.
* :func:`pages` yields the pages, laying out each page size once (pages with as many tokens are
  the same page with other token indices, :func:`renumbered`).

The choice between the cell arithmetics is made here, once (:func:`sheet_of`, :func:`_cells`):
squares are :mod:`tokengen.geometry.imposition` (:func:`~tokengen.geometry.imposition.grid_for`,
:func:`~tokengen.geometry.imposition.layout_page`), every other token
:mod:`tokengen.geometry.shapes` (:func:`~tokengen.geometry.shapes.packing_for`,
:func:`~tokengen.geometry.shapes.layout_page`), and a fold-over sheet lays either out on its half
(:func:`tokengen.geometry.foldover.half_spec`). Both capacities end in the same check that at
least one token fits (:func:`tokengen.geometry.imposition.require_fit`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from ..errors import LayoutError
from ..limits import MAX_PAGES, MAX_TOKENS
from ..units import counted
from . import foldover, imposition, shapes
from .imposition import Cell, PageLayout, SheetSpec


def sheet_of(spec: SheetSpec, fold: str | None = None) -> SheetSpec:
    """The sheet the tokens are laid out on: ``spec``, or with ``fold`` its faces' half.

    Raises:
        UsageError: unknown fold.
    """
    return foldover.half_spec(spec, fold) if fold else spec


def _cells(sheet: SheetSpec) -> tuple[int, Callable[[int, range], PageLayout]]:
    """The tokens one page of ``sheet`` holds and the function laying out a page of it (page
    number, token indices): shaped tokens by :mod:`tokengen.geometry.shapes`, squares by
    :mod:`tokengen.geometry.imposition`. The one place that chooses between them.

    Raises:
        LayoutError: not one token fits (see :func:`tokengen.geometry.imposition.require_fit`).
    """
    if shapes.shaped(sheet):
        packing = shapes.packing_for(sheet)
        return packing.per_page, lambda number, indices: shapes.layout_page(number, indices, sheet, packing)
    grid = imposition.grid_for(sheet)
    return grid.per_page, lambda number, indices: imposition.layout_page(number, indices, sheet, grid)


def capacity(spec: SheetSpec, fold: str | None = None) -> int:
    """Tokens one page holds (with ``fold``: one fold-over sheet's faces).

    Raises:
        LayoutError: not one token fits. UsageError: unknown fold.
    """
    return _cells(sheet_of(spec, fold))[0]


def _pages_for(count: int, per_page: int) -> int:
    """Pages ``count`` tokens need at ``per_page`` a page: at least one."""
    return max(1, -(-count // per_page))


def page_count(count: int, spec: SheetSpec, fold: str | None = None) -> int:
    """Number of pages (fold-over sheets with ``fold``) ``count`` tokens need.

    Raises:
        LayoutError: not one token fits. UsageError: unknown fold.
    """
    return _pages_for(count, capacity(spec, fold))


def check_limits(count: int, pages: int, *, max_tokens: int | None = None, max_pages: int | None = None) -> None:
    """Hold a run of ``count`` tokens on ``pages`` pages to the limits (None: no limit).

    Raises:
        LayoutError: more than ``max_tokens`` tokens, or more than ``max_pages`` pages; the
            message names the flag that raises the limit.
    """
    if max_tokens is not None and count > max_tokens:
        raise LayoutError(f"{counted(count, 'token')} requested, more than the limit of {max_tokens} (raise it with --max-tokens)")
    if max_pages is not None and pages > max_pages:
        raise LayoutError(f"{counted(count, 'token')} need {counted(pages, 'page')}, more than the limit of {max_pages} (raise it with --max-pages)")


@dataclass(frozen=True)
class Plan:
    """What :func:`plan` settled: ``copies`` whole sets on ``pages`` sheets laid out by ``spec``
    (whose ``columns`` is now fixed for squares), ``per_page`` tokens per full sheet."""

    copies: int
    spec: SheetSpec
    pages: int
    per_page: int


def plan(set_size: int, spec: SheetSpec, copies: int = 1, fill: bool = False, *, fold: str | None = None) -> Plan:
    """Choose the columns, and with ``fill`` the number of whole sets, for ``copies`` sets of
    ``set_size`` tokens on ``spec``'s sheets (with ``fold``: fold-over sheets).

    Columns (squares on a whole sheet): an explicit ``spec.columns`` is kept. Otherwise, with a
    ``spec.group`` (the catalogue's ``columns``), the sheet uses the narrowest multiple of
    ``group`` (no wider than what fits) that needs the fewest pages, so rows still hold whole
    groups: the 18-token set stays at 3 columns on Letter, while 3 sets go 6 wide and fit one
    page (see :func:`tokengen.geometry.imposition.column_choices`). Without either, and for
    shaped tokens and fold-over halves, as many columns as fit.

    Fill: the sets are repeated until no further whole set fits on the pages that ``copies``
    sets need; at least ``copies`` sets are placed.

    Furniture: the calibration strip goes across the foot, or up the left margin when that saves
    sheets (:func:`furniture_place`), before the columns are chosen.

    Raises:
        LayoutError: the set is empty, or not one token fits (the gutter is narrower than twice
            the bleed, a length is not positive: see :func:`tokengen.geometry.imposition.sheet_area`).
        UsageError: unknown fold.
    """
    if set_size < 1:
        raise LayoutError("nothing to lay out: the set has no tokens")
    spec = furniture_place(set_size * copies, spec, fold)
    choices = [spec] if fold or shapes.shaped(spec) else imposition.column_choices(spec)
    per_page = capacity(choices[-1], fold)  # the widest choice
    pages = _pages_for(set_size * copies, per_page)
    if fill:
        copies = max(copies, pages * per_page // set_size)
    # the narrowest choice that needs no more pages (the widest always qualifies)
    spec = next(c for c in choices if _pages_for(set_size * copies, capacity(c, fold)) <= pages)
    per_page = capacity(spec, fold)
    return Plan(copies, spec, _pages_for(set_size * copies, per_page), per_page)


def furniture_place(count: int, spec: SheetSpec, fold: str | None = None) -> SheetSpec:
    """``spec`` with its calibration strip settled (:attr:`~tokengen.geometry.imposition.SheetSpec.side`)
    for ``count`` tokens: with ``furniture="full"`` across the foot unless running it up the left
    margin needs fewer sheets (63 × 88 mm cards on Letter at a 1/4 in margin: 6 a sheet under a
    foot strip, 9 beside a side strip); with ``"compact"`` up the left margin unless that holds
    fewer tokens a sheet. Unchanged with ``"foot"``, without a strip and on fold-over sheets
    (which have none).

    Raises:
        LayoutError: not one token fits either way (see :func:`capacity`).
    """
    if not spec.calibration or fold or spec.furniture not in ("full", "compact"):
        return spec
    foot, side = replace(spec, side=False), replace(spec, side=True)

    def room(s: SheetSpec) -> int:
        try:
            return capacity(s)
        except LayoutError:
            return 0

    at_foot, beside = room(foot), room(side)
    if spec.furniture == "compact":
        return side if beside >= at_foot and beside > 0 else foot
    if at_foot and beside and _pages_for(count, beside) < _pages_for(count, at_foot):
        return side
    return side if not at_foot and beside else foot


def page_slices(count: int, per_page: int, max_pages: int | None = None) -> Iterator[tuple[int, range]]:
    """(page number, token indices) for ``count`` tokens at ``per_page`` a sheet, at least one page.

    Raises:
        LayoutError: more than ``max_pages`` pages (checked before the first is yielded; see
            :func:`check_limits`).
    """
    pages = _pages_for(count, per_page)
    check_limits(count, pages, max_pages=max_pages)
    for number in range(pages):
        first = number * per_page
        yield number, range(first, min(count, first + per_page))


def pages(count: int, spec: SheetSpec, *, fold: str | None = None, max_pages: int | None = None) -> Iterator[PageLayout]:
    """Yield one :class:`~tokengen.geometry.imposition.PageLayout` per sheet for ``count`` tokens,
    in token order: squares, cards, circles and hexes alike (see the module docstring), and with
    ``fold`` the faces of each fold-over sheet on their half, in page coordinates (backs:
    :func:`tokengen.geometry.foldover.backs_of`).

    Each page size is laid out once: a page with as many tokens as one laid out before is that
    page :func:`renumbered` (issue 11: a 10,008-token build lays out two pages, not 126).

    Raises:
        LayoutError: not one token fits (half) the sheet; more than ``max_pages`` pages.
        UsageError: unknown fold.
    """
    per_page, lay = _cells(sheet_of(spec, fold))
    laid: dict[int, PageLayout] = {}  # pages with as many tokens are laid out alike: once each
    for number, indices in page_slices(count, per_page, max_pages):
        known = laid.get(len(indices))
        if known is not None:
            yield renumbered(known, number, indices.start)
            continue
        page = lay(number, indices)
        if fold:
            page = foldover.onto_sheet(page, spec, fold)
        laid[len(indices)] = page
        yield page


def impose(count: int, spec: SheetSpec, *, fold: str | None = None, max_tokens: int | None = MAX_TOKENS,
           max_pages: int | None = MAX_PAGES) -> list[PageLayout]:
    """Place ``count`` tokens on as many sheets as needed (eagerly; see :func:`pages`). Every
    cell is held at once, so ``count`` is bounded first: by default as a build is (200,000
    tokens, 5,000 pages; None: no bound).

    Raises:
        LayoutError: more than ``max_tokens`` tokens or ``max_pages`` pages (see
            :func:`check_limits`), or see :func:`pages`. UsageError: unknown fold.
    """
    check_limits(count, 0, max_tokens=max_tokens)
    return list(pages(count, spec, fold=fold, max_pages=max_pages))


def renumbered(page: PageLayout, number: int, start: int) -> PageLayout:
    """``page`` as page ``number`` (0-based) holding the tokens from index ``start`` on, in the
    same cells: the indices of its cells and home-bleed rectangles move by the same amount."""
    shift = start - page.cells[0].index if page.cells else 0
    cells = tuple(Cell(c.index + shift, c.row, c.col, c.trim, c.bleed) for c in page.cells)
    home = tuple((i + shift, r) for i, r in page.outer_bleed)
    return replace(page, number=number, cells=cells, outer_bleed=home)
