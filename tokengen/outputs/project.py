"""One print-and-play PDF for a whole game (``tokengen build project.yaml``): a contents page,
then each part's sheets in order, each part built as ``tokengen build`` builds its catalogue.

The parts are built one at a time into a temporary folder beside the output, then joined with
pikepdf (each part's pages copied with their resources); the contents page names each part, its
tokens and the page it starts on. The output is written atomically: all parts or nothing.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..faces.render import SheetCanvas, open_canvas
from ..io import guard
from ..io.atomic import atomic_files
from ..model import Catalogue
from ..sources.project import Project
from ..units import counted
from .build import build_pdf
from .options import BuildOptions
from .result import BuildResult

#: Size (pt) of the contents page's title and of its lines.
TITLE_SIZE, LINE_SIZE = 18.0, 11.0


@dataclass(frozen=True)
class ProjectResult:
    """What a project build wrote: the file, its pages, and each part's build with the page it
    starts on (1-based, the contents page being page 1)."""

    path: Path
    pages: int
    parts: tuple[tuple[BuildResult, int], ...]
    warnings: tuple[str, ...]


def build_project(project: Project, load: Callable[[Path], Catalogue], options_for: Callable[[Catalogue], BuildOptions],
                  out: str | Path) -> ProjectResult:
    """Build every part of ``project`` (``load`` reads a part, ``options_for`` gives its build
    options) and join them after a contents page into ``out``.

    Raises:
        CatalogueError, LayoutError, RenderError: as :func:`tokengen.outputs.build.build_pdf`, for the first part that fails.
        ExportError: the output cannot be written (nothing is left behind).
    """
    import pikepdf

    out = Path(out)
    catalogues = [load(part) for part in project.parts]  # every part read (and refused) before anything is built
    inputs = tuple(path for c in catalogues for path in c.files_read()) + (project.path,)
    guard.check_outputs([out], inputs)
    with tempfile.TemporaryDirectory(prefix=".tokengen-project-", dir=out.parent if str(out.parent) else ".") as work:
        built = [build_pdf(cat, options_for(cat), Path(work) / f"part-{n}.pdf") for n, cat in enumerate(catalogues, 1)]
        page_counts = [len(pikepdf.open(result.path).pages) for result in built]
        starts, page = [], 2
        for count in page_counts:
            starts.append(page)
            page += count
        contents = Path(work) / "contents.pdf"
        _contents(contents, project, catalogues, built, starts, options_for(catalogues[0]).sheet.page)
        with atomic_files([out], inputs=inputs) as temps, pikepdf.open(contents) as joined:
            for result in built:
                with pikepdf.open(result.path) as part:
                    joined.pages.extend(part.pages)
            joined.docinfo["/Title"] = project.title
            joined.save(temps[0], deterministic_id=True, compress_streams=True)
            pages = len(joined.pages)
    warnings = tuple(dict.fromkeys(w for result in built for w in result.warnings))
    return ProjectResult(out, pages, tuple(zip(built, starts, strict=True)), warnings)


def _contents(path: Path, project: Project, catalogues: list[Catalogue], built: list[BuildResult], starts: list[int],
              page: tuple[float, float]) -> None:
    """The contents page: the project's title, then a line per part (its title, its tokens, its first page)."""
    canvas = open_canvas(str(path), page, title=project.title, author=project.author or "tokengen",
                         subject=f"{counted(len(catalogues), 'part')}", keywords="")
    sheet = SheetCanvas(canvas, 72.0, page=page)
    canvas.setFont(sheet.regular, TITLE_SIZE)
    y = page[1] - 72
    canvas.drawString(72, y, project.title)
    canvas.setFont(sheet.regular, LINE_SIZE)
    y -= 2 * TITLE_SIZE
    for catalogue, result, start in zip(catalogues, built, starts, strict=True):
        canvas.drawString(72, y, f"{catalogue.title} · {counted(result.tokens, 'token')}")
        canvas.drawRightString(page[0] - 72, y, f"page {start}")
        y -= LINE_SIZE * 1.6
    canvas.showPage()
    canvas.save()
