"""The package uses only the public API of the libraries it reads PDFs with (issue 22).

Every ``tokengen`` source file is read with ``ast``: no module imports a private pikepdf module
(``pikepdf._core``, ``from pikepdf import _x``) or touches an underscore attribute through
``pikepdf`` (``pikepdf._x``, ``self.pikepdf.Object._parse_stream``), and no module that imports
pikepdf reads a private attribute of pikepdf's own classes (``obj._type_code``, whatever the
object is called). pypdf and pdfplumber are test-only dependencies: no module imports them.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pikepdf

PACKAGE = Path(__file__).resolve().parent.parent / "tokengen"

#: The private (single-underscore) attributes of pikepdf's public classes, read from pikepdf itself.
PIKEPDF_PRIVATE = {name for cls in (pikepdf.Object, pikepdf.Page, pikepdf.Pdf, pikepdf.Stream, pikepdf.Dictionary,
                                    pikepdf.Array, pikepdf.Name, pikepdf.String, pikepdf.Operator, pikepdf.StreamParser,
                                    pikepdf.PdfImage, pikepdf.PdfInlineImage, pikepdf.ContentStreamInstruction,
                                    pikepdf.ContentStreamInlineImage, pikepdf.Matrix)
                   for name in dir(cls) if name.startswith("_") and not name.startswith("__")}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _chain(node: ast.expr) -> list[str]:
    """``a.b.c`` → ["a", "b", "c"] (a call or subscript ends the chain on its left)."""
    names: list[str] = []
    while isinstance(node, ast.Attribute):
        names.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        names.append(node.id)
    return names[::-1]


def offences(source: str) -> list[str]:
    """What in ``source`` uses private pikepdf API or imports pypdf/pdfplumber, one line each."""
    tree = ast.parse(source)
    found: list[tuple[int, str]] = []
    uses_pikepdf = False
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                top, *rest = alias.name.split(".")
                uses_pikepdf |= top == "pikepdf"
                if top in ("pypdf", "pdfplumber"):
                    found.append((node.lineno, f"line {node.lineno}: import {alias.name}"))
                elif top == "pikepdf" and any(map(_private, rest)):
                    found.append((node.lineno, f"line {node.lineno}: import {alias.name}"))
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            top, *rest = node.module.split(".")
            uses_pikepdf |= top == "pikepdf"
            if top in ("pypdf", "pdfplumber"):
                found.append((node.lineno, f"line {node.lineno}: from {node.module} import …"))
            elif top == "pikepdf" and (any(map(_private, rest)) or any(_private(a.name) for a in node.names)):
                found.append((node.lineno, f"line {node.lineno}: from {node.module} import {', '.join(a.name for a in node.names)}"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            chain = _chain(node)
            if "pikepdf" in chain[:-1] or (uses_pikepdf and node.attr in PIKEPDF_PRIVATE):
                found.append((node.lineno, f"line {node.lineno}: .{node.attr} ({'.'.join(chain) or '…'})"))
    return [text for _, text in sorted(found)]


def test_the_rule_finds_what_it_should():
    assert PIKEPDF_PRIVATE >= {"_parse_stream", "_type_code"}
    bad = ("import pikepdf\nimport pypdf\nfrom pdfplumber.page import Page\nfrom pikepdf._core import Object\n"
           "from pikepdf import _core\nimport pikepdf._core\n"
           "pikepdf.Object._parse_stream(s, r)\nself.pikepdf._x\nok = obj._type_code == 1\n")
    assert [line.split(":")[0] for line in offences(bad)] == [f"line {n}" for n in (2, 3, 4, 5, 6, 7, 8, 9)]
    fine = ("import pikepdf\nimport pypdfium2\nself._active = set()\npikepdf.parse_content_stream(s)\n"
            "isinstance(o, pikepdf.Operator)\nobj.__class__\n")
    assert offences(fine) == []
    assert offences("x._type_code\n") == []  # only where pikepdf is imported


def test_no_module_uses_private_pikepdf_api_or_imports_pypdf_or_pdfplumber():
    found = [f"{path.relative_to(PACKAGE.parent)} {offence}"
             for path in sorted(PACKAGE.rglob("*.py")) for offence in offences(path.read_text(encoding="utf-8"))]
    assert found == []
