"""Sizes per layout (issue 25): a layout's own ``size`` and ``shape``; one build places every
size on the same sheets, each in its own band of rows, with its cut guides, bleed, backs and
fold-over; ``check`` says what fits per size; exports refuse several sizes. Every figure is read
back from the written PDF: where each face form is placed and how large its box is, the cut
lines and outlines, and where each back lands on the duplex sheet.

The example (examples/mixed-sizes/mixed.yaml) holds 18 counters of 5/8 in (45 pt, the
catalogue's own size), 5 round markers of 1 in and 3 cards of 63 × 88 mm (178.58 × 249.45 pt).
"""

from __future__ import annotations

import json
from pathlib import Path

import pikepdf
import pytest

from tests.conftest import ROOT
from tests.pdfmeasure import lines, unmarked_cuts
from tests.sources.test_anygame import pdf_paths
from tokengen import load_catalogue
from tokengen.geometry import bands, pager
from tokengen.geometry.imposition import SheetSpec
from tokengen.outputs.build import build_pdf
from tokengen.outputs.options import BuildOptions

EXAMPLE = ROOT / "examples" / "mixed-sizes" / "mixed.yaml"
MM = 72 / 25.4
LETTER = (612.0, 792.0)
SIZES = {"counter": (45.0, 45.0), "marker": (72.0, 72.0), "card": (63 * MM, 88 * MM)}
KIND = {"inf-1": "counter", "cav-1": "counter", "art-1": "counter", "turn": "marker", "morale": "marker", "victory": "marker",
        "ambush": "card", "supply": "card", "rain": "card"}


def placed(pdf: Path, page: int) -> list[tuple[str, float, float, float, float]]:
    """(form name, x, y, width, height) pt of every token form placed on ``page``, in drawing
    order: the translation of each ``Do`` of a form named face-… or …back…, its box from the form's BBox."""
    doc = pikepdf.open(pdf)
    try:
        p = doc.pages[page]
        xobjects = p.Resources.XObject
        ctm, stack, out = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0], [], []
        for op in pikepdf.parse_content_stream(p):
            name = str(op.operator)
            if name == "q":
                stack.append(list(ctm))
            elif name == "Q":
                ctm = stack.pop()
            elif name == "cm":
                a, b, c, d, e, f = (float(v) for v in op.operands)
                A, B, C, D, E, F = ctm
                ctm = [a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F]
            elif name == "Do":
                key = str(op.operands[0])
                form = key[1:].removeprefix("FormXob.")  # ReportLab's prefix of form names
                if form.startswith("face-") or "back" in form:
                    x0, y0, x1, y1 = (float(v) for v in xobjects[key].BBox)
                    out.append((form, ctm[4] + x0, ctm[5] + y0, x1 - x0, y1 - y0))
        return out
    finally:
        doc.close()


def built(tmp_path: Path, run, *args: str) -> Path:
    out = tmp_path / "mixed.pdf"
    result = run("build", str(EXAMPLE), *args, "-o", str(out))
    assert result.exit_code == 0 and result.stderr == "", result.stderr
    return out


def test_every_size_is_placed_in_its_own_band_on_one_sheet(tmp_path, run):
    out = built(tmp_path, run)
    assert len(pikepdf.open(out).pages) == 1
    faces = placed(out, 0)
    assert len(faces) == 26
    by_kind: dict[str, list[tuple[float, float, float, float]]] = {}
    for form, x, y, w, h in faces:
        kind = KIND[form.removeprefix("face-")]
        assert (w, h) == pytest.approx(SIZES[kind], abs=1e-4)  # each token at its layout's size
        by_kind.setdefault(kind, []).append((x, y, w, h))
    assert {k: len(v) for k, v in by_kind.items()} == {"counter": 18, "marker": 5, "card": 3}
    # bands top to bottom in catalogue order, each a stripe of rows of its own, 18 pt apart at least
    stripes = [(min(y for _, y, _, _ in by_kind[k]), max(y + h for _, y, _, h in by_kind[k])) for k in ("counter", "marker", "card")]
    assert stripes[0][0] - stripes[1][1] == pytest.approx(pager.BAND_GAP, abs=1e-3)
    assert stripes[1][0] - stripes[2][1] == pytest.approx(pager.BAND_GAP, abs=1e-3)
    assert stripes[0][1] - stripes[0][0] == pytest.approx(90.0, abs=1e-3)  # 18 counters: two rows of 12 and 6
    assert sorted({round(y, 3) for _, y, _, _ in by_kind["counter"]}) == pytest.approx([stripes[0][0], stripes[0][0] + 45], abs=1e-3)


def test_cut_lines_per_band_mark_every_counter_edge_and_cross_no_token(tmp_path, run):
    out = built(tmp_path, run)
    faces = placed(out, 0)
    trims = [(x, y, x + w, y + h) for _, x, y, w, h in faces]
    counters = [t for (form, *_), t in zip(faces, trims, strict=True) if KIND[form.removeprefix("face-")] == "counter"]
    segments = [(ln["x0"], ln["y0"], ln["x1"], ln["y1"]) for ln in lines(out, 0) if ln["linewidth"] == pytest.approx(0.3)]
    assert unmarked_cuts(counters, segments) == []
    assert len(segments) == 13 + 3  # the counters' 13 column edges and 3 row edges, nothing for the other bands
    low = min(t[1] for t in counters)
    assert min(s[1] for s in segments) == pytest.approx(low - pager.BAND_GAP / 2, abs=1e-3)  # guides stop in the gap
    for x0, y0, x1, y1 in segments:
        for tx0, ty0, tx1, ty1 in trims:
            inside_x = tx0 + 0.5 < x0 < tx1 - 0.5 and y0 < ty1 - 0.5 and y1 > ty0 + 0.5
            inside_y = ty0 + 0.5 < y0 < ty1 - 0.5 and x0 < tx1 - 0.5 and x1 > tx0 + 0.5
            assert not (x0 == pytest.approx(x1) and inside_x) and not (y0 == pytest.approx(y1) and inside_y)
    # the markers and cards are cut along their own outlines: a circle (4 curves) and a rounded card (4 L, 4 C)
    outlines = pdf_paths(out, 0)
    circles = [p for p in outlines if len(p) == 5 and all(op[0] == "c" for op in p[1:])]
    cards = [p for p in outlines if len(p) == 9]
    assert len(circles) == 5 and len(cards) == 3
    for p in cards:
        xs, ys = [v for op in p for v in op[1::2]], [v for op in p for v in op[2::2]]
        assert (max(xs) - min(xs), max(ys) - min(ys)) == pytest.approx((63 * MM, 88 * MM), abs=1e-3)


def test_duplex_backs_land_behind_their_faces_band_by_band(tmp_path, run):
    for flip in ("long", "short"):
        out = built(tmp_path, run, "--backs", "--flip", flip)
        faces, backs = placed(out, 0), placed(out, 1)
        assert len(faces) == len(backs) == 26
        names = set()
        for (face, x, y, w, h), (back, bx, by, bw, bh) in zip(faces, backs, strict=True):
            assert (bw, bh) == pytest.approx((w, h), abs=1e-4)  # each back at its face's size
            want = (612 - x - w, y) if flip == "long" else (x, 792 - y - h)
            assert (bx, by) == pytest.approx(want, abs=1e-3)
            names.add((KIND[face.removeprefix("face-")], back))
        assert names == {("counter", "back"), ("marker", "band2-back"), ("card", "band3-back")}


def test_fold_over_sheets_put_each_band_beside_its_backs(tmp_path, run):
    out = built(tmp_path, run, "--fold")
    for page in range(2):
        every = placed(out, page)
        faces = [p for p in every if p[0].startswith("face-")]
        backs = [p for p in every if not p[0].startswith("face-")]
        assert len(faces) == len(backs) and faces
        for (_, x, y, w, h), (_, bx, by, bw, bh) in zip(faces, backs, strict=True):
            assert x + w <= 306 and (bx, by, bw, bh) == pytest.approx((612 - x - w, y, w, h), abs=1e-3)


def test_bleed_runs_past_every_size_without_touching_the_next_band(tmp_path):
    cat = load_catalogue(EXAMPLE)
    out = tmp_path / "bleed.pdf"
    build_pdf(cat, BuildOptions(sheet=SheetSpec(page=LETTER, size=cat.size, bleed=9.0, gutter=18.0)), out)
    pages = [placed(out, page) for page in range(len(pikepdf.open(out).pages))]
    assert sum(len(faces) for faces in pages) == 26
    for faces in pages:
        boxes = [(x, y, x + w, y + h) for _, x, y, w, h in faces]  # the forms' boxes are the bleed boxes now
        for (form, *_), (x0, y0, x1, y1) in zip(faces, boxes, strict=True):
            w, h = SIZES[KIND[form.removeprefix("face-")]]
            assert (x1 - x0, y1 - y0) == pytest.approx((w + 18, h + 18), abs=1e-4)
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                assert a[2] <= b[0] + 1e-3 or b[2] <= a[0] + 1e-3 or a[3] <= b[1] + 1e-3 or b[3] <= a[1] + 1e-3


def test_scale_scales_every_band(tmp_path, run):
    out = built(tmp_path, run, "--scale", "1.25")
    sizes = {(round(w, 3), round(h, 3)) for page in range(len(pikepdf.open(out).pages)) for _, _, _, w, h in placed(out, page)}
    assert sizes == {(56.25, 56.25), (90.0, 90.0), (round(1.25 * 63 * MM, 3), round(1.25 * 88 * MM, 3))}


def test_check_reports_what_fits_per_size(run):
    result = run("check", str(EXAMPLE), "--format", "json")
    assert result.exit_code == 0, result.stderr
    sheets = [f for f in json.loads(result.stdout)["findings"] if f["code"] == "sheet"]
    assert [f["message"] for f in sheets] == [
        "192 tokens of 0.625in square fit on one 8.5in × 11in page (inf-1, cav-1, art-1)",
        "63 tokens of 1in circle fit on one 8.5in × 11in page (turn, morale, victory)",
        "6 tokens of 63mm × 88mm rounded fit on one 8.5in × 11in page (ambush, supply, rain)"]
    assert [(f["data"]["per_page"], f["data"]["columns"], f["data"]["rows"]) for f in sheets] == [(192, 12, 16), (63, 7, 9), (6, 3, 2)]


@pytest.mark.parametrize("profile", ["print-shop", "cut-svg", "tgc-chits"])
def test_exports_refuse_several_sizes_naming_them(tmp_path, run, profile):
    result = run("export", str(EXAMPLE), "--profile", profile, "-o", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert result.stderr == (f"tokengen: error: {EXAMPLE}: profile {profile} makes files for one token size, and this catalogue's "
                             "layouts give 3 (0.625in square, 1in circle and 63mm × 88mm rounded); build the sheets of every size "
                             "with tokengen build\n")
    assert not (tmp_path / "out").exists()


CATALOGUE = """\
title: Sizes
size: 1in
fields: {kind: text, name: text}
layouts:
  big:
    size: 2in
    elements:
      - {text: "{name}", at: [0.5, 0.5], width: 0.8, size: 0.2}
  bigger:
    extends: big
    shape: circle
  same:
    size: 1in
    elements:
      - {text: "{name}", at: [0.5, 0.5], width: 0.8, size: 0.2}
template: {by: kind, map: {big: big, bigger: bigger, same: same}, default: same}
tokens:
  - {id: a, kind: small, name: A}
  - {id: b, kind: big, name: B}
  - {id: c, kind: bigger, name: C}
  - {id: d, kind: same, name: D}
"""


def test_a_layout_inherits_its_parents_size_and_one_as_large_as_the_catalogue_is_no_band(tmp_path):
    path = tmp_path / "cat.yaml"
    path.write_text(CATALOGUE, encoding="utf-8")
    cat = load_catalogue(path)
    found = bands.bands(cat)
    assert [(b.trim, [t.id for t in b.tokens]) for b in found] == [
        (None, ["a", "d"]), (bands.Trim(144.0), ["b"]), (bands.Trim(144.0, None, found[2].trim.shape), ["c"])]
    assert found[2].trim.shape.kind == "circle"
    spec = SheetSpec(page=LETTER, size=cat.size)
    result = build_pdf(cat, BuildOptions(sheet=spec), tmp_path / "out.pdf")
    assert result.tokens == 4 and result.pages == 1
    sizes = {form: (round(w, 3), round(h, 3)) for form, _, _, w, h in placed(tmp_path / "out.pdf", 0)}
    assert sizes == {"face-a": (72.0, 72.0), "face-d": (72.0, 72.0), "face-b": (144.0, 144.0), "face-c": (144.0, 144.0)}


@pytest.mark.parametrize(("change", "message"), [
    (("    size: 2in\n", "    size: 2inch\n"), "cat.yaml:6: layouts.big.size: unknown unit 'inch' in '2inch' (use in, mm, cm or pt)"),
    (("    shape: circle\n", "    shape: circel\n"), "cat.yaml:11: layouts.bigger.shape: unknown shape 'circel'; did you mean 'circle'? (shapes: square, rounded, circle, hex)"),
    (("    size: 2in\n", "    size: 2inx3in\n"), "cat.yaml:11: layouts.bigger.shape: a circle token has one size (its diameter), not WIDTHxHEIGHT"),
    (("    size: 2in\n", "    size: 0.1in\n"), "cat.yaml:6: layouts.big.size: '0.1in' is smaller than the smallest token size, 0.125in (3.2mm)"),
    (("tokens:\n", "back: bigger\ntokens:\n"),
     "cat.yaml:19: tokens[0]: the back layout 'bigger' declares its own size or shape; a back is drawn at its face's (1in square), "
     "so give the size and shape to the face's layout"),
])
def test_a_layouts_size_and_shape_are_checked_as_the_catalogues(tmp_path, change, message):
    from tokengen.errors import CatalogueError

    path = tmp_path / "cat.yaml"
    old, new = change
    assert old in CATALOGUE
    path.write_text(CATALOGUE.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(CatalogueError) as caught:
        load_catalogue(path)
    assert str(caught.value).replace(str(tmp_path) + "/", "") == message
