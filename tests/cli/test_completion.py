"""Shell completion (click's) of commands, page names (ours and ReportLab's) and profile names,
and ReportLab's page names on --page (issue 11)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tokengen.units import PT_PER_MM, page_names, parse_page


def complete(words: str, cwd: Path) -> list[str]:
    """What bash completion offers for the last word of ``words`` (``tokengen …``)."""
    env = {**os.environ, "_TOKENGEN_COMPLETE": "bash_complete", "COMP_WORDS": words,
           "COMP_CWORD": str(len(words.split()) - (0 if words.endswith(" ") else 1))}
    code = "import sys; sys.argv[0] = 'tokengen'; from tokengen.cli import run; run()"
    result = subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return [line.split(",", 1)[1] for line in result.stdout.splitlines()]


def test_page_names_complete_with_reportlabs_own(tmp_path: Path):
    assert complete("tokengen build --page a", tmp_path) == ["a4", "a3", "a0", "a1", "a2", "a5", "a6", "a7", "a8", "a9", "a10"]
    assert "half_letter" in complete("tokengen batch --page h", tmp_path)
    assert complete("tokengen check --page b1", tmp_path) == ["b1", "b10"]
    assert complete("tokengen align --page le", tmp_path) == ["letter", "legal", "ledger"]


def test_profile_names_complete_from_an_empty_folder(tmp_path: Path):
    from tokengen.sources.profiles import load_profiles

    assert complete("tokengen export --profile ", tmp_path) == list(load_profiles())
    assert {"home", "print-shop", "tgc-chits"} <= set(load_profiles())
    assert complete("tokengen preflight x.pdf --profile t", tmp_path) == [
        "tgc-chits", "tts", "tgc-poker", "tgc-euro-poker", "tgc-mini", "tgc-bridge", "tgc-square", "tgc-small-square", "tgc-tarot",
        "tgc-square-chit-large", "tgc-square-chit-medium",
        "tgc-square-chit-small", "tgc-round-chit-large", "tgc-round-chit-medium", "tgc-round-chit-small",  # the product presets (issue 26)
            "tgc-hex-chit-large", "tgc-hex-chit-medium", "tgc-hex-chit-small"]
    assert complete("tokengen preflight x.pdf --profile tgc-c", tmp_path) == ["tgc-chits"]


def test_commands_complete(tmp_path: Path):
    assert complete("tokengen i", tmp_path) == ["init"]


@pytest.mark.parametrize("name, mm", [("A5", (148, 210)), ("b5", (176, 250)), ("c4", (229, 324)), ("a0", (841, 1189))])
def test_reportlab_page_names_are_accepted(name: str, mm: tuple[int, int]):
    width, height = parse_page(name)
    assert (round(width / PT_PER_MM), round(height / PT_PER_MM)) == mm


def test_our_names_come_first_and_keep_their_sizes():
    assert page_names()[:5] == ["letter", "legal", "tabloid", "a4", "a3"]
    assert parse_page("letter") == (612.0, 792.0)
    with pytest.raises(ValueError, match="a ReportLab page name"):
        parse_page("folio")
