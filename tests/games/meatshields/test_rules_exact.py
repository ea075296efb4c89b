"""The rules engine's answers and refusals, exactly: the values and messages a player reads.

Written from the mutants ``make mutate`` found alive in tokengen/games/meatshields/rules/ (issue 18): each test pins a
value or a message that a wrong engine would change.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.conftest import CATALOGUE
from tokengen.errors import UsageError
from tokengen.games.meatshields.rules import BagState, draw_size, variants_in_play
from tokengen.games.meatshields.rules.bag import tokens_drawn
from tokengen.sources.catalogue import load_catalogue

CAT = load_catalogue(CATALOGUE)
GAME = CAT.game
KNOWN = "town-draws, cheap-hire, paid-trade, target-all-hits, solo-start, equipment-effects"


# ---- bag.py -----------------------------------------------------------------------------------


def test_unknown_place_is_named_with_the_places_there_are():
    with pytest.raises(UsageError) as err:
        draw_size(GAME, "castle", 1, False)
    assert str(err.value) == "unknown place 'castle': use settlement or town"


def test_unknown_small_bag_reading_lists_the_readings():
    with pytest.raises(ValueError) as err:
        tokens_drawn(10, 3, "maybe")
    assert str(err.value) == "small-bag must be one of error, take-rest, got 'maybe'"


def test_unknown_variant_without_a_near_miss_lists_the_known_ones():
    with pytest.raises(UsageError) as err:
        variants_in_play(CAT, add=["zzz"])
    assert str(err.value) == f"unknown variant 'zzz' (known: {KNOWN})"


def test_unknown_variant_of_a_game_without_variants():
    bare = replace(CAT, game=replace(GAME, variants=()), variants=())
    assert variants_in_play(bare) == ()
    with pytest.raises(UsageError) as err:
        variants_in_play(bare, add=["town-draws"])
    assert str(err.value) == "unknown variant 'town-draws' (known: none)"


def test_explicit_base_replaces_the_catalogues_variants():
    # the catalogue's own list is ("solo-start",); a given base is used instead of it, in the game's order
    assert variants_in_play(CAT, base=[]) == ()
    assert variants_in_play(CAT, base=["paid-trade", "town-draws"]) == ("town-draws", "paid-trade")
    assert variants_in_play(CAT, base=["cheap-hire"], add=["solo-start"], remove=["cheap-hire"]) == ("solo-start",)


def test_trading_a_meatshield_nobody_employs_is_refused_by_name():
    state = BagState.full(CAT).hire(["str-low"], {"str-low": "Ann"})
    with pytest.raises(UsageError) as err:
        state.trade("agi-low", "Bob")
    assert str(err.value) == "no employed Meatshield 'agi-low'"


# ---- targeting.py: the readings (interpretations) and effects ---------------------------------------------


def test_readings_are_named_with_hyphens_or_underscores():
    from tokengen.games.meatshields.rules import Interpretations

    chosen = Interpretations.chosen({"same-target": "twice"}, [("small_bag", "take-rest")], None, {"ties": None})
    assert chosen.as_dict() == {"one_sided": "split", "ties": "choose", "same_target": "twice", "damage": "dies",
                                "small_bag": "take-rest"}
    assert Interpretations.chosen({"one-sided": "exact"}, {"one-sided": "split"}).one_sided == "split"  # later layers win


def test_an_unknown_reading_is_named_with_a_near_miss_or_the_list():
    from tokengen.games.meatshields.rules import Interpretations

    with pytest.raises(UsageError) as err:
        Interpretations.chosen({"same_targt": "once"})
    assert str(err.value) == "unknown interpretation 'same_targt'; did you mean 'same-target'?"
    with pytest.raises(UsageError) as err:
        Interpretations.chosen({"small_bg": "error"})
    assert str(err.value) == "unknown interpretation 'small_bg'; did you mean 'small-bag'?"
    with pytest.raises(UsageError) as err:
        Interpretations.chosen({"sm_b": "error"})  # close to "sm-b", as typed on the command line
    assert str(err.value) == "unknown interpretation 'sm_b'; did you mean 'small-bag'?"
    with pytest.raises(UsageError) as err:
        Interpretations.chosen({"zzz": "x"})
    assert str(err.value) == "unknown interpretation 'zzz' (known: one-sided, ties, same-target, damage, small-bag)"


def test_the_wounds_reading_names_the_wound_count_or_where_it_comes_from():
    from tokengen.games.meatshields.rules.targeting import meaning

    assert meaning("damage", "wounds", 3) == ("each hit on a Meatshield is a wound it keeps; the hit that brings its wounds to 3 kills it "
                                              "and its token goes back to the bag")
    assert meaning("damage", "wounds") == ("each hit on a Meatshield is a wound it keeps; the hit that brings its wounds to "
                                           "the catalogue's game.damage.wounds kills it and its token goes back to the bag")
    assert meaning("damage", "dies", 3) == "a Meatshield that is hit dies at once and its token goes back to the bag"


def test_an_unknown_effect_kind_lists_the_kinds():
    from tokengen.games.meatshields.rules import meatshield_affected

    with pytest.raises(UsageError) as err:
        meatshield_affected("magic")
    assert str(err.value) == "unknown effect kind 'magic': use attack, gold, equipment, game"


# ---- checks.py: every input problem of a catalogue, with its place ---------------------------------------


def _edited(tmp_path, *swaps: tuple[str, str]):
    from tokengen.games.meatshields.rules.checks import inspect_source

    text = CATALOGUE.read_text("utf-8")
    for old, new in swaps:
        assert old in text
        text = text.replace(old, new, 1)
    path = tmp_path / "cat.yaml"
    path.write_text(text, "utf-8")
    return inspect_source(path)


def _found(findings) -> list[tuple]:
    return [(f.severity, f.code, f.message, f.line, f.field) for f in findings]


def test_inspect_source_of_a_good_catalogue(tmp_path):
    cat, findings = _edited(tmp_path)
    assert findings == [] and cat is not None and len(cat.tokens) == 18


def test_inspect_source_names_every_duplicate_and_unknown_with_its_place(tmp_path):
    cat, findings = _edited(
        tmp_path,
        ("    - {code: STR, name: Strength}", "    - {code: STR, name: Strength}\n    - {code: STR, name: Strong}"),
        ("  - {id: agi-high, attribute: AGI, priority: high}", "  - {id: agi-low, attribute: AGIX, priority: hihg}"),
        ("  - {id: con-low,  attribute: CON, priority: low}", "  - {id: con-low,  attribute: QQQ, priority: zzz}"),
    )
    assert cat is None
    assert _found(findings) == [
        ("error", "duplicate-code", "duplicate code 'STR' (also game.attributes[5])", 56, "game.attributes[6].code"),
        ("error", "duplicate-id", "duplicate id 'agi-low' (first at line 87)", 88, "tokens[1].id"),
        ("error", "unknown-attribute", "attribute 'AGIX' is not in game.attributes; did you mean 'AGI'?", 88, "tokens[1].attribute"),
        ("error", "unknown-priority", "priority 'hihg' is not in game.priorities; did you mean 'high'?", 88, "tokens[1].priority"),
        ("error", "unknown-attribute", "attribute 'QQQ' is not in game.attributes (known: AGI, CON, MAG, MRL, PER, STR, STR)", 90,
         "tokens[3].attribute"),
        ("error", "unknown-priority", "priority 'zzz' is not in game.priorities (known: low, high, both)", 90, "tokens[3].priority"),
    ]


def test_inspect_source_names_a_priority_the_engine_cannot_read(tmp_path):
    cat, findings = _edited(tmp_path, ("    - {code: both, glyph: \"↓↑\", name: lowest and highest}",
                                       "    - {code: both, glyph: \"↓↑\", name: lowest and highest}\n    - {code: mid, glyph: \"~\", name: middle}"
                                       "\n    - {code: low, glyph: \"v\", name: low again}"))
    assert cat is None
    assert _found(findings) == [
        ("error", "duplicate-code", "duplicate code 'low' (also game.priorities[0])", 61, "game.priorities[4].code"),
        ("error", "priority-meaning", "the rules engine does not know priority 'mid' (it knows low, high, both)", 60,
         "game.priorities[3].code"),
    ]


def test_inspect_source_accepts_a_priority_glyph_on_a_token(tmp_path):
    cat, findings = _edited(tmp_path, ("  - {id: agi-high, attribute: AGI, priority: high}", "  - {id: agi-high, attribute: AGI, priority: \"↑\"}"))
    assert findings == [] and cat is not None


def test_inspect_source_reports_schema_problems_all_at_once(tmp_path):
    cat, findings = _edited(tmp_path, ("  - {id: agi-high, attribute: AGI, priority: high}", "  - {id: agi-high, attribute: AGI, priorty: high}"),
                            ("  - {id: con-low,  attribute: CON, priority: low}", "  - {id: Con-Low,  attribute: CON, priority: low}"))
    assert cat is None
    assert [(f.code, f.line, f.field) for f in findings] == [("schema", 87, "tokens[1].priorty"), ("schema", 89, "tokens[3].id")]


def test_bag_too_small_finding_carries_its_figures():
    from tokengen.games.meatshields.rules import Interpretations, Settings
    from tokengen.games.meatshields.rules.checks import check_bag_size

    small = replace(CAT, tokens=CAT.tokens[:3])
    draw = "Settlement Danger Level 5, Explored"
    [error] = check_bag_size(small, Settings())
    assert (error.severity, error.code, error.message) == (
        "error", "bag-too-small", f"the bag holds 3 tokens but the largest draw ({draw}) takes 6")
    assert error.data == {"bag": 3, "largest_draw": 6, "draw": draw, "small_bag": "error"}
    [warning] = check_bag_size(small, Settings(interpretations=Interpretations(small_bag="take-rest")))
    assert (warning.severity, warning.code, warning.message) == (
        "warning", "bag-too-small", f"the bag holds 3 tokens but the largest draw ({draw}) takes 6; with small-bag=take-rest that draw takes all 3")
    assert warning.data == {"bag": 3, "largest_draw": 6, "draw": draw, "small_bag": "take-rest"}
    assert check_bag_size(CAT, Settings()) == [] and check_bag_size(replace(CAT, tokens=CAT.tokens[:6]), Settings()) == []


def test_game_numbers_left_out_are_listed_with_their_values():
    from tokengen.games.meatshields.rules import Settings
    from tokengen.games.meatshields.rules.checks import check_game_defaults
    from tokengen.sources import gamedata

    assert check_game_defaults(CAT, Settings()) == []
    [one] = check_game_defaults(replace(CAT, game=replace(GAME, defaulted=("damage.wounds",))), Settings())
    assert (one.severity, one.code, one.message) == ("info", "game-defaults", "the catalogue leaves out 1 game number, taken from "
                                                     "tokengen's game_defaults.yaml with their sources: game.damage.wounds = 2")
    [two] = check_game_defaults(replace(CAT, game=replace(GAME, defaulted=("draws.town_levels", "costs.hire_gp"))), Settings())
    assert two.message == ("the catalogue leaves out 2 game numbers, taken from tokengen's game_defaults.yaml with their sources: "
                           "game.draws.town_levels = 2, 3, 4, 5; game.costs.hire_gp = 2")
    assert two.data == {"numbers": [
        {"number": "game.draws.town_levels", "value": [2, 3, 4, 5], "source": gamedata.source("draws", "town_levels")},
        {"number": "game.costs.hire_gp", "value": 2, "source": gamedata.source("costs", "hire_gp")}]}
    [three] = check_game_defaults(replace(CAT, game=replace(GAME, defaulted=("damage.wounds", "costs.hire_gp", "costs.trade_gp"))), Settings())
    assert three.message.startswith("the catalogue leaves out 3 game numbers, ")
