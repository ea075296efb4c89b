"""Boards larger than the page: each token of a catalogue whose tokens fit no page is printed
over several pages (:mod:`tokengen.geometry.tiling`), then an assembly key.

Each tile page holds the board's part clipped to the window, crop marks at its corners, an
alignment mark (a circle and a cross) at every point of the overlap strips' centre lines that
lies on it, and its label (``A1``, row letter and column number, with the grid and the overlap) in
the foot. The face is drawn once into a form, as on every sheet, and each tile places it moved and
clipped, so the tiles' content joins exactly. The key page shows the whole board scaled to the
window with the tiles' outlines and labels over it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..errors import LayoutError
from ..faces.pagestream import end_page, save
from ..faces.render import ALL_SEPARATION, BLACK, CROP_STROKE, SheetCanvas, binary_streams
from ..geometry import bands, tiling
from ..geometry.imposition import Line
from ..io import guard, progress
from ..io.atomic import atomic_files
from ..model import Catalogue
from ..sources.profiles import Profile
from ..units import counted, format_length
from .options import BuildOptions
from .result import BuildResult, open_sheet_canvas

#: Line width (pt) of the alignment marks and the key's tile outlines.
MARK_STROKE = 0.3
#: Size (pt) of a tile's label and of the key page's text, and the least they are made to fit.
LABEL_SIZE, MIN_LABEL = 8.0, 6.0


def whole_board(catalogue: Catalogue, profile: Profile) -> Profile | None:
    """The profile a shop sheet export of a board takes instead of its own: a board (one token
    size, the catalogue's, larger than the profile's page less its margin either way round) is
    printed whole, one page per side at the board's trim plus the profile's bleed, with the
    profile's colour, marks off, boxes and PDF/X edition: shops that print boards take them so,
    never tiled. None for anything else: a token that fits, or a profile whose sheet is its point
    (a die line, registration marks for a cutter, cut files), which refuses a board as today."""
    if profile.output != "sheets" or profile.cut_layer is not None or "registration" in profile.marks:
        return None
    if len(bands.bands(catalogue)) != 1:
        return None
    page = profile.page
    width, height = catalogue.size, catalogue.height or catalogue.size
    if tiling.fits(width + 2 * profile.bleed, height + 2 * profile.bleed, page, profile.margin):
        return None
    order = ("face", "back") if profile.backs == "duplex" else ("face",)
    return dataclasses.replace(profile, output="single-pages", order=order, marks=())


def board_note(catalogue: Catalogue, profile: Profile) -> str:
    """The note an export prints when :func:`whole_board` replaced ``profile``'s sheets."""
    size = f"{format_length(catalogue.size)} × {format_length(catalogue.height or catalogue.size)}"
    return (f"a {size} board fits no {profile.name} sheet: it is printed whole, one page a side at its trim "
            f"with {format_length(profile.bleed)} of bleed, as shops that print boards take it")


def oversized(catalogue: Catalogue, options: BuildOptions) -> bool:
    """True when ``catalogue`` is a board to tile: tiling is on, its tokens have one size, the
    catalogue's own (not a ``--size`` or ``--scale`` asked on the command line, whose refusal names
    the largest size that fits), and they fit no page of ``options`` either way round, within
    :func:`tokengen.geometry.tiling.tileable`'s bounds."""
    spec = options.sheet
    if not options.tile or len(bands.bands(catalogue)) != 1 or spec.size != catalogue.size:
        return False
    return tiling.tileable(spec.size, spec.height or spec.size, spec.page, spec.margin, options.overlap) is not None


def build_tiled(catalogue: Catalogue, options: BuildOptions, out: str | Path,
                also: Callable[[Path, int], Sequence[Path]] | None = None) -> BuildResult:
    """Print each token of ``catalogue`` (a board larger than the page) over several pages with
    ``options.overlap`` pt shared between neighbours, each token followed by its assembly key.
    ``also`` names further files written from the PDF (previews), guarded with it.

    Raises:
        LayoutError: the pages exceed ``--max-pages``.
        ExportError: the output cannot be written (nothing is left behind).
    """
    out = Path(out)
    [band] = bands.bands(catalogue)
    [spec] = bands.band_specs(options.sheet, catalogue, [band])
    width, height = spec.size, spec.height or spec.size
    grid = tiling.tile_board(width, height, spec.page, spec.margin, options.overlap)  # tileable: see oversized()
    per_board = len(grid.tiles) + 1
    pages = per_board * catalogue.count
    if pages > options.max_pages:
        raise LayoutError(f"{catalogue.path}: tiling needs {counted(pages, 'page')}, more than the limit of {options.max_pages:,} "
                          "(raise it with --max-pages)")
    inputs = catalogue.files_read()
    guard.check_outputs([out, *(also(out, pages) if also else ())], inputs)
    size = f"{format_length(width)} × {format_length(height)}"
    with atomic_files([out], inputs=inputs) as temps:
        sheet = open_sheet_canvas(catalogue, options, spec, temps[0], f"{counted(catalogue.count, 'board')} of {size} tiled over {counted(pages, 'page')}")
        canvas = sheet.canvas
        ink = ALL_SEPARATION if options.colour_model == "cmyk" else BLACK
        points = grid.alignment_points()
        done = 0
        for token in catalogue.tokens:
            form = sheet.face_form(token)
            for tile in grid.tiles:
                draw_tile(sheet, form, tile, grid, tiling.marks_on(tile, points), ink)
                end_page(canvas)
                done += 1
                progress.report("pages", done, pages)
            draw_key(sheet, form, grid, spec.page, spec.margin, token.id, ink)
            end_page(canvas)
            done += 1
        with binary_streams():
            save(canvas)
    note = (f"{counted(catalogue.count, 'board')} of {size} tiled over {grid.rows} × {grid.columns} pages each, "
            f"overlapping by {format_length(options.overlap)}, with an assembly key page (--no-tile refuses instead)")
    return BuildResult(out, pages, catalogue.count, warnings=catalogue.warnings + tuple(sheet.art.warnings(catalogue.path.parent))
                       + tuple(sheet.warnings), notes=(note, *sheet.notes))


def draw_tile(sheet: SheetCanvas, form: str, tile: tiling.Tile, grid: tiling.Tiling, marks: list[tuple[float, float]],
              ink: Any) -> None:
    """One tile page: the board's part (the face form moved by the tile's origin, clipped to the
    part), crop marks at its corners, the alignment ``marks`` (page pt), and its label."""
    c = sheet.canvas
    part = tile.on_page
    c.saveState()
    path = c.beginPath()
    path.rect(part.x, part.y, part.w, part.h)
    c.clipPath(path, stroke=0, fill=0)
    c.translate(*tile.origin)
    c.doForm(form)
    c.restoreState()
    sheet.lines(tiling.crop_marks(tile), CROP_STROKE, ink)
    r = tiling.ALIGN_RADIUS
    cross = [line for x, y in marks for line in (Line(x - 2 * r, y, x + 2 * r, y), Line(x, y - 2 * r, x, y + 2 * r))]
    if cross:
        sheet.lines(cross, MARK_STROKE, ink)
        c.saveState()
        c.setStrokeColor(sheet.paint(ink))
        c.setLineWidth(MARK_STROKE)
        for x, y in marks:
            c.circle(x, y, r, stroke=1, fill=0)
        c.restoreState()
    _text(sheet, part.x, part.y - tiling.MARK_GAP - tiling.MARK_LENGTH - LABEL_SIZE,
          f"{tile.label} · row {tile.row + 1} of {grid.rows}, column {tile.column + 1} of {grid.columns} · "
          f"overlap {format_length(grid.overlap)}: cut at the crop marks, lay it over its neighbours on the left and above, circles on circles",
          ink, width=part.w)


def draw_key(sheet: SheetCanvas, form: str, grid: tiling.Tiling, page: tuple[float, float], margin: float, name: str,
             ink: Any) -> None:
    """The assembly key: the whole board scaled into the window, each tile's part outlined and
    labelled at its centre, and how to lay the tiles together."""
    c = sheet.canvas
    area = tiling.window(page, margin)
    scale = min(area.w / grid.width, (area.h - 2 * LABEL_SIZE) / grid.height)
    x0 = area.x + (area.w - grid.width * scale) / 2
    y0 = area.y + area.h - 2 * LABEL_SIZE - grid.height * scale
    c.saveState()
    c.translate(x0, y0)
    c.scale(scale, scale)
    c.doForm(form)
    c.restoreState()
    outlines = []
    for tile in grid.tiles:
        b = tile.board
        x, y, w, h = x0 + b.x * scale, y0 + b.y * scale, b.w * scale, b.h * scale
        outlines += [Line(x, y, x + w, y), Line(x + w, y, x + w, y + h), Line(x + w, y + h, x, y + h), Line(x, y + h, x, y)]
    sheet.lines(outlines, MARK_STROKE, ink)
    for tile in grid.tiles:
        b = tile.board
        _text(sheet, x0 + (b.x + b.w / 2) * scale - LABEL_SIZE, y0 + (b.y + b.h / 2) * scale, tile.label, ink)
    _text(sheet, area.x, area.y + area.h - LABEL_SIZE,
          f"{name}: assembly key · {grid.rows} × {grid.columns} tiles, overlap {format_length(grid.overlap)} · "
          "cut each tile at its crop marks, lay each over its neighbours on the left and above, circles on circles, and tape", ink, width=area.w)


def _text(sheet: SheetCanvas, x: float, y: float, text: str, ink: Any, width: float | None = None) -> None:
    """``text`` at (x, y) pt in the regular font at :data:`LABEL_SIZE`, made smaller (down to
    :data:`MIN_LABEL`) until it fits ``width`` pt; still too long, cut at its last " · " part that fits."""
    c = sheet.canvas
    size = LABEL_SIZE
    if width is not None:
        while sheet.measure(text, size) > width and size > MIN_LABEL:
            size -= 0.5
        while sheet.measure(text, size) > width and " · " in text:
            text = text.rsplit(" · ", 1)[0]
    c.saveState()
    c.setFillColor(sheet.paint(ink))
    c.setFont(sheet.regular, size)
    c.drawString(x, y, text)
    c.restoreState()
