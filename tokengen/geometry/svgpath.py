"""SVG path data (``M 0.1 0.1 L 0.9 0.1 Q 0.5 0.4 0.1 0.1 Z``) as plain path commands.

The commands read are those of SVG 1.1 §8.3 (https://www.w3.org/TR/SVG11/paths.html#PathData):
``M`` ``L`` ``H`` ``V`` ``C`` ``Q`` ``A`` ``Z``, upper case absolute and lower case relative, with
implicit repeats (further pairs after ``M`` are lines). The result uses only ``M``, ``L``, ``C``
and ``Z`` with absolute coordinates, in the units the data was written in (a template's: fractions
of the token, y down): a quadratic curve is raised to the cubic with the same shape, an elliptical
arc is turned into cubic pieces of at most 90° by the endpoint-to-centre conversion of SVG 1.1
Appendix F.6.5 (radii scaled up when too small, F.6.6).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from .figures import Path

#: Most commands one path holds (after implicit repeats are counted).
MAX_COMMANDS = 2000
#: Longest path data read, characters.
MAX_DATA = 20_000

_TOKEN = re.compile(r"\s*,?\s*(?:([MmLlHhVvCcQqAaZz])|([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?))")
_ARGS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "Q": 4, "A": 7, "Z": 0}


def _tokens(data: str) -> list[str | float]:
    out: list[str | float] = []
    at = 0
    while at < len(data):
        if not data[at:].strip(" \t\r\n,"):
            break
        m = _TOKEN.match(data, at)
        if m is None:
            bad = data[at:].strip()[:1]
            hint = " (S, T and other shorthands are not read: write the curve out with C or Q)" if bad in "SsTt" else ""
            raise ValueError(f"cannot read {data[at:].strip()[:12]!r} in the path data{hint}")
        at = m.end()
        out.append(m.group(1) if m.group(1) else float(m.group(2)))
    return out


def _arc(x0: float, y0: float, rx: float, ry: float, phi: float, large: bool, sweep: bool,
         x: float, y: float) -> list[tuple[float | str, ...]]:
    """Cubic pieces of the SVG elliptical arc from (x0, y0) to (x, y) (SVG 1.1 F.6.5, F.6.6)."""
    if (x0, y0) == (x, y):
        return []
    rx, ry = abs(rx), abs(ry)
    if rx == 0 or ry == 0:
        return [("L", x, y)]
    cos, sin = math.cos(math.radians(phi)), math.sin(math.radians(phi))
    dx, dy = (x0 - x) / 2, (y0 - y) / 2
    x1, y1 = cos * dx + sin * dy, -sin * dx + cos * dy
    scale = x1 * x1 / (rx * rx) + y1 * y1 / (ry * ry)
    if scale > 1:
        rx, ry = rx * math.sqrt(scale), ry * math.sqrt(scale)
    num = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
    den = rx * rx * y1 * y1 + ry * ry * x1 * x1
    root = math.sqrt(max(0.0, num / den)) if den else 0.0
    if large == sweep:
        root = -root
    cx1, cy1 = root * rx * y1 / ry, -root * ry * x1 / rx
    cx, cy = cos * cx1 - sin * cy1 + (x0 + x) / 2, sin * cx1 + cos * cy1 + (y0 + y) / 2

    def angle(ux: float, uy: float, vx: float, vy: float) -> float:
        return math.atan2(ux * vy - uy * vx, ux * vx + uy * vy)

    start = angle(1, 0, (x1 - cx1) / rx, (y1 - cy1) / ry)
    delta = angle((x1 - cx1) / rx, (y1 - cy1) / ry, (-x1 - cx1) / rx, (-y1 - cy1) / ry)
    if not sweep and delta > 0:
        delta -= 2 * math.pi
    elif sweep and delta < 0:
        delta += 2 * math.pi
    pieces = max(1, math.ceil(abs(delta) / (math.pi / 2) - 1e-9))
    step = delta / pieces
    k = 4.0 / 3.0 * math.tan(step / 4)

    def point(t: float) -> tuple[float, float]:
        ex, ey = rx * math.cos(t), ry * math.sin(t)
        return cos * ex - sin * ey + cx, sin * ex + cos * ey + cy

    def tangent(t: float) -> tuple[float, float]:
        ex, ey = -rx * math.sin(t), ry * math.cos(t)
        return cos * ex - sin * ey, sin * ex + cos * ey

    out: list[tuple[float | str, ...]] = []
    for i in range(pieces):
        a, b = start + i * step, start + (i + 1) * step
        (ax, ay), (bx, by) = point(a), point(b)
        (tax, tay), (tbx, tby) = tangent(a), tangent(b)
        out.append(("C", ax + k * tax, ay + k * tay, bx - k * tbx, by - k * tby, bx, by))
    last = out[-1]
    out[-1] = (*last[:5], x, y)  # end exactly where the data says
    return out


def parse_path(data: str) -> Path:
    """The path SVG path ``data`` draws, as absolute ``M``/``L``/``C``/``Z`` commands in the data's
    own units (see the module docstring).

    Raises:
        ValueError: a character or command not read, a command without enough numbers, data not
            starting with ``M``, more than :data:`MAX_COMMANDS` commands or :data:`MAX_DATA` characters.
    """
    if len(data) > MAX_DATA:
        raise ValueError(f"path data is at most {MAX_DATA} characters, this is {len(data)}")
    items = _tokens(data)
    if not items or not isinstance(items[0], str) or items[0] not in "Mm":
        raise ValueError("path data starts with M x y (a move to its first point)")
    out: Path = []
    pen = _Pen()
    at, command = 0, ""
    while at < len(items):
        command, nums, at = _next_command(items, at, command)
        out += _COMMANDS[command.upper()](pen, nums, command.islower())
        if command in ("M", "m"):
            command = "l" if command == "m" else "L"  # further pairs are lines
        if len(out) > MAX_COMMANDS:
            raise ValueError(f"a path holds at most {MAX_COMMANDS} commands")
    return out


def _next_command(items: list[str | float], at: int, command: str) -> tuple[str, list[float], int]:
    """The command at ``items[at]`` (or a repeat of ``command`` when a number stands there), its
    numbers, and where the next one starts.

    Raises:
        ValueError: a number after ``Z``, or fewer numbers than the command takes.
    """
    item = items[at]
    if isinstance(item, str):
        command = item
        at += 1
    elif command in ("Z", "z"):
        raise ValueError(f"a number ({item:g}) after Z; start the next piece with M")
    count = _ARGS[command.upper()]
    args = items[at:at + count]
    if len(args) < count or any(isinstance(a, str) for a in args):
        raise ValueError(f"'{command}' needs {count} numbers")
    return command, [float(a) for a in args], at + count


@dataclass
class _Pen:
    """Where the path stands (x, y) and where its current piece started (sx, sy)."""

    x: float = 0.0
    y: float = 0.0
    sx: float = 0.0
    sy: float = 0.0


def _absolute(pen: _Pen, nums: list[float], relative: bool) -> list[float]:
    """``nums`` (x, y pairs) made absolute from the pen when the command is relative."""
    return [v + (pen.x if i % 2 == 0 else pen.y) for i, v in enumerate(nums)] if relative else nums


def _move(pen: _Pen, nums: list[float], relative: bool) -> Path:
    pen.x, pen.y = _absolute(pen, nums, relative)
    pen.sx, pen.sy = pen.x, pen.y
    return [("M", pen.x, pen.y)]


def _line(pen: _Pen, nums: list[float], relative: bool) -> Path:
    pen.x, pen.y = _absolute(pen, nums, relative)
    return [("L", pen.x, pen.y)]


def _horizontal(pen: _Pen, nums: list[float], relative: bool) -> Path:
    pen.x = pen.x + nums[0] if relative else nums[0]
    return [("L", pen.x, pen.y)]


def _vertical(pen: _Pen, nums: list[float], relative: bool) -> Path:
    pen.y = pen.y + nums[0] if relative else nums[0]
    return [("L", pen.x, pen.y)]


def _cubic(pen: _Pen, nums: list[float], relative: bool) -> Path:
    p = _absolute(pen, nums, relative)
    pen.x, pen.y = p[4], p[5]
    return [("C", *p)]


def _quadratic(pen: _Pen, nums: list[float], relative: bool) -> Path:
    """The quadratic curve raised to the cubic of the same shape."""
    x, y = pen.x, pen.y
    qx, qy, ex, ey = _absolute(pen, nums, relative)
    pen.x, pen.y = ex, ey
    return [("C", x + 2 / 3 * (qx - x), y + 2 / 3 * (qy - y), ex + 2 / 3 * (qx - ex), ey + 2 / 3 * (qy - ey), ex, ey)]


def _elliptical(pen: _Pen, nums: list[float], relative: bool) -> Path:
    """A rx ry rotation large-arc sweep x y, as cubic pieces (:func:`_arc`)."""
    x, y = pen.x, pen.y
    ex, ey = (x + nums[5], y + nums[6]) if relative else (nums[5], nums[6])
    pen.x, pen.y = ex, ey
    return _arc(x, y, nums[0], nums[1], nums[2], bool(nums[3]), bool(nums[4]), ex, ey)


def _close(pen: _Pen, nums: list[float], relative: bool) -> Path:
    pen.x, pen.y = pen.sx, pen.sy
    return [("Z",)]


#: What each command (upper case) draws, from the pen, its numbers and whether it is relative.
_COMMANDS: dict[str, Callable[[_Pen, list[float], bool], Path]] = {
    "M": _move, "L": _line, "H": _horizontal, "V": _vertical, "C": _cubic, "Q": _quadratic,
    "A": _elliptical, "Z": _close,
}
