"""The Meatshields fan variant for *Dungeon Degenerates: Hand of Doom*: its rules engine
(:mod:`.rules`), the open rule questions (:mod:`.interpretations`), the rules sheet
(:mod:`.rulesheet`) and the game module registered as ``tokengen.games`` entry point
``meatshields`` (:data:`MODULE`, from :mod:`.plugin`, loaded on first use so the readings stay
cheap to import)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any


def __getattr__(name: str) -> Any:
    if name == "MODULE":
        from .plugin import MODULE as MODULE

        return MODULE
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if TYPE_CHECKING:
    from .plugin import MODULE as MODULE
