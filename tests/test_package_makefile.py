"""``make PYTHON=python3.13 test`` in a clone whose .venv was made by Python 3.11 rebuilds the
venv (it used to reuse it silently); the same Python keeps it. Run with ``make -n`` (nothing
executed but the version probes) on stand-in Pythons."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import ROOT

MAKE = shutil.which("make")
pytestmark = pytest.mark.skipif(MAKE is None or os.name == "nt", reason="needs make and a POSIX shell")


def _python(path: Path, version: str) -> Path:
    """A stand-in Python that answers every ``-c`` with ``version``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\necho {version}\n")
    path.chmod(0o755)
    return path


def _clone(tmp_path: Path, venv_version: str) -> Path:
    """A clone with a Makefile and a venv made by ``venv_version``, installed after pyproject.toml."""
    clone = tmp_path / "clone"
    clone.mkdir()
    shutil.copy(ROOT / "Makefile", clone / "Makefile")
    (clone / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    os.utime(clone / "pyproject.toml", (1_000_000, 1_000_000))
    _python(clone / ".venv" / "bin" / "python", venv_version)
    (clone / ".venv" / ".installed-stamp").touch()
    return clone


#: What `make test` runs once the venv is ready: mypy, the docs site, the suite.
TEST_RECIPE = [".venv/bin/python -m mypy", "NO_MKDOCS_2_WARNING=1 .venv/bin/python -m mkdocs build --strict --quiet", ".venv/bin/python -m pytest"]


def _dry_run(clone: Path, python: Path) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS", "MAKEOVERRIDES")}  # as from a shell, also under make test
    result = subprocess.run([MAKE, "-n", "--no-print-directory", f"PYTHON={python}", "test"], cwd=clone, capture_output=True, text=True,
                            timeout=60, env=env)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def test_another_python_rebuilds_the_venv(tmp_path: Path):
    python = _python(tmp_path / "py313", "3.13")
    lines = _dry_run(_clone(tmp_path, "3.11"), python)
    assert lines[0].startswith('if [ -n "3.11" ]; then echo ".venv was made with Python 3.11; '
                               f'rebuilding it with {python} (3.13)"')
    assert "rm -rf .venv; fi" in lines[1]
    assert f"{python} -m venv .venv" in lines
    assert lines[-3:] == TEST_RECIPE


def test_the_same_python_keeps_the_venv(tmp_path: Path):
    lines = _dry_run(_clone(tmp_path, "3.11"), _python(tmp_path / "py311", "3.11"))
    assert lines == TEST_RECIPE
