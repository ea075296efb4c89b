"""Shared fixtures: the real catalogue, a CLI runner that goes through ``main`` (exit codes and
one-line errors exactly as a user sees them), and PDF measuring helpers."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, settings

from tokengen.cli import cli, main

# Property tests never depend on the machine's speed: no per-example deadline, no "too slow" health check.
settings.register_profile("tokengen", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("tokengen")

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
def run():
    """Run ``tokengen ARGS`` in-process through :func:`tokengen.cli.main`, with stdout and stderr
    captured apart; returns a :class:`Run` (exit code as the console script would exit)."""

    def _run(*args: str, input: str | None = None) -> Run:
        with CliRunner().isolation(input=input) as (out, err, _):
            code = main(list(args))
            return Run(code, out.getvalue().decode(), err.getvalue().decode())

    return _run


__all__ = ["cli", "ROOT", "CATALOGUE", "DATA"]
