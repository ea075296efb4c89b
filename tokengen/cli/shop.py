"""Print shops: ``tokengen export`` and ``tokengen preflight``."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..errors import CheckFailed
from ..limits import MAX_ART_PIXELS, MAX_FONT_CODE_POINTS, MAX_PAGES, MAX_PNG_PIXELS, MAX_TOKENS
from ..limits import MAX_PNG_TOTAL_PIXELS as MAX_TOTAL_PIXELS_PNG
from ..units import parse_page
from .app import cli
from .completion import complete_profile
from .habits import data, say, step, warn
from .params import (
    CATALOGUE,
    DEFAULT_CATALOGUE,
    FORMAT,
    LENGTH,
    REPORT,
    SIZE,
    _echo_json,
    _preview_options,
    preflight_limits,
    written_report,
)

if TYPE_CHECKING:
    from ..model import Catalogue
    from ..preflight.checks import Check
    from ..sources.profiles import Profile

#: Key in ``click.Context.meta`` of one catalogue's export report and files, which several
#: catalogues' export (one table) joins into one report.
EXPORT_REPORT = "tokengen.export-report"


def _list_profiles(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """``export --list-profiles``: print the profile table and stop (eager, like --version)."""
    if not value or ctx.resilient_parsing:
        return
    import shutil

    from ..outputs.profilelist import profile_table

    width = shutil.get_terminal_size((80, 24)).columns  # 80 when not a terminal
    data(profile_table(ctx.params.get("profiles_file"), width), nl=False)
    ctx.exit(0)


@cli.command("export")
@click.argument("catalogues", nargs=-1, type=CATALOGUE, metavar="[CATALOGUE]...")
@click.option("--profile", "profile_name", required=True, metavar="NAME", shell_complete=complete_profile,
              help="home, print-shop, eu-3mm, punchboard, cut-svg, cut-dxf, cricut, tgc-chits, single-pages, dtc-poker, dtc-euro-poker, "
                   "tgc-poker, tgc-euro-poker, tgc-mini, tgc-bridge, tgc-square, tgc-small-square, tgc-tarot, tgc-square-chit-large|medium|small, tgc-round-chit-large|medium|small, tgc-hex-chit-large|medium|small, "
                   "mpc-poker, tts, or one from --profiles (see --list-profiles).")
@click.option("--list-profiles", is_flag=True, is_eager=True, expose_value=False, callback=_list_profiles,
              help="Print every profile (name, product, output, source) and exit; after --profiles FILE, its ones too.")
@click.option("-o", "--output", "out_dir", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Folder to write into (created if missing).")
@click.option("--dpi", type=click.IntRange(72, 2400), default=None, help="PNG resolution, overriding the profile's.")
@click.option("--profiles", "profiles_file", type=click.Path(dir_okay=False, path_type=Path), default=None, is_eager=True,
              help="YAML file adding or overriding profiles (same shape as the built-in profiles.yaml).")
@click.option("--page", default=None, metavar="NAME|WxH", help="Sheet page, overriding the profile's (letter, a4, …, WxH).")
@click.option("--landscape", is_flag=True, default=None, help="Turn the profile's page sideways.")
@click.option("--columns", type=click.IntRange(0, 1000), default=None, help="At most N columns; 0: as many as fit (overrides the profile).")
@click.option("--copies", type=click.IntRange(1, 100_000), default=None, help="Sets of the catalogue (overrides the profile).")
@click.option("--fill/--no-fill", default=None, help="Repeat whole sets until the last sheet is full (overrides the profile).")
@click.option("--size", "token_size", type=SIZE, default=None, metavar="LENGTH", help="Token trim size (0.75in, or WIDTHxHEIGHT: 63mmx88mm); default: the catalogue's.")
@click.option("--allow-preflight-failures", is_flag=True, help="Exit 0 even when the written file fails its own preflight.")
@click.option("--max-tokens", type=click.IntRange(1), default=MAX_TOKENS, show_default=True, help="Refuse runs with more tokens.")
@click.option("--max-pages", type=click.IntRange(1), default=MAX_PAGES, show_default=True, help="Refuse runs with more pages.")
@click.option("--max-pixels", type=click.IntRange(1), default=MAX_PNG_PIXELS, show_default=True,
              help="Refuse PNGs with more pixels each (png profiles).")
@click.option("--max-total-pixels", type=click.IntRange(1), default=MAX_TOTAL_PIXELS_PNG, show_default=True,
              help="Refuse PNG sets with more pixels in all (png profiles).")
@click.option("--keep-resolution", is_flag=True, help="Embed art at its own resolution (no resampling down to the profile's max_dpi).")
@click.option("--max-art-pixels", type=click.IntRange(1), default=MAX_ART_PIXELS, show_default=True,
              help="Refuse runs whose art embeds more pixels in all; one picture may hold a fifth of it (at least 50 Mpx).")
@click.option("--max-font-code-points", type=click.IntRange(1), default=MAX_FONT_CODE_POINTS, show_default=True,
              help="Refuse catalogue fonts whose cmap maps more code points.")
@click.option("--image-url", "image_url", default=None, metavar="BASE",
              help="tts profile: the URL the images will be uploaded to (BASE/NAME in the save); default: file:/// paths.")
@click.option("--tts-folder", "tts_folder", default=None, type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
              help="tts profile: also copy the saved object and its thumbnail into DIR, the table's Saved Objects folder.")
@click.option("--sheet", "sheet_file", type=click.Path(dir_okay=False, path_type=Path), default=None, metavar="FILE",
              help="Lay the sheets out by hand from FILE (slots by position, or groups and zones), as a catalogue's sheet: does.")
@click.option("--no-marks", "no_marks", is_flag=True,
              help="cut-svg, cut-dxf: leave the registration marks out of the cut files (the printed sheet keeps them).")
@click.option("-j", "--jobs", "workers", type=click.IntRange(1, 256), default=None,
              help="Processes rendering and encoding PNGs (png profiles; default: every core).")
@FORMAT
@_preview_options()
def export_command(catalogues: tuple[Path, ...], profile_name: str, out_dir: Path, tts_folder: Path | None = None,
                   **options: Any) -> list[Path]:
    """Write the files a print shop takes for CATALOGUE (default token_defs.yaml); with the tts
    profile, several catalogues go on one table (table.json beside each catalogue's own save).

    \b
    Examples:
      tokengen export --profile print-shop -o out/shop
      tokengen export token_defs.yaml --profile tgc-chits -o out/tgc
      tokengen export --profile tgc-chits --dpi 600 -o out/tgc600
      tokengen export --profile my-shop --profiles my-profiles.yaml -o out/mine
      tokengen export --profile print-shop -o out/shop --preview
      tokengen export --profile print-shop --page tabloid --size 0.75in -o out/tabloid
      tokengen export --profile tts -o out/tts --image-url https://example.org/tokens
      tokengen export cards.yaml counters.yaml --profile tts -o out/table
      tokengen export --profile print-shop -o out/shop --format json

    Exit status: 0 written and passing its preflight; 1 written but failing it (unless
    --allow-preflight-failures); 2 bad input.
    """
    from ..sources.profiles import get_profile

    paths = list(catalogues) or [CATALOGUE.convert(DEFAULT_CATALOGUE, None, None)]
    output = get_profile(profile_name, options.get("profiles_file")).output
    _check_table_options(len(paths), profile_name, output, tts_folder)
    jobs = _parts(paths, out_dir, output == "tts")
    text = options.get("fmt", "text") == "text"
    written, saves, reports = _export_each(jobs, profile_name, options)
    if len(jobs) > 1 and output == "tts":
        table = _one_table(saves, out_dir, len(jobs), text)
        written += table
        saves = table[:1]
    if tts_folder is not None:
        written += _copy_to_tts_folder(saves[0], tts_folder, text)
    if reports and (len(jobs) > 1 or tts_folder is not None):
        joined = _joined_report(reports, written, several=len(jobs) > 1)
        click.get_current_context().meta[REPORT] = lambda: _echo_json(joined)
    return written


def _check_table_options(count: int, profile_name: str, output: str, tts_folder: Path | None) -> None:
    """Several catalogues and ``--tts-folder`` are for a tts profile only, and the folder must
    exist: raise UsageError otherwise (``count`` catalogues given, ``output`` the profile's)."""
    from ..errors import UsageError

    if count > 1 and output != "tts":
        raise UsageError(f"export takes one catalogue (or one project) with --profile {profile_name}; several go on one table "
                         "with a tts profile only")
    if tts_folder is not None and output != "tts":
        raise UsageError(f"--tts-folder: profile {profile_name} writes no Tabletop Simulator save (use --profile tts)")
    if tts_folder is not None and not tts_folder.is_dir():
        raise UsageError(f"--tts-folder {tts_folder}: no such folder (Tabletop Simulator's Saved Objects folder, e.g. "
                         "Documents/My Games/Tabletop Simulator/Saves/Saved Objects)")


def _export_each(jobs: list[tuple[Path, Path]], profile_name: str, options: dict[str, Any]
                 ) -> tuple[list[Path], list[Path], list[tuple[dict[str, Any], list[Path]]]]:
    """Export each catalogue into its folder: every file written, each catalogue's
    Tabletop Simulator save (a tts profile) and each one's ``--format json`` report with its files."""
    written: list[Path] = []
    saves: list[Path] = []
    reports: list[tuple[dict[str, Any], list[Path]]] = []
    ctx = click.get_current_context()
    for path, folder in jobs:
        files = _export_one(path, profile_name, folder, **options)
        written += files
        saves += [f for f in files if f.suffix == ".json"][:1]
        if EXPORT_REPORT in ctx.meta:
            reports.append(ctx.meta.pop(EXPORT_REPORT))
    return written, saves, reports


def _one_table(saves: list[Path], out_dir: Path, count: int, text: bool) -> list[Path]:
    """Several catalogues' saves on one Tabletop Simulator table in ``out_dir``: the files written."""
    from ..outputs import tts

    table = tts.write_table(saves, out_dir)
    if text:
        say(f"wrote {table[0]}: {count} catalogues on one table")
    return table


def _copy_to_tts_folder(save: Path, tts_folder: Path, text: bool) -> list[Path]:
    """``--tts-folder``: the save and its thumbnail copied into the table's Saved Objects folder."""
    from ..outputs import tts

    copied = tts.copy_to_folder(save, tts_folder)
    if text:
        say(f"copied {save.name} and its thumbnail into {tts_folder}")
    return copied


def _joined_report(reports: list[tuple[dict[str, Any], list[Path]]], written: list[Path], several: bool) -> dict[str, Any]:
    """One ``--format json`` report of several catalogues' exports (or of one with its copy in a
    tts folder): every file, the pages and tokens summed, each warning once, every check; with
    ``several`` catalogues, each one's own report under ``catalogues``."""
    each = [report for report, _ in reports]
    joined = {**each[0], "files": [str(f) for f in written], "pages": sum(r["pages"] for r in each),
              "tokens": sum(r["tokens"] for r in each), "warnings": list(dict.fromkeys(w for r in each for w in r["warnings"])),
              "checks": [c for r in each for c in r["checks"]], "passed": all(r["passed"] for r in each)}
    if several:
        joined["catalogues"] = [{**r, "files": [str(f) for f in files]} for r, files in reports]
    return joined


def _parts(paths: list[Path], out_dir: Path, one_table: bool) -> list[tuple[Path, Path]]:
    """The catalogues to export and the folder of each: a catalogue into ``out_dir``; a project
    (``parts:``, :mod:`tokengen.sources.project`) as its parts in order, all into ``out_dir`` when
    they go on ``one_table`` (tts), else each into a folder of its own named after its file
    (``out/shop/cards/``), as a shop takes one part's files at a time. Raises CatalogueError for a
    project that names a missing part."""
    from ..sources.project import is_project, load_project

    jobs: list[tuple[Path, Path]] = []
    for path in paths:
        if not is_project(path):
            jobs.append((path, out_dir))
            continue
        for part in load_project(path).parts:
            jobs.append((part, out_dir if one_table else out_dir / part.stem))
    return jobs


def _export_one(catalogue: Path, profile_name: str, out_dir: Path, dpi: int | None, profiles_file: Path | None,
                   page: str | None, landscape: bool | None, columns: int | None, copies: int | None, fill: bool | None,
                   token_size: float | tuple[float, float] | None, allow_preflight_failures: bool, max_tokens: int = MAX_TOKENS,
                   max_pages: int = MAX_PAGES, max_pixels: int = MAX_PNG_PIXELS, max_total_pixels: int = MAX_TOTAL_PIXELS_PNG,
                   keep_resolution: bool = False, image_url: str | None = None, previews: Any = None,
                   fmt: str = "text", max_art_pixels: int = MAX_ART_PIXELS,
                   max_font_code_points: int = MAX_FONT_CODE_POINTS, workers: int | None = None, no_marks: bool = False,
                   sheet_file: Path | None = None) -> list[Path]:
    """One catalogue's export, its result lines, its preflight and its ``--format json`` report
    (:data:`REPORT`, and :data:`EXPORT_REPORT` for :func:`export_command` to join): the files
    written. Raises as :func:`tokengen.outputs.export.export`; CheckFailed when the preflight fails."""
    from ..geometry import sizing
    from ..outputs.export import export
    from ..outputs.summary import export_line, warning_line
    from ..sources.profiles import get_profile

    profile = _override_profile(get_profile(profile_name, profiles_file), page, landscape, columns, copies, fill)
    cat = _read_catalogue(catalogue, sheet_file, max_font_code_points)
    size = sizing.token_size(cat.size, token_size, None, cat.shape, base_height=cat.height)
    profile, said = _shop_profile(cat, profile, token_size)  # what the user should know (faces scaled): stdout, once each
    notes: list[str] = []
    with step(f"exported {out_dir} (profile {profile.name})"):
        written = export(cat, profile, out_dir, dpi=dpi, size=None if token_size is None else size, max_tokens=max_tokens, max_pages=max_pages,
                         max_pixels=max_pixels, max_total_pixels=max_total_pixels, keep_resolution=keep_resolution, warnings=notes,
                         also=previews, image_url=image_url, max_art_pixels=max_art_pixels, notes=said,
                         workers=workers, cut_marks=not no_marks)
    if fmt == "text":
        say(export_line(written, out_dir, profile.name))
        for note in dict.fromkeys(said):
            say(note)
    warnings = list(dict.fromkeys(notes))  # the export's own, small text included, measured at the size it drew
    for warning in warnings:
        warn(warning_line(warning))
    checks = _preflight(written[0], profile, cat, size, max_pages)
    if fmt == "json":
        _export_report(written, cat.count, warnings, checks, profile.name)
    _verdict(written[0], checks, profile.name, fmt, allow_preflight_failures,
             [*(("--page", page) if page is not None else ()), *(("--landscape",) if landscape else ())])
    return written


def _read_catalogue(catalogue: Path, sheet_file: Path | None, max_font_code_points: int) -> Catalogue:
    """The catalogue, with the sheets laid out by hand from ``--sheet FILE`` when given."""
    from ..sources.catalogue import load_catalogue

    with step(f"read {catalogue}"):
        cat = load_catalogue(catalogue, max_font_code_points=max_font_code_points)
    if sheet_file is None:
        return cat
    from ..sources.handsheets import load_sheet

    with step(f"read {sheet_file}"):
        return dataclasses.replace(cat, hand_sheet=load_sheet(sheet_file))


def _shop_profile(cat: Catalogue, profile: Profile, token_size: float | tuple[float, float] | None
                  ) -> tuple[Profile, list[str]]:
    """The profile the export uses and the notes to tell the user: a board on a shop's sheets
    is printed whole (and preflighted as such); a card's height follows ``--size``'s width."""
    from ..geometry import sizing
    from ..outputs.tiles import board_note, whole_board

    said: list[str] = []
    board = whole_board(cat, profile)
    if board is not None:
        said.append(board_note(cat, profile))
        profile = board
    note = sizing.height_note(token_size, cat.size, cat.height)
    return profile, said + ([note] if note else [])


def _preflight(pdf: Path, profile: Profile, cat: Catalogue, size: float, max_pages: int) -> list[Check]:
    """The export's own preflight of ``pdf``: its checks; each passing check with a warning
    said on stderr (a hairline passes but a shop may not print it: never "passes every check")."""
    from ..outputs.export import preflight_results
    from ..outputs.summary import preflight_warning

    with step(f"preflight of {pdf}"):
        checks = preflight_results(pdf, profile, cat, size, max_pages=max_pages)
    for check in checks:
        if check.passed and check.warning:
            warn(preflight_warning(check.name, check.message))
    return checks


def _export_report(written: list[Path], tokens: int, warnings: list[str], checks: list[Check], profile: str) -> None:
    """Keep the ``--format json`` report of one catalogue's export: as :data:`REPORT` (printed
    at the end, with any previews among its files) and :data:`EXPORT_REPORT` (for joining)."""
    ctx = click.get_current_context()
    report = written_report("export", written, _page_count(written[0]), tokens, warnings, [c.to_dict() for c in checks],
                            profile=profile, passed=all(c.passed for c in checks))
    ctx.meta[REPORT] = lambda: _echo_json({**report, "files": [str(f) for f in written]})  # previews join `written`
    ctx.meta[EXPORT_REPORT] = (report, written)


def _verdict(pdf: Path, checks: list[Check], profile: str, fmt: str, allow_failures: bool, again: list[str]) -> None:
    """Say the preflight passed, or raise CheckFailed naming the failed checks (with the options
    ``again`` to give preflight); with ``--allow-preflight-failures`` only warn."""
    from ..outputs.summary import preflight_failed, preflight_passed

    failed = [c.name for c in checks if not c.passed]
    if not failed:
        if fmt == "text":
            say(preflight_passed(pdf, profile, [c.name for c in checks if c.warning]))
        return
    message = preflight_failed(pdf, failed, profile, again)
    if allow_failures:
        warn(f"warning: {message}")
        return
    if fmt == "json":
        click.get_current_context().meta.pop(REPORT)()
    raise CheckFailed(message)


def _page_count(pdf: Path) -> int:
    """The pages of the PDF an export wrote (pikepdf reads only the page tree)."""
    import pikepdf

    with pikepdf.open(pdf) as doc:
        return len(doc.pages)


def _override_profile(profile: Any, page: str | None, landscape: bool | None, columns: int | None, copies: int | None,
                      fill: bool | None) -> Any:
    """``profile`` with the sheet keys given on the command line replaced (raises BadParameter)."""
    from dataclasses import replace

    changes: dict[str, Any] = {k: v for k, v in (("columns", columns), ("copies", copies), ("fill", fill)) if v is not None}
    if page is not None or landscape:
        try:
            changes["page"] = parse_page(page, landscape=bool(landscape)) if page is not None else \
                (max(profile.page), min(profile.page))
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="'--page'") from None
    return replace(profile, **changes) if changes else profile


@cli.command("preflight")
@click.argument("pdf", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--profile", "profile_name", default="print-shop", show_default=True, metavar="NAME", shell_complete=complete_profile,
              help="The profile to check against.")
@click.option("--profiles", "profiles_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="YAML file adding or overriding profiles.")
@click.option("--size", type=LENGTH, default=None, help="Expected token trim (single-page profiles), e.g. 1in.")
@click.option("--page", default=None, metavar="NAME|WxH", help="Expected sheet page, overriding the profile's (as export --page).")
@click.option("--landscape", is_flag=True, default=None, help="Expect the profile's page sideways (as export --landscape).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True, help="Report format.")
@preflight_limits
def preflight_command(pdf: Path, profile_name: str, profiles_file: Path | None, size: float | None, fmt: str,
                      limits: Any, page: str | None = None, landscape: bool | None = None) -> None:
    """Check PDF the way a print shop would, before you upload it.

    Exit 0 when every check passes, 1 when any fails, 2 when the file cannot be read.

    \b
    Examples:
      tokengen preflight out/shop/meatshields-print-shop.pdf
      tokengen preflight out/cards/meatshields-single-pages.pdf --profile single-pages --size 1in
      tokengen preflight sheet.pdf --profile eu-3mm --format json
      tokengen preflight out/big/meatshields-print-shop.pdf --page tabloid
    """

    from ..preflight.checks import preflight
    from ..sources.profiles import get_profile

    profile = _override_profile(get_profile(profile_name, profiles_file), page, landscape, None, None, None)
    with step(f"preflight of {pdf}"):
        checks = preflight(pdf, profile, size=size, limits=limits)
    failed = [c for c in checks if not c.passed]
    if fmt == "json":
        _echo_json({"file": str(pdf), "profile": profile.name, "passed": not failed,
                    "checks": [c.to_dict() for c in checks]}, command="preflight")
    else:
        from ..outputs.summary import preflight_lines

        for line in preflight_lines(checks):
            say(line)
        say(f"{pdf}: {len(checks) - len(failed)} of {len(checks)} checks passed (profile {profile.name})")
    if failed:
        raise CheckFailed(f"{pdf}: {len(failed)} of {len(checks)} preflight checks failed ({', '.join(c.name for c in failed)})")
