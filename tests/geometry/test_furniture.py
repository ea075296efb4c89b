"""Issues 14 and 15: sheet furniture (calibration ruler, its note, page captions, back-sheet captions,
alignment-page scales) lies inside the page on every page size the tokens fit, from 3 × 3 in to
tabloid, portrait and landscape; the ruler has numbers; furniture in the outer 4 mm warns."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest

from tests.conftest import CATALOGUE
from tokengen.geometry import furniture
from tokengen.geometry.imposition import Rect

PAGES = ["3inx3in", "3inx5in", "4inx6in", "5inx7in", "letter", "a4", "legal", "tabloid"]
MARGIN = 18.0  # the default 0.25 in


def inside(x0: float, top: float, x1: float, bottom: float, page, margin: float, tol: float = 0.05) -> bool:
    return x0 >= margin - tol and x1 <= page.width - margin + tol and top >= margin - tol and bottom <= page.height - margin + tol


@pytest.mark.parametrize("landscape", [False, True], ids=["portrait", "landscape"])
@pytest.mark.parametrize("page_name", PAGES)
def test_every_glyph_and_mark_of_the_furniture_lies_inside_the_margin(run, tmp_path: Path, page_name: str, landscape: bool):
    out = tmp_path / "s.pdf"
    args = ["build", str(CATALOGUE), "-o", str(out), "--page", page_name, "--backs", "--crop-marks"]
    result = run(*args, *(["--landscape"] if landscape else []))
    assert result.exit_code == 0, result.stderr
    with pdfplumber.open(out) as pdf:
        assert len(pdf.pages) >= 2
        for page in pdf.pages:
            outside = [c["text"] for c in page.chars if not inside(c["x0"], c["top"], c["x1"], c["bottom"], page, MARGIN)]
            assert outside == [], f"page {page.page_number}: {''.join(outside)!r} outside the margin"
            for r in page.rects:  # the ruler bar, token backgrounds, home bleed: on the page
                assert inside(r["x0"], r["top"], r["x1"], r["bottom"], page, 0.0)
            for ln in page.lines:  # cut guides and crop marks may enter the margin, never leave the page
                assert inside(ln["x0"], ln["top"], ln["x1"], ln["bottom"], page, 0.0)
        # the note and a caption are on the first face page whatever its size
        text = pdf.pages[0].extract_text()
        assert "Print at 100%" in text and "page 1 of" in text
        assert "back of sheet 1 of" in pdf.pages[1].extract_text()
    assert "left out" not in result.stderr
    assert "4mm" not in result.stderr


def test_the_note_no_longer_runs_off_a_4x6_page(run, tmp_path: Path):
    out = tmp_path / "s.pdf"
    assert run("build", str(CATALOGUE), "-o", str(out), "--page", "4inx6in").exit_code == 0
    with pdfplumber.open(out) as pdf:
        page = pdf.pages[0]
        note = [c for c in page.chars if c["bottom"] > page.height - MARGIN - 22 and c["size"] > 4.5]
        assert note and max(c["x1"] for c in note) <= page.width - MARGIN
        assert all(c["size"] >= furniture.MIN_TEXT - 1e-6 for c in page.chars)


def test_ruler_has_numbers_at_0_and_1in_and_every_10mm(run, tmp_path: Path):
    out = tmp_path / "s.pdf"
    assert run("build", str(CATALOGUE), "-o", str(out)).exit_code == 0
    with pdfplumber.open(out) as pdf:
        page = pdf.pages[0]
        [bar] = [r for r in page.rects if r["stroke"] and not r["fill"] and abs(r["height"] - 5) < 1e-6]
        assert bar["width"] == pytest.approx(72.0, abs=1e-3)
        labels = sorted((c for c in page.chars if abs(c["size"] - furniture.LABEL_SIZE) < 0.01), key=lambda c: (round(c["top"]), c["x0"]))
        words: list[list[dict]] = []
        for c in labels:  # glyphs of one label: same line, closer than 3 pt
            if words and round(words[-1][-1]["top"]) == round(c["top"]) and c["x0"] - words[-1][-1]["x1"] < 3:
                words[-1].append(c)
            else:
                words.append([c])
        centres = {"".join(c["text"] for c in w): (w[0]["x0"] + w[-1]["x1"]) / 2 for w in words}
    assert sorted(centres) == ["0", "1 in", "10", "20 mm"]  # the two 0s share a key
    # the labels sit centred on their ticks: 0 and 1 in above the bar, 0, 10 and 20 mm below it
    assert centres["1 in"] == pytest.approx(bar["x1"], abs=0.5)
    assert centres["10"] == pytest.approx(bar["x0"] + 10 * 72 / 25.4, abs=0.5)
    assert centres["20 mm"] == pytest.approx(bar["x0"] + 20 * 72 / 25.4, abs=0.5)


def fake_measure(text: str, size: float) -> float:
    return 0.55 * size * len(text)  # about DejaVu Sans' average advance


def test_calibration_layout_shrinks_then_shortens_then_leaves_out():
    wide = furniture.calibration(Rect(18, 18, 576, 22), ["a caption"], fake_measure)
    assert wide.note.text == furniture.NOTES[0] and wide.note.size == furniture.TEXT_SIZE and wide.warnings == ()
    # a narrow page: the fullest note does not fit even at 5 pt: the next wording, shrunk as needed
    mid = furniture.calibration(Rect(18, 18, 300, 22), ["x" * 40, "short"], fake_measure)
    assert mid.note.text == furniture.NOTES[1] and furniture.MIN_TEXT <= mid.note.size < furniture.TEXT_SIZE
    assert mid.caption.text == "x" * 40 and mid.warnings == ()
    for t in mid.texts:
        assert t.x + fake_measure(t.text, t.size) <= 18 + 300 + 1e-6
    # too narrow for any note: left out, and the warning names it
    narrow = furniture.calibration(Rect(0, 0, 120, 22), ["p" * 60], fake_measure)
    assert narrow.note is None and narrow.caption is None and narrow.ruler is not None
    assert narrow.warnings == (f"calibration note left out ('{furniture.NOTES[-1]}'): the page is too narrow",
                               "page captions left out (sheet number and title): the page is too narrow")
    # narrower than the ruler: the ruler goes, the caption takes its place
    tiny = furniture.calibration(Rect(0, 0, 60, 22), ["p 1"], fake_measure)
    assert tiny.ruler is None and tiny.caption.text == "p 1" and tiny.warnings[0].startswith("calibration ruler left out")


def test_every_piece_of_the_strip_stays_in_the_strip():
    for width in (60.0, 120.0, 180.0, 252.0, 576.0, 1200.0):
        strip = Rect(10, 10, width, 22)
        plan = furniture.calibration(strip, ["Meatshields · page 1 of 2 · 18 tokens", "page 1 of 2"], fake_measure)
        for box in furniture.boxes(plan, fake_measure):
            assert strip.contains(box, tol=1e-6), (width, box)


def test_back_caption_fits_or_says_why():
    band = Rect(40, 60, 136, 200)
    text, warning = furniture.back_caption((216.0, 360.0), 18.0, band, ["a" * 200, "back of sheet 1 of 2"], fake_measure)
    assert warning is None and text.text == "back of sheet 1 of 2" and text.y == 26.0
    full = Rect(18, 20, 180, 330)
    assert furniture.back_caption((216.0, 360.0), 18.0, full, ["x"], fake_measure) == (
        None, "back sheet caption left out: the back block leaves no clear margin above or below it")
    # margin 0: the caption still keeps out of the outer 4 mm
    text, _ = furniture.back_caption((216.0, 360.0), 0.0, band, ["x"], fake_measure)
    assert text.x >= furniture.UNPRINTABLE and text.y - 0.24 * text.size >= furniture.UNPRINTABLE


def test_margin_0_warns_that_the_ruler_is_in_the_outer_4mm(run, tmp_path: Path):
    result = run("build", str(CATALOGUE), "-o", str(tmp_path / "m.pdf"), "--margin", "0")
    assert result.exit_code == 0
    assert result.stderr == ("tokengen: warning: sheet furniture lies within 4mm of the page edge, where most printers "
                             "cannot print (a margin of 4mm or more keeps them clear)\n")
    result = run("build", str(CATALOGUE), "-o", str(tmp_path / "m.pdf"), "--margin", "0", "--columns", "0", "--fill",
                 "--page", "6inx4in")
    assert "tokens and sheet furniture lie within 4mm of the page edge" in result.stderr
    assert run("build", str(CATALOGUE), "-o", str(tmp_path / "m.pdf"), "--margin", "4mm").stderr == ""


# -- the duplex alignment page ------------------------------------------------------------------

@pytest.mark.parametrize("landscape", [False, True], ids=["portrait", "landscape"])
@pytest.mark.parametrize("page_name", ["3inx3in", "3inx5in", "4inx6in", "letter", "a4", "tabloid"])
def test_alignment_page_scales_and_text_lie_inside_the_page(run, tmp_path: Path, page_name: str, landscape: bool):
    out = tmp_path / "align.pdf"
    result = run("align", "-o", str(out), "--page", page_name, *(["--landscape"] if landscape else []))
    assert result.exit_code == 0, result.stderr
    with pdfplumber.open(out) as pdf:
        for page in pdf.pages:
            outside = [c["text"] for c in page.chars if not inside(c["x0"], c["top"], c["x1"], c["bottom"], page, 0.0)]
            assert outside == [], f"page {page.page_number}: {''.join(outside)!r} off the page"
            assert all(c["size"] >= furniture.MIN_TEXT - 1e-6 for c in page.chars if c["size"] > 4.6)  # scale labels are 4.5 pt
            for ln in page.lines + page.curves:
                assert inside(ln["x0"], ln["top"], ln["x1"], ln["bottom"], page, 0.0)
            # no two glyphs overlap (the instructions never run over each other, the title or a label)
            glyphs = [c for c in page.chars if c["text"].strip()]
            for i, a in enumerate(glyphs):
                for b in glyphs[i + 1:]:
                    ox = min(a["x1"], b["x1"]) - max(a["x0"], b["x0"])
                    oy = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
                    assert ox <= 0.5 or oy <= 0.3 * min(a["size"], b["size"]), (a["text"], b["text"], a["x0"], a["top"])
    if page_name in ("letter", "a4", "tabloid"):
        assert result.stderr == ""  # the full test fits


def test_alignment_layout_on_letter_is_the_classic_one():
    from tokengen.geometry import alignlayout

    plan = alignlayout.layout((612.0, 792.0))
    assert plan.inset == 90.0 and len(plan.targets) == 5 and plan.warnings == ()
    assert plan.hruler == pytest.approx(((612 - 100 * 72 / 25.4) / 2, 90 + 33 + 9, 100))
    assert plan.vruler[2] == 100 and plan.vruler[0] == 612 - 90 + 6


def test_alignment_layout_on_a_3x3_page_keeps_the_centre_target_and_says_what_went():
    from tokengen.geometry import alignlayout

    plan = alignlayout.layout((216.0, 216.0))
    assert plan.targets == ((108.0, 108.0),)
    assert plan.warnings[0].startswith("alignment corner targets left out")
    lines, warnings = alignlayout.set_text(plan.text_region, ["a very long title " * 5, "T"],
                                           [("one", "word " * 10), ("two", "word " * 400)], fake_measure, fake_measure)
    assert lines[0].text == "T" and any(t.text.startswith("word") for t in lines)
    assert warnings == ["alignment test instructions left out for lack of room: two (see tokengen align --help)"]
    for box in alignlayout.boxes(lines, fake_measure, fake_measure):
        assert plan.text_region.contains(box, tol=1e-6)
