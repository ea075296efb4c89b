"""The table ``tokengen export --list-profiles`` prints: one row per profile, its name, the
shop's product it is for, its output and where its figures come from."""

from __future__ import annotations

import textwrap
from pathlib import Path

from ..sources.profiles import load_profiles

#: Column headings, in order.
HEADINGS = ("profile", "product", "output", "source")


def profile_rows(user_file: str | Path | None = None) -> list[tuple[str, str, str, str]]:
    """(name, product, output, source) of every profile, built-ins first in file order, then
    ``user_file``'s new ones; a profile without a product shows its description, one without a
    source ``-``.

    Raises:
        CatalogueError: a profiles file is invalid (see :func:`tokengen.sources.profiles.load_profiles`).
    """
    return [(p.name, p.product or p.description, p.output, p.source or "-") for p in load_profiles(user_file).values()]


def profile_table(user_file: str | Path | None = None, width: int | None = None) -> str:
    """:func:`profile_rows` as text: a heading line, then one row per profile, columns padded to
    their widest cell and separated by two spaces (the last column unpadded). With ``width``
    (characters: the terminal's, see :func:`shutil.get_terminal_size`) a table wider than that
    wraps the product and source columns, at word breaks, so each line is at most ``width``
    (the name and output columns, at most 22 and 12, never wrap; continuation lines leave them blank).
    Never raises beyond :func:`profile_rows`."""
    rows = [HEADINGS, *profile_rows(user_file)]
    widths = _column_widths(rows, width)
    lines = []
    for row in rows:
        lines += _row_lines(row, widths)
    return "\n".join(lines) + "\n"


def _column_widths(rows: list[tuple[str, str, str, str]], width: int | None) -> list[int]:
    """Each column's width (characters): its widest cell; in a table wider than ``width``, the
    product and source columns share the room the name and output columns leave (the source
    a third of it, at least 16 so that DriveThruCards stays whole; neither below :data:`_NARROWEST`)."""
    widths = [max(len(row[k]) for row in rows) for k in range(len(HEADINGS))]
    if width is None or sum(widths) + 2 * (len(widths) - 1) <= width:
        return widths
    room = max(width - widths[0] - widths[2] - 2 * (len(widths) - 1), 2 * _NARROWEST)
    source = min(widths[3], max(room // 3, 16))
    widths[1], widths[3] = max(room - source, _NARROWEST), source
    if widths[1] > max(len(row[1]) for row in rows):  # short products: the source takes the rest
        widths[1] = max(len(row[1]) for row in rows)
        widths[3] = room - widths[1]
    return widths


def _row_lines(row: tuple[str, str, str, str], widths: list[int]) -> list[str]:
    """One row as lines: the product and source wrapped at word breaks to their ``widths``, the
    cells padded (the last unpadded); continuation lines leave the name and output blank."""
    cells = [[cell] if k in (0, 2) else textwrap.wrap(cell, widths[k]) or [""] for k, cell in enumerate(row)]
    lines = []
    for n in range(max(len(c) for c in cells)):
        parts = [c[n] if n < len(c) else "" for c in cells]
        lines.append("  ".join([*(part.ljust(w) for part, w in zip(parts[:-1], widths, strict=False)), parts[-1]]).rstrip())
    return lines


#: Narrowest a wrapped column gets, characters.
_NARROWEST = 12
