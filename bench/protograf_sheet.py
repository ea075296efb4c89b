"""The Meatshields sheet drawn with protograf, for the comparison in bench.py.

Run in the benchmark venv (.venv-bench, with protograf==0.5.2):
    python protograf_sheet.py COPIES OUT.pdf
Each of the 18 designs appears COPIES times: 1 in square tokens on letter paper with a 0.25 in
margin, a background, a rounded frame, the priority glyph, the attribute code and the caption,
and grid (cut) marks: the same face as tokengen draws (fonts are protograf's defaults).
"""

import sys

from protograf import Card, Create, Data, Deck, Save, T, rectangle, text

ATTRIBUTES = [("AGI", "Agility"), ("CON", "Constitution"), ("MAG", "Magic"),
              ("MRL", "Morale"), ("PER", "Perception"), ("STR", "Strength")]
GLYPHS = ["\u2193", "\u2191", "\u2193\u2191"]

copies = int(sys.argv[1])
out = sys.argv[2]
del sys.argv[1:]  # protograf's Create() parses the command line itself
rows = [["CODE", "GLYPH", "CAPTION"]]
for code, name in ATTRIBUTES:
    for glyph in GLYPHS:
        rows += [[code, glyph, name]] * copies

Create(filename=out, paper="Letter", units="in", margin=0.25)
Data(data_list=rows)
Deck(cards=len(rows) - 1, width=1, height=1, fill="#efe4c8", grid_marks=True)
Card("*",
     rectangle(x=0.08, y=0.08, width=0.84, height=0.84, rounding=0.08, stroke="#8b2e16", stroke_width=1.3, fill=None),
     text(text=T("{{ GLYPH }}"), x=0.5, y=0.3, font_size=26, stroke="#8b2e16"),
     text(text=T("{{ CODE }}"), x=0.5, y=0.6, font_size=18, stroke="#231a14"),
     text(text=T("{{ CAPTION }}"), x=0.5, y=0.8, font_size=7.5, stroke="#231a14"))
Save()
