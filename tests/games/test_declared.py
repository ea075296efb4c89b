"""A catalogue's own rules and odds (``rules:``, ``odds:``): each rule kind holding and broken,
named by its file and line; every odd checked against a computation written out here with
``math.comb`` and ``fractions`` (hypergeometric, multivariate, with replacement)."""

from __future__ import annotations

import json
import textwrap
from fractions import Fraction
from math import comb, factorial
from pathlib import Path

import pytest

from tokengen.games import odds as exact
from tokengen.games.registry import check_catalogue, format_report

ROOT = Path(__file__).resolve().parents[2]

# 4 Strike (Action red), 2 Block (Action blue), 3 Sword (Item red), 1 Shield (Item blue): 10 cards
DECK = """\
title: Deck
size: 63mmx88mm
fields:
  name: text
  type: {type: text, choices: [Action, Item]}
  colour: {type: text, choices: [red, blue]}
  cost: integer
template:
  - {text: "{name}", at: [0.5, 0.5], size: 0.1}
tokens:
  - {id: strike, name: Strike, type: Action, colour: red, cost: 1, copies: 4}
  - {id: block, name: Block, type: Action, colour: blue, cost: 2, copies: 2}
  - {id: sword, name: Sword, type: Item, colour: red, cost: 3, copies: 3}
  - {id: shield, name: Shield, type: Item, colour: blue, cost: 4}
"""


def write(tmp_path: Path, rules: str = "", odds: str = "", text: str = DECK) -> Path:
    """The deck with ``rules:`` and ``odds:`` sections (YAML lines) put before ``tokens:``."""
    extra = (f"rules:\n{textwrap.indent(rules, '  ')}" if rules else "") + (f"odds:\n{textwrap.indent(odds, '  ')}" if odds else "")
    path = tmp_path / "cards.yaml"
    path.write_text(text.replace("tokens:\n", extra + "tokens:\n", 1), "utf-8")
    return path


def line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text("utf-8").splitlines(), 1) if text in line)


# -- rules that hold ---------------------------------------------------------------------------------
HOLDING = """\
- {total: {min: 10, max: 10}}
- {count: {where: {type: Action}, min: 6, max: 6}}
- {each: [type, colour]}
- {unique: id}
- {copies: {max: 4, by: name}}
- {sum: {field: cost, where: {type: Item}, min: 13, max: 13}}
"""


def test_rules_that_hold_exit_0_with_a_summary(run, tmp_path):
    path = write(tmp_path, HOLDING)
    result = run("check", str(path))
    assert result.exit_code == 0, result.stdout + result.stderr
    assert f"{path}: info rules: all 6 rules hold" in result.stdout.splitlines()
    report = json.loads(run("check", str(path), "--format", "json").stdout)
    summary = next(f for f in report["findings"] if f["code"] == "rules")
    assert [(r["rule"], r["kind"], r["holds"]) for r in summary["data"]["rules"]] == [
        ("rules[0]", "total", True), ("rules[1]", "count", True), ("rules[2]", "each", True),
        ("rules[3]", "unique", True), ("rules[4]", "copies", True), ("rules[5]", "sum", True)]
    assert [r["line"] for r in summary["data"]["rules"]] == list(range(line_of(path, "total:"), line_of(path, "total:") + 6))
    # 3 Swords × 3 + 1 Shield × 4 = 13; the Actions are 4 + 2 = 6
    assert summary["data"]["rules"][5]["sum"] == 13 and summary["data"]["rules"][1]["count"] == 6


# -- rules that break: one line each, the exact place named ------------------------------------------
@pytest.mark.parametrize(("rule", "message"), [
    ("{total: {min: 40, max: 40}}", "10 tokens, 40 wanted"),
    ("{count: {where: {type: Action}, min: 12, max: 20}}", "6 Actions, at least 12 wanted"),
    ("{count: {where: {type: Item}, max: 3}}", "4 Items, at most 3 wanted"),
    ("{each: [type, colour], exactly: 1}", "4 tokens are Action red (and 2 more combinations), exactly 1 of each type × colour wanted"),
    ("{unique: type}", "'Action' is on 2 tokens (and 1 more value); each type on one token wanted"),
    ("{copies: {max: 3, by: name}}", "4 copies of 'Strike' (name), at most 3 wanted"),
    ("{sum: {field: cost, where: {type: Item}, max: 12}}", "cost adds up to 13 over Items, at most 12 wanted"),
    ("{name: deck size, message: the deck holds 40 cards, total: {min: 40}}", "deck size: the deck holds 40 cards (10 tokens, at least 40 wanted)"),
    ("{count: {where: {tpye: Action}, min: 1}}", "count.where: unknown field 'tpye'; did you mean 'type'?"),
    ("{each: [name]}", "each: field 'name' declares no choices (give it choices: [...] in fields:)"),
])
def test_a_broken_rule_is_named_by_file_line_and_index(run, tmp_path, rule, message):
    path = write(tmp_path, "- {total: {min: 1}}\n- {unique: id}\n- " + rule + "\n")
    line = line_of(path, rule)
    result = run("check", str(path))
    assert result.exit_code == 1
    assert f"{path}:{line}: rules[2]: {message}" in result.stdout.splitlines()
    assert f"{path}: info rules: 2 of 3 rules hold" in result.stdout.splitlines()


def test_each_finds_a_missing_combination(tmp_path):
    path = write(tmp_path, "- {each: [type, colour]}\n", text=DECK.replace("  - {id: shield, name: Shield, type: Item, colour: blue, cost: 4}\n", ""))
    report = check_catalogue(path)
    broken = [f for f in report.findings if f.code == "rule"]
    assert [(f.line, f.field, f.message) for f in broken] == [
        (line_of(path, "each:"), "rules[0]", "no token is Item blue; every type × colour wanted")]


def test_a_value_outside_the_declared_choices_is_refused(run, tmp_path):
    path = write(tmp_path, text=DECK.replace("type: Item, colour: blue", "type: Item, colour: bleu"))
    result = run("build", str(path), "-o", str(tmp_path / "out.pdf"))
    assert result.exit_code == 2
    assert result.stderr == (f"tokengen: error: {path}:{line_of(path, 'bleu')}: tokens[3].colour: 'bleu' is not one of "
                             "the field's choices; did you mean 'blue'?\n")


@pytest.mark.parametrize(("rules", "odds", "message"), [
    ("- {totl: {min: 1}}\n", "", "rules[0].totl: unknown rule kind; did you mean 'total'?"),
    ("- {total: {min: 1}, count: {min: 1}}\n", "", "rules[0]: one rule has one kind; this one has count and total"),
    ("- {name: x}\n", "", "rules[0]: a rule needs one of count, total, each, unique, copies, sum"),
    ("- {each: [type, colour], exactly: 0}\n", "", "rules[0].exactly: must be at least 1, got 0"),
    ("- {copies: {by: name}}\n", "", "rules[0].copies: missing required key 'max'"),
    ("- {count: {min: \"x\"}}\n", "", "rules[0].count.min: expected a whole number, got 'x'"),
    ("", "- {draw: 2}\n", "odds[0]: an odds question needs one of want, all, any"),
    ("", "- {draw: 0, want: {at_least: 1}}\n", "odds[0].draw: must be at least 1, got 0"),
    ("", "- {draw: 2, want: {where: {type: Item}}}\n", "odds[0].want: missing required key 'at_least'"),
])
def test_a_misspelt_rule_or_odd_is_one_schema_error(run, tmp_path, rules, odds, message):
    path = write(tmp_path, rules, odds)
    result = run("check", str(path))
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == f"tokengen: error: {path}:{line_of(path, (rules or odds).strip()[2:])}: {message}\n"


# -- odds, each against a computation written out here ------------------------------------------------
def odds_of(tmp_path, spec: str) -> Fraction:
    path = write(tmp_path, odds=f"- {spec}\n")
    found = [f for f in check_catalogue(path).findings if f.code == "odds"]
    assert len(found) == 1 and found[0].severity == "info", found
    assert found[0].line == line_of(path, spec) and found[0].field == "odds[0]"
    p = Fraction(found[0].data["p"])
    assert found[0].data["percent"] == pytest.approx(float(p) * 100)
    return p


def test_hypergeometric_at_least_one(tmp_path):
    # 5 cards from 10, at least one of the 3 Swords: 1 - C(7,5)/C(10,5)
    p = odds_of(tmp_path, "{draw: 5, want: {where: {name: Sword}, at_least: 1}}")
    assert p == 1 - Fraction(comb(7, 5), comb(10, 5)) == Fraction(11, 12)


def test_hypergeometric_exactly_and_at_most_from_a_subset(tmp_path):
    # the bag is the 6 Actions (4 red Strikes, 2 blue Blocks); 3 drawn, exactly 2 Strikes
    p = odds_of(tmp_path, "{draw: 3, where: {type: Action}, want: {where: {name: Strike}, exactly: 2}}")
    assert p == Fraction(comb(4, 2) * comb(2, 1), comb(6, 3))
    q = odds_of(tmp_path, "{draw: 3, where: {type: Action}, want: {where: {name: Block}, at_most: 1}}")
    assert q == Fraction(comb(2, 0) * comb(4, 3) + comb(2, 1) * comb(4, 2), comb(6, 3))


def test_multivariate_all_of_several_wants(tmp_path):
    # 4 from 10: at least 1 Strike (4), at least 1 Sword (3) and no Shield (1): the rest are the 2 Blocks
    p = odds_of(tmp_path, "{draw: 4, all: [{where: {name: Strike}, at_least: 1}, {where: {name: Sword}, at_least: 1}, "
                          "{where: {name: Shield}, exactly: 0}]}")
    hits = sum(comb(4, a) * comb(3, b) * comb(2, c)
               for a in range(1, 5) for b in range(1, 4) for c in range(3) if a + b + c == 4)
    assert p == Fraction(hits, comb(10, 4))


def test_any_with_overlapping_wants(tmp_path):
    # 3 from 10: at least 2 red (Strike 4 + Sword 3 = 7) or at least 1 Item (Sword 3 + Shield 1): the wants overlap on the Swords
    p = odds_of(tmp_path, "{draw: 3, any: [{where: {colour: red}, at_least: 2}, {where: {type: Item}, at_least: 1}]}")
    # classes: red Action 4, red Item 3, blue Item 1, blue Action 2
    hits = 0
    for a in range(4):
        for b in range(4):
            for c in range(2):
                d = 3 - a - b - c
                if 0 <= d <= 2 and (a + b >= 2 or b + c >= 1):
                    hits += comb(4, a) * comb(3, b) * comb(1, c) * comb(2, d)
    assert p == Fraction(hits, comb(10, 3))
    # the complement by hand: neither means at most 1 red and no Item, so from the 4 Strikes and 2 Blocks with ≤1 Strike
    assert 1 - p == Fraction(comb(4, 1) * comb(2, 2), comb(10, 3))


def test_with_replacement(tmp_path):
    # 3 draws, each put back: exactly 2 Swords (3 of 10): binomial C(3,2) (3/10)^2 (7/10)
    p = odds_of(tmp_path, "{draw: 3, replacement: true, want: {where: {name: Sword}, exactly: 2}}")
    assert p == comb(3, 2) * Fraction(3, 10) ** 2 * Fraction(7, 10)


def test_with_replacement_multivariate(tmp_path):
    # 4 draws put back: at least 1 Strike (4/10) and at least 1 Block (2/10), by inclusion-exclusion
    p = odds_of(tmp_path, "{draw: 4, replacement: true, all: [{where: {name: Strike}, at_least: 1}, {where: {name: Block}, at_least: 1}]}")
    assert p == 1 - Fraction(6, 10) ** 4 - Fraction(8, 10) ** 4 + Fraction(4, 10) ** 4
    # the same by the multinomial sum written out
    total = sum(Fraction(factorial(4), factorial(a) * factorial(b) * factorial(4 - a - b)) * Fraction(4, 10) ** a * Fraction(2, 10) ** b * Fraction(4, 10) ** (4 - a - b)
                for a in range(1, 5) for b in range(1, 5) if a + b <= 4)
    assert p == total


def test_a_draw_larger_than_the_bag_is_an_error_at_its_line(run, tmp_path):
    path = write(tmp_path, odds="- {draw: 11, want: {where: {name: Sword}, at_least: 1}}\n")
    result = run("check", str(path))
    assert result.exit_code == 1
    assert f"{path}:{line_of(path, 'draw: 11')}: odds[0]: the bag holds 10 tokens, fewer than the 11 drawn" in result.stdout.splitlines()
    # put back after each draw, 11 from 10 can be drawn: 1 - (7/10)^11
    path = write(tmp_path, odds="- {draw: 11, replacement: true, want: {where: {name: Sword}, at_least: 1}}\n")
    assert odds_of(tmp_path, "{draw: 11, replacement: true, want: {where: {name: Sword}, at_least: 1}}") == 1 - Fraction(7, 10) ** 11


def test_the_odds_line_in_the_text_report(run, tmp_path):
    path = write(tmp_path, odds="- {name: a Sword in hand, draw: 5, want: {where: {name: Sword}, at_least: 1}}\n")
    result = run("check", str(path))
    assert result.exit_code == 0
    assert (f"{path}:{line_of(path, 'a Sword in hand')}: odds[0]: a Sword in hand: at least 1 Sword in 5 drawn from the set "
            "of 10: 11/12 (91.7%)") in result.stdout.splitlines()


def test_the_splits_are_bounded_by_count():
    calls = []
    with pytest.raises(ValueError, match="cases to weigh exactly"):
        exact.chance(1000, [100] * 8, calls.append, replacement=True)
    assert calls == [] and exact.split_count(1000, 8) > exact.MAX_SPLITS  # refused before any is weighed
    # within the bound, every split is weighed once: C(10 + 2, 2) splits of 10 over 3 kinds
    exact.chance(10, [5, 5, 5], lambda x: calls.append(x) or True)
    assert len(calls) == comb(12, 2) - 3 * comb(6, 2)  # less the splits taking 6 or more of a kind of 5


def test_each_is_bounded_by_its_combinations(tmp_path):
    choices = ", ".join(f"c{i}" for i in range(50))
    declared = "".join(f"  {f}: {{type: text, choices: [{choices}]}}\n" for f in "abc")
    text = DECK.replace("  cost: integer\n", "  cost: integer\n" + declared)
    for cost in ("cost: 1,", "cost: 2,", "cost: 3,"):
        text = text.replace(cost, cost + " a: c0, b: c0, c: c0,")
    text = text.replace("cost: 4}", "cost: 4, a: c0, b: c0, c: c0}")
    path = write(tmp_path, "- {each: [a, b, c]}\n", text=text)
    broken = [f.message for f in check_catalogue(path).findings if f.code == "rule"]
    assert broken == ["each: 125,000 combinations of a × b × c, more than 100,000 to check"]  # 50³


# -- Meatshields: its structural checks are rules in its catalogue ------------------------------------
def test_meatshields_structure_is_declared_as_rules(tmp_path):
    text = (ROOT / "token_defs.yaml").read_text("utf-8")
    assert "each: [attribute, priority], exactly: 1" in text and "total: {min: 18, max: 18}" in text
    report = check_catalogue(ROOT / "token_defs.yaml")
    assert report.playable
    rules = next(f for f in report.findings if f.code == "rules")
    assert rules.message == "all 3 rules hold"
    odds = next(f for f in report.findings if f.code == "odds")
    assert Fraction(odds.data["p"]) == 1 - Fraction(comb(15, 3), comb(18, 3))
    # a bag with one token gone: 17 tokens, and str-both missing, each named at its rule's line
    broken = tmp_path / "token_defs.yaml"
    broken.write_text(text.replace("  - {id: str-both, attribute: STR, priority: both}\n", ""), "utf-8")
    report = check_catalogue(broken)
    assert not report.playable
    lines = format_report(report).splitlines()
    assert f"{broken}:{line_of(broken, 'total: {min: 18')}: rules[0]: one bag of 18: 17 tokens, 18 wanted" in lines
    assert f"{broken}:{line_of(broken, 'each: [attribute')}: rules[1]: one of each: no token is STR both; every attribute × priority wanted" in lines
    # a token twice: exactly 1 of each is broken
    doubled = text.replace("{id: str-both, attribute: STR, priority: both}", "{id: str-both, attribute: STR, priority: both, copies: 2}")
    broken.write_text(doubled, "utf-8")
    report = check_catalogue(broken)
    assert [f.message for f in report.findings if f.code == "rule"] == [
        "one bag of 18: 19 tokens, 18 wanted", "one of each: 2 tokens are STR both, exactly 1 of each attribute × priority wanted",
        "one copy of each: 2 copies of 'str-both' (id), at most 1 wanted"]


def test_where_matches_a_colour_field_by_its_hex(tmp_path):
    """A colour field compares as #rrggbb in any case: the counters starter's blue side
    (3 + 3 + 2 + 2 + 1 counters of #4f6fa8 among 20)."""
    starter = ROOT / "tokengen" / "data" / "starters" / "counters"
    for name in ("counters.yaml", "tokens.csv"):
        (tmp_path / name).write_bytes((starter / name).read_bytes())
    text = (tmp_path / "counters.yaml").read_text("utf-8")
    (tmp_path / "counters.yaml").write_text(text.replace("odds:\n", "odds:\n  - {draw: 2, want: {where: {colour: \"#4F6FA8\"}, exactly: 2}}\n", 1), "utf-8")
    found = next(f for f in check_catalogue(tmp_path / "counters.yaml").findings if f.code == "odds")
    assert Fraction(found.data["p"]) == Fraction(comb(11, 2), comb(20, 2))


def test_the_starters_declare_rules_and_odds():
    for name in ("cards/cards.yaml", "counters/counters.yaml"):
        report = check_catalogue(ROOT / "tokengen" / "data" / "starters" / name)
        assert report.playable, name
        assert next(f for f in report.findings if f.code == "rules").message.startswith("all ")
        assert len([f for f in report.findings if f.code == "odds"]) == 2


def test_the_guide_example_is_real(run, tmp_path, monkeypatch):
    """docs/guide/checks.md: its catalogue, checked, gives the output it shows."""
    import re

    text = (ROOT / "docs" / "guide" / "checks.md").read_text("utf-8")
    catalogue = re.search(r"```yaml\n(.*?)```", text, re.S)[1]
    shown = re.search(r"```console\n\$ tokengen check cards.yaml\n(.*?)```", text, re.S)[1]
    (tmp_path / "cards.yaml").write_text(catalogue, "utf-8")
    monkeypatch.chdir(tmp_path)
    result = run("check", "cards.yaml")
    assert result.exit_code == 1 and result.stdout == shown
    # the guide's sums by hand
    assert "37/44" in shown and 1 - Fraction(comb(9, 5), comb(12, 5)) == Fraction(37, 44)
    assert "31/66" in shown and Fraction(comb(7, 2) + comb(5, 2), comb(12, 2)) == Fraction(31, 66)
