"""The rules and odds a catalogue declares (``rules:``, ``odds:``), checked for any game.

Each rule is one line of data (:class:`tokengen.model.Declared`, read by
:mod:`tokengen.sources.declared`) with an optional ``name`` and ``message``:

- ``count: {where: {type: Action}, min: 12, max: 20}``: the tokens matching ``where`` (after
  ``copies``);
- ``total: {min: 40, max: 40}``: every token (after ``copies``);
- ``each: [colour, rank]`` (``exactly: 1`` optional): every combination of the fields' declared
  choices appears (a field's ``choices:``; Meatshields: ``attribute`` and ``priority``);
- ``unique: name`` (or a list of fields): no two tokens share the value(s) (the copies of one
  token are that token: the ``copies`` rule counts them);
- ``copies: {max: 3, by: name}``: no value of ``by`` (default ``id``) has more tokens;
- ``sum: {field: cost, where: {type: Item}, max: 60}``: the field added over the tokens.

Each ``odds:`` entry draws ``draw`` tokens from the set (or the ``where`` subset as the bag),
with ``replacement: true`` or without, and asks for ``want`` (``where`` with ``at_least``,
``at_most`` or ``exactly``), or ``all:``/``any:`` of several wants; the answer is exact
(:mod:`tokengen.games.odds`).

:func:`check_rules` and :func:`check_odds` are checks of the game contract: a broken rule is an
error finding ``rule`` named by its line (``cards.yaml:14: rules[2]: 9 Actions, at least 12
wanted``); the rules that hold make one info finding ``rules``; each odd an info ``odds``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from math import prod
from typing import Any

from ..model import Catalogue, Colour, Declared, Token
from ..sources.schemas import suggest
from ..units import counted
from . import odds as exact
from .contract import ERROR, INFO, Finding, Settings

#: The most combinations one ``each:`` rule may list (the product of its fields' choices): a
#: bound on work, counted.
MAX_COMBINATIONS = 100_000


class RuleError(ValueError):
    """A rule or odd that cannot be read against this catalogue (an unknown field, a field with
    no declared choices, a value that is not a number): an error finding at its line."""


def _value(token: Token, name: str) -> Any:
    """A token's value of ``name`` as rules compare it (``id`` is the token's id; an RGB colour
    as ``#rrggbb``; a CMYK colour and art paths as text)."""
    if name == "id":
        return token.id
    value = token.value(name)
    if isinstance(value, Colour) and value.space == "rgb":
        return "#" + "".join(f"{round(c * 255):02x}" for c in value.values)
    return value if value is None or isinstance(value, (str, int, float, bool)) else str(value)


def _wanted(value: Any) -> Any:
    """A value of ``where`` as tokens' values are compared (``#RRGGBB`` in lower case)."""
    return value.lower() if isinstance(value, str) and value.startswith("#") else value


def _fields(catalogue: Catalogue) -> list[str]:
    """The names a rule may read: ``id`` and every field a token holds."""
    names = dict.fromkeys(["id", *(name for name, _ in catalogue.fields)])
    for token in catalogue.tokens:
        names.update(dict.fromkeys(name for name, _ in token.values))
    return list(names)


def _known(catalogue: Catalogue, names: list[str], key: str) -> list[str]:
    """``names`` when each is a field of the catalogue.

    Raises:
        RuleError: ``KEY: unknown field 'tpye'; did you mean 'type'?``.
    """
    known = _fields(catalogue)
    for name in names:
        if name not in known:
            raise RuleError(f"{key}: unknown field '{name}'{suggest(name, known) or ' (fields: ' + ', '.join(known) + ')'}")
    return names


def _matches(catalogue: Catalogue, where: dict[str, Any] | None, key: str = "where") -> Callable[[Token], bool]:
    """A test of one token against ``where`` (field → value, or a list of values: any of them)."""
    if not where:
        return lambda token: True
    _known(catalogue, list(where), key)
    wanted = {name: {_wanted(x) for x in (v if isinstance(v, list) else [v])} for name, v in where.items()}
    return lambda token: all(_value(token, name) in values for name, values in wanted.items())


def _noun(where: dict[str, Any] | None, n: int) -> str:
    """What ``where`` selects, for messages: ``{type: Action}`` → ``Action``/``Actions``;
    nothing → ``token``/``tokens``; several values → ``tokens with type Action or Item``."""
    if not where:
        return "token" if n == 1 else "tokens"
    if len(where) == 1:
        (name, value), = where.items()
        if not isinstance(value, list):
            word = str(value)
            return word if n == 1 or word.endswith("s") else word + "s"
    shown = ", ".join(f"{k} {' or '.join(map(str, v)) if isinstance(v, list) else v}" for k, v in where.items())
    return f"{'token' if n == 1 else 'tokens'} with {shown}"


def _bounds(value: float, low: float | None, high: float | None) -> str | None:
    """What is wanted when ``value`` is outside [low, high] (``at least 12 wanted``), else None."""
    if low is not None and high is not None and low == high and value != low:
        return f"{_num(low)} wanted"
    if low is not None and value < low:
        return f"at least {_num(low)} wanted"
    if high is not None and value > high:
        return f"at most {_num(high)} wanted"
    return None


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _names(spec: Any) -> list[str]:
    return [spec] if isinstance(spec, str) else list(spec)


# --- the rules: each returns (holds, what was measured) ------------------------------------

def _count(catalogue: Catalogue, rule: dict[str, Any]) -> tuple[bool, str, dict[str, Any]]:
    spec = rule["count"]
    match = _matches(catalogue, spec.get("where"), "count.where")
    n = sum(t.copies for t in catalogue.tokens if match(t))
    wanted = _bounds(n, spec.get("min"), spec.get("max"))
    return wanted is None, f"{n} {_noun(spec.get('where'), n)}" + (f", {wanted}" if wanted else ""), {"count": n}


def _total(catalogue: Catalogue, rule: dict[str, Any]) -> tuple[bool, str, dict[str, Any]]:
    spec = rule["total"]
    n = catalogue.count
    wanted = _bounds(n, spec.get("min"), spec.get("max"))
    return wanted is None, f"{counted(n, 'token')}" + (f", {wanted}" if wanted else ""), {"total": n}


def _each(catalogue: Catalogue, rule: dict[str, Any]) -> tuple[bool, str, dict[str, Any]]:
    names = _known(catalogue, _names(rule["each"]), "each")
    combos = _combinations(catalogue, names)
    seen: Counter[tuple[Any, ...]] = Counter()
    for t in catalogue.tokens:
        seen[tuple(_value(t, n) for n in names)] += t.copies
    missing = [c for c in combos if not seen[c]]
    exactly = rule.get("exactly")
    off = [c for c in combos if seen[c] and exactly is not None and seen[c] != exactly]
    data = {"combinations": len(combos), "missing": [list(c) for c in missing], "off": [[*c, seen[c]] for c in off]}
    return (not missing and not off), _each_words(" × ".join(names), len(combos), missing, off, seen, exactly), data


def _combinations(catalogue: Catalogue, names: list[str]) -> list[tuple[Any, ...]]:
    """Every combination of the declared choices of the fields ``names``, in the order declared.
    Raises RuleError for a field without choices, or more than :data:`MAX_COMBINATIONS`."""
    declared = dict(catalogue.choices)
    bare = [n for n in names if n not in declared]
    if bare:
        raise RuleError(f"each: field '{bare[0]}' declares no choices (give it choices: [...] in fields:)")
    size = prod(len(declared[name]) for name in names)
    if size > MAX_COMBINATIONS:
        raise RuleError(f"each: {size:,} combinations of {' × '.join(names)}, more than {MAX_COMBINATIONS:,} to check")
    combos: list[tuple[Any, ...]] = [()]
    for name in names:
        combos = [c + (choice,) for c in combos for choice in declared[name]]
    return combos


def _each_words(label: str, total: int, missing: list[tuple[Any, ...]], off: list[tuple[Any, ...]],
                seen: Counter[tuple[Any, ...]], exactly: int | None) -> str:
    """What an ``each`` rule measured: the first combination missing, else the first off its
    ``exactly`` count (with how many more), else that every combination is there."""
    if missing:
        more = f" (and {counted(len(missing) - 1, 'more combination')})" if len(missing) > 1 else ""
        return f"no token is {' '.join(map(str, missing[0]))}{more}; every {label} wanted"
    if off:
        more = f" (and {counted(len(off) - 1, 'more combination')})" if len(off) > 1 else ""
        return f"{seen[off[0]]} tokens are {' '.join(map(str, off[0]))}{more}, exactly {exactly} of each {label} wanted"
    each = f"{exactly} of each" if exactly is not None else "each"
    return f"{each} of {total} {label} combinations"


def _unique(catalogue: Catalogue, rule: dict[str, Any]) -> tuple[bool, str, dict[str, Any]]:
    names = _known(catalogue, _names(rule["unique"]), "unique")
    seen = Counter(tuple(_value(t, n) for n in names) for t in catalogue.tokens)  # copies of one token are one entry
    twice = [(v, k) for v, k in seen.items() if k > 1]
    label = ", ".join(names)
    if twice:
        value, k = twice[0]
        more = f" (and {counted(len(twice) - 1, 'more value')})" if len(twice) > 1 else ""
        return False, f"{' '.join(map(str, value))!r} is on {k} tokens{more}; each {label} on one token wanted", {"repeated": len(twice)}
    return True, f"every {label} is on one token", {"repeated": 0}


def _copies(catalogue: Catalogue, rule: dict[str, Any]) -> tuple[bool, str, dict[str, Any]]:
    spec = rule["copies"]
    names = _known(catalogue, _names(spec.get("by", "id")), "copies.by")
    seen: Counter[tuple[Any, ...]] = Counter()
    for t in catalogue.tokens:
        seen[tuple(_value(t, n) for n in names)] += t.copies
    most = max(seen.values(), default=0)
    over = [(v, k) for v, k in seen.items() if k > spec["max"]]
    label = ", ".join(names)
    if over:
        value, k = over[0]
        more = f" (and {counted(len(over) - 1, 'more')})" if len(over) > 1 else ""
        return False, f"{k} copies of {' '.join(map(str, value))!r} ({label}){more}, at most {spec['max']} wanted", {"most": most}
    return True, f"at most {most} {'copy' if most == 1 else 'copies'} of each {label}", {"most": most}


def _sum(catalogue: Catalogue, rule: dict[str, Any]) -> tuple[bool, str, dict[str, Any]]:
    spec = rule["sum"]
    field = _known(catalogue, [spec["field"]], "sum.field")[0]
    match = _matches(catalogue, spec.get("where"), "sum.where")
    total: float = 0
    for t in catalogue.tokens:
        if match(t):
            value = _value(t, field)
            if value is None:
                continue
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                raise RuleError(f"sum.field: token '{t.id}' has {field} {value!r}, not a number")
            total += value * t.copies
    over = f" over {_noun(spec.get('where'), 2)}" if spec.get("where") else ""
    wanted = _bounds(total, spec.get("min"), spec.get("max"))
    return wanted is None, f"{field} adds up to {_num(total)}{over}" + (f", {wanted}" if wanted else ""), {"sum": total}


#: The rule kinds, each ``(catalogue, rule) -> (holds, what was measured, data)``.
RULES: dict[str, Callable[[Catalogue, dict[str, Any]], tuple[bool, str, dict[str, Any]]]] = {
    "count": _count, "total": _total, "each": _each, "unique": _unique, "copies": _copies, "sum": _sum}


def _kind(spec: dict[str, Any]) -> str:
    return next(k for k in spec if k in RULES)


def _label(entry: Declared, text: str) -> str:
    """``text`` with the entry's ``name`` before it."""
    name = entry.spec.get("name")
    return f"{name}: {text}" if name else text


def check_rules(catalogue: Catalogue, settings: Settings) -> list[Finding]:
    """Error ``rule`` for each broken rule of ``rules:`` (at its line, field ``rules[i]``;
    the rule's ``message`` first when it gives one), then one info ``rules`` saying how many
    hold, with every rule in ``data["rules"]`` (index, name, kind, holds, what was measured).
    A rule that cannot be read against the catalogue (an unknown field) is an error ``rule``
    too. No finding at all when the catalogue declares no rules."""
    entries = [d for d in catalogue.declared if d.section == "rules"]
    if not entries:
        return []
    broken: list[Finding] = []
    every: list[dict[str, Any]] = []
    for entry in entries:
        kind = _kind(entry.spec)
        try:
            holds, said, data = RULES[kind](catalogue, entry.spec)
        except RuleError as exc:
            holds, said, data = False, str(exc), {}
        every.append({"rule": entry.where, "line": entry.line, "name": entry.spec.get("name"), "kind": kind,
                      "holds": holds, "measured": said, **data})
        if not holds:
            text = f"{entry.spec['message']} ({said})" if entry.spec.get("message") else said
            broken.append(Finding(ERROR, "rule", _label(entry, text), entry.line, entry.where, {"kind": kind, **data}))
    held = len(entries) - len(broken)
    summary = (f"all {counted(len(entries), 'rule')} hold" if not broken else f"{held} of {counted(len(entries), 'rule')} hold")
    return [*broken, Finding(INFO, "rules", summary, data={"rules": every})]


# --- the odds ------------------------------------------------------------------------------

def _want_words(want: dict[str, Any]) -> str:
    """A want for people: ``at least 1 Sword``."""
    where = want.get("where")
    for key, words in (("exactly", "exactly"), ("at_least", "at least"), ("at_most", "at most")):
        if key in want:
            return f"{words} {want[key]} {_noun(where, want[key])}"
    return ""


def _meets(want: dict[str, Any], k: int) -> bool:
    if "exactly" in want and k != want["exactly"]:
        return False
    if "at_least" in want and k < want["at_least"]:
        return False
    return not ("at_most" in want and k > want["at_most"])


def answer(catalogue: Catalogue, spec: dict[str, Any]) -> tuple[Fraction, dict[str, Any]]:
    """The exact chance an ``odds:`` entry asks for, and what it drew from.

    Returns:
        (p, data): ``data`` holds ``bag`` (tokens in the bag), ``draw``, ``replacement`` and
        ``combine`` (``all``/``any``).
    Raises:
        RuleError: an unknown field, or a draw that cannot be made (larger than the bag
            without replacement, an empty bag, too many cases to weigh).
    """
    bag_match = _matches(catalogue, spec.get("where"), "where")
    bag = [t for t in catalogue.tokens if bag_match(t)]
    combine = "any" if "any" in spec else "all"
    wants = [spec["want"]] if "want" in spec else list(spec[combine])
    tests = [_matches(catalogue, w.get("where"), f"{'want' if 'want' in spec else combine}.where") for w in wants]
    classes: Counter[tuple[bool, ...]] = Counter()
    for t in bag:
        classes[tuple(test(t) for test in tests)] += t.copies
    keys = list(classes)
    sizes = [classes[k] for k in keys]
    join = all if combine == "all" else any

    def wanted(x: tuple[int, ...]) -> bool:
        return join(_meets(w, sum(c for c, key in zip(x, keys, strict=True) if key[i])) for i, w in enumerate(wants))

    replacement = bool(spec.get("replacement", False))
    try:
        p = exact.chance(spec["draw"], sizes, wanted, replacement)
    except ValueError as exc:
        raise RuleError(str(exc)) from None
    return p, {"bag": sum(sizes), "draw": spec["draw"], "replacement": replacement, "combine": combine}


def check_odds(catalogue: Catalogue, settings: Settings) -> list[Finding]:
    """Info ``odds`` for each entry of ``odds:`` (at its line, field ``odds[i]``): the exact
    chance as a fraction and a percentage, ``data["p"]`` the fraction as ``"p/q"`` and
    ``data["percent"]`` a float. An entry that cannot be answered (an unknown field, a draw
    larger than the bag) is an error ``odds`` at its line."""
    found = []
    for entry in (d for d in catalogue.declared if d.section == "odds"):
        spec = entry.spec
        try:
            p, data = answer(catalogue, spec)
        except RuleError as exc:
            found.append(Finding(ERROR, "odds", _label(entry, str(exc)), entry.line, entry.where))
            continue
        combine = "any" if "any" in spec else "all"
        wants = [spec["want"]] if "want" in spec else list(spec[combine])
        asked = f" {'or' if combine == 'any' else 'and'} ".join(_want_words(w) for w in wants)
        source = spec.get("from") or (_noun(spec.get("where"), 2) if spec.get("where") else "the set")
        how = ", each put back" if data["replacement"] else ""
        text = (f"{asked} in {spec['draw']} drawn from {source} of {data['bag']}{how}: "
                f"{p} ({exact.percent(p)})")
        found.append(Finding(INFO, "odds", _label(entry, text), entry.line, entry.where,
                             {**data, "p": f"{p.numerator}/{p.denominator}", "percent": float(p * 100)}))
    return found
