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

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ..errors import LayoutError
from ..geometry import cutpaths, handsheet, pager, shapes
from ..geometry.imposition import PageLayout, Rect, SheetSpec
from ..geometry.shapes import Outline

#: Millimetres per point.
MM_PER_PT = 25.4 / 72
#: Registration marks as Silhouette Studio's Print & Cut reads them by default ("Registration
#: Marks" panel: Style Type 1, Length 20 mm, Thickness 0.5 mm, Inset 10 mm; the square 5 mm): a
#: filled square at the top left and L brackets at the top right and bottom left, every mark's
#: outer edge REG_INSET from the page edges, each bracket arm REG_LENGTH long and REG_STROKE
#: thick, in pt. Sources (Silhouette's own page was not readable): the inkscape-silhouette
#: project's Studio-compatible marks (square 5 mm, lines 20 mm, 10 mm from the edges, line width
#: 0.5 mm as hard-coded in its cutter driver) and Silhouette Card Maker's layout spec (inset
#: 10 mm); checked 2026-12-01. Studio's document must be set to the same values (README).
REG_INSET = 10 / MM_PER_PT
REG_SIZE = 5 / MM_PER_PT
REG_LENGTH = 20 / MM_PER_PT
REG_STROKE = 0.5 / MM_PER_PT
#: Clear space (pt) kept between the marks and any token's bleed.
REG_CLEAR = 1 / MM_PER_PT


@dataclass(frozen=True)
class Mark:
    """A registration mark: an outline (pt), filled or stroked (:data:`REG_STROKE` wide, its
    centre line half a stroke inside the mark's outer edge)."""

    outline: Outline
    filled: bool


def registration_marks(page: tuple[float, float]) -> list[Mark]:
    """The three type-1 registration marks of a ``page`` (width, height) pt sheet: the square
    (outer corner ``REG_INSET`` from the top-left corner), the top-right and the bottom-left L
    (their outer corners ``REG_INSET`` from those corners, arms :data:`REG_LENGTH`)."""
    w, h = page
    i, s, n, t = REG_INSET, REG_SIZE, REG_LENGTH, REG_STROKE / 2
    square = Outline((("M", i, h - i), ("L", i + s, h - i), ("L", i + s, h - i - s), ("L", i, h - i - s), ("Z",)))
    top_right = Outline((("M", w - i - n, h - i - t), ("L", w - i - t, h - i - t), ("L", w - i - t, h - i - n)))
    bottom_left = Outline((("M", i + t, i + n), ("L", i + t, i + t), ("L", i + n, i + t)))
    return [Mark(square, True), Mark(top_right, False), Mark(bottom_left, False)]


def registration_box(page: tuple[float, float]) -> Rect:
    """The part of the page clear of the registration marks and their :data:`REG_CLEAR`
    surround, pt: every mark lies within ``REG_INSET + REG_SIZE`` of an edge (the brackets' arms
    run along the edges, ``REG_STROKE`` thick)."""
    w, h = page
    edge = REG_INSET + max(REG_SIZE, REG_STROKE) + REG_CLEAR
    return Rect(edge, edge, w - 2 * edge, h - 2 * edge)


def page_outlines(page: PageLayout, spec: SheetSpec) -> list[Outline]:
    """One cut outline per token of ``page`` (squares too), in placement order, pt; a token
    turned in a hand-laid slot has its outline turned with it."""
    if spec.hand is not None:
        shape = spec.shape or shapes.Shape()
        return [shapes.outline(handsheet.turned(shape, cell.rotate), cell.trim) for cell in page.cells]
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


def svg_page(page: PageLayout, spec: SheetSpec, ids: Iterable[str], registration: bool, cut: str = "outlines") -> str:
    """The SVG text of one sheet's cut file: one closed ``<path>`` per token (id = the token's),
    or with ``cut="shared"`` one ``<path>`` per edge (``edge-1``, …), each shared edge once
    (:func:`tokengen.geometry.cutpaths.shared_edges`)."""
    w, h = spec.page
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(w)}mm" height="{_num(h)}mm" viewBox="0 0 {_num(w)} {_num(h)}">',
        f"  <title>cut lines, sheet {page.number + 1}</title>",
        '  <g id="cut" fill="none" stroke="#ff0000" stroke-width="0.1">',
    ]
    if cut == "shared":
        for k, edge in enumerate(cutpaths.shared_edges(page_outlines(page, spec)), 1):
            lines.append(f'    <path id="edge-{k}" d="{path_data(edge, h)}"/>')
    else:
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


def check_clear(catalogue, page: PageLayout, spec: SheetSpec) -> None:
    """Raise unless ``page``'s tokens (with their bleed) keep clear of the registration marks.

    Raises:
        LayoutError: a token would touch a mark's surround; names the clear edge needed.
    """
    if not registration_box(spec.page).contains(page.block.grow(spec.bleed)):
        edge = REG_INSET + max(REG_SIZE, REG_STROKE) + REG_CLEAR
        raise LayoutError(f"{catalogue.path}: the registration marks need {_num(edge)} mm clear at the sheet edges: "
                          f"use a margin of at least {_num(edge)}mm")


def svg_path(out_stem: Path, number: int) -> Path:
    """The cut file of sheet ``number`` (1-based): ``<out_stem>-cut-<number>.svg``."""
    return out_stem.with_name(f"{out_stem.name}-cut-{number}.svg")


def write_cut_svgs(catalogue, spec: SheetSpec, out_stem: Path, registration: bool = False, copies: int = 1,
                   cut: str = "outlines") -> list[Path]:
    """Write ``<out_stem>-cut-<n>.svg`` for every sheet ``copies`` sets of the catalogue need
    under ``spec`` (laid out as :func:`tokengen.outputs.build.build_pdf` lays them out); ``cut``
    as for :func:`svg_page`.

    Returns:
        The files written, by sheet.
    Raises:
        LayoutError: the tokens do not fit, or a registration mark would touch a token.
        ExportError: a file cannot be written.
    """
    from ..io.atomic import atomic_path

    written = []
    for page, sheet, ids in cut_sheets(catalogue, spec, copies, registration):
        target = svg_path(out_stem, page.number + 1)
        with atomic_path(target, inputs=catalogue.files_read()) as temp:
            temp.write_text(svg_page(page, sheet, ids, registration, cut), "utf-8")
        written.append(target)
    return written


def cut_sheets(catalogue, spec: SheetSpec, copies: int, registration: bool) -> Iterator[tuple[PageLayout, SheetSpec, list[str]]]:
    """The sheets a cut file of ``copies`` sets is written for, as build lays them out: (page,
    the sheet spec with the columns build chose, the cut ids ``<token id>-<k>`` in cell order),
    the registration marks' room checked first when ``registration``.

    Raises:
        LayoutError: the tokens do not fit, or a registration mark would touch a token.
    """
    spec = pager.plan(catalogue.count, shapes.sheet_for(spec, catalogue), copies).spec  # the columns build chose
    tokens = [t for _ in range(copies) for t in catalogue.expanded()]
    for page in pager.pages(len(tokens), spec):
        if registration:
            check_clear(catalogue, page, spec)
        yield page, spec, [f"{tokens[cell.index].id}-{k + 1}" for k, cell in enumerate(page.cells)]
