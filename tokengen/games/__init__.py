"""Game modules: the registry (:mod:`.registry`), the generic checks every catalogue gets
(:mod:`.generic`) and tokengen's own first game (:mod:`.meatshields`).

Nothing is imported here, so importing a game's small parts (the Meatshield readings for the
command line's options) stays cheap. ``GameModule``, ``modules``, ``check_catalogue`` and
``format_report`` are loaded from :mod:`.registry` on first use (PEP 562).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_REGISTRY = ("GameModule", "modules", "check_catalogue", "format_report", "GROUP")


def __getattr__(name: str) -> Any:
    if name in _REGISTRY:
        return getattr(importlib.import_module(".registry", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if TYPE_CHECKING:
    from .registry import GROUP as GROUP
    from .registry import GameModule as GameModule
    from .registry import check_catalogue as check_catalogue
    from .registry import format_report as format_report
    from .registry import modules as modules
