"""Rescaling: each scaled PDF is measured (cells, face text, strokes, the calibration bar)."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest

from tokengen import load_catalogue
from tokengen.errors import UsageError
from tokengen.faces.render import CUT_STROKE
from tokengen.faces.scale import MIN_LEGIBLE_PT, legible, token_size
from tokengen.units import parse_length

BACKGROUND = (0.937255, 0.894118, 0.784314)  # the catalogue's face background, #efe4c8


def measure(pdf_path: Path) -> dict:
    """Cells (face background rectangles), the calibration bar, cut-line widths, char sizes."""
    with pdfplumber.open(pdf_path) as pdf:
        page = pdf.pages[0]
        faces = [r for r in page.rects if r["fill"] and tuple(r["non_stroking_color"]) == BACKGROUND
                 and abs(r["width"] - r["height"]) < 0.01 and r["width"] > 9]  # not the home-bleed strips
        bars = [r for r in page.rects if r["stroke"] and not r["fill"] and abs(r["height"] - 5) < 1e-6]
        # cut lines reach above the calibration strip (whose ruler ticks stay below y = 40 pt)
        cuts = {round(line["linewidth"], 4) for line in page.lines if line["top"] < page.height - 40}
        chars = [c["size"] for c in page.chars if c["bottom"] < page.height - 60]  # not the ruler text
        return {"faces": faces, "bars": bars, "cuts": cuts, "chars": chars, "page": (page.width, page.height)}


def pitches(faces: list[dict]) -> set[float]:
    xs = sorted({round(f["x0"], 4) for f in faces})
    return {b - a for a, b in zip(xs, xs[1:])}


@pytest.mark.parametrize("size", ["0.5in", "0.75in", "25mm", "1in", "1.25in", "2in"])
def test_cell_is_the_size(run, tmp_path: Path, catalogue_path: Path, size: str):
    out = tmp_path / "s.pdf"
    result = run("build", str(catalogue_path), "--size", size, "-o", str(out))
    assert result.exit_code == 0, result.stderr
    want = parse_length(size)
    m = measure(out)
    assert m["faces"], "no face backgrounds found"
    for face in m["faces"]:
        assert face["width"] == pytest.approx(want, abs=0.01)
        assert face["height"] == pytest.approx(want, abs=0.01)
    for pitch in pitches(m["faces"]):  # gutter 0: neighbours share an edge
        assert pitch == pytest.approx(want, abs=0.01)
    assert len(m["bars"]) == 1 and m["bars"][0]["width"] == pytest.approx(72.0, abs=0.01)
    assert m["cuts"] == {CUT_STROKE}


def test_scale_factor(run, tmp_path: Path, catalogue_path: Path):
    out = tmp_path / "s.pdf"
    result = run("build", str(catalogue_path), "--scale", "1.3", "--page", "a4", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    m = measure(out)
    for face in m["faces"]:
        assert face["width"] == pytest.approx(72 * 1.3, abs=0.01)
    assert m["bars"][0]["width"] == pytest.approx(72.0, abs=0.01)


def test_face_text_scales_with_the_token(run, tmp_path: Path, catalogue_path: Path):
    sizes = {}
    for size in ("1in", "2in"):
        out = tmp_path / f"{size}.pdf"
        assert run("build", str(catalogue_path), "--size", size, "-o", str(out)).exit_code == 0
        sizes[size] = sorted(set(round(s, 3) for s in measure(out)["chars"]))
    assert [2 * s for s in sizes["1in"]] == pytest.approx(sizes["2in"], abs=0.01)


def test_size_and_scale_are_exclusive(run, tmp_path: Path, catalogue_path: Path):
    result = run("build", str(catalogue_path), "--size", "1in", "--scale", "2", "-o", str(tmp_path / "x.pdf"))
    assert result.exit_code == 2
    assert result.stderr == "tokengen: error: tokengen build: --size and --scale are exclusive: give one or the other (see 'tokengen build --help')\n"
    assert not (tmp_path / "x.pdf").exists()


def test_too_big_names_the_largest_that_fits(run, tmp_path: Path, catalogue_path: Path):
    result = run("build", str(catalogue_path), "--size", "9in", "-o", str(tmp_path / "x.pdf"))
    assert result.exit_code == 2
    assert result.stderr == ("tokengen: error: a 9in token does not fit on a 8.5in × 11in page with a 0.25in margin; "
                             "the largest token that fits is 8in (203.2mm)\n")


@pytest.mark.parametrize("args, message", [
    (("--scale", "0"), "scale factor must be a positive number, got 0.0"),
    (("--size", "0"), "token size must be greater than zero, got 0in"),
])
def test_bad_sizes(run, tmp_path: Path, catalogue_path: Path, args, message):
    result = run("build", str(catalogue_path), *args, "-o", str(tmp_path / "x.pdf"))
    assert result.exit_code == 2
    assert result.stderr == f"tokengen: error: {message}\n"


def test_token_size():
    assert token_size(72.0) == 72.0
    assert token_size(72.0, size=54.0) == 54.0
    assert token_size(72.0, scale=1.25) == 90.0
    with pytest.raises(UsageError, match="exclusive"):
        token_size(72.0, size=54.0, scale=2.0)


def test_legible(catalogue_path: Path):
    cat = load_catalogue(catalogue_path)
    assert legible(cat) == []  # 1 in: the caption is 7.56 pt
    small = legible(cat, parse_length("0.5in"))
    assert {f.part for f in small} == {"caption"}
    assert len(small) == len(cat.tokens)
    assert all(f.pt < MIN_LEGIBLE_PT for f in small)
    assert str(small[0]) == "token agi-low: caption text is 3.69 pt, below 5 pt"


def test_placements_are_form_references(run, tmp_path: Path, catalogue_path: Path):
    """Each token is a face Form XObject placed on the page by a pure translation (no drawing of
    its own); following the moves gives the cell positions, 25 mm apart; the same input gives the
    same bytes."""
    import pypdf
    from pypdf.generic import ContentStream

    outs = [tmp_path / "a.pdf", tmp_path / "b.pdf"]
    for out in outs:
        assert run("build", str(catalogue_path), "--copies", "3", "--size", "25mm", "-o", str(out)).exit_code == 0
    assert outs[0].read_bytes() == outs[1].read_bytes()
    reader = pypdf.PdfReader(outs[0])
    placed = 0
    for page in reader.pages:
        xobjects = page["/Resources"]["/XObject"]
        x = y = 0.0
        xs = set()
        for operands, op in ContentStream(page.get_contents(), reader).operations:
            if op == b"cm":
                a, b, c, d, e, f = (float(v) for v in operands)
                if (a, b, c, d) == (1, 0, 0, 1):
                    x, y = x + e, y + f
            elif op == b"Do" and "face-" in operands[0]:
                form = xobjects[operands[0]].get_object()
                assert form["/Subtype"] == "/Form"
                placed += 1
                xs.add(round(x, 4))
            elif op == b"Q":
                x = y = 0.0
        xs = sorted(xs)
        assert all(b - a == pytest.approx(parse_length("25mm"), abs=0.01) for a, b in zip(xs, xs[1:]))
    assert placed == 54
