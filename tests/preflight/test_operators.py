"""Preflight's operator budget (issue 24): 20,000,000 operators spread over distinct streams took
about 90 s, and an operator with 60 operands costs what 60 operators do. The budget now counts
operators (default 1,000,000) and their operands (twice as many) read in the whole file, every
stream once, shared or distinct: about 6 s of the slowest kind at worst. Files are made here with pikepdf; each
run is a child process whose CPU time is asserted."""

from __future__ import annotations

from pathlib import Path

import pikepdf
from pikepdf import Dictionary, Name

from tests.preflight.test_totals import run_timed

OPERATORS = ("content-stream operators read in the file (each stream once): more than the limit of 1,000,000 "
             "(raise it with --max-operators)")
OPERANDS = ("content-stream operands read in the file (each stream once): more than the limit of 2,000,000 "
            "(twice the operators; raise it with --max-operators)")


def pages(path: Path, *contents: bytes, shared: int = 0, shared_content: bytes = b"") -> Path:
    """A page per ``contents`` (each its own stream), then ``shared`` pages all showing one stream."""
    pdf = pikepdf.new()
    for n, content in enumerate(contents):
        pdf.add_blank_page().obj.Contents = pdf.make_stream(content + b"%% page %d" % n)
    stream = pdf.make_stream(shared_content)
    for _ in range(shared):
        pdf.pages.append(pikepdf.Page(Dictionary(Type=Name.Page, MediaBox=[0, 0, 612, 792], Contents=stream, Resources=Dictionary())))
    pdf.save(path, compress_streams=True)
    return path


def test_distinct_streams_are_summed_over_the_file(tmp_path: Path):
    path = pages(tmp_path / "distinct.pdf", *[b"0 0 m\n" * 51_000] * 20)  # 20 × 51,000: each far under, all over
    assert path.stat().st_size < 30_000
    code, out, err, _peak, seconds = run_timed("preflight", str(path), "--profile", "home")
    assert (code, err) == (2, f"tokengen: error: {path}: {OPERATORS}\n"), out + err


def test_a_shared_stream_counts_once_beside_distinct_ones(tmp_path: Path):
    shared = b"0 0 m\n" * 300_000  # 300,000 operators on 10 pages: counted once
    path = pages(tmp_path / "mixed.pdf", b"0 0 m\n" * 800_000, shared=10, shared_content=shared)  # + 800,000
    code, out, err, _peak, _seconds = run_timed("preflight", str(path), "--profile", "home")
    assert (code, err) == (2, f"tokengen: error: {path}: {OPERATORS}\n"), out + err
    path = pages(tmp_path / "mixed-less.pdf", b"0 0 m\n" * 600_000, shared=10, shared_content=shared)  # 300,000 + 600,000
    code, out, err, _peak, _seconds = run_timed("preflight", str(path), "--profile", "home")
    assert (code, err) == (0, ""), out + err
    assert "PASS  pages        11 pages" in out


def test_operands_are_bounded_too(tmp_path: Path):
    path = pages(tmp_path / "operands.pdf", *[(b" ".join([b"1"] * 60) + b" k\n") * 7_000] * 5)  # 35,000 operators, 2,100,000 operands
    code, out, err, _peak, seconds = run_timed("preflight", str(path), "--profile", "home")
    assert (code, err) == (2, f"tokengen: error: {path}: {OPERANDS}\n"), out + err


def test_operands_count_with_their_operator(tmp_path: Path):
    from tokengen.preflight.pdfwalk import Budget, Limits, Walker

    path = pages(tmp_path / "wide.pdf", b" ".join([b"1"] * 60) + b" k\n" + b"0 0 m\n" * 10)
    with pikepdf.open(path) as pdf:
        walker = Walker(pdf, Budget(Limits()), 300)
        walker.page(pdf.pages[0], 1, None)
        assert (walker.budget.operators, walker.budget.operands) == (11, 80)


def test_the_slowest_operators_at_the_default_are_read_in_full(tmp_path: Path):
    """``0 0 m f`` (a path filled: the slowest kind measured, about 3 µs an operator or operand,
    some 6 s at the default on this project's machines; not asserted here, since a test never
    depends on the machine's speed) on distinct streams, just under the default: read in full."""
    path = pages(tmp_path / "slow.pdf", *[b"0 0 m f\n" * 49_990] * 10)  # 999,800 operators and operands each
    code, out, err, _peak, _seconds = run_timed("preflight", str(path), "--profile", "home")
    assert (code, err) == (0, ""), out + err
