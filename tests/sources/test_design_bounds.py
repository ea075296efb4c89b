"""Catalogue bounds checked before the work they bound (issue 24): a template at its limits
(10,000 designs × 200 elements, face and back) ran past 150 s and is now refused by the product,
naming the limit; a 100,001-value ``variants`` list is refused by its length before jsonschema
builds a validator per value. Each file is written by the test; each run is a child process
whose time and peak memory are asserted."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import CATALOGUE
from tokengen.errors import CatalogueError
from tokengen.sources.catalogue import load_catalogue

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


def measured(path: Path) -> tuple[str, float, float]:
    """(the load's one line, seconds, peak MB) of loading ``path`` in a fresh interpreter."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", MEASURE.format(path=str(path))], capture_output=True, text=True, timeout=120)
    seconds = time.perf_counter() - start
    assert done.returncode == 0 and done.stderr == "", done.stderr
    out, peak = done.stdout.splitlines()
    return out, seconds, float(peak) / 1024


def designs(tmp_path: Path, count: int, elements: int) -> Path:
    element = '  - {text: "{name}", at: [0.5, 0.5], size: 0.1}\n'
    text = ("title: Many\nfields: {name: text}\ntemplate:\n" + element * elements + "back:\n" + element * elements
            + "tokens:\n" + "".join(f"  - {{id: t{i}, name: N{i}}}\n" for i in range(count)))
    path = tmp_path / "many.yaml"
    path.write_text(text)
    return path


def test_designs_times_elements_is_refused_at_once(tmp_path: Path):
    path = designs(tmp_path, 10_000, 200)
    out, seconds, peak = measured(path)
    assert out == (f"{path}:405: tokens: 10,000 token designs × 400 template elements (face and back) are 4,000,000, "
                   "more than the 100,000 one catalogue draws (a fixed limit): use fewer elements, or split the tokens "
                   "into two catalogues")
    assert peak < 300, peak


def test_a_catalogue_under_the_product_loads(tmp_path: Path):
    assert len(load_catalogue(designs(tmp_path, 500, 100)).tokens) == 500  # 500 × 200 = 100,000: at the limit
    with pytest.raises(CatalogueError, match=r"501 token designs × 200 template elements \(face and back\) are 100,200,"):
        load_catalogue(designs(tmp_path, 501, 100))


def test_a_huge_variants_list_is_refused_by_its_length(tmp_path: Path):
    text = CATALOGUE.read_text()
    assert "variants: [solo-start]\n" in text
    text = text.replace("variants: [solo-start]\n", "") + "variants:\n" + "".join(f"  - v{i}\n" for i in range(100_001))
    path = tmp_path / "variants.yaml"
    path.write_text(text)
    line = text.splitlines().index("variants:") + 1
    out, seconds, peak = measured(path)
    assert out == f"{path}:{line}: variants: has more than 64 entries"
    assert peak < 300, peak
