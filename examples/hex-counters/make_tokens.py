"""Write tokens.xlsx, the counter list of this example, with openpyxl (run: python make_tokens.py).

One row per counter: its id, the unit's designation, its NATO-style type symbol, full and reduced
combat strength, movement allowance, side colour and how many copies to print. The back of each
counter (its reduced side) is drawn from the same row.
"""

from pathlib import Path

import openpyxl

ROWS = [
    ("id", "unit", "symbol", "strength", "reduced", "move", "colour", "copies"),
    ("blue-inf-1", "1/12", "⊠", 6, 3, 4, "#4f6fa8", 3),
    ("blue-inf-2", "2/12", "⊠", 6, 3, 4, "#4f6fa8", 3),
    ("blue-arm-1", "7 Pz", "●", 9, 5, 6, "#4f6fa8", 2),
    ("blue-art-1", "31 Art", "◆", 4, 2, 3, "#4f6fa8", 2),
    ("blue-hq", "HQ", "★", 1, 1, 5, "#4f6fa8", 1),
    ("red-inf-1", "45 Rgt", "⊠", 5, 2, 4, "#a84f4f", 4),
    ("red-arm-1", "3 Tk", "●", 8, 4, 6, "#a84f4f", 2),
    ("red-art-1", "9 Art", "◆", 5, 2, 3, "#a84f4f", 2),
    ("red-hq", "HQ", "★", 1, 1, 5, "#a84f4f", 1),
]


def main() -> None:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "counters"
    for row in ROWS:
        sheet.append(row)
    # a fixed timestamp keeps the file the same from run to run
    import datetime

    book.properties.created = book.properties.modified = datetime.datetime(2026, 1, 1)
    book.save(Path(__file__).with_name("tokens.xlsx"))


if __name__ == "__main__":
    main()
