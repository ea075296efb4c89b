"""``tokengen check``'s findings and report, exactly: the fields, numbers and lines a player reads.

Written from the mutants ``make mutate`` found alive in tokengen/games/meatshields/rules/checks.py (issue 18).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

from tests.conftest import CATALOGUE, DATA
from tokengen.games.meatshields.rules import (
    INTERPRETATIONS,
    Interpretations,
    Settings,
    check_catalogue,
    draw_table,
    format_report,
    inspect_source,
    run_checks,
)
from tokengen.games.meatshields.rules.checks import check_backs, check_legible, check_printable
from tokengen.sources.catalogue import load_catalogue
from tokengen.units import parse_length

RULES = DATA / "rules"
SHORT_BAG = RULES / "too_few_tokens.yaml"  # 2 tokens (↓STR, ↓↑STR); largest draw 3


def _copy(tmp_path: Path, source: Path, old: str, new: str) -> Path:
    text = source.read_text("utf-8")
    assert old in text
    path = tmp_path / "cat.yaml"
    path.write_text(text.replace(old, new, 1), "utf-8")
    return path


# ---- the findings -----------------------------------------------------------------------------


def test_a_first_token_with_its_own_back_is_the_one_that_differs(tmp_path):
    text = (RULES / "back_differs.yaml").read_text("utf-8").replace(", back: {text: ODD}}", "}")
    path = tmp_path / "cat.yaml"
    path.write_text(text.replace("priority: low}", "priority: low, back: {text: ODD}}"), "utf-8")
    cat = load_catalogue(path)
    message = "token '{}' has a back unlike the others; tokens are drawn blind, so every back must match"
    assert [f.as_dict() for f in check_backs(cat, Settings())] == [
        {"severity": "error", "code": "back-differs", "message": message.format("a"), "line": 11, "field": "tokens[0].back",
         "data": {"token": "a"}}]
    # a catalogue built without a shared back: the first token's back is the one to match
    assert [f.field for f in check_backs(replace(cat, back=None), Settings())] == ["tokens[1].back", "tokens[2].back"]
    assert check_backs(replace(load_catalogue(SHORT_BAG), back=None), Settings()) == []


def test_small_text_finding_has_its_line_field_and_rounded_size():
    cat = load_catalogue(CATALOGUE)
    small = check_legible(cat, Settings(size=parse_length("0.4in")))
    assert len(small) == 18
    assert small[0].as_dict() == {"severity": "warning", "code": "small-text",
                                  "message": "token agi-low: caption text is 2.67 pt, below 5 pt", "line": 86, "field": "size",
                                  "data": {"token": "agi-low", "part": "caption", "pt": 2.67}}


def test_sheet_finding_uses_the_settings_margin():
    cat = load_catalogue(CATALOGUE)  # 1in tokens, 3 columns asked for
    # letter less 1in each side is 6.5in × 9in: two groups of the 3 columns asked side by side, 9 rows
    # beside the calibration strip: 54, what `build --fill --margin 1in` places (and --copies 6, 54 a page)
    sheet = check_printable(cat, Settings(margin=72.0))
    assert [f.as_dict() for f in sheet] == [{
        "severity": "info", "code": "sheet", "message": "54 tokens of 1in fit on one 8.5in × 11in page (6 columns × 9 rows)",
        "line": None, "field": None, "data": {"per_page": 54, "columns": 6, "rows": 9}}]


def test_checks_run_alone_take_the_catalogues_variants_and_readings(tmp_path):
    path = _copy(tmp_path, CATALOGUE, "variants: [solo-start]", "variants: [paid-trade, town-draws]\n"
                                                                 "interpretations: {damage: wounds}")
    cat = load_catalogue(path)
    assert Settings().readings(cat) == Interpretations(damage="wounds")
    report = check_catalogue(path)
    # the catalogue's list, in the game's order
    assert report.variants == ("town-draws", "paid-trade")
    assert report.interpretations == Interpretations(damage="wounds")
    assert [f.as_dict() for f in run_checks(cat, Settings())] == [f.as_dict() for f in report.findings]
    costs = next(f for f in report.findings if f.code == "costs")
    assert costs.data == {"hire_gp": 2, "trade_gp": 1}  # paid-trade sets the trade fee only
    capacity = next(f for f in report.findings if f.code == "party-capacity")
    assert capacity.data == {"capacity": 12, "bag": 18, "largest_draw": 6, "draw": "Settlement Danger Level 5, Explored"}
    # switches are laid over the catalogue's readings, not over the defaults
    assert check_catalogue(path, readings={"ties": "all"}).interpretations == Interpretations(ties="all", damage="wounds")


def test_add_or_remove_adjust_the_catalogues_variants_not_the_settings():
    given = Settings(variants=("cheap-hire",))
    assert check_catalogue(CATALOGUE, given).variants == ("cheap-hire",)
    assert check_catalogue(CATALOGUE, given, remove=["solo-start"]).variants == ()
    assert check_catalogue(CATALOGUE, given, add=["town-draws"]).variants == ("town-draws", "solo-start")


def test_an_unreadable_catalogue_still_reports_the_switches_given(tmp_path):
    path = _copy(tmp_path, CATALOGUE, "title: Meatshields", "title: #Meatshields")
    report = check_catalogue(path, readings={"ties": "all"})
    assert report.interpretations == Interpretations(ties="all")
    assert [f.as_dict() for f in report.findings] == [{
        "severity": "error", "code": "schema", "line": 32, "field": "title", "data": {},
        "message": "no value: an unquoted '#' starts a YAML comment, so '#Meatshields' was read as one; "
                   "put the value in quotes: title: \"#Meatshields\""}]
    assert report.as_dict()["catalogue"] == str(path)
    assert inspect_source(path) == (None, list(report.findings))


# ---- the odds ---------------------------------------------------------------------------------


def test_a_draw_as_large_as_the_bag_is_made_and_a_larger_one_is_not():
    table = draw_table(load_catalogue(SHORT_BAG), Settings(interpretations=Interpretations()))
    one = Fraction(1)
    assert table == {"bag": 2, "draw_sizes": [1, 2, 3], "rows": [
        {"targeting": "↓STR", "absorbers": 2, "p": [one, one, None]},
        {"targeting": "↑STR", "absorbers": 1, "p": [Fraction(1, 2), one, None]},
        {"targeting": "↓↑STR", "absorbers": 2, "p": [one, one, None]}]}


def test_report_text_shows_variants_readings_and_undrawable_cells():
    report = check_catalogue(SHORT_BAG, readings={"damage": "wounds"})
    lines = format_report(report).splitlines()
    assert lines[:2] == [f"{SHORT_BAG}: NOT playable (1 error, 0 warnings, 4 infos)", "variants in play: none"]
    assert ("  damage=wounds: each hit on a Meatshield is a wound it keeps; the hit that brings its wounds to 2 kills it "
            "and its token goes back to the bag (other: dies)") in lines
    assert lines[-3:] == ["    draw size:      1      2      3   targetings",
                          "     2 of 2     100.0% 100.0%      —   ↓STR ↓↑STR",
                          "     1 of 2      50.0% 100.0%      —   ↑STR"]
    several = format_report(check_catalogue(CATALOGUE, add=["cheap-hire", "town-draws"])).splitlines()[1]
    assert several == "variants in play: town-draws, cheap-hire, solo-start"


def test_every_interpretation_has_exactly_one_other_reading():
    # the report prints "(other: X)"; mutation-equivalents.md relies on there being one X
    assert {name: len(options) for name, options in INTERPRETATIONS.items()} == dict.fromkeys(INTERPRETATIONS, 2)


# ---- after the round's fixes: singular counts, spreadsheet findings, --size on flat hexes -----
def test_a_page_that_holds_one_token_says_so_in_the_singular():
    cat = load_catalogue(CATALOGUE)
    sheet = check_printable(cat, Settings(size=parse_length("7in")))
    assert [f.message for f in sheet] == ["1 token of 7in fits on one 8.5in × 11in page (1 column × 1 row)"]
    two = check_printable(cat, Settings(size=parse_length("3.5in"), page=(612.0, 396.0)))
    assert [f.message for f in two] == ["2 tokens of 3.5in fit on one 8.5in × 5.5in page (2 columns × 1 row)"]


def _status(tmp_path: Path, csv: str, yaml_change: tuple[str, str] = ("", "")) -> Path:
    """The status-tokens example in ``tmp_path`` with ``csv`` as its tokens.csv."""
    example = Path(__file__).resolve().parents[3] / "examples" / "status-tokens"
    text = (example / "status.yaml").read_text("utf-8")
    (tmp_path / "status.yaml").write_text(text.replace(*yaml_change, 1) if yaml_change[0] else text, "utf-8")
    (tmp_path / "tokens.csv").write_text(csv, "utf-8")
    return tmp_path / "status.yaml"


GOOD_CSV = "id,name,symbol,colour,copies\nstunned,Stunned,x,#c9a227,6\n"


def test_a_bad_spreadsheet_cell_is_a_finding_in_the_spreadsheet(tmp_path):
    from tokengen.games.registry import check_catalogue as check_any

    path = _status(tmp_path, GOOD_CSV + "Élan,Élan,y,#4e8a3c,6\n")
    findings = check_any(path).findings
    assert [(f.code, f.line, f.field, f.as_dict()["file"]) for f in findings] == [
        ("catalogue", 3, "id (column A)", str(tmp_path / "tokens.csv"))]
    assert findings[0].message.startswith("id 'Élan'")


def test_a_finding_in_the_catalogue_itself_names_no_other_file(tmp_path):
    from tokengen.games.registry import check_catalogue as check_any

    path = _status(tmp_path, GOOD_CSV, ("tokens: tokens.csv", "tokens: tokens.csv\nfonts: {Body: missing.ttf}"))
    findings = check_any(path).findings
    assert [f.code for f in findings] == ["catalogue"]
    assert findings[0].file is None and "file" not in findings[0].as_dict()


def test_size_on_flat_hexes_is_across_the_flats():
    counters = Path(__file__).resolve().parents[3] / "examples" / "hex-counters" / "counters.yaml"
    cat = load_catalogue(counters)  # flat hexes 0.9in across the flats: a box 0.9in × 2/√3 wide
    assert Settings(size=parse_length("0.9in")).token_size(cat) == cat.size
    assert round(cat.size, 4) == round(64.8 * 2 / 3 ** 0.5, 4)
    assert Settings(size=72.0).token_size(load_catalogue(CATALOGUE)) == 72.0
