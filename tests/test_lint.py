"""Cheap, strict tooling: ruff (pyflakes, bugbear, import order) over the package, tests and bench;
mypy over the package, which `make test` runs before pytest (not here: the lowest-versions run of
.ci/matrix installs the oldest mypy and stubs the test extra allows, whose verdicts differ)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.conftest import ROOT


def test_ruff_is_clean():
    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    if not Path(ruff).exists():
        pytest.skip("ruff is not installed (pip install -e '.[test]')")
    result = subprocess.run([ruff, "check", "--no-cache", "--output-format", "concise", "tokengen", "tests", "bench"],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_make_test_type_checks_the_package_and_builds_the_docs_before_pytest():
    recipe = re.search(r"^test:.*\n((?:\t.*\n)+)", (ROOT / "Makefile").read_text(), re.M)
    assert recipe is not None
    assert recipe.group(1).splitlines() == ["\t$(BIN)/python -m mypy", "\tNO_MKDOCS_2_WARNING=1 $(BIN)/python -m mkdocs build --strict --quiet",
                                             "\t$(BIN)/python -m pytest"]
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    mypy = project["tool"]["mypy"]
    assert (mypy["files"], mypy["python_version"], mypy["warn_unused_ignores"]) == (["tokengen"], "3.11", True)
    test_extra = {re.split(r"[<>=\[ ]", r)[0].lower() for r in project["project"]["optional-dependencies"]["test"]}
    assert {"mypy", "types-pyyaml", "types-jsonschema", "types-openpyxl", "types-psutil", "types-reportlab"} <= test_extra


def test_every_type_ignore_names_its_error_and_reason():
    """A `# type: ignore` silences one named error code and says why on the same line."""
    bare = []
    for path in sorted((ROOT / "tokengen").rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if "type: ignore" in line and not re.search(r"# type: ignore\[[a-z-]+(, [a-z-]+)*\]  # \S", line):
                bare.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not bare, "\n".join(bare)
