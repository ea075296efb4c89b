"""Shared parameter types and option groups of the command line: lengths, catalogues, the sheet,
preview and backs options, and the JSON echo."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..errors import UsageError
from ..limits import PREFLIGHT_LIMITS
from ..units import parse_length, parse_page, parse_size
from .completion import complete_page
from .habits import data, say

if TYPE_CHECKING:
    from ..geometry.imposition import SheetSpec


DEFAULT_CATALOGUE = "token_defs.yaml"
#: Longest ``--adventurer``/``--monster``/``--deployed`` value (a full Adventurer is about 40).
MAX_SPEC = 200


class LengthType(click.ParamType):
    """A click parameter: a length with a unit (``0.25in``, ``3mm``) → pt."""

    name = "LENGTH"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        if isinstance(value, float):
            return value
        try:
            return parse_length(value)
        except ValueError as exc:
            self.fail(str(exc), param, ctx)


LENGTH = LengthType()


class SizeType(click.ParamType):
    """A click parameter: a token size, one length (``0.75in`` → 54.0, the width) or
    ``WIDTHxHEIGHT`` (``63mmx88mm``, ``63x88mm``, ``63 x 88 mm`` → (width, height)), pt, read by
    :func:`tokengen.units.parse_size`; :func:`tokengen.geometry.sizing.token_size` settles it."""

    name = "SIZE"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float | tuple[float, float]:
        if isinstance(value, (float, tuple)):
            return value
        try:
            width, height = parse_size(value, allow_zero=True)  # zero: token_size says it as for the catalogue
        except ValueError as exc:
            self.fail(str(exc), param, ctx)
        return width if height is None else (width, height)


SIZE = SizeType()


class CatalogueType(click.ParamType):
    """A click parameter: a catalogue file, or the name of a bundled one (``meatshields``) → Path.
    A missing file is reported when it is loaded, naming ``tokengen init`` and the bundled names."""

    name = "CATALOGUE"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Path:
        from ..sources.bundled import resolve

        return resolve(value)


CATALOGUE = CatalogueType()


def _sheet_options(f: Any) -> Any:
    """The page and imposition options shared by every command that lays out sheets."""
    options = [
        click.option("--page", default="letter", show_default=True, metavar="NAME|WxH", shell_complete=complete_page,
                     help="letter, a4, legal, a3, tabloid, a ReportLab name (a5, b5, …), or WIDTHxHEIGHT such as 210mmx297mm."),
        click.option("--landscape", is_flag=True, help="Turn the page sideways."),
        click.option("--margin", type=LENGTH, default="0.25in", show_default=True, help="Border kept clear on every side."),
        click.option("--gutter", type=LENGTH, default="0", show_default=True, help="Space between tokens (0: shared cut edges)."),
        click.option("--columns", type=click.IntRange(0, 1000), default=None,
                     help="At most N columns; 0: as many as fit (default: the catalogue's columns, else as many as fit)."),
        click.option("--cut-lines/--no-cut-lines", default=True, show_default=True, help="Full-length cut lines on the token edges."),
        click.option("--crop-marks", is_flag=True, help="Short crop marks outside the grid."),
        click.option("--fill", is_flag=True, help="Repeat whole sets until no further set fits on the last page (says how many)."),
        click.option("--home-bleed", type=LENGTH, default="0.0625in", show_default=True,
                     help="On shared-edge sheets, run the outer tokens' background this far past the outer cut (0: off)."),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def sheet_spec(page: str, landscape: bool, margin: float, gutter: float, columns: int | None,
               cut_lines: bool, crop_marks: bool, size: float, bleed: float = 0.0, *, group: int | None = None,
               home_bleed: float = 0.0, furniture: str = "full") -> SheetSpec:
    """Turn the shared CLI options into a :class:`SheetSpec` (raises click's BadParameter):
    ``--page`` read here, the rest as :func:`tokengen.geometry.sizing.sheet_spec` takes them
    (``size``: the box width :func:`~tokengen.geometry.sizing.token_size` settled).
    ``columns``: None (use ``group``, the catalogue's columns), 0 (as many as fit) or N;
    ``furniture``: where the calibration strip may go (``"full"``: up the left margin when the
    foot would cost a sheet)."""
    try:
        page_size = parse_page(page, landscape=landscape)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--page'") from None
    from ..geometry import sizing

    return sizing.sheet_spec(page_size, size, margin=margin, gutter=gutter, bleed=bleed, columns=columns, group=group,
                             cut_lines=cut_lines, crop_marks=crop_marks, home_bleed=home_bleed, furniture=furniture)


def preflight_limits(f: Any) -> Any:
    """Add preflight's work budget, ``--max-file-mb`` … ``--max-chars``, to a command (``tokengen
    preflight`` and ``tokengen preview``); the command receives them as one ``limits``
    (:class:`tokengen.preflight.pdfwalk.Limits`). Defaults: :data:`tokengen.limits.PREFLIGHT_LIMITS`."""
    d = PREFLIGHT_LIMITS

    @functools.wraps(f)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from ..preflight.pdfwalk import Limits

        limits = Limits(**{key: kwargs.pop(f"max_{key}") for key in d})
        return f(*args, limits=limits, **kwargs)

    options = [
        click.option("--max-file-mb", type=click.IntRange(1), default=d["file_mb"], show_default=True, help="Refuse a larger file, MiB."),
        click.option("--max-pages", type=click.IntRange(1), default=d["pages"], show_default=True, help="Refuse a PDF with more pages."),
        click.option("--max-placements", type=click.IntRange(1), default=d["placements"], show_default=True,
                     help="Most Form XObject and image placements walked (nested ones included)."),
        click.option("--max-operators", type=click.IntRange(1), default=d["operators"], show_default=True,
                     help="Most content-stream operators read in the file (each stream once); twice as many operands."),
        click.option("--max-stream-mb", type=click.IntRange(1), default=d["stream_mb"], show_default=True,
                     help="Largest decoded size of one stream, MiB."),
        click.option("--max-decoded-mb", type=click.IntRange(1), default=d["decoded_mb"], show_default=True,
                     help="Most bytes decoded from streams in total, MiB."),
        click.option("--max-chars", type=click.IntRange(1), default=d["chars"], show_default=True,
                     help="Most characters checked in the file (on every page that shows them)."),
    ]
    for option in reversed(options):
        wrapper = option(wrapper)
    return wrapper


def output_file(text: str, name: str) -> Path:
    """Where ``-o TEXT`` writes: TEXT itself, or ``TEXT/NAME`` when TEXT is an existing folder
    or ends with a slash (meaning a folder); ``name`` is what a build without ``-o`` writes
    (:func:`tokengen.sources.bundled.default_output`), so both name the PDF alike.

    Raises:
        UsageError: TEXT ends with a slash and is not an existing folder.
    """
    path = Path(text)
    folder = os.path.isdir(text)  # False (not an error) for a name too long or a symlink loop: the write says why
    if text.endswith(("/", os.sep)) or folder:
        if not folder:
            raise UsageError(f"-o {text}: no such folder (create it first, or name the file, e.g. -o {text.rstrip('/' + os.sep)}/{name})")
        return path / name
    return path


# --- previews and rebuild on save (issue 17): --preview on build and export, --watch on build ---

def _preview_options(*, watch: bool = False) -> Any:
    """Add ``--preview [FILE.png]``, ``--preview-dpi`` and ``--preview-page`` (and ``--watch``
    when ``watch``) to a command whose callback returns what it wrote (a ``BuildResult`` or the
    list of exported paths, the PDF first). The callback gets ``previews``: None, or the PNG
    paths for its PDF and page count, to check with its own outputs before it writes any. The
    command runs as before, then the PDF it wrote is rendered to PNG
    (:func:`tokengen.outputs.preview.write_previews`); with ``--watch`` it runs again on every change of
    its inputs (:func:`tokengen.outputs.watch.watch_build`), one line per run."""

    def decorate(f: Any) -> Any:
        @functools.wraps(f)
        def wrapper(*args: Any, preview: str | None, preview_dpi: int, preview_page: int | None, watch: bool = False,
                    **kwargs: Any) -> Any:
            ctx = click.get_current_context()
            given = [o for o in ("preview_dpi", "preview_page") if ctx.get_parameter_source(o) == click.core.ParameterSource.COMMANDLINE]
            if preview is None and given:
                raise click.UsageError(f"{', '.join('--' + o.replace('_', '-') for o in given)}: add --preview")
            target = None
            if preview:  # checked before anything is built; an optional value can swallow the catalogue's name
                from ..outputs.preview import check_target

                target = check_target(preview, "--preview", " (give the catalogue before --preview, or write --preview=NAME.png)")

            def previews(pdf: Path, pages: int) -> list[Path]:
                """The PNGs a preview of ``pdf`` (``pages`` long) writes: checked with the command's other outputs."""
                from ..outputs.preview import default_target, preview_paths

                return preview_paths(target or default_target(pdf), pages, preview_page)

            def once() -> Any:
                written = f(*args, previews=previews if preview is not None else None, **kwargs)
                if preview is not None:
                    _write_previews(ctx, written, target, preview_dpi, preview_page)
                report = ctx.meta.pop(REPORT, None)
                if report is not None:  # --format json: what was written, previews included
                    report()
                return written

            if not watch:
                return once()
            _watch(once, kwargs, target, preview is not None)
            return None

        for option in reversed(_preview_flags(watch)):
            wrapper = option(wrapper)
        return wrapper

    return decorate


def _write_previews(ctx: click.Context, written: Any, target: Path | None, dpi: int, page: int | None) -> None:
    """Render the PDF a command ``written`` (a ``BuildResult`` or the paths, the PDF first) to the
    preview PNGs, add them to what it wrote, and say so (not under ``--format json``)."""
    from ..outputs.preview import write_previews

    pdf = written[0] if isinstance(written, list) else written.path
    pngs = write_previews(pdf, target, dpi, page, flags=("--preview-dpi", "--preview-page"))
    if isinstance(written, list):
        written.extend(pngs)
    else:
        ctx.meta.setdefault("tokengen.previews", []).extend(pngs)
    if ctx.params.get("fmt") != "json":
        say(f"wrote {len(pngs)} preview PNG{'s' if len(pngs) != 1 else ''} at {dpi} DPI: {pngs[0]}" + (f" … {pngs[-1].name}" if len(pngs) > 1 else ""))


def _watch(once: Callable[[], Any], kwargs: dict[str, Any], target: Path | None, previewed: bool) -> None:
    """``--watch``: run ``once`` (a build, previews included) again on every change of the
    catalogue's inputs (:func:`tokengen.outputs.watch.watch_build`), one line per run."""
    import contextlib
    import io

    from ..outputs.backs import backs_path as duplex_backs_path
    from ..outputs.watch import catalogue_inputs, watch_build

    allow = kwargs.get("allow_outside_art", False)
    last: list[Path] = [Path(str(kwargs["output"]))]  # the PDF the last good build wrote

    def summary() -> str:
        with contextlib.redirect_stdout(io.StringIO()) as lines:
            last[0] = once().path
        return "; ".join(line for line in lines.getvalue().splitlines() if line)

    def inputs() -> Any:
        pdf = last[0]
        return catalogue_inputs(kwargs["catalogue"], (pdf, duplex_backs_path(pdf)), allow_outside_art=allow,
                                previews=target or (pdf.with_suffix(".png") if previewed else None))

    watch_build(summary, inputs, echo=lambda line: say(line), error=lambda line: click.echo(line, err=True))


def _preview_flags(watch: bool) -> list[Any]:
    """The click options of :func:`_preview_options`: ``--preview``, ``--preview-dpi``,
    ``--preview-page`` and, when ``watch``, ``--watch``."""
    options = [
        click.option("--preview", metavar="[FILE.png]", is_flag=False, flag_value="", default=None,
                     help="Also render the PDF to PNG: FILE.png for one --preview-page, else FILE-1.png … per page (FILE-01.png … past 9 pages) "
                          "(default FILE: the PDF's name with .png)."),
        click.option("--preview-dpi", type=click.IntRange(10, 1200), default=100, show_default=True, help="Preview resolution (px per in)."),
        click.option("--preview-page", type=click.IntRange(1), default=None, metavar="N", help="Preview only page N."),
    ]
    if watch:
        options.append(click.option("--watch", is_flag=True,
                                    help="Build, then rebuild whenever the catalogue, its art, the fonts or a data file beside it "
                                         "change (Ctrl-C stops; a broken input keeps the last good PDF)."))
    return options


# -- backs and duplex: the build options that ask for back sheets, and the align command --------


def backs_options(f: Any) -> Any:
    """Add ``--backs [duplex|separate]``, ``--flip``, ``--back-offset``, ``--printer-scale`` and
    ``--rules`` to a command; the command receives them as one ``backs`` dict of
    :class:`~tokengen.outputs.options.BuildOptions` keyword arguments (lengths in pt, scale as factors).

    Raises (when the command runs):
        UsageError: a malformed offset or scale, or ``--flip``/``--back-offset`` without ``--backs``.
    """

    @functools.wraps(f)
    def wrapper(*args: Any, backs: str | None, flip: str | None, back_offset: str | None,
                printer_scale: str | None, rules: bool, **kwargs: Any) -> Any:
        if not backs and (flip or back_offset):
            from ..outputs.summary import BACKS_NEEDED

            raise UsageError(BACKS_NEEDED)
        options: dict[str, Any] = {"backs": backs, "flip": flip or "long", "rules": rules}
        if back_offset:
            from ..faces.pagesetup import parse_offset

            options["back_offset"] = parse_offset(back_offset)
        if printer_scale:
            from ..faces.pagesetup import parse_scale

            options["printer_scale"] = parse_scale(printer_scale)
        return f(*args, backs=options, **kwargs)

    options = [
        click.option("--backs", type=click.Choice(["duplex", "separate"]), is_flag=False, flag_value="duplex", default=None,
                     help="Add back sheets: alone or 'duplex', a back sheet after each face sheet for duplex printing; "
                          "'separate', the backs in NAME-backs.pdf (one-sided printers)."),
        click.option("--flip", type=click.Choice(["long", "short"]), default=None,
                     help="The edge the sheet turns over in duplex printing (default: long)."),
        click.option("--back-offset", metavar="X,Y", default=None,
                     help="Shift the back sheets by X,Y (lengths, e.g. 0.5mm,-1mm), as read on 'tokengen align'."),
        click.option("--printer-scale", metavar="SX[,SY]", default=None,
                     help="Scale every page about its centre (e.g. 100.4%,99.7%) to correct a printer; stated in the PDF keywords."),
        click.option("--rules", is_flag=True, help="Append the rules sheet of a Meatshields catalogue (the rules in our words, its numbers and variants)."),
    ]
    for option in reversed(options):
        wrapper = option(wrapper)
    return wrapper


#: The ``schema_version`` of every ``--format json`` report: the ``const`` of
#: ``tokengen/data/report.schema.json``, the schema the reports follow (tests/cli/test_json_schema.py).
SCHEMA_VERSION = 1


def _echo_json(report: dict[str, Any], command: str | None = None) -> None:
    """Print ``report`` as one JSON object, ``schema_version`` first (and ``command`` when given)."""
    import json

    head: dict[str, Any] = {"schema_version": SCHEMA_VERSION}
    if command is not None:
        head["command"] = command
    data(json.dumps({**head, **report}, ensure_ascii=False, indent=2))


#: Key in ``click.Context.meta`` of the function that prints a ``--format json`` report once the previews are written.
REPORT = "tokengen.report"

#: ``--format text|json`` of build, export and batch: json prints what was written as one object.
FORMAT = click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
                      help="json: print what was written (files, pages, tokens, warnings, checks) as one JSON object.")


def written_report(command: str, files: list[Any], pages: int, tokens: int, warnings: list[str],
                   checks: list[dict[str, Any]] | None = None, **more: Any) -> dict[str, Any]:
    """The ``--format json`` object of build, export and batch: ``command``, ``files`` (paths as
    strings, in the order written), ``pages``, ``tokens``, ``warnings`` (each once), ``checks``
    (the preflight's, each ``{name, passed, warning, message}``) and any ``more`` keys."""
    return {"command": command, "files": [str(f) for f in files], "pages": pages, "tokens": tokens,
            "warnings": list(dict.fromkeys(warnings)), "checks": checks or [], **more}
