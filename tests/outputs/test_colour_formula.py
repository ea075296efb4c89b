"""``colour: formula`` prints greys and black on the K plate alone (issue 24), in catalogue colours
and art alike, and preflight refuses CMYK art whose greys are built from C, M and Y.

Everything is read back from the written PDF with pikepdf: the image XObject's CMYK samples and
the fill colour in force where text is shown.
"""

from __future__ import annotations

import re
import zlib
from dataclasses import replace
from pathlib import Path

import pikepdf
import pytest
from PIL import Image

from tests.preflight.test_checks import SINGLE, failing, make_pdf
from tokengen.colour import ColourOptions, Converter, formula_image
from tokengen.model import Colour, formula_cmyk
from tokengen.preflight.checks import preflight
from tokengen.preflight.pdfwalk import NEUTRAL_PIXELS, cmy_neutral

FORMULA_PROFILE = replace(SINGLE, name="naive", colour="cmyk", conversion="formula")
TEXT_OPS = {"Tj", "TJ", "'", '"'}


def formula_export(run, tmp_path: Path, catalogue_path: Path) -> Path:
    """The real catalogue with art (left half black, right half 50 % grey) and black text
    (``ink: "#000000"``), exported with a profile that extends print-shop with ``colour: formula``."""
    art = tmp_path / "art.png"
    im = Image.new("RGB", (600, 600), (0, 0, 0))
    im.paste((128, 128, 128), (300, 0, 600, 600))
    im.save(art)
    text = catalogue_path.read_text("utf-8").replace("style:\n  background:", f"style:\n  art: {art.name}\n  background:", 1)
    text = re.sub(r'(\n  ink: )"#[0-9a-fA-F]{6}"', r'\g<1>"#000000"', text, count=1)
    cat = tmp_path / "cat.yaml"
    cat.write_text(text, "utf-8")
    profiles = tmp_path / "profiles.yaml"
    profiles.write_text("naive:\n  extends: print-shop\n  colour: formula\n", "utf-8")
    result = run("export", str(cat), "--profile", "naive", "--profiles", str(profiles), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stderr  # the export's own preflight passes it
    return next((tmp_path / "out").glob("*.pdf"))


def image_samples(pdf: pikepdf.Pdf) -> list[Image.Image]:
    """Every image XObject of ``pdf`` decoded to its CMYK samples."""
    out = []
    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image":
            assert obj.ColorSpace == pikepdf.Name.DeviceCMYK and obj.BitsPerComponent == 8
            assert obj.Filter == pikepdf.Name.FlateDecode  # lossless: the samples are the converted pixels
            out.append(Image.frombytes("CMYK", (int(obj.Width), int(obj.Height)), obj.read_bytes()))
    return out


def text_fills(pdf: pikepdf.Pdf) -> dict[tuple[float, ...], int]:
    """How many text-showing operators each DeviceCMYK fill colour (``k``) is in force for, over
    every Form XObject (tokengen draws each face as one)."""
    counts: dict[tuple[float, ...], int] = {}
    for obj in pdf.objects:
        if not (isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Form"):
            continue
        fill: tuple[float, ...] | None = None
        saved: list[tuple[float, ...] | None] = []
        for operands, operator in pikepdf.parse_content_stream(obj):
            op = str(operator)
            if op == "k":
                fill = tuple(float(v) for v in operands)
            elif op == "q":
                saved.append(fill)
            elif op == "Q":
                fill = saved.pop()
            elif op in TEXT_OPS and fill is not None:
                counts[fill] = counts.get(fill, 0) + 1
    return counts


def test_black_and_grey_art_and_black_text_print_on_k_alone(run, tmp_path: Path, catalogue_path: Path):
    with pikepdf.open(formula_export(run, tmp_path, catalogue_path)) as pdf:
        (art,) = image_samples(pdf)
        assert art.size == (600, 600)
        black = art.crop((0, 0, 300, 600))
        grey = art.crop((300, 0, 600, 600))
        assert black.getextrema() == ((0, 0), (0, 0), (0, 0), (255, 255))  # every black pixel exactly C0 M0 Y0 K100
        assert grey.getextrema() == ((0, 0), (0, 0), (0, 0), (127, 127))   # 50 % grey: K only (1 − 128/255 → 127)
        fills = text_fills(pdf)
        assert fills.get((0.0, 0.0, 0.0, 1.0), 0) > 0, fills          # the black ink of the faces' text
        assert all(not (c == m == y > 0) for c, m, y, _ in fills), fills  # no text in a CMY grey
        assert any(b"0 0 0 1 k" in obj.read_bytes() for obj in pdf.objects
                   if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Form")


def test_colours_and_art_follow_one_rule():
    """The art conversion is :func:`formula_cmyk` run on whole images: every pixel is the
    catalogue colour's CMYK, rounded to 8 bits."""
    steps = [*range(0, 256, 5), 1, 127, 128, 254]
    pixels = [(r, g, b) for r in steps for g in steps for b in steps]
    im = Image.new("RGB", (len(pixels), 1))
    im.putdata(pixels)
    out = formula_image(im)
    assert out.mode == "CMYK" and out.size == im.size
    raw = out.tobytes()  # 4 bytes a pixel, C M Y K
    for rgb, cmyk in zip(pixels, (tuple(raw[i:i + 4]) for i in range(0, len(raw), 4)), strict=True):
        exact = Colour("rgb", tuple(v / 255 for v in rgb)).to_cmyk()
        assert all(abs(e * 255 - v) <= 0.5 + 1e-4 for e, v in zip(exact, cmyk, strict=True)), (rgb, cmyk, exact)


@pytest.mark.parametrize("rgb, cmyk", [
    ((0, 0, 0), (0, 0, 0, 255)),
    ((128, 128, 128), (0, 0, 0, 127)),
    ((255, 255, 255), (0, 0, 0, 0)),
    ((255, 0, 0), (0, 255, 255, 0)),
    ((51, 102, 153), (170, 85, 0, 102)),  # #336699: C2/3 M1/3 Y0 K0.4
])
def test_formula_pixels(rgb: tuple[int, int, int], cmyk: tuple[int, int, int, int]):
    formula = Converter("cmyk", ColourOptions(conversion="formula"))
    assert formula.image_to_cmyk(Image.new("RGB", (3, 2), rgb)).getpixel((2, 1)) == cmyk
    if rgb[0] == rgb[1] == rgb[2]:  # a grey picture (mode L) converts as its RGB form
        assert formula.image_to_cmyk(Image.new("L", (1, 1), rgb[0])).getpixel((0, 0)) == cmyk


def test_formula_cmyk_on_floats():
    assert formula_cmyk(0.0, 0.0, 0.0) == (0.0, 0.0, 0.0, 1.0)
    assert formula_cmyk(0.5, 0.5, 0.5) == (0.0, 0.0, 0.0, 0.5)
    assert Colour.parse("#000000").to_cmyk() == (0.0, 0.0, 0.0, 1.0)


def cmyk_image_pdf(tmp_path: Path, pixel: tuple[int, int, int, int], name: str = "cmy.pdf") -> Path:
    """The good preflight fixture with a 300 × 300 DeviceCMYK image of one colour on each page."""
    pdf = make_pdf(tmp_path / name)
    with pikepdf.open(pdf, allow_overwriting_input=True) as doc:
        image = doc.make_stream(zlib.compress(bytes(pixel) * 300 * 300), Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image,
                                Width=300, Height=300, ColorSpace=pikepdf.Name.DeviceCMYK, BitsPerComponent=8,
                                Filter=pikepdf.Name.FlateDecode)
        for page in doc.pages:
            page.obj.Resources.XObject = pikepdf.Dictionary(Im=image)
            page.contents_add(doc.make_stream(b"q 72 0 0 72 9 9 cm /Im Do Q"))
        doc.save(pdf)
    return pdf


def test_a_cmy_black_image_fails_a_formula_profile(tmp_path: Path):
    pdf = cmyk_image_pdf(tmp_path, (255, 255, 255, 0))  # C100 M100 Y100 K0: 300 %, no black
    checks = preflight(pdf, FORMULA_PROFILE, size=72.0)
    assert failing(checks) == {"ink"}
    ink = next(c for c in checks if c.name == "ink")
    assert ink.message == ("page 1: image /Im in page builds greys and black from C, M and Y (C100 M100 Y100 K0); "
                           "profile naive prints greys and black on K alone (colour: formula) (and 1 more)")
    assert ink.problems[1].startswith("page 2: image /Im in page builds greys")


def test_a_cmy_black_image_is_at_the_limit_for_an_icc_profile(tmp_path: Path):
    """Profiles through an ICC output profile build black from all four inks: only the total counts."""
    checks = preflight(cmyk_image_pdf(tmp_path, (255, 255, 255, 0)), SINGLE, size=72.0)
    assert failing(checks) == set(), [c.message for c in checks if not c.passed]


def test_k_only_and_coloured_images_pass_a_formula_profile(tmp_path: Path):
    for pixel in [(0, 0, 0, 255), (0, 0, 0, 127), (0, 255, 255, 0), (170, 85, 0, 102)]:
        pdf = cmyk_image_pdf(tmp_path, pixel, f"ok-{'-'.join(map(str, pixel))}.pdf")
        checks = preflight(pdf, FORMULA_PROFILE, size=72.0)
        assert failing(checks) == set(), (pixel, [c.message for c in checks if not c.passed])


def test_an_image_over_the_ink_limit_is_named(tmp_path: Path):
    pdf = cmyk_image_pdf(tmp_path, (255, 255, 0, 255))  # C100 M100 Y0 K100: 300 %... at the limit
    assert failing(preflight(pdf, SINGLE, size=72.0)) == set()
    pdf = cmyk_image_pdf(tmp_path, (255, 255, 51, 255), "over.pdf")  # 320 %
    checks = preflight(pdf, SINGLE, size=72.0)
    assert failing(checks) == {"ink"}
    assert next(c for c in checks if c.name == "ink").message == (
        "page 1: total ink 320 % (image /Im pixel 320 % in page) is over the profile's limit of 300 % (and 1 more)")


def test_neutrals_are_looked_for_on_a_bounded_sample():
    big = Image.new("CMYK", (2000, 1000), (0, 0, 0, 200))  # 2 million pixels: sampled down to NEUTRAL_PIXELS
    assert 2000 * 1000 > NEUTRAL_PIXELS
    assert cmy_neutral(big) is None
    big.paste((128, 120, 125, 40), (1000, 0, 2000, 1000))  # a CMY grey on the right half
    big.paste((200, 190, 195, 0), (1500, 500, 1600, 600))  # the heaviest one
    assert cmy_neutral(big) == (200, 190, 195, 0)
    assert cmy_neutral(Image.new("CMYK", (4, 4), (100, 60, 80, 0))) is None   # a colour, not a grey
    assert cmy_neutral(Image.new("CMYK", (4, 4), (10, 10, 10, 0))) is None    # too little to matter (under 5 %)
