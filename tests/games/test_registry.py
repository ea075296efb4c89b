"""Game modules: generic checks for any catalogue, the Meatshields module through its entry
point, and a game plug-in registered by another (fake, installed-on-the-fly) distribution."""

from __future__ import annotations

import json
import sys
import textwrap

import pytest

from tokengen.games import registry as games
from tokengen.games.meatshields import MODULE as MEATSHIELDS

BASE = """\
title: Blind bag
size: 0.5in
drawn_blind: true
fields: {name: text, side: text}
template:
  - {text: "{name}", at: [0.5, 0.5], size: 0.3}
back:
  - {text: "{side}", at: [0.5, 0.5], size: 0.3}
tokens:
  - {id: a, name: Alpha, side: Army}
  - {id: b, name: Beta, side: Army}
"""


def check(run, tmp_path, text):
    path = tmp_path / "cat.yaml"
    path.write_text(textwrap.dedent(text), "utf-8")
    result = run("check", str(path), "--format", "json")
    return result, json.loads(result.stdout) if result.stdout else None


def codes(report):
    return [(f["severity"], f["code"]) for f in report["findings"]]


def test_meatshields_module_is_registered_by_entry_point():
    assert games.modules()["meatshields"] is MEATSHIELDS


def test_generic_checks_pass(run, tmp_path):
    result, report = check(run, tmp_path, BASE)
    assert result.exit_code == 0
    assert codes(report) == [("info", "sheet")]
    # 0.5 in squares on letter, 0.25 in margin: 576 pt / 36 = 16 columns; 728 pt above the ruler strip / 36 = 20 rows
    assert report["findings"][0]["data"]["per_page"] == 16 * 20


def test_blind_backs_must_match(run, tmp_path):
    navy = BASE.replace("{id: b, name: Beta, side: Army}", "{id: b, name: Beta, side: Navy}")
    result, report = check(run, tmp_path, navy)
    assert result.exit_code == 1
    assert ("error", "back-differs") in codes(report)
    finding = next(f for f in report["findings"] if f["code"] == "back-differs")
    assert finding["line"] == 11 and "token 'b'" in finding["message"]
    # without drawn_blind, different backs are two-sided counters: fine
    result, report = check(run, tmp_path, navy.replace("drawn_blind: true", "drawn_blind: false"))
    assert result.exit_code == 0


def test_small_text_and_unprintable_size(run, tmp_path):
    result, report = check(run, tmp_path, BASE.replace("size: 0.3}\nback", "size: 0.05}\nback"))
    small = [f for f in report["findings"] if f["code"] == "small-text"]
    assert len(small) == 2 and small[0]["data"]["pt"] == pytest.approx(1.76)  # 0.05 × 36 pt, printed at the 0.5 in token's text shrink (0.976)
    assert result.exit_code == 0  # a warning
    result, report = check(run, tmp_path, BASE.replace("size: 0.5in", "size: 12in\ntile: false"))
    assert result.exit_code == 1 and ("error", "not-printable") in codes(report)
    result, report = check(run, tmp_path, BASE.replace("size: 0.5in", "size: 12in"))  # a board: build tiles it
    assert result.exit_code == 0 and ("info", "board") in codes(report)


def test_duplicate_ids_and_unknown_game(run, tmp_path):
    result, report = check(run, tmp_path, BASE.replace("id: b,", "id: a,"))
    assert result.exit_code == 1 and codes(report) == [("error", "duplicate-id")]
    result, report = check(run, tmp_path, BASE.replace("drawn_blind: true", "game: meatshield"))
    assert result.exit_code == 1
    assert report["findings"][0]["message"] == "no game module 'meatshield' is installed; did you mean 'meatshields'?"


def test_a_game_plug_in_registers_through_the_entry_point_group(run, tmp_path, monkeypatch):
    site = tmp_path / "site"
    (site / "fakegame-1.0.dist-info").mkdir(parents=True)
    (site / "fakegame-1.0.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: fakegame\nVersion: 1.0\n")
    (site / "fakegame-1.0.dist-info" / "entry_points.txt").write_text("[tokengen.games]\nfakegame = fakegame_checks:MODULE\n")
    (site / "fakegame_checks.py").write_text(textwrap.dedent("""\
        from tokengen.games.contract import Finding, GameModule

        def strength_total(catalogue, settings):
            total = sum(len(t.value("name")) * t.copies for t in catalogue.tokens)
            return [Finding("info", "name-letters", f"{total} letters in all names", data={"total": total})]

        MODULE = GameModule("fakegame", "a test game", checks=(strength_total,))
    """))
    monkeypatch.syspath_prepend(str(site))
    games.modules.cache_clear()
    try:
        assert "fakegame" in games.modules()
        result, report = check(run, tmp_path, BASE.replace("drawn_blind: true", "game: fakegame"))
        assert result.exit_code == 0
        assert codes(report)[-1] == ("info", "name-letters") and report["findings"][-1]["data"]["total"] == 9
    finally:
        monkeypatch.undo()
        sys.modules.pop("fakegame_checks", None)
        games.modules.cache_clear()


def test_a_second_game_needs_only_the_contract(tmp_path, monkeypatch):
    """A game module written against ``tokengen.games.contract`` alone: its imports name nothing
    else of tokengen, and the registry, the generic checks and the contract import nothing of
    the first game."""
    import ast
    from pathlib import Path

    source = textwrap.dedent("""\
        from tokengen.games.contract import ERROR, Finding, GameModule, Settings

        def at_most_three(catalogue, settings: Settings):
            n = sum(t.copies for t in catalogue.tokens)
            return [Finding(ERROR, "too-many", f"{n} tokens")] if n > 3 else []

        MODULE = GameModule("tiny", "a test game", checks=(at_most_three,))
    """)
    (tmp_path / "tiny_game.py").write_text(source, "utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    names = {n.module for n in ast.walk(ast.parse(source)) if isinstance(n, ast.ImportFrom)}
    assert names == {"tokengen.games.contract"}
    import tiny_game

    monkeypatch.setattr(games, "modules", lambda: {"tiny": tiny_game.MODULE})
    path = write(tmp_path, BASE.replace("drawn_blind: true", "game: tiny").replace("{id: b,", "{id: b, copies: 3,"))
    report = games.check_catalogue(path)
    assert [(f.severity, f.code, f.message) for f in report.findings][-1] == ("error", "too-many", "4 tokens")
    sys.modules.pop("tiny_game", None)
    package = Path(games.__file__).parent
    for module in ("registry.py", "generic.py", "contract.py"):
        tree = ast.parse((package / module).read_text("utf-8"))
        imported = {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        assert not [m for m in imported if "meatshields" in m], module


def test_text_report_of_another_game_has_no_meatshields_lines(run, tmp_path):
    path = tmp_path / "cat.yaml"
    path.write_text(BASE.replace("{id: b, name: Beta, side: Army}", "{id: b, name: Beta, side: Navy}"), "utf-8")
    result = run("check", str(path))
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == f"{path}: NOT playable (1 error, 0 warnings, 1 info)"
    assert lines[1] == "checks: generic"
    assert lines[2].startswith(f"{path}:11: error back-differs: back: token 'b' has a back unlike token 'a'")
    assert "interpretations" not in result.stdout and "variants" not in result.stdout


# -- the Meatshield rules stay with Meatshields catalogues ---------------------------------------------
def write(tmp_path, text=BASE):
    path = tmp_path / "cat.yaml"
    path.write_text(text, "utf-8")
    return path


def test_json_of_another_game_has_its_game_and_no_meatshield_readings(run, tmp_path):
    result, report = check(run, tmp_path, BASE)
    assert list(report) == ["schema_version", "command", "catalogue", "playable", "counts", "game", "findings"]
    assert report["game"] == "generic"
    assert "↓" not in result.stdout and "Adventurer" not in result.stdout and "Meatshield" not in result.stdout


@pytest.mark.parametrize(("options", "named"), [
    (["--variant", "solo-start"], "--variant solo-start"),
    (["--no-variant", "solo-start", "--ties", "all"], "--no-variant solo-start, --ties"),
    (["--small-bag", "take-rest"], "--small-bag"),
])
def test_meatshield_options_are_refused_for_another_game(run, tmp_path, options, named):
    path = write(tmp_path)
    result = run("check", str(path), *options)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (f"tokengen: error: {named}: Meatshields rules; {path} declares its own fields for game "
                             "'generic', which has no variants or interpretations\n")


def test_a_game_module_that_plays_by_the_readings_lists_them(run, tmp_path, monkeypatch):
    module = games.GameModule("skirmish", "a test game", checks=(lambda catalogue, settings: [],), readings=True)
    monkeypatch.setattr(games, "modules", lambda: {"skirmish": module})
    path = write(tmp_path, BASE.replace("drawn_blind: true", "game: skirmish"))
    result = run("check", str(path), "--ties", "all")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[1:4] == ["checks: generic + skirmish", "interpretations:",
                          "  one-sided=split: a ↓X or ↑X token stands in for that side of a monster that targets both lowest "
                          "and highest X; the other side still attacks an Adventurer (other: exact)"]
    assert "  ties=all: Adventurers tied on the targeted score are all attacked (other: choose)" in lines
    report = json.loads(run("check", str(path), "--format", "json").stdout)
    assert list(report) == ["schema_version", "command", "catalogue", "playable", "counts", "game", "interpretations", "interpretations_in_play", "findings"]
    assert report["game"] == "skirmish" and report["interpretations"]["ties"] == "choose"
    refused = run("check", str(path), "--variant", "solo-start")
    assert refused.exit_code == 2
    assert refused.stderr == (f"tokengen: error: --variant solo-start: Meatshields rules; {path} declares its own fields "
                              "for game 'skirmish', which has no variants\n")


def test_a_catalogue_with_fields_cannot_name_the_meatshields_module(run, tmp_path):
    """It has no attributes, priorities or targeting: an error finding, not an internal error."""
    result, report = check(run, tmp_path, BASE.replace("drawn_blind: true", "game: meatshields"))
    assert result.exit_code == 1
    assert report["findings"] == [{
        "severity": "error", "code": "game-format", "line": 3, "field": "game", "data": {},
        "message": "the meatshields game module checks only catalogues in its own format, not one that declares its "
                   "fields; leave out game: for the generic checks"}]
    assert list(report) == ["schema_version", "command", "catalogue", "playable", "counts", "game", "findings"]


def test_target_is_for_meatshields_catalogues(run, tmp_path):
    path = write(tmp_path)
    result = run("target", "-c", str(path), "-a", "Ann:STR=1", "-m", "ALL")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (f"tokengen: error: {path}: target resolves Meatshields fights, and this catalogue declares "
                             "its own fields (game 'generic'): it has no attributes, priorities or targeting\n")


def test_help_describes_check_for_any_game(run):
    listing = run("--help").stdout
    assert "  check      Check that a token set prints and plays (its game's rules).\n" in listing
    assert "Meatshield rules" not in listing
    help_text = " ".join(run("check", "--help").stdout.split())
    assert "every catalogue gets the generic checks" in help_text
    assert "--one-sided [split|exact] Meatshields only. split: a ↓X or ↑X token" in help_text
