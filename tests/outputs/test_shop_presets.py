"""Product presets (issue 26): each shop's profile measured against the shop's published numbers.

DriveThruCards: page = trim + 1/8 in bleed (poker 2.75 x 3.75 in, euro 2.73 x 3.71 in), back
first, total ink at most 240 % (a black card rendered by Ghostscript's ``tiff32nc``). The Game
Crafter: each template's exact canvas (poker and euro poker 825 x 1125 px, chits 375/300/225 px
square, hex chits 1200 x 1050, 825 x 750 and 675 x 600 px) at 300 DPI in pHYs. MakePlayingCards: 822 x 1122 px at 300 DPI.
"""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
from pathlib import Path

import pypdf
import pytest
from PIL import Image

from tokengen.errors import LayoutError
from tokengen.outputs.export import export
from tokengen.sources.catalogue import load_catalogue
from tokengen.sources.profiles import load_profiles

ROOT = Path(__file__).resolve().parents[2]
POKER = ROOT / "examples" / "poker-cards" / "cards.yaml"  # 63 x 88 mm cards
STATUS = ROOT / "examples" / "status-tokens" / "status.yaml"  # circle tokens
PX_PER_M_300 = 11811  # 300 DPI as PNG stores it

BLACK = """\
title: Black deck
size: 2.5inx3.5in
fields:
  name: text
template:
  - {rect: fill, fill: "#000000", bleed: true}
  - {text: "{name}", font: bold, at: [0.5, 0.5], width: 0.8, size: 0.1, colour: "#ffffff"}
back:
  - {rect: fill, fill: "#000000", bleed: true}
  - {text: "BACK", font: bold, at: [0.5, 0.5], width: 0.8, size: 0.1, colour: "#ffffff"}
tokens:
  - {id: night, name: Night}
  - {id: dusk, name: Dusk, copies: 2}
"""


HEX = "size: 1in\nshape: {kind: hex, orientation: flat}"


@pytest.fixture(scope="module")
def black(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("black")
    (folder / "black.yaml").write_text(BLACK, "utf-8")
    return folder / "black.yaml"


def boxes(page: pypdf.PageObject) -> dict[str, tuple[float, ...]]:
    return {k: tuple(round(float(v), 4) for v in page[f"/{k}"]) for k in ("MediaBox", "TrimBox", "BleedBox")}


def phys(png: Path) -> tuple[int, int, int]:
    """The raw pHYs chunk of a PNG: (x px per unit, y px per unit, unit)."""
    data = png.read_bytes()
    at = data.index(b"pHYs")
    return struct.unpack(">IIB", data[at + 4:at + 13])


def max_total_ink(pdf: Path, folder: Path) -> float:
    """The highest C+M+Y+K (%) of any pixel of any page, rendered by Ghostscript (tiff32nc, 150 DPI)."""
    gs = shutil.which("gs")
    if gs is None:
        pytest.skip("Ghostscript (gs) is not installed")
    pattern = folder / "page-%d.tif"
    subprocess.run([gs, "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=tiff32nc", "-r150",
                    f"-sOutputFile={pattern}", str(pdf)], check=True)
    highest = 0
    for tif in sorted(folder.glob("page-*.tif")):
        with Image.open(tif) as image:
            assert image.mode == "CMYK"
            bands = [band.tobytes() for band in image.split()]
            highest = max(highest, max(map(sum, zip(*bands, strict=True))))
    return highest / 255 * 100


# -- DriveThruCards -----------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "page", "trim"), [
    ("dtc-poker", (198.0, 270.0), (180.0, 252.0)),          # 2.75 x 3.75 in page, 2.5 x 3.5 in trim
    ("dtc-euro-poker", (196.56, 267.12), (178.56, 249.12)),  # 2.73 x 3.71 in page, 2.48 x 3.46 in trim
])
def test_dtc_pages_are_trim_plus_eighth_inch_back_first(tmp_path: Path, black: Path, name: str, page, trim):
    [pdf] = export(load_catalogue(black), load_profiles()[name], tmp_path)
    reader = pypdf.PdfReader(pdf)
    assert len(reader.pages) == 6  # 3 cards x (back, face)
    for n, p in enumerate(reader.pages):
        b = boxes(p)
        assert b["MediaBox"] == (0, 0, *page) == b["BleedBox"]
        assert b["TrimBox"] == (9.0, 9.0, 9.0 + trim[0], 9.0 + trim[1])
        text = p.extract_text()
        assert ("BACK" in text) == (n % 2 == 0)  # back, face, back, face ...
    assert "Night" in reader.pages[1].extract_text() and "Dusk" in reader.pages[3].extract_text() and "Dusk" in reader.pages[5].extract_text()
    assert reader.trailer["/Root"]["/OutputIntents"][0]["/S"] == "/GTS_PDFX"


def test_dtc_black_card_total_ink_is_at_most_240(tmp_path: Path, black: Path):
    [pdf] = export(load_catalogue(black), load_profiles()["dtc-poker"], tmp_path)
    ink = max_total_ink(pdf, tmp_path)
    assert 230 < ink <= 240.0  # a rich black, held to DriveThruCards' limit
    [plain] = export(load_catalogue(black), load_profiles()["single-pages"], tmp_path / "plain")
    assert max_total_ink(plain, tmp_path / "plain") > 280  # the generic profile is not limited so


def test_dtc_poker_resizes_other_cards_to_its_trim(tmp_path: Path):
    [pdf] = export(load_catalogue(POKER), load_profiles()["dtc-poker"], tmp_path)
    assert boxes(pypdf.PdfReader(pdf).pages[0])["TrimBox"] == (9.0, 9.0, 189.0, 261.0)


def square_tokens(folder: Path) -> Path:
    """The black deck as 1.5 in square tokens."""
    path = folder / "squares.yaml"
    path.write_text(BLACK.replace("size: 2.5inx3.5in", "size: 1.5in"), "utf-8")
    return path


def test_a_preset_trim_of_another_shape_is_refused_unless_size_is_given(run, tmp_path: Path):
    """Square tokens are not stretched into poker cards: refused as --size refuses a change of
    shape, naming the way out; with --size the user's size is printed (and no trim is said)."""
    squares = square_tokens(tmp_path)
    result = run("export", str(squares), "--profile", "dtc-poker", "-o", str(tmp_path / "dtc"))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (f"tokengen: error: {squares}: profile dtc-poker's trim 2.5in × 3.5in does not keep the tokens' "
                             "proportions (1.5in × 1.5in): at 2.5in wide they are 2.5in high; choose a profile made for tokens of this "
                             "shape (tokengen export --list-profiles), or print-shop, which takes any size\n")
    assert not (tmp_path / "dtc").exists()
    result = run("export", str(squares), "--profile", "dtc-poker", "--size", "1.5in", "-o", str(tmp_path / "own"))
    assert (tmp_path / "own" / "black-deck-dtc-poker.pdf").is_file(), result.stderr
    assert "replaces" not in result.stdout and "proportions" not in result.stderr
    bundled = run("export", "meatshields", "--profile", "dtc-poker", "-o", str(tmp_path / "m"))  # named as typed
    assert bundled.stderr.startswith("tokengen: error: meatshields: profile dtc-poker's trim 2.5in × 3.5in does not keep"), bundled.stderr


@pytest.mark.parametrize("catalogue, profile, note", [
    ("squares", "tgc-square-chit-large", "tgc-square-chit-large: trim 1in × 1in replaces the catalogue's 1.5in × 1.5in"),
    (POKER, "tgc-poker", "tgc-poker: trim 2.5in × 3.5in replaces the catalogue's 63mm × 88mm"),
    ("black", "dtc-poker", None),  # the catalogue's own size: nothing to say
])
def test_a_preset_trim_that_replaces_the_size_says_so_once(run, tmp_path: Path, black: Path, catalogue, profile, note):
    path = {"squares": square_tokens(tmp_path), "black": black}.get(catalogue, catalogue)
    result = run("export", str(path), "--profile", profile, "-o", str(tmp_path / "out"))
    assert result.exit_code in (0, 1), result.stderr  # written (the poker art is 299 DPI for dtc's preflight)
    said = [line for line in result.stdout.splitlines() if "replaces the catalogue's" in line]
    assert said == ([note] if note else [])


# -- The Game Crafter, MakePlayingCards ---------------------------------------------------------
@pytest.mark.parametrize(("name", "catalogue", "px", "trim_box"), [
    ("tgc-poker", POKER, (825, 1125), (9.0, 9.0, 189.0, 261.0)),
    ("tgc-euro-poker", POKER, (825, 1125), (9.72, 10.44, 188.28, 259.56)),  # 0.135 / 0.145 in bleed
    ("tgc-square-chit-large", "square", (375, 375), (9.0, 9.0, 81.0, 81.0)),  # square tokens: cards would be refused
    ("tgc-square-chit-medium", "square", (300, 300), (9.0, 9.0, 63.0, 63.0)),
    ("tgc-square-chit-small", "square", (225, 225), (9.0, 9.0, 45.0, 45.0)),
    ("tgc-round-chit-large", STATUS, (375, 375), (9.0, 9.0, 81.0, 81.0)),
    ("tgc-round-chit-medium", STATUS, (300, 300), (9.0, 9.0, 63.0, 63.0)),
    ("tgc-round-chit-small", STATUS, (225, 225), (9.0, 9.0, 45.0, 45.0)),
    ("mpc-poker", POKER, (822, 1122), (8.64, 8.64, 188.64, 260.64)),  # 36 px = 0.12 in bleed
    # issue 43: TGC's other card products, each at its own trim (1/8 in = 9 pt of bleed a side)
    ("tgc-mini", "size: 1.75inx2.5in", (600, 825), (9.0, 9.0, 135.0, 189.0)),
    ("tgc-bridge", "size: 2.25inx3.5in", (750, 1125), (9.0, 9.0, 171.0, 261.0)),
    ("tgc-square", "size: 3.5in", (1125, 1125), (9.0, 9.0, 261.0, 261.0)),
    ("tgc-small-square", "size: 2.5in", (825, 825), (9.0, 9.0, 189.0, 189.0)),
    ("tgc-tarot", "size: 2.75inx4.75in", (900, 1500), (9.0, 9.0, 207.0, 351.0)),
    # TGC's hex chits: flat-top regular hexes with their corners 1/8 in inside the canvas's sides,
    # the rest of the canvas's height as bleed (1200 x 1050 px is 288 x 252 pt; the trim's
    # 270 pt corners are 233.83 pt apart across the flats)
    ("tgc-hex-chit-large", "hex", (1200, 1050), (9.0, 9.0865, 279.0, 242.9135)),
    ("tgc-hex-chit-medium", "hex", (825, 750), (9.0, 12.0577, 189.0, 167.9423)),
    ("tgc-hex-chit-small", "hex", (675, 600), (9.0, 9.6462, 153.0, 134.3538)),
])
def test_png_presets_are_the_templates_exact_canvas(tmp_path: Path, black: Path, name: str, catalogue, px, trim_box):
    if catalogue == "square":  # the black deck as 1.5 in square tokens
        catalogue = tmp_path / "square.yaml"
        catalogue.write_text(BLACK.replace("size: 2.5inx3.5in", "size: 1.5in"), "utf-8")
    elif catalogue == "hex":  # the black deck as 1 in flat-top hexes
        catalogue = tmp_path / "hex.yaml"
        catalogue.write_text(BLACK.replace("size: 2.5inx3.5in", HEX), "utf-8")
    elif isinstance(catalogue, str) and catalogue.startswith("size: "):  # the black deck at the product's trim
        size, catalogue = catalogue, tmp_path / "sized.yaml"
        catalogue.write_text(BLACK.replace("size: 2.5inx3.5in", size), "utf-8")
    files = export(load_catalogue(catalogue), load_profiles()[name], tmp_path)
    pngs = [f for f in files if f.suffix == ".png"]
    assert pngs
    for png in pngs:
        with Image.open(png) as image:
            assert image.size == px and image.mode == "RGB"
        assert phys(png) == (PX_PER_M_300, PX_PER_M_300, 1)
    page = pypdf.PdfReader(files[0]).pages[0]
    b = boxes(page)
    assert b["MediaBox"] == (0, 0, round(px[0] * 0.24, 4), round(px[1] * 0.24, 4)) == b["BleedBox"]  # 72/300 pt per px
    assert b["TrimBox"] == pytest.approx(trim_box, abs=1e-3)


def test_hex_chits_are_cut_as_hexes_on_their_canvas(tmp_path: Path):
    """The PNG of a TGC hex chit is the flat-top hex and its bleed, not a filled rectangle: the
    canvas's middle left edge (a corner of the hex, 1/8 in of bleed out) is the black fill; its
    top left corner, far outside the hex, is left white."""
    catalogue = tmp_path / "hex.yaml"
    catalogue.write_text(BLACK.replace("size: 2.5inx3.5in", HEX), "utf-8")
    files = export(load_catalogue(catalogue), load_profiles()["tgc-hex-chit-large"], tmp_path / "out")
    png = next(f for f in files if f.name.endswith("-night.png"))
    with Image.open(png) as image:
        assert image.getpixel((2, 525)) == (0, 0, 0)
        assert image.getpixel((2, 2)) == (255, 255, 255)
        assert image.getpixel((600, 2)) == (0, 0, 0)  # the top flat's bleed reaches the canvas's edge


def test_a_pointy_hex_catalogue_is_told_to_lie_flat_for_tgc_hex_chits(run, tmp_path: Path):
    catalogue = tmp_path / "hex.yaml"
    catalogue.write_text(BLACK.replace("size: 2.5inx3.5in", HEX.replace("flat", "pointy")), "utf-8")
    result = run("export", str(catalogue), "--profile", "tgc-hex-chit-small", "-o", str(tmp_path / "out"))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (f"tokengen: error: {catalogue}: profile tgc-hex-chit-small is for flat-top hexes "
                             "(2in x 124.71pt); set shape: {kind: hex, orientation: flat} in the catalogue\n")
    assert not (tmp_path / "out").exists()


def test_circle_tokens_still_need_a_square_trim(tmp_path: Path):
    user = tmp_path / "mine.yaml"
    user.write_text("oval:\n  extends: tgc-round-chit-large\n  trim: [1in, 1.5in]\n  canvas_px: [375, 525]\n", "utf-8")
    with pytest.raises(LayoutError, match="circle tokens need a square trim"):
        export(load_catalogue(STATUS), load_profiles(user)["oval"], tmp_path / "out")


def test_canvas_too_small_for_the_trim_is_refused(tmp_path: Path):
    user = tmp_path / "mine.yaml"
    user.write_text("tiny:\n  extends: tgc-poker\n  trim: null\n  canvas_px: [300, 300]\n", "utf-8")
    with pytest.raises(LayoutError, match=r"cards\.yaml: a 63mm x 88mm token does not fit profile tiny's 300 x 300 px canvas at 300 DPI \(1in x 1in\)"):
        export(load_catalogue(POKER), load_profiles(user)["tiny"], tmp_path / "out")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(("text", "message"), [
    ("x:\n  output: sheets\n  canvas_px: [825, 1125]\n", "mine.yaml:3: x.canvas_px: a canvas in pixels needs output: single-pages or png, not sheets"),
    ("x:\n  output: png\n  canvas_px: [825]\n", "mine.yaml:3: x.canvas_px: expected [width, height] in whole pixels such as [825, 1125], got [825]"),
    ("x:\n  output: png\n  trim: [2.5in, 3]\n", "mine.yaml:3: x.trim"),
])
def test_bad_preset_keys_name_file_line_and_field(tmp_path: Path, run, text: str, message: str):
    user = tmp_path / "mine.yaml"
    user.write_text(text, "utf-8")
    result = run("export", "--profile", "x", "--profiles", str(user), "-o", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"tokengen: error: {tmp_path / message}")


# -- listing ------------------------------------------------------------------------------------
def test_list_profiles_shows_name_product_output_source(run, tmp_path: Path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "400")  # a terminal wide enough for one line a profile (80 wraps: below)
    result = run("export", "--list-profiles")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["profile", "product", "output", "source"]
    assert len(lines) == 1 + len(load_profiles())
    row = next(line for line in lines if line.startswith("dtc-poker "))
    assert "DriveThruCards poker card (2.5 x 3.5 in)" in row and " single-pages " in row and "total ink <= 240 %" in row
    user = tmp_path / "mine.yaml"
    user.write_text("my-shop:\n  extends: print-shop\n  product: my card\n", "utf-8")
    mine = run("export", "--profiles", str(user), "--list-profiles")
    assert mine.exit_code == 0 and mine.stdout.splitlines()[-1].split()[:4] == ["my-shop", "my", "card", "sheets"]


def test_export_help_lists_every_profile(run):
    text = re.sub(r"-\s+", "-", " ".join(run("export", "--help").stdout.split()))  # click wraps at hyphens
    for name in load_profiles():
        stem = name.rsplit("-", 1)[0] if name.startswith(("tgc-square-chit-", "tgc-round-chit-", "tgc-hex-chit-")) else name
        assert stem in text, name
    assert "tgc-square-chit-large|medium|small" in text and "tgc-round-chit-large|medium|small" in text
    assert "tgc-hex-chit-large|medium|small" in text


# -- crop and registration marks in the All separation -------------------------------------------
def test_tabloid_example_passes_its_own_preflight_with_marks_in_all(run, tmp_path: Path):
    out = tmp_path / "big"
    result = run("export", str(ROOT / "token_defs.yaml"), "--profile", "print-shop", "--page", "tabloid", "--size", "0.75in", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    pdf = out / "meatshields-print-shop.pdf"
    assert result.stdout.splitlines()[-1] == "preflight: meatshields-print-shop.pdf passes every check of profile print-shop"
    reader = pypdf.PdfReader(pdf)
    for page in reader.pages:  # face and back sheets: the marks' colour space, a tint of 1
        space = page["/Resources"]["/ColorSpace"]["/All"].get_object()
        assert [str(v) for v in space[:3]] == ["/Separation", "/All", "/DeviceCMYK"]
        tint = space[3].get_object()
        assert b"1.0 mul" in tint.get_data() and [float(v) for v in tint["/Range"]] == [0, 1] * 4
        assert b"/All CS 1 SCN" in page.get_contents().get_data()
    # without --page the sheet is the wrong size (a true failure); with it, every check passes
    assert run("preflight", str(pdf)).exit_code == 1
    again = run("preflight", str(pdf), "--page", "tabloid")
    assert again.exit_code == 0 and again.stdout.splitlines()[-1] == f"{pdf}: 13 of 13 checks passed (profile print-shop)"


def test_all_separation_is_every_plate_and_no_ink(tmp_path: Path):
    gs = shutil.which("gs")
    if gs is None:
        pytest.skip("Ghostscript (gs) is not installed")
    [pdf] = export(load_catalogue(ROOT / "token_defs.yaml"), load_profiles()["print-shop"], tmp_path)
    from tokengen.preflight.checks import preflight

    ink = next(c for c in preflight(pdf, load_profiles()["print-shop"]) if c.name == "ink")
    assert ink.passed and "stroke" not in ink.message  # the highest total is the art's, not a mark's
    # Ghostscript puts the marks on all four process plates at 100 %
    subprocess.run([gs, "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-dPDFSTOPONERROR", "-sDEVICE=tiffsep", "-r72", "-dLastPage=1",
                    f"-sOutputFile={tmp_path / 'sep.tif'}", str(pdf)], check=True)
    page = pypdf.PdfReader(pdf).pages[0]
    bx0, by0, _, _ = (float(v) for v in page["/BleedBox"])
    tx0 = float(page["/TrimBox"][0])
    x, y = round(tx0), round(792 - (by0 - 9 - 8.5))  # a vertical crop mark below the bleed box, in px from the top
    for plate in ("Cyan", "Magenta", "Yellow", "Black"):
        with Image.open(tmp_path / f"sep({plate}).tif") as image:
            assert min(image.getpixel((x + dx, y)) for dx in (-1, 0, 1)) < 100, plate  # dark: ink on this plate


def test_a_failing_export_suggests_a_preflight_with_its_page(run, tmp_path: Path):
    user = tmp_path / "mine.yaml"
    user.write_text("strict:\n  extends: print-shop\n  dpi: 600\n", "utf-8")  # the example's art is 300 DPI
    out = tmp_path / "out"
    result = run("export", str(POKER), "--profile", "strict", "--profiles", str(user), "--page", "tabloid", "-o", str(out))
    assert result.exit_code == 1
    pdf = out / "poker-cards-strict.pdf"
    assert result.stderr.splitlines()[-1] == (f"tokengen: error: poker-cards-strict.pdf fails preflight (images): see tokengen preflight {pdf} "
                                              "--profile strict --page tabloid")
    suggested = run("preflight", str(pdf), "--profile", "strict", "--profiles", str(user), "--page", "tabloid", "--format", "json")
    import json

    assert suggested.exit_code == 1 and [c["name"] for c in json.loads(suggested.stdout)["checks"] if not c["passed"]] == ["images"]
