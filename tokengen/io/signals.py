"""The ending signal of the process (SIGTERM, SIGHUP), remembered where a library swallows the
exit it raises: watchfiles turns any exception of a signal handler into a plain stop, so
``build --watch`` ended by a ``kill`` would exit 0 (issue 37); :func:`ended_by` lets the watch
exit with 128 + the signal as every other command does."""

from __future__ import annotations

import sys
from types import FrameType

#: The signal that asked this process to end, once one has.
_received: int | None = None


def exit_on(signum: int, frame: FrameType | None) -> None:
    """Signal handler: remember ``signum``, then exit with 128 + ``signum`` (SystemExit, so
    the normal clean-up runs)."""
    global _received
    _received = signum
    sys.exit(128 + signum)


def ended_by() -> int | None:
    """The signal :func:`exit_on` has handled in this process, or None."""
    return _received
