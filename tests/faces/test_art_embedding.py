"""Art decoded at most once, never to name it (issue 27): a pass-through JPEG is embedded from its
bytes without decoding, named by their digest; a picture that is resampled or converted is decoded
once, and with :func:`keep_decoded` (``--watch``, the page) not again by the next build while its
bytes are the same. (tests/faces/test_art_modes.py compares the printed pixels with a viewer's.)"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from PIL import Image, ImageFile
from pypdf import PdfReader

from tests.faces.test_art import catalogue_with_art
from tokengen import BuildOptions, SheetSpec, build_pdf, load_catalogue
from tokengen.faces import art
from tokengen.faces.art import ArtLibrary, EmbeddedJpeg, keep_decoded
from tokengen.geometry.imposition import Rect
from tokengen.units import parse_page

LETTER = parse_page("letter")


def photo(path: Path, size: tuple[int, int] = (420, 420), quality: int = 90) -> bytes:
    im = Image.radial_gradient("L").resize(size).convert("RGB")
    im.paste((200, 40, 40), (0, 0, size[0] // 2, size[1] // 3))
    im.save(path, quality=quality)
    return path.read_bytes()


def image_streams(pdf: Path) -> list[bytes]:
    """The raw (still encoded) stream of every image XObject, inside forms too, once each."""
    found: list[bytes] = []
    seen: set[int] = set()

    def walk(resources) -> None:
        for ref in ((resources or {}).get("/XObject") or {}).values():
            obj = ref.get_object()
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            if obj.get("/Subtype") == "/Image":
                found.append(obj.get_data() if obj.get("/Filter") != "/DCTDecode" else obj._data)
            else:
                walk(obj.get("/Resources"))

    for page in PdfReader(pdf).pages:
        walk(page.get("/Resources"))
    return found


@pytest.fixture
def no_decoding(monkeypatch):
    """Count the pictures Pillow decodes (``ImageFile.load`` with a decoder to run)."""
    calls: list[str] = []
    plain = ImageFile.ImageFile.load

    def load(self):
        if self.tile:  # pixels still to decode
            calls.append(self.format)
        return plain(self)

    monkeypatch.setattr(ImageFile.ImageFile, "load", load)
    return calls


def test_a_pass_through_jpeg_is_embedded_from_its_bytes_without_decoding(tmp_path: Path, catalogue_path: Path, no_decoding):
    data = photo(tmp_path / "face.jpg")  # 420 px over the 0.875 in safe area: 480 DPI, no resampling
    cat = load_catalogue(catalogue_with_art(tmp_path, catalogue_path, face="face.jpg"))
    out = tmp_path / "out.pdf"
    build_pdf(cat, BuildOptions(SheetSpec(LETTER, 72.0)), out)
    assert no_decoding == []
    assert image_streams(out) == [data]
    name = "FormXob." + hashlib.md5(f"jpeg-sha256-{hashlib.sha256(data).hexdigest()}auto".encode()).hexdigest()
    assert f"/{name} ".encode() in out.read_bytes()  # the form's resources name it by the bytes' digest


def test_a_jpeg_without_its_end_marker_is_decoded_to_prove_it_whole(tmp_path: Path, no_decoding):
    path = tmp_path / "tail.jpg"
    data = photo(path)
    path.write_bytes(data + b"\x00\x00")  # bytes after the end-of-image marker: a viewer shows it
    image = ArtLibrary().load(path)
    assert no_decoding == ["JPEG"]
    assert image.passthrough and isinstance(image.reader, EmbeddedJpeg) and image.reader.data == data + b"\x00\x00"


def test_a_resampled_picture_is_decoded_once_then_kept_between_builds(tmp_path: Path, no_decoding):
    path = tmp_path / "big.jpg"
    photo(path, (1500, 1500))
    drawn = Rect(0, 0, 72, 72)  # 1500 px on 1 in: resampled to 600
    keep_decoded()
    try:
        first = ArtLibrary().load(path, drawn)
        assert no_decoding == ["JPEG"] and (first.width, first.height) == (600, 600)
        again = ArtLibrary().load(path, drawn)  # the next build (--watch, the page)
        assert no_decoding == ["JPEG"]
        assert isinstance(again.reader, EmbeddedJpeg) and again.reader.data == first.reader.data  # type: ignore[union-attr]  # checked above
        photo(path, (1500, 1500), quality=80)  # edited: other bytes
        ArtLibrary().load(path, drawn)
        assert no_decoding == ["JPEG", "JPEG"]
        png = tmp_path / "big.png"
        Image.open(path).save(png)
        del no_decoding[2:]  # the test's own decoding, to write the PNG
        flate = ArtLibrary().load(png, drawn)
        kept = ArtLibrary().load(png, drawn)
        assert no_decoding == ["JPEG", "JPEG", "PNG"]
        assert kept.reader is not flate.reader and kept.reader.getRGBData() == flate.reader.getRGBData()  # type: ignore[union-attr]  # ImageReaders
    finally:
        keep_decoded(0)
    assert art._KEPT.items == {} and art._KEPT.held == 0


def test_without_keep_decoded_each_build_decodes_again(tmp_path: Path, no_decoding):
    path = tmp_path / "big.jpg"
    photo(path, (1500, 1500))
    ArtLibrary().load(path, Rect(0, 0, 72, 72))
    ArtLibrary().load(path, Rect(0, 0, 72, 72))
    assert no_decoding == ["JPEG", "JPEG"]


@pytest.fixture
def opened(monkeypatch):
    """The files Pillow opens (``Image.open``), and the bytes hashed with SHA-256, in order."""
    opens: list[str] = []
    hashed: list[int] = []
    plain_open, plain_sha = Image.open, hashlib.sha256

    def image_open(fp, *args, **kwargs):
        opens.append(Path(fp).name if isinstance(fp, (str, Path)) else type(fp).__name__)
        return plain_open(fp, *args, **kwargs)

    def sha256(data=b"", **kwargs):
        hashed.append(len(data))
        return plain_sha(data, **kwargs)

    monkeypatch.setattr(Image, "open", image_open)
    monkeypatch.setattr(art.hashlib, "sha256", sha256)
    return opens, hashed


@pytest.mark.parametrize("kept", [False, True], ids=["one-off build", "keep_decoded"])
def test_a_pass_through_jpeg_is_opened_read_and_hashed_once(tmp_path: Path, opened, no_decoding, kept: bool):
    opens, hashed = opened
    data = photo(tmp_path / "face.jpg")
    library = ArtLibrary()
    if kept:
        keep_decoded()
    try:
        assert library.size(tmp_path / "face.jpg") == (420, 420)  # the header: the one time Pillow opens it
        image = library.load(tmp_path / "face.jpg", Rect(0, 0, 63, 63))  # 480 DPI: passed through
        again = library.load(tmp_path / "face.jpg", Rect(0, 0, 63, 63))
    finally:
        keep_decoded(0)
    assert opens == ["face.jpg"] and no_decoding == []
    assert hashed == [len(data)]  # named by its digest: the bytes hashed once, with keep_decoded too
    assert image.passthrough and again is image and (image.width, image.height, image.mode) == (420, 420, "RGB")
    assert isinstance(image.reader, EmbeddedJpeg) and image.reader.data == data
    assert image.reader.digest == hashlib.sha256(data).hexdigest()


def test_a_rotated_jpeg_is_opened_again_to_decode_it(tmp_path: Path, opened, no_decoding):
    opens, _ = opened
    path = tmp_path / "turned.jpg"
    im = Image.radial_gradient("L").resize((300, 200)).convert("RGB")
    exif = Image.Exif()
    exif[0x0112] = 6  # shown turned 90°: not passed through
    im.save(path, quality=90, exif=exif)
    library = ArtLibrary()
    assert library.size(path) == (200, 300)
    image = library.load(path)
    assert opens == ["turned.jpg", "turned.jpg"] and no_decoding == ["JPEG"]
    assert not image.passthrough and (image.width, image.height) == (200, 300)


def test_svg_art_support_loads_logging_only_for_an_svg():
    import subprocess
    import sys

    def loaded(code: str) -> list[str]:
        script = f"import sys; {code}; print(sorted({{'logging', 'svglib'}} & set(sys.modules)))"
        return eval(subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout)

    # Some Pillow releases (11.0) load logging themselves: the baseline is what tokengen's own
    # imports load, measured here, in this environment
    baseline = loaded("import tokengen.colour, reportlab.lib.colors")
    assert "svglib" not in baseline
    assert loaded("import tokengen.faces.svgart") == baseline  # svglib, and logging for it, wait for an SVG
    assert "svglib" in loaded("import svglib.svglib")  # the probe sees what it looks for
