"""``tokengen target``'s input and output, exactly: scenario files, command-line specs, the text
and the JSON a player reads.

Written from the mutants ``make mutate`` found alive in tokengen/games/meatshields/rules/scenario.py (issue 18).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from tests.conftest import CATALOGUE
from tokengen.errors import CatalogueError, UsageError
from tokengen.games.meatshields.rules import (
    Adventurer,
    Damage,
    Interpretations,
    Meatshield,
    Monster,
    Scenario,
    Targeting,
    TargetResult,
    build_scenario,
    load_scenario,
    resolve_targets,
    target,
)
from tokengen.games.meatshields.rules.scenario import parse_adventurer, parse_deployed, parse_monster, parse_scores
from tokengen.sources.catalogue import load_catalogue

CAT = load_catalogue(CATALOGUE)
GAME = CAT.game
PRIORITY = {p.code: p for p in GAME.priorities}
CODES = "AGI, CON, MAG, MRL, PER, STR"
ANN = "Ann:STR=6,AGI=3,CON=4,MAG=2,MRL=5,PER=3"
ANN_SCORES = {"AGI": 3, "CON": 4, "MAG": 2, "MRL": 5, "PER": 3, "STR": 6}
USE = f"use ATTRIBUTE=NUMBER with one of {CODES}"


# ---- command-line specs -----------------------------------------------------------------------


def test_scores_are_read_in_any_case_and_order_and_kept_in_the_games_order():
    scores = parse_scores(" str=6, AGI = 3,,CON=4,MAG=2,MRL=5,PER=-1 ", GAME)
    assert scores == {"AGI": 3, "CON": 4, "MAG": 2, "MRL": 5, "PER": -1, "STR": 6}
    assert list(scores) == ["AGI", "CON", "MAG", "MRL", "PER", "STR"]


@pytest.mark.parametrize("text, message", [
    ("STR", f"cannot read score 'STR': {USE}"),
    ("STX", f"cannot read score 'STX': {USE}"),  # no '=': no "did you mean"
    ("STX=6", f"cannot read score 'STX=6'; did you mean 'STR'?: {USE}"),
    ("STR=9=1", "score STR must be a whole number, got '9=1'"),
    ("STR=1,str=2", "score STR given twice"),
    ("AGI=1,CON=1,MAG=1,MRL=1,PER=1", "missing score STR (every Adventurer has all 6)"),
    ("AGI=1,CON=1,MAG=1,MRL=1", "missing scores PER, STR (every Adventurer has all 6)"),
    ("", f"missing scores {CODES} (every Adventurer has all 6)"),
])
def test_bad_scores_are_explained(text, message):
    with pytest.raises(UsageError) as err:
        parse_scores(text, GAME)
    assert str(err.value) == message


def test_adventurer_spec_is_a_name_a_colon_and_scores():
    assert parse_adventurer(f" {ANN} ", GAME) == Adventurer("Ann", ANN_SCORES)


@pytest.mark.parametrize("text, message", [
    ("Ann", "cannot read Adventurer 'Ann': use NAME:STR=9,AGI=8,..."),
    (" :STR=6", "cannot read Adventurer ' :STR=6': use NAME:STR=9,AGI=8,..."),
    ("Ann:Bo:STR=6", f"Adventurer 'Ann': cannot read score 'Bo:STR=6'; did you mean 'STR'?: {USE}"),
    ("Ann:STR=6", "Adventurer 'Ann': missing scores AGI, CON, MAG, MRL, PER (every Adventurer has all 6)"),
])
def test_bad_adventurer_specs_are_explained(text, message):
    with pytest.raises(UsageError) as err:
        parse_adventurer(text, GAME)
    assert str(err.value) == message


@pytest.mark.parametrize("text, name, label", [
    ("Rat King=↓STR", "Rat King", "↓STR"),
    (" Rat King = high:agi", "Rat King", "↑AGI"),
    ("A=B=↓↑PER", "A=B", "↓↑PER"),
    ("↓STR", "monster 4", "↓STR"),
    ("=↓STR", "monster 4", "↓STR"),
    ("  =ALL", "monster 4", "ALL"),
])
def test_monster_spec_names_unnamed_monsters_by_number(text, name, label):
    monster = parse_monster(text, GAME, 4)
    assert (monster.name, monster.targeting.label, monster.steals_gold) == (name, label, False)


@pytest.mark.parametrize("text, expected", [
    ("str-low", Meatshield("str-low", "STR", PRIORITY["low"])),
    (" ↓↑PER ", Meatshield("↓↑PER", "PER", PRIORITY["both"])),
    ("high:agi", Meatshield("↑AGI", "AGI", PRIORITY["high"])),
])
def test_deployed_is_a_token_id_or_a_token_spec(text, expected):
    assert parse_deployed(text, CAT) == expected


# ---- scenario files ---------------------------------------------------------------------------


def _file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "fight.yaml"
    path.write_text(text, "utf-8")
    return path


def test_scenario_file_with_text_monsters_and_defaults(tmp_path):
    path = _file(tmp_path, """\
adventurers:
  - name: Ann
    scores: {str: 6, agi: 3, CON: 4, MAG: 2, MRL: 5, PER: 3}
monsters:
  - "↓STR"
  - {name: Cutpurse, targeting: "low:AGI", steals_gold: true}
  - {targeting: "↓↑PER"}
""")
    scenario = load_scenario(path, CAT)
    assert scenario.party == (Adventurer("Ann", ANN_SCORES),)
    assert [(m.name, m.targeting.label, m.steals_gold) for m in scenario.monsters] == [
        ("monster 1", "↓STR", False), ("Cutpurse", "↓AGI", True), ("monster 3", "↓↑PER", False)]
    assert all(m.steals_gold is False for m in scenario.monsters if m.name != "Cutpurse")
    assert scenario.deployed is None
    assert scenario.variants == CAT.variants == ("solo-start",)


@pytest.mark.parametrize("variants, expected", [
    ("variants:", ()),
    ("variants: []", ()),
    ("variants: [paid-trade, town-draws]", ("town-draws", "paid-trade")),
])
def test_scenario_variants_replace_the_catalogues(tmp_path, variants, expected):
    path = _file(tmp_path, f"deployed: ↓↑PER\n{variants}\n")
    scenario = load_scenario(path, CAT)
    assert scenario == Scenario((), (), Meatshield("↓↑PER", "PER", PRIORITY["both"]), expected)


@pytest.mark.parametrize("text, line, field, message", [
    ("adventurers:\n  - name: Ann\n    scores: {STX: 6, AGI: 3, CON: 4, MAG: 2, MRL: 5, PER: 3}\n",
     3, "adventurers[0].scores.STX", "unknown attribute; did you mean 'STR'?"),
    ("adventurers:\n  - name: Ann\n    scores: {ZZZ: 6, AGI: 3, CON: 4, MAG: 2, MRL: 5, PER: 3}\n",
     3, "adventurers[0].scores.ZZZ", "unknown attribute"),
    ("adventurers:\n  - {name: Bob, scores: {STR: 1, AGI: 3, CON: 4, MAG: 2, MRL: 5, PER: 3}}\n"
     "  - name: Ann\n    scores: {STR: 6, AGI: 3, CON: 4, MAG: 2, MRL: 5}\n",
     4, "adventurers[1].scores", "missing score PER (every Adventurer has all 6)"),
    ("monsters:\n  - ↓STR\n  - {name: Rat King, targeting: ↓STQ}\n",
     3, "monsters[1].targeting", "unknown attribute 'STQ' in '↓STQ'; did you mean 'STR'?"),
    ("monsters: [↓STR, up:STR]\n",
     1, "monsters[1].targeting", "unknown priority 'up' in 'up:STR' (known: low, high, both)"),
    ("monsters: [↓STR]\ndeployed: str-lo\n",
     2, "deployed", "deployed token 'str-lo' is not a token id; did you mean 'str-low'? nor a spec "
                    "(cannot read targeting 'str-lo': use ↓X, ↑X, ↓↑X, low:X, high:X, both:X)"),
    ("monsters: [↓STR]\n\nvariants: [town-draws, cheap-hyre]\n",
     3, "variants", "unknown variant 'cheap-hyre'; did you mean 'cheap-hire'?"),
])
def test_bad_scenario_entries_name_file_line_and_field(tmp_path, text, line, field, message):
    path = _file(tmp_path, text)
    with pytest.raises(CatalogueError) as err:
        load_scenario(path, CAT)
    assert (err.value.path, err.value.line, err.value.field, err.value.message) == (str(path), line, field, message)
    assert str(err.value) == f"{path}:{line}: {field}: {message}"


def test_command_line_monsters_are_numbered_after_the_files(tmp_path):
    path = _file(tmp_path, "adventurers: [{name: Ann, scores: {STR: 6, AGI: 3, CON: 4, MAG: 2, MRL: 5, PER: 3}}]\n"
                           "monsters: [↓STR, ↑STR]\ndeployed: str-low\n")
    scenario = build_scenario(CAT, path, monsters=["↓AGI"], deployed=" None ", add=["cheap-hire"])
    assert [m.name for m in scenario.monsters] == ["monster 1", "monster 2", "monster 3"]
    assert scenario.deployed is None
    assert scenario.variants == ("cheap-hire", "solo-start")
    assert build_scenario(CAT, adventurers=[ANN], monsters=["ALL"]).variants == ("solo-start",)


# ---- what the player reads --------------------------------------------------------------------

HEAD = "interpretations: one-sided=split, ties=choose, same-target=once, damage=dies, small-bag=error\n"
SOLO = {"targets": ["Ann"], "times": 1, "side": "lowest+highest", "meatshield": False, "tie": False}


def test_one_adventurer_on_both_sides_with_no_token_and_no_variants():
    result = target(CATALOGUE, adventurers=[ANN], monsters=["Brute=↓↑STR"], remove=["solo-start"])
    assert result.damage is None
    assert result.format() == ("deployed Meatshield: none\nvariants in play: none\n" + HEAD
                               + "Brute (↓↑STR): attacks Ann ×1 as lowest and highest STR\n")
    assert result.as_dict() == {
        "deployed": None, "variants": [], "interpretations": Interpretations().as_dict(),
        "monsters": [{"name": "Brute", "targeting": "↓↑STR", "attacks": [SOLO], "notes": []}],
        "meatshield_damage": None,
    }


def test_deployed_token_in_the_text_and_the_json():
    result = target(CATALOGUE, adventurers=[ANN], monsters=["Rat King=↓STR", "↑STR"], deployed="str-low",
                    add=["town-draws", "paid-trade"], interpretations={"damage": "wounds"})
    note = "hits the Meatshield automatically and takes no damage back; resolve it after every Adventurer's turn"
    assert result.format() == (
        "deployed Meatshield: str-low (↓STR)\nvariants in play: town-draws, paid-trade, solo-start\n"
        + HEAD.replace("damage=dies", "damage=wounds")
        + f"Rat King (↓STR): attacks Meatshield str-low ×1 as lowest STR\n  note: {note}\n"
        + "monster 2 (↑STR): attacks Ann ×1 as highest STR\n"
        + "Meatshield str-low: 1 hit: it lives with 1 of 2 wounds (damage=wounds: the hit that makes 2 wounds kills)\n")
    data = result.as_dict()
    assert data["deployed"] == {"name": "str-low", "token": "↓STR"}
    assert data["variants"] == ["town-draws", "paid-trade", "solo-start"]
    assert data["monsters"][0] == {"name": "Rat King", "targeting": "↓STR", "notes": [note], "attacks": [
        {"targets": ["str-low"], "times": 1, "side": "lowest", "meatshield": True, "tie": False}]}
    assert data["meatshield_damage"] == {"reading": "wounds", "hits": 1, "wounds": 2, "killed": False}
    # a result built without the damage says nothing about it
    assert replace(result, damage=None).format() == result.format().rsplit("Meatshield str-low:", 1)[0]
    assert replace(result, damage=None).as_dict()["meatshield_damage"] is None


def test_a_monster_with_no_one_to_attack():
    swarm = Monster("Swarm", Targeting(None, None))
    result = TargetResult(Scenario((), (swarm,), None, ()), Interpretations(), resolve_targets((), (swarm,)))
    assert result.format() == ("deployed Meatshield: none\nvariants in play: none\n" + HEAD
                               + "Swarm (ALL): attacks no one\n  note: has no one to attack\n")


def test_wounds_reading_needs_a_wound_count():
    with pytest.raises(UsageError) as err:
        Damage.of((), "wounds", None)
    assert str(err.value) == "damage=wounds needs the catalogue's game.damage.wounds"
    assert Damage.of((), "dies", None) == Damage("dies", 0, None, False)


def test_target_refuses_a_catalogue_with_declared_fields_in_one_exact_line():
    from tokengen.games.meatshields.rules.scenario import target

    status = Path(__file__).resolve().parents[3] / "examples" / "status-tokens" / "status.yaml"
    with pytest.raises(UsageError) as caught:
        target(status, adventurers=["Ann:STR=6"], monsters=["↓STR"])
    assert str(caught.value) == (f"{status}: target resolves Meatshields fights, and this catalogue declares its own fields "
                                 "(game 'generic'): it has no attributes, priorities or targeting")
