"""Atomic output: write to a temporary file beside the target, rename into place when complete.

An interrupted run (Ctrl-C, kill, an exception, a full disk) leaves the previous file or
nothing, never a truncated one.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from .errors import ExportError


@contextlib.contextmanager
def atomic_path(target: str | Path, *, inputs: tuple[Path, ...] = ()) -> Iterator[Path]:
    """Yield a temporary path in ``target``'s folder; on success rename it onto ``target``.

    Args:
        target: the final output file.
        inputs: files the run reads; writing onto one of them is refused.
    Raises:
        ExportError: the target is an input, its folder is missing or not writable, or the
            write failed (the temporary file is removed and ``target`` left untouched).
    """
    target = Path(target)
    for source in inputs:
        if target.exists() and source.exists() and target.resolve() == source.resolve():
            raise ExportError(f"{target}: output would overwrite an input file")
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise ExportError(f"{target}: folder {folder} does not exist")
    try:
        fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=folder)
    except OSError as exc:
        raise ExportError(f"{target}: cannot write in {folder}: {exc.strerror}") from None
    os.close(fd)
    temp = Path(name)
    try:
        yield temp
        os.chmod(temp, 0o644)
        os.replace(temp, target)
    except OSError as exc:
        raise ExportError(f"{target}: write failed: {exc.strerror or exc}") from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            temp.unlink()
