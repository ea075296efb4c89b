"""The example catalogues in examples/ build on Letter and A4, with duplex backs, as
fold-over sheets and as print-shop files; the tests count and measure what they print."""

from __future__ import annotations

import re

import openpyxl
import pdfplumber
import pytest
from pypdf import PdfReader

from tests.conftest import ROOT, manual
from tests.sources.test_anygame import pdf_paths
from tokengen import load_catalogue

EXAMPLES = ROOT / "examples"
CASES = {
    # name: (catalogue, physical tokens, a word on every face of one design, how many of it)
    "hex-counters": ("hex-counters/counters.yaml", 20, "6-4", 6),
    "status-tokens": ("status-tokens/status.yaml", 36, "Stunned", 6),
    "poker-cards": ("poker-cards/cards.yaml", 8, "Knight", 2),
    "nato-counters": ("nato-counters/counters.yaml", 14, "5-4", 2),
    "dial": ("dial/dial.yaml", 2, "Empire", 1),
    "two-layouts": ("two-layouts/deck.yaml", 6, "CREATURE", 4),
    "mixed-sizes": ("mixed-sizes/mixed.yaml", 26, "Infantry", 6),
    "spell-cards": ("spell-cards/spells.yaml", 4, "Shield", 1),
}
#: The examples of square tokens, cut along straight lines across the sheet (no outline per token).
SQUARE = ("poker-cards", "nato-counters", "two-layouts", "spell-cards")
#: The examples of several token sizes: built by ``build``, refused by print-shop exports
#: (tests/outputs/test_mixed_sizes.py reads their cut lines and outlines band by band).
MIXED = ("mixed-sizes",)


def words(pdf, page):
    with pdfplumber.open(pdf) as doc:
        return [w["text"] for w in doc.pages[page].extract_words()]


@pytest.mark.parametrize("page", ["letter", "a4"])
@pytest.mark.parametrize("mode", ["faces", "duplex", "fold"])
@pytest.mark.parametrize("name", list(CASES))
def test_example_builds(tmp_path, run, name, page, mode):
    catalogue, count, word, times = CASES[name]
    out = tmp_path / "out.pdf"
    extra = {"faces": [], "duplex": ["--backs", "duplex"], "fold": ["--fold"]}[mode]
    result = run("build", str(EXAMPLES / catalogue), "--page", page, *extra, "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert f"{count} tokens" in result.stdout
    reader = PdfReader(out)
    faces = range(0, len(reader.pages), 2) if mode == "duplex" else range(len(reader.pages))
    seen = sum(words(out, p).count(word) for p in faces)
    assert seen == times
    if mode == "faces" and name not in SQUARE + MIXED:  # one cut outline per token (hexes: 6 corners, circles: 4 curves)
        outlines = [p for n in range(len(reader.pages)) for p in pdf_paths(out, n) if len(p) in (5, 6)]
        assert len(outlines) == count


#: What an example's shop export warns (issue 23: the size the PDF holds; the faces of the 5/8 in
#: counters are scaled for the shop's larger safe area, and their turned unit numbers read small).
SHOP_WARNINGS = {
    ("nato-counters", "print-shop"): "tokengen: warning: {unit} text is 4.35 pt on 8 tokens (us-1-16, us-2-16, us-26, …), below 5 pt at 0.625in\n",
    ("nato-counters", "eu-3mm"): "tokengen: warning: {unit} text is 4.51 pt on 8 tokens (us-1-16, us-2-16, us-26, …), below 5 pt at 0.625in\n",
}


@pytest.mark.parametrize("profile", ["print-shop", "eu-3mm"])
@pytest.mark.parametrize("name", [n for n in CASES if n not in MIXED])
def test_example_shop_exports_pass_preflight(tmp_path, run, name, profile):
    catalogue, count, word, times = CASES[name]
    result = run("export", str(EXAMPLES / catalogue), "--profile", profile, "-o", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    assert f"passes every check of profile {profile}" in result.stdout and result.stderr == SHOP_WARNINGS.get((name, profile), "")
    pdf = next(tmp_path.glob("*.pdf"))
    reader = PdfReader(pdf)
    assert len(reader.pages) % 2 == 0  # each face sheet followed by its back sheet
    seen = sum(words(pdf, n).count(word) for n in range(0, len(reader.pages), 2))
    assert seen >= times and seen % times == 0  # the profiles fill the sheets with whole sets


def test_hex_counter_backs_show_the_reduced_side(tmp_path, run):
    out = tmp_path / "out.pdf"
    assert run("build", str(EXAMPLES / "hex-counters/counters.yaml"), "--backs", "-o", str(out)).exit_code == 0
    front, back = words(out, 0), words(out, 1)
    # 1/12 has strength 6, reduced 3, move 4: three copies of each side
    assert front.count("6-4") == 6 and back.count("3-4") == 6 and "3-4" not in front
    cat = load_catalogue(EXAMPLES / "hex-counters/counters.yaml")
    assert len({t.back for t in cat.tokens}) == len(cat.tokens)  # every counter its own back


def test_hex_counters_xlsx_is_what_the_script_writes(tmp_path):
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_tokens", EXAMPLES / "hex-counters/make_tokens.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    book = openpyxl.load_workbook(EXAMPLES / "hex-counters/tokens.xlsx", read_only=True)
    try:
        assert [tuple(r) for r in book.worksheets[0].iter_rows(values_only=True)] == module.ROWS
    finally:
        book.close()


def test_status_tokens_for_a_one_inch_punch(tmp_path, run):
    out = tmp_path / "out.pdf"
    assert run("build", str(EXAMPLES / "status-tokens/status.yaml"), "--punch", "-o", str(out)).exit_code == 0
    with pdfplumber.open(out) as pdf:
        strip = 18 + 22  # the calibration strip at the foot of the page has short ticks of its own
        ticks = [ln for ln in pdf.pages[0].lines if max(abs(ln["x1"] - ln["x0"]), abs(ln["y1"] - ln["y0"])) == pytest.approx(3.5)
                 and 11 * 72 - ln["bottom"] > strip]
    assert len(ticks) == 4 * 36
    cat = load_catalogue(EXAMPLES / "status-tokens/status.yaml")
    assert cat.size == 72.0 and cat.shape.kind == "circle" and cat.back is not None  # one shared back


def test_poker_cards_print_shop(tmp_path, run):
    result = run("export", str(EXAMPLES / "poker-cards/cards.yaml"), "--profile", "print-shop", "-o", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    assert "passes every check of profile print-shop" in result.stdout
    pdf = tmp_path / "poker-cards-print-shop.pdf"
    reader = PdfReader(pdf)
    assert len(reader.pages) == 4  # 4 cards a sheet: 2 face sheets, each followed by its back sheet
    trim = [float(v) for v in reader.pages[0].trimbox]
    # two columns of 63 mm cards with a 1/4 in gutter, two rows of 88 mm
    assert trim[2] - trim[0] == pytest.approx(2 * 63 * 72 / 25.4 + 18, abs=0.01)
    assert trim[3] - trim[1] == pytest.approx(2 * 88 * 72 / 25.4 + 18, abs=0.01)
    content = reader.pages[0].get_contents().get_data().decode("latin-1")
    assert not re.search(r"\brg\b", content)  # CMYK only
    back_words = words(pdf, 1)
    assert back_words.count("DECK") == 4


@pytest.mark.parametrize("page", ["letter", "a4"])
def test_rules_cards_wrap_their_rules_with_icons(tmp_path, run, page):
    out = tmp_path / "out.pdf"
    result = run("build", str(EXAMPLES / "rules-cards/cards.yaml"), "--page", page, "-o", str(out))
    # issue 37: icons are resampled as image: art is (96 px icons print at under 8 pt: above 600 DPI)
    assert result.exit_code == 0 and result.stderr == (
        "tokengen: warning: 2 pictures resampled to 600 DPI (icons/sword.png, icons/shield.png); --keep-resolution keeps them\n"), result.stderr
    assert "3 tokens" in result.stdout
    with pdfplumber.open(out) as doc:
        p = doc.pages[0]
        rules = [c for c in p.chars if c["size"] < 11.5 and c["top"] < p.height - 60 and c["text"] != " "]
        assert len(p.images) == 5  # sword, shield, shield, shield, sword, each on its text's line
        bold = "".join(c["text"] for c in rules if c["fontname"].endswith("DejaVuSans-Bold"))
        assert "Play" in bold
        assert any(c["fontname"].endswith("DejaVuSans-BoldOblique") for c in rules)
    assert "…" not in "".join(words(out, 0))


def test_example_pages_are_in_the_gallery():
    readme = manual()
    for name in [*CASES, "rules-cards"]:
        picture = EXAMPLES / name / "page.png"
        assert picture.exists() and f"examples/{name}/page.png" in readme


def test_card_pngs_and_per_token_backs_on_single_pages(tmp_path, run):
    from PIL import Image

    result = run("export", str(EXAMPLES / "poker-cards/cards.yaml"), "--profile", "tgc-chits", "-o", str(tmp_path / "tgc"))
    assert result.exit_code == 0 and "passes every check" in result.stdout
    sizes = set()
    for p in (tmp_path / "tgc").glob("*.png"):
        with Image.open(p) as im:
            sizes.add(im.size)
    assert sizes == {(819, 1114)}  # (63 + 2 × 3.175) mm × (88 + 2 × 3.175) mm at 300 DPI
    result = run("export", str(EXAMPLES / "hex-counters/counters.yaml"), "--profile", "single-pages", "-o", str(tmp_path / "sp"))
    assert result.exit_code == 0
    pdf = tmp_path / "sp" / "hex-counters-single-pages.pdf"
    reader = PdfReader(pdf)
    assert len(reader.pages) == 2 * 20
    backs = [words(pdf, n) for n in range(1, 40, 2)]  # face, then back, for every counter
    assert [w for page in backs for w in page if "-" in w] == ["3-4"] * 6 + ["5-6"] * 2 + ["2-3"] * 2 + ["1-5"] + ["2-4"] * 4 + ["4-6"] * 2 + ["2-3"] * 2 + ["1-5"]


def _face_forms(pdf):
    """{token id: the operators of its face form} on page 1, read with pikepdf."""
    import pikepdf

    doc = pikepdf.open(pdf)
    forms = {str(k).split("face-", 1)[1]: pikepdf.parse_content_stream(v)
             for k, v in doc.pages[0].Resources.XObject.items() if "face-" in str(k)}
    return doc, forms


def test_nato_counters_draw_the_unit_symbol_with_a_rect_and_two_lines(tmp_path, run):
    out = tmp_path / "out.pdf"
    result = run("build", str(EXAMPLES / "nato-counters/counters.yaml"), "-o", str(out))
    assert result.exit_code == 0 and result.stderr == "", result.stderr
    doc, forms = _face_forms(out)
    ops = [str(op.operator) for op in forms["us-26"]]
    assert ops.count("re") == 2  # the counter's fill and the symbol's box
    strokes = [i for i, op in enumerate(ops) if op == "S"]
    assert len(strokes) == 2 and all(ops[i - 2:i] == ["m", "l"] for i in strokes)  # two straight lines across the box
    tm, shown = None, {}
    for op in forms["us-26"]:
        if str(op.operator) == "Tm":
            tm = [round(float(v), 6) for v in op.operands[:4]]
        elif str(op.operator) == "Tj":
            shown[str(op.operands[0])] = tm
    assert shown["26"] == [0.0, 1.0, -1.0, 0.0]  # the unit number reads upwards, as real text
    assert shown["5-4"] == [1.0, 0.0, 0.0, 1.0]
    doc.close()


def test_dial_draws_ring_sectors_and_labels_along_the_circle(tmp_path, run):
    out = tmp_path / "out.pdf"
    result = run("build", str(EXAMPLES / "dial/dial.yaml"), "-o", str(out))
    assert result.exit_code == 0 and result.stderr == "", result.stderr
    doc, forms = _face_forms(out)
    ops = forms["empire"]
    names = [str(op.operator) for op in ops]
    assert names.count("h") >= 8 and names.count("c") >= 16  # eight ring segments: an outer and an inner arc each
    letters = [str(op.operands[0]) for op in ops if str(op.operator) == "Tj"]
    assert "".join(letters[:7]) == "PRODUCE"  # a1, one letter per text matrix
    assert sum(1 for op in ops if str(op.operator) == "sh") == 1  # the hub's radial gradient
    doc.close()
