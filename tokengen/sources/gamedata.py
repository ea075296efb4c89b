"""The game numbers a catalogue may leave out, read from ``tokengen/data/game_defaults.yaml``.

That file gives each number its value and its source (the Meatshields variant's section, or an
assumption and what it rests on), so no game number lives in Python. The catalogue loader takes
a number from here only when the catalogue's ``game`` section does not state it.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from . import schemas
from .yamlsrc import read_yaml


def defaults_path() -> Path:
    """The package's ``data/game_defaults.yaml``."""
    return Path(str(resources.files("tokengen").joinpath("data/game_defaults.yaml")))


@cache
def _table() -> dict[str, dict[str, dict[str, Any]]]:
    path = defaults_path()
    data, lines = read_yaml(path, ("game_defaults",))
    schemas.check(path, data, lines, "game_defaults")
    return data


def default(group: str, name: str) -> Any:
    """The value of ``game.<group>.<name>`` when a catalogue leaves it out (lists as tuples).

    Raises:
        KeyError: the defaults file has no such number (a bug, not bad input).
    """
    value = _table()[group][name]["value"]
    return tuple(value) if isinstance(value, list) else value


def source(group: str, name: str) -> str:
    """Where the default of ``game.<group>.<name>`` comes from, in words."""
    return str(_table()[group][name]["source"])


def names() -> list[tuple[str, str]]:
    """Every (group, name) the defaults file holds, in file order."""
    return [(group, name) for group, numbers in _table().items() for name in numbers]
