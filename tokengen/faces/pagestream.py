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
tokens); here the pieces are written as they are. Each plain Form XObject (a face: no resources of
its own besides the fonts) is written with the dictionary ReportLab formatted for the first form
of its box, only its length changed (:class:`_Form`): the same bytes, without formatting the same
dictionary again for every one of 10,000 distinct faces (issue 27).

A canvas whose pages end here must be saved inside :func:`tokengen.faces.render.binary_streams`
(Flate only): the compressed streams are made now, for that save.
"""

from __future__ import annotations

import threading
import zlib
from typing import Any

from reportlab import rl_config
from reportlab.pdfbase import pdfdoc
from reportlab.pdfbase.pdfdoc import (
    PDFArray,
    PDFDictionary,
    PDFFormXObject,
    PDFName,
    PDFResourceDictionary,
    PDFStream,
)
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
    resources = _shared_resources(doc, page)
    if resources is None:  # a page of another shape: formatted as ReportLab does
        return
    page.Resources = resources
    _compress(page)
    _compact(doc, page)


def _shared_resources(doc: Any, page: Any) -> Any:
    """The resources dictionary of ``page``, the one object shared by every page of ``doc`` with
    the same forms, shadings and colours; None for a page of another shape."""
    shared: dict[tuple, Any] = doc.__dict__.setdefault("_tokengen_resources", {})
    try:
        key = _resources_key(page)
        hash(key)
    except (AttributeError, TypeError):
        return None
    resources = shared.get(key)
    if resources is None:
        resources = shared[key] = _resources(page)
    return resources


def _compress(page: Any) -> None:
    """The page's content stream, when it has one, as its Flate-compressed ``Contents``."""
    if page.stream:
        text = page.stream
        page.Contents = _PageStream(zlib.compress(text.encode("utf8") if isinstance(text, str) else text))


def _compact(doc: Any, page: Any) -> None:
    """``page`` without what its resources and stream hold now, its empty annotations and
    transition (one empty transition shared by the document), and its unset attributes."""
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


class _Form(PDFFormXObject):
    """A Form XObject as ReportLab writes it (``PDFFormXObject.format``), formatted faster when it
    is plain: no box, matrix, contents or resources of its own (the fonts and procedure sets
    every form gets), compressed with Flate alone, in a document without encryption. The first
    plain form of each box in a document is formatted by ReportLab; the forms after it reuse
    that dictionary's bytes around their own ``/Length`` and compress their own content as
    ReportLab would. Any other form is formatted by ReportLab."""

    def format(self, document: Any) -> bytes:
        if not self._plain(document):
            return super().format(document)
        kept: dict[tuple, tuple[bytes, bytes]] = document.__dict__.setdefault("_tokengen_form_dicts", {})
        key = (self.lowerx, self.lowery, self.upperx, self.uppery, bool(self.hasImages))
        around = kept.get(key)
        content = zlib.compress(self.stream)
        if around is None:
            out: bytes = super().format(document)
            length = b"/Length " + pdfdoc.format(len(content), document)
            head, found, tail = out.partition(b"\nstream\n")[0].partition(length)
            if found and tail[:1] in (b" ", b"\n") and out == head + length + tail + b"\nstream\n" + content + b"endstream\n":
                kept[key] = (head + b"/Length ", tail)  # kept only when the form's bytes are these
            return out
        return around[0] + pdfdoc.format(len(content), document) + around[1] + b"\nstream\n" + content + b"endstream\n"

    def _plain(self, document: Any) -> bool:
        return (isinstance(self.stream, bytes) and bool(self.stream) and bool(self.compression) and not rl_config.useA85
                and self.BBox is None and self.Matrix is None and self.Contents is None and self.Resources is None
                and not self.XObjects and not self.Annots and type(document.encrypt) is pdfdoc.NoEncryption)


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
    for obj in doc.idToObject.values():  # the plain forms formatted faster, to the same bytes
        if type(obj) is PDFFormXObject:
            obj.__class__ = _Form
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
