"""Imposition: pure geometry that places square tokens on sheets. No drawing happens here.

This module holds the sheet's value types (:class:`Rect`, :class:`Cell`, :class:`SheetSpec`,
:class:`PageLayout`), the checks every sheet shares (:func:`sheet_area`, :func:`require_fit`)
and the squares' cell arithmetic (:func:`grid_for`, :func:`layout_page`, :func:`column_choices`).
Which token goes on which page, for squares and every other shape, is the one pager,
:mod:`tokengen.geometry.pager`.

All lengths are in pt (1 in = 72 pt) with the PDF origin at the lower-left corner of the page.
A *cell* is one token's trim square; its bleed box is the trim grown by ``bleed`` on every side.
Cells are laid in rows from the top-left, ``pitch = size + gutter`` apart; with ``gutter = 0``
neighbours share an edge so one cut separates two tokens. Each page reserves a strip at the
bottom of the printable area for the calibration ruler (see :data:`CALIBRATION_HEIGHT`).

A home sheet (no bleed, shared edges) can get a *home bleed*: the background of the outer
tokens runs ``home_bleed`` pt past the outer cut (:attr:`PageLayout.outer_bleed`), so a cut a
hair off, or a duplex back printed 1–2 mm off, shows token colour rather than paper.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from ..errors import LayoutError
from ..units import format_length

#: Height (pt) of the calibration strip kept at the foot of the printable area (or its width,
#: when it runs up the left margin beside the block: :func:`calibration_side`).
CALIBRATION_HEIGHT = 22.0
#: Where the calibration strip may go (``--furniture``): ``full`` across the foot unless that
#: costs a sheet, then up the left margin; ``compact`` up the left margin unless that costs
#: room for a token; ``none`` no ruler, note or caption (settled by :func:`tokengen.geometry.pager.plan`).
FURNITURE = ("full", "compact", "none")
#: Least clear space (pt) between the grid and the calibration strip, for cut-line guides.
CALIBRATION_GAP = 6.0
#: Crop marks: gap from the trim (or bleed) edge and length, in pt (about 6 mm long).
CROP_OFFSET = 4.5
CROP_LENGTH = 17.0
#: Longest run (pt) of a cut-line guide past the block of cells.
GUIDE_LENGTH = 27.0
#: Default home bleed (pt): 1/16 in past the outer cut of a shared-edge sheet.
HOME_BLEED = 4.5


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle: lower-left (x, y), width w, height h, in pt."""

    x: float
    y: float
    w: float
    h: float

    @property
    def x1(self) -> float:
        return self.x + self.w

    @property
    def y1(self) -> float:
        return self.y + self.h

    def grow(self, d: float) -> Rect:
        """The rectangle grown by ``d`` pt on every side."""
        return Rect(self.x - d, self.y - d, self.w + 2 * d, self.h + 2 * d)

    def contains(self, other: Rect, tol: float = 1e-6) -> bool:
        """True when ``other`` lies inside this rectangle (within ``tol`` pt)."""
        return (other.x >= self.x - tol and other.y >= self.y - tol
                and other.x1 <= self.x1 + tol and other.y1 <= self.y1 + tol)


@dataclass(frozen=True)
class Line:
    """A straight line segment from (x0, y0) to (x1, y1), in pt."""

    x0: float
    y0: float
    x1: float
    y1: float


@dataclass(frozen=True)
class Cell:
    """One placed token: ``index`` into the token list; ``trim`` its trim square; ``bleed`` pt;
    ``rotate`` its turn in a hand-laid slot (0, 90, 180 or 270 degrees anticlockwise)."""

    index: int
    row: int
    col: int
    trim: Rect
    bleed: float = 0.0
    rotate: int = 0  # degrees anticlockwise the token is turned in a hand-laid slot (trim: the turned box)

    @property
    def bleed_box(self) -> Rect:
        return self.trim.grow(self.bleed)


@dataclass(frozen=True)
class SheetSpec:
    """What the user asked for. Lengths in pt.

    Attributes:
        page: (width, height) of the sheet.
        size: token trim size (square).
        margin: border kept clear on every side (printers cannot print there).
        gutter: space between neighbouring trims; must be at least ``2 * bleed``.
        bleed: how far each face's art runs past its trim.
        columns: at most this many columns (None: as many as fit).
        cut_lines: draw full-length cut lines on every trim edge, extended into the margin.
        crop_marks: draw short crop marks outside the grid instead of (or as well as) cut lines.
        calibration: keep a strip for the 1 in calibration ruler.
        group: the catalogue's preferred columns (its grouping, e.g. one attribute per row), used
            when ``columns`` is None: :func:`tokengen.geometry.pager.plan` widens it to a multiple that fits when that
            saves pages or fills a sheet.
        home_bleed: on a sheet whose neighbours share edges (``gutter == 0`` and ``bleed == 0``),
            how far the outer tokens' background runs past the outer cut (0: none).
        furniture: where the calibration strip may go when ``calibration`` is set: ``"foot"``
            (always across the foot, the default of a spec made by hand) or :data:`FURNITURE`'s
            ``"full"`` or ``"compact"`` (what ``build``, ``export`` and the page ask for;
            ``--furniture none`` clears ``calibration``); :func:`tokengen.geometry.pager.plan`
            settles ``side`` from it.
        side: the calibration strip runs up the left margin (``CALIBRATION_HEIGHT`` wide, the
            block centred right of it) instead of across the foot.
    """

    page: tuple[float, float]
    size: float = 72.0
    margin: float = 18.0
    gutter: float = 0.0
    bleed: float = 0.0
    columns: int | None = None
    cut_lines: bool = True
    crop_marks: bool = False
    calibration: bool = True
    group: int | None = None
    home_bleed: float = 0.0
    # tokens that are not 1 × 1 squares (tokengen.geometry.shapes lays these out): the trim height in pt
    # (None: ``size``, a square) and the shape (a tokengen.geometry.shapes.Shape; None: square)
    height: float | None = None
    shape: Any = None
    # where the calibration strip may go ("foot", or FURNITURE's "full" or "compact") and where it
    # went: side = up the left margin beside the block (settled by tokengen.geometry.pager.plan)
    furniture: str = "foot"
    side: bool = False
    # a sheet laid out by hand (a tokengen.geometry.handsheet.HandSheet): its slots replace the grid
    hand: Any = None


@dataclass(frozen=True)
class Grid:
    """The capacity of one sheet: ``columns`` × ``rows`` cells inside ``area`` (``side``: the
    calibration strip runs up the left margin)."""

    columns: int
    rows: int
    area: Rect
    pitch: float
    side: bool = False  # the calibration strip runs up the left margin (SheetSpec.side)

    @property
    def per_page(self) -> int:
        return self.columns * self.rows


@dataclass(frozen=True)
class PageLayout:
    """One imposed page: its cells, its cut lines and crop marks, the calibration strip, and the
    home-bleed rectangles ``outer_bleed`` as (token index, rectangle) pairs: each rectangle is to
    be filled with that token's background colour (see :func:`outer_bleed`)."""

    number: int
    size: tuple[float, float]
    cells: tuple[Cell, ...]
    block: Rect
    cut_lines: tuple[Line, ...] = ()
    crop_marks: tuple[Line, ...] = ()
    calibration: Rect | None = None
    outer_bleed: tuple[tuple[int, Rect], ...] = ()
    cut_paths: tuple[Any, ...] = ()  # cut outlines of shaped tokens (tokengen.geometry.shapes.Outline)
    zones: tuple[Any, ...] = ()  # a hand-laid sheet's zone bands (tokengen.geometry.handsheet.ZoneBand)


def sheet_area(spec: SheetSpec, token: tuple[tuple[str, float], ...]) -> tuple[Rect, float, float]:
    """The printable area of ``spec``'s sheet (inside the margin, above the calibration strip, or
    right of it when ``spec.side``) and the width and height, pt, left in it for cells once the
    outermost bleed is kept inside: the checks every sheet shares, squares (:func:`grid_for`)
    and shaped tokens (:func:`tokengen.geometry.shapes.packing_for`) alike.

    Args:
        token: (name, length pt) of each token length to check, e.g. ``(("token size", 72.0),)``.
    Raises:
        LayoutError: a page or token length is not a positive finite length, a margin, gutter
            or bleed not a finite length of 0 or more, or the gutter is narrower than twice the
            bleed.
    """
    width, height = spec.page
    for name, value in (("page width", width), ("page height", height), *token):
        if not (math.isfinite(value) and value > 0):
            raise LayoutError(f"{name} must be a positive length, got {value!r} pt")
    for name, value in (("margin", spec.margin), ("gutter", spec.gutter), ("bleed", spec.bleed), ("home bleed", spec.home_bleed)):
        if not (math.isfinite(value) and value >= 0):
            raise LayoutError(f"{name} must be a length of 0 or more, got {value!r} pt")
    if spec.gutter + 1e-9 < 2 * spec.bleed:
        raise LayoutError(f"gutter {format_length(spec.gutter)} is narrower than twice the bleed ({format_length(2 * spec.bleed)}): neighbouring bleeds would overlap")
    reserve = CALIBRATION_HEIGHT + CALIBRATION_GAP if spec.calibration else 0.0
    if spec.side and spec.calibration:
        area = Rect(spec.margin + reserve, spec.margin, width - 2 * spec.margin - reserve, height - 2 * spec.margin)
    else:
        area = Rect(spec.margin, spec.margin + reserve, width - 2 * spec.margin, height - 2 * spec.margin - reserve)
    # the outermost cells also need room for their bleed inside the area
    return area, area.w - 2 * spec.bleed, area.h - 2 * spec.bleed


def calibration_strip(spec: SheetSpec, side: bool) -> Rect | None:
    """The calibration strip of ``spec``'s sheets, pt: across the foot (``CALIBRATION_HEIGHT``
    high) or with ``side`` up the left margin (``CALIBRATION_HEIGHT`` wide, taller than wide:
    drawn turned a quarter turn, reading upwards); None without calibration."""
    if not spec.calibration:
        return None
    width, height = spec.page
    if side:
        return Rect(spec.margin, spec.margin, CALIBRATION_HEIGHT, height - 2 * spec.margin)
    return Rect(spec.margin, spec.margin, width - 2 * spec.margin, CALIBRATION_HEIGHT)


def require_fit(spec: SheetSpec, columns: int, rows: int, token: str, largest: float | None = None) -> int:
    """``columns`` capped at ``spec.columns``, once at least one token fits: the last check of every
    sheet's capacity, squares and shaped tokens alike.

    Args:
        columns, rows: the cells that fit the sheet's printable area.
        token: the token as the message names it (``"1in"``, ``"1in × 1.5in circle"``).
        largest: the largest square token that fits, pt, when the message is to name it.
    Raises:
        LayoutError: not even one token fits; the message names ``token``, the page and the
            margin (and the largest token size that would fit, when ``largest`` is positive).
    """
    if spec.columns is not None:
        columns = min(columns, spec.columns)
    if columns < 1 or rows < 1:
        width, height = spec.page
        hint = f"; the largest token that fits is {_largest(largest)}" if largest is not None and largest > 0 else ""
        raise LayoutError(f"a {token} token does not fit on a {format_length(width)} × {format_length(height)} page with a {format_length(spec.margin)} margin{hint}")
    return columns


def grid_for(spec: SheetSpec) -> Grid:
    """How many square tokens fit on one sheet (the squares' cell arithmetic; the pager that uses
    it, and :mod:`tokengen.geometry.shapes` for every other token, is :mod:`tokengen.geometry.pager`).

    Raises:
        LayoutError: the gutter is narrower than twice the bleed, or not even one token fits;
            the message names the largest token size that would fit (see :func:`sheet_area`,
            :func:`require_fit`).
    """
    area, usable_w, usable_h = sheet_area(spec, (("token size", spec.size),))
    pitch = spec.size + spec.gutter
    rows = _fit(usable_h, spec.size, pitch)
    columns = require_fit(spec, _fit(usable_w, spec.size, pitch), rows, format_length(spec.size), min(usable_w, usable_h))
    return Grid(columns, rows, area, pitch, spec.side and spec.calibration)


def column_choices(spec: SheetSpec) -> list[SheetSpec]:
    """The columns a square sheet may take, narrowest first, each as ``spec`` with ``columns`` set:
    with a ``spec.group`` (the catalogue's ``columns``) and no explicit ``spec.columns``, every
    multiple of ``group`` no wider than what fits (just what fits when that is narrower than one
    group), so rows still hold whole groups; otherwise ``spec`` alone. The pager
    (:func:`tokengen.geometry.pager.plan`) sizes the run on the widest and keeps the narrowest that
    needs no more pages.

    Raises:
        LayoutError: see :func:`grid_for`.
    """
    widest = grid_for(spec)  # as many as fit (or spec.columns)
    if spec.columns is not None or not spec.group:
        return [spec]
    group = spec.group
    return [replace(spec, columns=min(widest.columns, k * group)) for k in range(1, max(1, widest.columns // group) + 1)]


def _largest(pt: float) -> str:
    """``pt`` rounded down to 0.01 in and to 0.1 mm, for messages: ``"7.76in (197.3mm)"``."""
    inches = math.floor(pt / 72 * 100 + 1e-9) / 100
    mm = math.floor(pt / 72 * 254 + 1e-9) / 10
    return f"{inches:g}in ({mm:g}mm)"


def _fit(space: float, size: float, pitch: float) -> int:
    """Cells of ``size`` at ``pitch`` that fit in ``space`` (with a 1e-6 pt tolerance)."""
    return max(0, 1 + math.floor((space + 1e-6 - size) / pitch))


def layout_page(number: int, indices: range, spec: SheetSpec, grid: Grid) -> PageLayout:
    """Lay the square tokens ``indices`` on page ``number`` (0-based) of ``grid``.

    The block of cells is centred horizontally on the page, and vertically on the page when the
    calibration strip leaves room (otherwise just above it). Cut lines cover the block's rows and
    columns and run past it as guides, up to :data:`GUIDE_LENGTH` and at most half-way into the
    margin (the bottom ones stop at the calibration strip), so they are still there after the
    first cuts. Pages come from :func:`tokengen.geometry.pager.pages`, which lays out each page
    size once.
    """
    width, height = spec.page
    n = len(indices)
    cols = min(grid.columns, n)
    rows = math.ceil(n / grid.columns)
    block_w = cols * spec.size + (cols - 1) * spec.gutter
    block_h = rows * spec.size + (rows - 1) * spec.gutter
    x0 = grid.area.x + (grid.area.w - block_w) / 2 if grid.side else (width - block_w) / 2  # centred right of a side strip
    y_low = grid.area.y + spec.bleed
    y0 = max((height - block_h) / 2, y_low)  # centred, unless that would cover the strip
    block = Rect(x0, y0, block_w, block_h)
    top = y0 + block_h
    cells = tuple(
        Cell(index, k // grid.columns, k % grid.columns,
             Rect(x0 + (k % grid.columns) * grid.pitch, top - spec.size - (k // grid.columns) * grid.pitch, spec.size, spec.size),
             spec.bleed)
        for k, index in enumerate(indices)
    )
    strip = calibration_strip(spec, grid.side)
    cut = _cut_lines(block, cells, spec, strip) if spec.cut_lines else ()
    crop = _crop_marks(block, cols, rows, spec) if spec.crop_marks else ()
    home: tuple[tuple[int, Rect], ...] = ()
    if spec.bleed == 0 and spec.gutter == 0:  # (no home bleed when it is 0: see outer_bleed)
        home = outer_bleed(cells, spec.home_bleed, clear_of(strip, spec.page))
    return PageLayout(number, (width, height), cells, block, cut, crop, strip, home)


def outer_bleed(cells: tuple[Cell, ...], d: float, limit: Rect) -> tuple[tuple[int, Rect], ...]:
    """The home-bleed rectangles of a shared-edge block: for every side of a cell that has no
    neighbour (no other cell's trim shares that edge), a strip ``d`` pt wide along that side,
    and a ``d`` × ``d`` square at each corner where both sides are open; each clipped to
    ``limit`` (the page, less the calibration strip). Returns (token index, rect) pairs, in pt;
    none when ``d <= 0`` (every strip is then empty). Works on any cell arrangement (faces and
    their mirrored backs alike)."""
    if not cells:
        return ()
    size = cells[0].trim.w
    at = {(round(c.trim.x, 3), round(c.trim.y, 3)) for c in cells}

    def taken(x: float, y: float) -> bool:
        return (round(x, 3), round(y, 3)) in at

    out: list[tuple[int, Rect]] = []
    for c in cells:
        t = c.trim
        left, right = not taken(t.x - size, t.y), not taken(t.x + size, t.y)
        below, above = not taken(t.x, t.y - size), not taken(t.x, t.y + size)
        pieces = []
        if left:
            pieces.append(Rect(t.x - d, t.y, d, t.h))
        if right:
            pieces.append(Rect(t.x1, t.y, d, t.h))
        if below:
            pieces.append(Rect(t.x, t.y - d, t.w, d))
        if above:
            pieces.append(Rect(t.x, t.y1, t.w, d))
        for open_x, open_y, x, y in ((left, below, t.x - d, t.y - d), (right, below, t.x1, t.y - d),
                                     (left, above, t.x - d, t.y1), (right, above, t.x1, t.y1)):
            if open_x and open_y:
                pieces.append(Rect(x, y, d, d))
        for r in pieces:
            clipped = _clip(r, limit)
            if clipped is not None:
                out.append((c.index, clipped))
    return tuple(out)


def clear_of(strip: Rect | None, page: tuple[float, float]) -> Rect:
    """The part of the page a home bleed may fill: all of it but the calibration ``strip`` and
    1 pt beside it (above a foot strip, right of a side strip), pt."""
    width, height = page
    if strip is None:
        return Rect(0.0, 0.0, width, height)
    if strip.h > strip.w:  # up the left margin
        return Rect(strip.x1 + 1.0, 0.0, width - strip.x1 - 1.0, height)
    return Rect(0.0, strip.y1 + 1.0, width, height - strip.y1 - 1.0)


def guide_limits(spec: SheetSpec, block: Rect, strip: Rect | None) -> tuple[float, float, float, float]:
    """How far cut-line guides run past ``block`` (left, right, bottom, top, pt): up to
    :data:`GUIDE_LENGTH`, at most half-way into the margin, and never into the calibration
    ``strip`` (1 pt clear of a foot strip's top or a side strip's right edge)."""
    width, height = spec.page
    edge = spec.margin / 2
    side = strip is not None and strip.h > strip.w
    left = max(strip.x1 + 1.0 if strip is not None and side else edge, block.x - GUIDE_LENGTH)
    right = min(width - edge, block.x1 + GUIDE_LENGTH)
    bottom = max(strip.y1 + 1.0 if strip is not None and not side else edge, block.y - GUIDE_LENGTH)
    top = min(height - edge, block.y1 + GUIDE_LENGTH)
    return left, right, bottom, top


def _clip(r: Rect, limit: Rect) -> Rect | None:
    """``r`` cut to ``limit``, or None when nothing is left."""
    x0, y0 = max(r.x, limit.x), max(r.y, limit.y)
    x1, y1 = min(r.x1, limit.x1), min(r.y1, limit.y1)
    if x1 - x0 <= 1e-9 or y1 - y0 <= 1e-9:
        return None
    return Rect(x0, y0, x1 - x0, y1 - y0)


def edges(start: float, count: int, size: float, gutter: float) -> list[float]:
    """Trim-edge coordinates along one axis for ``count`` cells from ``start`` (shared edges once)."""
    out: list[float] = []
    for i in range(count):
        a = start + i * (size + gutter)
        for v in (a, a + size):
            if not out or abs(out[-1] - v) > 1e-9:
                out.append(v)
    return out


def _cut_lines(block: Rect, cells: tuple[Cell, ...], spec: SheetSpec, strip: Rect | None) -> tuple[Line, ...]:
    """Cut lines on every trim edge, only where there are tokens: each line covers the cells
    that have that edge, and runs on past the block as a guide only where it reaches the block's
    outer edge (so on a partly filled last row the guides stop at the last token). Every row starts
    in the first column and the top row holds every column used, so each horizontal line reaches
    the block's left edge and each vertical line its top edge. Cells of one row (or column) get the
    very same coordinates, so "reaches the bottom row (last column)" is an exact comparison."""
    if not cells:
        return ()
    left, right, bottom, top = guide_limits(spec, block, strip)  # half-way into the margin, or GUIDE_LENGTH past the block
    lows: dict[float, list[float]] = {}    # vertical line at x -> the bottoms of the cells with that edge
    rights: dict[float, list[float]] = {}  # horizontal line at y -> the right sides of the cells with that edge
    for c in cells:
        t = c.trim
        for x in (t.x, t.x1):
            lows.setdefault(round(x, 6), []).append(t.y)
        for y in (t.y, t.y1):
            rights.setdefault(round(y, 6), []).append(t.x1)
    foot, end = min(c.trim.y for c in cells), max(c.trim.x1 for c in cells)  # the bottom row's and last column's
    out = []
    for x, ys in sorted(lows.items()):
        out.append(Line(x, bottom if min(ys) == foot else min(ys), x, top))
    for y, xs in sorted(rights.items()):
        out.append(Line(left, y, right if max(xs) == end else max(xs), y))
    return tuple(out)


def _crop_marks(block: Rect, cols: int, rows: int, spec: SheetSpec) -> tuple[Line, ...]:
    offset = max(CROP_OFFSET, spec.bleed + 1.5)  # clear of the bleed by 1.5 pt at least
    xs = edges(block.x, cols, spec.size, spec.gutter)
    ys = edges(block.y, rows, spec.size, spec.gutter)
    lo_y, hi_y = block.y - spec.bleed - offset, block.y1 + spec.bleed + offset
    lo_x, hi_x = block.x - spec.bleed - offset, block.x1 + spec.bleed + offset
    marks = [Line(x, lo_y, x, lo_y - CROP_LENGTH) for x in xs] + [Line(x, hi_y, x, hi_y + CROP_LENGTH) for x in xs]
    marks += [Line(lo_x, y, lo_x - CROP_LENGTH, y) for y in ys] + [Line(hi_x, y, hi_x + CROP_LENGTH, y) for y in ys]
    return tuple(marks)


def mirror(page: PageLayout, flip: str = "long", offset: tuple[float, float] = (0.0, 0.0)) -> PageLayout:
    """The back sheet for a face sheet, so that duplex printing puts each back behind its face.

    ``flip="long"``: the sheet turns over its long edge (portrait: left↔right, x → W - x);
    ``flip="short"``: over its short edge (portrait: top↔bottom, y → H - y). For a landscape
    page the axes swap. ``offset`` (dx, dy) pt then shifts every back cell to correct a
    printer's duplex misalignment. Crop marks and home-bleed rectangles are mirrored with the
    cells (a shop cuts a back sheet by its own marks); cut lines are not repeated on backs, since a
    line printed on a back that lands a little off would show on the back of a token.
    """
    width, height = page.size
    portrait = height >= width
    mirror_x = (flip == "long") == portrait
    if flip not in ("long", "short"):
        raise LayoutError(f"unknown flip {flip!r}: use long or short")
    dx, dy = offset

    def move(r: Rect) -> Rect:
        x = width - r.x - r.w if mirror_x else r.x
        y = r.y if mirror_x else height - r.y - r.h
        return Rect(x + dx, y + dy, r.w, r.h)

    def move_line(line: Line) -> Line:
        x0, x1 = (width - line.x0, width - line.x1) if mirror_x else (line.x0, line.x1)
        y0, y1 = (line.y0, line.y1) if mirror_x else (height - line.y0, height - line.y1)
        return Line(x0 + dx, y0 + dy, x1 + dx, y1 + dy)

    cells = tuple(Cell(c.index, c.row, c.col, move(c.trim), c.bleed, (360 - c.rotate) % 360) for c in page.cells)  # a turned face's back turns the other way
    crop = tuple(move_line(line) for line in page.crop_marks)
    home = tuple((index, move(r)) for index, r in page.outer_bleed)
    return PageLayout(page.number, page.size, cells, move(page.block), (), crop, None, home)
