"""The colour pipeline's values, exactly (tokengen/colour.py): what each output model paints for a
catalogue colour, the ink limit on colours and pixels, the metadata line, profile refusals.

Written from the mutants ``make mutate`` found alive (issue 18). LittleCMS results are pinned to
the 8-bit values the bundled FOGRA39 profile gives; the formula paths to their exact arithmetic.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageCms

from tokengen import colour
from tokengen.colour import ColourOptions, Converter, ink_coverage, is_srgb, limit_image_ink, limit_ink, output_profile
from tokengen.errors import RenderError
from tokengen.model import Colour

FORMULA = ColourOptions(conversion="formula")
PROFILE = "tokengen FOGRA39 (ISO Coated v2 condition), TAC 300%"


def _srgb_icc() -> bytes:
    return ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()


def _lab_icc() -> bytes:
    return ImageCms.ImageCmsProfile(ImageCms.createProfile("LAB")).tobytes()


# ---- the metadata line -----------------------------------------------------------------------------


def test_describe_says_what_the_colours_were_converted_for():
    assert Converter("rgb").describe() == "colour: sRGB"
    assert Converter("rgb", FORMULA).describe() == "colour: sRGB"
    assert Converter("cmyk", FORMULA).describe() == "colour: CMYK by the naive formula (no ICC profile), ink limit 300 %"
    assert Converter("cmyk").describe() == (f"colour: CMYK for output profile {PROFILE} (FOGRA39), relative intent with "
                                            "black-point compensation, ink limit 300 %")
    assert Converter("cmyk", ColourOptions(intent="perceptual", ink_limit=280.5)).describe() == (
        f"colour: CMYK for output profile {PROFILE} (FOGRA39), perceptual intent with black-point compensation, ink limit 280.5 %")
    assert Converter("cmyk", FORMULA).formula and not Converter("cmyk").formula


# ---- painting catalogue colours ----------------------------------------------------------------------


def test_rgb_output_keeps_hex_colours_and_converts_cmyk_through_the_profile():
    rgb = Converter("rgb")
    assert rgb.paint(Colour.parse("#336699")) == (0.2, 0.4, 0.6)
    assert rgb.paint(Colour.parse([1, 0, 0, 0])) == (0.0, 159 / 255, 227 / 255)  # FOGRA39 cyan on screen
    assert rgb.paint(Colour.parse([0, 0, 0, 1]), area=True) == (31 / 255, 31 / 255, 29 / 255)
    assert Converter("rgb", FORMULA).paint(Colour.parse([1, 0, 0, 0])) == (0.0, 1.0, 1.0)


def test_cmyk_output_of_catalogue_cmyk():
    cmyk = Converter("cmyk")
    assert cmyk.paint(Colour.parse([1, 1, 1, 1])) == (1.0, 1.0, 1.0, 1.0)  # registration lines on every plate
    assert cmyk.paint(Colour.parse([1, 1, 1, 1]), area=True) == pytest.approx((2 / 3, 2 / 3, 2 / 3, 1.0))
    assert cmyk.paint(Colour.parse([0.2, 0.3, 0.4, 0.1])) == (0.2, 0.3, 0.4, 0.1)
    assert cmyk.paint(Colour.parse([1, 1, 1, 0.9])) == pytest.approx((0.7, 0.7, 0.7, 0.9))


def test_cmyk_output_of_hex_colours():
    cmyk = Converter("cmyk")
    assert cmyk.paint(Colour.parse("#000000")) == (0.0, 0.0, 0.0, 1.0)
    assert cmyk.paint(Colour.parse("#000000"), area=True) == (197 / 255, 166 / 255, 127 / 255, 251 / 255)
    assert cmyk.paint(Colour.parse("#ff0000")) == (0.0, 245 / 255, 251 / 255, 0.0)
    formula = Converter("cmyk", FORMULA)
    assert formula.paint(Colour.parse("#ff0000")) == (0.0, 1.0, 1.0, 0.0)
    assert formula.paint(Colour.parse("#000000"), area=True) == (0.0, 0.0, 0.0, 1.0)
    assert formula.paint(Colour.parse("#336699")) == pytest.approx((2 / 3, 1 / 3, 0.0, 0.4))


def test_formula_cmyk_is_ink_limited():
    heavy = Converter("cmyk", ColourOptions(conversion="formula", ink_limit=150))
    assert heavy.paint(Colour.parse("#ff0000")) == pytest.approx((0.0, 0.75, 0.75, 0.0))


def test_paint_is_cached_per_colour_and_use():
    cmyk = Converter("cmyk")
    blue = Colour.parse("#336699")
    assert cmyk.paint(blue, area=True) is cmyk.paint(blue, area=True)   # LittleCMS runs once per colour
    assert cmyk.paint(blue, area=True) == (196 / 255, 108 / 255, 0.0, 72 / 255)
    black = Colour.parse("#000000")
    assert cmyk.paint(black) != cmyk.paint(black, area=True)


def test_catalogue_cmyk_shown_in_srgb_uses_8_bit_channels():
    assert Converter("rgb").paint(Colour.parse([0.6, 0, 0, 0])) == (88 / 255, 198 / 255, 242 / 255)


# ---- the ink limit ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("cmyk,limit,out", [
    ((1.0, 1.0, 1.0, 1.0), 300, (2 / 3, 2 / 3, 2 / 3, 1.0)),
    ((1.0, 1.0, 1.0, 0.0), 300, (1.0, 1.0, 1.0, 0.0)),          # exactly at the limit: kept
    ((1.0, 1.0, 1.0, 0.5), 300, (5 / 6, 5 / 6, 5 / 6, 0.5)),
    ((0.5, 0.25, 0.25, 0.5), 100, (0.25, 0.125, 0.125, 0.5)),    # one factor for C, M and Y
    ((0.0, 0.0, 0.0, 1.0), 50, (0.0, 0.0, 0.0, 1.0)),            # K alone is never cut
    ((0.5, 0.5, 0.5, 1.0), 100, (0.0, 0.0, 0.0, 1.0)),           # K at the limit: no room for C, M, Y
    ((0.4, 0.4, 0.4, 1.0), 200, (1 / 3, 1 / 3, 1 / 3, 1.0)),
])
def test_limit_ink(cmyk, limit, out):
    assert limit_ink(cmyk, limit) == pytest.approx(out, abs=1e-12)


def test_limit_ink_just_under_the_limit_is_kept():
    assert limit_ink((1.0, 1.0, 0.99, 0.0), 300) == (1.0, 1.0, 0.99, 0.0)
    assert limit_ink((0.5, 0.5, 0.5, 0.5), 199) == pytest.approx((1.49 / 3, 1.49 / 3, 1.49 / 3, 0.5))  # 1 % over: cut


def test_limit_ink_just_over_the_limit_is_cut():
    c, m, y, k = limit_ink((1.0, 1.0, 1.0, 0.0001), 300)
    assert k == 0.0001 and c == m == y == pytest.approx((3 - 0.0001) / 3)


def test_limit_image_ink_on_pixels():
    heavy = Image.new("CMYK", (2, 1), (255, 255, 255, 255))
    heavy.putpixel((1, 0), (51, 51, 51, 51))                           # 80 %: untouched
    heavy.info["dpi"] = (300, 300)
    out = limit_image_ink(heavy, 300)
    assert out.mode == "CMYK" and out.info["dpi"] == (300, 300)
    assert out.getpixel((0, 0)) == (170, 170, 170, 255)                # C, M, Y scaled down, K kept, rounded down
    assert out.getpixel((1, 0)) == (51, 51, 51, 51)
    assert ink_coverage(out) == pytest.approx((170 * 3 + 255) / 255 * 100)
    assert ink_coverage(out) <= 300


def test_limit_image_ink_leaves_a_light_image_alone():
    light = Image.new("CMYK", (2, 2), (200, 200, 200, 165))            # 300 % exactly
    assert limit_image_ink(light, 300) is light
    assert ink_coverage(light) == pytest.approx(300.0)


def test_limit_image_ink_with_k_at_the_limit():
    im = Image.new("CMYK", (1, 1), (100, 50, 0, 255))
    assert limit_image_ink(im, 100).getpixel((0, 0)) == (0, 0, 0, 255)
    assert limit_image_ink(Image.new("CMYK", (1, 1), (0, 0, 0, 255)), 50).getpixel((0, 0)) == (0, 0, 0, 255)


def test_ink_coverage():
    assert ink_coverage(Image.new("CMYK", (3, 3), (0, 0, 0, 0))) == 0.0
    im = Image.new("CMYK", (3, 3), (0, 0, 0, 0))
    im.putpixel((2, 2), (255, 255, 0, 0))
    assert ink_coverage(im) == 200.0


# ---- art ------------------------------------------------------------------------------------------------


def test_image_to_srgb():
    conv = Converter("rgb")
    rgb = Image.new("RGB", (1, 1), (10, 20, 30))
    assert conv.image_to_srgb(rgb) is rgb                                       # untagged RGB is sRGB
    tagged = Image.new("RGB", (1, 1), (10, 20, 30))
    tagged.info["icc_profile"] = _srgb_icc()
    assert conv.image_to_srgb(tagged) is tagged                                 # so is sRGB-tagged
    cmyk = Image.new("CMYK", (1, 1), (255, 0, 0, 0))
    assert conv.image_to_srgb(cmyk).getpixel((0, 0)) == (0, 255, 255)          # untagged CMYK: Pillow's formula
    cmyk.info["icc_profile"] = output_profile().data
    out = conv.image_to_srgb(cmyk)
    assert out.mode == "RGB" and out.getpixel((0, 0)) == (0, 159, 227) and "icc_profile" not in out.info


def test_image_to_srgb_with_a_profile_that_does_not_fit():
    conv = Converter("rgb")
    grey = Image.new("L", (1, 1), 100)
    grey.info["icc_profile"] = output_profile().data                            # a CMYK profile on grey pixels
    assert conv.image_to_srgb(grey) is grey
    cmyk = Image.new("CMYK", (1, 1), (255, 0, 0, 0))
    cmyk.info["icc_profile"] = _lab_icc()
    assert conv.image_to_srgb(cmyk).getpixel((0, 0)) == (0, 255, 255)


def test_image_to_cmyk():
    conv = Converter("cmyk")
    untagged = Image.new("CMYK", (1, 1), (10, 20, 30, 40))
    assert conv.image_to_cmyk(untagged) is untagged                             # meant for the press already
    assert conv.image_to_cmyk(Image.new("RGB", (1, 1), (255, 0, 0))).getpixel((0, 0)) == (0, 245, 251, 0)
    assert conv.image_to_cmyk(Image.new("L", (1, 1), 0)).getpixel((0, 0)) == (197, 166, 127, 251)
    formula = Converter("cmyk", FORMULA)
    assert formula.image_to_cmyk(Image.new("RGB", (1, 1), (255, 0, 0))).getpixel((0, 0)) == (0, 255, 255, 0)
    # black on K alone (issue 24: Pillow's own RGB → CMYK gave C100 M100 Y100 K0, no black)
    assert formula.image_to_cmyk(Image.new("L", (1, 1), 0)).getpixel((0, 0)) == (0, 0, 0, 255)
    assert formula.image_to_cmyk(untagged) is untagged
    heavy = Image.new("CMYK", (1, 1), (255, 255, 255, 255))
    assert formula.image_to_cmyk(heavy).getpixel((0, 0)) == (170, 170, 170, 255)


def test_image_to_cmyk_with_an_unusable_profile_takes_srgb():
    conv = Converter("cmyk")
    rgb = Image.new("RGB", (1, 1), (255, 0, 0))
    rgb.info["icc_profile"] = output_profile().data                             # CMYK profile on RGB pixels
    assert conv.image_to_cmyk(rgb).getpixel((0, 0)) == (0, 245, 251, 0)


ADOBE = Path("/usr/share/color/icc/compatibleWithAdobeRGB1998.icc")
GREY = Path("/usr/share/color/icc/ghostscript/sgray.icc")
needs_profiles = pytest.mark.skipif(not (ADOBE.exists() and GREY.exists()),
                                     reason="Debian's icc-profiles-free and ghostscript ICC profiles are not installed")


@needs_profiles
def test_tagged_art_goes_through_its_own_profile():
    conv = Converter("cmyk")
    green = Image.new("RGB", (1, 1), (0, 255, 0))
    assert conv.image_to_cmyk(green).getpixel((0, 0)) == (161, 0, 246, 0)             # as sRGB
    green.info["icc_profile"] = ADOBE.read_bytes()
    assert conv.image_to_cmyk(green).getpixel((0, 0)) == (205, 0, 255, 0)             # Adobe RGB green is greener
    grey = Image.new("L", (1, 1), 100)
    assert conv.image_to_cmyk(grey).getpixel((0, 0)) == (72, 59, 58, 158)             # untagged grey: as sRGB
    grey.info["icc_profile"] = GREY.read_bytes()
    assert conv.image_to_cmyk(grey).getpixel((0, 0)) == (57, 47, 46, 141)             # through its grey profile


@needs_profiles
def test_cmyk_art_with_an_rgb_profile_is_taken_as_srgb():
    conv = Converter("cmyk")
    cyan = Image.new("CMYK", (1, 1), (255, 0, 0, 0))
    cyan.info["icc_profile"] = ADOBE.read_bytes()
    assert conv.image_to_cmyk(cyan).getpixel((0, 0)) == conv.image_to_cmyk(Image.new("RGB", (1, 1), (0, 255, 255))).getpixel((0, 0))
    assert conv.image_to_cmyk(cyan).getpixel((0, 0)) == (101, 0, 42, 0)


def test_is_srgb():
    assert is_srgb(_srgb_icc())
    assert not is_srgb(output_profile().data)
    assert is_srgb(b"not a profile")                                            # unreadable: as untagged
    assert colour._space(output_profile().data) == "CMYK"
    assert colour._space(_srgb_icc()) == "RGB"
    assert colour._space(b"junk") == ""


# ---- profiles ---------------------------------------------------------------------------------------------


def test_a_shops_own_profile_is_custom(tmp_path: Path):
    own = tmp_path / "shop.icc"
    own.write_bytes(output_profile().data)
    profile = output_profile(own)
    assert (profile.path, profile.condition, profile.description, profile.info) == (own, "Custom", PROFILE, PROFILE)
    assert output_profile().info == colour.DEFAULT_CONDITION_INFO


def test_unusable_profiles_are_refused_in_one_line(tmp_path: Path):
    missing = tmp_path / "none.icc"
    with pytest.raises(RenderError) as err:
        output_profile(missing)
    assert str(err.value) == f"{missing}: cannot use as the CMYK output profile: not a readable ICC profile"
    junk = tmp_path / "junk.icc"
    junk.write_bytes(b"junk" * 40)
    with pytest.raises(RenderError) as err:
        output_profile(junk)
    assert str(err.value) == f"{junk}: cannot use as the CMYK output profile: not a readable ICC profile"
    srgb = tmp_path / "srgb.icc"
    srgb.write_bytes(_srgb_icc())
    with pytest.raises(RenderError) as err:
        output_profile(srgb)
    assert str(err.value) == f"{srgb}: the output profile must be a CMYK profile, not RGB"

