"""The built-in ``meatshield`` template draws the Meatshields faces exactly as the hand-written
face code did (kept as the reference in tests/legacy_face.py): both are built, rendered with
pypdfium2 and compared pixel by pixel (plain faces, art inside the frame, art over the bleed
with a print-shop safe area)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from tests.faces.test_art import catalogue_with_art, png
from tests.legacy_face import LegacySheetCanvas
from tokengen import BuildOptions, SheetSpec, build_pdf, load_catalogue
from tokengen.sources import fonts
from tokengen.sources.template import builtin, token_values
from tokengen.units import parse_page

LETTER = parse_page("letter")


def legacy_build(monkeypatch, cat, options, out):
    """Build with the old hand-written face code."""
    import tokengen.outputs.build

    with monkeypatch.context() as m:
        m.setattr(tokengen.outputs.build, "SheetCanvas", LegacySheetCanvas)
        build_pdf(cat, options, out)


def pixels(pdf: Path, scale: float = 4.0) -> list[bytes]:
    doc = pdfium.PdfDocument(pdf)
    try:
        return [page.render(scale=scale).to_pil().convert("RGB").tobytes() for page in doc]
    finally:
        doc.close()


@pytest.mark.parametrize("case", ["plain", "art", "art-bleed-safe"])
def test_meatshield_template_is_pixel_identical(tmp_path, catalogue_path, case, monkeypatch):
    path = catalogue_path
    spec = SheetSpec(page=LETTER, size=72.0)
    options = {}
    if case.startswith("art"):
        png(tmp_path / "face.png", (400, 400))
        path = catalogue_with_art(tmp_path, catalogue_path, face="face.png")
    if case == "art-bleed-safe":
        spec = SheetSpec(page=LETTER, size=72.0, gutter=18.0, bleed=9.0)
        options = {"safe": 9.0}
    cat = load_catalogue(path)
    if case == "art-bleed-safe":  # laid out for that safe area (a larger one than the design's scales the whole face)
        cat = dataclasses.replace(cat, safe_area=9.0)
    old, new = tmp_path / "old.pdf", tmp_path / "new.pdf"
    legacy_build(monkeypatch, cat, BuildOptions(sheet=spec, **options), old)
    # the legacy renderer sets no kerning; template text is kerned by its font (fonts.kerns),
    # left out here so that the comparison is of the template's layout alone
    monkeypatch.setattr(fonts, "kerns", lambda text, font: (0.0,) * len(text))
    build_pdf(cat, BuildOptions(sheet=spec, **options), new)  # the faces come from the built-in template
    before, after = pixels(old), pixels(new)
    assert len(before) == len(after) == 1
    assert before == after
    # the comparison can fail: a one-point move of the caption changes pixels
    moved = builtin("meatshield")
    shifted = dataclasses.replace(moved, elements=moved.elements[:-1] + (dataclasses.replace(moved.elements[-1], at=(0.5, 0.81)),))
    tokens = tuple(dataclasses.replace(t, template=shifted, values=tuple(token_values(t).items())) for t in cat.tokens)
    other = tmp_path / "other.pdf"
    build_pdf(dataclasses.replace(cat, tokens=tokens), BuildOptions(sheet=spec, **options), other)
    assert pixels(other) != before
