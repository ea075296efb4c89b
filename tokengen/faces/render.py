"""ReportLab drawing: paints what :mod:`tokengen.geometry.imposition` computed. No page arithmetic here.

Each distinct token face (and the one back) is drawn once as a PDF Form XObject whose origin is
the token's trim lower-left corner; placements only reference it, so file size grows with the
number of designs, not the number of tokens. All face measures are fractions of the token size
``s`` (pt), so everything on the face scales with it; cut lines and crop marks keep fixed
printable strokes.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from reportlab import rl_config
from reportlab.lib.colors import CMYKColor, CMYKColorSep, Color, toColor
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfgen.canvas import Canvas

from .._version import __version__
from ..errors import LayoutError
from ..geometry import furniture, shapes, textfit
from ..geometry.imposition import Line, PageLayout, Rect
from ..model import Back, Colour, Token
from ..sources import fonts, template
from ..sources.template import Element, Template
from ..units import format_length, format_like
from . import beneath, emblem, facedraw, figures, stacks
from .art import ArtImage, ArtLibrary, fit
from .svgart import SvgArt, is_svg

#: Safe area inset as a fraction of the token size: 1/16 in on a 1 in token.
SAFE = 1 / 16
#: The least safe area (pt) of a home print, 1/16 in: the ``home`` profile's, which preflight checks.
HOME_SAFE = 4.5
#: Frame inset and stroke width, fractions of the token size (frame stays inside the safe area).
FRAME_INSET, FRAME_WIDTH = 0.08, 0.018
#: Text box inset (fraction of the token size).
TEXT_INSET = 0.13
#: Cut-line and crop-mark strokes, pt (fixed whatever the token size).
CUT_STROKE = 0.3
CROP_STROKE = 0.25

CUT_COLOUR = Colour("rgb", (0.25, 0.25, 0.25))
REGISTRATION = Colour("cmyk", (1.0, 1.0, 1.0, 1.0))
#: Crop and registration marks on CMYK sheets: the ``All`` separation (a Separation colour space
#: named All, alternate DeviceCMYK 1 1 1 1, tint 1), so they print on every plate, the shop's
#: RIP knows them as marks, and the total-ink check counts them as no ink.
ALL_SEPARATION = CMYKColorSep(1.0, 1.0, 1.0, 1.0, spotName="All", density=1.0)
BLACK = Colour("rgb", (0.0, 0.0, 0.0))
#: Largest size (pt) of a zone's label on a hand-laid counter sheet.
ZONE_LABEL_SIZE = 10.0
#: Die line (profile key ``cut_layer``): a spot colour's alternate (100 % magenta, how RIPs and
#: viewers show a ``CutContour``) and its stroke, pt (the thinnest stroke preflight passes).
DIE_ALTERNATE = (0.0, 1.0, 0.0, 0.0)
DIE_STROKE = 0.25


def die_colour(name: str) -> CMYKColorSep:
    """The die line's colour: a Separation named ``name`` (``CutContour``), alternate DeviceCMYK
    0 1 0 0, tint 100 %."""
    colour = CMYKColorSep(*DIE_ALTERNATE, spotName=name, density=1.0)
    colour.die = True  # type: ignore[attr-defined]  # marks the die line for cmyk_or_all: a separation kept as one
    return colour


def cmyk_or_all(colour: Any) -> CMYKColor:
    """ReportLab's ``enforceColorSpace="cmyk"`` check, letting :data:`ALL_SEPARATION` through:
    a CMYK colour as it is (another separation as plain CMYK), an RGB grey as its K, the ``All``
    separation and the die line's (:func:`die_colour`) as themselves.

    Raises:
        ValueError: any other colour (RGB), as ReportLab does.
    """
    tc = toColor(colour)
    if isinstance(tc, CMYKColorSep) and (tc.spotName == ALL_SEPARATION.spotName or getattr(tc, "die", False)):
        return tc
    if not isinstance(tc, CMYKColor):
        if isinstance(tc, Color) and tc.red == tc.blue == tc.green:
            return CMYKColor(0, 0, 0, 1 - tc.red, alpha=tc.alpha)
        raise ValueError(f"Non CMYK colour {colour!r} = {tc!r} used")
    if isinstance(tc, CMYKColorSep):
        plain = tc.clone()
        plain.__class__ = CMYKColor  # type: ignore[assignment]  # as ReportLab's own enforce check re-classes the clone
        return plain
    return tc


def _form_resources(canvas: Canvas) -> Any:
    """The resources of the form being drawn on ``canvas``, shadings and graphics states
    included: ReportLab's ``endForm`` gives a form only its fonts and XObjects, so a gradient
    (``sh``) or an opacity (``gs``) drawn inside a form would name a resource it lacks. The
    form's own shadings are the canvas' (ReportLab 4 and 5 keep them per page or form in
    ``_shadingUsed``); its graphics states are the document's (one dictionary for all)."""
    from reportlab.pdfbase.pdfdoc import PDFResourceDictionary

    resources = PDFResourceDictionary()
    resources.basicFonts()
    resources.setShading(canvas._shadingUsed)  # type: ignore[attr-defined]  # private, no public way to read it
    state = canvas._extgstate.getState()  # type: ignore[attr-defined]  # the same ExtGState ReportLab gives pages
    if state:
        resources.ExtGState = state  # type: ignore[attr-defined]  # set from dict_attributes; types-reportlab lists none
    return resources


@contextlib.contextmanager
def binary_streams() -> Iterator[None]:
    """While saving, write compressed streams as binary Flate only, not also ASCII85-encoded
    (ReportLab's default, ``rl_config.useA85``): a quarter smaller and faster. Restored after."""
    saved = rl_config.useA85
    rl_config.useA85 = 0
    try:
        yield
    finally:
        rl_config.useA85 = saved


def open_canvas(target: Any, page: tuple[float, float], *, title: str, author: str, subject: str,
                keywords: str = "", colour_model: str = "rgb") -> Canvas:
    """A ReportLab canvas set up as every tokengen PDF is.

    ``target`` is a path or a binary file object; ``page`` is (width, height) in pt. The canvas
    runs in invariant mode (same input, same bytes) with compressed pages; its initial font is the
    bundled DejaVu Sans, so no unembedded Helvetica is declared; a ``"cmyk"`` colour model makes
    ReportLab refuse any other colour. The PDF asks print dialogs for actual size
    (``/ViewerPreferences /PrintScaling /None``) and carries Title, Author, Subject, Creator and,
    when given, Keywords.
    """
    regular, _ = fonts.register()
    canvas = Canvas(str(target) if isinstance(target, Path) else target, pagesize=page, invariant=1, pageCompression=1,
                    initialFontName=regular, initialFontSize=10,  # type: ignore[arg-type]  # types-reportlab says float; it is a font name
                    enforceColorSpace=cmyk_or_all if colour_model == "cmyk" else None)
    canvas.setTitle(title)
    canvas.setAuthor(author)
    canvas.setSubject(subject)
    canvas.setCreator(f"tokengen {__version__}")
    canvas.setViewerPreference("PrintScaling", "None")
    if keywords:
        canvas.setKeywords(keywords)
    return canvas


def face_text_sizes(token: Token, size: float) -> dict[str, float]:
    """Font sizes (pt) of the glyph, the attribute code and the caption on a face of ``size`` pt
    drawn by the built-in :data:`~tokengen.sources.template.DEFAULT_FACE` template (a Meatshields
    token's), as it sets them (shrunk to fit its width)."""
    fonts.register()
    face, values = template.builtin(template.DEFAULT_FACE), template.token_values(token)
    texts = [e for e in face.elements if e.kind in ("text", "glyph")]
    return {part: facedraw.set_text(size, size, face, e, values).size for part, e in zip(("glyph", "code", "caption"), texts, strict=True)}


def default_safe(side: float) -> float:
    """The safe area (pt) face text keeps inside the trim of a token whose smaller side is
    ``side`` pt, when no profile sets one: the design's 1/16 of the token, but never less than
    :data:`HOME_SAFE` (1/16 in), so a token built smaller than 1 in still passes ``preflight
    --profile home``: its text is fitted to the safe area at the size it prints. A token too
    small for text inside 1/16 in (under about 0.17 in, see :func:`text_scale`) keeps 1/16 of
    its size."""
    safe = max(SAFE * side, HOME_SAFE)
    try:
        text_scale(side, safe)
    except LayoutError:
        return SAFE * side
    return safe


def text_scale(side: float, safe: float) -> float:
    """The shrink of a face's text about the token centre (at most 1) on a token whose smaller
    side is ``side`` pt with a ``safe`` pt safe area: face text is designed :data:`TEXT_INSET`
    inside the trim, and shrinks when the safe area asks for more (0.5 pt of slack keeps glyph
    outlines off the safe-area line).

    Raises:
        LayoutError: the shrink would be below 1/4: no room for text.
    """
    scale = min(1.0, (side - 2 * (safe + 0.5)) / (side * (1 - 2 * TEXT_INSET)))
    if scale < 0.25:
        raise LayoutError(f"a {format_length(safe)} safe area leaves no room for text on a {format_length(side)} token")
    return scale


def content_scale(width: float, height: float, design: float, safe: float) -> float:
    """The scale (≤ 1) of a face's content about its centre on a ``width`` × ``height`` pt token
    laid out for a ``design`` pt safe area and printed with a ``safe`` pt one: 1 when ``safe`` is
    no larger; else what brings the design's safe area (and :data:`~tokengen.geometry.textfit.SLACK`)
    inside the larger one on both axes.

    Raises:
        LayoutError: the safe area leaves no room on the token.
    """
    if safe <= design + 1e-9:
        return 1.0
    slack = textfit.SLACK
    scale = min((d - 2 * (safe + slack)) / (d - 2 * (design + slack)) for d in (width, height))
    if scale < 0.25:
        raise LayoutError(f"a {format_length(safe)} safe area leaves no room for a face designed for {format_length(design)} "
                          f"on a {format_length(min(width, height))} token")
    return scale


def design_safe(side: float, design: float | None, safe: float | None = None) -> float:
    """The safe area (pt) a face is laid out for on a token whose smaller side is ``side`` pt:
    the catalogue's ``safe_area`` (``design``), else the home one (:func:`default_safe`); an
    output asking a smaller ``safe`` one lays the face out for that (its text may come nearer
    the trim), a larger one scales the face laid out for ``design`` (:func:`content_scale`)."""
    laid_for = default_safe(side) if design is None else design
    return laid_for if safe is None else min(laid_for, safe)


def text_frame(shape: shapes.Shape | None, width: float, height: float,
               safe: float | None = None, design: float | None = None) -> tuple[textfit.SafeArea, float]:
    """(safe area, shrink) face text is set with on a ``width`` × ``height`` pt token of ``shape``
    laid out for a ``design`` pt safe area (None: the home one) and printed with a ``safe`` pt
    one (None: the design's): the area (pt, in the coordinates text is set in,
    :func:`tokengen.geometry.textfit.safe_area`: the design's) and the factor (≤ 1) the text is
    drawn at about the token centre: the design's own text shrink (:func:`text_scale`) times the
    face's :func:`content_scale`. A text set at ``s`` pt is printed at ``s × shrink`` pt
    (:func:`tokengen.faces.facedraw.printed_texts`); what :class:`SheetCanvas` draws with.

    Raises:
        LayoutError: the safe area leaves no room for text (see :func:`text_scale`).
    """
    side = min(width, height)
    laid_for = design_safe(side, design, safe)
    scale = text_scale(side, laid_for)
    whole = content_scale(width, height, laid_for, laid_for if safe is None else safe)
    return textfit.safe_area(shape, width, height, laid_for, scale), scale * whole


def scaled_note(scale: float, safe: float, design: float) -> str:
    """What an output says once when it scales the faces: ``faces scaled to 85.5 % about their
    centres to keep inside the 0.125in safe area (laid out for 0.0625in)``: both lengths in the
    unit the safe area is shown in (:func:`tokengen.units.format_like`)."""
    return (f"faces scaled to {scale * 100:.1f} % about their centres to keep inside the {format_length(safe)} safe area "
            f"(laid out for {format_like(design, safe)}; set safe_area: in the catalogue to lay them out for it)")


def _hex(colour: Colour | None) -> str:
    """A colour as a user wrote it: ``#8a1c1c``, ``[0, 0.5, 1, 0]``, or ``paper white``."""
    if colour is None:
        return "paper white"
    if colour.space == "rgb":
        return "#" + "".join(f"{round(v * 255):02x}" for v in colour.values)
    return "[" + ", ".join(f"{v:g}" for v in colour.values) + "]"


#: Most text widths a :class:`SheetCanvas` remembers (:meth:`SheetCanvas.measure`) before it
#: forgets them all: the memory of a build stays flat in its page count.
WIDTHS_KEPT = 1024


#: Most painted colours a :class:`SheetCanvas` remembers (:meth:`SheetCanvas.paint`) before it forgets them all.
PAINTED_KEPT = 4096


class SheetCanvas:
    """A ReportLab canvas that knows how to paint faces, backs and sheet furniture.

    Args:
        canvas: the target canvas (created with the bundled font as its initial font).
        size: token trim size, pt.
        bleed: art extent past the trim, pt.
        colour_model: ``"rgb"`` or ``"cmyk"``; every colour and image is converted by the art
            library's :class:`~tokengen.colour.Converter` (ICC output profile, rendering intent,
            black-only pure black text and lines, ink limit) and in CMYK ReportLab enforces the
            colour space.
        art: where art images are loaded (once each); a new :class:`ArtLibrary` by default.
            Its ``warnings`` list the art printed below 300 DPI and the art resampled down.
        safe: the safe area in pt (text keeps at least this far inside the trim); None means
            :func:`default_safe`: the design's own 1/16 of the token size, at least 1/16 in. A safe area
            larger than ``design`` (a print shop's 1/8 in) scales each face's content as one piece
            about its centre to fit (:func:`content_scale`; :attr:`content_scale`, said once in
            :attr:`notes`), so text and pictures keep their places relative to each other.
        design: the safe area (pt) the faces were laid out for (the catalogue's ``safe_area``;
            None: the home one, :func:`default_safe`): text is fitted to it.
        page: (width, height) of the canvas' pages in pt: the BBox of the page-sized forms
            (cut lines, crop marks, calibration ruler). Needed only by :meth:`lines` and
            :meth:`calibration`.
    """

    def __init__(self, canvas: Canvas, size: float, bleed: float = 0.0, colour_model: str = "rgb",
                 art: ArtLibrary | None = None, safe: float | None = None, page: tuple[float, float] | None = None,
                 height: float | None = None, shape: shapes.Shape | None = None, design: float | None = None):
        self.canvas = canvas
        self.page = page
        self.shape = shape  # tokengen.geometry.shapes.Shape: circles and hexes clip their faces to the outline
        self.size = size
        self.height = size if height is None else height  # trim height, pt (cards: not square)
        self.bleed = bleed
        side = min(size, self.height)
        self._design_given = design  # the catalogue's safe_area (None: the home one), for resized()
        self.design = design_safe(side, design, safe)  # the safe area the faces are laid out for
        self.safe = self.design if safe is None else safe  # the one this output asks
        self.text_scale = text_scale(side, self.design)
        #: The faces' content scaled as one piece about the centre (≤ 1): the design's safe area
        #: brought inside a larger one this output asks.
        self.content_scale = content_scale(size, self.height, self.design, self.safe)
        self.colour_model = colour_model
        self.regular, self.bold = fonts.register()
        self._forms: set[str] = set()
        #: token id → how its face's one-line texts were set (:func:`tokengen.faces.facedraw.lay_out`),
        #: for the small-text check of the same build (:func:`tokengen.faces.scale.small_text_warnings`)
        self.layouts: dict[str, facedraw.FaceLayout] = {}
        self._line_forms: dict[tuple, str] = {}  # (lines, stroke, colour) or ("fill", rects) → the form drawing them
        self._rulers: dict[tuple, str] = {}  # calibration strip → its form
        self._widths: dict[tuple[str, float], float] = {}  # (text, size) → width in pt, for furniture
        self._painted: dict[tuple[int, bool], tuple[Colour, Color]] = {}  # (id of a catalogue colour, area) → it, painted
        self.art = art or ArtLibrary(colour_model)
        self._art_forms: dict[object, str] = {}
        self._back_forms: dict[Back, str] = {}
        #: Warnings about what was drawn (once each, in order): text that cannot be fitted inside
        #: the safe area, art flattened onto mixed colours.
        self.warnings: dict[str, None] = {}
        #: What the output did that the user should know, not a fault (once each): the content scale.
        self.notes: dict[str, None] = {}
        if self.content_scale < 1.0:
            self.notes[scaled_note(self.content_scale, self.safe, self.design)] = None
        self._back_prefix = ""  # names of this sheet's back forms: "" for the first size, "band2-" … (see resized)

    def resized(self, size: float, height: float | None, shape: shapes.Shape | None, band: int,
                safe: float | None = None) -> SheetCanvas:
        """This sheet at another token size (``size`` × ``height`` pt, ``shape``): the band
        ``band`` (1-based, above 1) of a catalogue of several sizes (:mod:`tokengen.geometry.bands`).
        It draws on the same canvas and shares the forms, art, furniture and warnings, so every
        name stays unique in the PDF; its faces and backs are drawn at its own size (its backs
        named ``band2-back``, …). ``safe``: as the constructor takes it (None: the default for
        this size)."""
        other = SheetCanvas.__new__(SheetCanvas)
        other.__dict__.update(self.__dict__)  # the registries are shared, not copied
        other.size, other.shape = size, shape
        other.height = size if height is None else height
        side = min(size, other.height)
        other.design = design_safe(side, self._design_given, safe)
        other.safe = other.design if safe is None else safe
        other.text_scale = text_scale(side, other.design)
        other.content_scale = content_scale(size, other.height, other.design, other.safe)
        other._back_forms = {}
        other._back_prefix = f"band{band}-"
        return other

    def paint(self, colour: Colour | Color, *, area: bool = False) -> Color:
        """The ReportLab colour for ``colour`` in this canvas' colour model, converted by
        :meth:`tokengen.colour.Converter.paint` (``area``: a large fill, where pure black stays
        rich black; otherwise text and lines, where pure black is 100 % K only). A ReportLab
        colour (:data:`ALL_SEPARATION`) is used as it is."""
        if isinstance(colour, Color):
            return colour
        found = self._painted.get((id(colour), area))
        if found is not None and found[0] is colour:  # the same catalogue colour again: its ReportLab colour
            return found[1]
        values = self.art.colour.paint(colour, area=area)
        if self.colour_model == "cmyk":
            c, m, y, k = values
            painted: Color = CMYKColor(c, m, y, k)
        else:
            painted = Color(*values)
        if len(self._painted) >= PAINTED_KEPT:
            self._painted.clear()
        self._painted[id(colour), area] = (colour, painted)  # the colour kept beside it: its id stays unique
        return painted

    def safe_area(self) -> textfit.SafeArea:
        """The safe area face text is fitted into (:func:`tokengen.geometry.textfit.safe_area`): this
        sheet's shape and the safe distance the faces are laid out for, in the coordinates text is
        set in before :attr:`text_scale` (and :attr:`content_scale`) shrink it."""
        return textfit.safe_area(self.shape, self.size, self.height, self.design, self.text_scale)

    # -- forms -------------------------------------------------------------------------------
    def face_form(self, token: Token) -> str:
        """Name of the Form XObject for ``token``'s face, drawing it the first time.

        Raises:
            RenderError: a character of the token's text is not in the bundled font.
        """
        name = f"face-{token.id}"
        if name not in self._forms:
            # a catalogue with declared fields gives its template, a Meatshields token is drawn by the built-in one
            self.layouts[token.id] = self._template_form(name, template.face_of(token), template.token_values(token), f"token {token.id}")
        return name

    def back_form(self, back: Back) -> str:
        """Name of the Form XObject for ``back`` (``"back"`` for the first design, ``"back-2"``, …
        for others), drawing it the first time.

        Raises:
            RenderError: a character of the back text is not in the bundled font; the art
                cannot be read (see :meth:`ArtLibrary.load`).
        """
        name = self._back_forms.get(back)
        if name is None and back.template is not None:
            name = self._back_prefix + ("back" if not self._back_forms else f"back-{len(self._back_forms) + 1}")
            self._template_form(name, back.template, dict(back.values), "back")
            self._back_forms[back] = name
        if name is None:
            name = self._back_prefix + ("back" if not self._back_forms else f"back-{len(self._back_forms) + 1}")
            fonts.require_glyphs(back.text, self.bold, "back")
            art = self._art_form(back.art, back.background) if back.art else None
            self._begin(name)
            self._draw_back(back, art)
            self.canvas.endForm()
            self._forms.add(name)
            self._back_forms[back] = name
        return name

    def _template_form(self, name: str, template: Template, values: dict, what: str) -> facedraw.FaceLayout:
        """Draw ``template`` (a :class:`tokengen.sources.template.Template`) with ``values`` as the form
        ``name``: its text checked against its fonts, its art defined first (outside the form),
        each image resampled for the box it is drawn in and, in CMYK, flattened onto what the
        template paints beneath it (see :func:`tokengen.faces.beneath.underlay`; a warning in
        :attr:`warnings` when that is not one colour). Returns how its one-line texts were set."""
        area = self.safe_area()
        template = stacks.laid_out(self.size, self.height, template, values)  # its stacks placed, once for all below
        layout = facedraw.lay_out(self.size, self.height, template, values, area)  # once: checks, warnings and drawing
        for text, font in layout.texts:
            fonts.require_glyphs(text, font, what)
        for element, unfit in layout.unfit(template):
            self.warnings[f"{template.place(element)}: {facedraw.unfit_message(what, unfit, area)}"] = None
        for element, laid in facedraw.cut_texts(self.size, self.height, template, values):
            self.warnings[f"{template.place(element)}: {facedraw.cut_message(what, laid)}"] = None
        for element, text, arc in facedraw.long_arcs(self.size, self.height, template, values):
            self.warnings[f"{template.place(element)}: {facedraw.long_arc_message(what, text, arc)}"] = None
        face = facedraw.FaceCanvas(self.canvas, self.size, self.height, self.bleed, self.paint, self.text_scale, self.art, {},
                                   area, content_scale=self.content_scale)
        for element, path in facedraw.image_elements(template, values):
            background = None
            if self.colour_model == "cmyk":  # no transparency in print: flatten onto what lies beneath
                visible = facedraw.image_visible(face, element, self.art.size(path))
                under = beneath.underlay(template, template.elements.index(element), values,
                                         self.size, self.height, self.bleed, visible)
                background = under.colour
                if not under.uniform and self._transparent_over_mixed(face, template, element, path, values, visible):
                    self.warnings[f"{template.place(element)}: {what}: what lies under the picture is not one colour; "
                                  f"its transparent pixels print on {_hex(background)}, the colour under its centre "
                                  "(print-shop PDFs allow no transparency)"] = None
            face.art_forms[(path, element)] = self._art_form(path, background, facedraw.image_box(face, element))
        self._icon_forms(face, template, values, what)
        self._begin(name)
        kind = getattr(self.shape, "kind", "square")
        if kind in ("circle", "hex"):  # the bleed follows the outline, so it never covers a neighbour
            self.canvas.saveState()
            self.canvas.clipPath(self._outline_path(shapes.outline(self.shape, Rect(0, 0, self.size, self.height), self.bleed)),
                                 stroke=0, fill=0)
        facedraw.draw_template(face, template, values, layout)
        if kind in ("circle", "hex"):
            self.canvas.restoreState()
        figures.end_form(self.canvas, name)  # a form with gradients lists their shadings
        self._forms.add(name)
        return layout

    def _transparent_over_mixed(self, face: facedraw.FaceCanvas, template: Template, element: Element, path: Path,
                                values: dict, visible: Rect) -> bool:
        """Whether a pixel of the picture ``element`` draws from ``path`` that is not fully
        opaque lies where what the template paints beneath it is not one colour: judged by the
        box around such pixels (:meth:`ArtLibrary.transparent_part`) where the picture shows
        (``visible``, pt); a turned picture by all it shows."""
        part = self.art.transparent_part(path)
        if part is None:
            return False
        region = visible
        if not element.rotate:
            box, how = facedraw.image_box(face, element)
            drawn = fit(*self.art.size(path), box, how)
            x0, y0, x1, y1 = part
            region = beneath.visible_box(Rect(drawn.x + x0 * drawn.w, drawn.y1 - y1 * drawn.h, (x1 - x0) * drawn.w,
                                              (y1 - y0) * drawn.h), visible)
            if region.w <= 0 or region.h <= 0:
                return False
        index = template.elements.index(element)
        return not beneath.underlay(template, index, values, self.size, self.height, self.bleed, region).uniform

    def _icon_forms(self, face: facedraw.FaceCanvas, template: Template, values: dict, what: str) -> None:
        """Define the forms of the icons ``template``'s boxed texts print (into ``face.icon_forms``):
        an SVG icon's vectors; a raster icon loaded like any ``image:`` art, one at a time, under
        the run's art budget (``--max-art-pixels``) and resampled to its printed size as art is
        (issue 37: ReportLab, left to embed the file, decoded every icon whole, 1.6 GB for six
        6000 × 6000 px icons); in CMYK flattened onto what the template paints under the text box. An SVG icon svglib
        cannot draw right is drawn as a picture the same way."""
        for element, path, size in facedraw.icon_files(self.size, self.height, template, values):
            if path in face.icon_forms:
                continue
            if is_svg(path) and self.art.svg(Path(path)).drawing is not None:
                face.icon_forms[path] = self._svg_form(self.art.svg(Path(path)))
                continue
            background = None
            if self.colour_model == "cmyk":
                box = facedraw.text_box(face, element)
                under = beneath.underlay(template, template.elements.index(element), values, self.size, self.height,
                                         self.bleed, box)
                if not under.uniform and self.art.transparent_part(Path(path)) is not None:
                    self.warnings[f"{template.place(element)}: {what}: what lies under the icon {Path(path).name} is not one "
                                  f"colour; its transparent pixels print on {_hex(under.colour)}, the colour under the text "
                                  "box's centre (print-shop PDFs allow no transparency)"] = None
                background = under.colour
            width, height = self.art.size(Path(path))
            drawn = Rect(0, 0, size * width / height, size)
            face.icon_forms[path] = self._art_form(Path(path), background, (drawn, "contain"))[0]

    def _art_box(self) -> tuple[Rect, str]:
        """The box a back's art fills (pt) and how: the bleed box (cover) when the sheet has
        bleed, else the safe area (contain)."""
        s, b = self.size, self.bleed
        if b > 0:
            return Rect(-b, -b, s + 2 * b, s + 2 * b), "cover"
        return Rect(SAFE * s, SAFE * s, s * (1 - 2 * SAFE), s * (1 - 2 * SAFE)), "contain"

    def _art_form(self, path: Path, background: Colour | None,
                  placed: tuple[Rect, str] | None = None) -> tuple[str, float, float, ArtImage | SvgArt]:
        """(form name, pixel width, pixel height, image) of the art at ``path`` as displayed: a Form
        XObject drawing the image on the unit square, defined once per file (and, in CMYK, per
        background its transparency is flattened onto), so every face or back using it
        references the one embedded image. ``placed`` is the box (pt) and fit (``contain`` or
        ``cover``) it is drawn with, for resampling (default: :meth:`_art_box`). SVG art is drawn
        as vectors, once per file (width and height in pt; see :meth:`_svg_form`), or, outside
        svglib's safe set, as a picture resvg draws at the art's DPI for the placed size
        (:meth:`tokengen.faces.art.ArtLibrary.svg_picture`; width and height in pt). Must be
        called outside any other form."""
        picture = False
        if is_svg(path):
            svg = self.art.svg(path)
            if svg.drawing is not None:
                return self._svg_form(svg), svg.width, svg.height, svg
            picture = True  # outside svglib's safe set: drawn by resvg as a picture at the print's DPI
        width, height = self.art.size(path)
        box, how = placed or self._art_box()
        drawn = fit(width, height, box, how)
        image = self.art.svg_picture(path, drawn, background) if picture else self.art.load(path, drawn, background)
        key = (image.path, background if self.colour_model == "cmyk" else None)
        name = self._art_forms.get(key)
        if name is None:
            name = self._art_forms[key] = f"art-{len(self._art_forms) + 1}"
            self.canvas.beginForm(name, 0, 0, 1, 1)
            with binary_streams():  # ReportLab encodes the image here, not at save
                self.canvas.drawImage(image.reader, 0, 0, 1, 1, mask="auto")
            self.canvas.endForm()
            self.art.release(image)
        return name, width, height, image

    def _svg_form(self, svg: SvgArt) -> str:
        """Name of the Form XObject drawing ``svg``'s vectors on the unit square (clipped to it, as
        an SVG viewer clips to the picture's box), defined the first time. Must be called outside
        any other form. Raises TypeError for an SVG drawn as a picture (no drawing)."""
        drawing = svg.drawing
        if drawing is None:
            raise TypeError(f"{svg.path} is drawn as a picture, not as vectors")
        key = ("svg", svg.path)
        name = self._art_forms.get(key)
        if name is None:
            from reportlab.graphics import renderPDF

            name = self._art_forms[key] = f"art-{len(self._art_forms) + 1}"
            self.canvas.beginForm(name, 0, 0, 1, 1)
            self.canvas.scale(1 / svg.width, 1 / svg.height)
            # ReportLab's renderer sets a font before drawing (Helvetica by default, never embedded);
            # SVG text is refused, so the bundled font it names is never used to draw a glyph
            drawing.initialFontName = self.regular  # type: ignore[attr-defined]  # in Drawing's _attrMap; types-reportlab lacks it
            renderPDF.draw(drawing, self.canvas, 0, 0, showBoundary=False)
            self.canvas.endForm(Resources=_form_resources(self.canvas))
        return name

    def _draw_art(self, art: tuple[str, float, float, ArtImage | SvgArt], path: object) -> Rect:
        """Draw art inside the current form: fitted inside the safe area (contain) and clipped to
        the frame's rounded outline, or covering the bleed box (cover, clipped to it) when the
        sheet has bleed. The DPI at that size is checked. Returns where it went (pt)."""
        c, s, b = self.canvas, self.size, self.bleed
        name, width, height, image = art
        box, how = self._art_box()
        drawn = fit(width, height, box, how)
        self.art.check_resolution(image, drawn)
        c.saveState()
        clip = c.beginPath()
        if b > 0:
            clip.rect(box.x, box.y, box.w, box.h)
        else:  # inside the safe area, rounded like the frame drawn over its edge
            inset = FRAME_INSET * s
            clip.roundRect(inset, inset, s - 2 * inset, s - 2 * inset, 0.08 * s)
        c.clipPath(clip, stroke=0, fill=0)
        c.translate(drawn.x, drawn.y)
        c.scale(drawn.w, drawn.h)
        c.doForm(name)
        c.restoreState()
        return drawn

    def _plate(self, x: float, y: float, w: float, h: float, colour: Colour) -> None:
        """An opaque rounded plate (``colour``) behind text printed over art, so text never sits on art."""
        self.canvas.setFillColor(self.paint(colour, area=True))
        self.canvas.roundRect(x, y, w, h, 0.04 * self.size, stroke=0, fill=1)

    def _begin(self, name: str) -> None:
        b, s = self.bleed, self.size
        self.canvas.beginForm(name, -b, -b, s + b, self.height + b)  # type: ignore[arg-type]  # types-reportlab says int; any number (pt) works

    def _shrink_text(self) -> None:
        """Scale what follows by :attr:`text_scale` about the token centre (no-op at 1)."""
        if self.text_scale < 1.0:
            half = self.size / 2
            self.canvas.translate(half, half)
            self.canvas.scale(self.text_scale, self.text_scale)
            self.canvas.translate(-half, -half)

    def _scale_content(self) -> None:
        """Scale what follows by :attr:`content_scale` about the token centre (no-op at 1)."""
        if self.content_scale < 1.0:
            cx, cy = self.size / 2, self.height / 2
            self.canvas.translate(cx, cy)
            self.canvas.scale(self.content_scale, self.content_scale)
            self.canvas.translate(-cx, -cy)

    def _draw_back(self, back: Back, art: tuple[str, float, float, ArtImage | SvgArt] | None = None) -> None:
        c, s, b = self.canvas, self.size, self.bleed
        c.setFillColor(self.paint(back.background, area=True))
        c.rect(-b, -b, s + 2 * b, s + 2 * b, stroke=0, fill=1)
        c.setStrokeColor(self.paint(back.ink))
        c.setLineWidth(FRAME_WIDTH * s)
        inset = FRAME_INSET * s
        if art and b > 0:  # art covering the bleed is the background: it stays
            self._draw_art(art, back.art)
        scaled = self.content_scale < 1.0
        if scaled:  # the rest is the back's content: one piece
            c.saveState()
            self._scale_content()
        if art and b <= 0:
            self._draw_art(art, back.art)
        c.roundRect(inset, inset, s - 2 * inset, s - 2 * inset, 0.08 * s, stroke=1, fill=0)
        c.saveState()
        self._shrink_text()
        if not art:
            emblem.back_emblem(c, s, self.paint(back.ink), self.paint(back.background, area=True), bool(back.text))
        if back.text:
            if art:
                box = emblem.back_text_box(back.text, self.bold, s)
                self._plate(box.x, box.y, box.w, box.h, back.background)
            c.setFillColor(self.paint(back.ink))
            c.setFont(self.bold, fonts.fit_size(back.text, self.bold, s * (1 - 2 * TEXT_INSET), 0.13 * s))
            c.drawCentredString(s / 2, 0.2 * s, back.text)
        c.restoreState()
        if scaled:
            c.restoreState()

    # -- pages -------------------------------------------------------------------------------
    def _page_form(self, name: str) -> None:
        """Begin a form as large as the page, content in page coordinates (placed without a
        transform): sheet furniture, never taken for a token (see :func:`preflight.pieces`)."""
        if self.page is None:
            raise ValueError("SheetCanvas needs page=(width, height) to draw sheet furniture")
        self.canvas.beginForm(name, 0, 0, *self.page)

    def place(self, forms: Sequence[str], page: PageLayout) -> None:
        """Place ``forms[cell.index]`` at every cell of ``page`` (the form origin on the trim corner).

        The page gets one ``q … Q`` block in which each cell is ``1 0 0 1 dx dy cm`` and the
        form's ``Do`` (ReportLab's ``addLiteral`` and ``doForm``): ``dx, dy`` move from the
        previous cell's origin (``Do`` leaves the CTM as it found it), so a row of tokens repeats
        the same lines and the compressed page stays small. Each move is taken from the position
        already written, so rounding never accumulates: each cell is off by at most one rounding of
        ReportLab's 7-significant-digit numbers (< 1e-4 pt on any page). (A saveState/translate/
        restoreState per cell costs several times as much at 100,000 tokens.)
        """
        c = self.canvas
        x = y = 0.0
        c.addLiteral("q")
        for cell in page.cells:
            if cell.rotate:  # turned in a hand-laid slot: the form turned about its corner, then moved onto the slot
                c.addLiteral(f"q {_turn(cell.rotate, cell.trim.x - x, cell.trim.y - y, cell.trim.w, cell.trim.h)} cm")
                c.doForm(forms[cell.index])
                c.addLiteral("Q")
                continue
            dx, dy = fp_str(cell.trim.x - x), fp_str(cell.trim.y - y)
            x, y = x + float(dx), y + float(dy)
            c.addLiteral(f"1 0 0 1 {dx} {dy} cm")
            c.doForm(forms[cell.index])
        c.addLiteral("Q")

    def lines(self, lines: Sequence[Line], stroke: float, colour: Colour | Color) -> None:
        """Stroke ``lines`` with a ``stroke`` pt line in ``colour`` (cut lines, crop marks).

        The lines are drawn once as a page-sized Form XObject and every page with the same lines
        (every full page) places that form; in a separation (:data:`ALL_SEPARATION`) they are
        drawn on each page, whose resources then name the separation's colour space."""
        if not lines:
            return
        c = self.canvas
        if isinstance(colour, CMYKColorSep):  # on the page itself: ReportLab gives a form no /ColorSpace resource
            c.saveState()
            c.setLineWidth(stroke)
            c.setStrokeColor(colour)
            p = c.beginPath()
            for line in lines:
                p.moveTo(line.x0, line.y0)
                p.lineTo(line.x1, line.y1)
            c.drawPath(p, stroke=1, fill=0)
            c.restoreState()
            return
        def draw() -> None:
            c.setLineWidth(stroke)
            c.setStrokeColor(self.paint(colour))
            p = c.beginPath()
            for line in lines:
                p.moveTo(line.x0, line.y0)
                p.lineTo(line.x1, line.y1)
            c.drawPath(p, stroke=1, fill=0)

        self._page_form_once(self._line_forms, (tuple(lines), stroke, colour), "lines", draw)

    def _page_form_once(self, forms: dict[tuple, str], key: tuple, prefix: str, draw: Callable[[], None]) -> None:
        """Place the page-sized form ``forms[key]`` on this page, drawing it first (named
        ``<prefix>-<n>``, its content by ``draw()``) when no page drew it before: sheet furniture
        drawn once and placed on every page that has the same."""
        c = self.canvas
        name = forms.get(key)
        if name is None:
            name = forms[key] = f"{prefix}-{len(forms)}"
            self._page_form(name)
            draw()
            c.endForm()
        c.doForm(name)

    def _outline_path(self, outline: shapes.Outline) -> Any:
        """A ReportLab path of a :class:`tokengen.geometry.shapes.Outline` (pt)."""
        p = self.canvas.beginPath()
        for op in outline.ops:
            if op[0] == "M":
                p.moveTo(*op[1:])
            elif op[0] == "L":
                p.lineTo(*op[1:])
            elif op[0] == "C":
                p.curveTo(*op[1:])
            else:
                p.close()
        return p

    def outlines(self, outlines: Sequence[shapes.Outline], stroke: float, colour: Colour | Color, fill: bool = False) -> None:
        """Stroke each cut outline (circles, hexes, rounded corners) with a ``stroke`` pt line
        (``fill``: fill it instead, as a registration square)."""
        if not outlines:
            return
        c = self.canvas
        c.saveState()
        c.setLineWidth(stroke)
        c.setStrokeColor(self.paint(colour))
        c.setFillColor(self.paint(colour))
        for outline in outlines:
            c.drawPath(self._outline_path(outline), stroke=0 if fill else 1, fill=1 if fill else 0)
        c.restoreState()

    def die_line(self, outlines: Sequence[shapes.Outline], name: str, layer: str | None = None) -> None:
        """Stroke every cut outline in the spot colour ``name`` (:func:`die_colour`) with a
        :data:`DIE_STROKE` pt line, overprinting (an ExtGState with ``/OP true /op true``), on
        the page itself so its resources name the separation. With ``layer`` the strokes sit in
        an optional-content block ``/OC /<layer> BDC … EMC``; the page's ``/Properties`` entry and
        the document's ``/OCProperties`` are added afterwards
        (:func:`tokengen.outputs.dieline.add_layer`): ReportLab has no optional content."""
        if not outlines:
            return
        c = self.canvas
        if layer:
            c.addLiteral(f"/OC /{layer} BDC")
        c.saveState()
        c.setStrokeOverprint(True)
        c.setFillOverprint(True)
        c.setLineWidth(DIE_STROKE)
        c.setStrokeColor(die_colour(name))
        for outline in outlines:
            c.drawPath(self._outline_path(outline), stroke=1, fill=0)
        c.restoreState()
        if layer:
            c.addLiteral("EMC")

    def dashed(self, line: Line, stroke: float, colour: Colour, dash: tuple[float, float]) -> None:
        """Stroke ``line`` dashed (``dash`` = pt on, pt off): the fold line of a fold-over sheet."""
        c = self.canvas
        c.saveState()
        c.setLineWidth(stroke)
        c.setStrokeColor(self.paint(colour))
        c.setDash(*dash)
        c.line(line.x0, line.y0, line.x1, line.y1)
        c.restoreState()

    def fill_rects(self, rects: Sequence[tuple[Rect, Colour]]) -> None:
        """Fill each (rectangle, colour) pair, in pt: the home bleed past a block's outer cut.

        As with :meth:`lines`, the rectangles are drawn once as a page-sized Form XObject, which
        every page with the same rectangles and colours places."""
        if not rects:
            return
        c = self.canvas

        def draw() -> None:
            for rect, colour in rects:
                c.setFillColor(self.paint(colour))
                c.rect(rect.x, rect.y, rect.w, rect.h, stroke=0, fill=1)

        self._page_form_once(self._line_forms, ("fill", tuple(rects)), "fill", draw)

    def zone_bands(self, bands: Sequence[Any]) -> None:
        """Each zone of a hand-laid sheet (:class:`tokengen.geometry.handsheet.ZoneBand`): its
        band filled with its colour and its label in bold, black or white (whichever reads
        better on the band), left-aligned 3 pt in, as large as fits the band (at most
        :data:`ZONE_LABEL_SIZE` pt). Drawn once as a page-sized form, as :meth:`fill_rects`."""
        if not bands:
            return
        c = self.canvas

        def draw() -> None:
            for band in bands:
                rect = band.rect
                c.setFillColor(self.paint(band.colour))
                c.rect(rect.x, rect.y, rect.w, rect.h, stroke=0, fill=1)
                r, g, b = band.colour.to_rgb()
                light = 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.5
                c.setFillColor(self.paint(Colour("rgb", (0.0, 0.0, 0.0) if light else (1.0, 1.0, 1.0))))
                size = fonts.fit_size(band.label, self.bold, rect.w - 6, min(ZONE_LABEL_SIZE, rect.h * 0.7))
                c.setFont(self.bold, size)
                c.drawString(rect.x + 3, rect.y + (rect.h - size * 0.7) / 2, band.label)

        self._page_form_once(self._line_forms, ("zones", tuple(bands)), "zones", draw)

    def calibration(self, strip: Rect, captions: Sequence[str]) -> furniture.Furniture:
        """The calibration strip laid out by :func:`tokengen.geometry.furniture.calibration`: a bar exactly
        1 in (72 pt = 25.4 mm) long with 1/4 in ticks above and mm ticks below, labelled 0 and
        1 in, 0, 10 and 20 mm, and the instruction to print at actual size; then the page's
        caption (``captions``: fullest wording first). It never scales with the tokens. The ruler
        and its note are drawn once, as a page-sized Form XObject, and placed on every page.
        A side strip (taller than wide, :func:`tokengen.geometry.furniture.turned`) is laid out
        along its length and drawn turned a quarter turn anticlockwise, reading upwards.
        Returns the layout used, in the strip's own upright coordinates (its ``warnings`` name
        anything left out for lack of room; :func:`tokengen.geometry.furniture.on_page` maps it)."""
        c = self.canvas
        plan = furniture.calibration(furniture.upright(strip), captions, self.measure)
        side = furniture.turned(strip)  # up the left margin: laid out lengthwise, drawn a quarter turn round
        def draw() -> None:
            # BBox = the whole page, content in page coordinates, placed without a transform: a
            # form as large as the page is sheet furniture, not a token (see preflight.pieces)
            if side:
                c.saveState()
                c.translate(strip.x1, strip.y)
                c.rotate(90)
            if plan.ruler:
                self._draw_ruler(*plan.ruler)
            for text in plan.labels + ((plan.note,) if plan.note else ()):
                self._text(text)
            if side:
                c.restoreState()

        self._page_form_once(self._rulers, ("calibration", strip), "calibration", draw)
        if plan.caption:
            if side:
                c.saveState()
                c.translate(strip.x1, strip.y)
                c.rotate(90)
            self._text(plan.caption)
            if side:
                c.restoreState()
        return plan

    def measure(self, text: str, size: float) -> float:
        """Width (pt) of ``text`` in the regular font at ``size`` pt (remembered: every page's
        furniture measures the same ruler labels and notes; at most :data:`WIDTHS_KEPT` of them,
        as each page's caption names its own page number)."""
        width = self._widths.get((text, size))
        if width is None:
            if len(self._widths) >= WIDTHS_KEPT:
                self._widths.clear()
            width = self._widths[text, size] = self.canvas.stringWidth(text, self.regular, size)
        return width

    def _text(self, text: furniture.Text) -> None:
        c = self.canvas
        c.saveState()
        c.setFillColor(self.paint(BLACK))
        c.setFont(self.regular, text.size)
        c.drawString(text.x, text.y, text.text)
        c.restoreState()

    def _draw_ruler(self, x: float, y: float) -> None:
        """The ruler's bar and ticks with the bar's lower-left corner at (x, y) pt."""
        c = self.canvas
        ink = self.paint(BLACK)
        c.setStrokeColor(ink)
        c.setFillColor(ink)
        c.setLineWidth(0.4)
        c.rect(x, y, 72, 5, stroke=1, fill=0)
        p = c.beginPath()
        for i in range(5):  # quarter inches, above the bar
            p.moveTo(x + 18 * i, y + 5)
            p.lineTo(x + 18 * i, y + (8 if i in (0, 4) else 7))
        for mm in range(26):  # millimetres, below the bar
            xm = x + mm * 72 / 25.4
            p.moveTo(xm, y)
            p.lineTo(xm, y - (3.5 if mm % 5 == 0 else 2))
        p.moveTo(x + 72, y)
        p.lineTo(x + 72, y - 3.5)
        c.setLineWidth(0.25)
        c.drawPath(p, stroke=1, fill=0)


def _turn(rotate: int, x: float, y: float, w: float, h: float) -> str:
    """The ``cm`` operands that draw a form (origin at its lower-left corner) turned ``rotate``
    degrees anticlockwise into the box at (x, y) of the turned size ``w`` × ``h`` pt."""
    a, b, c, d, e, f = {90: (0, 1, -1, 0, x + w, y), 180: (-1, 0, 0, -1, x + w, y + h), 270: (0, -1, 1, 0, x, y + h)}[rotate]
    return fp_str(a, b, c, d, e, f)
