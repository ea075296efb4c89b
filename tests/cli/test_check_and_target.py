"""``tokengen check`` and ``tokengen target`` as a user runs them: exit codes and exact messages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import CATALOGUE, DATA, ROOT, manual
from tokengen.sources.bundled import missing_message

RULES = DATA / "rules"
SCENARIOS = DATA / "scenarios"
ANN = "Ann:STR=6,AGI=3,CON=4,MAG=2,MRL=5,PER=3"
BOB = "Bob:STR=2,AGI=5,CON=5,MAG=4,MRL=3,PER=6"


def test_check_default_catalogue_is_playable(run, monkeypatch):
    monkeypatch.chdir(ROOT)
    result = run("check")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[0] == "token_defs.yaml: playable (0 errors, 0 warnings, 6 infos)"  # its rules and its odd among them
    assert lines[1] == "variants in play: solo-start"
    assert lines[3].startswith("  one-sided=split: a ↓X or ↑X token stands in for that side")
    assert lines[4].startswith("  ties=choose: ")
    assert lines[5].startswith("  same-target=once: ")
    assert ("token_defs.yaml: info party-capacity: the party can employ 12 Meatshields before the bag (18 tokens) "
            "holds fewer than the largest draw (6: Settlement Danger Level 5, Explored)") in lines
    assert "     2 of 18     11.1%  21.6%  31.4%  40.5%  49.0%  56.9%   ↓AGI ↑AGI ↓CON ↑CON ↓MAG ↑MAG ↓MRL ↑MRL ↓PER ↑PER ↓STR ↑STR" in lines


def test_check_interpretation_is_stated(run):
    result = run("check", str(CATALOGUE), "--one-sided", "exact", "--ties", "all", "--same-target", "twice")
    assert result.exit_code == 0
    assert "  one-sided=exact: a monster that targets both lowest and highest X only goes for a ↓↑X token (other: split)" in result.stdout
    assert "  ties=all: Adventurers tied on the targeted score are all attacked (other: choose)" in result.stdout
    # exact: a both-X monster is absorbed only by the ↓↑X token, 1 of 18
    assert "     1 of 18      5.6%  11.1%  16.7%  22.2%  27.8%  33.3%   ↓↑AGI ↓↑CON ↓↑MAG ↓↑MRL ↓↑PER ↓↑STR" in result.stdout


def test_check_json_has_stable_keys(run):
    result = run("check", str(CATALOGUE), "--format", "json", "--variant", "cheap-hire")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert list(data) == ["schema_version", "command", "catalogue", "playable", "counts", "variants", "interpretations", "interpretations_in_play", "findings"]
    assert data["playable"] is True and data["counts"] == {"error": 0, "warning": 0, "info": 6}
    assert data["variants"] == ["cheap-hire", "solo-start"]
    assert data["interpretations"] == {"one_sided": "split", "ties": "choose", "same_target": "once", "damage": "dies",
                                       "small_bag": "error"}
    assert all(list(f) == ["severity", "code", "message", "line", "field", "data"] for f in data["findings"])
    odds = next(f for f in data["findings"] if f["code"] == "draw-odds")["data"]
    # 1 - C(16, n) / C(18, n): n=3 → 1 - 35/51, n=4 → 1 - 91/153, n=5 → 1 - 26/51 (worked by hand)
    assert odds["rows"][0] == {"targeting": "↓AGI", "absorbers": 2, "p": ["1/9", "11/51", "16/51", "62/153", "25/51", "29/51"]}
    costs = next(f for f in data["findings"] if f["code"] == "costs")["data"]
    assert costs == {"hire_gp": 1, "trade_gp": 0}


def test_check_back_differs(run):
    path = RULES / "back_differs.yaml"
    result = run("check", str(path))
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == f"{path}: NOT playable (1 error, 0 warnings, 5 infos)"  # game-defaults: the fixture leaves numbers out
    assert (f"{path}:13: error back-differs: tokens[2].back: token 'c' has a back unlike the others; "
            "tokens are drawn blind, so every back must match") in result.stdout.splitlines()
    assert result.stderr == f"tokengen: error: {path}: not playable (1 error)\n"


@pytest.mark.parametrize("name, line", [
    ("too_few_tokens.yaml", "error bag-too-small: the bag holds 2 tokens but the largest draw (Settlement Danger Level 2, Explored) takes 3"),
    ("duplicate_id.yaml", ":13: error duplicate-id: tokens[2].id: duplicate id 'a' (first at line 11)"),
    ("unknown_attribute.yaml", ":12: error unknown-attribute: tokens[1].attribute: attribute 'STRR' is not in game.attributes; did you mean 'STR'?"),
    ("unknown_priority.yaml", ":11: error unknown-priority: tokens[0].priority: priority 'lowest' is not in game.priorities; did you mean 'low'?"),
    ("token_too_large.yaml", "error not-printable: a 12in token does not fit on a 8.5in × 11in page with a 0.25in margin; the largest token that fits is 8in (203.2mm)"),
])
def test_check_bad_catalogues(run, name, line):
    path = RULES / name
    result = run("check", str(path))
    assert result.exit_code == 1
    assert f"{path}{line}" in result.stdout.splitlines() or f"{path}: {line}" in result.stdout.splitlines()


def test_check_schema_error_is_builds_one_line_and_exit_code(run, tmp_path):
    """A file the schema refuses is bad input, as build says: its one line on stderr, exit 2
    (it was a 3-line report and exit 1)."""
    path = RULES / "schema_typo.yaml"
    result = run("check", str(path))
    built = run("build", str(path), "-o", str(tmp_path / "x.pdf"))
    assert result.exit_code == built.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == built.stderr == f"tokengen: error: {path}:12: tokens[1].atribute: unknown key; did you mean 'attribute'?\n"


def test_check_schema_error_as_json_keeps_the_report_and_exits_2(run):
    path = RULES / "schema_typo.yaml"
    result = run("check", str(path), "--format", "json")
    assert result.exit_code == 2
    assert [(f["code"], f["line"], f["field"]) for f in json.loads(result.stdout)["findings"]] == [("schema", 12, "tokens[1].atribute")]
    assert result.stderr == f"tokengen: error: {path}:12: tokens[1].atribute: unknown key; did you mean 'attribute'?\n"


def _real_catalogue_with(tmp_path: Path, keep: int | None = None, extra: str = "") -> Path:
    """The real catalogue with only its first ``keep`` tokens, plus ``extra`` token lines (its
    rules and odds, after the tokens, left out)."""
    head, tokens = CATALOGUE.read_text("utf-8").split("\ntokens:\n")
    lines = [line for line in tokens.splitlines() if line.startswith("  - {id: ")][:keep]
    path = tmp_path / "cat.yaml"
    path.write_text(head + "\ntokens:\n" + "\n".join(lines) + "\n" + extra, "utf-8")
    return path


def test_removing_tokens_makes_the_set_unplayable(run, tmp_path):
    path = _real_catalogue_with(tmp_path, keep=5)
    result = run("check", str(path))
    assert result.exit_code == 1
    assert f"{path}: error bag-too-small: the bag holds 5 tokens but the largest draw (Settlement Danger Level 5, Explored) takes 6" in result.stdout
    assert f"{path}: warning targeting-unabsorbed: no token absorbs a monster targeting ↓MAG" in result.stdout


def test_a_token_with_another_back_makes_the_set_unplayable(run, tmp_path):
    path = _real_catalogue_with(tmp_path, extra='  - {id: odd, attribute: STR, priority: low, back: {background: "#ff0000"}}\n')
    result = run("check", str(path), "--format", "json")
    assert result.exit_code == 1
    errors = [f for f in json.loads(result.stdout)["findings"] if f["severity"] == "error"]
    assert [(f["code"], f["field"], f["data"]) for f in errors] == [("back-differs", "tokens[18].back", {"token": "odd"})]


def test_check_variant_override_and_unknown_variant(run):
    result = run("check", str(CATALOGUE), "--variant", "town-draws", "--no-variant", "solo-start")
    assert result.exit_code == 0 and "variants in play: town-draws\n" in result.stdout
    result = run("check", str(CATALOGUE), "--variant", "town-draw")
    assert result.exit_code == 2
    assert result.stderr == "tokengen: error: unknown variant 'town-draw'; did you mean 'town-draws'?\n"


def test_check_bad_input_exits_2(run, tmp_path):
    result = run("check", str(tmp_path / "nope.yaml"))
    assert (result.exit_code, result.stderr) == (2, f"tokengen: error: {tmp_path / 'nope.yaml'}: {missing_message()}\n")
    bad = tmp_path / "bad.yaml"
    bad.write_text("title: [unclosed\n", "utf-8")
    result = run("check", str(bad))
    assert result.exit_code == 2 and result.stderr.startswith(f"tokengen: error: {bad}:")


TARGET_TEXT = """\
deployed Meatshield: str-low (↓STR)
variants in play: solo-start
interpretations: one-sided=split, ties=choose, same-target=once, damage=dies, small-bag=error
Rat King (↓STR): attacks Meatshield str-low ×1 as lowest STR
  note: hits the Meatshield automatically and takes no damage back; resolve it after every Adventurer's turn
monster 2 (↓↑PER): attacks Ann ×1 as lowest PER; Bob ×1 as highest PER
monster 3 (ALL): attacks Ann ×1; Bob ×1
monster 4 (↓↑STR): attacks Meatshield str-low ×1 as lowest STR; Ann ×1 as highest STR
  note: hits the Meatshield automatically and takes no damage back; resolve it after every Adventurer's turn
Meatshield str-low: 2 hits: it dies (damage=dies: the first hit kills); its token goes back to the bag
"""


def test_target_from_options(run):
    result = run("target", "-c", str(CATALOGUE), "-a", ANN, "--adventurer", BOB, "-m", "Rat King=↓STR", "-m", "both:PER",
                 "--monster", "all", "-m", "↓↑STR", "--deployed", "str-low")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == TARGET_TEXT


def test_target_from_scenario_file(run):
    result = run("target", str(SCENARIOS / "fight.yaml"), "-c", str(CATALOGUE))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == """\
deployed Meatshield: str-low (↓STR)
variants in play: target-all-hits
interpretations: one-sided=split, ties=choose, same-target=once, damage=dies, small-bag=error
Rat King (↓STR): attacks Meatshield str-low ×1 as lowest STR
  note: hits the Meatshield automatically and takes no damage back; resolve it after every Adventurer's turn
Cutpurse (↓AGI): attacks one of Ann, Bob ×1 as lowest AGI (TIE: players choose)
Street Tough (↓↑PER): attacks Ann ×1 as lowest PER; Bob ×1 as highest PER
Swarm (ALL): attacks Ann ×1; Bob ×1; Meatshield str-low ×1
  note: hits the Meatshield automatically and takes no damage back; resolve it after every Adventurer's turn
  note: if this kills the Meatshield, the monsters it drew stay without a target until the next Establish Targets
Meatshield str-low: 2 hits: it dies (damage=dies: the first hit kills); its token goes back to the bag
"""


def test_target_overrides_and_json(run):
    result = run("target", str(SCENARIOS / "fight.yaml"), "-c", str(CATALOGUE), "--no-variant", "target-all-hits",
                 "-d", "none", "--ties", "all", "--format", "json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert list(data) == ["schema_version", "command", "deployed", "variants", "interpretations", "monsters", "meatshield_damage"]
    assert data["deployed"] is None and data["variants"] == []
    cutpurse = data["monsters"][1]
    assert cutpurse["attacks"] == [
        {"targets": ["Ann"], "times": 1, "side": "lowest", "meatshield": False, "tie": False},
        {"targets": ["Bob"], "times": 1, "side": "lowest", "meatshield": False, "tie": False},
    ]
    assert data["monsters"][3]["attacks"][-1]["targets"] == ["Bob"]


@pytest.mark.parametrize("args, message", [
    (["-a", "Ann:STR=1", "-m", "↓STR"], "Adventurer 'Ann': missing scores AGI, CON, MAG, MRL, PER (every Adventurer has all 6)"),
    (["-a", ANN, "-m", "↓STX"], "unknown attribute 'STX' in '↓STX'; did you mean 'STR'?"),
    (["-a", ANN, "-m", "↓STR", "-d", "str-lo"], ("deployed token 'str-lo' is not a token id; did you mean 'str-low'? "
     "nor a spec (cannot read targeting 'str-lo': use ↓X, ↑X, ↓↑X, low:X, high:X, both:X)")),
    (["-a", ANN, "-m", "↓STR", "-d", "ALL"], ("deployed token 'ALL' is not a token id nor a spec "
     "(ALL is a monster's targeting; a token needs an attribute and a priority)")),
    (["-m", "↓STR"], "no Adventurers: give a scenario file or --adventurer NAME:STR=9,AGI=8,..."),
    (["-a", ANN], "no monsters: give a scenario file or --monster ↓STR"),
    (["-a", ANN, "-a", ANN, "-m", "ALL"], "two Adventurers are called 'Ann'"),
    (["-a", "Ann:STR=x", "-m", "ALL"], "Adventurer 'Ann': score STR must be a whole number, got 'x'"),
    ([str(SCENARIOS / "bad_score.yaml")], f"{SCENARIOS / 'bad_score.yaml'}:3: adventurers[0].scores.AGI: expected a whole number, got 'three'"),
])
def test_target_bad_input(run, args, message):
    result = run("target", "-c", str(CATALOGUE), *args)
    assert result.exit_code == 2
    assert result.stderr == f"tokengen: error: {message}\n"


def test_target_names_a_missing_scenario_before_the_default_catalogue(run, tmp_path, monkeypatch):
    """In a folder without token_defs.yaml, the missing file named is the scenario the user gave."""
    monkeypatch.chdir(tmp_path)
    result = run("target", "hi.yaml")
    assert result.exit_code == 2
    assert result.stderr == "tokengen: error: hi.yaml: file not found\n"


@pytest.mark.parametrize("command", ["check", "target"])
def test_help_has_an_example_and_the_readme_documents_it(run, command):
    result = run(command, "--help")
    assert result.exit_code == 0 and "Example" in result.stdout and f"tokengen {command}" in result.stdout
    assert f"tokengen {command}" in manual()


@pytest.mark.parametrize("command", ["tokengen check", "tokengen target"])
def test_readme_example_runs_are_real(run, monkeypatch, command):
    """The manual's example runs are the commands' actual output."""
    import re
    import shlex

    monkeypatch.chdir(ROOT)
    text = manual()
    block = re.search(r"```text\n\$ (" + command + r"(?:[^\n]*\\\n)*[^\n]*)\n(.*?)```", text, re.S)
    assert block, f"the manual has no example run of {command}"
    args = shlex.split(block[1].replace("\\\n", " "))[1:]
    result = run(*args)
    assert result.exit_code == 0 and result.stdout == block[2]


def test_check_warns_when_face_text_is_too_small(run, catalogue_path):
    """Issue 4: a size at which face text falls below 5 pt is a warning from check (exit 0)."""
    result = run("check", str(catalogue_path), "--size", "0.5in", "--format", "json")
    assert result.exit_code == 0
    import json

    small = [f for f in json.loads(result.stdout)["findings"] if f["code"] == "small-text"]
    assert len(small) == 18 and {f["severity"] for f in small} == {"warning"}
    assert small[0]["message"] == "token agi-low: caption text is 3.69 pt, below 5 pt"
    assert small[0]["data"] == {"token": "agi-low", "part": "caption", "pt": 3.69}
    assert run("check", str(catalogue_path), "--format", "json").stdout.count("small-text") == 0


def test_a_typo_is_one_schema_error_not_two(run, catalogue_path, tmp_path):
    typo = tmp_path / "typo.yaml"
    typo.write_text(catalogue_path.read_text("utf-8").replace("attribute: AGI, priority: low}", "atribute: AGI, priority: low}"), "utf-8")
    result = run("check", str(typo), "--format", "json")
    assert result.exit_code == 2  # bad input, as build says it (was 1: not playable)
    assert result.stdout.count("unknown key; did you mean 'attribute'?") == 1
    assert [f["code"] for f in json.loads(result.stdout)["findings"] if f["severity"] == "error"] == ["schema"]
    assert result.stderr == f"tokengen: error: {typo}:86: tokens[0].atribute: unknown key; did you mean 'attribute'?\n"
