"""Preflight of hostile PDFs is bounded (issue 10): each file is made here (pikepdf, sparse
files, FIFOs), small on disk, and refused with one line naming the limit and its ``--max-…``
flag, or read normally within the bounds. Each runs as its own process so its peak memory
(``ru_maxrss``) can be asserted; none may pass 300 MB.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

import pikepdf
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import CATALOGUE
from tests.outputs.test_build_fuzz import examples

TOKENGEN = [sys.executable, "-c", "from tokengen.cli import run; run()"]
PEAK_MB = 300


def run_measured(*args: str, timeout: float = 120) -> tuple[int, str, str, float]:
    """Exit code, stdout, stderr and peak RSS (MB) of ``tokengen ARGS`` in a child process.
    (The timeout only stops a hung run; nothing here depends on speed.)"""
    wrapper = ("import os,subprocess,sys\n"
               "p=subprocess.Popen(sys.argv[1:])\n"
               "_,status,ru=os.wait4(p.pid,0)\n"
               "sys.stderr.write(f'RSS_KB={ru.ru_maxrss}\\n')\n"
               "sys.exit(os.waitstatus_to_exitcode(status))\n")
    proc = subprocess.run([sys.executable, "-c", wrapper, *TOKENGEN, *args], capture_output=True, text=True, timeout=timeout)
    match = re.search(r"RSS_KB=(\d+)\n\Z", proc.stderr)
    assert match, proc.stderr
    return proc.returncode, proc.stdout, proc.stderr[: match.start()], int(match.group(1)) / 1024


def refused(path: Path, message: str, *extra: str) -> None:
    code, out, err, peak = run_measured("preflight", str(path), "--profile", "home", *extra)
    assert (code, err) == (2, f"tokengen: error: {path}: {message}\n"), out + err
    assert peak < PEAK_MB, f"{peak:.0f} MB"


def form(pdf: pikepdf.Pdf, content: bytes, **resources: object) -> pikepdf.Stream:
    return pdf.make_stream(content, Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form, BBox=[0, 0, 1, 1],
                           Resources=pikepdf.Dictionary(**resources))


PLACEMENTS = ("Form XObject and image placements (nested forms included): more than the limit of 500,000 "
              "(raise it with --max-placements)")


@pytest.mark.parametrize("depth", [20, 30])
def test_a_chain_of_forms_each_placing_the_next_twice(tmp_path: Path, depth: int):
    pdf = pikepdf.new()
    below = form(pdf, b"0 0 1 1 re f")
    for _ in range(depth):
        below = form(pdf, b"q /A Do Q q 1 0 0 1 1 0 cm /A Do Q", XObject=pikepdf.Dictionary(A=below))
    page = pdf.add_blank_page()
    page.obj.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(F=below))
    page.obj.Contents = pdf.make_stream(b"/F Do")
    path = tmp_path / f"chain{depth}.pdf"
    pdf.save(path, compress_streams=True, object_stream_mode=pikepdf.ObjectStreamMode.generate)
    assert path.stat().st_size < 8_000  # a few KB for billions of placements
    refused(path, PLACEMENTS)


def test_fifty_pages_each_placing_40100_forms(tmp_path: Path):
    pdf = pikepdf.new()
    square = form(pdf, b"0 0 1 1 re f")
    body = b"".join(b"q 1 0 0 1 %d %d cm /F Do Q\n" % (i % 600, i // 600) for i in range(40_100))
    for n in range(50):
        page = pdf.add_blank_page()
        page.obj.Contents = pdf.make_stream(body + b"%% page %d" % n)  # a stream of its own per page
        page.obj.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(F=square))
    path = tmp_path / "wide.pdf"
    pdf.save(path, compress_streams=True)
    refused(path, PLACEMENTS)
    # the same file is read in full, in flat memory, when the limit is raised (not run here: minutes)


def test_a_tounicode_range_over_every_code_is_not_expanded(tmp_path: Path):
    pdf = pikepdf.new()
    cmap = pdf.make_stream(b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap 1 begincodespacerange <00000000> <FFFFFFFF> "
                           b"endcodespacerange 1 beginbfrange <00000000> <FFFFFFFF> <0041> endbfrange endcmap end end")
    font = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica,
                                                ToUnicode=cmap))
    page = pdf.add_blank_page()
    page.obj.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font))
    page.obj.Contents = pdf.make_stream(b"BT /F1 12 Tf 72 72 Td (ABC) Tj ET")
    path = tmp_path / "cmap.pdf"
    pdf.save(path)
    assert path.stat().st_size < 1_000
    code, out, err, peak = run_measured("preflight", str(path), "--profile", "home")
    assert code == 1 and "FAIL  fonts        page 1: font /Helvetica is not embedded (on the page)" in out, out + err
    assert "safe-area    all 3 characters are at least 4.50pt inside the trim" in out
    assert peak < PEAK_MB


def test_a_2_gib_sparse_file_is_refused_before_reading(tmp_path: Path):
    path = tmp_path / "huge.pdf"
    with open(path, "wb") as f:
        f.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
        f.truncate(2 << 30)
    refused(path, "the file is 2,048 MiB, more than the limit of 1,024 MiB (raise it with --max-file-mb)")


def blank_pages(path: Path, count: int, claimed: int | None = None) -> Path:
    """A PDF of ``count`` empty pages, written directly (pikepdf takes long to add 100,000)."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Count %d /Kids [%s] >>" % (claimed or count, b" ".join(b"%d 0 R" % (3 + i) for i in range(count)))]
    objects += [b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 72 72] >>"] * count
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    path.write_bytes(bytes(out))
    return path


def test_100000_blank_pages_are_refused_by_the_page_count(tmp_path: Path):
    path = blank_pages(tmp_path / "blank.pdf", 100_000)
    refused(path, "the PDF has 100,000 pages, more than the limit of 5,000 (raise it with --max-pages)")


def test_a_page_tree_that_lies_about_its_count_is_stopped_at_the_limit(tmp_path: Path):
    path = blank_pages(tmp_path / "liar.pdf", 6_000, claimed=1)
    refused(path, "the PDF has more pages than its page count says, more than the limit of 5,000 (raise it with --max-pages)")


def bomb(path: Path, *, image: bool) -> Path:
    """A page whose content stream (or a 10 × 10 CMYK image on it) inflates to 100 MiB."""
    squeeze = zlib.compressobj(9)
    chunk = b" " * (1 << 20)
    data = b"".join(squeeze.compress(chunk) for _ in range(100)) + squeeze.flush()
    pdf = pikepdf.new()
    page = pdf.add_blank_page()
    if image:
        pixels = pikepdf.Stream(pdf, data)
        pixels.stream_dict = pikepdf.Dictionary(Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image, Width=10, Height=10,
                                                ColorSpace=pikepdf.Name.DeviceCMYK, BitsPerComponent=8, Filter=pikepdf.Name.FlateDecode)
        pixels.write(data, filter=pikepdf.Name.FlateDecode)
        page.obj.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im=pixels))
        page.obj.Contents = pdf.make_stream(b"q 72 0 0 72 100 100 cm /Im Do Q")
    else:
        contents = pdf.make_stream(b"")
        contents.write(data, filter=pikepdf.Name.FlateDecode)
        page.obj.Contents = contents
    pdf.save(path, compress_streams=False)
    return path


def test_a_content_stream_bomb_is_refused(tmp_path: Path):
    path = bomb(tmp_path / "bomb.pdf", image=False)
    assert path.stat().st_size < 1 << 20
    refused(path, "the content stream of page 1 decodes to more than the limit of 64 MiB (raise it with --max-stream-mb)")


def test_an_image_bomb_is_refused(tmp_path: Path):
    path = bomb(tmp_path / "image-bomb.pdf", image=True)
    code, out, err, peak = run_measured("preflight", str(path), "--profile", "print-shop")
    assert (code, err) == (2, f"tokengen: error: {path}: image /Im in page decodes to more than the limit of 64 MiB "
                                 "(raise it with --max-stream-mb)\n"), out + err
    assert peak < PEAK_MB


def test_the_stream_limit_can_be_raised(tmp_path: Path):
    path = bomb(tmp_path / "bomb.pdf", image=False)
    refused(path, "the streams up to the content stream of page 1 decode in total to more than the limit of 50 MiB "
                  "(raise it with --max-decoded-mb)", "--max-stream-mb", "200", "--max-decoded-mb", "50")


def test_forms_nested_past_the_depth_limit_are_refused(tmp_path: Path):
    pdf = pikepdf.new()
    below = form(pdf, b"0 0 1 1 re f")
    for _ in range(40):
        below = form(pdf, b"/A Do", XObject=pikepdf.Dictionary(A=below))
    page = pdf.add_blank_page()
    page.obj.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(F=below))
    page.obj.Contents = pdf.make_stream(b"/F Do")
    path = tmp_path / "deep.pdf"
    pdf.save(path)
    refused(path, "Form XObjects nested more than 32 deep (a fixed limit: no printed file needs more)")


def test_characters_multiplied_by_nested_forms_are_bounded(tmp_path: Path):
    """2,000 letters in a form placed 600 times by another: 1.2 million character boxes."""
    pdf = pikepdf.new()
    font = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica))
    text = form(pdf, b"BT /F1 1 Tf (" + b"A" * 2000 + b") Tj ET", Font=pikepdf.Dictionary(F1=font))
    many = form(pdf, b"".join(b"q 1 0 0 1 0 %d cm /T Do Q " % i for i in range(600)), XObject=pikepdf.Dictionary(T=text))
    page = pdf.add_blank_page()
    page.obj.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(M=many))
    page.obj.Contents = pdf.make_stream(b"/M Do")
    path = tmp_path / "letters.pdf"
    pdf.save(path)
    refused(path, "more than 400,000 characters drawn by form /M and the forms it places (a fixed limit)")


def test_fifos_and_devices_are_refused_by_type(tmp_path: Path, run):
    fifo = tmp_path / "in.pdf"
    os.mkfifo(fifo)
    result = run("preflight", str(fifo))  # would block forever if it were opened
    assert (result.exit_code, result.stderr) == (2, f"tokengen: error: {fifo}: is a FIFO or pipe, not a regular file "
                                                    "(save it to a file and give that)\n")
    result = run("preflight", "/dev/zero")
    assert (result.exit_code, result.stderr) == (2, "tokengen: error: /dev/zero: is a character device, not a regular file "
                                                    "(save it to a file and give that)\n")


def test_qpdf_repairs_never_reach_stderr(tmp_path: Path):
    """A file with a broken cross-reference table: qpdf repairs it (and would log each repair);
    preflight says nothing but its report."""
    from tokengen.geometry.imposition import SheetSpec
    from tokengen.outputs.build import BuildOptions, build_pdf
    from tokengen.sources.catalogue import load_catalogue

    good = tmp_path / "good.pdf"
    build_pdf(load_catalogue(CATALOGUE), BuildOptions(sheet=SheetSpec(page=(612, 792), size=72.0)), good)
    data = good.read_bytes()
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(re.sub(rb"startxref\s+\d+", b"startxref\n999", data).replace(b"xref\n0 ", b"xrex\n0 "))
    with pikepdf.open(broken) as damaged:  # qpdf does repair it, with warnings
        assert len(damaged.pages) == 1 and "file is damaged" in " ".join(damaged.get_warnings())
    code, out, err, _ = run_measured("preflight", str(broken), "--profile", "home")
    assert code == 0 and err == "", out + err
    assert "13 of 13 checks passed" in out


# -- generated damage ----------------------------------------------------------------------------------
_SMALL: dict[str, bytes] = {}


def _small_pdf() -> bytes:
    """Our single-pages export of the real catalogue, made once per test session."""
    if "pdf" not in _SMALL:
        from tokengen.outputs.export import export
        from tokengen.sources.catalogue import load_catalogue
        from tokengen.sources.profiles import get_profile

        with tempfile.TemporaryDirectory() as tmp:
            _SMALL["pdf"] = export(load_catalogue(CATALOGUE), get_profile("single-pages"), Path(tmp))[0].read_bytes()
    return _SMALL["pdf"]


@given(st.lists(st.tuples(st.floats(0, 1), st.binary(min_size=1, max_size=8)), min_size=1, max_size=6), st.booleans())
@examples(25)
def test_damaged_pdfs_give_a_verdict_or_one_line(edits: list[tuple[float, bytes]], truncate: bool):
    """Bytes of a real export overwritten (or cut short) at random places: preflight reports
    checks (exit 0 or 1) or refuses in one line (exit 2); never an internal error (70)."""
    from click.testing import CliRunner

    from tokengen.cli import main

    data = bytearray(_small_pdf())
    for where, junk in edits:
        at = int(where * (len(data) - 1))
        data[at:at + len(junk)] = junk
    if truncate:
        data = data[: int(edits[0][0] * len(data))]
    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / "x.pdf"
        pdf.write_bytes(bytes(data))
        with CliRunner().isolation() as (out, err, _):
            code = main(["preflight", str(pdf), "--profile", "single-pages"])
            stderr = err.getvalue().decode()
    assert code in (0, 1, 2), stderr
    assert stderr.count("\n") <= 1 and "Traceback" not in stderr, stderr
