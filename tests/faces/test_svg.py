"""SVG art (issue 25): ``image:`` elements and catalogue icons take ``.svg`` files, drawn as vectors.

Read back from the PDF: the picture is a Form XObject of path operators with no image XObject
anywhere; in a print-shop export every colour operator and shading is DeviceCMYK, each colour
the converter's, and the file passes preflight. Rendered with pypdfium2 and compared with
librsvg's rendering (``rsvg-convert``) of the same SVG: tolerance stated at :data:`TOLERANCE`.
Hostile SVGs are refused with exact one-line messages naming the file and the limit.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import textwrap
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops, ImageStat

from tokengen import load_catalogue
from tokengen.colour import Converter
from tokengen.errors import RenderError
from tokengen.faces.render import SheetCanvas, binary_streams, open_canvas
from tokengen.faces.svgart import read_svg
from tokengen.model import Colour

#: Mean absolute difference per channel (0-255) between our rendering and librsvg's, over the
#: whole picture; the edges of shapes differ by anti-aliasing only, so the mean stays small.
TOLERANCE = 2.0
#: Share of pixels allowed to differ by more than 64 in some channel (edge pixels only).
EDGE_SHARE = 0.01

PICTURE = """\
<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">
  <defs><linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="#00aa55"/></linearGradient></defs>
  <rect x="0" y="0" width="100" height="100" fill="#2a6fdb"/>
  <circle cx="30" cy="35" r="22" fill="#f2c14e" stroke="#000000" stroke-width="3"/>
  <path d="M55 10 L95 10 L75 70 Z" fill="#d7263d"/>
  <g transform="translate(10 80) rotate(-10)"><rect width="40" height="12" fill="url(#g)"/></g>
  <polyline points="60,90 70,78 80,90 90,78" fill="none" stroke="#ffffff" stroke-width="2.5"/>
</svg>
"""
STAR = """\
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 20" width="20" height="20">
  <polygon points="10,1 12.5,7.5 19,7.5 14,12 16,19 10,15 4,19 6,12 1,7.5 7.5,7.5" fill="#c9a227"/>
</svg>
"""


def catalogue(folder: Path, picture: str = PICTURE, *, box: str = "[0, 0, 1, 1]", size: str = "2in") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pic.svg").write_text(picture, "utf-8")
    (folder / "star.svg").write_text(STAR, "utf-8")
    path = folder / "cat.yaml"
    path.write_text(textwrap.dedent(f"""\
        title: SVG art
        size: {size}
        icons: {{star: star.svg}}
        fields:
          name: text
          pic: image
          rules: text
        template:
          - {{rect: fill, fill: "#ffffff", bleed: true}}
          - {{image: "{{pic}}", box: {box}}}
        tokens:
          - {{id: a, name: Alpha, pic: pic.svg, rules: "Gain a :star: now"}}
          - {{id: b, name: Beta, pic: pic.svg, rules: "Pay :star: :star:"}}
        """), "utf-8")
    return path


def face_pdf(cat: Path, colour_model: str = "rgb") -> bytes:
    """One page as large as the token (2 in square), its face drawn at the origin."""
    loaded = load_catalogue(cat)
    buffer = io.BytesIO()
    canvas = open_canvas(buffer, (144, 144), title="t", author="a", subject="s", colour_model=colour_model)
    sheet = SheetCanvas(canvas, 144, colour_model=colour_model)
    name = sheet.face_form(loaded.tokens[0])
    canvas.doForm(name)
    canvas.showPage()
    with binary_streams():
        canvas.save()
    return buffer.getvalue()


def forms(pdf: pikepdf.Pdf) -> dict[str, pikepdf.Stream]:
    """Every Form XObject by its resource name, however deep."""
    found: dict[str, pikepdf.Stream] = {}

    def walk(resources: pikepdf.Dictionary) -> None:
        for key, value in resources.get("/XObject", {}).items():
            if value.get("/Subtype") == "/Form" and key not in found:
                found[key] = value
                walk(value.get("/Resources", pikepdf.Dictionary()))

    for page in pdf.pages:
        walk(page.Resources)
    return found


def images(pdf: pikepdf.Pdf) -> list[pikepdf.Stream]:
    return [o for o in pdf.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]


def art_forms(pdf: pikepdf.Pdf) -> list[pikepdf.Stream]:
    return [f for k, f in forms(pdf).items() if k.startswith("/FormXob.art-")]


def operators(stream: pikepdf.Stream) -> list[tuple[str, list]]:
    return [(str(op), list(operands)) for operands, op in pikepdf.parse_content_stream(stream)]


def render(pdf: bytes, px: int) -> Image.Image:
    document = pdfium.PdfDocument(pdf)
    image = document[0].render(scale=px / 144).to_pil().convert("RGB")
    document.close()
    return image


def rsvg(svg: Path, px: int) -> Image.Image:
    tool = shutil.which("rsvg-convert")
    if tool is None:
        pytest.skip("rsvg-convert (Debian's librsvg2-bin) is not installed")
    png = subprocess.run([tool, "-w", str(px), "-h", str(px), "-b", "white", str(svg)], check=True, capture_output=True).stdout
    return Image.open(io.BytesIO(png)).convert("RGB")


def compare(ours: Image.Image, theirs: Image.Image) -> tuple[float, float]:
    """(mean absolute difference per channel, share of pixels differing by more than 64)."""
    assert ours.size == theirs.size
    diff = ImageChops.difference(ours, theirs)
    mean = sum(ImageStat.Stat(diff).mean) / 3
    red, green, blue = diff.split()
    largest = ImageChops.lighter(ImageChops.lighter(red, green), blue).histogram()
    big = sum(largest[65:]) / (diff.width * diff.height)
    return mean, big


# -- vectors, once ---------------------------------------------------------------------------
def test_an_svg_picture_is_one_form_of_paths_and_no_image(tmp_path, run):
    cat = catalogue(tmp_path / "cat")
    out = tmp_path / "sheet.pdf"
    result = run("build", str(cat), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    with pikepdf.open(out) as pdf:
        assert images(pdf) == []
        [art] = art_forms(pdf)  # two tokens, one form
        assert [float(v) for v in art.BBox] == [0, 0, 1, 1]
        ops = [op for op, _ in operators(art)]
        assert ops.count("re") >= 1 and "c" in ops and "l" in ops and ops.count("f") + ops.count("B") + ops.count("f*") >= 3
        assert "sh" in ops  # the gradient, as a shading the form's resources name
        assert "/Sh0" in art.Resources.Shading
        assert "Do" not in ops and "BI" not in ops
        faces = [f for k, f in forms(pdf).items() if k.startswith("/FormXob.face-")]
        assert len(faces) == 2 and all("/FormXob.art-1" in f.Resources.XObject for f in faces)


def test_the_picture_renders_as_librsvg_renders_it(tmp_path):
    cat = catalogue(tmp_path / "cat")
    px = 300
    ours = render(face_pdf(cat), px)
    theirs = rsvg(tmp_path / "cat" / "pic.svg", px)
    mean, big = compare(ours, theirs)
    assert mean < TOLERANCE and big < EDGE_SHARE, (mean, big)
    # and the comparison has teeth: the picture mirrored is far off
    mirrored, _ = compare(ours.transpose(Image.Transpose.FLIP_LEFT_RIGHT), theirs)
    assert mirrored > 10 * TOLERANCE


def test_a_picture_keeps_its_aspect_inside_its_box(tmp_path):
    wide = PICTURE.replace('width="100" height="100" viewBox="0 0 100 100"', 'width="200" height="100" viewBox="0 0 100 50"')
    cat = catalogue(tmp_path / "cat", wide)
    with pikepdf.open(io.BytesIO(face_pdf(cat))) as pdf:
        [face] = [f for k, f in forms(pdf).items() if k.startswith("/FormXob.face-")]
        placed = [[round(float(v), 3) for v in operands] for op, operands in operators(face) if op == "cm"]
        # contain in the 144 pt box: 144 × 72 pt, centred vertically
        assert [144, 0, 0, 72, 0, 36] in placed
    assert read_svg(tmp_path / "cat" / "pic.svg").width == 150.0  # 200 px = 150 pt


# -- CMYK -----------------------------------------------------------------------------------
COLOUR_OPS = {"rg", "RG", "g", "G", "k", "K", "sc", "scn", "SC", "SCN", "cs", "CS"}


def test_print_shop_export_is_device_cmyk_only_and_passes_preflight(tmp_path, run):
    cat = catalogue(tmp_path / "cat")
    result = run("export", str(cat), "--profile", "print-shop", "-o", str(tmp_path / "shop"))
    assert result.exit_code == 0, result.stderr
    [pdf_path] = (tmp_path / "shop").glob("*.pdf")
    with pikepdf.open(pdf_path) as pdf:
        assert images(pdf) == []
        [art] = art_forms(pdf)
        used = {op for op, _ in operators(art) if op in COLOUR_OPS}
        assert used <= {"k", "K"} and "k" in used and "K" in used
        shading = art.Resources.Shading.Sh0
        assert shading.ColorSpace == "/DeviceCMYK"
        fills = [tuple(round(float(v), 4) for v in operands) for op, operands in operators(art) if op == "k"]
        strokes = [tuple(round(float(v), 4) for v in operands) for op, operands in operators(art) if op == "K"]
    converter = Converter("cmyk")
    def expect(hex_colour: str, area: bool) -> tuple[float, ...]:
        values = Colour.parse(hex_colour).values
        return tuple(round(v, 4) for v in converter.paint(Colour("rgb", values), area=area))
    for colour in ("#2a6fdb", "#f2c14e", "#d7263d"):  # fills: through the converter as areas
        assert expect(colour, True) in fills, (colour, fills)
    assert expect("#000000", False) == (0, 0, 0, 1) and (0.0, 0.0, 0.0, 1.0) in strokes  # a black line: K only
    assert expect("#ffffff", False) in strokes
    checked = run("preflight", str(pdf_path), "--profile", "print-shop")
    assert checked.exit_code == 0, checked.stdout


def test_cmyk_picture_renders_close_to_librsvg(tmp_path):
    cat = catalogue(tmp_path / "cat")
    px = 300
    ours = render(face_pdf(cat, "cmyk"), px)
    theirs = rsvg(tmp_path / "cat" / "pic.svg", px)
    mean, _ = compare(ours, theirs)
    assert mean < 25, mean  # FOGRA39 gamut and pdfium's plain CMYK → RGB: the same picture, duller


def test_transparency_is_refused_in_cmyk_only(tmp_path, run):
    seen = PICTURE.replace('fill="#d7263d"', 'fill="#d7263d" fill-opacity="0.5"')
    cat = catalogue(tmp_path / "cat", seen)
    assert run("build", str(cat), "-o", str(tmp_path / "rgb.pdf")).exit_code == 0
    result = run("export", str(cat), "--profile", "print-shop", "-o", str(tmp_path / "shop"))
    assert result.exit_code == 2
    # fill-opacity in a file with gradients is outside svglib's safe set: the picture path names the element
    assert result.stderr == (f"tokengen: error: {cat}:12: tokens[0].pic: pic.svg:5: SVG uses transparency (fill-opacity 0.5 "
                             "on <path>); print-shop PDFs allow none: make its colours opaque\n")


# -- icons -----------------------------------------------------------------------------------
def icon_catalogue(folder: Path, icon: str) -> Path:
    cat = catalogue(folder)
    text = cat.read_text("utf-8").replace("icons: {star: star.svg}", f"icons: {{star: {icon}}}")
    text = text.replace('  - {image: "{pic}", box: [0, 0, 1, 1]}\n',
                        '  - {text: "{rules}", box: [0.1, 0.1, 0.8, 0.8], size: 14pt, min_size: 7pt}\n')
    cat.write_text(text, "utf-8")
    return cat


def test_svg_icons_are_vector_forms_where_the_text_puts_them(tmp_path, run):
    cat = icon_catalogue(tmp_path / "cat", "star.svg")
    out = tmp_path / "sheet.pdf"
    result = run("build", str(cat), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    with pikepdf.open(out) as pdf:
        assert images(pdf) == []  # the placeholder ReportLab reads is never drawn
        [star] = art_forms(pdf)
        assert "f" in [op for op, _ in operators(star)]
        faces = {k: f for k, f in forms(pdf).items() if k.startswith("/FormXob.face-")}
        # token a prints one star, token b two: each at the 14 pt icon size, 14 pt square
        for name, count in (("/FormXob.face-a", 1), ("/FormXob.face-b", 2)):
            ops = operators(faces[name])
            drawn = [i for i, (op, operands) in enumerate(ops) if op == "Do" and str(operands[0]) == "/FormXob.art-1"]
            assert len(drawn) == count
            scales = [[round(float(v), 3) for v in operands[:4]] for op, operands in ops if op == "cm"]
            assert scales.count([14.0, 0.0, 0.0, 14.0]) == count


def test_svg_icon_in_a_print_shop_export_is_cmyk(tmp_path, run):
    cat = icon_catalogue(tmp_path / "cat", "star.svg")
    result = run("export", str(cat), "--profile", "print-shop", "-o", str(tmp_path / "shop"))
    assert result.exit_code == 0, result.stderr
    [pdf_path] = (tmp_path / "shop").glob("*.pdf")
    with pikepdf.open(pdf_path) as pdf:
        [star] = art_forms(pdf)
        assert {op for op, _ in operators(star) if op in COLOUR_OPS} <= {"k", "K"}


def test_png_icons_in_a_print_shop_export_are_converted_to_cmyk(tmp_path, run):
    """examples/rules-cards: its PNG icons reached the PDF as RGB images and failed colour preflight."""
    root = Path(__file__).resolve().parents[2]
    folder = tmp_path / "cards"
    shutil.copytree(root / "examples" / "rules-cards", folder)
    result = run("export", str(folder / "cards.yaml"), "--profile", "print-shop", "-o", str(tmp_path / "shop"))
    assert result.exit_code == 0, result.stderr
    [pdf_path] = (tmp_path / "shop").glob("*.pdf")
    with pikepdf.open(pdf_path) as pdf:
        found = images(pdf)
        assert len(found) == 2 and all(i.ColorSpace == "/DeviceCMYK" for i in found)
    assert run("preflight", str(pdf_path), "--profile", "print-shop").exit_code == 0


def test_png_icons_in_rgb_builds_are_loaded_as_art(tmp_path, run):
    root = Path(__file__).resolve().parents[2]
    out = tmp_path / "cards.pdf"
    assert run("build", str(root / "examples" / "rules-cards" / "cards.yaml"), "-o", str(out)).exit_code == 0
    with pikepdf.open(out) as pdf:  # issue 37: one form per icon file, as image: art (no longer ReportLab's own embedding)
        assert len(list(art_forms(pdf))) == 2
        assert all(i.ColorSpace in ("/DeviceRGB", "/DeviceGray") for i in images(pdf))


# -- hostile SVGs ----------------------------------------------------------------------------
HOSTILE = {
    "laughs": ('<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;">]>\n'
               '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><title>&lol2;</title></svg>\n',
               "{path}: SVG declares the XML entity 'lol'; entities are refused (a small file can expand without bound)"),
    "external-entity": ('<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n'
                        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><title>&xxe;</title></svg>\n',
                        "{path}: SVG declares the external entity 'xxe' (file:///etc/passwd); external references are refused"),
    "many-elements": ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">' + '<rect width="1" height="1"/>' * 20_001 + "</svg>",
                      "{path}: SVG has more than 20000 elements, the limit (raise it with --max-svg-elements)"),
    "use-copies": ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">'
                   '<defs><g id="a">' + '<rect width="1" height="1"/>' * 10 + '</g>'
                   '<g id="b">' + '<use xlink:href="#a"/>' * 10 + '</g><g id="c">' + '<use xlink:href="#b"/>' * 10 + '</g>'
                   '<g id="d">' + '<use xlink:href="#c"/>' * 10 + '</g></defs><use xlink:href="#d"/></svg>',
                   "{path}: SVG draws more than 20000 elements once its <use> copies are made, the limit "
                   "(raise it with --max-svg-elements)"),
    "use-loop": ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">\n'
                 '<g id="a"><use xlink:href="#a"/></g></svg>',
                 "{path}:2: <g> uses itself (a <use> loop)"),
    "external-image": ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">\n'
                       '<image xlink:href="../secret.png" width="10" height="10"/></svg>',
                       "{path}:2: <image> refers to the file '../secret.png'; pictures inside an SVG are refused "
                       "(give the picture its own image element)"),
    "embedded-image": ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">\n'
                       '<image href="data:image/png;base64,iVBORw0KGgo=" width="10" height="10"/></svg>',
                       "{path}:2: <image> embeds a raster picture; pictures inside an SVG are refused "
                       "(give the picture its own image element)"),
    "external-use": ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">\n'
                     '<use xlink:href="other.svg#x"/></svg>',
                     "{path}:2: <use> refers to 'other.svg#x' outside the file; external references are refused"),
    "script": ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">\n<script>alert(1)</script></svg>',
               "{path}:2: <script> refused: SVG scripts are refused"),
    "text": ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">\n<rect width="1" height="1"/>\n'
             '<text x="1" y="5">Hi</text></svg>',
             "{path}:3: <text> refused: SVG text is drawn with fonts tokengen cannot check; convert the text to paths "
             "(Inkscape: Path > Object to Path)"),
    "import": ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">\n<style>@import url(x.css);</style></svg>',
               "{path}:2: <style> imports another stylesheet; external references are refused"),
    "not-svg": ('<html><body/></html>', "{path}: not an SVG: its root element is <html>, not <svg>"),
    "no-size": ('<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0"><rect width="1" height="1"/></svg>',
                "{path}: SVG has no size (give it width and height, or a viewBox)"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_svg_is_refused_with_one_line(tmp_path, run, name):
    text, message = HOSTILE[name]
    cat = catalogue(tmp_path / "cat", text)
    path = tmp_path / "cat" / "pic.svg"
    result = run("build", str(cat), "-o", str(tmp_path / "out.pdf"))
    assert result.exit_code == 2, result.stderr
    assert result.stderr == f"tokengen: error: {cat}:12: tokens[0].pic: {message.format(path=path.name)}\n"  # where the catalogue names it
    assert not (tmp_path / "out.pdf").exists()


def test_a_file_over_the_byte_limit_is_refused_before_parsing(tmp_path):
    path = tmp_path / "big.svg"
    path.write_bytes(b"<svg xmlns='http://www.w3.org/2000/svg'>" + b" " * 2000 + b"</svg>")
    with pytest.raises(RenderError) as caught:
        read_svg(path, max_bytes=1000)
    assert str(caught.value) == f"{path}: SVG file of 2046 bytes, more than the limit of 1000 bytes"


def test_the_element_limit_is_raised_on_the_command_line(tmp_path, run):
    many = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">' + '<rect width="1" height="1"/>' * 30 + "</svg>"
    cat = catalogue(tmp_path / "cat", many)
    low = run("build", str(cat), "-o", str(tmp_path / "a.pdf"), "--max-svg-elements", "20")
    assert low.exit_code == 2
    assert low.stderr == (f"tokengen: error: {cat}:12: tokens[0].pic: pic.svg: SVG has more than 20 elements, the limit "
                          "(raise it with --max-svg-elements)\n")
    assert run("build", str(cat), "-o", str(tmp_path / "b.pdf"), "--max-svg-elements", "40").exit_code == 0


def test_unreadable_colour_is_named(tmp_path, run):
    """A colour svglib cannot read sends the file to resvg, which reads it as a browser does; the note names it."""
    odd = PICTURE.replace('fill="#d7263d"', 'fill="notacolour"')
    cat = catalogue(tmp_path / "cat", odd)
    result = run("build", str(cat), "-o", str(tmp_path / "a.pdf"))
    assert result.exit_code == 0
    assert result.stderr == ('tokengen: warning: pic.svg: SVG: drawn as a 300 DPI picture: fill="notacolour" on <path> '
                             "at line 5\n")


def test_reference_loop_names_the_first_loop_met(tmp_path):
    """A group filled from one looping pattern and stroked from another: the loop named is the
    one its first reference (in document order) leads to, on every read, whatever the memory
    addresses of the elements (sets of elements were walked in their hash order)."""
    pic = tmp_path / "pic.svg"
    pic.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">\n'
                   '<g id="a" fill="url(#q)" stroke="url(#p)"><rect width="5" height="5"/></g>\n<defs>\n'
                   '<pattern id="p" width="1" height="1"><rect width="1" height="1" fill="url(#p)"/></pattern>\n'
                   '<pattern id="q" width="1" height="1"><rect width="1" height="1" fill="url(#q)"/></pattern>\n'
                   '</defs></svg>\n')
    messages = set()
    for _ in range(30):
        with pytest.raises(RenderError) as caught:
            read_svg(pic)
        messages.add(str(caught.value))
    assert messages == {f"{pic}:5: <pattern> refers to itself (a reference loop)"}
