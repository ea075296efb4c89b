"""DXF cut files, the twin of :mod:`tokengen.outputs.cutsvg` (``tokengen export --profile cut-dxf``):
one DXF per sheet, in millimetres (``$INSUNITS`` 4), of every token's cut outline, for cutting
machines whose software imports DXF and not SVG (Silhouette Studio's basic edition).

The outlines are the ones the SVG and the PDF's cut guides are drawn from
(:func:`tokengen.outputs.cutsvg.page_outlines`, i.e. :func:`tokengen.geometry.shapes.outline`):
a circle becomes one ``CIRCLE``; every other outline one closed ``LWPOLYLINE`` (its Bézier corners
flattened to within :data:`FLATNESS` mm), on layer ``CUT``. Coordinates are the PDF's, in mm,
y up from the sheet's bottom-left corner (DXF's way; the SVG's y runs down from the top).
Registration marks (profile mark ``registration``) go on layer ``REGISTRATION``. With the profile's
``cut: shared`` each edge is one entity instead (a ``LINE``, or an open ``LWPOLYLINE`` for a curved
corner), every edge two tokens share once (:func:`tokengen.geometry.cutpaths.shared_edges`).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from ..errors import ExportError
from ..geometry import cutpaths
from ..geometry.imposition import PageLayout, SheetSpec
from ..geometry.shapes import Outline
from .cutsvg import MM_PER_PT, cut_sheets, page_outlines, registration_marks

#: Largest distance (mm) of a flattened Bézier from the true curve.
FLATNESS = 0.005
#: DXF ``$INSUNITS`` for millimetres.
INSUNITS_MM = 4


def _ezdxf() -> Any:
    """ezdxf, with pyparsing's deprecation notes of its camelCase names silenced: ezdxf (to 1.4 at
    least) still calls ``addParseAction``, ``oneOf`` and ``parseAll=``, and pyparsing 3.3 warns of
    each as a UserWarning, which would reach the user's stderr on every DXF export. Only those
    notes are silenced (by their wording), for the rest of the process."""
    import warnings

    require_ezdxf()
    # pyparsing words them "'oneOf' deprecated - use 'one_of'" and "'parseAll' argument is
    # deprecated, use 'parse_all'"; the second comes while ezdxf parses, so the filter stays
    warnings.filterwarnings("ignore", r"'\w+' (argument is )?deprecated,? (- )?use '\w+'", DeprecationWarning)
    import ezdxf

    return ezdxf


#: The install line that brings ezdxf: the distribution's ``dxf`` extra (pyproject.toml).
DXF_EXTRA = "pip install 'tokengen-print[dxf]'"


def require_ezdxf(profile: str = "cut-dxf") -> None:
    """Refuse a DXF export before anything is written when ezdxf is not installed: it is the
    ``dxf`` extra, left out of the default install for its weight (numpy and fontTools).

    Raises:
        ExportError: naming ``profile`` and the install line (:data:`DXF_EXTRA`).
    """
    import importlib.util

    if importlib.util.find_spec("ezdxf") is None:
        raise ExportError(f"profile {profile} writes DXF and needs ezdxf, which is not installed: {DXF_EXTRA}")


def dxf_path(out_stem: Path, number: int) -> Path:
    """The DXF of sheet ``number`` (1-based): ``<out_stem>-cut-<number>.dxf``."""
    return out_stem.with_name(f"{out_stem.name}-cut-{number}.dxf")


def circle_of(outline: Outline) -> tuple[float, float, float] | None:
    """(cx, cy, r) pt when ``outline`` is the four-arc circle :func:`shapes.outline` draws, else None."""
    ops = outline.ops
    if len(ops) != 6 or ops[0][0] != "M" or any(op[0] != "C" for op in ops[1:5]):
        return None
    (x0, y0), (x1, _) = ops[0][1:3], ops[2][5:7]  # the rightmost and the leftmost points
    cx, cy, r = (x0 + x1) / 2, y0, (x0 - x1) / 2
    return (cx, cy, r) if r > 0 and abs(ops[1][6] - (cy + r)) < 1e-6 else None


def points(outline: Outline) -> list[tuple[float, float]]:
    """The vertices (pt) of ``outline`` with every cubic flattened to within :data:`FLATNESS`;
    the closing point equal to the first is dropped (the polyline is closed)."""
    tol = FLATNESS / MM_PER_PT
    out: list[tuple[float, float]] = []
    for op in outline.ops:
        if op[0] in ("M", "L"):
            out.append((op[1], op[2]))
        elif op[0] == "C":
            (x0, y0), (x1, y1, x2, y2, x3, y3) = out[-1], op[1:]
            span = math.dist((x0, y0), (x1, y1)) + math.dist((x1, y1), (x2, y2)) + math.dist((x2, y2), (x3, y3))
            n = max(2, math.ceil(math.sqrt(span / (8 * tol))) * 2)  # error of a chord ~ span² / (8 n²)
            for k in range(1, n + 1):
                t = k / n
                a, b, c, d = (1 - t) ** 3, 3 * t * (1 - t) ** 2, 3 * t * t * (1 - t), t ** 3
                out.append((a * x0 + b * x1 + c * x2 + d * x3, a * y0 + b * y1 + c * y2 + d * y3))
    if len(out) > 1 and math.dist(out[0], out[-1]) < 1e-9:
        out.pop()
    return out


def dxf_page(page: PageLayout, spec: SheetSpec, ids: list[str], registration: bool, cut: str = "outlines") -> object:
    """The ezdxf document of one sheet's cut file (mm, y up): one entity per token, or with
    ``cut="shared"`` one per edge (shared edges once)."""
    ezdxf = _ezdxf()

    doc = ezdxf.new("R2010", setup=False)
    doc.header["$INSUNITS"] = INSUNITS_MM
    doc.header["$MEASUREMENT"] = 1  # metric
    w, h = spec.page
    doc.header["$EXTMIN"] = (0, 0, 0)
    doc.header["$EXTMAX"] = (w * MM_PER_PT, h * MM_PER_PT, 0)
    doc.layers.add("CUT", color=1)
    msp = doc.modelspace()

    def add(outline: Outline, layer: str, name: str | None = None, closed: bool = True) -> None:
        circle = circle_of(outline)
        entity: Any
        if circle is not None:
            entity = msp.add_circle((circle[0] * MM_PER_PT, circle[1] * MM_PER_PT), circle[2] * MM_PER_PT, dxfattribs={"layer": layer})
        else:
            entity = msp.add_lwpolyline([(x * MM_PER_PT, y * MM_PER_PT) for x, y in points(outline)], close=closed,
                                        dxfattribs={"layer": layer})
        if name:
            entity.set_xdata("TOKENGEN", [(1000, name)])

    doc.appids.add("TOKENGEN")
    if cut == "shared":
        for edge in cutpaths.shared_edges(page_outlines(page, spec)):
            (_, x0, y0), op = edge.ops
            if op[0] == "L":
                msp.add_line((x0 * MM_PER_PT, y0 * MM_PER_PT), (op[1] * MM_PER_PT, op[2] * MM_PER_PT), dxfattribs={"layer": "CUT"})
            else:
                add(edge, "CUT", closed=False)
    else:
        for token_id, outline in zip(ids, page_outlines(page, spec), strict=True):
            add(outline, "CUT", token_id)
    if registration:
        marks = doc.layers.add("REGISTRATION", color=7)
        marks.dxf.plot = 0  # a layer not to plot: reference for the eye, not a path to cut (--no-marks drops it)
        for mark in registration_marks(spec.page):
            add(mark.outline, "REGISTRATION", closed=mark.filled)
    return doc


def _save(doc: object, path: Path) -> None:
    """Save ``doc`` deterministically: ezdxf's fixed dates and GUIDs instead of now and random
    ones, so the same input gives the same bytes (as the PDFs do)."""
    ezdxf = _ezdxf()

    doc.classes.add_required_classes(doc.dxfversion)  # type: ignore[attr-defined]  # doc is an ezdxf Drawing, typed object to keep ezdxf out of import time
    classes = doc.classes.classes  # type: ignore[attr-defined]  # filled in set order: sort them
    ordered = sorted(classes.items())
    classes.clear()
    classes.update(ordered)
    from ezdxf.document import CREATED_BY_EZDXF, WRITTEN_BY_EZDXF

    meta = doc.ezdxf_metadata()  # type: ignore[attr-defined]  # an ezdxf Drawing (see above)
    marker = f"{ezdxf.__version__} (tokengen)"  # ezdxf's marker holds the time of day
    meta[CREATED_BY_EZDXF] = marker
    doc._update_ezdxf_metadata = lambda: meta.__setitem__(WRITTEN_BY_EZDXF, marker)  # type: ignore[attr-defined]  # ezdxf stamps the time here on every save: fixed for byte-identical files
    fixed = ezdxf.options.write_fixed_meta_data_for_testing
    ezdxf.options.write_fixed_meta_data_for_testing = True
    try:
        doc.saveas(path)  # type: ignore[attr-defined]  # an ezdxf Drawing (see above)
    finally:
        ezdxf.options.write_fixed_meta_data_for_testing = fixed


def write_cut_dxfs(catalogue, spec: SheetSpec, out_stem: Path, registration: bool = False, copies: int = 1,
                   cut: str = "outlines") -> list[Path]:
    """Write ``<out_stem>-cut-<n>.dxf`` for every sheet, laid out as
    :func:`tokengen.outputs.cutsvg.write_cut_svgs` lays out the SVGs (same tokens, same ids:
    ``<token id>-<k>`` as extended data of each entity).

    Returns:
        The files written, by sheet.
    Raises:
        LayoutError: a registration mark would touch a token.
        ExportError: a file cannot be written.
    """
    from ..io.atomic import atomic_path

    written = []
    for page, sheet, ids in cut_sheets(catalogue, spec, copies, registration):
        target = dxf_path(out_stem, page.number + 1)
        doc = dxf_page(page, sheet, ids, registration, cut)
        with atomic_path(target, inputs=catalogue.files_read()) as temp:
            try:
                _save(doc, temp)
            except OSError as exc:
                raise ExportError(f"{target}: cannot write DXF: {exc.strerror or exc}") from None
        written.append(target)
    return written
