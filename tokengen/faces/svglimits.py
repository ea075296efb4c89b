"""Work limits of an SVG picture beyond its element count (issue 37), kept apart from the
reading in :mod:`tokengen.faces.svgart`:

* while the file is parsed, before svglib reads it (:class:`Work`): the attributes of each
  element (:data:`~tokengen.limits.MAX_SVG_ATTRIBUTES`) and the numbers of its path data
  (``d``, ``points``: :data:`~tokengen.limits.SVG_PATH_NUMBERS_PER_ELEMENT` per element of
  ``--max-svg-elements``), so a one-``<path>`` file of 1,500,000 segments or a ``<rect>`` of
  100,000 attributes is refused in a fraction of a second;
* once svglib has read it (:func:`check_numbers`): every number of the drawing (coordinates,
  sizes, stroke widths, transforms after svglib has combined them) within
  ±:data:`~tokengen.limits.MAX_SVG_NUMBER`, and its width and height at least
  :data:`~tokengen.limits.MIN_SVG_SIZE` pt: ReportLab refuses to write a number above 1e20
  (``width="1e-300"`` is drawn scaled by 1e300).
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

from ..errors import ArtError
from ..limits import MAX_SVG_ATTRIBUTES, MAX_SVG_NUMBER, MIN_SVG_SIZE, SVG_PATH_NUMBERS_PER_ELEMENT

#: A number as SVG path data writes one (``-1.5e3``, ``.5``).
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_PATH_DATA = ("d", "points")


class Work:
    """The parse-time count of one SVG file: call :meth:`element` with each element as it starts.

    Raises (from :meth:`element`):
        ArtError: an element with more than ``MAX_SVG_ATTRIBUTES`` attributes, or path data of
            the file past ``SVG_PATH_NUMBERS_PER_ELEMENT × max_elements`` numbers.
    """

    def __init__(self, path: Path, max_elements: int):
        self.path = path
        self.max_elements = max_elements
        self.limit = SVG_PATH_NUMBERS_PER_ELEMENT * max_elements
        self.numbers = 0

    def element(self, element: Any) -> None:
        attributes = element.attrib
        if len(attributes) > MAX_SVG_ATTRIBUTES:
            raise ArtError(self.path, f"<{_local(element.tag)}> has {len(attributes):,} attributes, more than the limit of "
                                      f"{MAX_SVG_ATTRIBUTES} (a fixed limit)")
        for name in _PATH_DATA:
            value = attributes.get(name)
            if value:
                self.numbers += _NUMBER.subn("", value)[1]
                if self.numbers > self.limit:
                    raise ArtError(self.path, f"SVG path data holds more than {self.limit:,} numbers, the limit "
                                              f"({SVG_PATH_NUMBERS_PER_ELEMENT} per element of --max-svg-elements "
                                              f"{self.max_elements}; raise it with --max-svg-elements)")


def check_numbers(path: Path, drawing: Any) -> None:
    """Refuse a drawing (svglib's, before it is drawn) holding a number beyond
    ±``MAX_SVG_NUMBER`` or not a number at all, or smaller than ``MIN_SVG_SIZE`` pt across.
    Linear in the drawing's numbers.

    Raises:
        ArtError: naming the number and the attribute holding it.
    """
    width, height = float(drawing.width), float(drawing.height)
    if 0 < min(width, height) < MIN_SVG_SIZE:
        raise ArtError(path, f"SVG of {width:g} x {height:g} pt, smaller than the limit of {MIN_SVG_SIZE:g} pt across "
                             "(a fixed limit)")
    from reportlab.graphics.shapes import Group

    stack = [drawing]
    while stack:
        node = stack.pop()
        for name, value in vars(node).items():
            if name == "contents":
                stack.extend(value)
                continue
            if isinstance(value, Group) or name == "_clip_shape":
                if value is not None:
                    stack.append(value)
                continue
            for number in _numbers(value):
                if not (math.isfinite(number) and abs(number) <= MAX_SVG_NUMBER):
                    raise ArtError(path, f"SVG gives the number {number:g} ({name.lstrip('_')}), beyond the limit of "
                                         f"±{MAX_SVG_NUMBER:g} (a fixed limit)")


def _numbers(value: Any) -> list[float]:
    """The numbers of an attribute: itself, or those of a list or tuple (one level nested)."""
    if isinstance(value, bool):
        return []
    if isinstance(value, (int, float)):
        return [float(value)]
    if isinstance(value, (list, tuple)):
        out: list[float] = []
        for item in value:
            if isinstance(item, (list, tuple)):
                out += [float(v) for v in item if isinstance(v, (int, float)) and not isinstance(v, bool)]
            elif isinstance(item, (int, float)) and not isinstance(item, bool):
                out.append(float(item))
        return out
    return []


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]
