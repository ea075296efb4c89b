"""Richer inline text in a boxed text (issue 40): ``:icon@scale±shift:``, ``[colour=…]`` spans and
``smallcaps: true``, built by ``tokengen build`` and read back from the PDF with pdfplumber
(the icon's drawn size and place, the characters' fill colours and sizes)."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest
from PIL import Image

SIZE = 10.0  # the text size (pt), fit: false so it is printed at exactly this size


def _build(tmp_path: Path, run, text: str, extra: str = "", export: str = "") -> Path:
    Image.new("RGB", (64, 64), (200, 0, 0)).save(tmp_path / "coin.png")
    path = tmp_path / "cards.yaml"
    path.write_text(f"""title: Inline
size: 63mmx88mm
icons: {{coin: coin.png}}
fields: {{rules: text}}
template:
  - {{text: "{{rules}}", box: [0.1, 0.2, 0.8, 0.6], size: {SIZE}pt, fit: false, align: left{extra}}}
tokens:
  - {{id: a, rules: {text!r}}}
""".replace("'", '"'), "utf-8")
    out = tmp_path / "out.pdf"
    result = run("build", str(path), "--no-cut-lines", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    return out


def _page(pdf: Path) -> tuple[list[dict], list[dict]]:
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[0]
        ours = (SIZE, round(0.7 * SIZE, 3))  # the rules' sizes (the sheet's own labels are smaller)
        return [c for c in page.chars if round(c["size"], 3) in ours and c["text"].strip()], list(page.images)


@pytest.mark.parametrize(("spelling", "scale", "shift"), [
    ("coin", 1.0, 0.0), ("coin@1.5", 1.5, 0.0), ("coin@1.5+0.1", 1.5, 0.1), ("coin@2-0.25", 2.0, -0.25)])
def test_icon_is_drawn_at_its_scale_and_shift(tmp_path, run, spelling, scale, shift):
    chars, images = _page(_build(tmp_path, run, f"Pay 2 :{spelling}: now"))
    (image,) = images
    assert image["width"] == pytest.approx(scale * SIZE, abs=0.01)
    assert image["height"] == pytest.approx(scale * SIZE, abs=0.01)
    (base,) = {round(c["matrix"][5], 3) for c in chars}  # the text's baseline (PDF y, up)
    assert image["y0"] - base == pytest.approx(shift * SIZE, abs=0.01)


def test_larger_icon_makes_room_above_its_line(tmp_path, run):
    words = " ".join(["word"] * 12)
    plain_chars, _ = _page(_build(tmp_path, run, f"{words} :coin: {words}"))
    chars, (image,) = _page(_build(tmp_path, run, f"{words} :coin@2: {words}"))
    lines = sorted({round(c["matrix"][5], 2) for c in chars}, reverse=True)
    plain = sorted({round(c["matrix"][5], 2) for c in plain_chars}, reverse=True)
    assert plain[0] - plain[1] == pytest.approx(1.2 * SIZE, abs=0.01)
    (upper,) = [up for up, low in zip(lines, lines[1:]) if abs(low - image["y0"]) < 0.01]  # the line above the icon's
    assert image["y1"] <= upper - 0.236 * SIZE + 0.01  # the icon's top clears that line's descender (DejaVu: 0.236)
    first_top = max(c["y1"] for c in chars)
    assert image["y1"] <= first_top + 2 * SIZE  # inside the box: the build gave no warning


@pytest.mark.parametrize(("tag", "fill"), [("#c0392b", '"#c0392b"'), ("0,1,1,0", "[0, 1, 1, 0]"), ("0.2, 0.5, 0, 0.1", "[0.2, 0.5, 0, 0.1]")])
def test_span_colours_its_characters_as_a_shape_of_that_colour(tmp_path, run, tag, fill):
    """The span's characters are filled as a rect of the same colour is (one conversion for both)."""
    out = _build(tmp_path, run, f"Deal [colour={tag}]fire[/colour] *hot* damage",
                 f"}}\n  - {{rect: swatch, box: [0.1, 0.9, 0.1, 0.05], fill: {fill}")
    chars, _ = _page(out)
    with pdfplumber.open(out) as doc:
        swatch, *_ = [r for r in doc.pages[0].rects if abs(r["width"] - 6.3 * 72 / 25.4) < 0.05 and r["fill"]]
    black = chars[0]["non_stroking_color"]
    span = [c for c in chars if c["non_stroking_color"] != black]
    assert "".join(c["text"] for c in span) == "fire"
    assert tuple(span[0]["non_stroking_color"]) == pytest.approx(tuple(swatch["non_stroking_color"]), abs=1e-4)
    assert tuple(black) in ((0,), (0, 0, 0))


@pytest.mark.parametrize(("text", "message"), [
    ("Deal [colour=red]fire[/colour]", "a span's colour is #rrggbb or c,m,y,k"),
    ("Deal [colour=#ff0000]fire", "never closed by '[/colour]'"),
    ("Deal fire[/colour]", "closes no [colour=…] span"),
    ("Pay :coin@9:", "a scale from 0.25 to 4 times the text size, got 9"),
])
def test_bad_inline_markup_is_one_line_naming_the_place(tmp_path, run, text, message):
    Image.new("RGB", (64, 64), (200, 0, 0)).save(tmp_path / "coin.png")
    path = tmp_path / "cards.yaml"
    path.write_text(f"""title: Inline
size: 63mmx88mm
icons: {{coin: coin.png}}
fields: {{rules: text}}
template:
  - {{text: "{{rules}}", box: [0.1, 0.2, 0.8, 0.6], size: 10pt}}
tokens:
  - {{id: a, rules: "{text}"}}
""", "utf-8")
    result = run("build", str(path), "-o", str(tmp_path / "out.pdf"))
    assert result.exit_code != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr
    assert lines[0].startswith(f"{path.name}:8") or f"{path}:8" in lines[0] or "cards.yaml:8" in lines[0], lines[0]
    assert message in lines[0]


def test_smallcaps_draws_lower_case_as_smaller_capitals(tmp_path, run):
    chars, _ = _page(_build(tmp_path, run, "Deal Fire", ", smallcaps: true"))
    assert "".join(c["text"] for c in chars) == "DEALFIRE"
    sizes = [round(c["size"], 3) for c in chars]
    assert sizes == [SIZE, 0.7 * SIZE, 0.7 * SIZE, 0.7 * SIZE, SIZE, 0.7 * SIZE, 0.7 * SIZE, 0.7 * SIZE]


def test_smallcaps_needs_a_box(tmp_path, run):
    path = tmp_path / "cards.yaml"
    path.write_text("""title: Inline
size: 1in
fields: {rules: text}
template:
  - {text: "{rules}", smallcaps: true}
tokens:
  - {id: a, rules: "x"}
""", "utf-8")
    result = run("build", str(path), "-o", str(tmp_path / "out.pdf"))
    assert result.exit_code != 0
    assert "cards.yaml:5" in result.stderr and "'smallcaps' is for a text in a box" in result.stderr


def test_span_colour_in_a_print_shop_export_is_cmyk(tmp_path, run):
    """The print-shop export paints a span as it paints every colour: DeviceCMYK, an RGB span converted."""
    _build(tmp_path, run, "Deal [colour=#ff0000]Fire[/colour] and [colour=0.1,0.9,0.8,0.05]Ash[/colour] damage",
           '}\n  - {rect: swatch, box: [0.1, 0.9, 0.1, 0.05], fill: "#ff0000"')
    result = run("export", str(tmp_path / "cards.yaml"), "--profile", "print-shop", "-o", str(tmp_path / "shop"))
    assert result.exit_code == 0, result.stderr
    (pdf,) = sorted((tmp_path / "shop").glob("*.pdf"))[:1]
    with pdfplumber.open(pdf) as doc:
        chars = [c for c in doc.pages[0].chars if round(c["size"], 3) == SIZE]
        swatch, *_ = [r for r in doc.pages[0].rects if abs(r["width"] - 6.3 * 72 / 25.4) < 0.05 and r["fill"]]
    colours = {c["text"]: tuple(c["non_stroking_color"]) for c in chars}
    assert len(colours["F"]) == 4 and colours["F"] == pytest.approx(tuple(swatch["non_stroking_color"]), abs=1e-4)
    assert colours["A"] == pytest.approx((0.1, 0.9, 0.8, 0.05))
    assert len(colours["D"]) == 4 and colours["D"][:3] == pytest.approx((0, 0, 0))


def _streams(pdf: Path) -> bytes:
    """Every content stream of the PDF, decoded (the page's and its forms')."""
    import pypdf

    reader = pypdf.PdfReader(pdf)
    found = []
    for obj_id in range(1, len(reader.xref_objStm) + 400):
        try:
            obj = reader.get_object(obj_id)
        except Exception:  # noqa: BLE001  # a number no object has
            continue
        if isinstance(obj, pypdf.generic.StreamObject):
            try:
                found.append(obj.get_data())
            except Exception:  # noqa: BLE001  # an image's data
                continue
    return b"\n".join(found)


def _one_line(tmp_path: Path, run, keys: str) -> Path:
    path = tmp_path / "cards.yaml"
    path.write_text(f"""title: Outline
size: 1in
fields: {{name: text}}
template:
  - {{rect: fill, fill: "#ffffff"}}
  - {{text: "HEX", at: [0.5, 0.65], size: 24pt, fit: false, colour: "#ffff00"{keys}}}
tokens:
  - {{id: a, name: x}}
""", "utf-8")
    out = tmp_path / "out.pdf"
    result = run("build", str(path), "--no-cut-lines", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    return out


def test_stroked_text_is_filled_then_outlined(tmp_path, run):
    out = _one_line(tmp_path, run, ', stroke: "#0000ff", stroke_width: 1.5pt, dash: [2pt, 1pt]')
    with pdfplumber.open(out) as doc:
        chars = [c for c in doc.pages[0].chars if round(c["size"]) == 24]
    assert "".join(c["text"] for c in chars) == "HEX"
    assert {tuple(c["stroking_color"]) for c in chars} == {(0, 0, 1)}
    assert {tuple(c["non_stroking_color"]) for c in chars} == {(1, 1, 0)}
    streams = _streams(out)
    assert b" 2 Tr" in streams or b"\n2 Tr" in streams  # text render mode 2: fill, then stroke
    assert b"1.5 w" in streams and b"[2 1] 0 d" in streams


def test_stroke_draws_blue_pixels_on_the_outline(tmp_path, run):
    import pypdfium2 as pdfium

    def blue(out: Path) -> int:
        page = pdfium.PdfDocument(out)[0]
        image = page.render(scale=4).to_pil().convert("RGB")
        data = image.tobytes()
        return sum(1 for i in range(0, len(data), 3) if data[i + 2] > 150 and data[i] < 100 and data[i + 1] < 100)

    assert blue(_one_line(tmp_path, run, "")) == 0
    assert blue(_one_line(tmp_path, run, ', stroke: "#0000ff", stroke_width: 1pt')) > 200


@pytest.mark.parametrize(("keys", "message"), [
    (', box: [0.1, 0.1, 0.8, 0.8], stroke: "#0000ff"', "'stroke' is for a one-line text"),
    (", stroke_width: 1pt", "add stroke:"),
])
def test_stroke_keys_refused_where_they_cannot_draw(tmp_path, run, keys, message):
    path = tmp_path / "cards.yaml"
    path.write_text(f"""title: Outline
size: 1in
fields: {{name: text}}
template:
  - {{text: "HEX"{keys}}}
tokens:
  - {{id: a, name: x}}
""", "utf-8")
    result = run("build", str(path), "-o", str(tmp_path / "out.pdf"))
    assert result.exit_code != 0 and "Traceback" not in result.stderr
    assert "cards.yaml:5" in result.stderr and message in result.stderr, result.stderr
