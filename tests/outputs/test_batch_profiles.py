"""A batch job may name an export profile (``profile: tts``, ``print-shop``, …): it is then
``tokengen export`` into a folder, with the same files; the page offers the tts save too, with
the URL its images will be uploaded to."""

from __future__ import annotations

import io
import json
import shutil
import zipfile
from pathlib import Path

import pytest

from tests.conftest import CATALOGUE


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    shutil.copy(CATALOGUE, tmp_path / "token_defs.yaml")
    return tmp_path


def _jobs(folder: Path, text: str) -> Path:
    path = folder / "jobs.yaml"
    path.write_text(text, "utf-8")
    return path


def test_a_tts_job_writes_the_export_files(run, folder: Path):
    jobs = _jobs(folder, "jobs:\n  - {catalogue: token_defs.yaml, profile: tts, image_url: 'https://example.org/tts'}\n"
                         "  - {catalogue: token_defs.yaml, profile: print-shop, output: shop}\n")
    result = run("batch", str(jobs), "-o", str(folder / "out"), "-j", "1")
    assert result.exit_code == 0, result.stderr
    assert "meatshields-tts" in result.stdout and "shop" in result.stdout
    cli = folder / "cli"
    assert run("export", str(folder / "token_defs.yaml"), "--profile", "tts", "-o", str(cli),
               "--image-url", "https://example.org/tts").exit_code == 0
    made = folder / "out" / "meatshields-tts"
    assert sorted(p.name for p in made.iterdir()) == sorted(p.name for p in cli.iterdir())
    for path in cli.iterdir():  # the same bytes as the export command
        assert (made / path.name).read_bytes() == path.read_bytes(), path.name
    save = json.loads((made / "meatshields.json").read_text("utf-8"))
    assert save["ObjectStates"][0]["Name"] == "Bag"
    assert len(save["ObjectStates"][0]["ContainedObjects"]) == 18
    assert (folder / "out" / "shop" / "meatshields-print-shop.pdf").is_file()


@pytest.mark.parametrize(("job", "message"), [
    ("{catalogue: token_defs.yaml, profile: tts, page: a4}",
     "jobs.yaml:2: jobs[0].page: the profile tts sets the sheet; a job with a profile takes size, scale, image_url, "
     "max_art_pixels and output"),
    ("{catalogue: token_defs.yaml, profile: print-shop, image_url: 'https://x.org'}",
     "jobs.yaml:2: jobs[0].image_url: only for a tts profile, not print-shop"),
    ("{catalogue: token_defs.yaml, image_url: 'https://x.org'}",
     "jobs.yaml:2: jobs[0].image_url: only for a job with profile: tts"),
    ("{catalogue: token_defs.yaml, profile: printshop}",
     "jobs.yaml:2: jobs[0].profile: unknown profile 'printshop'; did you mean 'print-shop'?"),
])
def test_profile_job_errors(run, folder: Path, job: str, message: str):
    result = run("batch", str(_jobs(folder, f"jobs:\n  - {job}\n")), "-o", str(folder / "out"))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"tokengen: error: {folder}/{message}")


def test_old_jobs_keep_their_fingerprint():
    """The new keys at their defaults leave a job's fingerprint (its PDF Keywords) as it was."""
    from tokengen.outputs.batch import Job

    job = Job(Path("a.yaml"), Path("a.pdf"))
    assert job.fingerprint == Job(Path("a.yaml"), Path("a.pdf"), max_art_pixels=250_000_000).fingerprint
    assert job.fingerprint != Job(Path("a.yaml"), Path("a.pdf"), max_art_pixels=1000).fingerprint


def test_the_page_offers_the_tts_save_with_its_image_url(folder: Path, monkeypatch):
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from tokengen.web.server import create_app

    monkeypatch.chdir(folder)
    work = folder / "work"
    work.mkdir()
    app = create_app(Path("token_defs.yaml"), workdir=work, watch=False, hosts=("testserver",))
    with TestClient(app) as client:
        page = client.get("/").text
        assert '<option value="tts" data-help="tts: ' in page and 'id="image_url" name="image_url"' in page
        refused = client.get("/download/shop?profile=tts")
        assert refused.status_code == 400
        assert refused.text == ("tokengen export: Invalid value for '--image-url': a tts export from the page needs the URL "
                                "its images will be uploaded to (the image URL field) (see 'tokengen export --help')\n")
        answer = client.get("/download/shop?profile=tts&image_url=https://example.org/tts")
    assert answer.status_code == 200 and answer.headers["content-type"] == "application/zip"
    with zipfile.ZipFile(io.BytesIO(answer.content)) as z:
        save = json.loads(z.read("meatshields.json"))
        assert len([n for n in z.namelist() if n.endswith(".png")]) == 20  # 18 faces, the back, the thumbnail
    text = json.dumps(save)
    assert "https://example.org/tts/meatshields-01-agi-low.png" in text
    assert str(work) not in text and "file://" not in text
