"""Cutting machines (issue 26): the Cricut print-then-cut bundle, Silhouette's type-1 marks,
shared edges cut once, and a bleed around every cut piece on cut-file sheets.

Measured: the Cricut PNG is 2025 × 2775 px at 300 DPI and its SVG 171.45 × 234.95 mm (6.75 ×
9.25 in), one pair per sheet, every token cut once, no marks; the registration marks sit where
Silhouette Studio's default type-1 settings (length 20 mm, thickness 0.5 mm, inset 10 mm) put
them, in the PDF, the SVG and the DXF; ``cut: shared`` writes each edge of a shared-edge block
once (rows × (columns + 1) + columns × (rows + 1)); the cut-svg sheet gives every token its own
bleed inside a gutter.
"""

from __future__ import annotations

import re
from pathlib import Path

import ezdxf
import pikepdf
import pytest
from PIL import Image

from tokengen.geometry import cutpaths, pager, shapes
from tokengen.geometry.imposition import Rect
from tokengen.outputs import cutsvg
from tokengen.outputs.export import export
from tokengen.sources.catalogue import load_catalogue
from tokengen.sources.profiles import load_profiles

ROOT = Path(__file__).resolve().parents[2]
MEATSHIELDS = ROOT / "token_defs.yaml"
POKER = ROOT / "examples" / "poker-cards" / "cards.yaml"
HEX = ROOT / "examples" / "hex-counters" / "counters.yaml"
MM = 72 / 25.4


@pytest.mark.parametrize(("catalogue", "tokens"), [(MEATSHIELDS, 18), (POKER, 8)], ids=["squares", "cards"])
def test_the_cricut_bundle_is_a_300_dpi_png_and_an_svg_of_the_same_size(tmp_path: Path, catalogue: Path, tokens: int) -> None:
    written = export(load_catalogue(catalogue), load_profiles()["cricut"], tmp_path)
    pdf, rest = written[0], written[1:]
    pngs, svgs = rest[0::2], rest[1::2]
    assert [p.name.rsplit("-", 2)[-2] for p in pngs] == ["print"] * len(pngs)
    assert len(pngs) == len(svgs) >= 1
    with pikepdf.open(pdf) as doc:
        assert len(doc.pages) == len(pngs)
        assert all([float(v) for v in p.MediaBox] == [0, 0, 486, 666] for p in doc.pages)  # 6.75 x 9.25 in
    cut = 0
    for png, svg in zip(pngs, svgs, strict=True):
        with Image.open(png) as image:
            assert image.size == (2025, 2775)
            assert image.info["dpi"] == pytest.approx((300, 300), abs=0.001)
        text = svg.read_text("utf-8")
        assert 'width="171.45mm" height="234.95mm" viewBox="0 0 171.45 234.95"' in text
        assert "registration" not in text  # Design Space prints its own frame
        paths = re.findall(r'<path id="[^"]+" d="([^"]+)"', text)
        cut += len(paths)
        for d in paths:  # every cut inside the sheet, with room for the bleed
            nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", d)]
            assert min(nums[0::2]) >= 3.175 - 1e-6 and max(nums[0::2]) <= 171.45 - 3.175 + 1e-6
            assert min(nums[1::2]) >= 3.175 - 1e-6 and max(nums[1::2]) <= 234.95 - 3.175 + 1e-6
    assert cut == tokens


def test_the_cricut_print_image_shows_the_tokens_own_colour_past_the_cut(tmp_path: Path) -> None:
    """1/16 in of bleed: 1 mm outside a token's cut the print image is still that token's colour."""
    written = export(load_catalogue(POKER), load_profiles()["cricut"], tmp_path)
    svg = written[2].read_text("utf-8")
    d = re.findall(r'<path id="[^"]+" d="([^"]+)"', svg)[0]
    nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", d)]
    left, top, bottom = min(nums[0::2]), min(nums[1::2]), max(nums[1::2])
    with Image.open(written[1]) as image:
        px = 300 / 25.4
        middle = (top + bottom) / 2
        inside = image.getpixel((round((left + 0.5) * px), round(middle * px)))
        outside = image.getpixel((round((left - 1.0) * px), round(middle * px)))
    assert inside == outside != (255, 255, 255)


def test_silhouette_marks_sit_at_studios_default_type_1_settings() -> None:
    letter = (612.0, 792.0)
    square, top_right, bottom_left = cutsvg.registration_marks(letter)
    assert square.filled and not top_right.filled and not bottom_left.filled
    # the square: 5 mm, its outer corner 10 mm from the top-left corner of the sheet
    assert [(round(x / MM, 6), round((792 - y) / MM, 6)) for x, y in square.outline.points()] == [(10, 10), (15, 10), (15, 15), (10, 15)]
    half = cutsvg.REG_STROKE / 2
    assert cutsvg.REG_STROKE == pytest.approx(0.5 * MM)
    # the L brackets: 20 mm arms, their outer edges 10 mm from the sheet's edges (centre line half a stroke in)
    (x0, y0), (x1, y1), (x2, y2) = top_right.outline.points()
    assert (x1 + half, y1 + half) == pytest.approx((612 - 10 * MM, 792 - 10 * MM))
    assert x1 + half - x0 == pytest.approx(20 * MM) and y1 + half - y2 == pytest.approx(20 * MM)
    (x0, y0), (x1, y1), (x2, y2) = bottom_left.outline.points()
    assert (x1 - half, y1 - half) == pytest.approx((10 * MM, 10 * MM))
    assert y0 - (y1 - half) == pytest.approx(20 * MM) and x2 - (x1 - half) == pytest.approx(20 * MM)
    assert cutsvg.registration_box(letter) == Rect(16 * MM, 16 * MM, 612 - 32 * MM, 792 - 32 * MM)


def test_the_marks_read_back_from_the_svg_and_the_dxf(tmp_path: Path) -> None:
    svg = export(load_catalogue(MEATSHIELDS), load_profiles()["cut-svg"], tmp_path / "svg")[1].read_text("utf-8")
    marks = svg.split('<g id="registration">')[1]
    assert re.findall(r'd="([^"]+)"', marks) == [
        "M10,10 L15,10 L15,15 L10,15 Z",
        "M185.9,10.25 L205.65,10.25 L205.65,30",
        "M10.25,249.4 L10.25,269.15 L30,269.15",
    ]
    assert 'stroke-width="0.5"' in marks
    dxf = export(load_catalogue(MEATSHIELDS), load_profiles()["cut-dxf"], tmp_path / "dxf")[1]
    found = [[(round(x, 3), round(y, 3)) for x, y, *_ in e.get_points()] for e in ezdxf.readfile(dxf).modelspace().query("LWPOLYLINE[layer=='REGISTRATION']")]
    assert found == [[(10, 269.4), (15, 269.4), (15, 264.4), (10, 264.4)],
                     [(185.9, 269.15), (205.65, 269.15), (205.65, 249.4)],
                     [(10.25, 30), (10.25, 10.25), (30, 10.25)]]


def test_shared_edges_are_counted_once() -> None:
    squares = [shapes.outline(None, Rect(72.0 * c, 72.0 * r, 72.0, 72.0)) for r in range(3) for c in range(3)]
    assert len(cutpaths.shared_edges(squares)) == 24  # not 36
    two = squares[:2]
    assert len(cutpaths.shared_edges(two)) == 7
    apart = [shapes.outline(None, Rect(0, 0, 72, 72)), shapes.outline(None, Rect(80, 0, 72, 72))]
    assert len(cutpaths.shared_edges(apart)) == 8
    circles = [shapes.outline(shapes.Shape("circle"), Rect(72.0 * c, 0, 72, 72)) for c in range(3)]
    assert len(cutpaths.shared_edges(circles)) == 12  # touching circles share no segment


def _shared_profile(tmp_path: Path, base: str) -> Path:
    path = tmp_path / "shared.yaml"
    path.write_text(f"shared:\n  extends: {base}\n  gutter: 0\n  bleed: 0\n  boxes: false\n  cut: shared\n", "utf-8")
    return path


@pytest.mark.parametrize("base", ["cut-svg", "cut-dxf"])
def test_cut_shared_writes_one_line_per_edge(tmp_path: Path, base: str) -> None:
    catalogue = load_catalogue(MEATSHIELDS)
    profile = load_profiles(_shared_profile(tmp_path, base))["shared"]
    written = export(catalogue, profile, tmp_path / "out")
    spec = pager.plan(catalogue.count, shapes.sheet_for(_spec(profile, catalogue), catalogue)).spec
    (page,) = pager.pages(catalogue.count, spec)
    rows, cols = max(c.row for c in page.cells) + 1, max(c.col for c in page.cells) + 1
    assert rows * cols == 18
    edges = rows * (cols + 1) + cols * (rows + 1)
    if base == "cut-svg":
        text = written[1].read_text("utf-8").split('<g id="registration">')[0]
        assert len(re.findall(r'<path id="edge-\d+"', text)) == edges
        assert len(re.findall(r"<path ", text)) == edges
    else:
        msp = ezdxf.readfile(written[1]).modelspace()
        lines = msp.query("LINE[layer=='CUT']")
        assert len(lines) == edges and len(msp.query("LWPOLYLINE[layer=='CUT']")) == 0
        ends = {tuple(sorted([(round(e.dxf.start.x, 3), round(e.dxf.start.y, 3)), (round(e.dxf.end.x, 3), round(e.dxf.end.y, 3))])) for e in lines}
        assert len(ends) == edges  # no edge twice


def test_hexes_at_gutter_0_share_their_edges(tmp_path: Path) -> None:
    catalogue = load_catalogue(HEX)
    spec = shapes.sheet_for(_spec(load_profiles()["home"], catalogue), catalogue)
    page = next(pager.pages(catalogue.count, pager.plan(catalogue.count, spec).spec))
    outlines = cutsvg.page_outlines(page, spec)
    edges = cutpaths.shared_edges(outlines)
    assert len(edges) < 6 * len(outlines)
    assert len(edges) == len({cutpaths._key(e) for e in edges})


def _spec(profile, catalogue):  # the sheet spec export builds
    from tokengen.geometry.sizing import sheet_spec

    return sheet_spec(profile.page, catalogue.size, margin=profile.margin, gutter=profile.gutter, bleed=profile.bleed,
                      columns=profile.columns, group=catalogue.columns, cut_lines="cut-lines" in profile.marks,
                      crop_marks="crop-marks" in profile.marks, calibration="calibration" in profile.marks,
                      home_bleed=profile.home_bleed)


def test_cut_file_sheets_give_every_token_its_own_bleed(tmp_path: Path) -> None:
    profile = load_profiles()["cut-svg"]
    assert profile.bleed == pytest.approx(0.0625 * 72) and profile.gutter == pytest.approx(2 * profile.bleed)
    pdf = export(load_catalogue(MEATSHIELDS), profile, tmp_path)[0]
    with pikepdf.open(pdf) as doc:
        page = doc.pages[0]
        sizes = {round(float(x.BBox[2]) - float(x.BBox[0]), 3) for x in page.Resources.XObject.values() if "/BBox" in x}
    assert round(72 + 2 * profile.bleed, 3) in sizes  # each token's form: trim + its own bleed
