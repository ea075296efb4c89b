"""The ``tokengen`` click group; each command group's module adds its commands to it.

The group takes ``-q/--quiet`` and ``-v/--verbose`` (:mod:`tokengen.cli.habits`; every command
takes them too) and draws the library's progress reports as a bar on stderr for the whole run.
"""

from __future__ import annotations

import time

import click

from .._version import __version__
from . import habits


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="tokengen")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Turn a YAML catalogue of game tokens into print-ready PDF sheets.

    \b
    Example:
      tokengen build token_defs.yaml -o meatshields.pdf
      tokengen --quiet export --profile print-shop -o out/shop
    """
    start = time.perf_counter()
    ctx.with_resource(habits.progress_bar())
    name = ctx.invoked_subcommand
    ctx.call_on_close(lambda: habits.verbose(f"{name} ended ({time.perf_counter() - start:.2f} s)"))


for _option in habits.level_options():
    cli.params.append(_option)
