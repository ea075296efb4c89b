"""Boxed face text: the markup (tokengen.sources.markup) and the engine (tokengen.faces.textbox),
measured in the PDF it draws: pdfplumber's characters (font, size, position), its images, and
pypdfium2's pixels."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pdfplumber
import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops
from reportlab.lib.units import mm
from reportlab.pdfgen import canvas

from tokengen.errors import CatalogueError, RenderError
from tokengen.faces import textbox
from tokengen.sources import fonts, markup
from tokengen.sources.markup import Break, Icon, Run

TOL = 0.01

RULES = ("**Ambush.** When this unit is deployed, roll :sword: once for each enemy token in the bag and "
         "remove one of them for every result above three. If it is defending, it gains :shield: until "
         "the end of the round and may not be targeted by ranged attacks this turn. Then discard it face down afterwards.\n\n"
         "*Steel remembers what flesh forgets.*")


@pytest.fixture(scope="module")
def icons(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("icons")
    Image.new("RGB", (64, 64), (200, 0, 0)).save(folder / "sword.png")
    Image.new("RGB", (96, 64), (0, 0, 200)).save(folder / "shield.png")
    return {"sword": str(folder / "sword.png"), "shield": str(folder / "shield.png")}


def _pdf(path: Path, laid: textbox.Laid, x: float, y: float, page: tuple[float, float] = (63 * mm, 88 * mm)) -> Path:
    c = canvas.Canvas(str(path), pagesize=page, invariant=1)
    textbox.draw(c, laid, x, y)
    c.save()
    return path


def _chars(path: Path) -> tuple[list[dict], list[dict], float]:
    with pdfplumber.open(path) as pdf:
        page = pdf.pages[0]
        return list(page.chars), list(page.images), float(page.height)


def _inside(chars: list[dict], x: float, y: float, w: float, h: float) -> None:
    for ch in chars:  # pdfplumber: x0..x1 the advance, y0..y1 the font's descent..ascent about the baseline
        assert x - TOL <= ch["x0"] and ch["x1"] <= x + w + TOL, ch
        assert y - TOL <= ch["y0"] and ch["y1"] <= y + h + TOL, ch


def _words(text: str) -> list[str]:
    return [w.strip("*") for w in text.split() if not (w.startswith(":") and w.endswith(":"))]


# ---- markup --------------------------------------------------------------------------------


def test_styles_toggle_and_nest():
    assert markup.parse("a **b *c* d** ***e*** f") == ((
        Run("a "), Run("b ", bold=True), Run("c", bold=True, italic=True), Run(" d", bold=True), Run(" "),
        Run("e", bold=True, italic=True), Run(" f")),)


def test_escapes_lone_stars_and_colons_are_text():
    assert markup.parse(r"2 * 3 \*not\* a\:b\:c \\ Range: 3 at 10:30:00") == ((Run(r"2 * 3 *not* a:b:c \ Range: 3 at 10:30:00"),),)


def test_newline_breaks_blank_line_paragraphs():
    assert markup.parse("one\ntwo\n \n\nthree\r\nfour") == ((Run("one"), Break(), Run("two")), (Run("three"), Break(), Run("four")))


def test_icons_and_unknown_icon_message():
    icons = {"sword": "s.png", "shield": "h.png"}
    assert markup.parse("hit :sword:!", icons) == ((Run("hit "), Icon("sword", "s.png"), Run("!")),)
    with pytest.raises(CatalogueError) as err:
        markup.parse("roll :swrod:", icons, path="cards.yaml", line=7, field="tokens[2].rules")
    assert str(err.value) == r"cards.yaml:7: tokens[2].rules: unknown icon ':swrod:'; did you mean 'sword'?; write \: for a colon"
    with pytest.raises(CatalogueError) as err:
        markup.parse("roll :dice:")
    assert str(err.value) == r"<text>: unknown icon ':dice:' (no icons are defined); write \: for a colon"


def test_unclosed_star_is_an_error():
    with pytest.raises(CatalogueError) as err:
        markup.parse("**Charge. Roll twice", path="c.yaml", line=3, field="rules")
    assert str(err.value) == r"c.yaml:3: rules: '**' is never closed in the paragraph '**Charge. Roll twice'; write \* for a star"


def test_markup_off_is_exact_and_xml_escaped():
    doc = markup.parse("**a** <b> & :sword: \\*", markup=False)
    assert doc == ((Run("**a** <b> & :sword: \\*"),),)
    assert markup.to_xml(doc[0], lambda icon: (0, 0)) == "**a** &lt;b&gt; &amp; :sword: \\*"


def test_nfc_soft_hyphen_and_no_break_space_kept():
    nfd = unicodedata.normalize("NFD", "Việt ễ")
    assert nfd != "Việt ễ"
    assert markup.parse(nfd) == ((Run("Việt ễ"),),)
    assert markup.parse("extra\u00adordinary 10\u00a0mm \uef00") == ((Run("extra\u00adordinary 10\u00a0mm \uef00"),),)


def test_truncate_counts_words_and_characters():
    doc = markup.parse("**One two** three :sword: four", {"sword": "s.png"})
    assert markup.word_count(doc) == 5
    short, words, chars = markup.truncate(doc, 2)
    assert short == ((Run("One two…", bold=True),),) and (words, chars) == (3, len("three") + 1 + len("four"))
    short, words, chars = markup.truncate(doc, 4)
    assert short == ((Run("One two", bold=True), Run(" three "), Icon("sword", "s.png"), Run("…")),) and (words, chars) == (1, 4)
    assert markup.truncate(doc, 5) == (doc, 0, 0)
    assert markup.word_count(markup.parse("10\u00a0mm")) == 1  # a no-break space joins its words


# ---- the engine, read back from the PDF ---------------------------------------------------------


def test_card_rules_box_one_size_inside_the_box(tmp_path: Path, icons: dict[str, str]):
    assert len(RULES.split()) == 60
    bx, by, bw, bh = 4 * mm, 4 * mm, 55 * mm, 36 * mm
    laid = textbox.fit_box(RULES, bw, bh, size=11, min_size=5, icons=icons)
    assert 7 <= laid.size < 11 and laid.shrunk and not laid.truncated
    chars, images, _ = _chars(_pdf(tmp_path / "card.pdf", laid, bx, by))
    assert {round(ch["size"], 3) for ch in chars} == {round(laid.size, 3)}
    _inside(chars, bx, by, bw, bh)
    with pdfplumber.open(tmp_path / "card.pdf") as pdf:
        printed = [w["text"] for w in pdf.pages[0].extract_words()]
    assert printed == _words(RULES)
    fonts_of = {}
    for ch in chars:
        fonts_of.setdefault(ch["fontname"].split("+")[1], []).append(ch["text"])
    assert "".join(fonts_of["DejaVuSans-Bold"]) == "Ambush."
    assert "".join(fonts_of["DejaVuSans-Oblique"]) == "Steel remembers what flesh forgets."
    # the two icons: size high, on the baseline of the words beside them, inside the box
    assert len(images) == 2
    for img in images:
        assert img["height"] == pytest.approx(laid.size, abs=TOL)
        assert bx - TOL <= img["x0"] and img["x1"] <= bx + bw + TOL and by - TOL <= img["y0"] and img["y1"] <= by + bh + TOL
        beside = [ch for ch in chars if abs(ch["matrix"][5] - img["y0"]) < TOL]
        assert len(beside) > 10  # the image's bottom edge is that line's baseline
    assert sorted(round(i["width"] / i["height"], 3) for i in images) == [1.0, 1.5]
    # the lines the result reports are the lines printed
    assert len(laid.lines) == len({round(ch["matrix"][5], 2) for ch in chars})
    assert laid.lines[0].startswith("Ambush. When") and any(":sword:" in line for line in laid.lines)


def test_justified_lines_fill_the_width(tmp_path: Path):
    text = " ".join(_words(RULES))
    laid = textbox.fit_box(text, 50 * mm, 40 * mm, size=9, align="justify")
    chars, _, _ = _chars(_pdf(tmp_path / "j.pdf", laid, 5, 5))
    _inside(chars, 5, 5, 50 * mm, 40 * mm)
    ends = {}
    for ch in chars:
        if ch["text"] != " ":
            ends[round(ch["matrix"][5], 2)] = max(ends.get(round(ch["matrix"][5], 2), 0), ch["x1"])
    rows = [ends[y] for y in sorted(ends, reverse=True)]
    assert len(rows) == len(laid.lines) > 3
    assert all(x1 == pytest.approx(5 + 50 * mm, abs=TOL) for x1 in rows[:-2])  # the paragraph's last line stays ragged


def test_justified_lines_with_an_icon_stay_inside(tmp_path: Path, icons: dict[str, str]):
    bx, by, bw, bh = 4 * mm, 4 * mm, 55 * mm, 36 * mm
    laid = textbox.fit_box(RULES, bw, bh, size=11, icons=icons, align="justify")
    chars, _, _ = _chars(_pdf(tmp_path / "ji.pdf", laid, bx, by))
    _inside(chars, bx, by, bw, bh)


def test_bisection_gives_the_largest_size_that_fits(icons: dict[str, str]):
    w, h = 55 * mm, 36 * mm
    laid = textbox.fit_box(RULES, w, h, size=14, icons=icons)
    assert laid.size == round(laid.size, 2)
    assert not textbox.fit_box(RULES, w, h, size=laid.size, fit=False, icons=icons).truncated
    assert textbox.fit_box(RULES, w, h, size=laid.size + 0.1, fit=False, icons=icons).truncated
    assert laid.height <= h


def test_text_that_fits_keeps_its_size(tmp_path: Path):
    laid = textbox.fit_box("Short.", 100, 50, size=9, valign="bottom")
    assert (laid.size, laid.shrunk, laid.lines) == (9, False, ("Short.",))
    chars, _, _ = _chars(_pdf(tmp_path / "s.pdf", laid, 10, 10, page=(200, 200)))
    assert {round(ch["size"], 3) for ch in chars} == {9}
    assert min(ch["y0"] for ch in chars) == pytest.approx(10, abs=TOL)  # bottom: the descender on the box's bottom edge


def test_overflow_at_min_size_ends_in_ellipsis_and_reports_the_cut(tmp_path: Path, icons: dict[str, str]):
    bw, bh = 40 * mm, 12 * mm
    laid = textbox.fit_box(RULES, bw, bh, size=10, min_size=6, icons=icons)
    assert laid.size == 6 and laid.truncated and laid.lines[-1].endswith("…")
    chars, _, _ = _chars(_pdf(tmp_path / "o.pdf", laid, 5, 5))
    assert chars[-1]["text"] == "…" and {round(ch["size"], 3) for ch in chars} == {6}
    _inside(chars, 5, 5, bw, bh)
    with pdfplumber.open(tmp_path / "o.pdf") as pdf:
        printed = [w["text"] for w in pdf.pages[0].extract_words()]
    icons_kept = sum(line.count(":sword:") + line.count(":shield:") for line in laid.lines)
    kept = len(printed) + icons_kept
    assert kept + laid.cut_words == 60
    tokens = [w.strip("*") for w in RULES.split()]
    assert printed[-1] == tokens[kept - 1] + "…" and [w for w in tokens[:kept] if not w.startswith(":")] == printed[:-1] + [tokens[kept - 1]]
    assert laid.cut_chars == sum(1 if w.startswith(":") else len(w) for w in tokens[kept:])  # an icon counts as one


def test_fit_false_never_shrinks(tmp_path: Path, icons: dict[str, str]):
    laid = textbox.fit_box(RULES, 40 * mm, 20 * mm, size=10, min_size=5, fit=False, icons=icons)
    assert laid.size == 10 and not laid.shrunk and laid.truncated
    chars, _, _ = _chars(_pdf(tmp_path / "f.pdf", laid, 5, 5))
    assert {round(ch["size"], 3) for ch in chars} == {10}
    _inside(chars, 5, 5, 40 * mm, 20 * mm)


@pytest.mark.parametrize("align", ["left", "centre", "right"])
def test_alignment_and_middle(tmp_path: Path, align: str):
    laid = textbox.fit_box("Hold", 100, 60, size=10, align=align, valign="middle")
    chars, _, _ = _chars(_pdf(tmp_path / "a.pdf", laid, 0, 0, page=(100, 60)))
    x0, x1 = chars[0]["x0"], chars[-1]["x1"]
    assert {"left": x0, "centre": (x0 + x1) / 2, "right": x1}[align] == pytest.approx({"left": 0, "centre": 50, "right": 100}[align], abs=TOL)
    assert laid.top_gap == pytest.approx((60 - laid.height) / 2)


def _render(path: Path) -> Image.Image:
    pdf = pdfium.PdfDocument(str(path))
    try:
        return pdf[0].render(scale=6).to_pil().convert("L")
    finally:
        pdf.close()


def test_nfd_and_nfc_render_the_same(tmp_path: Path):
    nfc = "Việt ễ"
    nfd = unicodedata.normalize("NFD", nfc)
    pics = []
    for name, text in (("nfc", nfc), ("nfd", nfd)):
        laid = textbox.fit_box(text, 120, 30, size=14)
        chars, _, _ = _chars(_pdf(tmp_path / f"{name}.pdf", laid, 0, 0, page=(120, 30)))
        assert "".join(ch["text"] for ch in chars) == nfc  # the precomposed glyphs
        pics.append(_render(tmp_path / f"{name}.pdf"))
    diff = ImageChops.difference(*pics)
    assert diff.getextrema()[1] <= 2
    assert ImageChops.difference(pics[0], Image.new("L", pics[0].size, 255)).getbbox() is not None  # something was drawn


def test_soft_hyphen_breaks_only_where_needed():
    wide = textbox.fit_box("extra\u00adordinary", 300, 30, size=10, fit=False)
    assert wide.lines == ("extraordinary",)
    narrow = textbox.fit_box("extra\u00adordinary", 45, 40, size=10, fit=False)
    assert narrow.lines == ("extra-", "ordinary")


def test_glyph_check_covers_each_style():
    fam = fonts.register_family()
    assert textbox.missing_glyphs(markup.parse("\u0621 \uef00"), fam) == []  # Arabic hamza, a Private Use glyph: both in regular
    assert textbox.missing_glyphs(markup.parse("*\u0621*"), fam) == [("DejaVuSans-Oblique", "\u0621")]
    with pytest.raises(RenderError) as err:
        textbox.fit_box("**x \u4e2d**", 100, 40)
    assert str(err.value) == "text: font DejaVuSans-Bold has no glyph for '中' (U+4E2D)"


def test_family_has_four_styles():
    fam = fonts.register_family()
    assert (fam.regular, fam.bold, fam.italic, fam.bold_italic) == (
        "DejaVuSans", "DejaVuSans-Bold", "DejaVuSans-Oblique", "DejaVuSans-BoldOblique")
    laid = textbox.fit_box("a **b** *c* ***d***", 200, 30, size=10)
    assert laid.xml == ("a <b>b</b> <i>c</i> <b><i>d</i></b>",)


def test_italic_survives_another_sheet_resetting_the_family(tmp_path: Path):
    """ReportLab keeps one process-wide style mapping per family name; the rules sheet maps
    DejaVuSans' italic to the upright face for its own paragraphs. A boxed text laid out after
    it still prints its italic words in DejaVuSans-Oblique (the family is set again each time)."""
    from reportlab.pdfbase.pdfmetrics import registerFontFamily

    fonts.register_family()
    registerFontFamily(fonts.REGULAR, normal=fonts.REGULAR, bold=fonts.BOLD, italic=fonts.REGULAR, boldItalic=fonts.BOLD)
    laid = textbox.fit_box("plain *slanted* words", 60 * mm, 20 * mm, size=10)
    chars, _, _ = _chars(_pdf(tmp_path / "italic.pdf", laid, 2 * mm, 2 * mm))
    slanted = "".join(c["text"] for c in chars if c["fontname"].endswith("DejaVuSans-Oblique"))
    assert slanted == "slanted"
