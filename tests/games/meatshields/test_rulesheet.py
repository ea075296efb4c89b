"""The rules sheet: appended after the sheets, numbers and variants from the catalogue, DejaVu text
that stays on the page."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader


def rules_text(pdf_path: Path, first: int = -1) -> tuple[str, list[str], list[dict]]:
    """Text (column by column), font names and character boxes of the rules pages: page
    ``first`` (0-based; default the last page) to the end."""
    with pdfplumber.open(pdf_path) as pdf:
        texts, fonts, chars = [], set(), []
        for page in pdf.pages[first:]:
            w, h = float(page.width), float(page.height)
            texts += [page.crop((0, 0, w / 2, h)).extract_text(), page.crop((w / 2, 0, w, h)).extract_text()]
            fonts |= {c["fontname"].split("+")[-1] for c in page.chars}
            chars += [{"x0": c["x0"], "x1": c["x1"], "top": c["top"], "bottom": c["bottom"], "w": page.width, "h": page.height}
                      for c in page.chars]
        return "\n".join(texts), sorted(fonts), chars


def test_rules_page_is_appended_with_the_catalogues_numbers(run, tmp_path: Path, catalogue_path: Path):
    out = tmp_path / "rules.pdf"
    result = run("build", str(catalogue_path), "-o", str(out), "--rules")
    assert result.exit_code == 0, result.stderr
    assert len(PdfReader(out).pages) == 2
    text, fonts, chars = rules_text(out)
    flat = " ".join(text.split())
    for expected in ("All 18 tokens go face down", "2 gp per Meatshield", "Danger Level (2 to 5) (add 1 if it is Explored)",
                     "solo-start: A one-Adventurer game begins with 3 Meatshields", "↓↑: the token counts as both",
                     "pass the Meatshield by"):
        assert expected in flat, expected
    assert "game.draws" not in flat  # placeholders filled with the catalogue's values
    assert fonts == ["DejaVuSans", "DejaVuSans-Bold"]
    margin = 35.9
    for c in chars:  # nothing runs off the page or into the margins
        assert margin <= c["x0"] and c["x1"] <= c["w"] - margin and margin <= c["top"] and c["bottom"] <= c["h"] - margin


def test_rules_follow_the_variants_in_play(run, tmp_path: Path, catalogue_path: Path):
    text = catalogue_path.read_text("utf-8")
    text = text.replace("variants: [solo-start]", "variants: [cheap-hire, paid-trade, target-all-hits, town-draws]")
    text = text.replace("settlement_danger_levels: [2, 3, 4, 5]", "settlement_danger_levels: [1, 2, 3]")
    cat = tmp_path / "cat.yaml"
    cat.write_text(text, "utf-8")
    out = tmp_path / "rules.pdf"
    result = run("build", str(cat), "-o", str(out), "--rules", "--backs")
    assert result.exit_code == 0, result.stderr
    assert len(PdfReader(out).pages) == 4  # face sheet, back sheet, rules flowing onto a second page
    flat = " ".join(rules_text(out, 2)[0].split())
    for expected in ("1 gp per Meatshield", "costs 1 gp, paid by either of them", "Danger Level (1 to 3)",
                     "strike the deployed Meatshield as well", "each Town offers as many tokens as its level (2 to 5)",
                     "cheap-hire:", "paid-trade:", "target-all-hits:", "town-draws:"):
        assert expected in flat, expected
    assert "solo-start" in flat.split("not in play:")[1]


def _every_variant_catalogue(tmp_path: Path, catalogue_path: Path, count: int = 30, readings: str = "") -> Path:
    """The real catalogue with ``count`` variants more (long descriptions, long names), every
    variant in play, and ``readings`` as its interpretations: mapping."""
    text = catalogue_path.read_text("utf-8")
    extra = "".join(
        f"    house-rule-{i:02d}-with-a-rather-long-name:\n"
        f"      description: House rule {i} for this table; it changes nothing the engine models, but its words must still "
        f"fit the page, so this sentence runs on for a while to fill several lines of the column it lands in ({i}).\n"
        for i in range(count - 6))
    text = text.replace("variants: [solo-start]\n", "")
    text = text.replace("  variants:\n", "  variants:\n" + extra, 1)
    names = [line.strip().rstrip(":") for line in text.split("  variants:\n", 1)[1].split("\n\n")[0].splitlines()
             if line.startswith("    ") and not line.startswith("      ")]
    text = text.replace("\ntokens:", f"\nvariants: [{', '.join(names)}]\n{readings}\ntokens:")
    path = tmp_path / "every_variant.yaml"
    path.write_text(text, "utf-8")
    return path


@pytest.mark.parametrize("page", ["letter", "a4", "4inx6in"])
def test_rules_sheet_with_every_variant_keeps_every_glyph_inside_the_margin(run, tmp_path: Path, catalogue_path: Path, page: str):
    cat = _every_variant_catalogue(tmp_path, catalogue_path,
                                   readings="interpretations: {one_sided: exact, ties: all, same_target: twice, damage: wounds, small_bag: take-rest}")
    out = tmp_path / "rules.pdf"
    result = run("build", str(cat), "-o", str(out), "--rules", "--page", page, "--columns", "0")
    assert result.exit_code == 0, result.stderr
    sheets = 1 if page != "4inx6in" else 2
    total = len(PdfReader(out).pages)
    text, fonts, chars = rules_text(out, sheets)
    assert total > sheets + 1  # 30 variants do not fit one page: the sheet flows on
    assert len(chars) > 7000
    for c in chars:  # the margin is 0.5in (36pt) on every side of every rules page
        assert 36 - 0.01 <= c["x0"] and c["x1"] <= c["w"] - 36 + 0.01, c
        assert 36 - 0.01 <= c["top"] and c["bottom"] <= c["h"] - 36 + 0.01, c
    flat = "".join(text.split())
    for i in range(24):  # nothing lost: every variant's words are on the sheet
        assert f"({i})." in flat, i
    for switch in ("one-sided=exact", "ties=all", "same-target=twice", "damage=wounds", "small-bag=take-rest"):
        assert switch in flat, switch


@pytest.mark.parametrize(("reading", "words"), [
    ("", "Reading in play (damage=dies): the first hit kills a Meatshield."),
    ("interpretations: {damage: wounds}",
     "Reading in play (damage=wounds): every hit is a wound the Meatshield keeps; the hit that brings it to 2 wounds kills it."),
])
def test_rules_sheet_states_the_damage_reading_in_play(run, tmp_path: Path, catalogue_path: Path, reading: str, words: str):
    text = catalogue_path.read_text("utf-8").replace("\ntokens:", f"\n{reading}\ntokens:")
    cat = tmp_path / "cat.yaml"
    cat.write_text(text, "utf-8")
    out = tmp_path / "rules.pdf"
    assert run("build", str(cat), "-o", str(out), "--rules").exit_code == 0
    flat = " ".join(rules_text(out, 1)[0].split())
    assert words in flat
    assert "Readings in play" in flat
    other = "damage=dies:" if "wounds" in reading else "damage=wounds:"
    assert other not in flat


def test_rules_sheet_on_a_page_too_small_for_one_line_is_refused(run, tmp_path: Path):
    out = tmp_path / "rules.pdf"
    result = run("build", "--rules", "--page", "2inx2in", "--margin", "0.1in", "-o", str(out))
    assert result.exit_code == 2
    assert result.stderr == ("tokengen: error: the rules sheet does not fit a 144 x 144 pt page (not even one line has room "
                             "inside its 0.5in margin): use a larger --page, or build without --rules\n")
    assert not out.exists()
