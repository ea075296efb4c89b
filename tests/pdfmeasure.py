"""Read a produced PDF back and measure it: cells, lines, fonts, text. Used only by tests."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
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


# ---- cuts: does a sheet show every cut? (was tokengen/preflight/cutcheck.py, used only here) ----

#: How far (pt) a mark may sit from the trim edge it marks: about 0.18 mm, well under a stroke.
CUT_TOL = 0.5

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1 in pt


def cuts(trims: Iterable[Rect]) -> tuple[list[float], list[float]]:
    """The distinct cuts of ``trims``: (xs of vertical trim edges, ys of horizontal), sorted,
    edges closer than :data:`CUT_TOL` counted once (neighbours that share an edge)."""
    xs: list[float] = []
    ys: list[float] = []
    for x0, y0, x1, y1 in trims:
        xs += [x0, x1]
        ys += [y0, y1]
    return _distinct(xs), _distinct(ys)


def _distinct(values: list[float]) -> list[float]:
    out: list[float] = []
    for v in sorted(values):
        if not out or v - out[-1] > CUT_TOL:
            out.append(v)
    return out


def unmarked_cuts(trims: Sequence[Rect], lines: Iterable[Rect], tol: float = CUT_TOL) -> list[str]:
    """Every cut (the x of a vertical trim edge or the y of a horizontal one, pt) of ``trims``
    that no stroked axis-parallel segment in ``lines`` lies on (within ``tol``), as messages such
    as ``"vertical cut at x = 126.00pt is not marked"``; empty when every cut is shown or the
    sheet holds fewer than two tokens (the page, or its TrimBox, is then the cut). Diagonal
    segments are ignored."""
    if len(trims) < 2:
        return []
    vertical, horizontal = [], []
    for x0, y0, x1, y1 in lines:
        if abs(x0 - x1) <= tol and abs(y1 - y0) > tol:
            vertical.append((x0 + x1) / 2)
        elif abs(y0 - y1) <= tol and abs(x1 - x0) > tol:
            horizontal.append((y0 + y1) / 2)
    xs, ys = cuts(trims)
    problems = [f"vertical cut at x = {x:.2f}pt is not marked" for x in xs if not any(abs(x - v) <= tol for v in vertical)]
    problems += [f"horizontal cut at y = {y:.2f}pt is not marked" for y in ys if not any(abs(y - h) <= tol for h in horizontal)]
    return problems
