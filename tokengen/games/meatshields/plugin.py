"""The Meatshields game module: the rules engine's checks (:mod:`tokengen.games.meatshields.rules`) of a catalogue
in the Meatshields format, registered under the ``tokengen.games`` entry point ``meatshields``.
A catalogue with declared fields cannot name it (it has no attributes, priorities or targeting
to check)."""

from __future__ import annotations

from ..registry import GameModule
from .rules import checks as _checks

MODULE = GameModule(
    name="meatshields",
    description="Meatshields for Dungeon Degenerates: Hand of Doom (bag size, draws, targeting coverage, costs)",
    check_file=_checks.check_catalogue,  # its checks need its own format (attributes, priorities, targeting)
    readings=True,
)
