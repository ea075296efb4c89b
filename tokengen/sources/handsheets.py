"""Reading a sheet laid out by hand: a catalogue's ``sheet:`` or a ``--sheet FILE``.

Both go through the one schema (``sheet.schema.json``), so bad input is one line naming the file,
the line and the field; lengths are parsed here (the edge) into pt, and the geometry
(:mod:`tokengen.geometry.handsheet`) places the slots.

A sheet file is the mapping a catalogue's ``sheet:`` holds::

    page: a4
    slots:
      - {at: [6.3mm, 10mm]}
      - {at: [72.1mm, 48mm], rotate: 90}
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import CatalogueError, UsageError
from ..geometry.handsheet import Groups, HandSheet, Slot, Zone
from ..model import Colour
from ..units import parse_length, parse_page
from . import schemas
from .yamlsrc import Lines, dotted, read_yaml

#: The gap (pt) between blocks of ``groups:`` when none is given: 6 mm.
DEFAULT_GAP = 6 * 72 / 25.4
#: A zone's band colour when none is given (a mid grey).
DEFAULT_ZONE_COLOUR = "#b0b0b0"


def hand_sheet(path: Path, data: dict[str, Any], lines: Lines, where: tuple[Any, ...] = ("sheet",)) -> HandSheet:
    """The :class:`~tokengen.geometry.handsheet.HandSheet` of ``data`` (already checked by the
    sheet schema), found at ``where`` in ``path`` (``("sheet",)`` in a catalogue, ``()`` in a
    sheet file); lengths in pt.

    Raises:
        CatalogueError: a length or page that cannot be read, naming the file, line and field.
    """
    def fail(at: tuple[Any, ...], message: str) -> CatalogueError:
        full = where + at
        return CatalogueError(path, message, line=schemas.line_at(lines, full), field=dotted(full))

    def length(value: Any, at: tuple[Any, ...]) -> float:
        try:
            return parse_length(value)
        except ValueError as exc:
            raise fail(at, str(exc)) from None

    def line(at: tuple[Any, ...]) -> int | None:
        return schemas.line_at(lines, where + at)

    page = None
    if "page" in data:
        try:
            page = parse_page(data["page"])
        except (ValueError, UsageError) as exc:
            raise fail(("page",), str(exc)) from None
    margin = length(data["margin"], ("margin",)) if "margin" in data else None
    slots = tuple(Slot(length(s["at"][0], ("slots", k, "at", 0)), length(s["at"][1], ("slots", k, "at", 1)), s.get("rotate", 0), line(("slots", k)))
                  for k, s in enumerate(data.get("slots", ())))
    groups = None
    if "groups" in data:
        g = data["groups"]
        gap = length(g["gap"], ("groups", "gap")) if "gap" in g else DEFAULT_GAP
        groups = Groups(g["columns"], g["rows"], gap, line(("groups",)))
    zones = tuple(Zone(z["label"], Colour.parse(z.get("colour", DEFAULT_ZONE_COLOUR)), z["groups"], line(("zones", k)))
                  for k, z in enumerate(data.get("zones", ())))
    prefix = ".".join(str(w) for w in where)
    return HandSheet(str(path), slots, groups, zones, page, margin, line(()), prefix + "." if prefix else "")


def load_sheet(path: str | Path) -> HandSheet:
    """Read and check a sheet file (``--sheet FILE``).

    Raises:
        CatalogueError: the file cannot be read, or is not a sheet (schema), naming its line and field.
    """
    path = Path(path)
    data, lines = read_yaml(path, ("sheet",))
    schemas.check(path, data, lines, "sheet")
    return hand_sheet(path, data, lines, ())
