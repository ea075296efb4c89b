"""Tabletop Simulator saves as a table reads them (issue 43): a GUID on every object, tooltips from
the catalogue's fields, several catalogues on one table, and ``--tts-folder``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.conftest import ROOT
from tokengen.outputs.export import export
from tokengen.sources.catalogue import load_catalogue
from tokengen.sources.profiles import get_profile

EXAMPLES = ROOT / "examples"


def every_object(states: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for state in states:
        out.append(state)
        out += every_object(state.get("ContainedObjects", []))
    return out


def saved(files: list[Path], name: str | None = None) -> dict[str, Any]:
    [path] = [p for p in files if p.suffix == ".json" and (name is None or p.name == name)]
    return json.loads(path.read_text("utf-8"))


def test_every_object_has_a_six_hex_digit_guid_the_same_on_every_run(tmp_path: Path):
    cat = load_catalogue(ROOT / "token_defs.yaml")  # a bag holding 18 tiles
    a = every_object(saved(export(cat, get_profile("tts"), tmp_path / "a"))["ObjectStates"])
    b = every_object(saved(export(cat, get_profile("tts"), tmp_path / "b"))["ObjectStates"])
    assert len(a) == 19
    guids = [o.get("GUID") for o in a]
    assert all(isinstance(g, str) and re.fullmatch(r"[0-9a-f]{6}", g) for g in guids), guids
    assert len(set(guids)) == len(guids)
    assert guids == [o["GUID"] for o in b]


def write_rules_cards(folder: Path, tts: str) -> Path:
    path = folder / "rules.yaml"
    path.write_text("title: Rules cards\nsize: 63mmx88mm\nfields:\n  name: text\n  rules: text\n"
                    f"{tts}template:\n  - {{text: \"{{name}}\", at: [0.5, 0.2]}}\n"
                    "tokens:\n  - {id: k, name: Knight, rules: Moves in an L., copies: 2}\n"
                    "  - {id: q, name: Queen, rules: Moves any distance.}\n", "utf-8")
    return path


def test_nickname_and_description_come_from_the_fields_the_catalogue_names(tmp_path: Path):
    tts = 'tts: {name: "{name} ({id})", description: "{rules}"}\n'
    cat = load_catalogue(write_rules_cards(tmp_path, tts))
    [deck] = saved(export(cat, get_profile("tts"), tmp_path / "out"))["ObjectStates"]
    cards = deck["ContainedObjects"]
    assert [(c["Nickname"], c["Description"]) for c in cards] == [
        ("Knight (k)", "Moves in an L."), ("Knight (k)", "Moves in an L."), ("Queen (q)", "Moves any distance.")]
    assert deck["Nickname"] == "Rules cards"


def test_without_tts_texts_the_name_field_names_the_card_and_no_description(tmp_path: Path):
    cat = load_catalogue(write_rules_cards(tmp_path, ""))
    [deck] = saved(export(cat, get_profile("tts"), tmp_path / "out"))["ObjectStates"]
    assert [(c["Nickname"], c["Description"]) for c in deck["ContainedObjects"]] == [("Knight", ""), ("Knight", ""), ("Queen", "")]


def test_a_tts_text_naming_no_field_is_one_line_with_file_and_line(tmp_path: Path, run):
    path = write_rules_cards(tmp_path, 'tts: {name: "{name}", description: "{rulez}"}\n')
    result = run("export", str(path), "--profile", "tts", "-o", str(tmp_path / "out"))
    assert (result.exit_code, result.stderr) == (2, f"tokengen: error: {path}:6: tts.description: {{rulez}} is not a field; "
                                                    "did you mean 'rules'? (fields: id, name, rules)\n")


def test_two_catalogues_share_one_table_placed_apart(tmp_path: Path, run):
    cards, counters = EXAMPLES / "poker-cards/cards.yaml", EXAMPLES / "hex-counters/counters.yaml"
    out = tmp_path / "table"
    result = run("export", str(cards), str(counters), "--profile", "tts", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[-1] == f"wrote {out / 'table.json'}: 2 catalogues on one table"
    table = json.loads((out / "table.json").read_text("utf-8"))
    own = [json.loads((out / name).read_text("utf-8"))["ObjectStates"] for name in ("poker-cards.json", "hex-counters.json")]
    states = table["ObjectStates"]
    assert [s["Name"] for s in states] == [s["Name"] for group in own for s in group]  # the deck, then 20 hex tiles
    assert states[0]["Name"] == "DeckCustom" and len(states) == 21
    deck_right = states[0]["Transform"]["posX"] + 63 / 25.4 / 2
    tiles_left = min(s["Transform"]["posX"] for s in states[1:]) - 2.0 * states[1]["Transform"]["scaleX"] / 2
    assert tiles_left - deck_right >= 2.0 - 1e-6  # one set beside the other, not on top of it
    guids = [o["GUID"] for o in every_object(states)]
    assert len(set(guids)) == len(guids) == 21 + 8
    assert (out / "table.png").read_bytes() == (out / "poker-cards.png").read_bytes()


def test_several_catalogues_need_a_tts_profile(tmp_path: Path, run):
    result = run("export", str(ROOT / "token_defs.yaml"), str(EXAMPLES / "poker-cards/cards.yaml"), "--profile", "print-shop",
                 "-o", str(tmp_path / "out"))
    assert (result.exit_code, result.stderr) == (2, "tokengen: error: export takes one catalogue (or one project) with "
                                                    "--profile print-shop; several go on one table with a tts profile only\n")
    assert not (tmp_path / "out").exists()


def test_tts_folder_receives_the_save_and_its_thumbnail(tmp_path: Path, run):
    folder = tmp_path / "Saved Objects"
    folder.mkdir()
    out = tmp_path / "out"
    result = run("export", str(ROOT / "token_defs.yaml"), "--profile", "tts", "-o", str(out), "--tts-folder", str(folder))
    assert result.exit_code == 0, result.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["meatshields.json", "meatshields.png"]
    assert (folder / "meatshields.json").read_bytes() == (out / "meatshields.json").read_bytes()
    assert result.stdout.splitlines()[-1] == f"copied meatshields.json and its thumbnail into {folder}"


def test_a_missing_tts_folder_is_refused_before_anything_is_written(tmp_path: Path, run):
    result = run("export", str(ROOT / "token_defs.yaml"), "--profile", "tts", "-o", str(tmp_path / "out"),
                 "--tts-folder", str(tmp_path / "nope"))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"tokengen: error: --tts-folder {tmp_path / 'nope'}: no such folder")
    assert not (tmp_path / "out").exists()
