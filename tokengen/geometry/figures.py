"""Figures of the face language as plain values: polygons, stars, ellipses, sectors, turned
outlines, gradient axes and the places of text set along a circle. Pure geometry, no drawing.

Lengths are in pt in face coordinates: origin at the trim's lower-left corner, y up (template
fractions are turned into these by the caller). Angles are in degrees **clockwise as the face is
seen**, measured from 12 o'clock for directions on a circle (0 is straight up, 90 is to the
right, as a clock face or a compass reads).

A figure's outline is a :data:`Path`: a list of commands, each a tuple whose first item names it,
as PDF paints them:

* ``("M", x, y)``: begin a new piece at (x, y);
* ``("L", x, y)``: a straight line to (x, y);
* ``("C", x1, y1, x2, y2, x, y)``: a cubic Bézier curve to (x, y) with control points 1 and 2;
* ``("Z",)``: close the piece.

Circular arcs are cubic curves of at most 90° each (the error is under 0.03 % of the radius, what
PDF writers use). A whole ring is two pieces, the outer clockwise and the inner anticlockwise,
so both the nonzero and the even-odd rule leave its hole empty.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Point = tuple[float, float]
Command = tuple[float | str, ...]
Path = list[Command]
#: A PDF matrix (a, b, c, d, e, f): (x, y) → (a·x + c·y + e, b·x + d·y + f).
Matrix = tuple[float, float, float, float, float, float]

#: Largest arc (degrees) one Bézier curve stands for.
ARC_PIECE = 90.0


def on_circle(cx: float, cy: float, r: float, angle: float) -> Point:
    """The point ``r`` pt from (cx, cy) in the direction ``angle`` (degrees clockwise from 12 o'clock)."""
    a = math.radians(angle)
    return (cx + r * math.sin(a), cy + r * math.cos(a))


def turned(point: Point, centre: Point, degrees: float) -> Point:
    """``point`` turned ``degrees`` clockwise (as the face is seen) about ``centre``."""
    a = math.radians(degrees)
    dx, dy = point[0] - centre[0], point[1] - centre[1]
    return (centre[0] + dx * math.cos(a) + dy * math.sin(a), centre[1] - dx * math.sin(a) + dy * math.cos(a))


def turn_matrix(centre: Point, degrees: float) -> Matrix:
    """The matrix that turns the plane ``degrees`` clockwise about ``centre`` (for ``cm`` or ``Tm``)."""
    a = math.radians(degrees)
    cos, sin = math.cos(a), math.sin(a)
    cx, cy = centre
    return (cos, -sin, sin, cos, cx - cos * cx - sin * cy, cy + sin * cx - cos * cy)


def corners(x: float, y: float, w: float, h: float) -> list[Point]:
    """The four corners of the box at (x, y) (its lower-left corner) ``w`` × ``h`` pt,
    anticlockwise from the lower left."""
    return [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]


def bounds(points: Sequence[Point]) -> tuple[float, float, float, float]:
    """(x, y, w, h) of the smallest upright box holding ``points`` (x, y: its lower-left corner)."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def regular(n: int, cx: float, cy: float, r: float) -> list[Point]:
    """The ``n`` corners of a regular polygon inscribed in the circle of radius ``r`` about
    (cx, cy), the first at 12 o'clock, then clockwise."""
    return [on_circle(cx, cy, r, 360.0 * k / n) for k in range(n)]


def star(n: int, cx: float, cy: float, r: float, inner: float) -> list[Point]:
    """The 2 ``n`` corners of an ``n``-pointed star: points on the circle of radius ``r`` (the
    first at 12 o'clock) and, between them, notches at ``inner`` · ``r`` from the centre,
    clockwise."""
    step = 180.0 / n
    return [on_circle(cx, cy, r if k % 2 == 0 else inner * r, step * k) for k in range(2 * n)]


def polygon(points: Sequence[Point], closed: bool = True) -> Path:
    """The path through ``points`` in order (closed back to the first unless ``closed`` is False)."""
    path: Path = [("M", *points[0]), *[("L", *p) for p in points[1:]]]
    return path + [("Z",)] if closed else path


def _arc(cx: float, cy: float, r: float, start: float, end: float) -> Path:
    """Curves along the circle of radius ``r`` from direction ``start`` to ``end`` (degrees
    clockwise from 12; ``end`` < ``start`` runs anticlockwise), without the starting move."""
    span = end - start
    pieces = max(1, math.ceil(abs(span) / ARC_PIECE - 1e-9))
    step = span / pieces
    k = 4.0 / 3.0 * math.tan(math.radians(step) / 4.0) * r
    path: Path = []
    for i in range(pieces):
        a0, a1 = math.radians(start + i * step), math.radians(start + (i + 1) * step)
        x0, y0 = on_circle(cx, cy, r, start + i * step)
        x1, y1 = on_circle(cx, cy, r, start + (i + 1) * step)
        # the tangent of P(a) = (cx + r sin a, cy + r cos a) is (cos a, -sin a) per radian, times r
        path.append(("C", x0 + k * math.cos(a0), y0 - k * math.sin(a0), x1 - k * math.cos(a1), y1 + k * math.sin(a1), x1, y1))
    return path


def ellipse(x: float, y: float, w: float, h: float) -> Path:
    """The ellipse filling the box at (x, y) (its lower-left corner) ``w`` × ``h`` pt, one
    closed piece drawn clockwise from 12 o'clock: a circle of radius ``h / 2`` stretched across."""
    cx, cy = x + w / 2, y + h / 2
    sx = w / h if h else 1.0
    circle: Path = [("M", cx, cy + h / 2), *_arc(cx, cy, h / 2, 0.0, 360.0), ("Z",)]
    out: Path = []
    for c in circle:
        coords = [(cx + (float(c[i]) - cx) * sx, float(c[i + 1])) for i in range(1, len(c) - 1, 2)]
        out.append((c[0], *[v for p in coords for v in p]))
    return out


def span(start: float, end: float) -> float:
    """How many degrees clockwise from ``start`` to ``end`` (0 < span ≤ 360: equal angles, or ends
    a whole turn or more apart, are a whole circle)."""
    if end - start >= 360.0 - 1e-9:
        return 360.0
    s = (end - start) % 360.0
    return 360.0 if s < 1e-9 else s


def sector(cx: float, cy: float, r: float, start: float, end: float, inner: float = 0.0) -> Path:
    """A sector of the circle of radius ``r`` about (cx, cy) from direction ``start`` clockwise
    to ``end`` (degrees from 12 o'clock, see :func:`span`); with an ``inner`` radius (pt, below
    ``r``) the ring segment between the two circles. A whole turn is a disc, or a ring whose hole
    winds the other way."""
    sweep = span(start, end)
    if sweep >= 360.0:
        outer: Path = [("M", *on_circle(cx, cy, r, start)), *_arc(cx, cy, r, start, start + 360.0), ("Z",)]
        if inner <= 0:
            return outer
        return outer + [("M", *on_circle(cx, cy, inner, start)), *_arc(cx, cy, inner, start, start - 360.0), ("Z",)]
    stop = start + sweep
    if inner <= 0:
        return [("M", cx, cy), ("L", *on_circle(cx, cy, r, start)), *_arc(cx, cy, r, start, stop), ("Z",)]
    return [("M", *on_circle(cx, cy, r, start)), *_arc(cx, cy, r, start, stop),
            ("L", *on_circle(cx, cy, inner, stop)), *_arc(cx, cy, inner, stop, start), ("Z",)]


def path_points(path: Path) -> list[Point]:
    """Every end and control point of ``path`` (a curve lies inside the hull of its points)."""
    return [(float(c[i]), float(c[i + 1])) for c in path for i in range(1, len(c) - 1, 2)]


def gradient_axis(box: tuple[float, float, float, float], angle: float) -> tuple[Point, Point]:
    """The start and end (pt) of a linear gradient over ``box`` (x, y, w, h) running in the
    direction ``angle`` (degrees clockwise from 12 o'clock, as CSS's ``linear-gradient``: 0 from
    the bottom up, 90 from left to right, 180 from the top down): a line through the box centre,
    just long enough that the first and last colours reach the box's farthest corners."""
    x, y, w, h = box
    a = math.radians(angle)
    dx, dy = math.sin(a), math.cos(a)
    half = (abs(w * dx) + abs(h * dy)) / 2
    cx, cy = x + w / 2, y + h / 2
    return (cx - dx * half, cy - dy * half), (cx + dx * half, cy + dy * half)


@dataclass(frozen=True)
class Glyph:
    """One character of a text set along a circle: its baseline's left end (x, y, pt) and how far
    it is turned (degrees clockwise), so that its text matrix is :func:`turn_matrix` about that
    point."""

    char: str
    x: float
    y: float
    turn: float


def arc_radius(r: float, ascent: float, side: str, clockwise: bool) -> float:
    """The baseline radius (pt) of text of ``ascent`` pt set on the circle of radius ``r`` on its
    ``side`` (``outside``: the letters lie beyond the circle; ``inside``: within it). Reading
    clockwise the letters stand with their tops away from the centre; anticlockwise, towards it."""
    if clockwise:
        return r if side == "outside" else r - ascent
    return r + ascent if side == "outside" else r


def arc_text(chars: Sequence[tuple[str, float]], cx: float, cy: float, radius: float, start: float,
             end: float | None, align: str, clockwise: bool = True) -> list[Glyph]:
    """Set characters (char, advance pt) on a baseline circle of ``radius`` pt about (cx, cy).

    Reading clockwise (``clockwise``) or anticlockwise from ``start`` (degrees clockwise from 12).
    Without an ``end``, ``align`` says where ``start`` falls on the text: its beginning
    (``left``), its middle (``centre``) or its end (``right``). With an ``end``, the text lies
    on the arc from ``start`` to ``end`` in the reading direction, at its beginning, middle or end
    as ``align`` says. Each character is centred on its place on the arc and turned to stand on
    the circle's tangent there.

    Raises:
        ValueError: ``radius`` is not above 0.
    """
    if radius <= 0:
        raise ValueError(f"the text's circle has radius {radius:g} pt; it needs one above 0")
    total = sum(w for _, w in chars)
    sweep = math.degrees(total / radius)
    sign = 1.0 if clockwise else -1.0
    if end is None:
        first = start - sign * {"left": 0.0, "right": sweep}.get(align, sweep / 2)
    else:
        room = span(start, end) if clockwise else span(end, start)
        first = start + sign * {"left": 0.0, "right": room - sweep}.get(align, (room - sweep) / 2)
    glyphs = []
    run = 0.0
    for char, w in chars:
        middle = first + sign * math.degrees((run + w / 2) / radius)
        mx, my = on_circle(cx, cy, radius, middle)
        turn = middle if clockwise else middle + 180.0
        # the reading direction at the middle: the tangent turned with the letter
        tx, ty = math.cos(math.radians(turn)), -math.sin(math.radians(turn))
        glyphs.append(Glyph(char, mx - tx * w / 2, my - ty * w / 2, turn % 360.0))
        run += w
    return glyphs


def arc_sweep(total: float, radius: float) -> float:
    """The angle (degrees) a text ``total`` pt long covers on a baseline circle of ``radius`` pt."""
    return math.degrees(total / radius) if radius > 0 else math.inf
