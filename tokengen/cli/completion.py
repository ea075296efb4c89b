"""Shell completion of option values (click's completion: see README, "Set-up"): page names,
ours and ReportLab's, and print-shop profile names. Each imports what it needs when asked."""

from __future__ import annotations

import click

from ..errors import TokengenError


def complete_page(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion for ``--page``: our page names, then ReportLab's (a5, b5, half_letter, …)."""
    from ..units import page_names

    return [name for name in page_names() if name.startswith(incomplete.lower())]


def complete_profile(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion for ``--profile``: the built-in profiles and those of ``--profiles FILE``."""
    from ..sources.profiles import load_profiles

    try:
        names = list(load_profiles(ctx.params.get("profiles_file")))
    except TokengenError:
        names = list(load_profiles())
    return [name for name in names if name.startswith(incomplete)]
