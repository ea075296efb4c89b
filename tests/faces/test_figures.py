"""The figures of the face language drawn into real PDFs: lines, polygons, regular polygons,
stars, ellipses, sectors, text along a circle, turned elements and gradient fills. Each is read
back from the face's Form XObject with pikepdf (path operators and their colour operators, text
matrices, shading dictionaries) and rendered with pypdfium2 to test pixels where the geometry
says the figure's edges are."""

from __future__ import annotations

import math
import textwrap
from dataclasses import replace
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest

from tokengen import BuildOptions, SheetSpec, build_pdf, load_catalogue
from tokengen.faces.facedraw import set_text, unfit_texts
from tokengen.geometry import figures as geo
from tokengen.geometry.textfit import safe_area
from tokengen.sources.template import Size
from tokengen.units import parse_page

SIZE = 144.0  # the tokens are 2 in square
SCALE = 3.0  # rendered at 216 DPI
WHITE, RED, BLACK = (255, 255, 255), (255, 0, 0), (0, 0, 0)


def catalogue(folder: Path, elements: str, fields: str = "{name: text}", token: str = "{id: a, name: Hello}") -> Path:
    """A one-token catalogue of 2 in squares whose face is ``elements`` (YAML list items)."""
    path = folder / "cat.yaml"
    body = textwrap.indent(textwrap.dedent(elements).strip(), "  ")
    path.write_text(f"title: Figures\nsize: 2in\nfields: {fields}\ntemplate:\n{body}\ntokens:\n  - {token}\n", "utf-8")
    return path


def build(folder: Path, elements: str, **kw: str) -> Path:
    cat = load_catalogue(catalogue(folder, elements, **kw))
    out = folder / "out.pdf"
    build_pdf(cat, BuildOptions(sheet=SheetSpec(page=parse_page("letter"), size=cat.size)), out)
    return out


def face(pdf: Path) -> tuple[pikepdf.Pdf, pikepdf.Stream, list, tuple[float, float]]:
    """(document, the face form, its operators, where its origin is on page 1 in pt)."""
    doc = pikepdf.open(pdf)
    page = doc.pages[0]
    ops = pikepdf.parse_content_stream(page)
    for i, op in enumerate(ops):
        if str(op.operator) == "Do" and "face-" in str(op.operands[0]):
            e, f = (float(v) for v in ops[i - 1].operands[4:])
            form = page.Resources.XObject[str(op.operands[0])]
            return doc, form, pikepdf.parse_content_stream(form), (e, f)
    raise AssertionError("no face form on page 1")


def pixels(pdf: Path):
    """A function (x, y) pt in face coordinates → RGB of page 1 rendered by pdfium."""
    with pikepdf.open(pdf) as doc:
        height = float(doc.pages[0].MediaBox[3])
    _, _, _, (ox, oy) = face(pdf)
    document = pdfium.PdfDocument(pdf)
    image = document[0].render(scale=SCALE).to_pil().convert("RGB")
    document.close()

    def at(x: float, y: float) -> tuple[int, int, int]:
        return image.getpixel((int((ox + x) * SCALE), int((height - (oy + y)) * SCALE)))

    return at


def near(a: tuple[int, ...], b: tuple[int, ...], tol: int = 6) -> bool:
    return all(abs(p - q) <= tol for p, q in zip(a, b, strict=True))


def operators(ops: list) -> list[str]:
    return [str(op.operator) for op in ops]


def numbers(op) -> list[float]:
    return [float(v) for v in op.operands]


def shown(ops: list) -> list[tuple[list[float], str]]:
    """(text matrix in force, text) of each ``Tj``."""
    found, tm = [], [1.0, 0, 0, 1, 0, 0]
    for op in ops:
        if str(op.operator) == "Tm":
            tm = numbers(op)
        elif str(op.operator) == "Tj":
            found.append((tm, str(op.operands[0])))
    return found


def test_star_points_are_filled_and_its_notches_are_not(tmp_path):
    pdf = build(tmp_path, '- {star: 5, at: [0.5, 0.5], r: 0.4, inner: 0.4, fill: "#ff0000"}')
    _, _, ops, _ = face(pdf)
    names = operators(ops)
    assert names.count("l") == 9 and "h" in names  # ten corners: a move and nine lines, closed
    fills = [op for op in ops if str(op.operator) == "rg"]
    assert numbers(fills[0]) == [1, 0, 0]
    first = next(op for op in ops if str(op.operator) == "m")
    assert numbers(first) == pytest.approx([72, 72 + 0.4 * SIZE], abs=1e-4)  # the first point at 12 o'clock
    at = pixels(pdf)
    r = 0.4 * SIZE
    for k in range(5):
        assert near(at(*geo.on_circle(72, 72, 0.9 * r, 72 * k)), RED), k  # inside each point
        assert near(at(*geo.on_circle(72, 72, 0.6 * r, 72 * k + 36)), WHITE), k  # past each notch (at 0.4 r)
        assert near(at(*geo.on_circle(72, 72, 0.3 * r, 72 * k + 36)), RED), k  # inside the notch
    assert near(at(*geo.on_circle(72, 72, 1.05 * r, 0)), WHITE)  # beyond the top point


def test_sector_edges_and_ring_segment(tmp_path):
    pdf = build(tmp_path, '''
        - {sector: wedge, at: [0.5, 0.5], r: 0.4, start: 30, end: 120, fill: "#000000"}
        - {sector: ring, at: [0.5, 0.5], r: 0.4, start: 200, end: 250, inner: 0.5, fill: "#ff0000"}
    ''')
    at = pixels(pdf)
    r = 0.4 * SIZE
    for radius in (0.3 * r, 0.9 * r):
        assert near(at(*geo.on_circle(72, 72, radius, 33)), BLACK) and near(at(*geo.on_circle(72, 72, radius, 117)), BLACK)
        assert near(at(*geo.on_circle(72, 72, radius, 26)), WHITE) and near(at(*geo.on_circle(72, 72, radius, 124)), WHITE)
    assert near(at(*geo.on_circle(72, 72, 1.04 * r, 75)), WHITE)  # past the arc
    assert near(at(*geo.on_circle(72, 72, 0.75 * r, 225)), RED)  # in the ring segment
    assert near(at(*geo.on_circle(72, 72, 0.4 * r, 225)), WHITE)  # inside its inner radius (0.5 r)
    assert near(at(*geo.on_circle(72, 72, 0.75 * r, 196)), WHITE) and near(at(*geo.on_circle(72, 72, 0.75 * r, 254)), WHITE)
    _, _, ops, _ = face(pdf)
    assert operators(ops).count("c") == 1 + 2  # the wedge's 90° arc in one curve, the ring's outer and inner 50° arcs
    assert [numbers(op) for op in ops if str(op.operator) == "rg"] == [[0, 0, 0], [1, 0, 0]]


def test_line_with_dash_cap_and_colour(tmp_path):
    pdf = build(tmp_path, '- {line: [[0.1, 0.5], [0.5, 0.2], [0.9, 0.5]], width: 4pt, colour: "#ff0000", dash: [6pt, 3pt], cap: round, join: bevel}')
    _, _, ops, _ = face(pdf)
    by = {str(op.operator): op for op in ops}
    assert numbers(by["RG"]) == [1, 0, 0] and numbers(by["w"]) == [4]
    assert numbers(by["J"]) == [1] and numbers(by["j"]) == [2]
    assert [float(v) for v in by["d"].operands[0]] == [6, 3] and float(by["d"].operands[1]) == 0
    names = operators(ops)
    assert names.count("l") == 2 and "S" in names and "h" not in names and "f" not in names  # open, stroked only
    assert numbers(by["m"]) == pytest.approx([0.1 * SIZE, 0.5 * SIZE])


def test_polygon_regular_and_ellipse_fill_their_outlines(tmp_path):
    pdf = build(tmp_path, '''
        - {polygon: [[0.1, 0.1], [0.4, 0.1], [0.1, 0.4]], fill: "#ff0000", stroke: "#000000", width: 1pt}
        - {regular: 4, at: [0.75, 0.25], r: 0.15, fill: "#000000"}
        - {ellipse: e, box: [0.1, 0.6, 0.8, 0.2], fill: "#ff0000"}
    ''')
    at = pixels(pdf)
    assert near(at(0.15 * SIZE, 0.85 * SIZE), RED) and near(at(0.35 * SIZE, 0.65 * SIZE), WHITE)  # below the hypotenuse
    cx, cy, r = 0.75 * SIZE, 0.75 * SIZE, 0.15 * SIZE  # a diamond: corners up, right, down, left
    assert near(at(cx, cy + 0.9 * r), BLACK) and near(at(cx + 0.6 * r, cy + 0.6 * r), WHITE)
    assert near(at(0.12 * SIZE, 0.3 * SIZE), RED) and near(at(0.12 * SIZE, 0.37 * SIZE), WHITE)  # the ellipse's end, its corner box
    _, _, ops, _ = face(pdf)
    assert "B" in operators(ops) or "B*" in operators(ops)  # the polygon filled and stroked


def test_rotated_rect_turns_about_its_box_centre(tmp_path):
    pdf = build(tmp_path, '- {rect: bar, box: [0.1, 0.45, 0.8, 0.1], fill: "#000000", rotate: 90}')
    at = pixels(pdf)
    assert near(at(72, 0.15 * SIZE), BLACK) and near(at(72, 0.85 * SIZE), BLACK)  # now upright through the centre
    assert near(at(0.2 * SIZE, 72), WHITE) and near(at(0.8 * SIZE, 72), WHITE)
    _, _, ops, _ = face(pdf)
    cm = next(numbers(op) for op in ops if str(op.operator) == "cm" and numbers(op) != [1, 0, 0, 1, 0, 0])
    assert cm == pytest.approx(list(geo.turn_matrix((72, 72), 90)), abs=1e-6)


def test_rotated_text_stays_text_with_a_turned_text_matrix(tmp_path):
    pdf = build(tmp_path, '- {text: "{name}", at: [0.5, 0.5], size: 0.1, rotate: 30, fit: false}')
    _, _, ops, _ = face(pdf)
    [(tm, text)] = shown(ops)
    assert text == "Hello"
    c, s = math.cos(math.radians(30)), math.sin(math.radians(30))
    assert tm[:4] == pytest.approx([c, -s, s, c], abs=1e-5)
    from reportlab.pdfbase import pdfmetrics

    from tokengen.sources.fonts import register

    register()
    w = pdfmetrics.stringWidth("Hello", "DejaVuSans", 14.4)
    # the text's left end is half its width before the anchor along the turned baseline
    assert tm[4:] == pytest.approx([72 - c * w / 2, 72 + s * w / 2], abs=1e-3)
    import pdfplumber

    with pdfplumber.open(pdf) as doc:
        assert "Hello" in "".join(ch["text"] for ch in doc.pages[0].chars)


def test_rotated_text_is_fitted_by_its_turned_outline(tmp_path):
    """A long word turned 45° near the corner: shrunk until its turned box is inside the safe
    area; the same word upright fits at a different size, and one turned off the token is reported."""
    path = catalogue(tmp_path, '''
        - {text: "WWWWWWWW", at: [0.5, 0.5], size: 0.2, width: 1.0, rotate: 45}
        - {text: "WWWWWWWW", at: [0.5, 0.5], size: 0.2, width: 1.0}
        - {text: "far", at: [0.98, 0.5], size: 0.1, rotate: 90}
    ''')
    cat = load_catalogue(path)
    template, values = cat.tokens[0].template, dict(cat.tokens[0].values)
    area = safe_area(None, SIZE, SIZE, 9.0)
    turned = set_text(SIZE, SIZE, template, template.elements[0], values, area)
    upright = set_text(SIZE, SIZE, template, template.elements[1], values, area)
    assert turned.fits and turned.turn == 45 and turned.size != pytest.approx(upright.size)
    assert all(area.contains(p) for p in turned.outline())
    larger = replace(template.elements[0], size=Size(pt=turned.size * 1.05), fit=False)
    assert not all(area.contains(p) for p in set_text(SIZE, SIZE, template, larger, values, None).outline())  # the largest that fits
    unfit = unfit_texts(SIZE, SIZE, template, values, area)
    assert [e.where for e, _ in unfit] == ["template[2]"]


def test_arc_text_sets_each_letter_on_the_circle(tmp_path):
    pdf = build(tmp_path, '- {arc_text: "{name}", at: [0.5, 0.5], r: 0.4, start: 0, size: 12pt}')
    _, _, ops, _ = face(pdf)
    from reportlab.pdfbase import pdfmetrics

    from tokengen.sources.fonts import register

    register()
    tms = [tm for tm, _ in shown(ops)]
    letters = [text for _, text in shown(ops)]
    assert letters == list("Hello")
    turns = []
    for (a, b, _, _, e, f), ch in zip(tms, letters, strict=True):
        w = pdfmetrics.stringWidth(ch, "DejaVuSans", 12)
        middle = (e + a * w / 2, f + b * w / 2)  # half the advance along the letter's baseline
        assert math.dist(middle, (72, 72)) == pytest.approx(0.4 * SIZE, abs=1e-3)
        turns.append(math.degrees(math.atan2(-b, a)) % 360)
    assert turns == sorted(turns, key=lambda t: (t + 180) % 360)  # clockwise, left to right over the top
    assert 300 < turns[0] < 360 and 0 < turns[-1] < 60  # centred on 12 o'clock
    assert abs((turns[2] + 180) % 360 - 180) < 5  # the middle letter about 12 o'clock


def test_linear_gradient_is_an_axial_shading_clipped_to_the_shape(tmp_path):
    pdf = build(tmp_path, '- {rect: bg, box: [0, 0, 1, 1], fill: {gradient: ["#ff0000", "#0000ff"], angle: 90}}')
    doc, form, ops, _ = face(pdf)
    names = operators(ops)
    assert "sh" in names and names.index("W*") < names.index("sh") or names.index("W") < names.index("sh")
    name = str(next(op for op in ops if str(op.operator) == "sh").operands[0])
    shading = form.Resources.Shading[name]
    assert int(shading.ShadingType) == 2 and str(shading.ColorSpace) == "/DeviceRGB"
    assert [float(v) for v in shading.Coords] == pytest.approx([0, 72, 144, 72])  # left to right across the box
    assert [float(v) for v in shading.Function.C0] == [1, 0, 0] and [float(v) for v in shading.Function.C1] == [0, 0, 1]
    at = pixels(pdf)
    left, right, middle = at(3, 72), at(141, 72), at(72, 72)
    assert left[0] > 240 and left[2] < 15 and right[2] > 240 and right[0] < 15
    assert 100 < middle[0] < 155 and 100 < middle[2] < 155
    doc.close()


def test_radial_gradient_and_stops(tmp_path):
    pdf = build(tmp_path, '- {circle: disc, at: [0.5, 0.5], r: 0.4, fill: {radial: ["#ffffff", "#ff0000", "#000000"], stops: [0, 0.5, 1]}}')
    doc, form, ops, _ = face(pdf)
    name = str(next(op for op in ops if str(op.operator) == "sh").operands[0])
    shading = form.Resources.Shading[name]
    assert int(shading.ShadingType) == 3
    assert [float(v) for v in shading.Coords] == pytest.approx([72, 72, 0, 72, 72, 0.4 * SIZE])
    assert int(shading.Function.FunctionType) == 3 and [float(v) for v in shading.Function.Bounds] == [0.5]  # stitched at the stop
    at = pixels(pdf)
    assert near(at(72, 72), WHITE, 12) and near(at(72 + 0.2 * SIZE, 72), RED, 12)
    assert near(at(72 + 0.45 * SIZE, 72), WHITE)  # the clip: nothing past the circle
    doc.close()


def test_gradient_on_a_star_and_a_sector_follows_the_figure(tmp_path):
    pdf = build(tmp_path, '''
        - {star: 6, at: [0.3, 0.3], r: 0.2, fill: {gradient: ["#ff0000", "#ff0000"]}}
        - {sector: s, at: [0.7, 0.7], r: 0.2, start: 90, end: 180, fill: {radial: ["#000000", "#000000"]}, stroke: "#ff0000", width: 1pt}
    ''')
    at = pixels(pdf)
    r = 0.2 * SIZE
    cx, cy = 0.3 * SIZE, 0.7 * SIZE
    assert near(at(*geo.on_circle(cx, cy, 0.9 * r, 0)), RED) and near(at(*geo.on_circle(cx, cy, 0.9 * r, 30)), WHITE)
    sx, sy = 0.7 * SIZE, 0.3 * SIZE
    assert near(at(*geo.on_circle(sx, sy, 0.5 * r, 135)), BLACK) and near(at(*geo.on_circle(sx, sy, 0.5 * r, 45)), WHITE)


def test_print_shop_export_of_a_gradient_card_is_cmyk_only_and_passes_preflight(tmp_path, run):
    catalogue(tmp_path, '''
        - {rect: bg, box: [0, 0, 1, 1], bleed: true, fill: {gradient: ["#204080", "#e0c040"], angle: 135}}
        - {star: 8, at: [0.5, 0.5], r: 0.3, fill: {radial: ["#ffffff", "#c02020"]}, stroke: "#000000", width: 1pt}
        - {sector: s, at: [0.5, 0.5], r: 0.4, start: 300, end: 60, inner: 0.8, fill: [0, 0.5, 1, 0]}
        - {text: "{name}", at: [0.5, 0.55], size: 0.1, rotate: -20}
        - {arc_text: "{name}", at: [0.5, 0.5], r: 0.36, start: 180, direction: anticlockwise, size: 9pt}
    ''')
    result = run("export", str(tmp_path / "cat.yaml"), "--profile", "print-shop", "-o", str(tmp_path / "shop"))
    assert result.exit_code == 0, result.stderr
    assert "passes every check of profile print-shop" in result.stdout
    pdf = next((tmp_path / "shop").glob("*.pdf"))
    shadings = 0
    with pikepdf.open(pdf) as doc:
        for obj in doc.objects:
            if isinstance(obj, pikepdf.Dictionary) and "/ShadingType" in obj:
                shadings += 1
                assert str(obj.ColorSpace) == "/DeviceCMYK"
                assert len(obj.Function.C0 if "/C0" in obj.Function else obj.Function.Functions[0].C0) == 4
            if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Form":
                assert not {"rg", "RG"} & set(operators(pikepdf.parse_content_stream(obj)))  # no DeviceRGB paint
    assert shadings >= 2 * 1  # the card's linear and radial gradients (the back has none)


def test_arc_text_between_start_and_end_shrinks_to_fit_and_a_longer_one_is_named(tmp_path, run):
    catalogue(tmp_path, '''
        - {arc_text: "{name}", at: [0.5, 0.5], r: 0.4, start: -20, end: 20, size: 20pt}
        - {arc_text: "A VERY LONG TEXT INDEED", at: [0.5, 0.5], r: 0.1, start: 0, end: 30, size: 9pt}
    ''')
    out = tmp_path / "out.pdf"
    result = run("build", str(tmp_path / "cat.yaml"), "-o", str(out))
    assert result.exit_code == 0
    assert result.stderr == ("tokengen: warning: " + str(tmp_path / "cat.yaml") + ":6: template[1]: token a: 'A VERY LONG TEXT INDEED' "
                             "is longer than its arc from start to end even at 4 pt; shorten it, widen the arc or make r larger\n")
    _, _, ops, _ = face(out)
    sizes = [float(op.operands[1]) for op in ops if str(op.operator) == "Tf"]
    assert 4 < sizes[0] < 20  # shrunk into its 40° arc
    from reportlab.pdfbase import pdfmetrics

    width = pdfmetrics.stringWidth("Hello", "DejaVuSans", sizes[0])
    assert math.degrees(width / (0.4 * SIZE)) == pytest.approx(40, abs=0.01)
