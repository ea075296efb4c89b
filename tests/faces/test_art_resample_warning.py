"""Art above the print resolution: one warning line per run (per job in batch), naming the
first two pictures relative to the catalogue's folder."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from tests.conftest import catalogue_with_art
from tokengen.faces.art import resampled_warning

IDS = ["agi-low", "agi-high", "con-low"]  # in catalogue order


def _catalogue(folder: Path, catalogue_path: Path, count: int) -> Path:
    (folder / "art").mkdir()
    for i in range(count):
        Image.new("L", (2100, 2100), 60 * i).save(folder / "art" / f"p{i}.png")  # 2400 DPI over the 0.875 in safe area
    return catalogue_with_art(catalogue_path, {token: f"art/p{i}.png" for i, token in enumerate(IDS[:count])}, folder / "cat.yaml")


def test_three_resampled_pictures_are_one_line_relative_to_the_catalogue(run, tmp_path: Path, catalogue_path: Path):
    cat = _catalogue(tmp_path, catalogue_path, 3)
    result = run("build", str(cat), "-o", str(tmp_path / "out.pdf"))
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ("tokengen: warning: 3 pictures resampled to 600 DPI (art/p0.png, art/p1.png, …); "
                             "--keep-resolution keeps them\n")


def test_batch_prints_the_same_resampling_warning_once(run, tmp_path: Path, catalogue_path: Path):
    cat = _catalogue(tmp_path, catalogue_path, 2)
    result = run("batch", str(cat), "--size", "1in", "--size", "0.9in", "--page", "letter", "--page", "a4", "-j", "1",
                 "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ("tokengen: warning: 2 pictures resampled to 600 DPI (art/p0.png, art/p1.png); "
                             "--keep-resolution keeps them\n")


def test_resampled_warning_wording():
    folder = Path("/games/cat")
    assert resampled_warning([folder / "art/orc.png"], 300, folder) == \
        "1 picture resampled to 300 DPI (art/orc.png); --keep-resolution keeps it"
    assert resampled_warning([Path("/elsewhere/x.png"), folder / "y.png"], 600, folder) == \
        "2 pictures resampled to 600 DPI (/elsewhere/x.png, y.png); --keep-resolution keeps them"
