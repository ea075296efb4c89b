"""The duplex alignment test page (``tokengen align``): where its marks go on each side, and drawing it.

All lengths are in pt (1 in = 72 pt), origin at the page's lower-left corner. The page's geometry
(targets, rulers, text region) is :mod:`tokengen.geometry.alignlayout`; the printer corrections it prints
with are :mod:`tokengen.faces.pagesetup`.

* :func:`mirror_point`: where a front mark lands on the back (the targets themselves are
  :func:`tokengen.geometry.alignlayout.layout`'s).
* :func:`write_alignment_test`: the two-page duplex alignment test.

Reading the alignment test: hold the printed sheet against a light with the *back* (page 2)
facing you. The crosshair printed on the front shows through; where its vertical line crosses
the back's horizontal scale is X, where its horizontal line crosses the vertical scale is Y, in
mm. ``--back-offset Xmm,Ymm`` then moves the back sheet by exactly that amount (X to the right
and Y up as seen on the back side), which cancels the printer's error. The scales on the front
are labelled so that reading them from the front gives the same numbers.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from ..errors import UsageError
from ..faces.pagesetup import apply_printer_scale, format_offset, scale_keywords
from ..io.atomic import atomic_path
from ..sources import fonts
from ..units import PT_PER_MM

#: Alignment test: half-length of a crosshair arm, scale half-range (mm), distance of the corner
#: targets from the page edges.
CROSS_ARM = 30.0
SCALE_MM = 6
#: Distance (pt) of each scale from the crosshair centre, along the other arm.
SCALE_GAP = 18.0
CORNER_INSET = 90.0  # the largest; small pages bring the corners in (alignlayout.corner_inset)


def mirror_point(point: tuple[float, float], page: tuple[float, float], flip: str = "long",
                 offset: tuple[float, float] = (0.0, 0.0)) -> tuple[float, float]:
    """The point on the back page (pt) that lands behind ``point`` on the front after a duplex
    flip, then shifted by ``offset``: the same rule as :func:`tokengen.geometry.imposition.mirror`.

    Raises:
        UsageError: ``flip`` is not ``long`` or ``short``.
    """
    if flip not in ("long", "short"):
        raise UsageError(f"unknown flip {flip!r}: use long or short")
    (x, y), (w, h) = point, page
    mirror_x = (flip == "long") == (h >= w)
    bx, by = (w - x, y) if mirror_x else (x, h - y)
    return bx + offset[0], by + offset[1]


def mirrored_axes(page: tuple[float, float], flip: str) -> tuple[bool, bool]:
    """(x mirrored, y mirrored) for a duplex ``flip`` of a ``page`` (width, height) pt."""
    mirror_x = (flip == "long") == (page[1] >= page[0])
    return mirror_x, not mirror_x


def scale_signs(page: tuple[float, float], flip: str, *, front: bool) -> tuple[int, int]:
    """Label signs (x, y) of the alignment scales on one side of the sheet.

    The tick u mm from a scale's zero is labelled ``sign × u``, chosen so that the number read
    where the *other* side's crosshair crosses the scale is the ``--back-offset`` that cancels
    the printer's error. If the printer puts the back e mm off (back coordinates): seen on the
    back, the front crosshair sits at u = -e, so the back's signs are +1; seen on the front, the
    back crosshair sits at u = M e where M is -1 on a mirrored axis and +1 otherwise, so the
    front's signs are -M.
    """
    if not front:
        return (1, 1)
    mx, my = mirrored_axes(page, flip)
    return (1 if mx else -1, 1 if my else -1)


def write_alignment_test(out: str | Path, page: tuple[float, float], flip: str = "long",
                         offset: tuple[float, float] = (0.0, 0.0),
                         scale: tuple[float, float] | None = None, warnings: list[str] | None = None) -> Path:
    """Write the two-page duplex alignment test to ``out``.

    Page 1 (front) and page 2 (back) each carry a crosshair and two mm scales (±6 mm, 0.5 mm
    ticks) at every target; the back's marks are mirrored through ``flip`` and shifted by
    ``offset`` (pt), exactly as a back sheet of ``tokengen build --backs`` would be, so with the
    right offset every reading is 0. Page 1 also has rulers (100 mm, or 50 or 20 mm on small
    pages) to measure the printer scale. Everything lies inside the page
    (:mod:`tokengen.geometry.alignlayout`); what has no room is left out and named in ``warnings``.

    Raises:
        UsageError: unknown flip. ExportError: ``out`` cannot be written.
    """
    from ..geometry import alignlayout

    mirror_point((0.0, 0.0), page, flip)  # validates flip before anything is written
    out = Path(out)
    regular, bold = fonts.register()
    plan = alignlayout.layout(page)
    notes = list(plan.warnings)
    with atomic_path(out) as temp:
        from ..faces.render import open_canvas

        c = open_canvas(temp, page, title="tokengen duplex alignment test", author="tokengen",
                        subject=f"duplex alignment test, {flip}-edge flip, back offset {format_offset(offset)}",
                        keywords=scale_keywords(scale))
        # front: labels chosen so a reading from the front equals the offset to use
        fx, fy = scale_signs(page, flip, front=True)
        apply_printer_scale(c, page, scale)
        for point in plan.targets:
            _target(c, point, regular, x_sign=fx, y_sign=fy)
        _rulers(c, plan, regular)
        _instructions(c, plan, flip, offset, regular, bold, notes, front=True)
        c.showPage()
        bx, by = scale_signs(page, flip, front=False)
        apply_printer_scale(c, page, scale)
        for point in plan.targets:
            _target(c, mirror_point(point, page, flip, offset), regular, x_sign=bx, y_sign=by)
        _instructions(c, plan, flip, offset, regular, bold, notes, front=False)
        c.showPage()
        c.save()
    if warnings is not None:
        warnings.extend(dict.fromkeys(notes))
    return out


def _target(c: Canvas, point: tuple[float, float], font: str, *, x_sign: int, y_sign: int) -> None:
    """A crosshair at ``point`` with two mm scales on its arms: a horizontal scale
    :data:`SCALE_GAP` below the centre (read where a vertical line crosses it) and a vertical one
    :data:`SCALE_GAP` to the right (read where a horizontal line crosses it). The tick u mm from
    the arm is labelled ``sign × u``."""
    x, y = point
    g = SCALE_GAP
    reach = SCALE_MM * PT_PER_MM
    c.saveState()
    c.setLineWidth(0.25)
    c.line(x - CROSS_ARM, y, x + CROSS_ARM, y)
    c.line(x, y - CROSS_ARM, x, y + CROSS_ARM)
    c.circle(x, y, 2 * PT_PER_MM, stroke=1, fill=0)
    p = c.beginPath()
    p.moveTo(x - reach, y - g)
    p.lineTo(x + reach, y - g)
    p.moveTo(x + g, y - reach)
    p.lineTo(x + g, y + reach)
    for half in range(-2 * SCALE_MM, 2 * SCALE_MM + 1):
        u = half * PT_PER_MM / 2
        tick = 4.5 if half % 4 == 0 else (3.0 if half % 2 == 0 else 1.8)
        p.moveTo(x + u, y - g)
        p.lineTo(x + u, y - g - tick)
        p.moveTo(x + g, y + u)
        p.lineTo(x + g + tick, y + u)
    c.setLineWidth(0.2)
    c.drawPath(p, stroke=1, fill=0)
    c.setFont(font, 4.5)
    for mm in range(-SCALE_MM, SCALE_MM + 1, 2):
        if mm == 0:  # the arm itself marks 0
            continue
        u = mm * PT_PER_MM
        c.drawCentredString(x + u, y - g - 9.5, f"{x_sign * mm:d}")
        c.drawString(x + g + 6, y + u - 1.6, f"{y_sign * mm:d}")
    c.restoreState()


def _rulers(c: Canvas, plan: Any, font: str) -> None:
    """The rulers of ``plan`` (an :class:`~tokengen.geometry.alignlayout.AlignLayout`), one horizontal and
    one vertical, with mm ticks and a number every 10 mm (to measure the printer scale)."""
    c.saveState()
    c.setLineWidth(0.2)
    p = c.beginPath()
    labels = []
    for ruler, across in ((plan.hruler, True), (plan.vruler, False)):
        if ruler is None:
            continue
        x0, y0, mm_long = ruler
        length = mm_long * PT_PER_MM
        p.moveTo(x0, y0)
        p.lineTo(x0 + length, y0) if across else p.lineTo(x0, y0 + length)
        for mm in range(mm_long + 1):
            t = mm * PT_PER_MM
            tick = 6.0 if mm % 10 == 0 else (4.0 if mm % 5 == 0 else 2.0)
            if across:
                p.moveTo(x0 + t, y0)
                p.lineTo(x0 + t, y0 + tick)
            else:
                p.moveTo(x0, y0 + t)
                p.lineTo(x0 + tick, y0 + t)
            if mm % 10 == 0:
                labels.append((across, x0 + t if across else x0, y0 if across else y0 + t, str(mm)))
    c.drawPath(p, stroke=1, fill=0)
    c.setFont(font, 5)
    for across, x, y, text in labels:
        if across:
            c.drawCentredString(x, y - 6, text)
        else:
            c.drawString(x + 8, y - 1.8, text)
    c.restoreState()


def _instructions(c: Canvas, plan: Any, flip: str, offset: tuple[float, float], regular: str, bold: str,
                  notes: list[str], *, front: bool) -> None:
    from ..geometry import alignlayout

    side = "FRONT (page 1)" if front else "BACK (page 2)"
    rulers = sorted({r[2] for r in (plan.hruler, plan.vruler) if r})
    this = f"This test: {flip}-edge flip, back offset {format_offset(offset)}."
    paragraphs = [
        ("how to print", f"Print both pages as ONE duplex sheet, flip on the {flip} edge, at 100% / Actual size."),
        ("how to read", "Hold the sheet against a light, back side towards you. The front's crosshairs show through: "
                        "where a vertical line crosses the horizontal scale read X, where a horizontal line crosses the "
                        "vertical scale read Y (mm). Use the centre target."),
        ("the build command", f"Then build with: tokengen build --backs --flip {flip} --back-offset Xmm,Ymm "
                              "(add X and Y to the offset already used for this test, shown below)."),
    ]
    if rulers:
        n = rulers[-1] if len(rulers) == 1 else "N"
        paragraphs.append(("the printer-scale check",
                           "Corners that read differently from the centre mean the printer scales or skews one side: measure "
                           f"the {' and '.join(map(str, rulers))} mm rulers on page 1; a ruler of N mm measuring L mm needs "
                           f"--printer-scale ({'100' if n == 'N' else 100 * n}{'·N' if n == 'N' else ''}/L)% on that axis."))
    paragraphs.append(("this test's settings", this))
    if not front:
        paragraphs = [("how to read", "Back side: hold it towards you against a light and read X and Y here "
                                      "(instructions on page 1)."), ("this test's settings", this)]
    lines, warnings = alignlayout.set_text(plan.text_region, [f"tokengen duplex alignment test · {side}", f"alignment test · {side}",
                                                              side], paragraphs,
                                           lambda t, s: c.stringWidth(t, regular, s), lambda t, s: c.stringWidth(t, bold, s))
    notes.extend(f"{w} (page {1 if front else 2})" for w in warnings)
    c.saveState()
    for line in lines:
        c.setFont(bold if line.bold else regular, line.size)
        c.drawString(line.x, line.y, line.text)
    c.restoreState()
