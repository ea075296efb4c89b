"""Fold-over ("gutterfold") sheets for printers without duplex: pure geometry, no drawing.

The sheet is split by a fold line through its centre. Faces are imposed on one half exactly as
:mod:`tokengen.geometry.imposition` (or :mod:`tokengen.geometry.shapes`) would impose them on a sheet of that half's
size (the pager, :func:`tokengen.geometry.pager.pages` with ``fold``, lays out :func:`half_spec` and
moves each page :func:`onto_sheet`); each back goes on the other half at the mirror image of its face across the fold line,
drawn upright, so folding the sheet along the (dashed) line puts every back behind its face.
Glue or tape the halves, then cut along the face side's cut lines; turn a token over across the
fold line's direction to read its back.

* ``long``: the fold line runs parallel to the sheet's long edges (portrait: a vertical line,
  faces on the left half, backs on the right).
* ``short``: parallel to the short edges (portrait: a horizontal line, faces on the top half,
  backs on the bottom).

All lengths are in pt, origin at the page's lower-left corner. The margin of the half-sheets
keeps every token (with its bleed) at least ``margin`` from the fold line, and the cut-line
guides stop half-way into it, so no cut crosses the fold.
"""

from __future__ import annotations

from dataclasses import replace

from ..errors import UsageError
from .imposition import Cell, Line, PageLayout, Rect, SheetSpec

FOLDS = ("long", "short")
#: Dash pattern of the fold line, pt on / pt off.
FOLD_DASH = (4.0, 3.0)


def _vertical(page: tuple[float, float], fold: str) -> bool:
    """Whether the fold line is vertical (x = W/2) on this page."""
    if fold not in FOLDS:
        raise UsageError(f"unknown fold {fold!r}: use long or short")
    width, height = page
    portrait = height >= width
    return (fold == "long") == portrait


def half_spec(spec: SheetSpec, fold: str) -> SheetSpec:
    """The sheet of one half (faces are imposed on it as on any sheet); no calibration strip."""
    width, height = spec.page
    half = (width / 2, height) if _vertical(spec.page, fold) else (width, height / 2)
    return replace(spec, page=half, calibration=False)


def fold_line(page: tuple[float, float], fold: str) -> Line:
    """The fold line across the whole page, pt."""
    width, height = page
    if _vertical(page, fold):
        return Line(width / 2, 0.0, width / 2, height)
    return Line(0.0, height / 2, width, height / 2)


def onto_sheet(page: PageLayout, spec: SheetSpec, fold: str) -> PageLayout:
    """A page laid out on :func:`half_spec` moved to the faces' half of the whole sheet ``spec``,
    in page coordinates (the top half for a horizontal fold); no calibration strip. Backs:
    :func:`backs_of`.

    Raises:
        UsageError: unknown fold.
    """
    dy = 0.0 if _vertical(spec.page, fold) else spec.page[1] / 2
    return _moved(page, 0.0, dy, spec.page)


def _moved(page: PageLayout, dx: float, dy: float, size: tuple[float, float]) -> PageLayout:
    def r(rect: Rect) -> Rect:
        return Rect(rect.x + dx, rect.y + dy, rect.w, rect.h)

    def ln(line: Line) -> Line:
        return Line(line.x0 + dx, line.y0 + dy, line.x1 + dx, line.y1 + dy)

    cells = tuple(Cell(c.index, c.row, c.col, r(c.trim), c.bleed) for c in page.cells)
    return PageLayout(page.number, size, cells, r(page.block), cut_lines=tuple(ln(x) for x in page.cut_lines),
                      crop_marks=tuple(ln(x) for x in page.crop_marks), calibration=None,
                      cut_paths=tuple(o.moved(dx, dy) for o in page.cut_paths),
                      outer_bleed=tuple((i, r(rect)) for i, rect in page.outer_bleed))


def backs_of(page: PageLayout, fold: str) -> PageLayout:
    """The backs of a fold-over sheet: each face cell mirrored across the fold line (no cut lines),
    and the faces' home bleed with them (``outer_bleed``: the same (token index, rect) pairs,
    mirrored), so a back is filled past its outer cuts as its face is and a fold a little off
    shows the back's colour, not paper."""
    width, height = page.size
    vertical = _vertical(page.size, fold)

    def move(rect: Rect) -> Rect:
        if vertical:
            return Rect(width - rect.x - rect.w, rect.y, rect.w, rect.h)
        return Rect(rect.x, height - rect.y - rect.h, rect.w, rect.h)

    cells = tuple(Cell(c.index, c.row, c.col, move(c.trim), c.bleed) for c in page.cells)
    return PageLayout(page.number, page.size, cells, move(page.block),
                      outer_bleed=tuple((i, move(rect)) for i, rect in page.outer_bleed))
