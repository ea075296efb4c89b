"""Token shapes and their sheets: pure geometry, no drawing (no ReportLab import).

Everything is in pt (1 in = 72 pt), origin at the page's lower-left corner, y up.

* :class:`Shape`: ``square`` (any rectangle: cards are 63 × 88 mm squares in this sense),
  ``rounded`` (a rectangle with corner ``radius``), ``circle``, ``hex`` (``flat`` or ``pointy``
  top). A token's *box* is the rectangle around its trim outline.
* :func:`outline`: the trim outline of one token as a :class:`Outline` — plain path data
  (moves, lines, cubic Béziers) that both the PDF cut guides (:mod:`tokengen.faces.render`) and the
  cut SVG (:mod:`tokengen.outputs.cutsvg`) draw, so the two cannot disagree.
* :func:`packing_for` and :func:`layout_page`: packing per shape (the pager that pages them is
  :func:`tokengen.geometry.pager.pages`). Rectangles on a grid (shared cut edges at gutter 0);
  circles on a square pitch at least :data:`PUNCH_ROOM` apart so a hand punch fits between
  them; hexes in offset rows (pointy top) or offset columns (flat top), neighbours ``gutter``
  apart edge to edge, sharing edges at gutter 0.

Sizes: for a hex the catalogue's ``size`` is the distance across the flats F; its box is
F × 2F/√3 (pointy) or 2F/√3 × F (flat). For a circle ``size`` is the diameter.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from ..units import format_length
from .imposition import (
    CROP_LENGTH,
    CROP_OFFSET,
    Cell,
    Line,
    PageLayout,
    Rect,
    SheetSpec,
    calibration_strip,
    edges,
    guide_limits,
    require_fit,
    sheet_area,
)

KINDS = ("square", "rounded", "circle", "hex")
ORIENTATIONS = ("flat", "pointy")
#: Least clear space (pt) between circles on a sheet: 1/8 in, room for a hand punch's rim.
PUNCH_ROOM = 9.0
#: Length (pt) of a punch-centring tick outside a circle (fits in half of :data:`PUNCH_ROOM`).
CROSSHAIR = 3.5
#: Bézier handle length for a quarter circle of radius 1 (4/3 · tan(π/8)).
KAPPA = 4 / 3 * math.tan(math.pi / 8)


@dataclass(frozen=True)
class Shape:
    """A token's trim shape.

    Attributes:
        kind: ``square``, ``rounded``, ``circle`` or ``hex``.
        radius: corner radius of ``rounded``, pt.
        orientation: ``flat`` or ``pointy`` top of a ``hex``.
        punch: circles only: four centring ticks around each circle for a circle punch instead
            of the cut circle.
    """

    kind: str = "square"
    radius: float = 0.0
    orientation: str = "pointy"
    punch: bool = False

    @property
    def rectangular(self) -> bool:
        """Whether straight guillotine cuts separate these tokens (square or rounded)."""
        return self.kind in ("square", "rounded")


def hex_box(across_flats: float, orientation: str) -> tuple[float, float]:
    """(width, height) pt of the box around a hex ``across_flats`` pt wide between flats."""
    corners = across_flats * 2 / math.sqrt(3)
    return (across_flats, corners) if orientation == "pointy" else (corners, across_flats)


def box_width(size: float, shape: Shape | None) -> float:
    """The width pt of the box around a token whose size is ``size`` pt as a user gives it (the
    catalogue's ``size:``, ``--size``): a flat hex is sized across its flats, which run from top
    to bottom, so its box is as wide as its corners are apart; every other token's box is
    ``size`` wide (a card's height follows from its proportions)."""
    return hex_box(size, shape.orientation)[0] if shape is not None and shape.kind == "hex" else size


@dataclass(frozen=True)
class Outline:
    """A closed path, pt: ``ops`` are ``("M", x, y)``, ``("L", x, y)``,
    ``("C", x1, y1, x2, y2, x, y)`` and ``("Z",)`` as in PDF and SVG path data."""

    ops: tuple[tuple, ...]

    def points(self) -> list[tuple[float, float]]:
        """Every end point of the path, in order (for measuring)."""
        return [(op[-2], op[-1]) for op in self.ops if op[0] != "Z"]

    def polygon(self, segments: int = 8) -> list[tuple[float, float]]:
        """The path as a polygon (pt), each Bézier flattened into ``segments`` chords. For the
        convex outlines of :func:`outline` the polygon lies inside the curve (by under 0.1 pt
        for a 1 in circle at 8 segments a quarter), so a point inside it is inside the shape."""
        points: list[tuple[float, float]] = []
        for op in self.ops:
            if op[0] in ("M", "L"):
                points.append((op[1], op[2]))
            elif op[0] == "C":
                (x0, y0), (x1, y1, x2, y2, x3, y3) = points[-1], op[1:]
                for i in range(1, segments + 1):
                    t = i / segments
                    u = 1 - t
                    points.append((u ** 3 * x0 + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t ** 3 * x3,
                                   u ** 3 * y0 + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t ** 3 * y3))
        if len(points) > 1 and math.dist(points[0], points[-1]) < 1e-9:
            points.pop()
        return points

    def moved(self, dx: float, dy: float) -> Outline:
        """The same path moved by (dx, dy) pt."""
        out = []
        for op in self.ops:
            if op[0] == "Z":
                out.append(op)
            else:
                out.append((op[0], *[v + (dx if i % 2 == 0 else dy) for i, v in enumerate(op[1:])]))
        return Outline(tuple(out))


def outline(shape: Shape | None, box: Rect, grow: float = 0.0) -> Outline:
    """The trim outline of a token whose box is ``box``, grown outwards by ``grow`` pt (the
    bleed: a hex stays a hex, a circle a circle)."""
    kind = shape.kind if shape else "square"
    if kind == "circle":
        cx, cy, r = box.x + box.w / 2, box.y + box.h / 2, min(box.w, box.h) / 2 + grow
        k = KAPPA * r
        return Outline((
            ("M", cx + r, cy),
            ("C", cx + r, cy + k, cx + k, cy + r, cx, cy + r),
            ("C", cx - k, cy + r, cx - r, cy + k, cx - r, cy),
            ("C", cx - r, cy - k, cx - k, cy - r, cx, cy - r),
            ("C", cx + k, cy - r, cx + r, cy - k, cx + r, cy),
            ("Z",),
        ))
    if kind == "hex":
        assert shape is not None
        cx, cy = box.x + box.w / 2, box.y + box.h / 2
        r = max(box.w, box.h) / 2 + grow * 2 / math.sqrt(3)  # circumradius; a flat moves out by grow
        start = 90.0 if shape.orientation == "pointy" else 0.0
        pts = [(cx + r * math.cos(math.radians(start + 60 * i)), cy + r * math.sin(math.radians(start + 60 * i))) for i in range(6)]
        return Outline((("M", *pts[0]), *(("L", *p) for p in pts[1:]), ("Z",)))
    b = box.grow(grow)
    radius = (shape.radius + grow) if shape and kind == "rounded" and shape.radius > 0 else 0.0
    if radius <= 0:
        return Outline((("M", b.x, b.y), ("L", b.x1, b.y), ("L", b.x1, b.y1), ("L", b.x, b.y1), ("Z",)))
    r = min(radius, b.w / 2, b.h / 2)
    k = KAPPA * r
    return Outline((
        ("M", b.x + r, b.y), ("L", b.x1 - r, b.y),
        ("C", b.x1 - r + k, b.y, b.x1, b.y + r - k, b.x1, b.y + r), ("L", b.x1, b.y1 - r),
        ("C", b.x1, b.y1 - r + k, b.x1 - r + k, b.y1, b.x1 - r, b.y1), ("L", b.x + r, b.y1),
        ("C", b.x + r - k, b.y1, b.x, b.y1 - r + k, b.x, b.y1 - r), ("L", b.x, b.y + r),
        ("C", b.x, b.y + r - k, b.x + r - k, b.y, b.x + r, b.y),
        ("Z",),
    ))


@dataclass(frozen=True)
class Packing:
    """Where cells go on one sheet of a shaped catalogue: ``columns`` × ``rows``, the x and y
    pitch (pt), the shift (pt) of every odd row (pointy hexes, to the right) or odd column (flat
    hexes, down), the printable ``area``, and ``side``: the calibration strip runs up the left
    margin beside the block (:attr:`tokengen.geometry.imposition.SheetSpec.side`)."""

    columns: int
    rows: int
    pitch_x: float
    pitch_y: float
    shift: float
    area: Rect
    side: bool = False  # the calibration strip runs up the left margin (SheetSpec.side)

    @property
    def per_page(self) -> int:
        return self.columns * self.rows


def _fit(space: float, size: float, pitch: float) -> int:
    if space + 1e-6 < size:
        return 0
    return 1 + int((space - size + 1e-6) // pitch)


def gutter_for(spec: SheetSpec) -> float:
    """The gutter actually used, pt: circles keep :data:`PUNCH_ROOM` apart at least."""
    shape = spec.shape
    return max(spec.gutter, PUNCH_ROOM) if shape is not None and shape.kind == "circle" else spec.gutter


def packing_for(spec: SheetSpec) -> Packing:
    """How many shaped tokens fit on one sheet.

    Raises:
        LayoutError: the gutter is narrower than twice the bleed, or not one token fits (see
            :func:`tokengen.geometry.imposition.sheet_area`, :func:`~tokengen.geometry.imposition.require_fit`).
    """
    w, h = spec.size, spec.height or spec.size
    shape: Shape = spec.shape or Shape()
    area, usable_w, usable_h = sheet_area(spec, (("token width", w), ("token height", h)))
    g = gutter_for(spec)
    shift = 0.0
    if shape.kind == "hex" and shape.orientation == "pointy":
        across = w  # across the flats, horizontal
        pitch_x, pitch_y = across + g, (across + g) * math.sqrt(3) / 2
        shift = pitch_x / 2
        rows = _fit(usable_h, h, pitch_y)
        columns = _fit(usable_w - (shift if rows > 1 else 0.0), w, pitch_x)
    elif shape.kind == "hex":
        across = h
        pitch_y, pitch_x = across + g, (across + g) * math.sqrt(3) / 2
        shift = pitch_y / 2
        columns = _fit(usable_w, w, pitch_x)
        rows = _fit(usable_h - (shift if columns > 1 else 0.0), h, pitch_y)
    else:
        pitch_x, pitch_y = w + g, h + g
        columns, rows = _fit(usable_w, w, pitch_x), _fit(usable_h, h, pitch_y)
    columns = require_fit(spec, columns, rows, f"{format_length(w)} × {format_length(h)} {shape.kind}")
    return Packing(columns, rows, pitch_x, pitch_y, shift, area, spec.side and spec.calibration)


def layout_page(number: int, indices: range, spec: SheetSpec, packing: Packing) -> PageLayout:
    """Lay the shaped tokens ``indices`` on page ``number`` (0-based) of ``packing``, the block
    centred as :func:`tokengen.geometry.imposition.layout_page` centres it. Rectangular shapes get
    straight cut lines (and crop marks at every trim edge); circles and hexes get one cut outline
    per token (circles: centring ticks instead when ``shape.punch``) and crop marks at the block's
    corners (hexes) or between the circles' squares (circles), where a guillotine can use them.
    Pages come from :func:`tokengen.geometry.pager.pages`, which lays out each page size once."""
    width, height = spec.page
    shape: Shape = spec.shape or Shape()
    cols, rows = min(packing.columns, len(indices)), math.ceil(len(indices) / packing.columns)
    block = _block(spec, packing, shape, cols, rows)
    cells = _cells(indices, spec, packing, shape, block)
    strip = calibration_strip(spec, packing.side)
    cut_lines, cut_paths = _cuts(spec, shape, cells, block, (cols, rows), strip)
    crop = _crop_marks(spec, packing, shape, block, (cols, rows)) if spec.crop_marks else ()
    return PageLayout(number, (width, height), tuple(cells), block, cut_lines=cut_lines, crop_marks=crop, calibration=strip,
                      cut_paths=cut_paths)


def _offset_hexes(shape: Shape) -> tuple[bool, bool]:
    """(pointy, flat): whether odd rows (pointy hexes) or odd columns (flat hexes) are shifted."""
    pointy = shape.kind == "hex" and shape.orientation == "pointy"
    return pointy, shape.kind == "hex" and not pointy


def _block(spec: SheetSpec, packing: Packing, shape: Shape, cols: int, rows: int) -> Rect:
    """The rectangle around ``cols`` × ``rows`` tokens (pt), centred on the page (right of a side
    strip) and kept above the area's foot by the bleed."""
    width, height = spec.page
    w, h = spec.size, spec.height or spec.size
    pointy, flat = _offset_hexes(shape)
    block_w = w + (cols - 1) * packing.pitch_x + (packing.shift if pointy and rows > 1 else 0.0)
    block_h = h + (rows - 1) * packing.pitch_y + (packing.shift if flat and cols > 1 else 0.0)
    x0 = packing.area.x + (packing.area.w - block_w) / 2 if packing.side else (width - block_w) / 2  # right of a side strip
    y0 = max((height - block_h) / 2, packing.area.y + spec.bleed)
    return Rect(x0, y0, block_w, block_h)


def _cells(indices: range, spec: SheetSpec, packing: Packing, shape: Shape, block: Rect) -> list[Cell]:
    """One cell per token in ``indices``, row by row from the block's top left, odd rows or
    columns of hexes shifted."""
    w, h = spec.size, spec.height or spec.size
    pointy, flat = _offset_hexes(shape)
    top = block.y + block.h
    cells = []
    for k, index in enumerate(indices):
        row, col = divmod(k, packing.columns)
        x = block.x + col * packing.pitch_x + (packing.shift if pointy and row % 2 else 0.0)
        y = top - h - row * packing.pitch_y - (packing.shift if flat and col % 2 else 0.0)
        cells.append(Cell(index, row, col, Rect(x, y, w, h), spec.bleed))
    return cells


def _cuts(spec: SheetSpec, shape: Shape, cells: list[Cell], block: Rect, grid: tuple[int, int],
          strip: Rect | None) -> tuple[tuple[Line, ...], tuple[Outline, ...]]:
    """(cut lines, cut outlines) when the sheet has cut lines: a grid for rectangles, centring
    ticks for punched circles, else one outline per token."""
    if not spec.cut_lines:
        return (), ()
    if shape.kind == "square":
        w, h = spec.size, spec.height or spec.size
        return _grid_lines(block, *grid, w, h, gutter_for(spec), spec, strip), ()
    if shape.kind == "circle" and shape.punch:
        return tuple(line for c in cells for line in crosshair(c.trim)), ()
    return (), tuple(outline(shape, c.trim) for c in cells)


def _crop_marks(spec: SheetSpec, packing: Packing, shape: Shape, block: Rect, grid: tuple[int, int]) -> tuple[Line, ...]:
    """Crop marks where a guillotine can use them: at every trim edge (rectangles), between the
    circles' squares, or at the block's corners (hexes)."""
    cols, rows = grid
    g = gutter_for(spec)
    if shape.rectangular:
        w, h = spec.size, spec.height or spec.size
        return _crop(block, edges(block.x, cols, w, g), edges(block.y, rows, h, g), spec.bleed)
    if shape.kind == "circle":  # cut the sheet into one square per circle, then punch
        xs = [block.x - g / 2 + i * packing.pitch_x for i in range(cols + 1)]
        ys = [block.y - g / 2 + i * packing.pitch_y for i in range(rows + 1)]
        return _crop(Rect(xs[0], ys[0], xs[-1] - xs[0], ys[-1] - ys[0]), xs, ys, 0.0)
    return _crop(block, [block.x, block.x1], [block.y, block.y1], spec.bleed)


def crosshair(trim: Rect) -> list[Line]:
    """Punch-centring ticks for the circle in ``trim``: four short radial ticks just outside its
    edge (from 0.5 pt to 0.5 + :data:`CROSSHAIR` pt past the radius) at 0°, 90°, 180° and 270°,
    the arms of a crosshair through the centre with the middle left out, so nothing prints on the
    token while a punch's window can still be lined up with them."""
    cx, cy, r = trim.x + trim.w / 2, trim.y + trim.h / 2, min(trim.w, trim.h) / 2
    a, b = r + 0.5, r + 0.5 + CROSSHAIR
    return [Line(cx + a, cy, cx + b, cy), Line(cx - a, cy, cx - b, cy), Line(cx, cy + a, cx, cy + b), Line(cx, cy - a, cx, cy - b)]


def _grid_lines(block: Rect, cols: int, rows: int, w: float, h: float, g: float, spec: SheetSpec, strip: Rect | None) -> tuple[Line, ...]:
    left, right, bottom, top = guide_limits(spec, block, strip)
    xs, ys = edges(block.x, cols, w, g), edges(block.y, rows, h, g)
    vertical = [Line(x, min(bottom, block.y), x, max(top, block.y1)) for x in xs]
    horizontal = [Line(min(left, block.x), y, max(right, block.x1), y) for y in ys]
    return tuple(vertical + horizontal)


def _crop(block: Rect, xs: list[float], ys: list[float], bleed: float) -> tuple[Line, ...]:
    offset = max(CROP_OFFSET, bleed + 1.5) if bleed else CROP_OFFSET
    lo_y, hi_y = block.y - bleed - offset, block.y1 + bleed + offset
    lo_x, hi_x = block.x - bleed - offset, block.x1 + bleed + offset
    marks = [Line(x, lo_y, x, lo_y - CROP_LENGTH) for x in xs] + [Line(x, hi_y, x, hi_y + CROP_LENGTH) for x in xs]
    marks += [Line(lo_x, y, lo_x - CROP_LENGTH, y) for y in ys] + [Line(hi_x, y, hi_x + CROP_LENGTH, y) for y in ys]
    return tuple(marks)


def shaped(spec: SheetSpec) -> bool:
    """Whether ``spec`` needs this module (a non-square token or a shape other than square)."""
    return (spec.height is not None and spec.height != spec.size) or (spec.shape is not None and spec.shape.kind != "square")


def sheet_for(spec: SheetSpec, catalogue: Any) -> SheetSpec:
    """``spec`` with the catalogue's token height and shape, scaled with the width when the sheet
    asks for another size than the catalogue (``--size``/``--scale`` keep the proportions), and
    the catalogue's hand-laid sheet (``sheet:``, with its own page and margin when it names them)."""
    hand = getattr(catalogue, "hand_sheet", None)
    if hand is not None and spec.hand is None:
        spec = replace(spec, hand=hand, page=hand.page or spec.page, margin=spec.margin if hand.margin is None else hand.margin,
                       calibration=False)
    if catalogue.height is None and catalogue.shape is None:
        return spec
    factor = spec.size / catalogue.size
    height = catalogue.trim_height * factor
    shape = spec.shape or catalogue.shape
    if shape is not None and catalogue.shape is not None:
        shape = Shape(catalogue.shape.kind, catalogue.shape.radius * factor, catalogue.shape.orientation, getattr(spec.shape, "punch", False))
    return replace(spec, height=None if abs(height - spec.size) < 1e-9 else height, shape=shape)


def describe(spec: SheetSpec) -> str:
    """The token for captions and PDF subjects: ``1in square``, ``63mm × 88mm rounded``,
    ``1in circle``, ``0.75in hex`` (a hex across its flats)."""
    kind = spec.shape.kind if spec.shape is not None else "square"
    if kind == "hex":
        across = spec.size if spec.shape.orientation == "pointy" else (spec.height or spec.size)
        return f"{format_length(across)} hex"
    if spec.height is not None and abs(spec.height - spec.size) > 1e-9:
        return f"{format_length(spec.size)} × {format_length(spec.height)} {'card' if kind == 'square' else kind}"
    return f"{format_length(spec.size)} {kind}"
