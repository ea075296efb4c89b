"""Where the calibration ruler and caption go (issue 26): across the foot, or up the left margin
beside the block when the foot strip would cost a sheet (``--furniture full``, the default),
whenever that holds as many (``compact``), or nowhere (``none``).

Measured: 63 × 88 mm poker cards are 9 a page on Letter and A4 at the default 1/4 in margin,
counted from the token forms placed on the PDF's pages; the Meatshields sheet keeps its strip at
the foot (so its build is unchanged); the side strip's ruler, note and caption lie inside the
strip, clear of the printer's dead zone, and no cut-line guide runs into it.
"""

from __future__ import annotations

from pathlib import Path

import pikepdf
import pytest
from click.testing import CliRunner

from tokengen.cli import app
from tokengen.geometry import furniture, pager, shapes
from tokengen.geometry.imposition import CALIBRATION_HEIGHT, Rect, SheetSpec
from tokengen.outputs.build import build_pdf
from tokengen.outputs.options import BuildOptions
from tokengen.sources.catalogue import load_catalogue
from tokengen.units import parse_page

ROOT = Path(__file__).resolve().parents[2]
MEATSHIELDS = ROOT / "token_defs.yaml"
POKER = ROOT / "examples" / "poker-cards" / "cards.yaml"


def placed_per_page(pdf_path: Path, width: float) -> list[int]:
    """How many token forms (BBox ``width`` pt wide) each page of ``pdf_path`` places."""
    out = []
    with pikepdf.open(pdf_path) as pdf:
        for page in pdf.pages:
            forms = {str(k): v for k, v in page.Resources.get("/XObject", {}).items()}
            count = 0
            for operands, op in pikepdf.parse_content_stream(page):
                if str(op) == "Do":
                    bbox = forms[str(operands[0])].get("/BBox")
                    if bbox is not None and abs(float(bbox[2]) - float(bbox[0]) - width) < 0.01:
                        count += 1
            out.append(count)
    return out


def spec_for(catalogue, page: str, furniture: str = "full") -> SheetSpec:
    """The sheet ``build`` asks for (``--furniture full`` by default)."""
    return shapes.sheet_for(SheetSpec(page=parse_page(page), size=catalogue.size, group=catalogue.columns, furniture=furniture), catalogue)


@pytest.mark.parametrize(("page", "side"), [("letter", True), ("a4", False)])
def test_poker_cards_are_nine_a_page_on_letter_and_a4(tmp_path: Path, page: str, side: bool) -> None:
    cards = load_catalogue(POKER)
    target = tmp_path / f"{page}.pdf"
    result = build_pdf(cards, BuildOptions(sheet=spec_for(cards, page), copies=3), target)
    assert result.pages == 3  # 24 cards
    assert placed_per_page(target, 63 * 72 / 25.4) == [9, 9, 6]
    settled = pager.plan(cards.count, spec_for(cards, page), 3).spec
    assert settled.side is side  # A4 has room for 3 rows under the foot strip; Letter has not
    assert not [w for w in result.warnings if "printers cannot print" in w]


def test_a_spec_made_by_hand_keeps_the_foot_strip() -> None:
    cards = load_catalogue(POKER)
    assert pager.plan(cards.count, spec_for(cards, "letter", "foot")).spec.side is False
    assert pager.plan(cards.count, spec_for(cards, "letter", "foot")).pages == 2


@pytest.mark.parametrize("page", ["letter", "a4"])
def test_the_meatshields_strip_stays_at_the_foot(page: str) -> None:
    catalogue = load_catalogue(MEATSHIELDS)
    settled = pager.plan(catalogue.count, spec_for(catalogue, page)).spec
    assert settled.side is False
    layout = next(pager.pages(catalogue.count, settled))
    assert layout.calibration == Rect(18.0, 18.0, parse_page(page)[0] - 36.0, CALIBRATION_HEIGHT)


def test_a_side_strip_holds_its_furniture_and_no_guide_enters_it(tmp_path: Path) -> None:
    catalogue = load_catalogue(MEATSHIELDS)
    # A4: 7 x 10 under a foot strip, 7 x 11 beside a side strip (Letter: 8 x 10, 7 x 11, so compact keeps the foot)
    assert pager.plan(catalogue.count, spec_for(catalogue, "letter", furniture="compact")).spec.side is False
    spec = pager.plan(catalogue.count, spec_for(catalogue, "a4", furniture="compact")).spec
    assert spec.side is True
    page = next(pager.pages(catalogue.count, spec))
    strip = page.calibration
    assert strip == Rect(18.0, 18.0, CALIBRATION_HEIGHT, parse_page("a4")[1] - 36.0)
    assert page.block.x >= strip.x1 + 6.0 - 1e-9  # the block is right of the strip and its gap
    assert all(min(line.x0, line.x1) >= strip.x1 + 1.0 - 1e-9 for line in page.cut_lines)
    widths = {}

    def measure(text: str, size: float) -> float:  # DejaVu Sans averages about 0.55 em a character
        return widths.setdefault((text, size), 0.55 * size * len(text))

    plan = furniture.calibration(furniture.upright(strip), ["Meatshields · page 1 of 1"], measure)
    assert plan.ruler is not None and plan.note is not None and plan.caption is not None
    for box in furniture.on_page(furniture.boxes(plan, measure), strip):
        assert strip.contains(box, tol=1e-6)
    result = build_pdf(catalogue, BuildOptions(sheet=spec), tmp_path / "side.pdf")
    assert not [w for w in result.warnings if "printers cannot print" in w or "left out" in w]


def test_on_page_turns_a_quarter_turn_about_the_strip() -> None:
    strip = Rect(18.0, 18.0, 22.0, 756.0)
    assert furniture.upright(strip) == Rect(0.0, 0.0, 756.0, 22.0)
    # the ruler's bar corner (2, 9) in the upright strip lies 9 pt left of the strip's right edge, 2 pt up
    assert furniture.on_page([Rect(2.0, 9.0, 72.0, 5.0)], strip) == [Rect(40.0 - 14.0, 20.0, 5.0, 72.0)]
    foot = Rect(18.0, 18.0, 576.0, 22.0)
    assert furniture.upright(foot) == foot and furniture.on_page([foot], foot) == [foot]


@pytest.mark.parametrize(("choice", "forms"), [("full", True), ("none", False)])
def test_build_takes_furniture(tmp_path: Path, choice: str, forms: bool) -> None:
    target = tmp_path / "cards.pdf"
    result = CliRunner().invoke(app.cli, ["build", str(POKER), "--copies", "2", "--furniture", choice, "-o", str(target)])
    assert result.exit_code == 0, result.output
    assert placed_per_page(target, 63 * 72 / 25.4) == [9, 7]
    with pikepdf.open(target) as pdf:
        names = {str(k) for k in pdf.pages[0].Resources.XObject}
    assert any("calibration" in n for n in names) is forms


def test_unknown_furniture_is_refused() -> None:
    result = CliRunner().invoke(app.cli, ["build", str(POKER), "--furniture", "side"])
    assert result.exit_code == 2
    assert "'side' is not one of 'full', 'compact', 'none'" in result.output
