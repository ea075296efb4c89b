"""Catalogues that ship inside the package, addressable by name, and ``tokengen init``.

The bundled catalogues are package data (``tokengen/data/catalogues/NAME.yaml``, read through
:mod:`importlib.resources`), so an installed tokengen builds them from any folder:
``tokengen build meatshields``. ``meatshields.yaml`` is a copy of the repository's
``token_defs.yaml`` (a test keeps the two equal; ``make data`` refreshes the copy).

The starters ``tokengen init --starter NAME`` writes are package data too: ``meatshields`` is the
bundled catalogue with its field guide; the others are folders ``tokengen/data/starters/NAME/``
(a catalogue, its spreadsheet and art), copied as they are.
"""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

from ..errors import CatalogueError, ExportError, UsageError
from ..io import guard

#: The catalogue ``tokengen init`` writes, and the file name commands read by default.
DEFAULT_CATALOGUE = "token_defs.yaml"
#: The bundled catalogue ``tokengen init`` starts from.
STARTER = "meatshields"
#: The field guide ``tokengen init`` writes beside the catalogue.
FIELD_GUIDE = "README-token_defs.md"
#: Every starter ``tokengen init --starter NAME`` writes: name → what it is (``--list``).
STARTERS = {
    "meatshields": "the Meatshields hirelings: 18 one-inch tokens and their rules check (token_defs.yaml)",
    "counters": "two-sided hex counters for a wargame, one row of tokens.csv each (counters.yaml)",
    "markers": "round status markers for a 1 in circle punch, from tokens.csv (markers.yaml)",
    "cards": "poker-size cards with art and a shared back, for a print shop (cards.yaml, art/)",
}


def _folder() -> Path:
    return Path(str(resources.files("tokengen").joinpath("data", "catalogues")))


def names() -> list[str]:
    """The bundled catalogues' names (``["meatshields"]``), sorted."""
    return sorted(p.stem for p in _folder().glob("*.yaml"))


def bundled_path(name: str) -> Path | None:
    """The file of bundled catalogue ``name``, or None when there is none of that name."""
    return _folder() / f"{name}.yaml" if name in names() else None


def shown(path: str | Path) -> str:
    """``path`` as messages name it: a bundled catalogue by its name (``meatshields``), as the
    user typed it, any other file as given (a link as it is written). Never raises."""
    if isinstance(path, str) and "://" in path:  # a tokens: link, not a path (Path would fold its '//')
        return path
    path = Path(path)
    return path.stem if path.suffix == ".yaml" and bundled_path(path.stem) == path else str(path)


def missing_message() -> str:
    """What to say when a catalogue file is not there: both ways to get one."""
    return (f"file not found (write a catalogue to start from with 'tokengen init', "
            f"or use a bundled one by name: {', '.join(names())})")


def require(path: Path) -> None:
    """Raise the missing-catalogue error (:func:`missing_message`) when ``path`` does not exist.

    Raises:
        CatalogueError: ``path`` is not there.
    """
    if not path.exists() and not path.is_symlink():
        raise CatalogueError(path, missing_message())


def resolve(path: str | Path) -> Path:
    """The catalogue file meant by a command-line argument: ``path`` when it exists (a file
    always wins), else the bundled catalogue of that name (``meatshields``), else ``path`` as
    given: loading it then fails with :func:`missing_message` (``--watch`` waits for it)."""
    path = Path(path)
    if path.exists():
        return path
    bundled = bundled_path(str(path))
    return bundled if bundled is not None else path


def default_output(catalogue: Path, title: str) -> Path:
    """The PDF a build writes when no ``-o`` is given: named after the catalogue's file stem
    (``cats.yaml`` → ``cats.pdf``, bundled ``meatshields`` → ``meatshields.pdf``), or after its
    title as a slug when the file has the generic name ``token_defs.yaml`` (title "Meatshields" →
    ``meatshields.pdf``). Always in the current folder."""
    stem = catalogue.stem
    if catalogue.name == DEFAULT_CATALOGUE or not re.sub(r"[^a-z0-9]+", "", stem.lower()):
        stem = title
    return Path((re.sub(r"[^a-z0-9.]+", "-", stem.lower()).strip("-.") or "tokens") + ".pdf")


def starter_files(name: str) -> dict[Path, Path]:
    """The files of starter ``name``: path relative to the folder written → the packaged file.

    Raises:
        UsageError: no starter of that name (with a suggestion).
    """
    if name not in STARTERS:
        from difflib import get_close_matches

        close = get_close_matches(name, list(STARTERS), n=1)
        hint = f"; did you mean '{close[0]}'?" if close else f" (starters: {', '.join(STARTERS)})"
        raise UsageError(f"--starter: unknown starter '{name}'{hint}")
    if name == STARTER:
        return {Path(DEFAULT_CATALOGUE): _folder() / f"{STARTER}.yaml", Path(FIELD_GUIDE): _folder() / "README.md"}
    root = Path(str(resources.files("tokengen").joinpath("data", "starters", name)))
    return {p.relative_to(root): p for p in sorted(root.rglob("*")) if p.is_file()}


def init(folder: str | Path = ".", starter: str = STARTER) -> list[Path]:
    """Write starter ``starter`` (see :data:`STARTERS`; default: an editable ``token_defs.yaml``,
    the bundled Meatshields set, and a short guide to its fields) into ``folder`` (created if
    missing). Every starter builds, checks and exports as it stands. Nothing is overwritten.

    Returns:
        The files written.
    Raises:
        UsageError: no starter of that name.
        ExportError: one of the files already exists, a name is longer than the file system
            takes (checked before anything is made), or the folder cannot be written.
    """
    folder = Path(folder)
    targets = {folder / relative: source for relative, source in starter_files(starter).items()}
    for target in targets:
        guard.check_names(target)  # a 300-character folder name: refused here, not by the first mkdir
    for target in targets:
        if target.exists() or target.is_symlink():
            raise ExportError(f"{target}: already exists; tokengen init never overwrites (remove it or pick another folder)")
    written = []
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for target, source in targets.items():
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target, "xb") as handle:  # exclusive: never replaces a file made meanwhile
                handle.write(source.read_bytes())
            written.append(target)
    except OSError as exc:
        raise ExportError(f"{folder}: cannot write: {exc.strerror or exc}") from None
    return written
