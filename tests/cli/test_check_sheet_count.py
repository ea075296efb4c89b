"""``tokengen check`` counts the tokens a sheet holds as ``build`` lays them out (one pager:
:func:`tokengen.geometry.pager.fits`), read back from the built PDF."""

from __future__ import annotations

import json

import pdfplumber

from tests.conftest import ROOT

POKER = ROOT / "examples" / "poker-cards" / "cards.yaml"
CARD = (63 / 25.4 * 72, 88 / 25.4 * 72)  # 63 × 88 mm, pt


def _cards_on(path, page: int) -> int:
    """Card faces (filled 63 × 88 mm rectangles) drawn on ``page`` of the PDF at ``path``."""
    with pdfplumber.open(path) as pdf:
        return sum(1 for r in pdf.pages[page].rects
                   if r["fill"] and abs(r["width"] - CARD[0]) < 0.05 and abs(r["height"] - CARD[1]) < 0.05)


def test_check_counts_the_cards_a_built_page_holds(run, tmp_path):
    checked = run("check", str(POKER), "--format", "json")
    assert checked.exit_code == 0, checked.stderr
    sheet = next(f for f in json.loads(checked.stdout)["findings"] if f["code"] == "sheet")
    out = tmp_path / "poker.pdf"
    built = run("build", str(POKER), "--copies", "2", "-o", str(out))  # 16 cards: a full first page
    assert built.exit_code == 0, built.stderr
    assert sheet["data"]["per_page"] == _cards_on(out, 0) == 9
    assert (sheet["data"]["columns"], sheet["data"]["rows"]) == (3, 3)


def test_check_sentence_names_nine_cards(run):
    result = run("check", str(POKER))
    assert result.exit_code == 0, result.stderr
    assert f"{POKER}: info sheet: 9 tokens of 63mm × 88mm rounded fit on one 8.5in × 11in page" in result.stdout.splitlines()


THREE = """\
title: Three
size: 63mmx88mm
fields:
  name: text
template:
  - {rect: fill, fill: "#dde4ee"}
  - {text: "{name}", at: [0.5, 0.5], width: 0.8, size: 0.1}
tokens:
  - {id: a, name: A}
  - {id: b, name: B}
  - {id: c, name: C}
"""


def test_fill_places_as_many_sets_as_copies_can_and_check_says_so(run, tmp_path):
    """3 cards of 63 × 88 mm on Letter: 6 under a foot strip, 9 beside a side strip. ``--copies 3``
    moves the strip up the side to put 9 on one page; ``--fill`` does as well, and ``check`` says 9."""
    catalogue = tmp_path / "three.yaml"
    catalogue.write_text(THREE, "utf-8")
    copies = run("build", str(catalogue), "--copies", "3", "-o", str(tmp_path / "copies.pdf"))
    filled = run("build", str(catalogue), "--fill", "-o", str(tmp_path / "fill.pdf"))
    assert copies.exit_code == filled.exit_code == 0, filled.stderr
    assert filled.stdout.splitlines()[0] == f"wrote {tmp_path / 'fill.pdf'}: 9 tokens (3 sets) on 1 face page"
    assert _cards_on(tmp_path / "fill.pdf", 0) == _cards_on(tmp_path / "copies.pdf", 0) == 9
    checked = run("check", str(catalogue))
    assert f"{catalogue}: info sheet: 9 tokens of 63mm × 88mm card fit on one 8.5in × 11in page" in checked.stdout.splitlines()
