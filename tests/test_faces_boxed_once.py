"""A build sets each distinct boxed text once and parses its markup once, however many of them
the catalogue holds: the catalogue's checks, the drawing and the small-text warning reuse it
(600 distinct rules cards, more than a build kept laid out before)."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest
from conftest import ROOT

from tokengen.faces import facedraw, textbox
from tokengen.sources import markup

CARDS = 600
RULES = ROOT / "examples" / "rules-cards"


def rules_catalogue(folder: Path) -> Path:
    """``examples/rules-cards`` with :data:`CARDS` distinct cards (a number added to each rules text)."""
    with open(RULES / "tokens.csv", newline="", encoding="utf-8") as f:
        base = list(csv.DictReader(f))
    rows = [{**row, "id": f"{row['id']}-{n}", "rules": f"{row['rules']} ({n})"} for n in range(CARDS // len(base) + 1) for row in base][:CARDS]
    with open(folder / "tokens.csv", "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    shutil.copytree(RULES / "icons", folder / "icons")
    shutil.copy(RULES / "cards.yaml", folder / "cards.yaml")
    return folder / "cards.yaml"


def test_each_boxed_text_is_set_and_parsed_once(run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    facedraw._fit.cache_clear()
    markup.parse_once.cache_clear()
    fitted: list[str] = []
    parsed: list[str] = []
    fit_box, parse = textbox.fit_box, markup.parse

    def counting_fit(doc, *args, **kwargs):  # type: ignore[no-untyped-def]
        fitted.append(repr(doc))
        return fit_box(doc, *args, **kwargs)

    def counting_parse(text, *args, **kwargs):  # type: ignore[no-untyped-def]
        parsed.append(text)
        return parse(text, *args, **kwargs)

    monkeypatch.setattr(textbox, "fit_box", counting_fit)
    monkeypatch.setattr(markup, "parse", counting_parse)
    result = run("build", str(rules_catalogue(tmp_path)), "-o", str(tmp_path / "cards.pdf"))
    assert result.exit_code == 0, result.stderr
    assert len(set(parsed)) == CARDS
    assert len(parsed) == CARDS  # each text parsed once
    assert len(fitted) == CARDS  # and set once
