"""A broken game plug-in is named, left out, and the check goes on: one that raises
``SystemExit`` or ``KeyboardInterrupt`` (or anything else) on import, and one whose check
returns ``None`` instead of a list of findings (that module's fault, named, never exit 70)."""

from __future__ import annotations

import sys
import textwrap

import pytest

from tests.conftest import CATALOGUE
from tests.games.test_registry import BASE, write
from tokengen.games import registry as games


@pytest.fixture
def plugin(tmp_path, monkeypatch):
    """Install a fake distribution registering ``fakegame = fakegame_checks:MODULE`` whose
    module is the given source; yields an installer, cleans the module cache after."""
    site = tmp_path / "site"

    def install(source: str) -> None:
        (site / "fakegame-1.0.dist-info").mkdir(parents=True)
        (site / "fakegame-1.0.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: fakegame\nVersion: 1.0\n")
        (site / "fakegame-1.0.dist-info" / "entry_points.txt").write_text(
            "[tokengen.games]\nfakegame = fakegame_checks:MODULE\n")
        (site / "fakegame_checks.py").write_text(textwrap.dedent(source))
        monkeypatch.syspath_prepend(str(site))
        games.modules.cache_clear()

    yield install
    monkeypatch.undo()
    sys.modules.pop("fakegame_checks", None)
    games.modules.cache_clear()


@pytest.mark.parametrize(("source", "what"), [
    ("raise SystemExit(3)\n", "called sys.exit(3)"),
    ("raise KeyboardInterrupt\n", "raised KeyboardInterrupt"),
    ("import sys\nsys.exit()\n", "called sys.exit(None)"),
    ("raise ImportError('no module named fakegame_data')\n", "raised ImportError: no module named fakegame_data"),
    ("MODULE = 'not a module'\n", "gave a str, not a GameModule"),
])
def test_a_module_that_breaks_on_import_is_named_and_skipped(run, tmp_path, plugin, source, what):
    plugin(source)
    path = write(tmp_path)  # a catalogue naming no game: it was ended too
    result = run("check", str(path))
    assert result.exit_code == 0
    assert result.stderr == f"tokengen: warning: game module 'fakegame' (fakegame_checks:MODULE) skipped: it {what} when loaded\n"
    assert result.stdout.splitlines()[:2] == [f"{path}: playable (0 errors, 0 warnings, 1 info)", "checks: generic"]
    # the Meatshields catalogue goes on too, with the same one warning
    result = run("check", str(CATALOGUE))
    assert result.exit_code == 0 and result.stderr.count("skipped") == 1


def test_a_catalogue_naming_the_skipped_module_is_told_so(run, tmp_path, plugin):
    plugin("raise SystemExit(3)\n")
    path = write(tmp_path, BASE.replace("drawn_blind: true", "game: fakegame"))
    result = run("check", str(path))
    assert result.exit_code == 1
    assert "error unknown-game: game: no game module 'fakegame' is installed (installed: meatshields)" in result.stdout
    assert "skipped: it called sys.exit(3) when loaded" in result.stderr


@pytest.mark.parametrize(("body", "what"), [
    ("return None", "returned NoneType, not a list of findings"),
    ("return Finding('info', 'x', 'one')", "returned Finding, not a list of findings"),
    ("return ['a finding?']", "returned a str among its findings, not a Finding"),
])
def test_a_check_that_returns_no_list_is_that_modules_fault(run, tmp_path, plugin, body, what):
    plugin(f"""\
        from tokengen.games.registry import GameModule
        from tokengen.games.meatshields.rules.checks import Finding

        def count_names(catalogue, settings):
            {body}

        MODULE = GameModule("fakegame", "a test game", checks=(count_names,))
    """)
    result = run("check", str(write(tmp_path, BASE.replace("drawn_blind: true", "game: fakegame"))))
    assert result.exit_code == 2
    assert result.stderr == (f"tokengen: error: game module 'fakegame': its check fakegame_checks.count_names {what} "
                             "(a fault in that module, not in the catalogue or tokengen)\n")
