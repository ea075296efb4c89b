"""``--profile cut-dxf``: the DXF twin of the cut SVG, read back with ezdxf (issue 26).

Measured: $INSUNITS 4 (mm), one closed LWPOLYLINE or CIRCLE per token on layer CUT, every
coordinate within 0.1 pt of the SVG's (the SVG's y runs down, the DXF's up), the same bytes twice.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from xml.etree import ElementTree

import ezdxf
import pytest

from tokengen.geometry import cutpaths
from tokengen.outputs.cutdxf import points
from tokengen.outputs.export import export
from tokengen.sources.catalogue import load_catalogue
from tokengen.sources.profiles import load_profiles

ROOT = Path(__file__).resolve().parents[2]
MM_PER_PT = 25.4 / 72
TOL_MM = 0.1 * MM_PER_PT  # 0.1 pt
NS = "{http://www.w3.org/2000/svg}"


def svg_paths(svg: Path) -> tuple[float, dict[str, list[tuple[float, float]]]]:
    """(page height mm, token path id → its on-curve points in mm, y up as in the DXF)."""
    root = ElementTree.parse(svg).getroot()
    height = float(root.get("height").removesuffix("mm"))
    found = {}
    for path in root.iter(f"{NS}path"):
        if path.get("id") is None:
            continue  # registration marks
        pts = []
        for _command, args in re.findall(r"([MLCZ])([^MLCZ]*)", path.get("d")):
            pairs = [tuple(float(v) for v in p.split(",")) for p in args.split()]
            if pairs:
                x, y = pairs[-1]  # the end point of each segment
                pts.append((x, height - y))
        found[path.get("id")] = pts
    return height, found


@pytest.mark.parametrize("catalogue", ["token_defs.yaml", "examples/status-tokens/status.yaml", "examples/poker-cards/cards.yaml",
                                       "examples/hex-counters/counters.yaml"])
def test_dxf_matches_the_svg(tmp_path: Path, catalogue: str):
    cat = load_catalogue(ROOT / catalogue)
    profiles = load_profiles()
    dxfs = [f for f in export(cat, profiles["cut-dxf"], tmp_path / "dxf") if f.suffix == ".dxf"]
    svgs = [f for f in export(cat, profiles["cut-svg"], tmp_path / "svg") if f.suffix == ".svg"]
    assert dxfs and len(dxfs) == len(svgs)
    for dxf, svg in zip(dxfs, svgs, strict=True):
        doc = ezdxf.readfile(dxf)
        assert doc.header["$INSUNITS"] == 4 and doc.units == 4  # millimetres
        _, paths = svg_paths(svg)
        cut = [e for e in doc.modelspace() if e.dxf.layer == "CUT"]
        assert len(cut) == len(paths)  # one entity per token
        for entity in cut:
            name = entity.get_xdata("TOKENGEN")[0][1]
            svg_points = paths[name]
            if entity.dxftype() == "CIRCLE":
                cx, cy, r = entity.dxf.center.x, entity.dxf.center.y, entity.dxf.radius
                assert len(svg_points) == 5
                for x, y in svg_points:  # the four arc ends lie on the circle
                    assert abs(((x - cx) ** 2 + (y - cy) ** 2) ** 0.5 - r) < TOL_MM
            else:
                assert entity.dxftype() == "LWPOLYLINE" and entity.closed
                vertices = [(x, y) for x, y, *_ in entity.get_points()]
                for x, y in svg_points:  # every corner and curve end of the SVG is a vertex of the polyline
                    assert min(abs(x - vx) + abs(y - vy) for vx, vy in vertices) < TOL_MM, (name, x, y)
        marks = [e for e in doc.modelspace() if e.dxf.layer == "REGISTRATION"]
        assert len(marks) == 3 and sum(1 for e in marks if e.closed) == 1  # the filled square, two brackets


def test_dxf_is_deterministic(tmp_path: Path):
    cat = load_catalogue(ROOT / "token_defs.yaml")
    a = [f for f in export(cat, load_profiles()["cut-dxf"], tmp_path / "a") if f.suffix == ".dxf"]
    b = [f for f in export(cat, load_profiles()["cut-dxf"], tmp_path / "b") if f.suffix == ".dxf"]
    assert [f.read_bytes() for f in a] == [f.read_bytes() for f in b]


def test_flattened_corners_stay_within_the_flatness():
    from tokengen.geometry import shapes
    from tokengen.geometry.imposition import Rect

    outline = shapes.outline(shapes.Shape("rounded", radius=9.0), Rect(0, 0, 72, 72))
    pts = points(outline)
    # every point of a rounded corner of radius 9 pt centred at (9, 9) lies on it (to 0.005 mm)
    corner = [(x, y) for x, y in pts if x < 9 and y < 9]
    assert corner and all(abs(((x - 9) ** 2 + (y - 9) ** 2) ** 0.5 - 9) < 0.005 / MM_PER_PT + 0.01 for x, y in corner)


def test_without_ezdxf_the_dxf_profile_names_the_extra_and_writes_nothing(run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """ezdxf is the ``dxf`` extra (issue 43): without it, one line names the install, before any file is written."""
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "ezdxf" else real(name, *a))
    result = run("export", str(ROOT / "token_defs.yaml"), "--profile", "cut-dxf", "-o", str(tmp_path / "out"))
    assert (result.exit_code, result.stderr) == (2, "tokengen: error: profile cut-dxf writes DXF and needs ezdxf, which is not "
                                                    "installed: pip install 'tokengen-print[dxf]'\n")
    assert not (tmp_path / "out").exists() or list((tmp_path / "out").iterdir()) == []


def test_registration_marks_sit_on_a_layer_not_plotted_and_no_marks_leaves_them_out(run, tmp_path: Path):
    """Issue 43: a cutter that cuts every line of a DXF would cut the marks; their layer is not
    plotted, and ``--no-marks`` leaves them out of the cut file while the printed sheet keeps them."""
    cat = str(ROOT / "token_defs.yaml")
    assert run("export", cat, "--profile", "cut-dxf", "-o", str(tmp_path / "a")).exit_code == 0
    assert run("export", cat, "--profile", "cut-dxf", "-o", str(tmp_path / "b"), "--no-marks").exit_code == 0
    [with_marks], [without] = sorted((tmp_path / "a").glob("*.dxf")), sorted((tmp_path / "b").glob("*.dxf"))
    doc, bare = ezdxf.readfile(with_marks), ezdxf.readfile(without)
    assert doc.layers.get("REGISTRATION").dxf.plot == 0 and doc.layers.get("CUT").dxf.plot == 1
    assert len([e for e in doc.modelspace() if e.dxf.layer == "REGISTRATION"]) == 3
    assert [e.dxf.layer for e in bare.modelspace()] == ["CUT"] * 18
    assert (tmp_path / "a" / "meatshields-cut-dxf.pdf").read_bytes() == (tmp_path / "b" / "meatshields-cut-dxf.pdf").read_bytes()


def _ezdxf_sheet(page, spec, ids, registration: bool, cut: str) -> str:
    """The oracle: the sheet as one ezdxf document of every entity, built through ezdxf's own
    calls (as tokengen wrote DXF before issue 39), saved as tokengen saves it."""
    from tokengen.outputs import cutdxf, cutsvg

    mm = cutsvg.MM_PER_PT
    doc = ezdxf.new("R2010", setup=False)
    doc.header["$INSUNITS"], doc.header["$MEASUREMENT"] = 4, 1
    doc.header["$EXTMIN"], doc.header["$EXTMAX"] = (0, 0, 0), (spec.page[0] * mm, spec.page[1] * mm, 0)
    doc.layers.add("CUT", color=1)
    msp = doc.modelspace()

    def add(outline, layer, name=None, closed=True):
        circle = cutdxf.circle_of(outline)
        if circle is not None:
            entity = msp.add_circle((circle[0] * mm, circle[1] * mm), circle[2] * mm, dxfattribs={"layer": layer})
        else:
            entity = msp.add_lwpolyline([(x * mm, y * mm) for x, y in points(outline)], close=closed, dxfattribs={"layer": layer})
        if name:
            entity.set_xdata("TOKENGEN", [(1000, name)])

    doc.appids.add("TOKENGEN")
    outlines = cutsvg.page_outlines(page, spec)
    if cut == "shared":
        for edge in cutpaths.shared_edges(outlines):
            (_, x0, y0), op = edge.ops
            if op[0] == "L":
                msp.add_line((x0 * mm, y0 * mm), (op[1] * mm, op[2] * mm), dxfattribs={"layer": "CUT"})
            else:
                add(edge, "CUT", closed=False)
    else:
        for name, outline in zip(ids, outlines, strict=True):
            add(outline, "CUT", name)
    if registration:
        layer = doc.layers.add("REGISTRATION", color=7)
        layer.dxf.plot = 0
        for mark in cutsvg.registration_marks(spec.page):
            add(mark.outline, "REGISTRATION", closed=mark.filled)
    return cutdxf._text(doc)


@pytest.mark.parametrize(("catalogue", "cut", "registration"), [
    ("token_defs.yaml", "outlines", True), ("examples/status-tokens/status.yaml", "outlines", False),
    ("examples/poker-cards/cards.yaml", "shared", True), ("examples/dial/dial.yaml", "shared", False),
    ("examples/hex-counters/counters.yaml", "outlines", True)])
def test_dxf_text_is_the_bytes_of_ezdxfs_own_document(catalogue: str, cut: str, registration: bool):
    """Issue 39: the DXF is written from one ezdxf frame per page size with the entities formatted
    by tokengen; every byte is the one ezdxf's document of the same entities saves (squares,
    circles, rounded and hex outlines, shared lines and curves, the marks, a token id beyond ASCII)."""
    from tokengen.outputs.cutdxf import dxf_page
    from tokengen.outputs.cutsvg import cut_sheets

    cat = load_catalogue(ROOT / catalogue)
    profile = load_profiles()["cut-dxf"]
    spec = _sheet_spec(profile, cat)
    for page, sheet, ids in cut_sheets(cat, spec, 2, False):
        ids = [f"{name}-é✓" for name in ids]
        assert dxf_page(page, sheet, ids, registration, cut) == _ezdxf_sheet(page, sheet, ids, registration, cut)


def test_an_export_makes_one_ezdxf_document_per_page_size_and_count(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Issue 39: every sheet made its own ezdxf document (8 for 8 sheets); now the full sheets
    share one frame and the part-filled last sheet has its own."""
    from tokengen.outputs import cutdxf

    cutdxf._frame.cache_clear()
    made = []
    real = ezdxf.new
    monkeypatch.setattr(ezdxf, "new", lambda *a, **k: made.append(1) or real(*a, **k))
    profile = dataclasses.replace(load_profiles()["cut-dxf"], copies=20)  # 360 tokens: 7 full sheets and a last one
    dxfs = [f for f in export(load_catalogue(ROOT / "token_defs.yaml"), profile, tmp_path) if f.suffix == ".dxf"]
    assert (len(dxfs), len(made)) == (8, 2)


def _sheet_spec(profile, catalogue):  # the sheet spec export builds
    from tokengen.geometry.sizing import sheet_spec

    return sheet_spec(profile.page, catalogue.size, margin=profile.margin, gutter=profile.gutter, bleed=profile.bleed,
                      columns=profile.columns, group=catalogue.columns, furniture="full")
