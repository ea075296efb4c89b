"""The package's floors: every module imports only from its own package's floor or lower ones.

The package is laid out by concern, one folder a floor (README, "How the package is layered"):
the ground floor's modules, ``io/``, ``geometry/``, ``sources/``, ``faces/``, ``preflight/``,
``games/``, ``outputs/``, then the front ends ``cli/`` and ``web/``, and last the facade
(``tokengen/__init__.py``), which loads its public names on first use (PEP 562). The imports are
read with ``ast`` from every ``tokengen`` source file, including imports inside functions and
under ``if TYPE_CHECKING:`` (a lazy import that reaches upward is still an upward import), and
the facade is counted like any module: a module that imports ``tokengen`` itself imports the top.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "tokengen"

#: The floors, lowest first: a top-level name (a package, or a module on the ground floor) → its
#: floor. A module may import its own floor and any floor below it.
FLOORS: list[tuple[str, set[str]]] = [
    ("ground", {"_version", "_startup", "errors", "units", "model", "limits", "colour"}),
    ("io", {"io"}),
    ("geometry", {"geometry"}),
    ("sources", {"sources"}),
    ("faces", {"faces"}),
    ("preflight", {"preflight"}),
    ("games", {"games"}),
    ("outputs", {"outputs"}),
    ("front ends", {"cli", "web", "__main__"}),
    ("facade", {""}),
]

#: Circles that are known and left for later (each pair imports the other, one side lazily).
#: Any other circle fails.
KNOWN_CIRCLES: list[set[str]] = []


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
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        if not name:
            package = []
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
        found.discard(name)
        graph[name] = found
    return graph


def _top(module: str) -> str:
    return module.split(".")[0]


def floor_of() -> dict[str, int]:
    """Every module of the package → its floor (the floor of its top-level name)."""
    tops = {top: n for n, (_, names) in enumerate(FLOORS) for top in names}
    return {module: tops[_top(module)] for module in imports() if _top(module) in tops}


def test_every_module_has_a_floor():
    tops = [top for _, names in FLOORS for top in names]
    assert len(tops) == len(set(tops)), "a name is listed on two floors"
    assert sorted(set(imports()) - set(floor_of())) == [], "new top-level module or package: add it to FLOORS in tests/test_layers.py"
    assert sorted(set(tops) - {_top(m) for m in imports()}) == [], "FLOORS names a module that no longer exists"


def test_no_module_imports_a_higher_floor():
    floors = floor_of()
    upward = [f"{m} ({FLOORS[floors[m]][0]}) imports {d} ({FLOORS[floors[d]][0]})"
              for m, deps in sorted(imports().items()) for d in sorted(deps) if floors[d] > floors[m]]
    assert upward == []


def test_the_facade_is_counted():
    """The facade imports the modules that hold its public names; nothing imports the facade."""
    graph = imports()
    assert {"outputs.build", "sources.catalogue", "_version", "_startup"} <= graph[""]
    assert [m for m, deps in graph.items() if "" in deps] == []


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


def test_the_page_imports_nothing_from_the_cli():
    """``web/`` is a front end of its own over the library: none of its modules imports ``cli``
    or anything in it (sqlite-utils: the library never imports the CLI; here neither does the page)."""
    graph = imports()
    web = [m for m in graph if m == "web" or m.startswith("web.")]
    assert {"web", "web.server", "web.jobs"} <= set(web)
    assert [(m, d) for m in sorted(web) for d in sorted(graph[m]) if d == "cli" or d.startswith("cli.")] == []


@pytest.mark.parametrize("lower, upper", [("outputs.backs", "outputs.build"), ("outputs.aligntest", "outputs.build"),
                                          ("games.meatshields.rulesheet", "outputs.backs"), ("games.meatshields.rulesheet", "outputs.build")])
def test_build_backs_and_rulesheet_do_not_import_upward(lower: str, upper: str):
    """The circle this layout broke (build → duplex → build, rulesheet → duplex; duplex is now backs,
    aligntest and pagesetup) stays broken."""
    assert upper not in imports()[lower]


def test_the_walker_sees_lazy_and_type_checking_imports():
    graph = imports()
    assert "games.meatshields.rulesheet" in graph["outputs.build"]  # imported inside build_pdf
    assert "faces.render" in graph["outputs.backs"]  # inside functions and under TYPE_CHECKING
    assert "outputs.options" in graph["outputs.backs"]  # under TYPE_CHECKING only
