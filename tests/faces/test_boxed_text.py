"""Boxed text in face templates: ``text:`` with ``box`` wraps a paragraph of markup and inline
icons in the box, built by ``tokengen build`` and read back from the PDF (sizes, fonts, places)."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest
from PIL import Image

from tokengen import load_catalogue
from tokengen.errors import CatalogueError

TOL = 0.05
MM = 72 / 25.4
BOX = [0.08, 0.5, 0.84, 0.44]
RULES = (  # one paragraph (a newline would be a line break), a blank line, the flavour line
    "**Ambush.** When this card enters play, deal 2 :sword: damage to one enemy unit in the same row "
    "and one to each unit beside it. Roll three dice and remove one of them for every result above "
    "three. If it is defending, it gains :shield: until the end of the round and cannot be targeted."
    "\n\n*Steel remembers what flesh forgets.*")


def _icons(folder: Path) -> None:
    Image.new("RGB", (64, 64), (200, 0, 0)).save(folder / "sword.png")
    Image.new("RGB", (96, 64), (0, 0, 200)).save(folder / "shield.png")


def _catalogue(folder: Path, text_element: str, tokens: str, extra: str = "") -> Path:
    _icons(folder)
    path = folder / "cards.yaml"
    path.write_text(f"""title: Rules cards
size: 63mmx88mm
icons: {{sword: sword.png, shield: shield.png}}
fields: {{name: text, rules: text}}
template:
  - {{text: "{{name}}", font: bold, at: [0.5, 0.1], size: 0.06}}
  - {{rect: box, box: {BOX}, fill: "#f0e8d8"}}
  - {text_element}
{extra}tokens: {tokens}
""", "utf-8")
    return path


def _yaml_tokens(rules: str) -> str:
    body = "\n".join("        " + line if line else "" for line in rules.splitlines())
    return f"\n  - id: knight\n    name: Knight\n    rules: |-\n{body}\n"


def _page(pdf: Path) -> tuple[list[dict], list[dict], dict]:
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[0]
        box = next(r for r in page.rects if tuple(round(c, 3) for c in r["non_stroking_color"]) == (0.941, 0.91, 0.847))
        return list(page.chars), list(page.images), box


def _card_chars(chars: list[dict], box: dict) -> list[dict]:
    """The characters on the card below its title (the sheet's furniture left out)."""
    return [c for c in chars if c["top"] > box["top"] - 20 and c["bottom"] < box["bottom"] + 20]


def test_rules_card_builds_one_size_inside_the_box(tmp_path, run):
    assert len(RULES.split()) == 60
    path = _catalogue(tmp_path, f'{{text: "{{rules}}", box: {BOX}, size: 11pt}}', _yaml_tokens(RULES))
    out = tmp_path / "out.pdf"
    result = run("build", str(path), "--no-cut-lines", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    chars, images, box = _page(out)
    text = _card_chars(chars, box)
    sizes = {round(c["size"], 3) for c in text}
    assert len(sizes) == 1 and 7 <= sizes.pop() < 11
    size = text[0]["size"]
    for c in text:  # x0..x1 the advance, top..bottom the glyph box
        assert box["x0"] - TOL <= c["x0"] and c["x1"] <= box["x1"] + TOL, c
        assert box["top"] - TOL <= c["top"] and c["bottom"] <= box["bottom"] + TOL, c
    printed = "".join(c["text"] for c in text if c["text"] != " ")
    expected = "".join(w.strip("*") for w in RULES.split() if w not in (":sword:", ":shield:"))
    assert printed == expected
    bold = "".join(c["text"] for c in text if c["fontname"].endswith("DejaVuSans-Bold"))
    italic = "".join(c["text"] for c in text if c["fontname"].endswith("DejaVuSans-Oblique"))
    assert bold == "Ambush." and italic.replace(" ", "") == "Steelrememberswhatfleshforgets."
    baselines = {round(c["matrix"][5], 2) for c in text}
    assert len(images) == 2
    for img in images:  # size high, bottom edge on a line's baseline, inside the box
        assert img["height"] == pytest.approx(size, abs=TOL)
        assert round(img["y0"], 2) in baselines
        assert box["x0"] - TOL <= img["x0"] and img["x1"] <= box["x1"] + TOL
        assert box["top"] - TOL <= img["top"] and img["bottom"] <= box["bottom"] + TOL
    assert sorted(round(i["width"] / i["height"], 2) for i in images) == [1.0, 1.5]


def test_csv_cell_with_a_line_break_prints_two_lines(tmp_path, run):
    path = _catalogue(tmp_path, f'{{text: "{{rules}}", box: {BOX}, size: 9pt}}', "tokens.csv")
    (tmp_path / "tokens.csv").write_text('id,name,rules\nknight,Knight,"First line\nSecond line"\n', "utf-8")
    out = tmp_path / "out.pdf"
    result = run("build", str(path), "--no-cut-lines", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    chars, _, box = _page(out)
    inside = [c for c in chars if box["top"] - TOL <= c["top"] and c["bottom"] <= box["bottom"] + TOL]
    lines: dict[float, str] = {}
    for c in inside:
        lines[round(c["matrix"][5], 2)] = lines.get(round(c["matrix"][5], 2), "") + c["text"]
    assert list(lines.values()) == ["First line", "Second line"]
    assert {round(c["size"], 3) for c in inside} == {9.0}


def test_one_line_text_still_refuses_a_line_break(tmp_path):
    path = _catalogue(tmp_path, '{text: "{rules}", at: [0.5, 0.7], size: 9pt}', "tokens.csv")
    (tmp_path / "tokens.csv").write_text('id,name,rules\nknight,Knight,"First line\nSecond line"\n', "utf-8")
    with pytest.raises(CatalogueError) as info:
        load_catalogue(path)
    assert info.value.message == "character U+000A (a line break, tab or other control) cannot be printed on one line"


def test_text_cut_at_min_size_is_named_by_build_and_check(tmp_path, run):
    small = "[0.08, 0.5, 0.84, 0.08]"
    path = _catalogue(tmp_path, f'{{text: "{{rules}}", box: {small}, size: 11pt, min_size: 8pt}}', _yaml_tokens(RULES))
    out = tmp_path / "out.pdf"
    result = run("build", str(path), "--no-cut-lines", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    line = next(n for n, text in enumerate(path.read_text("utf-8").splitlines(), 1) if "min_size" in text)
    cut = [w for w in (result.stdout + result.stderr).splitlines() if "does not fit its box" in w]
    assert cut == [f"tokengen: warning: {path}:{line}: template[2]: token knight: the text does not fit its box even at 8 pt: "
                   "48 words (198 characters) left out, it ends in '…'; shorten it, lower min_size or make the box larger"]
    with pdfplumber.open(out) as doc:
        printed = doc.pages[0].extract_text()
    assert "…" in printed and "forgets" not in printed
    result = run("check", str(path))
    assert ("token knight: the text does not fit its box even at 8 pt: 48 words (198 characters) left out, "
            "it ends in '…'; shorten it, lower min_size or make the box larger") in result.stdout


def test_unknown_icon_names_file_line_and_field(tmp_path):
    path = _catalogue(tmp_path, f'{{text: "{{rules}}", box: {BOX}}}', "tokens.csv")
    (tmp_path / "tokens.csv").write_text("id,name,rules\nknight,Knight,Deal 2 :swrod: damage\n", "utf-8")
    with pytest.raises(CatalogueError) as info:
        load_catalogue(path)
    assert str(info.value) == (f"{tmp_path / 'tokens.csv'}:2: rules (column C): unknown icon ':swrod:'; did you mean 'sword'?; "
                               "write \\: for a colon")


def test_unknown_icon_in_the_template_names_the_element(tmp_path):
    path = _catalogue(tmp_path, f'{{text: "{{rules}} :sheild:", box: {BOX}}}', "tokens.csv")
    (tmp_path / "tokens.csv").write_text("id,name,rules\nknight,Knight,Deal 2\n", "utf-8")
    with pytest.raises(CatalogueError) as info:
        load_catalogue(path)
    assert str(info.value) == f"{path}:8: template[2]: unknown icon ':sheild:'; did you mean 'shield'?; write \\: for a colon"


def test_markup_false_prints_the_text_as_written(tmp_path, run):
    path = _catalogue(tmp_path, f'{{text: "{{rules}}", box: {BOX}, size: 9pt, markup: false}}', "tokens.csv")
    (tmp_path / "tokens.csv").write_text("id,name,rules\nknight,Knight,**not bold** :sword:\n", "utf-8")
    out = tmp_path / "out.pdf"
    assert run("build", str(path), "--no-cut-lines", "-o", str(out)).exit_code == 0
    chars, images, box = _page(out)
    inside = [c for c in chars if c["top"] > box["top"] - TOL and c["bottom"] < box["bottom"]]
    assert "".join(c["text"] for c in inside) == "**not bold** :sword:" and images == []
    assert {c["fontname"].split("+")[1] for c in inside} == {"DejaVuSans"}


def test_keys_for_boxes_only_are_refused_on_one_line(tmp_path):
    path = _catalogue(tmp_path, '{text: "{rules}", at: [0.5, 0.7], align: justify}', "tokens.csv")
    (tmp_path / "tokens.csv").write_text("id,name,rules\nknight,Knight,Deal 2\n", "utf-8")
    with pytest.raises(CatalogueError) as info:
        load_catalogue(path)
    assert str(info.value) == (f"{path}:8: template[2].align: 'justify' is for a text in a box; "
                               "add box: [x, y, w, h] or use left, centre or right")


def test_one_line_text_is_drawn_as_before(tmp_path, run):
    from reportlab.pdfbase.pdfmetrics import stringWidth

    path = _catalogue(tmp_path, '{text: "{rules}", at: [0.5, 0.7], width: 0.5, size: 0.1}', "tokens.csv")
    (tmp_path / "tokens.csv").write_text("id,name,rules\nknight,Knight,Deal two damage to it\n", "utf-8")
    out = tmp_path / "out.pdf"
    assert run("build", str(path), "--no-cut-lines", "-o", str(out)).exit_code == 0
    chars, _, box = _page(out)
    line = [c for c in chars if c["top"] > box["top"] - TOL and c["bottom"] < box["bottom"]]
    assert "".join(c["text"] for c in line) == "Deal two damage to it"
    expected = 0.5 * 63 * MM / stringWidth("Deal two damage to it", "DejaVuSans", 1.0)  # shrunk to its width, one line
    assert {round(c["size"], 3) for c in line} == {round(expected, 3)}
    assert len({round(c["matrix"][5], 2) for c in line}) == 1
