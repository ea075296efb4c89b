"""Token art: embedded once however often placed, resolution warnings, decompression bombs, fitting.

Fixtures are generated here: PNGs drawn with Pillow, and a PNG *header* claiming a huge size
(no pixel data is ever allocated, so the bomb tests stay fast).
"""

from __future__ import annotations

import re
import struct
import zlib
from pathlib import Path

import pdfplumber
import pytest
from PIL import Image

from tokengen import BuildOptions, SheetSpec, build_pdf, load_catalogue
from tokengen.errors import RenderError
from tokengen.faces.art import ArtLibrary, effective_dpi, fit
from tokengen.faces.render import SAFE
from tokengen.geometry.imposition import Rect
from tokengen.units import parse_page

LETTER = parse_page("letter")


def png(path: Path, size: tuple[int, int], mode: str = "RGB") -> Path:
    """A test picture: a diagonal gradient with a dark disc, ``size`` pixels."""
    w, h = size
    im = Image.linear_gradient("L").resize((w, h)).convert(mode)
    disc = Image.new("L", (w, h), 0)
    from PIL import ImageDraw

    ImageDraw.Draw(disc).ellipse((w // 4, h // 4, 3 * w // 4, 3 * h // 4), fill=255)
    im.paste((60, 20, 20) if mode == "RGB" else (60, 20, 20, 255), mask=disc)
    im.save(path)
    return path


def png_header(path: Path, width: int, height: int) -> Path:
    """A PNG whose header claims ``width`` × ``height`` pixels, with one empty data chunk."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"")) + chunk(b"IEND", b""))
    return path


def catalogue_with_art(folder: Path, catalogue_path: Path, face: str | None = None, back: str | None = None) -> Path:
    """A copy of the real catalogue in ``folder`` with ``style.art`` and/or ``back.art`` set."""
    text = catalogue_path.read_text("utf-8")
    if face:
        text = text.replace("style:\n  background:", f"style:\n  art: {face}\n  background:", 1)
    if back:
        text = text.replace("back:\n  text: MEATSHIELD", f"back:\n  art: {back}\n  text: MEATSHIELD", 1)
    out = folder / "cat.yaml"
    out.write_text(text, "utf-8")
    return out


def image_xobjects(pdf: Path) -> list[bytes]:
    """The dictionaries of every image XObject in ``pdf`` (ReportLab writes them uncompressed)."""
    return re.findall(rb"<<[^>]*/Subtype /Image[^>]*>>", pdf.read_bytes())


def test_art_is_embedded_once_however_often_placed(run, tmp_path: Path, catalogue_path: Path):
    png(tmp_path / "hi.png", (400, 300))
    png(tmp_path / "back.png", (320, 320))
    cat = catalogue_with_art(tmp_path, catalogue_path, face="hi.png", back="back.png")
    out = tmp_path / "art.pdf"
    result = run("build", str(cat), "-o", str(out), "--copies", "3", "--backs")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""  # 400 px over 0.875 in is 457 DPI: no warning
    images = image_xobjects(out)
    assert len(images) == 2, images  # one face picture, one back picture; 54 faces and 54 backs
    assert sorted(re.search(rb"/Width (\d+)", i).group(1) for i in images) == [b"320", b"400"]
    with pdfplumber.open(out) as pdf:  # 54 tokens over 3 sheets, each with its back sheet
        placed = [len(page.images) for page in pdf.pages]
    assert sum(placed) == 2 * 54, placed


def test_art_fits_inside_the_safe_area_without_distortion(tmp_path: Path, catalogue_path: Path):
    png(tmp_path / "wide.png", (400, 300))
    cat = load_catalogue(catalogue_with_art(tmp_path, catalogue_path, face="wide.png"))
    out = tmp_path / "fit.pdf"
    build_pdf(cat, BuildOptions(SheetSpec(LETTER, 72.0)), out)
    with pdfplumber.open(out) as pdf:
        page = pdf.pages[0]
        images = page.images
        squares = sorted((r["x0"], r["y0"]) for r in page.rects if abs(r["x1"] - r["x0"] - 72) < 0.01 and abs(r["y1"] - r["y0"] - 72) < 0.01)
    assert len(images) == 18
    for image in images:
        w, h = image["x1"] - image["x0"], image["y1"] - image["y0"]
        assert w / h == pytest.approx(400 / 300, rel=1e-6)
        assert w == pytest.approx(72 * (1 - 2 * SAFE))  # width-limited: fills the safe area's width
        # inside the safe area of the trim square it sits on
        x0, y0 = max((sx, sy) for sx, sy in squares if sx <= image["x0"] + 1e-6 and sy <= image["y0"] + 1e-6)
        safe = Rect(x0, y0, 72, 72).grow(-72 * SAFE)
        assert safe.contains(Rect(image["x0"], image["y0"], w, h), tol=0.01)


def test_art_covers_the_bleed_when_there_is_bleed(tmp_path: Path, catalogue_path: Path):
    png(tmp_path / "wide.png", (400, 300))
    cat = load_catalogue(catalogue_with_art(tmp_path, catalogue_path, face="wide.png"))
    out = tmp_path / "bleed.pdf"
    build_pdf(cat, BuildOptions(SheetSpec(LETTER, 72.0, gutter=18.0, bleed=9.0)), out)
    with pdfplumber.open(out) as pdf:
        image = pdf.pages[0].images[0]
    w, h = image["x1"] - image["x0"], image["y1"] - image["y0"]
    assert h == pytest.approx(90.0)  # height-limited: covers the 72 + 2 × 9 pt bleed box
    assert w / h == pytest.approx(400 / 300, rel=1e-6)


def test_low_resolution_art_warns_with_file_and_dpi(run, tmp_path: Path, catalogue_path: Path):
    low = png(tmp_path / "low.png", (100, 100))
    cat = catalogue_with_art(tmp_path, catalogue_path, face="low.png")
    out = tmp_path / "low.pdf"
    result = run("build", str(cat), "-o", str(out))
    assert result.exit_code == 0
    # 100 px over the 0.875 in safe area = 114 DPI
    assert low == tmp_path / "low.png"  # named as the catalogue (in tmp_path) names it, not absolute
    assert result.stderr == "tokengen: warning: low.png: 114 DPI at its printed size, below 300 DPI; it may print blurred\n"
    assert len(image_xobjects(out)) == 1


def test_decompression_bomb_is_refused_in_one_line(run, tmp_path: Path, catalogue_path: Path):
    png_header(tmp_path / "bomb.png", 100_000, 100_000)
    cat = catalogue_with_art(tmp_path, catalogue_path, face="bomb.png")
    out = tmp_path / "bomb.pdf"
    result = run("build", str(cat), "-o", str(out))
    assert result.exit_code == 2
    # named where the catalogue names it (the default face style's art), relative to its folder
    assert result.stderr == (f"tokengen: error: {cat}:39: style.art: bomb.png: image of 10000000000 pixels exceeds the limit "
                             "of 50000000 pixels (possible decompression bomb)\n")
    assert not out.exists()


def test_our_limit_applies_below_pillows(tmp_path: Path):
    big = png_header(tmp_path / "big.png", 8_000, 8_000)  # 64 Mpx: under Pillow's limit, over ours
    with pytest.raises(RenderError, match=r"big\.png: image of 8000 × 8000 pixels exceeds the limit of 50000000"):
        ArtLibrary().load(big)


def test_pillow_bomb_warning_becomes_render_error(tmp_path: Path):
    bomb = png_header(tmp_path / "big.png", 10_000, 10_000)  # 1e8 px: over Pillow's own limit (a warning)
    with pytest.raises(RenderError, match=r"big\.png: image of 100000000 pixels exceeds Pillow's limit of \d+ pixels"):
        ArtLibrary(max_pixels=10**12).load(bomb)


def test_not_an_image_is_a_render_error(tmp_path: Path):
    fake = tmp_path / "fake.png"
    fake.write_text("not a picture")
    with pytest.raises(RenderError, match="not a readable PNG or JPEG"):
        ArtLibrary().load(fake)


def test_each_file_is_decoded_once_and_converted_for_cmyk(tmp_path: Path):
    path = png(tmp_path / "rgba.png", (64, 64), mode="RGBA")
    library = ArtLibrary("cmyk")
    first = library.load(path)
    assert library.load(path) is first
    assert first.mode == "CMYK"
    assert ArtLibrary("rgb").load(path).mode == "RGB"  # every pixel opaque: no soft mask needed


def test_cmyk_build_embeds_cmyk_art(tmp_path: Path, catalogue_path: Path):
    jpeg = tmp_path / "art.jpg"
    Image.new("RGB", (300, 300), (200, 40, 40)).save(jpeg, quality=90)
    cat = load_catalogue(catalogue_with_art(tmp_path, catalogue_path, face="art.jpg"))
    out = tmp_path / "cmyk.pdf"
    result = build_pdf(cat, BuildOptions(SheetSpec(LETTER, 72.0), colour_model="cmyk"), out)
    assert result.warnings == ()  # 300 px over 0.875 in: 343 DPI
    images = image_xobjects(out)
    assert len(images) == 1 and b"/DeviceCMYK" in images[0]


@pytest.mark.parametrize("mode", ["contain", "cover"])
def test_fit_keeps_aspect_and_centre(mode: str):
    box = Rect(10, 20, 100, 50)
    r = fit(300, 200, box, mode)
    assert r.w / r.h == pytest.approx(1.5)
    assert (r.x + r.w / 2, r.y + r.h / 2) == pytest.approx((60, 45))
    if mode == "contain":
        assert box.contains(r)
    else:
        assert r.contains(box)


def test_effective_dpi():
    assert effective_dpi((300, 300), Rect(0, 0, 72, 72)) == pytest.approx(300)
    assert effective_dpi((600, 300), Rect(0, 0, 144, 36)) == pytest.approx(300)


def test_per_token_art_embeds_one_image_per_file(tmp_path: Path, catalogue_path: Path):
    png(tmp_path / "str.png", (300, 300))
    png(tmp_path / "agi.png", (320, 320))
    text = catalogue_path.read_text("utf-8")
    text = text.replace("{id: str-low,  attribute: STR, priority: low}", "{id: str-low,  attribute: STR, priority: low, style: {art: str.png}}")
    text = text.replace("{id: str-high, attribute: STR, priority: high}", "{id: str-high, attribute: STR, priority: high, style: {art: str.png}}")
    text = text.replace("{id: agi-low,  attribute: AGI, priority: low}", "{id: agi-low,  attribute: AGI, priority: low, style: {art: agi.png}}")
    (tmp_path / "cat.yaml").write_text(text, "utf-8")
    cat = load_catalogue(tmp_path / "cat.yaml")
    out = tmp_path / "per-token.pdf"
    build_pdf(cat, BuildOptions(SheetSpec(LETTER, 72.0)), out)
    assert len(image_xobjects(out)) == 2
    with pdfplumber.open(out) as pdf:
        assert len(pdf.pages[0].images) == 3
