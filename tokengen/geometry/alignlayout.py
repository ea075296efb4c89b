"""Where the pieces of the duplex alignment test go on a page of any size. Pure geometry (text
widths come from ``measure`` callables); :mod:`tokengen.outputs.aligntest` draws what this computes.

All lengths in pt, origin at the page's lower-left corner. A target (crosshair with two mm
scales and their labels) covers a square of :data:`TARGET_REACH` pt around its centre. On a
Letter page the corner targets sit 90 pt from the edges, with 100 mm rulers and the full
instructions; smaller pages bring the corners in (never closer than the margin plus a target),
shorten the rulers to 50 or 20 mm, shrink the instructions to :data:`~tokengen.geometry.furniture.MIN_TEXT`
and, when even that does not fit, leave out what has no room, with a warning naming it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..units import PT_PER_MM
from .furniture import MIN_TEXT, Measure
from .imposition import Rect

#: Largest distance (pt) of the corner targets from the page edges (Letter and larger).
CORNER_INSET = 90.0
#: Half-size (pt) of the square a target covers: the 30 pt crosshair arms, the scales 18 pt off
#: the arms with 4.5 pt labels 6-10 pt beyond them.
TARGET_REACH = 33.0
#: Ruler lengths tried, longest first (mm).
RULER_MM = (100, 50, 20)
#: Clear space (pt) kept between pieces, and the margin of the page.
GAP = 4.0
MARGIN = 18.0
#: Longest instruction line (pt): about 90 characters at the usual size.
TEXT_WIDTH = 360.0
#: Instruction text: usual size, line spacing factor, title size.
BODY_SIZE, LEADING, TITLE_SIZE = 8.5, 1.3, 12.0


@dataclass(frozen=True)
class Line:
    """One line of text: left end of its baseline (x, y), size pt, bold or not, wording."""

    x: float
    y: float
    size: float
    bold: bool
    text: str


@dataclass(frozen=True)
class AlignLayout:
    """The front page's pieces: target centres; the horizontal ruler (its left end and length in
    mm, or None) and the vertical one (its bottom end and length in mm, or None); the region for
    the instructions; warnings naming what was left out."""

    inset: float
    targets: tuple[tuple[float, float], ...]
    hruler: tuple[float, float, int] | None
    vruler: tuple[float, float, int] | None
    text_region: Rect
    warnings: tuple[str, ...] = ()


def corner_inset(page: tuple[float, float], margin: float = MARGIN) -> float:
    """Distance (pt) of the corner targets from the edges: :data:`CORNER_INSET`, or on a small
    page a quarter of its short side, but never so close that a target leaves the margin."""
    w, h = page
    return min(CORNER_INSET, max(margin + TARGET_REACH, min(w, h) / 4))


def layout(page: tuple[float, float], margin: float = MARGIN) -> AlignLayout:
    """Place the targets, rulers and instruction region of the alignment test's front page.

    Corner targets that would overlap the centre target are left out (the page is too small
    to show a rotation); a ruler that fits at none of :data:`RULER_MM` is left out.
    """
    w, h = page
    inset = corner_inset(page, margin)
    warnings = []
    corners = [(inset, inset), (w - inset, inset), (inset, h - inset), (w - inset, h - inset)]
    if w / 2 - inset < 2 * TARGET_REACH and h / 2 - inset < 2 * TARGET_REACH:
        corners = []
        warnings.append("alignment corner targets left out: the page is too small for five targets (the centre one is enough for an offset)")
    frame = _Frame(w, h, margin, inset, bool(corners))
    hruler = _horizontal_ruler(frame)
    vruler = _vertical_ruler(frame, hruler)
    for ruler, name in ((hruler, "horizontal"), (vruler, "vertical")):
        if ruler is None:
            warnings.append(f"alignment {name} ruler left out: no room for a {RULER_MM[-1]} mm ruler")
    region = _text_region(frame, vruler is not None)
    return AlignLayout(inset, ((w / 2, h / 2), *corners), hruler, vruler, region, tuple(warnings))


@dataclass(frozen=True)
class _Frame:
    """The front page as the rulers and text see it: its size w × h, margin and corner inset (pt),
    and whether the corner targets are there."""

    w: float
    h: float
    margin: float
    inset: float
    corners: bool

    @property
    def vx(self) -> float:
        """Where the vertical ruler stands, pt: beside the right corner targets, or right of the
        centre one."""
        return (self.w - self.inset + 6.0) if self.corners else self.w / 2 + TARGET_REACH + GAP


def _horizontal_ruler(f: _Frame) -> tuple[float, float, int] | None:
    """The horizontal ruler (left end x, y, length mm) below the centre target: above the
    bottom corner targets (labels 6 pt below it), or else in their row between them."""
    r = TARGET_REACH
    y0 = (f.inset + r + 9.0) if f.corners else f.margin + 9.0
    right_limit = f.vx - GAP if f.corners else f.w - f.margin - 5.0
    for mm in RULER_MM:
        length = mm * PT_PER_MM
        if length <= min(f.w - 2 * f.margin - 10.0, 2 * (right_limit - f.w / 2)) and y0 + 7.0 <= f.h / 2 - r - GAP:
            return ((f.w - length) / 2, y0, mm)
        if f.corners and length <= f.w - 2 * (f.inset + r + GAP) - 10.0 and f.inset + 7.0 <= f.h / 2 - r - GAP:
            return ((f.w - length) / 2, f.inset, mm)
    return None


def _vertical_ruler(f: _Frame, hruler: tuple[float, float, int] | None) -> tuple[float, float, int] | None:
    """The vertical ruler (x, bottom end y, length mm), centred in height, clear of the bottom
    corner targets and of the horizontal ruler ``hruler``."""
    bottom_limit = (f.inset + TARGET_REACH + GAP) if f.corners else f.margin
    for mm in RULER_MM:
        length = mm * PT_PER_MM
        low = (f.h - length) / 2
        if low >= bottom_limit and f.vx + 22.0 <= f.w - f.margin and not _crosses(hruler, low, length, f.vx):
            return (f.vx, low, mm)
    return None


def _crosses(hruler: tuple[float, float, int] | None, low: float, length: float, vx: float) -> bool:
    """Whether a vertical ruler at ``vx`` from ``low`` up ``length`` pt meets ``hruler``."""
    return hruler is not None and hruler[1] - 8.0 <= low + length and hruler[1] + 8.0 >= low and \
        hruler[0] + hruler[2] * PT_PER_MM >= vx - GAP


def _text_region(f: _Frame, vruler: bool) -> Rect:
    """The instructions' region: between the top corners (A) or across the page above the centre
    target (B), whichever holds more text, at most :data:`TEXT_WIDTH` wide."""
    r = TARGET_REACH
    top = f.h - f.margin
    low = f.h / 2 + r + GAP
    if f.corners:
        a = Rect(f.inset + r + GAP, low, (f.w - f.inset - r - GAP) - (f.inset + r + GAP), top - low)
    else:
        a = Rect(f.margin, low, f.w - 2 * f.margin, top - low)
    b_top = (f.h - f.inset - r - GAP) if f.corners else top
    b_right = (f.vx - GAP) if vruler else f.w - f.margin
    b = Rect(f.margin, low, b_right - f.margin, b_top - low)
    region = max((a, b), key=lambda x: (min(x.w, TEXT_WIDTH) * x.h if x.w > 0 and x.h > 0 else -1.0))
    return Rect(region.x, region.y, min(region.w, TEXT_WIDTH), region.h)


def wrap(text: str, width: float, size: float, measure: Measure) -> list[str]:
    """``text`` broken at spaces into lines no wider than ``width`` pt at ``size`` (a word longer
    than the width stays on a line of its own)."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}" if current else word
        if current and measure(trial, size) > width:
            lines.append(current)
            current = word
        else:
            current = trial
    if current:
        lines.append(current)
    return lines


def set_text(region: Rect, titles: Sequence[str], paragraphs: Sequence[tuple[str, str]], regular: Measure,
             bold: Measure) -> tuple[list[Line], list[str]]:
    """Set the title (``titles``: fullest first) and the ``paragraphs`` ((name, text), most
    important first) inside ``region``: the largest body size from :data:`BODY_SIZE` down to
    :data:`~tokengen.geometry.furniture.MIN_TEXT` at which everything fits; failing that, at the least size,
    the paragraphs that fit in order, and a warning naming the ones left out.
    Returns (lines, warnings)."""
    warnings: list[str] = []
    title_line = _title(region, titles, bold)
    if title_line is None:
        warnings.append("alignment test title left out: the page is too small")
    head = (title_line[1] * 1.4) if title_line else 0.0
    size, wrapped = _body_size(region, paragraphs, regular, head)
    lines, y = _title_lines(region, title_line)
    left_out: list[str] = []
    for (name, _), paragraph in zip(paragraphs, wrapped):
        needed = len(paragraph) * size * LEADING
        widest = max((regular(line, size) for line in paragraph), default=0.0)
        if left_out or y - needed < region.y - 1e-6 or widest > region.w + 1e-6:
            left_out.append(name)
            continue
        for text in paragraph:
            y -= size * LEADING
            lines.append(Line(region.x, y + size * (LEADING - 1), size, False, text))
        y -= size * 0.4
    if left_out:
        warnings.append(f"alignment test instructions left out for lack of room: {', '.join(left_out)} (see tokengen align --help)")
    return lines, warnings


def _title(region: Rect, titles: Sequence[str], bold: Measure) -> tuple[str, float] | None:
    """The fullest title that fits ``region``'s width at :data:`~tokengen.geometry.furniture.MIN_TEXT`
    or more, with its size (at most :data:`TITLE_SIZE`), or None."""
    for title in titles:
        size = min(TITLE_SIZE, region.w / max(bold(title, 1.0), 1e-9))
        if size >= MIN_TEXT and region.h >= size:
            return title, size
    return None


def _body_size(region: Rect, paragraphs: Sequence[tuple[str, str]], regular: Measure,
               head: float) -> tuple[float, list[list[str]]]:
    """The largest body size (from :data:`BODY_SIZE` down by 0.25 pt to ``MIN_TEXT``) at which
    the paragraphs, wrapped to the region's width, fit below the ``head`` pt of title; with the
    paragraphs' lines at that size."""
    size = BODY_SIZE
    while True:
        wrapped = [wrap(text, region.w, size, regular) for _, text in paragraphs]
        height = sum(len(p) for p in wrapped) * size * LEADING + (len(paragraphs) - 1) * size * 0.4
        fits = all(regular(line, size) <= region.w + 1e-6 for p in wrapped for line in p)
        if (fits and head + height <= region.h) or size <= MIN_TEXT:
            return size, wrapped
        size = max(MIN_TEXT, size - 0.25)


def _title_lines(region: Rect, title_line: tuple[str, float] | None) -> tuple[list[Line], float]:
    """The title's line at the top of ``region`` (none without a title), and the baseline height
    below which the paragraphs start."""
    y = region.y1
    if not title_line:
        return [], y
    y -= title_line[1] * 0.76
    line = Line(region.x, y, title_line[1], True, title_line[0])
    y -= title_line[1] * 0.64
    return [line], y


def boxes(lines: Sequence[Line], regular: Measure, bold: Measure) -> list[Rect]:
    """The boxes (pt) the text ``lines`` cover (ascent 0.76, descent 0.24 of the size)."""
    return [Rect(t.x, t.y - 0.24 * t.size, (bold if t.bold else regular)(t.text, t.size), t.size) for t in lines]

