"""Progress of long work, told to whoever listens (the command line's progress bar).

The library reports, it never prints: a loop over pages or images calls :func:`report` with its
label and count, and :func:`listening` lets a front end receive those reports for the length of
a ``with`` block (a context variable, so threads and nested runs keep their own listener).
Without a listener a report costs one context-variable read.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Callable, Iterator

#: ``listener(label, done, total)``: ``done`` of ``total`` items of ``label`` (``total`` None: unknown).
Listener = Callable[[str, int, "int | None"], None]

_listener: contextvars.ContextVar[Listener | None] = contextvars.ContextVar("tokengen_progress", default=None)


def report(label: str, done: int, total: int | None = None) -> None:
    """Tell the listener, if any, that ``done`` of ``total`` items of ``label`` (``"pages"``) are done."""
    listener = _listener.get()
    if listener is not None:
        listener(label, done, total)


@contextlib.contextmanager
def listening(listener: Listener) -> Iterator[None]:
    """Send every :func:`report` made inside the block to ``listener``."""
    token = _listener.set(listener)
    try:
        yield
    finally:
        _listener.reset(token)
