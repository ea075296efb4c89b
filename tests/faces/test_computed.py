"""Computed values in a template's braces (``{cost + 1}``, ``{name|upper}``, ``{n|pad:3}``,
``{a if cond else b}``): built into a real PDF and read back with pdfplumber; errors name the
token's line, the template's place and the expression."""

from __future__ import annotations

import json
from pathlib import Path

import pdfplumber
import pytest

from tokengen import BuildOptions, SheetSpec, build_pdf, load_catalogue
from tokengen.errors import CatalogueError
from tokengen.sources import expr
from tokengen.units import parse_page

FIELDS = "{name: text, cost: integer, power: number, n: integer, note: {type: text, optional: true}}"


def write(folder: Path, text: str, token: str = "{id: a, name: Hello, cost: 3, power: 1.5, n: 7}") -> Path:
    path = folder / "cat.yaml"
    body = f"  - {{text: {json.dumps(text)}, at: [0.5, 0.5], size: 0.1, width: 0.95}}\n"
    path.write_text(f"title: T\nsize: 2in\nfields: {FIELDS}\ntemplate:\n{body}tokens:\n  - {token}\n", "utf-8")
    return path


def printed(folder: Path, text: str, token: str = "{id: a, name: Hello, cost: 3, power: 1.5, n: 7}") -> str:
    cat = load_catalogue(write(folder, text, token))
    out = folder / "out.pdf"
    build_pdf(cat, BuildOptions(sheet=SheetSpec(page=parse_page("letter"), size=cat.size)), out)
    with pdfplumber.open(out) as pdf:
        page = pdf.pages[0].filter(lambda o: o.get("object_type") != "char" or o["size"] > 9)  # the face's text only
        return page.extract_text().strip()


@pytest.mark.parametrize(("text", "expected"), [
    ("{cost + 1}", "4"),
    ("{power * 2}", "3"),
    ("{power / 2}", "0.75"),
    ("{name|upper}", "HELLO"),
    ("{n|pad:3}", "007"),
    ("{'dear' if cost > 2 else 'cheap'}", "dear"),
    ("{cost >= 3 and n < 7}", "false"),
    ("{name} costs {cost + power}", "Hello costs 4.5"),
    ("{note|default:'none'}", "none"),
    ("{(cost + 1) * 2 - n // 2 % 2}", "7"),
])
def test_computed_text_is_printed(tmp_path: Path, text: str, expected: str) -> None:
    assert printed(tmp_path, text) == expected


def test_plain_field_places_print_as_before(tmp_path: Path) -> None:
    assert printed(tmp_path, "{name} {{x}} {cost}") == "Hello {x} 3"


def test_an_expression_failing_for_a_token_names_its_line_and_the_expression(tmp_path: Path) -> None:
    path = write(tmp_path, "{name + cost}")
    with pytest.raises(CatalogueError) as info:
        load_catalogue(path)
    assert info.value.line == 7 and info.value.field == "tokens[0]"
    assert "{name + cost}" in info.value.message and "cat.yaml:5: template[0]" in info.value.message


def test_division_by_zero_is_refused_at_the_token(tmp_path: Path) -> None:
    path = write(tmp_path, "{cost / (n - 7)}")
    with pytest.raises(CatalogueError, match=r"division by zero") as info:
        load_catalogue(path)
    assert info.value.line == 7


@pytest.mark.parametrize(("text", "message"), [
    ("{cost +}", "{cost +}: the expression ends too soon"),
    ("{cost|shout}", "unknown filter 'shout'"),
    ("{cst + 1}", "unknown field 'cst'; did you mean 'cost'?"),
    ("{cost-n}", "put spaces around '-': {cost - n}"),
    ("{__import__('os')}", "unexpected '('"),
    ("{cost ** 2}", "unexpected '*'"),
    ("{name.upper}", "cannot read '.upper'"),
])
def test_a_bad_expression_is_refused_at_the_template(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(CatalogueError) as info:
        load_catalogue(write(tmp_path, text))
    assert info.value.line == 5 and info.value.field == "template[0].text"
    assert message in info.value.message


def test_limits_hold() -> None:
    with pytest.raises(expr.ExprError, match="longer than 400"):
        expr.evaluate(expr.parse("'ab' * 201"), {})
    with pytest.raises(expr.ExprError, match="more than 18 digits"):
        expr.evaluate(expr.parse("999999999 * 999999999 * 10"), {})
    with pytest.raises(expr.ExprError, match="at most 400 characters"):
        expr.parse("1 + " * 120 + "1")
    with pytest.raises(expr.ExprError, match="nested more than"):
        expr.parse("(" * 50 + "1" + ")" * 50)
    assert expr.as_text(expr.evaluate(expr.parse("'*' * 3"), {})) == "***"


@pytest.mark.parametrize("text, shown", [("{2.5|round}", "3"), ("{0.125|round:2}", "0.13"), ("{2.675|round:2}", "2.68"),
                                          ("{1.15|round:1}", "1.2"), ("{-2.5|round}", "-3")])
def test_round_takes_halves_away_from_zero_as_spreadsheets_do(text: str, shown: str) -> None:
    from tokengen.sources import expr

    assert expr.as_text(expr.evaluate(expr.parse(text[1:-1]), {})) == shown


def test_a_project_where_a_catalogue_goes_is_named(run, tmp_path: Path) -> None:
    project = tmp_path / "game.yaml"
    project.write_text("title: A game\nparts: [a.yaml]\n", "utf-8")
    result = run("check", str(project))  # export takes a project's parts (test_outputs_whole_game_exports); check one part
    assert result.exit_code == 2
    assert "game.yaml:2: parts: a project (parts:), not a catalogue: 'tokengen build' and 'tokengen export' take every part" in result.stderr
