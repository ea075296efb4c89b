"""One face, laid out once: an export whose profile asks a larger safe area than the faces were
laid out for scales each face's content as one piece about its centre, so a text keeps its place
on the picture beside it (read back from the home build's PDF and the print-shop one's); the
export says so once; a catalogue's ``safe_area:`` lays the faces out for the larger one."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest
from PIL import Image


def _catalogue(folder: Path, safe_area: str = "") -> Path:
    Image.new("RGB", (120, 80), (30, 120, 200)).save(folder / "art.png")
    path = folder / "tokens.yaml"
    path.write_text(f"""title: Scaled
size: 1in
{f"safe_area: {safe_area}" if safe_area else ""}
fields: {{name: text}}
template:
  - {{rect: box, box: [0, 0, 1, 1], fill: "#ffffff", bleed: true}}
  - {{image: art.png, box: [0.08, 0.08, 0.84, 0.5]}}
  - {{text: "{{name}}", font: bold, at: [0.5, 0.86], size: 0.16, width: 0.84}}
tokens:
  - {{id: a, name: Alpha}}
  - {{id: b, name: Beta}}
""", "utf-8")
    return path


def _layout(pdf: Path) -> tuple[dict, list[dict]]:
    """The first token's picture and the characters of its name (pdfplumber, pt, y down)."""
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[0]
        image = min(page.images, key=lambda i: (i["top"], i["x0"]))
        chars = [c for c in page.chars if c["fontname"].endswith("DejaVuSans-Bold") and c["top"] > image["bottom"]
                 and c["top"] - image["bottom"] < 40 and image["x0"] - 5 < c["x0"] < image["x1"] + 5]
        return image, chars


def _relative(image: dict, chars: list[dict]) -> list[tuple[float, float, float]]:
    """Each character's left end, baseline and size in units of the picture's width, from its top-left corner."""
    w = image["x1"] - image["x0"]
    return [((c["x0"] - image["x0"]) / w, (c["matrix"][5] - image["y1"]) / w, c["size"] / w) for c in chars]


def test_print_shop_keeps_text_and_picture_in_place_relative_to_each_other(tmp_path: Path, run):
    path = _catalogue(tmp_path)
    home = tmp_path / "home.pdf"
    assert run("build", str(path), "--no-cut-lines", "-o", str(home)).exit_code == 0
    shop = tmp_path / "shop"
    exported = run("export", str(path), "--profile", "print-shop", "-o", str(shop), "--allow-preflight-failures")
    assert exported.exit_code == 0, exported.stderr
    notes = [line for line in exported.stdout.splitlines() if "faces scaled" in line]
    assert notes == ["faces scaled to 85.5 % about their centres to keep inside the 0.125in safe area "
                     "(laid out for 0.0625in; set safe_area: in the catalogue to lay them out for it)"]
    assert "faces scaled" not in exported.stderr
    h_image, h_chars = _layout(home)
    s_image, s_chars = _layout(next(shop.glob("*.pdf")))
    assert "".join(c["text"] for c in h_chars) == "".join(c["text"] for c in s_chars) == "Alpha"
    assert (s_image["x1"] - s_image["x0"]) / (h_image["x1"] - h_image["x0"]) == pytest.approx(53 / 62, abs=1e-3)  # (72 - 2 × 9.5) / (72 - 2 × 5)
    for home_char, shop_char in zip(_relative(h_image, h_chars), _relative(s_image, s_chars), strict=True):
        assert shop_char == pytest.approx(home_char, abs=1e-4)


def test_a_face_laid_out_for_the_larger_safe_area_is_not_scaled(tmp_path: Path, run):
    path = _catalogue(tmp_path, safe_area="0.125in")
    shop = tmp_path / "shop"
    exported = run("export", str(path), "--profile", "print-shop", "-o", str(shop), "--allow-preflight-failures")
    assert exported.exit_code == 0, exported.stderr
    assert "faces scaled" not in exported.stdout + exported.stderr
    image, _ = _layout(next(shop.glob("*.pdf")))
    assert image["x1"] - image["x0"] == pytest.approx(0.5 * 72 * 1.5, abs=1e-3)  # as the template gives it: 0.5 of the token high, 3:2
