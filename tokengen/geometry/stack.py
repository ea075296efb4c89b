"""Where a stack's elements go (a template's ``stack:``): sizes in, boxes out, no drawing.

A stack is a box; its elements follow one another along its *main* axis (down a column, or
left to right along a row), each as long as its content says, ``gap`` apart. What the
elements and gaps leave of the box is shared by the ``fill`` spacers in proportion to their
weights (CSS flexbox's ``flex-grow``, the rpg-cards ``fill`` line). Across the stack each
element is placed by ``align``: at the ``start``, ``centre`` or ``end`` of the box's other
side, or stretched over all of it. When the elements are longer than the box, each is cut to
what is left of it (the last ones get nothing): the drawing reports the texts so cut.

Lengths are pt; a box is (x, y, w, h) with y running down from the top (as template fractions
do). :mod:`tokengen.faces.stacks` measures the elements and draws from these boxes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: Ways an element is placed across a stack.
ALIGNS = ("start", "centre", "end", "stretch")


@dataclass(frozen=True)
class Child:
    """One element of a stack, as long as it needs to be.

    Attributes:
        main: its length along the stack (pt): a column's element's height, a row's width.
        cross: its length across (pt), or None to take the whole of the stack's other side.
        weight: a spacer's share of the space left (0: not a spacer).
    """

    main: float
    cross: float | None = None
    weight: float = 0.0


def need(children: Sequence[Child], gap: float) -> float:
    """The length (pt) ``children`` take along a stack with ``gap`` pt between each two (spacers
    at no length)."""
    return sum(c.main for c in children) + gap * max(0, len(children) - 1)


def place(box: tuple[float, float, float, float], children: Sequence[Child], gap: float = 0.0,
          row: bool = False, align: str = "stretch") -> list[tuple[float, float, float, float]]:
    """The box (x, y, w, h; pt, y down) of each of ``children`` in the stack ``box``.

    Each child starts ``gap`` after the end of the one before (the first at the box's start);
    the space the children and gaps leave is shared by the spacers by weight; a child longer
    than what is left of the box is cut to it.

    Raises:
        ValueError: an ``align`` not in :data:`ALIGNS`, a negative gap or weight.
    """
    if align not in ALIGNS:
        raise ValueError(f"unknown stack align {align!r} ({', '.join(ALIGNS)})")
    if gap < 0 or any(c.weight < 0 or c.main < 0 for c in children):
        raise ValueError("a stack's gap, lengths and weights are 0 or more")
    x, y, w, h = box
    length, across = (w, h) if row else (h, w)
    left = max(0.0, length - need(children, gap))
    weights = sum(c.weight for c in children)
    out = []
    at = 0.0
    for c in children:
        main = c.main + (left * c.weight / weights if weights else 0.0)
        main = min(main, max(0.0, length - at))
        size = across if c.cross is None or align == "stretch" else min(c.cross, across)
        offset = {"start": 0.0, "centre": (across - size) / 2, "end": across - size}.get(align, 0.0)
        out.append((x + at, y + offset, main, size) if row else (x + offset, y + at, size, main))
        at = min(length, at + main + gap)
    return out
