"""Does a sheet show every cut? Pure geometry for preflight: token trims and stroked lines in,
the unmarked cuts out. No PDF reading here (the caller measures the page).

A cut is a trim-edge coordinate: the x of a vertical trim edge or the y of a horizontal one,
in pt in default user space. It counts as shown when some stroked, axis-parallel line segment
lies on it (within ``tol``): a cut line across the tokens or a crop mark outside them. A
sheet of one token needs no marks (the page, or its TrimBox, is the cut).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

#: How far (pt) a mark may sit from the trim edge it marks: about 0.18 mm, well under a stroke.
TOL = 0.5

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in pt


def cuts(trims: Iterable[Box]) -> tuple[list[float], list[float]]:
    """The distinct cuts of ``trims``: (xs of vertical trim edges, ys of horizontal), sorted,
    edges closer than :data:`TOL` counted once (neighbours that share an edge)."""
    xs: list[float] = []
    ys: list[float] = []
    for x0, y0, x1, y1 in trims:
        xs += [x0, x1]
        ys += [y0, y1]
    return _distinct(xs), _distinct(ys)


def _distinct(values: list[float]) -> list[float]:
    out: list[float] = []
    for v in sorted(values):
        if not out or v - out[-1] > TOL:
            out.append(v)
    return out


def unmarked_cuts(trims: Sequence[Box], lines: Iterable[Box], tol: float = TOL) -> list[str]:
    """Every cut of ``trims`` that no line in ``lines`` marks, as messages such as
    ``"vertical cut at x = 126.00pt is not marked"``; empty when every cut is shown or the
    sheet holds fewer than two tokens.

    Args:
        trims: token trim boxes (x0, y0, x1, y1), pt.
        lines: stroked straight segments (x0, y0, x1, y1), pt; diagonal ones are ignored.
        tol: how far a line may sit from the cut, pt.
    """
    if len(trims) < 2:
        return []
    vertical, horizontal = [], []
    for x0, y0, x1, y1 in lines:
        if abs(x0 - x1) <= tol and abs(y1 - y0) > tol:
            vertical.append((x0 + x1) / 2)
        elif abs(y0 - y1) <= tol and abs(x1 - x0) > tol:
            horizontal.append((y0 + y1) / 2)
    xs, ys = cuts(trims)
    problems = [f"vertical cut at x = {x:.2f}pt is not marked" for x in xs if not any(abs(x - v) <= tol for v in vertical)]
    problems += [f"horizontal cut at y = {y:.2f}pt is not marked" for y in ys if not any(abs(y - h) <= tol for h in horizontal)]
    return problems
