"""The options of a build: what ``tokengen build`` (and export, batch, the web page) can ask for.

A plain value object, one floor below :mod:`tokengen.outputs.build` and :mod:`tokengen.outputs.backs`, which
both read it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..colour import ColourOptions
from ..faces.art import MAX_DPI, MAX_TOTAL_PIXELS
from ..geometry.imposition import SheetSpec
from ..limits import MAX_PAGES, MAX_SVG_ELEMENTS, MAX_TOKENS


@dataclass(frozen=True)
class BuildOptions:
    """Everything ``tokengen build`` can be asked, lengths in pt.

    Attributes:
        sheet: page, token size, margin, gutter, bleed, marks (see :class:`SheetSpec`).
        copies: this many whole sets of the catalogue, one after another.
        colour_model: ``"rgb"`` or ``"cmyk"``.
        max_tokens, max_pages: refuse runs larger than these.
        safe: safe area in pt that face text keeps inside the trim (None: 1/16 of the token size, at least 1/16 in).
        keywords: extra PDF Keywords (batch records its job fingerprint there).
        boxes: give every page a TrimBox and a BleedBox. On a sheet of many tokens the TrimBox
            is the block of token trims (the union of every cut edge on the page, gutters
            included) and the BleedBox is that block grown by the bleed: the part a shop must
            print edge to edge. Crop marks lie outside the BleedBox.
        backs: ``None`` (faces only), ``"duplex"`` (a back sheet after each face sheet) or
            ``"separate"`` (the back sheets in a second file, see :func:`tokengen.outputs.backs.backs_path`).
        flip: ``"long"`` or ``"short"``: the edge the sheet turns over in duplex printing.
        back_offset: (dx, dy) pt added to every back sheet, as seen on the back side.
        printer_scale: (sx, sy) factors applied to every page about its centre, or None.
        rules: append the rules sheet (:mod:`tokengen.games.meatshields.rulesheet`).
        colour: output profile, rendering intent, conversion and ink limit (see
            :class:`tokengen.colour.ColourOptions`).
        max_dpi: art above this resolution at its printed size is resampled to it (None:
            ``--keep-resolution``, every pixel kept).
        max_art_pixels: refuse a build whose art holds more pixels than this after resampling.
        max_svg_elements: refuse SVG art with more elements than this (``<use>`` copies counted).
        fill: repeat whole sets (at least ``copies``) until no further set fits on the pages
            needed (see :func:`tokengen.geometry.pager.plan`).
        registration: draw the cut SVG's registration marks on every face sheet.
        fold: ``"long"`` or ``"short"``: fold-over sheets (:mod:`tokengen.geometry.foldover`), each back on
            the other half of the face's sheet, mirrored across a dashed fold line.
        die_line: the name of a spot colour (``CutContour``): every token's cut outline is
            stroked in it on every face sheet, after the art (:mod:`tokengen.outputs.dieline`).
        die_layer: put the die line in the optional-content layer ``Cut`` as well (the layer
            dictionaries are added by :func:`tokengen.outputs.dieline.add_layer` afterwards).
    """

    sheet: SheetSpec
    copies: int = 1
    colour_model: str = "rgb"
    max_tokens: int = MAX_TOKENS
    max_pages: int = MAX_PAGES
    subject: str = field(default="")
    boxes: bool = False
    safe: float | None = None
    keywords: str = ""
    backs: str | None = None
    flip: str = "long"
    back_offset: tuple[float, float] = (0.0, 0.0)
    printer_scale: tuple[float, float] | None = None
    rules: bool = False
    colour: ColourOptions = field(default_factory=ColourOptions)
    max_dpi: float | None = MAX_DPI
    max_art_pixels: int = MAX_TOTAL_PIXELS
    max_svg_elements: int = MAX_SVG_ELEMENTS
    fill: bool = False
    registration: bool = False  # print-and-cut registration marks at the sheet corners (tokengen.outputs.cutsvg)
    fold: str | None = None  # "long" or "short": fold-over sheets, backs beside faces (tokengen.geometry.foldover)
    die_line: str | None = None  # a spot colour name (CutContour): every cut outline stroked in it (tokengen.outputs.dieline)
    die_layer: bool = False  # the die line also in an optional-content layer "Cut" (not in PDF/X-1a)
    tile: bool = False  # a board larger than the page is tiled over pages (tokengen.outputs.tiles: build's default); False refuses it
    overlap: float = 6 * 72 / 25.4  # pt shared by neighbouring tiles (tile: {overlap: 6mm})
