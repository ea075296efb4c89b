"""Issue 15: every open question of the Meatshields variant is a named reading with a switch, and
every game number lives in data. Issue 18: the bag's state, the draws and the odds' inputs.
Each test is named after the rule it checks."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import CATALOGUE, DATA
from tokengen.errors import UsageError
from tokengen.games.meatshields.rules import (
    INTERPRETATIONS,
    SMALL_BAG,
    Adventurer,
    BagState,
    Hire,
    Interpretations,
    Monster,
    Settings,
    check_catalogue,
    draw_table,
    draws,
    p_at_least_one,
    parse_targeting,
    resolve_targets,
    tokens_drawn,
)
from tokengen.model import Draws, Game
from tokengen.sources import gamedata
from tokengen.sources.catalogue import load_catalogue, schema

CAT = load_catalogue(CATALOGUE)
GAME = CAT.game
ANN = "Ann:STR=6,AGI=3,CON=4,MAG=2,MRL=5,PER=3"
BOB = "Bob:STR=2,AGI=5,CON=5,MAG=4,MRL=3,PER=6"
SHORT_BAG = DATA / "rules" / "too_few_tokens.yaml"


def _catalogue(tmp_path: Path, old: str, new: str) -> Path:
    path = tmp_path / "cat.yaml"
    text = CATALOGUE.read_text("utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), "utf-8")
    return path


# --- damage: the variant announces two ways of handling it and lists neither --------------------

def test_damage_dies_a_meatshield_dies_at_its_first_hit(run):
    result = run("target", "-c", str(CATALOGUE), "-a", ANN, "-a", BOB, "-m", "↓STR", "-d", "str-low")
    assert result.exit_code == 0, result.stderr
    assert "damage=dies" in result.stdout.splitlines()[2]
    assert result.stdout.splitlines()[-1] == (
        "Meatshield str-low: 1 hit: it dies (damage=dies: the first hit kills); its token goes back to the bag")
    data = json.loads(run("target", "-c", str(CATALOGUE), "-a", ANN, "-m", "↓STR", "-d", "str-low", "--format", "json").stdout)
    assert data["interpretations"]["damage"] == "dies"
    assert data["meatshield_damage"] == {"reading": "dies", "hits": 1, "wounds": None, "killed": True}


@pytest.mark.parametrize(("monsters", "hits", "killed", "last"), [
    (["↓STR"], 1, False, "Meatshield str-both: 1 hit: it lives with 1 of 2 wounds (damage=wounds: the hit that makes 2 wounds kills)"),
    (["↓STR", "↑STR"], 2, True, "Meatshield str-both: 2 hits: it dies (damage=wounds: the hit that makes 2 wounds kills); "
                                "its token goes back to the bag"),
    (["↓AGI"], 0, False, "Meatshield str-both: no hits: it is unhurt (damage=wounds: the hit that makes 2 wounds kills)"),
])
def test_damage_wounds_a_meatshield_dies_at_the_catalogues_wound_count(run, monsters, hits, killed, last):
    args = ["target", "-c", str(CATALOGUE), "-a", ANN, "-a", BOB, "-d", "str-both", "--damage", "wounds"]
    for m in monsters:
        args += ["-m", m]
    result = run(*args)
    assert result.exit_code == 0, result.stderr
    assert "damage=wounds" in result.stdout.splitlines()[2]
    assert result.stdout.splitlines()[-1] == last
    data = json.loads(run(*args, "--format", "json").stdout)
    assert data["meatshield_damage"] == {"reading": "wounds", "hits": hits, "wounds": 2, "killed": killed}


def test_damage_reading_comes_from_the_catalogue_and_a_switch_overrides_it(run, tmp_path: Path):
    cat = _catalogue(tmp_path, "{wounds: 2}", "{wounds: 3}")
    cat.write_text(cat.read_text("utf-8").replace("\ntokens:", "\ninterpretations: {damage: wounds}\ntokens:"), "utf-8")
    args = ["target", "-c", str(cat), "-a", ANN, "-m", "↓STR", "-m", "↑STR", "-m", "↓↑STR", "-d", "str-both", "--format", "json"]
    assert json.loads(run(*args).stdout)["meatshield_damage"] == {"reading": "wounds", "hits": 3, "wounds": 3, "killed": True}
    assert json.loads(run(*args, "--damage", "dies").stdout)["meatshield_damage"]["reading"] == "dies"


# --- a draw larger than the bag: the variant is silent ------------------------------------------

def test_small_bag_error_a_bag_smaller_than_the_largest_draw_is_not_playable(run):
    result = run("check", str(SHORT_BAG), "--format", "json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    finding = next(f for f in data["findings"] if f["code"] == "bag-too-small")
    assert finding["severity"] == "error" and finding["data"]["small_bag"] == "error"
    odds = next(f for f in data["findings"] if f["code"] == "draw-odds")["data"]
    assert odds["bag"] == 2 and odds["draw_sizes"] == [1, 2, 3]
    assert odds["rows"][0]["p"][2] is None  # a draw of 3 from 2 cannot be made
    assert "      —" in run("check", str(SHORT_BAG)).stdout


def test_small_bag_take_rest_a_draw_larger_than_the_bag_takes_all_of_it(run):
    result = run("check", str(SHORT_BAG), "--small-bag", "take-rest", "--format", "json")
    assert result.exit_code == 0, result.stdout
    data = json.loads(result.stdout)
    finding = next(f for f in data["findings"] if f["code"] == "bag-too-small")
    assert finding["severity"] == "warning" and "takes all 2" in finding["message"]
    odds = next(f for f in data["findings"] if f["code"] == "draw-odds")["data"]
    # ↓STR: token a (low) and token b (both) absorb it: 2 of 2, so any draw of 1 or more finds one
    assert [r["p"] for r in odds["rows"] if r["targeting"] == "↓STR"] == [["1", "1", "1"]]
    # ↑STR: only token b (both) absorbs it: 1 of 2, so a draw of 1 finds it half the time, a draw of 3 takes both
    assert [r["p"] for r in odds["rows"] if r["targeting"] == "↑STR"] == [["1/2", "1", "1"]]


@pytest.mark.parametrize(("reading", "drawn"), [("take-rest", 5), ("error", None)])
def test_small_bag_one_reading_for_the_check_the_odds_and_the_bag(reading, drawn):
    state = BagState(("a",) * 5)
    if drawn is None:
        with pytest.raises(ValueError, match="a draw of 6 cannot be made from a bag of 5"):
            tokens_drawn(5, 6, reading)
        with pytest.raises(ValueError, match="cannot be made"):
            p_at_least_one(5, 1, 6, reading)
        assert not state.can_draw(6, reading)
    else:
        assert tokens_drawn(5, 6, reading) == drawn
        assert p_at_least_one(5, 1, 6, reading) == 1
        assert state.can_draw(6, reading)
    assert SMALL_BAG == tuple(INTERPRETATIONS["small_bag"])


# --- the interpretations as a whole --------------------------------------------------------------

def test_check_json_lists_every_interpretation_in_play_with_its_switch(run):
    data = json.loads(run("check", str(CATALOGUE), "--format", "json", "--damage", "wounds").stdout)
    listed = data["interpretations_in_play"]
    assert [i["name"] for i in listed] == list(INTERPRETATIONS)
    assert [i["switch"] for i in listed] == ["--one-sided", "--ties", "--same-target", "--damage", "--small-bag"]
    damage = next(i for i in listed if i["name"] == "damage")
    assert damage["value"] == "wounds" and damage["options"] == ["dies", "wounds"]
    assert "brings its wounds to 2 kills it" in damage["meaning"]
    help_text = run("check", "--help").stdout
    for item in listed:
        assert item["switch"] in help_text


def test_catalogue_interpretations_are_the_engines_readings():
    spec = schema()["properties"]["interpretations"]["properties"]
    assert {k: v["enum"] for k, v in spec.items()} == {k: list(v) for k, v in INTERPRETATIONS.items()}
    assert Interpretations().as_dict() == {k: next(iter(v)) for k, v in INTERPRETATIONS.items()}


def test_catalogue_interpretation_typo_is_explained(run, tmp_path: Path):
    cat = _catalogue(tmp_path, "\ntokens:", "\ninterpretations: {damage: wound}\ntokens:")
    result = run("check", str(cat))
    assert result.exit_code == 2  # bad input, as build says it (was 1 with the line on stdout)
    line = next(n for n, text in enumerate(cat.read_text("utf-8").splitlines(), 1) if text.startswith("interpretations"))
    assert result.stderr == f"tokengen: error: {cat}:{line}: interpretations.damage: unknown value 'wound'; did you mean 'wounds'?\n"


# --- targeting: repeated -d, ties with a both-sides monster --------------------------------------

def test_deployed_given_twice_is_refused(run):
    result = run("target", "-c", str(CATALOGUE), "-a", ANN, "-m", "↓STR", "-d", "str-low", "-d", "agi-low")
    assert result.exit_code == 2
    assert result.stderr == ("tokengen: error: tokengen target: Invalid value for '-d' / '--deployed': given 2 times "
                             "(str-low, agi-low); only one Meatshield is deployed at a time, so give it once "
                             "(see 'tokengen target --help')\n")


def _all_tied(**interp: str):
    party = [Adventurer(n, {a.code: 4 for a in GAME.attributes}) for n in ("Ann", "Bob", "Cid")]
    (r,) = resolve_targets(party, [Monster("m", parse_targeting("↓↑STR", GAME))], interpretations=Interpretations(**interp))
    return [(a.candidates, a.times, a.side) for a in r.attacks]


def test_same_target_once_holds_when_every_adventurer_is_tied_and_the_players_choose():
    # one choice, attacked once: two free choices could both land on Ann
    assert _all_tied() == [(("Ann", "Bob", "Cid"), 1, "lowest+highest")]


def test_same_target_twice_and_ties_all_with_every_adventurer_tied():
    assert _all_tied(same_target="twice") == [(("Ann", "Bob", "Cid"), 1, "lowest"), (("Ann", "Bob", "Cid"), 1, "highest")]
    assert _all_tied(ties="all") == [(("Ann",), 1, "lowest+highest"), (("Bob",), 1, "lowest+highest"), (("Cid",), 1, "lowest+highest")]


# --- game numbers in data, never in code -----------------------------------------------------------

def test_no_game_number_has_a_default_in_the_code():
    for cls, names in ((Draws, ("settlement_danger_levels", "town_levels", "explored_bonus", "solo_start")),
                       (Game, ("draws", "hire_gp", "trade_gp"))):
        fields = {f.name: f for f in dataclasses.fields(cls)}
        for name in names:
            assert fields[name].default is dataclasses.MISSING and fields[name].default_factory is dataclasses.MISSING, name


def test_every_default_game_number_states_its_source():
    for group, name in gamedata.names():
        source = gamedata.source(group, name)
        assert source.startswith(("variant, ", "assumption: ")), (group, name)
    assumptions = {n for g, n in gamedata.names() if gamedata.source(g, n).startswith("assumption")}
    assert assumptions == {"settlement_danger_levels", "town_levels", "trade_gp", "wounds"}


def test_catalogue_without_draws_or_costs_takes_the_sourced_defaults(run, tmp_path: Path):
    text = CATALOGUE.read_text("utf-8")
    start, end = text.index("  draws:\n"), text.index("  variants:\n")
    cat = tmp_path / "bare.yaml"
    cat.write_text(text[:start] + text[end:], "utf-8")
    game = load_catalogue(cat).game
    assert game.draws == Draws((2, 3, 4, 5), (2, 3, 4, 5), 1, 3) and (game.hire_gp, game.trade_gp, game.wounds) == (2, 0, 2)
    assert game.defaulted == ("draws.settlement_danger_levels", "draws.town_levels", "draws.explored_bonus",
                              "draws.solo_start", "costs.hire_gp", "costs.trade_gp", "damage.wounds")
    data = json.loads(run("check", str(cat), "--format", "json").stdout)
    (finding,) = [f for f in data["findings"] if f["code"] == "game-defaults"]
    numbers = {n["number"]: n for n in finding["data"]["numbers"]}
    assert numbers["game.costs.hire_gp"] == {"number": "game.costs.hire_gp", "value": 2, "source": gamedata.source("costs", "hire_gp")}
    assert numbers["game.draws.town_levels"]["value"] == [2, 3, 4, 5]
    # the real catalogue states every number itself
    assert not [f for f in json.loads(run("check", str(CATALOGUE), "--format", "json").stdout)["findings"] if f["code"] == "game-defaults"]


def test_token_defs_marks_its_assumptions_with_their_sources():
    text = CATALOGUE.read_text("utf-8")
    for marked in ("settlement_danger_levels: [2, 3, 4, 5]  # ASSUMPTION", "town_levels: [2, 3, 4, 5]               # ASSUMPTION",
                   "trade_gp: 0    # ASSUMPTION", "damage: {wounds: 2}  # ASSUMPTION", "attributes:   # ASSUMPTION: the base game's six",
                   "# tokens: ASSUMPTION: 18 tokens"):
        assert marked in text, marked


# --- issue 18: the bag's state, the draws, the odds' inputs --------------------------------------

def test_draws_lists_every_settlement_town_and_solo_draw_exactly():
    got = [(d.place, d.level, d.explored, d.size) for d in draws(GAME, ("town-draws", "solo-start"))]
    settlement = [("settlement", n, e, n + int(e)) for n in (2, 3, 4, 5) for e in (False, True)]
    town = [("town", n, e, n + int(e)) for n in (2, 3, 4, 5) for e in (False, True)]
    assert got == settlement + town + [("solo start", None, False, 3)]
    assert [(d.place, d.level, d.explored, d.size) for d in draws(GAME, ())] == settlement


def test_odds_refuse_a_negative_hit_count():
    with pytest.raises(ValueError, match=r"^the number of wanted tokens must be 0 or more, got -1$"):
        p_at_least_one(18, -1, 3)
    with pytest.raises(ValueError, match=r"^the bag of 2 cannot hold 3 wanted tokens$"):
        p_at_least_one(2, 3, 1)
    with pytest.raises(ValueError, match="0 or more"):
        p_at_least_one(18, 2, -1)
    assert p_at_least_one(18, 0, 3) == 0


def test_drawing_never_takes_more_copies_than_the_bag_holds():
    state = BagState(("a", "a", "b"))
    assert Counter(state.hire(["a", "a"], {"a": "Ann"}).bag) == Counter({"a": 1, "b": 1})
    with pytest.raises(UsageError, match="token 'a' is not in the bag"):
        state.hire(["a", "a", "a"], {})
    with pytest.raises(UsageError, match="token 'b' is not in the bag"):
        state.hire(["b", "b"], {"b": "Ann"})


def test_release_and_trade_touch_only_the_named_hire():
    state = BagState(("x",), (Hire("a", "Ann"), Hire("b", "Ann"), Hire("c", "Bob")))
    assert state.release("b").hired == (Hire("a", "Ann"), Hire("c", "Bob"))
    assert state.release("a").hired == (Hire("b", "Ann"), Hire("c", "Bob"))
    assert Counter(state.release("c").bag) == Counter({"x": 1, "c": 1})
    assert state.trade("a", "Bob").hired == (Hire("a", "Bob"), Hire("b", "Ann"), Hire("c", "Bob"))
    assert state.trade("b", "Cid").hired == (Hire("a", "Ann"), Hire("b", "Cid"), Hire("c", "Bob"))
    assert state.trade("b", "Cid").bag == ("x",)


IDS = ("a", "b", "c", "d")
PEOPLE = ("Ann", "Bob", "Cid")


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(IDS), min_size=0, max_size=12), st.data())
def test_bag_contents_follow_hire_release_trade_and_deaths(start, data):
    """The bag against a plain model: a multiset of tokens in the bag and a list of hires."""
    state = BagState(tuple(start))
    bag, hired = Counter(start), []
    for _ in range(data.draw(st.integers(0, 15), label="steps")):
        op = data.draw(st.sampled_from(("hire", "release", "trade", "dies")), label="op")
        if op == "hire" and +bag:
            pool = list((+bag).elements())
            drawn = data.draw(st.lists(st.sampled_from(pool), max_size=len(pool)), label="drawn")
            drawn = [t for i, t in enumerate(drawn) if drawn[:i + 1].count(t) <= bag[t]]  # no more copies than the bag holds
            chosen = {t: data.draw(st.sampled_from(PEOPLE)) for t in data.draw(st.lists(st.sampled_from(drawn), unique=True)) } if drawn else {}
            state = state.hire(drawn, chosen)
            for token, employer in chosen.items():
                bag[token] -= 1
                hired.append((token, employer))
        elif op == "release" and hired:
            i = data.draw(st.integers(0, len(hired) - 1), label="release")
            token = hired[i][0]
            first = next(j for j, h in enumerate(hired) if h[0] == token)
            state = state.release(token)
            hired.pop(first)
            bag[token] += 1
        elif op == "trade" and hired:
            i = data.draw(st.integers(0, len(hired) - 1), label="trade")
            token, to = hired[i][0], data.draw(st.sampled_from(PEOPLE), label="to")
            first = next(j for j, h in enumerate(hired) if h[0] == token)
            state = state.trade(token, to)
            hired[first] = (token, to)
        elif op == "dies":
            who = data.draw(st.sampled_from(PEOPLE), label="dies")
            state = state.employer_dies(who)
            for token, employer in hired:
                if employer == who:
                    bag[token] += 1
            hired = [h for h in hired if h[1] != who]
        assert Counter(state.bag) == +bag
        assert [(h.token, h.employer) for h in state.hired] == hired
        assert len(state.bag) + len(state.hired) == len(start)  # no token made or lost


def test_draw_odds_use_the_small_bag_reading_of_the_settings():
    cat = load_catalogue(SHORT_BAG)
    error = draw_table(cat, Settings(interpretations=Interpretations()))
    rest = draw_table(cat, Settings(interpretations=Interpretations(small_bag="take-rest")))
    assert [r["p"][2] for r in error["rows"]] == [None] * 3
    assert [r["p"][2] for r in rest["rows"]] == [Fraction(1)] * 3
    report = check_catalogue(SHORT_BAG, readings={"small_bag": "take-rest"})
    assert report.playable and report.interpretations.small_bag == "take-rest"
