"""Small keys of the face language read back from real PDFs: ``spacing`` as a length, value
maps inside a gradient's colour list, radial gradients with ``centre`` and ``radius``, ``path:``
with SVG path data and ``group:`` with its own turn and place."""

from __future__ import annotations

import math
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
    assert info.value.message == "unknown unit 'px' in '3px' (use in, mm, cm or pt)"


def test_path_data_is_drawn_with_its_own_operators(tmp_path: Path) -> None:
    # M, L, Q (raised to one cubic), C, A (a half circle: two quarter pieces), Z
    data = "M 0.1 0.1 L 0.9 0.1 Q 0.9 0.5 0.5 0.5 C 0.4 0.6 0.3 0.7 0.3 0.9 A 0.1 0.1 0 0 1 0.1 0.9 Z"
    _, _, ops = face_form(build(tmp_path, f'  - {{path: "{data}", fill: "#3366cc"}}\n'))
    names = [str(op.operator) for op in ops]
    start = names.index("m")
    assert names[start:start + 7] == ["m", "l", "c", "c", "c", "c", "h"]
    assert names[start + 7] in ("f", "f*")
    pts = [[float(v) for v in op.operands] for op in ops[start:start + 6]]
    assert pts[0] == pytest.approx([0.1 * 144, 0.9 * 144])  # fractions from the top-left, pt from the bottom-left
    assert pts[1] == pytest.approx([0.9 * 144, 0.9 * 144])
    # the quadratic's control (0.9, 0.5) raised to a cubic: 2/3 of the way from each end
    assert pts[2] == pytest.approx([0.9 * 144, (1 - (0.1 + 2 / 3 * 0.4)) * 144, (0.5 + 2 / 3 * 0.4) * 144, 0.5 * 144, 72, 72], abs=1e-3)
    assert pts[5][-2:] == pytest.approx([0.1 * 144, 0.1 * 144], abs=1e-3)  # the arc ends where the data says


@pytest.mark.parametrize(("data", "message"), [
    ("L 0 0", "path data starts with M"),
    ("M 0 0 S 1 1 1 1", "S, T and other shorthands are not read"),
    ("M 0 0 C 1 1", "'C' needs 6 numbers"),
])
def test_bad_path_data_is_refused_by_name(tmp_path: Path, data: str, message: str) -> None:
    with pytest.raises(CatalogueError, match=message) as info:
        build(tmp_path, f'  - {{path: "{data}", fill: "#000000"}}\n')
    assert info.value.line == 5 and info.value.field == "template[0].path"


def test_a_group_is_moved_and_turned_as_one(tmp_path: Path) -> None:
    elements = """\
  - group: die
    at: [0.25, 0.75]
    rotate: 30
    elements:
      - {rect: die, box: [0.4, 0.4, 0.2, 0.2], fill: "#000000"}
      - {circle: pip, at: [0.5, 0.5], r: 0.03, fill: "#ff0000"}
"""
    _, _, ops = face_form(build(tmp_path, elements))
    turns = [[float(v) for v in op.operands] for op in ops if str(op.operator) == "cm" and [float(v) for v in op.operands][1] != 0]
    assert len(turns) == 2
    c, s = math.cos(math.radians(30)), math.sin(math.radians(30))
    x, y = 0.25 * 144, 0.25 * 144  # the group's at, pt from the bottom-left
    expected = [c, -s, s, c, x - c * x - s * y, y + s * x - c * y]  # clockwise as seen, about (x, y)
    for matrix in turns:
        assert matrix == pytest.approx(expected, abs=1e-3)
    rect = next(op for op in ops if str(op.operator) == "re")
    assert [float(v) for v in rect.operands] == pytest.approx([(0.4 - 0.25) * 144, (1 - 0.6 - 0.25) * 144, 0.2 * 144, 0.2 * 144])


def test_a_radial_gradient_takes_a_centre_radius_and_value_maps_in_its_colours(tmp_path: Path) -> None:
    fill = ('{radial: ["#ffffff", {by: side, map: {red: "#cc0000", blue: "#0000cc"}, default: "{accent}"}], '
            'centre: [0.25, 0.25], radius: 0.75}')
    path = tmp_path / "cat.yaml"
    path.write_text("title: G\nsize: 2in\nfields: {side: text, accent: colour}\ntemplate:\n"
                    f"  - {{rect: fill, fill: {fill}}}\ntokens:\n"
                    '  - {id: a, side: red, accent: "#00ff00"}\n  - {id: b, side: blue, accent: "#00ff00"}\n'
                    '  - {id: c, side: other, accent: "#00ff00"}\n', "utf-8")
    cat = load_catalogue(path)
    out = tmp_path / "out.pdf"
    build_pdf(cat, BuildOptions(sheet=SheetSpec(page=parse_page("letter"), size=cat.size)), out)
    found = {}
    with pikepdf.open(out) as doc:
        for name, form in doc.pages[0].Resources.XObject.items():
            shadings = form.Resources.get("/Shading") if "face-" in str(name) else None
            for shading in (shadings or {}).values():
                found[str(name).rsplit("-", 1)[1]] = ([float(v) for v in shading.Coords], [float(v) for v in shading.Function.C1])
    assert sorted(found) == ["a", "b", "c"]
    for coords, _ in found.values():
        assert coords == pytest.approx([36, 108, 0, 36, 108, 0.75 * 144])  # centre a quarter in from the top-left
    assert found["a"][1] == pytest.approx([0.8, 0, 0]) and found["b"][1] == pytest.approx([0, 0, 0.8])
    assert found["c"][1] == pytest.approx([0, 1, 0])  # the map's default: the accent field


def test_centre_on_a_linear_gradient_is_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(CatalogueError, match="'centre' is for a radial gradient") as info:
        build(tmp_path, '  - {rect: fill, fill: {gradient: ["#ffffff", "#000000"], centre: [0.2, 0.2]}}\n')
    assert info.value.field == "template[0].fill.centre"
