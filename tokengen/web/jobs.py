"""The page's own handlers: the form's fields checked and turned into library calls (build,
check, export, alignment test), with the CLI's messages and the CLI's bytes.

Each job takes the form's values (``name → text``, see :data:`tokengen.web.server.FIELDS`) and
calls :mod:`tokengen.outputs`, :mod:`tokengen.sources` and :mod:`tokengen.games` directly, in
the order ``tokengen build``/``check``/``export``/``align`` would, so the first problem found is
the one the CLI names. A bad value raises :class:`~tokengen.errors.UsageError` whose message is
the line the CLI prints after ``tokengen: error: ``: click's words for a value a click type
refuses (``click.IntRange``, ``click.Choice``, ``float``), the library's words for the rest,
wrapped by :func:`tokengen.outputs.summary.usage_line` where the CLI wraps them. The jobs print
nothing: what the CLI prints comes back as lines (:mod:`tokengen.outputs.summary`).

Not thread-safe by themselves: see :data:`LIBRARY_LOCK`.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..errors import CheckFailed, UsageError
from ..limits import MAX_ART_PIXELS, MAX_DPI, MAX_PAGES, MAX_PNG_PIXELS, MAX_PNG_TOTAL_PIXELS, MAX_TOKENS
from ..outputs.summary import BACKS_HINT, BACKS_NEEDED, SIZE_OR_SCALE, build_lines, preflight_failed, usage_line, warning_line
from ..units import parse_length, parse_page

if TYPE_CHECKING:
    from ..outputs.build import BuildResult

#: One library job at a time. Not for printed lines (the jobs print nothing) but for the
#: process-wide state the library touches while it draws, saves and renders: ReportLab's
#: ``rl_config.useA85`` is switched off and back on around every save
#: (:func:`tokengen.faces.render.binary_streams`), so two saves at once could write each other's
#: stream encoding and break the CLI's bytes; art is read under ``warnings.catch_warnings``
#: (:mod:`tokengen.faces.art`), which is process-wide; and pdfium (previews, PNG exports) is not
#: thread-safe. Requests that do not call the library (the page, files, pages already rendered,
#: long polls, cached renders) never take it.
LIBRARY_LOCK = threading.Lock()

#: The defaults of the options the form leaves blank: those of ``tokengen build`` (its --help).
DEFAULTS = {"page": "letter", "margin": "0.25in", "gutter": "0", "home_bleed": "0.0625in", "flip": "long"}
#: ``--copies``'s range (``tokengen build``).
COPIES = click.IntRange(1, 100_000)
BACKS = click.Choice(["duplex", "separate"])
FLIPS = click.Choice(["long", "short"])


def on(value: str | None) -> bool:
    """A checkbox's value: ticked."""
    return value in ("on", "1", "true", "yes")


def _refused(command: str, option: str, detail: str, hint: str = "") -> UsageError:
    """The CLI's line for a value of ``option`` that ``command`` refuses (click's
    ``Invalid value for '--option': DETAIL``, ``hint`` added before the usage pointer)."""
    message = click.BadParameter(detail, param_hint=f"'{option}'").format_message()
    return UsageError(usage_line(command, message.rstrip(".") + hint if hint else message))


def _convert(command: str, option: str, kind: click.ParamType, text: str, hint: str = "") -> Any:
    """``text`` converted by the click type ``kind``, as the CLI's option would."""
    try:
        return kind.convert(text, None, None)
    except click.BadParameter as exc:
        raise _refused(command, option, exc.message, hint) from None


def _length(command: str, option: str, text: str) -> float:
    """A length in pt (``--margin 0.5in``), refused in the CLI's words."""
    try:
        return parse_length(text)
    except ValueError as exc:
        raise _refused(command, option, str(exc)) from None


def _page(command: str, text: str, landscape: bool = False) -> tuple[float, float]:
    """The page size in pt for ``--page``, refused in the CLI's words."""
    try:
        return parse_page(text, landscape=landscape)
    except ValueError as exc:
        raise _refused(command, "--page", str(exc)) from None


@dataclass
class Built:
    """A build: its result and the lines the CLI prints for it (stdout's, then stderr's)."""

    result: BuildResult
    lines: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class BuildForm:
    """The form's build options, checked as ``tokengen build`` checks them: ``margin`` and
    ``gutter`` in pt, ``size`` in pt or None, ``scale`` or None, ``copies``, and the
    :class:`~tokengen.outputs.options.BuildOptions` keywords the form sets (``backs``, ``flip``,
    ``rules``, ``back_offset``, ``printer_scale``)."""

    margin: float
    gutter: float
    size: float | None
    scale: float | None
    copies: int
    options: dict[str, Any]


def build_form(values: dict[str, str]) -> BuildForm:
    """The form's build options checked in the order the page passes them to the CLI (the
    values click converts first, then what the command itself checks), so the first bad one is
    the one the CLI names.

    Raises:
        UsageError: a bad option (the CLI's message).
    """
    command = "tokengen build"
    margin = _length(command, "--margin", values.get("margin") or DEFAULTS["margin"])
    gutter = _length(command, "--gutter", values.get("gutter") or DEFAULTS["gutter"])
    size = _length(command, "--size", values["size"]) if values.get("size") else None
    scale = _convert(command, "--scale", click.FLOAT, values["scale"]) if values.get("scale") else None
    copies = _convert(command, "--copies", COPIES, values["copies"]) if values.get("copies") else 1
    backs = _convert(command, "--backs", BACKS, values["backs"], BACKS_HINT) if values.get("backs") else None
    flip = _convert(command, "--flip", FLIPS, values["flip"]) if backs and values.get("flip") else None
    options = _back_options(values, backs, flip)
    if size is not None and scale is not None:
        raise UsageError(usage_line(command, SIZE_OR_SCALE))
    return BuildForm(margin, gutter, size, scale, copies, options)


def _back_options(values: dict[str, str], backs: str | None, flip: str | None) -> dict[str, Any]:
    """The backs' keywords of :class:`~tokengen.outputs.options.BuildOptions` (and the rules
    sheet's), the back offset refused without backs as the CLI refuses it.

    Raises:
        UsageError: a back offset without backs, or a bad offset or printer scale.
    """
    from ..faces.pagesetup import parse_offset, parse_scale

    if not backs and values.get("back_offset"):
        raise UsageError(BACKS_NEEDED)
    options: dict[str, Any] = {"backs": backs, "flip": flip or "long", "rules": on(values.get("rules"))}
    if values.get("back_offset"):
        options["back_offset"] = parse_offset(values["back_offset"])
    if values.get("printer_scale"):
        options["printer_scale"] = parse_scale(values["printer_scale"])
    return options


def build(catalogue: str, values: dict[str, str], out: Path) -> Built:
    """``tokengen build CATALOGUE -o OUT`` with the form's options (:func:`build_form`); the PDF
    (and a separate backs file) written to ``out``.

    Raises:
        UsageError: a bad option (the CLI's message). TokengenError: the catalogue or the build
            fails (the library's message).
    """
    from ..geometry import sizing
    from ..outputs.build import build_pdf
    from ..outputs.options import BuildOptions
    from ..sources.bundled import resolve
    from ..sources.catalogue import load_unchanged

    path = resolve(catalogue)
    form = build_form(values)
    with LIBRARY_LOCK:
        cat = load_unchanged(path)  # the catalogue and its laid-out faces, kept while its files are unchanged
        trim = sizing.token_size(cat.size, form.size, form.scale, cat.shape)
        page = _page("tokengen build", values.get("page") or DEFAULTS["page"], on(values.get("landscape")))
        spec = sizing.sheet_spec(page, trim, margin=form.margin, gutter=form.gutter, columns=None, group=cat.columns,
                                 cut_lines=not on(values.get("no_cut_lines")), crop_marks=on(values.get("crop_marks")),
                                 home_bleed=parse_length(DEFAULTS["home_bleed"]), furniture="full")
        result = build_pdf(cat, BuildOptions(sheet=spec, copies=form.copies, max_tokens=MAX_TOKENS, max_pages=MAX_PAGES,
                                             fill=on(values.get("fill")), fold=None, max_dpi=MAX_DPI,
                                             max_art_pixels=MAX_ART_PIXELS, **form.options), out)
    return Built(result, [*build_lines(result), *(warning_line(w) for w in result.warnings)])


def check(catalogue: str, values: dict[str, str]) -> dict[str, Any]:
    """``tokengen check CATALOGUE --format json`` with the form's page, margin and size: the
    report as a dict (``as_dict``), whether or not the tokens are playable.

    Raises:
        UsageError: a bad option (the CLI's message). TokengenError: the catalogue cannot be read.
    """
    from ..games.contract import Settings
    from ..games.meatshields.interpretations import INTERPRETATIONS
    from ..games.registry import check_catalogue
    from ..sources.bundled import resolve

    command = "tokengen check"
    path = resolve(catalogue)
    margin = _length(command, "--margin", values.get("margin") or DEFAULTS["margin"])
    size = _length(command, "--size", values["size"]) if values.get("size") else None
    settings = Settings(page=_page(command, values.get("page") or DEFAULTS["page"]), margin=margin, size=size)
    with LIBRARY_LOCK:
        report = check_catalogue(path, settings, add=(), remove=(), readings=dict.fromkeys(INTERPRETATIONS))
    return report.as_dict()


def export(catalogue: str, profile_name: str, out_dir: Path, image_url: str | None = None) -> list[Path]:
    """``tokengen export CATALOGUE --profile NAME -o OUT_DIR [--image-url URL]``: the files
    written, the PDF first. A ``tts`` export needs ``image_url`` here (the page's files are
    downloaded, so ``file:///`` paths into the server's folder would point nowhere).

    Raises:
        TokengenError: an unknown profile, a catalogue or export failure (the library's message);
            CheckFailed: the PDF fails its own preflight (the CLI's message, naming the file
            without ``out_dir``; ``details``: the ``tokengen preflight`` lines).
    """
    from ..geometry import sizing
    from ..outputs.export import export as export_files
    from ..outputs.export import preflight_results
    from ..outputs.summary import preflight_lines
    from ..sources.bundled import resolve
    from ..sources.catalogue import load_unchanged
    from ..sources.profiles import get_profile

    path = resolve(catalogue)
    profile = get_profile(profile_name)
    if profile.output == "tts" and not image_url:
        raise _refused("tokengen export", "--image-url", "a tts export from the page needs the URL its images will be "
                       "uploaded to (the image URL field)")
    if image_url and profile.output != "tts":
        raise _refused("tokengen export", "--image-url", f"only for a tts profile, not {profile.name}")
    from ..outputs.tts import check_base

    check_base(image_url)
    with LIBRARY_LOCK:
        cat = load_unchanged(path)  # the catalogue and its laid-out faces, kept while its files are unchanged
        size = sizing.token_size(cat.size, None, None, cat.shape)
        written = export_files(cat, profile, out_dir, size=None, max_tokens=MAX_TOKENS, max_pages=MAX_PAGES, max_pixels=MAX_PNG_PIXELS,
                               max_total_pixels=MAX_PNG_TOTAL_PIXELS, warnings=[], image_url=image_url)
        checks = preflight_results(written[0], profile, cat, size)
    failed = [c.name for c in checks if not c.passed]
    if failed:
        refused = CheckFailed(preflight_failed(Path(written[0].name), failed, profile.name))  # the file as downloaded, no server path
        refused.details = tuple(line.replace(f"{out_dir}/", "") for line in preflight_lines(checks))
        raise refused
    return written


def align(values: dict[str, str], out: Path) -> Path:
    """``tokengen align -o OUT`` with the form's page, landscape, flip, offset and printer scale.

    Raises:
        UsageError: a bad option (the CLI's message). ExportError: ``out`` cannot be written.
    """
    from ..faces.pagesetup import parse_offset, parse_scale
    from ..outputs.aligntest import write_alignment_test

    command = "tokengen align"
    flip = _convert(command, "--flip", FLIPS, values["flip"]) if values.get("flip") else DEFAULTS["flip"]
    page = _page(command, values.get("page") or DEFAULTS["page"], on(values.get("landscape")))
    offset = parse_offset(values["back_offset"]) if values.get("back_offset") else (0.0, 0.0)
    scale = parse_scale(values["printer_scale"]) if values.get("printer_scale") else None
    with LIBRARY_LOCK:
        return write_alignment_test(out, page, flip, offset, scale, warnings=[])

