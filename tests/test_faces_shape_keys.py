"""Small keys of the face language read back from real PDFs: ``spacing`` as a length, value
maps inside a gradient's colour list, radial gradients with ``centre`` and ``radius``, ``path:``
with SVG path data and ``group:`` with its own turn and place."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pikepdf
import pytest

from tokengen import BuildOptions, SheetSpec, build_pdf, load_catalogue
from tokengen.errors import CatalogueError
from tokengen.units import parse_page


def build(folder: Path, elements: str, fields: str = "{name: text}", token: str = "{id: a, name: A}") -> Path:
    path = folder / "cat.yaml"
    path.write_text(f"title: K\nsize: 2in\nfields: {fields}\ntemplate:\n{elements}tokens:\n  - {token}\n", "utf-8")
    cat = load_catalogue(path)
    out = folder / "out.pdf"
    build_pdf(cat, BuildOptions(sheet=SheetSpec(page=parse_page("letter"), size=cat.size)), out)
    return out


def face_form(pdf: Path) -> tuple[pikepdf.Pdf, pikepdf.Object, list]:
    doc = pikepdf.open(pdf)
    page = doc.pages[0]
    for op in pikepdf.parse_content_stream(page):
        if str(op.operator) == "Do" and "face-" in str(op.operands[0]):
            form = page.Resources.XObject[str(op.operands[0])]
            return doc, form, list(pikepdf.parse_content_stream(form))
    raise AssertionError("no face form")


def test_spacing_as_a_length_adds_that_many_points_between_letters(tmp_path: Path) -> None:
    pdf = build(tmp_path, '  - {text: "IIII", at: [0.5, 0.3], size: 12pt, fit: false}\n'
                          '  - {text: "IIII", at: [0.5, 0.6], size: 12pt, fit: false, spacing: 3pt}\n')
    with pdfplumber.open(pdf) as doc:
        chars = [c for c in doc.pages[0].chars if c["text"] == "I"]
    plain, spaced = chars[:4], chars[4:8]
    gaps = [b["x0"] - a["x0"] for a, b in zip(plain, plain[1:])]
    spaced_gaps = [b["x0"] - a["x0"] for a, b in zip(spaced, spaced[1:])]
    assert [s - g for g, s in zip(gaps, spaced_gaps)] == pytest.approx([3.0] * 3, abs=0.01)


def test_spacing_with_an_unknown_unit_is_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(CatalogueError) as info:
        build(tmp_path, '  - {text: "x", spacing: 3px}\n')
    assert info.value.line == 5 and info.value.field == "template[0].spacing"
