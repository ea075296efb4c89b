"""Text on a circle is kerned as the font kerns it (issue 36: "a kerned pair's advance in the PDF
equals the font's"). Measured: on a very large circle (where the arc is all but straight) the
origins of T and o in "To" lie the font's kerned advance apart, and those of an unkerned pair
their plain advance apart."""

from __future__ import annotations

import math

import pytest
from reportlab.pdfbase import pdfmetrics

from tokengen.faces import figures
from tokengen.sources import fonts


@pytest.mark.parametrize("text", ["To", "AV", "ab"])
def test_a_pair_on_an_arc_lies_its_kerned_advance_apart(text):
    fonts.register_family()
    font, size = fonts.REGULAR, 20.0
    laid = figures.set_arc(text, font, size, 0.0, (0.0, 0.0), 100_000.0, 0.0, None, "left", "outside", True, False)
    first, second = laid.glyphs[:2]
    apart = math.hypot(second.x - first.x, second.y - first.y)
    expected = (pdfmetrics.stringWidth(text[0], font, size) + fonts.kerns(text, font)[0] * size)
    assert apart == pytest.approx(expected, abs=0.01)
    if text != "ab":
        assert fonts.kerns(text, font)[0] < 0  # the pair is kerned: the test measures kerning
