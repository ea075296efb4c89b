"""build --watch when the catalogue's folder is deleted: one line and exit 2 (a folder that is
gone seldom comes back under its name, and inotify cannot follow it), never exit 70 or a
watcher waiting on nothing; the last good PDF stays."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import CATALOGUE
from tests.outputs.test_watch import HANG, LINE, child_factory  # noqa: F401  (the fixture)

pytest.importorskip("watchfiles")


def test_a_deleted_folder_ends_the_watch_with_one_line(tmp_path: Path, child_factory):  # noqa: F811
    game = tmp_path / "game"
    game.mkdir()
    cat = game / "token_defs.yaml"
    shutil.copy(CATALOGUE, cat)
    out = tmp_path / "out" / "w.pdf"
    out.parent.mkdir()
    child = child_factory("build", str(cat), "-o", str(out), "--watch", "--preview", cwd=tmp_path)
    assert LINE.match(child.line())
    assert child.line().startswith("watching ")
    good = out.read_bytes()
    shutil.rmtree(game)
    assert child.line() == (f"tokengen: error: {cat}: its folder {game} was deleted or moved; stopped watching "
                            "(the last good output is kept)")
    assert child.line() == "<EOF>"
    assert child.proc.wait(HANG) == 2
    assert out.read_bytes() == good
