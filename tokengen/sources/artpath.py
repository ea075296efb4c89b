"""Art paths of a catalogue: resolved against the catalogue's folder, kept inside it, refused by
type when not a regular file, and explained in our own words when they cannot be used. Used by
the Meatshields catalogue (:mod:`tokengen.sources.catalogue`), any-game fields (:mod:`tokengen.sources.fields`)
and face templates (:mod:`tokengen.sources.template`); one floor below all three."""

from __future__ import annotations

import errno
import itertools
import os
from pathlib import Path

from ..errors import CatalogueError
from ..io import guard
from .schemas import suggest
from .yamlsrc import one_line


def _path_problem(exc: Exception) -> str:
    """Why a path cannot be used, in our words (the platform's exception text differs between
    Python versions: 3.13 says ``lstat`` where 3.11 said ``embedded null byte``)."""
    if isinstance(exc, ValueError):
        return "it contains a NUL byte"
    if isinstance(exc, RuntimeError) or getattr(exc, "errno", None) == errno.ELOOP:
        return "a symlink loop"
    if getattr(exc, "errno", None) == errno.ENAMETOOLONG:
        return "the name is too long"
    return one_line(getattr(exc, "strerror", None) or "unreadable")


def shown_path(path: Path, named: Path | str) -> str:
    """A file as messages name it: relative to the current folder when it lies under it
    (``tokens.csv``, ``games/x/tokens.csv``), else ``named`` (as the catalogue names it, joined
    to the catalogue's folder as given)."""
    try:
        here = Path.cwd().resolve()
        target = Path(os.path.abspath(path))
        if target.is_relative_to(here):
            return str(target.relative_to(here))
    except OSError:  # the current folder is gone
        pass
    return str(named)


def resolve_art(catalogue: Path, art: str, allow_outside: bool, where: CatalogueError) -> Path:
    """Resolve an art path relative to the catalogue's folder.

    Raises:
        CatalogueError: (at ``where``'s file, line and field) when the file does not exist, or when
            it resolves outside the catalogue's folder (``../``, absolute paths, symlinks out) and
            ``allow_outside`` is False.
    """
    shown = one_line(art)
    try:
        if "\x00" in art:
            raise ValueError("it contains a NUL byte")
        base = catalogue.resolve().parent
        expanded = os.path.expanduser(art) if art.startswith("~") else art  # ~ is the user's home folder, as in a shell
        named = f"'{shown}'" + (f" (= '{one_line(expanded)}')" if expanded != art else "")
        target = (base / expanded).resolve()
        if not allow_outside and not target.is_relative_to(base):
            raise CatalogueError(where.path, f"art path {named} leaves the catalogue's folder (use --allow-outside-art to permit it)", where.line, where.field)
        refused = guard.not_regular(target)
        if refused:  # a FIFO or device is refused by type: reading it may never end
            raise CatalogueError(where.path, f"art file {named} {refused.split(' (')[0]}", where.line, where.field)
        if not target.is_file():
            try:
                (base / expanded).stat()  # a symlink loop raises here (Python 3.13's resolve() no longer does)
            except OSError as exc:
                if exc.errno == errno.ELOOP:
                    raise
            hint = _slash_hint(art) if "\\" in art and os.sep == "/" else (_case_path(base, expanded) or _case_hint(target, expanded))
            raise CatalogueError(where.path, f"art file {named} not found{hint}", where.line, where.field)
        guard.note_input(target)
    except (OSError, RuntimeError, ValueError) as exc:
        raise CatalogueError(where.path, f"art path '{shown}' cannot be used: {_path_problem(exc)}", where.line, where.field) from None
    return target


def _slash_hint(art: str) -> str:
    """``"; write paths with / (art/x.png), as on every system"``: a Windows path's backslashes
    are part of the file name elsewhere (and catalogues travel between systems)."""
    return f"; write paths with / ({one_line(art.replace(chr(92), '/'))}), as on every system"


def _case_path(base: Path, art: str, limit: int = 10_000) -> str:
    """``"; did you mean 'art/photo.jpg'?"`` when ``art`` (relative to ``base``) names a file
    there but for letter case, in its folders' names as in the file's (``Art/Photo.JPG``: a
    catalogue written on a Mac or Windows, whose file systems ignore case); else ``""``. Looks at
    no more than ``limit`` names a folder."""
    parts = Path(art).parts
    if not parts or Path(art).is_absolute() or any(p in (".", "..") for p in parts):
        return ""
    here = base
    found: list[str] = []
    for part in parts:
        name = _named_but_for_case(here, part, limit)
        if name is None:
            return ""
        here, found = here / name, found + [name]
    return f"; did you mean '{one_line('/'.join(found))}'?" if here.is_file() and found != list(parts) else ""


def _named_but_for_case(folder: Path, part: str, limit: int) -> str | None:
    """The entry of ``folder`` named ``part``, else the first (sorted) named so but for letter
    case, among its first ``limit`` entries; None when there is none or the folder cannot be read."""
    try:
        names = [entry.name for entry in itertools.islice(os.scandir(folder), limit)]
    except OSError:
        return None
    same = [n for n in names if n == part] or sorted(n for n in names if n.lower() == part.lower())
    return same[0] if same else None


def _case_hint(target: Path, written: str, limit: int = 10_000) -> str:
    """``"; did you mean 'art/knight.png'?"`` when ``target``'s folder holds a file whose name
    differs from it only in case (or is close to it), named with the folders ``written`` gives
    (the path as the catalogue writes it), so that the name can be pasted in its place; looks at
    no more than ``limit`` names."""
    try:
        names = [entry.name for entry in itertools.islice(os.scandir(target.parent), limit)]
    except OSError:
        return ""
    same = [n for n in names if n.lower() == target.name.lower()]
    hint = f"; did you mean '{same[0]}'?" if same else suggest(target.name, names)
    folder = written.replace("\\", "/").rpartition("/")[0]
    return hint.replace("; did you mean '", f"; did you mean '{one_line(folder)}/", 1) if hint and folder else hint
