"""Hostile and damaged .xlsx files (issue 24): bounded before openpyxl parses them, each refused
in one line; and the batch pool under the ``spawn`` start method. Files are made by the test:
openpyxl writes a workbook, then one XML part is replaced through zipfile."""

from __future__ import annotations

import subprocess
import sys
import time
import zipfile
from pathlib import Path

import openpyxl
import pytest

from tokengen.errors import CatalogueError
from tokengen.sources.table import read_table


def workbook(tmp_path: Path, replace: dict[str, bytes] | None = None) -> Path:
    """A one-token workbook (id, name / a, x) with parts replaced by ``replace``."""
    book = openpyxl.Workbook()
    book.active.append(["id", "name"])
    book.active.append(["a", "x"])
    plain = tmp_path / "plain.xlsx"
    book.save(plain)
    path = tmp_path / "tokens.xlsx"
    with zipfile.ZipFile(plain) as source, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for info in source.infolist():
            out.writestr(info.filename, (replace or {}).get(info.filename, source.read(info)))
        for name, data in (replace or {}).items():
            if name not in source.namelist():
                out.writestr(name, data)
    return path


SHEET = "xl/worksheets/sheet1.xml"
NS = b'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'


def sheet(rows: bytes, before: bytes = b"") -> bytes:
    return b'<?xml version="1.0"?>' + before + b"<worksheet " + NS + b"><sheetData>" + rows + b"</sheetData></worksheet>"


ROWS = b'<row r="1"><c r="A1" t="inlineStr"><is><t>id</t></is></c></row><row r="2"><c r="A2" t="inlineStr"><is><t>a</t></is></c></row>'


def error(path: Path) -> str:
    with pytest.raises(CatalogueError) as info:
        read_table(path, ["id", "name"])
    return str(info.value)


def test_the_plain_workbook_reads(tmp_path: Path):
    assert [r.values for r in read_table(workbook(tmp_path))] == [{"id": "a", "name": "x"}]
    assert [r.values for r in read_table(workbook(tmp_path, {SHEET: sheet(ROWS)}))] == [{"id": "a"}]


def _measured(code: str) -> tuple[str, float, float]:
    """Run ``code`` in a fresh interpreter: (its output, seconds, peak MB of that process, in KiB/1024)."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    seconds = time.perf_counter() - start
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # no warning of openpyxl's
    out, peak = done.stdout.rsplit("\n", 2)[0], done.stdout.rsplit("\n", 2)[1]
    return out, seconds, float(peak) / 1024


READ = """
import resource, sys
from tokengen.sources.table import read_table
from tokengen.errors import CatalogueError
try:
    read_table(__import__("pathlib").Path(sys.argv[1] if len(sys.argv) > 1 else {path!r}))
    print("read")
except CatalogueError as exc:
    print(exc)
status = open("/proc/self/status").read() if sys.platform == "linux" else ""  # VmHWM: this program's peak, not its parent's
print(next((line.split()[1] for line in status.splitlines() if line.startswith("VmHWM:")),
           resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))
"""


@pytest.mark.parametrize("part, item, message", [
    (SHEET, b"", "part xl/worksheets/sheet1.xml unpacks to 30.0 MiB, more than the 24 MiB read of one part"),
    ("xl/sharedStrings.xml", b"<si><t>s</t></si>", "part xl/sharedStrings.xml unpacks to 56.7 MiB, more than the 24 MiB read of one part"),
    ("xl/sharedStrings.xml", b"<si/>", "its parts other than sheets hold more than 250,000 XML elements in all, "
                                       "counted as far as part xl/sharedStrings.xml (a fixed limit)"),
    ("xl/styles.xml", b'<xf numFmtId="0" fontId="0" fillId="0" borderId="0"/>',
     "part xl/styles.xml unpacks to 60.7 MiB, more than the 24 MiB read of one part"),
    ("xl/styles.xml", b"<xf/>", "part xl/styles.xml has more than 100,000 XML elements (a fixed limit)"),
])
def test_huge_parts_are_refused_quickly(tmp_path: Path, part: str, item: bytes, message: str):
    """A 30 MB comment in a one-token sheet, 3,500,000 shared strings, 1,200,000 cell formats:
    refused by the part's size (from the zip's directory) or, written compactly, by the count."""
    if part == SHEET:
        data = sheet(ROWS, b"<!--" + b"x" * (30 * 1024 * 1024 - 200) + b"-->")
        data += b" " * (30 * 1024 * 1024 - len(data))
    elif part.endswith("sharedStrings.xml"):
        data = b'<sst ' + NS + b'>' + item * 3_500_000 + b"</sst>"
    else:
        data = b"<styleSheet " + NS + b"><cellXfs>" + item * 1_200_000 + b"</cellXfs></styleSheet>"
    path = workbook(tmp_path, {part: data})
    assert path.stat().st_size < 8 * 1024 * 1024
    out, seconds, peak = _measured(READ.format(path=str(path)))
    assert out == f"{path}: {message}"
    assert peak < 300, peak
    print(f"{part} {len(data):,} bytes: {seconds:.2f} s, {peak:.0f} MB")


@pytest.mark.parametrize("replace, message", [
    ({SHEET: b"<worksheet><sheetData><row>"},
     ": not a readable .xlsx workbook (ParseError: no element found: line 1, column 27)"),
    ({SHEET: sheet(ROWS, b'<!DOCTYPE w [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>')},
     ": part xl/worksheets/sheet1.xml has a DTD (<!DOCTYPE or <!ENTITY), which spreadsheet programs never write"),
    ({SHEET: sheet(ROWS, b'<!DOCTYPE w [<!ENTITY e SYSTEM "file:///etc/passwd">]>')},
     ": part xl/worksheets/sheet1.xml has a DTD (<!DOCTYPE or <!ENTITY), which spreadsheet programs never write"),
    ({SHEET: sheet(b'<row r="1"><c r="A1" t="s"><v>99</v></c></row>')},  # named at its cell since the xlsx fuzzing (was an IndexError)
     ":1: column A: a shared-string cell refers to string 99, but the workbook has 0 (numbered from 0): a damaged file"),
    ({SHEET: sheet(b'<row r="1"><c r="A1"><v>x1</v></c></row>')},
     ":1: column A: a damaged cell (ValueError:"),
    ({"xl/styles.xml": b"<styleSheet"},
     ": not a readable .xlsx workbook ("),
])
def test_damaged_parts_are_one_line(tmp_path: Path, replace: dict[str, bytes], message: str):
    path = workbook(tmp_path, replace)
    out, _, _ = _measured(READ.format(path=str(path)))
    assert out.startswith(f"{path}{message}"), out
    assert "\n" not in out


def test_a_batch_runs_under_spawn(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, catalogue_path: Path):
    from tokengen.io import workers
    from tokengen.outputs.batch import Job, run_jobs

    monkeypatch.setattr(workers, "START_METHOD", "spawn")
    jobs = [Job(catalogue_path, tmp_path / "a.pdf"), Job(catalogue_path, tmp_path / "b.pdf", page="a4")]
    results = run_jobs(jobs, workers=2)
    assert [(r.ok, r.error) for r in results] == [(True, None), (True, None)]
    assert [r.tokens for r in results] == [results[0].tokens] * 2 and results[0].tokens > 0
    assert (tmp_path / "a.pdf").read_bytes()[:5] == b"%PDF-" and (tmp_path / "b.pdf").read_bytes()[:5] == b"%PDF-"
