"""Fuzzing the art files a catalogue names (issue 10), alongside the catalogue fuzzing of
``test_outputs_build_fuzz.py`` and under the same settings (``make fuzz`` runs many more).

Generated files: valid PNG and JPEG images in every mode Pillow writes (with and without an
EXIF orientation), the same truncated or with bytes flipped, PNGs whose header claims a huge
image over a few bytes of data, and random bytes behind a PNG or JPEG signature. For each:
``tokengen build`` exits 0 with a PDF or 2 with one line naming the catalogue or the art file;
never a traceback, an internal error or a temporary file left behind.
"""

from __future__ import annotations

import io
import random
import struct
import tempfile
import zlib
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from hypothesis import example, given
from hypothesis import strategies as st
from PIL import Image

from tests.outputs.test_build_fuzz import _Wrapper, examples
from tokengen.cli import main

MINIMAL_TEXT = (Path(__file__).resolve().parents[1] / "data" / "good" / "minimal.yaml").read_text("utf-8")
MODES = ["RGB", "RGBA", "L", "LA", "P", "CMYK", "1", "I;16"]  # every mode Pillow writes as PNG or JPEG
JPEG_MODES = {"RGB", "L", "CMYK"}


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def claimed_png(width: int, height: int, depth: int, colour: int, data: bytes) -> bytes:
    """A PNG whose IHDR says ``width`` × ``height`` (CRCs right) over ``data`` deflated."""
    header = struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(data)) + _chunk(b"IEND", b"")


@st.composite
def art_files(draw: Any) -> bytes:
    kind = draw(st.sampled_from(["valid", "truncated", "flipped", "claims", "signature"]))
    if kind == "claims":
        return claimed_png(draw(st.integers(1, 2**31 - 1)), draw(st.integers(1, 2**31 - 1)),
                           draw(st.sampled_from([1, 8, 16])), draw(st.sampled_from([0, 2, 6])),
                           draw(st.binary(max_size=64)))
    if kind == "signature":
        return draw(st.sampled_from([b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff\xe0"])) + draw(st.binary(max_size=200))
    mode = draw(st.sampled_from(MODES))
    size = (draw(st.integers(1, 40)), draw(st.integers(1, 40)))
    rng = random.Random(draw(st.integers(0, 2**32)))
    noise = Image.frombytes("RGBA", size, rng.randbytes(size[0] * size[1] * 4))  # deterministic for hypothesis
    image = noise.convert(mode)
    fmt = "JPEG" if mode == "CMYK" or (mode in JPEG_MODES and draw(st.booleans())) else "PNG"
    buffer = io.BytesIO()
    extra: dict[str, Any] = {}
    if draw(st.booleans()):
        exif = Image.Exif()
        exif[0x0112] = draw(st.integers(0, 9))  # Orientation, including values that are not one
        extra["exif"] = exif.tobytes()
    image.save(buffer, format=fmt, **extra)
    raw = buffer.getvalue()
    if kind == "truncated":
        return raw[: draw(st.integers(0, len(raw) - 1))]
    if kind == "flipped":
        data = bytearray(raw)
        for _ in range(draw(st.integers(1, 8))):
            data[draw(st.integers(0, len(data) - 1))] ^= draw(st.integers(1, 255))
        return bytes(data)
    return raw


def build_with_art(art: bytes, *options: str) -> tuple[int, str, Path, Path, bool]:
    """Run ``tokengen build`` in-process on a catalogue whose faces and back draw ``art``.

    Returns:
        (exit code, stderr, catalogue path, art path, whether a PDF was written).
    """
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "art.png").write_bytes(art)
        cat = folder / "cat.yaml"
        cat.write_text(MINIMAL_TEXT.replace("title: T", "title: T\nstyle: {art: art.png}\nback: {art: art.png}"), "utf-8")
        out = folder / "out.pdf"
        code: dict[str, int] = {}
        result = CliRunner().invoke(_Wrapper(lambda: code.setdefault("c", main(["build", str(cat), "-o", str(out), *options]))),
                                    [], catch_exceptions=False)
        leftovers = sorted(p.name for p in folder.iterdir() if p.name not in ("cat.yaml", "out.pdf", "art.png"))
        assert leftovers == [], leftovers
        return code["c"], result.stderr, cat, folder / "art.png", out.exists()


@examples(80)
@given(art_files(), st.sampled_from([(), ("--scale", "2")]))
@example(claimed_png(100_000, 100_000, 8, 2, b"\x00" * 64), ())  # a bomb by its header
@example(claimed_png(1, 1, 8, 2, b"\x00\x00\x00\x00"), ())  # a valid 1 x 1 image
@example(b"\x89PNG\r\n\x1a\n", ())
def test_generated_art_builds_or_fails_in_one_line(art: bytes, options: tuple[str, ...]):
    code, stderr, cat, path, written = build_with_art(art, *options)
    assert code in (0, 2), (code, stderr)
    if code == 0:
        assert written
        return
    assert not written
    assert stderr.startswith((f"tokengen: error: {cat}", f"tokengen: error: {path}")), stderr
    assert stderr.endswith("\n") and stderr.count("\n") == 1, stderr
