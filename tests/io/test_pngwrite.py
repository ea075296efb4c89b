"""The small PNG writer (tokengen.io.pngwrite): Pillow decodes its files to the very pixels given,
padded rows included; every row is unfiltered; the chunks are IHDR, sRGB, gAMA, pHYs, IDAT,
IEND with valid CRCs; bad sizes are refused."""

from __future__ import annotations

import io
import random
import zlib

import pytest
from PIL import Image

from tokengen.io.pngwrite import encode_rgb, px_per_metre


def chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """(type, body) of each chunk of the PNG ``data``, each CRC checked."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, found = 8, []
    while at < len(data):
        length = int.from_bytes(data[at:at + 4], "big")
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
        assert int.from_bytes(data[at + 8 + length:at + 12 + length], "big") == zlib.crc32(kind + body)
        found.append((kind, body))
        at += 12 + length
    return found


def test_pillow_decodes_the_pixels_given_with_every_row_unfiltered():
    rng = random.Random(7)
    width, height = 37, 23
    pixels = bytes(rng.randrange(256) for _ in range(3 * width * height))
    data = encode_rgb(pixels, width, height, 300)
    with Image.open(io.BytesIO(data)) as im:
        assert (im.mode, im.size) == ("RGB", (width, height))
        assert im.tobytes() == pixels
        assert tuple(round(v) for v in im.info["dpi"]) == (300, 300)
        assert im.info["srgb"] == 0
        assert im.info["gamma"] == pytest.approx(0.45455)
    found = dict(chunks(data))
    rows = zlib.decompress(found[b"IDAT"])
    assert len(rows) == (1 + 3 * width) * height
    assert {rows[y * (1 + 3 * width)] for y in range(height)} == {0}


def test_padded_rows_are_read_in_place():
    width, height, stride = 5, 4, 20  # 15 bytes of pixels, 5 of padding a row
    padded = bytes((y * 40 + x) % 256 if x < 15 else 255 for y in range(height) for x in range(stride))
    data = encode_rgb(memoryview(padded), width, height, 72, stride=stride)
    with Image.open(io.BytesIO(data)) as im:
        assert im.tobytes() == b"".join(padded[y * stride:y * stride + 15] for y in range(height))


def test_chunks_in_pillows_order_with_the_dpi_in_px_per_metre():
    found = chunks(encode_rgb(bytes([10, 20, 30]) * 6, 3, 2, 150))
    assert [kind for kind, _ in found] == [b"IHDR", b"sRGB", b"gAMA", b"pHYs", b"IDAT", b"IEND"]
    body = dict(found)
    assert body[b"IHDR"] == (3).to_bytes(4, "big") + (2).to_bytes(4, "big") + bytes([8, 2, 0, 0, 0])
    assert body[b"sRGB"] == b"\x00"
    assert body[b"gAMA"] == (45455).to_bytes(4, "big")
    assert body[b"pHYs"] == (5906).to_bytes(4, "big") * 2 + b"\x01"  # 150 DPI = 5905.5 px per metre, rounded
    assert (px_per_metre(300), px_per_metre(150)) == (11811, 5906)


@pytest.mark.parametrize(("args", "stride", "message"), [
    ((b"", 0, 1), None, "a PNG needs at least 1 × 1 px, not 0 × 1"),
    ((b"\x00" * 12, 2, 2), 5, "a row of 2 RGB px needs 6 bytes; the stride is 5"),
    ((b"\x00" * 11, 2, 2), None, "2 × 2 RGB px need 12 bytes; there are 11"),
])
def test_bad_sizes_are_refused(args: tuple[bytes, int, int], stride: int | None, message: str):
    with pytest.raises(ValueError) as caught:
        encode_rgb(*args, 300, stride=stride)
    assert str(caught.value) == message
