"""Template text stays inside the safe area of its token's shape: each text is shrunk (and moved
within its own box) until it fits the box clipped to the safe area, and what cannot fit even at
the smallest size is named by ``check`` and ``build`` before preflight would fail.

The PDFs are read back: every glyph box (pdfplumber's left/right and bottom, up to the font's
ascent) must lie inside the safe area, measured here with plain geometry of the shapes."""

from __future__ import annotations

import math
import shutil
import textwrap
from pathlib import Path

import pytest
from reportlab.pdfbase import pdfmetrics

from tests.pdfmeasure import chars
from tokengen import BuildOptions, SheetSpec, build_pdf, load_catalogue
from tokengen.geometry.pager import pages
from tokengen.geometry.shapes import sheet_for
from tokengen.geometry.textfit import Metrics, SafeArea, fit_line
from tokengen.preflight.checks import preflight
from tokengen.sources.fonts import register
from tokengen.sources.profiles import get_profile
from tokengen.units import parse_page

DATA = Path(__file__).parents[1] / "data" / "anygame-art"
LETTER = parse_page("letter")
HOME_SAFE = 72 / 16


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    """A copy of the user's catalogues and art."""
    shutil.copytree(DATA, tmp_path / "cat")
    return tmp_path / "cat"


def built(path: Path) -> tuple[Path, object, list]:
    """Build ``path`` at home (1/16 in safe area); (pdf, build result, cells of page 1)."""
    cat = load_catalogue(path)
    out = path.with_suffix(".pdf")
    result = build_pdf(cat, BuildOptions(sheet=SheetSpec(page=LETTER, size=cat.size)), out)
    spec = sheet_for(SheetSpec(page=LETTER, size=cat.size), cat)
    return out, result, next(pages(cat.count, spec)).cells


def token_chars(pdf: Path, cells) -> list[dict]:
    """pdfplumber's characters of page 1 above the calibration ruler (the tokens' text)."""
    lowest = min(c.trim.y for c in cells)
    return [c for c in chars(pdf) if c["y1"] > lowest]


def glyph_boxes(pdf: Path, cells) -> list[tuple[str, float, float, float, float]]:
    """(text, x0, y0, x1, y1) of every token character, pt, PDF space: pdfplumber's box from
    the descent, topped at the font's ascent (the box preflight measures)."""
    register()
    out = []
    for c in token_chars(pdf, cells):
        font = "DejaVuSans-Bold" if "Bold" in c["fontname"] else "DejaVuSans"
        ascent, descent = pdfmetrics.getAscentDescent(font, c["size"])
        out.append((c["text"], c["x0"], c["y0"], c["x1"], c["y0"] + ascent - descent))
    return out


def inside_rounded(p: tuple[float, float], trim, radius: float, safe: float) -> bool:
    """Whether ``p`` is at least ``safe`` inside a rounded-rectangle trim with corner ``radius``."""
    x0, y0, x1, y1 = trim.x + safe, trim.y + safe, trim.x1 - safe, trim.y1 - safe
    if not (x0 - 1e-6 <= p[0] <= x1 + 1e-6 and y0 - 1e-6 <= p[1] <= y1 + 1e-6):
        return False
    r = max(radius - safe, 0.0)
    cx, cy = min(max(p[0], x0 + r), x1 - r), min(max(p[1], y0 + r), y1 - r)
    return math.dist(p, (cx, cy)) <= r + 1e-6


def inside_pointy_hex(p: tuple[float, float], trim, safe: float) -> bool:
    """Whether ``p`` is at least ``safe`` inside a pointy-top hex (its flats vertical): within
    half the width across the flats, less ``safe``, along the three flats' normals."""
    cx, cy = trim.x + trim.w / 2, trim.y + trim.h / 2
    half = trim.w / 2 - safe
    return all(abs((p[0] - cx) * math.cos(a) + (p[1] - cy) * math.sin(a)) <= half + 1e-6 for a in (0, math.pi / 3, 2 * math.pi / 3))


def corners(box: tuple[str, float, float, float, float]) -> list[tuple[float, float]]:
    _, x0, y0, x1, y1 = box
    return [(x0, y0), (x1, y0), (x0, y1), (x1, y1)]


def home_of(box, cells):
    cx, cy = (box[1] + box[3]) / 2, (box[2] + box[4]) / 2
    return next(c.trim for c in cells if c.trim.x <= cx <= c.trim.x1 and c.trim.y <= cy <= c.trim.y1)


# -- the user's example ---------------------------------------------------------------------------
def test_users_rounded_tokens_keep_every_glyph_inside_the_safe_area(folder):
    pdf, result, cells = built(folder / "units.yaml")
    assert [w for w in result.warnings if "DPI" not in w] == []
    boxes = glyph_boxes(pdf, cells)
    assert "".join(b[0] for b in boxes).count("Archer") == 1 and len(boxes) > 60
    radius = 3 * 72 / 25.4
    for box in boxes:
        trim = home_of(box, cells)
        assert all(inside_rounded(p, trim, radius, HOME_SAFE) for p in corners(box)), box
    checks = {c.name: c for c in preflight(pdf, get_profile("home"))}
    assert checks["safe-area"].passed, checks["safe-area"].message


def test_users_stats_line_is_shrunk_and_lifted_only_as_far_as_needed(folder):
    """'6 / 2.5' at 0.92 of the height reached 4.03 pt from the trim at 7.2 pt: it now sits on
    the safe-area line (plus the 0.5 pt slack), a little smaller, inside its own old box."""
    pdf, _, cells = built(folder / "units.yaml")
    six = next(b for b in glyph_boxes(pdf, cells) if b[0] == "6")
    trim = home_of(six, cells)
    assert six[2] - trim.y == pytest.approx(HOME_SAFE + 0.5, abs=0.02)
    size = next(c["size"] for c in token_chars(pdf, cells) if c["text"] == "6")
    assert 6.0 < size < 7.2


def test_a_long_text_on_a_hex_is_shrunk_inside_the_hex(tmp_path):
    (tmp_path / "hex.yaml").write_text(textwrap.dedent("""\
        title: Hexes
        size: 1in
        shape: {kind: hex, orientation: pointy}
        fields: {name: text, strength: integer}
        template:
          - {rect: fill, fill: "#336633", bleed: true}
          - {text: "{name}", font: bold, at: [0.5, 0.7], width: 1.0, size: 0.14}
          - {text: "{strength}", at: [0.05, 0.5], align: left, size: 0.12}
        tokens:
          - {id: long, name: "Long Road Knight", strength: 6}
        """), "utf-8")
    pdf, result, cells = built(tmp_path / "hex.yaml")
    assert result.warnings == ()
    boxes = glyph_boxes(pdf, cells)
    assert "".join(b[0] for b in boxes) == "Long Road Knight6"
    for box in boxes:
        assert all(inside_pointy_hex(p, home_of(box, cells), HOME_SAFE) for p in corners(box)), box
    name = [c for c in token_chars(pdf, cells) if c["text"] != "6"]
    assert 4.0 <= name[0]["size"] < 0.14 * 72  # shrunk, not below the floor
    six = next(b for b in boxes if b[0] == "6")  # left-aligned at 0.05: moved in to the safe line
    assert six[1] - home_of(six, cells).x == pytest.approx(HOME_SAFE + 0.5, abs=0.02)


# -- what cannot fit is named -----------------------------------------------------------------------
HEX_WARNINGS = [
    "{f}:17: template[3]: token knight: '6 / 2.5' does not fit inside the 4.50pt safe area even at 4 pt; "
    "move it inwards, shorten it or make the token larger",
    "{f}:18: template[4]: token knight: 'Ça va — naïve' does not fit inside the 4.50pt safe area even at 4 pt; "
    "move it inwards, shorten it or make the token larger",
    "{f}:17: template[3]: token archer: '4 / 1' does not fit inside the 4.50pt safe area even at 4 pt; "
    "move it inwards, shorten it or make the token larger",
    "{f}:17: template[3]: token ghost: '2 / 0.5' does not fit inside the 4.50pt safe area even at 4 pt; "
    "move it inwards, shorten it or make the token larger",
]


def test_check_and_build_name_each_text_that_cannot_fit(folder, run, monkeypatch):
    monkeypatch.chdir(folder)
    expected = [w.format(f="hex.yaml") for w in HEX_WARNINGS]
    checked = run("check", "hex.yaml")
    assert checked.exit_code == 0
    lines = [line for line in checked.stdout.splitlines() if "text-outside-safe-area" in line]
    assert lines == [w.replace(": template[", ": warning text-outside-safe-area: template[", 1) for w in expected]
    assert "small-text" not in checked.stdout  # the stronger warning only
    build = run("build", "hex.yaml", "-o", "hex.pdf")
    assert build.exit_code == 0 and "Traceback" not in build.stderr
    assert [line for line in build.stderr.splitlines() if "safe area" in line] == [f"tokengen: warning: {w}" for w in expected]


def test_print_shop_export_scales_the_face_instead_of_failing(folder, run, monkeypatch):
    """1/8 in is more than the stats line at 0.92 of a 1 in token can clear when laid out for it;
    laid out once for the home 1/16 in, the whole face is scaled to keep inside, said once."""
    monkeypatch.chdir(folder)
    result = run("export", "units.yaml", "--profile", "print-shop", "-o", "shop")
    assert [line for line in result.stderr.splitlines() if "safe area" in line] == []
    assert [line for line in result.stdout.splitlines() if "safe area" in line] == [
        "faces scaled to 85.5 % about their centres to keep inside the 0.125in safe area "
        "(laid out for 0.0625in; set safe_area: in the catalogue to lay them out for it)"]
    assert result.exit_code == 0 and "fails preflight" not in result.stderr


# -- the geometry ------------------------------------------------------------------------------------
SQUARE = SafeArea(((5.0, 5.0), (67.0, 5.0), (67.0, 67.0), (5.0, 67.0)), 4.5)
ONE = Metrics(advance=3.0, ascent=0.9, descent=-0.2)  # a 3 em wide line


def test_a_line_that_fits_is_left_alone():
    placed = fit_line(SQUARE, ONE, 36.0, 30.0, "centre", 10.0)
    assert (placed.size, placed.left, placed.baseline, placed.fits) == (10.0, 21.0, 30.0, True)


def test_a_line_over_the_bottom_is_moved_up_within_its_box_and_shrunk():
    placed = fit_line(SQUARE, ONE, 36.0, 6.0, "centre", 10.0)  # box 4..15: clipped to 5..15
    assert placed.fits and placed.size == pytest.approx(10 / 1.1, abs=1e-6)
    assert placed.baseline + ONE.descent * placed.size == pytest.approx(5.0, abs=1e-6)


def test_a_line_wider_than_the_area_shrinks_to_its_width():
    placed = fit_line(SQUARE, ONE, 36.0, 30.0, "centre", 30.0)  # 90 pt wide, 62 pt of room
    assert placed.fits and placed.size == pytest.approx(62 / 3, abs=1e-6) and placed.left == pytest.approx(5.0, abs=1e-6)


def test_a_line_that_cannot_fit_is_set_at_the_floor_and_flagged():
    placed = fit_line(SQUARE, ONE, 36.0, -5.0, "left", 10.0)  # its whole box below the area
    assert not placed.fits and placed.size == 4.0
