"""The command-line habits every command shares: ``--quiet``, ``--verbose`` and the progress bar.

``--quiet`` (errors only) and ``--verbose`` (each step with its time, on stderr) are options of
the ``tokengen`` group and of every command, so ``tokengen -q build`` and ``tokengen build -q``
agree; the choice is stored in the click context's ``meta`` (shared by the whole command chain).
Commands print through :func:`say` (a result line, hidden by ``--quiet``), :func:`warn` (a
warning on stderr, hidden by ``--quiet``) and :func:`data` (what was asked for, such as
``--format json``: always printed).

The progress bar is drawn on stderr for work that runs longer than :data:`AFTER` seconds
(``TOKENGEN_PROGRESS_AFTER`` changes it), only when stderr is a terminal and not ``--quiet``;
the library reports its progress through :mod:`tokengen.io.progress`.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Iterator
from typing import Any, TextIO

import click

from ..io import progress

#: Key of the chosen level in ``click.Context.meta``: "quiet", "normal" or "verbose".
LEVEL = "tokengen.level"
#: Seconds of work before the progress bar shows.
AFTER = 1.0
BAR_WIDTH = 30
#: Seconds between two redraws of the bar.
REDRAW = 0.1


def level() -> str:
    """The level of the running command ("quiet", "normal", "verbose"); "normal" outside one."""
    ctx = click.get_current_context(silent=True)
    return ctx.meta.get(LEVEL, "normal") if ctx is not None else "normal"


def _set_level(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    chosen = "quiet" if param.name == "quiet" else "verbose"
    other = ctx.meta.get(LEVEL)
    if other not in (None, chosen):
        raise click.UsageError("--quiet and --verbose are exclusive")
    ctx.meta[LEVEL] = chosen


def level_options() -> list[click.Option]:
    """Fresh ``-q/--quiet`` and ``-v/--verbose`` options (one pair per command)."""
    return [
        click.Option(["-q", "--quiet"], is_flag=True, expose_value=False, is_eager=True, callback=_set_level,
                     help="Print errors only (and what --format json asks for)."),
        click.Option(["-v", "--verbose"], is_flag=True, expose_value=False, is_eager=True, callback=_set_level,
                     help="Print each step with its time on stderr."),
    ]


def add_to_every_command(group: click.Group) -> None:
    """Give ``group`` and each of its commands (walked into sub-groups) the two level options."""
    for command in group.commands.values():
        if not any(p.name == "quiet" for p in command.params):
            command.params.extend(level_options())
        if isinstance(command, click.Group):
            add_to_every_command(command)


#: The progress bar of the running command, if one is drawn (:func:`progress_bar`).
_BAR: list[Bar] = []


def end_bar_line() -> None:
    """End the line of a progress bar on screen before another line is printed, so a result or a
    warning starts a line of its own (``113/113wrote 1 file`` was glued); the bar draws again
    below it on its next report."""
    for bar in _BAR:
        bar.end_line()


def say(line: str = "", nl: bool = True) -> None:
    """Print a result line on stdout, unless ``--quiet``."""
    if level() != "quiet":
        end_bar_line()
        click.echo(line, nl=nl)


def warn(line: str) -> None:
    """Print a warning line on stderr, unless ``--quiet``."""
    if level() != "quiet":
        end_bar_line()
        click.echo(line, err=True)


def data(text: str, nl: bool = True) -> None:
    """Print what the user asked for (a JSON report) on stdout, whatever the level."""
    end_bar_line()
    click.echo(text, nl=nl)


def verbose(line: str) -> None:
    """Print ``tokengen: LINE`` on stderr under ``--verbose``."""
    if level() == "verbose":
        end_bar_line()
        click.echo(f"tokengen: {line}", err=True)


@contextlib.contextmanager
def step(name: str) -> Iterator[None]:
    """Under ``--verbose``, say ``tokengen: NAME (0.12 s)`` on stderr when the block ends."""
    start = time.perf_counter()
    yield
    verbose(f"{name} ({time.perf_counter() - start:.2f} s)")


class Bar:
    """A one-line progress bar on ``stream``: ``LABEL [#####.....] DONE/TOTAL``, drawn only once
    the work has run :data:`AFTER` seconds, erased when the work ends."""

    def __init__(self, stream: TextIO, after: float) -> None:
        self.stream = stream
        self.after = after
        self.start = time.perf_counter()
        self.drawn = 0.0
        self.shown = False

    def __call__(self, label: str, done: int, total: int | None) -> None:
        if level() == "quiet":  # --quiet may come after the command's name, read after the bar was set up
            return
        now = time.perf_counter()
        if not self.shown and now - self.start < self.after:
            return
        if self.shown and now - self.drawn < REDRAW and done != total:
            return  # at most ten redraws a second, and always the last
        self.shown, self.drawn = True, now
        if total:
            filled = min(BAR_WIDTH, BAR_WIDTH * done // total)
            text = f"{label} [{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {done}/{total}"
        else:
            text = f"{label} {done}"
        with contextlib.suppress(OSError, ValueError):
            self.stream.write(f"\r\x1b[2K{text}")
            self.stream.flush()

    def end_line(self) -> None:
        """End the bar's line (a newline after it) if it is on screen; the next report draws it anew."""
        if self.shown:
            with contextlib.suppress(OSError, ValueError):
                self.stream.write("\n")
                self.stream.flush()
            self.shown = False
            self.start = time.perf_counter() - self.after  # drawn again at the next report, without the wait

    def close(self) -> None:
        if self.shown:
            with contextlib.suppress(OSError, ValueError):
                self.stream.write("\r\x1b[2K")
                self.stream.flush()


def bar_wanted(stream: Any = None) -> bool:
    """A bar is drawn when ``stream`` (stderr) is a terminal and the command is not ``--quiet``."""
    stream = sys.stderr if stream is None else stream
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    return tty and level() != "quiet"


def _after() -> float:
    try:
        return float(os.environ.get("TOKENGEN_PROGRESS_AFTER", AFTER))
    except ValueError:
        return AFTER


@contextlib.contextmanager
def progress_bar() -> Iterator[None]:
    """Draw the library's progress reports as a bar on stderr for the block (see :class:`Bar`)."""
    if not bar_wanted():
        yield
        return
    bar = Bar(sys.stderr, _after())
    _BAR.append(bar)
    try:
        with progress.listening(bar):
            yield
    finally:
        _BAR.remove(bar)
        bar.close()
