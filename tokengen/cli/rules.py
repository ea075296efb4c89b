"""The rules check: ``tokengen check`` and ``tokengen target``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from ..errors import CatalogueError, CheckFailed
from ..units import parse_page
from .app import cli
from .completion import complete_page
from .habits import say
from .params import CATALOGUE, DEFAULT_CATALOGUE, LENGTH, MAX_SPEC, SIZE, _echo_json


def _rules_options(f: Any, note: str = "") -> Any:
    """Variant overrides and interpretation choices shared by ``check`` and ``target``; ``note``
    starts each option's help."""
    from ..games.meatshields.interpretations import INTERPRETATIONS

    options = [
        click.option("--variant", "add", multiple=True, metavar="NAME", help=f"{note}Put an optional rule in play (repeatable)."),
        click.option("--no-variant", "remove", multiple=True, metavar="NAME", help=f"{note}Take an optional rule out of play (repeatable)."),
    ] + [
        click.option(f"--{name.replace('_', '-')}", name, type=click.Choice(list(choices)), default=None,
                     help=note + "; ".join(f"{k}: {v}" for k, v in choices.items()).replace("WOUNDS", "game.damage.wounds")
                     + f". Default: the catalogue's interpretations: entry, else {next(iter(choices))}.")
        for name, choices in INTERPRETATIONS.items()
    ] + [
        click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
                     help="A readable report, or JSON with stable keys for scripts."),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def _check_rules_options(f: Any) -> Any:
    """:func:`_rules_options` for ``check``, which checks any game: each says it is Meatshields'."""
    return _rules_options(f, note="Meatshields only. ")


@cli.command(short_help="Check that a token set prints and plays (its game's rules).")
@click.argument("catalogue", default=DEFAULT_CATALOGUE, type=CATALOGUE)
@_check_rules_options
@click.option("--page", default="letter", show_default=True, metavar="NAME|WxH", shell_complete=complete_page,
              help="Sheet to check the token size against.")
@click.option("--margin", type=LENGTH, default="0.25in", show_default=True, help="Border kept clear on every side.")
@click.option("--size", "token_size", type=SIZE, default=None, metavar="LENGTH",
              help="Check printing at this token size (0.75in, or WIDTHxHEIGHT: 63mmx88mm; default: the catalogue's size).")
def check(catalogue: Path, add: tuple[str, ...], remove: tuple[str, ...], fmt: str, page: str, margin: float,
          token_size: float | tuple[float, float] | None, **readings: str | None) -> None:
    """Check that the token set in CATALOGUE (default token_defs.yaml) can be printed and played:
    every catalogue gets the generic checks (unique ids, matching backs when drawn blind, the
    token fits the sheet, legible text), then the checks of its game module, if it names one.
    A Meatshields catalogue gets the Meatshield rules (bag size, draws, targeting, costs), with
    the variants and readings below. Exit status: 0 playable, 1 not playable, 2 bad input.

    \b
    Examples:
      tokengen check
      tokengen check token_defs.yaml --variant town-draws --no-variant solo-start
      tokengen check --ties all --format json
      tokengen check --size 0.5in
    """
    from ..games.contract import Settings
    from ..games.registry import check_catalogue, format_report, skipped  # any catalogue: generic checks, then its game module's
    from ..outputs.summary import warning_line

    try:
        page_size = parse_page(page)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--page'") from None
    settings = Settings(page=page_size, margin=margin, size=token_size)
    report = check_catalogue(catalogue, settings, add=add, remove=remove, readings=readings)
    for line in skipped():  # a broken game plug-in: named and left out, the check goes on
        click.echo(warning_line(line), err=True)
    unread = next((f for f in report.findings if f.code == "schema"), None)
    if fmt == "json":
        _echo_json(report.as_dict())
    if unread is not None:  # the file is bad input: build's one line (file:line: field: reason) and its exit code, 2
        raise CatalogueError(catalogue, unread.message, line=unread.line, field=unread.field)
    if fmt != "json":
        say(format_report(report), nl=False)
    if not report.playable:
        errors = report.counts()["error"]
        raise CheckFailed(f"{catalogue}: not playable ({errors} error{'s' if errors != 1 else ''})")


@cli.command(short_help="Resolve who each monster attacks this round.")
@click.argument("scenario", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("-c", "--catalogue", default=DEFAULT_CATALOGUE, show_default=True, type=CATALOGUE,
              help="Catalogue giving the attributes, priorities, tokens and variants.")
@click.option("-a", "--adventurer", "adventurers", multiple=True, metavar="NAME:STR=9,AGI=8,...",
              help="An Adventurer and all six scores (repeatable; added to the scenario's).")
@click.option("-m", "--monster", "monsters", multiple=True, metavar="[NAME=]TARGETING",
              help="A monster's targeting: ↓STR, ↑MAG, ↓↑PER, ALL, or low:STR, high:STR, both:STR, all (repeatable).")
@click.option("-d", "--deployed", multiple=True, metavar="TOKEN_ID|SPEC",
              help="The deployed Meatshield: a token id (str-low), a spec (↓STR), or none. Give it once: one Meatshield fights at a time.")
@_rules_options
def target(scenario: Path | None, catalogue: Path, adventurers: tuple[str, ...], monsters: tuple[str, ...],
           deployed: tuple[str, ...], add: tuple[str, ...], remove: tuple[str, ...], fmt: str, **readings: str | None) -> None:
    """Resolve one Establish Targets step: for each monster, who it attacks and how many times.
    SCENARIO is an optional YAML file (adventurers, monsters, deployed, variants).

    \b
    Examples:
      tokengen target -a Ann:STR=6,AGI=3,CON=4,MAG=2,MRL=5,PER=3 \\
                      -a Bob:STR=2,AGI=5,CON=5,MAG=4,MRL=3,PER=6 \\
                      -m "Rat King=↓STR" -m both:PER -m ALL -d str-low
      tokengen target fight.yaml --variant target-all-hits --format json
    """
    from ..games.meatshields.rules import target as resolve

    for option, values in (("--adventurer", adventurers), ("--monster", monsters), ("--deployed", deployed)):
        for value in values:  # every message quotes the value: keep it short
            if len(value) > MAX_SPEC:
                raise click.BadParameter(f"{len(value)} characters, more than {MAX_SPEC}", param_hint=f"'{option}'")
    if len(deployed) > 1:  # one Meatshield takes part in a fight at a time (variant, Combat)
        raise click.BadParameter(f"given {len(deployed)} times ({', '.join(deployed)}); only one Meatshield is deployed at a time, "
                                 "so give it once", param_hint="'-d' / '--deployed'")
    result = resolve(catalogue, scenario, adventurers=adventurers, monsters=monsters, deployed=deployed[0] if deployed else None,
                     add=add, remove=remove, interpretations=readings)
    if fmt == "json":
        _echo_json(result.as_dict())
    else:
        say(result.format(), nl=False)
