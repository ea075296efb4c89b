"""A tuck box for a deck of cards, unfolded (pure geometry, pt, y up).

The box's inside is the deck plus a clearance: ``width`` = card width + clearance, ``height`` =
card height + clearance, ``depth`` = cards × thickness + clearance. Unfolded, its panels stand
in one row, each as tall as the box: back, side, front, side, then a glue flap; the back carries
the lid and its tuck flap above and the bottom and its tuck flap below; each side carries a dust
flap at both ends; the front has a thumb notch at its top edge. As Squib's and the common
print-and-play tuck boxes are laid out; the figures (clearance, glue flap 8 mm, tuck flap 15 mm,
dust flaps 80 % of the depth, a notch of 10 mm radius) are the usual ones of public tuck-box
generators.

Cut lines are the outline of the whole net (one closed polygon, the notch as an arc of
segments); fold lines are where two panels or a panel and a flap meet.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..units import PT_PER_MM
from .imposition import Line, Rect

#: Card thickness (pt) when none is given: 0.3 mm, a poker deck of 54 cards in about 16 mm.
THICKNESS = 0.3 * PT_PER_MM
#: Room (pt) added to each inside dimension so that the deck slides in: 1 mm.
CLEARANCE = 1.0 * PT_PER_MM
#: Width (pt) of the glue flap, 8 mm; length of each tuck flap, 15 mm.
GLUE, TUCK = 8.0 * PT_PER_MM, 15.0 * PT_PER_MM
#: A dust flap's length as a share of the depth; the thumb notch's radius (pt, 10 mm).
DUST, NOTCH = 0.8, 10.0 * PT_PER_MM
#: How far (pt) the glue, tuck and dust flaps narrow at their free ends, 3 mm.
TAPER = 3.0 * PT_PER_MM


@dataclass(frozen=True)
class TuckBox:
    """An unfolded tuck box: the inside ``width`` × ``height`` × ``depth`` (pt); ``panels`` by
    name (``back``, ``side-1``, ``front``, ``side-2``, ``glue``, ``lid``, ``top-tuck``,
    ``bottom``, ``bottom-tuck``) as rectangles in the net's own coordinates (origin its lower-left
    corner); ``outline`` the cut polygon; ``folds`` the fold lines."""

    width: float
    height: float
    depth: float
    panels: dict[str, Rect]
    outline: tuple[tuple[float, float], ...]
    folds: tuple[Line, ...]

    @property
    def size(self) -> tuple[float, float]:
        """The net's width and height (pt)."""
        xs = [x for x, _ in self.outline]
        ys = [y for _, y in self.outline]
        return max(xs) - min(xs), max(ys) - min(ys)


def inside(card: tuple[float, float], cards: int, thickness: float = THICKNESS, clearance: float = CLEARANCE) -> tuple[float, float, float]:
    """The box's inside (width, height, depth) pt for ``cards`` cards of ``card`` (width, height) pt.

    Raises:
        ValueError: no cards, or a thickness or clearance that is not positive.
    """
    if cards < 1 or thickness <= 0 or clearance < 0:
        raise ValueError("a tuck box needs at least one card, a positive thickness and a clearance of zero or more")
    return card[0] + clearance, card[1] + clearance, cards * thickness + clearance


def tuck_box(width: float, height: float, depth: float) -> TuckBox:
    """The net of a tuck box of inside ``width`` × ``height`` × ``depth`` pt."""
    w, h, d = width, height, depth
    dust = DUST * d
    tuck = min(TUCK, 0.9 * h / 2)
    y0 = d + tuck  # the foot of the row of panels
    x_side1, x_front, x_side2, x_glue, x_end = w, w + d, 2 * w + d, 2 * w + 2 * d, 2 * w + 2 * d + GLUE
    top = y0 + h
    panels = {
        "back": Rect(0, y0, w, h), "side-1": Rect(x_side1, y0, d, h), "front": Rect(x_front, y0, w, h),
        "side-2": Rect(x_side2, y0, d, h), "glue": Rect(x_glue, y0, GLUE, h),
        "lid": Rect(0, top, w, d), "top-tuck": Rect(0, top + d, w, tuck),
        "bottom": Rect(0, tuck, w, d), "bottom-tuck": Rect(0, 0, w, tuck),
    }
    t = min(TAPER, w / 4, dust / 2)
    notch = min(NOTCH, w / 4)
    centre = x_front + w / 2
    arc = [(centre - notch * math.cos(math.pi * k / 12), top - notch * math.sin(math.pi * k / 12)) for k in range(13)]
    outline = [
        (0, 0), (w - t, 0), (w, t), (w, y0 - d),  # bottom tuck, then up the back's right edge to the bottom flap
        (w, y0),  # the back's bottom corner
        (x_side1 + t, y0 - dust), (x_front - t, y0 - dust), (x_front, y0),  # bottom dust flap of side 1
        (x_side2, y0),  # the front's foot
        (x_side2 + t, y0 - dust), (x_glue - t, y0 - dust), (x_glue, y0),  # bottom dust flap of side 2
        (x_end, y0 + t), (x_end, top - t), (x_glue, top),  # the glue flap
        (x_glue - t, top + dust), (x_side2 + t, top + dust), (x_side2, top),  # top dust flap of side 2
        *reversed(arc),  # the front's top edge with the thumb notch, right to left
        (x_front, top),
        (x_front - t, top + dust), (x_side1 + t, top + dust), (x_side1, top),  # top dust flap of side 1
        (w, top + d + tuck - t), (w - t, top + d + tuck), (t, top + d + tuck), (0, top + d + tuck - t),  # lid and top tuck
        (0, t),
    ]
    folds = (
        Line(x_side1, y0, x_side1, top), Line(x_front, y0, x_front, top), Line(x_side2, y0, x_side2, top), Line(x_glue, y0, x_glue, top),
        Line(0, top, w, top), Line(0, top + d, w, top + d),  # back to lid, lid to tuck
        Line(0, y0, w, y0), Line(0, tuck, w, tuck),  # back to bottom, bottom to tuck
        Line(x_side1, top, x_front, top), Line(x_side2, top, x_glue, top),  # side dust flaps
        Line(x_side1, y0, x_front, y0), Line(x_side2, y0, x_glue, y0),
    )
    return TuckBox(w, h, d, panels, tuple(outline), folds)
