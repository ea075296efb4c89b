"""The page's rough edges a new user met (issue 43): its command line works where serve ran, and
the help line under the profile list describes the profile chosen."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.conftest import CATALOGUE

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
from starlette.testclient import TestClient  # noqa: E402

from tokengen.sources.profiles import load_profiles  # noqa: E402
from tokengen.web.server import create_app  # noqa: E402


@pytest.fixture
def client(tmp_path: Path, monkeypatch):
    """The catalogue served as ``game/token_defs.yaml`` from the folder above it."""
    (tmp_path / "game").mkdir()
    shutil.copy(CATALOGUE, tmp_path / "game" / "token_defs.yaml")
    monkeypatch.chdir(tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    app = create_app(Path("game/token_defs.yaml"), workdir=work, watch=False, hosts=("testserver",))
    with TestClient(app) as c:
        yield c


def test_the_command_line_names_the_catalogue_as_it_was_given(client):
    data = client.get("/api/render?page=a4").json()
    assert data["error"] is None
    assert data["args"] == ["tokengen", "build", "game/token_defs.yaml", "--page=a4"]  # not token_defs.yaml: fails when copied


def test_the_help_under_the_profile_list_describes_the_chosen_profile(client):
    page = client.get("/").text
    [shown] = re.findall(r'<p id="profile-help" class="help">([^<]*)</p>', page)
    assert shown.startswith("print-shop: ") and "Tabletop" not in shown
    options = dict(re.findall(r'<option value="([^"]+)" data-help="([^"]*)"', page))
    assert list(options) == list(load_profiles())
    assert all(help.startswith(f"{name}: ") for name, help in options.items())
    assert options["tts"].endswith("(writes tts)")


def test_a_bundled_catalogue_is_named_by_its_name_in_the_command_line(tmp_path: Path, monkeypatch):
    from tokengen.sources.bundled import bundled_path

    monkeypatch.chdir(tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    with TestClient(create_app(bundled_path("meatshields"), workdir=work, watch=False, hosts=("testserver",))) as client:
        assert client.get("/api/render").json()["args"] == ["tokengen", "build", "meatshields"]
