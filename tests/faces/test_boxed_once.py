"""A build sets each distinct boxed text once and parses its markup once, however many of them
the catalogue holds: the catalogue's checks, the drawing and the small-text warning reuse it
(600 distinct rules cards, more than a build kept laid out before)."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest

from tests.conftest import ROOT
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


INKS = """title: Inks
size: 63mmx88mm
icons: {sword: sword.png}
fields: {rules: text, ink: colour}
template:
  - {text: "{rules}", box: [0.1, 0.1, 0.8, 0.8], size: 11pt, min_size: 7pt, align: justify, colour: "{ink}"}
tokens: tokens.csv
"""
#: One text on two faces in two inks: two paragraphs, a bold word, an icon and a green span.
INKED = "Deal **two** :sword: to it, then [colour=#00ff00]heal one[/colour] unit beside it.\n\nSteel remembers."


def test_each_paragraph_is_laid_out_once_and_drawn_in_each_face_s_ink(run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A text two faces share is wrapped once per paragraph (ReportLab's ``Paragraph.wrap``) for
    the fit, the drawing of both faces, and the cut and small-text warnings; each face still
    prints it in its own ink, and the span in its own colour."""
    import pdfplumber
    from PIL import Image
    from reportlab.platypus import Paragraph

    facedraw._fit.cache_clear()
    Image.new("RGB", (64, 64), (200, 0, 0)).save(tmp_path / "sword.png")
    (tmp_path / "cards.yaml").write_text(INKS, "utf-8")
    with open(tmp_path / "tokens.csv", "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows([["id", "rules", "ink"], ["red", INKED, "#ff0000"], ["blue", INKED, "#0000ff"]])
    wraps: list[str] = []
    wrap = Paragraph.wrap

    def counting_wrap(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        wraps.append(self.text)
        return wrap(self, *args, **kwargs)

    monkeypatch.setattr(Paragraph, "wrap", counting_wrap)
    result = run("build", str(tmp_path / "cards.yaml"), "--columns", "2", "-o", str(tmp_path / "cards.pdf"))
    assert result.exit_code == 0, result.stderr
    assert len(wraps) == 2  # two paragraphs, one text: each wrapped once
    with pdfplumber.open(tmp_path / "cards.pdf") as pdf:
        page = pdf.pages[0]
        halves = [[c for c in page.chars if c["text"].strip() and (c["x0"] < page.width / 2) == left] for left in (True, False)]
    inks = [_colour_of(chars, "Steelremembers.") for chars in halves]
    assert sorted(inks) == [(0.0, 0.0, 1.0), (1.0, 0.0, 0.0)]
    assert [_colour_of(chars, "healone") for chars in halves] == [(0.0, 1.0, 0.0)] * 2
    assert [_colour_of(chars, "Dealtwo") for chars in halves] == inks


def _colour_of(chars: list[dict], words: str) -> tuple[float, ...]:
    """The one fill colour of ``words`` (spaces left out) among ``chars`` in the order drawn."""
    text = "".join(c["text"] for c in chars)
    at = text.index(words)
    found = {tuple(round(v, 3) for v in c["non_stroking_color"]) for c in chars[at:at + len(words)]}
    assert len(found) == 1, found
    return found.pop()


def test_wrapped_paragraphs_are_kept_for_the_latest_texts_only(monkeypatch: pytest.MonkeyPatch):
    """At most :data:`textbox.KEEP_WRAPPED` texts hold their wrapped paragraphs (a memory bound
    counted in texts); one no longer kept is wrapped again when drawn, to the same PDF bytes."""
    import io

    from reportlab.lib.colors import Color
    from reportlab.pdfgen.canvas import Canvas

    monkeypatch.setattr(textbox, "KEEP_WRAPPED", 2)
    monkeypatch.setattr(textbox, "_kept", type(textbox._kept)())
    texts = [f"Deal **{n}** damage to *each* unit beside it, then draw {n} cards." for n in range(5)]
    laid = [textbox.fit_box(text, 120, 90, size=11, min_size=7, align="justify") for text in texts]
    assert [bool(one.wrapped) for one in laid] == [False, False, False, True, True]

    def drawn(one: textbox.Laid) -> bytes:
        out = io.BytesIO()
        canvas = Canvas(out, invariant=1, pageCompression=0)
        textbox.draw(canvas, one, 10, 10, Color(0.2, 0.4, 0.6))
        canvas.save()
        return out.getvalue()

    again = drawn(laid[0])  # wrapped anew from its XML, and kept
    assert bool(laid[0].wrapped) and sum(bool(one.wrapped) for one in laid) == 2
    assert again == drawn(textbox.fit_box(texts[0], 120, 90, size=11, min_size=7, align="justify"))
    assert b".2 .4 .6 rg" in again
