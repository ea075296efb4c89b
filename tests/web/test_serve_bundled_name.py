"""``tokengen serve meatshields`` names the bundled catalogue as the user typed it, not the
package file's path (``bundled.shown``)."""

from __future__ import annotations

from pathlib import Path

from tests.servekit import Server
from tokengen.sources import bundled


def test_shown_names_a_bundled_catalogue_and_leaves_other_paths(tmp_path: Path):
    assert bundled.shown(bundled.resolve("meatshields")) == "meatshields"
    assert bundled.shown(tmp_path / "meatshields.yaml") == str(tmp_path / "meatshields.yaml")
    assert bundled.shown("token_defs.yaml") == "token_defs.yaml"


def test_serve_bundled_says_its_name(tmp_path: Path):
    server = Server(Path("meatshields"), cwd=tmp_path)
    try:
        assert server.first == f"serving meatshields at {server.url}/ (Ctrl-C to stop)"
        assert "site-packages" not in server.first and "data/catalogues" not in server.first
    finally:
        assert server.stop() == 130
