"""What a run may read and where it may write: one check for every input and every output.

* :func:`note_input` records each file a run reads (every YAML file through
  :func:`tokengen.sources.yamlsrc.read_yaml`, every art file the catalogue names); the bundled fonts are
  always inputs, and so are the package's own files (profiles, schemas, ICC profiles).
  :func:`check_output` refuses to write onto any of them, comparing the device
  and inode of the file the output path finally reaches (through symlinks and hard links), so
  neither ``-o art.png``, a symlink ``out/x.pdf -> ../art.png`` nor a hard link can destroy an
  input. Every output goes through it (:func:`tokengen.io.atomic.atomic_path`), before anything is
  written; a command with several outputs (a PDF and its backs, SVGs or previews; a batch)
  passes all of them to :func:`check_outputs` before it writes the first, so a refusal leaves
  nothing new on disk.
* :func:`not_regular` (for inputs) and :func:`check_output` refuse what is not a regular file by its type
  (a FIFO, a pipe such as ``/dev/stdin`` or ``<(cat x)``, a device such as ``/dev/zero``, a
  socket) before any read or write: reading one may never end, writing one is not a file.
  Piped input is refused the same way everywhere, with the advice to save it to a file.

Identities are kept with their paths and re-checked when compared, so a deleted input whose
inode is later reused is not mistaken for an input. The record lives as long as the process (a
batch worker inherits it when forked); nothing is ever removed from it but by that re-check.
"""

from __future__ import annotations

import errno
import functools
import os
import stat
from collections.abc import Callable, Iterable
from pathlib import Path

from ..errors import ExportError

#: (device, inode) → the path an input was read from.
_INPUTS: dict[tuple[int, int], str] = {}

#: Used when the file system does not say (``pathconf`` unsupported): the usual NAME_MAX.
DEFAULT_NAME_MAX = 255
#: Longest path the kernel takes (Linux PATH_MAX, counting the final NUL).
PATH_MAX = 4096


def kind(mode: int) -> str:
    """What a non-regular file is, in words: ``"a FIFO or pipe"``, ``"a character device"``, …"""
    if stat.S_ISFIFO(mode):
        return "a FIFO or pipe"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISDIR(mode):
        return "a folder"
    return "not a regular file"


def not_regular(path: str | Path) -> str | None:
    """Why ``path`` (symlinks followed) cannot be read as a file, or None when it can (or does
    not exist: the caller reports that in its own words). Never opens the file."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "is a folder, not a file"
    return f"is {kind(mode)}, not a regular file (save it to a file and give that)"


def note_input(path: str | Path, st: os.stat_result | None = None) -> None:
    """Record ``path`` as read by this run (``st``: its ``os.stat``/``os.fstat``, if at hand).
    Missing files and non-regular files are ignored."""
    try:
        st = st or os.stat(path)
    except (OSError, ValueError):
        return
    if stat.S_ISREG(st.st_mode):
        _INPUTS[(st.st_dev, st.st_ino)] = os.path.abspath(path)


def _identity(path: str | Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return (st.st_dev, st.st_ino)


def _bundled_files() -> list[Path]:
    """tokengen's own files, inputs of every run: the package with its data (fonts, profiles,
    schemas, ICC profiles) and the fonts of a ``TOKENGEN_FONT_DIR`` override (see
    :func:`tokengen.sources.fonts.font_dir`): writing over one would break every later run."""
    override = os.environ.get("TOKENGEN_FONT_DIR")
    found = sorted(Path(override).glob("*.ttf")) if override else []
    return found + list(_package_files())


@functools.cache
def _package_files() -> tuple[Path, ...]:
    package = Path(__file__).resolve().parent.parent  # tokengen/, from tokengen/io/guard.py
    return tuple(p for p in package.rglob("*") if "__pycache__" not in p.parts and p.is_file())


def input_of(target: str | Path, inputs: tuple[str | Path, ...] = (), *,
             sources: dict[tuple[int, int], str] | None = None) -> str | None:
    """The input that ``target`` would overwrite (one of ``inputs``, a noted input, a bundled
    font or a file of the tokengen package, compared by device and inode after following
    symlinks), or None. ``sources``: :func:`_sources` of ``inputs``, when the caller checks many
    targets against the same inputs (read once, not once per target)."""
    ident = _identity(target)
    if ident is None:
        return None
    source = (sources if sources is not None else _sources(inputs)).get(ident)
    if source is not None:
        return source
    noted = _INPUTS.get(ident)
    if noted is not None and _identity(noted) == ident:  # still that file (inodes are reused)
        return noted
    return None


def _sources(inputs: tuple[str | Path, ...]) -> dict[tuple[int, int], str]:
    """(device, inode) → path of each of ``inputs`` and of the bundled files, the first path of an
    identity kept (the order :func:`input_of` compares them in)."""
    found: dict[tuple[int, int], str] = {}
    for source in (*inputs, *_bundled_files()):
        ident = _identity(source)
        if ident is not None:
            found.setdefault(ident, str(source))
    return found


def name_max(folder: str | Path) -> int:
    """The longest file name (bytes) the file system of ``folder`` takes."""
    try:
        return int(os.pathconf(folder, "PC_NAME_MAX"))
    except (OSError, ValueError, TypeError):
        return DEFAULT_NAME_MAX


def check_names(path: str | Path) -> None:
    """Refuse ``path`` before it is used when one of its names (a folder's or the file's) is
    longer than the file system takes (:func:`name_max` of the nearest existing folder above
    it; 255 bytes where it does not say) or the whole path longer than ``PATH_MAX``: the system
    would refuse it only when the first file is made.

    Raises:
        ExportError: naming the name, its length and the limit.
    """
    path = Path(path)
    existing = Path(os.path.abspath(path))
    while not os.path.isdir(existing) and existing != existing.parent:  # never raises, a long name too
        existing = existing.parent
    limit = name_max(existing)
    for part in path.parts:
        length = len(os.fsencode(part))
        if length > limit:
            shown = part if len(part) <= 40 else part[:37] + "..."
            raise ExportError(f"{shown}: name too long ({length} bytes; this file system takes at most {limit})")
    if len(os.fsencode(os.path.abspath(path))) >= PATH_MAX:
        raise ExportError(f"{path}: path too long (at most {PATH_MAX - 1} bytes)")


def check_output(target: str | Path, inputs: tuple[str | Path, ...] = (), *,
                 sources: Callable[[], dict[tuple[int, int], str]] | None = None) -> Path:
    """Check that ``target`` may be written and return the file to write: ``target`` itself,
    or the file a symlink at ``target`` points to (the link is kept).

    Raises:
        ExportError: ``target`` is an input (``inputs``, any noted input, a bundled font; also
            through a symlink or a hard link); it exists and is not a regular file (a FIFO, a
            device, a folder); it is a symlink loop; or its name is longer than the file system
            takes.

    ``sources``: gives :func:`_sources` of ``inputs`` (see :func:`check_outputs`).
    """
    target = Path(target)
    st = _stat_output(target)
    if st is not None:
        if input_of(target, inputs, sources=sources() if sources else None) is not None:
            raise ExportError(f"{target}: output would overwrite an input file")
        if not stat.S_ISREG(st.st_mode):
            raise ExportError(f"{target}: is {kind(st.st_mode)}, not a regular file; give a file name to write")
    real = Path(os.path.realpath(target)) if os.path.islink(target) else target
    _check_name_length(target, real, exists=st is not None)
    return real


def _stat_output(target: Path) -> os.stat_result | None:
    """``os.stat`` of an output, or None when there is nothing there yet (or its name or folder
    is too long or not a folder: said by :func:`_check_name_length`, in the caller's words).
    Raises ExportError for a symlink loop, a NUL byte or another reason it cannot be read."""
    try:
        return os.stat(target)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise ExportError(f"{target}: is a symlink loop (too many levels of symbolic links)") from None
        if exc.errno not in (errno.ENAMETOOLONG, errno.ENOTDIR):  # said below, in the caller's words
            raise ExportError(f"{target}: cannot write: {exc.strerror or exc}") from None
        return None
    except ValueError as exc:  # a NUL byte
        raise ExportError(f"{target}: cannot be used as a file name: {exc}") from None


def _check_name_length(target: Path, real: Path, *, exists: bool) -> None:
    """Raise ExportError when the name of ``real`` (the file ``target`` writes) is longer than its
    file system takes, or, for a new file, its whole path longer than :data:`PATH_MAX` bytes."""
    folder = real.parent if str(real.parent) else Path(".")
    limit = name_max(folder) if folder.is_dir() else DEFAULT_NAME_MAX
    length = len(os.fsencode(real.name))
    if length > limit:
        raise ExportError(f"{target}: file name too long ({length} bytes; this file system takes at most {limit})")
    if not exists and len(os.fsencode(os.path.abspath(real))) >= PATH_MAX:
        raise ExportError(f"{target}: path too long (at most {PATH_MAX - 1} bytes)")



def check_outputs(targets: Iterable[str | Path], inputs: tuple[str | Path, ...] = ()) -> list[Path]:
    """:func:`check_output` for every output a command will write, before it writes any: the one
    check of a run's whole set of outputs (the first refused one is named).

    Returns:
        The files to write, in the order of ``targets``.
    Raises:
        ExportError: as :func:`check_output`.
    """
    sources = functools.cache(lambda: _sources(inputs))  # read once, when a target exists
    return [check_output(target, inputs, sources=sources) for target in targets]
