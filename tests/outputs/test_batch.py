"""tokengen batch: every combination written and named, failures isolated, re-runs skipped."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pdfplumber
import pytest

from tests.conftest import manual
from tokengen.errors import CatalogueError
from tokengen.outputs.batch import Job, load_jobs, output_name, run_jobs, summary_table
from tokengen.units import parse_length


@pytest.fixture
def catalogue(tmp_path: Path, catalogue_path: Path) -> Path:
    """A private copy of the catalogue (so its mtime can be changed)."""
    copy = tmp_path / "token_defs.yaml"
    shutil.copy(catalogue_path, copy)
    old = copy.stat().st_mtime - 100
    os.utime(copy, (old, old))
    return copy


def cell_width(pdf: Path) -> float:
    with pdfplumber.open(pdf) as doc:
        return next(r["width"] for r in doc.pages[0].rects if r["width"] == r["height"] and r["width"] > 9)  # not home bleed


def test_every_combination(run, tmp_path: Path, catalogue: Path):
    out = tmp_path / "new" / "dir"
    result = run("batch", str(catalogue), "--size", "0.75in", "--size", "1in", "--size", "25mm",
                 "--page", "letter", "--page", "a4", "-o", str(out), "-j", "2")
    assert result.exit_code == 0, result.stderr
    names = sorted(p.name for p in out.iterdir())
    assert names == sorted(f"meatshields_{s}_{p}.pdf" for s in ("0.75in", "1in", "25mm") for p in ("letter", "a4"))
    for name in names:
        size = name.split("_")[1]
        assert cell_width(out / name) == pytest.approx(parse_length(size), abs=0.01)
    lines = result.stdout.splitlines()
    assert sum(line.startswith("[") for line in lines) == 6  # plain progress lines off a TTY
    header = next(line for line in lines if line.startswith("job"))
    assert header.split() == ["job", "pages", "tokens", "size", "seconds", "output"]
    assert f"{out / 'meatshields_25mm_a4.pdf'}" in result.stdout


def test_scale_names_the_real_size(run, tmp_path: Path, catalogue: Path):
    result = run("batch", str(catalogue), "--scale", "1.25", "-o", str(tmp_path / "o"), "-j", "1")
    assert result.exit_code == 0, result.stderr
    assert cell_width(tmp_path / "o" / "meatshields_1.25in_letter.pdf") == pytest.approx(90.0, abs=0.01)


def test_a_failing_job_does_not_stop_the_others(run, tmp_path: Path, catalogue: Path):
    out = tmp_path / "o"
    result = run("batch", str(catalogue), "--size", "1in", "--size", "9in", "--size", "0.5in", "-o", str(out), "-j", "2")
    assert result.exit_code == 2
    assert sorted(p.name for p in out.iterdir()) == ["meatshields_0.5in_letter.pdf", "meatshields_1in_letter.pdf"]
    assert "meatshields_9in_letter.pdf: FAILED: a 9in token does not fit" in result.stdout
    assert result.stderr == ("tokengen: warning: caption text is 3.69 pt on 18 tokens (agi-low, agi-high, agi-both, …), below 5 pt at 0.5in\n"
                             "tokengen: error: 1 of 3 jobs failed: meatshields_9in_letter.pdf\n")  # the 0.5in job's small text


CARDS = """\
title: Cards
size: 63mmx88mm
fields: {name: text}
template: [{rect: fill, fill: "#efe4c8"}, {text: "{name}", at: [0.5, 0.5]}]
tokens: [{name: Orc}]
"""


def test_a_failed_job_shows_both_sides_of_its_size_as_a_built_one_does(run, tmp_path: Path):
    """A card too big for the page fails; its row still names the size it was asked at, width and height."""
    cards = tmp_path / "cards.yaml"
    cards.write_text(CARDS, "utf-8")
    result = run("batch", str(cards), "--size", "63mmx88mm", "--size", "200mm", "-o", str(tmp_path / "o"), "-j", "1")
    assert result.exit_code == 2
    rows = {line.split()[0]: line.split()[1:4] for line in result.stdout.splitlines() if line.startswith("cards_")}
    assert rows == {"cards_63mm_letter": ["1", "1", "63mmx88mm"], "cards_200mm_letter": ["-", "-", "200mmx279.4mm"]}
    jobs = tmp_path / "jobs.yaml"  # an export job fails the same way, and says the same
    jobs.write_text("jobs:\n  - {catalogue: cards.yaml, size: 400mm, profile: print-shop}\n", "utf-8")
    result = run("batch", str(jobs), "-o", str(tmp_path / "p"), "-j", "1")
    assert result.exit_code == 2
    row = next(line for line in result.stdout.splitlines() if line.startswith("cards-print-shop"))
    assert row.split()[1:5] == ["-", "-", "400mmx558.7mm", "FAILED"]


def test_rerun_skips_unless_forced_or_stale(run, tmp_path: Path, catalogue: Path):
    out = tmp_path / "o"
    args = ("batch", str(catalogue), "--size", "1in", "-o", str(out), "-j", "1")
    assert run(*args).exit_code == 0
    pdf = out / "meatshields_1in_letter.pdf"
    first = pdf.stat().st_mtime_ns
    again = run(*args)
    assert again.exit_code == 0
    assert "up to date, skipped" in again.stdout
    assert pdf.stat().st_mtime_ns == first
    forced = run(*args, "--force")
    assert "skipped" not in forced.stdout and pdf.stat().st_mtime_ns != first
    later = pdf.stat().st_mtime + 10
    os.utime(catalogue, (later, later))  # the catalogue changed: rebuild
    stale = run(*args)
    assert "skipped" not in stale.stdout


def write_jobs(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "jobs.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_job_file(run, tmp_path: Path, catalogue: Path):
    jobs = write_jobs(tmp_path, """\
defaults:
  catalogue: token_defs.yaml
jobs:
  - size: 25mm
    page: a4
  - scale: 0.75
    crop_marks: true
    cut_lines: false
    output: small.pdf
  - size: 2in
    page: a4
    landscape: true
    gutter: 0.125in
""")
    out = tmp_path / "o"
    result = run("batch", str(jobs), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert sorted(p.name for p in out.iterdir()) == ["meatshields_25mm_a4.pdf", "meatshields_2in_a4-landscape.pdf", "small.pdf"]
    assert cell_width(out / "small.pdf") == pytest.approx(54.0, abs=0.01)
    with pdfplumber.open(out / "meatshields_2in_a4-landscape.pdf") as doc:
        assert doc.pages[0].width > doc.pages[0].height


@pytest.mark.parametrize("text, message", [
    ("jobs:\n  - catalogue: token_defs.yaml\n    sise: 1in\n",
     "jobs.yaml:3: jobs[0].sise: unknown key; did you mean 'size'?"),
    ("jobs:\n  - catalogue: token_defs.yaml\n    size: 1in\n    scale: 2\n",
     "jobs.yaml:2: jobs[0]: give size or scale, not both"),
    ("jobs:\n  - catalogue: token_defs.yaml\n    size: 12\n",
     "jobs.yaml:3: jobs[0].size: a length needs a unit (in, mm, cm, pt): 12"),
    ("jobs:\n  - size: 1in\n", "jobs.yaml:2: jobs[0]: missing key 'catalogue' (here or in defaults)"),
    ("jobs:\n  - catalogue: token_defs.yaml\n    page: a55\n",
     "jobs.yaml:3: jobs[0].page: unknown page 'a55': use one of letter, legal, tabloid, a4, a3, a ReportLab page name"
     " (a5, b5, c4, half_letter, …) or WIDTHxHEIGHT such as 210mmx297mm"),
    ("jobs:\n  - catalogue: token_defs.yaml\n    output: ../x.pdf\n",
     "jobs.yaml:3: jobs[0].output: must be a plain file name ending in .pdf"),
    ("jobs:\n  - catalogue: token_defs.yaml\n  - catalogue: token_defs.yaml\n",
     "jobs.yaml:3: jobs[1]: writes meatshields_1in_letter.pdf, as job 1 does"),
    ("jobs: []\n", "jobs.yaml:1: jobs: must be a non-empty list of jobs"),
    ("jobz: []\njobs: [{catalogue: token_defs.yaml}]\n", "jobs.yaml:1: jobz: unknown key; did you mean 'jobs'?"),
])
def test_job_file_errors(run, tmp_path: Path, catalogue: Path, text: str, message: str):
    jobs = write_jobs(tmp_path, text)
    with pytest.raises(CatalogueError) as info:
        load_jobs(jobs, tmp_path / "o")
    assert str(info.value) == f"{tmp_path}/{message}"
    result = run("batch", str(jobs), "-o", str(tmp_path / "o"))
    assert result.exit_code == 2
    assert result.stderr == f"tokengen: error: {tmp_path}/{message}\n"


def test_job_file_refuses_matrix_options(run, tmp_path: Path, catalogue: Path):
    jobs = write_jobs(tmp_path, "jobs:\n  - catalogue: token_defs.yaml\n")
    result = run("batch", str(jobs), "--size", "1in", "-o", str(tmp_path / "o"))
    assert result.exit_code == 2
    assert "--size: a job file sets these per job" in result.stderr


def test_output_name():
    assert output_name("Meatshields", parse_length("25mm"), "a4") == "meatshields_25mm_a4.pdf"
    assert output_name("My Tokens!", 54.0, "210mmx297mm", landscape=True) == "my-tokens_0.75in_210mmx297mm-landscape.pdf"


def test_worker_crash_is_reported(tmp_path: Path, catalogue: Path):
    good = Job(catalogue, tmp_path / "good.pdf")
    bad = Job(catalogue, tmp_path / "bad.pdf", page="nonsense")
    results = run_jobs([bad, good], workers=2)
    assert [r.ok for r in results] == [False, True]
    assert results[0].error and "unknown page 'nonsense'" in results[0].error
    table = summary_table(results)
    assert "error: unknown page 'nonsense'" in table
    assert (tmp_path / "good.pdf").exists() and not (tmp_path / "bad.pdf").exists()


def test_example_job_file_loads(tmp_path: Path):
    root = Path(__file__).resolve().parents[2]
    jobs = load_jobs(root / "examples" / "batch-jobs.yaml", tmp_path)
    assert [j.name for j in jobs] == ["meatshields_25mm_a4.pdf", "meatshields_0.75in_letter.pdf",
                                      "meatshields_1.25in_letter.pdf", "meatshields_chits.pdf"]


def test_help_has_examples_and_the_readme_documents_it(run):
    readme = manual()
    result = run("batch", "--help")
    assert result.exit_code == 0 and "Examples:" in result.stdout and "tokengen batch" in result.stdout
    assert "## Rescaling and batch" in readme and "tokengen batch" in readme
    build = run("build", "--help").stdout
    assert "--size LENGTH" in build and "--scale FACTOR" in build
    assert "tokengen build --size" in readme and "tokengen build --scale" in readme


def test_rerun_with_other_options_rebuilds(run, tmp_path: Path, catalogue_path: Path):
    """The skip compares the job's options (a fingerprint in the PDF Keywords), not only times."""
    out = tmp_path / "out"
    first = run("batch", str(catalogue_path), "--size", "1in", "--page", "letter", "-o", str(out))
    assert first.exit_code == 0, first.stderr
    pdf = out / "meatshields_1in_letter.pdf"
    before = pdf.read_bytes()
    same = run("batch", str(catalogue_path), "--size", "1in", "--page", "letter", "-o", str(out))
    assert "up to date, skipped" in same.stdout and pdf.read_bytes() == before
    other = run("batch", str(catalogue_path), "--size", "1in", "--page", "letter", "--gutter", "0.25in",
                "--columns", "0", "-o", str(out))
    assert other.exit_code == 0 and "skipped" not in other.stdout
    assert pdf.read_bytes() != before


def test_job_keys_have_one_reader_each() -> None:
    """One place per rule: every key the job schema allows has exactly one converter after the
    schema (batch's table), and no converter reads a key the schema refuses."""
    from tokengen.outputs.batch import _JOB_FIELD
    from tokengen.sources.schemas import schema

    assert set(_JOB_FIELD) == set(schema("jobs")["$defs"]["job"]["properties"])
