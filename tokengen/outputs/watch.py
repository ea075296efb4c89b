"""Rebuild on save: watch a catalogue's inputs and run a build again whenever one changes.

Used by ``tokengen build --watch`` and by ``tokengen serve`` (which only needs the events). The
inputs are the files a build reads: the catalogue itself, every art file it names, the bundled
fonts, and any data file beside the catalogue (YAML, CSV/TSV, spreadsheets, images), so a
spreadsheet a catalogue pulls its tokens from counts too. The folders are watched (not the
files), so editors that save by writing a new file and renaming it over the old one are seen.
Outputs (the PDF, its backs file, the previews, and the hidden ``.part`` files of atomic writes)
never trigger a rebuild. File watching is the ``watchfiles`` library (inotify on Linux).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from ..errors import CatalogueError, LayoutError, RenderError, TokengenError, UsageError
from ..io import signals
from ..io.atomic import PART

#: Suffixes of files beside the catalogue that a build may read.
INPUT_SUFFIXES = frozenset({".yaml", ".yml", ".json", ".csv", ".tsv", ".xlsx", ".xlsm", ".ods", ".ttf", ".otf",
                            ".png", ".jpg", ".jpeg", ".webp", ".gif", ".tif", ".tiff", ".bmp", ".svg", ".icc", ".icm"})
#: Errors that mean "the input is broken right now": keep watching, keep the last good output.
INPUT_ERRORS = (CatalogueError, LayoutError, RenderError)
#: How often (ms) the watcher wakes without a change (only to notice the stop event).
WAKE_MS = 500


@dataclass(frozen=True)
class Inputs:
    """What to watch: ``folders`` (watched without recursion), the files in them that count as
    inputs (``files``; any file with an :data:`INPUT_SUFFIXES` suffix in a watched folder counts
    as well, such as a template's literal picture beside the art) and ``outputs`` that never do."""

    catalogue: Path
    files: frozenset[Path]
    outputs: frozenset[Path]
    previews: Path | None = None

    @property
    def folders(self) -> tuple[Path, ...]:
        """The folders to watch, sorted: the catalogue's and each input file's."""
        return tuple(sorted({self.catalogue.parent, *(f.parent for f in self.files)}))

    def is_input(self, path: str | Path) -> bool:
        """True when a change of ``path`` should trigger a rebuild."""
        path = Path(path).absolute()
        if path in self.outputs or path.name.endswith(PART) or self._is_preview(path):
            return False
        if path in self.files or path == self.catalogue:
            return True
        return path.parent in self.folders and path.suffix.lower() in INPUT_SUFFIXES


    def _is_preview(self, path: Path) -> bool:
        """``FILE.png`` or ``FILE-N.png`` of the preview target (see :func:`tokengen.outputs.preview.preview_paths`)."""
        p = self.previews
        if p is None or path.parent != p.absolute().parent or path.suffix != (p.suffix or ".png"):
            return False
        return path.stem == p.stem or (path.stem.startswith(p.stem + "-") and path.stem[len(p.stem) + 1:].isdigit())


def catalogue_inputs(catalogue: str | Path, outputs: Iterable[Path] = (), *, allow_outside_art: bool = False,
                     previews: Path | None = None) -> Inputs:
    """The :class:`Inputs` of ``catalogue``: the file, its art and image fields, its tokens'
    spreadsheet and fonts (when it loads; a broken catalogue contributes only itself) and the
    bundled fonts; ``outputs`` and the ``previews``
    (a preview target, numbered or not) are excluded."""
    from ..sources.catalogue import load_catalogue
    from ..sources.fonts import font_dir

    path = Path(catalogue).absolute()
    files: set[Path] = set()
    try:
        cat = load_catalogue(path, allow_outside_art=allow_outside_art)
    except TokengenError:
        cat = None
    if cat is not None:  # the files a build reads (the same list guards the outputs)
        files |= {Path(p).absolute() for p in cat.files_read()}
    fonts = font_dir()
    if fonts.is_dir():
        files |= {f.absolute() for f in fonts.iterdir() if f.suffix.lower() in (".ttf", ".otf")}
    return Inputs(path, frozenset(files), frozenset(Path(o).absolute() for o in outputs), previews)


def _is_watched(inputs: Inputs, change: object, path: str) -> bool:
    """watchfiles' filter: is ``path`` one of ``inputs`` (whatever the ``change``)."""
    return inputs.is_input(path)


def changes(inputs: Callable[[], Inputs], stop: threading.Event | None = None,
            on_ready: Callable[[Inputs], None] | None = None) -> Iterator[set[Path]]:
    """Yield the set of changed input paths each time inputs change, until ``stop`` is set (or
    Ctrl-C, which ends the iteration quietly). ``inputs`` is asked again after every change (the
    catalogue may name new art). ``on_ready`` is called once the folders are being watched:
    a change made after it is never missed.

    Raises:
        UsageError: the catalogue's folder does not exist, or is deleted or moved while watched
            (inotify cannot follow a folder that is gone, and one seldom comes back under its
            name: the watch ends with one line rather than wait for nothing).
    """
    import logging

    logging.getLogger("watchfiles").setLevel(logging.ERROR)  # its own "KeyboardInterrupt caught" notice: we say "stopped watching"
    stop = stop or threading.Event()
    ready = False
    while not stop.is_set():
        current = inputs()
        if not current.catalogue.parent.is_dir():
            raise UsageError(f"{current.catalogue}: folder {current.catalogue.parent} does not exist, nothing to watch")
        restart = False
        for batch in _batches(current, stop):
            if not ready:
                ready = True
                if on_ready:
                    on_ready(current)
            if not batch:
                continue
            yield {Path(path) for _, path in batch}
            if inputs().folders != current.folders:  # new art in another folder: watch that too
                restart = True
                break
        if not restart:
            return


def _batches(current: Inputs, stop: threading.Event) -> Iterator[set[tuple[Any, str]]]:
    """The batches of ``(change, path)`` watchfiles reports in ``current``'s folders (an empty
    one every :data:`WAKE_MS`), until ``stop`` is set or Ctrl-C. Raises UsageError once the
    catalogue's folder is gone (:func:`_gone`)."""
    import watchfiles

    watcher = watchfiles.watch(*(f for f in current.folders if f.is_dir()), watch_filter=partial(_is_watched, current),
                               recursive=False, yield_on_timeout=True, rust_timeout=WAKE_MS, stop_event=stop,
                               raise_interrupt=False, debounce=400, step=50, ignore_permission_denied=True)
    while True:
        try:
            batch = next(watcher)
        except StopIteration:
            return
        except (OSError, RuntimeError):  # the watcher lost a folder
            if not current.catalogue.parent.is_dir():
                raise _gone(current.catalogue) from None
            raise
        if not current.catalogue.parent.is_dir():
            raise _gone(current.catalogue)
        yield batch


def _gone(catalogue: Path) -> UsageError:
    return UsageError(f"{catalogue}: its folder {catalogue.parent} was deleted or moved; stopped watching "
                      "(the last good output is kept)")


def watch_build(build: Callable[[], str], inputs: Callable[[], Inputs], echo: Callable[[str], None],
                error: Callable[[str], None], stop: threading.Event | None = None) -> None:
    """Run ``build`` now and again after every change of ``inputs`` until Ctrl-C or ``stop``.

    ``build`` does one build and returns a one-line summary; each run prints
    ``HH:MM:SS <summary> (N.NN s)`` through ``echo``. A build failing with one of
    :data:`INPUT_ERRORS` prints ``HH:MM:SS tokengen: error: <message>; kept the last good
    output`` through ``error`` and watching goes on (outputs are written atomically, so the last
    good PDF stays). Any other error on the first build is raised (a bad option will not get
    better by editing the catalogue); later ones are printed. Pictures decoded by one build are
    kept for the next (:func:`tokengen.faces.art.keep_decoded`).
    """

    from ..faces.art import keep_decoded

    keep_decoded()  # a rebuild decodes only the pictures whose bytes changed

    def once(first: bool) -> None:
        start = time.perf_counter()
        stamp = time.strftime("%H:%M:%S")
        try:
            summary = build()
        except TokengenError as exc:
            if first and not isinstance(exc, INPUT_ERRORS):
                raise
            error(f"{stamp} tokengen: error: {exc}; kept the last good output")
            return
        echo(f"{stamp} {summary} ({time.perf_counter() - start:.2f} s)")

    once(first=True)

    def ready(current: Inputs) -> None:
        where = ", ".join(str(f) for f in current.folders)
        count = len(current.files) + 1
        echo(f"watching {count} input file{'s' if count != 1 else ''} in {where} (Ctrl-C to stop)")

    try:
        for _ in changes(inputs, stop, on_ready=ready):
            once(first=False)
    except KeyboardInterrupt:
        pass
    echo("stopped watching")
    if signals.ended_by() is not None:  # a kill or hang-up that watchfiles took for a plain stop: 143 or 129
        raise SystemExit(128 + (signals.ended_by() or 0))
