"""``--size`` takes WIDTHxHEIGHT as users of other tools type it (build, check, export, batch and a
batch job's ``size:``), read by
the one size parser (:func:`tokengen.units.parse_size`, also a catalogue's ``size:``)."""

from __future__ import annotations

import pdfplumber
import pytest
from pypdf import PdfReader

from tests.conftest import ROOT
from tokengen.units import parse_size

POKER = ROOT / "examples" / "poker-cards" / "cards.yaml"
MM = 72 / 25.4
FORMS = "expected a length such as 1in, WIDTHxHEIGHT such as 63mmx88mm, 63x88mm or 2.5inx3.5in, or a card name such as poker"
NAMES = "'tokengen sizes' lists the names; or give a length such as 1in, WIDTHxHEIGHT such as 63mmx88mm, 63x88mm or 2.5inx3.5in, or a card name such as poker"


@pytest.mark.parametrize("text, pt", [
    ("63mmx88mm", (63 * MM, 88 * MM)),
    ("63x88mm", (63 * MM, 88 * MM)),
    ("63 x 88 mm", (63 * MM, 88 * MM)),
    ("63×88mm", (63 * MM, 88 * MM)),
    ("2.5inx3.5in", (180.0, 252.0)),
    ("2.5in x 3.5in", (180.0, 252.0)),
    ("1in", (72.0, None)),
])
def test_parse_size_forms(text, pt):
    width, height = parse_size(text)
    assert width == pytest.approx(pt[0])
    assert height == (None if pt[1] is None else pytest.approx(pt[1]))


@pytest.mark.parametrize("text, message", [
    ("63x88", f"size '63x88' needs a unit after the height; {FORMS}"),
    ("abc", f"unknown size name 'abc': {NAMES}"),
    ("pokr", f"unknown size name 'pokr': did you mean poker? {NAMES}"),
    ("1in x", f"{FORMS}, got '1in x'"),
    ("63mmx-5mm", "length must not be negative: '-5mm'"),
])
def test_parse_size_refusals(text, message):
    with pytest.raises(ValueError) as exc:
        parse_size(text)
    assert str(exc.value) == message


@pytest.mark.parametrize("size", ["63mmx88mm", "63x88mm", "2.5inx3.5in", "63 x 88 mm"])
def test_build_accepts_width_x_height(run, tmp_path, size):
    out = tmp_path / "cards.pdf"
    result = run("build", str(POKER), "--size", size, "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[0] == f"wrote {out}: 8 tokens (1 set) on 1 face page"
    assert len(PdfReader(out).pages) == 1


#: What build and export say of ``--size 2.5inx3.5in`` on 63 × 88 mm cards: 3.5in asked, 3.492in printed.
HEIGHT_NOTE = ("--size 2.5in × 3.5in prints the tokens 2.5in × 3.492in (251.43pt): the height follows the width, keeping the "
               "catalogue's proportions (63mm × 88mm); to print them 3.5in high, change the catalogue's proportions: size: 2.5inx3.5in")


def test_a_height_that_follows_the_width_is_said_when_it_is_not_the_one_asked(run, tmp_path):
    """Within 1 % of the cards' proportions a WIDTHxHEIGHT is taken, and its height follows the
    width: 2.5in × 3.5in prints 63 × 88 mm cards 2.5in × 3.492in. One note says so; a height
    printed as asked (63mmx88mm, 63.5mm wide: 88.7mm) or a width alone says nothing."""
    out = tmp_path / "cards.pdf"
    result = run("build", str(POKER), "--size", "2.5inx3.5in", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == f"wrote {out}: 8 tokens (1 set) on 1 face page\n{HEIGHT_NOTE}\n"
    with pdfplumber.open(out) as pdf:  # the trim printed: 180 × 251.43 pt, as the note says
        cards = {(round(r["width"], 2), round(r["height"], 2)) for r in pdf.pages[0].rects if r["width"] > 100}
    assert cards == {(180.0, 251.43)}
    exported = run("export", str(POKER), "--profile", "print-shop", "--size", "2.5inx3.5in", "-o", str(tmp_path / "shop"))
    assert exported.exit_code == 0, exported.stderr
    assert exported.stdout.splitlines()[1] == HEIGHT_NOTE
    for size in ("63mmx88mm", "63.5mmx88.7mm", "2.5in"):
        result = run("build", str(POKER), "--size", size, "-o", str(out))
        assert result.stdout == f"wrote {out}: 8 tokens (1 set) on 1 face page\n", size


def test_check_and_export_accept_width_x_height(run, tmp_path):
    checked = run("check", str(POKER), "--size", "63x88mm")
    assert checked.exit_code == 0, checked.stderr
    assert f"{POKER}: info sheet: 9 tokens of 63mm × 88mm rounded fit on one 8.5in × 11in page" in checked.stdout.splitlines()
    exported = run("export", str(POKER), "--profile", "print-shop", "--size", "63mmx88mm", "-o", str(tmp_path / "shop"))
    assert exported.exit_code == 0, exported.stderr


def test_batch_and_its_job_files_accept_width_x_height(run, tmp_path):
    """``batch --size`` and a job's ``size:`` take the forms ``build --size`` takes; the summary's
    size column shows both sides of a card, in one unit."""
    result = run("batch", str(POKER), "--size", "63mmx88mm", "--size", "2.5inx3.5in", "-o", str(tmp_path / "a"), "-j", "1")
    assert result.exit_code == 0, result.stderr
    rows = {line.split()[0]: line.split()[3] for line in result.stdout.splitlines()[-2:]}
    assert rows == {"poker-cards_63mm_letter": "63mmx88mm", "poker-cards_2.5in_letter": "2.5inx3.492in"}
    jobs = tmp_path / "jobs.yaml"
    jobs.write_text(f"jobs:\n  - catalogue: {POKER}\n    size: 63x88mm\n", "utf-8")
    result = run("batch", str(jobs), "-o", str(tmp_path / "b"), "-j", "1")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[-1].split()[:4] == ["poker-cards_63mm_letter", "1", "8", "63mmx88mm"]
    jobs.write_text(f"jobs:\n  - catalogue: {POKER}\n    size: 60mmx100mm\n", "utf-8")
    result = run("batch", str(jobs), "-o", str(tmp_path / "c"))
    assert (result.exit_code, result.stderr) == (2, f"tokengen: error: {jobs}:3: jobs[0].size: 60mm × 100mm does not keep the "
                                                    "tokens' proportions (63mm × 88mm): at 60mm wide they are 83.81mm (237.57pt) high; "
                                                    "give the width alone or a WIDTHxHEIGHT that matches\n")
    assert not (tmp_path / "c").exists()


@pytest.mark.parametrize("command", ["build", "check", "batch"])
def test_size_whose_height_does_not_follow_the_width_is_refused(run, tmp_path, command):
    extra = {"build": ["-o", str(tmp_path / "x.pdf")], "batch": ["-o", str(tmp_path / "out")]}.get(command, [])
    result = run(command, str(POKER), "--size", "63mmx100mm", *extra)
    assert result.exit_code == 2
    assert result.stderr == ("tokengen: error: --size 63mm × 100mm does not keep the tokens' proportions (63mm × 88mm): "
                             "at 63mm wide they are 88mm high; give the width alone or a WIDTHxHEIGHT that matches\n")


def test_malformed_size_names_the_option_and_the_forms(run, tmp_path):
    result = run("build", str(POKER), "--size", "63x88", "-o", str(tmp_path / "x.pdf"))
    assert result.exit_code == 2
    assert result.stderr == (f"tokengen: error: tokengen build: Invalid value for '--size': size '63x88' needs a unit after the height; "
                             f"{FORMS} (see 'tokengen build --help')\n")


@pytest.mark.parametrize("size, message", [
    ("63mmx88", f"size '63mmx88' needs a unit after the height; {FORMS}"),
    ("2.5inx3.5", f"size '2.5inx3.5' needs a unit after the height; {FORMS}"),
    ("x" * 129, f"unknown size name '{'x' * 129}': {NAMES}"),  # the longest text parse_size reads as a name or WIDTHxHEIGHT
    ("9" * 129, f"{FORMS}, got '{'9' * 129}'"),
])
def test_a_catalogue_size_error_is_whole(run, tmp_path, size, message):
    """A catalogue's ``size:`` error reads as ``--size``'s does, not cut off mid-word."""
    catalogue = tmp_path / "deck.yaml"
    catalogue.write_text(f'title: Deck\nsize: "{size}"\nfields:\n  name: text\ntemplate:\n  - {{text: "{{name}}"}}\n'
                         "tokens:\n  - {id: a, name: A}\n", "utf-8")
    result = run("check", str(catalogue))
    assert f"{catalogue}:2: error catalogue: size: {message}" in result.stdout.splitlines()
