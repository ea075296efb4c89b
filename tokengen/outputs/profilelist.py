"""The table ``tokengen export --list-profiles`` prints: one row per profile, its name, the
shop's product it is for, its output and where its figures come from."""

from __future__ import annotations

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


def profile_table(user_file: str | Path | None = None) -> str:
    """:func:`profile_rows` as text: a heading line, then one line per profile, columns padded
    to their widest cell and separated by two spaces (the last column unpadded)."""
    rows = [HEADINGS, *profile_rows(user_file)]
    widths = [max(len(row[k]) for row in rows) for k in range(len(HEADINGS) - 1)]
    return "\n".join("  ".join([*(cell.ljust(w) for cell, w in zip(row, widths, strict=False)), row[-1]]).rstrip() for row in rows) + "\n"
