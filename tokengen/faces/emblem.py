"""The default Meatshield emblem (vector, drawn by tokengen; no image files) and the text boxes
that keep art and emblems clear of a face's text.

Every measure is a fraction of the token trim size ``s`` (pt), with the origin at the trim's
lower-left corner, matching the face layout in :mod:`tokengen.faces.render` (glyph baseline at
0.575 s, attribute code at 0.325 s, caption at 0.175 s, all centred).

* Faces without art keep their frame and text only: on a 1 in token any further ornament
  crowds the priority glyph, which is what players read across the table.
* The back without art gets a filled heater shield with a chevron (:func:`back_emblem`).
* Faces and backs with art print their text on opaque plates (the face template's ``plate``
  groups, see :mod:`tokengen.faces.facedraw`; :func:`back_text_box`) so text never sits on the picture.
"""

from __future__ import annotations

from reportlab.lib.colors import Color
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from ..geometry.imposition import Rect
from ..sources import fonts

#: Glyph baseline, code baseline, caption baseline (fractions of s), as drawn by render.
GLYPH_Y, CODE_Y, CAPTION_Y = 0.575, 0.325, 0.175
#: Shield width as a fraction of its height.
SHIELD_RATIO = 0.8
#: Padding around text boxes (fraction of s).
PAD = 0.02


def text_box(text: str, font: str, size: float, cx: float, baseline: float, char_space: float = 0.0) -> Rect:
    """Bounding box (pt) of ``text`` set in ``font`` at ``size`` pt, centred on ``cx``, on
    ``baseline``: advance width (plus ``char_space`` between characters) × ascent..descent."""
    width = pdfmetrics.stringWidth(text, font, size) + char_space * max(0, len(text) - 1)
    ascent, descent = pdfmetrics.getAscentDescent(font, size)
    return Rect(cx - width / 2, baseline + descent, width, ascent - descent)


def shield_path(canvas: Canvas, box: Rect):
    """A heater-shield path filling ``box`` (pt): flat top, curved sides meeting in a point."""
    x, y, w, h = box.x, box.y, box.w, box.h
    cx = x + w / 2
    p = canvas.beginPath()
    p.moveTo(x, y + h)
    p.lineTo(x + w, y + h)
    p.curveTo(x + w, y + 0.42 * h, x + 0.78 * w, y + 0.16 * h, cx, y)
    p.curveTo(x + 0.22 * w, y + 0.16 * h, x, y + 0.42 * h, x, y + h)
    p.close()
    return p


def back_emblem_box(s: float, with_text: bool) -> Rect:
    """Where the back's shield goes (pt): above the back text when there is one, else centred."""
    h = 0.44 * s if with_text else 0.56 * s
    w = SHIELD_RATIO * h
    cy = 0.6 * s if with_text else 0.5 * s
    return Rect(s / 2 - w / 2, cy - h / 2, w, h)


def back_emblem(canvas: Canvas, s: float, ink: Color, background: Color, with_text: bool) -> None:
    """The default back: a filled shield in ``ink`` with an inner rim and a chevron in
    ``background``, above the back text (drawn by the caller at 0.2 s) when ``with_text``."""
    box = back_emblem_box(s, with_text)
    canvas.saveState()
    canvas.setFillColor(ink)
    canvas.drawPath(shield_path(canvas, box), stroke=0, fill=1)
    inner = box.grow(-0.07 * box.h)
    canvas.setStrokeColor(background)
    canvas.setLineWidth(0.025 * box.h)
    canvas.drawPath(shield_path(canvas, inner), stroke=1, fill=0)
    # chevron: a broad inverted V across the shield, clipped to the rim
    canvas.saveState()
    canvas.clipPath(shield_path(canvas, inner), stroke=0, fill=0)
    cx, half = box.x + box.w / 2, box.w / 2
    apex, drop, thick = inner.y + 0.78 * inner.h, 0.34 * box.h, 0.15 * box.h
    p = canvas.beginPath()
    p.moveTo(cx - half, apex - drop)
    p.lineTo(cx, apex)
    p.lineTo(cx + half, apex - drop)
    p.lineTo(cx + half, apex - drop - thick)
    p.lineTo(cx, apex - thick)
    p.lineTo(cx - half, apex - drop - thick)
    p.close()
    canvas.setFillColor(background)
    canvas.drawPath(p, stroke=0, fill=1)
    canvas.restoreState()
    canvas.restoreState()


def back_text_box(text: str, font: str, s: float) -> Rect:
    """The back text's box (pt), padded, as drawn by render (baseline 0.2 s, at most 0.13 s)."""
    size = fonts.fit_size(text, font, s * (1 - 2 * 0.13), 0.13 * s)
    return text_box(text, font, size, s / 2, 0.2 * s).grow(PAD * s)
