"""Backs and duplex: every back lands behind its face, measured from the produced PDFs.

The flip is modelled here from first principles, not with tokengen's own functions: a sheet
turned over an edge parallel to the y axis maps x → W - x; over an edge parallel to the x axis,
y → H - y. Long-edge flip on a portrait page turns over a vertical edge; on a landscape page,
over a horizontal one (short-edge flip the other way round).
"""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader

from tokengen.errors import UsageError
from tokengen.faces.pagesetup import parse_offset, parse_scale
from tokengen.outputs.aligntest import mirror_point
from tokengen.outputs.backs import backs_path
from tokengen.units import PT_PER_MM

FACE_BG = (0.937255, 0.894118, 0.784314)  # token_defs.yaml style.background #efe4c8
BACK_BG = (0.231373, 0.164706, 0.12549)  # token_defs.yaml back.background #3b2a20
TOL = 0.01  # pt


def cells(page, colour: tuple[float, ...], size: float = 72.0) -> list[tuple[float, float]]:
    """Centres (pt, PDF coordinates) of the token background squares of ``colour``, in drawing order."""
    found = []
    for r in page.rects:
        fill = r["non_stroking_color"]
        if (r["fill"] and isinstance(fill, tuple) and len(fill) == len(colour)
                and all(abs(a - b) < 1e-3 for a, b in zip(fill, colour))
                and abs(r["x1"] - r["x0"] - size) < 0.5 and abs(r["y1"] - r["y0"] - size) < 0.5):
            found.append(((r["x0"] + r["x1"]) / 2, (r["y0"] + r["y1"]) / 2))
    return found


def turned_over(point: tuple[float, float], page: tuple[float, float], flip: str) -> tuple[float, float]:
    """Where a point of the back page lies on the front after turning the sheet over ``flip``."""
    (x, y), (w, h) = point, page
    vertical_axis = (flip == "long") == (h >= w)  # the sheet turns over a vertical edge
    return (w - x, y) if vertical_axis else (x, h - y)


def assert_same_points(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> None:
    assert len(a) == len(b) > 0
    for p, q in zip(sorted(a), sorted(b)):
        assert abs(p[0] - q[0]) <= TOL and abs(p[1] - q[1]) <= TOL, (p, q)


def build(run, catalogue_path: Path, out: Path, *args: str) -> None:
    result = run("build", str(catalogue_path), "-o", str(out), *args)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""


@pytest.mark.parametrize("landscape", [False, True], ids=["portrait", "landscape"])
@pytest.mark.parametrize("flip", ["long", "short"])
def test_every_back_lands_behind_its_face(run, tmp_path: Path, catalogue_path: Path, flip: str, landscape: bool):
    out = tmp_path / "duplex.pdf"
    # --columns 4 leaves the last row short, so a wrong mirror cannot hide behind symmetry
    build(run, catalogue_path, out, "--backs", "--flip", flip, "--columns", "4", *(["--landscape"] if landscape else []))
    with pdfplumber.open(out) as pdf:
        assert len(pdf.pages) == 2
        face, back = pdf.pages
        size = (float(face.width), float(face.height))
        faces, backs = cells(face, FACE_BG), cells(back, BACK_BG)
    assert len(faces) == len(backs) == 18
    assert_same_points([turned_over(p, size, flip) for p in backs], faces)
    # and the layout really is mirrored: the short last row is on the other side
    assert sorted(backs) != sorted(faces)


@pytest.mark.parametrize("flip", ["long", "short"])
def test_offset_moves_every_back_cell_by_exactly_the_offset(run, tmp_path: Path, catalogue_path: Path, flip: str):
    plain, shifted = tmp_path / "plain.pdf", tmp_path / "shifted.pdf"
    build(run, catalogue_path, plain, "--backs", "--flip", flip)
    build(run, catalogue_path, shifted, "--backs", "--flip", flip, "--back-offset", "1.5mm,-0.75mm")
    with pdfplumber.open(plain) as a, pdfplumber.open(shifted) as b:
        before, after = cells(a.pages[1], BACK_BG), cells(b.pages[1], BACK_BG)
        faces_a, faces_b = cells(a.pages[0], FACE_BG), cells(b.pages[0], FACE_BG)
    dx, dy = 1.5 * PT_PER_MM, -0.75 * PT_PER_MM
    assert len(before) == len(after) == 18
    for (x0, y0), (x1, y1) in zip(before, after):
        assert abs(x1 - x0 - dx) <= TOL and abs(y1 - y0 - dy) <= TOL
    assert faces_a == faces_b  # faces do not move


def test_separate_backs_file_matches_duplex_back_sheet(run, tmp_path: Path, catalogue_path: Path):
    duplex, separate = tmp_path / "duplex.pdf", tmp_path / "sep.pdf"
    build(run, catalogue_path, duplex, "--backs", "--columns", "4")
    result = run("build", str(catalogue_path), "-o", str(separate), "--backs", "separate", "--columns", "4")
    assert result.exit_code == 0, result.stderr
    assert f"wrote {tmp_path / 'sep-backs.pdf'}: 1 back page\n" in result.stdout
    assert "18 tokens (1 set) on 1 page: 1 face page, 1 back page in sep-backs.pdf\n" in result.stdout
    with pdfplumber.open(duplex) as d, pdfplumber.open(separate) as s, pdfplumber.open(backs_path(separate)) as b:
        assert (len(d.pages), len(s.pages), len(b.pages)) == (2, 1, 1)
        assert cells(b.pages[0], BACK_BG) == cells(d.pages[1], BACK_BG)
        assert cells(s.pages[0], FACE_BG) == cells(d.pages[0], FACE_BG)


def test_back_form_is_drawn_once(run, tmp_path: Path, catalogue_path: Path):
    out = tmp_path / "duplex.pdf"
    build(run, catalogue_path, out, "--backs")
    reader = PdfReader(out)
    xobjects = reader.pages[1]["/Resources"]["/XObject"]
    backs = [name for name in xobjects if "back" in name.lower()]
    assert len(backs) == 1
    content = reader.pages[1].get_contents().get_data().decode("latin-1")
    assert content.count(f"{backs[0]} Do") == 18


def test_printer_scale_scales_about_the_centre_and_is_stated(run, tmp_path: Path, catalogue_path: Path):
    plain, scaled = tmp_path / "plain.pdf", tmp_path / "scaled.pdf"
    build(run, catalogue_path, plain, "--backs")
    build(run, catalogue_path, scaled, "--backs", "--printer-scale", "100.4%,99.7%")
    assert "printer-scale=100.4%,99.7%" in PdfReader(scaled).metadata["/Keywords"]
    assert "printer-scale" not in PdfReader(plain).metadata.get("/Keywords", "")
    sx, sy = 1.004, 0.997
    with pdfplumber.open(plain) as a, pdfplumber.open(scaled) as b:
        w, h = float(a.pages[0].width), float(a.pages[0].height)
        for number, colour in ((0, FACE_BG), (1, BACK_BG)):
            before = cells(a.pages[number], colour)
            after = cells(b.pages[number], colour, size=72.0)
            assert len(after) == 18
            for (x0, y0), (x1, y1) in zip(before, after):
                assert abs(x1 - (w / 2 + sx * (x0 - w / 2))) <= TOL
                assert abs(y1 - (h / 2 + sy * (y0 - h / 2))) <= TOL


@pytest.mark.parametrize("flip", ["long", "short"])
def test_alignment_test_marks_land_on_each_other(run, tmp_path: Path, flip: str):
    out = tmp_path / "align.pdf"
    result = run("align", "-o", str(out), "--flip", flip, "--back-offset", "1mm,-2mm")
    assert result.exit_code == 0, result.stderr

    def crosshairs(page) -> list[tuple[float, float]]:
        """Centres of the 60 pt horizontal crosshair arms."""
        return [((l["x0"] + l["x1"]) / 2, l["y0"]) for l in page.lines
                if abs(l["x1"] - l["x0"] - 60) < 0.01 and abs(l["y1"] - l["y0"]) < 0.01]

    with pdfplumber.open(out) as pdf:
        assert len(pdf.pages) == 2
        size = (float(pdf.pages[0].width), float(pdf.pages[0].height))
        front, back = crosshairs(pdf.pages[0]), crosshairs(pdf.pages[1])
    assert len(front) == len(back) == 5
    dx, dy = 1 * PT_PER_MM, -2 * PT_PER_MM
    unshifted = [(x - dx, y - dy) for x, y in back]
    assert_same_points([turned_over(p, size, flip) for p in unshifted], front)


def test_mirror_point_matches_first_principles():
    for page in ((612.0, 792.0), (792.0, 612.0)):
        for flip in ("long", "short"):
            p = (100.0, 200.0)
            assert turned_over(mirror_point(p, page, flip), page, flip) == p


@pytest.mark.parametrize(("text", "expected"), [
    ("1mm,-2mm", (PT_PER_MM, -2 * PT_PER_MM)),
    ("0,0.01in", (0.0, 0.72)),
    ("+3pt, -0.5pt", (3.0, -0.5)),
])
def test_parse_offset(text: str, expected: tuple[float, float]):
    assert parse_offset(text) == pytest.approx(expected)


@pytest.mark.parametrize(("text", "message"), [
    ("1mm", "expected X,Y"),
    ("1,2", "a length needs a unit"),
    ("2in,0", "more than 1in"),
])
def test_parse_offset_errors(text: str, message: str):
    with pytest.raises(UsageError, match=message):
        parse_offset(text)


@pytest.mark.parametrize(("text", "expected"), [
    ("100.4%,99.7%", (1.004, 0.997)),
    ("100.2%", (1.002, 1.002)),
    ("0.998", (0.998, 0.998)),
])
def test_parse_scale(text: str, expected: tuple[float, float]):
    assert parse_scale(text) == pytest.approx(expected)


@pytest.mark.parametrize("args", [
    ("--printer-scale", "150%"),
    ("--printer-scale", "abc"),
    ("--backs", "--back-offset", "3mm"),
    ("--flip", "short"),
])
def test_bad_backs_options_are_one_line_errors(run, tmp_path: Path, catalogue_path: Path, args: tuple[str, ...]):
    out = tmp_path / "x.pdf"
    result = run("build", str(catalogue_path), "-o", str(out), *args)
    assert result.exit_code == 2
    assert result.stderr.startswith("tokengen: error: ") and result.stderr.count("\n") == 1
    assert not out.exists()


@pytest.mark.parametrize("page", [(612.0, 792.0), (792.0, 612.0)], ids=["portrait", "landscape"])
@pytest.mark.parametrize("flip", ["long", "short"])
def test_alignment_readings_give_the_offset_that_cancels_the_error(page: tuple[float, float], flip: str):
    """Simulate a printer that puts the back (ex, ey) pt off, read both sides, apply the reading."""
    from tokengen.outputs.aligntest import scale_signs

    error = (2.5, -1.25)
    target = (150.0, 300.0)  # a front target
    back_target = mirror_point(target, page, flip)
    printed_back = (back_target[0] + error[0], back_target[1] + error[1])
    # read on the back: where the front crosshair (exactly at back_target) sits on the shifted scale
    sx, sy = scale_signs(page, flip, front=False)
    back_reading = (sx * (back_target[0] - printed_back[0]), sy * (back_target[1] - printed_back[1]))
    # read on the front: where the shifted back crosshair shows through, relative to the front scale
    seen = turned_over(printed_back, page, flip)
    fx, fy = scale_signs(page, flip, front=True)
    front_reading = (fx * (seen[0] - target[0]), fy * (seen[1] - target[1]))
    assert back_reading == pytest.approx(front_reading)
    # printing again with that offset puts the back exactly behind the target
    corrected = mirror_point(target, page, flip, back_reading)
    assert turned_over((corrected[0] + error[0], corrected[1] + error[1]), page, flip) == pytest.approx(target)


@pytest.mark.parametrize("flip", ["long", "short"])
def test_back_caption_never_covers_a_back(run, tmp_path: Path, catalogue_path: Path, flip: str):
    out = tmp_path / "full.pdf"
    build(run, catalogue_path, out, "--backs", "--flip", flip, "--copies", "3")  # full pages: blocks reach the margins
    with pdfplumber.open(out) as pdf:
        for back in pdf.pages[1::2]:
            squares = [(x - 36, y - 36, x + 36, y + 36) for x, y in cells(back, BACK_BG)]
            caption = [ch for ch in back.chars if ch["size"] < 7]
            assert caption, "each back sheet carries its caption"
            for ch in caption:
                for x0, y0, x1, y1 in squares:
                    assert ch["x1"] <= x0 or ch["x0"] >= x1 or ch["y1"] <= y0 or ch["y0"] >= y1
