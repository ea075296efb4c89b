"""Boards larger than the page, tiled over several pages (pure geometry, pt, y up).

A board of ``width`` × ``height`` pt is cut into a grid of tiles, each as large as the page's
window (the page less its margin on every side, less :data:`LABEL_ROOM` at the foot for the tile's
label). Neighbouring tiles share an ``overlap`` strip of the board, printed on both: the user trims
one tile at the middle of the strip and lays it over its neighbour, or glues the strip under it.
Alignment marks stand on the centre line of every overlap strip, at the same board position on both
tiles, so that they coincide when the tiles are laid together. Rows are lettered from the top
(A, B, …) and columns numbered from the left (1, 2, …), as a poster's tiles are.

The number of tiles along a side of length ``L`` with a window ``w`` and overlap ``o`` is the
least ``n`` with ``n·w − (n−1)·o ≥ L``: ``n = ceil((L − o) / (w − o))``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..limits import MAX_TILES
from .imposition import Line, Rect

#: Room (pt) kept at the foot of the window for a tile's label.
LABEL_ROOM = 14.0
#: Length (pt) of a crop mark, and its gap from the trim corner.
MARK_LENGTH, MARK_GAP = 9.0, 3.0
#: Radius (pt) of an alignment mark's circle (its cross is twice as long).
ALIGN_RADIUS = 4.0
#: Smallest window side (pt) tiles are printed on: 2 in.
MIN_WINDOW = 144.0


@dataclass(frozen=True)
class Tile:
    """One page of a tiled board: its ``row`` (0 at the top) and ``column`` (0 at the left); the
    part of the board it prints (``board``: pt, origin at the board's lower-left corner); and
    ``origin``, where the board's lower-left corner lands on the page, so that ``board`` moved by
    it lies at the window's top-left."""

    row: int
    column: int
    board: Rect
    origin: tuple[float, float]

    @property
    def label(self) -> str:
        """``A1`` for the top-left tile: the row's letter (A–Z, then AA…) and the column's number."""
        return _letters(self.row) + str(self.column + 1)

    @property
    def on_page(self) -> Rect:
        """The board's part as it lies on the page (pt)."""
        return Rect(self.board.x + self.origin[0], self.board.y + self.origin[1], self.board.w, self.board.h)


@dataclass(frozen=True)
class Tiling:
    """A board cut into ``rows`` × ``columns`` tiles with ``overlap`` pt shared between
    neighbours; ``tiles`` in reading order (row A left to right, then row B, …)."""

    width: float
    height: float
    rows: int
    columns: int
    overlap: float
    tiles: tuple[Tile, ...]

    def alignment_points(self) -> list[tuple[float, float]]:
        """Board points (pt) on the centre lines of the overlap strips where alignment marks
        stand: on each vertical strip at a quarter, half and three quarters of every row's
        height, and on each horizontal strip likewise across every column."""
        points: list[tuple[float, float]] = []
        xs = sorted({t.board.x for t in self.tiles if t.column > 0})
        ys = sorted({t.board.y + t.board.h for t in self.tiles if t.row > 0})
        rows = sorted({(t.board.y, t.board.h) for t in self.tiles})
        columns = sorted({(t.board.x, t.board.w) for t in self.tiles})
        for x in xs:
            points += [(x + self.overlap / 2, y + h * f) for y, h in rows for f in (0.25, 0.5, 0.75)]
        for top in ys:
            points += [(x + w * f, top - self.overlap / 2) for x, w in columns for f in (0.25, 0.5, 0.75)]
        return points


def fits(width: float, height: float, page: tuple[float, float], margin: float) -> bool:
    """True when a ``width`` × ``height`` pt token fits a ``page`` less ``margin`` on every side,
    either way round: no tiling needed."""
    room_w, room_h = page[0] - 2 * margin, page[1] - 2 * margin
    return (width <= room_w and height <= room_h) or (height <= room_w and width <= room_h)


def tileable(width: float, height: float, page: tuple[float, float], margin: float, overlap: float) -> Tiling | None:
    """The tiling of a ``width`` × ``height`` pt board that fits no ``page`` (less ``margin``),
    or None when it fits, the window is under :data:`MIN_WINDOW`, the overlap leaves no room, or
    it would take more than :data:`tokengen.limits.MAX_TILES` pages (a larger board, or one on a smaller window, is
    refused as a token that does not fit: its size is more likely a slip than a board)."""
    area = window(page, margin)
    if fits(width, height, page, margin) or min(area.w, area.h) < MIN_WINDOW or overlap >= min(area.w, area.h):
        return None
    if count(width, area.w, overlap) * count(height, area.h, overlap) > MAX_TILES:
        return None
    return tile_board(width, height, page, margin, overlap)


def count(length: float, window: float, overlap: float) -> int:
    """Tiles needed along a side of ``length`` pt with a ``window`` and an ``overlap`` (pt).

    Raises:
        ValueError: the overlap is not smaller than the window.
    """
    if overlap >= window:
        raise ValueError(f"an overlap of {overlap:g} pt leaves no room on a window of {window:g} pt")
    if length <= window:
        return 1
    return math.ceil((length - overlap) / (window - overlap) - 1e-9)


def window(page: tuple[float, float], margin: float) -> Rect:
    """The part of a ``page`` (width, height pt) a tile prints on: the page less ``margin`` on
    every side and :data:`LABEL_ROOM` at the foot."""
    return Rect(margin, margin + LABEL_ROOM, page[0] - 2 * margin, page[1] - 2 * margin - LABEL_ROOM)


def tile_board(width: float, height: float, page: tuple[float, float], margin: float, overlap: float) -> Tiling:
    """Cut a ``width`` × ``height`` pt board into tiles for ``page`` with ``margin`` and ``overlap``.

    Raises:
        ValueError: the overlap is not smaller than the window.
    """
    area = window(page, margin)
    columns, rows = count(width, area.w, overlap), count(height, area.h, overlap)
    tiles = []
    for row in range(rows):
        top = height - row * (area.h - overlap)
        h = min(area.h, top)
        for column in range(columns):
            x = column * (area.w - overlap)
            w = min(area.w, width - x)
            part = Rect(x, top - h, w, h)
            origin = (area.x - x, area.y + area.h - top)
            tiles.append(Tile(row, column, part, origin))
    return Tiling(width, height, rows, columns, overlap, tuple(tiles))


def crop_marks(tile: Tile) -> list[Line]:
    """Crop marks (page pt) outside the four corners of ``tile``'s printed part, each
    :data:`MARK_LENGTH` long and :data:`MARK_GAP` away from the corner, along its edges."""
    r = tile.on_page
    marks: list[Line] = []
    for x, dx in ((r.x, -1), (r.x + r.w, 1)):
        for y, dy in ((r.y, -1), (r.y + r.h, 1)):
            marks.append(Line(x + dx * MARK_GAP, y, x + dx * (MARK_GAP + MARK_LENGTH), y))
            marks.append(Line(x, y + dy * MARK_GAP, x, y + dy * (MARK_GAP + MARK_LENGTH)))
    return marks


def marks_on(tile: Tile, points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The alignment ``points`` (board pt) that lie on ``tile``, as page points."""
    b = tile.board
    return [(x + tile.origin[0], y + tile.origin[1]) for x, y in points
            if b.x <= x <= b.x + b.w and b.y <= y <= b.y + b.h]


def _letters(n: int) -> str:
    """0 → A, 25 → Z, 26 → AA (a spreadsheet's column letters)."""
    text = ""
    n += 1
    while n:
        n, rest = divmod(n - 1, 26)
        text = chr(65 + rest) + text
    return text
