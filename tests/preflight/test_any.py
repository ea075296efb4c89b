"""Preflight reads any PDF right: our exports moved, rotated, rescaled and annotated (with
pikepdf) get the verdict of the originals; every new check has a fixture failing for its reason;
text boxes agree with pdfplumber; PDF/X-1a exports pass Ghostscript and qpdf too.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import zlib
from dataclasses import replace
from pathlib import Path
from typing import Any

import pikepdf
import pytest

from tests.conftest import CATALOGUE
from tests.preflight.test_checks import SINGLE, failing, make_pdf
from tokengen.outputs.export import export
from tokengen.preflight import pdfx
from tokengen.preflight.checks import preflight
from tokengen.preflight.pdfwalk import Budget, Limits, Walker, open_pdf
from tokengen.sources.catalogue import load_catalogue
from tokengen.sources.profiles import load_profiles

PROFILES = load_profiles()
HOME = PROFILES["home"]
SHOP = PROFILES["print-shop"]


@pytest.fixture(scope="module")
def ours(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("ours")
    cat = load_catalogue(CATALOGUE)
    return {name: export(cat, PROFILES[name], root / name)[0] for name in ("print-shop", "single-pages", "eu-3mm", "home")}


def size_for(name: str) -> float | None:
    return None if PROFILES[name].output == "sheets" else 72.0


def verdict(pdf: Path, name: str) -> tuple[set[str], dict[str, str]]:
    checks = preflight(pdf, PROFILES[name], size=size_for(name))
    return failing(checks), {c.name: c.message for c in checks}


# -- variants made with pikepdf ----------------------------------------------------------------------
BOXES = ("/MediaBox", "/CropBox", "/TrimBox", "/BleedBox", "/ArtBox")


def _wrap(pdf: Any, page: Any, before: bytes) -> None:
    page.contents_add(pdf.make_stream(b"q " + before + b"\n"), prepend=True)
    page.contents_add(pdf.make_stream(b"\nQ"), prepend=False)


def shifted(src: Path, dst: Path, dx: float = 1000.0, dy: float = -500.0) -> Path:
    """Every box and the drawing moved by (dx, dy): prints the same."""
    with pikepdf.open(src) as pdf:
        for page in pdf.pages:
            for key in BOXES:
                if key in page.obj:
                    x0, y0, x1, y1 = (float(v) for v in page.obj[key])
                    page.obj[key] = pikepdf.Array([x0 + dx, y0 + dy, x1 + dx, y1 + dy])
            _wrap(pdf, page, b"1 0 0 1 %g %g cm" % (dx, dy))
        pdf.save(dst)
    return dst


def rotated(src: Path, dst: Path, angle: int = 90) -> Path:
    with pikepdf.open(src) as pdf:
        for page in pdf.pages:
            page.obj.Rotate = angle
        pdf.save(dst)
    return dst


def user_unit(src: Path, dst: Path, unit: float = 2.0) -> Path:
    """/UserUnit 2 with every box and the drawing halved: the same physical page."""
    with pikepdf.open(src) as pdf:
        for page in pdf.pages:
            for key in BOXES:
                if key in page.obj:
                    page.obj[key] = pikepdf.Array([float(v) / unit for v in page.obj[key]])
            page.obj.UserUnit = unit
            _wrap(pdf, page, b"%g 0 0 %g 0 0 cm" % (1 / unit, 1 / unit))
        pdf.save(dst)
    return dst


def annotated(src: Path, dst: Path, *, font: str = "embedded", flags: int = 4, subtype: str = "/FreeText") -> Path:
    """A note on page 1 whose appearance draws text: in the file's own embedded font, or in
    an unembedded Helvetica (as a PDF editor adds it)."""
    with pikepdf.open(src) as pdf:
        page = pdf.pages[0]
        if font == "embedded":
            fonts = [f for x in page.obj.Resources.get("/XObject", {}).values() for f in x.get("/Resources", {}).get("/Font", {}).values()]
            fonts += list(page.obj.Resources.get("/Font", {}).values())
            ref = fonts[0]
        else:
            ref = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                                                       BaseFont=pikepdf.Name.Helvetica))
        ap = pdf.make_stream(b"q 0 0 0 1 k BT /N1 8 Tf 2 4 Td (Note) Tj ET Q", Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form,
                             BBox=[0, 0, 40, 14], Resources=pikepdf.Dictionary(Font=pikepdf.Dictionary(N1=ref)))
        media = [float(v) for v in page.obj.MediaBox]
        annot = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Annot, Subtype=pikepdf.Name(subtype), F=flags,
                                                     Rect=[media[0] + 1, media[1] + 1, media[0] + 41, media[1] + 15],
                                                     Contents=pikepdf.String("Note"), AP=pikepdf.Dictionary(N=ap)))
        page.obj.Annots = pdf.make_indirect(pikepdf.Array([annot]))
        if subtype == "/Widget":  # a text field
            annot.FT, annot.T = pikepdf.Name.Tx, pikepdf.String("note")
            pdf.Root.AcroForm = pikepdf.Dictionary(Fields=pikepdf.Array([annot]))
        pdf.save(dst)
    return dst


def inherited(src: Path, dst: Path) -> Path:
    """Every page's resources moved up to the page tree's root, which the pages inherit."""
    with pikepdf.open(src) as pdf:
        shared: dict[str, pikepdf.Dictionary] = {}
        for page in pdf.pages:
            for category, entries in page.obj.Resources.items():
                if isinstance(entries, pikepdf.Dictionary):
                    merged = shared.setdefault(category, pikepdf.Dictionary())
                    for key, value in entries.items():
                        merged[key] = value
            del page.obj["/Resources"]
        pdf.Root.Pages.Resources = pikepdf.Dictionary(shared)
        pdf.save(dst)
    return dst


VARIANTS = {"inherited": inherited, "shifted": shifted, "rotated": rotated, "rotated-270": lambda s, d: rotated(s, d, 270), "user-unit": user_unit}


@pytest.mark.parametrize("name", ["print-shop", "single-pages", "eu-3mm"])
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_moved_rotated_and_rescaled_exports_get_the_same_verdict(ours, tmp_path: Path, name: str, variant: str):
    original, messages = verdict(ours[name], name)
    assert original == set(), messages
    moved = VARIANTS[variant](ours[name], tmp_path / f"{variant}.pdf")
    got, got_messages = verdict(moved, name)
    assert got == original, got_messages
    # the same numbers: characters counted, least bleed, thinnest stroke, highest ink
    for check in ("safe-area", "bleed", "hairlines", "ink", "trim-size"):
        assert got_messages[check] == messages[check]


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_failing_file_fails_the_same_way_when_moved(tmp_path: Path, variant: str):
    bad = make_pdf(tmp_path / "edge.pdf", text_at=(45.0, 5.0))
    original = preflight(bad, SINGLE, size=72.0)
    moved = preflight(VARIANTS[variant](bad, tmp_path / "moved.pdf"), SINGLE, size=72.0)
    assert failing(original) == failing(moved) == {"safe-area"}
    first = next(c for c in original if c.name == "safe-area").message
    again = next(c for c in moved if c.name == "safe-area").message
    # the same distance from the trim whatever the origin or unit (positions move with the origin)
    assert first.split(" pt, is ")[1] == again.split(" pt, is ")[1]


@pytest.mark.parametrize("name", ["print-shop", "single-pages"])
def test_an_annotated_export_keeps_its_verdict_and_warns(ours, tmp_path: Path, name: str):
    checks = preflight(annotated(ours[name], tmp_path / "note.pdf"), PROFILES[name], size=size_for(name))
    assert failing(checks) == set()
    note = next(c for c in checks if c.name == "annotations")
    assert note.passed and note.warning
    assert note.message.startswith("page 1: printable annotation /FreeText at (")


def test_an_unembedded_font_in_an_annotation_fails_with_page_and_where(ours, tmp_path: Path):
    checks = preflight(annotated(ours["single-pages"], tmp_path / "note.pdf", font="Helvetica"), SINGLE, size=72.0)
    assert failing(checks) == {"fonts"}
    fonts = next(c for c in checks if c.name == "fonts")
    assert fonts.message == "page 1: font /Helvetica is not embedded (in annotation 1 (/FreeText) appearance)"


def test_hidden_and_screen_only_annotations_are_not_printed(ours, tmp_path: Path):
    for flags in (0, 2 | 4):  # not printable; hidden
        checks = preflight(annotated(ours["single-pages"], tmp_path / f"n{flags}.pdf", font="Helvetica", flags=flags), SINGLE, size=72.0)
        assert failing(checks) == set()
        assert not next(c for c in checks if c.name == "annotations").warning


def test_form_fields_warn(ours, tmp_path: Path):
    checks = preflight(annotated(ours["single-pages"], tmp_path / "w.pdf", subtype="/Widget", flags=0), SINGLE, size=72.0)
    note = next(c for c in checks if c.name == "annotations")
    assert note.warning and note.message.startswith("page 1: form field /Widget at (")


# -- fonts reached anywhere --------------------------------------------------------------------------
def _helvetica(pdf: Any) -> Any:
    return pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica))


def with_hidden_font(src: Path, dst: Path, where: str) -> Path:
    """Helvetica drawn inside a form inside a form, in a tiling pattern, or by a Type 3 glyph."""
    with pikepdf.open(src) as pdf:
        page = pdf.pages[0]
        text = b"BT /H 6 Tf 20 20 Td (x) Tj ET"
        fonts = pikepdf.Dictionary(H=_helvetica(pdf))
        if where == "nested":
            inner = pdf.make_stream(b"0 0 0 1 k " + text, Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form, BBox=[0, 0, 72, 72],
                                    Resources=pikepdf.Dictionary(Font=fonts))
            outer = pdf.make_stream(b"/In Do", Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form, BBox=[0, 0, 72, 72],
                                    Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary(In=inner)))
            page.obj.Resources.XObject = pikepdf.Dictionary(Out=outer)
            page.contents_add(pdf.make_stream(b"q /Out Do Q"))
        elif where == "pattern":
            cell = pdf.make_stream(b"0 0 0 1 k " + text, PatternType=1, PaintType=1, TilingType=1, BBox=[0, 0, 10, 10], XStep=10, YStep=10,
                                   Resources=pikepdf.Dictionary(Font=fonts))
            page.obj.Resources.Pattern = pikepdf.Dictionary(P1=cell)
            page.contents_add(pdf.make_stream(b"q /Pattern cs /P1 scn 30 30 10 10 re f Q"))
        else:  # type3
            glyph = pdf.make_stream(b"1000 0 d0 " + text)
            t3 = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type3, FontBBox=[0, 0, 1000, 1000],
                                                      FontMatrix=[0.001, 0, 0, 0.001, 0, 0], CharProcs=pikepdf.Dictionary(g=glyph),
                                                      Encoding=pikepdf.Dictionary(Differences=[65, pikepdf.Name.g]), FirstChar=65,
                                                      LastChar=65, Widths=[1000], Resources=pikepdf.Dictionary(Font=fonts)))
            page.obj.Resources.Font = pikepdf.Dictionary(T3=t3)
            page.contents_add(pdf.make_stream(b"q 0 0 0 1 k BT /T3 8 Tf 40 40 Td (A) Tj ET Q"))
        pdf.save(dst)
    return dst


@pytest.mark.parametrize(("where", "label"), [
    ("nested", "in form /In in form /Out"),
    ("pattern", "in pattern /P1 in page"),
    ("type3", "in Type 3 glyph /g of font /T3"),
])
def test_a_missing_font_anywhere_fails_with_page_and_where(tmp_path: Path, where: str, label: str):
    pdf = with_hidden_font(make_pdf(tmp_path / "good.pdf"), tmp_path / f"{where}.pdf", where)
    checks = preflight(pdf, SINGLE, size=72.0)
    assert "fonts" in failing(checks)
    fonts = next(c for c in checks if c.name == "fonts")
    assert fonts.page == 1
    assert f"font /Helvetica is not embedded ({label}" in fonts.message, fonts.message


# -- the new checks, each failing for its reason -------------------------------------------------------
def test_characters_outside_the_safe_area_are_one_line_per_page_and_trim(ours, tmp_path: Path, run):
    """A TrimBox edited with pikepdf leaves hundreds of characters outside the safe area: the
    report has one line per page and kind of trim (a token's, the sheet's), with the count and
    the character farthest out, not one line per character."""
    pdf = tmp_path / "trimmed.pdf"
    with pikepdf.open(ours["print-shop"]) as doc:
        doc.pages[0].obj.TrimBox = pikepdf.Array([150, 150, 450, 600])
        doc.save(pdf)
    lines = ["page 1: 179 characters lie outside the safe area; the worst, 'M' at (161.5, 509.4) pt, is -0.56 pt "
             "from the token's trim (needs 0.125in = 9.00 pt)",  # the faces scaled as one piece for 1/8 in (issue 23)
             "page 1: 248 characters lie outside the safe area; the worst, 'n' at (546.5, 599.4) pt, is -100.63 pt "
             "from the trim, outside every token (needs 0.125in = 9.00 pt)"]
    result = run("preflight", str(pdf))
    assert result.exit_code == 1
    assert f"FAIL  safe-area    {lines[0]} (and 1 more)\n{'':19}{lines[1]}\nPASS  annotations" in result.stdout
    report = json.loads(run("preflight", str(pdf), "--format", "json").stdout)
    assert next(c for c in report["checks"] if c["name"] == "safe-area") == {
        "name": "safe-area", "passed": False, "page": 1, "message": f"{lines[0]} (and 1 more)", "problems": lines, "warning": False}


def test_one_character_outside_the_safe_area_is_named(tmp_path: Path):
    pdf = make_pdf(tmp_path / "dot.pdf", pages=1, literal="BT /F1 9 Tf 2 40 Td (.) Tj ET")
    with pikepdf.open(pdf, allow_overwriting_input=True) as doc:  # the text "AGI" stays well inside
        font = next(iter(doc.pages[0].obj.Resources.Font.values()))
        doc.pages[0].obj.Resources.Font.F1 = font
        doc.save(pdf)
    safe = next(c for c in preflight(pdf, SINGLE, size=72.0) if c.name == "safe-area")
    assert safe.message == "page 1: 1 character lies outside the safe area: '.' at (2.0, 37.8) pt is -7.00 pt from the trim (needs 0.125in = 9.00 pt)"


def test_transparency_fails_under_pdfx_and_warns_otherwise(tmp_path: Path):
    pdf = make_pdf(tmp_path / "alpha.pdf", literal="q /GSa gs 0 0 0 1 k 20 20 10 10 re f Q")
    with pikepdf.open(pdf, allow_overwriting_input=True) as doc:
        for page in doc.pages:
            page.obj.Resources.ExtGState = pikepdf.Dictionary(GSa=pikepdf.Dictionary(ca=0.5, BM=pikepdf.Name.Multiply))
        doc.save(pdf)
    checks = preflight(pdf, SINGLE, size=72.0)
    assert failing(checks) == {"transparency"}
    trans = next(c for c in checks if c.name == "transparency")
    assert trans.message == "page 1: 2 uses of transparency, first: fill alpha 0.5 (ExtGState /GSa) in page (and 1 more)"
    home = {c.name: c for c in preflight(pdf, HOME)}
    assert home["transparency"].passed and home["transparency"].warning


def test_a_soft_masked_image_is_transparency(tmp_path: Path):
    pdf = make_pdf(tmp_path / "smask.pdf", image=("L", 300, 72.0))
    with pikepdf.open(pdf, allow_overwriting_input=True) as doc:
        for _name, image in doc.pages[0].obj.Resources.XObject.items():
            image.SMask = doc.make_stream(b"\xff" * 300 * 300, Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image, Width=300, Height=300,
                                          ColorSpace=pikepdf.Name.DeviceGray, BitsPerComponent=8)
        doc.save(pdf)
    checks = preflight(pdf, SINGLE, size=72.0)
    assert failing(checks) == {"transparency"}
    assert "soft mask on image /" in next(c for c in checks if c.name == "transparency").message


@pytest.mark.parametrize(("change", "words"), [
    (lambda d: d.docinfo.__delitem__("/GTS_PDFXVersion"), "document: no /GTS_PDFXVersion in the Info dictionary: not labelled PDF/X"),
    (lambda d: d.docinfo.__setitem__("/Trapped", pikepdf.Name.Unknown), "document: /Trapped is /Unknown; PDF/X needs /True or /False"),
    (lambda d: d.Root.__delitem__("/OutputIntents"), "document: no /GTS_PDFX output intent; PDF/X needs exactly one"),
    (lambda d: d.docinfo.__delitem__("/Title"), "document: no Title in the Info dictionary"),
    (lambda d: d.pages[1].obj.__delitem__("/TrimBox"), "page 2: no TrimBox (or ArtBox); PDF/X needs one on every page"),
])
def test_pdfx_keys_missing_fail_the_pdfx_check(ours, tmp_path: Path, change: Any, words: str):
    pdf = tmp_path / "x.pdf"
    with pikepdf.open(ours["single-pages"]) as doc:
        change(doc)
        doc.save(pdf, force_version="1.3")
    checks = preflight(pdf, SINGLE, size=72.0)
    assert "pdfx" in failing(checks)
    x = next(c for c in checks if c.name == "pdfx")
    assert words in x.problems, x.problems
    assert failing(checks) <= {"pdfx", "boxes", "bleed", "trim-size"}


def test_pdf_version_above_1_3_fails_pdfx(ours, tmp_path: Path):
    pdf = tmp_path / "v14.pdf"
    with pikepdf.open(ours["single-pages"]) as doc:
        doc.save(pdf, min_version="1.4")
    checks = preflight(pdf, SINGLE, size=72.0)
    assert failing(checks) == {"pdfx"}
    assert next(c for c in checks if c.name == "pdfx").message == "document: PDF version 1.4; PDF/X-1a:2001 allows at most 1.3"
    assert failing(preflight(pdf, replace(SINGLE, pdfx="none"), size=72.0)) == set()  # a profile without PDF/X does not ask


@pytest.mark.parametrize(("literal", "width"), [
    ("q 0.1 w 0 0 0 1 K 20 20 m 60 20 l S Q", "0.100"),
    ("q 0.5 0 0 0.5 0 0 cm 0.4 w 0 0 0 1 K 40 40 m 100 40 l S Q", "0.200"),  # 0.4 pt drawn at half size
])
def test_hairlines_warn_with_their_width(tmp_path: Path, literal: str, width: str):
    checks = preflight(make_pdf(tmp_path / "thin.pdf", literal=literal), SINGLE, size=72.0)
    assert failing(checks) == set()
    hair = next(c for c in checks if c.name == "hairlines")
    assert hair.warning
    assert hair.message.startswith(f"page 1: a stroke {width} pt wide on the page, thinner than 0.25 pt")


@pytest.mark.parametrize(("fill", "total"), [("1 1 1 0.9", 390), ("0.8 0.8 0.8 0.8", 320)])  # 320 %: a rich black a shop refuses
def test_total_ink_over_the_limit_fails_with_the_highest_and_where(tmp_path: Path, fill: str, total: int):
    pdf = make_pdf(tmp_path / "ink.pdf", literal=f"q {fill} k 20 20 10 10 re f Q")
    checks = preflight(pdf, SINGLE, size=72.0)
    assert failing(checks) == {"ink"}
    ink = next(c for c in checks if c.name == "ink")
    assert ink.message == f"page 1: total ink {total} % (fill {total} % in page) is over the profile's limit of 300 % (and 1 more)"


def test_ink_outside_the_bleed_does_not_count(tmp_path: Path):
    """Registration-coloured marks (400 %) beyond the BleedBox, as crop marks are."""
    pdf = make_pdf(tmp_path / "marks.pdf", bleed=4.0, literal="q 1 1 1 1 K 0.3 w 0 2 m 3 2 l S Q")
    checks = {c.name: c for c in preflight(pdf, replace(SINGLE, bleed=4.0), size=72.0)}
    assert checks["ink"].passed, checks["ink"].message
    assert "the highest 400 %" not in checks["ink"].message


def test_ink_of_a_cmyk_image_pixel(tmp_path: Path):
    pdf = make_pdf(tmp_path / "img.pdf")
    with pikepdf.open(pdf, allow_overwriting_input=True) as doc:
        pixels = bytes([0, 0, 0, 0] * 299 + [255, 255, 255, 128])  # one pixel of 350 %
        image = doc.make_stream(zlib.compress(pixels * 300), Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image, Width=300, Height=300,
                                ColorSpace=pikepdf.Name.DeviceCMYK, BitsPerComponent=8, Filter=pikepdf.Name.FlateDecode)
        for page in doc.pages:
            page.obj.Resources.XObject = pikepdf.Dictionary(Im=image)
            page.contents_add(doc.make_stream(b"q 72 0 0 72 9 9 cm /Im Do Q"))
        doc.save(pdf)
    checks = preflight(pdf, SINGLE, size=72.0)
    assert failing(checks) == {"ink"}
    assert next(c for c in checks if c.name == "ink").message.startswith(
        "page 1: total ink 350 % (image /Im pixel 350 % in page) is over the profile's limit of 300 %")


def test_the_ink_limit_comes_from_the_profile_with_a_default(tmp_path: Path):
    assert pdfx.ink_limit(SINGLE) == getattr(SINGLE, "ink_limit", 300)

    class Loose:
        ink_limit = 400

    assert pdfx.ink_limit(Loose()) == 400.0 and pdfx.ink_limit(object()) == 300.0


# -- text positions --------------------------------------------------------------------------------------
def test_character_boxes_match_pdfplumber_within_0_1_pt(ours):
    import pdfplumber

    path = ours["single-pages"]
    pdf = open_pdf(path, Limits())
    walker = Walker(pdf, Budget(Limits()), 300)
    mine = []
    for n, page in enumerate(pdf.pages[:6], 1):
        summary = walker.page(page, n)
        for key, m, _ in summary.children:
            for (x0, y0, x1, y1), text in walker.measure(key, m[:4]).chars:
                mine.append((text, round(x0 + m[4], 1), round(y0 + m[5], 1), x1 + m[4], y1 + m[5], n))
    with pdfplumber.open(path) as plumb:
        theirs = []
        for n, page in enumerate(plumb.pages[:6], 1):
            for ch in page.chars:
                if ch["text"].strip():
                    theirs.append((ch["text"], ch["x0"], page.height - ch["bottom"], ch["x1"], page.height - ch["top"], n))
    assert len(mine) == len(theirs) > 50
    for a, b in zip(sorted(mine, key=lambda c: (c[5], c[0], c[1], c[2])), sorted(theirs, key=lambda c: (c[5], c[0], round(c[1], 1), round(c[2], 1)))):
        assert a[0] == b[0] and a[5] == b[5]
        assert max(abs(a[i] - b[i]) for i in (1, 2, 3, 4)) < 0.1, (a, b)


def test_character_boxes_match_pdfium_loose_boxes_within_0_1_pt(ours):
    """pdfium's loose character box spans the font's descent to its ascent, as ours does."""
    import pypdfium2 as pdfium

    path = ours["single-pages"]
    pdf = open_pdf(path, Limits())
    walker = Walker(pdf, Budget(Limits()), 300)
    doc = pdfium.PdfDocument(str(path))
    try:
        for n in (1, 2, 5):
            summary = walker.page(pdf.pages[n - 1], n)
            mine = sorted((t, x0 + m[4], y0 + m[5], x1 + m[4], y1 + m[5]) for key, m, _ in summary.children
                          for (x0, y0, x1, y1), t in walker.measure(key, m[:4]).chars)
            text = doc[n - 1].get_textpage()
            theirs = sorted((text.get_text_range(i, 1), *text.get_charbox(i, loose=True)) for i in range(text.count_chars())
                            if text.get_text_range(i, 1).strip())
            assert len(mine) == len(theirs) > 5
            for a, b in zip(mine, theirs):
                assert a[0] == b[0] and max(abs(a[i] - b[i]) for i in (1, 2, 3, 4)) < 0.1, (a, b)
    finally:
        doc.close()


# -- PDF/X-1a exports, read by others --------------------------------------------------------------------
@pytest.mark.parametrize("name", ["print-shop", "eu-3mm", "single-pages"])
def test_pdfx_exports_carry_every_key(ours, name: str):
    icc = pdfx.output_intent(PROFILES[name]).icc.read_bytes()
    with pikepdf.open(ours[name]) as pdf:
        assert pdf.pdf_version == "1.3"
        info = pdf.docinfo
        assert str(info["/GTS_PDFXVersion"]) == "PDF/X-1:2001" and str(info["/GTS_PDFXConformance"]) == "PDF/X-1a:2001"
        assert info["/Trapped"] == pikepdf.Name("/False") and str(info["/Title"]) and str(info["/CreationDate"]) and str(info["/ModDate"])
        assert len(pdf.trailer.ID) == 2
        (intent,) = pdf.Root.OutputIntents
        assert intent.S == pikepdf.Name("/GTS_PDFX") and str(intent.OutputConditionIdentifier) == "FOGRA39"
        assert str(intent.RegistryName) == "http://www.color.org"
        assert intent.DestOutputProfile.read_bytes() == icc and int(intent.DestOutputProfile.N) == 4
        for page in pdf.pages:
            assert "/TrimBox" in page.obj and "/BleedBox" in page.obj and "/Group" not in page.obj
        assert pdfx.problems(pdf) == []


@pytest.mark.skipif(shutil.which("gs") is None, reason="Ghostscript (Debian package ghostscript) is not installed")
@pytest.mark.parametrize("name", ["print-shop", "eu-3mm", "single-pages"])
def test_ghostscript_reads_our_pdfx_without_a_warning(ours, name: str):
    result = subprocess.run(["gs", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=nullpage", "-q", str(ours[name])],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and result.stdout == "" and result.stderr == "", result.stdout + result.stderr


@pytest.mark.skipif(shutil.which("qpdf") is None, reason="qpdf (Debian package qpdf) is not installed")
@pytest.mark.parametrize("name", ["print-shop", "eu-3mm", "single-pages"])
def test_qpdf_check_is_clean(ours, name: str):
    result = subprocess.run(["qpdf", "--check", str(ours[name])], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "No syntax or stream encoding errors found" in result.stdout and "WARNING" not in result.stdout + result.stderr


def test_pdfx_conversion_changes_no_pixel(ours, tmp_path: Path):
    """The PDF/X file renders exactly as ReportLab's drawing did."""
    import pypdfium2 as pdfium

    before = export(load_catalogue(CATALOGUE), replace(SINGLE, pdfx="none"), tmp_path / "plain")[0]

    def render(path: Path) -> bytes:
        doc = pdfium.PdfDocument(str(path))
        try:
            return doc[1].render(scale=2).to_pil().tobytes()
        finally:
            doc.close()

    assert render(before) == render(ours["single-pages"])
    with pikepdf.open(before) as pdf:
        assert pdf.pdf_version == "1.4" and "/OutputIntents" not in pdf.Root


def test_pdfx_export_is_deterministic(ours, tmp_path: Path):
    again = export(load_catalogue(CATALOGUE), PROFILES["print-shop"], tmp_path / "again")[0]
    assert again.read_bytes() == ours["print-shop"].read_bytes()


def test_a_pdfx_profile_must_be_cmyk_with_boxes(tmp_path: Path):
    from tokengen.errors import CatalogueError

    user = tmp_path / "p.yaml"
    user.write_text("mine:\n  extends: home\n  pdfx: x1a\n")
    with pytest.raises(CatalogueError, match=r"p.yaml:3: mine.pdfx: x1a \(PDF/X-1a\) needs colour: cmyk, boxes: true"):
        load_profiles(user)


@pytest.mark.parametrize("crop, expected", [(None, (0.0, 0.0, 200.0, 100.0)), ([0, 0, 100], (0.0, 0.0, 200.0, 100.0)),
                                            ([150, 90, 10, 20], (10.0, 20.0, 150.0, 90.0))])
def test_a_missing_or_unreadable_cropbox_is_the_mediabox(tmp_path: Path, crop: Any, expected: tuple[float, ...]):
    from tokengen.preflight.pdfwalk import page_boxes

    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(200, 100))
    if crop is not None:
        pdf.pages[0].obj["/CropBox"] = pikepdf.Array(crop)
    assert page_boxes(pdf.pages[0]) == {"media": (0.0, 0.0, 200.0, 100.0), "crop": expected}
