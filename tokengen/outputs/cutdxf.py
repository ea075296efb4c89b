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

import functools
import io
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


def dxf_page(page: PageLayout, spec: SheetSpec, ids: list[str], registration: bool, cut: str = "outlines") -> str:
    """The DXF text of one sheet's cut file (mm, y up): one entity per token, or with
    ``cut="shared"`` one per edge (shared edges once), after the registration marks' layer when
    ``registration``.

    The sheet's frame (header, tables, objects, the marks) is ezdxf's own, from :func:`_frame`;
    the token entities are written here as ezdxf writes them (``"%3d\\n%s\\n"`` tags, floats
    as ``repr``, handles in upper-case hex from the frame's first free one), so the bytes are
    those an ezdxf document of the same entities saves (tests/outputs/test_cutdxf.py holds
    ezdxf's own document as the reference) at a fraction of the cost: ezdxf builds and writes
    each entity through a dozen objects, and a new document per sheet.
    """
    outlines = page_outlines(page, spec)
    if cut == "shared":
        edges = cutpaths.shared_edges(outlines)
        head, tail, first, owner = _frame(spec.page, registration, len(edges))
        records = [_edge(format(first + k, "X"), owner, edge) for k, edge in enumerate(edges)]
    else:
        head, tail, first, owner = _frame(spec.page, registration, len(outlines))
        records = [_entity(format(first + k, "X"), owner, "CUT", outline, True, name)
                   for k, (name, outline) in enumerate(zip(ids, outlines, strict=True))]
    return "".join([head, *records, tail])


def _tags(*pairs: tuple[int, object]) -> str:
    """DXF tags as ezdxf's TagWriter writes them: the code right-aligned in 3, then the value."""
    return "".join(f"{code:3d}\n{value}\n" for code, value in pairs)


def _entity(handle: str, owner: str, layer: str, outline: Outline, closed: bool, name: str | None) -> str:
    """One ``CIRCLE`` (when ``outline`` is one) or ``LWPOLYLINE`` record, coordinates in mm,
    with ``name`` as extended data of application ``TOKENGEN``."""
    circle = circle_of(outline)
    head = _tags((0, "CIRCLE" if circle else "LWPOLYLINE"), (5, handle), (330, owner), (100, "AcDbEntity"), (8, layer))
    if circle is not None:
        body = _tags((100, "AcDbCircle"), (10, repr(circle[0] * MM_PER_PT)), (20, repr(circle[1] * MM_PER_PT)), (30, "0.0"),
                     (40, repr(circle[2] * MM_PER_PT)))
    else:
        pts = points(outline)
        body = _tags((100, "AcDbPolyline"), (90, len(pts)), (70, int(closed))) + "".join(
            f" 10\n{x * MM_PER_PT!r}\n 20\n{y * MM_PER_PT!r}\n" for x, y in pts)
    return head + body + (_tags((1001, "TOKENGEN"), (1000, name)) if name else "")


def _edge(handle: str, owner: str, edge: Outline) -> str:
    """One shared edge on layer ``CUT``: a ``LINE``, or an open ``LWPOLYLINE`` for a curve."""
    (_, x0, y0), op = edge.ops
    if op[0] != "L":
        return _entity(handle, owner, "CUT", edge, False, None)
    return _tags((0, "LINE"), (5, handle), (330, owner), (100, "AcDbEntity"), (8, "CUT"), (100, "AcDbLine"),
                 (10, repr(x0 * MM_PER_PT)), (20, repr(y0 * MM_PER_PT)), (30, "0.0"),
                 (11, repr(op[1] * MM_PER_PT)), (21, repr(op[2] * MM_PER_PT)), (31, "0.0"))


#: Where the token entities go in the frame's text: the start of its ENTITIES section.
ENTITIES = "  0\nSECTION\n  2\nENTITIES\n"


@functools.lru_cache(maxsize=8)
def _frame(page: tuple[float, float], registration: bool, count: int) -> tuple[str, str, int, str]:
    """The ezdxf document of a ``page`` (w, h pt) sheet with ``count`` handles kept free for the
    token entities, as text split where they go: (text up to and with the ENTITIES section's
    head, the rest (the marks, when ``registration``), the first free handle, the model space's
    handle that owns them). One per page size and count: every full sheet of an export shares it."""
    ezdxf = _ezdxf()
    doc = ezdxf.new("R2010", setup=False)
    doc.header["$INSUNITS"] = INSUNITS_MM
    doc.header["$MEASUREMENT"] = 1  # metric
    w, h = page
    doc.header["$EXTMIN"] = (0, 0, 0)
    doc.header["$EXTMAX"] = (w * MM_PER_PT, h * MM_PER_PT, 0)
    doc.layers.add("CUT", color=1)
    msp = doc.modelspace()
    doc.appids.add("TOKENGEN")
    handles = doc.entitydb.handles  # the tokens' entities take the next ``count`` handles
    first = int(str(handles), 16)
    for _ in range(count):
        handles.next()
    if registration:
        marks = doc.layers.add("REGISTRATION", color=7)
        marks.dxf.plot = 0  # a layer not to plot: reference for the eye, not a path to cut (--no-marks drops it)
        for mark in registration_marks(page):
            pts = [(x * MM_PER_PT, y * MM_PER_PT) for x, y in points(mark.outline)]
            msp.add_lwpolyline(pts, close=mark.filled, dxfattribs={"layer": "REGISTRATION"})
    head, found, tail = _text(doc).partition(ENTITIES)
    if not found:
        raise ExportError(f"ezdxf {ezdxf.__version__} wrote no ENTITIES section where tokengen expects one")
    return head + found, tail, first, msp.layout_key


def _text(doc: Any) -> str:
    """The DXF text of ezdxf document ``doc``, deterministic: ezdxf's fixed dates and GUIDs
    instead of now and random ones, so the same input gives the same bytes (as the PDFs do)."""
    ezdxf = _ezdxf()

    doc.classes.add_required_classes(doc.dxfversion)
    classes = doc.classes.classes  # filled in set order: sort them
    ordered = sorted(classes.items())
    classes.clear()
    classes.update(ordered)
    from ezdxf.document import CREATED_BY_EZDXF, WRITTEN_BY_EZDXF

    meta = doc.ezdxf_metadata()
    marker = f"{ezdxf.__version__} (tokengen)"  # ezdxf's marker holds the time of day
    meta[CREATED_BY_EZDXF] = marker
    doc._update_ezdxf_metadata = lambda: meta.__setitem__(WRITTEN_BY_EZDXF, marker)  # ezdxf stamps the time here on every save: fixed for byte-identical files
    fixed = ezdxf.options.write_fixed_meta_data_for_testing
    ezdxf.options.write_fixed_meta_data_for_testing = True
    stream = io.StringIO()
    try:
        doc.write(stream)
    finally:
        ezdxf.options.write_fixed_meta_data_for_testing = fixed
    return stream.getvalue()


def _save(text: str, path: Path) -> None:
    """Write DXF ``text`` as ezdxf saves an R2010 file: UTF-8, text mode, ezdxf's ``dxfreplace``
    error handler (registered when ezdxf is imported) for what UTF-8 cannot hold."""
    _ezdxf()
    with open(path, "w", encoding="utf-8", errors="dxfreplace") as f:
        f.write(text)


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
        text = dxf_page(page, sheet, ids, registration, cut)
        with atomic_path(target, inputs=catalogue.files_read()) as temp:
            try:
                _save(text, temp)
            except OSError as exc:
                raise ExportError(f"{target}: cannot write DXF: {exc.strerror or exc}") from None
        written.append(target)
    return written
