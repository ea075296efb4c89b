"""Sheets laid out by hand: slots placed by position (Squib's sprues) or blocks of tokens with
gaps between them under labelled zones (protograf's counter sheets). Pure geometry: no drawing.

A :class:`HandSheet` is what a catalogue's ``sheet:`` (or ``--sheet FILE``) says, its lengths
already in pt. :func:`placements` turns it into the slots of one page (footprints in PDF
coordinates, origin lower-left, y up) and the zones' colour bands; :func:`layout_page` fills the
first slots with a page's tokens as a :class:`~tokengen.geometry.imposition.PageLayout`, which
the page drawing (:func:`tokengen.outputs.build.draw_page`) consumes like any other. More tokens
than slots continue on the next page with the same slots.

Positions are given as Squib gives them (its sprue files' ``x``/``y``): from the page's top-left
corner to the slot's top-left corner, y downwards. ``rotate`` turns the token a quarter, half or
three-quarter turn anticlockwise; its footprint on the sheet is the turned box.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..errors import CatalogueError
from ..units import format_length, format_like
from .imposition import CROP_LENGTH, CROP_OFFSET, Cell, Line, PageLayout, Rect, SheetSpec

#: Height (pt) of a zone's colour band, drawn above the zone's first row of groups.
BAND_HEIGHT = 14.0
#: Clear space (pt) between a zone's band and the bleed of the counters below it.
BAND_CLEAR = 3.0
#: The turns a slot may take, degrees anticlockwise.
TURNS = (0, 90, 180, 270)


@dataclass(frozen=True)
class Slot:
    """One slot: ``x``, ``y`` pt from the page's top-left corner to the slot's top-left corner
    (y down, as Squib's sprues); ``rotate`` one of :data:`TURNS`; ``line`` its line in the file."""

    x: float
    y: float
    rotate: int = 0
    line: int | None = None


@dataclass(frozen=True)
class Groups:
    """Blocks of ``columns`` × ``rows`` tokens (neighbours the sheet's gutter apart), ``gap`` pt
    between blocks; ``line`` where ``groups:`` stands."""

    columns: int
    rows: int
    gap: float
    line: int | None = None


@dataclass(frozen=True)
class Zone:
    """A labelled part of a counter sheet: the next ``groups`` blocks, in order, under a band of
    ``colour`` (a :class:`tokengen.colour.Colour`) reading ``label``."""

    label: str
    colour: Any
    groups: int
    line: int | None = None


@dataclass(frozen=True)
class HandSheet:
    """A sheet laid out by hand, as read from ``source`` (for messages): ``slots`` by position,
    or ``groups`` (optionally split into ``zones``); ``page`` and ``margin`` (pt) override the
    build's when given (a sprue is drawn for one paper size)."""

    source: str
    slots: tuple[Slot, ...] = ()
    groups: Groups | None = None
    zones: tuple[Zone, ...] = ()
    page: tuple[float, float] | None = None
    margin: float | None = None
    line: int | None = None
    prefix: str = "sheet."  # how messages name its fields: "sheet." in a catalogue, "" in a sheet file


@dataclass(frozen=True)
class ZoneBand:
    """A zone's band on the page: ``rect`` pt (PDF coordinates), filled with ``colour``, with
    ``label`` written in it."""

    label: str
    colour: Any
    rect: Rect


@dataclass(frozen=True)
class Placed:
    """One slot on the page: ``trim`` its footprint (the turned box, PDF coordinates, pt) and
    ``rotate`` the turn of the token drawn in it."""

    trim: Rect
    rotate: int = 0


def token_box(spec: SheetSpec) -> tuple[float, float]:
    """(width, height) pt of one token's box, unturned."""
    return spec.size, spec.height or spec.size


def footprint(spec: SheetSpec, rotate: int) -> tuple[float, float]:
    """(width, height) pt a token takes on the sheet turned by ``rotate`` degrees."""
    w, h = token_box(spec)
    return (h, w) if rotate % 180 else (w, h)


def printable(spec: SheetSpec) -> Rect:
    """The part of the page inside the margin, pt."""
    width, height = spec.page
    return Rect(spec.margin, spec.margin, width - 2 * spec.margin, height - 2 * spec.margin)


def _fail(hand: HandSheet, line: int | None, field: str, message: str) -> CatalogueError:
    """The error naming the sheet's file, the line and the field (``sheet.slots[3]``)."""
    return CatalogueError(hand.source, message, line=line, field=field)


def placements(hand: HandSheet, spec: SheetSpec) -> tuple[tuple[Placed, ...], tuple[ZoneBand, ...]]:
    """The slots of one page, in fill order, and the zones' bands, pt.

    Raises:
        CatalogueError: a slot (with its bleed) lies outside the printable area or overlaps another
            slot, or the groups or a zone do not fit; the message names the file, the line and
            the slot (``sheet.slots[3]``) or zone.
    """
    if hand.groups is not None:
        placed, bands = _grouped(hand, hand.groups, spec)
    else:
        height = spec.page[1]
        placed = []
        for slot in hand.slots:
            w, h = footprint(spec, slot.rotate)
            placed.append(Placed(Rect(slot.x, height - slot.y - h, w, h), slot.rotate))
        bands = []
    _check(hand, placed, spec)
    return tuple(placed), tuple(bands)


def _check(hand: HandSheet, placed: list[Placed], spec: SheetSpec) -> None:
    area = printable(spec)
    lines = [s.line for s in hand.slots] if hand.groups is None else [hand.groups.line] * len(placed)
    name = f"{hand.prefix}slots" if hand.groups is None else f"{hand.prefix}groups"
    for k, p in enumerate(placed):
        if not area.contains(p.trim.grow(spec.bleed)):
            raise _fail(hand, lines[k], f"{name}[{k}]", f"the slot at {_at(p.trim, spec)} "
                              f"({format_length(p.trim.w)} × {format_like(p.trim.h, p.trim.w)}{' with its bleed' if spec.bleed else ''}) "
                              f"lies outside the printable area (a {format_length(spec.margin)} margin on a "
                              f"{format_length(spec.page[0])} × {format_length(spec.page[1])} page)")
    order = sorted(range(len(placed)), key=lambda k: placed[k].trim.x)
    for i, a in enumerate(order):  # sweep along x: each slot against those that start before it ends
        ra = placed[a].trim.grow(spec.bleed)
        for b in order[i + 1:]:
            rb = placed[b].trim.grow(spec.bleed)
            if rb.x >= ra.x1 - 1e-6:
                break
            if rb.y < ra.y1 - 1e-6 and ra.y < rb.y1 - 1e-6:
                first, second = sorted((a, b))
                what = "with their bleed " if spec.bleed else ""
                raise _fail(hand, lines[second], f"{name}[{second}]", f"the slot overlaps {name}[{first}] {what}"
                                  f"(at {_at(placed[second].trim, spec)} and {_at(placed[first].trim, spec)})")


def _at(trim: Rect, spec: SheetSpec) -> str:
    """A slot's position as the user gave it: ``[10mm, 20mm]`` from the page's top-left."""
    return f"[{format_length(trim.x)}, {format_length(spec.page[1] - trim.y1)}]"


def _grouped(hand: HandSheet, groups: Groups, spec: SheetSpec) -> tuple[list[Placed], list[ZoneBand]]:
    """Blocks of tokens flowing left to right, top to bottom, inside the printable area (with
    the bleed kept inside), ``gap`` apart; each zone starts a new row of blocks under its band."""
    w, h = token_box(spec)
    pitch_x, pitch_y = w + spec.gutter, h + spec.gutter
    gw = groups.columns * w + (groups.columns - 1) * spec.gutter
    gh = groups.rows * h + (groups.rows - 1) * spec.gutter
    if groups.gap + 1e-9 < 2 * spec.bleed:
        raise _fail(hand, groups.line, f"{hand.prefix}groups.gap", f"the gap {format_length(groups.gap)} is narrower than twice the bleed "
                    f"({format_length(2 * spec.bleed)}): neighbouring blocks' bleeds would overlap")
    area = printable(spec).grow(-spec.bleed)
    across = max(0, math.floor((area.w + groups.gap + 1e-6) / (gw + groups.gap)))
    if across < 1 or gh > area.h + 1e-6:
        raise _fail(hand, groups.line, f"{hand.prefix}groups", f"a block of {groups.columns} × {groups.rows} tokens "
                          f"({format_length(gw)} × {format_length(gh)}) does not fit the printable area "
                          f"({format_length(area.w)} × {format_length(area.h)} inside the margin and bleed)")
    x0 = area.x + (area.w - (across * gw + (across - 1) * groups.gap)) / 2
    zones: list[tuple[Zone | None, int]]
    if hand.zones:
        zones = [(z, z.groups) for z in hand.zones]
    else:
        down = max(1, math.floor((area.h + groups.gap + 1e-6) / (gh + groups.gap)))
        zones = [(None, across * down)]
    placed: list[Placed] = []
    bands: list[ZoneBand] = []
    top = area.y1
    for zone, count in zones:
        if zone is not None:
            band = Rect(x0 - spec.bleed, top + spec.bleed - BAND_HEIGHT, min(count, across) * (gw + groups.gap) - groups.gap + 2 * spec.bleed, BAND_HEIGHT)
            bands.append(ZoneBand(zone.label, zone.colour, band))
            top = band.y - BAND_CLEAR - spec.bleed
        rows = math.ceil(count / across)
        if top - rows * gh - (rows - 1) * groups.gap < area.y - 1e-6:
            line, field = (zone.line, f"{hand.prefix}zones[{hand.zones.index(zone)}]") if zone is not None else (groups.line, f"{hand.prefix}groups")
            raise _fail(hand, line, field, f"{count} block{'s' if count != 1 else ''} of {groups.columns} × {groups.rows} tokens do not fit "
                              f"the printable area below the zones before {'it' if zone is not None else 'them'}")
        for g in range(count):
            row, col = divmod(g, across)
            gx, gy1 = x0 + col * (gw + groups.gap), top - row * (gh + groups.gap)
            for k in range(groups.columns * groups.rows):
                r, c = divmod(k, groups.columns)
                placed.append(Placed(Rect(gx + c * pitch_x, gy1 - h - r * pitch_y, w, h)))
        top -= rows * gh + rows * groups.gap
    return placed, bands


def capacity(hand: HandSheet, spec: SheetSpec) -> int:
    """Tokens one page holds: its slots.

    Raises:
        CatalogueError: as :func:`placements`; also when the sheet has no slot.
    """
    placed, _ = placements(hand, spec)
    if not placed:
        raise _fail(hand, hand.line, hand.prefix.rstrip(".") or "slots", "the sheet has no slot")
    return len(placed)


def layout_page(number: int, indices: range, spec: SheetSpec) -> PageLayout:
    """Page ``number`` (0-based) with the tokens ``indices`` in the first slots of
    ``spec.hand``: one cell per token (``Cell.rotate`` its turn), each slot's cut outline turned
    with it (``cut_paths``, :func:`tokengen.geometry.shapes.outline`), crop marks at the corners
    of the block of used slots, the zones' bands (``zones``), and no calibration strip (the user
    places everything on a hand-laid sheet).

    Raises:
        CatalogueError: as :func:`placements`.
    """
    from .shapes import Shape, outline

    hand: HandSheet = spec.hand
    placed, bands = placements(hand, spec)
    cells = tuple(Cell(index, k, 0, placed[k].trim, spec.bleed, placed[k].rotate) for k, index in enumerate(indices))
    block = _union([c.trim for c in cells]) if cells else Rect(0.0, 0.0, 0.0, 0.0)
    shape = spec.shape or Shape()
    cut_paths = tuple(outline(turned(shape, c.rotate), c.trim) for c in cells) if spec.cut_lines else ()
    crop = _corner_marks(block, spec.bleed) if spec.crop_marks and cells else ()
    return PageLayout(number, spec.page, cells, block, crop_marks=crop, cut_paths=cut_paths, zones=bands)


def turned(shape: Any, rotate: int) -> Any:
    """``shape`` (a :class:`tokengen.geometry.shapes.Shape`) as it lies turned by ``rotate``:
    a hex turned a quarter turn swaps pointy and flat; every other shape is unchanged."""
    from dataclasses import replace

    if shape.kind == "hex" and rotate % 180:
        return replace(shape, orientation="flat" if shape.orientation == "pointy" else "pointy")
    return shape


def _corner_marks(block: Rect, bleed: float) -> tuple[Line, ...]:
    """Crop marks at the four corners of ``block``, clear of the bleed."""
    offset = max(CROP_OFFSET, bleed + 1.5) if bleed else CROP_OFFSET
    lo_y, hi_y, lo_x, hi_x = block.y - bleed - offset, block.y1 + bleed + offset, block.x - bleed - offset, block.x1 + bleed + offset
    marks = [Line(x, lo_y, x, lo_y - CROP_LENGTH) for x in (block.x, block.x1)] + [Line(x, hi_y, x, hi_y + CROP_LENGTH) for x in (block.x, block.x1)]
    marks += [Line(lo_x, y, lo_x - CROP_LENGTH, y) for y in (block.y, block.y1)] + [Line(hi_x, y, hi_x + CROP_LENGTH, y) for y in (block.y, block.y1)]
    return tuple(marks)


def _union(rects: list[Rect]) -> Rect:
    x0, y0 = min(r.x for r in rects), min(r.y for r in rects)
    x1, y1 = max(r.x1 for r in rects), max(r.y1 for r in rects)
    return Rect(x0, y0, x1 - x0, y1 - y0)
