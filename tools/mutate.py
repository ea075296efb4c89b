"""Mutation testing of tokengen's core pure modules with mutmut 3 (``make mutate``; not part of ``make test``).

Each module in ``[tool.tokengen.mutate]`` of pyproject.toml is mutated on its own, in its own scratch folder
(``.mutate/<module>/``), with only its own tests selected, one worker, and a time budget. The shared mutmut
settings come from ``[tool.mutmut]``. Mutants listed as equivalent in ``mutation-equivalents.md`` (one bullet
per mutant, starting with its mutmut name in backticks) are counted apart, so the score is

    killed / (mutants - equivalent)

and a listed mutant that no longer survives (or no longer exists) is reported, so the list cannot go stale
unnoticed. Usage::

    python tools/mutate.py                      # every module, in the order of the table
    python tools/mutate.py tokengen/units.py    # one module
    python tools/mutate.py --budget 900 ...     # seconds per module (default 1200)
    python tools/mutate.py --report ...         # the last run's figures again, nothing re-run

Exit status: 0 when every module reaches the target (95 %), 1 otherwise, 2 on bad usage.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tomllib
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRATCH = ROOT / ".mutate"
EQUIVALENTS = ROOT / "mutation-equivalents.md"
TARGET = 0.95
#: what each scratch folder gets besides the package and the tests (read by the tests at run time)
SHARED = ["tokengen", "tests", "fonts", "token_defs.yaml", "examples", "README.md", "docs", "mkdocs.yml", "tools", "CHANGELOG.md"]


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} as TOML")


def _table(name: str, values: dict) -> str:
    return f"[{name}]\n" + "".join(f"{key} = {_toml_value(v)}\n" for key, v in values.items())


def equivalents() -> dict[str, str]:
    """Mutant name → the bullet that lists it, from mutation-equivalents.md."""
    found = {}
    for line in EQUIVALENTS.read_text("utf-8").splitlines() if EQUIVALENTS.exists() else []:
        match = re.match(r"\s*[-*]\s*`(tokengen\.[\w.]+__mutmut_\d+)`", line)
        if match:
            found[match.group(1)] = line.strip()
    return found


def _slug(module: str) -> str:
    return module.replace("/", "_").removesuffix(".py")


def prepare(module: str, tests: list[str], settings: dict, pytest_opts: dict) -> Path:
    """Make ``.mutate/<module>/`` with fresh copies of the sources and a pyproject.toml for this module only."""
    folder = SCRATCH / _slug(module)
    folder.mkdir(parents=True, exist_ok=True)
    # mutmut keeps a mutant's verdict while its function is unchanged, even when the tests changed:
    # start from nothing, so every figure is measured against the tests as they are now
    shutil.rmtree(folder / "mutants", ignore_errors=True)
    for name in SHARED:
        src, dst = ROOT / name, folder / name
        if dst.is_dir():
            shutil.rmtree(dst)
        elif dst.exists():
            dst.unlink()
        if src.is_dir():
            shutil.copytree(src, dst, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        elif src.exists():
            shutil.copy2(src, dst)
    mutmut = {**settings, "only_mutate": [module], "pytest_add_cli_args_test_selection": tests}
    (folder / "pyproject.toml").write_text(_table("tool.mutmut", mutmut) + "\n" + _table("tool.pytest.ini_options", pytest_opts),
                                           "utf-8")
    return folder


def run_module(module: str, tests: list[str], settings: dict, pytest_opts: dict, budget: float,
               again: bool = True) -> dict[str, str] | None:
    """Run mutmut on one module (unless ``again`` is false: then read the last run's results); returns
    mutant name → status, or None when the budget ran out."""
    mutmut = [sys.executable, "-m", "mutmut"]
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    folder = SCRATCH / _slug(module)
    if not again and (folder / "mutants").is_dir():
        return _results(folder, mutmut, env)
    folder = prepare(module, tests, settings, pytest_opts)
    print(f"== {module}: mutmut with {' '.join(tests)} (budget {budget:.0f} s)", flush=True)
    try:
        with open(folder / "mutmut.log", "w") as log:
            subprocess.run([*mutmut, "run", "--max-children", "1"], cwd=folder, env=env, timeout=budget,
                           stdout=log, stderr=subprocess.STDOUT, check=False)
    except subprocess.TimeoutExpired:
        print(f"   {module}: stopped after {budget:.0f} s (raise it with --budget); log in {folder / 'mutmut.log'}", flush=True)
        return None
    return _results(folder, mutmut, env)


def _results(folder: Path, mutmut: list[str], env: dict) -> dict[str, str]:
    out = subprocess.run([*mutmut, "results", "--all", "true"], cwd=folder, env=env, capture_output=True, text=True, check=True)
    statuses = {}
    for line in out.stdout.splitlines():
        match = re.match(r"\s*(tokengen\.\S+__mutmut_\d+): (.+)$", line.strip())
        if match:
            statuses[match.group(1)] = match.group(2).strip()
    return statuses


def report(module: str, statuses: dict[str, str], listed: dict[str, str]) -> bool:
    """Print the module's figures; True when it reaches the target."""
    prefix = "tokengen." + module.removeprefix("tokengen/").removesuffix(".py").replace("/", ".") + "."
    mine = {name: status for name, status in statuses.items() if name.startswith(prefix)}
    # a mutant that makes the tests run for ever is noticed: mutmut's "timeout" counts as killed
    counts = Counter("killed" if status == "timeout" else status for status in mine.values())
    survivors = sorted(name for name, status in mine.items() if status not in ("killed", "timeout"))
    equivalent = [name for name in survivors if name in listed]
    stale = sorted(name for name in listed if name.startswith(prefix) and mine.get(name) in (None, "killed", "timeout"))
    real = len(mine) - len(equivalent)
    score = counts["killed"] / real if real else 1.0
    timeouts = sum(status == "timeout" for status in mine.values())
    print(f"   {module}: {len(mine)} mutants, killed {counts['killed']} ({timeouts} by timeout), not killed {len(survivors)} "
          f"({len(equivalent)} listed equivalent) -> {100 * score:.1f} % of non-equivalent mutants killed")
    if mine and counts["not checked"] == len(mine):
        print(f"   {module}: mutmut could not run the tests (see {SCRATCH.name}/{_slug(module)}/mutmut.log)")
        return False
    other = {status: n for status, n in counts.items() if status not in ("killed", "survived")}
    if other:
        print(f"   {module}: not killed and not plainly survived: {other}")
    for name in survivors:
        if name not in listed:
            print(f"   not killed: {name} ({mine[name]})   show it: cd {SCRATCH.name}/{_slug(module)} && ../../.venv/bin/mutmut show {name}")
    for name in stale:
        print(f"   listed as equivalent but {'killed' if name in mine else 'no longer generated'}: {name}")
    return score >= TARGET


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", help="modules to mutate (default: every module in [tool.tokengen.mutate])")
    parser.add_argument("--budget", type=float, default=1200.0, help="seconds per module (default 1200)")
    parser.add_argument("--report", action="store_true", help="only print the figures of the last run (after editing the equivalents)")
    args = parser.parse_args(argv)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    settings = project["tool"]["mutmut"]
    table = project["tool"]["tokengen"]["mutate"]
    pytest_opts = project["tool"]["pytest"]["ini_options"]
    unknown = [m for m in args.modules if m not in table]
    if unknown:
        parser.error(f"not in [tool.tokengen.mutate]: {', '.join(unknown)} (known: {', '.join(table)})")
    listed = equivalents()
    ok = True
    for module in args.modules or list(table):
        if not (ROOT / module).exists():
            print(f"== {module}: not in this tree yet, skipped")
            continue
        statuses = run_module(module, table[module], settings, pytest_opts, args.budget, again=not args.report)
        ok = (statuses is not None and report(module, statuses, listed)) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
