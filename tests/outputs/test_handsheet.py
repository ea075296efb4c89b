"""Sheets laid out by hand (issue 41): a catalogue's ``sheet:`` or ``--sheet FILE`` places tokens
in slots by position (Squib's sprues), turned by quarter turns, or in blocks with gaps under
labelled zones (protograf's counter sheets).

Measured on the written files: the cut outlines read back with pdfplumber sit at the slots the
file names (0.01 pt), a turned slot's box is turned and its text runs up the page, blocks stand
the gap apart, a zone's label and band colour are on the sheet, the cut-svg paths sit at the
slots, and a punchboard with zones passes its own preflight with the die line at every slot.
"""

from __future__ import annotations

import re
from pathlib import Path

import pdfplumber
import pikepdf
import pytest

from tests.outputs.test_cut_dieline import die_paths
from tokengen.preflight.checks import preflight
from tokengen.sources.profiles import load_profiles

ROOT = Path(__file__).resolve().parents[2]
SPRUE = ROOT / "examples" / "sprue" / "tiles.yaml"
MM = 72 / 25.4
A4_HEIGHT = 297 * MM

COUNTERS = """\
title: Counters
size: 0.5in
fields:
  name: text
template:
  - {rect: fill, fill: "#6b8e23", bleed: true}
  - {text: "{name}", at: [0.5, 0.5], width: 0.8, size: 0.3, colour: "#ffffff"}
tokens:
  - {id: a, name: A, copies: 40}
sheet:
  groups: {columns: 4, rows: 2, gap: 8mm}
  zones:
    - {label: Germans, colour: "#8a9a5b", groups: 3}
    - {label: German Ukraine Reinf., colour: "#d9c27a", groups: 2}
"""

CARDS = ROOT / "examples" / "poker-cards" / "cards.yaml"
TURNED = """\
slots:
  - {at: [0.5in, 0.5in]}
  - {at: [4in, 0.5in], rotate: 90}
  - {at: [0.5in, 5in], rotate: 180}
  - {at: [4in, 5in], rotate: 270}
"""


def _boxes(page) -> list[tuple[float, float, float, float]]:
    """(x, top, width, height) pt of every stroked closed outline on the page, top-left origin."""
    shapes = [c for c in page.curves + page.rects if c.get("stroke")]
    return sorted((round(s["x0"], 3), round(s["top"], 3), round(s["x1"] - s["x0"], 3), round(s["bottom"] - s["top"], 3)) for s in shapes)


def test_the_hex_sprue_puts_nine_tiles_on_one_a4_where_its_slots_say(run, tmp_path):
    out = tmp_path / "tiles.pdf"
    result = run("build", str(SPRUE), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert "9 tokens (1 set) on 1 face page" in result.stdout
    slots = [(6.3, 10), (6.3, 86), (6.3, 162), (72.1, 48), (72.1, 124), (72.1, 200), (137.9, 10), (137.9, 86), (137.9, 162)]
    with pdfplumber.open(out) as pdf:
        page = pdf.pages[0]
        assert (page.width, page.height) == (pytest.approx(210 * MM, abs=0.01), pytest.approx(A4_HEIGHT, abs=0.01))
        boxes = _boxes(page)
    assert len(boxes) == 9
    across, corners = 65.8 * MM, 65.8 * MM * 2 / 3 ** 0.5
    for (x, top, w, h), (sx, sy) in zip(boxes, sorted(slots), strict=True):
        assert (x, top) == (pytest.approx(sx * MM, abs=0.01), pytest.approx(sy * MM, abs=0.01))
        assert (w, h) == (pytest.approx(across, abs=0.01), pytest.approx(corners, abs=0.01))


def test_a_turned_slot_holds_the_card_turned(run, tmp_path):
    sheet = tmp_path / "turned.yaml"
    sheet.write_text(TURNED, "utf-8")
    out = tmp_path / "cards.pdf"
    result = run("build", str(CARDS), "--sheet", str(sheet), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    w, h = 63 * MM, 88 * MM
    assert "8 tokens (1 set) on 2 face pages" in result.stdout  # 4 slots: the next sheet takes the same slots
    with pdfplumber.open(out) as pdf:
        for page in pdf.pages:
            boxes = _boxes(page)
            wanted = sorted([(36.0, 36.0, w, h), (288.0, 36.0, h, w), (36.0, 360.0, w, h), (288.0, 360.0, h, w)])
            assert len(boxes) == 4
            for got, want in zip(boxes, wanted, strict=True):
                assert got == tuple(pytest.approx(v, abs=0.01) for v in want)
            # the card's text runs up the page in the quarter-turned slot, upside down in the half-turned one
            turn: dict[tuple[bool, bool], set] = {}
            for char in page.chars:
                slot = (char["x0"] > 250, char["top"] > 340)
                turn.setdefault(slot, set()).add(tuple(round(v) for v in char["matrix"][:2]))
            assert turn == {(False, False): {(1, 0)}, (True, False): {(0, 1)}, (False, True): {(-1, 0)}, (True, True): {(0, -1)}}


def test_blocks_stand_the_gap_apart_and_zones_show_their_label_and_band(run, tmp_path):
    cat = tmp_path / "counters.yaml"
    cat.write_text(COUNTERS, "utf-8")
    out = tmp_path / "counters.pdf"
    result = run("build", str(cat), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    with pdfplumber.open(out) as pdf:
        page = pdf.pages[0]
        boxes = _boxes(page)
        words = page.extract_text()
        bands = [(r["non_stroking_color"], r["x0"], r["top"], r["bottom"]) for r in page.rects if r.get("fill") and r["height"] < 20]
    assert len(boxes) == 40 and {(bw, bh) for _, _, bw, bh in boxes} == {(36.0, 36.0)}
    first_row = sorted({x for x, top, _, _ in boxes if top == boxes[0][1]})
    # on Letter three blocks go across: 4 counters sharing edges, the 8 mm gap, 4 more, the gap, 4 more
    steps = [round(b - a, 3) for a, b in zip(first_row, first_row[1:])]
    gap = pytest.approx(36 + 8 * MM, abs=0.01)
    assert steps == [36.0, 36.0, 36.0, gap, 36.0, 36.0, 36.0, gap, 36.0, 36.0, 36.0]
    assert "Germans" in words and "German Ukraine Reinf." in words
    colours = {tuple(round(v, 3) for v in c) for c, _, _, _ in bands}
    assert (round(0x8a / 255, 3), round(0x9a / 255, 3), round(0x5b / 255, 3)) in colours
    assert (round(0xd9 / 255, 3), round(0xc2 / 255, 3), round(0x7a / 255, 3)) in colours
    # each band sits above its zone's first counters
    germans = next(b for b in bands if round(b[0][0], 3) == round(0x8a / 255, 3))
    assert germans[3] <= min(top for _, top, _, _ in boxes) - 2


def test_the_cut_file_follows_the_slots_turned(run, tmp_path):
    sheet = tmp_path / "spaced.yaml"
    sheet.write_text("slots:\n  - {at: [1in, 1in]}\n  - {at: [4in, 1in], rotate: 90}\n  - {at: [1in, 5.5in], rotate: 180}\n"
                     "  - {at: [4in, 5.5in], rotate: 270}\n", "utf-8")
    result = run("export", str(CARDS), "--sheet", str(sheet), "--profile", "cut-svg", "-o", str(tmp_path / "cut"), "--no-marks",
                 "--allow-preflight-failures")
    assert result.exit_code == 0, result.stderr
    svgs = sorted((tmp_path / "cut").glob("*.svg"))
    paths = re.findall(r' d="([^"]+)"', svgs[0].read_text("utf-8"))
    assert len(paths) == 4
    boxes = []
    for d in paths:
        points = [tuple(map(float, pair.split(","))) for pair in re.findall(r"-?[\d.]+,-?[\d.]+", d)]
        xs, ys = [x for x, _ in points], [y for _, y in points]
        boxes.append((round(min(xs), 2), round(min(ys), 2), round(max(xs) - min(xs), 2), round(max(ys) - min(ys), 2)))
    assert boxes == [(25.4, 25.4, 63.0, 88.0), (101.6, 25.4, 88.0, 63.0), (25.4, 139.7, 63.0, 88.0), (101.6, 139.7, 88.0, 63.0)]


def test_a_punchboard_with_zones_passes_its_own_preflight_with_the_die_at_every_slot(run, tmp_path):
    cat = tmp_path / "counters.yaml"
    cat.write_text(COUNTERS, "utf-8")
    result = run("export", str(cat), "--profile", "punchboard", "-o", str(tmp_path / "pb"))
    assert result.exit_code == 0, result.stderr
    board = tmp_path / "pb" / "counters-punchboard.pdf"
    checks = {c.name: c for c in preflight(board, load_profiles()["punchboard"])}
    assert all(c.passed for c in checks.values()), [c.message for c in checks.values() if not c.passed]
    with pikepdf.open(board) as pdf:
        space = pdf.pages[0].Resources.ColorSpace.CutContour
        assert [str(v) for v in list(space)[:2]] == ["/Separation", "/CutContour"]
        paths = die_paths(pdf.pages[0], "CutContour")
    with pdfplumber.open(board) as pdf:
        assert "Germans" in pdf.pages[0].extract_text()
    assert len(paths) == 40
    sizes = {(round(max(x for x, _ in p) - min(x for x, _ in p), 2), round(max(y for _, y in p) - min(y for _, y in p), 2)) for p in paths}
    assert sizes == {(36.0, 36.0)}


@pytest.mark.parametrize(("text", "message"), [
    ("slots:\n  - {at: [1in, 1in]}\n  - {at: [1.5in, 1.5in]}\n", "turned.yaml:3: slots[1]: the slot overlaps slots[0]"),
    ("slots:\n  - {at: [1in, 1in]}\n  - {at: [8in, 1in]}\n", "turned.yaml:3: slots[1]: the slot at [8in, 1in]"),
    ("slots:\n  - {at: [1in, 1in], rotate: 45}\n", "turned.yaml:2: slots[0].rotate:"),
    ("slots:\n  - {at: [1in, 1inch]}\n", "turned.yaml:2: slots[0].at[1]:"),
    ("groups: {columns: 2, rows: 2}\nslots:\n  - {at: [1in, 1in]}\n", "turned.yaml"),
])
def test_a_bad_sheet_is_one_line_naming_file_line_and_field(run, tmp_path, text, message):
    sheet = tmp_path / "turned.yaml"
    sheet.write_text(text, "utf-8")
    result = run("build", str(CARDS), "--sheet", str(sheet), "-o", str(tmp_path / "x.pdf"))
    assert result.exit_code != 0
    assert message in result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert not (tmp_path / "x.pdf").exists()


@pytest.mark.parametrize(("flag", "message"), [
    (["--columns", "2"], "tiles.yaml: a sheet laid out by hand (sheet:) places every token in its slot: --columns cannot change it"),
    (["--fold"], "tiles.yaml: a sheet laid out by hand (sheet:) covers the whole sheet: it cannot be combined with --fold"),
])
def test_what_a_hand_laid_sheet_cannot_show_is_refused_by_name(run, tmp_path, flag, message):
    result = run("build", str(SPRUE), *flag, "-o", str(tmp_path / "x.pdf"))
    assert result.exit_code == 2 and message in result.stderr and result.stderr.count("\n") == 1


def test_check_names_the_sheets_own_page(run):
    result = run("check", str(SPRUE))
    assert "9 tokens of 65.8mm hex fit on one 210mm × 297mm page" in result.stdout
