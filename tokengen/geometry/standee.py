"""Standees: a figure that stands on the table, cut and folded from one strip (pure geometry, pt).

A standee of a ``width`` × ``height`` figure with a ``base`` is one strip ``width`` wide and
``2 × height + 2 × base`` high, from the foot up: a base, the face upright, the back turned 180°
(so that, folded at the figure's top, it stands behind the face the right way up), and a second
base. Folded at the three fold lines, face and back are glued together and the two bases turn
out to opposite sides to make the foot. The strips stand on the page in a grid with ``gap``
between them, as many as fit inside the margin.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .imposition import Line, Rect

#: The base when none is given: 12 mm.
BASE = 12 * 72 / 25.4
#: Room (pt) between two strips on the page: 1/8 in.
GAP = 9.0


@dataclass(frozen=True)
class Strip:
    """One standee's strip placed on a page: its ``page`` (0-based) and the strip's lower-left
    corner ``(x, y)`` pt; the figure's ``width``, ``height`` and the ``base``."""

    page: int
    x: float
    y: float
    width: float
    height: float
    base: float

    @property
    def outline(self) -> Rect:
        """The whole strip: the cut."""
        return Rect(self.x, self.y, self.width, 2 * self.height + 2 * self.base)

    @property
    def face(self) -> Rect:
        """Where the face stands, upright."""
        return Rect(self.x, self.y + self.base, self.width, self.height)

    @property
    def back(self) -> Rect:
        """Where the back lies, turned 180°."""
        return Rect(self.x, self.y + self.base + self.height, self.width, self.height)

    @property
    def folds(self) -> tuple[Line, Line, Line]:
        """The fold lines, from the foot up: base to face, the figure's top, back to base."""
        x0, x1, foot = self.x, self.x + self.width, self.y + self.base
        return Line(x0, foot, x1, foot), Line(x0, foot + self.height, x1, foot + self.height), \
            Line(x0, foot + 2 * self.height, x1, foot + 2 * self.height)


def layout(count: int, width: float, height: float, base: float, page: tuple[float, float], margin: float,
           gap: float = GAP) -> list[Strip]:
    """Place ``count`` strips on pages of ``page`` (pt) inside ``margin``, row by row from the
    top left, ``gap`` apart.

    Raises:
        ValueError: one strip does not fit the page.
    """
    strip_h = 2 * height + 2 * base
    room_w, room_h = page[0] - 2 * margin, page[1] - 2 * margin
    columns = math.floor((room_w + gap) / (width + gap) + 1e-9)
    rows = math.floor((room_h + gap) / (strip_h + gap) + 1e-9)
    if columns < 1 or rows < 1:
        raise ValueError(f"a standee strip of {width:g} × {strip_h:g} pt does not fit inside the page's margin")
    strips = []
    for index in range(count):
        number, cell = divmod(index, columns * rows)
        row, column = divmod(cell, columns)
        strips.append(Strip(number, margin + column * (width + gap), page[1] - margin - (row + 1) * strip_h - row * gap,
                            width, height, base))
    return strips
