"""Building sheets: catalogue + options → imposed, drawn, atomically written PDF."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from . import __version__, fonts
from .atomic import atomic_path
from .errors import LayoutError
from .imposition import SheetSpec, iter_pages, page_count
from .model import Catalogue
from .render import CROP_STROKE, CUT_COLOUR, CUT_STROKE, REGISTRATION, SheetCanvas
from .units import format_length

#: Default limits per run (issue: hostile input). Both can be raised on the command line.
MAX_TOKENS = 200_000
MAX_PAGES = 5_000


@dataclass(frozen=True)
class BuildOptions:
    """Everything ``tokengen build`` can be asked, lengths in pt.

    Attributes:
        sheet: page, token size, margin, gutter, bleed, marks (see :class:`SheetSpec`).
        copies: every token this many times.
        colour_model: ``"rgb"`` or ``"cmyk"``.
        max_tokens, max_pages: refuse runs larger than these.
    """

    sheet: SheetSpec
    copies: int = 1
    colour_model: str = "rgb"
    max_tokens: int = MAX_TOKENS
    max_pages: int = MAX_PAGES
    subject: str = field(default="")


@dataclass(frozen=True)
class BuildResult:
    """What a build wrote: the file, its page count and the number of tokens placed."""

    path: Path
    pages: int
    tokens: int


def build_pdf(catalogue: Catalogue, options: BuildOptions, out: str | Path) -> BuildResult:
    """Impose every token of ``catalogue`` (× ``options.copies``) and write the sheets to ``out``.

    The PDF is deterministic (ReportLab invariant mode: same input, same bytes), embeds subsets
    of the bundled fonts only, asks viewers to print at actual size
    (``/ViewerPreferences /PrintScaling /None``) and carries Title, Author and Subject.

    Raises:
        LayoutError: the tokens do not fit the page, or the run exceeds the limits.
        RenderError: a glyph is missing from the font.
        ExportError: the output cannot be written (nothing is left behind).
    """
    out = Path(out)
    total = catalogue.count * options.copies  # counted before any list is made: 10,000 × 10,000 is not built
    if total > options.max_tokens:
        raise LayoutError(f"{catalogue.path}: {total} tokens requested, more than the limit of {options.max_tokens} (raise it with --max-tokens)")
    spec = options.sheet
    try:
        pages = page_count(total, spec)
    except LayoutError as exc:
        raise LayoutError(f"{catalogue.path}: {exc}") from None
    if pages > options.max_pages:
        raise LayoutError(f"{catalogue.path}: {total} tokens need {pages} pages, more than the limit of {options.max_pages} (raise it with --max-pages)")
    tokens = [t for t in catalogue.expanded() for _ in range(options.copies)]
    regular, _ = fonts.register()
    art = {path for t in catalogue.tokens for path in (t.style.art, t.back.art) if path is not None}
    with atomic_path(out, inputs=(catalogue.path, *sorted(art))) as temp:
        canvas = Canvas(
            str(temp), pagesize=spec.page, invariant=1, pageCompression=1,
            initialFontName=regular, initialFontSize=10,
            enforceColorSpace="cmyk" if options.colour_model == "cmyk" else None,
        )
        canvas.setTitle(catalogue.title)
        canvas.setAuthor(catalogue.author or "tokengen")
        canvas.setSubject(options.subject or f"{len(tokens)} tokens, {format_length(spec.size)} square, {pages} page(s)")
        canvas.setCreator(f"tokengen {__version__}")
        canvas.setViewerPreference("PrintScaling", "None")
        sheet = SheetCanvas(canvas, spec.size, spec.bleed, options.colour_model)
        forms = {t.id: sheet.face_form(t) for t in catalogue.tokens}
        placed = [forms[t.id] for t in tokens]
        for page in iter_pages(len(tokens), spec):
            sheet.place(placed, page)
            sheet.lines(page.cut_lines, CUT_STROKE, CUT_COLOUR)
            sheet.lines(page.crop_marks, CROP_STROKE, REGISTRATION if options.colour_model == "cmyk" else CUT_COLOUR)
            if page.calibration:
                caption = f"{catalogue.title} · page {page.number + 1} of {pages} · {len(page.cells)} tokens, {format_length(spec.size)} square · tokengen {__version__}"
                sheet.calibration(page.calibration, caption)
            canvas.showPage()
        canvas.save()
    return BuildResult(out, pages, len(tokens))
