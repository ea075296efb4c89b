"""Pages kept small once drawn: what a ReportLab canvas holds of each finished page until save.

ReportLab writes a PDF only at ``save()``: every page ended with ``showPage`` stays in memory
until then, with its content stream as uncompressed text (about 3.6 KB for a page of 80
tokens), its own dictionary of the forms it uses (two objects per form: about 4 KB for 39
forms), and its own shading, colour and transition dictionaries — about 10 KB a page, 125 MB
for the 12,501 pages of a million tokens (issue 27). :func:`end_page` ends the page as
``showPage`` does, then keeps only what the saved file needs: the content stream compressed as
the save would compress it, and one resources dictionary shared by every page that names the
same forms, shadings, colours and graphics states (pages of the same tokens do). The saved
bytes are those ReportLab would write without it.

:func:`save` is ``canvas.save()`` without the file's one last copy: ReportLab formats every
object into a list of pieces, then joins them into one ``bytes`` to write (16 MB more at a million
tokens); here the pieces are written as they are.

A canvas whose pages end here must be saved inside :func:`tokengen.faces.render.binary_streams`
(Flate only): the compressed streams are made now, for that save.
"""

from __future__ import annotations

import threading
import zlib
from typing import Any

from reportlab.pdfbase import pdfdoc
from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFResourceDictionary, PDFStream
from reportlab.pdfgen.canvas import Canvas

#: The attributes ReportLab's ``PDFPage.check_format`` reads without a default (the page's
#: others are read with ``getattr(page, name, None)`` when it is formatted).
_READ = frozenset({"MediaBox", "Annots", "Contents", "Resources", "Parent", "Override_default_compilation"})


def end_page(canvas: Canvas) -> None:
    """``canvas.showPage()``, then the page just ended kept small (see the module docstring):
    a page's resources shared with earlier pages of the same forms, its content stream
    compressed (Flate, as a save in :func:`~tokengen.faces.render.binary_streams` writes it).
    Pages that cannot be kept small (another ReportLab's page layout) are left as they are."""
    canvas.showPage()
    doc: Any = canvas._doc  # type: ignore[attr-defined]  # private: ReportLab has no public handle on its pages
    page = doc.Pages.pages[-1]
    if page.Contents is not None or page.Resources is not None or page.Override_default_compilation:
        return
    shared: dict[tuple, Any] = doc.__dict__.setdefault("_tokengen_resources", {})
    try:
        key = _resources_key(page)
        hash(key)
    except (AttributeError, TypeError):  # a page of another shape: formatted as ReportLab does
        return
    resources = shared.get(key)
    if resources is None:
        resources = shared[key] = _resources(page)
    page.Resources = resources
    if page.stream:
        text = page.stream
        page.Contents = _PageStream(zlib.compress(text.encode("utf8") if isinstance(text, str) else text))
    if not page.Annots:
        page.Annots = None
    if isinstance(page.Trans, PDFDictionary) and not page.Trans.dict:
        page.Trans = doc.__dict__.setdefault("_tokengen_no_transition", page.Trans)
    gone = {"stream", "XObjects", "ExtGState", "_shadingUsed", "_colorsUsed"}  # held by the resources and stream now
    # a new, compact attribute dictionary (deleting keys never shrinks one): without those, and
    # without the unset (None) attributes, which the page's formatting reads with a default
    page.__dict__ = {name: value for name, value in page.__dict__.items()
                     if name not in gone and (value is not None or name in _READ)}


class _PageStream(PDFStream):
    """A page's content stream compressed already (Flate): formatted as ReportLab's
    ``check_format`` would make and compress it; its bytes are let go once written into the file
    (ReportLab formats each object once)."""

    __Comment__ = "page stream"
    filters = None
    #: shared: ``PDFStream.format`` copies it before adding the length
    dictionary = PDFDictionary({"Filter": PDFArray([PDFName("FlateDecode")])})

    def __init__(self, content: bytes):  # no super().__init__: the dictionary and filters are the class's
        self.content = content

    def format(self, document: Any) -> bytes:
        out: bytes = super().format(document)
        self.content = None  # in the file now: formatting it again raises ReportLab's "stream content not set"
        return out


def _resources_key(page: Any) -> tuple:
    """What a page's resources dictionary is made of, as a hashable value: pages with equal keys
    have equal resources."""
    forms = tuple(page.XObjects.dict) if page.XObjects else None
    states = page.ExtGState
    gstates = None if states is None else tuple((name, tuple(d.dict.items())) for name, d in states.dict.items())
    return (bool(page.hasImages), forms, gstates, tuple(page._shadingUsed.items()), tuple(page._colorsUsed.items()))


def _resources(page: Any) -> Any:
    """The resources dictionary ReportLab's ``PDFPage.check_format`` makes for ``page``."""
    resources: Any = PDFResourceDictionary()
    resources.basicFonts()
    if page.hasImages:
        resources.allProcs()
    else:
        resources.basicProcs()
    if page.XObjects:
        resources.XObject = page.XObjects
    if page.ExtGState:
        resources.ExtGState = page.ExtGState
    resources.setShading(page._shadingUsed)
    resources.setColorSpace(page._colorsUsed)
    return resources


class _Pieces(pdfdoc.PDFFile):
    """ReportLab's output collector; for a document :func:`save` marks, its pieces are handed
    over (left on the document) instead of joined into one ``bytes``. Any other document is
    formatted as ReportLab's own collector formats it."""

    def format(self, document: Any) -> bytes:
        if document.__dict__.get("_tokengen_pieces", False) is None:
            document._tokengen_pieces = self.strings
            return b""
        joined: bytes = super().format(document)
        return joined


_swap = threading.Lock()  # one save at a time puts _Pieces in place (other documents format as before)


def save(canvas: Canvas) -> None:
    """``canvas.save()``, the file written piece by piece (see the module docstring): same bytes,
    without a copy of the whole file in memory. The canvas must not be used after.

    Raises:
        OSError: the file cannot be written.
    """
    if canvas._code:  # type: ignore[attr-defined]  # as Canvas.save: a page drawn and not ended is ended
        canvas.showPage()
    doc: Any = canvas._doc  # type: ignore[attr-defined]  # private: ReportLab has no public handle on its document
    target: Any = canvas._filename  # type: ignore[attr-defined]  # the path or file object open_canvas was given
    if getattr(doc, "_savedToFile", False):
        raise RuntimeError("a PDF document can only be saved once")  # as ReportLab's SaveToFile
    doc._savedToFile = True
    doc._tokengen_pieces = None
    with _swap:
        saved, pdfdoc.PDFFile = pdfdoc.PDFFile, _Pieces  # type: ignore[misc]  # ReportLab's format() names the class at call time
        try:
            doc.GetPDFData(canvas)
        finally:
            pdfdoc.PDFFile = saved  # type: ignore[misc]  # as it was
    pieces: list[bytes] = doc.__dict__.pop("_tokengen_pieces")
    if hasattr(target, "write"):
        target.writelines(pieces)
    else:
        with open(target, "wb") as out:
            out.writelines(pieces)
