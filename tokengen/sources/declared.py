"""A catalogue's declared rules and odds (``rules:``, ``odds:``) and its fields' declared
choices, read from data the schema passed, with the line of each entry. What they mean is the
games' concern (:mod:`tokengen.games.declared`); here they are only collected."""

from __future__ import annotations

from typing import Any

from ..model import Declared
from .schemas import line_at
from .yamlsrc import Lines


def declared(data: dict[str, Any], lines: Lines) -> tuple[Declared, ...]:
    """The ``rules:`` then ``odds:`` entries of ``data`` (each a mapping the schema checked), in
    order, with each entry's line in the catalogue."""
    return tuple(Declared(section, i, dict(spec), line_at(lines, (section, i)))
                 for section in ("rules", "odds") for i, spec in enumerate(data.get(section) or ()))


def field_choices(fields: dict[str, Any]) -> tuple[tuple[str, tuple[Any, ...]], ...]:
    """The fields that declare ``choices:`` (``{type: text, choices: [red, blue]}``), each with
    its choices in order."""
    return tuple((name, tuple(kind["choices"])) for name, kind in fields.items()
                 if isinstance(kind, dict) and isinstance(kind.get("choices"), list))
