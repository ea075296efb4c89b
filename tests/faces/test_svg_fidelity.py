"""SVG art drawn as a browser draws it (issue 36): what svglib misdrew without a word.

Each SVG here uses one feature svglib 2.3.2 ignored or misdrew (``opacity``, a pattern, a mask,
a symbol scaled by ``<use>``, ``gradientTransform``, a filter). Each goes through an ``image:``
element of a one-token catalogue (2 in square, the SVG's 100 × 100 user units over the whole
face), the face is rendered by pypdfium2 at 200 px (2 px per user unit) and pixels are read
where the browser's rendering has a known colour. ``check``, ``build`` and ``export`` name the
file, element and feature alike; a print-shop export refuses ``opacity`` as it refuses
``fill-opacity``.
"""

from __future__ import annotations

import io
import textwrap
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest

from tokengen import load_catalogue
from tokengen.faces.render import SheetCanvas, binary_streams, open_canvas

HEAD = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="100" viewBox="0 0 100 100">\n'
#: Channels (0-255) a sampled pixel may differ from the expected colour (anti-aliasing,
#: resampling of the 300 DPI picture to the 200 px rendering).
LEVELS = 6


def catalogue(folder: Path, svg: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pic.svg").write_text(HEAD + textwrap.dedent(svg) + "</svg>\n", "utf-8")
    cat = folder / "cat.yaml"
    cat.write_text(textwrap.dedent("""\
        title: SVG fidelity
        size: 2in
        fields: {pic: image}
        template:
          - {rect: fill, fill: "#ffffff", bleed: true}
          - {image: "{pic}", box: [0, 0, 1, 1]}
        tokens:
          - {id: a, pic: pic.svg}
        """), "utf-8")
    return cat


def face(cat: Path) -> tuple[bytes, list[str]]:
    """The face on a 2 in page, and the art's warnings."""
    loaded = load_catalogue(cat)
    buffer = io.BytesIO()
    canvas = open_canvas(buffer, (144, 144), title="t", author="a", subject="s")
    sheet = SheetCanvas(canvas, 144)
    canvas.doForm(sheet.face_form(loaded.tokens[0]))
    canvas.showPage()
    with binary_streams():
        canvas.save()
    return buffer.getvalue(), sheet.art.warnings(cat.parent)


def pixels(cat: Path):
    pdf, _ = face(cat)
    document = pdfium.PdfDocument(pdf)
    image = document[0].render(scale=200 / 144).to_pil().convert("RGB")
    document.close()
    return lambda x, y: image.getpixel((round(x * 2), round(y * 2)))  # user units → px


def images(pdf: pikepdf.Pdf) -> list[pikepdf.Stream]:
    return [o for o in pdf.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]


def near(found: tuple[int, ...], expected: tuple[int, int, int]) -> bool:
    return all(abs(a - b) <= LEVELS for a, b in zip(found, expected))


RED, WHITE, BLUE = (255, 0, 0), (255, 255, 255), (0, 0, 255)
#: 30 % red over white: 255 - 0.3 × 255 = 178.5 in green and blue.
PINK = (255, 178, 178)


@pytest.mark.parametrize("svg", [
    '<rect width="100" height="100" fill="#ff0000" opacity="0.3"/>\n',
    '<g opacity="0.3"><rect width="100" height="100" fill="#ff0000"/></g>\n',
    '<rect width="100" height="100" style="fill: #ff0000; opacity: 0.3"/>\n',
], ids=["shape", "group", "style"])
def test_opacity_blends_with_what_lies_under(tmp_path, svg):
    at = pixels(catalogue(tmp_path / "c", svg))
    assert near(at(50, 50), PINK), at(50, 50)


def test_pattern_fill_is_drawn(tmp_path):
    at = pixels(catalogue(tmp_path / "c", """\
        <defs><pattern id="p" width="20" height="20" patternUnits="userSpaceOnUse">
          <rect width="10" height="10" fill="#0000ff"/></pattern></defs>
        <rect width="100" height="100" fill="url(#p)"/>
        """))
    assert near(at(45, 45), BLUE) and near(at(25, 65), BLUE), (at(45, 45), at(25, 65))
    assert near(at(55, 55), WHITE) and near(at(35, 75), WHITE), (at(55, 55), at(35, 75))


def test_mask_cuts_a_ring(tmp_path):
    at = pixels(catalogue(tmp_path / "c", """\
        <defs><mask id="m"><circle cx="50" cy="50" r="40" fill="#ffffff"/><circle cx="50" cy="50" r="20" fill="#000000"/></mask></defs>
        <rect width="100" height="100" fill="#ff0000" mask="url(#m)"/>
        """))
    assert near(at(50, 20), RED) and near(at(80, 50), RED), (at(50, 20), at(80, 50))  # in the ring
    assert near(at(50, 50), WHITE), at(50, 50)  # the hole
    assert near(at(5, 5), WHITE), at(5, 5)  # outside the ring


def test_symbol_is_scaled_to_its_use(tmp_path):
    at = pixels(catalogue(tmp_path / "c", """\
        <defs><symbol id="s" viewBox="0 0 10 10"><rect width="10" height="10" fill="#0000ff"/></symbol></defs>
        <use xlink:href="#s" x="0" y="0" width="100" height="100"/>
        """))
    assert near(at(90, 90), BLUE) and near(at(10, 10), BLUE), (at(90, 90), at(10, 10))


def test_gradient_transform_turns_the_gradient(tmp_path):
    at = pixels(catalogue(tmp_path / "c", """\
        <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="0" gradientTransform="rotate(90 0.5 0.5)">
          <stop offset="0" stop-color="#ff0000"/><stop offset="1" stop-color="#0000ff"/></linearGradient></defs>
        <rect width="100" height="100" fill="url(#g)"/>
        """))
    top, bottom, left, right = at(50, 3), at(50, 97), at(3, 50), at(97, 50)
    assert top[0] > 230 and top[2] < 25, top  # runs top (red) to bottom (blue)
    assert bottom[0] < 25 and bottom[2] > 230, bottom
    assert near(left, right), (left, right)  # the same across


def test_a_note_names_the_line_where_the_element_starts(tmp_path):
    """Inkscape writes one attribute a line; libxml2 gives the line where a start tag ends, so a
    new user's `<filter` on line 3 was named as line 6."""
    cat = catalogue(tmp_path / "c", """\
        <defs>
          <filter
             id="f"
             x="0"
             y="0"><feGaussianBlur stdDeviation="5"/></filter></defs>
        <rect x="30" y="30" width="40" height="40" fill="#0000ff" filter="url(#f)"/>
        """)
    assert face(cat)[1] == ["pic.svg: SVG: drawn as a 300 DPI picture: <filter> at line 3"]


def test_filter_is_drawn_and_named(tmp_path):
    cat = catalogue(tmp_path / "c", """\
        <defs><filter id="f"><feGaussianBlur stdDeviation="5"/></filter></defs>
        <rect x="30" y="30" width="40" height="40" fill="#0000ff" filter="url(#f)"/>
        """)
    at = pixels(cat)
    edge = at(27, 50)  # outside the rect: the blur spreads blue into it
    assert 20 < edge[0] < 235 and edge[2] > 240, edge
    assert face(cat)[1] == ["pic.svg: SVG: drawn as a 300 DPI picture: <filter> at line 2"]


def test_picture_is_embedded_at_300_dpi(tmp_path):
    pdf, _ = face(catalogue(tmp_path / "c", '<rect width="100" height="100" fill="#ff0000" opacity="0.3"/>\n'))
    with pikepdf.open(io.BytesIO(pdf)) as opened:
        found = [(int(o.Width), int(o.Height), str(o.ColorSpace), "/SMask" in o) for o in images(opened)]
    assert found == [(600, 600, "/DeviceRGB", True), (600, 600, "/DeviceGray", False)]  # 2 in at 300 DPI, its alpha a soft mask


def test_safe_svg_stays_vectors(tmp_path):
    pdf, notes = face(catalogue(tmp_path / "c", '<rect width="100" height="100" fill="#ff0000" fill-opacity="0.3"/>\n'))
    assert notes == []
    with pikepdf.open(io.BytesIO(pdf)) as opened:
        assert images(opened) == []


@pytest.mark.parametrize("svg, words", [
    ('<rect width="100" height="100" fill="#ff0000" opacity="0.3"/>\n', "opacity 0.3 on <rect>"),
    ('<rect width="100" height="100" fill="#ff0000" fill-opacity="0.3"/>\n', None),
])
def test_print_shop_refuses_opacity_as_fill_opacity(tmp_path, run, svg, words):
    cat = catalogue(tmp_path / "c", svg)
    result = run("export", str(cat), "--profile", "print-shop", "-o", str(tmp_path / "shop"))
    assert result.exit_code == 2
    reason = f"pic.svg:2: SVG uses transparency ({words})" if words else "pic.svg: SVG uses transparency (fill opacity 0.3)"
    assert result.stderr == (f"tokengen: error: {cat}:8: tokens[0].pic: {reason}; print-shop PDFs allow none: "
                             "make its colours opaque\n")


def test_check_build_and_export_print_the_same_note(tmp_path, run):
    cat = catalogue(tmp_path / "c", """\
        <defs><mask id="m"><circle cx="50" cy="50" r="40" fill="#ffffff"/></mask></defs>
        <rect width="100" height="100" fill="#ff0000" mask="url(#m)"/>
        """)
    note = "pic.svg: SVG: drawn as a 300 DPI picture: <mask> at line 2"
    checked = run("check", str(cat))
    assert checked.exit_code == 0 and f"warning svg-art: {note}\n" in checked.stdout, checked.stdout
    built = run("build", str(cat), "-o", str(tmp_path / "a.pdf"))
    assert built.exit_code == 0 and built.stderr == f"tokengen: warning: {note}\n"
    exported = run("export", str(cat), "--profile", "print-shop", "-o", str(tmp_path / "shop"))
    assert exported.exit_code == 0, exported.stderr
    assert f"tokengen: warning: {note}\n" in exported.stderr


def test_external_reference_is_refused_before_any_drawing(tmp_path, run):
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "secret.svg").write_text(HEAD + '<rect width="9" height="9"/></svg>\n', "utf-8")
    cat = catalogue(tmp_path / "c", """\
        <defs><mask id="m"><use href="secret.svg"/></mask></defs>
        <rect width="100" height="100" fill="#ff0000" mask="url(#m)"/>
        """)
    result = run("build", str(cat), "-o", str(tmp_path / "a.pdf"))
    assert result.exit_code == 2
    assert result.stderr == (f"tokengen: error: {cat}:8: tokens[0].pic: pic.svg:2: <use> refers to 'secret.svg' outside "
                             "the file; external references are refused\n")


@pytest.mark.parametrize("svg, element, target", [
    ('<rect width="100" height="100" fill="url(other.svg#g)"/>\n', "rect", "other.svg#g"),
    ('<rect width="100" height="100" style="mask: url( \'/etc/m.svg#m\' )"/>\n', "rect", "/etc/m.svg#m"),
    ('<style>rect { filter: url(f.svg#f) }</style>\n', "style", "f.svg#f"),
])
def test_css_reference_to_another_file_is_refused(tmp_path, run, svg, element, target):
    cat = catalogue(tmp_path / "c", svg)
    result = run("build", str(cat), "-o", str(tmp_path / "a.pdf"))
    assert result.exit_code == 2
    assert result.stderr == (f"tokengen: error: {cat}:8: tokens[0].pic: pic.svg:2: <{element}> refers to 'url({target})' "
                             "outside the file; external references are refused\n")


def test_reference_loop_is_refused(tmp_path, run):
    cat = catalogue(tmp_path / "c", """\
        <defs><pattern id="p" width="20" height="20" patternUnits="userSpaceOnUse">
          <rect width="10" height="10" fill="url(#p)"/></pattern></defs>
        <rect width="100" height="100" fill="url(#p)"/>
        """)
    result = run("build", str(cat), "-o", str(tmp_path / "a.pdf"))
    assert result.exit_code == 2
    assert result.stderr == f"tokengen: error: {cat}:8: tokens[0].pic: pic.svg:2: <pattern> refers to itself (a reference loop)\n"


def test_picture_without_a_size_is_refused(tmp_path, run):
    cat = catalogue(tmp_path / "c", "")
    (tmp_path / "c" / "pic.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"><rect width="9" height="9" opacity="0.5"/></svg>')
    result = run("build", str(cat), "-o", str(tmp_path / "a.pdf"))
    assert result.exit_code == 2
    assert result.stderr == (f"tokengen: error: {cat}:8: tokens[0].pic: pic.svg: SVG has no size (give it width and height, "
                             "or a viewBox)\n")


def icon_catalogue(folder: Path, icon: str) -> Path:
    """Tokens whose boxed text prints the icon ``:dot:`` at 14 pt."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "dot.svg").write_text(HEAD + textwrap.dedent(icon) + "</svg>\n", "utf-8")
    cat = folder / "cat.yaml"
    cat.write_text(textwrap.dedent("""\
        title: icons
        size: 2in
        icons: {dot: dot.svg}
        fields: {rules: text}
        template:
          - {rect: fill, fill: "#ffffff", bleed: true}
          - {text: "{rules}", box: [0.1, 0.1, 0.8, 0.8], size: 14pt, min_size: 7pt}
        tokens:
          - {id: a, rules: "Gain :dot: now"}
        """), "utf-8")
    return cat


@pytest.mark.parametrize("command", [["build"], ["export", "--profile", "print-shop"]])
def test_icon_outside_the_safe_set_is_a_300_dpi_picture(tmp_path, run, command):
    cat = icon_catalogue(tmp_path / "c", """\
        <defs><mask id="m"><circle cx="50" cy="50" r="40" fill="#ffffff"/></mask></defs>
        <rect width="100" height="100" fill="#0000ff" mask="url(#m)"/>
        """)
    out = tmp_path / ("a.pdf" if command == ["build"] else "shop")
    result = run(*command, str(cat), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert "tokengen: warning: dot.svg: SVG: drawn as a 300 DPI picture: <mask> at line 2\n" in result.stderr
    [path] = [out] if out.suffix == ".pdf" else list(out.glob("*.pdf"))
    with pikepdf.open(path) as pdf:
        pictures = [(int(i.Width), int(i.Height), str(i.ColorSpace)) for i in images(pdf) if "/SMask" in i or command != ["build"]]
    # 14 pt at 300 DPI: 58.3 px, rounded up; RGB keeps the mask's edge as a soft mask, CMYK flattens it
    assert pictures == [(59, 59, "/DeviceRGB" if command == ["build"] else "/DeviceCMYK")]


def test_picture_pixels_count_towards_the_art_limit(tmp_path, run):
    cat = catalogue(tmp_path / "c", '<rect width="100" height="100" fill="#ff0000" opacity="0.3"/>\n')
    result = run("build", str(cat), "-o", str(tmp_path / "a.pdf"), "--max-art-pixels", "300000")
    assert result.exit_code == 2
    # 2 in at 300 DPI: 600 × 600 = 360,000 pixels, charged before resvg draws them
    assert result.stderr == (f"tokengen: error: {cat}:8: tokens[0].pic: pic.svg: the art of this build holds 360000 pixels "
                             "as embedded, more than the limit of 300000 (raise it with --max-art-pixels)\n")
    assert run("build", str(cat), "-o", str(tmp_path / "b.pdf"), "--max-art-pixels", "360000").exit_code == 0


@pytest.mark.parametrize("body, found", [
    ('<rect width="10" height="10" fill="#ff0000"/>', None),
    ('<g transform="translate(2 3)"><path d="M0 0 L10 0 L5 8 Z" fill="navy" stroke="#000" stroke-width="2"/></g>', None),
    ('<rect width="10" height="10" fill="red" opacity="0.3"/>', ('opacity on <rect>', 1)),
    ('<rect width="10" height="10" style="fill: red; opacity: .3"/>', ('opacity: .3 on <rect>', 1)),
    ('<defs>\n<pattern id="p"/></defs>', ("<pattern>", 2)),
    ('<rect width="10" height="10" stroke="red" stroke-linecap="square"/>', ('stroke-linecap="square" on <rect>', 1)),
    ('<rect width="10mm" height="10" fill="red"/>', ('width="10mm" on <rect>', 1)),
    ('<path d="M0 0 L10 0 Z L5 5" fill="red"/>', ('d="M0 0 L10 0 Z L5 5" on <path>', 1)),
])
def test_safe_set_names_the_first_feature_outside_it(body, found):
    from lxml import etree

    from tokengen.faces.svgsafe import outside

    root = etree.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">{body}</svg>')
    assert outside(root) == found
