"""A test hook: stop a running command at a named point so a test can act on it there.

Tests of signals (``SIGKILL``, ``SIGTERM``, Ctrl-C in the middle of a build) must hit the build at
a known point, not after a guessed delay that a fast or a loaded machine gets wrong. With
``TOKENGEN_TEST_STOP_AT=NAME`` in the environment the process stops itself with ``SIGSTOP`` the
first time it reaches :func:`checkpoint` ``NAME``; the test waits for that stop
(``os.waitpid(pid, os.WUNTRACED)``), sends its signal and resumes the process with ``SIGCONT``.

Named points: ``page`` (a build has drawn its first page; its temporary output file is open).
Without the variable (or where the platform has no ``SIGSTOP``) a checkpoint does nothing.
"""

from __future__ import annotations

import os
import signal

#: The environment variable naming the point to stop at.
ENV = "TOKENGEN_TEST_STOP_AT"

_stop_at = os.environ.get(ENV)


def checkpoint(name: str) -> None:
    """Stop this process with ``SIGSTOP`` if ``TOKENGEN_TEST_STOP_AT`` names ``name`` (once per process)."""
    global _stop_at
    if _stop_at is not None and _stop_at == name and hasattr(signal, "SIGSTOP"):
        _stop_at = None
        os.kill(os.getpid(), signal.SIGSTOP)
