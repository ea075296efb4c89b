"""Rough edges the new users of issue 43 met on the command line, each as they met it."""

from __future__ import annotations

import shlex
from pathlib import Path


def test_check_of_a_bundled_catalogue_names_it_not_the_package_folder(run, tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("check", "meatshields")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "meatshields: playable (0 errors, 0 warnings, 4 infos)"
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
