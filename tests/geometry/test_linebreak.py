"""tokengen.geometry.linebreak against Unicode's own line-breaking test data (UAX #14's
LineBreakTest.txt): every case whose characters the bundled font carries, in a script tokengen
sets, gives exactly the break opportunities Unicode lists."""

from __future__ import annotations

from pathlib import Path

from reportlab.pdfbase import pdfmetrics

from tokengen.geometry import linebreak
from tokengen.sources import fonts, scripts

DATA = Path(__file__).parents[1] / "data" / "unicode" / "LineBreakTest-dejavu.txt"


def _cases() -> list[tuple[str, list[int]]]:
    """(text, the positions after which a break is allowed) for each case of the file."""
    cases = []
    for line in DATA.read_text(encoding="utf-8").splitlines():
        body = line.split("#")[0].split()
        if not body:
            continue
        text, breaks = "", []
        for token in body[1:]:  # the first mark is the (never) break before the text
            if token == "÷":
                breaks.append(len(text))
            elif token != "×":
                text += chr(int(token, 16))
        cases.append((text, breaks))
    return cases


def test_the_cases_kept_are_those_the_font_and_the_scripts_allow():
    fonts.register()
    covered = pdfmetrics.getFont(fonts.REGULAR).face.charToGlyph
    cases = _cases()
    assert len(cases) == 3703
    assert all(ord(ch) in covered for text, _ in cases for ch in text)
    assert not any(scripts.unsupported(text) for text, _ in cases)


def test_every_applicable_line_break_test_case_passes():
    wrong = [(text, linebreak.opportunities(text), breaks) for text, breaks in _cases()
             if linebreak.opportunities(text) != breaks]
    assert wrong == []
