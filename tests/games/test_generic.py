"""The generic checks (tokengen.games.generic) against what ``build`` says of the same catalogue."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

CATALOGUE = """\
title: Low art
size: 1in
fields: {name: text, pic: image}
template:
  - {image: "{pic}", box: [0, 0, 1, 1]}
  - {text: "{name}", at: [0.5, 0.9], size: 0.1}
tokens:
  - {id: a, name: A, pic: art/small.png}
  - {id: b, name: B, pic: art/big.png}
"""


def _catalogue(folder: Path) -> Path:
    (folder / "art").mkdir()
    Image.new("RGB", (150, 150), (200, 40, 40)).save(folder / "art" / "small.png")  # 150 px over 1 in: 150 DPI
    Image.new("RGB", (400, 400), (40, 40, 200)).save(folder / "art" / "big.png")  # 400 DPI: fine
    path = folder / "cat.yaml"
    path.write_text(CATALOGUE, "utf-8")
    return path


def test_check_warns_of_low_resolution_art_in_builds_words(tmp_path: Path, run):
    """A new user's check said 0 warnings where build warned of each low-resolution picture and the
    shop export failed its preflight: check now gives build's own lines, as warnings."""
    path = _catalogue(tmp_path)
    built = run("build", str(path), "-o", str(tmp_path / "out.pdf"))
    assert built.exit_code == 0, built.stderr
    said = [line.removeprefix("tokengen: warning: ") for line in built.stderr.splitlines() if "DPI" in line]
    assert said == ["art/small.png: 150 DPI at its printed size, below 300 DPI; it may print blurred"]
    checked = run("check", str(path))
    assert checked.exit_code == 0, checked.stdout
    assert [line for line in checked.stdout.splitlines() if "DPI" in line] == [f"{path}: warning art-resolution: {said[0]}"]
    assert "1 warning" in checked.stdout
