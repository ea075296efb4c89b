"""Standard output that cannot be written: a closed pipe (``| head``), a full disk
(``> /dev/full``), or an encoding that cannot show the text (``PYTHONIOENCODING=latin-1``).

Each is one line on stderr and exit code 2, never a traceback or Python's "Exception ignored"
at shutdown. After such a failure stdout is pointed at ``/dev/null``, so the interpreter's own
final flush cannot fail a second time (the advice of Python's ``signal`` documentation for
SIGPIPE).
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import os
import sys
from types import TracebackType

#: errno values that mean "this stream can take no more".
STREAM_ERRORS = (errno.EPIPE, errno.ENOSPC, errno.EIO, errno.EFBIG, getattr(errno, "EDQUOT", errno.ENOSPC))


def _innermost(tb: TracebackType | None) -> TracebackType | None:
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb


def _encoding_name(name: str | None) -> str | None:
    try:
        return codecs.lookup(name).name if name else None
    except LookupError:
        return None


def stdout_failure(exc: BaseException) -> str | None:
    """The one-line message when ``exc`` is a failure to write standard output (raised by
    ``click.echo`` writing to stdout), else None."""
    tb = _innermost(exc.__traceback__)
    if tb is None:
        return None
    frame = tb.tb_frame
    if frame.f_code.co_name != "echo" or "click" not in frame.f_code.co_filename or frame.f_locals.get("err"):
        return None
    return _describe(exc)


def _describe(exc: BaseException) -> str | None:
    if isinstance(exc, UnicodeEncodeError):
        bad = exc.object[exc.start:exc.end][:1]
        stdout_encoding = _encoding_name(getattr(sys.stdout, "encoding", None)) or exc.encoding
        _silence_stdout()
        return (f"standard output cannot show '{bad}' (U+{ord(bad):04X}) in its encoding {stdout_encoding}; "
                "set PYTHONIOENCODING=utf-8 or use a UTF-8 terminal")
    if isinstance(exc, OSError) and exc.errno in STREAM_ERRORS:
        _silence_stdout()
        return f"cannot write to standard output: {exc.strerror or exc}"
    return None


#: The message for a closed pipe (``tokengen check | head -1``).
BROKEN_PIPE = f"cannot write to standard output: {os.strerror(errno.EPIPE)}"


def click_pacified() -> bool:
    """True when click has met a closed pipe on stdout: its own EPIPE handling wraps
    ``sys.stdout`` (``_PacifyFlushWrapper``) and exits 1 without a word."""
    if type(sys.stdout).__name__ != "_PacifyFlushWrapper":
        return False
    _silence_stdout()
    return True


def finish_stdout(code: int) -> int:
    """Flush stdout at the end of a command: ``code`` when that works; else the one-line error on
    stderr and 2."""
    try:
        sys.stdout.flush()
    except (OSError, UnicodeEncodeError, ValueError) as exc:
        message = _describe(exc) if not isinstance(exc, ValueError) else None
        if message is None:
            return code
        report(message)
        return 2
    return code


def report(message: str) -> None:
    """Write ``tokengen: error: MESSAGE`` on stderr (ignoring a stderr that cannot take it)."""
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.write(f"tokengen: error: {message}\n")
        sys.stderr.flush()


def _silence_stdout() -> None:
    """Point stdout's file descriptor at /dev/null, so what is still buffered and the
    interpreter's last flush go nowhere instead of failing again."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
