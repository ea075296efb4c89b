"""Where boxed text breaks its lines (tokengen.faces.textbox), read back from the PDF it draws:
after a word's own hyphen before any split inside a word, at pyphen's hyphenation points for a
declared language, between CJK ideographs (UAX #14), and never between an inline icon and the
punctuation after it."""

from __future__ import annotations

import sys
from pathlib import Path

import pdfplumber
import pytest
from PIL import Image
from reportlab.pdfgen import canvas

from tokengen.faces import textbox


def _printed(tmp_path: Path, laid: textbox.Laid, name: str = "t.pdf") -> tuple[list[str], set[float]]:
    """(the printed lines, top to bottom, as pdfplumber reads them; the font sizes of every char)."""
    path = tmp_path / name
    c = canvas.Canvas(str(path), pagesize=(400, 400), invariant=1)
    textbox.draw(c, laid, 10, 10)
    c.save()
    with pdfplumber.open(path) as pdf:
        page = pdf.pages[0]
        lines = page.extract_text(x_tolerance=1.5).splitlines()
        sizes = {round(ch["size"], 2) for ch in page.chars}
    return lines, sizes


def test_a_word_breaks_after_its_own_hyphen_at_a_fixed_size(tmp_path: Path):
    laid = textbox.fit_box("well-known counter-attack", 100, 200, size=14.4, fit=False)
    lines, sizes = _printed(tmp_path, laid)
    assert lines == ["well-known", "counter-", "attack"]  # was "well-known c" / "ounter-attack"
    assert sizes == {14.4}


def test_a_hyphen_break_comes_before_shrinking(tmp_path: Path):
    laid = textbox.fit_box("Center-aligned", 70, 40, size=14.4)
    lines, sizes = _printed(tmp_path, laid)
    assert lines == ["Center-", "aligned"]
    assert sizes == {14.4}  # was shrunk to 8.09 pt to keep the word whole on one line


def test_a_hyphen_break_in_a_word_of_two_styles(tmp_path: Path):
    laid = textbox.fit_box("x well-known **counter**-attack", 100, 200, size=14.4, fit=False)
    lines, _ = _printed(tmp_path, laid)
    assert lines == ["x well-known", "counter-", "attack"]


@pytest.fixture(scope="module")
def sword(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    path = tmp_path_factory.mktemp("icons") / "sword.png"
    Image.new("RGB", (64, 64), (200, 0, 0)).save(path)
    return {"sword": str(path)}


@pytest.mark.parametrize("align", ["left", "justify"])
@pytest.mark.parametrize("width", [42, 48, 95])  # each broke between an icon and its punctuation
def test_an_icon_keeps_the_punctuation_after_it(tmp_path: Path, sword: dict[str, str], width: int, align: str):
    laid = textbox.fit_box("Roll a :sword:. Take 2 :sword:, then rest.", width, 300, size=10, fit=False, icons=sword, align=align)
    path = tmp_path / "icons.pdf"
    c = canvas.Canvas(str(path), pagesize=(400, 400), invariant=1)
    textbox.draw(c, laid, 10, 10)
    c.save()
    with pdfplumber.open(path) as pdf:
        page = pdf.pages[0]
        chars, images = page.chars, page.images
    starts: dict[float, tuple[float, str]] = {}  # baseline → (x, what) of the line's leftmost char or icon
    for x, bottom, what in [(ch["x0"], ch["bottom"], ch["text"]) for ch in chars if ch["text"].strip()] + \
            [(i["x0"], i["bottom"], "icon") for i in images]:
        key = next((b for b in starts if abs(b - bottom) < 3), bottom)
        starts[key] = min(starts.get(key, (x, what)), (x, what))
    assert not [what for _, what in starts.values() if what in ".,"]
    assert len(images) == 2
    for image, mark in zip(sorted(images, key=lambda i: (i["top"], i["x0"])), ".,", strict=True):
        after = [ch for ch in chars if abs(ch["x0"] - image["x1"]) < 0.01 and abs(ch["bottom"] - image["bottom"]) < 3]
        assert [ch["text"] for ch in after] == [mark]  # printed right after the icon, on its line
        assert image["x1"] <= 10 + width + 0.01
    if align == "justify":  # the break put before an icon leaves its line justified, as the others
        ends: dict[float, float] = {}
        for x, bottom in [(ch["x1"], ch["bottom"]) for ch in chars if ch["text"].strip()] + [(i["x1"], i["bottom"]) for i in images]:
            key = next((b for b in ends if abs(b - bottom) < 3), bottom)
            ends[key] = max(ends.get(key, x), x)
        assert len(ends) == len(laid.lines)
        stretched = [round(x, 2) for (_, x), line in zip(sorted(ends.items())[:-1], laid.lines, strict=False) if " " in line]
        assert stretched and stretched == [10 + width] * len(stretched)  # all but the last line, and those of one word (no gap)


def _lang_catalogue(folder: Path, top: str = "", element: str = "", field: str = "text") -> Path:
    path = folder / "cards.yaml"
    path.write_text(f"""title: Hyphens
size: 1.5in
{top}fields: {{rules: {field}}}
template:
  - {{text: "{{rules}}", box: [0.1, 0.1, 0.8, 0.8], size: 14pt, font: regular{element}}}
tokens:
  - {{id: a, rules: "Extraordinary reinforcements"}}
""", "utf-8")
    return path


def _built_lines(run, path: Path) -> tuple[list[str], set[float]]:
    out = path.with_suffix(".pdf")
    result = run("build", str(path), "--no-cut-lines", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    with pdfplumber.open(out) as pdf:
        page = pdf.pages[0]
        chars = [c for c in page.chars if round(c["size"], 2) > 10]  # the token's text, not the sheet's furniture
        text = page.crop((0, 0, page.width, page.height)).filter(lambda o: o.get("object_type") != "char" or o in chars)
        return text.extract_text(x_tolerance=1.5).splitlines(), {round(c["size"], 2) for c in chars}


@pytest.mark.parametrize(("top", "element", "field"), [("lang: en\n", "", "text"), ("", ", lang: en_GB", "text"),
                                                       ("lang: de\n", ", lang: en", "text"),
                                                       ("lang: de\n", "", "{type: text, lang: en}")])
def test_a_declared_language_hyphenates_before_the_text_shrinks(tmp_path: Path, run, top: str, element: str, field: str):
    lines, sizes = _built_lines(run, _lang_catalogue(tmp_path, top, element, field))
    assert sizes == {14.0}  # without lang: shrunk to 11.34 pt so that "reinforcements" fits a line
    assert lines == ["Extraordin-", "ary rein-", "forcements"]


@pytest.mark.parametrize(("top", "element", "field", "where"), [("lang: xx\n", "", "text", "cards.yaml:3: lang:"),
                                                                ("", ", lang: zz", "text", "cards.yaml:5: template[0].lang:"),
                                                                ("", "", "{type: text, lang: qq}", "cards.yaml:3: fields.rules.lang:")])
def test_a_language_without_a_dictionary_is_refused_by_name(tmp_path: Path, run, top: str, element: str, field: str, where: str):
    result = run("build", str(_lang_catalogue(tmp_path, top, element, field)), "-o", str(tmp_path / "out.pdf"))
    assert result.exit_code != 0
    assert f"{where} no hyphenation dictionary for the language" in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(("top", "element", "field", "where"), [("lang: de\n", "", "text", "cards.yaml:3: lang:"),
                                                                ("", ", lang: de", "text", "cards.yaml:5: template[0].lang:")])
def test_a_language_without_pyphen_installed_names_the_extra(tmp_path: Path, run, monkeypatch, top: str, element: str,
                                                              field: str, where: str):
    """pyphen is the hyphens extra (issue 43, a light default install): a catalogue that declares a
    language where it is missing is refused by file, line and key with the line that installs it."""
    monkeypatch.setitem(sys.modules, "pyphen", None)  # import pyphen raises ImportError, as when not installed
    result = run("build", str(_lang_catalogue(tmp_path, top, element, field)), "-o", str(tmp_path / "out.pdf"))
    assert result.exit_code == 2 and not (tmp_path / "out.pdf").exists()
    assert result.stderr == (f"tokengen: error: {tmp_path / where} hyphenation by the language 'de' needs pyphen, the hyphens "
                             "extra: pip install 'tokengen-print[hyphens]'\n")


#: The characters of the test CJK font: ideographs and kana (a full em wide), CJK punctuation, ASCII.
_CJK = "中文字体日本語漢かなカナ。、「」（）！？・ー"
_LATIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,-"


@pytest.fixture(scope="module")
def cjk_family(tmp_path_factory: pytest.TempPathFactory):
    """A TrueType font made here with fontTools (no CJK font is bundled): every CJK character
    1000/1000 em wide, ASCII 500, the space 250; each glyph a box."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    from tokengen.sources import fonts

    chars = _CJK + _LATIN + " "
    names = [".notdef"] + [f"u{ord(c):04X}" for c in chars]
    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder(names)
    fb.setupCharacterMap({ord(c): f"u{ord(c):04X}" for c in chars})
    glyphs, metrics = {}, {}
    for name, ch in zip(names, " " + chars, strict=True):
        pen = TTGlyphPen(None)
        advance = 1000 if ch in _CJK else 250 if ch == " " else 500
        if ch != " ":
            pen.moveTo((50, 0)), pen.lineTo((50, 700)), pen.lineTo((advance - 50, 700)), pen.lineTo((advance - 50, 0)), pen.closePath()
        glyphs[name] = pen.glyph()
        metrics[name] = (advance, 50)
    fb.setupGlyf(glyphs)
    fb.setupHorizontalMetrics(metrics)
    fb.setupHorizontalHeader(ascent=880, descent=-120)
    fb.setupNameTable({"familyName": "TestCJK", "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=880, sTypoDescender=-120, usWinAscent=880, usWinDescent=120)
    fb.setupPost()
    path = tmp_path_factory.mktemp("font") / "TestCJK.ttf"
    fb.save(str(path))
    pdfmetrics.registerFont(TTFont("TestCJK", str(path)))
    return fonts.family("TestCJK")


def test_chinese_without_spaces_breaks_between_ideographs(tmp_path: Path, cjk_family):
    text = "中文字体日本語漢中文字体日本語漢中文字体"  # 20 ideographs, no space
    laid = textbox.fit_box(text, 100, 200, cjk_family, size=10)
    lines, sizes = _printed(tmp_path, laid)
    assert sizes == {10.0}  # was shrunk to the 5 pt floor and cut: no place to break
    assert lines == [text[i:i + 10] for i in range(0, 20, 10)]  # ten 10-pt ideographs fill the 100-pt line


@pytest.mark.parametrize(("text", "width", "expected"), [
    # UAX #14 LB13/LB16: no break before closing punctuation (CL 。、」）, EX ！): the ideograph before it moves down
    ("中文字体日本語漢中。中文", 90, ["中文字体日本語漢", "中。中文"]),
    ("中文字体日本語漢中、中文", 90, ["中文字体日本語漢", "中、中文"]),
    ("中文字体日本語漢中」中文", 90, ["中文字体日本語漢", "中」中文"]),
    ("中文字体日本語漢中！中文", 90, ["中文字体日本語漢", "中！中文"]),
    # LB14: no break after opening punctuation (OP 「（): it moves down with the ideograph after it
    ("中文字体日本語漢「中文」", 90, ["中文字体日本語漢", "「中文」"]),
    ("中文字体日本語（中文）", 80, ["中文字体日本語", "（中文）"]),
    # kana break as ideographs do; small-kana-free text, ー (class CJ under strict rules, ID here) too
    ("かなカナかなカナかなカナ", 60, ["かなカナかな", "カナかなカナ"]),
    # Latin words inside CJK text break at their spaces only, never inside (LB28), and the
    # ideographs after them break as before (LB30 gives no rule between a space and ID)
    ("中文字体 abc def 中文字体", 50, ["中文字体", "abc def 中", "文字体"]),
])
def test_cjk_breaks_follow_uax14(tmp_path: Path, cjk_family, text: str, width: float, expected: list[str]):
    laid = textbox.fit_box(text, width, 200, cjk_family, size=10, fit=False)
    lines, sizes = _printed(tmp_path, laid)
    assert sizes == {10.0}
    assert lines == expected


@pytest.mark.parametrize("align", ["left", "centre", "right"])
@pytest.mark.parametrize("rotate", [0, 90])
def test_a_kerned_pair_advances_as_the_font_says(tmp_path: Path, run, align: str, rotate: int):
    import uharfbuzz as hb

    from tokengen.sources import fonts

    font = fonts.register_family().regular
    path = tmp_path / "kern.yaml"
    path.write_text(f"""title: Kerning
size: 3in
fields: {{label: text}}
template:
  - {{text: "{{label}}", at: [0.5, 0.5], size: 14.4pt, width: 0.9, align: {align}, rotate: {rotate}}}
tokens:
  - {{id: a, label: "To AVATAR Wave"}}
""", "utf-8")
    out = tmp_path / "kern.pdf"
    result = run("build", str(path), "--no-cut-lines", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    face = hb.Face(hb.Blob.from_file_path(str(pdfmetrics_file(font))))
    shaper = hb.Font(face)
    buf = hb.Buffer()
    buf.add_str("To AVATAR Wave")
    buf.guess_segment_properties()
    hb.shape(shaper, buf, {"kern": True, "liga": False})
    with pdfplumber.open(out) as pdf:  # the label: upright and large, or turned (the sheet's notes are small and upright)
        chars = [c for c in pdf.pages[0].chars if (c["size"] > 8 if not rotate else not c["upright"])]
    assert "".join(c["text"] for c in chars) == "To AVATAR Wave"
    along = [-c["y1"] if rotate else c["x0"] for c in chars]  # turned 90° clockwise: it runs down the page
    steps = [b - a for a, b in zip(along, along[1:])]
    size = steps[1] / pdfmetrics_width("o", font, 1.0)  # the size printed (the safe area may shrink it): "o" is not kerned
    expected = [p.x_advance / face.upem * size for p in buf.glyph_positions]  # HarfBuzz's advances, kerning included
    assert steps == pytest.approx(expected[:-1], abs=0.01)
    assert expected[0] == pytest.approx(pdfmetrics_width("T", font, size) - 348 / 2048 * size)  # at 14.4 pt: 2.45 pt closer


def pdfmetrics_file(font: str) -> str:
    from reportlab.pdfbase import pdfmetrics

    return pdfmetrics.getFont(font).face.filename


def pdfmetrics_width(text: str, font: str, size: float) -> float:
    from reportlab.pdfbase import pdfmetrics

    return pdfmetrics.stringWidth(text, font, size)


def _hb_advances(text: str, font: str, size: float, features: dict[str, bool]) -> list[float]:
    """HarfBuzz's advance (pt at ``size``) of each glyph of ``text`` in ``font``."""
    import uharfbuzz as hb

    face = hb.Face(hb.Blob.from_file_path(str(pdfmetrics_file(font))))
    buf = hb.Buffer()
    buf.add_str(text)
    buf.guess_segment_properties()
    hb.shape(hb.Font(face), buf, features)
    return [p.x_advance / face.upem * size for p in buf.glyph_positions]


BOXED = "To :sword: AVATAR Wave, *To* **To** To Take AV, then rest. To AV Wave AVATAR To"


@pytest.mark.parametrize("align", ["left", "right", "justify"])
def test_boxed_text_kerns_its_pairs_as_the_font_says(tmp_path: Path, sword: dict[str, str], align: str):
    from tokengen.sources import fonts

    family = fonts.register_family()
    laid = textbox.fit_box(BOXED, 110, 300, size=14.4, fit=False, icons=sword, align=align)
    assert len(laid.lines) >= 4
    path = tmp_path / "boxed.pdf"
    c = canvas.Canvas(str(path), pagesize=(400, 400), invariant=1)
    textbox.draw(c, laid, 10, 10)
    c.save()
    with pdfplumber.open(path) as pdf:
        chars, images = pdf.pages[0].chars, pdf.pages[0].images
    pairs = 0
    for a, b in zip(chars, chars[1:]):
        if a["text"] + b["text"] in ("To", "AV", "Wa") and abs(a["bottom"] - b["bottom"]) < 0.01:
            font = next(f for f in (family.regular, family.bold, family.italic) if a["fontname"].endswith("+" + f))
            kerned = _hb_advances(a["text"] + b["text"], font, 14.4, {"kern": True, "liga": False})[0]
            assert b["x0"] - a["x0"] == pytest.approx(kerned, abs=0.01), (a["text"], b["text"], font)
            assert kerned < pdfmetrics_width(a["text"], font, 14.4) - 0.3  # a pair the font moves closer
            pairs += 1
    assert pairs == 12  # every "To", "AV" and "Wa" of BOXED
    assert "".join(ch["text"] for ch in chars if ch["text"].strip()) == BOXED.replace(" ", "").replace("*", "").replace(":sword:", "")
    for box in chars + images:  # the same kerned widths set the lines as draw them: nothing leaves the box
        assert 10 - 0.01 <= box["x0"] and box["x1"] <= 10 + 110 + 0.01, box
    (image,) = images  # after the kerned "To" that starts BOXED, one space away
    o = chars[1]
    assert o["text"] == "o" and abs(o["bottom"] - image["bottom"]) < 5
    if align != "justify":
        assert image["x0"] - o["x1"] == pytest.approx(pdfmetrics_width(" ", family.regular, 14.4), abs=0.01)


def test_a_boxed_fit_measures_kerned_words():
    """The size is found with the kerned widths: a line that fits only kerned fits."""
    from tokengen.sources import fonts

    font = fonts.register_family().regular
    kerned = sum(_hb_advances("AVATAR AVATAR", font, 10, {"kern": True, "liga": False}))
    plain = pdfmetrics_width("AVATAR AVATAR", font, 10)
    assert plain - kerned > 1
    width = (kerned + plain) / 2
    laid = textbox.fit_box("AVATAR AVATAR", width, 100, size=10, fit=False)
    assert laid.lines == ("AVATAR AVATAR",)


def test_boxed_text_keeps_its_letters_unligated(tmp_path: Path):
    laid = textbox.fit_box("first floor office fluff", 300, 40, size=10, fit=False)
    lines, _ = _printed(tmp_path, laid)
    assert lines == ["first floor office fluff"]  # no ﬁ (U+FB01), ﬂ, ﬀ, ﬃ nor ﬆ in the PDF's text
