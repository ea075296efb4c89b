"""The new element kinds and keys as a catalogue gives them (line, polygon, regular, star,
ellipse, sector, arc_text, rotate, dash, gradients): what they are read as, and each mistake as
one line naming file, line and field. Boxes with no size are refused for every kind."""

from __future__ import annotations

from pathlib import Path

import pytest

from tokengen.errors import CatalogueError
from tokengen.model import Colour
from tokengen.sources.catalogue import load_catalogue
from tokengen.sources.template import Gradient, Size

HEAD = "title: T\nfields: {name: text, ink: colour, art: image}\ntemplate:\n"
TOKENS = "tokens:\n  - {id: a, name: A, ink: \"#102030\"}\n"


def write(tmp_path: Path, element: str, head: str = HEAD) -> Path:
    path = tmp_path / "t.yaml"
    path.write_text(head + f"  - {element}\n" + TOKENS, "utf-8")
    return path


def error(tmp_path: Path, element: str) -> str:
    with pytest.raises(CatalogueError) as info:
        load_catalogue(write(tmp_path, element))
    return str(info.value).replace(str(tmp_path) + "/", "")


def element(tmp_path: Path, spec: str):
    head = HEAD.replace(", art: image", "")  # a token that shows no picture
    return load_catalogue(write(tmp_path, spec, head)).tokens[0].template.elements[0]


def test_figures_are_read_as_their_values(tmp_path: Path) -> None:
    line = element(tmp_path, "{line: [[0, 0.5], [1, 0.5]], dash: [0.02, 1pt], cap: round, rotate: -15}")
    assert line.kind == "line" and line.points == ((0.0, 0.5), (1.0, 0.5)) and line.content == ""
    assert line.dash == (Size(0.02), Size(pt=1.0)) and line.cap == "round" and line.rotate == -15.0
    assert line.width == Size(0.02)  # a line is drawn without a width given
    star = element(tmp_path, "{star: 7, at: [0.5, 0.4], r: 0.3}")
    assert (star.sides, star.inner, star.at) == (7, 0.4, (0.5, 0.4))
    sector = element(tmp_path, "{sector: s, start: 300, end: 60, inner: 0.5}")
    assert (sector.start, sector.end, sector.inner) == (300.0, 60.0, 0.5)
    arc = element(tmp_path, '{arc_text: "{name}", direction: anticlockwise, side: inside}')
    assert arc.fields() == ["name"] and arc.end is None and arc.direction == "anticlockwise"


def test_gradient_fills_read_their_colours_and_fields(tmp_path: Path) -> None:
    rect = element(tmp_path, '{rect: r, fill: {gradient: ["#ff0000", "{ink}", [0, 0, 0, 1]], angle: 45, stops: [0, 0.2, 1]}}')
    assert rect.fill == Gradient("linear", (Colour("rgb", (1.0, 0.0, 0.0)), "ink", Colour("cmyk", (0.0, 0.0, 0.0, 1.0))), 45.0, (0.0, 0.2, 1.0))
    assert rect.fields() == ["ink"]
    disc = element(tmp_path, '{circle: c, fill: {radial: ["#ffffff", "#000000"]}}')
    assert disc.fill.kind == "radial" and disc.fill.angle == 180.0


@pytest.mark.parametrize(("spec", "message"), [
    ("{rect: r, box: [0.1, 0.1, -0.2, 0.5]}", "t.yaml:4: template[0].box: a box needs a width and height above 0, got [0.1, 0.1, -0.2, 0.5]"),
    ("{rect: r, box: [0.1, 0.1, 0.5, 0]}", "t.yaml:4: template[0].box: a box needs a width and height above 0, got [0.1, 0.1, 0.5, 0]"),
    ("{ellipse: e, box: [0, 0, 0, 1]}", "t.yaml:4: template[0].box: a box needs a width and height above 0, got [0, 0, 0, 1]"),
    ('{image: "{art}", box: [0, 0, 1, 1], clip: [0, 0, 1, -1]}', "t.yaml:4: template[0].clip: a box needs a width and height above 0, got [0, 0, 1, -1]"),
    ('{text: "{name}", box: [0, 0, -1, 1]}', "t.yaml:4: template[0].box: a text's box needs a width and height above 0, got [0, 0, -1, 1]"),
    ("{line: [[0, 0]]}", "t.yaml:4: template[0].line: expected at least two points [[x1, y1], [x2, y2], ...] as fractions of the token, got [[0, 0]]"),
    ("{polygon: [[0, 0], [1, 1]]}",
     "t.yaml:4: template[0].polygon: expected at least three corners [[x1, y1], [x2, y2], [x3, y3], ...] as fractions of the token, got [[0, 0], [1, 1]]"),
    ("{line: [[0, 0], [1, 5]]}", "t.yaml:4: template[0].line[1][1]: expected a fraction of the token between -1 and 2, got 5"),
    ("{star: 2}", "t.yaml:4: template[0].star: expected a whole number of corners from 3 to 64, got 2"),
    ("{regular: 4.5}", "t.yaml:4: template[0].regular: expected a whole number of corners from 3 to 64, got 4.5"),
    ("{star: 5, inner: 1.5}", "t.yaml:4: template[0].inner: expected a fraction of r between 0 and 1, got 1.5"),
    ("{sector: s, start: 90, end: 90}", "t.yaml:4: template[0].end: a sector from 90 to 90 degrees is empty; for a whole circle leave end out"),
    ("{line: [[0, 0], [1, 1]], cap: rund}", "t.yaml:4: template[0].cap: unknown line cap 'rund'; did you mean 'round'?"),
    ("{line: [[0, 0], [1, 1]], dash: [0, 1]}", "t.yaml:4: template[0].dash: a dash needs an 'on' length above 0, got 0"),
    ("{line: [[0, 0], [1, 1]], dash: [0.1]}",
     "t.yaml:4: template[0].dash: expected [on, off] lengths (fractions of the token or lengths with a unit), got [0.1]"),
    ("{line: [[0, 0], [1, 1]], fill: \"#000000\"}",
     "t.yaml:4: template[0].fill: unknown key for a line element (known keys: box, cap, colour, dash, join, line, repeat, rotate, unless, when, width)"),
    ("{rect: r, rotate: ninety}", "t.yaml:4: template[0].rotate: expected an angle in degrees (clockwise), got 'ninety'"),
    ('{arc_text: "{name}", align: justify}', "t.yaml:4: template[0].align: text on a circle is aligned left, centre or right"),
    ('{arc_text: "{nam}"}', "t.yaml:4: template[0].arc_text: unknown field 'nam'; did you mean 'name'? (fields: name, ink, art)"),
    ('{arc_text: "{name}", side: under}', "t.yaml:4: template[0].side: unknown side 'under' (use one of outside, inside)"),
    ('{rect: r, fill: {gradient: ["#ff0000"]}}', "t.yaml:4: template[0].fill.gradient: expected a list of 2 to 16 colours, got ['#ff0000']"),
    ('{rect: r, fill: {gradient: ["#ff0000", "red"]}}',
     't.yaml:4: template[0].fill.gradient[1]: expected a colour "#rrggbb", [c, m, y, k] with channels 0-1 or "{field}", got \'red\''),
    ('{rect: r, fill: {angle: 90}}', "t.yaml:4: template[0].fill: a gradient fill has either gradient: [COLOUR, …] (linear) or radial: [COLOUR, …]"),
    ('{rect: r, fill: {gradient: ["#ff0000", "#000000"], radial: ["#ff0000", "#000000"]}}',
     "t.yaml:4: template[0].fill: a gradient fill has either gradient: [COLOUR, …] (linear) or radial: [COLOUR, …], not both"),
    ('{rect: r, fill: {radial: ["#ff0000", "#000000"], angle: 90}}',
     "t.yaml:4: template[0].fill.angle: 'angle' is for a linear gradient; a radial one runs from the centre out"),
    ('{rect: r, fill: {gradient: ["#ff0000", "#000000"], stops: [0.5, 0.2]}}',
     "t.yaml:4: template[0].fill.stops: stops must be 2 increasing fractions, one for each colour, got [0.5, 0.2]"),
    ('{rect: r, fill: {gradient: ["#ff0000", "#000000"], angel: 90}}',
     "t.yaml:4: template[0].fill.angel: unknown key for a gradient; did you mean 'angle'?"),
    ('{rect: r, fill: {gradient: ["{name}", "#000000"]}}', "t.yaml:4: template[0].fill.gradient[0]: field 'name' is text, not colour"),
    ('{rect: r, fill: "green"}', 't.yaml:4: template[0].fill: expected a colour "#rrggbb", [c, m, y, k] with channels 0-1 or "{field}", got \'green\''),
])
def test_each_mistake_names_file_line_and_field(tmp_path: Path, spec: str, message: str) -> None:
    assert error(tmp_path, spec) == message


@pytest.mark.parametrize(("spec", "message"), [
    # an unknown kind is not blamed on a key beside it that looks like another kind ('from' ~ 'frame')
    ("{arrow: [[0, 0], [1, 1]], from: [0, 0]}",
     "t.yaml:4: template[0]: an element needs one of text, glyph, image, rect, circle, frame, line, polygon, regular, star, ellipse, sector, arc_text, path, group, stack"),
    ("{lines: [[0, 0], [1, 1]], from: [0, 0]}", "t.yaml:4: template[0].lines: unknown element kind; did you mean 'line'?"),
    ("{fill: \"#000000\", elipse: e}", "t.yaml:4: template[0].elipse: unknown element kind; did you mean 'ellipse'?"),
    ("{line: [[0, 0], [1, 1]], from: [0, 0]}",
     "t.yaml:4: template[0].from: unknown key for a line element (known keys: box, cap, colour, dash, join, line, repeat, rotate, unless, when, width)"),
])
def test_an_unknown_kind_is_blamed_on_the_right_key(tmp_path: Path, spec: str, message: str) -> None:
    assert error(tmp_path, spec) == message
