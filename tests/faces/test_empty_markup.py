"""Markup around an empty field: ``"*{flavour}*"`` with no flavour prints nothing (not ``**``),
and ``check`` and ``build`` agree. Built with ``tokengen build`` and read back with pdfplumber."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest


def _catalogue(folder: Path, element: str, rows: str) -> Path:
    (folder / "cards.csv").write_text("id,name,flavour\n" + rows, "utf-8")
    path = folder / "cards.yaml"
    path.write_text(f"""title: Flavour
size: 63mmx88mm
fields: {{name: text, flavour: {{type: text, optional: true}}}}
template:
  - {{text: "{{name}}", at: [0.5, 0.1], size: 0.06}}
  - {element}
tokens: cards.csv
""", "utf-8")
    return path


def _card_text(pdf: Path) -> list[str]:
    """The text of each card (every character but the page's small print), page by page."""
    with pdfplumber.open(pdf) as doc:
        return ["".join(c["text"] for c in page.chars if c["size"] > 7) for page in doc.pages]


@pytest.mark.parametrize("element, full, empty", [
    ('{text: "*{flavour}*", box: [0.1, 0.5, 0.8, 0.3], size: 0.05}', "Knight*Old steel.*", "Page"),
    ('{text: "**{flavour}**", box: [0.1, 0.5, 0.8, 0.3], size: 0.05}', "Knight*Old steel.*", "Page"),
    ('{text: "Said: *{flavour}*", box: [0.1, 0.5, 0.8, 0.3], size: 0.05}', "Knight*Said: Old steel.*", "PageSaid:"),
])
def test_markup_around_an_empty_field_leaves_nothing(tmp_path, run, element, full, empty):
    path = _catalogue(tmp_path, element, "knight,Knight,Old steel.\npage,Page,\nlast,Last,\" \"\n")
    out = tmp_path / "out.pdf"
    result = run("build", str(path), "--no-cut-lines", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert "*" not in result.stderr and "never closed" not in result.stderr
    text = _card_text(out)[0].replace(" ", "")
    assert "*" not in text
    assert text == (full + empty + empty.replace("Page", "Last")).replace("*", "").replace(" ", ""), text  # "Last": a space alone
    check = run("check", str(path))
    assert check.exit_code == 0 and "flavour" not in check.stdout + check.stderr


def test_stars_around_a_field_with_a_value_still_style_it(tmp_path, run):
    path = _catalogue(tmp_path, '{text: "*{flavour}*", box: [0.1, 0.5, 0.8, 0.3], size: 0.05}', "knight,Knight,Old steel.\n")
    out = tmp_path / "out.pdf"
    assert run("build", str(path), "--no-cut-lines", "-o", str(out)).exit_code == 0
    with pdfplumber.open(out) as doc:
        chars = [c for c in doc.pages[0].chars if c["size"] > 7]
        start = next(i for i, c in enumerate(chars) if c["text"] == "O")
        fonts = {c["fontname"] for c in chars[start:start + 10] if c["text"].strip()}
    assert fonts and all("Italic" in f or "Oblique" in f for f in fonts), fonts


def test_markup_false_keeps_the_stars_as_written(tmp_path, run):
    path = _catalogue(tmp_path, '{text: "*{flavour}*", box: [0.1, 0.5, 0.8, 0.3], size: 0.05, markup: false}', "page,Page,\n")
    out = tmp_path / "out.pdf"
    assert run("build", str(path), "--no-cut-lines", "-o", str(out)).exit_code == 0
    assert _card_text(out)[0].replace(" ", "") == "Page**"
