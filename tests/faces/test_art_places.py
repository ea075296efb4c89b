"""A picture that cannot be used is named as every other input error is: the catalogue (or its
spreadsheet) file, line and field that name it, the picture relative to the catalogue's folder
(art.md), with the option hint kept; art warnings name pictures the same way. Every file is made
here: a PNG *header* claiming 10000 × 7000 pixels (no pixel data), YAML and CSV text."""

from __future__ import annotations

import struct
import textwrap
import zlib
from pathlib import Path

import pytest

HUGE = ("image of 10000 × 7000 pixels exceeds the limit of 50000000 pixels for one picture; --max-art-pixels "
        "350000000 lets it through (one picture may hold a fifth of it), or save it smaller")


def png_header(path: Path, width: int, height: int) -> Path:
    """A PNG whose header claims ``width`` × ``height`` pixels, with one empty data chunk."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    path.parent.mkdir(parents=True, exist_ok=True)
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"")) + chunk(b"IEND", b""))
    return path


def photo(folder: Path, tokens: str, template: str = '  - {image: "{art}", box: [0, 0, 1, 1]}') -> None:
    png_header(folder / "photo" / "art" / "huge.png", 10_000, 7_000)
    (folder / "photo" / "cat.yaml").write_text(textwrap.dedent("""\
        title: Photo
        size: 1in
        fields:
          name: text
          art: {type: image, optional: true}
        template:
          - {rect: fill, fill: "#ffffff", bleed: true}
        """) + template + "\ntokens:" + tokens, "utf-8")


@pytest.mark.parametrize("command", [["build", "photo/cat.yaml", "-o", "x.pdf"],
                                     ["export", "photo/cat.yaml", "--profile", "print-shop", "-o", "shop"]])
def test_a_huge_picture_is_named_at_the_catalogue_line_and_field(run, tmp_path: Path, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    photo(tmp_path, "\n  - {name: a, art: art/huge.png}\n")
    result = run(*command)
    assert (result.exit_code, result.stderr) == (2, f"tokengen: error: photo/cat.yaml:10: tokens[0].art: art/huge.png: {HUGE}\n")


def test_a_huge_picture_of_a_spreadsheet_is_named_at_its_row_and_column(run, tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    photo(tmp_path, " tokens.csv\n")
    (tmp_path / "photo" / "tokens.csv").write_text("name,art\na,\nb,art/huge.png\n", "utf-8")
    result = run("build", "photo/cat.yaml", "-o", "x.pdf")
    assert (result.exit_code, result.stderr) == (2, f"tokengen: error: photo/tokens.csv:3: art (column B): art/huge.png: {HUGE}\n")


def test_a_huge_template_picture_is_named_at_its_element(run, tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    photo(tmp_path, "\n  - {name: a}\n", template="  - {image: art/huge.png, box: [0, 0, 1, 1]}")
    result = run("build", "photo/cat.yaml", "-o", "x.pdf")
    assert (result.exit_code, result.stderr) == (2, f"tokengen: error: photo/cat.yaml:8: template[1].image: art/huge.png: {HUGE}\n")


def test_svg_warnings_name_the_picture_relative_to_the_catalogue(run, tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    photo(tmp_path, "\n  - {name: a, art: art/odd.svg}\n")
    (tmp_path / "photo" / "art" / "odd.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="5" height="5" fill="notacolour"/></svg>', "utf-8")
    result = run("build", "photo/cat.yaml", "-o", "x.pdf")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ('tokengen: warning: art/odd.svg: SVG: drawn as a 300 DPI picture: fill="notacolour" on <rect> '
                             "at line 1\n")
