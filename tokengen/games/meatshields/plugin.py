"""The Meatshields game module: the rules engine's checks (:mod:`tokengen.games.meatshields.rules`) of a catalogue
in the Meatshields format, registered under the ``tokengen.games`` entry point ``meatshields``.
A catalogue with declared fields cannot name it (it has no attributes, priorities or targeting
to check)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from ..contract import GameModule, Settings
from .rules import checks as _checks
from .rules.targeting import Interpretations


def with_readings(settings: Settings, readings: Mapping[str, str | None] | None) -> tuple[Settings, Interpretations]:
    """The Meatshield readings chosen by the switches ``readings`` (defaults for the rest) for a
    game that plays by them, and the settings its checks get (:class:`.rules.checks.Settings`
    with those interpretations, unless ``settings`` carries its own)."""
    own = settings.interpretations if isinstance(settings, _checks.Settings) else None
    chosen = own or Interpretations.chosen(readings)
    sheet = settings if isinstance(settings, _checks.Settings) else _checks.Settings(settings.page, settings.margin, settings.size)
    return replace(sheet, interpretations=chosen), chosen


MODULE = GameModule(
    name="meatshields",
    description="Meatshields for Dungeon Degenerates: Hand of Doom (bag size, draws, targeting coverage, costs)",
    check_file=_checks.check_catalogue,  # its checks need its own format (attributes, priorities, targeting)
    readings=True,
    with_readings=with_readings,
)
