"""Shared fixtures: the real catalogue, a CLI runner that goes through ``main`` (exit codes and
one-line errors exactly as a user sees them), and PDF measuring helpers."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from tokengen.cli import cli, main

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = ROOT / "token_defs.yaml"
DATA = Path(__file__).resolve().parent / "data"


@dataclass
class Run:
    exit_code: int
    stdout: str
    stderr: str


@pytest.fixture
def catalogue_path() -> Path:
    return CATALOGUE


@pytest.fixture
def run(monkeypatch: pytest.MonkeyPatch):
    """Run ``tokengen ARGS`` in-process through :func:`tokengen.cli.main`; returns a :class:`Run`."""

    def _run(*args: str, input: str | None = None) -> Run:
        runner = CliRunner()
        holder: dict[str, int] = {}

        def entry() -> None:
            holder["code"] = main(list(args))

        import click

        @click.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
        def wrapper() -> None:
            entry()

        result = runner.invoke(wrapper, [], input=input, catch_exceptions=False)
        return Run(holder.get("code", result.exit_code), result.stdout, result.stderr)

    return _run


__all__ = ["cli", "ROOT", "CATALOGUE", "DATA"]
