"""Die lines: every token's cut path as a spot colour, for die-cut, sticker and print-and-cut shops.

A profile with ``cut_layer: CutContour`` (any name) has :func:`tokengen.outputs.build.build_pdf`
stroke every token's cut outline on every face sheet — the outlines of the cut SVG
(:func:`tokengen.outputs.cutsvg.page_outlines`, i.e. :func:`tokengen.geometry.shapes.outline`) —
after the art (:meth:`tokengen.faces.render.SheetCanvas.die_line`):

* in a ``Separation`` colour space of that name, alternate DeviceCMYK 0 1 0 0 (100 % magenta),
  tint 100 %, 0.25 pt wide;
* overprinting (an ExtGState with ``/OP true /op true``), so the line knocks nothing out of the
  art under it and a RIP that cuts along it prints nothing of it;
* in a PDF/X-1a file as the spot colour only (PDF 1.3 has no optional content); in any other
  file also inside an optional-content group named :data:`LAYER` (``Cut``), which
  :func:`add_layer` declares after ReportLab wrote the file, so a viewer can hide the die line.

Preflight (:mod:`tokengen.preflight.checks`) knows the separation: it counts as no ink, and the
``trim-size`` check fails a sheet whose die paths do not match its tokens' trims within 0.1 pt.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import ExportError

#: The optional-content group (layer) the die line sits in, as a viewer lists it; also the
#: name of the page resource (``/Properties``) that the ``BDC`` operator names.
LAYER = "Cut"


def add_layer(source: Path, target: Path) -> None:
    """Rewrite ``source`` into ``target`` with the optional-content group :data:`LAYER`: one
    ``/OCG`` named ``Cut``, listed (on, in the default configuration) in the catalogue's
    ``/OCProperties``, and named by every page whose content marks a die line
    (``/OC /Cut BDC``) in its ``/Resources /Properties``. The file becomes PDF 1.5 (optional
    content's version) and stays deterministic (qpdf's content-derived ID).

    Raises:
        ExportError: the PDF cannot be read or written.
    """
    import pikepdf

    marker = f"/OC /{LAYER} BDC".encode()
    try:
        with pikepdf.open(source) as pdf:
            ocg = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.OCG, Name=pikepdf.String(LAYER)))
            pdf.Root.OCProperties = pikepdf.Dictionary(
                OCGs=pikepdf.Array([ocg]),
                D=pikepdf.Dictionary(Name=pikepdf.String("tokengen"), Order=pikepdf.Array([ocg]), ON=pikepdf.Array([ocg]),
                                     OFF=pikepdf.Array()))
            for page in pdf.pages:
                if marker not in _content(page, pikepdf):
                    continue
                resources = page.obj.get("/Resources")
                if resources is None:
                    resources = page.obj.Resources = pikepdf.Dictionary()
                properties = resources.get("/Properties")
                if properties is None:
                    properties = resources.Properties = pikepdf.Dictionary()
                properties[pikepdf.Name("/" + LAYER)] = ocg
            pdf.save(target, min_version="1.5", deterministic_id=True, object_stream_mode=pikepdf.ObjectStreamMode.disable,
                     compress_streams=True)
    except (pikepdf.PdfError, OSError) as exc:
        raise ExportError(f"{source}: cannot add the die line's layer: {exc}") from None


def _content(page: Any, pikepdf: Any) -> bytes:
    """A pikepdf page's content streams, decoded and joined (pikepdf passed in: imported lazily)."""
    contents = page.obj.get("/Contents")
    if contents is None:
        return b""
    parts = list(contents) if isinstance(contents, pikepdf.Array) else [contents]
    return b"\n".join(part.read_bytes() for part in parts)
