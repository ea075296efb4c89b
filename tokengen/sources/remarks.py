"""Warnings about a catalogue that reading it finds, each at its place (:class:`~tokengen.model.Remark`):
what builds as written but surely not as meant. ``build`` and ``export`` print them with the
catalogue's other warnings, ``tokengen check`` reports them as findings.

* ``unmatched-condition``: a template element's ``when:`` (or ``unless:``) that holds on no token
  using that template, usually a value spelt unlike the column's (``when: {kind: orc}`` where the
  tokens say ``Orc``): ``cat.yaml:12: template[3].when: matches no token (kind is never 'orc'; it
  holds Orc, Goblin)``.
* ``icon-as-text``: a one-line text holding ``:name:`` of one of the catalogue's icons, which it
  prints as written (icons are drawn only in a boxed text).

Each is one remark per template element, whatever the number of tokens.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from ..errors import CatalogueError
from ..model import Colour, Remark, Token
from . import markup
from .template import ROW, Clause, Condition, Element, Face, Pick, Template, format_value, line_text, placeholders, templates_of

#: At most this many of a field's values are listed in a message, then ``and N more``.
SHOWN_VALUES = 6


def unmatched_conditions(sides: Sequence[Face], tokens: Sequence[Token]) -> list[Remark]:
    """A remark for each element of the ``sides`` (the face, the back) whose ``when:`` or
    ``unless:`` holds on none of the ``tokens`` drawn with its template (each token's field
    values, as the catalogue settled them). An element drawn from no token's template (a layout
    no token chooses) is left alone. A catalogue without conditions costs no pass over its tokens.

    Each condition is tried once per token of its template, stopping at the first that it holds
    on; the reason is worked out only for a condition that holds on none.
    """
    conditional = [(template, element) for face in sides for template in templates_of(face) for element in template.every()
                   if (element.when is not None or element.unless is not None) and template.source]
    if not conditional:
        return []
    rows = [{ROW: n + 1, **dict(t.values)} for n, t in enumerate(tokens)]  # a condition on row: the token's number
    users = _users(sides, rows)
    elements: dict[int, tuple[Template, Element, list[dict[str, Any]]]] = {}  # an element shared by layouts: once
    for template, element in conditional:
        held = elements.setdefault(id(element), (template, element, []))[2]
        held += users.get(id(template), [])
    return [remark for template, element, held in elements.values() for remark in _unmatched(template, element, held)]


def _users(sides: Sequence[Face], rows: list[dict[str, Any]]) -> dict[int, list[dict[str, Any]]]:
    """id(template) → the values (``rows``) of the tokens drawn with it, on each of the ``sides``."""
    users: dict[int, list[dict[str, Any]]] = {}
    for face in sides:
        for values in rows:
            template = face.choose(values, _never) if isinstance(face, Pick) else face
            users.setdefault(id(template), []).append(values)
    return users


def _unmatched(template: Template, element: Element, held: list[dict[str, Any]]) -> list[Remark]:
    """A remark for ``element``'s ``when`` and for its ``unless`` if it holds on none of the
    tokens' values ``held`` (none when no token is drawn with it)."""
    found = []
    for key, condition in (("when", element.when), ("unless", element.unless)):
        if condition is not None and held and not any(condition.holds(values) for values in held):
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


def icons_as_text(tokens: Sequence[Token], icons: Collection[str]) -> list[Remark]:
    """A remark for each one-line ``text`` or ``glyph`` (no ``box``) of the tokens' faces and
    backs that holds ``:name:`` of one of the catalogue's ``icons``: one line prints it as
    written; a boxed text draws the icon. Once per element (its first token names a value from a
    field); a template that reads no field is looked at once."""
    if not icons:
        return []
    found: dict[tuple[str, int | None, str], Remark] = {}
    seen: set[int] = set()  # templates reading no field, looked at once
    for token in tokens:
        values = dict(token.values)
        for template in _looked_at(token, seen):
            for element in template.elements:
                key = (template.source, element.line, element.where)
                if element.kind in ("text", "glyph") and not element.boxed and key not in found:
                    remark = _icon_remark(template, element, token, values, icons)
                    if remark is not None:
                        found[key] = remark
    return sorted(found.values(), key=lambda r: (r.file, r.line or 0))  # in the file's order, not the tokens'


def _looked_at(token: Token, seen: set[int]) -> list[Template]:
    """The templates of ``token``'s face and back to look at: each not in ``seen`` (by id), which
    then gets those that read no field (they look the same on every token)."""
    out = []
    for template in (token.template, token.back.template):
        if template is None or id(template) in seen:
            continue
        if not template.fields():
            seen.add(id(template))
        out.append(template)
    return out


def _icon_remark(template: Template, element: Element, token: Token, values: dict[str, Any], icons: Collection[str]) -> Remark | None:
    """The remark for a one-line ``element`` whose text on ``token`` holds one of ``icons``
    (naming the token and field when a field's value brought it), else None."""
    text = line_text(element, values)
    name = next((n for n in markup.icon_words(text) if n in icons), None) if ":" in text else None
    if name is None:
        return None
    word = f":{name}:"
    source = "" if word in element.content else next(
        (f" (token {token.id}'s {f})" for f in placeholders(element.content) if word in format_value(values.get(f))), "")
    return Remark("icon-as-text", f"'{word}'{source} prints as written: a one-line text draws no icons; "
                  "give it box: [x, y, w, h] to draw the icon in a boxed text",
                  template.source or template.name, element.line, f"{element.where}.{element.kind}")
