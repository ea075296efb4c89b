"""Back sheets for duplex printing: each back mirrored so it lands behind its face.

All lengths are in pt (1 in = 72 pt), origin at the page's lower-left corner. The geometry of a
back sheet is :func:`tokengen.geometry.imposition.mirror`; the printer corrections (``--back-offset``,
``--printer-scale``) are :mod:`tokengen.faces.pagesetup`; the test page that measures them is
:mod:`tokengen.outputs.aligntest`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import UsageError
from ..faces.pagesetup import apply_printer_scale, format_offset, scale_keywords, set_page_boxes

if TYPE_CHECKING:  # annotations only: ReportLab's drawing loads when a sheet is drawn
    from ..faces.render import SheetCanvas
    from ..geometry.bands import Run
    from ..geometry.imposition import PageLayout, SheetSpec
    from ..model import Catalogue
    from .options import BuildOptions


def backs_path(out: str | Path) -> Path:
    """Where ``--backs separate`` writes the back sheets: ``NAME-backs.pdf`` beside ``NAME.pdf``."""
    out = Path(out)
    return out.with_name(f"{out.stem}-backs{out.suffix or '.pdf'}")


class BackSheets:
    """Draws the back sheet of every face sheet, mirrored so each back lands behind its face.

    In ``duplex`` mode each back sheet goes into the face canvas right after its face sheet; in
    ``separate`` mode into a canvas of its own at ``temp`` (same page size, same metadata).
    Every cell shows its token's back (one shared Form XObject per back design).

    Args:
        options: the build options (``backs``, ``flip``, ``back_offset``, ``printer_scale``).
        catalogue: for the title in captions and metadata.
        tokens: every physical token in placement order (:class:`tokengen.geometry.bands.Run`:
            no list of them; each back design's form is defined once, in placement order).
        sheet: the face sheet's canvas wrapper; its art library is shared.
        temp: the file for separate backs (None in duplex mode).
        pages: number of face sheets (for captions).
        specs: with several token sizes (:mod:`tokengen.geometry.bands`): each band's sheet, so
            each back is drawn at its face's size; the mirrored sheet mirrors every band with its cells.
    Raises:
        UsageError: unknown ``backs`` or ``flip`` value.
    """

    def __init__(self, options: BuildOptions, catalogue: Catalogue, tokens: Run, sheet: SheetCanvas,
                 temp: Path | None, pages: int, specs: Sequence[SheetSpec] = ()):
        from ..faces.render import SheetCanvas, open_canvas

        if options.backs not in ("duplex", "separate"):
            raise UsageError(f"unknown backs mode {options.backs!r}: use duplex or separate")
        if options.flip not in ("long", "short"):
            raise UsageError(f"unknown flip {options.flip!r}: use long or short")
        self.options = options
        self.pages = pages
        self.count = 0
        self.catalogue = catalogue
        spec = options.sheet
        if options.backs == "separate":
            assert temp is not None
            canvas = open_canvas(temp, spec.page, title=f"{catalogue.title} (backs)", author=catalogue.author or "tokengen",
                                 subject=f"back sheets for duplex by hand, {options.flip}-edge flip",
                                 keywords=scale_keywords(options.printer_scale), colour_model=options.colour_model)
            self.sheet = SheetCanvas(canvas, spec.size, spec.bleed, options.colour_model, art=sheet.art, safe=sheet.safe,
                                     page=spec.page, height=spec.height, shape=spec.shape, design=sheet.design)
        else:
            self.sheet = sheet
        sheets = [self.sheet]
        if len(specs) > 1:  # several sizes: each back drawn at its face's
            sheets += [self.sheet.resized(s.size, s.height, s.shape, k + 1, sheet.safe if options.safe is not None else None)
                       for k, s in enumerate(specs[1:], 1)]
        self.forms = tokens.each(lambda k, t: sheets[k if len(sheets) > 1 else 0].back_form(t.back))
        self.tokens = tokens
        self.warnings: list[str] = []  # furniture left out, once each

    def add(self, face: PageLayout) -> None:
        """Draw the back sheet of the face sheet ``face`` (a :class:`PageLayout`) and end the page
        (:func:`tokengen.faces.pagestream.end_page`: the canvas must be saved in ``binary_streams``)."""
        from ..faces.pagestream import end_page
        from ..geometry.imposition import mirror

        c, o = self.sheet.canvas, self.options
        apply_printer_scale(c, o.sheet.page, o.printer_scale)
        back = mirror(face, o.flip, o.back_offset)
        if o.boxes:
            set_page_boxes(c, back.block, o.sheet.bleed)
        self.sheet.fill_rects([(r, self.tokens[i].back.background) for i, r in back.outer_bleed])
        self.sheet.place(self.forms, back)
        if back.crop_marks:  # a shop cuts the back sheet by its own marks, mirrored with the cells
            from ..faces.render import ALL_SEPARATION, CROP_STROKE, CUT_COLOUR

            self.sheet.lines(back.crop_marks, CROP_STROKE, ALL_SEPARATION if o.colour_model == "cmyk" else CUT_COLOUR)
        if not o.boxes:  # a print-shop sheet keeps nothing outside its tokens (preflight: safe area)
            self._caption(face, back)
        end_page(c)  # kept small until the save (inside binary_streams, as build saves it)
        self.count += 1

    def _caption(self, face: PageLayout, back: PageLayout) -> None:
        """A one-line note in the margin of a home back sheet (sheet number, flip, offset), placed
        by :func:`tokengen.geometry.furniture.back_caption`: shortened or left out (with a warning in
        :attr:`warnings`) when the page has no room for it."""
        from ..geometry import furniture

        c, o = self.sheet.canvas, self.options
        where = f"back of sheet {face.number + 1} of {self.pages}"
        how = f"duplex, {o.flip}-edge flip · back offset {format_offset(o.back_offset)}"
        captions = (f"{self.catalogue.title} · {where} · {how}", f"{where} · {how}", where)
        text, warning = furniture.back_caption(o.sheet.page, o.sheet.margin, back.block.grow(max(o.sheet.bleed, o.sheet.home_bleed)), captions,
                                               lambda t, size: c.stringWidth(t, self.sheet.regular, size))
        if warning and warning not in self.warnings:
            self.warnings.append(warning)
        if text:
            c.saveState()
            c.setFont(self.sheet.regular, text.size)
            c.drawString(text.x, text.y, text.text)
            c.restoreState()

    def finish(self) -> None:
        """Save the separate backs file (nothing to do in duplex mode)."""
        if self.options.backs == "separate":
            from ..faces.pagestream import save

            save(self.sheet.canvas)
