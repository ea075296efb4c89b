"""Safe YAML reading with line numbers: every value's source line, duplicate keys refused,
alias expansion bounded, nesting bounded, only the plain YAML tags allowed.

PyYAML's own ``safe_load`` silently keeps the last of two equal keys, expands aliases without
limit (the "billion laughs" shape) and composes nested collections recursively (a few thousand
``[`` end in a ``RecursionError``). This module reads the parser's *event* stream (libyaml's C
parser when PyYAML has it, else the pure-Python one) and builds plain Python values itself,
iteratively, so it does none of that, and it stops as soon as a limit is passed: a hostile
file of :data:`MAX_BYTES` is refused in about a second instead of being composed first.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from ..errors import CatalogueError
from ..io import guard
from . import lengths

#: Largest input file read, in bytes.
MAX_BYTES = 8 * 1024 * 1024
#: Largest number of values (scalars, lists, mappings) after alias expansion.
MAX_NODES = 200_000
#: Deepest nesting of lists and mappings.
MAX_DEPTH = 64
#: Longest whole number read (digits, or characters of a 0x/0o/0b form): every count in a
#: tokengen file is far smaller, and Python refuses to convert ints of over 4,300 digits to text.
MAX_INT_DIGITS = 18

Lines = dict[tuple[Any, ...], int]

_YAML = "tag:yaml.org,2002:"
_MAP = _YAML + "map"
_SEQ = _YAML + "seq"
_STR = _YAML + "str"
_SCALAR_TAGS = {_YAML + t for t in ("str", "int", "float", "bool", "null")}
_BOOL = _YAML + "bool"
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
# YAML 1.1 printable characters (tab, newline and carriage return are the only controls allowed)
_NOT_PRINTABLE = re.compile("[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def read_yaml(path: str | Path, schemas: tuple[str, ...] = ()) -> tuple[Any, Lines]:
    """Read one YAML document; with ``schemas`` (names of the package's JSON Schemas the file
    is checked against, such as ``("catalogue", "catalogue-fields")``), each list and mapping
    is refused as soon as it holds more entries than their ``maxItems`` or ``maxProperties``
    allow at its place (:mod:`tokengen.sources.lengths`), before its other entries are read.

    Returns:
        (data, lines): plain dicts, lists, str, int, float, bool, None; and a map from each
        value's path (a tuple of keys and list indices; ``()`` is the top) to its 1-based line
        (for a mapping entry, the line of its key). Values reached through an alias share one
        object and have a line only for the alias itself.
    Raises:
        CatalogueError: missing or unreadable file, not UTF-8, control characters, too large,
            YAML syntax error, more than one document, duplicate key, merge key, unsupported
            tag, undefined alias, nested more than :data:`MAX_DEPTH` deep, more than
            :data:`MAX_NODES` values after alias expansion, a list or mapping longer than
            ``schemas`` allow (``has more than 500 entries``, at its key's line).
    """
    path = Path(path)
    text = _text_of(path, _read_bytes(path))
    loader = _Loader(text)
    try:
        return _Builder(path, loader, lengths.root(*schemas) if schemas else None).document()
    except yaml.MarkedYAMLError as exc:
        raise _syntax_error(path, text, exc) from None
    except yaml.YAMLError as exc:
        raise CatalogueError(path, f"YAML error: {one_line(str(exc))}") from None
    finally:
        loader.dispose()


def _read_bytes(path: Path) -> bytes:
    """The first :data:`MAX_BYTES` + 1 bytes of the regular file at ``path``.

    Raises:
        CatalogueError: not a regular file (a FIFO, pipe, device or folder), missing or unreadable.
    """
    refused = guard.not_regular(path)  # a FIFO, pipe or device: refused by type, never opened
    if refused:
        raise CatalogueError(path, refused)
    try:
        # O_NONBLOCK: a FIFO swapped in after the check above opens without waiting for a writer
        with os.fdopen(os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)), "rb") as handle:
            st = os.fstat(handle.fileno())
            if not stat.S_ISREG(st.st_mode):  # replaced between the check and the open
                raise CatalogueError(path, f"is {guard.kind(st.st_mode)}, not a regular file")
            guard.note_input(path, st)
            return handle.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise CatalogueError(path, "file not found") from None
    except IsADirectoryError:
        raise CatalogueError(path, "is a folder, not a file") from None
    except OSError as exc:
        raise CatalogueError(path, f"cannot read: {exc.strerror or exc}") from None


#: The openings of files that are plainly not YAML, and what each is.
_NOT_YAML = ((b"%PDF-", "a PDF"), (b"\x89PNG", "a PNG image"), (b"\xff\xd8\xff", "a JPEG image"), (b"PK\x03\x04", "a zip archive"))


def _text_of(path: Path, raw: bytes) -> str:
    """``raw`` as text: at most :data:`MAX_BYTES`, not a PDF, picture or zip, UTF-8 (a byte
    order mark dropped), with no character YAML does not allow.

    Raises:
        CatalogueError: the first of those that fails, with its line where it has one.
    """
    if len(raw) > MAX_BYTES:
        raise CatalogueError(path, f"file is larger than {MAX_BYTES // (1024 * 1024)} MiB")
    for magic, kind in _NOT_YAML:
        if raw.startswith(magic):
            raise CatalogueError(path, f"this is {kind}, not a YAML file")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise CatalogueError(path, f"not UTF-8 text (byte 0x{raw[exc.start]:02x})", line=line) from None
    bad = _NOT_PRINTABLE.search(text)
    if bad:
        line = text.count("\n", 0, bad.start()) + 1
        if bad.group() == "\x00":
            raise CatalogueError(path, "not a text file (contains NUL bytes)", line=line)
        raise CatalogueError(path, f"control character U+{ord(bad.group()):04X} is not allowed in YAML", line=line)
    return text


def _syntax_error(path: Path, text: str, exc: yaml.MarkedYAMLError) -> CatalogueError:
    """The one-line error for the parser's ``exc`` on ``text``, at its line: libyaml's nesting
    limit in our words; a comment that swallowed a value (:func:`flow_comment`) explained;
    else the parser's problem, with hints (:func:`_problem`)."""
    mark = exc.problem_mark or exc.context_mark
    line = mark.line + 1 if mark else None
    if "nesting depth" in str(exc.problem):  # libyaml's own limit (PyYAML >= 6.0.2): the same message as ours
        return CatalogueError(path, f"lists and mappings nested more than {MAX_DEPTH} deep", line=line)
    swallowed = flow_comment(text, line)
    if swallowed is not None:  # a colour in a flow mapping, {fill: #fbf6ea}: the comment ate the rest of the line
        at, key, value = swallowed
        return CatalogueError(path, f"YAML syntax error: {unquoted_comment(key, value)}", line=at)
    return CatalogueError(path, f"YAML syntax error: {one_line(_problem(text, exc, line))}", line=line)


def _problem(text: str, exc: yaml.MarkedYAMLError, line: int | None) -> str:
    """The parser's problem, with a hint when its line is indented with a tab and with where the
    collection it was reading began (when that is another line)."""
    mark = exc.problem_mark or exc.context_mark
    problem = exc.problem or exc.context or "YAML syntax error"
    lines = text.split("\n")
    if line is not None and line <= len(lines) and "\t" in lines[line - 1][: (mark.column + 1 if mark else None)]:
        problem += " (a tab: YAML is indented with spaces only)"
    context = exc.context_mark.line + 1 if exc.context_mark and exc.problem else None
    if exc.context and context is not None and context != line:
        problem += f" ({exc.context} started at line {context})"
    return problem


def unquoted_comment(key: str | None, value: str) -> str:
    """The hint for a value YAML took for a comment (``fill: #fbf6ea``): ``an unquoted '#'
    starts a YAML comment, so '#fbf6ea' was read as one; put the value in quotes: fill:
    "#fbf6ea"`` (``key`` None: a list's item, quoted alone)."""
    quoted = f'{key}: "{value}"' if key else f'"{value}"'
    return f"an unquoted '#' starts a YAML comment, so '{value}' was read as one; put the value in quotes: {quoted}"


#: Where a flow collection may open: after a key's colon, a list dash, a comma or another opening.
_FLOW_OPENS_AFTER = (":", "-", ",", "{", "[", "")


def flow_comment(text: str, before: int | None) -> tuple[int, str | None, str] | None:
    """The first comment that swallows a value inside a flow collection (``{…}`` or ``[…]``, on
    one line or across several) on or before line ``before`` (1-based; None: anywhere): one
    right after a key's colon (``{fill: #fbf6ea, …}``) or that reads as a colour
    (``[#fff, #000]``). Returns (its line, the key whose value it is or None, the value it
    swallowed, ``#fbf6ea``), or None. Such a comment ends the line, so the collection runs on
    into the next lines and the parser fails later. A rough scan (quotes, brackets where a value
    may start, ``#`` after a space), used only to explain a syntax error."""
    depth = 0
    for number, line in enumerate(text.split("\n"), 1):
        if before is not None and number > before:
            return None
        depth, found = _scan_line(line, depth)
        if found is not None:
            return number, found[0], found[1]
    return None


def _scan_line(line: str, depth: int) -> tuple[int, tuple[str | None, str] | None]:
    """One line of :func:`flow_comment`'s scan, begun ``depth`` flow collections deep: the depth
    at its end, and (key or None, value) of a comment on it that swallowed a value, else None."""
    quote: str | None = None
    i = 0
    while i < len(line):
        ch = line[i]
        if quote:
            i, quote = _in_quote(line, i, quote)
        elif ch in "'\"" and _after(line, i, " \t{[,:"):
            quote = ch
        elif ch in "{[" and line[:i].rstrip()[-1:] in _FLOW_OPENS_AFTER:
            depth += 1
        elif ch in "}]" and depth:
            depth -= 1
        elif ch == "#" and _after(line, i, " \t"):
            return depth, _swallowed(line, i, depth)  # a comment: the rest of the line
        i += 1
    return depth, None


def _after(line: str, i: int, chars: str) -> bool:
    """Whether ``line[i]`` begins the line or follows one of ``chars``."""
    return i == 0 or line[i - 1] in chars


def _in_quote(line: str, i: int, quote: str) -> tuple[int, str | None]:
    """The scan inside a quoted value at ``line[i]``: (the index of the character read, the
    quote still open or None); a double-quoted value's backslash passes over the next character."""
    if line[i] == "\\" and quote == '"':
        return i + 1, quote  # an escaped character
    return i, None if line[i] == quote else quote


def _swallowed(line: str, i: int, depth: int) -> tuple[str | None, str] | None:
    """For a comment at ``line[i]``, ``depth`` flow collections deep: (the key whose value it
    is or None, the value it swallowed) if it stands where a value is (after a colon) or reads
    as a colour; else None (a comment that swallowed nothing)."""
    value = re.match(r"#[^\s,}\]]*", line[i:])
    swallowed = value.group() if value else "#"
    if depth and (line[:i].rstrip().endswith(":") or re.fullmatch(r"#[0-9A-Fa-f]{3,8}", swallowed)):
        key = re.search(r"([\w.-]+)\s*:\s*$", line[:i])
        return key.group(1) if key else None, swallowed
    return None


class _Frame:
    """An open list or mapping while its events are read."""

    __slots__ = ("value", "where", "anchor", "start", "key", "line", "shape", "limit")

    def __init__(self, value: Any, where: tuple[Any, ...], anchor: str | None, start: int, line: int,
                 shape: lengths.Shape = None):
        self.value = value
        self.where = where
        self.anchor = anchor
        self.start = start  # value count when opened: its size, for aliases, is the difference
        self.key: str | None = None  # a mapping's key waiting for its value
        self.line = line
        self.shape = shape  # where the schemas place it (lengths.Shape), and its most entries
        self.limit = lengths.limit(shape, "object" if isinstance(value, dict) else "array")


class _Builder:
    """Turns one YAML event stream into plain values and a line map, iteratively."""

    def __init__(self, path: Path, loader: Any, shape: lengths.Shape = None):
        self.path = path
        self.shape = shape
        self.loader = loader
        self.lines: Lines = {}
        self.anchors: dict[str, tuple[Any, int]] = {}
        self.count = 0
        self.stack: list[_Frame] = []

    def fail(self, message: str, line: int | None, where: tuple[Any, ...] | None = None) -> CatalogueError:
        return CatalogueError(self.path, message, line=line, field=dotted(where) or None if where else None)

    def document(self) -> tuple[Any, Lines]:
        get = self.loader.get_event
        event = get()  # StreamStart
        event = get()
        if isinstance(event, yaml.StreamEndEvent):
            raise self.fail("the file is empty", 1)
        # event is DocumentStart
        root: list[Any] = []
        while True:
            event = get()
            if isinstance(event, yaml.DocumentEndEvent):
                break
            done = self.event(event)
            if done is not None:
                root.append(done[0])
        event = get()
        if not isinstance(event, yaml.StreamEndEvent):
            raise self.fail("more than one YAML document (a second '---'); a catalogue is one document", event.start_mark.line + 1)
        return root[0], self.lines

    def where(self) -> tuple[Any, ...]:
        """The path the next value will have."""
        if not self.stack:
            return ()
        top = self.stack[-1]
        return top.where + ((top.key,) if isinstance(top.value, dict) else (len(top.value),))

    def event(self, event: Any) -> tuple[Any] | None:
        """Handle one event; returns ``(value,)`` when the top-level value is complete."""
        line = event.start_mark.line + 1
        top = self.stack[-1] if self.stack else None
        if top is not None and isinstance(top.value, dict) and top.key is None and not isinstance(event, yaml.MappingEndEvent):
            self.key(event, top, line)
            return None
        if isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            return self.close()
        if top is not None and top.limit is not None and isinstance(top.value, list) and len(top.value) >= top.limit:
            raise self.long(top)
        where = self.where()
        self.lines.setdefault(where, line)
        if isinstance(event, yaml.AliasEvent):
            return self.alias(event, where, line)
        self.spend(1, line)
        if isinstance(event, yaml.ScalarEvent):
            value = self.scalar(event, where, line)
            if event.anchor is not None:
                self.anchors[event.anchor] = (value, 1)
            return self.attach(value)
        self.open(event, top, where, line)
        return None

    def close(self) -> tuple[Any] | None:
        """End the list or mapping on top: its anchor (if any) now names it, and it is attached."""
        frame = self.stack.pop()
        if frame.anchor is not None:
            self.anchors[frame.anchor] = (frame.value, self.count - frame.start)
        return self.attach(frame.value)

    def alias(self, event: Any, where: tuple[Any, ...], line: int) -> tuple[Any] | None:
        """An alias: its anchor's value attached again, each value it holds counted again."""
        if event.anchor not in self.anchors:
            raise self.fail(f"alias *{one_line(str(event.anchor))} has no complete anchor before it (recursive or undefined)", line, where)
        value, size = self.anchors[event.anchor]
        self.spend(size, line)
        return self.attach(value)

    def open(self, event: Any, top: _Frame | None, where: tuple[Any, ...], line: int) -> None:
        """Begin a list or mapping at ``where`` (plain YAML only, at most :data:`MAX_DEPTH` deep),
        placed where the schemas say (:func:`tokengen.sources.lengths.child`)."""
        kind, empty = (_MAP, dict) if isinstance(event, yaml.MappingStartEvent) else (_SEQ, list)
        if event.tag not in (None, "!", kind):
            raise self.fail(f"unsupported YAML tag {_tag(event.tag)} (only plain YAML is read)", line, where)
        if len(self.stack) >= MAX_DEPTH:
            raise self.fail(f"lists and mappings nested more than {MAX_DEPTH} deep", line)
        if top is None:
            shape = self.shape
        else:
            kind = "object" if isinstance(top.value, dict) else "array"
            shape = lengths.child(top.shape, kind, top.key if kind == "object" else None)
        self.stack.append(_Frame(empty(), where, event.anchor, self.count, line, shape))

    def long(self, frame: _Frame) -> CatalogueError:
        """The refusal of ``frame``, a list or mapping with more entries than its schema allows."""
        return self.fail(f"has more than {frame.limit} entries", self.lines.get(frame.where, frame.line), frame.where)

    def key(self, event: Any, frame: _Frame, line: int) -> None:
        if not isinstance(event, yaml.ScalarEvent) or event.tag not in (None, "!", _STR):
            raise self.fail("mapping keys must be plain text", line, frame.where)
        key = str(event.value)
        if key == "<<" and event.implicit[0]:
            raise self.fail("YAML merge keys (<<) are not supported", line, frame.where)
        if frame.limit is not None and len(frame.value) >= frame.limit and key not in frame.value:
            raise self.long(frame)
        if key in frame.value:
            first = self.lines[frame.where + (key,)]
            raise self.fail(f"duplicate key (first given at line {first})", line, frame.where + (key,))
        frame.key = key
        self.lines[frame.where + (key,)] = line
        return None

    def attach(self, value: Any) -> tuple[Any] | None:
        if not self.stack:
            return (value,)
        top = self.stack[-1]
        if isinstance(top.value, dict):
            assert top.key is not None
            top.value[top.key] = value
            top.key = None
        else:
            top.value.append(value)
        return None

    def spend(self, size: int, line: int) -> None:
        self.count += size
        if self.count > MAX_NODES:
            raise self.fail(f"more than {MAX_NODES} values (each use of an alias counts all it repeats)", line)

    def scalar(self, event: yaml.ScalarEvent, where: tuple[Any, ...], line: int) -> Any:
        """A scalar's value, as its tag (:meth:`scalar_tag`) says; a plain number keeps how it was
        written (:class:`WrittenInt`, :class:`WrittenFloat`).

        Raises:
            CatalogueError: an unsupported tag, a bad value, a whole number over
                :data:`MAX_INT_DIGITS` digits.
        """
        tag = self.scalar_tag(event, where, line)
        node = yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark, event.style)  # type: ignore[arg-type]  # libyaml's marks (yaml._yaml.Mark) serve as well
        if tag == _YAML + "int" and len(event.value) > MAX_INT_DIGITS:  # before int(): no 4,300-digit conversion
            raise self.fail(f"whole number too long ({len(event.value)} characters; at most {MAX_INT_DIGITS} digits)", line, where)
        try:
            value = self.loader.yaml_constructors[tag](self.loader, node)
        except (yaml.YAMLError, ValueError, OverflowError) as exc:
            raise self.fail(f"bad {_tag(tag)} value: {one_line(str(exc))}", line, where) from None
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**MAX_INT_DIGITS:
            raise self.fail(f"number too large (at most {MAX_INT_DIGITS} digits)", line, where)
        if type(value) in (int, float) and not event.style and str(value) != event.value:  # plain 007, 1.10, 1e3
            return (WrittenInt if isinstance(value, int) else WrittenFloat)(value, event.value)
        return value

    def scalar_tag(self, event: yaml.ScalarEvent, where: tuple[Any, ...], line: int) -> str:
        """A scalar's tag: the one written (a plain YAML one only), else the one the loader
        resolves, as text unless it is a string, number, boolean or null (YAML 1.2: only true
        and false are booleans)."""
        tag = event.tag
        if tag is None or tag == "!":
            tag = self.loader.resolve(yaml.ScalarNode, event.value, event.implicit)
            if tag not in _SCALAR_TAGS:  # implicit timestamps, '=' …: keep the text
                tag = _STR
            elif tag == _BOOL and event.value.lower() not in ("true", "false"):  # YAML 1.2: yes, no, on, off are text
                tag = _STR
        elif tag not in _SCALAR_TAGS:
            raise self.fail(f"unsupported YAML tag {_tag(tag)} (only plain YAML is read)", line, where)
        return str(tag)


class WrittenInt(int):
    """A whole number read from a plain YAML scalar written otherwise than Python prints it
    (``007``, ``+5``, ``0x1F``), keeping ``written``: a text field prints what was written."""

    written: str

    def __new__(cls, value: int, written: str) -> WrittenInt:
        number = super().__new__(cls, value)
        number.written = written
        return number

    def __getnewargs__(self) -> tuple[int, str]:  # type: ignore[override]  # pickled and copied with its text
        return int(self), self.written


class WrittenFloat(float):
    """A number read from a plain YAML scalar written otherwise than Python prints it (``1.10``,
    ``1e3``), keeping ``written`` (see :class:`WrittenInt`)."""

    written: str

    def __new__(cls, value: float, written: str) -> WrittenFloat:
        number = super().__new__(cls, value)
        number.written = written
        return number

    def __getnewargs__(self) -> tuple[float, str]:  # type: ignore[override]  # pickled and copied with its text
        return float(self), self.written


def _tag(tag: str) -> str:
    """``tag:yaml.org,2002:python/object`` → ``!!python/object`` (as it is written)."""
    return one_line("!!" + tag[len(_YAML):] if tag.startswith(_YAML) else tag)


def one_line(text: str, limit: int = 120) -> str:
    """One short printable line: control characters escaped, long text cut."""
    out = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in str(text))
    return out if len(out) <= limit else out[: limit - 3] + "..."


def dotted(where: tuple[Any, ...]) -> str:
    """``("tokens", 3, "priority")`` → ``"tokens[3].priority"`` (keys with control characters
    escaped, so a message stays on one line)."""
    out = ""
    for part in where:
        out += f"[{part}]" if isinstance(part, int) else (f".{one_line(part, 60)}" if out else one_line(part, 60))
    return out if len(out) <= 100 else out[:97] + "..."


def plain(data: Any) -> Any:
    """``data`` with every :class:`WrittenInt` and :class:`WrittenFloat` as a plain int or float
    (for libraries that take only the built-in types, such as jsonschema-rs); the same objects
    where nothing changes.

    Raises:
        RecursionError: data nested deeper than Python's recursion limit.
    """
    if isinstance(data, WrittenInt):
        return int(data)
    if isinstance(data, WrittenFloat):
        return float(data)
    if isinstance(data, dict):
        changed = {key: plain(value) for key, value in data.items()}
        return changed if any(changed[k] is not data[k] for k in data) else data
    if isinstance(data, list):
        items = [plain(value) for value in data]
        return items if any(a is not b for a, b in zip(items, data, strict=True)) else data
    return data


def floats(data: Any, where: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], float]]:
    """Every float in read YAML ``data`` with its path (keys and list indexes), in document order.

    Raises:
        RecursionError: data nested deeper than Python's recursion limit.
    """
    if isinstance(data, float):
        yield where, data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield from floats(value, where + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from floats(value, where + (i,))
