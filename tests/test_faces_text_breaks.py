"""Where boxed text breaks its lines (tokengen.faces.textbox), read back from the PDF it draws:
after a word's own hyphen before any split inside a word, at pyphen's hyphenation points for a
declared language, between CJK ideographs (UAX #14), and never between an inline icon and the
punctuation after it."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
from reportlab.pdfgen import canvas

from tokengen.faces import textbox


def _printed(tmp_path: Path, laid: textbox.Laid, name: str = "t.pdf") -> tuple[list[str], set[float]]:
    """(the printed lines, top to bottom, as pdfplumber reads them; the font sizes of every char)."""
    path = tmp_path / name
    c = canvas.Canvas(str(path), pagesize=(400, 400), invariant=1)
    textbox.draw(c, laid, 10, 10)
    c.save()
    with pdfplumber.open(path) as pdf:
        page = pdf.pages[0]
        lines = page.extract_text(x_tolerance=1.5).splitlines()
        sizes = {round(ch["size"], 2) for ch in page.chars}
    return lines, sizes


def test_a_word_breaks_after_its_own_hyphen_at_a_fixed_size(tmp_path: Path):
    laid = textbox.fit_box("well-known counter-attack", 100, 200, size=14.4, fit=False)
    lines, sizes = _printed(tmp_path, laid)
    assert lines == ["well-known", "counter-", "attack"]  # was "well-known c" / "ounter-attack"
    assert sizes == {14.4}


def test_a_hyphen_break_comes_before_shrinking(tmp_path: Path):
    laid = textbox.fit_box("Center-aligned", 70, 40, size=14.4)
    lines, sizes = _printed(tmp_path, laid)
    assert lines == ["Center-", "aligned"]
    assert sizes == {14.4}  # was shrunk to 8.09 pt to keep the word whole on one line


def test_a_hyphen_break_in_a_word_of_two_styles(tmp_path: Path):
    laid = textbox.fit_box("x well-known **counter**-attack", 100, 200, size=14.4, fit=False)
    lines, _ = _printed(tmp_path, laid)
    assert lines == ["x well-known", "counter-", "attack"]
