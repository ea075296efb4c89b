"""Several layouts in one catalogue: ``layouts:`` (element lists, ``extends``), ``template:`` and
``back:`` naming one or choosing one per token (``{by: FIELD, map: {VALUE: LAYOUT}, default:
LAYOUT}``). The tests read back which texts and colours are on which token's face and back, and
hold every error to one exact line."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest

from tests.sources.test_conditions import BLUE, GREEN, RED, error, faces, write
from tokengen import BuildOptions, SheetSpec, build_pdf, load_catalogue
from tokengen.units import parse_page

DECK = """\
title: Two layouts
size: 1in
fields: {kind: text, name: text, cost: integer}
layouts:
  base:
    - {rect: fill, fill: "#0000cc"}
    - {text: "{name}", at: [0.5, 0.3], colour: "#ffffff"}
  unit:
    extends: base
    elements:
      - {text: "COST {cost}", at: [0.5, 0.8], size: 0.1, colour: "#ffff00"}
  leader:
    extends: unit
    elements:
      - {rect: fill, box: [0, 0.9, 1, 0.1], fill: "#cc0000"}
  marker:
    - {rect: fill, fill: "#00aa00"}
    - {text: "{name}", colour: "#ffffff"}
  plain-back:
    - {rect: fill, fill: "#cc0000"}
    - {text: BACK, colour: "#ffffff"}
template: {by: kind, map: {unit: unit, leader: leader}, default: marker}
back: plain-back
tokens:
  - {id: a, kind: unit, name: Foot, cost: 2}
  - {id: b, kind: leader, name: Chief, cost: 5}
  - {id: c, kind: marker, name: Fire, cost: 0}
  - {id: d, kind: other, name: Smoke, cost: 0}
"""


def test_each_token_is_drawn_with_the_layout_its_field_chooses(tmp_path):
    path = write(tmp_path, DECK)
    cat = load_catalogue(path)
    # extends: the parent's elements first (base, then unit's, then leader's)
    assert [e.where for e in cat.tokens[1].template.elements] == [
        "layouts.base[0]", "layouts.base[1]", "layouts.unit.elements[0]", "layouts.leader.elements[0]"]
    a, b, c, d = faces(path)
    assert [f["fill"] for f in (a, b, c, d)] == [BLUE, BLUE, GREEN, GREEN]
    assert a["words"] == {"Foot": (1.0, 1.0, 1.0), "COST": (1.0, 1.0, 0.0), "2": (1.0, 1.0, 0.0)}
    assert set(b["words"]) == {"Chief", "COST", "5"} and set(c["words"]) == {"Fire"} and set(d["words"]) == {"Smoke"}
    with pdfplumber.open(tmp_path / "cat.pdf") as pdf:  # the leader's red stripe is on the leader only
        stripes = [r for r in pdf.pages[0].rects if abs(r["height"] - 7.2) < 0.01 and r["non_stroking_color"] == (0.8, 0, 0)]
    assert [(round(s["x0"], 2), round(s["top"], 2)) for s in stripes] == [(round(b["x0"], 2), round(b["top"] + 0.9 * 72, 2))]
    assert len({t.back for t in cat.tokens}) == 1 and cat.back is not None  # back: a layout name, shared


def test_backs_chosen_by_a_layout_map_are_drawn_once_per_distinct_back(tmp_path):
    path = write(tmp_path, DECK.replace("back: plain-back", "back: {by: kind, map: {leader: leader}, default: plain-back}"))
    cat = load_catalogue(path)
    assert [len(t.back.template.elements) for t in cat.tokens] == [2, 4, 2, 2]
    assert cat.back is None and len({t.back for t in cat.tokens}) == 2
    out = tmp_path / "duplex.pdf"
    build_pdf(cat, BuildOptions(sheet=SheetSpec(page=parse_page("letter"), size=cat.size), backs="duplex"), out)
    with pdfplumber.open(out) as pdf:
        back_words = [w["text"] for w in pdf.pages[1].extract_words()]
    assert back_words.count("BACK") == 3 and back_words.count("Chief") == 1 and back_words.count("COST") == 1


def test_a_layout_map_may_hold_an_element_list_and_a_plain_list_is_a_template(tmp_path):
    path = write(tmp_path, DECK.replace("default: marker}", "default: [{rect: fill, fill: \"#cc0000\"}, {text: \"{name}\"}]}"))
    assert [f["fill"] for f in faces(path)] == [BLUE, BLUE, RED, RED]


@pytest.mark.parametrize(("change", "message"), [
    (("default: marker}", "default: markr}"),
     "cat.yaml:22: template.default: unknown template 'markr'; did you mean 'marker'? (layouts: base, unit, leader, marker, plain-back; built in: meatshield)"),
    (("back: plain-back", "back: plainback"),
     "cat.yaml:23: back: unknown template 'plainback'; did you mean 'plain-back'? (layouts: base, unit, leader, marker, plain-back; built in: meatshield)"),
    (("{unit: unit,", "{unit: unti,"),
     "cat.yaml:22: template.map.unit: unknown template 'unti'; did you mean 'unit'? (layouts: base, unit, leader, marker, plain-back; built in: meatshield)"),
    (("extends: base", "extends: bsae"), "cat.yaml:9: layouts.unit.extends: unknown layout 'bsae'; did you mean 'base'? (layouts: base, unit, leader, marker, plain-back)"),
    (("extends: base", "extends: leader"), "cat.yaml:13: layouts.leader.extends: layouts extend each other in a circle: unit → leader → unit"),
    (("extends: base", "extends: unit"), "cat.yaml:9: layouts.unit.extends: layouts extend each other in a circle: unit → unit"),
    ((", default: marker}", "}"),
     "cat.yaml:27: tokens[2].kind: 'marker' is not in the value map at template (cat.yaml:22): its keys are unit, leader and it has no default"),
    (("template: {by: kind,", "template: {by: knid,"), "cat.yaml:22: template.by: unknown field 'knid'; did you mean 'kind'? (fields: kind, name, cost)"),
    (("template: {by: kind,", "template: {bye: kind,"), "cat.yaml:22: template.bye: unknown key for a layout map; did you mean 'by'?"),
    (("    extends: base\n    elements:\n", "    extend: base\n    elements:\n"), "cat.yaml:9: layouts.unit.extend: unknown key for a layout; did you mean 'extends'?"),
    (("  marker:\n    - {rect", "  marker: {}\n  unused:\n    - {rect"), "cat.yaml:16: layouts.marker: a layout needs elements: [...] or extends: LAYOUT"),
    (("  marker:\n    - {rect", "  marker: 5\n  unused:\n    - {rect"),
     "cat.yaml:16: layouts.marker: expected a list of elements or a mapping {extends: LAYOUT, elements: [...]}, got 5"),
    (('- {text: "COST {cost}"', '- {text: "COST {cots}"'),
     "cat.yaml:11: layouts.unit.elements[0].text: unknown field 'cots'; did you mean 'cost'? (fields: kind, name, cost)"),
    (("layouts:", "layouts: {}\nlayoutz:"), "cat.yaml:4: layouts: must not be empty"),
])
def test_each_layout_problem_is_one_line(tmp_path: Path, change: tuple[str, str], message: str) -> None:
    assert error(write(tmp_path, DECK.replace(*change))) == message
