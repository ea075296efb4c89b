"""Every image mode prints as an image viewer shows it, in `build` (sRGB) and in each CMYK profile.

Each picture is generated here (every PNG colour type and bit depth Pillow reads, with and without
tRNS transparency; baseline, progressive, grey and CMYK JPEG): 320 × 320 px, its left half one flat colour (or transparent), its
right half another. The sheet is rendered with pypdfium2 and two patches inside the art (left
and right of centre, clear of the frame and the text plates) are compared with the colours a
viewer shows (Pillow's own decoding, as sRGB), per channel within 3/255. The PDF's image
objects are read back with pypdf: filter, colour space, bits per component, soft mask.
"""

from __future__ import annotations

import io
import struct
import zlib
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageCms, ImageOps, ImageStat
from pypdf import PdfReader

from tests.conftest import CATALOGUE
from tests.faces.test_art import catalogue_with_art
from tests.pdfmeasure import cells
from tokengen import BuildOptions, SheetSpec, build_pdf, load_catalogue
from tokengen.colour import Converter
from tokengen.model import Colour
from tokengen.outputs.export import export
from tokengen.sources.profiles import get_profile
from tokengen.units import parse_page

LETTER = parse_page("letter")
SIZE = 320
LEFT, RIGHT = (200, 40, 40), (40, 90, 200)
BACKGROUND = "#efe4c8"  # the catalogue's face background
SCALE = 4  # rendered px per pt
ADOBE_RGB = Path("/usr/share/color/icc/compatibleWithAdobeRGB1998.icc")


def halves(mode: str, left, right) -> Image.Image:
    im = Image.new(mode, (SIZE, SIZE), right)
    im.paste(left, (0, 0, SIZE // 2, SIZE))
    return im


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png16(path: Path, colour_type: int, left: tuple[int, ...], right: tuple[int, ...], trns: bytes = b"") -> None:
    """A 16-bit PNG written by hand (Pillow cannot write 16-bit RGB): ``left``/``right`` are
    16-bit channel values for colour type 0 (grey), 2 (RGB), 4 (grey+alpha) or 6 (RGBA)."""
    row = b"\x00" + struct.pack(f">{len(left)}H", *left) * (SIZE // 2) + struct.pack(f">{len(right)}H", *right) * (SIZE // 2)
    ihdr = struct.pack(">IIBBBBB", SIZE, SIZE, 16, colour_type, 0, 0, 0)
    key = _chunk(b"tRNS", trns) if trns else b""
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr) + key + _chunk(b"IDAT", zlib.compress(row * SIZE)) + _chunk(b"IEND", b""))


def make(kind: str, folder: Path) -> tuple[Path, tuple | None, tuple]:
    """Write the picture ``kind``; returns (path, left colour as a viewer shows it or None when
    transparent, right colour), colours as sRGB 0..255."""
    path = folder / (kind + (".jpg" if "jpeg" in kind else ".png"))
    grey = lambda v: (v, v, v)  # noqa: E731
    if kind == "1":
        halves("1", 0, 1).save(path)
        return path, grey(0), grey(255)
    if kind == "L":
        halves("L", 60, 190).save(path)
        return path, grey(60), grey(190)
    if kind == "LA":
        halves("LA", (0, 0), (90, 255)).save(path)
        return path, None, grey(90)
    if kind == "P":
        halves("RGB", LEFT, RIGHT).quantize(4).save(path)
        return path, LEFT, RIGHT
    if kind == "P-tRNS":
        im = halves("RGB", LEFT, RIGHT).quantize(4)
        index = im.getpixel((0, 0))
        im.save(path, transparency=index)
        return path, None, RIGHT
    if kind == "RGB":
        halves("RGB", LEFT, RIGHT).save(path)
        return path, LEFT, RIGHT
    if kind == "L-tRNS":  # grey with a tRNS colour key: grey 60 is transparent
        halves("L", 60, 190).save(path, transparency=60)
        return path, None, grey(190)
    if kind == "1-tRNS":  # 1-bit with black transparent
        halves("1", 0, 1).save(path, transparency=0)
        return path, None, grey(255)
    if kind == "I;16-tRNS":  # 16-bit grey with a 16-bit tRNS key
        png16(path, 0, (0x4000,), (0x8080,), trns=struct.pack(">H", 0x4000))
        return path, None, grey(128)
    if kind == "RGB-tRNS":
        halves("RGB", LEFT, RIGHT).save(path, transparency=LEFT)
        return path, None, RIGHT
    if kind == "RGBA":
        halves("RGBA", (*LEFT, 0), (*RIGHT, 255)).save(path)
        return path, None, RIGHT
    if kind == "I;16":
        png16(path, 0, (0x4000,), (0x8080,))  # 25 % and 50 % grey: 64 and 128 in 8 bits
        return path, grey(64), grey(128)
    if kind == "RGB16":
        png16(path, 2, tuple(v * 257 for v in LEFT), tuple(v * 257 for v in RIGHT))
        return path, LEFT, RIGHT
    if kind == "RGBA16":
        png16(path, 6, (*(v * 257 for v in LEFT), 0), (*(v * 257 for v in RIGHT), 65535))
        return path, None, RIGHT
    if kind == "LA16":
        png16(path, 4, (0, 0), (90 * 257, 65535))
        return path, None, grey(90)
    if kind == "adobe-rgb":
        im = halves("RGB", LEFT, RIGHT)
        im.save(path, icc_profile=ADOBE_RGB.read_bytes())
        to_srgb = ImageCms.buildTransform(ImageCms.getOpenProfile(str(ADOBE_RGB)), ImageCms.createProfile("sRGB"), "RGB", "RGB",
                                          flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
        shown = ImageCms.applyTransform(im, to_srgb)
        return path, shown.getpixel((40, 160)), shown.getpixel((280, 160))
    # JPEGs: what a viewer shows is Pillow's own decoding of the file
    if kind == "ycbcr-jpeg":
        halves("RGB", LEFT, RIGHT).save(path, quality=95, subsampling=0)
    elif kind == "progressive-jpeg":
        halves("RGB", LEFT, RIGHT).save(path, quality=95, subsampling=0, progressive=True)
    elif kind == "grey-jpeg":
        halves("L", 60, 190).save(path, quality=95)
    elif kind == "cmyk-jpeg":  # Pillow writes Adobe-style inverted CMYK with an APP14 marker, as Photoshop does
        halves("CMYK", (0, 200, 180, 30), (200, 120, 0, 10)).save(path, quality=95)
    shown = Image.open(path).convert("RGB")
    return path, shown.getpixel((40, 160)), shown.getpixel((280, 160))


KINDS = ["1", "1-tRNS", "L", "L-tRNS", "LA", "P", "P-tRNS", "RGB", "RGB-tRNS", "RGBA", "I;16", "I;16-tRNS", "RGB16", "RGBA16", "LA16", "adobe-rgb",
         "ycbcr-jpeg", "progressive-jpeg", "grey-jpeg", "cmyk-jpeg"]


def render(pdf: Path, page: int = 0) -> Image.Image:
    doc = pdfium.PdfDocument(str(pdf))
    try:
        return doc[page].render(scale=SCALE).to_pil().convert("RGB")
    finally:
        doc.close()


def patch(image: Image.Image, height_pt: float, x: float, y: float) -> tuple[float, ...]:
    """Mean colour of a 9 × 9 px patch centred on (x, y) pt (PDF coordinates, origin bottom-left)."""
    px, py = round(x * SCALE), round((height_pt - y) * SCALE)
    return tuple(ImageStat.Stat(image.crop((px - 4, py - 4, px + 5, py + 5))).mean)


def samples(pdf: Path, size: float = 72.0) -> tuple[tuple, tuple]:
    """(left patch, right patch) inside the art of the first token of the first page."""
    cell = cells(pdf, size=size)[0]
    image = render(pdf)
    height = PdfReader(pdf).pages[0].mediabox.height
    y = cell.y0 + 0.62 * size
    return patch(image, float(height), cell.x0 + 0.17 * size, y), patch(image, float(height), cell.x0 + 0.83 * size, y)


def close(got: tuple, want: tuple, tol: float = 3.0) -> bool:
    return all(abs(g - w) <= tol for g, w in zip(got, want))


def images(pdf: Path) -> list[dict]:
    """Every image XObject of the PDF (inside forms too): its dictionary as plain values."""
    found, seen = [], set()

    def walk(resources) -> None:
        xobjects = resources.get("/XObject") if resources else None
        for ref in (xobjects or {}).values():
            obj = ref.get_object()
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            if obj.get("/Subtype") == "/Image":
                filters = obj.get("/Filter")
                filters = [str(f) for f in filters] if isinstance(filters, list) else [str(filters)]
                found.append({"filter": filters, "colour_space": str(obj.get("/ColorSpace")),
                              "bits": int(obj.get("/BitsPerComponent")), "smask": "/SMask" in obj,
                              "width": int(obj["/Width"]), "height": int(obj["/Height"])})
            else:
                walk(obj.get("/Resources"))

    for page in PdfReader(pdf).pages:
        walk(page.get("/Resources"))
    return found


@pytest.fixture(scope="module")
def background(tmp_path_factory) -> tuple:
    """The face background as pdfium renders it in a build without art (the same sample point)."""
    folder = tmp_path_factory.mktemp("plain")
    out = folder / "plain.pdf"
    build_pdf(load_catalogue(CATALOGUE), BuildOptions(SheetSpec(LETTER, 72.0)), out)
    return samples(out)[0]


@pytest.mark.parametrize("kind", KINDS)
def test_build_shows_every_mode_as_a_viewer_does(kind: str, tmp_path: Path, catalogue_path: Path, background: tuple):
    if kind == "adobe-rgb" and not ADOBE_RGB.exists():
        pytest.skip("needs Debian's icc-profiles-free (compatibleWithAdobeRGB1998.icc)")
    path, left, right = make(kind, tmp_path)
    cat = load_catalogue(catalogue_with_art(tmp_path, catalogue_path, face=path.name))
    out = tmp_path / "out.pdf"
    result = build_pdf(cat, BuildOptions(SheetSpec(LETTER, 72.0)), out)
    assert result.warnings == ()
    got_left, got_right = samples(out)
    # transparent pixels show the face background (a soft mask), never paper white
    want_left = background if left is None else left
    assert close(got_left, want_left), (got_left, want_left)
    assert close(got_right, right), (got_right, right)
    [image] = images(out)
    assert image["bits"] == 8
    assert image["smask"] == (left is None)
    assert (image["width"], image["height"]) == (SIZE, SIZE)
    assert image["filter"] == (["/DCTDecode"] if kind.endswith("jpeg") else ["/FlateDecode"])
    grey = kind in ("1", "1-tRNS", "L", "L-tRNS", "LA", "I;16", "I;16-tRNS", "grey-jpeg")  # Pillow reads 16-bit grey+alpha as RGBA
    assert image["colour_space"] == ("/DeviceGray" if grey else "/DeviceRGB")


def image_pixels(pdf: Path) -> Image.Image:
    """The first image XObject of ``pdf`` decoded with Pillow (DCT as JPEG, Flate as raw CMYK)."""
    from pypdf.generic import IndirectObject

    def first(resources):
        for ref in (resources.get("/XObject") or {}).values():
            obj = ref.get_object() if isinstance(ref, IndirectObject) else ref
            if obj.get("/Subtype") == "/Image":
                return obj
            found = first(obj.get("/Resources") or {})
            if found is not None:
                return found
        return None

    obj = next(o for o in (first(page["/Resources"]) for page in PdfReader(pdf).pages) if o is not None)
    filters = obj["/Filter"]
    if "/DCTDecode" in [str(f) for f in filters]:
        return Image.open(io.BytesIO(obj._data))
    return Image.frombytes("CMYK", (int(obj["/Width"]), int(obj["/Height"])), obj.get_data())


@pytest.mark.parametrize("profile_name", ["print-shop", "eu-3mm", "single-pages"])
@pytest.mark.parametrize("kind", ["LA", "P-tRNS", "RGB-tRNS", "RGBA", "RGBA16", "RGB", "I;16", "cmyk-jpeg", "ycbcr-jpeg"])
def test_cmyk_profiles_convert_and_flatten_onto_the_background(kind: str, profile_name: str, tmp_path: Path, catalogue_path: Path):
    path, left, right = make(kind, tmp_path)
    cat = load_catalogue(catalogue_with_art(tmp_path, catalogue_path, face=path.name))
    profile = get_profile(profile_name)
    pdf = export(cat, profile, tmp_path / "out")[0]
    found = images(pdf)
    assert found and all(i["colour_space"] == "/DeviceCMYK" and not i["smask"] and i["bits"] == 8 for i in found), found
    assert all(i["filter"] == (["/DCTDecode"] if kind.endswith("jpeg") else ["/FlateDecode"]) for i in found), found
    converter = Converter("cmyk")
    pixels = image_pixels(pdf)
    w, h = pixels.size
    got_left, got_right = pixels.getpixel((w // 8, h // 2)), pixels.getpixel((7 * w // 8, h // 2))
    if kind == "cmyk-jpeg":  # untagged CMYK is kept as the press numbers it gives
        want_right = Image.open(path).getpixel((280, 160))
    else:
        want_right = converter.image_to_cmyk(Image.new("RGB", (1, 1), right)).getpixel((0, 0))
    assert close(got_right, want_right), (got_right, want_right)
    assert sum(got_right) <= 300 / 100 * 255 + 2
    if left is None:  # transparent: exactly the token background's CMYK, as the vector background
        want_left = tuple(round(v * 255) for v in converter.paint(Colour.parse(BACKGROUND), area=True))
        assert close(got_left, want_left, 1), (got_left, want_left)
        # and rendered alike: the art's transparent half looks like the token background without art
        plain = export(load_catalogue(CATALOGUE), profile, tmp_path / "plain")[0]
        spot = _left_spot(pdf, profile, cat.size)
        assert close(spot, _left_spot(plain, profile, cat.size), 2), (spot, _left_spot(plain, profile, cat.size))


def _left_spot(pdf: Path, profile, size: float) -> tuple:
    """The rendered colour left of the face centre (where the art's left half lies)."""
    page = 1 if profile.output == "single-pages" else 0  # single pages: the back comes first
    image = render(pdf, page)
    height = float(PdfReader(pdf).pages[page].mediabox.height)
    if profile.output == "single-pages":
        x0 = y0 = profile.bleed
    else:
        cell = cells(pdf, size=size + 2 * profile.bleed)[0]  # the face background covers trim + bleed
        x0, y0 = cell.x0 + profile.bleed, cell.y0 + profile.bleed
    return patch(image, height, x0 + 0.17 * size, y0 + 0.62 * size)


def test_exif_orientation_is_applied_before_placing(tmp_path: Path, catalogue_path: Path):
    """A phone photo stored 400 × 200 with EXIF Orientation 6 is shown 200 × 400 (portrait)."""
    stored = Image.new("RGB", (400, 200), LEFT)
    stored.paste(RIGHT, (0, 0, 400, 100))  # top half of the stored image: the right half once turned
    exif = Image.Exif()
    exif[0x0112] = 6
    path = tmp_path / "phone.jpg"
    stored.save(path, quality=95, subsampling=0, exif=exif.tobytes())
    shown = ImageOps.exif_transpose(Image.open(path))
    assert shown.size == (200, 400)
    cat = load_catalogue(catalogue_with_art(tmp_path, catalogue_path, face=path.name))
    out = tmp_path / "out.pdf"
    build_pdf(cat, BuildOptions(SheetSpec(LETTER, 72.0)), out)
    [image] = images(out)
    assert (image["width"], image["height"]) == (200, 400)
    import pdfplumber

    with pdfplumber.open(out) as pdf:
        placed = pdf.pages[0].images[0]
    assert (placed["x1"] - placed["x0"]) / (placed["y1"] - placed["y0"]) == pytest.approx(0.5, rel=1e-6)
    cell = cells(out)[0]
    rendered = render(out)
    height = float(PdfReader(out).pages[0].mediabox.height)
    cx = cell.x0 + 36  # the art is centred on the token; its top strip shows above the glyph's plate
    y = cell.y0 + 0.885 * 72
    assert close(patch(rendered, height, cx - 6, y), shown.getpixel((50, 200)))
    assert close(patch(rendered, height, cx + 6, y), shown.getpixel((150, 200)))


def test_jpeg_needing_nothing_is_embedded_as_its_own_bytes(tmp_path: Path, catalogue_path: Path):
    path, _, _ = make("progressive-jpeg", tmp_path)
    cat = load_catalogue(catalogue_with_art(tmp_path, catalogue_path, face=path.name))
    out = tmp_path / "out.pdf"
    build_pdf(cat, BuildOptions(SheetSpec(LETTER, 72.0)), out)
    raw = out.read_bytes()
    assert path.read_bytes() in raw  # the file's DCT stream, byte for byte
    assert b"ASCII85Decode" not in raw


def test_art_far_above_max_dpi_is_resampled_once_with_a_warning(run, tmp_path: Path, catalogue_path: Path):
    big = tmp_path / "cover.jpg"
    halves("RGB", LEFT, RIGHT).resize((2100, 2100)).save(big, quality=90)  # 2400 DPI over the 0.875 in safe area
    cat = catalogue_with_art(tmp_path, catalogue_path, face=big.name)
    out = tmp_path / "out.pdf"
    result = run("build", str(cat), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert result.stderr == "tokengen: warning: 1 picture resampled to 600 DPI (cover.jpg); --keep-resolution keeps it\n"
    [image] = images(out)
    assert (image["width"], image["height"]) == (525, 525)  # 0.875 in × 600 DPI
    assert image["filter"] == ["/DCTDecode"]
    kept = tmp_path / "kept.pdf"
    result = run("build", str(cat), "-o", str(kept), "--keep-resolution")
    assert result.exit_code == 0 and result.stderr == ""
    assert big.read_bytes() in kept.read_bytes()


def test_icc_tagged_cmyk_art_keeps_its_colours(tmp_path: Path, catalogue_path: Path):
    """CMYK art tagged with the output profile itself: shown through the profile in sRGB."""
    from tokengen.colour import default_icc_path

    path = tmp_path / "tagged.jpg"
    halves("CMYK", (0, 200, 180, 30), (200, 120, 0, 10)).save(path, quality=95, icc_profile=default_icc_path().read_bytes())
    to_srgb = ImageCms.buildTransform(ImageCms.getOpenProfile(str(default_icc_path())), ImageCms.createProfile("sRGB"),
                                      "CMYK", "RGB", flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
    shown = ImageCms.applyTransform(Image.open(path), to_srgb)
    cat = load_catalogue(catalogue_with_art(tmp_path, catalogue_path, face=path.name))
    out = tmp_path / "out.pdf"
    build_pdf(cat, BuildOptions(SheetSpec(LETTER, 72.0)), out)
    got_left, got_right = samples(out)
    assert close(got_left, shown.getpixel((40, 160))), (got_left, shown.getpixel((40, 160)))
    assert close(got_right, shown.getpixel((280, 160)))


def test_unreadable_and_warning_images_are_one_line_errors(run, tmp_path: Path, catalogue_path: Path):
    good = io.BytesIO()
    halves("RGB", LEFT, RIGHT).save(good, "PNG")
    truncated = tmp_path / "cut.png"
    truncated.write_bytes(good.getvalue()[: len(good.getvalue()) // 2])
    cat = catalogue_with_art(tmp_path, catalogue_path, face=truncated.name)
    out = tmp_path / "out.pdf"
    result = run("build", str(cat), "-o", str(out))
    assert result.exit_code == 2
    assert result.stderr == f"tokengen: error: {cat}:39: style.art: cut.png: PNG chunk 'IDAT' claims 964 bytes, past the end of the file\n"
    assert not out.exists()
    jpeg = io.BytesIO()
    halves("RGB", LEFT, RIGHT).save(jpeg, "JPEG")
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(jpeg.getvalue()[:1500])
    cat = catalogue_with_art(tmp_path, catalogue_path, face=cut.name)
    result = run("build", str(cat), "-o", str(out))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"tokengen: error: {cat}:39: style.art: cut.jpg: cannot decode image: image file is truncated"), result.stderr
    assert result.stderr.count("\n") == 1 and not out.exists()


def test_export_resamples_to_the_profiles_max_dpi_and_says_so(run, tmp_path: Path, catalogue_path: Path):
    big = tmp_path / "cover.png"
    halves("RGB", LEFT, RIGHT).resize((1500, 1500)).save(big)  # 1500 px over the 1.25 in bleed box: 1200 DPI
    cat = catalogue_with_art(tmp_path, catalogue_path, face=big.name)
    user = tmp_path / "profiles.yaml"
    user.write_text("shop-300:\n  extends: single-pages\n  max_dpi: 300\n", "utf-8")
    result = run("export", str(cat), "--profile", "shop-300", "--profiles", str(user), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stderr
    assert result.stderr == "tokengen: warning: 1 picture resampled to 300 DPI (cover.png); --keep-resolution keeps it\n"
    [image] = images(tmp_path / "out" / "meatshields-shop-300.pdf")
    assert (image["width"], image["height"]) == (375, 375)  # 1.25 in × 300 DPI
    result = run("export", str(cat), "--profile", "shop-300", "--profiles", str(user), "-o", str(tmp_path / "kept"), "--keep-resolution")
    assert result.exit_code == 0 and result.stderr == ""
    [image] = images(tmp_path / "kept" / "meatshields-shop-300.pdf")
    assert (image["width"], image["height"]) == (1500, 1500)


def test_art_that_reads_with_a_warning_is_refused_naming_the_file(run, tmp_path: Path, catalogue_path: Path):
    """A phone JPEG whose EXIF block is cut short: Pillow warns, tokengen refuses (exit 2)."""
    bad = tmp_path / "phone.jpg"
    exif = b"Exif\x00\x00MM\x00\x2a\x00\x00\x00\x08\x00\x05\x01\x12\x00\x03\x00\x00\x00\x01\x00\x06"  # 5 entries, 1 present
    halves("RGB", LEFT, RIGHT).save(bad, quality=95, exif=exif)
    cat = catalogue_with_art(tmp_path, catalogue_path, face=bad.name)
    out = tmp_path / "out.pdf"
    result = run("build", str(cat), "-o", str(out))
    assert result.exit_code == 2
    assert result.stderr == (f"tokengen: error: {cat}:39: style.art: {bad.name}: the image reads with a warning: Corrupt EXIF data. "
                             "Expecting to read 12 bytes but only got 10.\n")
    assert not out.exists()
