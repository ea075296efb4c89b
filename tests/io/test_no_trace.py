"""A failed command leaves no trace: ``export`` (every kind of profile) and ``batch`` whose run
fails after they made their output folder remove the folders they made (and only those, and
only when empty). The failure is a picture over the one-picture limit, refused while drawing:
a PNG *header* claiming 10000 × 7000 pixels, written here with the catalogue."""

from __future__ import annotations

import struct
import textwrap
import zlib
from pathlib import Path

import pytest


def broken_catalogue(folder: Path) -> Path:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", 10_000, 7_000, 8, 2, 0, 0, 0)
    (folder / "huge.png").write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"")) + chunk(b"IEND", b""))
    path = folder / "bad.yaml"
    path.write_text(textwrap.dedent("""\
        title: Bad
        size: 1in
        fields: {name: text, art: image}
        template:
          - {rect: fill, fill: "#ffffff", bleed: true}
          - {image: "{art}", box: [0, 0, 1, 1]}
        tokens:
          - {name: a, art: huge.png}
        """), "utf-8")
    return path


@pytest.mark.parametrize("args", [["export", "bad.yaml", "--profile", "print-shop", "-o", "out/h"],
                                  ["export", "bad.yaml", "--profile", "tgc-chits", "-o", "out/h"],
                                  ["export", "bad.yaml", "--profile", "tts", "-o", "out/h"],
                                  ["batch", "bad.yaml", "-o", "out/h", "-j", "1"]])
def test_a_failed_run_leaves_no_folder_it_made(run, tmp_path: Path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    broken_catalogue(tmp_path)
    result = run(*args)
    assert result.exit_code == 2, result.stderr
    assert "bad.yaml:8: tokens[0].art: huge.png: image of 10000 × 7000 pixels exceeds the limit" in result.stdout + result.stderr
    assert not (tmp_path / "out").exists()
    (tmp_path / "out").mkdir()  # a folder that was there before stays
    (tmp_path / "out" / "keep.txt").write_text("x", "utf-8")
    assert run(*args).exit_code == 2
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["keep.txt"]
