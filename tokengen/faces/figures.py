"""ReportLab drawing of the figures of :mod:`tokengen.geometry.figures`: paths, strokes with dashes,
caps and joins, gradient fills as PDF shadings, turned drawing and text set along a circle.

Coordinates are the face's (pt, origin at the trim's lower-left corner, y up). A gradient is an
axial (linear) or radial PDF shading clipped to the figure's path, its colours painted through
the face's ``paint`` (so a CMYK output's shading is DeviceCMYK, an RGB one's DeviceRGB). Text on
a circle is real text: one text object, each character placed by its own text matrix (``Tm``)
turned to stand on the circle.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from reportlab.lib.colors import Color
from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from ..geometry import figures as geo
from ..model import Colour
from ..sources import fonts
from ..sources.template import Element, Gradient

#: The element kinds whose outline :func:`figure_path` gives.
FIGURE_KINDS = ("line", "polygon", "regular", "star", "ellipse", "sector")
#: ReportLab's numbers for the ``cap`` and ``join`` words.
CAPS = {"butt": 0, "round": 1, "square": 2}
JOINS = {"miter": 0, "round": 1, "bevel": 2}


def to_path(canvas: Canvas, path: geo.Path) -> Any:
    """A ReportLab path object drawing ``path`` (see :data:`tokengen.geometry.figures.Path`)."""
    p = canvas.beginPath()
    for c in path:
        op, xy = c[0], [float(v) for v in c[1:]]
        if op == "M":
            p.moveTo(*xy)
        elif op == "L":
            p.lineTo(*xy)
        elif op == "C":
            p.curveTo(*xy)
        else:
            p.close()
    return p


def turn(canvas: Canvas, centre: geo.Point, degrees: float) -> None:
    """Turn what is drawn next ``degrees`` clockwise (as the face is seen) about ``centre`` (a ``cm``)."""
    canvas.transform(*geo.turn_matrix(centre, degrees))


@dataclass(frozen=True)
class Stroke:
    """How an outline is stroked: its colour (a ReportLab colour already painted), width (pt),
    dash (on, off pt; None: solid), cap and join words."""

    colour: Color
    width: float
    dash: tuple[float, float] | None = None
    cap: str = "butt"
    join: str = "miter"

    def apply(self, canvas: Canvas) -> None:
        """Set this stroke on ``canvas`` (inside a saved state: the dash and cap outlive the figure)."""
        canvas.setStrokeColor(self.colour)
        canvas.setLineWidth(self.width)
        if self.cap != "butt":
            canvas.setLineCap(CAPS[self.cap])
        if self.join != "miter":
            canvas.setLineJoin(JOINS[self.join])
        if self.dash is not None:
            canvas.setDash([self.dash[0], self.dash[1]], 0)


def shade(canvas: Canvas, clip: Any, gradient: Gradient, colours: Sequence[Color], box: tuple[float, float, float, float]) -> None:
    """Fill the ReportLab path ``clip`` with ``gradient`` in ``colours`` (painted ReportLab
    colours, one colour space): a PDF shading clipped to the path. ``box`` (x, y, w, h pt) is
    what the gradient spans: a linear one the line through its centre in the gradient's
    direction (:func:`tokengen.geometry.figures.gradient_axis`), a radial one from its ``centre``
    out to ``radius`` times its larger side (by default from its centre to half its larger side)."""
    x, y, w, h = box
    stops = list(gradient.stops) or None
    canvas.saveState()
    canvas.clipPath(clip, stroke=0, fill=0)
    if gradient.kind == "radial" and gradient.centre == (0.5, 0.5) and gradient.radius == 0.5:
        canvas.radialGradient(x + w / 2, y + h / 2, max(w, h) / 2, list(colours), stops, extend=True)
    elif gradient.kind == "radial":  # its own centre (fractions of the box from its top-left) and radius
        cx, cy = x + gradient.centre[0] * w, y + h * (1 - gradient.centre[1])
        canvas.radialGradient(cx, cy, gradient.radius * max(w, h), list(colours), stops, extend=True)
    else:
        (x0, y0), (x1, y1) = geo.gradient_axis((x, y, w, h), gradient.angle)
        canvas.linearGradient(x0, y0, x1, y1, list(colours), stops, extend=True)
    canvas.restoreState()


def draw_figure(canvas: Canvas, path: Any, fill: Color | None, gradient: tuple[Gradient, Sequence[Color]] | None,
                stroke: Stroke | None, box: tuple[float, float, float, float]) -> None:
    """Paint the ReportLab path ``path``: filled in ``fill`` or shaded with ``gradient`` (the
    gradient and its painted colours; ``box``: what it spans, see :func:`shade`), then stroked
    with ``stroke``."""
    if gradient is not None:
        shade(canvas, path, gradient[0], gradient[1], box)
    if fill is None and stroke is None:
        return
    canvas.saveState()
    if fill is not None:
        canvas.setFillColor(fill)
    if stroke is not None:
        stroke.apply(canvas)
    canvas.drawPath(path, stroke=int(stroke is not None), fill=int(fill is not None))
    canvas.restoreState()


def painted_gradient(gradient: Gradient, values: dict[str, Any], paint: Callable[..., Color]) -> list[Color] | None:
    """The gradient's colours with these field ``values``, painted as large fills (None: a
    colour field has no colour)."""
    colours = gradient.resolve(values)
    return None if colours is None else [paint(c, area=True) for c in colours]


def draw_text_turned(canvas: Canvas, text: str, font: str, size: float, left: float, baseline: float, anchor: geo.Point,
                     degrees: float, colour: Color, char_space: float = 0.0, mode: Literal[0, 1, 2, 3, 4, 5, 6, 7] | None = None) -> None:
    """One line of text whose box begins at ``left`` on ``baseline`` (pt), turned ``degrees``
    clockwise about ``anchor``: a text object whose text matrix carries the turn, set again at
    each run of :func:`tokengen.sources.fonts.kerned_runs` (the font's kerning). ``mode``: a PDF
    text render mode (2: filled and outlined in the canvas's stroke; None: filled only)."""
    a, b, c, d, e, f = geo.turn_matrix(anchor, degrees)
    t = canvas.beginText()
    t.setFont(font, size)
    if mode is not None:
        t.setTextRenderMode(mode)
    for n, (dx, run) in enumerate(fonts.kerned_runs(text, font, size, char_space)):  # one run unless the font kerns a pair
        x = left + dx
        t.setTextTransform(a, b, c, d, a * x + c * baseline + e, b * x + d * baseline + f)
        if n == 0 and char_space:
            t.setCharSpace(char_space)
        t.textOut(run)
    canvas.setFillColor(colour)
    canvas.drawText(t)


@dataclass(frozen=True)
class ArcSet:
    """A text set along a circle: its characters' places, font and size (pt), and whether it
    fitted between its ``start`` and ``end`` (False: set at the smallest size and still longer)."""

    glyphs: tuple[geo.Glyph, ...]
    font: str
    size: float
    fits: bool = True


def set_arc(text: str, font: str, largest: float, spacing: float, centre: geo.Point, r: float, start: float,
            end: float | None, align: str, side: str, clockwise: bool, fit: bool, smallest: float = 4.0) -> ArcSet:
    """Set ``text`` in ``font`` along the circle of radius ``r`` pt about ``centre`` (see
    :func:`tokengen.geometry.figures.arc_text`): at ``largest`` pt, shrunk (when ``fit`` and an
    ``end`` bounds it) until it fits the arc from ``start`` to ``end``, but not below ``smallest``.
    ``spacing`` is extra space after each character, a fraction of the size; each character's
    advance is kerned as the font kerns it with the next (:func:`tokengen.sources.fonts.kerns`),
    so a kerned pair's origins lie its kerned advance apart along the arc.

    Raises:
        ValueError: the baseline circle has no radius (an inside text taller than the circle).
    """
    ascent = pdfmetrics.getAscentDescent(font, 1.0)[0]
    kerning = fonts.kerns(text, font)  # each character's advance kerned as the font kerns it with the next (HarfBuzz)
    widths = [pdfmetrics.stringWidth(ch, font, 1.0) + spacing + k for ch, k in zip(text, kerning, strict=True)]

    def room_left(size: float) -> float:
        radius = geo.arc_radius(r, ascent * size, side, clockwise)
        room = 360.0 if end is None else (geo.span(start, end) if clockwise else geo.span(end, start))
        return room - geo.arc_sweep(sum(widths) * size, radius)

    size, fits = largest, True
    if end is not None and room_left(largest) < 0:
        if not fit or room_left(min(smallest, largest)) < 0:
            size, fits = (largest if not fit else min(smallest, largest)), False
        else:
            lo, hi = min(smallest, largest), largest
            for _ in range(30):
                mid = (lo + hi) / 2
                lo, hi = (mid, hi) if room_left(mid) >= 0 else (lo, mid)
            size = lo
    radius = geo.arc_radius(r, ascent * size, side, clockwise)
    glyphs = geo.arc_text([(ch, w * size) for ch, w in zip(text, widths, strict=True)], centre[0], centre[1], radius,
                          start, end, align, clockwise)
    return ArcSet(tuple(glyphs), font, size, fits)


def draw_arc(canvas: Canvas, laid: ArcSet, colour: Color) -> None:
    """Draw a text set by :func:`set_arc`: one text object, a text matrix for each character."""
    import math

    t = canvas.beginText()
    t.setFont(laid.font, laid.size)
    for g in laid.glyphs:
        a = math.radians(g.turn)
        t.setTextTransform(math.cos(a), -math.sin(a), math.sin(a), math.cos(a), g.x, g.y)
        t.textOut(g.char)
    canvas.setFillColor(colour)
    canvas.drawText(t)


def end_form(canvas: Canvas, name: str) -> None:
    """End the Form XObject ``name`` begun on ``canvas``, listing the shadings it paints in its
    own resources. ReportLab (5.x) gives a form's resources no ``/Shading`` entry, so a
    gradient drawn in a form would name a shading its form does not hold; this adds the entry
    (only for a form that paints one, so every other form is written as before). Reaches into
    the canvas' private shading list, the one place ReportLab keeps it."""
    shadings = getattr(canvas, "_shadingUsed", None)
    if not shadings:  # most forms: as ReportLab ends them
        canvas.endForm()
        return
    used = dict(shadings)
    canvas.endForm()
    doc: Any = getattr(canvas, "_doc")  # noqa: B009  (private to ReportLab: the document the forms are in)
    form = doc.idToObject[pdfdoc.xObjectName(name)]
    resources: Any = pdfdoc.PDFResourceDictionary()
    resources.basicFonts()
    resources.allProcs()
    if form.XObjects:
        resources.XObject = form.XObjects
    resources.setShading(used)
    form.Resources = resources


def colour_or_black(colour: Colour | None) -> Colour:
    """``colour``, or black when the element gives none (text and lines)."""
    return colour if colour is not None else Colour("rgb", (0.0, 0.0, 0.0))


def _pt(element_at: tuple[float, float], width: float, height: float) -> geo.Point:
    return (element_at[0] * width, height * (1 - element_at[1]))


def figure_path(element: Element, width: float, height: float) -> geo.Path:
    """The outline (pt, face coordinates, not yet turned) of a ``line``, ``polygon``,
    ``regular``, ``star``, ``ellipse`` or ``sector`` element on a ``width`` × ``height`` pt face."""
    side = min(width, height)
    if element.kind in ("line", "polygon"):
        return geo.polygon([_pt(p, width, height) for p in element.points], closed=element.kind == "polygon")
    if element.kind == "path":
        return [(c[0], *(float(v) * width if i % 2 == 0 else height * (1 - float(v)) for i, v in enumerate(c[1:])))
                for c in element.commands]
    if element.kind == "ellipse":
        x, y, w, h = element.box
        return geo.ellipse(x * width, height * (1 - (y + h)), w * width, h * height)
    cx, cy = _pt(element.at, width, height)
    r = element.r.resolve(side)
    if element.kind == "regular":
        return geo.polygon(geo.regular(element.sides, cx, cy, r))
    if element.kind == "star":
        return geo.polygon(geo.star(element.sides, cx, cy, r, element.inner))
    if element.kind == "sector":
        end = element.start + 360.0 if element.end is None else element.end
        return geo.sector(cx, cy, r, element.start, end, element.inner * r)
    raise ValueError(f"{element.kind} is not a figure")


def centre(element: Element, width: float, height: float, bleed: float = 0.0) -> geo.Point:
    """The point (pt) ``element`` turns about (``rotate``): its box centre (rect, ellipse, image,
    boxed text), its ``at`` point (one-line text, circle, regular, star, sector, arc text), the
    centre of its corners' box (line, polygon) or the token centre (frame, a full-bleed image)."""
    if element.kind in ("line", "polygon", "path"):
        x, y, w, h = geo.bounds(geo.path_points(figure_path(element, width, height)) if element.kind == "path"
                                else [_pt(p, width, height) for p in element.points])
        return (x + w / 2, y + h / 2)
    if element.kind == "frame" or (element.kind == "image" and element.bleed and bleed > 0):
        return (width / 2, height / 2)
    if element.kind in ("rect", "ellipse", "image") or (element.kind in ("text", "glyph") and element.boxed):
        x, y, w, h = element.box
        return ((x + w / 2) * width, height * (1 - (y + h / 2)))
    return _pt(element.at, width, height)
