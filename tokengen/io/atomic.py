"""Atomic output: write to a temporary file beside the target, rename into place when complete.

An interrupted run (Ctrl-C, kill, an exception, a full disk) leaves the previous file or
nothing, never a truncated one: the rename (``os.replace``) is atomic on one file system, and
the temporary file lives in the target's own folder so it is on the same one. The temporary
file's data is flushed to the disk (``os.fsync``) before it is renamed, and on POSIX the folder
after the rename (where the file system allows a folder to be synced), so a power cut leaves
the previous file or the whole new one, never a renamed file whose data never reached the disk.

The one thing a run cannot clean up after is its own ``SIGKILL`` (or a power cut): that leaves
a hidden ``.NAME.PID.XXXX.part`` file beside the target (never the target itself). The next
run writing the same target removes such leftovers whose process is no longer running on
this machine (see :func:`remove_stale_parts`).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

from ..errors import ExportError
from . import guard

#: Suffix of the temporary files.
PART = ".part"


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


def _prefix(name: str, limit: int) -> str:
    """The start of the temporary names for the output ``name`` (``.NAME.PID.``): when that and
    the rest (8 random characters and ``.part``) would be longer than ``limit`` bytes (the file
    system's NAME_MAX), ``NAME`` is cut and followed by ``~`` and 8 hex digits of its hash, so
    any name the file system takes has a temporary name it takes too."""
    pid = f"{os.getpid()}."
    full = f".{name}."
    widest = len("4294967295.")  # room for any PID, so the cut (and the stem) is the same for every run
    if len(os.fsencode(full)) + widest + 8 + len(PART) <= limit:
        return full + pid
    digest = hashlib.sha256(os.fsencode(name)).hexdigest()[:8]
    room = limit - widest - 8 - len(PART) - len(".~.") - len(digest)
    cut = os.fsencode(name)[: max(room, 1)].decode("utf-8", "ignore") or "x"
    return f".{cut}~{digest}.{pid}"


def _stem(target: Path, folder: Path) -> str:
    """``_prefix`` without the PID: what every run's temporary names for ``target`` start with."""
    prefix = _prefix(target.name, guard.name_max(folder))
    return prefix[: -len(f"{os.getpid()}.")]


#: Temporary files this process is writing now (removed by :func:`remove_live_parts`).
_LIVE: set[Path] = set()


def remove_live_parts() -> None:
    """Remove every temporary file this process is writing now: for a signal handler that ends
    the process without unwinding (a batch worker told to stop)."""
    for part in list(_LIVE):
        with contextlib.suppress(OSError):
            part.unlink()
        _LIVE.discard(part)


def remove_stale_parts(target: str | Path) -> list[Path]:
    """Remove temporary files that killed runs left beside ``target``.

    Only files named like this module's own (``.NAME.PID.XXXX.part``) whose PID is not a
    running process are removed; a live run's file is never touched. (PIDs are per machine:
    on a folder shared between machines or containers, a leftover may be kept, never a live
    file removed unless two machines write the very same output at once.)

    Returns:
        The files removed.
    """
    return _remove_stale([Path(target)])


def _remove_stale(targets: Sequence[Path]) -> list[Path]:
    """:func:`remove_stale_parts` for every one of ``targets``, each folder listed once (a set of
    1,000 PNGs in one folder: one listing, not 1,000), in the order of the listing."""
    removed: list[Path] = []
    by_folder: dict[Path, set[str]] = {}
    for target in targets:
        folder = _folder(target)
        by_folder.setdefault(folder, set()).add(_stem(target, folder))
    for folder, stems in by_folder.items():
        with contextlib.suppress(OSError):
            for entry in os.scandir(folder):
                name = entry.name
                if not name.endswith(PART):
                    continue
                for dot in (i for i, c in enumerate(name) if c == "."):  # the stem is ``.NAME.``: it ends at a dot
                    if name[: dot + 1] not in stems:
                        continue
                    pid_text = name[dot + 1:].split(".", 1)[0]
                    if not pid_text.isdigit() or int(pid_text) == os.getpid() or _alive(int(pid_text)):
                        continue
                    part = folder / name
                    with contextlib.suppress(OSError):
                        part.unlink()
                        removed.append(part)
                    break
    return removed


@contextlib.contextmanager
def no_empty_folder_left(folder: str | Path) -> Iterator[None]:
    """Inside, a run may make the output ``folder`` (and its missing parents); when the block
    raises (any exception, Ctrl-C included), each of those that did not exist on entry and is
    still empty is removed again, deepest first: a failed command leaves no folder behind. A
    folder holding any file stays. Never raises itself (the block's exception passes through)."""
    missing: list[Path] = []
    path = Path(os.path.abspath(folder))
    while not os.path.lexists(path) and path.parent != path:
        missing.append(path)
        path = path.parent
    try:
        yield
    except BaseException:
        for made in missing:
            try:
                os.rmdir(made)  # only an empty folder
            except OSError:
                break  # not empty (or not ours): its parents hold it
        raise


@contextlib.contextmanager
def atomic_path(target: str | Path, *, inputs: tuple[Path, ...] = ()) -> Iterator[Path]:
    """Yield a temporary path in ``target``'s folder; on success rename it onto ``target``.

    Args:
        target: the final output file. When it is a symlink, the file it points to is replaced
            and the link kept. When it exists, its permission bits are kept; a new file gets
            0666 less the umask.
        inputs: files the run reads; writing onto one of them (also through a symlink or a
            hard link) is refused, and so is writing onto any input noted in
            :mod:`tokengen.io.guard` (catalogues, art, profiles, job files, the bundled fonts).
    Raises:
        ExportError: the target is an input, not a regular file, a symlink loop or too long a
            name; its folder is missing or not writable; or the write failed (the temporary file
            is removed and ``target`` left untouched). Any other exception (a drawing error,
            Ctrl-C) passes through, also after removing the temporary file.
    """
    with atomic_files([Path(target)], inputs=inputs) as (temp,):
        yield temp


@contextlib.contextmanager
def atomic_files(targets: Sequence[Path], *, inputs: tuple[Path, ...] = ()) -> Iterator[list[Path]]:
    """All or nothing for a set of outputs (a PDF and its PNGs): every target is checked as in
    :func:`atomic_path` before any is written; one temporary path per target is yielded; only
    when the block ends without error are they renamed into place, else every temporary file is
    removed and no target changed. (Should a rename itself fail, which needs the folder to change
    under the run, the message says how many targets were already replaced.)

    Raises:
        ExportError: as :func:`atomic_path`, naming the target, never its temporary file.
    """
    reals = guard.check_outputs(targets, inputs)
    for real in reals:
        if not _folder(real).is_dir():
            raise ExportError(f"{real}: folder {_folder(real)} does not exist")
    temps: list[Path] = []
    _remove_stale(reals)
    try:
        _make_temps(reals, temps)
        try:
            yield list(temps)
        except OSError as exc:
            raise ExportError(f"{reals[0] if len(reals) == 1 else reals[0].parent}: write failed: {exc.strerror or exc}") from None
        _sync_all(temps, reals)  # every file on the disk before any is renamed
        _replace_all(temps, reals)
        for folder in dict.fromkeys(_folder(real) for real in reals):
            _sync_folder(folder)
    finally:
        for temp in temps:
            with contextlib.suppress(FileNotFoundError):
                temp.unlink()
            _LIVE.discard(temp)


def _folder(target: Path) -> Path:
    """The folder ``target`` is written in (``.`` for a bare file name)."""
    return target.parent if str(target.parent) else Path(".")


def _make_temps(reals: Sequence[Path], temps: list[Path]) -> None:
    """One empty temporary file beside each of ``reals``, appended to ``temps`` as it is made
    (so the caller removes those made before a failure). Raises ExportError naming the target."""
    for real in reals:
        folder = _folder(real)
        try:
            fd, name = tempfile.mkstemp(prefix=_prefix(real.name, guard.name_max(folder)), suffix=PART, dir=folder)
        except OSError as exc:
            raise ExportError(f"{real}: cannot write in {folder}: {exc.strerror or exc}") from None
        os.close(fd)
        temps.append(Path(name))
        _LIVE.add(temps[-1])


def _sync_all(temps: Sequence[Path], reals: Sequence[Path]) -> None:
    """Flush every temporary file to the disk; raise ExportError naming its target on failure."""
    for temp, real in zip(temps, reals, strict=True):
        try:
            _sync_file(temp)
        except OSError as exc:
            raise ExportError(f"{real}: write failed: {exc.strerror or exc}") from None


def _replace_all(temps: Sequence[Path], reals: Sequence[Path]) -> None:
    """Rename each temporary file onto its target, with the target's mode. Raises ExportError
    naming the target and, past the first, how many were already replaced."""
    for done, (temp, real) in enumerate(zip(temps, reals, strict=True)):
        try:
            os.chmod(temp, _mode(real))
            os.replace(temp, real)
        except OSError as exc:
            already = f" ({done} of {len(reals)} files were already replaced)" if done else ""
            raise ExportError(f"{real}: write failed: {exc.strerror or exc}{already}") from None


def _sync_file(path: Path) -> None:
    """Flush ``path``'s data to the disk (``os.fsync``). Raises OSError as the disk reports it."""
    fd = os.open(path, os.O_RDWR | getattr(os, "O_BINARY", 0))  # Windows' fsync needs a handle open for writing
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _sync_folder(folder: Path) -> None:
    """Flush ``folder``'s entries (the renames into it) to the disk, on POSIX; nothing on Windows,
    which cannot open a folder, nor where the file system refuses to sync one (the files are
    written whole either way: this only makes the rename itself survive a power cut)."""
    if os.name == "nt":
        return
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # EINVAL and the like: a file system that does not sync folders
    finally:
        os.close(fd)


def _mode(target: Path) -> int:
    """Permission bits for ``target``: those of the file it replaces, else 0666 less the umask."""
    try:
        return stat.S_IMODE(os.stat(target).st_mode) & 0o777
    except OSError:
        return 0o666 & ~_umask()
