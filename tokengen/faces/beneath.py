"""What a face template paints beneath a picture: the colour its transparency is flattened onto.

PDF/X-1a allows no transparency, so CMYK outputs flatten a picture's transparent pixels onto one
colour (see :mod:`tokengen.faces.art`). For a face drawn from a template that colour is what actually
lies under the picture: the fill of the topmost ``rect`` or ``circle`` drawn before it that
covers the whole visible picture, else paper (None). When shapes drawn between that one and the
picture cover only part of it, what lies beneath is not one colour; the picture is then
flattened onto the colour under its centre and :func:`underlay` says so (``uniform`` False).
A gradient is not one colour either: a picture over one is flattened onto its middle colour, not
uniform. A turned (``rotate``) rect or circle is tested in its own turned frame; the figures
(lines, polygons, stars, sectors, ellipses, text on a circle) only count as painting where their
box reaches.

Pure geometry, no drawing: lengths in pt, face coordinates with the origin at the trim's
lower-left corner and y up; template boxes are fractions of the token from its top-left corner.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..geometry import figures as geo
from ..geometry.imposition import Rect
from ..model import Colour
from ..sources.template import Element, Gradient, Template, colour_of
from . import figures

#: Slack (pt) when deciding that a shape covers a box: rounding in fractions of the token.
EPS = 1e-6


def box_pt(width: float, height: float, box: tuple[float, float, float, float]) -> Rect:
    """A template box (x, y, w, h as fractions, from the top-left) on a ``width`` × ``height``
    pt face, as a :class:`Rect` in pt from the bottom-left."""
    x, y, w, h = box
    return Rect(x * width, height * (1 - (y + h)), w * width, h * height)


def rect_area(element: Element, width: float, height: float, bleed: float) -> Rect:
    """The rectangle (pt) a ``rect`` element fills: its box, with edges on the trim run out to
    the bleed edge when it asks for ``bleed``."""
    box = box_pt(width, height, element.box)
    if not element.bleed:
        return box
    x0 = box.x - bleed if box.x <= 1e-9 else box.x
    y0 = box.y - bleed if box.y <= 1e-9 else box.y
    x1 = box.x1 + bleed if box.x1 >= width - 1e-9 else box.x1
    y1 = box.y1 + bleed if box.y1 >= height - 1e-9 else box.y1
    return Rect(x0, y0, x1 - x0, y1 - y0)


@dataclass(frozen=True)
class Underlay:
    """The colour under a picture (None: paper) and whether it is that colour all over."""

    colour: Colour | None
    uniform: bool = True


def _corners(box: Rect) -> list[tuple[float, float]]:
    return [(box.x, box.y), (box.x1, box.y), (box.x, box.y1), (box.x1, box.y1)]


def _in_rect(point: tuple[float, float], rect: Rect, radius: float) -> bool:
    """Whether ``point`` lies inside ``rect`` with corners rounded to ``radius`` pt."""
    x, y = point
    if not (rect.x - EPS <= x <= rect.x1 + EPS and rect.y - EPS <= y <= rect.y1 + EPS):
        return False
    r = min(radius, rect.w / 2, rect.h / 2)
    if r <= 0:
        return True
    cx = min(max(x, rect.x + r), rect.x1 - r)
    cy = min(max(y, rect.y + r), rect.y1 - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r + EPS


def _turned_box(box: Rect, centre: tuple[float, float], degrees: float) -> Rect:
    x, y, w, h = geo.bounds([geo.turned(p, centre, degrees) for p in _corners(box)])
    return Rect(x, y, w, h)


def _shape(element: Element, width: float, height: float, bleed: float) -> Any:
    """A point test for a filled element's area (pt), and its bounding box (a turned element:
    the point is turned back into the element's own frame first)."""
    if element.rotate:
        inside, box = _upright_shape(element, width, height, bleed)
        centre = figures.centre(element, width, height, bleed)
        return (lambda p: inside(geo.turned(p, centre, -element.rotate))), _turned_box(box, centre, element.rotate)
    return _upright_shape(element, width, height, bleed)


def _upright_shape(element: Element, width: float, height: float, bleed: float) -> Any:
    side = min(width, height)
    if element.kind == "rect":
        area = rect_area(element, width, height, bleed)
        radius = element.radius.resolve(side)
        return (lambda p: _in_rect(p, area, radius)), area
    x, y = element.at
    cx, cy, r = x * width, height * (1 - y), element.r.resolve(side)
    return (lambda p: (p[0] - cx) ** 2 + (p[1] - cy) ** 2 <= r * r + EPS), Rect(cx - r, cy - r, 2 * r, 2 * r)


def _touches(element: Element, visible: Rect, values: dict[str, Any], width: float, height: float, bleed: float) -> bool:
    """Whether ``element`` (other than a fill covering all of ``visible``) may paint inside
    ``visible``: judged by the box it may paint (pt); a frame by its stroke's ring. The check of
    each kind of element comes from :data:`_TOUCHES`; texts and glyphs by their box or line."""
    face = _Face(width, height, bleed, values)
    stroke = element.width.resolve(min(width, height)) if element.width else 0.0
    check = _TOUCHES.get(element.kind)
    if check is None:
        check = _figure_touches if element.kind in figures.FIGURE_KINDS else _boxed_touches if element.boxed else _text_touches
    return check(element, visible, face, stroke)


@dataclass(frozen=True)
class _Face:
    """The face an element is judged on: its ``width`` × ``height`` and ``bleed`` (pt) and the
    token's ``values`` (for colours named by field)."""

    width: float
    height: float
    bleed: float
    values: dict[str, Any]

    @property
    def side(self) -> float:
        return min(self.width, self.height)


def _upright(box: Rect, element: Element, face: _Face) -> Rect:
    """``box``, or the box around it turned by the element's ``rotate`` about its centre."""
    if element.rotate:
        return _turned_box(box, figures.centre(element, face.width, face.height, face.bleed), element.rotate)
    return box


def _shape_touches(element: Element, visible: Rect, face: _Face, stroke: float) -> bool:
    """A rect or circle: when it paints at all, by its box grown by half its stroke."""
    painted = colour_of(element.fill, face.values) is not None or (colour_of(element.stroke, face.values) is not None and stroke > 0)
    return painted and _overlaps(_shape(element, face.width, face.height, face.bleed)[1].grow(stroke / 2), visible)


def _figure_touches(element: Element, visible: Rect, face: _Face, stroke: float) -> bool:
    """A figure (line, polygon, star, …): by the box of its path, turned, grown by half its stroke."""
    x, y, w, h = geo.bounds(geo.path_points(figures.figure_path(element, face.width, face.height)))
    return _overlaps(_upright(Rect(x, y, w, h), element, face).grow(stroke / 2), visible)


def _arc_text_touches(element: Element, visible: Rect, face: _Face, stroke: float) -> bool:
    """Text on an arc: by the square around its circle, reaching one text size past the radius."""
    x, y = element.at
    reach = element.r.resolve(face.side) + element.size.resolve(face.side)
    return _overlaps(Rect(x * face.width - reach, face.height * (1 - y) - reach, 2 * reach, 2 * reach), visible)


def _frame_touches(element: Element, visible: Rect, face: _Face, stroke: float) -> bool:
    """A frame: by its stroke's ring (``visible`` wholly inside the ring's hole is untouched)."""
    width, height = face.width, face.height
    if colour_of(element.colour, face.values) is None or stroke <= 0:
        return False
    inset = element.inset.resolve(face.side)
    inner = Rect(0, 0, width, height).grow(-inset - stroke / 2)
    radius = max(0.0, element.radius.resolve(face.side) - stroke / 2)
    return _overlaps(Rect(0, 0, width, height).grow(-inset + stroke / 2), visible) and not all(
        _in_rect(p, inner, radius) for p in _corners(visible))


def _image_touches(element: Element, visible: Rect, face: _Face, stroke: float) -> bool:
    """A picture: by its box, turned."""
    return _overlaps(_upright(box_pt(face.width, face.height, element.box), element, face), visible)


def _boxed_touches(element: Element, visible: Rect, face: _Face, stroke: float) -> bool:
    """A boxed text: it paints inside its box."""
    return _overlaps(box_pt(face.width, face.height, element.box), visible)


def _text_touches(element: Element, visible: Rect, face: _Face, stroke: float) -> bool:
    """A text or glyph: its fit width about the anchor, one line high, turned."""
    size = element.size.resolve(face.side)
    left, right = element.text_span(face.width)
    y = face.height * (1 - element.at[1])
    return _overlaps(_upright(Rect(left, y - 0.3 * size, right - left, 1.3 * size), element, face), visible)


#: The check of each kind of element that has its own (figures, boxed texts and texts aside).
_TOUCHES: dict[str, Callable[[Element, Rect, _Face, float], bool]] = {
    "rect": _shape_touches,
    "circle": _shape_touches,
    "arc_text": _arc_text_touches,
    "frame": _frame_touches,
    "image": _image_touches,
}


def _overlaps(a: Rect, b: Rect) -> bool:
    return a.x < b.x1 - EPS and b.x < a.x1 - EPS and a.y < b.y1 - EPS and b.y < a.y1 - EPS


def visible_box(drawn: Rect, clip: Rect) -> Rect:
    """Where a picture drawn at ``drawn`` and clipped to ``clip`` shows (pt; empty: zero size)."""
    x0, y0 = max(drawn.x, clip.x), max(drawn.y, clip.y)
    return Rect(x0, y0, max(0.0, min(drawn.x1, clip.x1) - x0), max(0.0, min(drawn.y1, clip.y1) - y0))


def underlay(template: Template, index: int, values: dict[str, Any], width: float, height: float, bleed: float,
             visible: Rect) -> Underlay:
    """What lies under the picture of ``template.elements[index]`` where it shows (``visible``,
    pt): the fill of the topmost earlier ``rect`` or ``circle`` covering all of ``visible``
    (None: nothing does, paper). When an element drawn between that one and the picture
    overlaps ``visible``, the colour is the one under the centre of ``visible`` and
    ``uniform`` is False."""
    centre = (visible.x + visible.w / 2, visible.y + visible.h / 2)
    mixed = False
    at_centre: Colour | None = None
    centre_found = False
    for element in reversed(template.elements[:index]):
        fill = colour_of(element.fill, values) if element.kind in ("rect", "circle") else None
        if fill is not None:
            inside, _ = _shape(element, width, height, bleed)
            if all(inside(p) for p in _corners(visible)):
                return Underlay(at_centre if centre_found else fill, not mixed and not isinstance(element.fill, Gradient))
            if not centre_found and inside(centre):
                at_centre, centre_found = fill, True
        mixed = mixed or _touches(element, visible, values, width, height, bleed)
    return Underlay(at_centre, not mixed)
