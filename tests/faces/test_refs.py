"""References to other tokens' values (``{ref:ID.field}``, ``{row:N.field}``), the token's own
number (``{row}``) and conditions on it (``when: {row: [1, 3]}``): built into a real PDF and read
back with pdfplumber; a reference to no token is refused at the token's line with a did-you-mean."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest

from tokengen import BuildOptions, SheetSpec, build_pdf, load_catalogue
from tokengen.errors import CatalogueError
from tokengen.units import parse_page

TOKENS = """\
  - {id: princess, name: Princess, cost: 8}
  - {id: guard, name: Guard, cost: 1}
  - {id: priest, name: Priest, cost: 2}
"""


def write(folder: Path, elements: str, fields: str = "{name: text, cost: integer}") -> Path:
    path = folder / "cat.yaml"
    path.write_text(f"title: R\nsize: 2in\nfields: {fields}\ntemplate:\n{elements}tokens:\n{TOKENS}", "utf-8")
    return path


def lines(folder: Path, elements: str) -> list[str]:
    """The face texts of each token in order (one face a token, each at 14.4 pt)."""
    cat = load_catalogue(write(folder, elements))
    out = folder / "out.pdf"
    build_pdf(cat, BuildOptions(sheet=SheetSpec(page=parse_page("letter"), size=cat.size)), out)
    with pdfplumber.open(out) as pdf:
        words = pdf.pages[0].filter(lambda o: o.get("object_type") != "char" or o["size"] > 9).extract_words(keep_blank_chars=True)
    return [w["text"] for w in sorted(words, key=lambda w: (round(w["top"]), w["x0"]))]


def test_references_print_the_other_tokens_values(tmp_path: Path) -> None:
    found = lines(tmp_path, '  - {text: "{row}:{ref:guard.name}/{row:3.cost}", at: [0.5, 0.5], size: 0.1, width: 0.95}\n')
    assert found == ["1:Guard/2", "2:Guard/2", "3:Guard/2"]


def test_a_condition_on_the_row_number_picks_tokens(tmp_path: Path) -> None:
    found = lines(tmp_path, '  - {text: "{name}", at: [0.5, 0.5], size: 0.1, when: {row: [1, 3]}}\n')
    assert found == ["Princess", "Priest"]


def test_row_is_computed_like_any_field(tmp_path: Path) -> None:
    found = lines(tmp_path, '  - {text: "No. {row|pad:3}", at: [0.5, 0.5], size: 0.1}\n')
    assert found == ["No. 001", "No. 002", "No. 003"]


@pytest.mark.parametrize(("text", "line", "message"), [
    ("{ref:gaurd.name}", 7, "cat.yaml:5: template[0]): no token has id 'gaurd'; did you mean 'guard'?"),
    ("{row:7.name}", 7, "there is no token 7: the catalogue has 3"),
    ("{ref:guard.nme}", 5, "{ref:guard.nme}: unknown field 'nme'; did you mean 'name'?"),
])
def test_a_bad_reference_is_refused_by_name(tmp_path: Path, text: str, line: int, message: str) -> None:
    with pytest.raises(CatalogueError) as info:
        load_catalogue(write(tmp_path, f'  - {{text: "{text}", at: [0.5, 0.5]}}\n'))
    assert info.value.line == line and message in info.value.message
