"""The pager: which page and which cell each token takes, for every sheet tokengen lays out —
squares, cards, circles, hexes, and fold-over sheets of any of them. Pure geometry, no drawing
(no ReportLab import).

All lengths are in pt (1 in = 72 pt), origin at the page's lower-left corner. Every caller that
pages tokens (``build``, the cut files, the facade's :func:`impose`) goes through here:

* :func:`plan` settles a run before anything is laid out: the columns, the number of whole sets
  (``fill``) and the number of pages; :func:`check_limits` holds it to the token and page limits.
* :func:`pages` yields the pages, laying out each page size once (pages with as many tokens are
  the same page with other token indices, :func:`renumbered`).
* Several token sizes (a catalogue whose layouts declare their own, :mod:`tokengen.geometry.bands`):
  :func:`plan_bands`, :func:`band_slices` and :func:`band_pages` put each size in a band of rows
  of its own on the same sheets; with one band they are :func:`plan` and :func:`pages` themselves.

The choice between the cell arithmetics is made here, once (:func:`sheet_of`, :func:`_cells`):
squares are :mod:`tokengen.geometry.imposition` (:func:`~tokengen.geometry.imposition.grid_for`,
:func:`~tokengen.geometry.imposition.layout_page`), every other token
:mod:`tokengen.geometry.shapes` (:func:`~tokengen.geometry.shapes.packing_for`,
:func:`~tokengen.geometry.shapes.layout_page`), and a fold-over sheet lays either out on its half
(:func:`tokengen.geometry.foldover.half_spec`). Both capacities end in the same check that at
least one token fits (:func:`tokengen.geometry.imposition.require_fit`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace

from ..errors import LayoutError
from ..limits import MAX_PAGES, MAX_TOKENS, MIN_SIZE
from ..units import counted
from . import foldover, handsheet, imposition, shapes
from .imposition import Cell, Line, PageLayout, Rect, SheetSpec


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
    if sheet.hand is not None:
        return handsheet.capacity(sheet.hand, sheet), lambda number, indices: handsheet.layout_page(number, indices, sheet)
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
    sheets (:func:`furniture_place`), before the columns are chosen; with ``fill``, also up the
    left margin when that holds more whole sets on as many pages (3 cards of 63 × 88 mm on Letter:
    6 under a foot strip, 9 beside a side strip, as ``--copies 3`` places them).

    Raises:
        LayoutError: the set is empty, or not one token fits (the gutter is narrower than twice
            the bleed, a length is not positive: see :func:`tokengen.geometry.imposition.sheet_area`).
        UsageError: unknown fold.
    """
    if set_size < 1:
        raise LayoutError("nothing to lay out: the set has no tokens")
    placed = furniture_place(set_size * copies, spec, fold)
    settled = _settle(set_size, placed, copies, fill, fold)
    if fill and placed is not spec:  # the strip's other place, when it holds more whole sets on as many pages
        try:
            other = _settle(set_size, replace(placed, side=not placed.side), copies, fill, fold)
        except LayoutError:
            return settled
        if other.pages <= settled.pages and other.copies > settled.copies:
            return other
    return settled


def _settle(set_size: int, spec: SheetSpec, copies: int, fill: bool, fold: str | None) -> Plan:
    """:func:`plan` with the calibration strip placed already (``spec``)."""
    choices = [spec] if fold or shapes.shaped(spec) or spec.hand is not None else imposition.column_choices(spec)
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
        LayoutError: a token smaller than :data:`tokengen.limits.MIN_SIZE` (9 pt, as a catalogue's
            size is bounded: a 0.001 pt token would fill a page with millions of cells); more
            than ``max_tokens`` tokens or ``max_pages`` pages (see :func:`check_limits`), or see
            :func:`pages`. UsageError: unknown fold.
    """
    side = min(spec.size, spec.size if spec.height is None else spec.height)
    if not side >= MIN_SIZE - 1e-9:  # NaN too
        raise LayoutError(f"token size {side:g} pt is below the smallest of {MIN_SIZE:g} pt (0.125in)")
    check_limits(count, 0, max_tokens=max_tokens)
    return list(pages(count, spec, fold=fold, max_pages=max_pages))


def renumbered(page: PageLayout, number: int, start: int) -> PageLayout:
    """``page`` as page ``number`` (0-based) holding the tokens from index ``start`` on, in the
    same cells: the indices of its cells and home-bleed rectangles move by the same amount."""
    shift = start - page.cells[0].index if page.cells else 0
    cells = tuple(Cell(c.index + shift, c.row, c.col, c.trim, c.bleed, c.rotate) for c in page.cells)
    home = tuple((i + shift, r) for i, r in page.outer_bleed)
    return replace(page, number=number, cells=cells, outer_bleed=home)


# -- bands: several token sizes on the same sheets ------------------------------------------------
#: Least clear space (pt) between two bands of a page, 1/4 in: each band's cut-line guides run
#: half-way into it, so no guide of one band crosses a token of the next.
BAND_GAP = 18.0


def band_gap(sheets: Sequence[SheetSpec]) -> float:
    """The clear space (pt) between the bands of a page of ``sheets``: :data:`BAND_GAP`, or more
    when the bleeds, home bleeds or crop marks need it (each band's own reach beyond its block,
    twice over)."""
    reach = 0.0
    for sheet in sheets:
        reach = max(reach, sheet.bleed, sheet.home_bleed)
        if sheet.crop_marks:
            reach = max(reach, max(imposition.CROP_OFFSET, sheet.bleed + 1.5) + imposition.CROP_LENGTH + sheet.bleed)
    return max(BAND_GAP, 2 * reach + 2.0)


def _rows_of(sheet: SheetSpec) -> tuple[int, int, Callable[[int], float]]:
    """(columns, rows of a full page, the block height pt of ``r`` rows) of ``sheet``'s tokens
    (the height of a flat hex's rows counts its shifted columns, so it is never short).

    Raises:
        LayoutError: not one token fits.
    """
    if shapes.shaped(sheet):
        p = shapes.packing_for(sheet)
        h = sheet.height or sheet.size
        flat = sheet.shape is not None and sheet.shape.kind == "hex" and sheet.shape.orientation == "flat"
        extra = p.shift if flat and p.columns > 1 else 0.0
        return p.columns, p.rows, lambda r: h + (r - 1) * p.pitch_y + extra
    g = imposition.grid_for(sheet)
    return g.columns, g.rows, lambda r: r * sheet.size + (r - 1) * sheet.gutter


#: One page of a banded run: (band number, token indices) of each band on it, top to bottom.
BandPage = tuple[tuple[int, range], ...]


def band_slices(counts: Sequence[int], specs: Sequence[SheetSpec], fold: str | None = None) -> list[BandPage]:
    """Which tokens of which band each page holds, for ``counts[k]`` tokens of band ``k`` laid
    out by ``specs[k]`` (the run's sheet at band ``k``'s size and shape), the indices running on
    from band to band. Each band starts on a new row, below the band before it on the same page
    when its first row fits there (:func:`band_gap` apart), else on the next page; a band longer
    than the room left goes on over the pages after it, a whole row at a time.

    Raises:
        LayoutError: not one token of a band fits (half) the sheet. UsageError: unknown fold.
    """
    sheets = [sheet_of(spec, fold) for spec in specs]
    gap = band_gap(sheets)
    room = imposition.sheet_area(sheets[0], ())[2]  # the height left for blocks on a page, pt
    out: list[BandPage] = []
    page: list[tuple[int, range]] = []
    used = 0.0
    first = 0
    for k, (sheet, count) in enumerate(zip(sheets, counts, strict=True)):
        columns, full, height = _rows_of(sheet)
        left = count
        while left > 0:
            free = room - used - (gap if page else 0.0)
            rows = next((r for r in range(min(full, -(-left // columns)), 0, -1) if height(r) <= free + 1e-6), 0)
            if rows == 0 and not page:  # cannot happen: a band whose row fits no page is refused by _rows_of
                raise LayoutError(f"a row of {shapes.describe(sheet)} tokens does not fit on an empty page")
            if rows == 0:  # not one row more on this page: the next one
                out.append(tuple(page))
                page, used = [], 0.0
                continue
            n = min(left, rows * columns)
            used += (gap if page else 0.0) + height(-(-n // columns))
            page.append((k, range(first, first + n)))
            first, left = first + n, left - n
            if left:
                out.append(tuple(page))
                page, used = [], 0.0
    if page or not out:
        out.append(tuple(page))
    return out


def plan_bands(set_counts: Sequence[int], specs: Sequence[SheetSpec], copies: int = 1, fill: bool = False, *,
               fold: str | None = None) -> tuple[int, list[SheetSpec], int]:
    """:func:`plan` for a run of several bands (set_counts[k] tokens of band ``k`` in one set, laid
    out by ``specs[k]``): (the number of sets, the bands' sheets, the number of pages). One band is
    :func:`plan` itself (its columns chosen as there); with several, each band takes as many
    columns as fit (or ``columns``), and ``fill`` adds whole sets while the pages stay as many.

    Raises:
        LayoutError: a set is empty, or not one token of a band fits. UsageError: unknown fold.
    """
    if len(specs) == 1:
        settled = plan(set_counts[0], specs[0], copies, fill, fold=fold)
        return settled.copies, [settled.spec], settled.pages
    if sum(set_counts) < 1:
        raise LayoutError("nothing to lay out: the set has no tokens")

    def count(sets: int) -> int:
        return len(band_slices([n * sets for n in set_counts], specs, fold))

    pages = count(copies)
    if fill:
        while count(copies + 1) <= pages:
            copies += 1
    return copies, list(specs), pages


@dataclass(frozen=True)
class Fit:
    """One band's sheet as a run of one set settles it (``spec``: strip placed, columns chosen)
    and what a full sheet of it holds: ``per_page`` tokens in ``columns`` × ``rows``."""

    spec: SheetSpec
    per_page: int
    columns: int
    rows: int


def fits(set_counts: Sequence[int], specs: Sequence[SheetSpec], *, fold: str | None = None) -> list[Fit]:
    """How many tokens of each band fit on one sheet, as a build of one set lays them out: the
    sheets :func:`plan_bands` settles (the calibration strip up the left margin when that saves
    sheets, :func:`furniture_place`; for one band, the sheet ``--fill`` lays out instead when its
    strip is elsewhere with as many columns, or whenever that full sheet holds more: groups of the
    catalogue's columns side by side, as many copies place them), then each one's capacity. The one count ``check`` reports and ``build`` lays out (63 × 88 mm
    cards, 8 in a set, on Letter at a 1/4 in margin: 9; 3 in a set: 9 as well, as ``--fill`` and
    ``--copies 3`` place them).

    Raises:
        LayoutError: a set is empty, or not one token of a band fits. UsageError: unknown fold.
    """
    _, sheets, _ = plan_bands(set_counts, specs, fold=fold)
    if len(specs) == 1:  # a full sheet (--fill) with its strip elsewhere and as many columns: that sheet
        full = plan(set_counts[0], specs[0], 1, True, fold=fold).spec
        if full.side != sheets[0].side and _rows_of(sheet_of(full, fold))[0] == _rows_of(sheet_of(sheets[0], fold))[0]:
            sheets = [full]
        elif capacity(full, fold) > capacity(sheets[0], fold):  # a full sheet holds more (groups side by side): what a page takes
            sheets = [full]
    out = []
    for sheet in sheets:
        columns, rows, _ = _rows_of(sheet_of(sheet, fold))
        out.append(Fit(sheet, capacity(sheet, fold), columns, rows))
    return out


def band_pages(counts: Sequence[int], specs: Sequence[SheetSpec], *, fold: str | None = None,
               max_pages: int | None = None) -> Iterator[PageLayout]:
    """:func:`pages` for several bands: one :class:`~tokengen.geometry.imposition.PageLayout` per
    sheet, its cells (each at its band's size), cut lines, crop marks and home bleed those of
    every band on it. Each band is laid out on the page as alone (its own cut guides, bleed and
    marks: :func:`pages`), then the bands are stacked top to bottom :func:`band_gap` apart, the
    stack centred as one block is, and the vertical cut lines and marks of each band cut short
    half-way into the gap beside it. The page's ``block`` holds every band's. One band is
    :func:`pages` itself.

    Raises:
        LayoutError: not one token of a band fits; more than ``max_pages`` pages.
        UsageError: unknown fold.
    """
    if len(specs) == 1:
        yield from pages(counts[0], specs[0], fold=fold, max_pages=max_pages)
        return
    sheets = [sheet_of(spec, fold) for spec in specs]
    slices = band_slices(counts, specs, fold)
    check_limits(sum(counts), len(slices), max_pages=max_pages)
    lays = [_cells(sheet)[1] for sheet in sheets]
    stack = _stack_of(sheets)
    for number, chunks in enumerate(slices):
        page = _stacked(number, [lays[k](number, indices) for k, indices in chunks], stack)
        if fold:
            page = foldover.onto_sheet(page, specs[0], fold)
        yield page


@dataclass(frozen=True)
class _Stack:
    """How bands stack on a page, pt: the page (width, height), the ``gap`` between bands, the
    ``foot`` the stack's bottom keeps above (the printable area's foot plus the bleed), and how
    far down (``lowest``: above the calibration strip) and up (``highest``) the cut lines of the
    bottom and top bands run."""

    page: tuple[float, float]
    gap: float
    foot: float
    lowest: float
    highest: float


def _stack_of(sheets: Sequence[SheetSpec]) -> _Stack:
    """The stacking of bands laid on ``sheets`` (the first one's page, margin and strip)."""
    gap = band_gap(sheets)
    base = sheets[0]
    area = imposition.sheet_area(base, ())[0]
    width, height = base.page
    strip = area.y - imposition.CALIBRATION_GAP if base.calibration else None  # the top of the calibration strip
    lowest = strip + 1.0 if strip is not None else base.margin / 2
    return _Stack((width, height), gap, area.y + base.bleed, lowest, height - base.margin / 2)


def _stacked(number: int, laid: list[PageLayout], stack: _Stack) -> PageLayout:
    """One page of the bands ``laid`` (each laid out as alone), stacked top to bottom and centred."""
    moved = _moved(laid, stack)
    block = _union([p.block for p in moved])
    return PageLayout(number, stack.page, tuple(c for p in moved for c in p.cells), block,
                      tuple(x for p in moved for x in p.cut_lines), tuple(x for p in moved for x in p.crop_marks),
                      laid[0].calibration if laid else None, tuple(x for p in moved for x in p.outer_bleed),
                      tuple(x for p in moved for x in p.cut_paths))


def _moved(laid: list[PageLayout], stack: _Stack) -> list[PageLayout]:
    """The bands ``laid`` moved to their place in the stack, their vertical cut lines and marks
    cut short half-way into the gap beside them."""
    height, gap = stack.page[1], stack.gap
    total = sum(p.block.h for p in laid) + gap * (len(laid) - 1)
    top = max((height - total) / 2, stack.foot) + total
    moved = []
    for i, p in enumerate(laid):
        dy = top - p.block.y1
        hi = stack.highest if i == 0 else top + gap / 2
        lo = stack.lowest if i == len(laid) - 1 else top - p.block.h - gap / 2
        moved.append(_clipped(_shifted(p, dy), lo, hi))
        top -= p.block.h + gap
    return moved


def _shifted(page: PageLayout, dy: float) -> PageLayout:
    """``page``'s cells, lines, outlines and home bleed moved up by ``dy`` pt."""
    def r(rect: Rect) -> Rect:
        return Rect(rect.x, rect.y + dy, rect.w, rect.h)

    def ln(line: Line) -> Line:
        return Line(line.x0, line.y0 + dy, line.x1, line.y1 + dy)

    return replace(page, cells=tuple(Cell(c.index, c.row, c.col, r(c.trim), c.bleed, c.rotate) for c in page.cells), block=r(page.block),
                   cut_lines=tuple(ln(x) for x in page.cut_lines), crop_marks=tuple(ln(x) for x in page.crop_marks),
                   outer_bleed=tuple((i, r(x)) for i, x in page.outer_bleed), cut_paths=tuple(o.moved(0.0, dy) for o in page.cut_paths))


def _clipped(page: PageLayout, lo: float, hi: float) -> PageLayout:
    """``page`` with its vertical cut lines and crop marks cut to run from ``lo`` to ``hi`` pt at
    most (those left with no length dropped); horizontal ones are kept."""
    def clip(lines: tuple[Line, ...]) -> tuple[Line, ...]:
        out = []
        for line in lines:
            if abs(line.x0 - line.x1) > 1e-9:
                out.append(line)
                continue
            y0, y1 = max(min(line.y0, line.y1), lo), min(max(line.y0, line.y1), hi)
            if y1 - y0 > 1e-6:
                out.append(Line(line.x0, y0, line.x1, y1) if line.y0 <= line.y1 else Line(line.x0, y1, line.x1, y0))
        return tuple(out)

    return replace(page, cut_lines=clip(page.cut_lines), crop_marks=clip(page.crop_marks))


def _union(rects: Sequence[Rect]) -> Rect:
    """The smallest rectangle holding every one of ``rects``, pt."""
    x0, y0 = min(r.x for r in rects), min(r.y for r in rects)
    x1, y1 = max(r.x1 for r in rects), max(r.y1 for r in rects)
    return Rect(x0, y0, x1 - x0, y1 - y0)
