"""Merged cells of a spreadsheet read as the sheet shows them (issue 43: a designer's sheet).

A cell merged down a column (``B2:B3``) shows its one value on each row it spans, so each of
those rows gets it, as a reader of the sheet sees it. A cell merged across columns shows one
value over several fields, which cannot be read into them: it is refused by its range, with
the usual cause named (a title row merged above the header).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import CatalogueError
from .yamlsrc import one_line

#: A raw row: its line (CSV) or row number (XLSX), its cells by column from 0, and the index of the
#: first column past the reader's limit holding a value (XLSX only; its cells stop before it), else None.
RawRow = tuple[int, list[Any], int | None]


def fill_merged(path: Path, rows: list[RawRow], merged: Sequence[str]) -> list[RawRow]:
    """``rows`` with each range of ``merged`` (Excel references such as ``B2:B3``) read as the sheet
    shows it: the value of a range's first cell in every row of a range down one column.

    Raises:
        CatalogueError: a range across columns whose first cell holds a value, at its row.
    """
    by_number = {number: cells for number, cells, _ in rows}
    for ref in merged:
        bounds = _bounds(ref)
        if bounds is None:
            continue
        first_column, first_row, last_column, last_row = bounds
        value = _value(by_number.get(first_row), first_column - 1)
        if value is None:
            continue
        if last_column > first_column:
            raise CatalogueError(path, f"cells {ref} are merged across columns, showing {one_line(str(value))[:40]!r} over "
                                       "several; each column is one field (and the first row the field names): unmerge "
                                       "them, or delete a title row above the header", line=first_row)
        for number in range(first_row + 1, last_row + 1):
            cells = by_number.get(number)
            if cells is not None and _value(cells, first_column - 1) is None:
                cells.extend([None] * (first_column - len(cells)))
                cells[first_column - 1] = value
    return rows


def _value(cells: list[Any] | None, column: int) -> Any:
    """The value of ``cells`` at ``column`` (from 0), None when the row or the cell is empty."""
    if cells is None or column >= len(cells):
        return None
    return cells[column]


def _bounds(ref: str) -> tuple[int, int, int, int] | None:
    """(first column, first row, last column, last row) of a cell range ``B2:C3``, from 1; None for
    a reference that is not one (a damaged file's range shows nothing)."""
    from openpyxl.utils.cell import range_boundaries

    try:
        bounds = range_boundaries(ref)
    except (ValueError, TypeError):
        return None
    if any(b is None for b in bounds):
        return None
    first_column, first_row, last_column, last_row = (int(b) for b in bounds)  # type: ignore[arg-type]  # None ruled out above
    return first_column, first_row, last_column, last_row
