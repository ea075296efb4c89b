"""Gradient fills on one-line text (issue 40): ``fill: {gradient: [...]}`` on a text clips to its
glyphs (PDF text render mode 7) and paints the gradient over the text's box. Measured: the
rendered word's first letter takes the gradient's first colour and its last letter the last; the
content stream clips with ``7 Tr`` and paints with ``sh``; the text still extracts; an outline is
stroked over it; a print-shop export of it passes its preflight; a boxed text or a plain colour
under ``fill`` is refused at its line."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

CATALOGUE = """title: Gradient text
size: 2in
fields:
  name: text
template:
  - {{rect: fill, fill: "#ffffff"}}
  - {{text: "{{name}}", at: [0.5, 0.5], size: 0.3, {extra}}}
tokens:
  - {{id: a, name: WWWW}}
"""

RED_TO_BLUE = 'fill: {gradient: ["#ff0000", "#0000ff"], angle: 90}'


def _build(run, tmp_path, extra=RED_TO_BLUE, *args):
    path = tmp_path / "cat.yaml"
    path.write_text(CATALOGUE.format(extra=extra), "utf-8")
    return run("build", str(path), "-o", str(tmp_path / "cat.pdf"), "--columns", "1", "--no-cut-lines", *args)


def _ink(tmp_path):
    """The built page rendered at 144 DPI."""
    page = pdfium.PdfDocument(str(tmp_path / "cat.pdf"))[0]
    image = page.render(scale=2).to_pil().convert("RGB")
    return image


def test_a_gradient_text_runs_from_its_first_colour_to_its_last(run, tmp_path):
    result = _build(run, tmp_path)
    assert result.exit_code == 0, result.stderr
    reader = PdfReader(tmp_path / "cat.pdf")
    assert "WWWW" in reader.pages[0].extract_text()
    stream = b"".join(x.get_object().get_data() for x in reader.pages[0]["/Resources"]["/XObject"].values()
                      if x.get_object().get("/Subtype") == "/Form")
    assert b" 7 Tr" in stream and b" sh" in stream
    image = _ink(tmp_path)
    pixels = [(x, image.getpixel((x, y))) for y in range(0, image.height, 2) for x in range(image.width)
              if sum(image.getpixel((x, y))) < 600 and y < image.height * 0.8]
    assert pixels, "the text drew nothing"
    xs = [x for x, _ in pixels]
    left = [c for x, c in pixels if x < min(xs) + (max(xs) - min(xs)) * 0.15]
    right = [c for x, c in pixels if x > max(xs) - (max(xs) - min(xs)) * 0.15]
    assert all(r > b + 60 for r, _, b in left)  # the first letter red
    assert all(b > r + 60 for r, _, b in right)  # the last letter blue


def test_an_outlined_gradient_text_strokes_its_glyphs_too(run, tmp_path):
    result = _build(run, tmp_path, RED_TO_BLUE + ', stroke: "#00ff00"')
    assert result.exit_code == 0, result.stderr
    reader = PdfReader(tmp_path / "cat.pdf")
    stream = b"".join(x.get_object().get_data() for x in reader.pages[0]["/Resources"]["/XObject"].values()
                      if x.get_object().get("/Subtype") == "/Form")
    assert b" 7 Tr" in stream and b" 1 Tr" in stream


def test_a_print_shop_export_of_gradient_text_passes_its_preflight(run, tmp_path):
    (tmp_path / "cat.yaml").write_text(CATALOGUE.format(extra=RED_TO_BLUE), "utf-8")
    result = run("export", str(tmp_path / "cat.yaml"), "--profile", "print-shop", "-o", str(tmp_path / "shop"))
    assert result.exit_code == 0, result.stderr
    assert "passes every check" in result.stdout


@pytest.mark.parametrize("extra, message", [
    ('box: [0.1, 0.1, 0.8, 0.3], ' + RED_TO_BLUE, "fill: 'fill' is for a one-line text"),
    ('fill: "#ff0000"', "fill: a text's fill is a gradient"),
])
def test_a_fill_a_text_cannot_take_is_refused_at_its_line(run, tmp_path, extra, message):
    result = _build(run, tmp_path, extra)
    assert result.exit_code == 2 and f"cat.yaml:7: template[1].{message}" in result.stderr, result.stderr
    assert not (tmp_path / "cat.pdf").exists()
