"""Unicode in one-line face text, read back from the PDF: Private Use characters print when the
font has them (icon fonts) and are refused by name when it does not; a soft hyphen is dropped;
no-break spaces are kept; every text is NFC, whether it comes from a token, a spreadsheet cell or
the template itself."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pdfplumber
import pytest

from tokengen import load_catalogue
from tokengen.errors import CatalogueError

#: The sizes (pt) of the sheet's own captions (the calibration bar's), left out.
FURNITURE = (5.0, 6.5)


def _catalogue(folder: Path, name: str, literal: str = "") -> Path:
    path = folder / "tokens.yaml"
    path.write_text(f"""title: Unicode
size: 1in
fields: {{name: text}}
template:
  - {{text: "{{name}}", at: [0.5, 0.5], size: 0.12, width: 0.9}}
  - {{text: {json.dumps(literal or "-")}, at: [0.5, 0.8], size: 0.1}}
tokens:
  - id: a
    name: {json.dumps(name)}
""", "utf-8")
    return path


def _lines(pdf: Path) -> list[str]:
    with pdfplumber.open(pdf) as doc:
        chars = [c for c in doc.pages[0].chars if c["fontname"].endswith("DejaVuSans") and round(c["size"], 3) not in FURNITURE]
    rows: dict[float, str] = {}
    for c in sorted(chars, key=lambda c: (-round(c["matrix"][5], 1), c["x0"])):
        rows[round(c["matrix"][5], 1)] = rows.get(round(c["matrix"][5], 1), "") + c["text"]
    return list(rows.values())


def _build(run, path: Path, tmp_path: Path) -> list[str]:
    out = tmp_path / "out.pdf"
    result = run("build", str(path), "--no-cut-lines", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    return _lines(out)


def test_private_use_character_prints_when_the_font_has_it(tmp_path: Path, run):
    assert _build(run, _catalogue(tmp_path, "\uef00 Attack"), tmp_path)[0] == "\uef00 Attack"  # DejaVu Sans has U+EF00


def test_private_use_character_the_font_lacks_is_named(tmp_path: Path):
    with pytest.raises(CatalogueError) as err:
        load_catalogue(_catalogue(tmp_path, "\ue000 Attack"))
    assert err.value.message == r"the bundled font DejaVuSans has no glyph for '\ue000' (U+E000)"  # shown escaped


def test_soft_hyphen_is_dropped_and_no_break_space_kept(tmp_path: Path, run):
    path = _catalogue(tmp_path, "extra\u00adordinary 10\u00a0mm")
    lines = _build(run, path, tmp_path)
    assert lines[0] == "extraordinary 10 mm"  # ReportLab prints a no-break space as the space glyph (code 32)
    cat = load_catalogue(path)
    token = cat.tokens[0]
    from tokengen.faces.facedraw import set_text

    assert token.template is not None
    assert set_text(cat.size, cat.size, token.template, token.template.elements[0], dict(token.values)).text == "extraordinary 10\u00a0mm"


def test_decomposed_text_prints_composed_from_value_and_template(tmp_path: Path, run):
    nfd = unicodedata.normalize("NFD", "Việt ễ")
    assert nfd != "Việt ễ"
    lines = _build(run, _catalogue(tmp_path, nfd, literal=nfd), tmp_path)
    assert lines == ["Việt ễ", "Việt ễ"]  # the template's literal on top, the token's value below
    cat = load_catalogue(_catalogue(tmp_path, nfd, literal=nfd))
    assert dict(cat.tokens[0].values)["name"] == "Việt ễ"


def test_decomposed_spreadsheet_cell_is_composed(tmp_path: Path):
    nfd = unicodedata.normalize("NFD", "Đà Nẵng")
    path = tmp_path / "tokens.yaml"
    path.write_text('title: U\nsize: 1in\nfields: {name: text}\ntemplate:\n  - {text: "{name}", at: [0.5, 0.5]}\ntokens: tokens.csv\n', "utf-8")
    (tmp_path / "tokens.csv").write_text(f"id,name\na,{nfd}\n", "utf-8")
    assert dict(load_catalogue(path).tokens[0].values)["name"] == "Đà Nẵng"


def test_a_tab_is_still_refused_on_one_line(tmp_path: Path):
    with pytest.raises(CatalogueError) as err:
        load_catalogue(_catalogue(tmp_path, "a\tb"))
    assert err.value.message == "character U+0009 (a line break, tab or other control) cannot be printed on one line"


_SCRIPTS = [("שלום עולם", "Hebrew text (U+05E9 HEBREW LETTER SHIN) is written right to left; tokengen draws text left to right "
                          "without reordering or shaping, so it would print reversed"),
            ("سلام", "Arabic text (U+0633 ARABIC LETTER SEEN) is written right to left; tokengen draws text left to right "
                     "without reordering or shaping, so it would print reversed"),
            ("नमस्ते", "Devanagari text (U+0928 DEVANAGARI LETTER NA) needs shaping (glyphs joined and reordered), which "
                       "tokengen does not do; it would print broken")]


@pytest.mark.parametrize("text, why", _SCRIPTS)
@pytest.mark.parametrize("element", ["box", "line", "template"])
def test_a_script_that_needs_shaping_is_refused_by_name_in_every_command(run, tmp_path: Path, text: str, why: str, element: str):
    """DejaVu Sans carries Hebrew and Arabic letters, so no glyph is missing: the text is refused
    for its script, at the same place by check, build and export."""
    shown = "{rules}" if element != "template" else text
    where = "box: [0.1, 0.2, 0.8, 0.6]" if element != "line" else "at: [0.5, 0.5], width: 0.8"
    path = tmp_path / "cat.yaml"
    path.write_text(f"""title: Scripts
size: 63mmx88mm
fields: {{rules: text}}
template:
  - {{text: "{shown}", {where}, size: 11pt}}
tokens:
  - {{id: a, rules: Plain}}
  - {{id: b, rules: "{text}"}}
""", "utf-8")
    named = f"{path}:7: tokens[0]: {why} (template line 5)" if element == "template" else f"{path}:8: tokens[1].rules: {why}"
    result = run("build", str(path), "-o", str(tmp_path / "out.pdf"))
    assert (result.exit_code, result.stderr) == (2, f"tokengen: error: {named}\n")
    result = run("export", str(path), "--profile", "print-shop", "-o", str(tmp_path / "shop"))
    assert (result.exit_code, result.stderr) == (2, f"tokengen: error: {named}\n")
    result = run("check", str(path))
    assert result.exit_code == 1 and named.replace(": ", ": error catalogue: ", 1) in result.stdout
    assert not (tmp_path / "out.pdf").exists() and not (tmp_path / "shop").exists()
