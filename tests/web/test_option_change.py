"""The page's option changes (issue 39): what an option cannot alter is kept between renders.

Measured as counts of the library calls a render makes (never time): the catalogue is read
once for the download's name and the build, and ``tokengen check``'s report is made again only
when an option it reads (page, margin, size) changes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tokengen.sources import catalogue as catalogue_module
from tokengen.web import jobs, server

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    calls = {"load_catalogue": 0, "check": 0}
    real_load, real_check = catalogue_module.load_catalogue, jobs.check

    def load(*args, **kwargs):
        calls["load_catalogue"] += 1
        return real_load(*args, **kwargs)

    def check(*args, **kwargs):
        calls["check"] += 1
        return real_check(*args, **kwargs)

    monkeypatch.setattr(catalogue_module, "load_catalogue", load)
    monkeypatch.setattr(jobs, "check", check)
    catalogue_module._READ.clear()
    return calls


def test_an_option_check_does_not_read_keeps_the_catalogue_and_the_check(tmp_path: Path, counted: dict[str, int]) -> None:
    state = server.State(ROOT / "token_defs.yaml", tmp_path)
    first = state.render({"copies": "1"})
    second = state.render({"copies": "2"})
    assert first.error is None and second.error is None and first.pdf != second.pdf
    assert second.check == first.check and second.name == first.name == "meatshields.pdf"
    # before: a render read the catalogue twice more (the name, then the check) and checked every time
    assert counted == {"load_catalogue": 1, "check": 1}


def test_an_option_check_reads_makes_a_new_report(tmp_path: Path, counted: dict[str, int]) -> None:
    state = server.State(ROOT / "token_defs.yaml", tmp_path)
    state.render({"margin": "0.25in"})
    state.render({"margin": "0.5in"})
    state.render({"margin": "0.25in", "copies": "3"})  # the first margin again: its report is kept
    assert counted["check"] == 2
