"""A tuck box for a catalogue's cards (``tokengen box``): the net of
:mod:`tokengen.geometry.tuckbox` sized from the deck, drawn on one page with the cut outline
solid and the folds dashed, the deck's back on the front and back panels and its title up the
sides.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import LayoutError
from ..faces.pagestream import end_page, save
from ..faces.render import BLACK, CUT_COLOUR, SheetCanvas, binary_streams
from ..geometry import bands, tuckbox
from ..geometry.imposition import Line, Rect
from ..io import guard
from ..io.atomic import atomic_files
from ..model import Catalogue
from ..units import format_length
from .options import BuildOptions
from .result import open_sheet_canvas

#: Line width (pt) of the cut outline and of the fold lines; the folds' dash (on, off) pt.
CUT_WIDTH, FOLD_WIDTH, FOLD_DASH = 0.5, 0.4, (4.0, 3.0)


def write_box(catalogue: Catalogue, options: BuildOptions, out: str | Path, cards: int | None = None,
              thickness: float = tuckbox.THICKNESS, clearance: float = tuckbox.CLEARANCE) -> tuckbox.TuckBox:
    """Write the tuck box of ``catalogue``'s deck (``cards`` cards, default its token count, each
    ``thickness`` pt; ``clearance`` pt of room each way) centred on ``options.sheet.page``.

    Returns:
        The box drawn (its inside dimensions and panels, pt).
    Raises:
        LayoutError: the unfolded box is larger than the page less its margin.
        ExportError: the output cannot be written (nothing is left behind).
    """
    found = bands.bands(catalogue)
    if len(found) != 1:
        raise LayoutError(f"{catalogue.path}: a tuck box holds cards of one size; this catalogue's layouts declare {len(found)}")
    [spec] = bands.band_specs(options.sheet, catalogue, found)
    card = (spec.size, spec.height or spec.size)
    try:
        box = tuckbox.tuck_box(*tuckbox.inside(card, cards or catalogue.count, thickness, clearance))
    except ValueError as exc:
        raise LayoutError(f"{catalogue.path}: {exc}") from None
    net_w, net_h = box.size
    room = (spec.page[0] - 2 * spec.margin, spec.page[1] - 2 * spec.margin)
    if net_w > room[0] or net_h > room[1]:
        raise LayoutError(f"{catalogue.path}: the unfolded box is {format_length(net_w)} × {format_length(net_h)}, larger than the "
                          f"{format_length(room[0])} × {format_length(room[1])} inside the page's margin (use --page or --landscape)")
    out = Path(out)
    inputs = catalogue.files_read()
    guard.check_outputs([out], inputs)
    origin = ((spec.page[0] - net_w) / 2, (spec.page[1] - net_h) / 2)
    with atomic_files([out], inputs=inputs) as temps:
        sheet = open_sheet_canvas(catalogue, options, spec, temps[0], f"tuck box {format_length(box.width)} × {format_length(box.height)} × {format_length(box.depth)}",
                                  title=f"{catalogue.title}: tuck box")
        canvas = sheet.canvas
        back = catalogue.tokens[0].back
        form = sheet.back_form(back)
        for name in ("front", "back"):
            _fit(sheet, form, card, _moved(box.panels[name], origin))
        for name in ("side-1", "side-2"):
            _title(sheet, catalogue.title, _moved(box.panels[name], origin))
        _draw_net(sheet, box, origin)
        end_page(canvas)
        with binary_streams():
            save(canvas)
    return box


def _moved(rect: Rect, origin: tuple[float, float]) -> Rect:
    return Rect(rect.x + origin[0], rect.y + origin[1], rect.w, rect.h)


def _fit(sheet: SheetCanvas, form: str, card: tuple[float, float], panel: Rect) -> None:
    """The card-size ``form`` scaled to fit ``panel`` (keeping its proportions), centred."""
    c = sheet.canvas
    scale = min(panel.w / card[0], panel.h / card[1])
    c.saveState()
    c.translate(panel.x + (panel.w - card[0] * scale) / 2, panel.y + (panel.h - card[1] * scale) / 2)
    c.scale(scale, scale)
    c.doForm(form)
    c.restoreState()


def _title(sheet: SheetCanvas, title: str, panel: Rect) -> None:
    """The deck's title up the middle of a side panel, as large as fits (at most 12 pt)."""
    c = sheet.canvas
    size = min(12.0, panel.w * 0.6)
    while size > 4 and sheet.measure(title, size) > panel.h * 0.9:
        size -= 0.5
    c.saveState()
    c.translate(panel.x + panel.w / 2 + size * 0.35, panel.y + panel.h / 2)
    c.rotate(90)
    c.setFillColor(sheet.paint(BLACK))
    c.setFont(sheet.regular, size)
    c.drawCentredString(0, 0, title)
    c.restoreState()


def _draw_net(sheet: SheetCanvas, box: tuckbox.TuckBox, origin: tuple[float, float]) -> None:
    """The cut outline (solid) and the folds (dashed) of ``box`` at ``origin``."""
    c = sheet.canvas
    ox, oy = origin
    c.saveState()
    c.setStrokeColor(sheet.paint(CUT_COLOUR))
    c.setLineWidth(CUT_WIDTH)
    path = c.beginPath()
    first, *rest = box.outline
    path.moveTo(first[0] + ox, first[1] + oy)
    for x, y in rest:
        path.lineTo(x + ox, y + oy)
    path.close()
    c.drawPath(path, stroke=1, fill=0)
    c.setLineWidth(FOLD_WIDTH)
    c.setDash(*FOLD_DASH)
    folds = c.beginPath()
    for line in box.folds:
        moved = Line(line.x0 + ox, line.y0 + oy, line.x1 + ox, line.y1 + oy)
        folds.moveTo(moved.x0, moved.y0)
        folds.lineTo(moved.x1, moved.y1)
    c.drawPath(folds, stroke=1, fill=0)
    c.restoreState()
