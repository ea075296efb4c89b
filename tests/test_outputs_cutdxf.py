"""``--profile cut-dxf``: the DXF twin of the cut SVG, read back with ezdxf (issue 26).

Measured: $INSUNITS 4 (mm), one closed LWPOLYLINE or CIRCLE per token on layer CUT, every
coordinate within 0.1 pt of the SVG's (the SVG's y runs down, the DXF's up), the same bytes twice.
"""

from __future__ import annotations

import re
from pathlib import Path
from xml.etree import ElementTree

import ezdxf
import pytest

from tokengen.outputs.cutdxf import points
from tokengen.outputs.export import export
from tokengen.sources.catalogue import load_catalogue
from tokengen.sources.profiles import load_profiles

ROOT = Path(__file__).resolve().parent.parent
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
