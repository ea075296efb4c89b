"""The distribution name on the package index (issue 43): ``tokengen`` there is another project, so
the distribution is ``tokengen-print``; the import package and the command stay ``tokengen``."""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIST = "tokengen-print"


def test_the_distribution_name_is_ours() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["name"] == DIST
    assert project["scripts"] == {"tokengen": "tokengen.cli:run"}


def _install_lines() -> list[tuple[str, str]]:
    files = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), *sorted((ROOT / "tokengen").rglob("*.py")),
             *sorted((ROOT / "tokengen" / "web" / "static").glob("*"))]
    found = []
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            if re.search(r"(pip|pipx|uv pip) install", line):
                found.append((path.relative_to(ROOT).as_posix(), line))
    return found


def test_every_install_line_names_the_distribution_not_the_other_project() -> None:
    lines = _install_lines()
    assert lines
    # `pip install tokengen`, `'tokengen[web]'` or `tokengen-*.whl` would fetch or match the other project
    wrong = [(f, line) for f, line in lines
             if re.search(r"install\s+(?:--?[\w-]+\s+)*(?:[^\s]*/)?['\"]?tokengen(?![-_]print)(?:\[|-\*|\b)", line)]
    assert wrong == []
    extras = [name for _, line in lines for name in re.findall(r"install\s+(?:-e\s+)?['\"]?([\w.-]+)\[", line)]
    assert set(extras) <= {DIST, "."}
