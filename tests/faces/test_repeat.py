"""``repeat:`` on an element: protograf's clock (60 minute ticks and 12 hour ticks, each a turned
copy of one line) built into a real PDF, its turns read back from the face form's ``cm``
operators and its strokes counted; copies shifted by ``step``, copies over a field, ``{i}`` and
``{item}`` in their text, read back with pdfplumber."""

from __future__ import annotations

import math
import textwrap
from pathlib import Path

import pdfplumber
import pikepdf
import pytest

from tokengen import BuildOptions, SheetSpec, build_pdf, load_catalogue
from tokengen.errors import CatalogueError
from tokengen.units import parse_page

CLOCK = """\
  - line: [[0.5, 0.04], [0.5, 0.08]]
    width: 0.005
    repeat: {count: 60, turn: 6, about: [0.5, 0.5]}
  - line: [[0.5, 0.04], [0.5, 0.14]]
    width: 0.02
    repeat: {count: 12, turn: 30}
"""


def build(folder: Path, elements: str, fields: str = "{name: text}", token: str = "{id: a, name: A}") -> Path:
    path = folder / "cat.yaml"
    path.write_text(f"title: R\nsize: 2in\nshape: circle\nfields: {fields}\ntemplate:\n{elements}tokens:\n  - {token}\n", "utf-8")
    cat = load_catalogue(path)
    out = folder / "out.pdf"
    build_pdf(cat, BuildOptions(sheet=SheetSpec(page=parse_page("letter"), size=cat.size)), out)
    return out


def face_ops(pdf: Path) -> list:
    doc = pikepdf.open(pdf)
    page = doc.pages[0]
    for op in pikepdf.parse_content_stream(page):
        if str(op.operator) == "Do" and "face-" in str(op.operands[0]):
            return list(pikepdf.parse_content_stream(page.Resources.XObject[str(op.operands[0])]))
    raise AssertionError("no face form")


def test_the_clock_draws_72_ticks_turned_by_6_and_30_degrees(tmp_path: Path) -> None:
    ops = face_ops(build(tmp_path, CLOCK))
    strokes = [op for op in ops if str(op.operator) == "S"]
    assert len(strokes) == 72
    turns = []
    centre = (72.0, 72.0)  # the token's centre, pt, in the face form
    for op in ops:
        if str(op.operator) == "cm":
            a, b, c, d, e, f = (float(v) for v in op.operands)
            if (a, b, c, d) == (1.0, 0.0, 0.0, 1.0):
                continue  # no turn: the face's own set-up
            angle = math.degrees(math.atan2(-b, a)) % 360  # clockwise as the face is seen
            turns.append(angle)
            # the turn is about the centre: the centre maps to itself
            assert a * centre[0] + c * centre[1] + e == pytest.approx(centre[0], abs=1e-3)
            assert b * centre[0] + d * centre[1] + f == pytest.approx(centre[1], abs=1e-3)
    assert sorted(turns) == pytest.approx(sorted([6.0 * k for k in range(1, 60)] + [30.0 * k for k in range(1, 12)]), abs=1e-3)


def test_step_shifts_each_copy_and_i_counts_from_0(tmp_path: Path) -> None:
    pdf = build(tmp_path, '  - {text: "{i}/{n}", at: [0.2, 0.5], size: 0.1, repeat: {count: 4, step: [0.2, 0]}}\n')
    with pdfplumber.open(pdf) as doc:
        words = [w for w in doc.pages[0].filter(lambda o: o.get("object_type") != "char" or o["size"] > 9).extract_words()]
    assert [w["text"] for w in words] == ["0/4", "1/4", "2/4", "3/4"]
    centres = [(w["x0"] + w["x1"]) / 2 for w in words]
    assert [b - a for a, b in zip(centres, centres[1:])] == pytest.approx([0.2 * 144] * 3, abs=0.01)


def test_over_a_field_repeats_per_token(tmp_path: Path) -> None:
    elements = ('  - {circle: pip, at: [0.3, 0.5], r: 0.03, fill: "#c00000", repeat: {over: "{pips}", step: [0.1, 0]}}\n'
                '  - {text: "{item|upper}", at: [0.3, 0.8], size: 0.1, repeat: {over: "{names}", step: [0.3, 0]}}\n')
    pdf = build(tmp_path, elements, "{pips: integer, names: text}", '{id: a, pips: 3, names: "ox, elk"}')
    fills = [op for op in face_ops(pdf) if str(op.operator) in ("f", "f*", "B", "b")]
    assert len(fills) == 3
    with pdfplumber.open(pdf) as doc:
        words = [w["text"] for w in doc.pages[0].filter(lambda o: o.get("object_type") != "char" or o["size"] > 9).extract_words()]
    assert words == ["OX", "ELK"]


@pytest.mark.parametrize(("repeat", "message"), [
    ("{turn: 6}", "a repeat needs count: N or over"),
    ("{count: 2, over: [a]}", "not both"),
    ("{count: 2, stpe: [0, 1]}", "did you mean 'step'"),
    ("{count: 5000}", "from 1 to 1000"),
    ('{over: "{nam}"}', "unknown field 'nam'"),
])
def test_a_bad_repeat_is_refused_by_name(tmp_path: Path, repeat: str, message: str) -> None:
    with pytest.raises(CatalogueError, match=message) as info:
        build(tmp_path, textwrap.indent(f'- {{text: "x", repeat: {repeat}}}\n', "  "))
    assert info.value.line == 6 and str(info.value.field).startswith("template[0].repeat")
