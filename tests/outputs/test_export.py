"""``tokengen export``: every profile writes its files from the default catalogue, measured.

Measured: page boxes, crop-mark positions relative to the trim, colour operators in the content
streams, embedded fonts, PNG pixel sizes and DPI metadata, the background running into the bleed.
"""

from __future__ import annotations

from pathlib import Path

import pypdf
import pypdfium2 as pdfium
import pytest
from PIL import Image
from pypdf.generic import ContentStream

from tests.conftest import CATALOGUE, manual
from tokengen.errors import ExportError
from tokengen.outputs.export import export
from tokengen.sources.catalogue import load_catalogue
from tokengen.sources.profiles import load_profiles

BLEED = 9.0  # 1/8 in, pt
BACKGROUND = (0xEF, 0xE4, 0xC8)  # token_defs.yaml style.background
BACK = (0x3B, 0x2A, 0x20)  # token_defs.yaml back.background


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Path]]:
    """Every built-in profile for square tokens exported once from token_defs.yaml (1 in squares):
    profile name → files. The card presets (a 2.5 × 3.5 in product trim) refuse square tokens,
    as test_outputs_shop_presets checks."""
    root = tmp_path_factory.mktemp("export")
    cat = load_catalogue(CATALOGUE)
    return {name: export(cat, profile, root / name) for name, profile in load_profiles().items()
            if profile.trim is None or abs(profile.trim[0] - profile.trim[1]) < 1e-6}


def streams(page: pypdf.PageObject) -> list[tuple[str, ContentStream]]:
    """(where, content stream) for the page and every Form XObject it uses, recursively."""
    out = [("page", page.get_contents())]

    def forms(resources: pypdf.generic.DictionaryObject) -> None:
        for name, ref in resources.get("/XObject", {}).items():
            xobject = ref.get_object()
            if xobject["/Subtype"] == "/Form":
                out.append((name, ContentStream(xobject, None)))
                forms(xobject.get("/Resources", {}))

    forms(page["/Resources"])
    return out


def operators(page: pypdf.PageObject) -> set[bytes]:
    return {op for _, stream in streams(page) for _, op in stream.operations}


def box(page: pypdf.PageObject, key: str) -> tuple[float, ...]:
    return tuple(float(v) for v in page[key])


def sheet_streams(page: pypdf.PageObject) -> list[ContentStream]:
    """The page's own content and every form drawn in page coordinates (BBox = MediaBox: the
    sheet furniture such as cut lines and crop marks, placed without a transform)."""
    media = [float(v) for v in page["/MediaBox"]]
    found = [page.get_contents()]
    for _, xobject in page["/Resources"].get("/XObject", {}).items():
        xobject = xobject.get_object()
        if xobject["/Subtype"] == "/Form" and [float(v) for v in xobject["/BBox"]] == media:
            assert [float(v) for v in xobject.get("/Matrix", [1, 0, 0, 1, 0, 0])] == [1, 0, 0, 1, 0, 0]
            found.append(ContentStream(xobject, None))
    return found


def marks(page: pypdf.PageObject, width: float = 0.25) -> tuple[list[tuple[float, float, float, float]], list[bytes]]:
    """Line segments stroked at ``width`` pt on the sheet (the page and its page-sized forms),
    and the stroke-colour operators used."""
    segments: list[tuple[float, float, float, float]] = []
    colours: list[bytes] = []
    current = None
    start = None
    for operands, op in (item for stream in sheet_streams(page) for item in stream.operations):
        if op == b"w":
            current = float(operands[0])
        elif current == width and op in (b"K", b"RG", b"G", b"SC", b"SCN"):
            colours.append(op + b" " + b" ".join(str(float(v)).encode() for v in operands))
        elif current == width and op == b"CS":  # the stroke colour space (the All separation)
            colours.append(op + b" " + b" ".join(str(v).encode() for v in operands))
        elif current == width and op == b"m":
            start = tuple(float(v) for v in operands)
        elif current == width and op == b"l" and start:
            segments.append((*start, *(float(v) for v in operands)))
    return segments, colours


def render(pdf: Path, index: int, scale: float = 1.0) -> Image.Image:
    document = pdfium.PdfDocument(pdf)
    try:
        return document[index].render(scale=scale, fill_color=(255, 255, 255, 255)).to_pil().convert("RGB")
    finally:
        document.close()


def close(pixel: tuple[int, ...], colour: tuple[int, int, int], tol: int = 12) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(pixel, colour))


# -- print-shop sheets ---------------------------------------------------------------------------
def test_print_shop_boxes_are_the_block_of_trims_plus_bleed(exported):
    [pdf] = exported["print-shop"]
    page = pypdf.PdfReader(pdf).pages[0]
    assert box(page, "/MediaBox") == (0, 0, 612, 792)  # letter
    x0, y0, x1, y1 = box(page, "/TrimBox")
    # filled with whole sets: 2 sets in 6 columns (twice the catalogue's 3) × 6 rows, 1/4 in gutters
    assert (x1 - x0, y1 - y0) == (6 * 72 + 5 * 18, 6 * 72 + 5 * 18)
    assert box(page, "/BleedBox") == (x0 - BLEED, y0 - BLEED, x1 + BLEED, y1 + BLEED)


def test_print_shop_crop_marks_sit_outside_the_bleed(exported):
    [pdf] = exported["print-shop"]
    page = pypdf.PdfReader(pdf).pages[0]
    tx0, ty0, _, _ = box(page, "/TrimBox")
    bx0, by0, bx1, by1 = box(page, "/BleedBox")
    segments, colours = marks(page)
    # trim edges of the 6 columns and 6 rows (both edges of every token: gutters are not shared)
    xs = sorted({tx0 + i * 90 + d for i in range(6) for d in (0, 72)})
    ys = sorted({ty0 + i * 90 + d for i in range(6) for d in (0, 72)})
    assert len(segments) == 2 * len(xs) + 2 * len(ys) == 48
    for x_a, y_a, x_b, y_b in segments:
        length = abs(x_b - x_a) + abs(y_b - y_a)
        assert length == pytest.approx(17.0)  # 17 pt = 6.0 mm
        if x_a == x_b:  # vertical mark: on a trim x, above or below the bleed box
            assert x_a in xs
            gap = max(by0 - max(y_a, y_b), min(y_a, y_b) - by1)
        else:
            assert y_a in ys
            gap = max(bx0 - max(x_a, x_b), min(x_a, x_b) - bx1)
        assert gap >= BLEED  # the mark starts at least one bleed beyond the bleed edge
    # registration: the All separation at tint 1, on every plate (issue 26; was DeviceCMYK 1 1 1 1)
    assert colours and set(colours) == {b"CS /All", b"SCN 1.0"}
    space = page["/Resources"]["/ColorSpace"]["/All"].get_object()
    assert [str(v) for v in space[:3]] == ["/Separation", "/All", "/DeviceCMYK"]


def test_print_shop_is_cmyk_only_with_embedded_fonts(exported):
    [pdf] = exported["print-shop"]
    reader = pypdf.PdfReader(pdf)
    page = reader.pages[0]
    ops = operators(page)
    assert b"k" in ops and b"K" in ops
    assert not ops & {b"rg", b"RG", b"sc", b"scn", b"SC", b"cs"}
    # the only colour space set by name is the All separation of the crop marks (issue 26)
    spaces = {str(operands[0]) for _, stream in streams(page) for operands, op in stream.operations if op == b"CS"}
    assert spaces == {"/All"}
    assert set(page["/Resources"]["/ColorSpace"]) == {"/All"}
    fonts = {}
    for ref in page["/Resources"]["/Font"].values():
        font = ref.get_object()
        fonts[str(font["/BaseFont"])] = font["/FontDescriptor"].get_object()
    assert fonts and all("DejaVu" in name for name in fonts)
    assert all("/FontFile2" in descriptor for descriptor in fonts.values())


def test_print_shop_background_runs_into_the_bleed(exported):
    [pdf] = exported["print-shop"]
    page = pypdf.PdfReader(pdf).pages[0]
    x0, _, _, y1 = box(page, "/TrimBox")
    image = render(pdf, 0, scale=2)
    height = 792

    def at(x: float, y: float) -> tuple[int, ...]:
        return image.getpixel((round(2 * x), round(2 * (height - y))))

    mid_y = y1 - 36  # the middle of the top row
    # converted to CMYK and back, the background stays close to #efe4c8
    assert close(at(x0 - BLEED / 2, mid_y), BACKGROUND, 16)   # inside the bleed, left of the trim
    assert close(at(x0 + 90 - BLEED / 2, mid_y), BACKGROUND, 16)  # a gutter: two bleeds meeting
    assert at(x0 - BLEED - 3, mid_y) == (255, 255, 255)       # past the bleed: paper


def test_eu_3mm_has_3mm_bleed_and_crop_marks_at_every_cut(exported):
    [pdf] = exported["eu-3mm"]
    page = pypdf.PdfReader(pdf).pages[0]
    assert box(page, "/MediaBox") == pytest.approx((0, 0, 595.2756, 841.8898), abs=1e-3)  # A4
    t, b = box(page, "/TrimBox"), box(page, "/BleedBox")
    assert t[0] - b[0] == pytest.approx(3 * 72 / 25.4, abs=1e-3)  # 3 mm = 8.504 pt
    # 6 columns and 6 rows with 6 mm gutters: 12 trim edges each way, a mark at both ends of each
    assert len(marks(page)[0]) == 2 * 12 + 2 * 12 and marks(page, 0.3)[0] == []
    assert not operators(page) & {b"rg", b"RG"}


def test_home_is_the_build_sheet(exported, run, tmp_path: Path):
    [pdf] = exported["home"]
    built = tmp_path / "built.pdf"
    assert run("build", str(CATALOGUE), "-o", str(built)).exit_code == 0
    assert built.read_bytes() == pdf.read_bytes()  # same bytes as `tokengen build`
    page = pypdf.PdfReader(pdf).pages[0]
    assert "/TrimBox" not in page
    assert marks(page, 0.3)[0]  # cut lines
    assert "Print at 100%" in page.extract_text()


# -- single pages ----------------------------------------------------------------------------------
def test_single_pages_one_side_per_page_face_then_back(exported):
    [pdf] = exported["single-pages"]
    reader = pypdf.PdfReader(pdf)
    assert len(reader.pages) == 36  # 18 tokens × (face, back)
    for page in reader.pages:
        assert box(page, "/MediaBox") == (0, 0, 90, 90)  # 1 in + 2 × 1/8 in
        assert box(page, "/TrimBox") == (9, 9, 81, 81)
        assert box(page, "/BleedBox") == (0, 0, 90, 90)
        assert not operators(page) & {b"rg", b"RG"}
    assert "MEATSHIELD" in reader.pages[1].extract_text() and "AGI" not in reader.pages[1].extract_text()
    assert "AGI" in reader.pages[0].extract_text() and "Agility" in reader.pages[0].extract_text()
    assert "STR" in reader.pages[34].extract_text() and "MEATSHIELD" in reader.pages[35].extract_text()
    for index in (0, 1):  # the page corner (bleed) has the colour just inside the trim
        image = render(pdf, index)
        assert image.getpixel((1, 1)) == image.getpixel((11, 45)) != (255, 255, 255)


# -- PNG per token -----------------------------------------------------------------------------------
def test_tgc_chits_pngs_exact_size_dpi_srgb(exported):
    files = exported["tgc-chits"]
    pngs = [f for f in files if f.suffix == ".png"]
    assert [f.name for f in pngs[:2]] == ["meatshields-01-agi-low.png", "meatshields-02-agi-high.png"]
    assert pngs[-1].name == "meatshields-back.png"
    assert len(pngs) == 19  # 18 faces + the back
    for png in pngs:
        with Image.open(png) as im:
            assert im.size == (375, 375)  # (1 in + 2 × 1/8 in) × 300 DPI
            assert im.mode == "RGB"
            assert tuple(round(v) for v in im.info["dpi"]) == (300, 300)
            assert im.info["srgb"] == 0
            corner = im.getpixel((0, 0))
        assert close(corner, BACK if png.name.endswith("back.png") else BACKGROUND, 2)
    assert files[0].suffix == ".pdf"  # the PDF the PNGs were rasterised from


def test_tgc_png_matches_its_pdf_page(exported):
    files = exported["tgc-chits"]
    pdf, first = files[0], files[1]
    with Image.open(first) as im:
        png = im.convert("RGB")
    page = render(pdf, 0, scale=375 / 90)
    assert page.size == png.size
    assert png.getpixel((187, 60)) == page.getpixel((187, 60))


def test_dpi_option_overrides_the_profile(tmp_path: Path, run):
    out = tmp_path / "made" / "on" / "demand"
    result = run("export", str(CATALOGUE), "--profile", "tgc-chits", "--dpi", "150", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert "wrote 20 files" in result.stdout
    assert "preflight: meatshields-tgc-chits.pdf passes every check of profile tgc-chits" in result.stdout
    with Image.open(out / "meatshields-back.png") as im:
        assert im.size == (188, 188)  # 1.25 in × 150 DPI = 187.5 → 188
        assert tuple(round(v) for v in im.info["dpi"]) == (150, 150)


def test_output_folder_that_is_a_file_is_refused(tmp_path: Path, run):
    (tmp_path / "taken").write_text("x", "utf-8")
    result = run("export", str(CATALOGUE), "--profile", "home", "-o", str(tmp_path / "taken"))
    assert result.exit_code == 2 and "is a file" in result.stderr
    with pytest.raises(ExportError, match="taken/deeper: cannot create the output folder: Not a directory"):
        export(load_catalogue(CATALOGUE), load_profiles()["home"], tmp_path / "taken" / "deeper")


def test_export_is_deterministic(tmp_path: Path):
    cat = load_catalogue(CATALOGUE)
    profile = load_profiles()["single-pages"]
    [a] = export(cat, profile, tmp_path / "a")
    [b] = export(cat, profile, tmp_path / "b")
    assert a.read_bytes() == b.read_bytes()
    assert not list((tmp_path / "a").glob(".*.part"))  # atomic writes leave no temporary files


# -- profiles --------------------------------------------------------------------------------------
def test_user_profile_overrides_and_extends(tmp_path: Path):
    user = tmp_path / "mine.yaml"
    user.write_text("print-shop:\n  page: a4\nbig-bleed:\n  extends: print-shop\n  bleed: 0.25in\n  gutter: 0.5in\n", "utf-8")
    profiles = load_profiles(user)
    assert profiles["print-shop"].page == pytest.approx((595.2756, 841.8898), abs=1e-3)
    assert profiles["print-shop"].bleed == 9.0  # untouched keys stay
    assert profiles["big-bleed"].bleed == 18.0 and profiles["big-bleed"].colour == "cmyk"
    assert profiles["home"].bleed == 0


@pytest.mark.parametrize(("text", "message"), [
    ("print-shop:\n  bleeed: 1mm\n", "mine.yaml:2: print-shop.bleeed: unknown key; did you mean 'bleed'?"),
    ("x:\n  colour: cmky\n", "mine.yaml:2: x.colour: unknown value 'cmky'; did you mean 'cmyk'?"),
    ("print-shop:\n  bleed: 0.25in\n", "mine.yaml:2: print-shop.bleed: gutter 0.25in is narrower than twice the bleed 0.25in"),
    ("x:\n  dpi: 10\n", "mine.yaml:2: x.dpi: expected a whole number from 72 to 2400, got 10"),
    ("x:\n  bleed: 3\n", "mine.yaml:2: x.bleed: a length needs a unit"),
    ("x:\n  extends: prnt-shop\n", "mine.yaml:2: x.extends: extends unknown profile 'prnt-shop'; did you mean 'print-shop'?"),
    ("- a\n", "mine.yaml:1: the top level must be a mapping"),
])
def test_bad_profile_files_name_file_line_and_field(tmp_path: Path, run, text: str, message: str):
    user = tmp_path / "mine.yaml"
    user.write_text(text, "utf-8")
    result = run("export", "--profile", "home", "--profiles", str(user), "-o", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"tokengen: error: {tmp_path / message}")
    assert result.stderr.count("\n") == 1
    assert not (tmp_path / "out").exists()


def test_unknown_profile_suggests(run, tmp_path: Path):
    result = run("export", "--profile", "print-shp", "-o", str(tmp_path))
    assert result.exit_code == 2
    assert result.stderr.startswith("tokengen: error: unknown profile 'print-shp'; did you mean 'print-shop'?")


def test_every_command_is_in_the_readme():
    readme = manual()
    assert "## Sending to a print shop" in readme
    for name in load_profiles():
        assert f"`{name}`" in readme
    assert "tokengen export" in readme and "tokengen preflight" in readme


def test_small_tokens_keep_text_inside_the_profile_safe_area(tmp_path: Path, run):
    """On 0.75 in tokens the face laid out for the home 1/16 in safe area is scaled as one piece
    to keep inside TGC's 1/8 in safe zone (said once, with the caption's printed size), so the
    export passes its own preflight."""
    small = tmp_path / "small.yaml"
    small.write_text(CATALOGUE.read_text("utf-8").replace("\nsize: 1in", "\nsize: 0.75in"), "utf-8")
    result = run("export", str(small), "--profile", "tgc-chits", "-o", str(tmp_path / "out"))
    assert result.exit_code == 0
    pdf = tmp_path / "out" / "meatshields-tgc-chits.pdf"
    assert result.stderr == "tokengen: warning: caption text is 4.51 pt on 18 tokens (agi-low, agi-high, agi-both, …), below 5 pt at 0.75in\n"
    assert ("faces scaled to 79.5 % about their centres to keep inside the 0.125in safe area "
            "(laid out for 0.0625in; set safe_area: in the catalogue to lay them out for it)\n") in result.stdout
    assert run("preflight", str(pdf), "--profile", "tgc-chits").exit_code == 0
    with Image.open(tmp_path / "out" / "meatshields-back.png") as im:
        assert im.size == (300, 300)  # (0.75 + 0.25) in × 300 DPI


def test_a_product_trim_warns_of_small_text_at_the_size_it_prints(tmp_path: Path, run):
    """tgc-square-chit-small prints the 1 in Meatshields at its 0.5 in trim: the small-text
    warning is measured on the faces as drawn there (the caption's size read back from the PDF),
    not at the catalogue's own 1 in, where the caption is legible and nothing was said."""
    import pdfplumber

    result = run("export", str(CATALOGUE), "--profile", "tgc-square-chit-small", "-o", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    with pdfplumber.open(tmp_path / "meatshields-tgc-square-chit-small.pdf") as pdf:
        sizes = {c["fontname"].split("+")[-1]: round(c["size"], 2) for c in pdf.pages[0].chars}
    assert sizes["DejaVuSans"] < 5  # the caption, in the regular face; the glyph and code are bold
    assert result.stderr == (f"tokengen: warning: caption text is {sizes['DejaVuSans']:g} pt on 18 tokens "
                             "(agi-low, agi-high, agi-both, …), below 5 pt at 0.5in\n")


@pytest.mark.parametrize("profile", ["print-shop", "eu-3mm"])
def test_shop_sheets_carry_a_duplex_back_sheet_with_its_own_boxes(tmp_path: Path, run, profile: str):
    """Tokens are drawn blind, so the shop files have backs: page 2 is the back sheet, mirrored for
    a long-edge flip, with TrimBox/BleedBox mirrored too."""
    from pypdf import PdfReader

    assert run("export", str(CATALOGUE), "--profile", profile, "-o", str(tmp_path)).exit_code == 0
    reader = PdfReader(tmp_path / f"meatshields-{profile}.pdf")
    assert len(reader.pages) == 2
    width = float(reader.pages[0].mediabox.width)
    face, back = (tuple(float(v) for v in p.trimbox) for p in reader.pages)
    assert back[0] == pytest.approx(width - face[2], abs=0.01) and back[2] == pytest.approx(width - face[0], abs=0.01)
    assert (back[1], back[3]) == pytest.approx((face[1], face[3]), abs=0.01)
    for page in reader.pages:
        assert float(page.bleedbox.left) == pytest.approx(float(page.trimbox.left) - (9.0 if profile == "print-shop" else 3 * 72 / 25.4), abs=0.01)


PER_TOKEN_BACKS = """\
title: Counters
fields: {name: text, side: colour}
template:
  - {rect: fill, fill: "#ffffff", bleed: true}
back:
  - {rect: fill, fill: "{side}", bleed: true}
tokens:
  - {id: a, name: Alpha, side: "#cc0000"}
  - {id: b, name: Beta, side: "#0000cc"}
  - {id: c, name: Gamma, side: "#cc0000", copies: 2}
  - {id: d, name: Delta, side: "#00cc00"}
"""


def test_tgc_chits_write_one_back_per_distinct_back_named_by_its_faces(tmp_path: Path):
    """Per-token backs: each distinct back is one PNG named by the numbers of the faces it goes
    behind (a folder listing puts it beside them), showing its own colour."""
    yaml = tmp_path / "counters.yaml"
    yaml.write_text(PER_TOKEN_BACKS, "utf-8")
    files = export(load_catalogue(yaml), load_profiles()["tgc-chits"], tmp_path / "out", dpi=72)
    assert [f.name for f in files[1:]] == [
        "counters-01-a.png", "counters-02-b.png", "counters-03-c-x2.png", "counters-04-d.png",
        "counters-01-03-back.png", "counters-02-back.png", "counters-04-back.png"]
    colours = {}
    for png in files[5:]:
        with Image.open(png) as im:
            colours[png.name] = im.getpixel((im.width // 2, im.height // 2))
    assert colours == {"counters-01-03-back.png": (0xCC, 0, 0), "counters-02-back.png": (0, 0, 0xCC),
                       "counters-04-back.png": (0, 0xCC, 0)}


def test_tgc_chits_one_shared_back_stays_one_file(tmp_path: Path):
    yaml = tmp_path / "counters.yaml"
    yaml.write_text(PER_TOKEN_BACKS.replace('"{side}"', '"#0000cc"'), "utf-8")
    files = export(load_catalogue(yaml), load_profiles()["tgc-chits"], tmp_path / "out", dpi=72)
    assert [f.name for f in files if "back" in f.name] == ["counters-back.png"]
    assert len(files) == 6  # the PDF, 4 faces, 1 back


def test_back_png_names_shorten_runs():
    from tokengen.outputs.export import _runs

    assert _runs([1]) == "01"
    assert _runs([2, 5]) == "02-05"
    assert _runs([1, 2, 4, 5, 6, 7, 9]) == "01-02-04to07-09"
