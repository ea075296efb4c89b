"""Rough edges the new users of issue 43 met on the command line, each as they met it."""

from __future__ import annotations

import shlex
from pathlib import Path


def test_check_of_a_bundled_catalogue_names_it_not_the_package_folder(run, tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("check", "meatshields")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "meatshields: playable (0 errors, 0 warnings, 6 infos)"
    assert not [line for line in lines if "site-packages" in line or "tokengen/data" in line]
    assert any(line.startswith("meatshields: info sheet: ") for line in lines)


def _help_examples(run, command: str) -> list[list[str]]:
    """The example command lines of ``tokengen COMMAND --help``, continuation lines joined."""
    text = run(command, "--help").stdout
    block = text.split("Examples:", 1)[1].split("\n\n", 1)[0]
    joined = block.replace("\\\n", " ")
    return [shlex.split(line.strip())[1:] for line in joined.splitlines() if line.strip().startswith("tokengen ")]


def test_target_help_first_example_runs_outside_the_clone(run, tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no token_defs.yaml here
    first = _help_examples(run, "target")[0]
    result = run(*first)
    assert result.exit_code == 0, result.stderr
    assert "Rat King" in result.stdout


def test_the_cards_starter_sets_long_rules_in_a_box_at_a_readable_size(run, tmp_path: Path):
    """Rules one line long shrank to about 3 pt to fit the card's width; in a box they wrap and stay readable."""
    import pdfplumber

    folder = tmp_path / "cards"
    assert run("init", str(folder), "--starter", "cards").exit_code == 0
    cat = folder / "cards.yaml"
    long = "Gain 2 gold. When this card is discarded from your hand, each other player draws a card and you gain one more gold."
    cat.write_text(cat.read_text("utf-8").replace('rules: "Gain 2 gold."', f'rules: "{long}"'), "utf-8")
    result = run("build", str(cat), "-o", str(tmp_path / "c.pdf"))
    assert result.exit_code == 0, result.stderr
    with pdfplumber.open(tmp_path / "c.pdf") as pdf:
        words = pdf.pages[0].extract_words(extra_attrs=["size"])
    sized = [w for w in words if w["text"] in ("discarded", "draws")]
    assert len(sized) == 6  # three Treasure cards
    assert min(w["size"] for w in sized) >= 8  # the rules' own size is 0.058 × 63 mm ≈ 10.4 pt; 8.7 pt with this text
    first = [w for w in words if w["text"] == "Gain"][0]
    assert min(abs(w["top"] - first["top"]) for w in sized) > 5  # wrapped: later words on lines below the first


def test_check_counts_what_a_build_places_on_a_page(run, tmp_path: Path):
    """``check`` said 30 tokens fit a Letter page (the 3 columns of one set) where ``build`` places
    more: the count is a full page's, as --fill and many copies lay it out."""
    import re

    import pdfplumber

    from tests.conftest import CATALOGUE

    said = [line for line in run("check", str(CATALOGUE)).stdout.splitlines() if " info sheet: " in line]
    per_page = int(re.search(r"info sheet: (\d+) tokens", said[0])[1])
    out = tmp_path / "f.pdf"
    assert run("build", str(CATALOGUE), "--copies", "10", "-o", str(out)).exit_code == 0
    with pdfplumber.open(out) as pdf:
        first = len(pdf.pages[0].curves)  # one circle outline a token (the Meatshields' round faces)
    assert per_page == first == 60
