"""Ctrl-C while the ``tokengen`` command starts: exit 130 with one line, never a traceback.

Importing tokengen (ReportLab, Pillow, click, jsonschema) takes a noticeable moment; a Ctrl-C
then would end in Python's KeyboardInterrupt traceback before :func:`tokengen.cli.run` can
handle it. When the running program is the ``tokengen`` console script, the package's first
import installs a SIGINT handler that writes ``tokengen: interrupted`` and exits 130 (nothing
has been written yet, so there is nothing to clean up); :func:`tokengen.cli.run` puts Python's
own handler back once the command line is ready. Imported as a library, nothing changes.
"""

from __future__ import annotations

import os
import signal
import sys
import threading


def _interrupted(signum: int, frame: object) -> None:
    try:
        os.write(2, b"tokengen: interrupted\n")
    finally:
        os._exit(130)


def is_command() -> bool:
    """True when this process is the ``tokengen`` console script."""
    argv = getattr(sys, "argv", None) or [""]
    name = os.path.basename(str(argv[0])).lower()
    return name in ("tokengen", "tokengen.exe", "tokengen-script.py")


def quiet_start() -> None:
    """Install the start-up SIGINT handler when this is the ``tokengen`` command (see module)."""
    if (is_command() and threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler):
        signal.signal(signal.SIGINT, _interrupted)
