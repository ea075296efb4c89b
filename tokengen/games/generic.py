"""The generic checks every catalogue with declared fields gets, whatever its game. Each is a
small callable ``(catalogue, settings) -> list[Finding]``, like the rules engine's checks."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..errors import LayoutError
from ..faces.facedraw import cut_message, cut_texts, printed_texts, unfit_message, unfit_texts
from ..faces.render import text_frame
from ..faces.scale import MIN_LEGIBLE_PT
from ..geometry import bands, pager, shapes, standee, textfit, tiling
from ..geometry.imposition import SheetSpec
from ..geometry.sizing import sheet_spec
from ..model import Catalogue, Token
from ..units import counted, format_length, format_pt
from .contract import ERROR, INFO, WARNING, Finding, Settings
from .declared import check_odds, check_rules


def _spec(catalogue: Catalogue, settings: Settings, trim: bands.Trim | None = None) -> SheetSpec:
    """The sheet the checks measure: the settings' page, margin and token size (settled as build
    settles ``--size``), the catalogue's ``columns:`` as build groups them and build's furniture,
    with its height and shape; with ``trim``, a layout's own size and shape (scaled as build
    scales it)."""
    base = sheet_spec(settings.page, settings.token_size(catalogue), margin=settings.margin, group=catalogue.columns,
                      furniture="full")
    return bands.band_spec(base, catalogue, trim)


def check_sizes_fit(catalogue: Catalogue, settings: Settings) -> list[Finding]:
    """Error ``not-printable`` when one token does not fit the sheet; else info ``sheet``: how
    many fit (the count ``build`` lays out, :func:`tokengen.geometry.pager.fits`: grids, circles
    with punch room, offset hexes, the calibration strip beside the tokens when that saves sheets).
    A catalogue whose layouts declare sizes of their own gets one finding per size, in band
    order (:func:`tokengen.geometry.bands.bands`), naming the tokens of that size. Standees
    (``shape: standee``): how many strips fit (:func:`tokengen.geometry.standee.layout`)."""
    if catalogue.standee_base is not None:
        return [_standees(catalogue, settings)]
    found = bands.bands(catalogue)
    specs = [_spec(catalogue, settings, band.trim) for band in found]
    try:
        settled: list[pager.Fit | None] = list(pager.fits([b.count for b in found], specs))
    except LayoutError:
        settled = [None] * len(found)  # each band's own error below
    out = []
    for band, spec, fit in zip(found, specs, settled, strict=True):
        which = f" ({_ids(band)})" if len(found) > 1 else ""
        if fit is None:
            try:
                fit = pager.fits([max(band.count, 1)], [spec])[0]
            except LayoutError as exc:
                out.append(_board(catalogue, spec, settings, len(found)) or Finding(ERROR, "not-printable", f"{exc}{which}", field="size"))
                continue
        data: dict[str, Any] = {"per_page": fit.per_page, "columns": fit.columns, "rows": fit.rows}
        if len(found) > 1:
            data |= {"size": shapes.describe(spec), "tokens": [t.id for t in band.tokens]}
        out.append(Finding(INFO, "sheet", f"{counted(fit.per_page, 'token')} of {shapes.describe(spec)} {'fits' if fit.per_page == 1 else 'fit'} on one "
                           f"{format_length(spec.page[0])} × {format_length(spec.page[1])} page{which}", data=data))  # a hand-laid sheet's own page
    return out


def _standees(catalogue: Catalogue, settings: Settings) -> Finding:
    """Info ``sheet`` (or error ``not-printable``) for standee strips, as ``build`` lays them out."""
    spec = _spec(catalogue, settings)
    width, height, base = spec.size, spec.height or spec.size, catalogue.standee_base or standee.BASE
    page = f"{format_length(settings.page[0])} × {format_length(settings.page[1])} page"
    try:
        per_page = len([s for s in standee.layout(1000, width, height, base, settings.page, spec.margin) if s.page == 0])
    except ValueError:
        return Finding(ERROR, "not-printable", f"a standee strip of {format_length(width)} × {format_length(2 * height + 2 * base)} "
                       f"does not fit on a {page} with a {format_length(spec.margin)} margin", field="size")
    return Finding(INFO, "sheet", f"{counted(per_page, 'standee')} of {format_length(width)} × {format_length(height)} "
                   f"{'fits' if per_page == 1 else 'fit'} on one {page}", data={"per_page": per_page})


def _board(catalogue: Catalogue, spec: SheetSpec, settings: Settings, count: int) -> Finding | None:
    """Info ``board``: a token of the catalogue's one size larger than the page, which ``build``
    tiles over pages (:mod:`tokengen.geometry.tiling`); None when it is not such a board, or the
    catalogue says ``tile: false``."""
    width, height = spec.size, spec.height or spec.size
    grid = None if count != 1 or catalogue.tile_overlap is None else \
        tiling.tileable(width, height, settings.page, spec.margin, catalogue.tile_overlap)
    if grid is None:
        return None
    return Finding(INFO, "board", f"a {format_length(width)} × {format_length(height)} board: build tiles it over "
                   f"{grid.rows} × {grid.columns} pages of {format_length(settings.page[0])} × {format_length(settings.page[1])} "
                   f"overlapping by {format_length(grid.overlap)}, plus an assembly key; shop exports print it whole "
                   "with single-pages", data={"rows": grid.rows, "columns": grid.columns})


def _ids(band: bands.Band) -> str:
    """The tokens of a band for messages: ``inf-1, cav-1, art-1`` (the first three, then ``…``)."""
    ids = [t.id for t in band.tokens]
    return ", ".join(ids[:3]) + (", …" if len(ids) > 3 else "")


def _frame(spec: SheetSpec, design: float | None) -> tuple[textfit.SafeArea, float] | None:
    """The home safe area and text shrink (:func:`tokengen.faces.render.text_frame`) text is set
    with, as ``build`` sets it (None: the token is too small for text at all; ``build`` says so)."""
    try:
        return text_frame(spec.shape, spec.size, spec.height or spec.size, design=design)
    except LayoutError:
        return None


def _measured(catalogue: Catalogue, settings: Settings) -> Iterator[tuple[Token, SheetSpec, tuple[textfit.SafeArea, float] | None]]:
    """Every token of ``catalogue`` with the sheet it is measured on (its band's size: a layout's
    own, else the catalogue's) and that sheet's safe area and text shrink (:func:`_frame`), band by band."""
    for band in bands.bands(catalogue):
        spec = _spec(catalogue, settings, band.trim)
        frame = _frame(spec, catalogue.safe_area)
        for token in band.tokens:
            yield token, spec, frame


def check_text_fits(catalogue: Catalogue, settings: Settings) -> list[Finding]:
    """Warning ``text-outside-safe-area`` for each text of a face or back that cannot be shrunk
    into the home safe area (1/16 of the token size, at least 1/16 in, inside the shape's outline) even at
    :data:`tokengen.geometry.textfit.MIN_SIZE`: ``build`` warns too, and preflight would fail. One per
    token and template element, at the element's line. Warning ``text-cut`` for each boxed text
    that does not fit its box even at its ``min_size``, so its end is left out (``…``)."""
    found: dict[tuple[str, str], Finding] = {}
    for token, spec, frame in _measured(catalogue, settings):
        if frame is None:
            continue
        area, _ = frame
        width, height = spec.size, spec.height or spec.size
        values = dict(token.values)
        for side, template in (("face", token.template), ("back", token.back.template)):
            if template is None:
                continue
            for element, t in unfit_texts(width, height, template, values, area):
                key = (token.id if side == "face" else f"back {values}", element.where)
                found.setdefault(key, Finding(WARNING, "text-outside-safe-area", unfit_message(f"token {token.id}" + (" (back)" if side == "back" else ""), t, area),
                                              element.line, element.where, {"token": token.id, "side": side, "pt": round(t.size, 2)}))
            for element, laid in cut_texts(width, height, template, values):
                key = (token.id if side == "face" else f"back {values}", element.where)
                found.setdefault(key, Finding(WARNING, "text-cut", cut_message(f"token {token.id}" + (" (back)" if side == "back" else ""), laid),
                                              element.line, element.where, {"token": token.id, "side": side, "pt": round(laid.size, 2),
                                                                            "cut_words": laid.cut_words, "cut_chars": laid.cut_chars}))
    return list(found.values())


def check_text_legible(catalogue: Catalogue, settings: Settings) -> list[Finding]:
    """Warning ``small-text`` for each text of a face or back (after shrinking to fit its width
    and the safe area) that prints below :data:`tokengen.faces.scale.MIN_LEGIBLE_PT` (5 pt) at the
    token size in use, at the size the PDF holds (:func:`tokengen.faces.facedraw.printed_texts`,
    the measure ``build`` and ``export`` report too). A one-line text outside the safe area and a
    cut boxed text have their own warnings instead."""
    found = []
    for token, spec, frame in _measured(catalogue, settings):
        if frame is None:
            continue
        area, scale = frame
        width, height = spec.size, spec.height or spec.size
        values = dict(token.values)
        for side, template in (("face", token.template), ("back", token.back.template)):
            if template is None:
                continue
            for p in printed_texts(width, height, template, values, area, scale):
                if p.text and p.fits and p.pt < MIN_LEGIBLE_PT - 1e-9:
                    shown = p.element.where if p.boxed else f"'{p.text}'"
                    found.append(Finding(WARNING, "small-text", f"token {token.id}: {side} text {shown} is {format_pt(p.pt)} pt, "
                                         f"below {MIN_LEGIBLE_PT:g} pt", token.line, None,
                                         {"token": token.id, "side": side, "pt": round(p.pt, 2)}))
    return found


def check_unique_ids(catalogue: Catalogue, settings: Settings) -> list[Finding]:
    """Error ``duplicate-id`` for each token id used twice (a catalogue built by the library
    rather than loaded; loading refuses duplicates already)."""
    seen: dict[str, int | None] = {}
    found = []
    for token in catalogue.tokens:
        if token.id in seen:
            found.append(Finding(ERROR, "duplicate-id", f"duplicate id '{token.id}' (first at line {seen[token.id]})", token.line))
        seen.setdefault(token.id, token.line)
    return found


def check_blind_backs(catalogue: Catalogue, settings: Settings) -> list[Finding]:
    """Error ``back-differs`` for each token whose back differs from the first token's when the
    catalogue says ``drawn_blind: true`` (a different back gives a blind draw away)."""
    if not catalogue.drawn_blind:
        return []
    first = catalogue.tokens[0]
    return [Finding(ERROR, "back-differs", f"token '{t.id}' has a back unlike token '{first.id}'; "
                    "the tokens are drawn blind, so every back must match (the back reads "
                    f"{', '.join(dict(t.back.values)) or 'no field'})", t.line, "back", {"token": t.id})
            for t in catalogue.tokens[1:] if t.back != first.back]


def check_thin_strokes(catalogue: Catalogue, settings: Settings) -> list[Finding]:
    """Warning ``thin-stroke`` for each stroked shape (``rect``, ``circle``, ``frame``) of a face
    or back template whose line prints thinner than a print shop's minimum stroke at the token
    size in use: :data:`tokengen.preflight.checks.HAIRLINE` (0.25 pt), the width below which the
    export's preflight warns of a hairline. One per template element, at the element's line."""
    from ..preflight.checks import HAIRLINE

    spec = _spec(catalogue, settings)
    side = min(spec.size, spec.height or spec.size)
    found: dict[tuple[str, str], Finding] = {}
    for token in catalogue.tokens:
        for kind, template in (("face", token.template), ("back", token.back.template)):
            if template is None:
                continue
            for element in template.every():
                if element.kind not in ("rect", "circle", "frame") or not element.width:
                    continue
                if (element.colour if element.kind == "frame" else element.stroke) is None:
                    continue  # no line is drawn
                width = element.width.resolve(side)
                key = (template.source, element.where)
                if 0 < width < HAIRLINE - 1e-9 and key not in found:
                    outside = template.source and template.source != str(catalogue.path)
                    found[key] = Finding(WARNING, "thin-stroke", f"{kind} {element.kind} stroke is {width:.3f} pt wide at "
                                         f"{format_length(spec.size)}, thinner than the {HAIRLINE:g} pt a print shop prints "
                                         "reliably (preflight warns of a hairline)", element.line, element.where,
                                         {"side": kind, "pt": round(width, 3), "minimum_pt": HAIRLINE},
                                         file=template.source if outside else None)
    return list(found.values())


def check_remarks(catalogue: Catalogue, settings: Settings) -> list[Finding]:
    """A warning for each remark reading the catalogue made (:attr:`tokengen.model.Catalogue.remarks`,
    :mod:`tokengen.sources.remarks`): ``unmatched-condition`` (a ``when:`` or ``unless:`` that
    holds on no token), ``icon-as-text`` (``:icon:`` in a one-line text), at the element's line
    and field; ``build`` and ``export`` print the same lines as warnings."""
    return [Finding(WARNING, r.code, r.message, r.line, r.field, file=None if r.file == str(catalogue.path) else r.file)
            for r in catalogue.remarks]


def check_sheet_notes(catalogue: Catalogue, settings: Settings) -> list[Finding]:
    """A ``spreadsheet`` warning for each note reading the catalogue's spreadsheet made (hidden
    rows skipped, a column that is no field, a rich cell's run styles not printed): the lines
    ``build`` and ``export`` print as warnings, here in the spreadsheet's name."""
    remarks = {str(r) for r in catalogue.remarks}
    found = []
    for note in catalogue.warnings:
        if note in remarks:
            continue
        file, _, message = note.partition(": ")
        found.append(Finding(WARNING, "spreadsheet", message, file=file))
    return found


def check_svg_art(catalogue: Catalogue, settings: Settings) -> list[Finding]:
    """The notes and refusals a build gives the catalogue's SVG art, as ``svg-art`` findings: a
    warning for each note (``art/orc.svg: SVG: drawn as a 300 DPI picture: <mask> at line 12``,
    :func:`tokengen.faces.svgart.read_svg`), an error for a file a build refuses (its one line).
    ``build`` and ``export`` print the same lines as warnings and errors."""
    from ..errors import ArtError
    from ..faces.art import shown_in
    from ..faces.svgart import is_svg, read_svg

    folder = catalogue.path.parent
    found = []
    for path in catalogue.files_read()[1:]:
        if not is_svg(path):
            continue
        try:
            art = read_svg(path)
        except ArtError as exc:
            where = f":{exc.line}" if exc.line else ""
            found.append(Finding(ERROR, "svg-art", f"{shown_in(path, folder)}{where}: {exc.reason}"))
            continue
        found += [Finding(WARNING, "svg-art", f"{shown_in(path, folder)}: SVG: {line}") for line in art.warnings]
    return found


def check_art_resolution(catalogue: Catalogue, settings: Settings) -> list[Finding]:
    """Warning ``art-resolution`` for each picture a build prints below 300 DPI, and the line for
    the pictures it resamples down: the faces (and backs) are drawn on a sheet that is never saved,
    as ``build`` draws them at the settings' size, and the art library's lines are taken as
    ``build`` prints them (:meth:`tokengen.faces.art.ArtLibrary.warnings`; SVG notes are
    :func:`check_svg_art`'s): pictures, image fields and icons in text alike. A catalogue that
    shows no raster picture is not drawn."""
    import io

    from ..faces.art import ArtLibrary
    from ..faces.render import SheetCanvas, open_canvas

    if not _shows_pictures(catalogue):
        return []
    library = ArtLibrary("rgb")
    for band in bands.bands(catalogue):
        spec = _spec(catalogue, settings, band.trim)
        canvas = open_canvas(io.BytesIO(), spec.page, title="", author="", subject="")
        sheet = SheetCanvas(canvas, spec.size, 0.0, "rgb", art=library, page=spec.page, design=catalogue.safe_area,
                            height=spec.height, shape=spec.shape)
        for token in band.tokens:
            sheet.face_form(token)
            sheet.back_form(token.back)
    svg_notes = ": SVG: "
    return [Finding(WARNING, "art-resolution", line) for line in library.warnings(catalogue.path.parent) if svg_notes not in line]


def _shows_pictures(catalogue: Catalogue) -> bool:
    """Whether a face or back of ``catalogue`` may show a raster picture: art, an image field's
    picture, a template's literal picture or an icon in its text."""
    from ..faces.svgart import is_svg
    from ..sources.template import pictures, templates_of

    if any(not is_svg(path) for path in catalogue.pictures()):
        return True
    faces = {id(token.template): token.template for token in catalogue.tokens if token.template is not None}
    return any(pictures(face) or any(template.icons for template in templates_of(face)) for face in faces.values())


#: The generic checks, in report order: the catalogue's own rules and odds last.
CHECKS = (check_unique_ids, check_blind_backs, check_sizes_fit, check_text_legible, check_text_fits, check_thin_strokes,
          check_remarks, check_sheet_notes, check_svg_art, check_art_resolution, check_rules, check_odds)
