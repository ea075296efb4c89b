"""``--offline``, ``--max-fetch-mb`` and ``--max-fetch-seconds``: how a catalogue's ``tokens:`` link is
fetched (:mod:`tokengen.sources.remote`). The group takes them (``tokengen --offline build …``) and
so does each command that reads catalogues (``tokengen build … --offline``); each run starts from
the defaults."""

from __future__ import annotations

from typing import Any

import click

from ..limits import FETCH_SECONDS, MAX_FETCH_MB
from ..sources import remote

#: The commands that read catalogues (and so may fetch a link).
READERS = ("batch", "box", "build", "check", "export", "serve", "target")
_RESET = "tokengen.links.reset"
_SETTING = {"offline": "offline", "max_fetch_mb": "max_mb", "max_fetch_seconds": "seconds"}


def _set(ctx: click.Context, param: click.Parameter, value: Any) -> None:
    """Store one option given on the command line in this run's settings; the first option seen
    in a run (given or not) first returns the settings to their defaults."""
    assert param.name is not None
    if not ctx.meta.get(_RESET):
        ctx.meta[_RESET] = True
        remote.configure(reset=True)
    if ctx.get_parameter_source(param.name) not in (click.core.ParameterSource.DEFAULT, None):
        remote.configure(**{_SETTING[param.name]: value})


def link_options() -> list[click.Option]:
    """Fresh ``--offline``, ``--max-fetch-mb`` and ``--max-fetch-seconds`` options."""
    return [
        click.Option(["--offline"], is_flag=True, expose_value=False, is_eager=True, callback=_set,
                     help="Read a catalogue's tokens: link from the cache; fetch nothing."),
        click.Option(["--max-fetch-mb"], type=click.IntRange(1), default=MAX_FETCH_MB, show_default=True,
                     expose_value=False, is_eager=True, callback=_set, help="Largest table fetched from a tokens: link, MiB."),
        click.Option(["--max-fetch-seconds"], type=click.FloatRange(0, min_open=True), default=FETCH_SECONDS, show_default=True,
                     expose_value=False, is_eager=True, callback=_set,
                     help="Longest wait for a tokens: link's server to connect or send more, s."),
    ]


def add_to_readers(group: click.Group) -> None:
    """Give ``group`` and its catalogue-reading commands (:data:`READERS`) the link options."""
    group.params.extend(link_options())
    for name in READERS:
        command = group.commands.get(name)
        if command is not None and not any(p.name == "offline" for p in command.params):
            command.params.extend(link_options())
