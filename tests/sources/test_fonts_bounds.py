"""A catalogue font whose cmap maps a huge range (issue 24): the bundled DejaVu Sans with its
format-12 group widened to U+0020–U+7FFFFFFF (same size, edited in the test) took 21–25 s and
2.45 GB in ReportLab's dict of code points, then exit 2 with an empty reason. It is refused from
the cmap's ranges, before ReportLab reads it, in one line naming the file, the limit and the flag."""

from __future__ import annotations

import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from tokengen.errors import CatalogueError
from tokengen.limits import MAX_FONT_CODE_POINTS
from tokengen.sources.catalogue import load_catalogue
from tokengen.sources.fonts import cmap_code_points, font_dir

CATALOGUE = """\
title: Wide font
fonts: {title: big.ttf}
fields: {name: text}
template:
  - {text: "{name}", font: title, at: [0.5, 0.5], size: 0.2}
tokens:
  - {id: a, name: Alpha}
"""


def widened(out: Path, last: int) -> Path:
    """DejaVu Sans with the first group of each format-12 cmap subtable ending at ``last``: the
    table found with fontTools, the one field rewritten in place (the file keeps its size)."""
    source = font_dir() / "DejaVuSans.ttf"
    with TTFont(source, lazy=True) as font:
        base = font.reader.tables["cmap"].offset
    data = bytearray(source.read_bytes())
    for i in range(struct.unpack_from(">H", data, base + 2)[0]):
        offset = base + struct.unpack_from(">HHL", data, base + 4 + 8 * i)[2]
        if struct.unpack_from(">H", data, offset)[0] == 12:
            struct.pack_into(">L", data, offset + 20, last)  # format, pad, length, language, count, then start, END
    out.write_bytes(bytes(data))
    assert out.stat().st_size == source.stat().st_size
    return out


def catalogue(tmp_path: Path, last: int) -> Path:
    widened(tmp_path / "big.ttf", last)
    path = tmp_path / "wide.yaml"
    path.write_text(CATALOGUE)
    return path


def test_the_counted_code_points():
    plain = cmap_code_points((font_dir() / "DejaVuSans.ttf").read_bytes())
    assert 5_000 < plain < MAX_FONT_CODE_POINTS


def test_widened_range_is_counted_not_walked(tmp_path: Path):
    data = widened(tmp_path / "big.ttf", 0x7FFFFFFF).read_bytes()
    start = time.perf_counter()
    assert cmap_code_points(data) > 0x7FFFFFFF - 0x20
    assert time.perf_counter() - start < 5  # a walk of 2^31 code points takes minutes


def test_damaged_directory_is_one_line(tmp_path: Path):
    data = bytearray((font_dir() / "DejaVuSans.ttf").read_bytes())
    struct.pack_into(">L", data, 12 + 8, 10**9)  # the first table's offset, far past the end
    with pytest.raises(ValueError, match=r"^damaged font: table '.*' ends past the end of the file \(1,000"):
        cmap_code_points(bytes(data))


MEASURE = """
import resource, sys
from tokengen.sources.catalogue import load_catalogue
from tokengen.errors import CatalogueError
try:
    load_catalogue({path!r})
    print("loaded")
except CatalogueError as exc:
    print(exc)
status = open("/proc/self/status").read() if sys.platform == "linux" else ""  # VmHWM: this program's peak
print(next((line.split()[1] for line in status.splitlines() if line.startswith("VmHWM:")),
           resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))
"""


def test_huge_cmap_is_refused_quickly_and_small(tmp_path: Path):
    path = catalogue(tmp_path, 0x7FFFFFFF)
    done = subprocess.run([sys.executable, "-c", MEASURE.format(path=str(path))], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    out, peak = done.stdout.splitlines()
    mapped = cmap_code_points((tmp_path / "big.ttf").read_bytes())
    assert out == (f"{path}:2: fonts.title: font file 'big.ttf': its cmap maps {mapped:,} code points, more than the "
                   "200,000 read of one font (raise it with --max-font-code-points N)")
    assert float(peak) / 1024 < 300, peak


def test_the_flag_raises_the_limit(tmp_path: Path, run):
    path = catalogue(tmp_path, 0x1FFFF)  # 131,040 code points in the group: under the default
    assert load_catalogue(path).tokens
    with pytest.raises(CatalogueError, match="more than the 100,000 read of one font"):
        load_catalogue(path, max_font_code_points=100_000)
    mapped = cmap_code_points((tmp_path / "big.ttf").read_bytes())
    refused = run("build", str(path), "-o", str(tmp_path / "x.pdf"), "--max-font-code-points", "100000")
    assert (refused.exit_code, refused.stderr) == (2, f"tokengen: error: {path}:2: fonts.title: font file 'big.ttf': its cmap maps "
                                                 f"{mapped:,} code points, more than the 100,000 read of one font "
                                                 "(raise it with --max-font-code-points N)\n")
    assert run("build", str(path), "-o", str(tmp_path / "x.pdf"), "--max-font-code-points", "200000").exit_code == 0
    assert run("export", str(path), "--profile", "home", "-o", str(tmp_path / "e"), "--max-font-code-points", "100000").exit_code == 2
