"""A build's memory is flat in its token count (issue 27): no list per token, and each finished
page kept small until the save (:mod:`tokengen.faces.pagestream`).

Measured in a child process with ``tracemalloc`` (bytes Python allocated: the same on every
machine, unlike resident memory), for builds of N and 4 N Meatshields tokens, from the first
page drawn to the file written: the save's peak counts.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import json, sys, tracemalloc
from pathlib import Path
from tokengen.cli import main
from tokengen.io import progress

def first_page(label, done, total):  # from the first page drawn on: loading fonts and modules peaks alike for any N
    if label == "pages" and done == 1:
        tracemalloc.reset_peak()

copies, out = sys.argv[1], sys.argv[2]
tracemalloc.start()
try:
    with progress.listening(first_page):
        main(["build", "token_defs.yaml", "--copies", copies, "--size", "0.5in", "--columns", "0", "-o", out, "--max-tokens", "2000000",
              "--max-pages", "30000"])
except SystemExit as exc:
    if exc.code:
        raise
print(json.dumps({"peak": tracemalloc.get_traced_memory()[1], "bytes": Path(out).stat().st_size}))
"""


def _peak(copies: int, out: Path) -> dict[str, int]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", CHILD, str(copies), str(out)], cwd=ROOT, env=env, capture_output=True,
                          text=True, check=True)
    result: dict[str, int] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_peak_memory_grows_with_the_file_not_with_the_tokens(tmp_path: Path) -> None:
    # 18 tokens a set, 300 a page (0.5 in): 5,400 tokens on 18 pages, then 21,600 on 72
    small, large = _peak(300, tmp_path / "small.pdf"), _peak(1200, tmp_path / "large.pdf")
    pages = 72 - 18
    grown = large["peak"] - small["peak"]
    written = large["bytes"] - small["bytes"]  # the file is held as pieces until it is written
    per_page = (grown - written) / pages
    print(f"peak {small['peak']} → {large['peak']} B; file {small['bytes']} → {large['bytes']} B; {per_page:.0f} B a page beyond the file")
    # what ReportLab keeps of a finished page (its dictionary, its compressed stream's object,
    # its references) is about as much as the save no longer holds twice (measured: -0.3 KB);
    # one list of the tokens costs 8 B a token (2.4 KB a page of 300: measured 2 KB), and a
    # page kept as ReportLab leaves it about 10 KB more (the three lists and such pages: 25 KB)
    assert per_page < 1536
