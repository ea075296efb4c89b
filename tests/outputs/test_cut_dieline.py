"""Die lines (issue 26): a profile's ``cut_layer`` strokes every token's cut path in a spot colour.

Measured on the written files: the ``CutContour`` separation's paths are the cut SVG's within
0.1 pt (squares and rounded cards), the colour space is ``[/Separation /CutContour /DeviceCMYK f]``
with f(1) = 0 1 0 0, the strokes overprint (``/OP true /op true``), a PDF/X-1a file carries the
spot colour only while other files put it in an optional-content group named ``Cut``, and preflight
passes the die line (no ink, no trim failure) but fails one that misses a trim by more than 0.1 pt.
"""

from __future__ import annotations

import re
from pathlib import Path

import pikepdf
import pytest

from tokengen.outputs.export import export
from tokengen.preflight.checks import preflight
from tokengen.sources.catalogue import load_catalogue
from tokengen.sources.profiles import load_profiles

ROOT = Path(__file__).resolve().parents[2]
MEATSHIELDS = ROOT / "token_defs.yaml"
POKER = ROOT / "examples" / "poker-cards" / "cards.yaml"
PT_PER_MM = 72 / 25.4

PROFILES = """\
die-shop:
  extends: print-shop
  cut_layer: CutContour
die-svg:
  extends: print-shop
  output: cut-svg
  cut_layer: CutContour
die-home:
  extends: home
  cut_layer: CutContour
die-home-svg:
  extends: cut-svg
  cut_layer: Thru-cut
"""


@pytest.fixture(scope="module")
def profiles(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("profiles") / "die.yaml"
    path.write_text(PROFILES, "utf-8")
    return path


def die_paths(page: pikepdf.Page, name: str) -> list[list[tuple[float, float]]]:
    """The points (end and control points, pt) of every path stroked in separation ``name`` on
    ``page``, one list per subpath; the page content is drawn untransformed (checked)."""
    spaces = {str(k): v for k, v in page.Resources.get("/ColorSpace", {}).items()}
    die = {k for k, v in spaces.items() if isinstance(v, pikepdf.Array) and str(v[0]) == "/Separation" and str(v[1]) == "/" + name}
    stroking, depth, out, current = False, 0, [], []
    stack: list[bool] = []
    for operands, op in pikepdf.parse_content_stream(page):
        op = str(op)
        if op == "q":
            stack.append(stroking)
            depth += 1
        elif op == "Q":
            stroking = stack.pop()
            depth -= 1
        elif op == "cm" and stroking:
            raise AssertionError("the die line is drawn under a transformation")
        elif op == "CS":
            stroking = str(operands[0]) in die
        elif op in ("K", "RG", "G"):
            stroking = False
        elif op == "m":
            current.append([(float(operands[0]), float(operands[1]))])
        elif op in ("l", "c"):
            current[-1].extend((float(operands[i]), float(operands[i + 1])) for i in range(0, len(operands), 2))
        elif op in ("S", "s"):
            if stroking:
                out.extend(current)
            current = []
        elif op in ("f", "F", "f*", "B", "B*", "b", "b*", "n"):
            current = []
    return out


def svg_paths(svg: Path, page_height: float) -> list[list[tuple[float, float]]]:
    """The points (pt, y up) of every cut path of a cut SVG (mm, y down), one list per path."""
    out = []
    for d in re.findall(r'<path id="[^"]+" d="([^"]+)"', svg.read_text("utf-8")):
        nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", d)]
        out.append([(nums[i] * PT_PER_MM, page_height - nums[i + 1] * PT_PER_MM) for i in range(0, len(nums), 2)])
    return out


@pytest.mark.parametrize("catalogue", [MEATSHIELDS, POKER], ids=["squares", "rounded-cards"])
def test_the_die_line_is_the_cut_svg_within_a_tenth_of_a_point(tmp_path: Path, profiles: Path, catalogue: Path) -> None:
    profile = load_profiles(profiles)["die-svg"]
    written = export(load_catalogue(catalogue), profile, tmp_path)
    pdf_path, svgs = written[0], written[1:]
    with pikepdf.open(pdf_path) as pdf:
        face_pages = [pdf.pages[i] for i in range(0, len(pdf.pages), 2)]  # duplex: a back sheet after each face sheet
        assert len(face_pages) == len(svgs)
        for page, svg in zip(face_pages, svgs, strict=True):
            height = float(page.MediaBox[3])
            drawn, cut = die_paths(page, "CutContour"), svg_paths(svg, height)
            assert len(drawn) == len(cut) > 0
            for a, b in zip(drawn, cut, strict=True):
                assert len(a) == len(b)
                assert max(abs(p - q) for pa, pb in zip(a, b, strict=True) for p, q in zip(pa, pb, strict=True)) <= 0.1
        # the back sheets carry no die line
        assert die_paths(pdf.pages[1], "CutContour") == []


def tint(function: bytes, t: float) -> list[float]:
    """Evaluate the small PostScript calculator function ReportLab writes for a separation."""
    stack: list[float] = [t]
    for word in function.decode().strip("{} \n").split():
        if word == "exch":
            stack[-1], stack[-2] = stack[-2], stack[-1]
        elif word == "dup":
            stack.append(stack[-1])
        elif word == "mul":
            stack.append(stack.pop() * stack.pop())
        elif word == "pop":
            stack.pop()
        else:
            stack.append(float(word))
    return stack


def test_a_pdfx_file_has_the_spot_colour_only_overprinting(tmp_path: Path, profiles: Path) -> None:
    profile = load_profiles(profiles)["die-shop"]
    pdf_path = export(load_catalogue(MEATSHIELDS), profile, tmp_path)[0]
    with pikepdf.open(pdf_path) as pdf:
        assert pdf.pdf_version == "1.3"
        assert "/OCProperties" not in pdf.Root
        page = pdf.pages[0]
        space = page.Resources.ColorSpace.CutContour
        assert [str(v) for v in list(space)[:3]] == ["/Separation", "/CutContour", "/DeviceCMYK"]
        assert tint(space[3].read_bytes(), 1.0) == [0.0, 1.0, 0.0, 0.0]
        states = [dict(v) for v in page.Resources.ExtGState.values()]
        assert {"/OP": True} in states and {"/op": True} in states
        assert "BDC" not in {str(op) for _, op in pikepdf.parse_content_stream(page)}
    failed = [c.name for c in preflight(pdf_path, profile) if not c.passed]
    assert failed == []


def test_other_files_put_the_die_line_on_a_cut_layer(tmp_path: Path, profiles: Path) -> None:
    profile = load_profiles(profiles)["die-home"]
    pdf_path = export(load_catalogue(POKER), profile, tmp_path)[0]
    with pikepdf.open(pdf_path) as pdf:
        assert pdf.pdf_version >= "1.5"
        groups = list(pdf.Root.OCProperties.OCGs)
        assert [str(g.Name) for g in groups] == ["Cut"]
        assert list(pdf.Root.OCProperties.D.ON) == groups
        for page in pdf.pages:
            assert page.Resources.Properties.Cut == groups[0]
            ops = [(list(o), str(op)) for o, op in pikepdf.parse_content_stream(page)]
            marks = [i for i, (o, op) in enumerate(ops) if op == "BDC"]
            assert len(marks) == 1 and [str(v) for v in ops[marks[0]][0]] == ["/OC", "/Cut"]
            ends = [i for i, (_, op) in enumerate(ops) if op == "EMC"]
            assert len(ends) == 1 and ends[0] > marks[0]
            inside = {op for _, op in ops[marks[0]:ends[0]]}
            assert "S" in inside and "Do" not in inside  # the strokes, not the art
    checks = {c.name: c for c in preflight(pdf_path, profile)}
    assert all(c.passed for c in checks.values()), [c.message for c in checks.values() if not c.passed]
    assert checks["trim-size"].message == ("every page is the profile's 612.0 × 792.0 pt sheet; the CutContour die line follows "
                                           "every token's trim within 0.1 pt on 1 page")


def test_any_name_works_and_the_cut_files_still_come(tmp_path: Path, profiles: Path) -> None:
    profile = load_profiles(profiles)["die-home-svg"]
    written = export(load_catalogue(MEATSHIELDS), profile, tmp_path)
    assert [p.suffix for p in written] == [".pdf", ".svg"]
    with pikepdf.open(written[0]) as pdf:
        assert len(die_paths(pdf.pages[0], "Thru-cut")) == 18
    assert all(c.passed for c in preflight(written[0], profile))


def _sheet(path: Path, offset: float) -> None:
    """A one-token sheet drawn as tokengen draws one (a 1 in form placed at (100, 100)) with a
    CutContour rectangle ``offset`` pt to the right of the trim."""
    from reportlab.lib.colors import CMYKColorSep
    from reportlab.pdfgen.canvas import Canvas

    c = Canvas(str(path), pagesize=(612, 792), invariant=1)
    c.beginForm("token", 0, 0, 72, 72)
    c.setFillColorRGB(0.2, 0.4, 0.6)
    c.rect(0, 0, 72, 72, stroke=0, fill=1)
    c.endForm()
    c.saveState()
    c.translate(100, 100)
    c.doForm("token")
    c.restoreState()
    c.setStrokeColor(CMYKColorSep(0, 1, 0, 0, spotName="CutContour", density=1))
    c.setLineWidth(0.25)
    c.rect(100 + offset, 100, 72, 72, stroke=1, fill=0)
    c.showPage()
    c.save()


def test_preflight_fails_a_die_line_off_the_trim(tmp_path: Path, profiles: Path) -> None:
    profile = load_profiles(profiles)["die-home"]
    near, far = tmp_path / "near.pdf", tmp_path / "far.pdf"
    _sheet(near, 0.05)
    _sheet(far, 0.5)
    assert {c.name: c.passed for c in preflight(near, profile)}["trim-size"]
    check = {c.name: c for c in preflight(far, profile)}["trim-size"]
    assert not check.passed
    assert check.problems == (
        "page 1: die line CutContour: 1 path of 1 matches no token's trim within 0.1 pt; the first spans (100.50, 100.00)-(172.50, 172.00) pt",
        "page 1: die line CutContour: 1 token of 1 has no cut path; the first at (100.00, 100.00) pt",
    )
    ink = {c.name: c for c in preflight(far, profile)}["ink"]
    assert ink.passed


def test_preflight_fails_a_file_without_the_die_line(tmp_path: Path, profiles: Path) -> None:
    home = load_profiles(profiles)["home"]
    pdf_path = export(load_catalogue(MEATSHIELDS), home, tmp_path)[0]
    check = {c.name: c for c in preflight(pdf_path, load_profiles(profiles)["die-home"])}["trim-size"]
    assert not check.passed
    assert check.message == "document: die line CutContour: no page has a path stroked in the CutContour separation"


@pytest.mark.parametrize(("value", "message"), [
    ("All", "All is the registration separation"),
    ("cut contour", "expected a separation name such as CutContour"),
])
def test_bad_die_line_names_are_refused(tmp_path: Path, value: str, message: str) -> None:
    from tokengen.errors import CatalogueError

    path = tmp_path / "p.yaml"
    path.write_text(f"bad:\n  extends: home\n  cut_layer: {value!r}\n", "utf-8")
    with pytest.raises(CatalogueError, match=message):
        load_profiles(path)


def test_a_die_line_needs_a_sheet_output(tmp_path: Path) -> None:
    from tokengen.errors import CatalogueError

    path = tmp_path / "p.yaml"
    path.write_text("bad:\n  extends: tgc-chits\n  cut_layer: CutContour\n", "utf-8")
    with pytest.raises(CatalogueError, match=r"a die line needs a sheet output \(sheets, cut-svg, cut-dxf, cricut\), not png"):
        load_profiles(path)
