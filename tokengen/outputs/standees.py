"""Standees (``shape: standee``): each token printed as a strip to cut, fold and glue, its face
upright above a base, its back turned 180° above the face, then a second base
(:mod:`tokengen.geometry.standee`). Face and back are the catalogue's own layouts, drawn once
each into forms as on every sheet. Cut lines are solid, fold lines dashed.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import LayoutError
from ..faces.pagestream import end_page, save
from ..faces.render import CUT_COLOUR, CUT_STROKE, SheetCanvas, binary_streams
from ..geometry import bands, standee
from ..geometry.imposition import Line, SheetSpec
from ..io import guard, progress
from ..io.atomic import atomic_files
from ..model import Catalogue
from ..units import counted, format_length
from .options import BuildOptions
from .result import BuildResult, open_sheet_canvas

#: The folds' dash (on, off) pt.
FOLD_DASH = (4.0, 3.0)


def build_standees(catalogue: Catalogue, options: BuildOptions, out: str | Path) -> BuildResult:
    """Write every token of ``catalogue`` (× ``options.copies``) as a standee strip with a base of
    ``catalogue.standee_base`` pt.

    Raises:
        LayoutError: a strip does not fit the page, or the pages exceed ``--max-pages``.
        ExportError: the output cannot be written (nothing is left behind).
    """
    out = Path(out)
    spec = _standee_sheet(catalogue, options)
    width, height, base = spec.size, spec.height or spec.size, catalogue.standee_base or standee.BASE
    tokens = [t for _ in range(options.copies) for t in catalogue.tokens]
    strips = _strips(catalogue, len(tokens), spec, base, options.max_pages)
    pages = strips[-1].page + 1 if strips else 0
    inputs = catalogue.files_read()
    guard.check_outputs([out], inputs)
    with atomic_files([out], inputs=inputs) as temps:
        sheet = open_sheet_canvas(catalogue, options, spec, temps[0], f"{counted(len(tokens), 'standee')} of {format_length(width)} × {format_length(height)}")
        for number in range(pages):
            for token, strip in zip(tokens, strips, strict=True):
                if strip.page == number:
                    draw_strip(sheet, sheet.face_form(token), sheet.back_form(token.back), strip)
            end_page(sheet.canvas)
            progress.report("pages", number + 1, pages)
        with binary_streams():
            save(sheet.canvas)
    note = (f"{counted(len(tokens), 'standee')}: cut on the solid lines, fold on the dashed ones, glue the back behind the face "
            f"and turn the {format_length(base)} bases out to opposite sides")
    return BuildResult(out, pages, len(tokens), warnings=catalogue.warnings + tuple(sheet.art.warnings(catalogue.path.parent))
                       + tuple(sheet.warnings), sets=options.copies, notes=(note, *sheet.notes))


def _standee_sheet(catalogue: Catalogue, options: BuildOptions) -> SheetSpec:
    """The sheet of ``catalogue``'s standees: one token size, home sheets or one a page. Raises
    LayoutError for layouts of several sizes, or a profile whose sheets need bleed, page boxes
    or a die line."""
    found = bands.bands(catalogue)
    if len(found) != 1:
        raise LayoutError(f"{catalogue.path}: standees are of one size; this catalogue's layouts declare {len(found)}")
    [spec] = bands.band_specs(options.sheet, catalogue, found)
    if spec.bleed > 0 or options.boxes or options.die_line:
        raise LayoutError(f"{catalogue.path}: standee strips are printed on home sheets (tokengen build) or one side a page "
                          "(--profile single-pages, tgc-chits); this profile's sheets need bleed, page boxes or a die line, "
                          "which standee strips do not have")
    return spec


def _strips(catalogue: Catalogue, count: int, spec: SheetSpec, base: float, max_pages: int) -> list[standee.Strip]:
    """Where each of ``count`` standees goes (:func:`tokengen.geometry.standee.layout`; ``base``
    pt). Raises LayoutError when a strip is higher than the page holds or the pages are more
    than ``max_pages``."""
    width, height = spec.size, spec.height or spec.size
    try:
        strips = standee.layout(count, width, height, base, spec.page, spec.margin)
    except ValueError:
        raise LayoutError(f"{catalogue.path}: a standee of {format_length(width)} × {format_length(height)} with a {format_length(base)} base "
                          f"is {format_length(2 * height + 2 * base)} high unfolded, more than the page holds inside its margin") from None
    pages = strips[-1].page + 1 if strips else 0
    if pages > max_pages:
        raise LayoutError(f"{catalogue.path}: {counted(pages, 'page')}, more than the limit of {max_pages:,} (raise it with --max-pages)")
    return strips


def draw_strip(sheet: SheetCanvas, face: str, back: str, strip: standee.Strip) -> None:
    """One strip: the face upright, the back turned 180° above it, the cut outline and the folds."""
    c = sheet.canvas
    f, b = strip.face, strip.back
    c.saveState()
    c.translate(f.x, f.y)
    c.doForm(face)
    c.restoreState()
    c.saveState()
    c.translate(b.x + b.w, b.y + b.h)
    c.rotate(180)
    c.doForm(back)
    c.restoreState()
    o = strip.outline
    sheet.lines([Line(o.x, o.y, o.x + o.w, o.y), Line(o.x + o.w, o.y, o.x + o.w, o.y + o.h), Line(o.x + o.w, o.y + o.h, o.x, o.y + o.h),
                 Line(o.x, o.y + o.h, o.x, o.y)], CUT_STROKE, CUT_COLOUR)
    for fold in strip.folds:
        sheet.dashed(fold, CUT_STROKE, CUT_COLOUR, FOLD_DASH)
