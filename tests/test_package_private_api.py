"""Libraries' internals only where named (issue 38): every use of another library's private API
in the package is listed here, with why, and a new one anywhere fails this test.

Every ``tokengen`` source file is read with ``ast``. A *private use* is
- an import of a module with an underscore segment (``openpyxl.worksheet._reader``), or of an
  underscore name from a library (``from x import _y``);
- an import from a library's internal modules (:data:`INTERNAL_MODULES`: uvicorn's protocol
  implementations, which its documentation does not offer);
- an underscore attribute that tokengen does not define itself, read or written
  (``sheet._shared_strings``, ``doc._update_ezdxf_metadata = …``), or named as a string to
  ``getattr``/``setattr``/``hasattr`` (``getattr(node, "_clip_shape")``);
- a module global of a library replaced (``pdfdoc.PDFFile = …``).

An underscore attribute is tokengen's own only where it can be nothing else: a name its classes
define (methods, class-level names, dataclass fields) or set on ``self``/``cls``, or a name read
through a tokengen module (``fonts._cache`` after ``from . import fonts``). A module-level
function of tokengen does not make the same name on a library's object its own: ``canvas._code``
is ReportLab's even though tokengen has a function ``_code``. ``os._exit`` is public
(documented in the standard library's ``os`` page) and is allowed everywhere.

The libraries covered are every one the package imports: ReportLab, openpyxl, svglib, ezdxf,
uvicorn, pikepdf, the standard library (``multiprocessing`` among it) and the rest.

The allowed uses stay until the issue that removes them; each library they reach into is
pinned below the next release that was not tested (``pyproject.toml``; the test reads it).
"""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "tokengen"

#: documented public names that begin with an underscore
PUBLIC_UNDERSCORE = {"_exit", "_asdict", "_replace", "_fields", "_make", "_missing_", "_value_", "_name_"}

#: library -> the prefix of its modules that are internal though their names have no underscore
INTERNAL_MODULES = {"uvicorn": "uvicorn.protocols", "h11": "h11._"}

#: file -> {private name: why it stays}; the library each reaches into is in PINNED.
ALLOWED: dict[str, dict[str, str]] = {
    "tokengen/sources/table.py": {
        "openpyxl.worksheet._reader": "one pass over a sheet's XML that keeps hidden rows and formulas (openpyxl)",
        "_shared_strings": "the shared strings the parser above needs (openpyxl)",
        "_get_source": "the sheet part's stream for the parser above (openpyxl)",
        "_date_formats": "the workbook's date formats for the parser above (openpyxl)",
        "_timedelta_formats": "the workbook's time formats for the parser above (openpyxl)",
        "_cell_styles": "a cell's number format (openpyxl keeps no public table of it in read-only mode)",
        "_number_formats": "the same, for custom formats (openpyxl)",
        "_fonts": "a cell's own font, to tell a rich-text run's font from it (openpyxl)",
    },
    "tokengen/faces/pagestream.py": {
        "_code": "the page being drawn, ended before the save as Canvas.save ends it (ReportLab)",
        "_doc": "ReportLab's document, for the streaming save of forms (ReportLab)",
        "_filename": "the save's file name (ReportLab)",
        "_savedToFile": "the canvas' saved mark, as ReportLab's own save sets it (ReportLab)",
        "_shadingUsed": "the shadings a form paints (ReportLab)",
        "_colorsUsed": "the separations a form paints (ReportLab)",
        "pdfdoc.PDFFile": "ReportLab's format() names this class at call time; swapped during the streaming save",
    },
    "tokengen/faces/render.py": {
        "_shadingUsed": "a form's shadings as its resources (ReportLab)",
        "_extgstate": "the same ExtGState ReportLab gives pages (ReportLab)",
    },
    "tokengen/faces/figures.py": {
        "_shadingUsed": "a gradient drawn in a form needs its /Shading entry (ReportLab 5.x gives none)",
        "_doc": "the document the forms are in (ReportLab)",
    },
    "tokengen/faces/svgart.py": {
        "_clip_shape": "svglib's clip path, walked for its colours (svglib)",
        "_rl_colors": "svglib's gradient stops, converted to CMYK (svglib)",
    },
    "tokengen/io/workers.py": {
        "_forkserver": "multiprocessing's fork server, stopped and waited for at exit (standard library)",
        "_stop": "the fork server's stop, which waits for it (standard library, Python 3.8 on)",
    },
    "tokengen/outputs/cutdxf.py": {
        "_update_ezdxf_metadata": "ezdxf stamps the time of day on each save: fixed for byte-identical DXF (ezdxf)",
    },
    "tokengen/web/server.py": {
        "uvicorn.protocols.http.h11_impl.H11Protocol": "a deadline for a request's headers (uvicorn has none)",
    },
}

#: library -> the upper bound pyproject.toml must give it while a use above reaches into it
PINNED = {"reportlab": "<5.2", "openpyxl": "<3.2", "svglib": "<2.4", "ezdxf": "<1.5", "uvicorn": "<0.56"}


def _private(name: str) -> bool:
    """An underscore name that is neither dunder, documented public, nor tokengen's own mark on a
    library's object (``_tokengen_pieces``)."""
    return name.startswith("_") and not name.startswith("__") and name not in PUBLIC_UNDERSCORE and not name.startswith("_tokengen")


def own_names(trees: dict[str, ast.Module]) -> set[str]:
    """The attribute names tokengen's classes define: their methods, class-level names and
    fields, and the attributes tokengen sets on ``self`` or ``cls``."""
    names: set[str] = set()
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                for statement in node.body:
                    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                        names.add(statement.name)
                    elif isinstance(statement, ast.Assign):
                        names.update(t.id for t in statement.targets if isinstance(t, ast.Name))
                    elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
                        names.add(statement.target.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) \
                    and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                names.add(node.attr)
    return names


def _tokengen_modules(tree: ast.Module) -> set[str]:
    """Names bound to tokengen's own modules (``from . import fonts``, ``import tokengen.x as y``):
    an underscore name read through one is tokengen's."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").split(".")[0] == "tokengen"):
            names.update(alias.asname or alias.name for alias in node.names if alias.name.islower())
        elif isinstance(node, ast.Import):
            names.update(alias.asname or alias.name for alias in node.names if alias.name.split(".")[0] == "tokengen")
    return names


def private_uses(source: str, own: set[str]) -> list[tuple[int, str]]:
    """Each private use of another library's API in ``source``: (line, name), sorted."""
    tree = ast.parse(source)
    ours = _tokengen_modules(tree)
    found: set[tuple[int, str]] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if any(map(_private, alias.name.split("."))):
                    found.add((node.lineno, alias.name))
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            if any(map(_private, node.module.split("."))):
                found.add((node.lineno, node.module))
            for alias in node.names:
                if _private(alias.name):
                    found.add((node.lineno, f"{node.module}.{alias.name}"))
                if node.module.split(".")[0] in INTERNAL_MODULES and node.module.startswith(INTERNAL_MODULES[node.module.split(".")[0]]):
                    found.add((node.lineno, f"{node.module}.{alias.name}"))
        elif isinstance(node, ast.Attribute) and _private(node.attr) and node.attr not in own \
                and not (isinstance(node.value, ast.Name) and node.value.id in ours):
            found.add((node.lineno, node.attr))
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and isinstance(node.value, ast.Name) \
                and node.value.id not in ("self", "cls") and node.value.id in _library_modules(tree) and node.attr[:1].isupper():
            found.add((node.lineno, f"{node.value.id}.{node.attr}"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "setattr", "hasattr") \
                and len(node.args) > 1 and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str) \
                and _private(node.args[1].value) and node.args[1].value not in own:
            found.add((node.lineno, node.args[1].value))
    return sorted(found)


def _library_modules(tree: ast.Module) -> set[str]:
    """Names bound to modules of other libraries by ``import`` / ``from x import module``."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names if not alias.name.startswith("tokengen"))
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level and not node.module.startswith("tokengen"):
            names.update(alias.asname or alias.name for alias in node.names if alias.name.islower())
    return names


def _sources() -> dict[str, ast.Module]:
    return {str(path.relative_to(ROOT)): ast.parse(path.read_text(encoding="utf-8")) for path in sorted(PACKAGE.rglob("*.py"))}


def test_the_rule_finds_what_it_should():
    own = {"_mine", "_helper"}
    bad = ("from openpyxl.worksheet._reader import WorkSheetParser\n"
           "from uvicorn.protocols.http.h11_impl import H11Protocol\n"
           "class P(H11Protocol):\n    pass\n"
           "x = sheet._shared_strings\n"
           "doc._update = 1\n"
           "getattr(node, '_clip_shape')\n"
           "from reportlab.pdfbase import pdfdoc\n"
           "pdfdoc.PDFFile = object\n"
           "from svglib import _x\n")
    assert [line for line, _ in private_uses(bad, own)] == [1, 2, 5, 6, 7, 9, 10]
    fine = ("import os\nos._exit(1)\nself._mine = 1\nx._helper()\nobj.__class__\nt._replace(a=1)\n"
            "class A:\n    def f(self):\n        return self._mine\n")
    assert private_uses(fine, own) == []


def test_every_private_use_is_named_and_nothing_else():
    trees = _sources()
    own = own_names(trees)
    unexpected = []
    for name in trees:
        allowed = ALLOWED.get(name, {})
        for line, used in private_uses((ROOT / name).read_text(encoding="utf-8"), own):
            if used not in allowed:
                unexpected.append(f"{name}:{line}: {used}")
    assert unexpected == [], "private API of a library used without a guard entry (tests/test_package_private_api.py)"


def test_every_allowed_use_still_exists():
    """An entry whose use is gone goes too, so that the list says what the code does."""
    trees = _sources()
    own = own_names(trees)
    stale = []
    for name, allowed in ALLOWED.items():
        used = {u for _, u in private_uses((ROOT / name).read_text(encoding="utf-8"), own)} if name in trees else set()
        stale += [f"{name}: {entry}" for entry in allowed if entry not in used]
    assert stale == []


def test_libraries_reached_into_are_pinned():
    """A library whose internals are used is capped below its first untested release."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    specs = list(project["dependencies"]) + [s for extra in project["optional-dependencies"].values() for s in extra]
    for library, bound in PINNED.items():
        declared = [s for s in specs if re.match(rf"{library}\b", s, re.IGNORECASE)]
        assert declared, library
        assert all(bound in s.replace(" ", "") for s in declared), (library, declared)


#: A private use of each library the issue names, as tokengen's code would write it.
LIBRARY_USES = {
    "ReportLab": "from reportlab.pdfgen.canvas import Canvas\nc = Canvas('x.pdf')\nif c._code:\n    pass\n",
    "openpyxl": "def f(sheet):\n    return sheet.parent._fonts[0]\n",
    "svglib": "from svglib.svglib import svg2rlg\nd = svg2rlg('x.svg')\nd.contents[0]._clip_shape\n",
    "ezdxf": "import ezdxf\ndoc = ezdxf.new()\ndoc._update_ezdxf_metadata = print\n",
    "uvicorn": "from uvicorn.protocols.http.h11_impl import H11Protocol\n",
    "multiprocessing": "from multiprocessing import forkserver\nstop = getattr(getattr(forkserver, '_forkserver'), '_stop')\n",
}


def test_each_library_named_is_covered_whatever_tokengen_calls_its_own():
    """Each library's private use is found with the package's own names in force: a function of
    tokengen called ``_code`` or ``_stop`` does not make ReportLab's ``canvas._code`` or
    multiprocessing's ``_stop`` tokengen's."""
    own = own_names(_sources())
    for library, source in LIBRARY_USES.items():
        assert private_uses(source, own), library


def test_a_module_function_of_ours_does_not_hide_a_library_private():
    trees = {"mine.py": ast.parse("def _code():\n    return 1\n\nclass A:\n    def _mine(self):\n        self._seen = 1\n")}
    own = own_names(trees)
    assert {"_mine", "_seen"} <= own and "_code" not in own
    assert private_uses("from reportlab.pdfgen.canvas import Canvas\nCanvas('x')._code\n", own) == [(2, "_code")]
    assert private_uses("from . import fonts\nfonts._cache\nx._mine()\n", own) == []


def test_reportlab_paragraph_shaping_is_as_fonts_kern_paragraphs_expects():
    """tokengen.sources.fonts.kern_paragraphs replaces the features ReportLab's paragraph shaping
    defaults to (not a private name, but not an offered setting either): the function it changes
    still takes them, and a shaped word is then kerned and not ligated."""
    import inspect

    from reportlab.pdfbase import ttfonts
    from reportlab.platypus import paragraph

    from tokengen.sources import fonts

    fonts.register_family()
    fonts.kern_paragraphs()
    assert paragraph.shapeFragWord is ttfonts.shapeFragWord  # the paragraph calls the function changed
    params = list(inspect.signature(ttfonts.shapeFragWord).parameters)
    assert params[:2] == ["w", "features"]
    assert ttfonts.shapeFragWord.__defaults__[0] == fonts._FEATURES
    shaped = ttfonts.shapeStr("first To", fonts.REGULAR, 10)
    assert str(shaped) == "first To"  # no ﬁ, ﬆ
    width = ttfonts.pdfmetrics.stringWidth(shaped, fonts.REGULAR, 10)  # measured as drawn: kerned
    assert abs(width - fonts.advance("first To", fonts.REGULAR, 10)) < 1e-9
