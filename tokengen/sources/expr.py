"""Computed values in a template's braces: ``{cost + 1}``, ``{name|upper}``, ``{a if b else c}``.

A small grammar of our own (never Python's ``eval``), in order of binding, loosest first::

    expr    := or ["if" or "else" expr]
    or      := and {"or" and}          and := not {"and" not}      not := "not" not | compare
    compare := sum {("==" | "!=" | "<" | "<=" | ">" | ">=") sum}   (chained as in Python)
    sum     := product {("+" | "-") product}
    product := unary {("*" | "/" | "//" | "%") unary}
    unary   := ("-" | "+") unary | filtered
    filtered:= atom {"|" NAME [":" atom]}            (as Jinja: a filter binds to its atom)
    atom    := NUMBER | "TEXT" | 'TEXT' | true | false | NAME | "(" expr ")"

A NAME is a field (letters, digits, ``_``; a ``-`` followed by a letter continues it, as field
names may hold one: write ``{a - b}`` with spaces to subtract). Filters: ``upper``, ``lower``,
``title``, ``trim``, ``len``, ``abs``, ``round[:N]``, ``floor``, ``ceil``, ``pad:N`` (a whole
number with zeros in front to N digits; text with spaces), ``min:X``, ``max:X``, ``default:X``
(X where the value is empty).

Limits, so a catalogue cannot make the reader spin or swell: an expression is at most
:data:`MAX_SOURCE` characters and :data:`MAX_DEPTH` levels deep; there is no power operator;
every number made stays below 10**18 and finite; every text made is at most :data:`MAX_TEXT`
characters (``"*" * 5`` repeats text, within that bound); ``pad`` pads to at most 40.

Errors are :class:`ExprError` (a ``ValueError``) with a message naming what went wrong; the
caller adds the file, line and expression.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache
from typing import Any

#: Longest expression read, characters.
MAX_SOURCE = 400
#: Deepest nesting of an expression (brackets, operators, filters).
MAX_DEPTH = 40
#: Longest text an expression may make, characters (as a text field's value).
MAX_TEXT = 400
#: Numbers made stay below this in size (as a field's numbers: 18 digits).
MAX_NUMBER = 10**18
#: Widest ``pad``.
MAX_PAD = 40


class ExprError(ValueError):
    """An expression that cannot be read, or cannot be worked out with a token's values."""


_TOKEN = re.compile(r"""\s*(?:
    (?P<number>\d+(?:\.\d*)?|\.\d+)
  | (?P<text>"[^"]*"|'[^']*')
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z_][A-Za-z0-9_]*)*)
  | (?P<op>//|==|!=|<=|>=|[-+*/%<>()|:])
)""", re.VERBOSE)
_KEYWORDS = ("and", "or", "not", "if", "else", "true", "false")


@dataclass(frozen=True)
class Node:
    """One node of a parsed expression: ``op`` (``num``, ``text``, ``bool``, ``field``, an operator,
    ``if``, ``filter``, ``neg``, ``not``, ``compare``), its ``value`` (a literal, a field or filter
    name, or the comparison operators) and its ``args`` (sub-nodes)."""

    op: str
    value: Any = None
    args: tuple[Node, ...] = ()


def _lex(source: str) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    at = 0
    while at < len(source):
        if source[at:].strip() == "":
            break
        m = _TOKEN.match(source, at)
        if m is None or m.end() == at:
            raise ExprError(f"cannot read {source[at:].strip()[:20]!r}")
        at = m.end()
        kind = m.lastgroup or ""
        text = m.group(kind)
        if kind == "number":
            out.append(("num", float(text) if "." in text else int(text)))
        elif kind == "text":
            out.append(("text", text[1:-1]))
        elif kind == "name" and text in _KEYWORDS:
            out.append(("kw", text))
        else:
            out.append((kind, text))
    return out


class _Reader:
    def __init__(self, source: str):
        self.tokens = _lex(source)
        self.at = 0
        self.depth = 0

    def peek(self, *wanted: str) -> bool:
        if self.at >= len(self.tokens):
            return False
        kind, value = self.tokens[self.at]
        return value in wanted and kind in ("op", "kw")

    def take(self, *wanted: str) -> str | None:
        if self.peek(*wanted):
            self.at += 1
            return str(self.tokens[self.at - 1][1])
        return None

    def need(self, wanted: str) -> None:
        if self.take(wanted) is None:
            got = self.tokens[self.at][1] if self.at < len(self.tokens) else "the end"
            raise ExprError(f"expected '{wanted}', got {got!r}" if got != "the end" else f"expected '{wanted}' before the end")

    def deeper(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ExprError(f"nested more than {MAX_DEPTH} deep")

    def expr(self) -> Node:
        self.deeper()
        body = self.or_()
        if self.take("if"):
            test = self.or_()
            self.need("else")
            body = Node("if", None, (test, body, self.expr()))
        self.depth -= 1
        return body

    def or_(self) -> Node:
        node = self.and_()
        while self.take("or"):
            node = Node("or", None, (node, self.and_()))
        return node

    def and_(self) -> Node:
        node = self.not_()
        while self.take("and"):
            node = Node("and", None, (node, self.not_()))
        return node

    def not_(self) -> Node:
        if self.take("not"):
            self.deeper()
            return Node("not", None, (self.not_(),))
        return self.compare()

    def compare(self) -> Node:
        first = self.sum()
        ops, rest = [], []
        while (op := self.take("==", "!=", "<", "<=", ">", ">=")) is not None:
            ops.append(op)
            rest.append(self.sum())
        return Node("compare", tuple(ops), (first, *rest)) if ops else first

    def sum(self) -> Node:
        node = self.product()
        while (op := self.take("+", "-")) is not None:
            node = Node(op, None, (node, self.product()))
        return node

    def product(self) -> Node:
        node = self.unary()
        while (op := self.take("*", "/", "//", "%")) is not None:
            node = Node(op, None, (node, self.unary()))
        return node

    def unary(self) -> Node:
        if (op := self.take("-", "+")) is not None:
            self.deeper()
            return Node("neg" if op == "-" else "pos", None, (self.unary(),))
        return self.filtered()

    def filtered(self) -> Node:
        node = self.atom()
        while self.take("|"):
            if self.at >= len(self.tokens) or self.tokens[self.at][0] != "name":
                raise ExprError(f"expected a filter after '|' ({', '.join(FILTERS)})")
            name = str(self.tokens[self.at][1])
            self.at += 1
            if name not in FILTERS:
                from .schemas import suggest

                raise ExprError(f"unknown filter '{name}'{suggest(name, list(FILTERS))} (filters: {', '.join(FILTERS)})")
            args = (node, self.atom()) if self.take(":") else (node,)
            if name in _NEEDS_ARG and len(args) == 1:
                raise ExprError(f"the filter '{name}' needs a value: {name}:N")
            node = Node("filter", name, args)
        return node

    def atom(self) -> Node:
        if self.at >= len(self.tokens):
            raise ExprError("the expression ends too soon")
        kind, value = self.tokens[self.at]
        self.at += 1
        if kind in ("num", "text"):
            return Node(kind, value)
        if kind == "kw" and value in ("true", "false"):
            return Node("bool", value == "true")
        if kind == "name":
            return Node("field", value)
        if kind == "op" and value == "(":
            self.deeper()
            node = self.expr()
            self.need(")")
            self.depth -= 1
            return node
        raise ExprError(f"unexpected {value!r}")


@lru_cache(maxsize=1024)
def parse(source: str) -> Node:
    """``source`` (the text between braces) parsed once per distinct text.

    Raises:
        ExprError: too long, too deep, a character or word out of place, an unknown filter.
    """
    if len(source) > MAX_SOURCE:
        raise ExprError(f"an expression is at most {MAX_SOURCE} characters, this one {len(source)}")
    if not source.strip():
        raise ExprError("empty braces; write {field} or an expression such as {cost + 1}")
    reader = _Reader(source)
    node = reader.expr()
    if reader.at < len(reader.tokens):
        raise ExprError(f"unexpected {reader.tokens[reader.at][1]!r}")
    return node


def names(node: Node) -> list[str]:
    """The field names ``node`` reads, in first-use order."""
    found = [node.value] if node.op == "field" else []
    for arg in node.args:
        found += names(arg)
    return list(dict.fromkeys(found))


def _number(value: Any, what: str) -> int | float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        shown = "an empty value" if value is None or value == "" else f"the text {value!r}" if isinstance(value, str) else repr(value)
        raise ExprError(f"{what} needs numbers, got {shown}")
    return value


def _checked(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        raise ExprError("the result is not a finite number")
    if isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) >= MAX_NUMBER:
        raise ExprError("the result has more than 18 digits")
    if isinstance(value, str) and len(value) > MAX_TEXT:
        raise ExprError(f"the result is text longer than {MAX_TEXT} characters")
    return value


def truthy(value: Any) -> bool:
    """Whether a value counts as given (``when: FIELD``, ``if``, ``and``, ``or``, ``default``):
    non-empty text (spaces do not count), a number other than 0, true, a colour or a picture;
    None (an empty optional field) is not."""
    if value is None:
        return False
    if isinstance(value, str):
        return bool(value.strip())
    if isinstance(value, (bool, int, float)):
        return bool(value)
    return True


def _as_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, float):
        return f"{value:g}"
    return "" if value is None else str(value)


def _add(a: Any, b: Any) -> Any:
    if isinstance(a, str) and isinstance(b, str):
        return a + b
    if isinstance(a, str) or isinstance(b, str):
        raise ExprError("'+' joins two texts or adds two numbers; to join a number to text, write it as two places: {name} {cost}")
    return _number(a, "'+'") + _number(b, "'+'")


def _times(a: Any, b: Any) -> Any:
    if isinstance(a, str) and isinstance(b, int) and not isinstance(b, bool):
        a, b = b, a
    if isinstance(b, str) and isinstance(a, int) and not isinstance(a, bool):
        if a * len(b) > MAX_TEXT:
            raise ExprError(f"the result is text longer than {MAX_TEXT} characters")
        return b * max(a, 0)
    return _number(a, "'*'") * _number(b, "'*'")


def _divide(op: str, a: Any, b: Any) -> Any:
    a, b = _number(a, f"'{op}'"), _number(b, f"'{op}'")
    if b == 0:
        raise ExprError("division by zero")
    if op == "/":
        result = a / b
        return int(result) if isinstance(result, float) and result.is_integer() and abs(result) < 1e15 else result
    return a // b if op == "//" else a % b


def _compare(op: str, a: Any, b: Any) -> bool:
    if op in ("==", "!="):
        if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool) and not isinstance(b, bool):
            same = float(a) == float(b)
        else:
            same = _as_text(a) == _as_text(b) if isinstance(a, str) or isinstance(b, str) else a == b
        return same if op == "==" else not same
    both_text = isinstance(a, str) and isinstance(b, str)
    if not both_text:
        a, b = _number(a, f"'{op}'"), _number(b, f"'{op}'")
    return bool({"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op])


def _pad(value: Any, width: Any) -> str:
    width = _number(width, "pad")
    if not 0 <= width <= MAX_PAD or not float(width).is_integer():
        raise ExprError(f"pad takes a whole number from 0 to {MAX_PAD}, got {width!r}")
    if isinstance(value, (int, float)) and not isinstance(value, bool) and float(value).is_integer():
        number = int(value)
        return ("-" if number < 0 else "") + str(abs(number)).zfill(int(width))
    return _as_text(value).rjust(int(width))


def _round(value: Any, places: Any = 0) -> Any:
    places = _number(places, "round")
    if not 0 <= places <= 10 or not float(places).is_integer():
        raise ExprError(f"round takes a whole number of places from 0 to 10, got {places!r}")
    # halves away from zero, on the number as written (2.675 → 2.68, 2.5 → 3), as spreadsheets round;
    # Python's round() goes to even on the binary float (2.675 → 2.67, 2.5 → 2)
    exact = Decimal(repr(float(_number(value, "round"))))
    result = float(exact.quantize(Decimal(1).scaleb(-int(places)), rounding=ROUND_HALF_UP))
    return int(result) if places == 0 else result


#: The filters, by name: each takes the value (and the filter's value after ``:``).
FILTERS: dict[str, Callable[..., Any]] = {
    "upper": lambda v: _as_text(v).upper(),
    "lower": lambda v: _as_text(v).lower(),
    "title": lambda v: _as_text(v).title(),
    "trim": lambda v: _as_text(v).strip(),
    "len": lambda v: len(_as_text(v)),
    "abs": lambda v: abs(_number(v, "abs")),
    "round": _round,
    "floor": lambda v: math.floor(_number(v, "floor")),
    "ceil": lambda v: math.ceil(_number(v, "ceil")),
    "pad": _pad,
    "min": lambda v, x: min(_number(v, "min"), _number(x, "min")),
    "max": lambda v, x: max(_number(v, "max"), _number(x, "max")),
    "default": lambda v, x: v if truthy(v) else x,
}
_NEEDS_ARG = ("pad", "min", "max", "default")


def evaluate(node: Node, values: dict[str, Any]) -> Any:
    """``node`` worked out with the field ``values`` (name → text, number, bool or None): a
    number, text or bool, by the step :data:`_STEPS` names for its operator (else a binary
    operator's, :func:`_binary`).

    Raises:
        ExprError: a field not in ``values``, numbers expected and text given, division by zero,
            a result past the limits of the module docstring.
    """
    return _STEPS.get(node.op, _binary)(node, values)


def _literal(node: Node, values: dict[str, Any]) -> Any:
    """A number, text or true/false as written."""
    return node.value


def _field(node: Node, values: dict[str, Any]) -> Any:
    """A field's value (a value of another type as printed)."""
    if node.value not in values:
        raise ExprError(f"unknown field '{node.value}'")
    value = values[node.value]
    return value if isinstance(value, (str, int, float, bool)) or value is None else _as_text(value)


def _if(node: Node, values: dict[str, Any]) -> Any:
    """``A if TEST else B``: only the branch chosen is worked out."""
    test, body, other = node.args
    return evaluate(body, values) if truthy(evaluate(test, values)) else evaluate(other, values)


def _or(node: Node, values: dict[str, Any]) -> Any:
    """``A or B``: A if it holds, else B (as Python)."""
    left = evaluate(node.args[0], values)
    return left if truthy(left) else evaluate(node.args[1], values)


def _and(node: Node, values: dict[str, Any]) -> Any:
    """``A and B``: B if A holds, else A (as Python)."""
    left = evaluate(node.args[0], values)
    return evaluate(node.args[1], values) if truthy(left) else left


def _not(node: Node, values: dict[str, Any]) -> bool:
    """``not A``."""
    return not truthy(evaluate(node.args[0], values))


def _comparison(node: Node, values: dict[str, Any]) -> bool:
    """``A < B <= C``: every link holds (chained as in Python, each side worked out once)."""
    items = [evaluate(a, values) for a in node.args]
    return all(_compare(o, items[k], items[k + 1]) for k, o in enumerate(node.value))


def _negative(node: Node, values: dict[str, Any]) -> Any:
    """``-A``, A a number."""
    return _checked(-_number(evaluate(node.args[0], values), "'-'"))


def _positive(node: Node, values: dict[str, Any]) -> Any:
    """``+A``, A a number."""
    return _number(evaluate(node.args[0], values), "'+'")


def _filtered(node: Node, values: dict[str, Any]) -> Any:
    """``A|filter`` or ``A|filter:X`` (:data:`FILTERS`)."""
    return _checked(FILTERS[node.value](*(evaluate(a, values) for a in node.args)))


def _subtract(a: Any, b: Any) -> Any:
    """``a - b``, both numbers."""
    return _number(a, "'-'") - _number(b, "'-'")


def _binary(node: Node, values: dict[str, Any]) -> Any:
    """``A + B``, ``A - B``, ``A * B``, and the divisions (``/``, ``//``, ``%``; :func:`_divide`),
    both sides worked out first."""
    a, b = evaluate(node.args[0], values), evaluate(node.args[1], values)
    if node.op == "+":
        return _checked(_add(a, b))
    if node.op == "-":
        return _checked(_subtract(a, b))
    if node.op == "*":
        return _checked(_times(a, b))
    return _checked(_divide(node.op, a, b))


#: How each kind of node is worked out (:func:`evaluate`); any other is a binary operator.
_STEPS: dict[str, Callable[[Node, dict[str, Any]], Any]] = {
    "num": _literal, "text": _literal, "bool": _literal, "field": _field, "if": _if, "or": _or, "and": _and,
    "not": _not, "compare": _comparison, "neg": _negative, "pos": _positive, "filter": _filtered}


def as_text(value: Any) -> str:
    """A computed value as printed: whole numbers without ``.0``, other numbers to 6
    significant digits, true/false, text as is."""
    return _as_text(value)
