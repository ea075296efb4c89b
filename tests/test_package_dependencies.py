"""Every module the package imports is a declared dependency (issue 38).

Each ``import`` in ``tokengen/`` is read with ``ast``; a top-level module that is neither the
standard library's (``sys.stdlib_module_names``) nor tokengen's must come from a distribution
named in ``pyproject.toml``'s ``dependencies`` or one of its extras (the web page's modules may
come from the ``web`` extra, the DXF writer's from its own). A module that only arrives because
another dependency happens to need it today (``lxml`` through svglib, ``h11`` through uvicorn,
``referencing`` through jsonschema) can leave with that dependency's next release.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def declared() -> set[str]:
    """The distribution names pyproject.toml declares, in dependencies and every extra (normalised)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    specs = list(project["dependencies"]) + [s for extra in project["optional-dependencies"].values() for s in extra]
    return {_norm(re.split(r"[\s<>=!~;\[]", s, maxsplit=1)[0]) for s in specs}


def imported() -> dict[str, str]:
    """Every top-level module the package imports that is not the standard library's or its own -> a file:line."""
    found: dict[str, str] = {}
    for path in sorted((ROOT / "tokengen").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module] if isinstance(node, ast.ImportFrom) and node.module and not node.level else []
            for name in names:
                top = name.split(".")[0]
                if top != "tokengen" and top not in sys.stdlib_module_names:
                    found.setdefault(top, f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_every_imported_module_is_declared():
    providers = packages_distributions()
    names = declared()
    missing = {top: where for top, where in imported().items()
               if not any(_norm(dist) in names for dist in providers.get(top, [top]))}
    assert missing == {}, "imported but not declared in pyproject.toml"


def test_the_rule_sees_an_undeclared_import():
    assert "yaml" in imported() and "pyyaml" in declared()
    assert _norm("PyYAML") == "pyyaml" and _norm("rl_accel") == "rl-accel"
