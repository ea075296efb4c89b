"""Fold-over sheets: every back lands behind its face once the sheet is folded on its fold line
(measured from the PDF's text positions, within 0.1 pt), the fold line is dashed, no cut line
crosses it, long and short folds, portrait and landscape, square and hex tokens."""

from __future__ import annotations

import pdfplumber
import pytest

from tokengen import BuildOptions, SheetSpec, build_pdf, load_catalogue
from tokengen.errors import UsageError
from tokengen.units import parse_page

CATALOGUE = """\
title: Fold test
size: {size}
shape: {shape}
fields: {{name: text, back: text}}
template:
  - {{rect: fill, fill: "#ddeeff", bleed: true}}
  - {{text: "{{name}}", at: [0.5, 0.5], size: 0.18}}
back:
  - {{rect: fill, fill: "#334455", bleed: true}}
  - {{text: "{{back}}", at: [0.5, 0.5], size: 0.18, colour: "#ffffff"}}
tokens:
{tokens}
"""


def catalogue(tmp_path, size="0.75in", shape="square", n=14):
    tokens = "\n".join(f"  - {{id: t{i}, name: F{i}, back: B{i}}}" for i in range(n))
    path = tmp_path / "fold.yaml"
    path.write_text(CATALOGUE.format(size=size, shape=shape, tokens=tokens), "utf-8")
    return load_catalogue(path)


@pytest.mark.parametrize("page", ["letter", "a4", "letter-landscape"])
@pytest.mark.parametrize("fold", ["long", "short"])
@pytest.mark.parametrize("size, shape", [("0.75in", "square"), ("0.75in", "hex"), ("63mmx88mm", "rounded")])
def test_every_back_lands_behind_its_face(tmp_path, page, fold, size, shape):
    cat = catalogue(tmp_path, size, shape, n=4 if shape == "rounded" else 14)
    sheet = parse_page(page.split("-")[0], landscape=page.endswith("landscape"))
    out = tmp_path / "fold.pdf"
    build_pdf(cat, BuildOptions(sheet=SheetSpec(page=sheet, size=cat.size), fold=fold), out)
    width, height = sheet
    vertical = (fold == "long") == (height >= width)
    with pdfplumber.open(out) as pdf:
        assert len(pdf.pages) == (2 if shape == "rounded" and not page.endswith("landscape") else 1)
        seen = 0
        for p in pdf.pages:
            # (centre x, baseline y) of each word, in PDF space (the baseline from the text matrix)
            words = {w["text"]: ((w["x0"] + w["x1"]) / 2, w["chars"][0]["matrix"][5])
                     for w in p.extract_words(extra_attrs=["size"], return_chars=True) if w["size"] > 7}
            check_page(words, list(p.lines), width, height, vertical)
            seen += len(words) // 2
    assert seen == len(cat.tokens)


def check_page(words, lines, width, height, vertical):
    faces = {k[1:]: v for k, v in words.items() if k.startswith("F")}
    backs = {k[1:]: v for k, v in words.items() if k.startswith("B")}
    assert set(faces) == set(backs) and faces
    for key, (fx, fy) in faces.items():
        bx, by = backs[key]
        # folding over a vertical line maps x to W - x; over a horizontal one, y to H - y. The
        # text baseline sits on the token's centre line (at y 0.5), so it mirrors with the token
        want = (width - fx, fy) if vertical else (fx, height - fy)
        assert abs(bx - want[0]) < 0.1 and abs(by - want[1]) < 0.1, (key, (fx, fy), (bx, by), want)
        assert (fx < width / 2) if vertical else (fy > height / 2)  # faces on the first half
    # the fold line: the whole page across the centre; cut lines stay off it
    if vertical:
        on_fold = [ln for ln in lines if abs(ln["x0"] - width / 2) < 1e-3 and abs(ln["x1"] - width / 2) < 1e-3]
    else:
        on_fold = [ln for ln in lines if abs(height - ln["top"] - height / 2) < 1e-3 and abs(height - ln["bottom"] - height / 2) < 1e-3]
    assert len(on_fold) == 1
    fold_line = on_fold[0]
    assert (fold_line["height"] if vertical else fold_line["width"]) == pytest.approx(height if vertical else width)
    for ln in lines:
        if ln is fold_line:
            continue
        if vertical:
            assert max(ln["x0"], ln["x1"]) < width / 2
        else:
            assert min(height - ln["top"], height - ln["bottom"]) > height / 2

def test_fold_line_is_dashed(tmp_path):
    cat = catalogue(tmp_path)
    out = tmp_path / "fold.pdf"
    build_pdf(cat, BuildOptions(sheet=SheetSpec(page=parse_page("letter"), size=cat.size), fold="long"), out)
    from pypdf import PdfReader

    content = PdfReader(out).pages[0].get_contents().get_data().decode()
    assert "[4 3] 0 d" in content


def test_fold_and_backs_are_exclusive(tmp_path, run):
    cat = catalogue(tmp_path)
    with pytest.raises(UsageError):
        build_pdf(cat, BuildOptions(sheet=SheetSpec(page=parse_page("letter"), size=cat.size), fold="long", backs="duplex"), tmp_path / "x.pdf")
    result = run("build", str(tmp_path / "fold.yaml"), "--fold", "sideways", "-o", str(tmp_path / "x.pdf"))
    assert result.exit_code == 2 and "sideways" in result.stderr


def test_meatshields_fold_over(tmp_path, run, catalogue_path):
    out = tmp_path / "ms.pdf"
    result = run("build", str(catalogue_path), "--fold", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    with pdfplumber.open(out) as pdf:
        text = pdf.pages[0].extract_text()
    assert text.count("MEATSHIELD") == 18 and text.count("STR") == 3
