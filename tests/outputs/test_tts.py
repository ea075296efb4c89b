"""``tokengen export --profile tts``: the Tabletop Simulator saved object, read back and measured.

The JSON is checked against the format TTS loads (object names, ``CustomDeck`` keys, grid sizes,
``CardID``s, tile types, the bag's ``ContainedObjects``); the images by pixel size, and each card's
cell of its sheet against pdfium's render of the export's own PDF page for that face (within
3/255 per channel): the sheet shows the card the PDF draws.
"""

from __future__ import annotations

import json
import zlib
from pathlib import Path
from urllib.parse import unquote, urlparse

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops

from tests.conftest import CATALOGUE, ROOT
from tokengen.errors import CatalogueError, ExportError, LayoutError
from tokengen.geometry.decksheet import MAX_COLUMNS, MAX_ROWS, deck_sheets
from tokengen.outputs.export import export
from tokengen.outputs.tts import CARD_UNITS, THICKNESS, TILE_UNITS
from tokengen.sources.catalogue import load_catalogue
from tokengen.sources.profiles import get_profile, load_profiles

EXAMPLES = ROOT / "examples"
DPI = 150  # the tts profile's
DECK_KEYS = {"FaceURL", "BackURL", "NumWidth", "NumHeight", "BackIsHidden", "UniqueBack", "Type"}


def save(files: list[Path]) -> dict:
    [path] = [p for p in files if p.suffix == ".json"]
    return json.loads(path.read_text("utf-8"))


def local(url: str) -> Path:
    """The file a ``file:///`` URL names (it must exist)."""
    parsed = urlparse(url)
    assert parsed.scheme == "file", url
    path = Path(unquote(parsed.path))
    assert path.is_absolute() and path.is_file(), url
    return path


def page_image(pdf: Path, index: int, size: tuple[int, int]) -> Image.Image:
    """Page ``index`` of ``pdf`` rendered by pdfium at ``size`` px, white under the page."""
    document = pdfium.PdfDocument(str(pdf))
    page = document[index]
    width, height = page.get_size()
    image = page.render(scale=size[0] / width, fill_color=(255, 255, 255, 255)).to_pil().convert("RGB")
    document.close()
    assert abs(image.size[0] - size[0]) <= 1 and abs(image.size[1] - size[1]) <= 1, (image.size, size, height)
    return image.crop((0, 0, *size))


def differs(a: Image.Image, b: Image.Image) -> int:
    """Largest per-channel difference between two images of one size, 0–255."""
    assert a.size == b.size
    return max(high for _, high in ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getextrema())


@pytest.fixture(scope="module")
def meatshields(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return export(load_catalogue(CATALOGUE), get_profile("tts"), tmp_path_factory.mktemp("tts") / "meat")


@pytest.fixture(scope="module")
def poker(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return export(load_catalogue(EXAMPLES / "poker-cards/cards.yaml"), get_profile("tts"), tmp_path_factory.mktemp("tts") / "poker")


def test_the_profile_is_built_in_and_rgb():
    profile = load_profiles()["tts"]
    assert (profile.output, profile.dpi, profile.bleed, profile.colour) == ("tts", DPI, 0.0, "rgb")


def test_meatshields_is_one_bag_of_18_tiles_with_18_faces_and_one_back(meatshields: list[Path]):
    data = save(meatshields)
    [bag] = data["ObjectStates"]
    assert bag["Name"] == "Bag" and bag["Nickname"] == "Meatshields"
    tiles = bag["ContainedObjects"]
    assert len(tiles) == 18 and {t["Name"] for t in tiles} == {"Custom_Tile"}
    faces = [t["CustomImage"]["ImageURL"] for t in tiles]
    backs = {t["CustomImage"]["ImageSecondaryURL"] for t in tiles}
    assert len(set(faces)) == 18 and len(backs) == 1
    assert [t["Nickname"] for t in tiles][:3] == ["agi-low", "agi-high", "agi-both"]
    for tile in tiles:
        custom = tile["CustomImage"]["CustomTile"]
        assert custom == {"Type": 0, "Thickness": THICKNESS, "Stackable": False, "Stretch": True}
        # a 1 in token: TILE_UNITS units at scale 1, so scale 1/TILE_UNITS; thickness unscaled
        assert (tile["Transform"]["scaleX"], tile["Transform"]["scaleY"], tile["Transform"]["scaleZ"]) == (1 / TILE_UNITS, 1.0, 1 / TILE_UNITS)
    for url in faces + sorted(backs):
        with Image.open(local(url)) as image:
            assert image.size == (150, 150) and image.mode == "RGB"
            assert round(image.info["dpi"][0]) == DPI
    distinct = {local(url).read_bytes() for url in faces}
    assert len(distinct) == 18  # 18 different pictures, not one file named 18 ways


def test_tiles_show_the_pdf_faces_and_the_back(meatshields: list[Path]):
    pdf = meatshields[0]
    assert pdf.name == "meatshields-tts.pdf"
    tiles = save(meatshields)["ObjectStates"][0]["ContainedObjects"]
    for index in (0, 7, 17):
        with Image.open(local(tiles[index]["CustomImage"]["ImageURL"])) as image:
            assert differs(image, page_image(pdf, index, (150, 150))) <= 3
    with Image.open(local(tiles[0]["CustomImage"]["ImageSecondaryURL"])) as image:
        assert differs(image, page_image(pdf, 18, (150, 150))) <= 3


def chunks_and_rows(png: Path) -> tuple[list[bytes], bytes]:
    """The chunk types of ``png`` in order (every CRC checked) and its inflated IDAT data."""
    data = png.read_bytes()
    at, kinds, idat = 8, [], b""
    while at < len(data):
        length = int.from_bytes(data[at:at + 4], "big")
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
        assert int.from_bytes(data[at + 8 + length:at + 12 + length], "big") == zlib.crc32(kind + body)
        kinds.append(kind)
        idat += body if kind == b"IDAT" else b""
        at += 12 + length
    return kinds, zlib.decompress(idat)


@pytest.mark.parametrize("which", ["meatshields", "poker"])
def test_images_are_written_as_the_chits_are_unfiltered_with_srgb_gama_and_phys(which: str, request: pytest.FixtureRequest):
    files = request.getfixturevalue(which)
    images = [p for p in files if p.suffix == ".png"]
    assert len(images) == (20 if which == "meatshields" else 3)  # tiles: 18 faces, a back, the thumbnail; a deck: sheet, back, thumbnail
    for png in images:
        kinds, rows = chunks_and_rows(png)
        assert kinds == [b"IHDR", b"sRGB", b"gAMA", b"pHYs", b"IDAT", b"IEND"], png.name
        with Image.open(png) as image:
            width, height = image.size
            assert image.mode == "RGB" and image.info["srgb"] == 0 and image.info["gamma"] == pytest.approx(0.45455)
        assert {rows[y * (1 + 3 * width)] for y in range(height)} == {0}, png.name  # filter type None on every row
    if which == "meatshields":  # and the pixels are the render's exactly
        tile = save(files)["ObjectStates"][0]["ContainedObjects"][17]
        with Image.open(local(tile["CustomImage"]["ImageURL"])) as image:
            assert image.tobytes() == page_image(files[0], 17, (150, 150)).tobytes()


def test_thumbnail_beside_the_json(meatshields: list[Path]):
    json_path = next(p for p in meatshields if p.suffix == ".json")
    thumb = json_path.with_suffix(".png")
    assert thumb in meatshields
    with Image.open(thumb) as image:
        assert max(image.size) <= 256 and image.size == (150, 150)  # a 150 px face is not enlarged


def test_poker_cards_are_a_deck_custom_whose_card_ids_match_the_sheet(poker: list[Path]):
    data = save(poker)
    [deck] = data["ObjectStates"]
    assert deck["Name"] == "DeckCustom"
    assert list(deck["CustomDeck"]) == ["1"]
    entry = deck["CustomDeck"]["1"]
    assert set(entry) == DECK_KEYS
    # 4 card designs, no reserved slot (BackIsHidden): 4 columns, 1 row
    assert (entry["NumWidth"], entry["NumHeight"], entry["BackIsHidden"], entry["UniqueBack"], entry["Type"]) == (4, 1, True, False, 0)
    cards = deck["ContainedObjects"]
    assert [c["Name"] for c in cards] == ["Card"] * 8
    assert deck["DeckIDs"] == [c["CardID"] for c in cards] == [100, 100, 101, 102, 102, 103, 103, 103]
    assert [c["Nickname"] for c in cards][:3] == ["Knight", "Knight", "Dragon"]
    assert all(c["CustomDeck"] == {"1": entry} for c in cards)
    # 63 mm wide: 2.480 in over a CARD_UNITS-wide card at scale 1; face down
    assert cards[0]["Transform"]["scaleX"] == pytest.approx(63 / 25.4 / CARD_UNITS, abs=1e-6)
    assert deck["Transform"]["rotZ"] == 180.0
    cell = (round(63 / 25.4 * DPI), round(88 / 25.4 * DPI))
    assert cell == (372, 520)
    pdf = poker[0]
    with Image.open(local(entry["FaceURL"])) as sheet:
        assert sheet.size == (4 * cell[0], cell[1])
        for slot in range(4):  # CardID 100 + slot is the card in column slot
            box = (slot * cell[0], 0, (slot + 1) * cell[0], cell[1])
            assert differs(sheet.crop(box), page_image(pdf, slot, cell)) <= 3, slot
    with Image.open(local(entry["BackURL"])) as back:
        assert back.size == cell
        assert differs(back, page_image(pdf, 4, cell)) <= 3


def write_cards(folder: Path, count: int, *, unique_backs: bool = False, copies: int = 1) -> Path:
    """A catalogue of ``count`` small cards (1 × 1.4 in), each its own colour; per-token backs
    (drawn from the colour) when ``unique_backs``."""
    back = '  - {rect: fill, fill: "{colour}", bleed: true}\n' if unique_backs else '  - {rect: fill, fill: "#202020", bleed: true}\n'
    tokens = "".join(f'  - {{id: c{i}, colour: "#{(i * 37) % 256:02x}{(i * 91) % 256:02x}{(i * 53) % 256:02x}", copies: {copies}}}\n'
                     for i in range(count))
    path = folder / "cards.yaml"
    path.write_text("title: Many cards\nsize: 1inx1.4in\nfields:\n  colour: colour\ntemplate:\n"
                    '  - {rect: fill, fill: "{colour}", bleed: true}\n'
                    f"back:\n{back}tokens:\n{tokens}", "utf-8")
    return path


def test_seventy_cards_fill_one_sheet_and_the_71st_takes_a_second(tmp_path: Path):
    """BackIsHidden shows the back for a hidden card, so no slot is reserved (issue 43): 70 on a 10 × 7 sheet."""
    files = export(load_catalogue(write_cards(tmp_path, 71)), get_profile("tts"), tmp_path / "out", dpi=72)
    [deck] = save(files)["ObjectStates"]
    assert list(deck["CustomDeck"]) == ["1", "2"]
    one, two = deck["CustomDeck"]["1"], deck["CustomDeck"]["2"]
    assert (one["NumWidth"], one["NumHeight"], one["BackIsHidden"]) == (10, 7, True)  # 70 cards
    assert (two["NumWidth"], two["NumHeight"]) == (1, 1)  # the 71st card
    assert deck["DeckIDs"] == [*range(100, 170), 200]
    assert one["BackURL"] == two["BackURL"] and not one["UniqueBack"]
    with Image.open(local(one["FaceURL"])) as sheet:
        assert sheet.size == (10 * 72, 7 * round(1.4 * 72))


def test_per_token_backs_are_a_unique_back_sheet_laid_out_as_the_faces(tmp_path: Path):
    files = export(load_catalogue(write_cards(tmp_path, 3, unique_backs=True)), get_profile("tts"), tmp_path / "out", dpi=72)
    [deck] = save(files)["ObjectStates"]
    entry = deck["CustomDeck"]["1"]
    assert entry["UniqueBack"] is True and entry["BackURL"] != entry["FaceURL"]
    with Image.open(local(entry["FaceURL"])) as faces, Image.open(local(entry["BackURL"])) as backs:
        assert faces.size == backs.size == (3 * 72, round(1.4 * 72))
        for slot in range(3):  # each card's back is its own colour, in the card's cell
            box = (slot * 72 + 36, 50)
            assert backs.getpixel(box) == faces.getpixel(box)


def test_one_card_is_a_card(tmp_path: Path):
    files = export(load_catalogue(write_cards(tmp_path, 1)), get_profile("tts"), tmp_path / "out", dpi=72)
    [card] = save(files)["ObjectStates"]
    assert card["Name"] == "Card" and card["CardID"] == 100 and set(card["CustomDeck"]["1"]) == DECK_KEYS


def test_hex_counters_are_separate_hex_tiles_with_their_own_backs(tmp_path: Path):
    cat = load_catalogue(EXAMPLES / "hex-counters/counters.yaml")
    files = export(cat, get_profile("tts"), tmp_path / "hex")
    tiles = save(files)["ObjectStates"]
    assert len(tiles) == cat.count == 20
    assert {t["Name"] for t in tiles} == {"Custom_Tile"}
    assert {t["CustomImage"]["CustomTile"]["Type"] for t in tiles} == {1}
    assert len({(t["Transform"]["posX"], t["Transform"]["posZ"]) for t in tiles}) == 20  # copies lie apart
    assert len({t["CustomImage"]["ImageURL"] for t in tiles}) == len(cat.tokens) == 9
    assert len({t["CustomImage"]["ImageSecondaryURL"] for t in tiles}) == 9  # reduced strength on each back
    box = (round(cat.size / 72 * DPI), round(cat.trim_height / 72 * DPI))
    with Image.open(local(tiles[0]["CustomImage"]["ImageURL"])) as image:
        assert image.size == box
        assert differs(image, page_image(files[0], 0, box)) <= 3


def test_image_url_names_the_hosted_images(tmp_path: Path, run):
    out = tmp_path / "o"
    result = run("export", str(CATALOGUE), "--profile", "tts", "-o", str(out), "--image-url", "https://example.org/meat/")
    assert result.exit_code == 0, result.stderr
    assert "preflight: meatshields-tts.pdf passes every check of profile tts" in result.stdout
    [bag] = json.loads((out / "meatshields.json").read_text("utf-8"))["ObjectStates"]
    first = bag["ContainedObjects"][0]["CustomImage"]
    assert first["ImageURL"] == "https://example.org/meat/meatshields-01-agi-low.png"
    assert first["ImageSecondaryURL"] == "https://example.org/meat/meatshields-back.png"


def test_a_bad_image_url_is_refused_before_anything_is_written(tmp_path: Path, run):
    result = run("export", str(CATALOGUE), "--profile", "tts", "-o", str(tmp_path / "o"), "--image-url", "example.org")
    assert result.exit_code == 2
    assert "--image-url 'example.org': expected a URL such as https://example.org/tokens" in result.stderr
    assert not (tmp_path / "o").exists()


def test_all_files_or_none(tmp_path: Path):
    out = tmp_path / "o"
    (out / "meatshields.json").mkdir(parents=True)  # a target the run cannot replace
    with pytest.raises(ExportError, match="meatshields.json"):
        export(load_catalogue(CATALOGUE), get_profile("tts"), out)
    assert [p.name for p in out.iterdir()] == ["meatshields.json"]


def test_an_input_is_never_overwritten(tmp_path: Path):
    with pytest.raises(ExportError, match="poker-cards.png"):
        _clash(load_catalogue(EXAMPLES / "poker-cards/cards.yaml"), tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["poker-cards.png"]


def _clash(cat, tmp_path: Path) -> None:
    """Export where the thumbnail would replace a file the catalogue reads (its own art)."""
    from dataclasses import replace

    art = tmp_path / "poker-cards.png"
    art.write_bytes((EXAMPLES / "poker-cards/art/dragon.png").read_bytes())
    cat = replace(cat, inputs=(*cat.inputs, art))
    export(cat, get_profile("tts"), tmp_path)


def test_limits_are_checked_before_drawing(tmp_path: Path):
    cat = load_catalogue(EXAMPLES / "poker-cards/cards.yaml")
    with pytest.raises(LayoutError, match=r"poker-cards-deck-1\.png would be 1488 x 520 px \(773,760 pixels\) at 150 DPI, more than the limit of 500,000"):
        export(cat, get_profile("tts"), tmp_path / "o", max_pixels=500_000)
    with pytest.raises(LayoutError, match="more than Tabletop Simulator's 4096 px; lower --dpi"):
        export(cat, get_profile("tts"), tmp_path / "o", dpi=1200)
    assert not (tmp_path / "o").exists()


def test_a_cmyk_tts_profile_is_refused(tmp_path: Path):
    path = tmp_path / "profiles.yaml"
    path.write_text("mine:\n  extends: tts\n  colour: cmyk\n", "utf-8")
    with pytest.raises(CatalogueError, match=r"profiles\.yaml:3: mine\.colour: Tabletop Simulator images \(output: tts\) are RGB"):
        load_profiles(path)


@pytest.mark.parametrize("count, grids", [
    (1, [(1, 1)]), (4, [(4, 1)]), (9, [(9, 1)]), (10, [(10, 1)]), (11, [(10, 2)]), (69, [(10, 7)]), (70, [(10, 7)]),
    (71, [(10, 7), (1, 1)]), (140, [(10, 7), (10, 7)]), (141, [(10, 7), (10, 7), (1, 1)]),
])
def test_deck_sheet_grids(count: int, grids: list[tuple[int, int]]):
    sheets = deck_sheets(count, (100, 140))
    assert [(s.columns, s.rows) for s in sheets] == grids
    assert [c for s in sheets for c in s.cards] == list(range(count))
    for s in sheets:
        assert s.columns <= MAX_COLUMNS and s.rows <= MAX_ROWS and (s.rows - 1) * s.columns < len(s.cards) <= s.columns * s.rows


def test_deck_sheets_stay_within_4096_px():
    sheets = deck_sheets(32, (744, 1039))  # poker cards at 300 DPI: 5 columns × 3 rows fit 4096 px, 15 cards a sheet
    assert [(s.columns, s.rows) for s in sheets] == [(5, 3), (5, 3), (2, 1)]
    assert all(max(s.size) <= 4096 for s in sheets)
    with pytest.raises(LayoutError, match="larger than Tabletop Simulator's 4096 px"):
        deck_sheets(1, (4097, 100))


def test_image_urls_resolve_the_folder_once_and_name_each_image_as_image_url_does(tmp_path, monkeypatch):
    from tokengen.outputs import tts

    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    names = [f"set-{n:02d}-t{n}.png" for n in range(1, 6)]
    expected = {name: tts.image_url(tmp_path / "link" / name, None) for name in names}
    resolved = []
    original = Path.resolve
    monkeypatch.setattr(Path, "resolve", lambda self, *a, **k: resolved.append(self) or original(self, *a, **k))
    assert tts.image_urls(tmp_path / "link", names, None) == expected
    assert resolved == [tmp_path / "link"]  # once for the folder, not once an image
    assert expected[names[0]] == (tmp_path / "real" / names[0]).as_uri()
    assert tts.image_urls(tmp_path, names[:1], "https://example.org/t/") == {names[0]: f"https://example.org/t/{names[0]}"}
