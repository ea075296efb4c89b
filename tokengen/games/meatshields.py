"""The Meatshields game module: the rules engine's checks (:mod:`tokengen.rules`), registered
under the ``tokengen.games`` entry point ``meatshields``."""

from __future__ import annotations

from ..rules import checks as _checks
from . import GameModule

MODULE = GameModule(
    name="meatshields",
    description="Meatshields for Dungeon Degenerates: Hand of Doom (bag size, draws, targeting coverage, costs)",
    checks=_checks.CHECKS,
    check_file=_checks.check_catalogue,
)
