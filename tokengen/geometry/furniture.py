"""Sheet furniture that fits the page: where the calibration ruler, its note and the page caption
go in the calibration strip (across the foot of the sheet, or up its left margin beside the block
when the foot would cost a row of tokens: :func:`tokengen.geometry.imposition.calibration_side`), where a back sheet's caption goes, and what lies where most printers
cannot print. Pure geometry: text widths come from a ``measure(text, size) -> pt`` callable, so
nothing here draws or imports ReportLab.

Every piece is placed inside its strip (and so inside the page): a text is set at its usual
size, shrunk down to :data:`MIN_TEXT` pt, replaced by a shorter wording, or left out, and what
is left out is named in a warning. All lengths are in pt, origin at the page's lower-left corner.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..units import PT_PER_MM, format_length
from .imposition import PageLayout, Rect

Measure = Callable[[str, float], float]

#: Usual and least text size (pt) of sheet furniture. 5 pt is about the smallest size a note
#: stays readable at arm's length (1.76 mm body height); below it a note is left out instead.
TEXT_SIZE = 6.5
MIN_TEXT = 5.0
#: Calibration ruler: the bar is 1 in long, 5 pt high; its lower-left corner sits RULER_X, RULER_Y
#: inside the strip; tick labels are LABEL_SIZE pt. The text column starts TEXT_X from the strip's left.
RULER_X, RULER_Y = 2.0, 9.0
BAR_HEIGHT = 5.0
LABEL_SIZE = 5.0
TEXT_X = 80.0
#: Baselines (pt above the strip's bottom) of the note (upper line) and the caption (lower line).
NOTE_BASELINE, CAPTION_BASELINE = 13.5, 4.0
#: Most desktop printers cannot print the outer 4 mm of a sheet (a common hardware margin is
#: 3-6.35 mm: HP and Epson state 3 mm, Canon about 5 mm; US letter printers often 1/4 in).
UNPRINTABLE = 4 * PT_PER_MM

#: The print-at-actual-size note, from the fullest wording to the shortest.
NOTES = (
    "Print at 100% / Actual size (no 'fit to page'): this bar must measure exactly 1 in = 25.4 mm.",
    "Print at 100% (Actual size): this bar must measure 1 in = 25.4 mm.",
    "Print at 100%: bar = 1 in = 25.4 mm.",
)


@dataclass(frozen=True)
class Text:
    """One line of furniture text: its left end of baseline (x, y), size (pt) and wording."""

    x: float
    y: float
    size: float
    text: str


@dataclass(frozen=True)
class Furniture:
    """What to draw in the calibration strip: the ruler's bar lower-left corner (None: left out),
    the ruler's tick labels, the note and the caption (None: left out), and warnings naming what
    was left out."""

    ruler: tuple[float, float] | None
    labels: tuple[Text, ...]
    note: Text | None
    caption: Text | None
    warnings: tuple[str, ...] = ()

    @property
    def texts(self) -> tuple[Text, ...]:
        """Every text line: labels, note, caption."""
        return self.labels + tuple(t for t in (self.note, self.caption) if t is not None)


def fit_text(variants: Sequence[str], room: float, measure: Measure, size: float = TEXT_SIZE,
             least: float = MIN_TEXT) -> tuple[str, float] | None:
    """The first of ``variants`` (fullest first) that fits ``room`` pt at ``size`` or shrunk to no
    less than ``least`` pt, with the size used; None when none fits."""
    for text in variants:
        width = measure(text, 1.0)
        if width <= 0:
            return text, size
        fitted = min(size, room / width)
        if fitted >= least - 1e-9:
            return text, fitted
    return None


def ruler_labels(x: float, y: float, measure: Measure) -> tuple[Text, ...]:
    """Tick labels of a ruler whose bar has its lower-left corner at (x, y): ``0`` and ``1 in``
    over the inch ends, ``0``, ``10``, ``20 mm`` under the millimetre ticks (centred on them)."""
    top = y + BAR_HEIGHT + 3.5
    bottom = y - 7.5
    out = []
    for at, text, base in ((0.0, "0", top), (72.0, "1 in", top), (0.0, "0", bottom), (10 * PT_PER_MM, "10", bottom),
                           (20 * PT_PER_MM, "20 mm", bottom)):
        w = measure(text, LABEL_SIZE)
        out.append(Text(x + at - w / 2, base, LABEL_SIZE, text))
    return tuple(out)


def ruler_extent(x: float, y: float, measure: Measure) -> Rect:
    """The rectangle the ruler (bar, ticks and labels) covers, bar corner at (x, y)."""
    labels = ruler_labels(x, y, measure)
    x0 = min([x] + [t.x for t in labels])
    x1 = max([x + 72.0] + [t.x + measure(t.text, t.size) for t in labels])
    bottom = y - 7.5 - 0.24 * LABEL_SIZE
    top = y + BAR_HEIGHT + 3.5 + 0.76 * LABEL_SIZE
    return Rect(x0, bottom, x1 - x0, top - bottom)


def calibration(strip: Rect, captions: Sequence[str], measure: Measure) -> Furniture:
    """Lay out the calibration strip: the 1 in ruler at its left, the print-at-100 % note and the
    page caption (``captions``: fullest wording first) in a column to its right.

    A text that does not fit at :data:`TEXT_SIZE` is shrunk (to :data:`MIN_TEXT`), then a shorter
    wording is tried, then it is left out with a warning; a strip too narrow for the ruler keeps
    only the caption. Every piece lies inside ``strip``.
    """
    warnings = []
    labels: tuple[Text, ...]
    x, y = strip.x + RULER_X, strip.y + RULER_Y
    extent = ruler_extent(x, y, measure)
    if extent.x1 > strip.x1:
        warnings.append(f"calibration ruler left out: the page leaves {format_length(strip.w)} for it, it needs "
                        f"{format_length(extent.x1 - strip.x)}")
        ruler, labels, column = None, (), strip.x + RULER_X
        note = None
    else:
        ruler, labels, column = (x, y), ruler_labels(x, y, measure), strip.x + TEXT_X
        note = fit_text(NOTES, strip.x1 - column - 1.0, measure)
        if note is None:
            warnings.append(f"calibration note left out ('{NOTES[-1]}'): the page is too narrow")
    caption = fit_text(captions, strip.x1 - column - 1.0, measure)
    if caption is None and captions:
        warnings.append("page captions left out (sheet number and title): the page is too narrow")
    return Furniture(ruler, labels, Text(column, strip.y + NOTE_BASELINE, note[1], note[0]) if note else None,
                     Text(column, strip.y + CAPTION_BASELINE, caption[1], caption[0]) if caption else None, tuple(warnings))


def back_caption(page: tuple[float, float], margin: float, band: Rect, captions: Sequence[str],
                 measure: Measure) -> tuple[Text | None, str | None]:
    """Where a back sheet's caption goes: in the bottom margin strip if the back block (its bleed
    band ``band``) leaves it clear, else at the top, shrunk or shortened to fit between the
    margins (and never in the outer :data:`UNPRINTABLE` 4 mm); (None, warning) when there is no room."""
    width, height = page
    margin = max(margin, UNPRINTABLE)
    fitted = fit_text(captions, width - 2 * margin - 4.0, measure)
    if fitted is None:
        return None, f"back sheet caption left out ('{captions[-1]}'): the page is too narrow"
    text, size = fitted
    for y in (margin + 8.0, height - margin - 8.0):
        if y + 0.76 * size + 1.0 < band.y or y - 0.24 * size - 1.0 > band.y1:
            if y - 0.24 * size >= 0 and y + 0.76 * size <= height:
                return Text(margin + 2.0, y, size, text), None
    return None, "back sheet caption left out: the back block leaves no clear margin above or below it"


def turned(strip: Rect) -> bool:
    """Whether ``strip`` runs up the side of the sheet (taller than wide): its furniture is laid
    out along it (:func:`upright`) and drawn turned a quarter turn anticlockwise, reading upwards."""
    return strip.h > strip.w


def upright(strip: Rect) -> Rect:
    """The strip :func:`calibration` lays out, pt: ``strip`` itself, or for a side strip the
    same strip turned to lie along its length, origin at (0, 0) (see :func:`on_page`)."""
    return Rect(0.0, 0.0, strip.h, strip.w) if turned(strip) else strip


def on_page(rects: Sequence[Rect], strip: Rect) -> list[Rect]:
    """Rectangles laid out in :func:`upright` ``strip`` as they lie on the page, pt: unchanged
    for a foot strip; for a side strip turned a quarter turn anticlockwise about the origin and
    moved to the strip's lower-right corner, (x, y) → (strip.x1 - y, strip.y + x)."""
    if not turned(strip):
        return list(rects)
    return [Rect(strip.x1 - r.y1, strip.y + r.x, r.h, r.w) for r in rects]


def text_box(t: Text, measure: Measure) -> Rect:
    """The box a text line covers (ascent 0.76 and descent 0.24 of the size: DejaVu Sans)."""
    return Rect(t.x, t.y - 0.24 * t.size, measure(t.text, t.size), t.size)


def boxes(plan: Furniture, measure: Measure) -> list[Rect]:
    """The rectangles the pieces of ``plan`` cover (ruler with its labels, each text line)."""
    out = [ruler_extent(*plan.ruler, measure)] if plan.ruler else []
    return out + [text_box(t, measure) for t in plan.texts]


def _bounds(rects: Sequence[Rect]) -> Rect:
    """The smallest rectangle holding every one of ``rects`` (at least one)."""
    x0, y0 = min(r.x for r in rects), min(r.y for r in rects)
    return Rect(x0, y0, max(r.x1 for r in rects) - x0, max(r.y1 for r in rects) - y0)


def in_unprintable(page: PageLayout, furniture: Sequence[Rect] = (), inset: float = UNPRINTABLE) -> list[str]:
    """What of ``page`` lies in the outer ``inset`` pt (4 mm) of the sheet, where most printers
    cannot print: ``"tokens"`` when any token trim does, ``"sheet furniture"`` when any of the
    ``furniture`` rectangles does. Empty when everything is clear."""
    width, height = page.size
    safe = Rect(inset, inset, width - 2 * inset, height - 2 * inset)
    found = []
    if page.cells and not safe.contains(_bounds([c.trim for c in page.cells])):  # inside a rectangle: all, or not
        found.append("tokens")
    if any(not safe.contains(r) for r in furniture):
        found.append("sheet furniture")
    return found
