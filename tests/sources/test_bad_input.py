"""Hostile and broken catalogues (issue 7, and the bad-input part of issue 2).

One tiny fixture per failure mode lives in ``tests/data/bad/``; ``tests/data/bad/expected.yaml``
maps each to the exact one-line message. Every one must exit 2, print that line and nothing
else on stderr, and leave an existing output file byte-for-byte as it was.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tokengen.errors import CatalogueError
from tokengen.sources import yamlsrc
from tokengen.sources.bundled import missing_message
from tokengen.sources.catalogue import load_catalogue

DATA = Path(__file__).resolve().parents[1] / "data"
BAD = DATA / "bad"
GOOD = DATA / "good"
EXPECTED: dict[str, str] = yaml.safe_load((BAD / "expected.yaml").read_text("utf-8"))
OLD = b"%PDF-1.4 previous good output\n"


def test_every_fixture_has_an_expected_message():
    files = {p.name for p in BAD.glob("*.yaml")} - {"expected.yaml"}
    assert files == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_bad_catalogue_one_line_exit_2(run, tmp_path: Path, name: str):
    source = BAD / name
    out = tmp_path / "sheet.pdf"
    out.write_bytes(OLD)
    result = run("build", str(source), "-o", str(out))
    assert result.exit_code == 2
    assert result.stderr == "tokengen: error: " + EXPECTED[name].replace("{file}", str(source)) + "\n"
    assert result.stdout == ""
    assert out.read_bytes() == OLD  # not clobbered
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sheet.pdf"]  # no temp files left


@pytest.mark.parametrize("name", sorted(p.name for p in GOOD.glob("*.yaml")))
def test_good_edge_cases_build(run, tmp_path: Path, name: str):
    """A UTF-8 byte-order mark, a date-like title, priorities written as glyphs: all valid."""
    out = tmp_path / "sheet.pdf"
    result = run("build", str(GOOD / name), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert out.read_bytes().startswith(b"%PDF")


def test_bom_is_read_like_plain_utf8():
    with_bom = load_catalogue(GOOD / "bom.yaml")
    plain = load_catalogue(GOOD / "minimal.yaml")
    assert with_bom.title == plain.title == "T"
    assert [t.id for t in with_bom.tokens] == [t.id for t in plain.tokens]


def test_date_like_text_stays_text():
    assert load_catalogue(GOOD / "timestamp_title.yaml").title == "2024-01-01"


def test_missing_file(run, tmp_path: Path):
    missing = tmp_path / "nope.yaml"
    result = run("build", str(missing), "-o", str(tmp_path / "x.pdf"))
    assert (result.exit_code, result.stderr) == (2, f"tokengen: error: {missing}: {missing_message()}\n")
    assert list(tmp_path.iterdir()) == []


def test_folder_as_catalogue(run, tmp_path: Path):
    folder = tmp_path / "cat.yaml"
    folder.mkdir()
    result = run("build", str(folder), "-o", str(tmp_path / "x.pdf"))
    assert (result.exit_code, result.stderr) == (2, f"tokengen: error: {folder}: is a folder, not a file\n")


def test_page_too_small_for_one_token(run, tmp_path: Path):
    source = GOOD / "minimal.yaml"
    out = tmp_path / "x.pdf"
    result = run("build", str(source), "--page", "1inx1in", "-o", str(out))
    assert result.exit_code == 2
    assert result.stderr == (f"tokengen: error: {source}: a 1in token does not fit on a 1in × 1in page with a 0.25in margin;"
                             " the largest token that fits is 0.11in (2.8mm)\n")
    assert not out.exists()


def test_500in_names_the_largest_size_that_fits(run, tmp_path: Path):
    result = run("build", str(BAD / "size_huge.yaml"), "--page", "a4", "-o", str(tmp_path / "x.pdf"))
    assert result.exit_code == 2
    assert "a 500in token does not fit on a 210mm × 297mm page with a 0.25in margin; the largest token that fits is " in result.stderr


def test_bad_unit_on_the_command_line_is_a_usage_error(run, tmp_path: Path):
    result = run("build", str(GOOD / "minimal.yaml"), "--margin", "1furlong", "-o", str(tmp_path / "x.pdf"))
    assert result.exit_code == 2
    assert "unknown unit 'furlong'" in result.stderr and "Traceback" not in result.stderr


# ---- size: multi-megabyte files are refused quickly, with a bounded result -------------------


def test_file_over_the_size_cap_is_refused_unread(run, tmp_path: Path):
    big = tmp_path / "big.yaml"
    big.write_bytes(b"# " + b"x" * (yamlsrc.MAX_BYTES + 10) + b"\n")
    result = run("build", str(big), "-o", str(tmp_path / "x.pdf"))
    assert (result.exit_code, result.stderr) == (2, f"tokengen: error: {big}: file is larger than 8 MiB\n")


def test_multi_megabyte_catalogue_is_bounded(tmp_path: Path):
    """7 MB of tokens: the value budget stops the reader early (well under the time a full
    compose of the file would take), with a line number."""
    head = (GOOD / "minimal.yaml").read_text("utf-8")
    big = tmp_path / "big.yaml"
    big.write_text(head + "".join(f"  - {{id: t{i}, attribute: AGI, priority: low}}\n" for i in range(150_000)), "utf-8")
    assert big.stat().st_size > 7_000_000
    with pytest.raises(CatalogueError) as caught:
        load_catalogue(big)
    # stopped part-way by the length of tokens: (issue 37), named at its key, not after reading all 150,000 lines
    assert caught.value.line == 9
    assert str(caught.value).endswith("tokens: has more than 10000 entries")


def test_too_many_tokens_is_refused_before_schema_checks(tmp_path: Path):
    head = (GOOD / "minimal.yaml").read_text("utf-8")
    big = tmp_path / "many.yaml"
    big.write_text(head + "".join(f"  - {{id: t{i}, attribute: AGI, priority: low}}\n" for i in range(10_001)), "utf-8")
    with pytest.raises(CatalogueError, match=r"many.yaml:9: tokens: has more than 10000 entries$"):
        load_catalogue(big)


def test_one_huge_string_is_bounded(tmp_path: Path):
    big = tmp_path / "long.yaml"
    big.write_text((GOOD / "minimal.yaml").read_text("utf-8").replace("title: T", "title: " + "x" * 5_000_000), "utf-8")
    with pytest.raises(CatalogueError) as caught:
        load_catalogue(big)
    assert caught.value.message == "text is longer than 200 characters (5000000)"
