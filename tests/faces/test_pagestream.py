"""Pages and forms saved by :mod:`tokengen.faces.pagestream` are the bytes ReportLab's own
``showPage`` and ``save`` write: plain face forms formatted from the first one's dictionary
(issue 27), forms with resources of their own, forms of other boxes and art forms as ReportLab
formats them."""

from __future__ import annotations

import io

from PIL import Image
from reportlab.lib.colors import Color
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfdoc import PDFFormXObject

from tokengen.faces import figures, pagestream
from tokengen.faces.render import binary_streams, open_canvas
from tokengen.sources import fonts


def _draw(target, ours: bool) -> None:
    fonts.register()
    canvas = open_canvas(target, (612.0, 792.0), title="t", author="a", subject="s")
    picture = io.BytesIO()
    Image.new("RGB", (3, 2), "red").save(picture, "PNG")
    canvas.beginForm("art-1", 0, 0, 1, 1)
    canvas.drawImage(ImageReader(io.BytesIO(picture.getvalue())), 0, 0, 1, 1)
    canvas.endForm()
    names = []
    for n in range(12):
        name = f"face-{n}"
        size = 72.0 if n % 3 else 36.0  # two boxes
        canvas.beginForm(name, -9, -9, size + 9, size + 9)
        canvas.setFillColor(Color(n / 12, 0.2, 0.3))
        canvas.rect(0, 0, size, size, stroke=0, fill=1)
        canvas.setFont(fonts.BOLD, 10 + n)
        canvas.drawCentredString(size / 2, size / 3, f"{n}/{n * 7 % 13} ★")
        if n == 5:  # a form using another: resources of its own
            canvas.doForm("art-1")
        figures.end_form(canvas, name)
        names.append(name)
    for page in range(3):
        for k, name in enumerate(names[page * 4:page * 4 + 4]):
            canvas.saveState()
            canvas.translate(72 * k, 72 * page)
            canvas.doForm(name)
            canvas.restoreState()
        if ours:
            pagestream.end_page(canvas)
        else:
            canvas.showPage()
    with binary_streams():
        if ours:
            pagestream.save(canvas)
        else:
            canvas.save()


def test_saved_bytes_are_reportlabs(monkeypatch):
    formatted = []
    reportlabs = PDFFormXObject.format
    monkeypatch.setattr(PDFFormXObject, "format", lambda form, doc: formatted.append(form) or reportlabs(form, doc))
    ours, theirs = io.BytesIO(), io.BytesIO()
    _draw(ours, True)
    assert len(formatted) == 4  # ReportLab formats the art form, the first face of each box and the face with art
    del formatted[:]
    _draw(theirs, False)
    assert ours.getvalue() == theirs.getvalue()
    assert len(formatted) == 13
    assert ours.getvalue().count(b"/Subtype /Form") == 13
