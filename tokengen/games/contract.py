"""The game contract: what a game module gives tokengen and gets back, owned by no game.

A game module (:class:`GameModule`) is a name, a description and checks; each check is a small
callable with one signature, ``(catalogue, settings) -> list[Finding]`` (:data:`Check`), given
the generic :class:`Settings` (the sheet: page, margin, token size). ``tokengen check`` collects
the findings in a :class:`Report`. A game with rules of its own (Meatshields: variants and
readings) extends :class:`Settings` and :class:`Report` in its own package; a second game needs
nothing but this module.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from dataclasses import field as _field
from pathlib import Path
from typing import Any, Protocol

from ..errors import CatalogueError
from ..geometry.sizing import Asked, token_size
from ..model import Catalogue
from ..units import PAGES, counted

ERROR, WARNING, INFO = "error", "warning", "info"
SEVERITIES = (ERROR, WARNING, INFO)
#: The codes of findings about a catalogue's own ``rules:`` and ``odds:`` entries, written in a
#: report as ``file:line: rules[2]: message`` (:mod:`tokengen.games.declared`).
DECLARED_CODES = ("rule", "odds")


@dataclass(frozen=True)
class Finding:
    """One result of a check.

    Attributes:
        severity: ``"error"`` (the set cannot be played or printed), ``"warning"`` or ``"info"``.
        code: a stable identifier such as ``bag-too-small`` (scripts match on it).
        message: one sentence for people.
        line: 1-based line in the catalogue, when the finding has a place.
        field: dotted field path (``tokens[3].back``), when it has one.
        data: JSON-ready details (numbers, names, exact fractions as ``"p/q"`` strings).
        file: the file ``line`` and ``field`` are in when it is not the catalogue (the tokens'
            spreadsheet: ``tokens.csv``, line = its row, field = ``id (column A)``).
    """

    severity: str
    code: str
    message: str
    line: int | None = None
    field: str | None = None
    data: dict[str, Any] = _field(default_factory=dict, compare=False, hash=False)
    file: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """Stable JSON keys: severity, code, message, line, field, data; and ``file`` when the
        finding is in a file other than the catalogue."""
        out = {"severity": self.severity, "code": self.code, "message": self.message,
               "line": self.line, "field": self.field, "data": self.data}
        return out | ({"file": self.file} if self.file else {})


def finding_from_error(error: CatalogueError, code: str, catalogue: Path | None = None) -> Finding:
    """The error finding ``code`` for ``error``, in its own file when that is not ``catalogue``."""
    elsewhere = catalogue is not None and error.path != str(catalogue)
    return Finding(ERROR, code, error.message, error.line, error.field, file=error.path if elsewhere else None)


@dataclass(frozen=True)
class Settings:
    """The sheet a catalogue is checked against: ``page`` (width, height) and ``margin`` in pt,
    and the token ``size`` (pt, or an asked width × height; None: the catalogue's own)."""

    page: tuple[float, float] = PAGES["letter"]
    margin: float = 18.0
    size: Asked | None = None

    def token_size(self, catalogue: Catalogue) -> float:
        """The token trim size to check, pt: the width of the token's box, as a build lays it out,
        settled by :func:`tokengen.geometry.sizing.token_size` as ``build --size`` settles it (a
        flat hex given across its flats is wider, see :func:`tokengen.geometry.shapes.box_width`).

        Raises:
            UsageError: ``size`` is below the smallest token size (0.125in), with build's message.
        """
        return token_size(catalogue.size, self.size, None, catalogue.shape, base_height=catalogue.height)


#: A check: ``(catalogue, settings) -> list[Finding]``.
Check = Callable[[Catalogue, Settings], list[Finding]]


class Readings(Protocol):
    """A game's readings of rules its text leaves open (Meatshields' interpretations), as a
    report lists them."""

    def as_dict(self) -> dict[str, str]:
        """Reading name → the option in play."""

    def in_play(self, wounds: int | None = None) -> list[dict[str, Any]]:
        """One item per reading: ``name``, ``switch`` (``--ties``), ``value``, ``meaning`` and
        ``options`` (a list of str)."""


#: A game's readings hook: given the sheet settings and the reading switches (name → option, None
#: when not given), the settings its checks get and the readings its report lists.
WithReadings = Callable[[Settings, Mapping[str, str | None] | None], tuple[Settings, Readings]]


@dataclass(frozen=True)
class GameModule:
    """A game's checks: ``name`` as catalogues write it after ``game:``, a one-line
    ``description``, and ``checks`` run in order after the generic ones, each a :data:`Check`.
    ``check_file`` (optional) replaces the whole check for catalogues in the game's own format
    (the Meatshields YAML), given the path, settings and the variant options ``add``/``remove``,
    returning a :class:`Report`; a module with ``check_file`` and no ``checks`` checks only its
    own format. ``readings``: the game is played with the Meatshield interpretations
    (``--one-sided``, ``--ties``, …), which its reports then list and ``check`` then accepts;
    ``with_readings`` (a :data:`WithReadings`) chooses them, and when left out the Meatshields
    module's own is used."""

    name: str
    description: str
    checks: tuple[Check, ...] = ()
    check_file: Callable[..., Report] | None = None
    readings: bool = False
    with_readings: WithReadings | None = None


@dataclass(frozen=True)
class Report:
    """The outcome of ``tokengen check``: the catalogue's ``path`` and the ``findings`` in order
    (input problems first, then the checks). A game adds what its own report says in a subclass
    (:meth:`as_dict`, :meth:`text_lines`)."""

    path: Path
    findings: tuple[Finding, ...]

    @property
    def playable(self) -> bool:
        """True when no finding is an error."""
        return not any(f.severity == ERROR for f in self.findings)

    @property
    def exit_code(self) -> int:
        """0 when playable, 1 when not."""
        return 0 if self.playable else 1

    def counts(self) -> dict[str, int]:
        """Number of findings per severity: ``{"error": n, "warning": n, "info": n}``."""
        return {s: sum(f.severity == s for f in self.findings) for s in SEVERITIES}

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready, stable keys: catalogue, playable, counts, findings (each :meth:`Finding.as_dict`)."""
        return {"catalogue": str(self.path), "playable": self.playable, "counts": self.counts(),
                "findings": [f.as_dict() for f in self.findings]}

    def verdict(self) -> str:
        """The first line of the text report: ``PATH: playable (0 errors, 1 warning, 2 infos)``."""
        c = self.counts()
        return f"{self.path}: {'playable' if self.playable else 'NOT playable'} ({', '.join(counted(c[s], s) for s in SEVERITIES)})"

    def finding_line(self, f: Finding) -> str:
        """One finding as text: ``file:line: severity code: field: message``; a declared rule or
        odd (codes ``rule`` and ``odds`` with a line) as ``file:line: rules[2]: message``."""
        file = f.file or self.path
        where = f"{file}:{f.line}" if f.line else str(file)
        if f.code in DECLARED_CODES and f.line and f.field:
            return f"{where}: {f.field}: {f.message}"
        what = f"{f.field}: {f.message}" if f.field and f.line else f.message
        return f"{where}: {f.severity} {f.code}: {what}"

    def text_lines(self) -> list[str]:
        """The report as lines of text: the verdict, then one line per finding."""
        return [self.verdict(), *(self.finding_line(f) for f in self.findings)]


def reading_lines(readings: Readings, wounds: int | None = None) -> list[str]:
    """The readings in play as text: ``interpretations:``, then one line per reading with its
    meaning and the other options."""
    out = ["interpretations:"]
    for item in readings.in_play(wounds):
        others = [o for o in item["options"] if o != item["value"]]
        out.append(f"  {item['switch'][2:]}={item['value']}: {item['meaning']} (other: {', '.join(others)})")
    return out
