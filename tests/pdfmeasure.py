"""Read a produced PDF back and measure it: cells, lines, fonts, text. Used only by tests."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pdfplumber
from pypdf import PdfReader
from pypdf.generic import DictionaryObject, IndirectObject


@dataclass(frozen=True)
class Box:
    """A rectangle in PDF points with the origin at the lower-left of the page."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def w(self) -> float:
        return self.x1 - self.x0

    @property
    def h(self) -> float:
        return self.y1 - self.y0


def cells(path: Path, page: int = 0, size: float = 72.0, tol: float = 0.01) -> list[Box]:
    """Filled square rectangles of ``size`` pt on ``page``: the face backgrounds (bleed 0)."""
    with pdfplumber.open(path) as pdf:
        p = pdf.pages[page]
        return sorted(
            (Box(r["x0"], r["y0"], r["x1"], r["y1"]) for r in p.rects
             if r["fill"] and abs(r["width"] - size) <= tol and abs(r["height"] - size) <= tol),
            key=lambda b: (-b.y0, b.x0),
        )


def lines(path: Path, page: int = 0) -> list[dict]:
    """Every straight stroked line on ``page`` (pdfplumber dicts: x0, y0, x1, y1, linewidth)."""
    with pdfplumber.open(path) as pdf:
        return list(pdf.pages[page].lines)


def rects(path: Path, page: int = 0) -> list[dict]:
    with pdfplumber.open(path) as pdf:
        return list(pdf.pages[page].rects)


def chars(path: Path, page: int = 0) -> list[dict]:
    """Every character drawn on ``page`` with its box (x0, x1, y0 = bottom, y1 = top in PDF space)."""
    with pdfplumber.open(path) as pdf:
        p = pdf.pages[page]
        return [dict(c, y0=p.height - c["bottom"], y1=p.height - c["top"]) for c in p.chars]


def text(path: Path) -> str:
    with pdfplumber.open(path) as pdf:
        return "\n".join(p.extract_text() or "" for p in pdf.pages)


def fonts(path: Path) -> list[DictionaryObject]:
    """Every font dictionary reachable from the document catalogue (pages, forms, descendants)."""
    reader = PdfReader(path)
    found: list[DictionaryObject] = []
    seen: set[int] = set()
    stack: list = [reader.trailer["/Root"]]
    while stack:
        obj = stack.pop()
        if isinstance(obj, IndirectObject):
            if obj.idnum in seen:
                continue
            seen.add(obj.idnum)
            obj = obj.get_object()
        if isinstance(obj, DictionaryObject):
            if obj.get("/Type") == "/Font":
                found.append(obj)
            stack.extend(v for k, v in obj.items() if k != "/Parent")
        elif isinstance(obj, list):
            stack.extend(obj)
    return found


def embedded(font: DictionaryObject) -> bool:
    """True when the font (or its descendant) carries its program (FontFile, FontFile2, FontFile3)."""
    if "/DescendantFonts" in font:
        return all(embedded(d.get_object()) for d in font["/DescendantFonts"])
    descriptor = font.get("/FontDescriptor")
    if descriptor is None:
        return False
    descriptor = descriptor.get_object()
    return any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))
