"""A template's stacks laid out: each ``stack:`` measured and replaced by its elements, placed.

:func:`laid_out` turns a template with stacks into a plain one: every element of a stack is
given the box :func:`tokengen.geometry.stack.place` computes for it, so the drawing, the checks
(cut text, small text, glyphs) and every export see the same elements at the same places and
draw them with their usual drawers. Laid out once per face and token values (a cache).

How long an element is along its stack:

* a text or glyph: its natural height at the stack's width (a row: its one-line width, or its
  box's width), set at its ``size``. When the stack's texts together are longer than the box,
  all of them shrink by one common scale (each no smaller than its ``min_size``, sizes in
  1/100 pt as :func:`tokengen.faces.textbox.fit_box` takes them; one with ``fit: false`` keeps
  its size); if they are still too long
  at their smallest, the last ones are cut (with ``…``, and the usual cut warning naming them).
* an element with a ``box``: the box's height (a row: width); across, the box's other side
  (``align: stretch`` takes the whole of the stack's).
* a circle, regular polygon, star or sector without a box: ``2 r`` each way.
* any other element without a box (a rule drawn with ``line:``): no length, the stack's width.

Coordinates an element gives (a line's points, a path, a figure's ``at``, a picture's ``clip``)
are fractions of its place in the stack, not of the token.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from reportlab.pdfbase import pdfmetrics

from ..geometry import stack as geo
from ..sources import markup as mk
from ..sources.fonts import Family
from ..sources.markup import Doc
from ..sources.template import Element, Size, Template, boxed_text, family_of

if TYPE_CHECKING:
    from . import textbox

#: A box height (pt) no text fills: the natural height of a text is measured in it.
TALL = 100_000.0
#: A text child of a stack as set: its parsed text, font family, and largest and smallest size (pt).
_TextSet = tuple[Doc, Family, float, float]
#: Scale steps tried when the stack's texts shrink together (bisection to 1/2**14 of their size).
STEPS = 14
#: Stack layouts kept (one per stack, token size and texts; a build asks for each several times).
CACHE = 4096
_AROUND = ("circle", "regular", "star", "sector")


def laid_out(face_w: float, face_h: float, template: Template, values: dict[str, Any]) -> Template:
    """``template`` on a ``face_w`` × ``face_h`` pt token with these ``values``, each stack
    replaced by its elements in their computed places (``template`` itself when it has none).

    Raises:
        CatalogueError: bad markup in a stack's text (naming the template's file, line and element).
        RenderError: a glyph a text's font lacks; an unreadable icon.
    """
    if "stack" not in template.kinds():
        return template
    elements: list[Element] = []
    bare = replace(template, elements=())  # what measuring reads of the template (fonts, icons, lang): a small cache key
    for element in template.elements:
        if element.kind != "stack":
            elements.append(element)
            continue
        texts = tuple(boxed_text(c, values) if c.kind in ("text", "glyph") else "" for c in element.children)
        elements += _placed(face_w, face_h, bare, element, texts)
    return replace(template, elements=tuple(elements))


@lru_cache(maxsize=CACHE)
def _height(doc: Doc, width: float, family: Family, size: float, leading: float, align: str, lang: str) -> float:
    """The natural height (pt) of ``doc`` set ``width`` pt wide at ``size`` pt."""
    from . import textbox

    return textbox.fit_box(doc, max(width, 0.01), TALL, family, size, min_size=size, leading=leading, align=align,
                           fit=False, hyphenate=lang or None).height


@lru_cache(maxsize=CACHE)
def _width(doc: Doc, family: Family, size: float) -> float:
    """The natural width (pt) of ``doc`` at ``size`` pt: its longest paragraph on one line (in
    the bold font when the regular one would wrap it: the text has bold spans)."""
    from . import textbox

    def widest(font: str) -> float:
        return max((pdfmetrics.stringWidth(mk.plain(items), font, size) for items in doc), default=0.0) + 0.01

    width = widest(family.regular)
    laid: textbox.Laid = textbox.fit_box(doc, max(width, 0.01), TALL, family, size, min_size=size, fit=False)
    if len(laid.lines) > len(doc):
        width = max(width, widest(family.bold), widest(family.bold_italic))
    return width


@lru_cache(maxsize=CACHE)
def _placed(face_w: float, face_h: float, template: Template, stack: Element, texts: tuple[str, ...]) -> tuple[Element, ...]:
    """The elements of ``stack`` (their texts ``texts``) placed on a ``face_w`` × ``face_h`` pt token."""
    side = min(face_w, face_h)
    box = (stack.box[0] * face_w, stack.box[1] * face_h, stack.box[2] * face_w, stack.box[3] * face_h)
    row = stack.direction == "row"
    gap = stack.gap.resolve(side)
    length, across = (box[2], box[3]) if row else (box[3], box[2])
    sets = _text_sets(template, stack, texts, side)

    def measured(scale: float) -> list[geo.Child]:
        at = _sizes(sets, scale)
        return [_child(child, sets.get(i), at.get(i, 0.0), face_w, face_h, row, across, stack.align, template)
                for i, child in enumerate(stack.children)]

    scale = _fitting_scale(measured, sets, gap, length)
    children = measured(scale)
    at = _sizes(sets, scale)
    cells = geo.place(box, children, gap, row, stack.align)
    return tuple(_moved(child, cell, face_w, face_h, at.get(i))
                 for i, (child, cell) in enumerate(zip(stack.children, cells, strict=True)) if child.kind != "spacer")


def _text_sets(template: Template, stack: Element, texts: tuple[str, ...], side: float) -> dict[int, _TextSet]:
    """Each text or glyph child of ``stack`` by its index: its parsed text, its font family, and
    its largest and smallest size in pt (one size when it does not fit)."""
    source = template.source or f"template '{template.name}'"
    sets: dict[int, _TextSet] = {}
    for i, child in enumerate(stack.children):
        if child.kind in ("text", "glyph"):
            largest = child.size.resolve(side)
            smallest = min(child.min_size.resolve(side), largest) if child.fit else largest  # fit: false keeps its size
            sets[i] = (mk.parse_once(texts[i], template.icons, child.markup, source, child.line, child.where),
                       family_of(template, child.font), largest, smallest)
    return sets


def _sizes(sets: dict[int, _TextSet], scale: float) -> dict[int, float]:
    """Each text's size at ``scale`` of its largest, in hundredths of a pt down, at least its smallest."""
    return {i: max(math.floor(largest * scale * 100 + 1e-6) / 100, smallest) for i, (_, _, largest, smallest) in sets.items()}


def _fitting_scale(measured: Callable[[float], list[geo.Child]], sets: dict[int, _TextSet], gap: float, length: float) -> float:
    """The largest scale of the texts' sizes (1: as given) at which the children ``measured``
    fit ``length`` pt with ``gap`` between them, found by :data:`STEPS` halvings; the least scale
    when even that does not fit."""
    if not (sets and geo.need(measured(1.0), gap) > length + 1e-6):
        return 1.0
    low = max((smallest / largest for _, _, largest, smallest in sets.values() if smallest < largest), default=1.0)
    if geo.need(measured(low), gap) <= length + 1e-6:
        high = 1.0
        for _ in range(STEPS):  # low fits, high does not
            mid = (low + high) / 2
            low, high = (mid, high) if geo.need(measured(mid), gap) <= length + 1e-6 else (low, mid)
    return low


def _child(child: Element, text: _TextSet | None, size: float, face_w: float, face_h: float,
           row: bool, across: float, align: str, template: Template) -> geo.Child:
    """How long ``child`` is along its stack and across it (a text set at ``size`` pt)."""
    if child.kind == "spacer":
        return geo.Child(0.0, None, child.weight)
    if text is not None:
        return _text_child(child, text, size, face_w, row, across, align, template)
    if not child.sized and child.kind in _AROUND:
        d = 2 * child.r.resolve(min(face_w, face_h))
        return geo.Child(d, d)
    if not child.sized:
        return geo.Child(0.0, None)
    w, h = child.box[2] * face_w, child.box[3] * face_h
    return geo.Child(w, h) if row else geo.Child(h, w)


def _text_child(child: Element, text: _TextSet, size: float, face_w: float, row: bool, across: float, align: str,
                template: Template) -> geo.Child:
    """How long a text ``child`` set at ``size`` pt is along its stack and across it: in a row
    its width (its box's, or its text's), in a column its height at the width it gets."""
    doc, family, _, _ = text
    lang = child.lang or template.lang
    w = child.box[2] * face_w if child.sized else 0.0
    if not row:
        width = across if not child.sized or align == "stretch" else min(w, across)
        return geo.Child(_height(doc, width, family, size, child.leading, child.align, lang), width if child.sized else None)
    width = w if child.sized else _width(doc, family, size)
    return geo.Child(width, None if align == "stretch" else _height(doc, width, family, size, child.leading, child.align, lang))


def _moved(child: Element, cell: tuple[float, float, float, float], face_w: float, face_h: float, size: float | None) -> Element:
    """``child`` drawn in ``cell`` (pt): its box the cell, its own coordinates fractions of it."""
    x, y, w, h = cell[0] / face_w, cell[1] / face_h, cell[2] / face_w, cell[3] / face_h

    def inside(px: float, py: float) -> tuple[float, float]:
        return (x + px * w, y + py * h)

    if size is not None:  # a text: set at the stack's size, no shrinking of its own
        return replace(child, box=(x, y, w, h), size=Size(pt=size), min_size=Size(pt=size), fit=True, boxed=True, sized=False)
    clip = child.clip
    if clip is not None:
        clip = (*inside(clip[0], clip[1]), clip[2] * w, clip[3] * h)
    return replace(child, box=(x, y, w, h), at=inside(*child.at), clip=clip, sized=False,
                   points=tuple(inside(px, py) for px, py in child.points),
                   commands=tuple((c[0], *(v for k in range(1, len(c), 2) for v in inside(float(c[k]), float(c[k + 1]))))
                                  for c in child.commands))
