"""Every message prints on a cp1252 or ASCII console (issue 11): arrows fall back to v and ^."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import CATALOGUE
from tokengen.cli.console import ascii_form

ANN = "Ann:STR=6,AGI=3,CON=4,MAG=2,MRL=5,PER=3"
BOB = "Bob:STR=2,AGI=5,CON=5,MAG=4,MRL=3,PER=6"


def tokengen(encoding: str, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    env.pop("PYTHONUTF8", None)
    return subprocess.run([sys.executable, "-m", "tokengen", *args], cwd=cwd, env=env, capture_output=True)


def test_ascii_forms():
    assert ascii_form("↓STR, ↑MAG, ↓↑PER") == "vSTR, ^MAG, v^PER"
    assert ascii_form("8.5in × 11in · page 1 … café → ✓ ☃") == "8.5in x 11in - page 1 ... cafe -> ok ?"


@pytest.mark.parametrize("encoding", ["cp1252", "ascii"])
def test_check_and_target_print_on_a_narrow_console(encoding: str, tmp_path: Path):
    check = tokengen(encoding, "check", str(CATALOGUE), cwd=tmp_path)
    assert check.returncode == 0, check.stderr
    out = check.stdout.decode(encoding)
    assert "a vX or ^X token stands in" in out and "internal error" not in out
    target = tokengen(encoding, "target", "-c", str(CATALOGUE), "-a", ANN, "-a", BOB, "-m", "Rat King=↓STR", "-m", "both:PER",
                      "-d", "str-low", cwd=tmp_path)
    assert target.returncode == 0, target.stderr
    out = target.stdout.decode(encoding)
    assert "deployed Meatshield: str-low (vSTR)" in out
    assert "monster 2 (v^PER): attacks Ann " in out
    assert ("×1" if encoding == "cp1252" else "x1") in out  # cp1252 has ×; ASCII gets x


@pytest.mark.parametrize("encoding", ["cp1252", "ascii"])
def test_errors_print_on_a_narrow_console(encoding: str, tmp_path: Path):
    result = tokengen(encoding, "target", "-c", str(CATALOGUE), "-a", ANN, "-m", "↓XYZ", cwd=tmp_path)
    assert result.returncode == 2
    err = result.stderr.decode(encoding)
    assert err.startswith("tokengen: error: ") and "internal error" not in err and "Traceback" not in err
    assert err.count("\n") == 1
