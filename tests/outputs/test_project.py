"""A project (issue 41): ``tokengen build project.yaml`` builds every part of a game into one PDF
after a contents page. Measured: the page count is the contents page plus each part's own build,
the contents page names each part and the page it starts on, and each part's first page renders
the same pixels as that part built alone."""

from __future__ import annotations

import shutil

import pypdfium2 as pdfium
from PIL import ImageChops
from pypdf import PdfReader

from tests.conftest import ROOT


def _project(tmp_path, parts="[tokens.yaml, cards/cards.yaml]"):
    shutil.copy(ROOT / "token_defs.yaml", tmp_path / "tokens.yaml")
    shutil.copytree(ROOT / "examples" / "poker-cards", tmp_path / "cards")
    path = tmp_path / "game.yaml"
    path.write_text(f"title: A Game\nparts: {parts}\n", "utf-8")
    return path


def test_a_project_builds_every_part_after_a_contents_page(run, tmp_path):
    project = _project(tmp_path)
    result = run("build", str(project), "-o", str(tmp_path / "game.pdf"))
    assert result.exit_code == 0, result.stderr
    alone = [tmp_path / "tokens-alone.pdf", tmp_path / "cards-alone.pdf"]
    assert run("build", str(tmp_path / "tokens.yaml"), "-o", str(alone[0])).exit_code == 0
    assert run("build", str(tmp_path / "cards" / "cards.yaml"), "-o", str(alone[1])).exit_code == 0
    counts = [len(PdfReader(p).pages) for p in alone]
    reader = PdfReader(tmp_path / "game.pdf")
    assert len(reader.pages) == 1 + sum(counts)
    contents = reader.pages[0].extract_text()
    assert "A Game" in contents and "Meatshields · 18 tokens" in contents and "page 2" in contents and f"page {2 + counts[0]}" in contents
    assert f"2 parts on {1 + sum(counts)} pages" in result.stdout
    joined = pdfium.PdfDocument(str(tmp_path / "game.pdf"))
    for first, path in ((1, alone[0]), (1 + counts[0], alone[1])):
        own = pdfium.PdfDocument(str(path))[0].render(scale=1).to_pil().convert("RGB")
        part = joined[first].render(scale=1).to_pil().convert("RGB")
        assert own.size == part.size and ImageChops.difference(own, part).getbbox() is None


def test_a_missing_part_is_named_at_its_line_and_nothing_is_written(run, tmp_path):
    project = _project(tmp_path, parts="\n  - tokens.yaml\n  - board.yaml")
    result = run("build", str(project), "-o", str(tmp_path / "game.pdf"))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"tokengen: error: {project}:4: parts[1]: no catalogue board.yaml")
    assert not (tmp_path / "game.pdf").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".tokengen")] == []


def test_a_project_key_is_checked_by_the_schema(run, tmp_path):
    project = _project(tmp_path, parts="[tokens.yaml]\npart: [x]")
    result = run("build", str(project), "-o", str(tmp_path / "game.pdf"))
    assert result.exit_code == 2
    assert result.stderr.endswith("game.yaml:3: part: unknown key; did you mean 'parts'?\n")
