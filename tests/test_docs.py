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
    from tokengen._version import __version__

    result = run("--version")
    assert result.exit_code == 0 and result.stdout == f"tokengen, version {__version__}\n"


def test_readme_plate_examples_are_accepted(tmp_path):
    """Each `plate: ...` the README shows is what the template parser takes: a plate group name."""
    import re

    from tokengen import load_catalogue
    from tokengen.errors import CatalogueError

    shown = re.findall(r"plate: ([^,`}]+), plate_colour: (\"[^\"]*\")", README)
    assert shown == [("label", '"{background}"')]
    for name, colour in shown + [("true", '"#ffffff"')]:
        path = tmp_path / "plate.yaml"
        path.write_text("title: P\nfields: {name: text, background: colour}\ntemplate:\n"
                        f"  - {{text: \"{{name}}\", at: [0.5, 0.5], plate: {name}, plate_colour: {colour}}}\n"
                        "tokens:\n  - {name: A, background: \"#ffffff\"}\n", "utf-8")
        if name == "true":  # a boolean is refused: the README must not show one
            with pytest.raises(CatalogueError, match=r"plate.yaml:4: template\[0\]\.plate: expected a plate group name, got True"):
                load_catalogue(path)
        else:
            assert load_catalogue(path).tokens[0].template.elements[0].plate == name
