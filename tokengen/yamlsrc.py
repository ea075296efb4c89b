"""Safe YAML reading with line numbers: every value's source line, duplicate keys refused,
alias expansion bounded, only the plain YAML tags allowed.

PyYAML's own ``safe_load`` silently keeps the last of two equal keys and expands aliases without
limit (the "billion laughs" shape); this module composes the node graph with
``yaml.SafeLoader`` and builds plain Python values itself so it can do neither.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from .errors import CatalogueError

#: Largest input file read, in bytes.
MAX_BYTES = 8 * 1024 * 1024
#: Largest number of values after alias expansion.
MAX_NODES = 200_000

Lines = dict[tuple[Any, ...], int]

_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"
_SCALAR_TAGS = {f"tag:yaml.org,2002:{t}" for t in ("str", "int", "float", "bool", "null")}


def read_yaml(path: str | Path) -> tuple[Any, Lines]:
    """Read one YAML document.

    Returns:
        (data, lines): plain dicts, lists, str, int, float, bool, None; and a map from each
        value's path (a tuple of keys and list indices; ``()`` is the top) to its 1-based line.
    Raises:
        CatalogueError: missing or unreadable file, not UTF-8, too large, YAML syntax error,
            duplicate key, unsupported tag, too many values after alias expansion.
    """
    path = Path(path)
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise CatalogueError(path, "file not found") from None
    except IsADirectoryError:
        raise CatalogueError(path, "is a folder, not a file") from None
    except OSError as exc:
        raise CatalogueError(path, f"cannot read: {exc.strerror}") from None
    if len(raw) > MAX_BYTES:
        raise CatalogueError(path, f"file is larger than {MAX_BYTES // (1024 * 1024)} MiB")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise CatalogueError(path, f"not UTF-8 text (byte 0x{raw[exc.start]:02x})", line=line) from None
    if "\x00" in text:
        raise CatalogueError(path, "not a text file (contains NUL bytes)")
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        problem = exc.problem or exc.context or "YAML syntax error"
        raise CatalogueError(path, f"YAML syntax error: {problem}", line=line) from None
    except yaml.YAMLError as exc:
        raise CatalogueError(path, f"YAML error: {exc}") from None
    finally:
        loader.dispose()
    if node is None:
        raise CatalogueError(path, "the file is empty", line=1)
    lines: Lines = {}
    budget = [MAX_NODES]
    data = _build(node, (), lines, path, loader, budget)
    return data, lines


def _build(node: yaml.Node, where: tuple[Any, ...], lines: Lines, path: Path, loader: yaml.SafeLoader, budget: list[int]) -> Any:
    budget[0] -= 1
    if budget[0] < 0:
        raise CatalogueError(path, f"more than {MAX_NODES} values after expanding aliases", line=node.start_mark.line + 1)
    line = node.start_mark.line + 1
    lines.setdefault(where, line)
    if isinstance(node, yaml.MappingNode):
        if node.tag != _MAP:
            raise CatalogueError(path, f"unsupported YAML tag {node.tag}", line=line, field=dotted(where) or None)
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            key_line = key_node.start_mark.line + 1
            if not isinstance(key_node, yaml.ScalarNode):
                raise CatalogueError(path, "mapping keys must be plain text", line=key_line, field=dotted(where) or None)
            key = str(key_node.value)
            if key == "<<":
                raise CatalogueError(path, "YAML merge keys (<<) are not supported", line=key_line, field=dotted(where) or None)
            if key in result:
                first = lines[where + (key,)]
                raise CatalogueError(path, f"duplicate key (first given at line {first})", line=key_line, field=dotted(where + (key,)))
            lines[where + (key,)] = key_line
            result[key] = _build(value_node, where + (key,), lines, path, loader, budget)
        return result
    if isinstance(node, yaml.SequenceNode):
        if node.tag != _SEQ:
            raise CatalogueError(path, f"unsupported YAML tag {node.tag}", line=line, field=dotted(where) or None)
        return [_build(item, where + (i,), lines, path, loader, budget) for i, item in enumerate(node.value)]
    if node.tag not in _SCALAR_TAGS:
        raise CatalogueError(path, f"unsupported YAML tag {node.tag}", line=line, field=dotted(where) or None)
    try:
        return loader.construct_object(node)
    except (yaml.YAMLError, ValueError) as exc:
        raise CatalogueError(path, f"bad value: {exc}", line=line, field=dotted(where) or None) from None


def dotted(where: tuple[Any, ...]) -> str:
    """``("tokens", 3, "priority")`` → ``"tokens[3].priority"``."""
    out = ""
    for part in where:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


