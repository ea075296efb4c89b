"""Per-run limits (issue 7): total tokens and pages, configurable on the command line, and
checked before anything large is built in memory."""

from __future__ import annotations

from pathlib import Path

import pytest

from tokengen.model import Catalogue
from tokengen.outputs.build import MAX_PAGES, MAX_TOKENS

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = ROOT / "token_defs.yaml"
MINIMAL = Path(__file__).resolve().parent / "data" / "good" / "minimal.yaml"


def test_default_limits_are_documented_values():
    assert (MAX_TOKENS, MAX_PAGES) == (200_000, 5_000)


def test_max_tokens(run, tmp_path: Path):
    out = tmp_path / "x.pdf"
    result = run("build", str(CATALOGUE), "--max-tokens", "17", "-o", str(out))
    assert (result.exit_code, result.stderr) == (
        2, f"tokengen: error: {CATALOGUE}: 18 tokens requested, more than the limit of 17 (raise it with --max-tokens)\n")
    assert not out.exists()
    assert run("build", str(CATALOGUE), "--max-tokens", "18", "-o", str(out)).exit_code == 0


def test_max_pages(run, tmp_path: Path):
    out = tmp_path / "x.pdf"
    result = run("build", str(CATALOGUE), "--copies", "5", "--max-pages", "1", "-o", str(out))
    assert (result.exit_code, result.stderr) == (
        2, f"tokengen: error: {CATALOGUE}: 90 tokens need 2 pages, more than the limit of 1 (raise it with --max-pages)\n")
    assert not out.exists()
    assert run("build", str(CATALOGUE), "--copies", "5", "--max-pages", "2", "-o", str(out)).exit_code == 0


def _never_expand(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if the token list is built (the limit must be checked by counting)."""
    monkeypatch.setattr(Catalogue, "expanded", lambda self: pytest.fail("the token list was built before the limit check"))


def test_huge_copies_are_refused_at_once(run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """100,000 copies of 18 tokens: refused by counting, not by building 1.8 million entries."""
    _never_expand(monkeypatch)
    result = run("build", str(CATALOGUE), "--copies", "100000", "-o", str(tmp_path / "x.pdf"))
    assert result.stderr == (f"tokengen: error: {CATALOGUE}: 1800000 tokens requested, more than the limit of 200000"
                             " (raise it with --max-tokens)\n")


def test_copies_in_catalogue_times_copies_on_command_line(run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    cat = tmp_path / "cat.yaml"
    cat.write_text(MINIMAL.read_text("utf-8").replace("priority: low}", "priority: low, copies: 10000}"), "utf-8")
    _never_expand(monkeypatch)
    result = run("build", str(cat), "--copies", "100000", "-o", str(tmp_path / "x.pdf"))
    assert result.exit_code == 2 and "1000000000 tokens requested" in result.stderr


def test_copies_option_bounds_are_usage_errors(run, tmp_path: Path):
    for value in ("0", "-1", "100001", "1e12", "three"):
        result = run("build", str(CATALOGUE), "--copies", value, "-o", str(tmp_path / "x.pdf"))
        assert result.exit_code == 2 and "Traceback" not in result.stderr, value
    assert run("build", str(CATALOGUE), "--max-tokens", "0", "-o", str(tmp_path / "x.pdf")).exit_code == 2
