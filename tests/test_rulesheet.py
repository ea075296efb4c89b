"""The rules sheet: appended after the sheets, numbers and variants from the catalogue, DejaVu text
that stays on the page."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
from pypdf import PdfReader


def rules_text(pdf_path: Path) -> tuple[str, list[str], list[dict]]:
    with pdfplumber.open(pdf_path) as pdf:
        last = pdf.pages[-1]
        w, h = float(last.width), float(last.height)
        columns = [last.crop((0, 0, w / 2, h)).extract_text(), last.crop((w / 2, 0, w, h)).extract_text()]
        return "\n".join(columns), sorted({c["fontname"].split("+")[-1] for c in last.chars}), [
            {"x0": c["x0"], "x1": c["x1"], "top": c["top"], "bottom": c["bottom"], "w": last.width, "h": last.height} for c in last.chars]


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
    assert len(PdfReader(out).pages) == 3  # face sheet, back sheet, rules
    flat = " ".join(rules_text(out)[0].split())
    for expected in ("1 gp per Meatshield", "costs 1 gp, paid by either of them", "Danger Level (1 to 3)",
                     "strike the deployed Meatshield as well", "each Town offers as many tokens as its level (2 to 5)",
                     "cheap-hire:", "paid-trade:", "target-all-hits:", "town-draws:"):
        assert expected in flat, expected
    assert "solo-start" in flat.split("not in play:")[1]
