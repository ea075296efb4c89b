"""Tabletop Simulator deck sheets: how many cards go on each sheet image, and where. Pure, no drawing.

Tabletop Simulator cuts a custom deck's face image (a "card sheet") into a grid of ``NumWidth``
columns × ``NumHeight`` rows, at most 10 × 7 (its API: ``width`` "defaults to 10", ``height``
"defaults to 7", api.tabletopsimulator.com, "Custom Deck"; its deck builders take "1x1 to
10x7"). Cards are read left to right, top to bottom, so card ``i`` of a sheet (0-based) sits in
column ``i % columns``, row ``i // columns``, and its ``CardID`` is ``deck key × 100 + i`` (the
save format: the ``CustomDeck`` "key matches the hundreth place of the id (ex. id = 354,
index = 3)", kb.tabletopsimulator.com, "Save File Format").

TTS shows a card's "hidden" face (in another player's hand, or face down in some views) either
from the last slot of the sheet ("Card sheets use the last image on a card sheet for a 'hidden'
image", kb.tabletopsimulator.com, "Custom Deck") or, with ``BackIsHidden`` set, from the card's
back instead "of the last slot of the face image" (api.tabletopsimulator.com, "Custom Deck",
``back_is_hidden``). tokengen always sets ``BackIsHidden`` (a hidden card shows its back, as a
real one does), so no slot is kept free: a full 10 × 7 sheet holds 70 cards.

Sheets are also kept within TTS's texture size: the knowledge base advises keeping "the
dimensions of your images under 4096x4096" (kb.tabletopsimulator.com, "Asset Creation",
"Max Resolution"; it recommends 4096 × 4096 for a deck sheet), so a sheet has no more columns
than fit 4096 px of cells, nor more rows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..errors import LayoutError

#: Tabletop Simulator's largest card-sheet grid: columns and rows.
MAX_COLUMNS = 10
MAX_ROWS = 7
#: Longest side, px, of any image written for TTS (the knowledge base's "under 4096x4096").
MAX_IMAGE_SIDE = 4096


@dataclass(frozen=True)
class DeckSheet:
    """One card sheet: ``columns`` × ``rows`` cells of ``cell`` (w, h) px; ``cards`` the catalogue
    indices (0-based, of the card designs) in sheet order, from slot 0; cells after the last card
    stay empty."""

    columns: int
    rows: int
    cell: tuple[int, int]
    cards: tuple[int, ...]

    @property
    def size(self) -> tuple[int, int]:
        """The sheet image's (width, height), px."""
        return self.columns * self.cell[0], self.rows * self.cell[1]

    def box(self, slot: int) -> tuple[int, int, int, int]:
        """The (left, top, right, bottom) px of ``slot`` (0-based, left to right, top to bottom)."""
        x, y = slot % self.columns * self.cell[0], slot // self.columns * self.cell[1]
        return x, y, x + self.cell[0], y + self.cell[1]


def deck_sheets(count: int, cell: tuple[int, int], max_side: int = MAX_IMAGE_SIDE) -> list[DeckSheet]:
    """Tile ``count`` card designs of ``cell`` (w, h) px into TTS card sheets.

    Each sheet takes as many cards as its grid holds (no slot is reserved: the deck sets
    ``BackIsHidden``); the grid has at most :data:`MAX_COLUMNS` columns and :data:`MAX_ROWS`
    rows, and no more of either than keeps the sheet within ``max_side`` px. A sheet with fewer
    cards is made no larger than it needs: as many columns as its cards fill (up to the most),
    then the rows they need.

    Returns:
        The sheets in order; the cards are 0 … ``count`` − 1 in catalogue order.
    Raises:
        LayoutError: a cell is larger than ``max_side`` px (lower the DPI).
    """
    if count < 1:
        return []
    width, height = cell
    most_columns = min(MAX_COLUMNS, max_side // width)
    most_rows = min(MAX_ROWS, max_side // height)
    if most_columns < 1 or most_rows < 1:
        raise LayoutError(f"a card image of {width} x {height} px is larger than Tabletop Simulator's {max_side} px; lower --dpi")
    per_sheet = most_columns * most_rows
    sheets: list[DeckSheet] = []
    for start in range(0, count, per_sheet):
        cards = tuple(range(start, min(count, start + per_sheet)))
        columns = min(most_columns, len(cards))
        rows = math.ceil(len(cards) / columns)
        sheets.append(DeckSheet(columns=columns, rows=rows, cell=cell, cards=cards))
    return sheets
