"""``--size`` takes WIDTHxHEIGHT as users of other tools type it (build, check, export), read by
the one size parser (:func:`tokengen.units.parse_size`, also a catalogue's ``size:``)."""

from __future__ import annotations

import pytest
from conftest import ROOT
from pypdf import PdfReader

from tokengen.units import parse_size

POKER = ROOT / "examples" / "poker-cards" / "cards.yaml"
MM = 72 / 25.4
FORMS = "expected a length such as 1in or WIDTHxHEIGHT such as 63mmx88mm, 63x88mm or 2.5inx3.5in"


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
    ("abc", f"{FORMS}, got 'abc'"),
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
    assert result.stdout == f"wrote {out}: 8 tokens (1 set) on 1 face page\n"
    assert len(PdfReader(out).pages) == 1


def test_check_and_export_accept_width_x_height(run, tmp_path):
    checked = run("check", str(POKER), "--size", "63x88mm")
    assert checked.exit_code == 0, checked.stderr
    assert f"{POKER}: info sheet: 9 tokens of 63mm × 88mm rounded fit on one 8.5in × 11in page" in checked.stdout.splitlines()
    exported = run("export", str(POKER), "--profile", "print-shop", "--size", "63mmx88mm", "-o", str(tmp_path / "shop"))
    assert exported.exit_code == 0, exported.stderr


@pytest.mark.parametrize("command", ["build", "check"])
def test_size_whose_height_does_not_follow_the_width_is_refused(run, tmp_path, command):
    extra = ["-o", str(tmp_path / "x.pdf")] if command == "build" else []
    result = run(command, str(POKER), "--size", "63mmx100mm", *extra)
    assert result.exit_code == 2
    assert result.stderr == ("tokengen: error: --size 63mm × 100mm does not keep the tokens' proportions (63mm × 88mm): "
                             "63mm wide is 88mm high; give the width alone or a WIDTHxHEIGHT that matches\n")


def test_malformed_size_names_the_option_and_the_forms(run, tmp_path):
    result = run("build", str(POKER), "--size", "63x88", "-o", str(tmp_path / "x.pdf"))
    assert result.exit_code == 2
    assert result.stderr == (f"tokengen: error: tokengen build: Invalid value for '--size': size '63x88' needs a unit after the height; "
                             f"{FORMS} (see 'tokengen build --help')\n")
