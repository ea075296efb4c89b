"""The colour pipeline: ICC output profile, K-only pure black text and lines, neutral art on the
black plate, the ink limit in every fill, stroke and image pixel, ``icc:``, ``rendering_intent``,
``colour: formula`` and the output profile's name in the PDF metadata.

Every figure is read back from the written PDF: the colour operators of pages and forms, and the
pixels of the image objects.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from PIL import Image, ImageCms
from pypdf import PdfReader
from pypdf.generic import IndirectObject

from tests.faces.test_art_modes import image_pixels
from tokengen.colour import DEFAULT_CONDITION, REGISTRY, ColourOptions, Converter, default_icc_path, ink_coverage, limit_ink, output_profile
from tokengen.errors import RenderError
from tokengen.model import Colour

GS_CMYK = Path("/usr/share/color/icc/ghostscript/ps_cmyk.icc")
NUMBER = rb"(-?\d*\.?\d+)"
CMYK_OP = re.compile(rb"(?<![\w.])" + rb"\s+".join([NUMBER] * 4) + rb"\s+(k|K)\b")


def streams(pdf: Path) -> list[bytes]:
    """The decoded content of every page and every Form XObject in ``pdf``."""
    out, seen = [], set()

    def walk(resources) -> None:
        for ref in ((resources or {}).get("/XObject") or {}).values():
            key = ref.idnum if isinstance(ref, IndirectObject) else id(ref)
            obj = ref.get_object()
            if key in seen or obj.get("/Subtype") != "/Form":
                continue
            seen.add(key)
            out.append(obj.get_data())
            walk(obj.get("/Resources"))

    for page in PdfReader(pdf).pages:
        out.append(page.get_contents().get_data() if page.get_contents() else b"")
        walk(page.get("/Resources"))
    return out


def cmyk_ops(pdf: Path) -> list[tuple[tuple[float, ...], str]]:
    """Every ``c m y k k`` (fill) and ``c m y k K`` (stroke) operator: (values, operator)."""
    return [(tuple(float(v) for v in m.groups()[:4]), m.group(5).decode()) for s in streams(pdf) for m in CMYK_OP.finditer(s)]


def catalogue(folder: Path, catalogue_path: Path, **style: str) -> Path:
    """The real catalogue with its face style colours replaced (``background="#000000"``, …)."""
    text = catalogue_path.read_text("utf-8")
    for key, value in style.items():
        text = re.sub(rf'(\n  {key}: )"#[0-9a-fA-F]{{6}}"', rf'\g<1>"{value}"', text, count=1)
    out = folder / "cat.yaml"
    out.write_text(text, "utf-8")
    return out


def test_output_profile_names_the_condition_for_pdfx():
    profile = output_profile()
    assert profile.path == default_icc_path() and profile.data[36:40] == b"acsp"  # an ICC file
    assert profile.condition == DEFAULT_CONDITION == "FOGRA39" and profile.registry == REGISTRY == "http://www.color.org"
    assert "FOGRA39" in profile.description


def test_hex_colours_and_art_follow_one_conversion():
    """sRGB black and grey through the bundled profile: black on the black plate, greys carry K."""
    c = Converter("cmyk")
    black = c.paint(Colour.parse("#000000"), area=True)
    grey = c.paint(Colour.parse("#808080"), area=True)
    assert black[3] >= 0.85 and sum(black) <= 3.0 + 1e-9  # not C100 M100 Y100 K0
    assert [round(v * 100) for v in grey] == [16, 14, 14, 55]  # not C50 M50 Y50 K0
    art = c.image_to_cmyk(Image.new("RGB", (4, 4), (128, 128, 128))).getpixel((0, 0))
    assert art == tuple(round(v * 255) for v in grey)  # a colour in a picture prints as the same hex colour
    # pure black text and lines: black ink only
    assert c.paint(Colour.parse("#000000")) == (0.0, 0.0, 0.0, 1.0)


def test_limit_ink_keeps_k_and_scales_cmy():
    assert limit_ink((1.0, 1.0, 1.0, 1.0), 300) == pytest.approx((2 / 3, 2 / 3, 2 / 3, 1.0))
    assert limit_ink((0.2, 0.2, 0.2, 0.2), 300) == (0.2, 0.2, 0.2, 0.2)


def test_print_shop_export_has_black_text_and_stays_under_the_ink_limit(run, tmp_path: Path, catalogue_path: Path):
    cat = catalogue(tmp_path, catalogue_path, ink="#000000", background="#000000")
    result = run("export", str(cat), "--profile", "print-shop", "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stderr
    pdf = next((tmp_path / "out").glob("*.pdf"))
    ops = cmyk_ops(pdf)
    fills = [v for v, op in ops if op == "k"]
    assert (0.0, 0.0, 0.0, 1.0) in fills  # the #000000 text: K only
    rich = Converter("cmyk").paint(Colour.parse("#000000"), area=True)
    assert any(v == pytest.approx(rich, abs=1e-4) for v in fills)  # the #000000 background: rich black
    for values, op in ops:
        if values != (1.0, 1.0, 1.0, 1.0) or op != "K":  # registration crop marks: on every plate
            assert sum(values) <= 3.0 + 1e-4, (values, op)
    meta = PdfReader(pdf).metadata
    assert "output profile tokengen FOGRA39" in meta.subject and "ink limit 300 %" in meta.subject


def test_black_art_is_built_on_the_black_plate(tmp_path: Path, catalogue_path: Path):
    from tests.faces.test_art import catalogue_with_art
    from tokengen import load_catalogue
    from tokengen.outputs.export import export
    from tokengen.sources.profiles import get_profile

    art = tmp_path / "black.png"
    im = Image.new("RGB", (300, 300), (0, 0, 0))
    im.paste((128, 128, 128), (150, 0, 300, 300))
    im.save(art)
    cat = load_catalogue(catalogue_with_art(tmp_path, catalogue_path, face=art.name))
    pdf = export(cat, get_profile("eu-3mm"), tmp_path / "out")[0]
    pixels = image_pixels(pdf)
    black, grey = pixels.getpixel((10, 150)), pixels.getpixel((pixels.width - 10, 150))
    assert black[3] >= 0.85 * 255 and sum(black) <= 3.0 * 255, black
    assert grey[3] > 0.5 * 255 and max(grey[:3]) < 0.2 * 255, grey  # greys carry K
    assert ink_coverage(pixels) <= 300


def profiles_file(folder: Path, text: str) -> Path:
    path = folder / "profiles.yaml"
    path.write_text(text, "utf-8")
    return path


def test_a_lower_ink_limit_applies_to_fills_and_pixels(run, tmp_path: Path, catalogue_path: Path):
    from tests.faces.test_art_modes import make

    art, _, _ = make("RGBA", tmp_path)
    cat = catalogue(tmp_path, catalogue_path, background="#000000")
    cat.write_text(cat.read_text("utf-8").replace("style:\n  background:", f"style:\n  art: {art.name}\n  background:", 1), "utf-8")
    black = tmp_path / "black.png"
    Image.new("RGB", (400, 400), (0, 0, 0)).save(black)  # 320 DPI over the 1.25 in bleed box
    cat.write_text(cat.read_text("utf-8").replace(f"art: {art.name}", f"art: {black.name}"), "utf-8")
    user = profiles_file(tmp_path, "shop-260:\n  extends: print-shop\n  ink_limit: 260\n")
    result = run("export", str(cat), "--profile", "shop-260", "--profiles", str(user), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stderr
    pdf = next((tmp_path / "out").glob("*.pdf"))
    totals = [sum(v) for v, op in cmyk_ops(pdf) if not (v == (1.0, 1.0, 1.0, 1.0) and op == "K")]
    assert 2.58 <= max(totals) <= 2.6  # the black background, limited (to 8-bit steps)
    assert ink_coverage(image_pixels(pdf)) <= 260
    assert "ink limit 260 %" in PdfReader(pdf).metadata.subject


@pytest.mark.skipif(not GS_CMYK.exists(), reason="needs Ghostscript's ps_cmyk.icc (Debian ghostscript) as a second CMYK profile")
def test_icc_key_names_the_shops_own_profile(run, tmp_path: Path, catalogue_path: Path):
    shutil.copy(GS_CMYK, tmp_path / "shop.icc")
    # ps_cmyk.icc is ICC v4.2, which PDF/X-1a refuses (test_preflight_icc_version.py): plain PDF here
    user = profiles_file(tmp_path, "my-shop:\n  extends: print-shop\n  pdfx: none\n  icc: shop.icc\n  rendering_intent: perceptual\n")
    result = run("export", str(catalogue_path), "--profile", "my-shop", "--profiles", str(user), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stderr
    pdf = next((tmp_path / "out").glob("*.pdf"))
    transform = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), ImageCms.getOpenProfile(str(GS_CMYK)), "RGB", "CMYK",
                                        renderingIntent=ImageCms.Intent.PERCEPTUAL, flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
    want = Image.new("CMYK", (1, 1))  # the face background through LittleCMS (Pillow cannot tag with this profile)
    transform.transform.apply(Image.new("RGB", (1, 1), (0xEF, 0xE4, 0xC8)).getim(), want.getim())
    want = want.getpixel((0, 0))
    fills = [v for v, op in cmyk_ops(pdf) if op == "k"]
    assert any(v == pytest.approx(tuple(x / 255 for x in want), abs=1e-4) for v in fills), (want, fills[:5])
    default = Converter("cmyk").paint(Colour.parse("#efe4c8"), area=True)
    assert not any(v == pytest.approx(default, abs=1e-3) for v in fills)
    subject = PdfReader(pdf).metadata.subject
    assert output_profile(tmp_path / "shop.icc").description in subject and "perceptual intent" in subject


def test_an_unusable_icc_is_one_line_at_its_key(run, tmp_path: Path, catalogue_path: Path):
    (tmp_path / "not.icc").write_text("not a profile")
    user = profiles_file(tmp_path, "my-shop:\n  extends: print-shop\n  icc: not.icc\n")
    result = run("export", str(catalogue_path), "--profile", "my-shop", "--profiles", str(user), "-o", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert result.stderr == (f"tokengen: error: {user}:3: my-shop.icc: {tmp_path / 'not.icc'}: cannot use as the CMYK output "
                             "profile: not a readable ICC profile\n")
    with pytest.raises(RenderError, match="must be a CMYK profile, not RGB"):
        _rgb_profile(tmp_path)


def _rgb_profile(folder: Path):
    path = folder / "srgb.icc"
    path.write_bytes(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    return output_profile(path)


def test_formula_is_kept_as_a_named_choice(run, tmp_path: Path, catalogue_path: Path):
    cat = catalogue(tmp_path, catalogue_path, background="#808080")
    user = profiles_file(tmp_path, "naive:\n  extends: print-shop\n  colour: formula\n")
    result = run("export", str(cat), "--profile", "naive", "--profiles", str(user), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stderr
    pdf = next((tmp_path / "out").glob("*.pdf"))
    fills = [v for v, op in cmyk_ops(pdf) if op == "k"]
    assert any(v == pytest.approx((0, 0, 0, 1 - 128 / 255), abs=1e-4) for v in fills)
    assert "naive formula" in PdfReader(pdf).metadata.subject


def test_rendering_intent_changes_saturated_colours():
    relative = Converter("cmyk").paint(Colour.parse("#00ff00"), area=True)
    perceptual = Converter("cmyk", ColourOptions(intent="perceptual")).paint(Colour.parse("#00ff00"), area=True)
    assert relative != pytest.approx(perceptual, abs=0.01)


def test_profile_keys_are_checked(run, tmp_path: Path):
    from tokengen.errors import CatalogueError
    from tokengen.sources.profiles import load_profiles

    for text, message in (("x:\n  ink_limit: 500\n", "x.ink_limit: expected a percentage from 100 to 400, got 500"),
                          ("x:\n  rendering_intent: relativ\n", "x.rendering_intent: unknown value 'relativ'; did you mean 'relative'?"),
                          ("x:\n  max_dpi: 10\n", "x.max_dpi: expected a whole number from 72 to 2400, got 10")):
        with pytest.raises(CatalogueError, match=re.escape(message)):
            load_profiles(profiles_file(tmp_path, text))
    assert load_profiles()["print-shop"].ink_limit == 300.0


@pytest.mark.parametrize("label, script, code", [("שלום", "Hebrew", "U+05E9 HEBREW LETTER SHIN"),
                                                 ("سلام", "Arabic", "U+0633 ARABIC LETTER SEEN"),
                                                 ("नमस्ते", "Devanagari", "U+0928 DEVANAGARI LETTER NA")])
def test_right_to_left_and_shaping_scripts_are_refused_at_load(run, tmp_path: Path, catalogue_path: Path, label: str, script: str, code: str):
    text = catalogue_path.read_text("utf-8").replace("{id: str-low,  attribute: STR, priority: low}",
                                                     f"{{id: str-low,  attribute: STR, priority: low, label: {label}}}")
    cat = tmp_path / "cat.yaml"
    cat.write_text(text, "utf-8")
    line = next(i for i, row in enumerate(text.splitlines(), 1) if label in row)
    result = run("build", str(cat), "-o", str(tmp_path / "out.pdf"))
    assert result.exit_code == 2
    index = next(i for i, row in enumerate(re.findall(r"\{id: [^}]*\}", text)) if label in row)
    why = ("is written right to left; tokengen draws text left to right without reordering or shaping, so it would print reversed"
           if script != "Devanagari" else "needs shaping (glyphs joined and reordered), which tokengen does not do; it would print broken")
    assert result.stderr == f"tokengen: error: {cat}:{line}: tokens[{index}].label: {script} text ({code}) {why}\n"
    assert not (tmp_path / "out.pdf").exists()


def test_a_no_break_space_is_ordinary_text(run, tmp_path: Path, catalogue_path: Path):
    text = catalogue_path.read_text("utf-8").replace("{id: str-low,  attribute: STR, priority: low}",
                                                     "{id: str-low,  attribute: STR, priority: low, label: \"Big\u00a0Brute\"}")
    cat = tmp_path / "cat.yaml"
    cat.write_text(text, "utf-8")
    out = tmp_path / "out.pdf"
    result = run("build", str(cat), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    import pdfplumber

    with pdfplumber.open(out) as pdf:
        words = pdf.pages[0].extract_text()
    assert "Big" in words and "Brute" in words


def test_untagged_cmyk_art_is_ink_limited(tmp_path: Path):
    """A CMYK JPEG of C100 M100 Y100 K100 (400 %) keeps its K and comes out at the limit."""
    from tokengen.faces.art import ArtLibrary

    path = tmp_path / "heavy.jpg"
    Image.new("CMYK", (300, 300), (255, 255, 255, 255)).save(path, quality=100)
    image = ArtLibrary("cmyk").load(path)
    pixels = Image.open(image.reader.jpeg_fh())  # the re-encoded DCT stream that goes into the PDF (embedded as it is)
    assert pixels.mode == "CMYK"
    c, m, y, k = pixels.getpixel((150, 150))
    assert k >= 250 and 290 <= (c + m + y + k) / 2.55 <= 301, (c, m, y, k)
