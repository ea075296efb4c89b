"""Page set-up shared by every sheet tokengen draws (faces, backs, rules, the alignment test).

What a page gets before anything is drawn on it, lengths in pt (1 in = 72 pt), origin at the
page's lower-left corner:

* :func:`parse_offset` / :func:`parse_scale`: the ``--back-offset X,Y`` and
  ``--printer-scale SX[,SY]`` values.
* :func:`apply_printer_scale`: scale a page about its centre (to undo a printer that prints
  slightly large or small), and :func:`scale_keywords` to state it in the PDF metadata.
* :func:`set_page_boxes`: the TrimBox and BleedBox of a print-shop page.

It sits one floor below :mod:`tokengen.outputs.build`, :mod:`tokengen.outputs.backs`, :mod:`tokengen.outputs.aligntest`
and :mod:`tokengen.games.meatshields.rulesheet`, which all use it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..errors import UsageError
from ..units import MAX_TEXT, PT_PER_MM, format_length, parse_length

if TYPE_CHECKING:  # annotations only: ReportLab loads when a page is drawn
    from reportlab.pdfgen.canvas import Canvas

    from ..geometry.imposition import Rect

#: Accepted printer scale, as a factor: a printer more than 10 % off is not a printer problem.
SCALE_RANGE = (0.9, 1.1)
#: Largest accepted back offset per axis (pt): 1 in.
MAX_OFFSET = 72.0


def _signed_length(text: str) -> float:
    text = text.strip()
    sign = -1.0 if text.startswith("-") else 1.0
    return sign * parse_length(text.lstrip("+-"))


def parse_offset(text: str) -> tuple[float, float]:
    """Parse ``--back-offset X,Y`` (lengths with units, either sign: ``-0.5mm,1mm``) into pt.

    X moves the back sheet right and Y moves it up, as seen looking at the back side. A single
    value is refused: X and Y are read separately on the alignment test.

    Raises:
        UsageError: not two lengths, a length without a unit, or more than 1 in on an axis.
    """
    if len(text) > 2 * MAX_TEXT + 1:
        raise UsageError(f"--back-offset: expected X,Y such as 0.5mm,-1mm, got {len(text)} characters")
    parts = text.split(",")
    if len(parts) != 2:
        raise UsageError(f"--back-offset: expected X,Y such as 0.5mm,-1mm, got {text!r}")
    try:
        dx, dy = (_signed_length(p) for p in parts)
    except ValueError as exc:
        raise UsageError(f"--back-offset: {exc}") from None
    for value in (dx, dy):
        if abs(value) > MAX_OFFSET:
            raise UsageError(f"--back-offset: {format_length(abs(value))} is more than {format_length(MAX_OFFSET)}; "
                             "print the alignment test (tokengen align) and read the offset from it")
    return dx, dy


_FACTOR = re.compile(r"^\s*(\d+(?:\.\d*)?|\.\d+)\s*(%?)\s*$")


def parse_scale(text: str) -> tuple[float, float]:
    """Parse ``--printer-scale SX[,SY]`` into factors: ``100.4%,99.7%`` → (1.004, 0.997);
    ``1.002`` or ``100.2%`` alone scales both axes.

    Raises:
        UsageError: malformed, or outside 90 %..110 %.
    """
    if len(text) > 2 * MAX_TEXT + 1:
        raise UsageError(f"--printer-scale: expected SX or SX,SY such as 100.4%,99.7%, got {len(text)} characters")
    parts = text.split(",")
    if len(parts) not in (1, 2):
        raise UsageError(f"--printer-scale: expected SX or SX,SY such as 100.4%,99.7%, got {text!r}")
    factors = []
    for part in parts:
        match = _FACTOR.match(part)
        if not match:
            raise UsageError(f"--printer-scale: expected a percentage such as 100.4% or a factor such as 1.004, got {part.strip()!r}")
        value = float(match.group(1)) / (100.0 if match.group(2) else 1.0)
        if not SCALE_RANGE[0] <= value <= SCALE_RANGE[1]:
            raise UsageError(f"--printer-scale: {part.strip()} is outside {SCALE_RANGE[0]:.0%}..{SCALE_RANGE[1]:.0%}")
        factors.append(value)
    return (factors[0], factors[-1])


def format_scale(scale: tuple[float, float]) -> str:
    """``(1.004, 0.997)`` → ``"100.4%,99.7%"``."""
    return ",".join(f"{100 * f:.6g}%" for f in scale)


def format_offset(offset: tuple[float, float]) -> str:
    """``(1.417, -2.835)`` pt → ``"+0.50mm,-1.00mm"``: a back offset as captions and the alignment test show it."""
    return ",".join(f"{v / PT_PER_MM:+.2f}mm" for v in offset)


def scale_keywords(scale: tuple[float, float] | None) -> str:
    """The PDF Keywords entry stating a printer correction (empty when there is none)."""
    if scale is None or scale == (1.0, 1.0):
        return ""
    return f"printer-scale={format_scale(scale)} (pages scaled about their centre to correct the printer)"


def apply_printer_scale(canvas: Canvas, page: tuple[float, float], scale: tuple[float, float] | None) -> None:
    """Scale everything drawn next on the current page by (sx, sy) about the page centre.

    A point (x, y) pt lands at (W/2 + sx (x - W/2), H/2 + sy (y - H/2)). Call it first on each
    page (ReportLab resets the transform at ``showPage``). No-op for ``None`` or (1, 1).
    """
    if scale is None or scale == (1.0, 1.0):
        return
    w, h = page
    canvas.translate(w / 2, h / 2)
    canvas.scale(*scale)
    canvas.translate(-w / 2, -h / 2)


def set_page_boxes(canvas: Canvas, trim: Rect, bleed: float) -> None:
    """Set the TrimBox (``trim``) and BleedBox (``trim`` grown by ``bleed`` pt) of the page being drawn."""
    grown = trim.grow(bleed)
    canvas.setTrimBox([trim.x, trim.y, trim.x1, trim.y1])
    canvas.setBleedBox([grown.x, grown.y, grown.x1, grown.y1])
