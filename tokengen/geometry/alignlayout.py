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
    r = TARGET_REACH
    warnings = []
    centre = (w / 2, h / 2)
    corners = [(inset, inset), (w - inset, inset), (inset, h - inset), (w - inset, h - inset)]
    if w / 2 - inset < 2 * r and h / 2 - inset < 2 * r:
        corners = []
        warnings.append("alignment corner targets left out: the page is too small for five targets (the centre one is enough for an offset)")
    targets = (centre, *corners)
    # horizontal ruler: above the bottom corner targets (labels 6 pt below it), below the centre one
    y0 = (inset + r + 9.0) if corners else margin + 9.0
    vx = (w - inset + 6.0) if corners else w / 2 + r + GAP
    right_limit = vx - GAP if corners else w - margin - 5.0
    hruler = None
    for mm in RULER_MM:
        length = mm * PT_PER_MM
        # above the bottom corner targets, or else in their row between them
        if length <= min(w - 2 * margin - 10.0, 2 * (right_limit - w / 2)) and y0 + 7.0 <= h / 2 - r - GAP:
            hruler = ((w - length) / 2, y0, mm)
            break
        if corners and length <= w - 2 * (inset + r + GAP) - 10.0 and inset + 7.0 <= h / 2 - r - GAP:
            hruler = ((w - length) / 2, inset, mm)
            break
    vruler = None
    bottom_limit = (inset + r + GAP) if corners else margin
    for mm in RULER_MM:
        length = mm * PT_PER_MM
        low = (h - length) / 2
        crosses = hruler is not None and hruler[1] - 8.0 <= low + length and hruler[1] + 8.0 >= low and \
            hruler[0] + hruler[2] * PT_PER_MM >= vx - GAP
        if low >= bottom_limit and vx + 22.0 <= w - margin and not crosses:
            vruler = (vx, low, mm)
            break
    for ruler, name in ((hruler, "horizontal"), (vruler, "vertical")):
        if ruler is None:
            warnings.append(f"alignment {name} ruler left out: no room for a {RULER_MM[-1]} mm ruler")
    # instructions: between the top corners (A) or across the page above the centre target (B)
    top = h - margin
    low = h / 2 + r + GAP
    a = Rect(inset + r + GAP, low, (w - inset - r - GAP) - (inset + r + GAP), top - low) if corners else Rect(margin, low, w - 2 * margin, top - low)
    b_top = (h - inset - r - GAP) if corners else top
    b_right = (vx - GAP) if vruler else w - margin
    b = Rect(margin, low, b_right - margin, b_top - low)
    region = max((a, b), key=lambda x: (min(x.w, TEXT_WIDTH) * x.h if x.w > 0 and x.h > 0 else -1.0))
    region = Rect(region.x, region.y, min(region.w, TEXT_WIDTH), region.h)
    return AlignLayout(inset, targets, hruler, vruler, region, tuple(warnings))


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
    title_line = None
    for title in titles:
        size = min(TITLE_SIZE, region.w / max(bold(title, 1.0), 1e-9))
        if size >= MIN_TEXT and region.h >= size:
            title_line = (title, size)
            break
    if title_line is None:
        warnings.append("alignment test title left out: the page is too small")
    head = (title_line[1] * 1.4) if title_line else 0.0

    def attempt(size: float) -> tuple[list[list[str]], float]:
        wrapped = [wrap(text, region.w, size, regular) for _, text in paragraphs]
        return wrapped, sum(len(p) for p in wrapped) * size * LEADING + (len(paragraphs) - 1) * size * 0.4

    size = BODY_SIZE
    while True:
        wrapped, height = attempt(size)
        fits = all(regular(line, size) <= region.w + 1e-6 for p in wrapped for line in p)
        if (fits and head + height <= region.h) or size <= MIN_TEXT:
            break
        size = max(MIN_TEXT, size - 0.25)
    lines: list[Line] = []
    y = region.y1
    if title_line:
        y -= title_line[1] * 0.76
        lines.append(Line(region.x, y, title_line[1], True, title_line[0]))
        y -= title_line[1] * 0.64
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


def boxes(lines: Sequence[Line], regular: Measure, bold: Measure) -> list[Rect]:
    """The boxes (pt) the text ``lines`` cover (ascent 0.76, descent 0.24 of the size)."""
    return [Rect(t.x, t.y - 0.24 * t.size, (bold if t.bold else regular)(t.text, t.size), t.size) for t in lines]

