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
#: The manual's pages: README.md (the first page) and every page of the docs site, docs/**/*.md.
MANUAL_PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def manual() -> str:
    """The whole manual as one text (README.md, then the docs site's pages), for tests that check
    it documents something."""
    return "\n".join(p.read_text("utf-8") for p in MANUAL_PAGES)


def catalogue_with_art(catalogue: Path, art: dict[str, str], out: Path) -> Path:
    """Copy the YAML catalogue ``catalogue`` to ``out``, giving each token id in ``art`` the
    picture ``art[id]`` (a path as written in the file, ``style: {art: ...}``); returns ``out``."""
    text = catalogue.read_text("utf-8")
    for token, picture in art.items():
        end = text.index("}", text.index(f"{{id: {token},"))
        text = text[:end] + f", style: {{art: {picture}}}" + text[end:]
    out.write_text(text, "utf-8")
    return out


def write_sheet(folder: Path, rows: list[list] | str, ext: str = "xlsx") -> Path:
    """Write ``tokens.csv`` (``rows`` is its text, UTF-8) or ``tokens.xlsx`` (``rows`` are its rows,
    written by openpyxl as a spreadsheet program would) into ``folder``; returns its path."""
    path = folder / f"tokens.{ext}"
    if ext == "csv":
        path.write_text(rows, "utf-8")
    else:
        import openpyxl

        book = openpyxl.Workbook()
        for row in rows:
            book.active.append(row)
        book.save(path)
    return path


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


__all__ = ["cli", "ROOT", "CATALOGUE", "DATA", "MANUAL_PAGES", "manual"]


@pytest.fixture(autouse=True)
def _no_decoded_art_kept_across_tests():
    """The page and --watch keep decoded art process-wide between rebuilds
    (:func:`tokengen.faces.art.keep_decoded`); a test that made the page's app must not hand its
    kept pictures to the next test. After each test the keeping is off and the kept art dropped,
    as in a fresh process (only when the art module was imported: no import for the others)."""
    yield
    import sys

    module = sys.modules.get("tokengen.faces.art")
    if module is not None:
        module.keep_decoded(0)
