"""The README's picture of each boxed-text key: examples/rules-cards/text-keys.yaml builds, cuts
exactly the two boxes it labels "(cut)", and its picture (made by examples/render_pages.py) is
in the README beside the keys it shows."""

from __future__ import annotations

from pathlib import Path

import pdfplumber

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "rules-cards" / "text-keys.yaml"


def test_text_keys_example_builds_and_cuts_the_boxes_it_says(tmp_path: Path, run):
    out = tmp_path / "keys.pdf"
    result = run("build", str(EXAMPLE), "--no-cut-lines", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    cut = [line for line in result.stderr.splitlines() if "does not fit its box" in line]
    notes = [line for line in result.stderr.splitlines() if "pictures resampled to 600 DPI" not in line]  # its 96 px icons print under 8 pt
    assert len(cut) == 2 and len(notes) == 2
    assert "even at 16 pt" in cut[0] and "even at 14 pt" in cut[1]
    with pdfplumber.open(out) as pdf:
        text = pdf.pages[0].extract_text()
    for key in ("align: left", "align: centre", "align: right", "align: justify", "valign: bottom", "leading: 1.6",
                "min_size: 16pt", "fit: false", "markup: false"):
        assert key in text
    assert "**Ambush.** Deal 2" in text  # markup: false prints the stars


def test_the_readme_shows_the_keys_picture():
    readme = (ROOT / "docs" / "guide" / "templates.md").read_text("utf-8")  # the manual's templates page (the docs build renders the picture)
    assert (ROOT / "examples" / "rules-cards" / "text-keys.png").exists()
    assert "![each key of a boxed text](../examples/rules-cards/text-keys.png)" in readme
    assert '"rules-cards/text-keys.png"' in (ROOT / "examples" / "render_pages.py").read_text("utf-8")
    for key in ("safe_area:", "bold_italic:", "fit: false"):
        assert key in readme
