"""Art decoding is bounded per image and in total (issue: hostile input, "Unbounded memory").

Inputs are made in each test, small on disk: a sparse PNG whose header claims a 10 × 10 image and
whose chunks claim 2 GiB; six distinct 49-megapixel 1-bit PNGs (under 1 MB each). Peak memory is
measured on a child process (``os.wait4``), never time.
"""

from __future__ import annotations

import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from tests.conftest import catalogue_with_art
from tokengen.errors import RenderError
from tokengen.faces.art import MAX_CHUNK, ArtLibrary

GIB = 1 << 30
IDS = ["str-low", "str-high", "agi-low", "agi-high", "con-low", "con-high"]


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def sparse_png(path: Path, kind: bytes) -> Path:
    """A 4 GiB sparse file: a 10 × 10 PNG header, then a ``kind`` chunk claiming 2 GiB."""
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", 10, 10, 8, 2, 0, 0, 0)))
        f.write(struct.pack(">I", 2**31 - 1) + kind)
        f.truncate(4 * GIB)
    return path


@pytest.mark.parametrize("kind, message", [
    (b"IDAT", "PNG image data of more than 1049196 bytes for a 10 × 10 image (a damaged or hostile file)"),
    (b"tEXt", f"PNG chunk 'tEXt' of 2147483647 bytes, more than the limit of {MAX_CHUNK}"),
    (b"iCCP", f"PNG chunk 'iCCP' of 2147483647 bytes, more than the limit of {MAX_CHUNK}"),
])
def test_png_chunks_claiming_gigabytes_are_refused_before_reading(tmp_path: Path, kind: bytes, message: str):
    path = sparse_png(tmp_path / "sparse.png", kind)
    try:
        with pytest.raises(RenderError) as caught:
            ArtLibrary().load(path)
        assert str(caught.value) == f"{path}: {message}"
    finally:
        path.unlink()


def _catalogue(folder: Path, catalogue_path: Path) -> Path:
    return catalogue_with_art(catalogue_path, {token: f"big{i}.png" for i, token in enumerate(IDS)}, folder / "cat.yaml")


def _six_big_pngs(folder: Path) -> None:
    for i in range(6):  # 7000 × 7000 = 49 Mpx each, distinct, under 1 MB on disk
        im = Image.new("1", (7000, 7000), 0)
        ImageDraw.Draw(im).rectangle((0, 0, 1000 * (i + 1), 3500), fill=1)
        im.save(folder / f"big{i}.png")


# A small Python process starts the command and reports its peak RSS: measured from the test
# process itself, a child would count the parent's memory at fork (Linux keeps it across exec).
WRAPPER = ("import os,subprocess,sys\n"
           "p=subprocess.Popen(sys.argv[1:])\n"
           "_,status,ru=os.wait4(p.pid,0)\n"
           "sys.stderr.write(f'RSS_KB={ru.ru_maxrss}\\n')\n"
           "sys.exit(os.waitstatus_to_exitcode(status))\n")


def _peak_mb(cmd: list[str]) -> tuple[int, float, str]:
    """(exit code, peak RSS in MB, stderr without the RSS line) of ``cmd``."""
    proc = subprocess.run([sys.executable, "-c", WRAPPER, *cmd], capture_output=True, text=True)
    stderr, _, rss = proc.stderr.rpartition("RSS_KB=")
    return proc.returncode, int(rss) / 1024, stderr


def test_six_49_megapixel_pngs_are_decoded_one_at_a_time(tmp_path: Path, catalogue_path: Path):
    _six_big_pngs(tmp_path)
    cat = _catalogue(tmp_path, catalogue_path)
    tokengen = Path(sys.executable).parent / "tokengen"
    code, peak, stderr = _peak_mb([str(tokengen), "build", str(cat), "-o", str(tmp_path / "out.pdf")])
    assert code == 0, stderr
    assert peak < 300, f"peak {peak:.0f} MB"
    assert stderr == "tokengen: warning: 6 pictures resampled to 600 DPI (big2.png, big3.png, …); --keep-resolution keeps them\n"


def test_art_past_the_total_is_refused_naming_the_limit_and_its_flag(tmp_path: Path, catalogue_path: Path):
    for i in range(6):
        Image.new("L", (400, 400), 40 * i).save(tmp_path / f"big{i}.png")
    cat = _catalogue(tmp_path, catalogue_path)
    tokengen = Path(sys.executable).parent / "tokengen"
    out = tmp_path / "kept.pdf"
    code, _, stderr = _peak_mb([str(tokengen), "build", str(cat), "-o", str(out), "--keep-resolution", "--max-art-pixels", "500000"])
    assert code == 2
    assert stderr.startswith("tokengen: error: ") and stderr.endswith(
        ": the art of this build holds 640000 pixels as embedded, more than the limit of 500000 (raise it with --max-art-pixels)\n")
    assert stderr.count("\n") == 1 and not out.exists()


def test_kept_resolution_art_past_the_total_is_refused_from_the_headers(tmp_path: Path, catalogue_path: Path):
    """Six 49 Mpx PNGs with --keep-resolution: 294,000,000 pixels at the sixth header, more than
    the 250,000,000 limit, refused before any is decoded (each decoded one took about 150 MB)."""
    _six_big_pngs(tmp_path)
    cat = _catalogue(tmp_path, catalogue_path)
    tokengen = Path(sys.executable).parent / "tokengen"
    out = tmp_path / "kept.pdf"
    code, peak, stderr = _peak_mb([str(tokengen), "build", str(cat), "-o", str(out), "--keep-resolution"])
    assert code == 2
    sixth = sorted(tmp_path.glob("big*.png"))[5]
    assert stderr == (f"tokengen: error: {cat}:90: tokens[4].style.art: {sixth.name}: the art of this build holds 294000000 pixels as embedded, more than the "
                      "limit of 250000000 (raise it with --max-art-pixels)\n")
    assert peak < 100, f"peak {peak:.0f} MB"  # no picture decoded
    assert not out.exists()
    code, peak, stderr = _peak_mb([str(tokengen), "export", str(cat), "--profile", "single-pages", "-o", str(tmp_path / "pages"),
                                   "--keep-resolution"])  # a page per token: export's own art library
    assert (code, stderr.splitlines()[-1]) == (2, f"tokengen: error: {cat}:90: tokens[4].style.art: {sixth.name}: the art of this build holds 294000000 pixels as "
                                                  "embedded, more than the limit of 250000000 (raise it with --max-art-pixels)")
    assert peak < 100, f"peak {peak:.0f} MB"
