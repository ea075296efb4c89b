"""The ``tokengen`` click group; each command group's module adds its commands to it."""

from __future__ import annotations

import click

from .._version import __version__


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="tokengen")
def cli() -> None:
    """Turn a YAML catalogue of game tokens into print-ready PDF sheets.

    \b
    Example:
      tokengen build token_defs.yaml -o meatshields.pdf
    """
