"""Conditions (``when:``, ``unless:``) and value maps (``{by: FIELD, map: {...}, default: X}``) on
template elements, settled once per token when the catalogue is read: the tests build the sheet and
read back which texts, colours and sizes are on which token; every error is one exact line. Also the
smaller field rules: empty optional pictures and texts, field names with ``-``."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pdfplumber
import pytest

from tests.conftest import DATA
from tokengen import BuildOptions, SheetSpec, build_pdf, load_catalogue
from tokengen.errors import CatalogueError
from tokengen.sources import schemas
from tokengen.units import parse_page

LETTER = parse_page("letter")
ART_FILE = DATA / "anygame-art" / "art" / "alpha.png"
WHITE = (1.0, 1.0, 1.0)


def write(folder: Path, text: str, name: str = "cat.yaml") -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text), "utf-8")
    return path


def error(path: Path) -> str:
    with pytest.raises(CatalogueError) as info:
        load_catalogue(path)
    return str(info.value).replace(str(path.parent) + "/", "")


def colour(value) -> tuple[float, ...]:
    return tuple(round(float(v), 3) for v in value)


def faces(path: Path, size: float = 72.0) -> list[dict]:
    """Each token on the first page of the built sheet, in sheet order (top row first, left to
    right): where it is (x0, top: pdfplumber's), its background fill (the token-sized filled rectangle, never white here), its words
    (text → fill colour), the font sizes of its characters (text → size), and the fill colours
    of the rounded plates (curves) on it."""
    out = path.parent / (path.stem + ".pdf")
    cat = load_catalogue(path)
    build_pdf(cat, BuildOptions(sheet=SheetSpec(page=LETTER, size=cat.size, height=cat.height)), out)
    with pdfplumber.open(out) as pdf:
        page = pdf.pages[0]
        cells = sorted((r for r in page.rects if abs(r["width"] - size) < 0.01 and abs(r["height"] - size) < 0.01
                        and r["fill"] and colour(r["non_stroking_color"]) != WHITE), key=lambda r: (round(r["top"]), r["x0"]))
        words = page.extract_words(extra_attrs=["non_stroking_color", "size"])
        found = []
        for cell in cells:
            def inside(o: dict, cell: dict = cell) -> bool:
                x, y = (o["x0"] + o["x1"]) / 2, (o["top"] + o["bottom"]) / 2
                return cell["x0"] < x < cell["x1"] and cell["top"] < y < cell["bottom"]
            mine = [w for w in words if inside(w)]
            found.append({"fill": colour(cell["non_stroking_color"]), "x0": cell["x0"], "top": cell["top"],
                          "words": {w["text"]: colour(w["non_stroking_color"]) for w in mine},
                          "sizes": {w["text"]: round(w["size"], 2) for w in mine},
                          "plates": [colour(c["non_stroking_color"]) for c in page.curves if inside(c) and c["fill"]]})
    return found


RED, BLUE, GREEN, YELLOW, CYAN, WHITE_TEXT = (0.8, 0.0, 0.0), (0.0, 0.0, 0.8), (0.0, 0.667, 0.0), (1.0, 1.0, 0.0), (0.0, 1.0, 1.0), WHITE

COUNTERS = """\
title: Conditions
size: 1in
fields:
  name: text
  nation: text
  step: integer
  reduced: {type: text, optional: true}
template:
  - {rect: fill, fill: {by: nation, map: {uk: "#cc0000", de: "#0000cc"}, default: "#00aa00"}}
  - {text: "{name}", at: [0.5, 0.3], size: 0.12, colour: "#ffffff"}
  - {text: STEP, at: [0.5, 0.5], size: 0.1, when: reduced, colour: {by: step, map: {1: "#ffff00", 2: "#00ffff"}}}
  - {text: ELITE, at: [0.5, 0.65], size: 0.1, colour: "#ffffff", when: {step: [2, 3], nation: de}}
  - {text: ALLY, at: [0.5, 0.8], size: {by: nation, map: {uk: 9pt}, default: 6pt}, colour: "#ffffff", unless: {nation: de}}
tokens:
  - {id: a, name: Alpha, nation: uk, step: 1, reduced: y}
  - {id: b, name: Bravo, nation: de, step: 2.0, reduced: ""}
  - {id: c, name: Charlie, nation: de, step: 3}
  - {id: d, name: Delta, nation: fr, step: "2", reduced: x}
"""


def test_conditions_and_value_maps_choose_what_each_token_shows(tmp_path):
    a, b, c, d = faces(write(tmp_path, COUNTERS))
    # the background chosen by nation; fr is not in the map: the default
    assert [f["fill"] for f in (a, b, c, d)] == [RED, BLUE, BLUE, GREEN]
    # when: reduced (non-empty); its colour chosen by step, 2.0 and "2" compared as the number 2
    assert a["words"] == {"Alpha": WHITE_TEXT, "STEP": YELLOW, "ALLY": WHITE_TEXT}
    assert b["words"] == {"Bravo": WHITE_TEXT, "ELITE": WHITE_TEXT}  # reduced empty: no STEP; step 2 and de: ELITE; unless de: no ALLY
    # step 3 is not in STEP's colour map, but STEP is not drawn (no reduced): no error
    assert c["words"] == {"Charlie": WHITE_TEXT, "ELITE": WHITE_TEXT}
    assert d["words"] == {"Delta": WHITE_TEXT, "STEP": CYAN, "ALLY": WHITE_TEXT}  # both keys must hold: step 2 but fr, no ELITE
    # size by nation: uk 9 pt, anyone else the default 6 pt
    assert a["sizes"]["ALLY"] == 9.0 and d["sizes"]["ALLY"] == 6.0


def test_a_value_map_without_the_token_s_value_and_no_default_names_the_token_field_value_and_keys(tmp_path):
    path = write(tmp_path, COUNTERS.replace("step: 3}", "step: 3, reduced: yes please}"))
    assert error(path) == ("cat.yaml:17: tokens[2].step: 3 is not in the value map at template[2].colour (cat.yaml:11): "
                           "its keys are 1, 2 and it has no default")


def test_the_same_from_a_spreadsheet_row(tmp_path):
    (tmp_path / "tokens.csv").write_text("id,name,nation,step\na,Alpha,uk,1\nb,Bravo,it,2\n", "utf-8")
    path = write(tmp_path, """\
        title: T
        fields: {name: text, nation: text, step: integer}
        template:
          - {rect: fill, fill: {by: nation, map: {uk: "#cc0000", de: "#0000cc"}}}
        tokens: tokens.csv
        """)
    assert error(path) == ("tokens.csv:3: nation (column C): 'it' is not in the value map at template[0].fill (cat.yaml:4): "
                           "its keys are uk, de and it has no default")


def test_text_and_pictures_chosen_by_a_map(tmp_path):
    (tmp_path / "art").mkdir()
    for name in ("sword", "bow"):
        (tmp_path / "art" / f"{name}.png").write_bytes((ART_FILE).read_bytes())
    path = write(tmp_path, """\
        title: T
        size: 1in
        fields: {kind: text, name: text}
        template:
          - {rect: fill, fill: "#0000cc"}
          - {image: {by: kind, map: {melee: art/sword.png, ranged: art/bow.png}}, box: [0.1, 0.1, 0.3, 0.3]}
          - {text: {by: kind, map: {melee: "{name} (M)"}, default: "{name}"}, at: [0.5, 0.7], colour: "#ffffff"}
        tokens:
          - {id: a, kind: melee, name: Axe}
          - {id: b, kind: ranged, name: Bow}
        """)
    cat = load_catalogue(path)
    a, b = cat.tokens
    assert [e.content for e in a.template.elements][1:] == [str(tmp_path / "art/sword.png"), "{name} (M)"]
    assert [e.content for e in b.template.elements][1:] == [str(tmp_path / "art/bow.png"), "{name}"]
    assert {tmp_path / "art/sword.png", tmp_path / "art/bow.png"} <= set(cat.files_read())  # both pictures are inputs (watch)
    fa, fb = faces(path)
    assert set(fa["words"]) == {"Axe", "(M)"} and set(fb["words"]) == {"Bow"}


ART = """\
title: T
size: 1in
fields:
  name: text
  note: {type: text, default: ""}
  art: {type: image, default: ""}
template:
  - {rect: fill, fill: "#0000cc"}
  - {image: "{art}", box: [0.1, 0.1, 0.8, 0.8]}
  - {text: "{name}", at: [0.5, 0.3], colour: "#ffffff", plate: name, plate_colour: "#00ff00"}
  - {text: "{note}", at: [0.5, 0.8], colour: "#ffffff", plate: note, plate_colour: "#ff00ff"}
tokens:
  - {id: a, name: Alpha, note: hi, art: pic.png}
  - {id: b, name: Bravo, note: "  ", art: pic.png}
  - {id: c, name: Charlie, art: ""}
  - {id: d, name: Delta}
"""


def test_an_empty_text_is_left_out_with_its_plate_and_an_empty_picture_draws_nothing(tmp_path):
    (tmp_path / "pic.png").write_bytes((ART_FILE).read_bytes())
    path = write(tmp_path, ART)
    a, b, c, d = faces(path)
    assert a["plates"] == [(0.0, 1.0, 0.0), (1.0, 0.0, 1.0)] and set(a["words"]) == {"Alpha", "hi"}
    assert b["plates"] == [(0.0, 1.0, 0.0)] and set(b["words"]) == {"Bravo"}  # the note is only spaces: no note plate
    assert c["plates"] == d["plates"] == []  # no picture: no plates at all
    cat = load_catalogue(path)
    assert [t.value("art") for t in cat.tokens] == [tmp_path / "pic.png", tmp_path / "pic.png", None, None]
    assert [len(t.template.elements) for t in cat.tokens] == [4, 3, 2, 2]  # the drawing gets plain elements only
    with pdfplumber.open(tmp_path / "cat.pdf") as pdf:
        assert len(pdf.pages[0].images) == 2


def test_an_empty_image_cell_and_default_draw_no_picture(tmp_path):
    (tmp_path / "tokens.csv").write_text('id,name,art\na,Alpha,\nb,Bravo,""\n', "utf-8")
    path = write(tmp_path, """\
        title: T
        fields: {name: text, art: {type: image, default: ""}}
        template:
          - {rect: fill, fill: "#0000cc"}
          - {image: "{art}"}
          - {text: "{name}", colour: "#ffffff"}
        tokens: tokens.csv
        """)
    assert [t.value("art") for t in load_catalogue(path).tokens] == [None, None]
    assert [set(f["words"]) for f in faces(path)] == [{"Alpha"}, {"Bravo"}]


def test_optional_and_defaulted_text_fields_may_be_empty_and_others_may_not(tmp_path):
    text = """\
        title: T
        fields: {name: text, note: {type: text, optional: true}, cost: {type: number, optional: true}}
        template:
          - {rect: fill, fill: "#0000cc"}
          - {text: "{name}", colour: "#ffffff"}
          - {text: "{note}", at: [0.5, 0.8], colour: "#ffffff"}
          - {text: "{cost}", at: [0.5, 0.2], colour: "#ffffff", when: cost}
        tokens:
          - {id: a, name: Alpha, note: "", cost: 0}
          - {id: b, name: Bravo, cost: 2.5}
          - {id: c, name: Charlie, note: x}
        """
    path = write(tmp_path, text)
    cat = load_catalogue(path)
    assert [(t.value("note"), t.value("cost")) for t in cat.tokens] == [("", 0), ("", 2.5), ("x", None)]
    assert [set(f["words"]) for f in faces(path)] == [{"Alpha"}, {"Bravo", "2.5"}, {"Charlie", "x"}]  # cost 0: not given
    path = write(tmp_path, text.replace("- {id: a, name: Alpha,", "- {id: a, name: '',"))
    assert error(path) == "cat.yaml:9: tokens[0].name: field 'name' is empty"
    path = write(tmp_path, text.replace("optional: true}, cost", "optinal: true}, cost"))
    assert error(path) == "cat.yaml:2: fields.note.optinal: unknown key; did you mean 'optional'? (known keys: type, default, optional, choices, lang)"
    path = write(tmp_path, text.replace("optional: true}, cost", "optional: 'yes'}, cost"))
    assert error(path) == "cat.yaml:2: fields.note.optional: expected true or false, got 'yes'"


def test_field_names_may_hold_a_hyphen(tmp_path):
    (tmp_path / "tokens.csv").write_text("id,card-name,first-paragraph\na,Alpha,Hello\n", "utf-8")
    path = write(tmp_path, """\
        title: T
        fields: {card-name: text, first-paragraph: text}
        template:
          - {rect: fill, fill: "#0000cc"}
          - {text: "{card-name}", colour: "#ffffff", when: first-paragraph}
          - {text: "{first-paragraph}", box: [0.1, 0.6, 0.8, 0.3], colour: "#ffff00"}
        tokens: tokens.csv
        """)
    assert faces(path)[0]["words"] == {"Alpha": WHITE_TEXT, "Hello": YELLOW}
    assert error(write(tmp_path, "title: T\nfields: {-x: text}\ntemplate: [{rect: fill}]\ntokens: [{id: a}]\n")) == \
        "cat.yaml:2: fields.-x: field name '-x' must be a word (letters, digits, _ or -)"


def test_a_back_with_a_condition_is_shared_by_the_tokens_it_draws_alike(tmp_path):
    path = write(tmp_path, COUNTERS.replace("reduced: x}", "reduced: x}\n  - {id: e, name: Echo, nation: de, step: 1, reduced: y}") + """\
back:
  - {rect: fill, fill: "#333333"}
  - {text: REDUCED, when: reduced, colour: "#ffffff"}
""")
    cat = load_catalogue(path)
    backs = [t.back for t in cat.tokens]
    assert backs[0] == backs[3] == backs[4] and backs[1] == backs[2] and backs[0] != backs[1]
    assert [len(b.template.elements) for b in backs] == [2, 1, 1, 2, 2]


HEAD = """\
title: T
fields: {name: text, nation: text, step: integer, ink: colour, art: image}
template:
"""
TOKENS = 'tokens:\n  - {id: a, name: A, nation: uk, step: 1, ink: "#000000", art: ""}\n'


def element_error(tmp_path: Path, element: str) -> str:
    return error(write(tmp_path, HEAD + f"  - {element}\n" + TOKENS))


@pytest.mark.parametrize(("element", "message"), [
    ("{rect: fill, when: nattion}", "cat.yaml:4: template[0].when: unknown field 'nattion'; did you mean 'nation'? (fields: name, nation, step, ink, art)"),
    ("{rect: fill, unless: {stpe: 2}}", "cat.yaml:4: template[0].unless.stpe: unknown field 'stpe'; did you mean 'step'? (fields: name, nation, step, ink, art)"),
    ("{rect: fill, when: {step: two}}", "cat.yaml:4: template[0].when.step: field 'step' is a number; 'two' is not"),
    ("{rect: fill, when: {step: [1, x]}}", "cat.yaml:4: template[0].when.step[1]: field 'step' is a number; 'x' is not"),
    ("{rect: fill, when: {art: a.png}}", "cat.yaml:4: template[0].when.art: field 'art' is an image: a condition can test only whether it is given (when: art)"),
    ("{rect: fill, when: {ink: red}}", "cat.yaml:4: template[0].when.ink: field 'ink' is a colour; expected \"#rrggbb\", got 'red'"),
    ("{rect: fill, when: 5}", "cat.yaml:4: template[0].when: expected a field name or a mapping {FIELD: VALUE}, got 5"),
    ("{rect: fill, when: {}}", "cat.yaml:4: template[0].when: expected a field name or a mapping {FIELD: VALUE}, got {}"),
    ("{rect: fill, when: {step: {a: 1}}}", "cat.yaml:4: template[0].when.step: expected a value (text or a number) or a list of values, got {'a': 1}"),
    ("{rect: fill, fill: {by: nation}}", "cat.yaml:4: template[0].fill: missing required key 'map'"),
    ("{rect: fill, fill: {by: nation, mapp: {uk: '#000000'}}}", "cat.yaml:4: template[0].fill.mapp: unknown key for a value map; did you mean 'map'?"),
    ("{rect: fill, fill: {by: nation, map: {uk: green}}}",
     "cat.yaml:4: template[0].fill.map.uk: expected a colour \"#rrggbb\", [c, m, y, k] with channels 0-1 or \"{field}\", got 'green'"),
    ("{rect: fill, fill: {by: nation, map: {uk: '#000000'}, default: 5}}",
     "cat.yaml:4: template[0].fill.default: expected a colour \"#rrggbb\", [c, m, y, k] with channels 0-1 or \"{field}\", got 5"),
    ("{rect: fill, fill: {by: natoin, map: {uk: '#000000'}}}",
     "cat.yaml:4: template[0].fill.by: unknown field 'natoin'; did you mean 'nation'? (fields: name, nation, step, ink, art)"),
    ("{rect: fill, fill: {by: art, map: {x: '#000000'}}}", "cat.yaml:4: template[0].fill.by: field 'art' is an image: a value map can test only whether it is given (when: art)"),
    ("{rect: fill, when: {nation: [uk, false]}}",
     "cat.yaml:4: template[0].when.nation[1]: YAML reads an unquoted false as a boolean; to compare text, put it in quotes ('false')"),
    ("{rect: fill, fill: {by: step, map: {one: '#000000'}}}", "cat.yaml:4: template[0].fill.map.one: field 'step' is a number; 'one' is not"),
    ("{text: {by: nation, map: {uk: '{nmae}'}}}", "cat.yaml:4: template[0].text.map.uk: unknown field 'nmae'; did you mean 'name'? (fields: name, nation, step, ink, art)"),
    ("{text: A, font: {by: nation, map: {uk: blod}}}", "cat.yaml:4: template[0].font.map.uk: unknown font 'blod'; did you mean 'bold'? (fonts: regular, bold)"),
    ("{text: A, size: {by: nation, map: {uk: 9qq}}}", "cat.yaml:4: template[0].size.map.uk: unknown unit 'qq' in '9qq' (use in, mm, cm or pt)"),
    ("{text: A, align: {by: nation, map: {uk: justify}}}",
     "cat.yaml:4: template[0].align: 'justify' is for a text in a box; add box: [x, y, w, h] or use left, centre or right"),
    ("{text: A, box: {by: nation, map: {uk: [0, 0, 0, 1]}}}", "cat.yaml:4: template[0].box: a text's box needs a width and height above 0, got [0, 0, 0, 1]"),
    ("{image: {by: nation, map: {uk: '{name}'}}}", "cat.yaml:4: template[0].image.map.uk: field 'name' is text, not image"),
])
def test_each_condition_and_value_map_problem_is_one_line(tmp_path: Path, element: str, message: str) -> None:
    assert element_error(tmp_path, element) == message


def _element_branches() -> list[dict]:
    return schemas.schema("template")["$defs"]["element"]["oneOf"]


def test_every_key_of_every_element_kind_takes_a_value_map_and_every_kind_takes_conditions() -> None:
    # a key added to an element kind refers to a $defs entry that offers a value map first
    # ({"anyOf": [{"$ref": "#/$defs/value_map", ...}, {"$ref": "#/$defs/<kind>_value"}]}), or, where
    # the plain value may itself be a mapping (a gradient fill), one chosen by its `by` key
    # ({"if": {"required": ["by"]}, "then": {"$ref": "#/$defs/value_map", ...}, "else": ...})
    defs = schemas.schema("template")["$defs"]
    for branch in _element_branches():
        kind = branch["required"][0]
        props = branch["properties"]
        assert props["when"] == props["unless"] == {"$ref": "#/$defs/condition"}, kind
        for key, ref in props.items():
            if key in ("when", "unless", "repeat") or kind in ("group", "stack"):  # a repeat, a group's or stack's place: the same on every token
                continue
            target = defs[ref["$ref"].rsplit("/", 1)[1]]
            first = target["anyOf"][0] if "anyOf" in target else target["then"]
            assert first["$ref"] == "#/$defs/value_map", (kind, key)
