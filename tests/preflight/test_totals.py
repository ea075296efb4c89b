"""Preflight totals (issue 24): pages may share one content stream, so per-page limits did not
bound the file. 20 pages × 399,000 characters (a 5 KB file) took 49 s, 19 pages sharing a
1,000,000-operator stream (11 KB) 96 s, 24 pages of 41,000 form placements 19.5 s. A shared
stream is now parsed once (its operators counted once), and the characters checked and the
placements walked are counted across the whole file. Each file is written here with pikepdf;
each run is a child process whose time and peak memory are asserted."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pikepdf
import pytest
from pikepdf import Dictionary, Name

from tests.preflight.test_limits import TOKENGEN, run_measured

WRAPPER = ("import os,subprocess,sys\n"
           "p=subprocess.Popen(sys.argv[1:])\n"
           "_,status,ru=os.wait4(p.pid,0)\n"
           "sys.stderr.write(f'RSS_KB={ru.ru_maxrss} CPU={ru.ru_utime + ru.ru_stime}\\n')\n"
           "sys.exit(os.waitstatus_to_exitcode(status))\n")


def run_timed(*args: str) -> tuple[int, str, str, float, float]:
    """Exit code, stdout, stderr, peak RSS (MB) and CPU seconds (user + system: the work done,
    whatever else the machine runs) of ``tokengen ARGS`` in a child process."""
    proc = subprocess.run([sys.executable, "-c", WRAPPER, *TOKENGEN, *args], capture_output=True, text=True, timeout=300)
    match = re.search(r"RSS_KB=(\d+) CPU=([\d.]+)\n\Z", proc.stderr)
    assert match, proc.stderr
    return proc.returncode, proc.stdout, proc.stderr[: match.start()], int(match.group(1)) / 1024, float(match.group(2))


def shared(path: Path, pages: int, content: bytes, resources: str = "") -> Path:
    """``pages`` pages whose /Contents is one and the same stream."""
    pdf = pikepdf.new()
    stream = pdf.make_stream(content)
    if resources == "font":
        res = Dictionary(Font=Dictionary(F1=Dictionary(Type=Name.Font, Subtype=Name.Type1, BaseFont=Name.Helvetica)))
    elif resources == "form":
        square = pdf.make_stream(b"0 0 10 10 re f", Type=Name.XObject, Subtype=Name.Form, BBox=[0, 0, 10, 10])
        res = Dictionary(XObject=Dictionary(X=square))
    else:
        res = Dictionary()
    for _ in range(pages):
        pdf.pages.append(pikepdf.Page(Dictionary(Type=Name.Page, MediaBox=[0, 0, 612, 792], Contents=stream, Resources=res)))
    pdf.save(path, compress_streams=True)
    return path


CHARS = ("characters checked in the file (on every page that shows them): more than the limit of 2,000,000 "
         "(raise it with --max-chars)")
PLACEMENTS = ("Form XObject and image placements (nested forms included): more than the limit of 500,000 "
              "(raise it with --max-placements)")


@pytest.mark.parametrize("name, pages, content, resources, code, message", [
    ("chars", 20, b"BT /F1 1 Tf 10 10 Td (" + b"a" * 399_000 + b") Tj ET", "font", 2, CHARS),
    ("forms", 24, b"q 1 0 0 1 5 5 cm /X Do Q\n" * 41_000, "form", 2, PLACEMENTS),
    ("operators", 19, b"0 0 m\n" * 1_000_000, "", 0, None),  # read once: a verdict, not a refusal
], ids=["chars", "forms", "operators"])  # short ids: pytest puts the id in PYTEST_CURRENT_TEST, which the child inherits
def test_pages_sharing_one_stream_are_bounded(tmp_path: Path, name: str, pages: int, content: bytes, resources: str,
                                              code: int, message: str | None):
    path = shared(tmp_path / f"{name}.pdf", pages, content, resources)
    assert path.stat().st_size < 12_000
    got, out, err, peak, seconds = run_timed("preflight", str(path), "--profile", "home")
    if message is None:
        assert (got, err) == (code, ""), out + err
        assert f"PASS  pages        {pages} pages" in out and out.endswith(f"{path}: 13 of 13 checks passed (profile home)\n")
    else:
        assert (got, err) == (code, f"tokengen: error: {path}: {message}\n"), out + err
    assert peak < 300, peak


def test_a_shared_stream_is_parsed_once(tmp_path: Path):
    from tokengen.preflight.pdfwalk import Budget, Limits, Walker

    path = shared(tmp_path / "ops.pdf", 7, b"0 0 m\n" * 1_000)
    with pikepdf.open(path) as pdf:
        walker = Walker(pdf, Budget(Limits()), 300)
        summaries = [walker.page(page, n, None) for n, page in enumerate(pdf.pages, 1)]
        assert walker.budget.operators == 1_000
        assert all(s is summaries[0] for s in summaries)


def test_the_totals_can_be_raised(tmp_path: Path):
    path = shared(tmp_path / "chars.pdf", 3, b"BT /F1 1 Tf 10 10 Td (" + b"a" * 1_000 + b") Tj ET", "font")
    code, out, err, _ = run_measured("preflight", str(path), "--profile", "home", "--max-chars", "2500")
    assert err == f"tokengen: error: {path}: " + CHARS.replace("2,000,000", "2,500") + "\n"
    code, out, err, _ = run_measured("preflight", str(path), "--profile", "home", "--max-chars", "3000")
    assert code == 1 and "PASS  pages        3 pages" in out
    assert "page 3: font /Helvetica is not embedded (on the page)" in out  # a shared stream's findings on every page
