"""``tokengen preflight``: passes our exports, fails each deliberately bad PDF for its own reason.

The bad PDFs are drawn here with plain ReportLab. :func:`make_pdf` draws a good single-pages
file (two 1 in + 1/8 in bleed pages, CMYK, embedded DejaVu, text in the safe area, boxes set);
each bad case changes one thing, and exactly the check named for it must fail.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from pypdf.generic import ArrayObject, DictionaryObject, NameObject
from reportlab.lib.colors import CMYKColor
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from tests.conftest import CATALOGUE
from tokengen.outputs.export import export
from tokengen.preflight import pdfx
from tokengen.preflight.checks import CHECKS, preflight
from tokengen.preflight.pdfwalk import embedded as _embedded
from tokengen.sources import fonts
from tokengen.sources.catalogue import load_catalogue
from tokengen.sources.profiles import load_profiles

PROFILES = load_profiles()
SINGLE = PROFILES["single-pages"]
EDGE = 90.0  # 1 in trim + 2 × 1/8 in bleed, pt


def make_pdf(path: Path, *, boxes: bool = True, bleed: float = 9.0, font: str | None = "embedded", rgb: bool = False,
             image: tuple[str, int, float] | None = None, image_in_form: float | None = None, inline: bool = False,
             text_at: tuple[float, float] = (45.0, 40.0), pages: int = 2, literal: str = "", x1a: bool = True) -> Path:
    """A small PDF; by default one every check passes for the single-pages profile.

    Args:
        image: (PIL mode, pixels, placed size in pt) of a square image drawn on the page.
        image_in_form: draw the image inside a Form XObject placed with this scale.
        inline: draw the image inline (BI … ID … EI) rather than as an XObject.
        literal: raw content-stream operators added to every page.
        x1a: made PDF/X-1a afterwards, as the export does (:func:`tokengen.preflight.pdfx.convert`).
    """
    regular, _ = fonts.register()
    canvas = Canvas(str(path), pagesize=(EDGE, EDGE), invariant=1,
                    **({"initialFontName": regular} if font == "embedded" else {}))
    for number in range(pages):
        if boxes:
            canvas.setTrimBox([9, 9, 81, 81])
            canvas.setBleedBox([9 - bleed, 9 - bleed, 81 + bleed, 81 + bleed])
        if rgb:
            canvas.setFillColorRGB(0.9, 0.2, 0.1)
        else:
            canvas.setFillColor(CMYKColor(0, 0.1, 0.3, 0))
        canvas.rect(0, 0, EDGE, EDGE, stroke=0, fill=1)
        if literal:
            canvas.addLiteral(literal)
        canvas.setFillColor(CMYKColor(0, 0, 0, 1))
        canvas.setFont(regular if font == "embedded" else "Helvetica", 9)
        canvas.drawCentredString(*text_at, "AGI")
        if image is not None:
            mode, px, placed = image
            picture = Image.new(mode, (px, px), 128 if mode == "L" else (200, 30, 30))
            if image_in_form is not None:
                if number == 0:
                    canvas.beginForm("art")
                    canvas.drawImage(ImageReader(picture), 9, 9, placed, placed)
                    canvas.endForm()
                canvas.saveState()
                canvas.scale(image_in_form, image_in_form)
                canvas.doForm("art")
                canvas.restoreState()
            elif inline:
                canvas.drawInlineImage(picture, 9, 9, placed, placed)
            else:
                canvas.drawImage(ImageReader(picture), 9, 9, placed, placed)
        canvas.showPage()
    canvas.save()
    if x1a:
        drawn = path.with_suffix(".drawn.pdf")
        path.rename(drawn)
        pdfx.convert(drawn, path, SINGLE)
    return path


def failing(checks: list[Any]) -> set[str]:
    return {c.name for c in checks if not c.passed}


#: Cards for the presets whose product trim is a card (2.5 × 3.5 in and the like): they refuse the
#: catalogue's 1 in squares, which would be stretched.
CARDS = """\
title: Cards
size: 2.5inx3.5in
fields: {name: text}
template:
  - {rect: fill, fill: "#ffffff", bleed: true}
  - {text: "{name}", at: [0.5, 0.5], size: 0.1}
tokens:
  - {name: Night}
"""


def _card_preset(name: str) -> bool:
    trim = PROFILES[name].trim
    return trim is not None and abs(trim[0] - trim[1]) > 1e-6


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Path]]:
    root = tmp_path_factory.mktemp("ours")
    cat = load_catalogue(CATALOGUE)

    def cards(name: str):  # cards of the preset's own trim (poker, mini, tarot, ...)
        width, height = PROFILES[name].trim
        path = root / f"cards-{name}.yaml"
        path.write_text(CARDS.replace("size: 2.5inx3.5in", f"size: {width}ptx{height}pt"), "utf-8")
        return load_catalogue(path)

    return {name: export(cards(name) if _card_preset(name) else cat, profile, root / name) for name, profile in PROFILES.items()}


@pytest.mark.parametrize("name", list(PROFILES))
def test_our_exports_pass(exported, name: str):
    pdf = exported[name][0]
    square = PROFILES[name].output != "sheets" and not _card_preset(name)
    checks = preflight(pdf, PROFILES[name], size=72.0 if square else None)
    assert failing(checks) == set(), [c.message for c in checks if not c.passed]
    assert [c.name for c in checks] == ["pages", "boxes", "bleed", "trim-size", "fonts", "colour", "images", "safe-area",
                                        "annotations", "transparency", "pdfx", "hairlines", "ink"] == list(CHECKS)
    assert not any(c.warning for c in checks), [c.message for c in checks if c.warning]


def test_the_good_fixture_passes(tmp_path: Path):
    assert failing(preflight(make_pdf(tmp_path / "good.pdf"), SINGLE, size=72.0)) == set()


def test_good_image_at_300_dpi_inside_a_form_passes(tmp_path: Path):
    # 600 px drawn 72 pt wide inside a form scaled × 2: 1 in → 2 in, 300 DPI exactly
    pdf = make_pdf(tmp_path / "art.pdf", image=("L", 600, 72.0), image_in_form=1.0)
    checks = {c.name: c for c in preflight(pdf, SINGLE)}
    assert checks["images"].passed and "600 DPI" in checks["images"].message


@pytest.mark.parametrize(("case", "kwargs", "check", "words"), [
    ("no-boxes", {"boxes": False}, {"boxes", "bleed", "pdfx"}, "page 1: no TrimBox and no BleedBox"),
    ("thin-bleed", {"bleed": 2.0}, {"bleed"}, "page 1: bleed 2.00 pt (0.028 in, 0.71 mm) is less than the profile's 0.125in (9.00 pt) (and 1 more)"),
    ("helvetica", {"font": "Helvetica"}, {"fonts"}, "page 1: font /Helvetica is not embedded (on the page) (and 1 more)"),
    ("rgb", {"rgb": True}, {"colour"}, "page 1: 1 RGB use, first: rg operator in page (and 1 more)"),
    ("rgb-sc", {"literal": "q /DeviceRGB cs 0.9 0.2 0.1 sc 0 0 5 5 re f Q"}, {"colour"}, "first: cs in colour space /DeviceRGB in page"),
    ("72-dpi", {"image": ("L", 72, 72.0)}, {"images"}, "page 1: image /FormXob."),
    ("72-dpi-in-form", {"image": ("L", 300, 72.0), "image_in_form": 2.0}, {"images"}, "is 150 DPI, less than 300"),
    ("rgb-image", {"image": ("RGB", 600, 72.0)}, {"colour"}, "RGB image /FormXob."),
    ("rgb-inline-image", {"image": ("RGB", 72, 72.0), "inline": True}, {"colour", "images"}, "inline RGB image in page"),
    ("text-at-edge", {"text_at": (45.0, 5.0)}, {"safe-area"},
     "page 1: 3 characters lie outside the safe area; the worst, 'A' at (37.1, 2.8) pt, is -6.16 pt from the trim "
     "(needs 0.125in = 9.00 pt) (and 1 more)"),
    ("odd-pages", {"pages": 3}, {"pages"}, "document: 3 pages, an odd count: every token needs a face and a back"),
])
def test_bad_pdfs_fail_for_their_reason(tmp_path: Path, case: str, kwargs: dict[str, Any], check: set[str], words: str):
    pdf = make_pdf(tmp_path / f"{case}.pdf", **kwargs)
    checks = preflight(pdf, SINGLE, size=72.0)
    assert failing(checks) == check
    first = next(c for c in checks if not c.passed)
    messages = " | ".join(c.message for c in checks if not c.passed)
    assert words in messages, messages
    assert first.page == (None if case == "odd-pages" else 1)  # the page count is the document's


@pytest.mark.parametrize(("text_x", "ok"), [(36.0, True), (70.0, False)])
def test_sheet_text_is_checked_against_each_tokens_own_trim(tmp_path: Path, text_x: float, ok: bool):
    """Two 1 in tokens as forms (BBox = trim + 1/8 in bleed) 1/4 in apart on a letter sheet; text
    near the inner cut edge of the left token is well inside the sheet's TrimBox but not in the
    token's safe area."""
    regular, _ = fonts.register()
    pdf = tmp_path / "sheet.pdf"
    canvas = Canvas(str(pdf), pagesize=(612, 792), invariant=1, initialFontName=regular)
    canvas.beginForm("token", -9, -9, 81, 81)
    canvas.setFillColor(CMYKColor(0, 0.1, 0.3, 0))
    canvas.rect(-9, -9, 90, 90, stroke=0, fill=1)
    canvas.setFillColor(CMYKColor(0, 0, 0, 1))
    canvas.setFont(regular, 9)
    canvas.drawCentredString(text_x, 36, "X")
    canvas.endForm()
    canvas.setTrimBox([100, 100, 262, 172])
    canvas.setBleedBox([91, 91, 271, 181])
    for x in (100, 190):
        canvas.saveState()
        canvas.translate(x, 100)
        canvas.doForm("token")
        canvas.restoreState()
    canvas.save()
    pdfx.convert(pdf.rename(tmp_path / "drawn.pdf"), pdf, PROFILES["print-shop"])
    checks = preflight(pdf, PROFILES["print-shop"])
    assert failing(checks) == (set() if ok else {"safe-area"})
    safe = next(c for c in checks if c.name == "safe-area")
    if ok:
        assert safe.message == "all 2 characters are at least 0.125in inside the trim, each token's own trim for 2 tokens placed as forms"
    else:
        assert safe.message == ("page 1: 2 characters lie outside the safe area; the worst, 'X' at (166.9, 133.8) pt, "
                                "is -1.08 pt from the token's trim (needs 0.125in = 9.00 pt)")


def test_wrong_trim_size_fails(tmp_path: Path):
    checks = preflight(make_pdf(tmp_path / "t.pdf"), SINGLE, size=108.0)
    assert failing(checks) == {"trim-size"}
    assert "trim 72.00 × 72.00 pt, expected 108.00 × 108.00 pt" in next(c for c in checks if not c.passed).message


def test_sheet_on_the_wrong_page_size_fails(exported):
    checks = preflight(exported["eu-3mm"][0], PROFILES["print-shop"])  # A4, checked as letter
    assert failing(checks) == {"trim-size", "bleed"}  # and 3 mm is less than 1/8 in
    assert "595.3 × 841.9 pt, the profile's sheet is 612.0 × 792.0 pt" in " ".join(c.message for c in checks)


def test_home_sheet_fails_print_shop_for_boxes_bleed_and_rgb(exported):
    checks = preflight(exported["home"][0], PROFILES["print-shop"])
    assert failing(checks) == {"boxes", "bleed", "colour", "pdfx"}


def test_type0_fonts_are_checked_through_their_descendant():
    def font(embedded: bool) -> DictionaryObject:
        descriptor = DictionaryObject({NameObject("/FontName"): NameObject("/X")})
        if embedded:
            descriptor[NameObject("/FontFile2")] = NameObject("/stand-in")
        child = DictionaryObject({NameObject("/Subtype"): NameObject("/CIDFontType2"), NameObject("/FontDescriptor"): descriptor})
        return DictionaryObject({NameObject("/Subtype"): NameObject("/Type0"), NameObject("/DescendantFonts"): ArrayObject([child])})

    assert _embedded(font(True)) and not _embedded(font(False))
    assert _embedded(DictionaryObject({NameObject("/Subtype"): NameObject("/Type3")}))


# -- command line -----------------------------------------------------------------------------------
def test_cli_passes_with_exit_0(exported, run):
    result = run("preflight", str(exported["print-shop"][0]))
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "13 of 13 checks passed (profile print-shop)" in result.stdout
    assert result.stderr == ""


def test_cli_fails_with_exit_1_and_one_line(tmp_path: Path, run):
    pdf = make_pdf(tmp_path / "bad.pdf", font="Helvetica", rgb=True)
    result = run("preflight", str(pdf), "--profile", "single-pages")
    assert result.exit_code == 1
    assert "FAIL  fonts        page 1: font /Helvetica is not embedded (on the page)" in result.stdout
    assert result.stderr == f"tokengen: error: {pdf}: 2 of 13 preflight checks failed (fonts, colour)\n"


def test_cli_json(tmp_path: Path, run):
    pdf = make_pdf(tmp_path / "bad.pdf", boxes=False)
    result = run("preflight", str(pdf), "--profile", "single-pages", "--format", "json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["passed"] is False and report["profile"] == "single-pages"
    boxes = next(c for c in report["checks"] if c["name"] == "boxes")
    assert boxes == {"name": "boxes", "passed": False, "page": 1, "message": "page 1: no TrimBox and no BleedBox (and 1 more)",
                     "problems": ["page 1: no TrimBox and no BleedBox", "page 2: no TrimBox and no BleedBox"], "warning": False}


def test_cli_labels_problems_of_the_whole_file_as_the_documents(tmp_path: Path, run):
    """Info keys, output intent and PDF version belong to no page: text and JSON say ``document``."""
    pdf = make_pdf(tmp_path / "plain.pdf", x1a=False)
    problems = ["document: no /GTS_PDFXVersion in the Info dictionary: not labelled PDF/X",
                "document: PDF version 1.4; PDF/X-1a:2001 allows at most 1.3",
                "document: no /GTS_PDFX output intent; PDF/X needs exactly one"]
    result = run("preflight", str(pdf), "--profile", "single-pages")
    assert result.exit_code == 1
    assert f"FAIL  pdfx         {problems[0]} (and 2 more)\n{'':19}{problems[1]}\n{'':19}{problems[2]}\n" in result.stdout
    report = json.loads(run("preflight", str(pdf), "--profile", "single-pages", "--format", "json").stdout)
    assert next(c for c in report["checks"] if c["name"] == "pdfx") == {
        "name": "pdfx", "passed": False, "page": None, "message": f"{problems[0]} (and 2 more)", "problems": problems, "warning": False}


def test_counts_are_written_in_words_without_a_plural_s_in_brackets(tmp_path: Path):
    one = make_pdf(tmp_path / "one.pdf", pages=1)
    messages = {c.name: c.message for c in preflight(one, SINGLE)}
    assert messages["pages"] == "document: 1 page, an odd count: every token needs a face and a back"
    assert next(c for c in preflight(one, PROFILES["home"]) if c.name == "pages").message == "1 page"
    assert messages["fonts"] == "the only font is embedded"
    assert messages["safe-area"] == "all 3 characters are at least 0.125in inside the trim"
    blank = tmp_path / "blank.pdf"
    Canvas(str(blank), pagesize=(EDGE, EDGE), invariant=1).save()  # one empty page: no text at all
    messages = {c.name: c.message for c in preflight(blank, PROFILES["home"])}
    assert messages["safe-area"] == "no visible text to check"
    assert messages["fonts"] == "no fonts used"


@pytest.mark.parametrize(("content", "reason"), [
    (None, "file not found"),
    (b"", "not a readable PDF"),
    (b"title: not a pdf\n", "not a readable PDF"),
    (b"%PDF-1.4\n%garbage", "not a readable PDF"),
])
def test_cli_unreadable_file_exits_2(tmp_path: Path, run, content: bytes | None, reason: str):
    path = tmp_path / "x.pdf"
    if content is not None:
        path.write_bytes(content)
    result = run("preflight", str(path))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"tokengen: error: {path}: {reason}")
    assert result.stderr.count("\n") == 1


def test_help_has_examples(run):
    for command in ("export", "preflight"):
        result = run(command, "--help")
        assert result.exit_code == 0
        assert "Examples:" in result.stdout and f"tokengen {command}" in result.stdout


def test_nested_form_bomb_is_refused_quickly(tmp_path: Path, run):
    """Forms that each place the one below ten times, six deep: a million placements from a few
    hundred bytes. Preflight stops at its placement limit instead of walking them all."""
    pdf = tmp_path / "bomb.pdf"
    canvas = Canvas(str(pdf), pagesize=(EDGE, EDGE), invariant=1)
    canvas.beginForm("f0")
    canvas.rect(0, 0, 1, 1)
    canvas.endForm()
    for level in range(1, 7):
        canvas.beginForm(f"f{level}")
        for _ in range(10):
            canvas.doForm(f"f{level - 1}")
        canvas.endForm()
    canvas.doForm("f6")
    canvas.save()
    result = run("preflight", str(pdf))
    assert result.exit_code == 2
    assert result.stderr == (f"tokengen: error: {pdf}: Form XObject and image placements (nested forms included): "
                             "more than the limit of 500,000 (raise it with --max-placements)\n")


@pytest.mark.parametrize(("password", "code"), [("secret", 2), ("", 0)])
def test_encrypted_pdfs(tmp_path: Path, run, password: str, code: int):
    from reportlab.lib.pdfencrypt import StandardEncryption

    pdf = tmp_path / "locked.pdf"
    regular, _ = fonts.register()
    canvas = Canvas(str(pdf), pagesize=(612, 792), invariant=1, initialFontName=regular,
                    encrypt=StandardEncryption(password, "owner", canPrint=1))
    canvas.drawString(72, 72, "AGI")
    canvas.showPage()
    canvas.save()
    result = run("preflight", str(pdf), "--profile", "home")
    assert result.exit_code == code, result.stdout + result.stderr
    if code == 2:
        assert result.stderr == f"tokengen: error: {pdf}: the PDF is encrypted with a password; preflight needs a file that opens without one\n"


def test_a_pdf_without_pages_fails_the_page_count(tmp_path: Path):
    pdf = tmp_path / "empty.pdf"
    Canvas(str(pdf), invariant=1).save()
    checks = preflight(pdf, PROFILES["home"])
    assert failing(checks) == {"pages"}
    assert next(c for c in checks if c.name == "pages").message == "the PDF has no pages"
