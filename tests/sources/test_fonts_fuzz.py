"""Generated catalogue fonts (hypothesis, issue 24), alongside the catalogue, art and workbook
fuzzing and under the same settings (``make fuzz`` runs many more).

The bundled DejaVu Sans, cut down with fontTools to the glyphs of a few words (so each example
is quick), is edited: its cmap replaced by random ranges (format 4 or 12, mapping to any glyph,
some past the last glyph, one range perhaps widened to U+7FFFFFFF in place), a table left out,
the glyph count in ``maxp`` changed, bytes of one table flipped or zeroed, a table's length in
the directory changed, or the file cut short. For each: ``tokengen build`` of a catalogue
setting its text in that font exits 0 with a PDF or 2 with one line naming the catalogue (at
its ``fonts`` field) or the font; never a traceback or an internal error, each example in
well under 10 s.
"""

from __future__ import annotations

import io
import struct
import tempfile
import time
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fontTools import subset
from fontTools.ttLib import TTFont
from fontTools.ttLib.tables._c_m_a_p import CmapSubtable
from hypothesis import example, given
from hypothesis import strategies as st

from tests.outputs.test_build_fuzz import _Wrapper, examples
from tokengen.cli import main
from tokengen.sources.fonts import font_dir

TEXT = "Alpha Beta 0123 ↓↑"
#: Where generated cmap ranges start: Basic Latin, the arrows, the end of the BMP, the last plane.
STARTS = [0x20, 0x41, 0x2190, 0xFFF0, 0x10FFF0]


@cache
def small_font() -> bytes:
    """DejaVu Sans cut down to the glyphs of :data:`TEXT` (a few KB)."""
    font = TTFont(font_dir() / "DejaVuSans.ttf")
    options = subset.Options()
    options.layout_features = []
    options.name_IDs = ["*"]
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=TEXT)
    subsetter.subset(font)
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def _tables(data: bytes) -> dict[bytes, tuple[int, int, int]]:
    """tag → (directory entry offset, table offset, table length) of a TrueType file."""
    count = struct.unpack_from(">H", data, 4)[0]
    out = {}
    for i in range(count):
        tag, _, offset, length = struct.unpack_from(">4sLLL", data, 12 + 16 * i)
        out[tag] = (12 + 16 * i, offset, length)
    return out


@st.composite
def fonts(draw: Any) -> bytes:
    kind = draw(st.sampled_from(["plain", "cmap", "cmap", "cmap", "drop", "maxp", "flip", "length", "cut"]))
    base = small_font()
    if kind in ("cmap", "drop"):
        font = TTFont(io.BytesIO(base))
        if kind == "drop":
            del font[draw(st.sampled_from(sorted(font.keys())))]
        else:
            order = font.getGlyphOrder()
            mapping: dict[int, str] = {}
            for _ in range(draw(st.integers(0, 4))):
                start = draw(st.sampled_from(STARTS)) + draw(st.integers(0, 15))
                for code in range(start, min(start + draw(st.integers(1, 400)), 0x110000)):
                    mapping[code] = order[draw(st.integers(0, len(order) - 1))]
            fmt = draw(st.sampled_from([4, 12])) if max(mapping, default=0) <= 0xFFFF else 12
            table = CmapSubtable.newSubtable(fmt)
            table.platformID, table.platEncID, table.language = (3, 10 if fmt == 12 else 1, 0)
            table.cmap = mapping
            font["cmap"].tables = [table]
        out = io.BytesIO()
        try:
            font.save(out)
        except Exception:  # fontTools cannot write every font left without a table; start from the plain one
            return base
        data = bytearray(out.getvalue())
        if kind == "cmap" and draw(st.booleans()):
            _, offset, _ = _tables(bytes(data))[b"cmap"]
            sub = offset + struct.unpack_from(">HHL", data, offset + 4)[2]
            if struct.unpack_from(">H", data, sub)[0] == 12 and struct.unpack_from(">L", data, sub + 12)[0]:
                # a group widened (its end) or pointed past the last glyph (its first glyph id), in place
                field = draw(st.sampled_from([20, 24]))
                struct.pack_into(">L", data, sub + field, draw(st.sampled_from([0x10FFFF, 0x7FFFFFFF, 0xFFFFFFFF, 70_000, 65_535])))
        return bytes(data)
    data = bytearray(base)
    tables = _tables(base)
    tag = draw(st.sampled_from(sorted(tables)))
    entry, offset, length = tables[tag]
    if kind == "maxp":
        struct.pack_into(">H", data, tables[b"maxp"][1] + 4, draw(st.sampled_from([0, 1, 2, 65_535])))
    elif kind == "flip" and length:
        for _ in range(draw(st.integers(1, 8))):
            at = offset + draw(st.integers(0, length - 1))
            data[at] = 0 if draw(st.booleans()) else data[at] ^ draw(st.integers(1, 255))
    elif kind == "length":
        struct.pack_into(">L", data, entry + 12, draw(st.sampled_from([0, 1, length // 2, length + 4, 2**31])))
    elif kind == "cut":
        return bytes(data[: draw(st.integers(0, len(data) - 1))])
    return bytes(data)


CATALOGUE = """\
title: Fonts
fonts: {title: f.ttf}
fields: {name: text}
template:
  - {text: "{name}", font: title, at: [0.5, 0.5], size: 0.2}
tokens:
  - {id: a, name: "Alpha Beta"}
  - {id: b, name: "0123 ↓↑"}
"""


def build_with_font(font: bytes) -> tuple[int, str, Path, Path, bool, float]:
    """Run ``tokengen build`` in-process on a catalogue whose text is set in ``font``.

    Returns:
        (exit code, stderr, catalogue path, font path, whether a PDF was written, seconds).
    """
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "f.ttf").write_bytes(font)
        cat = folder / "cat.yaml"
        cat.write_text(CATALOGUE, "utf-8")
        out = folder / "out.pdf"
        code: dict[str, int] = {}
        start = time.perf_counter()
        result = CliRunner().invoke(_Wrapper(lambda: code.setdefault("c", main(["build", str(cat), "-o", str(out)]))),
                                    [], catch_exceptions=False)
        seconds = time.perf_counter() - start
        leftovers = sorted(p.name for p in folder.iterdir() if p.name not in ("cat.yaml", "out.pdf", "f.ttf"))
        assert leftovers == [], leftovers
        return code["c"], result.stderr, cat, folder / "f.ttf", out.exists(), seconds


@examples(40)
@given(fonts())
@example(b"")
@example(b"\x00\x01\x00\x00")
def test_generated_fonts_build_or_fail_in_one_line(font: bytes):
    code, stderr, cat, path, written, seconds = build_with_font(font)
    assert code in (0, 2), (code, stderr)
    if code == 0:
        assert written
        return
    assert not written
    assert stderr.startswith((f"tokengen: error: {cat}", f"tokengen: error: {path}")), stderr
    assert stderr.endswith("\n") and stderr.count("\n") == 1, stderr


def test_the_small_font_builds():
    code, stderr, _, _, written, _ = build_with_font(small_font())
    assert (code, stderr, written) == (0, "", True)


def test_a_font_named_like_a_loaded_one_draws_in_its_own_glyphs(tmp_path: Path):
    # found by the fuzzing above: ReportLab keeps one font per PostScript name, so the cut-down
    # DejaVu Sans (no 'Z') was checked and drawn as the bundled DejaVu Sans, loaded first
    (tmp_path / "f.ttf").write_bytes(small_font())
    cat = tmp_path / "cat.yaml"
    cat.write_text(CATALOGUE.replace('name: "Alpha Beta"', 'name: "Zeta"'), "utf-8")
    result = CliRunner().invoke(_Wrapper(lambda: main(["build", str(cat), "-o", str(tmp_path / "out.pdf")])), [], catch_exceptions=False)
    assert result.stderr == f"tokengen: error: {cat}:7: tokens[0].name: the font 'title' has no glyph for 'Z' (U+005A)\n"
    assert not (tmp_path / "out.pdf").exists()


@pytest.mark.parametrize("glyphs", [0, 1, 2])
def test_a_font_counting_fewer_glyphs_than_it_maps_draws_none_past_the_count(glyphs: int):
    # found by the fuzzing above: maxp's glyph count of 0 let the font load and pass the glyph
    # check, and ReportLab's subsetter then raised IndexError while the PDF was written (exit 70)
    data = bytearray(small_font())
    struct.pack_into(">H", data, _tables(bytes(data))[b"maxp"][1] + 4, glyphs)
    code, stderr, cat, _, written, _ = build_with_font(bytes(data))
    assert (code, written) == (2, False), stderr
    assert stderr.startswith(f"tokengen: error: {cat}:7: tokens[0].name: the font 'title' has no glyph for 'A' (U+0041)"), stderr
