"""A cheap look at a content stream's bytes before qpdf parses it: the most items one array or
dictionary holds.

qpdf builds an array or dictionary whole before any callback sees it (one object, however long),
at about 200 bytes an item: a page whose ``TJ`` array held 2,000,000 numbers (4 MB of content)
took 400 MB to read. :func:`largest_container` counts the items of each outermost array or
dictionary (nested ones and their items included) with regular expressions over the decoded
bytes, so the reader can refuse such a stream before qpdf reads it.

The lexical rules followed are those of PDF 32000-1:2008 7.2 and 7.3: white space (7.2.2,
table 1), delimiters (table 2), comments (7.2.3), literal strings with balanced parentheses and
backslash escapes (7.3.4.2), hexadecimal strings (7.3.4.3), names (7.3.5); and an inline image's
data (8.9.7), which runs from one white-space byte after ``ID`` to an ``EI`` with white space on
both sides, is skipped as qpdf skips it.
"""

from __future__ import annotations

import re

_WS = rb"\x00\t\n\x0c\r "
_DELIM = rb"()<>\[\]{}/%"
#: What changes the scanner's state: a delimiter, or ``ID`` standing alone (an inline image).
_EVENT = re.compile(rb"[()\[\]<>{}%]|(?<![^" + _WS + rb"])ID(?=[" + _WS + rb"])")
#: One regular token (a number, an operator, ``true``…) or a name.
_REGULAR = re.compile(rb"/?[^" + _WS + _DELIM + rb"]+|/")
#: Parentheses nested this deep inside a string are passed over by one match (:data:`_BODY`).
_NEST = 8


def _body(depth: int) -> bytes:
    """A pattern for string bytes with balanced parentheses nested at most ``depth`` deep
    (possessive, so it never backtracks: linear in what it reads)."""
    inner = rb"(?:[^\\()]++|\\.)*+" if depth == 0 else rb"(?:[^\\()]++|\\.|\(" + _body(depth - 1) + rb"\))*+"
    return inner


#: The rest of a literal string up to its next parenthesis not in a balanced group (or its end).
_BODY = re.compile(_body(_NEST), re.S)
_ESCAPE = re.compile(rb"\\.", re.S)
_SPACE = re.compile(rb"[" + _WS + rb"]")
_CHUNK = 1 << 16
_COMMENTS = re.compile(rb"%[^\r\n]*(?:[" + _WS + rb"]*%[^\r\n]*)*")
_END_IMAGE = re.compile(rb"[" + _WS + rb"]EI(?=[" + _WS + rb"]|\Z)")


class TooManyTokens(Exception):
    """:func:`largest_container` took more than ``limit`` steps (see its ``steps``)."""

    def __init__(self, limit: int):
        super().__init__(limit)
        self.limit = limit


def worth_scanning(data: bytes, cap: int) -> bool:
    """True when ``data`` could hold a container of more than ``cap`` items: every item starts
    after white space or a delimiter, so a stream with fewer of those cannot (counts in C)."""
    if len(data) <= cap:
        return False
    starts = 1 + sum(data.count(sep) for sep in (b" ", b"\n", b"\r", b"\t", b"/", b"(", b"[", b"<", b"\x00", b"\x0c"))
    return starts > cap


def largest_container(data: bytes, cap: int, steps: int) -> int:
    """The item count of the largest outermost array or dictionary in the content stream ``data``
    (its items, and the items of the containers nested in it, each counted), or the first count
    found over ``cap`` (the scan stops there). Strings, comments and inline images are skipped
    whole; a string inside a container is one item.

    Linear in ``len(data)``: regular tokens, comments and the inside of strings are passed over
    by the regular-expression engine; Python takes one step per delimiter, string, run of
    comments, and parenthesis nested more than :data:`_NEST` deep in a string.

    Raises:
        TooManyTokens: after more than ``steps`` steps (a bound on the scan's own work).
    """
    return _Scan(data, cap, steps).run()


class _Scan:
    """The state of one :func:`largest_container` scan."""

    def __init__(self, data: bytes, cap: int, steps: int):
        self.data, self.cap, self.limit = data, cap, steps
        self.steps = 0

    def step(self) -> None:
        self.steps += 1
        if self.steps > self.limit:
            raise TooManyTokens(self.limit)

    def run(self) -> int:
        data, cap = self.data, self.cap
        depth = items = largest = pos = 0
        while pos < len(data):
            found = _EVENT.search(data, pos)
            if found is None:
                break
            at = found.start()
            if depth:
                items += _count_regular(data, pos, at, cap - items)
            self.step()
            pos, delta, item = self.event(at)
            items += item if depth else 0
            if delta > 0:
                items += 1 if depth else 0  # a nested container is an item of its parent
                depth += 1
            elif delta < 0 and depth:
                depth -= 1
                largest, items = (max(largest, items), 0) if not depth else (largest, items)
            if items > cap:
                return items
        return max(largest, items)

    def event(self, at: int) -> tuple[int, int, int]:
        """(where the scan goes on, +1 opening / -1 closing a container / 0, items it adds) for
        the delimiter or ``ID`` at ``at``."""
        data = self.data
        byte = data[at:at + 1]
        double = data[at + 1:at + 2] == byte
        if byte == b"(":
            return self.string(at + 1), 0, 1
        if byte == b"%":  # this comment, and any that follow it with only white space between
            return _COMMENTS.match(data, at).end(), 0, 0  # type: ignore[union-attr]  # starts with %: always matches
        if byte in b"<>" and double:
            return at + 2, 1 if byte == b"<" else -1, 0
        if byte == b"<":  # a hexadecimal string
            close = data.find(b">", at + 1)
            return (close + 1 if close >= 0 else len(data)), 0, 1
        if byte in b"[]":
            return at + 1, 1 if byte == b"[" else -1, 0
        if byte == b"I":  # ID: the image data runs to an EI between white space
            image_end = _END_IMAGE.search(data, at + 3)
            return (image_end.end() if image_end else len(data)), 0, 1
        return at + 1, 0, 1  # a stray ) or >, or a brace: one token

    def string(self, pos: int) -> int:
        """Where the literal string whose ``(`` ends just before ``pos`` closes (balanced
        parentheses, backslash escapes), or the end of the data when it never does.

        Groups nested up to :data:`_NEST` deep are passed over by one match; past that, each
        parenthesis or window is a step, but at nesting level L ≥ 2 the next L − 1 bytes cannot close the
        string (they hold at most L − 1 closing parentheses) and are passed over whole, their
        parentheses counted in C, so a deeply nested string costs a step per doubling of its
        level, not one per parenthesis."""
        data = self.data
        level = 1
        while pos < len(data):
            if level > _NEST:
                pos, level = _skip_window(data, pos, level)
                self.step()
                continue
            pos = _BODY.match(data, pos).end()  # type: ignore[union-attr]  # matches the empty string at worst
            if pos >= len(data):
                break
            level += 1 if data[pos] == 0x28 else -1
            pos += 1
            if not level:
                return pos
            self.step()
        return len(data)


def _count_regular(data: bytes, start: int, stop: int, room: int) -> int:
    """The regular tokens and names in ``data[start:stop]`` (no delimiter other than ``/`` in
    it), counted 64 KiB at a time (cut at white space) until more than ``room`` are found."""
    count = 0
    while start < stop and count <= room:
        cut = min(stop, start + _CHUNK)
        if cut < stop:
            space = _SPACE.search(data, cut, stop)
            cut = space.start() if space else stop
        count += len(_REGULAR.findall(data, start, cut))
        start = cut
    return count


def _skip_window(data: bytes, pos: int, level: int) -> tuple[int, int]:
    """(position, level) after the next ``level`` − 1 bytes of a string at nesting ``level``
    (one more when the window would end inside an escape pair)."""
    stop = min(len(data), pos + level - 1)
    plain = _ESCAPE.sub(b"", data[pos:stop])
    if plain.endswith(b"\\") and stop < len(data):  # a lone backslash: its escaped byte is the next one
        stop += 1
        plain = plain[:-1]
    return stop, level + plain.count(b"(") - plain.count(b")")
