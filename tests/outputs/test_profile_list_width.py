"""``tokengen export --list-profiles`` fits the terminal (80 columns when not a terminal),
wrapping the product and source columns (``outputs.profilelist.profile_table``)."""

from __future__ import annotations

from pathlib import Path

from tokengen.outputs.profilelist import profile_table
from tokengen.sources.profiles import load_profiles

HEAD = """\
profile                 product                   output        source
home                    the `tokengen build`      sheets        -
                        sheet for a home printer
                        (no bleed, cut lines,
                        calibration ruler)
print-shop              generic US print shop -   sheets        -
                        1/8 in bleed, crop
                        marks, TrimBox/BleedBox,
                        CMYK
"""


def test_list_profiles_fits_80_columns_when_not_a_terminal(run, monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    result = run("export", "--list-profiles")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith(HEAD)
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert sum(1 for line in lines if line[:1] != " ") == 1 + len(load_profiles())  # one row a profile, continued below
    row = lines.index(next(line for line in lines if line.startswith("dtc-poker ")))
    assert lines[row] == "dtc-poker               DriveThruCards poker      single-pages  DriveThruCards"


def test_list_profiles_follows_the_terminal_width(run, monkeypatch):
    monkeypatch.setenv("COLUMNS", "120")
    lines = run("export", "--list-profiles").stdout.splitlines()
    assert max(len(line) for line in lines) == 120


def test_a_wide_enough_table_is_not_wrapped(tmp_path: Path):
    assert profile_table(width=1000) == profile_table()
    assert len(profile_table(width=1000).splitlines()) == 1 + len(load_profiles())
