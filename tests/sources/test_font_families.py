"""Catalogue font families: ``fonts: {body: {regular: …, bold: …, italic: …, bold_italic: …}}``
beside a plain file; boxed text sets ``**``/``*`` in the family's files and the glyph check
covers each style a text uses. The bundled DejaVu files, copied under other names, stand in."""

from __future__ import annotations

import shutil
from pathlib import Path

import pdfplumber
import pytest

from tokengen import load_catalogue
from tokengen.errors import CatalogueError
from tokengen.sources import fonts

STYLES = {"regular": "DejaVuSans", "bold": "DejaVuSans-Bold", "italic": "DejaVuSans-Oblique", "bold_italic": "DejaVuSans-BoldOblique"}
FILES = {"regular": "Body.ttf", "bold": "Body-Bold.ttf", "italic": "Body-Italic.ttf", "bold_italic": "Body-BoldItalic.ttf"}


def _catalogue(folder: Path, family: str, rules: str, title_font: str = "") -> Path:
    f = folder / "f"
    f.mkdir(exist_ok=True)
    for style, name in FILES.items():
        shutil.copy(fonts.font_dir() / f"{STYLES[style]}.ttf", f / name)
    shutil.copy(fonts.font_dir() / "DejaVuSans-Bold.ttf", f / "Title.ttf")
    path = folder / "cards.yaml"
    path.write_text(f"""title: Families
size: 63mmx88mm
fields: {{name: text, rules: text}}
fonts:
  body: {family}
  title: f/Title.ttf
template:
  - {{text: "{{name}}", font: {title_font or "title"}, at: [0.5, 0.1], size: 0.06}}
  - {{text: "{{rules}}", font: body, box: [0.1, 0.3, 0.8, 0.6], size: 10pt}}
tokens:
  - id: knight
    name: Knight
    rules: "{rules}"
""", "utf-8")
    return path


def _fonts_used(pdf: Path) -> dict[str, str]:
    """Base font name (subset prefix dropped) → the characters printed in it."""
    out: dict[str, str] = {}
    with pdfplumber.open(pdf) as doc:
        for ch in doc.pages[0].chars:
            name = ch["fontname"].split("+")[-1]
            out[name] = out.get(name, "") + ch["text"]
    return out


def _family(path: Path) -> tuple[str, ...]:
    """The registered fonts the boxed text is set in (catalogue fonts are registered as their
    file's stem and a digest of its path)."""
    from tokengen.faces.facedraw import set_box

    cat = load_catalogue(path)
    token = cat.tokens[0]
    assert token.template is not None
    laid = set_box(cat.size, cat.trim_height, token.template, token.template.elements[1], dict(token.values))
    assert laid.family is not None
    return tuple(name.rsplit("-", 1)[0] for name in (laid.family.regular, laid.family.bold, laid.family.italic, laid.family.bold_italic))


def test_a_family_sets_each_style_in_its_own_file(tmp_path: Path, run):
    family = "{regular: f/Body.ttf, bold: f/Body-Bold.ttf, italic: f/Body-Italic.ttf, bold_italic: f/Body-BoldItalic.ttf}"
    path = _catalogue(tmp_path, family, "Plain **Bold** *Slant* ***Both***")
    assert _family(path) == ("Body", "Body-Bold", "Body-Italic", "Body-BoldItalic")
    out = tmp_path / "out.pdf"
    built = run("build", str(path), "--no-cut-lines", "-o", str(out))
    assert built.exit_code == 0, built.stderr
    used = _fonts_used(out)  # the copies keep DejaVu's own PostScript names inside
    assert used["DejaVuSans-Oblique"].replace(" ", "") == "Slant"
    assert used["DejaVuSans-BoldOblique"].replace(" ", "") == "Both"
    assert "Bold" in used["DejaVuSans-Bold"] and "Knight" in used["DejaVuSans-Bold"]  # the plain file beside it: the title
    assert "Plain" in used["DejaVuSans"]
    cat = load_catalogue(path)
    assert {p.name for p in cat.inputs} >= set(FILES.values()) | {"Title.ttf"}


def test_a_family_without_some_styles_falls_back(tmp_path: Path, run):
    path = _catalogue(tmp_path, "{regular: f/Body.ttf, bold: f/Body-Bold.ttf}", "Plain **Bold** *Slant*")
    assert _family(path) == ("Body", "Body-Bold", "Body", "Body-Bold")  # as ReportLab's families fall back
    out = tmp_path / "out.pdf"
    assert run("build", str(path), "--no-cut-lines", "-o", str(out)).exit_code == 0
    used = _fonts_used(out)
    assert "DejaVuSans-Oblique" not in used and "Slant" in used["DejaVuSans"]


def test_the_glyph_check_covers_the_style_a_text_uses(tmp_path: Path):
    # the italic style is a bold file here: a character DejaVu Sans has and its bold lacks passes in
    # plain words and is refused in *italic* ones
    family = "{regular: f/Body.ttf, italic: f/Title.ttf}"
    regular, bold = fonts.register()
    from reportlab.pdfbase import pdfmetrics

    face_r = pdfmetrics.getFont(regular).face.charToGlyph
    face_b = pdfmetrics.getFont(bold).face.charToGlyph
    only_regular = next(chr(c) for c in sorted(face_r) if c > 0x2000 and c not in face_b and chr(c).isprintable())
    path = _catalogue(tmp_path, family, f"fine {only_regular} and *slanted {only_regular}*")
    with pytest.raises(CatalogueError) as err:
        load_catalogue(path)
    assert f"the font 'body' has no glyph for '{only_regular}' (U+{ord(only_regular):04X})" in str(err.value)
    ok = _catalogue(tmp_path, family, f"fine {only_regular} and *slanted*")
    assert load_catalogue(ok).tokens[0].id == "knight"


def test_a_family_needs_its_regular_style_and_knows_its_keys(tmp_path: Path):
    with pytest.raises(CatalogueError) as err:
        path = _catalogue(tmp_path, "{bold: f/Body-Bold.ttf}", "x")
        load_catalogue(path)
    assert str(err.value) == f"{path}:5: fonts.body: missing required key 'regular'"
    with pytest.raises(CatalogueError) as err:
        path = _catalogue(tmp_path, "{regular: f/Body.ttf, italics: f/Body-Italic.ttf}", "x")
        load_catalogue(path)
    assert str(err.value) == f"{path}:5: fonts.body.italics: unknown key; did you mean 'italic'?"
    with pytest.raises(CatalogueError) as err:
        path = _catalogue(tmp_path, "{regular: f/Missing.ttf}", "x")
        load_catalogue(path)
    assert str(err.value).startswith(f"{path}:5: fonts.body.regular: ")
