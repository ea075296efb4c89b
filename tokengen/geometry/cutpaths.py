"""Cut paths for cutting machines: each edge once where tokens share it. Pure geometry, in pt.

A sheet at gutter 0 (squares, cards, hexes) has neighbours that share an edge; cutting every
token's closed outline runs the blade down that edge twice, which tears thin card and costs
time. :func:`shared_edges` splits every outline (:func:`tokengen.geometry.shapes.outline`) into
its segments — each straight line or cubic Bézier from one end point to the next — and keeps a
segment two outlines have in common once. The profile key ``cut: shared`` asks the cut files
(:mod:`tokengen.outputs.cutsvg`, :mod:`tokengen.outputs.cutdxf`) for these edges instead of the
closed outlines.
"""

from __future__ import annotations

from collections.abc import Sequence

from .shapes import Outline

#: Coordinates closer than this (pt) are the same point when segments are compared (0.01 pt is
#: far below a cutter's step, and far above the rounding of the outlines' arithmetic).
SNAP = 0.01


def segments(outline: Outline) -> list[Outline]:
    """The segments of ``outline``, in order: each an open :class:`Outline` of a move and one
    ``L`` or ``C`` (the closing ``Z`` becomes a line back to the start when it has length)."""
    out: list[Outline] = []
    start = current = None
    for op in outline.ops:
        if op[0] == "M":
            start = current = (op[1], op[2])
        elif op[0] in ("L", "C") and current is not None:
            out.append(Outline((("M", *current), op)))
            current = (op[-2], op[-1])
        elif op[0] == "Z" and current is not None and start is not None:
            if abs(current[0] - start[0]) > 1e-9 or abs(current[1] - start[1]) > 1e-9:
                out.append(Outline((("M", *current), ("L", *start))))
            current = start
    return out


def _key(segment: Outline) -> tuple:
    """The same key for a segment and for it drawn the other way round (points snapped to :data:`SNAP`)."""
    (_, x0, y0), op = segment.ops
    points = [(x0, y0), *[(op[i], op[i + 1]) for i in range(1, len(op), 2)]]
    snapped = tuple((round(x / SNAP), round(y / SNAP)) for x, y in points)
    return (op[0], min(snapped, snapped[::-1]))


def shared_edges(outlines: Sequence[Outline]) -> list[Outline]:
    """Every segment of ``outlines`` once: a segment that two outlines share (the same end
    points, and for a curve the same control points, either way round, within :data:`SNAP` pt)
    is kept from the first outline that has it. On a 3 × 3 block of squares at gutter 0 that is
    24 edges instead of 36; outlines that touch nowhere (circles, a gutter) keep all their
    segments. Returns open two-op outlines (``M`` then ``L`` or ``C``), pt, in outline order."""
    seen: set[tuple] = set()
    out: list[Outline] = []
    for outline in outlines:
        for segment in segments(outline):
            key = _key(segment)
            if key not in seen:
                seen.add(key)
                out.append(segment)
    return out
