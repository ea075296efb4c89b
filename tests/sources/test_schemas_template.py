"""Template elements checked by the schema layer (``data/template.schema.json``): unknown kinds
and keys, values of the wrong form, each one line naming file, line and field, with a did-you-mean;
what the schema cannot say (fields, fonts, units) is left to :mod:`tokengen.sources.template`."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from tokengen.errors import CatalogueError
from tokengen.sources import schemas
from tokengen.sources.catalogue import load_catalogue
from tokengen.sources.template import KINDS, Element

HEAD = "title: T\nfields: {name: text, ink: colour, art: image}\nfonts: {}\ntemplate:\n"
TOKENS = "tokens:\n  - {id: a, name: A, ink: \"#000000\"}\n"


def error(tmp_path: Path, element: str, key: str = "template") -> str:
    path = tmp_path / "t.yaml"
    text = HEAD + f"  - {element}\n" + TOKENS if key == "template" else HEAD + "  - {rect: fill}\nback:\n" + f"  - {element}\n" + TOKENS
    path.write_text(text, "utf-8")
    with pytest.raises(CatalogueError) as info:
        load_catalogue(path)
    return str(info.value).replace(str(tmp_path) + "/", "")


@pytest.mark.parametrize(("element", "message"), [
    ("{rekt: fill}", "t.yaml:5: template[0].rekt: unknown element kind; did you mean 'rect'?"),
    ("{zzz: fill}", "t.yaml:5: template[0]: an element needs one of text, glyph, image, rect, circle, frame, line, polygon, regular, star, ellipse, sector, arc_text, path, group, stack"),
    ("{text: a, image: b}", "t.yaml:5: template[0]: one element has one kind; this one has text and image"),
    ("5", "t.yaml:5: template[0]: expected a mapping with one of text, glyph, image, rect, circle, frame, line, polygon, regular, star, ellipse, sector, arc_text, path, group, stack, got 5"),
    ('{text: "{name}", att: [0.5, 0.5]}', "t.yaml:5: template[0].att: unknown key for a text element; did you mean 'at'?"),
    ("{rect: fill, zoom: 2}", "t.yaml:5: template[0].zoom: unknown key for a rect element (known keys: bleed, box, dash, fill, join, radius, rect, repeat, rotate, stroke, unless, when, width)"),
    ("{text: 5}", "t.yaml:5: template[0].text: expected text, got 5"),
    ('{text: "{name}", at: [0.5]}', "t.yaml:5: template[0].at: expected [x, y] as fractions of the token, got [0.5]"),
    ('{text: "{name}", at: [0.5, 3]}', "t.yaml:5: template[0].at[1]: expected a fraction of the token between -1 and 2, got 3"),
    ("{rect: fill, box: [0, 0, 1]}", "t.yaml:5: template[0].box: expected [x, y, width, height] as fractions of the token, got [0, 0, 1]"),
    ('{text: "{name}", size: 1.5}', "t.yaml:5: template[0].size: expected a fraction of the token between 0 and 1, got 1.5"),
    ('{text: "{name}", size: true}', "t.yaml:5: template[0].size: expected a fraction of the token between 0 and 1, got True"),
    ('{text: "{name}", size: 9qq}', "t.yaml:5: template[0].size: unknown unit 'qq' in '9qq' (use in, mm, cm or pt)"),
    ('{text: "{name}", spacing: 2}', "t.yaml:5: template[0].spacing: expected a fraction of the font size between -0.5 and 1 or a length such as 0.5pt, got 2"),
    ('{text: "{name}", colour: green}',
     't.yaml:5: template[0].colour: expected a colour "#rrggbb", [c, m, y, k] with channels 0-1 or "{field}", got \'green\''),
    ('{text: "{name}", colour: [0, 0, 2, 0]}',
     't.yaml:5: template[0].colour: expected a colour "#rrggbb", [c, m, y, k] with channels 0-1 or "{field}", got [0, 0, 2, 0]'),
    ('{text: "{name}", colour: "{name}"}', "t.yaml:5: template[0].colour: field 'name' is text, not colour"),
    ('{text: "{name}", colour: "{inc}"}', "t.yaml:5: template[0].colour: unknown field 'inc'; did you mean 'ink'?"),
    ('{text: "{name}", align: lft}', "t.yaml:5: template[0].align: unknown alignment 'lft'; did you mean 'left'?"),
    ('{text: "{name}", font: blod}', "t.yaml:5: template[0].font: unknown font 'blod'; did you mean 'bold'? (fonts: regular, bold)"),
    ('{text: "{name}", fit: "yes"}', "t.yaml:5: template[0].fit: expected true or false, got 'yes'"),
    ('{image: "{art}", fit: contian}', "t.yaml:5: template[0].fit: unknown value 'contian'; did you mean 'contain'?"),
    ("{rect: fill, bleed: 1}", "t.yaml:5: template[0].bleed: expected true or false, got 1"),
    ('{text: "{name}", plate: ""}', "t.yaml:5: template[0].plate: expected a plate group name, got ''"),
    ('{image: "{name}"}', "t.yaml:5: template[0].image: field 'name' is text, not image"),
    ('{glyph: "{nmae}"}', "t.yaml:5: template[0].glyph: unknown field 'nmae'; did you mean 'name'? (fields: name, ink, art)"),
])
def test_each_element_problem_names_file_line_and_field(tmp_path: Path, element: str, message: str) -> None:
    assert error(tmp_path, element) == message


def test_a_back_is_checked_the_same_way(tmp_path: Path) -> None:
    assert error(tmp_path, "{rekt: fill}", key="back") == "t.yaml:7: back[0].rekt: unknown element kind; did you mean 'rect'?"


@pytest.mark.parametrize(("template", "message"), [
    ("5", "t.yaml:3: template: expected a list of elements (text, glyph, image, rect, circle, frame, line, polygon, regular, star, ellipse, sector, arc_text, path, group, stack) or a built-in template name, got 5"),
    ("meatshields", "t.yaml:3: template: unknown template 'meatshields'; did you mean 'meatshield'? (built in: meatshield)"),
])
def test_the_template_itself(tmp_path: Path, template: str, message: str) -> None:
    path = tmp_path / "t.yaml"
    path.write_text("title: T\nfields: {name: text}\ntemplate: " + template + "\n" + "tokens:\n  - {id: a, name: A}\n", "utf-8")
    with pytest.raises(CatalogueError) as info:
        load_catalogue(path)
    assert str(info.value).replace(str(tmp_path) + "/", "") == message


def _kinds() -> dict[str, set[str]]:
    element = schemas.schema("template")["$defs"]["element"]
    return {branch["required"][0]: set(branch["properties"]) for branch in element["oneOf"]}


def test_the_schema_names_the_kinds_in_order_and_glyph_takes_text_s_keys() -> None:
    kinds = _kinds()
    assert tuple(kinds) == KINDS
    assert kinds["glyph"] - {"glyph"} == kinds["text"] - {"text"}


def test_every_key_the_schema_allows_is_an_element_attribute() -> None:
    # a key added to the schema needs a place on Element (and, if its value needs reading, a _READ entry)
    attributes = {f.name for f in dataclasses.fields(Element)}
    for kind, keys in _kinds().items():
        assert keys - {kind} - ({"elements"} if kind == "group" else set()) <= attributes, kind  # a group's elements: flattened


def test_the_built_in_templates_pass_their_schema() -> None:
    from tokengen.sources.template import _builtin_data

    path, data, lines = _builtin_data()
    assert schemas.validate(path, data, lines, "template") == []


def test_an_empty_template_layout_or_back_draws_a_blank_side(tmp_path: Path) -> None:
    """``template: []``, a layout ``[]`` or ``{elements: []}`` and ``back: []`` are allowed: a blank side."""
    import pikepdf

    from tokengen import BuildOptions, SheetSpec, build_pdf
    from tokengen.units import parse_page

    path = tmp_path / "t.yaml"
    path.write_text("title: T\nsize: 1in\nfields: {name: text}\nlayouts: {blank: [], also: {elements: []}}\n"
                    "template: also\nback: []\ntokens:\n  - {id: a, name: A}\n", "utf-8")
    cat = load_catalogue(path)
    assert cat.tokens[0].template is not None and cat.tokens[0].template.elements == ()
    out = tmp_path / "out.pdf"
    build_pdf(cat, BuildOptions(sheet=SheetSpec(page=parse_page("letter"), size=cat.size), backs="duplex"), out)
    forms = 0
    with pikepdf.open(out) as doc:
        assert len(doc.pages) == 2
        for page in doc.pages:
            for name, form in page.Resources.get("/XObject", {}).items():
                if "face-" in str(name) or str(name).endswith(".back"):
                    forms += 1
                    assert not [op for op in pikepdf.parse_content_stream(form) if str(op.operator) in ("f", "S", "Tj", "TJ", "B")]
    assert forms == 2
