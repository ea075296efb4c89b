"""Transparent art on a template face, in CMYK (PDF/X-1a: no transparency): its transparent
pixels are flattened onto what the template paints beneath it, not onto paper white. Checked
by rendering the exported print-shop PDF with pypdfium2 and by walking its objects."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest

from tokengen import load_catalogue
from tokengen.faces.beneath import underlay
from tokengen.geometry.imposition import Rect
from tokengen.model import Colour

DATA = Path(__file__).parents[1] / "data" / "anygame-art"
SCALE = 4.0  # render at 288 DPI


@pytest.fixture()
def archers(tmp_path: Path) -> Path:
    """The user's catalogue with only the archer (red, a green disc on transparency)."""
    folder = tmp_path / "cat"
    shutil.copytree(DATA, folder)
    text = (folder / "units.yaml").read_text("utf-8")
    kept = [line for line in text.splitlines() if "id: knight" not in line and "id: ghost" not in line]
    (folder / "units.yaml").write_text("\n".join(kept) + "\n", "utf-8")
    return folder


def first_token(pdf: Path) -> tuple:
    """(RGB image of page 1, function fraction-of-token → pixel) for the token at the top
    left of the sheet (the TrimBox's top-left corner is its trim's)."""
    with pikepdf.open(pdf) as doc:
        x0, _, _, y1 = (float(v) for v in doc.pages[0].TrimBox)
        height = float(doc.pages[0].MediaBox[3])
    document = pdfium.PdfDocument(pdf)
    image = document[0].render(scale=SCALE).to_pil().convert("RGB")
    document.close()

    def at(fx: float, fy: float) -> tuple[int, int, int]:
        return image.getpixel((round((x0 + fx * 72) * SCALE), round((height - (y1 - fy * 72)) * SCALE)))

    return image, at


def close(a: tuple[int, ...], b: tuple[int, ...], tol: int = 4) -> bool:
    return all(abs(p - q) <= tol for p, q in zip(a, b, strict=True))


def test_print_shop_art_prints_on_the_red_beneath_not_white(archers, run, monkeypatch):
    monkeypatch.chdir(archers)
    result = run("export", "units.yaml", "--profile", "print-shop", "-o", "shop", "--allow-preflight-failures")
    assert result.exit_code == 0, result.stderr
    assert "lies under the picture" not in result.stderr
    _, at = first_token(archers / "shop" / "skirmish-units-print-shop.pdf")
    red = at(0.04, 0.375)  # the background, left of the picture's box
    assert red[0] > 100 and red[1] < 60 and red[2] < 60
    # the picture's box is x 0.1-0.9, y 0.1-0.65; its corners are transparent in the PNG
    around = [at(x, y) for x in (0.12, 0.2, 0.8, 0.88) for y in (0.12, 0.63)]
    assert all(close(p, red) for p in around), (red, around)
    green = at(0.5, 0.375)  # the disc itself still prints
    assert green[1] > 100 and green[0] < 60


def test_print_shop_file_has_no_soft_mask_or_transparency(archers, run, monkeypatch):
    monkeypatch.chdir(archers)
    run("export", "units.yaml", "--profile", "print-shop", "-o", "shop", "--allow-preflight-failures")
    pdf = archers / "shop" / "skirmish-units-print-shop.pdf"
    with pikepdf.open(pdf) as doc:
        images = [o for o in doc.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]
        assert images and all("/SMask" not in i and "/Mask" not in i for i in images)
        states = [o for o in doc.objects if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == "/ExtGState"]
        assert all(float(s.get("/ca", 1)) == 1 and float(s.get("/CA", 1)) == 1 and "/SMask" not in s for s in states)
        assert all(o.get("/S") != "/Transparency" for o in doc.objects if isinstance(o, pikepdf.Dictionary))
    checked = run("preflight", str(pdf))
    assert "PASS  transparency" in checked.stdout


def test_art_over_several_shapes_flattens_on_the_centre_colour_and_warns_once(archers, run, monkeypatch):
    monkeypatch.chdir(archers)
    text = (archers / "units.yaml").read_text("utf-8")
    text = text.replace('  - {image: "{art}"', '  - {rect: half, box: [0, 0, 0.3, 1], fill: "#1c1c8a"}\n  - {image: "{art}"')
    (archers / "units.yaml").write_text(text, "utf-8")
    result = run("export", "units.yaml", "--profile", "print-shop", "-o", "shop", "--allow-preflight-failures")
    warned = [line for line in result.stderr.splitlines() if "lies under the picture" in line]
    assert warned == ["tokengen: warning: units.yaml:16: template[2]: token archer: what lies under the picture is not one colour; "
                      "its transparent pixels print on #8a1c1c, the colour under its centre (print-shop PDFs allow no transparency)"]
    _, at = first_token(archers / "shop" / "skirmish-units-print-shop.pdf")
    assert close(at(0.88, 0.12), at(0.95, 0.375))  # the right-hand corner: red on red


def test_home_build_keeps_the_soft_mask(archers, run, monkeypatch):
    monkeypatch.chdir(archers)
    assert run("build", "units.yaml", "-o", "home.pdf").exit_code == 0
    with pikepdf.open(archers / "home.pdf") as doc:
        assert any("/SMask" in o for o in doc.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image")


# -- the geometry --------------------------------------------------------------------------------------
RED, BLUE, GREEN = Colour.parse("#8a1c1c"), Colour.parse("#1c1c8a"), Colour.parse("#1c8a1c")


def template(tmp_path: Path, elements: str):
    (tmp_path / "pic.png").write_bytes((DATA / "art" / "alpha.png").read_bytes())
    (tmp_path / "c.yaml").write_text(textwrap.dedent("""\
        title: T
        size: 1in
        fields: {colour: colour}
        template:
        """) + textwrap.indent(textwrap.dedent(elements), "  ") + "tokens: [{id: a, colour: \"#8a1c1c\"}]\n", "utf-8")
    return load_catalogue(tmp_path / "c.yaml").tokens[0].template


BOX = Rect(7.2, 25.2, 57.6, 39.6)  # the picture's box of [0.1, 0.1, 0.8, 0.55]


@pytest.mark.parametrize("elements, expected", [
    ('- {rect: fill, fill: "{colour}", bleed: true}\n- {image: pic.png, box: [0.1, 0.1, 0.8, 0.55]}\n', (RED, True)),
    ('- {image: pic.png, box: [0.1, 0.1, 0.8, 0.55]}\n', (None, True)),  # nothing beneath: paper
    ('- {rect: fill, fill: "{colour}"}\n- {circle: disc, r: 0.6, fill: "#1c8a1c"}\n- {image: pic.png, box: [0.1, 0.1, 0.8, 0.55]}\n',
     (GREEN, True)),  # the disc covers the whole box
    ('- {rect: fill, fill: "{colour}"}\n- {circle: dot, at: [0.5, 0.375], r: 0.1, fill: "#1c8a1c"}\n- {image: pic.png, box: [0.1, 0.1, 0.8, 0.55]}\n',
     (GREEN, False)),  # a dot under the centre only
    ('- {rect: fill, fill: "{colour}"}\n- {rect: edge, box: [0, 0, 0.2, 1], fill: "#1c1c8a"}\n- {image: pic.png, box: [0.1, 0.1, 0.8, 0.55]}\n',
     (RED, False)),
    ('- {rect: fill, fill: "{colour}"}\n- {frame: ring, inset: 0.05, width: 0.02, colour: "#1c1c8a"}\n- {image: pic.png, box: [0.1, 0.1, 0.8, 0.55]}\n',
     (RED, True)),  # a frame outside the picture changes nothing
])
def test_underlay_is_the_topmost_covering_fill(tmp_path, elements, expected):
    face = template(tmp_path, elements)
    index = next(i for i, e in enumerate(face.elements) if e.kind == "image")
    under = underlay(face, index, {"colour": RED}, 72.0, 72.0, 0.0, BOX)
    assert (under.colour, under.uniform) == expected
