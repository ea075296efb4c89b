"""Cut files for cutting plotters and laser cutters: one SVG per sheet, in mm, of every token's
cut outline (``tokengen export --profile cut-svg``).

Each SVG has the sheet's page size (``width="215.9mm"``, ``viewBox`` in mm, y down as SVG has
it) and one ``<path>`` per token: the same :func:`tokengen.geometry.shapes.outline` data the PDF's cut
guides are drawn from, so a cutter follows exactly the lines printed. With registration marks
(profile mark ``registration``) the SVG and the PDF sheet both carry three marks at the sheet
corners — a filled square at the top left, corner brackets at the top right and bottom left —
that print-and-cut machines (Silhouette, Cricut, Brother ScanNCut style) find optically; the
profile's margin must leave room for them outside the tokens.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ..errors import LayoutError
from ..geometry import pager, shapes
from ..geometry.imposition import PageLayout, Rect, SheetSpec
from ..geometry.shapes import Outline

#: Millimetres per point.
MM_PER_PT = 25.4 / 72
#: Registration marks: distance from the page edges, side of the square / arm of a bracket, and
#: the bracket stroke, in pt (1/4 in, 5 mm, 0.5 mm).
REG_INSET = 18.0
REG_SIZE = 5 / MM_PER_PT
REG_STROKE = 0.5 / MM_PER_PT


@dataclass(frozen=True)
class Mark:
    """A registration mark: an outline (pt), filled or stroked."""

    outline: Outline
    filled: bool


def registration_marks(page: tuple[float, float]) -> list[Mark]:
    """The three registration marks of a ``page`` (width, height) pt sheet."""
    w, h = page
    i, s = REG_INSET, REG_SIZE
    square = Outline((("M", i, h - i), ("L", i + s, h - i), ("L", i + s, h - i - s), ("L", i, h - i - s), ("Z",)))
    top_right = Outline((("M", w - i - s, h - i), ("L", w - i, h - i), ("L", w - i, h - i - s)))
    bottom_left = Outline((("M", i, i + s), ("L", i, i), ("L", i + s, i)))
    return [Mark(square, True), Mark(top_right, False), Mark(bottom_left, False)]


def registration_box(page: tuple[float, float]) -> Rect:
    """The part of the page clear of the registration marks (and their 1 mm surround), pt."""
    w, h = page
    edge = REG_INSET + REG_SIZE + 1 / MM_PER_PT
    return Rect(edge, edge, w - 2 * edge, h - 2 * edge)


def page_outlines(page: PageLayout, spec: SheetSpec) -> list[Outline]:
    """One cut outline per token of ``page`` (squares too), in placement order, pt."""
    return [shapes.outline(spec.shape, cell.trim) for cell in page.cells]


def _num(v: float) -> str:
    text = f"{v * MM_PER_PT:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def path_data(outline: Outline, page_height: float) -> str:
    """SVG path data (mm, y down) for an outline in PDF points (y up)."""
    parts = []
    for op in outline.ops:
        if op[0] == "Z":
            parts.append("Z")
            continue
        coords = op[1:]
        pairs = [f"{_num(coords[k])},{_num(page_height - coords[k + 1])}" for k in range(0, len(coords), 2)]
        parts.append(op[0] + " ".join(pairs))
    return " ".join(parts)


def svg_page(page: PageLayout, spec: SheetSpec, ids: Iterable[str], registration: bool) -> str:
    """The SVG text of one sheet's cut file."""
    w, h = spec.page
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(w)}mm" height="{_num(h)}mm" viewBox="0 0 {_num(w)} {_num(h)}">',
        f"  <title>cut lines, sheet {page.number + 1}</title>",
        '  <g id="cut" fill="none" stroke="#ff0000" stroke-width="0.1">',
    ]
    for token_id, outline in zip(ids, page_outlines(page, spec), strict=True):
        lines.append(f'    <path id="{token_id}" d="{path_data(outline, h)}"/>')
    lines.append("  </g>")
    if registration:
        lines.append('  <g id="registration">')
        for mark in registration_marks(spec.page):
            style = 'fill="#000000"' if mark.filled else f'fill="none" stroke="#000000" stroke-width="{_num(REG_STROKE)}"'
            lines.append(f'    <path {style} d="{path_data(mark.outline, h)}"/>')
        lines.append("  </g>")
    lines.append("</svg>")
    return "\n".join(lines) + "\n"


def svg_path(out_stem: Path, number: int) -> Path:
    """The cut file of sheet ``number`` (1-based): ``<out_stem>-cut-<number>.svg``."""
    return out_stem.with_name(f"{out_stem.name}-cut-{number}.svg")


def write_cut_svgs(catalogue, spec: SheetSpec, out_stem: Path, registration: bool = False, copies: int = 1) -> list[Path]:
    """Write ``<out_stem>-cut-<n>.svg`` for every sheet ``copies`` sets of the catalogue need
    under ``spec`` (laid out as :func:`tokengen.outputs.build.build_pdf` lays them out).

    Returns:
        The files written, by sheet.
    Raises:
        LayoutError: the tokens do not fit, or a registration mark would touch a token.
        ExportError: a file cannot be written.
    """
    from ..io.atomic import atomic_path

    spec = pager.plan(catalogue.count, shapes.sheet_for(spec, catalogue), copies).spec  # the columns build chose
    tokens = [t for _ in range(copies) for t in catalogue.expanded()]
    written = []
    clear = registration_box(spec.page)
    for page in pager.pages(len(tokens), spec):
        if registration and not clear.contains(page.block.grow(spec.bleed)):
            raise LayoutError(f"{catalogue.path}: the registration marks need {_num(REG_INSET + REG_SIZE + 1 / MM_PER_PT)} mm "
                              "clear at the sheet edges: use a larger margin")
        ids = [f"{tokens[cell.index].id}-{k + 1}" for k, cell in enumerate(page.cells)]
        target = svg_path(out_stem, page.number + 1)
        with atomic_path(target, inputs=catalogue.files_read()) as temp:
            temp.write_text(svg_page(page, spec, ids, registration), "utf-8")
        written.append(target)
    return written
