"""What a build wrote (:class:`BuildResult`), and the parts every way of building shares: the
pictures a catalogue draws and the art library that draws them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..colour import Converter
from ..faces.art import ArtLibrary
from ..faces.render import SheetCanvas, open_canvas
from ..geometry.imposition import SheetSpec
from ..model import Catalogue
from .options import BuildOptions


@dataclass(frozen=True)
class BuildResult:
    """What a build wrote: the file, its page count and the number of tokens placed; the back
    sheets (and their file when separate); warnings such as low-resolution art; ``sets``: how
    many copies of the catalogue were placed; ``rules_pages``: pages of the rules sheet."""

    path: Path
    pages: int
    tokens: int
    back_pages: int = 0
    backs_path: Path | None = None
    warnings: tuple[str, ...] = ()
    sets: int = 1
    rules_pages: int = 0
    notes: tuple[str, ...] = ()  # what the build did that the user should know: faces scaled for a larger safe area


def pictures_of(catalogue: Catalogue) -> list[Path]:
    """The pictures the tokens draw: art of faces and backs and image fields, sorted (as
    :meth:`~tokengen.model.Catalogue.files_read` lists them, without spreadsheets and fonts)."""
    return catalogue.pictures()


def art_library(options: BuildOptions) -> ArtLibrary:
    """The art library (and its colour converter) for a build with ``options``.

    Raises:
        RenderError: the output profile named by ``options.colour.icc`` cannot be used.
    """
    return ArtLibrary(Converter(options.colour_model, options.colour), max_dpi=options.max_dpi,
                      max_total_pixels=options.max_art_pixels, max_svg_elements=options.max_svg_elements)


def open_sheet_canvas(catalogue: Catalogue, options: BuildOptions, spec: SheetSpec, target: Path, subject: str,
                      title: str | None = None) -> SheetCanvas:
    """A canvas writing ``target`` on ``spec.page`` with the catalogue's art reserved, and the
    sheet that draws the catalogue's faces at ``spec``'s trim (no bleed): for the outputs that lay
    out their own pages (boards in tiles, standees, tuck boxes). ``title`` defaults to the
    catalogue's; ``options.subject`` wins over ``subject``.

    Raises:
        RenderError: the output profile named by ``options.colour.icc`` cannot be used.
    """
    library = art_library(options)
    library.reserve(pictures_of(catalogue))
    canvas = open_canvas(target, spec.page, title=title or catalogue.title, author=catalogue.author or "tokengen",
                         subject=options.subject or subject, keywords=options.keywords, colour_model=options.colour_model)
    return SheetCanvas(canvas, spec.size, 0.0, options.colour_model, safe=options.safe, art=library, page=spec.page,
                       design=catalogue.safe_area, height=spec.height, shape=spec.shape)
