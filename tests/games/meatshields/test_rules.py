"""The Meatshield rules engine, one table row (or more) per rule sentence of issue 3."""

from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import CATALOGUE, DATA
from tokengen.errors import UsageError
from tokengen.games.meatshields.rules import (
    Adventurer,
    BagState,
    Interpretations,
    Meatshield,
    Monster,
    Settings,
    check_catalogue,
    costs,
    draw_size,
    draw_table,
    draws,
    largest_draw,
    may_deploy,
    meatshield_affected,
    p_at_least_one,
    parse_targeting,
    resolve_targets,
    variants_in_play,
)
from tokengen.model import Draws
from tokengen.sources.catalogue import load_catalogue

CAT = load_catalogue(CATALOGUE)
GAME = CAT.game
TOKENS = {t.id: Meatshield.of(t, CAT.game) for t in CAT.tokens}


def party(**people: str) -> tuple[Adventurer, ...]:
    """``party(Ann="STR=6 AGI=3")`` → Adventurers; attributes left out score 4."""
    out = []
    for name, spec in people.items():
        scores = {a.code: 4 for a in GAME.attributes}
        scores.update({k: int(v) for k, v in (pair.split("=") for pair in spec.split())})
        out.append(Adventurer(name, scores))
    return tuple(out)


TWO = party(Ann="STR=6 AGI=3 PER=3", Bob="STR=2 AGI=5 PER=6")
TIED = party(Ann="AGI=3", Bob="AGI=3", Cid="AGI=5")
SOLO = party(Ann="STR=6")


def outcome(adventurers, monster: str, deployed: str | None = None, variants=(), **interp) -> list[tuple]:
    """(candidates, times, meatshield) for each attack of one monster."""
    m = Monster("m", parse_targeting(monster, GAME))
    token = TOKENS[deployed] if deployed else None
    (r,) = resolve_targets(adventurers, [m], token, variants=variants, interpretations=Interpretations(**interp))
    return [(a.candidates if a.tie else a.candidates[0], a.times, a.meatshield) for a in r.attacks]


# Issue 3, "Combat": each row is (rule, party, monster, deployed, variants, interpretations, expected attacks).
TARGETING_CASES = [
    ("no token: lowest STR is attacked", TWO, "↓STR", None, (), {}, [("Bob", 1, False)]),
    ("no token: highest STR is attacked", TWO, "high:STR", None, (), {}, [("Ann", 1, False)]),
    ("↓X token matches a lowest-X monster", TWO, "↓STR", "str-low", (), {}, [("str-low", 1, True)]),
    ("↓X token does not match a highest-X monster", TWO, "↑STR", "str-low", (), {}, [("Ann", 1, False)]),
    ("↑X token matches a highest-X monster", TWO, "↑STR", "str-high", (), {}, [("str-high", 1, True)]),
    ("↑X token does not match a lowest-X monster", TWO, "↓STR", "str-high", (), {}, [("Bob", 1, False)]),
    ("a token of another attribute does not match", TWO, "↓AGI", "str-low", (), {}, [("Ann", 1, False)]),
    ("↓↑X token matches a lowest-X monster", TWO, "low:STR", "str-both", (), {}, [("str-both", 1, True)]),
    ("↓↑X token matches a highest-X monster", TWO, "↑STR", "str-both", (), {}, [("str-both", 1, True)]),
    ("↓↑X token matches a both-X monster and is attacked only once", TWO, "↓↑STR", "str-both", (), {},
     [("str-both", 1, True)]),
    ("both-X monster without a token attacks lowest and highest", TWO, "both:PER", None, (), {},
     [("Ann", 1, False), ("Bob", 1, False)]),
    ("split: ↓X token takes the lowest side of a both-X monster", TWO, "↓↑STR", "str-low", (), {},
     [("str-low", 1, True), ("Ann", 1, False)]),
    ("split: ↑X token takes the highest side of a both-X monster", TWO, "↓↑STR", "str-high", (), {},
     [("str-high", 1, True), ("Bob", 1, False)]),
    ("exact: ↓X token is ignored by a both-X monster", TWO, "↓↑STR", "str-low", (), {"one_sided": "exact"},
     [("Bob", 1, False), ("Ann", 1, False)]),
    ("exact: ↓↑X token still takes a both-X monster once", TWO, "↓↑STR", "str-both", (), {"one_sided": "exact"},
     [("str-both", 1, True)]),
    ("target-all ignores the token", TWO, "ALL", "str-both", (), {}, [("Ann", 1, False), ("Bob", 1, False)]),
    ("target-all with the variant also hits the token", TWO, "all", "str-both", ("target-all-hits",), {},
     [("Ann", 1, False), ("Bob", 1, False), ("str-both", 1, True)]),
    ("target-all with the variant and no token", TWO, "ALL", None, ("target-all-hits",), {},
     [("Ann", 1, False), ("Bob", 1, False)]),
    ("ties, choose: one of the tied is attacked, flagged", TIED, "↓AGI", None, (), {}, [(("Ann", "Bob"), 1, False)]),
    ("ties, all: every tied Adventurer is attacked", TIED, "↓AGI", None, (), {"ties": "all"},
     [("Ann", 1, False), ("Bob", 1, False)]),
    ("no tie on the other side", TIED, "↑AGI", None, (), {}, [("Cid", 1, False)]),
    ("solo Adventurer, both-X monster: once", SOLO, "↓↑STR", None, (), {}, [("Ann", 1, False)]),
    ("solo Adventurer, both-X monster: twice", SOLO, "↓↑STR", None, (), {"same_target": "twice"}, [("Ann", 2, False)]),
    ("solo Adventurer, ↓X token on a both-X monster (split)", SOLO, "↓↑STR", "str-low", (), {},
     [("str-low", 1, True), ("Ann", 1, False)]),
]


@pytest.mark.parametrize("rule, adventurers, monster, deployed, variants, interp, expected", TARGETING_CASES,
                         ids=[c[0] for c in TARGETING_CASES])
def test_targeting(rule, adventurers, monster, deployed, variants, interp, expected):
    assert outcome(adventurers, monster, deployed, variants, **interp) == expected


def test_tie_flag_and_notes():
    thief = Monster("Cutpurse", parse_targeting("↓STR", GAME), steals_gold=True)
    all_monster = Monster("Swarm", parse_targeting("ALL", GAME))
    tied = Monster("Sneak", parse_targeting("↓AGI", GAME))
    r = resolve_targets(TIED, [thief, all_monster, tied], TOKENS["str-low"], variants=("target-all-hits",))
    assert r[0].notes == ("hits the Meatshield automatically and takes no damage back; resolve it after every Adventurer's turn",
                          "steals nothing from the Meatshield: Meatshields carry no gold")
    assert "stay without a target until the next Establish Targets" in r[1].notes[-1]
    assert [x.tie for x in r] == [False, False, True]


def test_monster_with_no_one_to_attack():
    (r,) = resolve_targets((), [Monster("m", parse_targeting("↓STR", GAME))])
    assert r.attacks == () and r.notes == ("has no one to attack",)


@pytest.mark.parametrize("text, label", [
    ("↓STR", "↓STR"), ("↑MAG", "↑MAG"), ("↓↑PER", "↓↑PER"), ("ALL", "ALL"), ("all", "ALL"),
    ("low:STR", "↓STR"), ("high:str", "↑STR"), ("both:PER", "↓↑PER"), (" ↓ agi ", "↓AGI"),
])
def test_parse_targeting(text, label):
    assert parse_targeting(text, GAME).label == label


@pytest.mark.parametrize("text, message", [
    ("↓STRR", "unknown attribute 'STRR' in '↓STRR'; did you mean 'STR'?"),
    ("lowest:STR", "unknown priority 'lowest' in 'lowest:STR'; did you mean 'low'?"),
    ("STR", "cannot read targeting 'STR': use ↓X, ↑X, ↓↑X, low:X, high:X, both:X, ALL"),
])
def test_parse_targeting_errors(text, message):
    with pytest.raises(UsageError) as err:
        parse_targeting(text, GAME)
    assert str(err.value) == message


# Issue 3, "Tokens sit face down in a bag": draw sizes from the catalogue's game.draws.
DRAW_CASES = [
    ("settlement draws its Danger Level", "settlement", 3, False, 3),
    ("+1 when the Settlement is Explored", "settlement", 3, True, 4),
    ("largest Settlement draw", "settlement", 5, True, 6),
    ("town draws its level (variant)", "town", 2, False, 2),
    ("+1 when the Town is Explored", "town", 5, True, 6),
]


@pytest.mark.parametrize("rule, place, level, explored, size", DRAW_CASES, ids=[c[0] for c in DRAW_CASES])
def test_draw_size(rule, place, level, explored, size):
    assert draw_size(GAME, place, level, explored) == size


def test_draw_size_outside_the_levels():
    with pytest.raises(UsageError, match=r"settlement level 7 is not one of 2, 3, 4, 5"):
        draw_size(GAME, "settlement", 7, False)


@pytest.mark.parametrize("variants, places, largest", [
    ((), {"settlement"}, 6),
    (("town-draws",), {"settlement", "town"}, 6),
    (("solo-start",), {"settlement", "solo start"}, 6),
])
def test_draws_follow_the_variants(variants, places, largest):
    assert {d.place for d in draws(GAME, variants)} == places
    assert largest_draw(GAME, variants).size == largest


def test_solo_start_draws_the_catalogue_number():
    (solo,) = [d for d in draws(GAME, ("solo-start",)) if d.place == "solo start"]
    assert solo.size == 3 and solo.label == "solo start"


def test_draw_numbers_come_from_the_catalogue():
    game = replace(GAME, draws=Draws(settlement_danger_levels=(1, 2), town_levels=(7,), explored_bonus=2, solo_start=10))
    assert largest_draw(game, ()).size == 4
    assert largest_draw(game, ("town-draws",)).size == 9
    assert largest_draw(game, ("solo-start",)).size == 10


# Issue 3, "Hire cost 2 gp each (variant 1 gp). Trading one ... is free (variant: 1 gp)".
@pytest.mark.parametrize("variants, hire, trade", [
    ((), 2, 0), (("cheap-hire",), 1, 0), (("paid-trade",), 2, 1), (("cheap-hire", "paid-trade", "solo-start"), 1, 1),
])
def test_costs_with_variants(variants, hire, trade):
    c = costs(GAME, variants)
    assert (c.hire_gp, c.trade_gp) == (hire, trade)


def test_variants_in_play_overrides():
    assert variants_in_play(CAT) == ("solo-start",)
    assert variants_in_play(CAT, add=["town-draws"], remove=["solo-start"]) == ("town-draws",)
    with pytest.raises(UsageError, match=r"^unknown variant 'town-draw'; did you mean 'town-draws'\?$"):
        variants_in_play(CAT, add=["town-draw"])
    with pytest.raises(UsageError, match="both added and removed"):
        variants_in_play(CAT, add=["cheap-hire"], remove=["cheap-hire"])


# Issue 3: what happens to tokens: unhired, dead or abandoned, employer dying, trading, running out.
def test_unhired_tokens_go_back_to_the_bag():
    state = BagState.full(CAT).hire(["str-low", "agi-high", "mag-both"], {"str-low": "Ann"})
    assert len(state.bag) == 17 and "agi-high" in state.bag and "str-low" not in state.bag
    assert [(h.token, h.employer) for h in state.hired] == [("str-low", "Ann")]


def test_dead_or_abandoned_meatshield_goes_back():
    state = BagState.full(CAT).hire(["str-low"], {"str-low": "Ann"}).release("str-low")
    assert len(state.bag) == 18 and state.hired == ()


def test_employer_dying_sends_their_meatshields_back():
    state = BagState.full(CAT).hire(["str-low", "agi-low", "con-low"], {"str-low": "Ann", "agi-low": "Ann", "con-low": "Bob"})
    after = state.employer_dies("Ann")
    assert len(after.bag) == 17 and [h.token for h in after.hired] == ["con-low"]
    assert {"str-low", "agi-low"} <= set(after.bag)


def test_trading_moves_the_employer_not_the_token():
    state = BagState.full(CAT).hire(["str-low"], {"str-low": "Ann"}).trade("str-low", "Bob")
    assert [(h.token, h.employer) for h in state.hired] == [("str-low", "Bob")] and len(state.bag) == 17


def test_bag_running_out():
    ids = [t.id for t in CAT.tokens]
    largest = largest_draw(GAME, CAT.variants).size
    state = BagState.full(CAT).hire(ids[:12], {i: "Ann" for i in ids[:12]})
    assert state.can_draw(largest)
    state = state.hire(ids[12:13], {ids[12]: "Bob"})
    assert not state.can_draw(largest) and len(state.bag) == 5


def test_bag_errors():
    with pytest.raises(UsageError, match="token 'nope' is not in the bag"):
        BagState.full(CAT).hire(["nope"], {})
    with pytest.raises(UsageError, match="token 'agi-low' was not drawn"):
        BagState.full(CAT).hire(["str-low"], {"agi-low": "Ann"})
    with pytest.raises(UsageError, match="no employed Meatshield 'str-low'"):
        BagState.full(CAT).release("str-low")


def test_one_token_deployed_at_a_time():
    assert may_deploy(None) and not may_deploy(TOKENS["str-low"])


@pytest.mark.parametrize("effect, variants, affected", [
    ("attack", (), True),                         # hit automatically
    ("gold", (), False),                          # they have no gold
    ("game", (), False),                          # ignore game effects
    ("equipment", (), False),                     # table agreement, default no
    ("equipment", ("equipment-effects",), True),  # ... unless agreed
])
def test_meatshield_affected(effect, variants, affected):
    assert meatshield_affected(effect, variants) is affected


# Exact hypergeometric odds, worked by hand: P = 1 - C(N-K, n) / C(N, n).
@pytest.mark.parametrize("bag, hits, drawn, p", [
    (18, 2, 1, Fraction(2, 18)),                          # 2 good of 18
    (18, 2, 2, 1 - Fraction(16 * 15, 18 * 17)),           # = 11/51
    (18, 3, 3, 1 - Fraction(15 * 14 * 13, 18 * 17 * 16)),  # = 361/816
    (18, 2, 6, 1 - Fraction(12 * 11, 18 * 17)),           # C(16,6)/C(18,6) = (12*11)/(18*17); = 29/51
    (18, 0, 6, Fraction(0)),
    (2, 1, 5, Fraction(1)),                               # a draw larger than the bag takes it all
    (5, 5, 1, Fraction(1)),
])
def test_p_at_least_one(bag, hits, drawn, p):
    assert p_at_least_one(bag, hits, drawn) == p


def test_hand_values():
    assert p_at_least_one(18, 2, 2) == Fraction(11, 51)
    assert p_at_least_one(18, 3, 3) == Fraction(361, 816)
    assert p_at_least_one(18, 2, 6) == Fraction(29, 51)


def test_draw_table_of_the_real_catalogue():
    table = draw_table(CAT, Settings(variants=CAT.variants))
    rows = {r["targeting"]: r for r in table["rows"]}
    assert table["bag"] == 18 and table["draw_sizes"] == [1, 2, 3, 4, 5, 6] and len(rows) == 18
    assert rows["↓STR"]["absorbers"] == 2 and rows["↓STR"]["p"][0] == Fraction(1, 9)
    assert rows["↓↑STR"]["absorbers"] == 3 and rows["↓↑STR"]["p"][0] == Fraction(1, 6)
    exact = draw_table(CAT, Settings(variants=CAT.variants, interpretations=Interpretations(one_sided="exact")))
    assert {r["targeting"]: r["absorbers"] for r in exact["rows"]}["↓↑STR"] == 1


def test_real_catalogue_passes_check():
    report = check_catalogue(CATALOGUE)
    assert report.playable and report.exit_code == 0
    assert [f.severity for f in report.findings if f.severity != "info"] == []
    capacity = next(f for f in report.findings if f.code == "party-capacity")
    assert capacity.data == {"capacity": 12, "bag": 18, "largest_draw": 6, "draw": "Settlement Danger Level 5, Explored"}


def test_costs_finding_follows_the_cli_variants():
    report = check_catalogue(CATALOGUE, add=["cheap-hire", "paid-trade"])
    assert next(f for f in report.findings if f.code == "costs").data == {"hire_gp": 1, "trade_gp": 1}
    assert report.variants == ("cheap-hire", "paid-trade", "solo-start")


def _expectations() -> list[tuple[Path, str, str | None, int | None]]:
    out = []
    for path in sorted((DATA / "rules").glob("*.yaml")):
        m = re.match(r"# expect: (\S+)(?: (\S+))?(?: line (\d+))?", path.read_text("utf-8"))
        assert m, f"{path.name} has no '# expect:' line"
        out.append((path, m[1], m[2], int(m[3]) if m[3] else None))
    return out


@pytest.mark.parametrize("path, code, field, line", _expectations(), ids=[e[0].stem for e in _expectations()])
def test_bad_catalogues(path, code, field, line):
    report = check_catalogue(path)
    assert not report.playable and report.exit_code == 1
    found = [(f.code, f.field, f.line) for f in report.findings if f.severity == "error"]
    assert any(c == code and (field is None or f == field) and (line is None or ln == line) for c, f, ln in found), found


def test_a_targeting_no_token_absorbs_is_a_warning():
    report = check_catalogue(DATA / "uncovered_targetings.yaml")
    assert report.playable
    assert [(f.severity, f.code, f.message) for f in report.findings if f.severity == "warning"] == [
        ("warning", "targeting-unabsorbed", "no token absorbs a monster targeting ↑STR")]
    report = check_catalogue(DATA / "uncovered_targetings.yaml", Settings(interpretations=Interpretations(one_sided="exact")))
    assert [f.data["targeting"] for f in report.findings if f.severity == "warning"] == ["↑STR", "↓↑STR"]


# Properties: the exact odds agree with counting every possible draw; targeting invariants hold for
# any party, monster and token.


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 9).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n), st.integers(0, n + 2))))
def test_odds_match_counting_every_draw(case):
    bag, hits, drawn = case
    tokens = [True] * hits + [False] * (bag - hits)
    draws_ = list(combinations(tokens, min(drawn, bag)))
    counted = Fraction(sum(any(d) for d in draws_), len(draws_))
    assert p_at_least_one(bag, hits, drawn) == counted


TARGETINGS = [f"{p.glyph}{a.code}" for a in GAME.attributes for p in GAME.priorities] + ["ALL"]
SCORES = st.fixed_dictionaries({a.code: st.integers(1, 6) for a in GAME.attributes})


@settings(max_examples=150, deadline=None)
@given(st.lists(SCORES, min_size=1, max_size=4), st.sampled_from(TARGETINGS), st.sampled_from([None, *TOKENS]),
       st.sampled_from(["split", "exact"]), st.sampled_from(["choose", "all"]), st.booleans())
def test_targeting_invariants(scores, monster, deployed, one_sided, ties, all_hits):
    adventurers = tuple(Adventurer(f"A{i}", s) for i, s in enumerate(scores))
    m = Monster("m", parse_targeting(monster, GAME))
    token = TOKENS[deployed] if deployed else None
    variants = ("target-all-hits",) if all_hits else ()
    (r,) = resolve_targets(adventurers, [m], token, variants=variants, interpretations=Interpretations(one_sided, ties))
    on_token = [a for a in r.attacks if a.meatshield]
    assert len(on_token) <= 1 and all(a.times == 1 for a in on_token)  # a token is attacked at most once
    if m.targeting.targets_all:
        assert {a.candidates[0] for a in r.attacks if not a.meatshield} == {a.name for a in adventurers}
        assert bool(on_token) == (all_hits and token is not None)
    else:
        sides = sum(len(a.side.split("+")) for a in r.attacks if not a.meatshield) if ties == "choose" else None
        if sides is not None:
            taken = len(on_token[0].side.split("+")) if on_token else 0
            assert sides == len(m.targeting.sides) - taken  # every side lands somewhere, once
        if token is None or token.attribute != m.targeting.attribute:
            assert not on_token
