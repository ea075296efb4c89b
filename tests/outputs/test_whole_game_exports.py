"""A whole game through the exports (issue 41): a project exported to Tabletop Simulator puts every
part on one table, and to a shop profile one folder per part; a board on a shop's sheet profile is
printed whole, one page a side at its trim with the profile's bleed; ``sleeve:`` draws the cards
at the size the named sleeve holds. Measured: the save's objects and their places, the folders, the
pages' TrimBox and BleedBox, and the sleeve's card size against ``data/sizes.yaml``."""

from __future__ import annotations

import json

import pikepdf
import pytest
import yaml

from tests.conftest import ROOT

MM = 72 / 25.4

CARDS = """title: Cards
{size}
fields:
  name: text
template:
  - {{rect: fill, fill: "#cc6633"}}
  - {{text: "{{name}}", at: [0.5, 0.5], size: 0.1}}
tokens:
  - {{id: a, name: Alpha}}
  - {{id: b, name: Beta}}
"""

BOARD = """title: Map
size: 400mmx400mm
fields:
  name: text
template:
  - {rect: fill, fill: "#88aa66"}
  - {text: "{name}", at: [0.5, 0.5], size: 0.05}
tokens:
  - {id: map, name: The Map}
"""


def _game(tmp_path):
    (tmp_path / "cards.yaml").write_text(CARDS.format(size="size: poker"), "utf-8")
    (tmp_path / "board.yaml").write_text(BOARD, "utf-8")
    (tmp_path / "game.yaml").write_text("title: My Game\nparts: [cards.yaml, board.yaml]\n", "utf-8")
    return tmp_path / "game.yaml"


def _boxes(pdf):
    with pikepdf.open(pdf) as doc:
        return [([float(v) for v in page.TrimBox], [float(v) for v in page.BleedBox]) for page in doc.pages]


def test_a_project_goes_on_one_table_with_an_object_per_part(run, tmp_path):
    result = run("export", str(_game(tmp_path)), "--profile", "tts", "-o", str(tmp_path / "tts"))
    assert result.exit_code == 0, result.stderr
    table = json.loads((tmp_path / "tts" / "table.json").read_text("utf-8"))
    objects = table["ObjectStates"]
    assert [(o["Name"], o["Nickname"]) for o in objects] == [("DeckCustom", "Cards"), ("Custom_Tile", "The Map")]
    assert len({o["GUID"] for o in objects}) == 2
    deck, board = objects
    # placed apart: the board's left edge (a tile is 2 units at scale 1) lies right of the deck's right edge (2.5 units)
    assert board["Transform"]["posX"] - board["Transform"]["scaleX"] * 2 / 2 > deck["Transform"]["posX"] + 2.5 / 2
    assert board["Transform"]["scaleX"] == pytest.approx(400 / 25.4 / 2)


def test_a_project_for_a_shop_writes_a_folder_per_part(run, tmp_path):
    out = tmp_path / "shop"
    result = run("export", str(_game(tmp_path)), "--profile", "print-shop", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*.pdf")) == ["board/map-print-shop.pdf", "cards/cards-print-shop.pdf"]


def test_a_board_on_a_shop_sheet_is_printed_whole_with_bleed(run, tmp_path):
    _game(tmp_path)
    result = run("export", str(tmp_path / "board.yaml"), "--profile", "print-shop", "-o", str(tmp_path / "shop"))
    assert result.exit_code == 0, result.stderr
    assert "board fits no print-shop sheet: it is printed whole" in result.stdout
    assert "passes every check of profile print-shop" in result.stdout
    boxes = _boxes(tmp_path / "shop" / "map-print-shop.pdf")
    assert len(boxes) == 2  # face and back: print-shop is duplex
    for trim, bleed in boxes:
        assert trim[2] - trim[0] == pytest.approx(400 * MM, abs=0.01) and trim[3] - trim[1] == pytest.approx(400 * MM, abs=0.01)
        assert trim[0] - bleed[0] == pytest.approx(9.0, abs=0.01)  # print-shop's 1/8 in bleed


def test_a_board_is_still_refused_by_a_cutting_profile(run, tmp_path):
    _game(tmp_path)
    result = run("export", str(tmp_path / "board.yaml"), "--profile", "cut-svg", "-o", str(tmp_path / "cut"))
    assert result.exit_code == 2 and "does not fit" in result.stderr
    assert not (tmp_path / "cut").exists()


def test_a_sleeve_draws_the_card_it_holds(run, tmp_path):
    sleeves = yaml.safe_load((ROOT / "tokengen" / "data" / "sizes.yaml").read_text("utf-8"))["sleeves"]
    assert sleeves["standard-european"]["card"] == "59mm x 92mm" and sleeves["standard-european"]["source"]
    (tmp_path / "cards.yaml").write_text(CARDS.format(size="sleeve: standard-european"), "utf-8")
    result = run("export", str(tmp_path / "cards.yaml"), "--profile", "single-pages", "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stderr
    for trim, _ in _boxes(tmp_path / "out" / "cards-single-pages.pdf"):
        assert (trim[2] - trim[0], trim[3] - trim[1]) == (pytest.approx(59 * MM, abs=0.01), pytest.approx(92 * MM, abs=0.01))


@pytest.mark.parametrize("line, message", [
    ("sleeve: standard-europ", "cards.yaml:2: sleeve: unknown sleeve 'standard-europ': did you mean standard-euro?"),
    ("sleeve: tarot\nsize: poker", "cards.yaml:2: sleeve: give sleeve: or size:, not both"),
])
def test_a_bad_sleeve_is_one_line_at_its_key(run, tmp_path, line, message):
    (tmp_path / "cards.yaml").write_text(CARDS.format(size=line), "utf-8")
    result = run("build", str(tmp_path / "cards.yaml"), "-o", str(tmp_path / "cards.pdf"))
    assert result.exit_code == 2 and message in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "cards.pdf").exists()


def test_sizes_lists_every_sleeve_with_its_source(run):
    result = run("sizes")
    assert result.exit_code == 0
    sleeves = yaml.safe_load((ROOT / "tokengen" / "data" / "sizes.yaml").read_text("utf-8"))["sleeves"]
    lines = result.stdout.split("\nsleeves (")[1].splitlines()[1:]
    assert len(lines) == len(sleeves)
    for name, entry in sleeves.items():
        [line] = [line for line in lines if line.startswith(f"{name} ")]
        assert " ".join(str(entry["source"]).split()) in line
