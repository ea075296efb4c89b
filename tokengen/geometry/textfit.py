"""Fitting one line of face text inside the token's safe area: pure geometry, no drawing.

Lengths are in pt, in face coordinates: origin at the trim's lower-left corner, y up. The safe
area is the token's trim outline (:func:`tokengen.geometry.shapes.outline`: square, rounded, circle,
hex) moved inwards by the safe distance, as a convex polygon (:class:`SafeArea`).

A line of text set at font size ``s`` pt occupies a box ``advance · s`` wide from ``descent · s``
to ``ascent · s`` about its baseline (the box preflight measures, as pdfminer does); every measure is
proportional to ``s``. A template text has a box of its own: its fit ``width`` about its anchor,
one line of its largest size high. :func:`fit_line` clips that box to the safe area and finds
the largest size, down to a floor, at which the line fits the clipped box, placed as near its
anchor as the clipped box allows (the way Squib's and nanDECK's autoscaled text fits its box).
A line turned about its anchor (``rotate``) is only shrunk, about that anchor, until its turned
box lies inside the area (:func:`fit_turned`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from .figures import corners, turned
from .imposition import Rect
from .shapes import Shape, outline

#: Extra room (pt) kept between text and the safe-area line, so glyph outlines stay off it.
SLACK = 0.5
#: Smallest font size (pt) text is shrunk to for the safe area; a text that fits only smaller is
#: drawn at this size and reported (5 pt is where the small-text check starts warning).
MIN_SIZE = 4.0
#: Tolerance (pt) of the fit tests (floating-point noise in positions).
TOL = 1e-6


@dataclass(frozen=True)
class SafeArea:
    """The convex region (pt, face coordinates) that text must stay inside; ``inset`` is the
    safe distance (pt) from the trim it was made with."""

    points: tuple[tuple[float, float], ...]
    inset: float = 0.0

    @property
    def bottom(self) -> float:
        """Lowest y (pt) of the region."""
        return self._extent()[0]

    @property
    def top(self) -> float:
        """Highest y (pt) of the region."""
        return self._extent()[1]

    def _extent(self) -> tuple[float, float]:
        """(lowest, highest) y (pt), worked out once per area (every text of a sheet asks)."""
        found: tuple[float, float] | None = self.__dict__.get("_ys")
        if found is None:
            found = (min(y for _, y in self.points), max(y for _, y in self.points))
            object.__setattr__(self, "_ys", found)  # frozen: kept beside the fields, not one of them
        return found

    def _edges(self) -> tuple[tuple[tuple[float, float], tuple[float, float]], ...]:
        """Each edge (from, to) of the outline, closed, worked out once per area."""
        found: tuple[tuple[tuple[float, float], tuple[float, float]], ...] | None = self.__dict__.get("_edge_list")
        if found is None:
            pts = self.points
            found = tuple(zip(pts, pts[1:] + pts[:1], strict=True))
            object.__setattr__(self, "_edge_list", found)
        return found

    def span(self, y: float) -> tuple[float, float] | None:
        """The region's extent (x0, x1) pt along the horizontal line at height ``y``, or None
        when the line misses it."""
        xs = []
        for (xa, ya), (xb, yb) in self._edges():
            if min(ya, yb) - TOL <= y <= max(ya, yb) + TOL:
                if abs(yb - ya) < 1e-12:
                    xs += [xa, xb]
                else:
                    t = min(1.0, max(0.0, (y - ya) / (yb - ya)))
                    xs.append(xa + t * (xb - xa))
        return (min(xs), max(xs)) if xs else None

    def contains(self, point: tuple[float, float]) -> bool:
        """Whether ``point`` (pt) lies inside the convex region or on its edge (within :data:`TOL`)."""
        pts = self.points
        sides = set()
        for (xa, ya), (xb, yb) in zip(pts, pts[1:] + pts[:1], strict=True):
            length = math.hypot(xb - xa, yb - ya)
            if length < 1e-12:
                continue
            cross = ((xb - xa) * (point[1] - ya) - (yb - ya) * (point[0] - xa)) / length  # signed distance
            if abs(cross) > TOL:
                sides.add(cross > 0)
        return len(sides) <= 1

    def across(self, y0: float, y1: float) -> tuple[float, float] | None:
        """The x extent (pt) inside the region at every height from ``y0`` to ``y1``: for a
        convex region, the overlap of its spans at the two heights (None: no such extent)."""
        low, high = self.span(y0), self.span(y1)
        if low is None or high is None:
            return None
        x0, x1 = max(low[0], high[0]), min(low[1], high[1])
        return (x0, x1) if x1 >= x0 else None


@lru_cache(maxsize=256)
def safe_area(shape: Shape | None, width: float, height: float, inset: float, scale: float = 1.0) -> SafeArea:
    """The safe area of a ``width`` × ``height`` pt token of ``shape`` (None: square): its trim
    outline moved ``inset`` pt inwards (plus :data:`SLACK`). ``scale`` < 1 is a shrink of the
    text about the token centre (the sheet's ``text_scale``): the area is returned in the
    coordinates the text is set in before that shrink, i.e. grown by ``1 / scale``. Worked out
    once per distinct set of arguments: every face of a sheet (its drawing, its warnings and
    the small-text check) gets the one same (immutable) area."""
    edge = outline(shape, Rect(0.0, 0.0, width, height), -(inset + SLACK))
    cx, cy = width / 2, height / 2
    points = tuple((cx + (x - cx) / scale, cy + (y - cy) / scale) for x, y in edge.polygon())
    return SafeArea(points, inset)


@dataclass(frozen=True)
class Placed:
    """A line of text as set: font ``size`` (pt), the ``left`` end of its box and its
    ``baseline`` (pt), and whether it ``fits`` inside the safe area."""

    size: float
    left: float
    baseline: float
    fits: bool


@dataclass(frozen=True)
class Metrics:
    """A line's measures at 1 pt: ``advance`` width (spacing included), ``ascent`` (> 0) and
    ``descent`` (< 0) about the baseline."""

    advance: float
    ascent: float
    descent: float


def fit_line(area: SafeArea, m: Metrics, x: float, baseline: float, align: str, largest: float,
             box: tuple[float, float] | None = None, smallest: float = MIN_SIZE) -> Placed:
    """Set a line of text with metrics ``m`` anchored at ``x`` (its left end, centre or right
    end, as ``align`` says: ``left``, ``centre``, ``right``) on ``baseline`` (pt).

    The line's own box is ``box`` (x0, x1 pt; None: unbounded) across, and from the descent to
    the ascent at ``largest`` pt about the baseline; it is clipped to ``area``. The size is the
    largest up to ``largest`` at which the line fits the clipped box, the line moved from its
    anchor only as far as the clipped box requires. When it fits at no size down to
    ``smallest`` (or ``largest``, if that is smaller), it is placed at that size, as far inside
    as it goes, with ``fits`` False.
    """
    band = (max(baseline + m.descent * largest, area.bottom), min(baseline + m.ascent * largest, area.top))
    across = (-math.inf, math.inf) if box is None else box

    def place(size: float) -> Placed:
        base = min(max(baseline, band[0] - m.descent * size), band[1] - m.ascent * size)
        extent = area.across(base + m.descent * size, base + m.ascent * size)
        width = m.advance * size
        natural = {"left": x, "right": x - width}.get(align, x - width / 2)
        if extent is None:
            return Placed(size, natural, base, False)
        lo, hi = max(extent[0], across[0]), min(extent[1], across[1])
        if width <= hi - lo:
            left = min(max(natural, lo), hi - width)
        else:  # too wide: overhang where its alignment puts it (both ends when centred)
            left = {"left": lo, "right": hi - width}.get(align, (lo + hi - width) / 2)
        fits = (m.ascent - m.descent) * size <= band[1] - band[0] + TOL and width <= hi - lo + TOL
        return Placed(size, left, base, fits)

    return _largest(place, largest, smallest)


def turned_box(m: Metrics, x: float, baseline: float, align: str, size: float, degrees: float) -> list[tuple[float, float]]:
    """The four corners (pt) of the box of a line with metrics ``m`` at ``size`` pt anchored at
    ``x`` on ``baseline`` (as ``align`` says), turned ``degrees`` clockwise about that anchor."""
    width = m.advance * size
    left = {"left": x, "right": x - width}.get(align, x - width / 2)
    box = corners(left, baseline + m.descent * size, width, (m.ascent - m.descent) * size)
    return [turned(p, (x, baseline), degrees) for p in box]


def fit_turned(area: SafeArea, m: Metrics, x: float, baseline: float, align: str, degrees: float, largest: float,
               smallest: float = MIN_SIZE) -> Placed:
    """Set a line of text with metrics ``m`` anchored at ``x`` on ``baseline`` (pt, as
    ``align`` says) and turned ``degrees`` clockwise about that anchor: the largest size up to
    ``largest`` at which the turned box (:func:`turned_box`) lies inside ``area``. The line is
    not moved. When it fits at no size down to ``smallest`` (or ``largest``, if that is
    smaller), it is set at that size with ``fits`` False. ``left`` is the left end of the box
    before it is turned."""
    def place(size: float) -> Placed:
        width = m.advance * size
        left = {"left": x, "right": x - width}.get(align, x - width / 2)
        fits = all(area.contains(p) for p in turned_box(m, x, baseline, align, size, degrees))
        return Placed(size, left, baseline, fits)

    return _largest(place, largest, smallest)


def _largest(place: Callable[[float], Placed], largest: float, smallest: float) -> Placed:
    """The line set by ``place`` at the largest size up to ``largest`` at which it fits: ``largest``
    itself when it fits, else by bisection (30 halvings) down to ``min(smallest, largest)``; set at
    that floor with ``fits`` False when it fits there neither."""
    first = place(largest)
    if first.fits:
        return first
    floor = min(smallest, largest)
    low = place(floor)
    if not low.fits:
        return low
    lo, hi = floor, largest  # lo fits, hi does not
    for _ in range(30):
        mid = (lo + hi) / 2
        if place(mid).fits:
            lo = mid
        else:
            hi = mid
    return place(lo)
