"""Docs that cannot drift: every command has help with an example and a section in the README."""

from __future__ import annotations

import pytest
from conftest import ROOT

from tokengen.cli import cli

README = (ROOT / "README.md").read_text(encoding="utf-8")
COMMANDS = sorted(cli.commands)


def test_there_are_commands():
    assert {"build", "check", "target", "export", "preflight", "align"} <= set(COMMANDS)


@pytest.mark.parametrize("name", COMMANDS)
def test_command_help_has_an_example(run, name: str):
    result = run(name, "--help")
    assert result.exit_code == 0
    assert "Example" in result.stdout
    assert f"tokengen {name}" in result.stdout


@pytest.mark.parametrize("name", COMMANDS)
def test_command_is_in_the_readme(name: str):
    assert f"tokengen {name}" in README


def test_readme_shows_the_two_setup_commands():
    assert "make pdf" in README and "make test" in README


def test_version(run):
    from tokengen import __version__

    result = run("--version")
    assert result.exit_code == 0 and result.stdout == f"tokengen, version {__version__}\n"
