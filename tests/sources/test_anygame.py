"""Tokens for any game: declared fields, face templates, spreadsheets, sizes and shapes, the cut
SVG. Catalogues are written into tmp_path; PDFs are read back and measured."""

from __future__ import annotations

import math
import re
import textwrap
from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from tests.conftest import write_sheet
from tests.pdfmeasure import chars
from tokengen import BuildOptions, SheetSpec, build_pdf, load_catalogue
from tokengen.errors import CatalogueError
from tokengen.geometry.pager import pages
from tokengen.geometry.shapes import PUNCH_ROOM, Shape, hex_box, outline, sheet_for
from tokengen.outputs.cutsvg import MM_PER_PT
from tokengen.units import parse_page

LETTER = parse_page("letter")
MM = 72 / 25.4

COUNTERS = """\
title: Counters
size: 0.75in
fields: {name: text, strength: integer, move: number, colour: colour}
template:
  - {rect: fill, fill: "{colour}", bleed: true}
  - {text: "{name}", at: [0.5, 0.3], size: 0.2, font: bold}
  - {text: "{strength}-{move}", at: [0.5, 0.85], size: 0.3}
tokens:
  - {id: inf, name: Infantry, strength: 4, move: 3, colour: "#88aa88"}
  - {id: cav, name: Cavalry, strength: 3, move: 6.5, colour: "#aa8888", copies: 2}
"""


def write(folder: Path, text: str, name: str = "cat.yaml") -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text), "utf-8")
    return path


def error(path: Path) -> str:
    with pytest.raises(CatalogueError) as info:
        load_catalogue(path)
    return str(info.value)


# -- fields and templates --------------------------------------------------------------------
def test_fields_are_substituted_into_the_face(tmp_path):
    cat = load_catalogue(write(tmp_path, COUNTERS))
    assert [t.id for t in cat.expanded()] == ["inf", "cav", "cav"]
    assert cat.tokens[1].value("move") == 6.5 and cat.tokens[0].value("strength") == 4
    out = tmp_path / "out.pdf"
    build_pdf(cat, BuildOptions(sheet=SheetSpec(page=LETTER, size=cat.size)), out)
    with pdfplumber.open(out) as pdf:
        words = [w["text"] for w in pdf.pages[0].extract_words()]
    assert words.count("4-3") == 1 and words.count("3-6.5") == 2 and "Infantry" in words
    # font size: 0.3 of a 0.75 in token = 16.2 pt, shrunk to keep the 1/16 in home safe area
    # at the top of the token (1/16 of 0.75 in would be too little for preflight --profile home)
    sizes = {round(c["size"], 2) for c in chars(out) if c["text"] == "4" and c["size"] > 7}  # not the 6.5 pt caption
    assert sizes == {15.41}


@pytest.mark.parametrize("change, message", [
    (("strength: 3,", "strenght: 3,"), "cat.yaml:10: tokens[1].strenght: unknown field; did you mean 'strength'?"),
    (("strength: 3, ", ""), "cat.yaml:10: tokens[1]: missing field 'strength'"),
    (("strength: 4,", "strength: four,"), "cat.yaml:9: tokens[0].strength: expected a whole number, got 'four'"),
    (("font: bold", "font: blod"), "cat.yaml:6: template[1].font: unknown font 'blod'; did you mean 'bold'?"),
    (("at: [0.5, 0.3]", "att: [0.5, 0.3]"), "cat.yaml:6: template[1].att: unknown key for a text element; did you mean 'at'?"),
    (('"{name}"', '"{nmae}"'), "cat.yaml:6: template[1].text: unknown field 'nmae'; did you mean 'name'?"),
    (("colour: colour}", "colour: color}"), "cat.yaml:3: fields.colour: unknown field type 'color'; did you mean 'colour'?"),
    (("{rect: fill,", "{rekt: fill,"), "cat.yaml:5: template[0].rekt: unknown element kind; did you mean 'rect'?"),
    (("size: 0.75in", "size: 63mmx"), "cat.yaml:2: size: unknown unit 'mmx' in '63mmx'"),
    (('colour: "#88aa88"', 'colour: "green"'), 'cat.yaml:9: tokens[0].colour: expected a colour "#rrggbb" or [c, m, y, k] with channels 0-1, got \'green\''),
])
def test_field_and_template_errors_name_file_line_and_field(tmp_path, change, message):
    path = write(tmp_path, COUNTERS.replace(*change))
    assert message in error(path), error(path)


def test_unknown_top_level_key_has_a_suggestion(tmp_path):
    path = write(tmp_path, COUNTERS.replace("template:", "templat:"))
    assert "templat: unknown key; did you mean 'template'?" in error(path)


@pytest.mark.parametrize("change, message", [
    (("fields:", "feilds:"), "cat.yaml:3: feilds: unknown key; did you mean 'fields'?"),
    (("fields:", "Fields:"), "cat.yaml:3: Fields: unknown key; did you mean 'fields'?"),
    (("fields: {name: text, strength: integer, move: number, colour: colour}\n", ""), "cat.yaml:1: missing required key 'fields'"),
])
def test_a_misspelt_fields_key_is_a_typo_not_the_meatshields_format(run, tmp_path, change, message):
    """Without ``fields`` or ``game`` a catalogue with an any-game key (``template``), or a key
    closest to one, is read as an any-game catalogue: not 'missing required key game'."""
    write(tmp_path, COUNTERS.replace(*change))
    for command in ("build", "check"):
        result = run(command, str(tmp_path / "cat.yaml"))
        assert (result.exit_code, result.stderr) == (2, f"tokengen: error: {tmp_path}/{message}\n")


def test_text_the_font_cannot_draw_names_the_token_field(tmp_path):
    path = write(tmp_path, COUNTERS.replace("name: Infantry", "name: \"Inf \u4e2d\""))
    assert error(path).endswith("cat.yaml:9: tokens[0].name: the bundled font DejaVuSans-Bold has no glyph for '中' (U+4E2D)")


def test_cli_error_is_one_line_exit_2(tmp_path, run):
    path = write(tmp_path, COUNTERS.replace("strength: 3,", "strenght: 3,"))
    result = run("build", str(path), "-o", str(tmp_path / "x.pdf"))
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "did you mean 'strength'?" in result.stderr
    assert not (tmp_path / "x.pdf").exists()


# -- spreadsheets ----------------------------------------------------------------------------
SHEET_CATALOGUE = """\
title: From a sheet
fields: {name: text, strength: integer}
template:
  - {text: "{name} {strength}", at: [0.5, 0.5]}
tokens: tokens.{ext}
"""


def test_csv_with_bom_and_semicolons(tmp_path):
    (tmp_path / "tokens.csv").write_bytes("\ufeffid;name;strength;copies\r\na;\"Alpha; the first\";3;2\r\nb;Beta;4;\r\n".encode())
    cat = load_catalogue(write(tmp_path, SHEET_CATALOGUE.replace("{ext}", "csv")))
    assert [(t.id, t.value("name"), t.value("strength"), t.copies) for t in cat.tokens] == [
        ("a", "Alpha; the first", 3, 2), ("b", "Beta", 4, 1)]


def test_xlsx_rows_become_tokens(tmp_path):
    write_sheet(tmp_path, [["name", "strength"], ["Alpha", 3], [None, None], ["Beta", 4.0]])
    cat = load_catalogue(write(tmp_path, SHEET_CATALOGUE.replace("{ext}", "xlsx")))
    assert [(t.id, t.value("name"), t.value("strength")) for t in cat.tokens] == [("1", "Alpha", 3), ("2", "Beta", 4)]


@pytest.mark.parametrize("ext, rows, message", [
    ("csv", "name,strength\nAlpha,3\nBeta,x\n", "tokens.csv:3: strength (column B): expected a whole number, got 'x'"),
    ("csv", "name,strenght\nAlpha,3\n", "tokens.csv:1: strenght (column B): unknown field; did you mean 'strength'?"),
    ("csv", "name,strength\nAlpha,3,9\n", "tokens.csv:2: row has a value in column C, past the header's 2 columns"),
    ("csv", "name,name\n", "tokens.csv:1: header names 'name' twice (columns A and B)"),
    ("csv", "", "tokens.csv: is empty: the first row must name the fields (id, copies, …)"),
    ("xlsx", [["name", "strength"], ["Alpha", 3], ["Beta", "lots"]], "tokens.xlsx:3: strength (column B): expected a whole number, got 'lots'"),
    ("xlsx", [["name", "strength", "copies"], ["Alpha", 3, 0]], "tokens.xlsx:2: copies (column C): must be 1 to 10000, got 0"),
    ("xlsx", [[None], [None], ["name", "strenght"], ["Alpha", 3]], "tokens.xlsx:3: strenght (column B): unknown field; did you mean 'strength'?"),
    ("xlsx", [["name", "strength"], ["Alpha", 1e300]], "tokens.xlsx:2: strength (column B): expected a number of at most 18 digits, got 1e+300"),
    ("csv", "name,strength\nAlpha,12345678901234567890123\n",
     "tokens.csv:2: strength (column B): expected a number of at most 18 digits, got '12345678901234567890123'"),
])
def test_spreadsheet_errors_name_file_row_and_column(tmp_path, ext, rows, message):
    write_sheet(tmp_path, rows, ext)
    got = error(write(tmp_path, SHEET_CATALOGUE.replace("{ext}", ext)))
    assert message in got, got


def test_spreadsheet_not_utf8_and_not_a_workbook(tmp_path):
    (tmp_path / "tokens.csv").write_bytes(b"name,strength\nCaf\xe9,3\n")
    assert error(write(tmp_path, SHEET_CATALOGUE.replace("{ext}", "csv"))).endswith("tokens.csv:2: not UTF-8 text (byte 0xe9); save the sheet as 'CSV UTF-8' (Excel) or with the character set 'Unicode (UTF-8)' (LibreOffice)")
    (tmp_path / "tokens.xlsx").write_bytes(bytes(range(256)) * 4)
    assert error(write(tmp_path, SHEET_CATALOGUE.replace("{ext}", "xlsx"))).endswith("tokens.xlsx: not an .xlsx workbook (File is not a zip file)")


@pytest.mark.parametrize("text", [b"name,strength\nAlpha,3\n", b"\xef\xbb\xbfname;strength\r\nAlpha;3\r\n", b"name\tstrength\n"])
def test_a_csv_file_named_xlsx_is_called_text_and_given_its_name(tmp_path, text):
    (tmp_path / "tokens.xlsx").write_bytes(text)
    got = error(write(tmp_path, SHEET_CATALOGUE.replace("{ext}", "xlsx")))
    assert got.endswith("tokens.xlsx: not an .xlsx workbook: it holds text like a CSV file; name it tokens.csv"), got


def test_a_spreadsheet_given_as_the_catalogue_says_where_it_belongs(tmp_path, run):
    (tmp_path / "tokens.csv").write_text("name\nA\n", "utf-8")
    result = run("build", str(tmp_path / "tokens.csv"), "-o", str(tmp_path / "x.pdf"))
    assert result.exit_code == 2 and "a spreadsheet holds tokens, not a catalogue" in result.stderr


# -- sizes and shapes --------------------------------------------------------------------------
def shaped(tmp_path: Path, size: str, shape: str, copies: int = 10) -> Path:
    return write(tmp_path, f"""\
title: Shapes
size: {size}
shape: {shape}
fields: {{name: text}}
template:
  - {{rect: fill, fill: "#cc9966", bleed: true}}
  - {{text: "{{name}}", at: [0.5, 0.55]}}
tokens:
  - {{id: a, name: A, copies: {copies}}}
""")


def pdf_paths(pdf: Path, page: int = 0) -> list[list[tuple]]:
    """Every subpath stroked on the page itself (not inside forms): lists of (op, numbers...)."""
    reader = PdfReader(pdf)
    content = ContentStream(reader.pages[page].get_contents(), reader)
    paths, current = [], []
    for operands, op in content.operations:
        op = op.decode()
        if op in ("m", "l", "c"):
            if op == "m" and current:
                paths.append(current)
                current = []
            current.append((op, *[float(v) for v in operands]))
        elif op in ("S", "f", "n", "B") and current:
            paths.append(current)
            current = []
    return paths


def test_card_size_w_by_h_is_placed_as_given(tmp_path):
    cat = load_catalogue(shaped(tmp_path, "63mmx88mm", "{kind: rounded, radius: 3mm}", copies=9))
    assert cat.size == pytest.approx(63 * MM) and cat.trim_height == pytest.approx(88 * MM)
    out = tmp_path / "cards.pdf"
    build_pdf(cat, BuildOptions(sheet=SheetSpec(page=LETTER, size=cat.size)), out)
    outlines = [p for p in pdf_paths(out) if len(p) == 9]  # M, 4 × (L, C)
    assert len(outlines) == 6  # 3 × 2 on letter (three rows of 88 mm need 264 mm; 256.8 mm are free)
    for p in outlines:
        xs = [v for op in p for v in op[1::2]]
        ys = [v for op in p for v in op[2::2]]
        assert max(xs) - min(xs) == pytest.approx(63 * MM, abs=1e-3)
        assert max(ys) - min(ys) == pytest.approx(88 * MM, abs=1e-3)
        assert p[1][1] - p[0][1] == pytest.approx((63 - 6) * MM, abs=1e-3)  # straight top edge between 3 mm corners


def test_hexes_pack_in_offset_rows_sharing_edges(tmp_path):
    cat = load_catalogue(shaped(tmp_path, "0.75in", "hex", copies=30))
    w, h = hex_box(54.0, "pointy")
    assert (cat.size, cat.trim_height) == pytest.approx((w, h))
    spec = sheet_for(SheetSpec(page=LETTER, size=cat.size), cat)
    page = next(pages(30, spec))
    centres = [(c.trim.x + c.trim.w / 2, c.trim.y + c.trim.h / 2) for c in page.cells]
    rows = sorted({round(y, 6) for _, y in centres}, reverse=True)
    assert rows[0] - rows[1] == pytest.approx(54 * math.sqrt(3) / 2)  # row pitch of touching hexes
    first = [x for x, y in centres if round(y, 6) == rows[0]]
    second = [x for x, y in centres if round(y, 6) == rows[1]]
    assert second[0] - first[0] == pytest.approx(27.0)  # odd rows shifted half a hex
    nearest = min(math.dist(a, b) for i, a in enumerate(centres) for b in centres[i + 1:])
    assert nearest == pytest.approx(54.0)  # neighbours exactly across the flats: no overlap, shared edges


def test_circles_leave_room_for_a_punch_and_punch_ticks(tmp_path, run):
    path = shaped(tmp_path, "1in", "circle", copies=12)
    cat = load_catalogue(path)
    spec = sheet_for(SheetSpec(page=LETTER, size=cat.size), cat)
    page = next(pages(12, spec))
    xs = sorted({c.trim.x for c in page.cells})
    assert xs[1] - xs[0] == pytest.approx(72 + PUNCH_ROOM)
    out = tmp_path / "punch.pdf"
    assert run("build", str(path), "--punch", "-o", str(out)).exit_code == 0
    with pdfplumber.open(out) as pdf:
        lines = [ln for ln in pdf.pages[0].lines if abs(ln["x1"] - ln["x0"]) == pytest.approx(3.5) or abs(ln["y1"] - ln["y0"]) == pytest.approx(3.5)]
    centres = [(c.trim.x + 36, c.trim.y + 36) for c in page.cells]
    # the ticks near the circles (the calibration ruler has short ticks of its own, far below)
    ticks = [ln for ln in lines if min(math.dist(c, (ln["x0"], 11 * 72 - ln["top"])) for c in centres) < 45]
    assert len(ticks) == 4 * 12  # four centring ticks per circle
    for tick in ticks:  # each points at a circle centre from just outside its edge (36.5 to 40 pt away)
        ends = [(tick["x0"], 11 * 72 - tick["top"]), (tick["x1"], 11 * 72 - tick["bottom"])]
        near = min(centres, key=lambda c: math.dist(c, ends[0]))
        assert sorted(round(math.dist(near, e), 6) for e in ends) == [36.5, 40.0]
    assert run("build", str(write(tmp_path, COUNTERS, "sq.yaml")), "--punch", "-o", str(out)).exit_code == 2


def svg_paths(svg: Path, page_height: float) -> dict[str, list[tuple[float, float]]]:
    """The SVG's token paths as end points in PDF points (y up)."""
    out = {}
    for token, d in re.findall(r'<path id="([^"]+)" d="([^"]+)"', svg.read_text("utf-8")):
        numbers = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", d)]
        pairs = list(zip(numbers[0::2], numbers[1::2]))
        out[token] = [(x / MM_PER_PT, page_height - y / MM_PER_PT) for x, y in pairs]
    return out


@pytest.mark.parametrize("size, shape", [("1in", "circle"), ("0.75in", "hex"), ("0.75in", "{kind: hex, orientation: flat}"), ("63mmx88mm", "rounded")])
def test_cut_svg_matches_the_pdf_cut_guides(tmp_path, run, size, shape):
    path = shaped(tmp_path, size, shape, copies=7)
    result = run("export", str(path), "--profile", "cut-svg", "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stderr
    pdf, svg = tmp_path / "out" / "shapes-cut-svg.pdf", tmp_path / "out" / "shapes-cut-1.svg"
    text = svg.read_text("utf-8")
    assert 'width="215.9mm" height="279.4mm" viewBox="0 0 215.9 279.4"' in text
    height = 11 * 72
    from_svg = svg_paths(svg, height)
    paths = pdf_paths(pdf)
    # cut outlines (marks have 3 or 4 points): every point, Bézier handles too
    from_pdf = [[(op[i], op[i + 1]) for op in p for i in range(1, len(op), 2)] for p in paths if len(p) >= 5]
    per_page = len(PdfReader(pdf).pages[0].extract_text().split()) and len(from_pdf)
    assert len(from_svg) == len(from_pdf) == per_page >= 4
    square = [p for p in paths if len(p) == 4]
    assert len(square) == 1 and abs(square[0][1][1] - square[0][0][1]) == pytest.approx(5 * MM, abs=1e-3)  # the 5 mm registration square
    unmatched = list(from_svg.values())
    for points in from_pdf:
        match = next((s for s in unmatched if len(s) == len(points) and all(math.dist(a, b) < 0.01 for a, b in zip(s, points))), None)
        if match is not None:
            unmatched.remove(match)
    assert unmatched == []
    assert text.count("<path") == len(from_svg) + 3  # one per token, three registration marks


def test_square_tokens_cut_svg_rectangles_lie_on_the_pdf_cut_lines(tmp_path, run, catalogue_path):
    result = run("export", str(catalogue_path), "--profile", "cut-svg", "-o", str(tmp_path / "out"))
    assert result.exit_code == 0
    svg = svg_paths(tmp_path / "out" / "meatshields-cut-1.svg", 11 * 72)
    assert len(svg) == 18
    with pdfplumber.open(tmp_path / "out" / "meatshields-cut-svg.pdf") as pdf:
        lines = [ln for ln in pdf.pages[0].lines if ln["linewidth"] == pytest.approx(0.3)]
    xs = {round(ln["x0"], 2) for ln in lines if ln["x0"] == ln["x1"]}
    ys = {round(pdf_y, 2) for ln in lines if ln["top"] == ln["bottom"] for pdf_y in [11 * 72 - ln["top"]]}
    for points in svg.values():
        assert {round(x, 2) for x, _ in points} <= xs
        assert {round(y, 2) for _, y in points} <= ys


def test_outline_grows_by_the_bleed():
    from tokengen.geometry.imposition import Rect

    hexagon = outline(Shape("hex"), Rect(0, 0, *hex_box(54.0, "pointy")), grow=9.0)
    xs = [x for x, _ in hexagon.points()]
    assert max(xs) - min(xs) == pytest.approx(54.0 + 18.0)  # across the flats grows by 2 × bleed


# -- fonts and backs ---------------------------------------------------------------------------
FONTED = """\
title: Own font
fonts: {title: fonts/Title.ttf}
fields: {name: text, side: text}
template:
  - {text: "{name}", font: title, at: [0.5, 0.5], size: 0.2}
back:
  - {rect: fill, fill: "#223344", bleed: true}
  - {text: "{side}", at: [0.5, 0.5], colour: "#ffffff"}
tokens:
  - {id: a, name: Alpha, side: Veteran}
  - {id: b, name: Beta, side: Veteran}
  - {id: c, name: Gamma, side: Rookie}
"""


def with_font(tmp_path: Path, text: str = FONTED) -> Path:
    import shutil

    from tokengen.sources import fonts

    (tmp_path / "fonts").mkdir(exist_ok=True)
    shutil.copy(fonts.font_dir() / "DejaVuSans-Bold.ttf", tmp_path / "fonts" / "Title.ttf")
    return write(tmp_path, text)


def test_catalogue_font_is_embedded_as_a_subset(tmp_path):
    from tests.pdfmeasure import embedded
    from tests.pdfmeasure import fonts as pdf_fonts

    cat = load_catalogue(with_font(tmp_path))
    out = tmp_path / "out.pdf"
    build_pdf(cat, BuildOptions(sheet=SheetSpec(page=LETTER, size=cat.size)), out)
    names = {str(f["/BaseFont"]) for f in pdf_fonts(out)}
    # the copy is DejaVu Sans Bold: the PDF names it by its PostScript name, with a subset tag
    assert any(re.fullmatch(r"/[A-Z]{6}\+DejaVuSans-Bold", n) for n in names), names
    assert all(embedded(f) for f in pdf_fonts(out))
    with pdfplumber.open(out) as pdf:
        alpha = [c for c in pdf.pages[0].chars if c["text"] == "A" and c["size"] > 7]
    assert len(alpha) == 1 and alpha[0]["size"] == pytest.approx(14.4) and alpha[0]["fontname"].endswith("DejaVuSans-Bold")


def test_catalogue_font_glyph_check_and_bad_fonts(tmp_path):
    path = with_font(tmp_path, FONTED.replace("name: Beta", "name: \"Be\u4e2d\""))
    assert "cat.yaml:11: tokens[1].name: the font 'title' has no glyph for '中' (U+4E2D)" in error(path)
    assert "fonts.title: font file 'fonts/Nope.ttf' not found" in error(with_font(tmp_path, FONTED.replace("Title.ttf", "Nope.ttf")))
    assert "leaves the catalogue's folder" in error(with_font(tmp_path, FONTED.replace("fonts/Title.ttf", "../Title.ttf")))
    otf = Path("/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf")
    if otf.exists():
        import shutil

        shutil.copy(otf, tmp_path / "fonts" / "Cff.otf")
        message = error(with_font(tmp_path, FONTED.replace("Title.ttf", "Cff.otf")))
        assert "fonts.title: cannot use font 'fonts/Cff.otf'" in message and "TrueType outlines are needed" in message


def test_per_token_backs_follow_each_tokens_fields(tmp_path):
    cat = load_catalogue(with_font(tmp_path))
    assert cat.back is None  # no one shared back
    assert cat.tokens[0].back == cat.tokens[1].back != cat.tokens[2].back
    out = tmp_path / "out.pdf"
    build_pdf(cat, BuildOptions(sheet=SheetSpec(page=LETTER, size=cat.size), backs="duplex"), out)
    with pdfplumber.open(out) as pdf:
        face, back = pdf.pages[0], pdf.pages[1]
        faces = {w["text"]: w for w in face.extract_words() if w["text"] in ("Alpha", "Beta", "Gamma")}
        backs = {w["text"]: w for w in back.extract_words() if w["text"] in ("Veteran", "Rookie")}
        width = float(face.width)
    # long-edge flip: x mirrors; the back of Gamma (Rookie) is at the mirrored x of Gamma's face
    centre = lambda w: (w["x0"] + w["x1"]) / 2  # noqa: E731
    assert width - centre(faces["Gamma"]) == pytest.approx(centre(backs["Rookie"]), abs=0.01)
    reader = PdfReader(out)
    forms = [str(k) for k in reader.pages[1]["/Resources"]["/XObject"]]
    assert len(forms) == 2  # two back designs: Veteran (shared by two tokens) and Rookie


def test_shared_back_when_the_back_reads_no_token_field(tmp_path):
    cat = load_catalogue(with_font(tmp_path, FONTED.replace('{text: "{side}"', '{text: "ARMY"')))
    assert cat.back is not None and all(t.back == cat.back for t in cat.tokens)


def test_xlsx_zip_bomb_is_refused_before_reading(tmp_path):
    import zipfile

    with zipfile.ZipFile(tmp_path / "tokens.xlsx", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/sharedStrings.xml", b"<a>" + b" " * (65 * 1024 * 1024) + b"</a>")
    assert (tmp_path / "tokens.xlsx").stat().st_size < 200_000
    message = error(write(tmp_path, SHEET_CATALOGUE.replace("{ext}", "xlsx")))
    assert message.endswith("tokens.xlsx: unpacks to 65 MiB, more than 64 MiB")


def test_rules_sheet_is_refused_for_other_games(tmp_path, run):
    path = write(tmp_path, COUNTERS)
    result = run("build", str(path), "--rules", "-o", str(tmp_path / "x.pdf"))
    assert result.exit_code == 2 and "--rules prints the Meatshields rules sheet" in result.stderr
    assert not (tmp_path / "x.pdf").exists()


def test_output_over_an_image_field_is_refused(tmp_path, run):
    from tests.faces.test_art import png

    png(tmp_path / "pic.png", (300, 300))
    path = write(tmp_path, """\
title: Pictures
fields: {art: image}
template:
  - {image: "{art}", box: [0, 0, 1, 1]}
tokens:
  - {id: a, art: pic.png}
""")
    before = (tmp_path / "pic.png").read_bytes()
    result = run("build", str(path), "-o", str(tmp_path / "pic.png"))
    assert result.exit_code == 2 and (tmp_path / "pic.png").read_bytes() == before
    (tmp_path / "tokens.csv").write_text("name,strength\nA,1\n", "utf-8")
    sheet = write(tmp_path, SHEET_CATALOGUE.replace("{ext}", "csv"), "sheet.yaml")
    result = run("build", str(sheet), "-o", str(tmp_path / "tokens.csv"))
    assert result.exit_code == 2 and (tmp_path / "tokens.csv").read_text("utf-8") == "name,strength\nA,1\n"


def test_output_over_a_templates_literal_picture_is_refused(tmp_path, run):
    """A picture named in the template itself (not through a field) is an input too."""
    from tests.faces.test_art import png

    png(tmp_path / "logo.png", (300, 300))
    path = write(tmp_path, """\
title: Logo
fields: {name: text}
template:
  - {image: logo.png, box: [0, 0, 1, 1]}
  - {text: "{name}", at: [0.5, 0.5]}
tokens:
  - {id: a, name: A}
""")
    before = (tmp_path / "logo.png").read_bytes()
    result = run("build", str(path), "-o", str(tmp_path / "logo.png"))
    assert result.exit_code == 2 and "logo.png" in result.stderr and (tmp_path / "logo.png").read_bytes() == before


@pytest.mark.parametrize("row", ["k,Knight,\n", "k,Knight\n"])
def test_an_empty_colour_cell_is_an_error_not_a_blank_token(tmp_path, row):
    """A colour field with no value and no default would draw nothing (white text on no fill)."""
    (tmp_path / "tokens.csv").write_text("id,name,colour\n" + row, "utf-8")
    path = write(tmp_path, """\
title: Colours
fields: {name: text, colour: colour}
tokens: tokens.csv
template:
  - {rect: full, fill: "{colour}"}
  - {text: "{name}", at: [0.5, 0.5], colour: "#ffffff"}
""")
    assert error(path).endswith("tokens.csv:2: colour (column C): field 'colour' is empty")
