"""Atomic output: write to a temporary file beside the target, rename into place when complete.

An interrupted run (Ctrl-C, kill, an exception, a full disk) leaves the previous file or
nothing, never a truncated one: the rename (``os.replace``) is atomic on one file system, and
the temporary file lives in the target's own folder so it is on the same one.

The one thing a run cannot clean up after is its own ``SIGKILL`` (or a power cut): that leaves
a hidden ``.NAME.PID.XXXX.part`` file beside the target (never the target itself). The next
run writing the same target removes such leftovers whose process is no longer running on
this machine (see :func:`remove_stale_parts`).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from .errors import ExportError

#: Suffix of the temporary files.
PART = ".part"


def _same_file(a: Path, b: Path) -> bool:
    """True when ``a`` and ``b`` are one file (same path after symlinks, or hard links)."""
    try:
        return a.resolve() == b.resolve() or os.path.samefile(a, b)
    except OSError:
        return False


def _umask() -> int:
    """The process umask (read without changing it where /proc allows)."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _alive(pid: int) -> bool:
    """True while process ``pid`` exists on this machine, on every platform (psutil: on Windows
    ``os.kill(pid, 0)`` would terminate the process rather than test it)."""
    import psutil

    return psutil.pid_exists(pid)


def remove_stale_parts(target: str | Path) -> list[Path]:
    """Remove temporary files that killed runs left beside ``target``.

    Only files named like this module's own (``.NAME.PID.XXXX.part``) whose PID is not a
    running process are removed; a live run's file is never touched. (PIDs are per machine:
    on a folder shared between machines or containers, a leftover may be kept, never a live
    file removed unless two machines write the very same output at once.)

    Returns:
        The files removed.
    """
    target = Path(target)
    folder = target.parent if str(target.parent) else Path(".")
    removed = []
    prefix = f".{target.name}."
    with contextlib.suppress(OSError):
        for part in folder.iterdir():
            name = part.name
            if not (name.startswith(prefix) and name.endswith(PART)):
                continue
            pid_text = name[len(prefix):].split(".", 1)[0]
            if not pid_text.isdigit() or int(pid_text) == os.getpid() or _alive(int(pid_text)):
                continue
            with contextlib.suppress(OSError):
                part.unlink()
                removed.append(part)
    return removed


@contextlib.contextmanager
def atomic_path(target: str | Path, *, inputs: tuple[Path, ...] = ()) -> Iterator[Path]:
    """Yield a temporary path in ``target``'s folder; on success rename it onto ``target``.

    Args:
        target: the final output file.
        inputs: files the run reads; writing onto one of them (also through a symlink or a
            hard link) is refused.
    Raises:
        ExportError: the target is an input, its folder is missing or not writable, or the
            write failed (the temporary file is removed and ``target`` left untouched).
            Any other exception (a drawing error, Ctrl-C) passes through, also after removing
            the temporary file.
    """
    target = Path(target)
    for source in inputs:
        if target.exists() and source.exists() and _same_file(target, source):
            raise ExportError(f"{target}: output would overwrite an input file")
    if target.exists() and not target.is_file():  # /dev/stdout, a FIFO, a device: never replaced
        raise ExportError(f"{target}: not a regular file; give a file name to write")
    if target.is_symlink():  # write where the link points, keep the link
        target = target.resolve()
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise ExportError(f"{target}: folder {folder} does not exist")
    remove_stale_parts(target)
    try:
        fd, name = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}.", suffix=PART, dir=folder)
    except OSError as exc:
        raise ExportError(f"{target}: cannot write in {folder}: {exc.strerror or exc}") from None
    os.close(fd)
    temp = Path(name)
    try:
        yield temp
        os.chmod(temp, 0o666 & ~_umask())
        os.replace(temp, target)
    except OSError as exc:
        raise ExportError(f"{target}: write failed: {exc.strerror or exc}") from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            temp.unlink()
