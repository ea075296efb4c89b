"""Warnings about a catalogue that reading it finds, each at its place (:class:`~tokengen.model.Remark`):
what builds as written but surely not as meant. ``build`` and ``export`` print them with the
catalogue's other warnings, ``tokengen check`` reports them as findings.

* ``unmatched-condition``: a template element's ``when:`` (or ``unless:``) that holds on no token
  using that template, usually a value spelt unlike the column's (``when: {kind: orc}`` where the
  tokens say ``Orc``): ``cat.yaml:12: template[3].when: matches no token (kind is never 'orc'; it
  holds Orc, Goblin)``.

Each is one remark per template element, whatever the number of tokens.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import CatalogueError
from ..model import Colour, Remark
from .template import Clause, Condition, Element, Face, Pick, Template, format_value, templates_of

#: At most this many of a field's values are listed in a message, then ``and N more``.
SHOWN_VALUES = 6


def unmatched_conditions(sides: Sequence[Face], rows: Sequence[dict[str, Any]]) -> list[Remark]:
    """A remark for each element of the ``sides`` (the face, the back) whose ``when:`` or
    ``unless:`` holds on none of the tokens drawn with its template (``rows``: each token's field
    values, as the catalogue settled them). An element drawn from no token's template (a layout
    no token chooses) is left alone.

    Each condition is tried once per token of its template, stopping at the first that it holds
    on; the reason is worked out only for a condition that holds on none.
    """
    users: dict[int, list[dict[str, Any]]] = {}  # id(template) → the values of the tokens drawn with it
    for face in sides:
        for values in rows:
            template = face.choose(values, _never) if isinstance(face, Pick) else face
            users.setdefault(id(template), []).append(values)
    elements: dict[int, tuple[Template, Element, list[dict[str, Any]]]] = {}  # an element shared by layouts: once
    for face in sides:
        for template in templates_of(face):
            for element in template.elements:
                if (element.when is not None or element.unless is not None) and template.source:
                    held = elements.setdefault(id(element), (template, element, []))[2]
                    held += users.get(id(template), [])
    found = []
    for template, element, held in elements.values():
        for key, condition in (("when", element.when), ("unless", element.unless)):
            if condition is None or not held or any(condition.holds(values) for values in held):
                continue
            found.append(Remark("unmatched-condition", f"matches no token ({_why(condition, held)})",
                                template.source, element.line, f"{element.where}.{key}"))
    return found


def _never(field: str, message: str) -> Exception:
    """The tokens' layouts were chosen once already (:func:`tokengen.sources.template.resolve`): none fails here."""
    return CatalogueError("", message, field=field)


def _why(condition: Condition, rows: list[dict[str, Any]]) -> str:
    """Why ``condition`` holds on none of ``rows``: the first clause that holds on no token and
    what the field holds instead, else the clauses that never hold together."""
    for clause in condition.clauses:
        if not any(clause.holds(values) for values in rows):
            return _clause_why(clause, [values.get(clause.field) for values in rows])
    return f"no token has {' and '.join(_wanted(c) for c in condition.clauses)} at once"


def _clause_why(clause: Clause, held: list[Any]) -> str:
    """``kind is never 'orc'; it holds Orc, Goblin``; ``kind is empty on every token``."""
    if clause.values is None:
        return f"{clause.field} is {'empty' if clause.given else 'given'} on every token"
    wanted = " or ".join(_quoted(v) for v in clause.values)
    given = list(dict.fromkeys(_text(v) for v in held if v is not None and _text(v).strip()))
    if not given:
        return f"{clause.field} is never {wanted}; it is empty on every token"
    shown = ", ".join(given[:SHOWN_VALUES]) + (f" and {len(given) - SHOWN_VALUES} more" if len(given) > SHOWN_VALUES else "")
    empty = ", or is empty" if any(v is None or not _text(v).strip() for v in held) else ""
    return f"{clause.field} is never {wanted}; it holds {shown}{empty}"


def _wanted(clause: Clause) -> str:
    """One clause in a list of them: ``kind 'orc'``, ``rank 'veteran' or 'elite'``, ``art given``."""
    if clause.values is None:
        return f"{clause.field} {'given' if clause.given else 'empty'}"
    return f"{clause.field} {' or '.join(_quoted(v) for v in clause.values)}"


def _quoted(value: Any) -> str:
    """A condition's value as the catalogue wrote it: text quoted (``'orc'``), a number or colour bare."""
    return f"'{value}'" if isinstance(value, str) else _text(value)


def _text(value: Any) -> str:
    """A field value as a message shows it: ``Orc``, ``2``, ``#8a1c1c``; None as ``""``."""
    if isinstance(value, Colour):
        if value.space == "rgb":
            return "#" + "".join(f"{round(v * 255):02x}" for v in value.values)
        return "[" + ", ".join(f"{v:g}" for v in value.values) + "]"
    return format_value(value)
