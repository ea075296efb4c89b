"""The package's floors: every module imports only from its own floor or lower ones.

The imports are read with ``ast`` from every ``tokengen`` source file, including imports inside
functions and under ``if TYPE_CHECKING:`` (a lazy import that reaches upward is still an upward
import). The package's own ``__init__`` is left out: it is the facade, holding ``__version__``
and loading its public names on first use (PEP 562), so every floor may read ``__version__``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "tokengen"

#: The floors, lowest first. A module may import its own floor and any floor below it.
FLOORS: list[tuple[str, set[str]]] = [
    ("values", {"_startup", "console", "cutcheck", "errors", "interpretations", "limits", "model", "scripts",
                "streams", "testhook", "units", "sources"}),
    ("services", {"artpath", "atomic", "bundled", "colour", "fonts", "guard", "pdfwalk", "schemas", "workers", "yamlsrc"}),
    ("geometry, art and page set-up", {"imposition", "shapes", "foldover", "furniture", "alignlayout", "cutsvg",
                                       "pagesetup", "art", "emblem", "pdfx", "textfit"}),
    ("sources and options", {"gamedata", "sources.table", "sources.fields", "catalogue", "template", "beneath", "facedraw",
                             "profiles", "options"}),
    ("drawing and checking", {"render", "scale", "rules", "rules.bag", "rules.targeting", "rules.checks",
                              "rules.scenario", "preflight"}),
    ("sheet parts", {"backs", "aligntest", "rulesheet", "games", "games.generic", "games.meatshields"}),
    ("build", {"build"}),
    ("outputs", {"export", "batch", "preview", "watch"}),
    ("front ends", {"completion", "cli", "web", "web.server", "__main__"}),
]

#: Circles inside one floor that are known and left for later (each pair imports the other,
#: one side lazily). Any other circle fails.
KNOWN_CIRCLES = [
    {"cli", "web.server"},
]


def _name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_module(name: str) -> bool:
    base = PACKAGE.joinpath(*name.split(".")) if name else PACKAGE
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def imports() -> dict[str, set[str]]:
    """Module name (relative to ``tokengen``) → the tokengen modules it imports anywhere in it."""
    graph: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        name = _name(path)
        if not name:
            continue  # the package facade (see the module docstring)
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package[: len(package) - (node.level - 1)] + ([node.module] if node.module else [])
                elif (node.module or "").split(".")[0] == "tokengen":
                    base = node.module.split(".")[1:]
                else:
                    continue
                for alias in node.names:  # `from . import duplex` names a module; `from .x import y` a name in x
                    candidate = ".".join([*base, alias.name])
                    found.add(candidate if _is_module(candidate) else ".".join(base))
            elif isinstance(node, ast.Import):
                found.update(".".join(a.name.split(".")[1:]) for a in node.names if a.name.split(".")[0] == "tokengen")
        found.discard("")  # `from . import __version__`: the facade
        found.discard(name)
        graph[name] = found
    return graph


def floor_of() -> dict[str, int]:
    return {module: n for n, (_, modules) in enumerate(FLOORS) for module in modules}


def test_every_module_has_a_floor():
    floors = floor_of()
    assert sum(len(m) for _, m in FLOORS) == len(floors), "a module is listed on two floors"
    assert sorted(set(imports()) - set(floors)) == [], "new module: add it to FLOORS in tests/test_layers.py"
    assert sorted(set(floors) - set(imports())) == [], "FLOORS names a module that no longer exists"


def test_no_module_imports_a_higher_floor():
    floors = floor_of()
    upward = [f"{m} ({FLOORS[floors[m]][0]}) imports {d} ({FLOORS[floors[d]][0]})"
              for m, deps in sorted(imports().items()) for d in sorted(deps) if floors[d] > floors[m]]
    assert upward == []


def _circles(graph: dict[str, set[str]]) -> list[set[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative enough for ~60 nodes)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(component)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_new_import_circles():
    assert sorted(map(sorted, _circles(imports()))) == sorted(map(sorted, KNOWN_CIRCLES))


@pytest.mark.parametrize("lower, upper", [("backs", "build"), ("aligntest", "build"), ("rulesheet", "backs"), ("rulesheet", "build")])
def test_build_backs_and_rulesheet_do_not_import_upward(lower: str, upper: str):
    """The circle this layout broke (build → duplex → build, rulesheet → duplex; duplex is now backs,
    aligntest and pagesetup) stays broken."""
    assert upper not in imports()[lower]


def test_the_walker_sees_lazy_and_type_checking_imports():
    graph = imports()
    assert "rulesheet" in graph["build"]  # imported inside build_pdf
    assert "render" in graph["backs"]  # inside functions and under TYPE_CHECKING
    assert "options" in graph["backs"]  # under TYPE_CHECKING only
