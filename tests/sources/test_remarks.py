"""Warnings reading a catalogue finds at a template element (:mod:`tokengen.sources.remarks`): a
``when:``/``unless:`` that holds on no token, and ``:icon:`` in a one-line text. Each is one exact
line, the same from ``tokengen check`` (a finding) and ``build`` (a warning), once per element."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pdfplumber
import pytest

from tests.conftest import DATA
from tokengen.sources.catalogue import load_catalogue

ICON = DATA / "anygame-art" / "art" / "alpha.png"

HEAD = """\
title: Orcs
size: 1in
fields: {name: text, kind: text, rank: {type: text, optional: true}, cost: integer}
"""
ROWS = "id,name,kind,rank,cost\na,Grunt,Orc,elite,1\nb,Sneak,Goblin,,2\nc,Boss,Orc,chief,3\n"


def folder(tmp_path: Path, template: str, rows: str = ROWS, extra: str = "") -> Path:
    """``cat.yaml`` (HEAD, ``extra``, the template, tokens from ``tokens.csv``) in ``tmp_path``, made the current folder."""
    (tmp_path / "tokens.csv").write_text(rows, "utf-8")
    body = textwrap.dedent(template)
    body = f" {body}" if body.startswith("{") else f"\n{body}"  # a layout map, or an element list
    (tmp_path / "cat.yaml").write_text(f"{HEAD}{extra}template:{body}tokens: tokens.csv\n", "utf-8")
    return tmp_path / "cat.yaml"


def said(run, tmp_path: Path) -> tuple[list[str], list[str]]:
    """The warnings of ``check`` (its finding lines) and of ``build`` (stderr), both run on cat.yaml."""
    checked = run("check", "cat.yaml")
    assert checked.exit_code == 0, checked.stdout + checked.stderr
    built = run("build", "cat.yaml", "-o", str(tmp_path / "out.pdf"))
    assert built.exit_code == 0, built.stderr
    findings = [line for line in checked.stdout.splitlines() if " warning " in line]
    return findings, [line for line in built.stderr.splitlines() if line]


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_when_no_token_matches_is_named_once_by_check_and_build(run, here: Path):
    folder(here, """\
      - {rect: fill, fill: "#efe4c8"}
      - {text: "{name}", at: [0.5, 0.5]}
      - {circle: dot, at: [0.5, 0.8], r: 0.1, fill: "#8a1c1c", when: {kind: orc}}
    """)
    findings, warnings = said(run, here)
    assert findings == ["cat.yaml:7: warning unmatched-condition: template[2].when: matches no token "
                        "(kind is never 'orc'; it holds Orc, Goblin)"]
    assert warnings == ["tokengen: warning: cat.yaml:7: template[2].when: matches no token (kind is never 'orc'; it holds Orc, Goblin)"]


@pytest.mark.parametrize(("condition", "why"), [
    ("when: {kind: [orc, goblin]}", "kind is never 'orc' or 'goblin'; it holds Orc, Goblin"),
    ("when: {cost: [5, 6.0]}", "cost is never 5 or 6; it holds 1, 2, 3"),
    ("when: {rank: Elite}", "rank is never 'Elite'; it holds elite, chief, or is empty"),
    ("when: {kind: Goblin, rank: elite}", "no token has kind 'Goblin' and rank 'elite' at once"),
    ("when: {kind: Orc, cost: 2}", "no token has kind 'Orc' and cost 2 at once"),
    ("unless: {kind: orc}", "kind is never 'orc'; it holds Orc, Goblin"),
])
def test_each_form_of_a_condition_says_why_it_holds_on_no_token(run, here: Path, condition: str, why: str):
    folder(here, f"""\
      - {{rect: fill, fill: "#efe4c8"}}
      - {{circle: dot, at: [0.5, 0.8], r: 0.1, {condition}}}
    """)
    key = condition.split(":")[0]
    assert [str(r) for r in load_catalogue(Path("cat.yaml")).remarks] == [f"cat.yaml:6: template[1].{key}: matches no token ({why})"]


def test_given_and_empty_conditions_that_never_hold(run, here: Path):
    rows = "id,name,kind,rank,cost\na,Grunt,Orc,,1\nb,Sneak,Goblin,,2\n"
    folder(here, """\
      - {rect: fill, fill: "#efe4c8"}
      - {circle: a, when: rank}
      - {circle: b, when: {name: false}}
    """, rows)
    assert [str(r) for r in load_catalogue(Path("cat.yaml")).remarks] == [
        "cat.yaml:6: template[1].when: matches no token (rank is empty on every token)",
        "cat.yaml:7: template[2].when: matches no token (name is given on every token)"]


def test_conditions_that_hold_on_some_token_say_nothing(run, here: Path):
    folder(here, """\
      - {rect: fill, fill: "#efe4c8"}
      - {circle: a, when: {kind: Orc}}
      - {circle: b, when: {kind: [orc, Goblin]}, unless: {rank: elite}}
      - {circle: c, when: rank}
      - {circle: d, when: {rank: false}}
      - {circle: e, when: {cost: 3.0, kind: Orc}}
      - {circle: f, unless: {cost: 2}}
    """)
    findings, warnings = said(run, here)
    assert findings == [] and warnings == []


def test_a_condition_is_tried_on_the_tokens_of_its_own_layout(run, here: Path):
    """An element of a layout is drawn only on the tokens choosing it: a value other tokens hold
    does not count, and a layout no token chooses is left alone."""
    folder(here, """\
      {by: kind, map: {Orc: orc, Goblin: goblin}}
    """, extra="""\
layouts:
  base: [{rect: fill, fill: "#efe4c8"}, {circle: shared, when: {rank: chief}}]
  orc: {extends: base, elements: [{circle: mine, when: {kind: Goblin}}]}
  goblin: {extends: base, elements: [{circle: theirs, when: {kind: Orc}}]}
  unused: [{circle: never, when: {kind: Troll}}]
""")
    remarks = [str(r) for r in load_catalogue(Path("cat.yaml")).remarks]
    assert remarks == ["cat.yaml:6: layouts.orc.elements[0].when: matches no token (kind is never 'Goblin'; it holds Orc)",
                       "cat.yaml:7: layouts.goblin.elements[0].when: matches no token (kind is never 'Orc'; it holds Goblin)"]


def test_icon_in_one_line_text_is_named_once_with_the_way_out(run, here: Path):
    (here / "sword.png").write_bytes(ICON.read_bytes())
    rows = "id,name,kind,rank,cost\na,Grunt,Orc,,1\nb,Sneak :sword:,Goblin,,2\nc,Boss :sword:,Orc,,3\n"
    folder(here, """\
      - {rect: fill, fill: "#efe4c8"}
      - {text: "{name}", at: [0.5, 0.5], size: 0.1}
      - {text: "Deal 2 :sword: dmg", at: [0.5, 0.3], size: 0.1}
      - {glyph: ":shield: 10:30", at: [0.5, 0.7], size: 0.1}
      - {text: "Deal :sword: 2 at {cost}", box: [0.1, 0.75, 0.8, 0.2], size: 0.1}
    """, rows, extra="icons: {sword: sword.png}\n")
    findings, warnings = said(run, here)
    way_out = "prints as written: a one-line text draws no icons; give it box: [x, y, w, h] to draw the icon in a boxed text"
    assert findings == [f"cat.yaml:7: warning icon-as-text: template[1].text: ':sword:' (token b's name) {way_out}",
                        f"cat.yaml:8: warning icon-as-text: template[2].text: ':sword:' {way_out}",
                        # build's line for the boxed text's icon, as check says it too
                        "cat.yaml: warning art-resolution: 1 picture resampled to 600 DPI (sword.png); --keep-resolution keeps it"]
    assert warnings == [f"tokengen: warning: cat.yaml:7: template[1].text: ':sword:' (token b's name) {way_out}",
                        f"tokengen: warning: cat.yaml:8: template[2].text: ':sword:' {way_out}",
                        # issue 37: the boxed text's icon is resampled as image: art is
                        "tokengen: warning: 1 picture resampled to 600 DPI (sword.png); --keep-resolution keeps it"]
    with pdfplumber.open(here / "out.pdf") as pdf:  # what the warning says: the colon-word printed, the boxed one an icon
        text = pdf.pages[0].extract_text()
        assert "Deal 2 :sword: dmg" in text and "Sneak :sword:" in text and "Deal :sword: 2" not in text
        assert len(pdf.pages[0].images) == 3


def test_no_icon_remark_without_icons_or_for_a_boxed_text(run, here: Path):
    folder(here, """\
      - {rect: fill, fill: "#efe4c8"}
      - {text: "Deal 2 :sword: dmg", at: [0.5, 0.3], size: 0.1}
    """)
    assert load_catalogue(Path("cat.yaml")).remarks == ()
