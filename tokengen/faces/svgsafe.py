"""Which SVGs svglib draws as a browser does: a conservative allow-list, checked element by element.

svglib (ReportLab drawings, kept as vectors in the PDF) misdraws much of SVG without a word:
``opacity`` on a shape or group, patterns, masks, markers, filters, ``gradientTransform``,
symbols scaled by ``<use width height>``, units such as ``mm`` … Measured against resvg's own
test suite (``bench/svgsuite.py``; docs/guide/art.md gives the figures), svglib drew 400 of 880
cases as the reference shows them. :func:`outside` names the first element or attribute of an
SVG that lies outside what it draws right; such an SVG is drawn by resvg as a picture instead
(:mod:`tokengen.faces.svgart`). Every SVG whose features all lie inside the list matched the
reference on that suite: the list was cut down until none was drawn differently.

The allow-list (anything else is outside, named by element, attribute and line):

* elements: the root ``<svg>`` (a nested one is outside), ``g``, ``defs``, ``title``,
  ``desc``, ``metadata`` (its content is ignored), ``path``, ``rect``, ``circle``,
  ``ellipse``, ``line``, ``polyline``, ``polygon``, ``linearGradient``, ``radialGradient``,
  ``stop``;
* the root with a ``viewBox`` or both ``width`` and ``height`` (numbers or ``px``), equal to
  the viewBox's size when both are given;
* geometry as plain numbers (user units: no ``mm``, no ``%``), every size an element needs
  given (a rect's width and height, a circle's ``r``, an ellipse's ``rx`` and ``ry``), corner
  radii positive and at most half the side; path data written plainly (:func:`_path`); an even
  count of points; transforms that keep areas;
* paint: ``none``, ``#rgb``/``#rrggbb``, ``rgb(r, g, b)`` in integers, a basic colour keyword
  (:data:`KEYWORDS`), or for ``fill`` only ``url(#id)`` naming a gradient in the same file;
  ``fill-rule``, stroke width, ``butt`` and ``round`` caps, joins, miter limit, dash arrays of
  positive numbers and an offset of zero or more; ``fill-opacity`` in a file without gradients
  (``opacity``, ``stroke-opacity`` and ``stop-opacity`` are outside);
* gradients in ``objectBoundingBox`` units with their coordinates (numbers or percentages), a
  positive radius, two stops or more, each with its ``offset`` (0 to 1, rising) and
  ``stop-color``; no ``gradientTransform``, ``spreadMethod`` other than ``pad``, focus, or
  ``href`` to another gradient;
* presentation attributes or a ``style`` attribute with the same properties; a ``<style>``
  element (CSS selectors) is outside.
"""

from __future__ import annotations

import re
from typing import Any

#: Elements svglib draws as a browser does (local names); ``svg`` only as the root.
ELEMENTS = frozenset({"svg", "g", "defs", "title", "desc", "metadata", "path", "rect", "circle", "ellipse", "line",
                      "polyline", "polygon", "linearGradient", "radialGradient", "stop"})
#: Basic colour keywords (CSS Color Level 3, section 4.1): the ones every reader names alike.
KEYWORDS = frozenset({"black", "silver", "gray", "white", "maroon", "red", "purple", "fuchsia", "green", "lime",
                      "olive", "yellow", "navy", "blue", "teal", "aqua"})

_NUMBER = r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"
_PLAIN = re.compile(rf"\s*{_NUMBER}\s*")
_PLAIN_PX = re.compile(rf"\s*{_NUMBER}(?:px)?\s*")
_PERCENT = re.compile(rf"\s*{_NUMBER}%?\s*")
_COLOUR = re.compile(r"\s*(?:#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6}|rgb\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*\))\s*")
_URL = re.compile(r"\s*url\(\s*#([^)\s]+)\s*\)\s*")
_DASHES = re.compile(rf"\s*{_NUMBER}(?:\s*,?\s*{_NUMBER})*\s*")
_TRANSFORM = re.compile(rf"\s*(?:(?:matrix|translate|scale|rotate|skewX|skewY)\s*\(\s*{_NUMBER}(?:\s*,?\s*{_NUMBER})*\s*\)\s*,?\s*)*")
_XMLNS = "http://www.w3.org/2000/xmlns/"


def _plain(value: str) -> bool:
    return bool(_PLAIN.fullmatch(value))


def _positive(value: str) -> bool:
    return _plain(value) and float(value) > 0


def _not_negative(value: str) -> bool:
    return _plain(value) and float(value) >= 0


def _opacity(value: str) -> bool:
    return _plain(value) and 0 <= float(value) <= 1


def _dashes(value: str) -> bool:
    if value.strip() == "none":
        return True
    if not _DASHES.fullmatch(value):
        return False
    numbers = [float(n) for n in re.findall(_NUMBER, value)]
    return all(n > 0 for n in numbers)


def _colour(value: str) -> bool:
    return bool(_COLOUR.fullmatch(value)) or value.strip() in KEYWORDS


#: Numbers each transform function takes.
_TRANSFORM_ARGS = {"matrix": (6,), "translate": (1, 2), "scale": (1, 2), "rotate": (1, 3), "skewX": (1,), "skewY": (1,)}


def _transform(value: str) -> bool:
    """A transform list whose every part keeps areas (no zero scale, no flat matrix)."""
    if not _TRANSFORM.fullmatch(value):
        return False
    for kind, args in re.findall(r"(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)", value):
        if not _keeps_area(kind, [float(n) for n in re.findall(_NUMBER, args)]):
            return False
    return True


def _keeps_area(kind: str, numbers: list[float]) -> bool:
    """One transform function ``kind`` with its ``numbers``: the right count, and no zero scale
    or matrix of determinant zero."""
    if len(numbers) not in _TRANSFORM_ARGS[kind]:
        return False
    if kind == "matrix":
        return numbers[0] * numbers[3] - numbers[1] * numbers[2] != 0
    if kind == "scale":
        return 0 not in numbers
    return True


#: Numbers each path command takes (upper and lower case alike).
_PATH_ARGS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}


def _path(value: str) -> bool:
    """Path data written plainly: starts with a move, each command with whole sets of numbers,
    a move after every close path, arc flags written apart (``0 1``, not ``01``)."""
    tokens = re.findall(rf"[MmLlHhVvCcSsQqTtAaZz]|{_NUMBER}|\S", value)
    if not tokens or tokens[0] not in "Mm":
        return False
    command, count, closed = "", 0, False
    for token in tokens + ["M"]:
        if token.upper() in _PATH_ARGS:
            if not _whole_sets(command, count) or closed and token.upper() != "M":
                return False
            closed = token.upper() == "Z"
            command, count = token, 0
        elif re.fullmatch(_NUMBER, token):
            count += 1
        elif token != ",":
            return False
    return True


def _whole_sets(command: str, count: int) -> bool:
    """Whether ``count`` numbers after the path command ``command`` ("" before the first) are
    whole sets of its arguments: at least one set, none for a close path."""
    if not command:
        return True
    need = _PATH_ARGS[command.upper()]
    return count > 0 and count % need == 0 if need else count == 0


def _points(value: str) -> bool:
    """An even count of numbers, nothing else."""
    if re.sub(rf"{_NUMBER}|[\s,]", "", value):
        return False
    numbers = re.findall(_NUMBER, value)
    return len(numbers) >= 2 and len(numbers) % 2 == 0


def _choice(*words: str) -> Any:
    return lambda value: value.strip() in words


#: Presentation properties (attribute or ``style``) inside the list, with the values allowed.
#: ``fill`` and ``stroke`` are checked by :func:`_paint` (a ``url(#id)`` must name a gradient).
PROPERTIES: dict[str, Any] = {
    "fill-rule": _choice("nonzero", "evenodd"),
    "stroke-width": _not_negative,
    "stroke-linecap": _choice("butt", "round"),
    "stroke-linejoin": _choice("miter", "round", "bevel"),
    "stroke-miterlimit": lambda v: _plain(v) and float(v) >= 1,
    "stroke-dasharray": _dashes,
    "stroke-dashoffset": _not_negative,
    "fill-opacity": _opacity,
    "stop-color": _colour,
}
#: Attributes that are not properties, per element (``*``: any element in the list).
ATTRIBUTES: dict[str, dict[str, Any]] = {
    "*": {"id": lambda v: True, "class": lambda v: True},
    "svg": {"version": lambda v: True, "baseProfile": lambda v: True, "width": lambda v: bool(_PLAIN_PX.fullmatch(v)),
            "height": lambda v: bool(_PLAIN_PX.fullmatch(v)), "viewBox": lambda v: True},
    "g": {"transform": lambda v: _transform(v)},
    "path": {"d": lambda v: _path(v)},
    "rect": {"x": _plain, "y": _plain, "width": _positive, "height": _positive, "rx": _positive, "ry": _positive},
    "circle": {"cx": _plain, "cy": _plain, "r": _positive},
    "ellipse": {"cx": _plain, "cy": _plain, "rx": _positive, "ry": _positive},
    "line": {"x1": _plain, "y1": _plain, "x2": _plain, "y2": _plain},
    "polyline": {"points": lambda v: _points(v)},
    "polygon": {"points": lambda v: _points(v)},
    "linearGradient": {"x1": lambda v: bool(_PERCENT.fullmatch(v)), "y1": lambda v: bool(_PERCENT.fullmatch(v)),
                       "x2": lambda v: bool(_PERCENT.fullmatch(v)), "y2": lambda v: bool(_PERCENT.fullmatch(v)),
                       "gradientUnits": _choice("objectBoundingBox"), "spreadMethod": _choice("pad")},
    "radialGradient": {"cx": lambda v: bool(_PERCENT.fullmatch(v)), "cy": lambda v: bool(_PERCENT.fullmatch(v)),
                       "r": lambda v: bool(_PERCENT.fullmatch(v)) and float(v.strip().rstrip("%")) > 0,
                       "gradientUnits": _choice("objectBoundingBox"), "spreadMethod": _choice("pad")},
    "stop": {"offset": lambda v: _plain(v) and 0 <= float(v) <= 1},
}
_SHAPES = ("path", "rect", "circle", "ellipse", "line", "polyline", "polygon")
for _name in _SHAPES:
    ATTRIBUTES[_name]["transform"] = ATTRIBUTES["g"]["transform"]
_PAINTED = frozenset({"svg", "g", *_SHAPES})


def outside(root: Any) -> tuple[str, int | None] | None:
    """The first feature of the SVG ``root`` (an lxml element) outside the allow-list, as
    (words naming it, its line): ``("<mask>", 12)``, ``("opacity on <g>", 4)``, or None when
    svglib draws the whole file as a browser does."""
    from lxml import etree

    gradients = {el.get("id") for el in root.iter() if isinstance(el.tag, str)
                 and etree.QName(el).localname in ("linearGradient", "radialGradient") and el.get("id")}
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        wrong = _element_outside(el, root, gradients)
        if wrong:
            return wrong, el.sourceline
    return None


def _element_outside(el: Any, root: Any, gradients: set[str | None]) -> str | None:
    """What of one element (outside ``<metadata>``) lies outside the list: the element itself,
    its structure, or one of its attributes; None when all lie inside."""
    from lxml import etree

    qname = etree.QName(el)
    name = qname.localname
    if _in_metadata(el):
        return None
    if qname.namespace != "http://www.w3.org/2000/svg" or name not in ELEMENTS or (name == "svg" and el is not root):
        return f"<{name}>"
    return _structure(el, name, bool(gradients)) or _attributes_outside(el, name, gradients)


def _attributes_outside(el: Any, name: str, gradients: set[str | None]) -> str | None:
    """The first attribute of the element ``el`` (named ``name``) outside the list, or None."""
    from lxml import etree

    allowed = {**ATTRIBUTES["*"], **ATTRIBUTES.get(name, {})}
    for key, value in el.attrib.items():
        attr = etree.QName(key)
        if attr.namespace is not None:
            if attr.namespace == _XMLNS:
                continue
            return f"{attr.localname} on <{name}>"
        wrong = _attribute_outside(attr.localname, value, name, allowed, gradients)
        if wrong:
            return wrong
    return None


def _attribute_outside(local: str, value: str, name: str, allowed: dict[str, Any],
                       gradients: set[str | None]) -> str | None:
    """Words naming the attribute ``local="value"`` on ``<name>`` when it lies outside the list
    (a ``style`` attribute by its first declaration outside), else None."""
    if local == "style":
        for prop, text in _declarations(value):
            if not _property(prop, text, name, gradients):
                return f"{prop}: {text.strip()} on <{name}>"
        return None
    if local in allowed:
        return None if allowed[local](value) else f"{local}=\"{value}\" on <{name}>"
    if _property(local, value, name, gradients):
        return None
    return f"{local}=\"{value}\" on <{name}>" if local in PROPERTIES or local in ("fill", "stroke") else f"{local} on <{name}>"


def _structure(el: Any, name: str, gradients: bool) -> str | None:
    """What an element lacks or holds that svglib reads otherwise than a browser, or None: the
    check of its kind of element (:data:`_STRUCTURES`), then in a file with gradients the
    properties svglib mixes up with them."""
    check = _STRUCTURES.get(name)
    wrong = check(el) if check is not None else None
    if wrong is None and gradients:
        wrong = _beside_gradients(el, name)
    return wrong


def _root_size(el: Any) -> str | None:
    """The root ``<svg>``: a viewBox or width and height, equal in size when both are given."""
    get = el.get
    box = (get("viewBox") or "").replace(",", " ").split()
    if len(box) != 4 and (get("width") is None or get("height") is None):
        return "<svg> without a viewBox, width or height"
    if len(box) == 4 and (not all(_plain(n) for n in box) or float(box[2]) <= 0 or float(box[3]) <= 0):
        return f"viewBox=\"{get('viewBox')}\" on <svg>"
    return _scaled_box(el, box) if len(box) == 4 else None


def _scaled_box(el: Any, box: list[str]) -> str | None:
    """The root's plain width or height when it differs from the viewBox's (``box``, four numbers)."""
    for i, side in ((2, "width"), (3, "height")):
        given = el.get(side)
        if given is not None and _PLAIN_PX.fullmatch(given) and float(given.strip().removesuffix("px")) != float(box[i]):
            return f"{side} other than the viewBox's on <svg> (a scaled viewBox)"
    return None


def _sizes_given(name: str, *sizes: str) -> Any:
    """A check that the element ``<name>`` gives each attribute of ``sizes``."""
    def check(el: Any) -> str | None:
        return next((f"<{name}> without {attr}" for attr in sizes if el.get(attr) is None), None)
    return check


def _rect(el: Any) -> str | None:
    """A ``<rect>``: its width and height given, corner radii at most half the side."""
    get = el.get
    wrong = _sizes_given("rect", "width", "height")(el)
    if wrong:
        return wrong
    for attr, side in (("rx", "width"), ("ry", "height")):
        if get(attr) is not None and _plain(get(attr)) and _plain(get(side)) and float(get(attr)) > float(get(side)) / 2:
            return f"{attr} over half the {side} on <rect>"
    return None


def _stops(el: Any) -> str | None:
    """A gradient: two stops or more, each with its offset and stop-color, offsets rising."""
    from lxml import etree

    stops = [c for c in el if isinstance(c.tag, str) and etree.QName(c).localname == "stop"]
    offsets = []
    for stop in stops:
        style = dict(_declarations(stop.get("style") or ""))
        if stop.get("offset") is None or stop.get("stop-color") is None and "stop-color" not in style:
            return "<stop> without its offset or stop-color"
        offsets.append(float(stop.get("offset")) if _plain(stop.get("offset")) else -1)
    if len(stops) < 2 or any(b <= a for a, b in zip(offsets, offsets[1:])):
        return f"<{etree.QName(el).localname}> with fewer than two stops in rising order"
    return None


#: The structure check of each kind of element that has one.
_STRUCTURES: dict[str, Any] = {
    "svg": _root_size,
    "rect": _rect,
    "circle": _sizes_given("circle", "r"),
    "ellipse": _sizes_given("ellipse", "rx", "ry"),
    "linearGradient": _stops,
    "radialGradient": _stops,
}


def _beside_gradients(el: Any, name: str) -> str | None:
    """In a file with gradients: ``fill-opacity``, or a stroke painted with ``url(…)``."""
    for prop in ("fill-opacity", "stroke"):
        value = el.get(prop) if el.get(prop) is not None else dict(_declarations(el.get("style") or "")).get(prop)
        if value is not None and (prop == "fill-opacity" or _URL.fullmatch(value)):
            return f"{prop} on <{name}> in a file with gradients"
    return None


def _in_metadata(el: Any) -> bool:
    from lxml import etree

    parent = el.getparent()
    while parent is not None:
        if isinstance(parent.tag, str) and etree.QName(parent).localname == "metadata":
            return True
        parent = parent.getparent()
    return False


def _declarations(style: str) -> list[tuple[str, str]]:
    found = []
    for part in style.split(";"):
        if part.strip():
            prop, colon, text = part.partition(":")
            found.append((prop.strip(), text if colon else ""))
    return found


def _property(prop: str, value: str, element: str, gradients: set[str | None]) -> bool:
    if "!" in value or "var(" in value:
        return False
    if prop in ("fill", "stroke"):
        if element not in _PAINTED:
            return False
        url = _URL.fullmatch(value)
        if url:
            return url.group(1) in gradients
        return value.strip() == "none" or _colour(value)
    if prop == "stop-color":
        return element == "stop" and PROPERTIES[prop](value)
    check = PROPERTIES.get(prop)
    return check is not None and element in _PAINTED and bool(check(value))
