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
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import Any

from ..errors import CatalogueError, GameModuleError, UsageError
from ..faces.art import art_named
from ..model import Catalogue
from ..sources import bundled
from ..sources.catalogue import declares_fields, line_at, suggest, validate_schema
from ..sources.yamlsrc import Lines, read_yaml
from .contract import ERROR, Check, Finding, GameModule, Readings, Report, Settings, WithReadings, finding_from_error, reading_lines

__all__ = ["GROUP", "BUILT_IN", "Check", "GameModule", "GameReport", "check_catalogue", "format_report", "modules", "skipped"]

#: The entry point group game modules register in.
GROUP = "tokengen.games"

#: tokengen's own game modules, as its ``pyproject.toml`` registers them: loaded from here when
#: the package's metadata is not installed (a source checkout on ``sys.path``).
BUILT_IN = {"meatshields": "tokengen.games.meatshields:MODULE"}


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
    points = list(entry_points(group=GROUP))
    points += [_built_in(name) for name in BUILT_IN if name not in {p.name for p in points}]
    for point in points:
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


def _built_in(name: str) -> EntryPoint:
    """The entry point of tokengen's own game module ``name`` (:data:`BUILT_IN`)."""
    return EntryPoint(name, BUILT_IN[name], GROUP)


def _with_readings(module: GameModule) -> WithReadings:
    """How ``module`` chooses its readings: its own :attr:`GameModule.with_readings`, else the
    Meatshields module's (the readings are Meatshields'), found as a plug-in like any other."""
    if module.with_readings is not None:
        return module.with_readings
    meatshields = next(iter(entry_points(group=GROUP, name="meatshields")), None) or _built_in("meatshields")
    hook = getattr(meatshields.load(), "with_readings", None)
    if hook is None:
        raise GameModuleError(f"game module '{module.name}' plays by the Meatshield readings, "
                              "and the meatshields module that chooses them is not installed")
    return hook


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
    read = _read_catalogue(path)
    if isinstance(read, GameReport):
        return read
    data, lines = read
    if not declares_fields(data):
        return _meatshields_file(path)(path, settings, add=add, remove=remove, readings=readings)
    name = data.get("game", "generic")
    module = modules().get(name) if isinstance(name, str) else None
    takes = module is not None and module.readings
    _refuse_meatshield_options(path, name, takes, add, remove, readings)
    chosen: Readings | None = None
    if module is not None and takes:
        settings, chosen = _with_readings(module)(settings, readings)

    def report(*findings: Finding, game: str = "generic", readings: bool = False) -> GameReport:
        return GameReport(path, findings, game=game, readings=chosen if readings else None)

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
    checks = _checks_for(catalogue.module, module, lines)
    if isinstance(checks, Finding):
        return report(checks)
    with art_named(catalogue):  # an icon or picture that cannot be read: named where the catalogue names it
        found = [f for check in checks for f in _run_check(catalogue.module, check, catalogue, settings)]
    return report(*found, game=catalogue.module, readings=takes)


def _read_catalogue(path: Path) -> tuple[Any, Lines] | GameReport:
    """The catalogue's YAML and its lines; a list or mapping past its schema's length is a schema
    finding, reported as before the reader bounded it.

    Raises:
        CatalogueError: the file cannot be read as YAML.
    """
    try:
        return read_yaml(path, ("catalogue", "catalogue-fields"))
    except CatalogueError as exc:  # a list or mapping past its schema's length: a schema finding, as before the reader bounded it
        if not exc.message.startswith("has more than "):
            raise
        long = Finding(ERROR, "schema", exc.message, exc.line, exc.field)
        return GameReport(path, (long,))


def _meatshields_file(path: Path) -> Any:
    """The Meatshields game module's check of a catalogue in its own format.

    Raises:
        GameModuleError: that module is not loaded (with why, when it was skipped).
    """
    meatshields = modules().get("meatshields")
    if meatshields is None or meatshields.check_file is None:
        raise GameModuleError(f"{path}: a Meatshields catalogue, and the meatshields game module that checks it "
                              f"is not loaded{''.join('; ' + line for line in skipped())}")
    return meatshields.check_file


def _checks_for(game: str, module: GameModule | None, lines: Lines) -> list[Check] | Finding:
    """The checks a catalogue with declared fields gets: the generic ones, then its game
    module's; or the finding that says why its game cannot check it (no such module, or one
    that checks only its own format)."""
    from .generic import CHECKS as GENERIC

    checks: list[Check] = list(GENERIC)
    if game != "generic":
        if module is None:
            known = sorted(modules())
            hint = suggest(game, known) or f" (installed: {', '.join(known) or 'none'})"
            return Finding(ERROR, "unknown-game", f"no game module '{game}' is installed{hint}",
                           line_at(lines, ("game",)), "game")
        if module.check_file is not None and not module.checks:
            return Finding(ERROR, "game-format", f"the {game} game module checks only catalogues in its own "
                           "format, not one that declares its fields; leave out game: for the generic checks",
                           line_at(lines, ("game",)), "game")
        checks += list(module.checks)
    return checks


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
    whose checks ran after the generic ones (``generic``: none); ``readings`` holds the
    Meatshield interpretations when that game plays by them (:attr:`GameModule.readings`),
    which the report then lists, else None."""

    game: str = "generic"
    readings: Readings | None = None

    def as_dict(self) -> dict[str, Any]:
        """As :meth:`Report.as_dict` with ``game`` after ``counts``; ``interpretations`` and
        ``interpretations_in_play`` after it only when the game takes the readings."""
        data = super().as_dict()
        head = {k: data[k] for k in ("catalogue", "playable", "counts")} | {"game": self.game}
        if self.readings is not None:
            head |= {"interpretations": self.readings.as_dict(), "interpretations_in_play": self.readings.in_play(None)}
        return head | {"findings": data["findings"]}

    def text_lines(self) -> list[str]:
        """The verdict line, the game, the interpretations when the game takes them, and one line
        per finding (``file:line: severity code: field: message``)."""
        out = [self.verdict(), f"checks: generic{'' if self.game == 'generic' else ' + ' + self.game}"]
        if self.readings is not None:
            out += reading_lines(self.readings)
        return out + [self.finding_line(f) for f in self.findings]


def format_report(report: Report) -> str:
    """The report as text (:meth:`Report.text_lines`): a Meatshields report has its variants,
    interpretations and draw-odds table; any other game's is the verdict line, the game, the
    interpretations when the game takes them, and one line per finding
    (``file:line: severity code: field: message``)."""
    return "\n".join(report.text_lines()) + "\n"
