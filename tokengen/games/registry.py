"""Game modules: the checks ``tokengen check`` runs on a catalogue, per game.

Every catalogue gets the generic checks (:mod:`.generic`: the token fits the sheet, face text
is legible, ids are unique, and every back is the same when ``drawn_blind: true``). A catalogue
naming a game (``game: meatshields``; the Meatshields catalogue's ``game:`` mapping names it
implicitly) also gets that game's checks. Games register themselves through the Python entry
point group ``tokengen.games``: a package adds, in its ``pyproject.toml``::

    [project.entry-points."tokengen.games"]
    mygame = "mygame.tokengen_checks:MODULE"

where ``MODULE`` is a :class:`GameModule`. tokengen's own Meatshields module is registered the
same way (see this project's ``pyproject.toml``), so a game is added without editing tokengen.

The Meatshield readings (the variants in play and the interpretations ``--one-sided``, ``--ties``,
``--same-target``, ``--damage``, ``--small-bag``) belong to the Meatshields rules: a report lists
them, and ``check`` accepts their switches, only for a Meatshields catalogue or a game module
whose ``readings`` says it plays by them. Any other report speaks of its game's checks alone.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from ..errors import CatalogueError, GameModuleError, UsageError
from ..model import Catalogue
from ..sources import bundled
from ..sources.bundled import shown
from ..sources.catalogue import declares_fields, line_at, suggest, validate_schema
from ..sources.yamlsrc import read_yaml
from ..units import counted
from .meatshields.rules.checks import ERROR, Finding, Report, Settings, finding_from_error
from .meatshields.rules.targeting import Interpretations

#: The entry point group game modules register in.
GROUP = "tokengen.games"

Check = Callable[[Catalogue, Settings], list[Finding]]


@dataclass(frozen=True)
class GameModule:
    """A game's checks: ``name`` as catalogues write it after ``game:``, a one-line
    ``description``, and ``checks`` run in order after the generic ones, each
    ``(catalogue, settings) -> list[Finding]``. ``check_file`` (optional) replaces the whole
    check for catalogues in the game's own format (the Meatshields YAML), given the path,
    settings and the variant options ``add``/``remove``, returning a :class:`Report`; a module
    with ``check_file`` and no ``checks`` checks only its own format. ``readings``: the game is
    played with the Meatshield interpretations (``--one-sided``, ``--ties``, …), which its
    reports then list and ``check`` then accepts."""

    name: str
    description: str
    checks: tuple[Check, ...] = ()
    check_file: Callable[..., Report] | None = None
    readings: bool = False


#: One line per entry point :func:`modules` left out, filled as it loads them.
_SKIPPED: list[str] = []


@cache
def modules() -> dict[str, GameModule]:
    """The registered game modules by name (entry point group :data:`GROUP`), loaded once.

    A module that fails to load (raises anything on import, ``SystemExit`` and a
    ``KeyboardInterrupt`` of its own included, or is not a :class:`GameModule`) is left out and
    named in :func:`skipped`, so one broken plug-in does not stop tokengen. A Ctrl-C pressed
    while the modules load still interrupts.
    """
    found: dict[str, GameModule] = {}
    _SKIPPED.clear()
    for point in entry_points(group=GROUP):
        try:
            with _own_interrupts() as interrupted:
                module = point.load()
        except KeyboardInterrupt:
            if interrupted:  # the user pressed Ctrl-C while it loaded: stop, as anywhere else
                raise
            _SKIPPED.append(_skip_line(point.name, point.value, "raised KeyboardInterrupt"))
            continue
        except SystemExit as exc:  # a plug-in calling sys.exit() on import must not end tokengen
            _SKIPPED.append(_skip_line(point.name, point.value, f"called sys.exit({exc.code!r})"))
            continue
        except Exception as exc:  # a broken plug-in: named, skipped, reported as an unknown game when named
            _SKIPPED.append(_skip_line(point.name, point.value, f"raised {type(exc).__name__}: {_short(exc)}"))
            continue
        if isinstance(module, GameModule):
            found[point.name] = module
        else:
            _SKIPPED.append(_skip_line(point.name, point.value, f"gave a {type(module).__name__}, not a GameModule"))
    return found


def skipped() -> tuple[str, ...]:
    """One line per game module :func:`modules` left out (``game module 'NAME' (module:ATTR)
    skipped: it … when loaded``), for the front ends to print as warnings."""
    modules()
    return tuple(_SKIPPED)


def _skip_line(name: str, value: str, what: str) -> str:
    return f"game module '{name}' ({value}) skipped: it {what} when loaded"


def _short(exc: BaseException) -> str:
    from ..sources.yamlsrc import one_line

    text = one_line(str(exc))
    return text if len(text) <= 200 else text[:199] + "…"


@contextmanager
def _own_interrupts() -> Iterator[list[bool]]:
    """Within the block, a real Ctrl-C (SIGINT) sets the yielded list's first item before it
    raises ``KeyboardInterrupt``, telling it from a ``KeyboardInterrupt`` a module raises itself.
    Outside the main thread (signals cannot be caught there) the list stays empty."""
    flag: list[bool] = []
    if threading.current_thread() is not threading.main_thread():
        yield flag
        return
    previous = signal.getsignal(signal.SIGINT)

    def interrupted(signum: int, frame: Any) -> None:
        flag.append(True)
        raise KeyboardInterrupt

    try:
        signal.signal(signal.SIGINT, interrupted)
    except ValueError:  # not the main interpreter
        yield flag
        return
    try:
        yield flag
    finally:
        signal.signal(signal.SIGINT, previous)


def _run_check(game: str, check: Check, catalogue: Catalogue, settings: Settings) -> list[Finding]:
    """``check(catalogue, settings)`` as a list of findings.

    Raises:
        GameModuleError: the check returned something other than a list (or tuple) of
            :class:`Finding` (``None``, a finding alone, …): the game module's fault, named.
    """
    result = check(catalogue, settings)
    name = getattr(check, "__qualname__", repr(check))
    where = getattr(check, "__module__", None)
    named = f"{where}.{name}" if where else name
    if not isinstance(result, (list, tuple)):
        raise GameModuleError(f"game module '{game}': its check {named} returned {type(result).__name__}, "
                              "not a list of findings (a fault in that module, not in the catalogue or tokengen)")
    wrong = next((f for f in result if not isinstance(f, Finding)), None)
    if wrong is not None:
        raise GameModuleError(f"game module '{game}': its check {named} returned a {type(wrong).__name__} among its findings, "
                              "not a Finding (a fault in that module, not in the catalogue or tokengen)")
    return list(result)


def check_catalogue(path: str | Path, settings: Settings = Settings(), *, add: Iterable[str] = (),
                    remove: Iterable[str] = (), readings: Mapping[str, str | None] | None = None) -> Report:
    """Check any catalogue: the Meatshields format through its game module's own check; a
    catalogue with declared fields through the generic checks, then its game's checks.

    Raises:
        CatalogueError: the file cannot be read as YAML.
        UsageError: an unknown variant in ``add`` or ``remove`` (Meatshields); a variant or an
            interpretation for a catalogue with declared fields whose game has no such thing; a
            ``settings.size`` below the smallest token size (as ``build --size`` refuses it).
    """
    path = Path(path)
    bundled.require(path)  # a missing file: say both ways to get a catalogue
    data, lines = read_yaml(path)
    if not declares_fields(data):
        meatshields = modules().get("meatshields")
        if meatshields is None or meatshields.check_file is None:  # not installed as a package: the engine itself
            from .meatshields.rules import check_catalogue as rules_check

            return rules_check(path, settings, add=add, remove=remove, readings=readings)
        return meatshields.check_file(path, settings, add=add, remove=remove, readings=readings)
    name = data.get("game", "generic")
    module = modules().get(name) if isinstance(name, str) else None
    takes = module is not None and module.readings
    _refuse_meatshield_options(path, name, takes, add, remove, readings)
    interpretations = settings.interpretations or Interpretations.chosen(readings if takes else None)
    settings = replace(settings, interpretations=interpretations)

    def report(*findings: Finding, game: str = "generic", readings: bool = False) -> GameReport:
        return GameReport(path, (), interpretations, findings, game=game, readings=readings)

    findings = [Finding(ERROR, "schema", e.message, e.line, e.field) for e in validate_schema(path, data, lines)]
    if findings:
        return report(*findings)
    from ..sources.catalogue import catalogue_from_data

    try:
        catalogue = catalogue_from_data(path, data, lines)
    except CatalogueError as exc:
        code = "duplicate-id" if exc.message.startswith("duplicate id") else "catalogue"
        return report(finding_from_error(exc, code, path))
    settings.token_size(catalogue)  # a --size build refuses is refused here, before any check runs
    from .generic import CHECKS as GENERIC

    checks: list[Check] = list(GENERIC)
    if catalogue.module != "generic":
        if module is None:
            known = sorted(modules())
            hint = suggest(catalogue.module, known) or f" (installed: {', '.join(known) or 'none'})"
            return report(Finding(ERROR, "unknown-game", f"no game module '{catalogue.module}' is installed{hint}",
                                  line_at(lines, ("game",)), "game"))
        if module.check_file is not None and not module.checks:
            return report(Finding(ERROR, "game-format", f"the {catalogue.module} game module checks only catalogues in its own "
                                  "format, not one that declares its fields; leave out game: for the generic checks",
                                  line_at(lines, ("game",)), "game"))
        checks += list(module.checks)
    return report(*(f for check in checks for f in _run_check(catalogue.module, check, catalogue, settings)),
                  game=catalogue.module, readings=takes)


def _refuse_meatshield_options(path: Path, game: str, takes: bool, add: Iterable[str], remove: Iterable[str],
                               readings: Mapping[str, str | None] | None) -> None:
    """Refuse the variant and interpretation switches for a catalogue with declared fields: its
    game has no variants (those live in a Meatshields catalogue's ``game:`` section) and, unless
    its module takes them (``readings``), no interpretations either."""
    given = [f"--variant {v}" for v in add] + [f"--no-variant {v}" for v in remove]
    if not takes:
        given += [f"--{k.replace('_', '-')}" for k, v in (readings or {}).items() if v is not None]
    if given:
        rules = "has no variants" if takes else "has no variants or interpretations"
        raise UsageError(f"{', '.join(given)}: Meatshields rules; {path} declares its own fields "
                         f"for game '{game}', which {rules}")


@dataclass(frozen=True)
class GameReport(Report):
    """A :class:`Report` of a catalogue with declared fields: ``game`` names the game module
    whose checks ran after the generic ones (``generic``: none); ``readings`` is True when that
    game plays by the Meatshield interpretations (:attr:`GameModule.readings`), which the report
    then lists."""

    game: str = "generic"
    readings: bool = False

    def as_dict(self) -> dict[str, Any]:
        """As :meth:`Report.as_dict` with ``game`` after ``counts`` and no ``variants`` (a
        catalogue with declared fields has none); ``interpretations`` and
        ``interpretations_in_play`` only when the game takes the readings."""
        data = super().as_dict()
        left_out = {"variants"} | (set() if self.readings else {"interpretations", "interpretations_in_play"})
        head = {k: data[k] for k in ("catalogue", "playable", "counts")} | {"game": self.game}
        return head | {k: v for k, v in data.items() if k not in head and k not in left_out}


def format_report(report: Report) -> str:
    """The report as text. A Meatshields report is :func:`tokengen.games.meatshields.rules.format_report`'s (with
    variants and interpretations); any other game's is the verdict line, the game, the
    interpretations when the game takes them, and one line per finding
    (``file:line: severity code: field: message``)."""
    from .meatshields.rules import format_report as rules_format
    from .meatshields.rules.checks import SEVERITIES, reading_lines

    if not isinstance(report, GameReport):
        return rules_format(report)
    c = report.counts()
    tally = ", ".join(counted(c[s], s) for s in SEVERITIES)
    out = [f"{shown(report.path)}: {'playable' if report.playable else 'NOT playable'} ({tally})",
           f"checks: generic{'' if report.game == 'generic' else ' + ' + report.game}"]
    if report.readings:
        out += reading_lines(report)[1:]  # no variants: a catalogue with declared fields has none
    for f in report.findings:
        file = shown(f.file or report.path)  # a bundled catalogue by its name, not the package's folder
        where = f"{file}:{f.line}" if f.line else file
        what = f"{f.field}: {f.message}" if f.field and f.line else f.message
        out.append(f"{where}: {f.severity} {f.code}: {what}")
    return "\n".join(out) + "\n"
