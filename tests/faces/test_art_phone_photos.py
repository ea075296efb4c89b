"""Phone photos refused for a wrong reason no more: an MPO (a JPEG with a second picture
appended) prints its first frame; a 50 MP photo is told which --max-art-pixels lets it through,
an option build, export and batch all take; 100 photos on 2.5 in tokens fit the default."""

from __future__ import annotations

from pathlib import Path

import pikepdf
import pytest
from PIL import Image

from tests.conftest import CATALOGUE, catalogue_with_art
from tokengen.faces.art import MAX_PIXELS, picture_limit
from tokengen.limits import MAX_ART_PIXELS


def _mpo(path: Path) -> Path:
    first = Image.new("RGB", (400, 400), (220, 20, 20))  # the photo: red
    second = Image.new("RGB", (400, 400), (20, 20, 220))  # the appended depth map or preview: blue
    first.save(path, "MPO", save_all=True, append_images=[second])
    with Image.open(path) as im:
        assert im.format == "MPO" and im.n_frames == 2
    return path


def _images(pdf: Path) -> list[Image.Image]:
    """Every image XObject of the PDF, decoded."""
    found = []
    with pikepdf.open(pdf) as doc:
        for obj in doc.objects:
            if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image":
                found.append(pikepdf.PdfImage(obj).as_pil_image())
    return found


def test_an_mpo_from_a_phone_prints_its_first_frame(run, tmp_path: Path):
    _mpo(tmp_path / "photo.jpg")
    cat = catalogue_with_art(CATALOGUE, {"str-low": "photo.jpg"}, tmp_path / "cat.yaml")
    out = tmp_path / "sheet.pdf"
    result = run("build", str(cat), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    [picture] = _images(out)
    r, g, b = picture.convert("RGB").getpixel((200, 200))
    assert r > 200 and g < 40 and b < 40  # the first frame, not the appended blue one


def _photo(path: Path, size: tuple[int, int]) -> Path:
    Image.new("L", size, 128).save(path, "JPEG", quality=50)  # grey: small to write, decoded at 1/4 (draft)
    return path


def test_a_50_mp_photo_is_told_the_option_that_lets_it_through(run, tmp_path: Path):
    _photo(tmp_path / "phone.jpg", (8192, 6144))  # 50,331,648 px: just over one picture's 50 Mpx
    cat = catalogue_with_art(CATALOGUE, {"str-low": "phone.jpg"}, tmp_path / "cat.yaml")
    result = run("build", str(cat), "-o", str(tmp_path / "a.pdf"))
    assert result.exit_code == 2
    assert result.stderr == (f"tokengen: error: {cat}:101: tokens[15].style.art: phone.jpg: image of 8192 × 6144 pixels exceeds the limit of "
                             "50000000 pixels for one picture; --max-art-pixels 251658240 lets it through (one picture may "
                             "hold a fifth of it), or save it smaller\n")
    assert "decompression bomb" not in result.stderr
    for command in (["build", str(cat), "-o", str(tmp_path / "b.pdf")],
                    ["export", str(cat), "--profile", "print-shop", "-o", str(tmp_path / "shop")],
                    ["batch", str(cat), "-o", str(tmp_path / "batch"), "-j", "1"]):
        result = run(*command, "--max-art-pixels", "251658240")
        assert result.exit_code == 0, (command, result.stderr)
    assert (tmp_path / "shop" / "meatshields-print-shop.pdf").is_file()
    assert (tmp_path / "batch" / "meatshields_1in_letter.pdf").is_file()


def test_the_export_refuses_the_art_pixels_it_is_given(run, tmp_path: Path):
    _photo(tmp_path / "small.jpg", (1000, 1000))
    cat = catalogue_with_art(CATALOGUE, {"str-low": "small.jpg"}, tmp_path / "cat.yaml")
    result = run("export", str(cat), "--profile", "print-shop", "-o", str(tmp_path / "shop"), "--max-art-pixels", "1000")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"tokengen: error: {cat}:101: tokens[15].style.art: small.jpg: the art of this build holds ")
    assert result.stderr.endswith(" pixels as embedded, more than the limit of 1000 (raise it with --max-art-pixels)\n")


def test_a_batch_job_takes_max_art_pixels(run, tmp_path: Path):
    _photo(tmp_path / "small.jpg", (1000, 1000))
    catalogue_with_art(CATALOGUE, {"str-low": "small.jpg"}, tmp_path / "cat.yaml")
    (tmp_path / "jobs.yaml").write_text("jobs:\n  - {catalogue: cat.yaml, max_art_pixels: 1000}\n", "utf-8")
    result = run("batch", str(tmp_path / "jobs.yaml"), "-o", str(tmp_path / "out"), "-j", "1")
    assert result.exit_code == 2
    assert "more than the limit of 1000 (raise it with --max-art-pixels)" in result.stdout


def test_one_picture_may_hold_a_fifth_of_the_art_pixels():
    assert MAX_PIXELS == 50_000_000 == picture_limit(MAX_ART_PIXELS)
    assert picture_limit(1000) == MAX_PIXELS  # lowering the build's limit never lowers one picture's
    assert picture_limit(500_000_000) == 100_000_000
    # issue 27: 100 distinct 1500 × 1500 photos on 2.5 in tokens (600 DPI, embedded as they are) fit the default
    assert 100 * 1500 * 1500 <= MAX_ART_PIXELS


@pytest.mark.parametrize("name", ["art\\x.png", "art\\sub\\x.png"])
def test_a_backslash_path_gets_a_hint_about_slashes(run, tmp_path: Path, name: str):
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "x.png").write_bytes(b"")
    cat = catalogue_with_art(CATALOGUE, {"str-low": name}, tmp_path / "cat.yaml")  # a plain YAML scalar keeps its backslashes
    result = run("build", str(cat), "-o", str(tmp_path / "a.pdf"))
    assert result.exit_code == 2
    assert result.stderr == (f"tokengen: error: {cat}:101: tokens[15].style.art: art file '{name}' not found; "
                             f"write paths with / ({name.replace(chr(92), '/')}), as on every system\n")

