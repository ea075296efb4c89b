"""The longest list or mapping a JSON Schema allows at a place in a YAML file, found while the
file is read (issue 37): :mod:`tokengen.sources.yamlsrc` asks for each list and mapping as it
opens, and refuses it as soon as it holds one entry more, before the rest of its entries are
read (a ``when:`` list of 100,000 values was refused only after 33 s of validation).

The walk follows ``properties``, ``patternProperties``, ``additionalProperties``, ``items`` and
``prefixItems``, resolves ``$ref`` (inside a schema and to another of the package's schemas)
and takes every branch of ``anyOf``, ``oneOf`` and ``allOf`` whose ``type`` fits. A place any
branch leaves open (no such key, ``true``) has no limit here: the schema's full check, after
reading, still applies. Only the package's own schemas are walked.
"""

from __future__ import annotations

import json
import re
from functools import cache, lru_cache
from importlib import resources
from typing import Any

#: Candidate schema nodes for one place: (node, name of the schema file it belongs to); None
#: when some branch leaves the place open (no limit from here down).
Shape = tuple[tuple[int, str], ...] | None

_NODES: dict[int, Any] = {}  # id → node of the loaded schemas (they live as long as the cache)


@cache
def _schema(name: str) -> dict[str, Any]:
    data = json.loads(resources.files("tokengen").joinpath(f"data/{name}.schema.json").read_text("utf-8"))
    _index(data)
    return data


def _index(node: Any) -> None:
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            _NODES[id(item)] = item
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def root(*names: str) -> Shape:
    """The shape of a whole file checked against the schemas ``names`` (``"catalogue"``,
    ``"catalogue-fields"``: a catalogue is one or the other)."""
    return _expand(tuple((id(_schema(n)), n) for n in names))


def limit(shape: Shape, kind: str) -> int | None:
    """The most entries a ``kind`` (``"object"`` or ``"array"``) value at ``shape`` may hold:
    the largest ``maxProperties`` or ``maxItems`` of its branches that state a type, None when
    one has none."""
    if shape is None:
        return None
    key = "maxProperties" if kind == "object" else "maxItems"
    nodes = [_NODES[n] for n, _ in _fitting(shape, kind)]
    # a node without a type only adds rules to its siblings (a $ref beside properties): it
    # counts when it has the limit
    found = [node.get(key) for node in nodes if "type" in node or key in node]
    if not found or any(not isinstance(v, int) for v in found):
        return None
    return max(found)


@cache
def _fitting(shape: tuple[tuple[int, str], ...], kind: str) -> tuple[tuple[int, str], ...]:
    out = []
    for n, name in shape:
        types = _NODES[n].get("type")
        if types is None or types == kind or (isinstance(types, list) and kind in types):
            out.append((n, name))
    return tuple(out)


@lru_cache(maxsize=4096)
def child(shape: Shape, kind: str, key: str | None) -> Shape:
    """The shape of the entry ``key`` (a mapping's key; None: a list's item) of a ``kind``
    value at ``shape``. A list's ``prefixItems`` are not told apart (every item takes their
    union with ``items``)."""
    if shape is None:
        return None
    found: list[tuple[int, str]] = []
    for n, name in _fitting(shape, kind):
        for sub in _entry_schemas(_NODES[n], kind, key):
            if sub is True:
                return None  # any value: nothing about its entries
            if isinstance(sub, dict):
                found.append((id(sub), name))
    return _expand(tuple(found))


#: The keywords of a schema node that say something about a mapping's or a list's entries.
_ENTRY_WORDS = {"object": ("properties", "patternProperties", "additionalProperties"), "array": ("prefixItems", "items")}


def _entry_schemas(node: dict[str, Any], kind: str, key: str | None) -> list[Any]:
    """The subschemas (or True/False) ``node`` gives the entry ``key`` of a ``kind`` value: a
    list's ``prefixItems`` and ``items``; a mapping's property and matching pattern properties,
    else its ``additionalProperties`` (none when that is false: the schema refuses the key after
    reading). Empty for a node with no type and no entry keyword (rules beside a sibling's,
    such as an ``exclusiveMinimum`` in an ``allOf``)."""
    if "type" not in node and not any(word in node for word in _ENTRY_WORDS.get(kind, _ENTRY_WORDS["array"])):
        return []
    if kind != "object":
        return [*node.get("prefixItems", []), node.get("items", True)]
    subs: list[Any] = []
    if key in node.get("properties", {}):
        subs.append(node["properties"][key])
    subs += [v for p, v in node.get("patternProperties", {}).items() if key is not None and re.search(p, key)]
    if subs:
        return subs
    extra = node.get("additionalProperties", True)
    return [] if extra is False else [extra]


def _expand(shape: tuple[tuple[int, str], ...]) -> Shape:
    """``shape`` with every ``$ref`` resolved and every ``anyOf``/``oneOf``/``allOf`` branch
    added (a node with branches stays too: its own ``type`` and limits count)."""
    out: list[tuple[int, str]] = []
    todo = list(shape)
    seen: set[tuple[int, str]] = set()
    while todo:
        n, name = todo.pop()
        if (n, name) in seen:
            continue
        seen.add((n, name))
        node = _NODES[n]
        ref = node.get("$ref")
        if isinstance(ref, str):
            target = _resolve(ref, name)
            if target is None:
                return None
            todo.append(target)
            if set(node) <= {"$ref", "description", "x-message", "x-for", "x-noun", "x-kind"}:
                continue
        for word in ("anyOf", "oneOf", "allOf"):
            for sub in node.get(word, ()):
                if sub is True:
                    return None
                if isinstance(sub, dict):
                    todo.append((id(sub), name))
        if any(word in node for word in ("anyOf", "oneOf")) and "type" not in node:
            continue  # only a choice: its branches say the type and the limits
        out.append((n, name))
    return tuple(sorted(out))


def _resolve(ref: str, name: str) -> tuple[int, str] | None:
    """``template.schema.json#/$defs/x`` or ``#/$defs/x`` (in schema ``name``) → its node."""
    file, _, pointer = ref.partition("#")
    if file:
        if not file.endswith(".schema.json"):
            return None
        name = file[: -len(".schema.json")]
    node: Any = _schema(name)
    for part in pointer.strip("/").split("/") if pointer.strip("/") else ():
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return (id(node), name) if isinstance(node, dict) else None
