"""The print-shop warning "its transparent pixels print on …" comes only when a pixel of the
picture that is not fully opaque lies over something that is not one colour: not for an opaque
picture, nor for one whose transparent pixels lie over one colour, nor for a picture beside a
boxed text it does not touch. Exported with ``tokengen export --profile print-shop``."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

CATALOGUE = """\
title: Under
size: 1in
fields: {{name: text, rules: text}}
template:
  - {{rect: fill, fill: "#8a1c1c", bleed: true}}
{extra}  - {{image: pic.png, box: [0.1, 0.1, 0.8, 0.45], fit: contain}}
tokens:
  - {{id: a, name: A, rules: "**Strike.** Deal 2."}}
"""
BOXED = '  - {text: "{rules}", box: [0.1, 0.7, 0.8, 0.25], size: 0.1, colour: "#ffffff"}\n'
HALF = '  - {rect: half, box: [0, 0, 0.5, 1], fill: "#1c1c8a"}\n'


def _export(folder: Path, run, picture: Image.Image, extra: str) -> list[str]:
    """The warnings about transparent pixels of a print-shop export of the catalogue with the
    elements ``extra`` drawn before the picture ``picture``."""
    picture.save(folder / "pic.png")
    (folder / "c.yaml").write_text(CATALOGUE.format(extra=extra), "utf-8")
    result = run("export", str(folder / "c.yaml"), "--profile", "print-shop", "-o", str(folder / "shop"),
                 "--allow-preflight-failures")
    assert result.exit_code == 0, result.stderr
    return [line for line in result.stderr.splitlines() if "transparent pixels" in line]


def test_an_opaque_picture_after_a_boxed_text_it_does_not_touch_is_not_warned(tmp_path, run):
    assert _export(tmp_path, run, Image.new("RGB", (80, 45), (0, 200, 0)), BOXED) == []


def test_an_opaque_picture_over_two_colours_is_not_warned(tmp_path, run):
    assert _export(tmp_path, run, Image.new("RGB", (80, 45), (0, 200, 0)), HALF) == []


def test_an_rgba_picture_with_no_transparent_pixel_is_not_warned(tmp_path, run):
    assert _export(tmp_path, run, Image.new("RGBA", (80, 45), (0, 200, 0, 255)), HALF) == []


def test_transparent_pixels_over_one_colour_are_not_warned(tmp_path, run):
    picture = Image.new("RGBA", (80, 45), (0, 200, 0, 255))
    picture.paste((0, 0, 0, 0), (70, 0, 80, 45))  # transparent at the right edge only: over the red
    assert _export(tmp_path, run, picture, HALF) == []


def test_transparent_pixels_over_two_colours_are_warned(tmp_path, run):
    picture = Image.new("RGBA", (80, 45), (0, 200, 0, 255))
    picture.paste((0, 0, 0, 0), (30, 0, 50, 45))  # a transparent band across the edge of the blue half
    warned = _export(tmp_path, run, picture, HALF)
    assert len(warned) == 1 and "what lies under the picture is not one colour" in warned[0], warned


def test_a_transparent_picture_after_a_boxed_text_it_does_not_touch_is_not_warned(tmp_path, run):
    picture = Image.new("RGBA", (80, 45), (0, 200, 0, 0))  # transparent all over: it lies on the red alone
    assert _export(tmp_path, run, picture, BOXED) == []
