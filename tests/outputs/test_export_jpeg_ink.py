"""A JPEG photo exported for a CMYK profile keeps the profile's ink limit after DCT re-encoding.

The art is converted to CMYK and ink-limited exactly to the limit, then stored as a CMYK JPEG;
DCT is lossy, so a saturated, detailed photo decodes a few units over the limit (here 247 % at
DriveThruCards' 240 %). The export measures the decoded JPEG as the preflight reads it and
re-encodes with headroom (or stores the picture losslessly) until it is within.
"""

from __future__ import annotations

import io
from pathlib import Path

import pikepdf
import pytest
from PIL import Image

from tokengen.colour import ColourOptions, Converter, ink_within
from tokengen.faces import art
from tokengen.faces.art import _jpeg
from tokengen.outputs.export import export
from tokengen.preflight.checks import preflight
from tokengen.preflight.pdfwalk import Budget, Limits, image_ink
from tokengen.sources.catalogue import load_catalogue
from tokengen.sources.profiles import load_profiles

CARD = """\
title: Ink
size: 63mmx88mm
fields:
  art: image
template:
  - {{rect: fill, fill: "#101010", bleed: true}}
  - {{image: "{{art}}", box: [0, 0, 1, 1], fit: cover, bleed: true}}
tokens:
  - {{id: photo, art: {art}}}
"""


def photo(path: Path, fmt: str) -> None:
    """A dark, saturated, noisy RGB picture (600 × 850 px), the same pixels for JPEG and PNG."""
    noise = Image.effect_noise((600, 850), 90)
    red = Image.linear_gradient("L").resize((600, 850)).point(lambda v: v // 2)
    green = noise.point(lambda v: v // 4)
    blue = Image.linear_gradient("L").rotate(90).resize((600, 850)).point(lambda v: v // 3)
    picture = Image.merge("RGB", (Image.blend(red, noise, 0.4), green, blue))
    picture.save(path, fmt, **({"quality": 92} if fmt == "JPEG" else {}))


def jpeg_streams(pdf: Path) -> list[bytes]:
    """The raw (DCT) bytes of every JPEG image in ``pdf``."""
    with pikepdf.open(pdf) as doc:
        found = [image for page in doc.pages for image in page.get_images().values()]
        return [image.read_raw_bytes() for image in found if "/DCTDecode" in str(image.get("/Filter"))]


def worst(pdf: Path) -> float:
    """The highest total ink (%) of any image pixel, as the preflight's ``ink`` check reads it."""
    with pikepdf.open(pdf) as doc:
        budget = Budget(Limits())
        found = [image_ink(image, budget, "art") for page in doc.pages for image in page.get_images().values()]
    return max(f.total for f in found if f is not None)


@pytest.mark.parametrize("fmt, name", [("JPEG", "photo.jpg"), ("PNG", "photo.png")])
def test_photo_art_stays_within_dtc_ink_limit(tmp_path: Path, fmt: str, name: str):
    photo(tmp_path / name, fmt)
    (tmp_path / "deck.yaml").write_text(CARD.format(art=name), "utf-8")
    profile = load_profiles()["dtc-poker"]
    [pdf] = export(load_catalogue(tmp_path / "deck.yaml"), profile, tmp_path / "out")
    assert 230 < worst(pdf) <= 240.0
    ink = next(c for c in preflight(pdf, profile) if c.name == "ink")
    assert ink.passed, ink.message


def test_a_cmyk_jpeg_within_the_limit_is_encoded_as_before():
    """A light picture (far under the limit) is the one quality-95 JPEG it was before the measurement."""
    colour = Converter("cmyk", ColourOptions(ink_limit=240))
    light = colour.image_to_cmyk(Image.effect_noise((300, 420), 20).point(lambda v: 150 + v // 4).convert("RGB"))
    plain = io.BytesIO()
    light.save(plain, "JPEG", quality=95, subsampling=0)
    assert _jpeg(light, colour) == plain.getvalue()


def test_a_photo_over_the_limit_after_every_headroom_is_stored_losslessly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """With no headroom left to try, the picture is stored with Flate: every pixel as ink-limited."""
    monkeypatch.setattr(art, "JPEG_HEADROOM", ())
    photo(tmp_path / "photo.jpg", "JPEG")
    (tmp_path / "deck.yaml").write_text(CARD.format(art="photo.jpg"), "utf-8")
    [pdf] = export(load_catalogue(tmp_path / "deck.yaml"), load_profiles()["dtc-poker"], tmp_path / "out")
    assert jpeg_streams(pdf) == []
    assert 230 < worst(pdf) <= 240.0


def test_measurement_reads_a_cmyk_jpeg_as_the_preflight_does(tmp_path: Path):
    """ink_within decodes with Pillow, as the preflight (pikepdf's as_pil_image) does: a JPEG
    the preflight reads at N units is within a limit of N/255 and not within one unit less."""
    photo(tmp_path / "photo.jpg", "JPEG")
    (tmp_path / "deck.yaml").write_text(CARD.format(art="photo.jpg"), "utf-8")
    [pdf] = export(load_catalogue(tmp_path / "deck.yaml"), load_profiles()["dtc-poker"], tmp_path / "out")
    total = worst(pdf)
    [data] = jpeg_streams(pdf)
    with Image.open(io.BytesIO(data)) as back:
        assert ink_within(back, total)
        assert not ink_within(back, total - 100 / 255)
