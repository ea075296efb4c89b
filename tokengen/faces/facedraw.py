"""ReportLab drawing of face templates (:mod:`tokengen.sources.template`), element by element.

Drawing happens inside a token's Form XObject whose origin is the trim's lower-left corner; the
token is ``width`` × ``height`` pt and the sheet's bleed ``bleed`` pt runs past it. Template
fractions run from the top-left corner; here they become PDF coordinates (y up). Text elements
are drawn in runs that share one shrink about the token centre (the safe-area shrink of
:class:`tokengen.faces.render.SheetCanvas`); when the face shows art, every text with a ``plate``
group gets an opaque rounded plate under it (one plate per group, around all its texts), drawn
before the first text so text never sits on a picture. A text with a ``box`` is a paragraph set
by :mod:`tokengen.faces.textbox` (:func:`set_box`); the others are one line (:func:`set_text`).
Lines, polygons, stars, ellipses, sectors, gradients and text on a circle are drawn by
:mod:`tokengen.faces.figures`; an element with ``rotate`` is drawn turned about its centre
(:func:`tokengen.faces.figures.centre`), a one-line text by a turned text matrix.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import groupby
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from reportlab.lib.colors import Color
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from ..errors import RenderError
from ..geometry import textfit
from ..geometry.figures import bounds, path_points, turned
from ..geometry.imposition import Rect
from ..model import Colour
from ..sources import fonts
from ..sources import markup as mk
from ..sources.fonts import Family
from ..sources.markup import Doc
from ..sources.template import Element, Gradient, Template, boxed_text, colour_of, family_of, font_name, line_text, substitute
from ..units import counted, format_length
from . import beneath, emblem, figures, stacks
from .art import ArtImage, ArtLibrary, fit
from .svgart import SvgArt

#: Boxed texts kept laid out (:func:`_fit`): a build asks for each text
#: about four times (the catalogue's cut and small-text checks, the drawing, the small-text warning),
#: a pass over every face each; holding more faces than a pass asks for lets each be set once.
FIT_CACHE = 4096

if TYPE_CHECKING:  # platypus loads only when a face has a boxed text
    from . import textbox

#: Plate padding around text and plate corner radius, fractions of the token's smaller side
#: (the Meatshields face's values, see :mod:`tokengen.faces.emblem`).
PLATE_PAD, PLATE_RADIUS = emblem.PAD, 0.04


@dataclass
class FaceCanvas:
    """What drawing a template needs from the sheet: the canvas, the token box (pt), the bleed
    (pt), the colour conversion, the text shrink factor, the art library, the safe area text is
    fitted into (in the coordinates before the text shrink) and the art forms
    already defined ((path, image element) → (form name, pixel width, pixel height, the embedded
    image))."""

    canvas: Canvas
    width: float
    height: float
    bleed: float
    paint: Callable[..., Color]  # (colour, *, area=False): area for large fills, else text and lines
    text_scale: float
    art: ArtLibrary
    art_forms: dict[tuple[Path, Element], tuple[str, float, float, ArtImage | SvgArt]]
    area: textfit.SafeArea | None = None  # the safe area text is fitted into (see set_text)
    #: icon file → the form drawing it on the unit square (SVG icons; raster icons in CMYK outputs),
    #: defined before the face's form (see :func:`icon_files`); other icons ReportLab draws from the file
    icon_forms: dict[str, str] = field(default_factory=dict)
    #: The face's content scaled as one piece about the centre (see
    #: :func:`tokengen.faces.render.content_scale`); what bleeds (a ``bleed`` rect's trim edges, a
    #: ``bleed`` picture covering the bleed box) still reaches the bleed edge.
    content_scale: float = 1.0


def images(template: Template, values: dict[str, Any]) -> list[Path]:
    """The art files this template shows with these ``values`` (absolute paths; an empty value
    shows nothing). Their forms must exist before the face's form is begun."""
    return [path for _, path in image_elements(template, values)]


def _image_source(element: Element, values: dict[str, Any]) -> Path | None:
    if element.content.startswith("{") and element.content.endswith("}") and element.content.count("{") == 1:
        value = values.get(element.content[1:-1])
        return value if isinstance(value, Path) else None
    text = substitute(element.content, values)
    return Path(text) if text else None


def texts(template: Template, values: dict[str, Any]) -> list[tuple[str, str]]:
    """(text, ReportLab font) of every one-line text, glyph and arc text element, substituted (for
    glyph checks; a boxed text's styles are checked by :func:`set_box`)."""
    return [(line_text(e, values), font_name(template, e.font)) for e in template.elements
            if e.kind in ("text", "glyph", "arc_text") and not e.boxed]


def doc_of(template: Template, element: Element, values: dict[str, Any]) -> Doc:
    """A boxed ``element``'s text with these ``values``, parsed (:func:`tokengen.sources.markup.parse`,
    with the template's icons); each distinct text is parsed once (:func:`tokengen.sources.markup.parse_once`).

    Raises:
        CatalogueError: an unknown icon or an unclosed ``*``, naming the template's file, line and element.
    """
    return mk.parse_once(boxed_text(element, values), template.icons, element.markup,
                         template.source or f"template '{template.name}'", element.line, element.where)


@lru_cache(maxsize=FIT_CACHE)
def _fit(doc: Doc, w: float, h: float, family: Family, size: float, min_size: float, leading: float,
         align: str, valign: str, fit: bool, lang: str = "", small_caps: bool = False) -> textbox.Laid:
    from . import textbox

    return textbox.fit_box(doc, w, h, family, size, min_size=min_size, leading=leading, align=align, valign=valign, fit=fit,
                           hyphenate=lang or None, small_caps=small_caps)


def set_box(face_w: float, face_h: float, template: Template, element: Element, values: dict[str, Any]) -> textbox.Laid:
    """How a boxed text ``element`` is set on a ``face_w`` × ``face_h`` pt token with these
    values: its box (pt), its size (the element's ``size``, shrunk as one piece down to
    ``min_size`` unless ``fit: false``, words hyphenated first in the element's or catalogue's
    ``lang``), its lines; cut with ``…`` when it does not fit at the
    smallest size (:attr:`tokengen.faces.textbox.Laid.cut_words`). The one measure of a boxed
    text's printed size.

    Raises:
        CatalogueError: bad markup (see :func:`doc_of`).
        RenderError: a glyph a style's font lacks; an unreadable icon.
    """
    side = min(face_w, face_h)
    box = beneath.box_pt(face_w, face_h, element.box)
    largest = element.size.resolve(side)
    smallest = min(element.min_size.resolve(side), largest)
    return _fit(doc_of(template, element, values), box.w, box.h, family_of(template, element.font), largest, smallest,
                element.leading, element.align, element.valign, bool(element.fit), element.lang or template.lang,
                element.smallcaps)


def _pdf_box(face: FaceCanvas, box: tuple[float, float, float, float]) -> Rect:
    """A template box (fractions, from the top-left) in PDF points (from the bottom-left)."""
    return beneath.box_pt(face.width, face.height, box)


def draw_template(face: FaceCanvas, template: Template, values: dict[str, Any], layout: FaceLayout | None = None) -> None:
    """Draw every element of ``template`` with the field ``values`` into the current form, its
    one-line texts as ``layout`` set them (None: :func:`lay_out` in ``face.area``).

    Raises:
        RenderError: art cannot be read (see :meth:`ArtLibrary.load`).
    """
    template = stacks.laid_out(face.width, face.height, template, values)
    side = min(face.width, face.height)
    if layout is None:
        layout = lay_out(face.width, face.height, template, values, face.area)
    plates = bool(images(template, values))  # drawn once, before the first run of texts
    for is_text, group in groupby(enumerate(template.elements), key=lambda indexed: indexed[1].kind in ("text", "glyph")):
        if is_text:
            _text_run(face, template, values, layout, list(group), plates)
            plates = False
            continue
        for _, element in group:
            _element(face, template, element, values, side)


def _text_run(face: FaceCanvas, template: Template, values: dict[str, Any], layout: FaceLayout,
              run: list[tuple[int, Element]], plates: bool) -> None:
    """One run of consecutive text and glyph elements (each with its index in the template), drawn
    under the face's text shrink as ``layout`` set them; the art's plates first when ``plates``."""
    c = face.canvas
    c.saveState()
    _shrink(face)
    if plates:
        _plates(face, template, values, min(face.width, face.height), layout)
    for k, element in run:
        if element.orbit:
            c.saveState()
            _orbit(face, element)
        _text(face, template, element, values, layout.lines[k])
        if element.orbit:
            c.restoreState()
    c.restoreState()


def _element(face: FaceCanvas, template: Template, element: Element, values: dict[str, Any], side: float) -> None:
    """One element that is not a text or glyph: scaled with the face's content (unless it bleeds),
    moved along its orbit, turned by its ``rotate`` (an arc text turns by its own angles)."""
    c = face.canvas
    scaled = face.content_scale < 1.0 and not _bleeds(face, element)
    if scaled:
        c.saveState()
        _scale(face, face.content_scale)
    if element.orbit:
        c.saveState()
        _orbit(face, element)
    if element.kind == "arc_text":
        _arc_text(face, template, element, values, side)
    elif element.rotate:
        c.saveState()
        figures.turn(c, figures.centre(element, face.width, face.height, face.bleed), element.rotate)
        _DRAW.get(element.kind, _figure)(face, element, values, side)
        c.restoreState()
    else:
        _DRAW.get(element.kind, _figure)(face, element, values, side)
    if element.orbit:
        c.restoreState()
    if scaled:
        c.restoreState()


def _orbit(face: FaceCanvas, element: Element) -> None:
    """Turn what is drawn next through ``element.orbit``: each (degrees, x, y), outermost first,
    a turn clockwise about (x, y), fractions of the token from its top-left (a ``cm`` each)."""
    for degrees, x, y in element.orbit:
        figures.turn(face.canvas, (x * face.width, (1 - y) * face.height), degrees)


def _bleeds(face: FaceCanvas, element: Element) -> bool:
    """Whether ``element`` runs into the bleed (drawn unscaled, its own way: see :func:`_rect`)."""
    return element.kind in ("rect", "image") and element.bleed and (element.kind == "rect" or face.bleed > 0)


def _scale(face: FaceCanvas, scale: float) -> None:
    cx, cy = face.width / 2, face.height / 2
    face.canvas.translate(cx, cy)
    face.canvas.scale(scale, scale)
    face.canvas.translate(-cx, -cy)


def _shrink(face: FaceCanvas) -> None:
    scale = face.text_scale * face.content_scale
    if scale < 1.0:
        _scale(face, scale)


def _styled(face: FaceCanvas, element: Element, values: dict[str, Any], side: float) -> bool:
    """Whether a rect, circle or frame needs the figure drawing (a gradient fill or a dashed
    outline); plain ones are drawn as before, operator for operator."""
    return isinstance(element.fill, Gradient) or element.dash is not None or element.join != "miter"


def _ink(face: FaceCanvas, element: Element, values: dict[str, Any], side: float,
         stroke_ref: Any = None) -> tuple[Color | None, tuple[Gradient, list[Color]] | None, figures.Stroke | None]:
    """A figure's fill (a colour), gradient (with its painted colours) and stroke, with these values."""
    fill: Color | None = None
    gradient = None
    if isinstance(element.fill, Gradient):
        colours = figures.painted_gradient(element.fill, values, face.paint)
        gradient = (element.fill, colours) if colours is not None else None
    else:
        plain = colour_of(element.fill, values)
        fill = face.paint(plain, area=True) if plain is not None else None
    colour = colour_of(stroke_ref if stroke_ref is not None else element.stroke, values)
    width = element.width.resolve(side) if element.width else 0.0
    stroke: figures.Stroke | None = None
    if colour is not None and width > 0:
        dash = (element.dash[0].resolve(side), element.dash[1].resolve(side)) if element.dash else None
        stroke = figures.Stroke(face.paint(colour), width, dash, element.cap, element.join)
    return fill, gradient, stroke


def geo_bounds(path: list[tuple[Any, ...]]) -> tuple[float, float, float, float]:
    """(x, y, w, h) pt of the box holding a figure's outline (what its gradient spans)."""
    return bounds(path_points(path))


def _figure(face: FaceCanvas, element: Element, values: dict[str, Any], side: float) -> None:
    """A line, polygon, regular polygon, star, ellipse or sector (:func:`tokengen.faces.figures.figure_path`)."""
    path = figures.figure_path(element, face.width, face.height)
    box = geo_bounds(path)
    if element.kind == "line":
        colour = figures.colour_or_black(colour_of(element.colour, values))
        width = element.width.resolve(side) if element.width else 0.0
        if width > 0:
            dash = (element.dash[0].resolve(side), element.dash[1].resolve(side)) if element.dash else None
            line = figures.Stroke(face.paint(colour), width, dash, element.cap, element.join)
            figures.draw_figure(face.canvas, figures.to_path(face.canvas, path), None, None, line, box)
        return
    fill, gradient, stroke = _ink(face, element, values, side)
    figures.draw_figure(face.canvas, figures.to_path(face.canvas, path), fill, gradient, stroke, box)


def _styled_shape(face: FaceCanvas, element: Element, values: dict[str, Any], side: float) -> None:
    """A rect, circle or frame with a gradient fill or a dashed outline, drawn as a figure."""
    c = face.canvas
    p = c.beginPath()
    if element.kind == "circle":
        radius = element.r.resolve(side)
        cx, cy = element.at[0] * face.width, face.height * (1 - element.at[1])
        box = Rect(cx - radius, cy - radius, 2 * radius, 2 * radius)
        p.circle(cx, cy, radius)
    else:
        if element.kind == "frame":
            inset = element.inset.resolve(side)
            box = Rect(inset, inset, face.width - 2 * inset, face.height - 2 * inset)
        else:
            box = beneath.rect_area(element, face.width, face.height, face.bleed)
        r = element.radius.resolve(side)
        if r > 0:
            p.roundRect(box.x, box.y, box.w, box.h, r)
        else:
            p.rect(box.x, box.y, box.w, box.h)
    if element.kind == "frame":
        fill, gradient, stroke = None, None, _ink(face, element, values, side, element.colour)[2]
    else:
        fill, gradient, stroke = _ink(face, element, values, side)
    figures.draw_figure(c, p, fill, gradient, stroke, (box.x, box.y, box.w, box.h))


def _set_colours(face: FaceCanvas, element: Element, values: dict[str, Any], side: float) -> tuple[bool, bool]:
    """Set fill and stroke for a shape; returns (stroke, fill) flags."""
    fill = colour_of(element.fill, values)
    stroke = colour_of(element.stroke if element.kind != "frame" else element.colour, values)
    if fill is not None:
        face.canvas.setFillColor(face.paint(fill, area=True))  # a filled shape: pure black stays rich black
    width = element.width.resolve(side) if element.width else 0.0
    if stroke is not None and width > 0:
        face.canvas.setStrokeColor(face.paint(stroke))
        face.canvas.setLineWidth(width)
    return stroke is not None and width > 0, fill is not None


def _rect(face: FaceCanvas, element: Element, values: dict[str, Any], side: float) -> None:
    if _styled(face, element, values, side):
        _styled_shape(face, element, values, side)
        return
    box = beneath.rect_area(element, face.width, face.height, face.bleed)  # bleed: edges on the trim run out
    if element.bleed and face.content_scale < 1.0:  # its box scaled with the content, its trim edges still run out
        box = _scaled_bleed_area(face, element)
    stroke, fill = _set_colours(face, element, values, side)
    if not (stroke or fill):
        return
    radius = element.radius.resolve(side)
    if radius > 0:
        face.canvas.roundRect(box.x, box.y, box.w, box.h, radius, stroke=int(stroke), fill=int(fill))
    else:
        face.canvas.rect(box.x, box.y, box.w, box.h, stroke=int(stroke), fill=int(fill))


def _scaled_bleed_area(face: FaceCanvas, element: Element) -> Rect:
    """A ``bleed`` rect's area (pt) on a face whose content is scaled: its box scaled about the
    centre like the rest, and each edge that lies on the trim run out to the bleed edge."""
    w, h, b, k = face.width, face.height, face.bleed, face.content_scale
    box = beneath.box_pt(w, h, element.box)
    x0, y0 = w / 2 + k * (box.x - w / 2), h / 2 + k * (box.y - h / 2)
    x1, y1 = w / 2 + k * (box.x1 - w / 2), h / 2 + k * (box.y1 - h / 2)
    x0 = -b if box.x <= 1e-9 else x0
    y0 = -b if box.y <= 1e-9 else y0
    x1 = w + b if box.x1 >= w - 1e-9 else x1
    y1 = h + b if box.y1 >= h - 1e-9 else y1
    return Rect(x0, y0, x1 - x0, y1 - y0)


def _circle(face: FaceCanvas, element: Element, values: dict[str, Any], side: float) -> None:
    if _styled(face, element, values, side):
        _styled_shape(face, element, values, side)
        return
    stroke, fill = _set_colours(face, element, values, side)
    if stroke or fill:
        x, y = element.at
        face.canvas.circle(x * face.width, face.height * (1 - y), element.r.resolve(side), stroke=int(stroke), fill=int(fill))


def _frame(face: FaceCanvas, element: Element, values: dict[str, Any], side: float) -> None:
    if _styled(face, element, values, side):
        _styled_shape(face, element, values, side)
        return
    stroke, _ = _set_colours(face, element, values, side)
    if stroke:
        inset = element.inset.resolve(side)
        face.canvas.roundRect(inset, inset, face.width - 2 * inset, face.height - 2 * inset, element.radius.resolve(side), stroke=1, fill=0)


def image_elements(template: Template, values: dict[str, Any]) -> list[tuple[Element, Path]]:
    """(element, art file) for each image element that shows a file with these ``values``."""
    if "image" not in template.kinds():
        return []
    found = [(e, _image_source(e, values)) for e in template.elements if e.kind == "image"]
    return [(e, path) for e, path in found if path is not None]


def image_box(face: FaceCanvas, element: Element) -> tuple[Rect, str]:
    """The box (pt, face coordinates) an image ``element`` fills and how (``contain`` or
    ``cover``): the whole bleed box, covered, when the element asks for bleed and the sheet has
    it; else the element's own box and fit."""
    b = face.bleed
    if element.bleed and b > 0:
        return Rect(-b, -b, face.width + 2 * b, face.height + 2 * b), "cover"
    return _pdf_box(face, element.box), str(element.fit)


def image_visible(face: FaceCanvas, element: Element, pixels: tuple[float, float]) -> Rect:
    """Where an image ``element`` of ``pixels`` (width, height) shows on the face (pt): its
    fitted rectangle within its clip (the bleed box, ``clip`` or ``box``); a turned picture: the
    upright box around that rectangle turned."""
    box, how = image_box(face, element)
    full = element.bleed and face.bleed > 0
    clip = box if full or element.clip is None else _pdf_box(face, element.clip)
    shown = beneath.visible_box(fit(pixels[0], pixels[1], box, how), clip)
    if not element.rotate:
        return shown
    centre = figures.centre(element, face.width, face.height, face.bleed)  # turned: the upright box around it
    x, y, w, h = bounds([turned(p, centre, element.rotate) for p in ((shown.x, shown.y), (shown.x1, shown.y), (shown.x, shown.y1), (shown.x1, shown.y1))])
    return Rect(x, y, w, h)


def _image(face: FaceCanvas, element: Element, values: dict[str, Any], side: float) -> None:
    path = _image_source(element, values)
    if path is None:
        return
    name, px_w, px_h, image = face.art_forms[(path, element)]
    c = face.canvas
    box, how = image_box(face, element)
    full = element.bleed and face.bleed > 0
    drawn = fit(px_w, px_h, box, how)
    face.art.check_resolution(image, drawn)
    c.saveState()
    clip = c.beginPath()
    radius = element.radius.resolve(side)
    if full or element.clip is None:
        if radius > 0 and not full:
            clip.roundRect(box.x, box.y, box.w, box.h, radius)
        else:
            clip.rect(box.x, box.y, box.w, box.h)
    else:
        area = _pdf_box(face, element.clip)
        if radius > 0:
            clip.roundRect(area.x, area.y, area.w, area.h, radius)
        else:
            clip.rect(area.x, area.y, area.w, area.h)
    c.clipPath(clip, stroke=0, fill=0)
    c.translate(drawn.x, drawn.y)
    c.scale(drawn.w, drawn.h)
    c.doForm(name)
    c.restoreState()


@dataclass(frozen=True)
class SetText:
    """A text element as it will be set: the text, font, size (pt), anchor (pt) and spacing;
    ``fits``: False when it cannot be shrunk into the safe area it was set for; ``turn``: degrees
    it is turned clockwise about its anchor (x, baseline)."""

    text: str
    font: str
    size: float
    x: float
    baseline: float
    align: str
    char_space: float
    fits: bool = True
    turn: float = 0.0

    def left(self) -> float:
        """The left end (pt) of the text's box before it is turned."""
        w = self._centred().w
        return {"left": self.x, "right": self.x - w}.get(self.align, self.x - w / 2)

    def _centred(self) -> Rect:
        """The box (pt) centred on ``x``: the advance, kerning included (:func:`fonts.advance`), plus
        ``char_space`` between characters × ascent..descent."""
        width = fonts.advance(self.text, self.font, self.size) + self.char_space * max(0, len(self.text) - 1)
        ascent, descent = pdfmetrics.getAscentDescent(self.font, self.size)
        return Rect(self.x - width / 2, self.baseline + descent, width, ascent - descent)

    def outline(self) -> list[tuple[float, float]]:
        """The four corners (pt) of the text's box as printed: turned about its anchor."""
        box = self.upright()
        pts = [(box.x, box.y), (box.x1, box.y), (box.x1, box.y1), (box.x, box.y1)]
        return [turned(p, (self.x, self.baseline), self.turn) for p in pts] if self.turn else pts

    def box(self) -> Rect:
        """The text's box (pt): advance width × ascent..descent (a turned text: the upright box
        around its turned outline)."""
        if not self.turn:
            return self.upright()
        x, y, w, h = bounds(self.outline())
        return Rect(x, y, w, h)

    def upright(self) -> Rect:
        """The text's box (pt) before it is turned: advance width × ascent..descent at its anchor."""
        box = self._centred()
        if self.align == "left":
            return Rect(self.x, box.y, box.w, box.h)
        if self.align == "right":
            return Rect(self.x - box.w, box.y, box.w, box.h)
        return box


#: Texts already set, by (face size, element, font, text after substitution, safe area): the
#: warnings, the checks and the drawing of one face each ask for the same line (issue 27).
#: The element and the area themselves are kept beside the result, so their ids are not reused
#: while the entry lives (the areas of a sheet are one object: :func:`tokengen.geometry.textfit.safe_area`).
_SET: dict[tuple, tuple[Element, textfit.SafeArea | None, SetText]] = {}
#: Entries kept before the table starts afresh (about 300 bytes each).
_SET_LIMIT = 200_000


def set_text(face_w: float, face_h: float, template: Template, element: Element, values: dict[str, Any],
             area: textfit.SafeArea | None = None) -> SetText:
    """:func:`_set_text`, worked out once per distinct face size, element, font, printed text
    (:func:`tokengen.sources.template.line_text`, substituted once here) and safe area."""
    text = line_text(element, values)
    font = font_name(template, element.font)
    key = (face_w, face_h, id(element), font, text, id(area))
    found = _SET.get(key)
    if found is not None and found[0] is element and found[1] is area:
        return found[2]
    if len(_SET) >= _SET_LIMIT:
        _SET.clear()
        _PLACED.clear()
    result = _placed(face_w, face_h, element, text, font, area)
    _SET[key] = (element, area, result)
    return result


#: How a text is placed, by (face size, element, font, the text's width at 1 pt, its length when
#: the element spaces its letters, whether it is empty, safe area): a text is placed by its width
#: alone (:func:`_set_text`), so distinct texts of one width (``12/34``, ``56/78``: digits are
#: as wide as each other) are fitted once (issue 27). Kept beside the element and the area as
#: :data:`_SET` keeps them; emptied with it.
_PLACED: dict[tuple, tuple[Element, textfit.SafeArea | None, SetText]] = {}


def _placed(face_w: float, face_h: float, element: Element, text: str, font: str,
            area: textfit.SafeArea | None) -> SetText:
    """:func:`_set_text` of ``text``, from the placement of an earlier text of the same width
    (at 1 pt) in ``font`` and, when ``element`` spaces its letters, of the same length."""
    width = fonts.advance(text, font, 1.0)
    key = (face_w, face_h, id(element), font, width, len(text) if element.spacing else -1, not text, id(area))
    found = _PLACED.get(key)
    if found is not None and found[0] is element and found[1] is area:
        t = found[2]
        return SetText(text, t.font, t.size, t.x, t.baseline, t.align, t.char_space, t.fits, t.turn)
    result = _set_text(face_w, face_h, element, text, font, area)
    _PLACED[key] = (element, area, result)
    return result


def _set_text(face_w: float, face_h: float, element: Element, text: str, font: str,
              area: textfit.SafeArea | None = None) -> SetText:
    """How ``element`` is set on a ``face_w`` × ``face_h`` pt token with these values: the font
    size is the element's size, shrunk (when ``fit``) until the text fits the element's width;
    with a safe ``area`` (pt, see :func:`tokengen.geometry.textfit.safe_area`), shrunk further and moved
    within its box until it lies inside that area too (:func:`tokengen.geometry.textfit.fit_line`);
    a text with ``rotate`` is only shrunk about its anchor until its turned box lies inside
    (:func:`tokengen.geometry.textfit.fit_turned`). ``fit: false``: never shrunk, only moved inside
    the area as far as it goes (``fits`` False when it still leaves it). ``text`` is what the
    element prints, ``font`` the ReportLab font it is set in."""
    side = min(face_w, face_h)
    largest = element.size.resolve(side)
    spacing = element.spacing_of(side)
    size = fonts.fit_size(text, font, element.fit_width(face_w), largest) if element.fit else largest
    x, y = element.at[0] * face_w, face_h * (1 - element.at[1])
    if area is None or not text:
        return SetText(text, font, size, x, y, element.align, spacing * size, turn=element.rotate)
    ascent, descent = pdfmetrics.getAscentDescent(font, 1.0)
    metrics = textfit.Metrics(fonts.advance(text, font, 1.0) + spacing * max(0, len(text) - 1), ascent, descent)
    if element.rotate:  # turned about its anchor: shrunk there until its turned box is inside
        turned_fit = textfit.fit_turned(area, metrics, x, y, element.align, element.rotate, size, textfit.MIN_SIZE if element.fit else size)
        return SetText(text, font, turned_fit.size, x, y, element.align, spacing * turned_fit.size, turned_fit.fits, element.rotate)
    placed = textfit.fit_line(area, metrics, x, y, element.align, size, element.text_span(face_w) if element.fit else None,
                              textfit.MIN_SIZE if element.fit else size)
    w = metrics.advance * placed.size
    anchor = {"left": placed.left, "right": placed.left + w}.get(element.align, placed.left + w / 2)
    return SetText(text, font, placed.size, anchor, placed.baseline, element.align, spacing * placed.size, placed.fits)


@dataclass(frozen=True)
class Printed:
    """A text or glyph element as the PDF holds it.

    Attributes:
        element: the template element.
        text: what prints: the one line, or a boxed text's lines joined by spaces ("" : nothing).
        pt: the font size the PDF holds (pt): the size it is set at times the shrink it is drawn
            at about the token centre; the one number every command reports.
        fits: a one-line text lies inside the safe area; a boxed text has nothing cut.
        boxed: the element is a boxed text.
    """

    element: Element
    text: str
    pt: float
    fits: bool
    boxed: bool = False


def printed_texts(face_w: float, face_h: float, template: Template, values: dict[str, Any],
                  area: textfit.SafeArea | None, scale: float = 1.0, layout: FaceLayout | None = None) -> list[Printed]:
    """Every text and glyph element of ``template`` on a ``face_w`` × ``face_h`` pt token, as
    drawn with these ``values`` into the safe ``area`` and at the text ``scale`` (both from
    :func:`tokengen.faces.render.text_frame`): the one measure of printed text sizes that
    ``build``, ``check`` and ``export`` report. ``layout``: the face as its drawing laid it out
    (:func:`lay_out`), used when it was laid out in this same ``area``.

    Raises:
        CatalogueError, RenderError: as :func:`set_box` raises them.
    """
    template = stacks.laid_out(face_w, face_h, template, values)
    if layout is None or layout.area is not area:
        layout = lay_out(face_w, face_h, template, values, area)
    found = []
    for element, t in zip(template.elements, layout.lines, strict=True):
        if element.kind not in ("text", "glyph"):
            continue
        if t is None:  # boxed
            laid = set_box(face_w, face_h, template, element, values)
            found.append(Printed(element, " ".join(laid.lines), laid.size * scale, not laid.truncated, True))
        else:
            found.append(Printed(element, t.text, t.size * scale, t.fits))
    return found


def unfit_texts(face_w: float, face_h: float, template: Template, values: dict[str, Any],
                area: textfit.SafeArea) -> list[tuple[Element, SetText]]:
    """The text elements (and how they are set) that cannot be fitted inside the safe ``area``
    even at the smallest size (:data:`tokengen.geometry.textfit.MIN_SIZE`)."""
    template = stacks.laid_out(face_w, face_h, template, values)
    return lay_out(face_w, face_h, template, values, area).unfit(template)


@dataclass(frozen=True)
class FaceLayout:
    """A face's one-line texts set once (substituted, fitted into the safe area), for its glyph
    check, its warnings and its drawing alike (issue 27).

    Attributes:
        lines: per element of the template, in order: how a one-line text or glyph is set
            (:func:`set_text`; sizes and positions in pt); None for any other element.
        texts: (text, ReportLab font) of every one-line text, glyph and arc text, as
            :func:`texts` lists them.
        area: the safe area (pt) the lines were fitted into (see :func:`set_text`).
    """

    lines: tuple[SetText | None, ...]
    texts: tuple[tuple[str, str], ...]
    area: textfit.SafeArea | None = None

    def unfit(self, template: Template) -> list[tuple[Element, SetText]]:
        """:func:`unfit_texts` of this layout (``template``: the one it was laid out from)."""
        return [(e, t) for e, t in zip(template.elements, self.lines, strict=True) if t is not None and not t.fits]


def lay_out(face_w: float, face_h: float, template: Template, values: dict[str, Any],
            area: textfit.SafeArea | None) -> FaceLayout:
    """The one-line texts of ``template`` with these ``values`` set on a ``face_w`` × ``face_h``
    pt token in the safe ``area`` (pt; see :func:`set_text`), each once."""
    template = stacks.laid_out(face_w, face_h, template, values)
    lines: list[SetText | None] = []
    found: list[tuple[str, str]] = []
    for element in template.elements:
        if element.boxed or element.kind not in ("text", "glyph", "arc_text"):
            lines.append(None)
        elif element.kind == "arc_text":
            lines.append(None)
            found.append((line_text(element, values), font_name(template, element.font)))
        else:
            t = set_text(face_w, face_h, template, element, values, area)
            lines.append(t)
            found.append((t.text, t.font))
    return FaceLayout(tuple(lines), tuple(found), area)


def unfit_message(what: str, t: SetText, area: textfit.SafeArea) -> str:
    """The warning for a text that does not fit (``what``: ``token knight``, ``back``):
    ``token knight: '6 / 2.5' does not fit inside the 0.125in safe area even at 4 pt; move it
    inwards, shorten it or make the token larger``."""
    return (f"{what}: '{t.text}' does not fit inside the {format_length(area.inset)} safe area even at {t.size:.3g} pt; "
            "move it inwards, shorten it or make the token larger")


def cut_texts(face_w: float, face_h: float, template: Template, values: dict[str, Any]) -> list[tuple[Element, textbox.Laid]]:
    """The boxed text elements (and how they are set) that do not fit their box even at their
    smallest size, so their end is cut and replaced by ``…``."""
    template = stacks.laid_out(face_w, face_h, template, values)
    if "boxed" not in template.kinds():
        return []
    found = []
    for element in template.elements:
        if element.kind in ("text", "glyph") and element.boxed:
            laid = set_box(face_w, face_h, template, element, values)
            if laid.truncated:
                found.append((element, laid))
    return found


def cut_message(what: str, laid: textbox.Laid) -> str:
    """The warning for a boxed text cut to fit (``what``: ``token knight``, ``back``):
    ``token knight: the text does not fit its box even at 5 pt: 12 words (61 characters) left
    out, it ends in '…'; shorten it, lower min_size or make the box larger``. When the box is
    too low for even ``…`` alone (nothing of the text is drawn), it says so: ``the box is 4 pt
    high, lower than one line at 5 pt (6 pt): nothing of the text is drawn (12 words …)``."""
    if not laid.lines:
        return (f"{what}: the box is {laid.box_h:.3g} pt high, lower than one line at {laid.size:g} pt ({laid.leading:.3g} pt): "
                f"nothing of the text is drawn ({counted(laid.cut_words, 'word')}, {counted(laid.cut_chars, 'character')} "
                "left out); make the box taller or lower min_size")
    return (f"{what}: the text does not fit its box even at {laid.size:g} pt: {counted(laid.cut_words, 'word')} "
            f"({counted(laid.cut_chars, 'character')}) left out, it ends in '…'; shorten it, lower min_size or make the box larger")


def _plates(face: FaceCanvas, template: Template, values: dict[str, Any], side: float, layout: FaceLayout) -> None:
    groups: dict[str, tuple[Rect, Colour | None]] = {}
    for element, line in zip(template.elements, layout.lines, strict=True):
        if element.kind not in ("text", "glyph") or element.plate is None:
            continue
        if line is None:  # boxed
            box = _pdf_box(face, element.box)
        else:
            box = line.box()
        colour = colour_of(element.plate_colour, values)
        if element.plate in groups:
            seen, colour_before = groups[element.plate]
            x0, y0 = min(seen.x, box.x), min(seen.y, box.y)
            box = Rect(x0, y0, max(seen.x1, box.x1) - x0, max(seen.y1, box.y1) - y0)
            colour = colour_before or colour
        groups[element.plate] = (box, colour)
    for box, colour in groups.values():
        if colour is None:
            continue
        grown = box.grow(PLATE_PAD * side)
        face.canvas.setFillColor(face.paint(colour, area=True))
        face.canvas.roundRect(grown.x, grown.y, grown.w, grown.h, PLATE_RADIUS * side, stroke=0, fill=1)


def _text(face: FaceCanvas, template: Template, element: Element, values: dict[str, Any], t: SetText | None) -> None:
    """Draw a text or glyph ``element``: a boxed one set here, a one-line one as ``t`` sets it."""
    if t is None:
        _boxed(face, template, element, values)
        return
    if not t.text:
        return
    colour = colour_of(element.colour, values) or Colour("rgb", (0.0, 0.0, 0.0))
    c = face.canvas
    mode = _outline(face, element, values, t.size)
    if isinstance(element.fill, Gradient):
        shaded = figures.painted_gradient(element.fill, values, face.paint)
        if shaded is not None:
            _shaded_text(c, t, (element.fill, shaded), mode is not None)
            return
    if t.turn:
        figures.draw_text_turned(c, t.text, t.font, t.size, t.left(), t.baseline, (t.x, t.baseline), t.turn,
                                 face.paint(colour), t.char_space, mode)
        return
    c.setFillColor(face.paint(colour))
    c.setFont(t.font, t.size)
    runs = fonts.kerned_runs(t.text, t.font, t.size, t.char_space)
    if len(runs) > 1:  # the font kerns a pair: each run drawn where the kerned advances put it
        left = t.left()
        for dx, run in runs:
            c.drawString(left + dx, t.baseline, run, mode=mode, charSpace=t.char_space)
        return
    draw = c.drawString if t.align == "left" else c.drawRightString if t.align == "right" else c.drawCentredString
    if t.char_space:
        draw(t.x, t.baseline, t.text, mode=mode, charSpace=t.char_space)
    else:
        draw(t.x, t.baseline, t.text, mode=mode)


#: PDF text render mode for outlined text: fill, then stroke (ISO 32000-1 § 9.3.6, Table 106).
FILL_STROKE: Literal[2] = 2
#: PDF text render modes: stroke only, and add to the clipping path (ISO 32000-1 § 9.3.6, Table 106).
STROKE_ONLY: Literal[1] = 1
CLIP: Literal[7] = 7


def _shaded_text(c: Canvas, t: SetText, gradient: tuple[Gradient, list[Color]], outlined: bool) -> None:
    """A one-line text ``t`` filled with a gradient (``fill: {gradient: …}``; the gradient and its
    painted colours): its glyphs, kerned as :func:`tokengen.sources.fonts.kerned_runs` sets them,
    made the clipping path (render mode 7), the gradient painted over the text's upright box (its
    advance by its ascent and descent: what the gradient spans, as a rect's box), then, with a
    ``stroke``, the glyphs outlined (mode 1) in the stroke the canvas holds. A turned text is
    drawn upright in a frame turned about its anchor."""
    box = t.upright()
    modes: tuple[Literal[1, 7], ...] = (CLIP, STROKE_ONLY) if outlined else (CLIP,)
    for mode in modes:
        c.saveState()
        if t.turn:
            figures.turn(c, (t.x, t.baseline), t.turn)
        text = c.beginText()
        text.setFont(t.font, t.size)
        text.setTextRenderMode(mode)
        if t.char_space:
            text.setCharSpace(t.char_space)
        for dx, run in fonts.kerned_runs(t.text, t.font, t.size, t.char_space):
            text.setTextOrigin(box.x + dx, t.baseline)
            text.textOut(run)
        c.drawText(text)
        if mode == CLIP:
            area = c.beginPath()
            area.rect(box.x, box.y, box.w, box.h)
            figures.shade(c, area, gradient[0], gradient[1], (box.x, box.y, box.w, box.h))
        c.restoreState()


def _outline(face: FaceCanvas, element: Element, values: dict[str, Any], size: float) -> Literal[2] | None:
    """Set the canvas's stroke for a one-line text with a ``stroke`` (its colour, ``stroke_width``
    or 1/20 of the printed ``size`` pt, ``dash``) and return :data:`FILL_STROKE`; None (nothing set)
    for a text without one."""
    colour = colour_of(element.stroke, values)
    if colour is None:
        return None
    side = min(face.width, face.height)
    c = face.canvas
    c.setStrokeColor(face.paint(colour))
    c.setLineWidth(element.stroke_width.resolve(side) if element.stroke_width else size / 20)
    c.setDash([element.dash[0].resolve(side), element.dash[1].resolve(side)] if element.dash else [])
    return FILL_STROKE


def _boxed(face: FaceCanvas, template: Template, element: Element, values: dict[str, Any]) -> None:
    laid = set_box(face.width, face.height, template, element, values)
    colour = colour_of(element.colour, values) or Colour("rgb", (0.0, 0.0, 0.0))
    box = _pdf_box(face, element.box)
    from . import textbox

    if element.rotate:
        face.canvas.saveState()
        figures.turn(face.canvas, figures.centre(element, face.width, face.height), element.rotate)
        textbox.draw(face.canvas, laid, box.x, box.y, face.paint(colour), face.icon_forms, face.paint)
        face.canvas.restoreState()
        return
    textbox.draw(face.canvas, laid, box.x, box.y, face.paint(colour), face.icon_forms, face.paint)


def icon_files(face_w: float, face_h: float, template: Template, values: dict[str, Any]) -> list[tuple[Element, str, float]]:
    """(boxed text element, icon file, printed height pt) for each icon the boxed texts of
    ``template`` print with these ``values`` (once per element and file, in order; the height of
    its largest use, ``:coin@1.5:`` 1.5 × the text size)."""
    template = stacks.laid_out(face_w, face_h, template, values)
    if "boxed" not in template.kinds():
        return []
    found: dict[tuple[int, str], tuple[Element, str, float]] = {}
    for index, element in enumerate(template.elements):
        if element.kind in ("text", "glyph") and element.boxed:
            laid = set_box(face_w, face_h, template, element, values)
            scales: dict[str, float] = {}
            for item in (i for items in doc_of(template, element, values) for i in items if isinstance(i, mk.Icon)):
                scales[item.path] = max(scales.get(item.path, 0.0), item.scale)
            for path in (p for paragraph in laid.icons for p in paragraph):
                found.setdefault((index, path), (element, path, laid.size * scales.get(path, 1.0)))
    return list(found.values())


def text_box(face: FaceCanvas, element: Element) -> Rect:
    """The box (pt, face coordinates) of a boxed text ``element``."""
    return _pdf_box(face, element.box)


def set_arc_text(face_w: float, face_h: float, template: Template, element: Element, values: dict[str, Any]) -> figures.ArcSet:
    """How an ``arc_text`` element is set on a ``face_w`` × ``face_h`` pt token with these
    values (:func:`tokengen.faces.figures.set_arc`): its circle about ``at`` of radius ``r``,
    from ``start`` (turned on by ``rotate``) to ``end``.

    Raises:
        RenderError: the letters on the inside of the circle are taller than its radius.
    """
    side = min(face_w, face_h)
    text = substitute(element.content, values, plain=True)
    font = font_name(template, element.font)
    centre = (element.at[0] * face_w, face_h * (1 - element.at[1]))
    end = None if element.end is None else element.end + element.rotate
    try:
        return figures.set_arc(text, font, element.size.resolve(side), element.spacing_of(side), centre, element.r.resolve(side),
                               element.start + element.rotate, end, element.align, element.side,
                               element.direction == "clockwise", bool(element.fit))
    except ValueError as exc:
        raise RenderError(f"{template.place(element)}: {exc}; make r larger or the text smaller") from None


def long_arcs(face_w: float, face_h: float, template: Template, values: dict[str, Any]) -> list[tuple[Element, str, figures.ArcSet]]:
    """The ``arc_text`` elements (their text, and how they are set) longer than the arc from
    their ``start`` to their ``end`` even at the smallest size (or at ``size`` with ``fit: false``)."""
    template = stacks.laid_out(face_w, face_h, template, values)
    if "arc_text" not in template.kinds():
        return []
    found = []
    for element in template.elements:
        if element.kind == "arc_text" and element.end is not None:
            laid = set_arc_text(face_w, face_h, template, element, values)
            if not laid.fits:
                found.append((element, substitute(element.content, values, plain=True), laid))
    return found


def long_arc_message(what: str, text: str, laid: figures.ArcSet) -> str:
    """The warning for a text on a circle longer than its arc (``what``: ``token knight``, ``back``)."""
    return (f"{what}: '{text}' is longer than its arc from start to end even at {laid.size:.3g} pt; "
            "shorten it, widen the arc or make r larger")


def _arc_text(face: FaceCanvas, template: Template, element: Element, values: dict[str, Any], side: float) -> None:
    laid = set_arc_text(face.width, face.height, template, element, values)
    if laid.glyphs:
        colour = colour_of(element.colour, values) or Colour("rgb", (0.0, 0.0, 0.0))
        figures.draw_arc(face.canvas, laid, face.paint(colour))


#: How each kind other than text and glyph is drawn (the figures by :func:`_figure`).
_DRAW: dict[str, Callable[[FaceCanvas, Element, dict[str, Any], float], None]] = {
    "rect": _rect, "circle": _circle, "frame": _frame, "image": _image}
