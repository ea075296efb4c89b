"""Issue 14: the rough edges a newcomer hits, each with the right behaviour and its exact message."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pdfplumber
import pytest
from PIL import Image

from tests.conftest import CATALOGUE, ROOT
from tokengen.errors import UsageError
from tokengen.faces.scale import token_size
from tokengen.sources import yamlsrc


# -- -o DIR/ ------------------------------------------------------------------------------------
def test_output_into_an_existing_folder_is_named_as_without_o(run, tmp_path: Path, monkeypatch):
    folder = tmp_path / "sheets"
    folder.mkdir()
    for arg in (f"{folder}/", str(folder)):
        result = run("build", str(CATALOGUE), "-o", arg)
        assert result.exit_code == 0, result.stderr
        assert result.stdout.startswith(f"wrote {folder / 'meatshields.pdf'}: ")
    assert [p.name for p in folder.iterdir()] == ["meatshields.pdf"]
    monkeypatch.chdir(tmp_path)
    result = run("build", str(CATALOGUE))  # no -o: the same name, in the current folder
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("wrote meatshields.pdf: ")
    cats = tmp_path / "cats.yaml"
    shutil.copy(CATALOGUE, cats)
    for args in ((), ("-o", "sheets/")):
        result = run("build", str(cats), *args)
        assert result.exit_code == 0, result.stderr
    assert (tmp_path / "cats.pdf").is_file() and (folder / "cats.pdf").is_file()


def test_output_into_a_missing_folder_is_refused(run, tmp_path: Path):
    missing = tmp_path / "newdir"
    result = run("build", str(CATALOGUE), "-o", f"{missing}/")
    assert (result.exit_code, result.stderr) == (
        2, f"tokengen: error: -o {missing}/: no such folder (create it first, or name the file, e.g. -o {missing}/meatshields.pdf)\n")
    assert not missing.exists()


# -- catalogue messages -------------------------------------------------------------------------
def test_unquoted_hash_colour_names_the_yaml_comment(run, tmp_path: Path):
    cat = tmp_path / "cat.yaml"
    text = CATALOGUE.read_text("utf-8")
    assert '  background: "#efe4c8"' in text
    cat.write_text(text.replace('  background: "#efe4c8"', "  background: #efe4c8", 1), "utf-8")
    line = text[:text.index('  background: "#efe4c8"')].count("\n") + 1
    result = run("build", str(cat), "-o", str(tmp_path / "x.pdf"))
    assert (result.exit_code, result.stderr) == (
        2, f"tokengen: error: {cat}:{line}: style.background: no value: an unquoted '#' starts a YAML comment, "
           "so '#efe4c8' was read as one; put the value in quotes: background: \"#efe4c8\"\n")


FLOW = """\
title: Colours
size: 1in
fields:
  name: text
template:
  - {text: "{name}", at: [0.5, 0.5], size: 0.12}
tokens:
  - {name: a}
back:
  - {text: "{name}", at: [0.5, 0.5], size: 0.12}
  - {rect: fill,
     fill: #fbf6ea, bleed: true}
  - {rect: fill, fill: #fbf6ea, bleed: true}
"""


@pytest.mark.parametrize("drop, line", [
    ("", 12),  # across two lines: the parser fails on the next entry
    ("  - {rect: fill,\n     fill: #fbf6ea, bleed: true}\n", 11),  # on one line: it fails at the end of the file
])
def test_unquoted_hash_colour_in_a_flow_mapping_names_the_line_and_the_comment(run, tmp_path: Path, drop, line):
    """The block-style hint (above) for a colour in a flow mapping, at the line of the '#'."""
    cat = tmp_path / "col4.yaml"
    cat.write_text(FLOW.replace(drop, "") if drop else FLOW, "utf-8")
    result = run("build", str(cat), "-o", str(tmp_path / "x.pdf"))
    assert (result.exit_code, result.stderr) == (
        2, f"tokengen: error: {cat}:{line}: YAML syntax error: an unquoted '#' starts a YAML comment, "
           "so '#fbf6ea' was read as one; put the value in quotes: fill: \"#fbf6ea\"\n")


def test_a_comment_inside_a_flow_list_is_not_blamed_for_another_error():
    text = "tokens: [\n  a,  # the first\n  b]\nsize: {x: #abc}\n"
    assert yamlsrc.flow_comment(text, 3) is None
    assert yamlsrc.flow_comment(text, 4) == (4, "x", "#abc")
    assert yamlsrc.flow_comment("colours: [ #fff, #000 ]\n", None) == (1, None, "#fff")


def with_art(tmp_path: Path, art: str) -> Path:
    cat = tmp_path / "cat.yaml"
    text = CATALOGUE.read_text("utf-8")
    cat.write_text(text.replace("style:\n  background:", f"style:\n  art: {art}\n  background:", 1), "utf-8")
    return cat


def test_tilde_is_the_home_folder_and_the_message_says_where_it_led(run, tmp_path: Path, monkeypatch):
    home = tmp_path / "home"
    (home / "Pictures").mkdir(parents=True)
    Image.new("RGB", (300, 300), "red").save(home / "Pictures" / "back.png")
    monkeypatch.setenv("HOME", str(home))
    work = tmp_path / "work"
    work.mkdir()
    cat = with_art(work, "~/Pictures/back.png")
    result = run("build", str(cat), "-o", str(work / "x.pdf"))
    assert result.exit_code == 2
    assert result.stderr.endswith(f"style.art: art path '~/Pictures/back.png' (= '{home}/Pictures/back.png') leaves the "
                                  "catalogue's folder (use --allow-outside-art to permit it)\n")
    result = run("build", str(cat), "-o", str(work / "x.pdf"), "--allow-outside-art")
    assert result.exit_code == 0, result.stderr


def test_case_only_mismatch_gets_a_did_you_mean(run, tmp_path: Path):
    Image.new("RGB", (300, 300), "red").save(tmp_path / "knight.png")
    cat = with_art(tmp_path, "Knight.PNG")
    result = run("build", str(cat), "-o", str(tmp_path / "x.pdf"))
    assert result.exit_code == 2
    assert result.stderr.endswith("style.art: art file 'Knight.PNG' not found; did you mean 'knight.png'?\n")


def test_a_near_name_in_a_folder_is_suggested_with_its_folder(run, tmp_path: Path):
    """A new user's `pics/c05.png` got "did you mean 'c15.png'?", which fails again when pasted in."""
    (tmp_path / "pics").mkdir()
    Image.new("RGB", (300, 300), "red").save(tmp_path / "pics" / "c15.png")
    cat = with_art(tmp_path, "pics/c05.png")
    result = run("build", str(cat), "-o", str(tmp_path / "x.pdf"))
    assert result.exit_code == 2
    assert result.stderr.endswith("style.art: art file 'pics/c05.png' not found; did you mean 'pics/c15.png'?\n")


@pytest.mark.parametrize("written, hint", [
    ("Art/Photo.JPG", "art/photo.jpg"),  # a folder and a file named on a Mac or Windows, which ignore case
    ("ART/photo.jpg", "art/photo.jpg"),
    ("art/Photo.JPG", "art/photo.jpg"),
    ("art/photo.jpeg", "art/photo.jpg"),  # a near miss in the folder: the name that is there, with its folder
])
def test_a_path_differing_only_in_case_gets_its_spelling(run, tmp_path: Path, written: str, hint: str):
    (tmp_path / "art").mkdir()
    Image.new("RGB", (300, 300), "red").save(tmp_path / "art" / "photo.jpg")
    cat = with_art(tmp_path, written)
    result = run("build", str(cat), "-o", str(tmp_path / "x.pdf"))
    assert result.exit_code == 2
    assert result.stderr.endswith(f"style.art: art file '{written}' not found; did you mean '{hint}'?\n")


# -- one minimum size for every route ---------------------------------------------------------
@pytest.mark.parametrize("args,message", [
    (["--size", "0.1in"], "token size 0.1in (2.54mm) is smaller than the smallest token size, 0.125in (3.2mm)"),
    (["--scale", "0.05"], "--scale 0.05 gives 0.05in (1.27mm), which is smaller than the smallest token size, 0.125in (3.2mm)"),
])
def test_size_and_scale_keep_the_catalogue_minimum(run, tmp_path: Path, args: list[str], message: str):
    result = run("build", str(CATALOGUE), "-o", str(tmp_path / "x.pdf"), *args)
    assert (result.exit_code, result.stderr) == (2, f"tokengen: error: {message}\n")
    result = run("export", str(CATALOGUE), "--profile", "home", "-o", str(tmp_path / "e"), *args[:2]) if args[0] == "--size" else None
    if result:
        assert (result.exit_code, result.stderr) == (2, f"tokengen: error: {message}\n")


def test_minimum_size_itself_is_accepted():
    assert token_size(72.0, 9.0) == 9.0 and token_size(72.0, None, 0.125) == 9.0
    with pytest.raises(UsageError):
        token_size(72.0, 8.99)


def test_batch_job_below_the_minimum_fails_with_the_same_message(run, tmp_path: Path):
    result = run("batch", str(CATALOGUE), "--size", "2mm", "-o", str(tmp_path), "-j", "1")
    assert result.exit_code == 2
    assert result.stderr == "tokengen: error: token size 0.07874in (2mm) is smaller than the smallest token size, 0.125in (3.2mm)\n"


# -- small-text warning once per distinct text --------------------------------------------------
def test_build_batch_export_warn_small_text_once_per_distinct_text(run, tmp_path: Path):
    want = "tokengen: warning: caption text is 3.69 pt on 18 tokens (agi-low, agi-high, agi-both, …), below 5 pt at 0.5in\n"
    build = run("build", str(CATALOGUE), "-o", str(tmp_path / "x.pdf"), "--size", "0.5in")
    assert build.exit_code == 0 and build.stderr == want
    batch = run("batch", str(CATALOGUE), "--size", "0.5in", "--page", "letter", "--page", "a4", "-o", str(tmp_path / "b"), "-j", "1")
    assert batch.exit_code == 0 and batch.stderr == want
    export = run("export", str(CATALOGUE), "--profile", "home", "--size", "0.5in", "-o", str(tmp_path / "e"))
    assert export.exit_code == 0 and export.stderr == want
    assert run("build", str(CATALOGUE), "-o", str(tmp_path / "y.pdf")).stderr == ""


# -- export exit status ---------------------------------------------------------------------------
def test_export_exits_1_when_its_own_preflight_fails(run, tmp_path: Path):
    Image.new("RGB", (40, 40), "red").save(tmp_path / "low.png")  # 40 px on a 1 in token: 40 DPI
    cat = with_art(tmp_path, "low.png")
    result = run("export", str(cat), "--profile", "print-shop", "-o", str(tmp_path / "o"))
    assert result.exit_code == 1, (result.stdout, result.stderr)
    pdf = tmp_path / "o" / "meatshields-print-shop.pdf"
    assert pdf.exists()  # written, so it can be inspected
    low = tmp_path / "low.png"
    assert cat.parent == low.parent  # the art is named as the catalogue names it, not absolute
    art_warning = "tokengen: warning: low.png: 32 DPI at its printed size, below 300 DPI; it may print blurred\n"
    assert result.stderr.startswith(art_warning + "tokengen: error: meatshields-print-shop.pdf fails preflight (")
    assert result.stderr.endswith(f"): see tokengen preflight {pdf} --profile print-shop\n")
    again = run("export", str(cat), "--profile", "print-shop", "-o", str(tmp_path / "o2"), "--allow-preflight-failures")
    assert again.exit_code == 0 and "warning: meatshields-print-shop.pdf fails preflight (" in again.stderr


# -- bare tokengen ------------------------------------------------------------------------------
def test_bare_tokengen_prints_help_and_exits_0(run):
    result = run()
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout.startswith("Usage: tokengen [OPTIONS] COMMAND [ARGS]...")
    assert "build" in result.stdout and "export" in result.stdout


# -- page counts ----------------------------------------------------------------------------------
def test_counts_say_face_back_and_rules_pages(run, tmp_path: Path):
    out = tmp_path / "x.pdf"
    result = run("build", str(CATALOGUE), "-o", str(out), "--backs", "--rules")
    assert result.exit_code == 0, result.stderr
    with pdfplumber.open(out) as pdf:
        total = len(pdf.pages)
    rules = total - 2
    assert rules >= 1
    assert result.stdout == (f"wrote {out}: 18 tokens (1 set) on {total} pages: 1 face page, 1 back page, "
                             f"{rules} rules page{'s' if rules != 1 else ''}\n")



ONE_TOKEN = """\
title: One
size: 7in
fields: {name: text}
template:
  - {text: "{name}", at: [0.5, 0.5], size: 0.1}
tokens:
  - {id: a, name: Alpha}
"""


def test_one_of_everything_is_singular(run, tmp_path: Path):
    """build, export and check say "1 token", "1 set", "1 file", "1 column × 1 row"."""
    cat = tmp_path / "one.yaml"
    cat.write_text(ONE_TOKEN, "utf-8")
    result = run("build", str(cat), "-o", str(tmp_path / "one.pdf"))
    assert result.stdout == f"wrote {tmp_path / 'one.pdf'}: 1 token (1 set) on 1 face page\n"
    result = run("export", str(cat), "--profile", "single-pages", "-o", str(tmp_path / "out"))
    assert result.stdout.startswith("wrote 1 file to "), result.stdout + result.stderr
    result = run("check", str(cat))
    assert result.stdout.endswith(f"{cat}: info sheet: 1 token of 7in square fits on one 8.5in × 11in page\n")
    assert result.stdout.startswith(f"{cat}: playable (0 errors, 0 warnings, 1 info)\n")
    meatshields = tmp_path / "m.yaml"
    text = (ROOT / "tests/data/rules/too_few_tokens.yaml").read_text("utf-8")
    meatshields.write_text(text.replace("  - {id: b, attribute: STR, priority: both}\n", ""), "utf-8")
    result = run("check", str(meatshields), "--size", "7in")
    assert "error bag-too-small: the bag holds 1 token but" in result.stdout
    assert "info sheet: 1 token of 7in fits on one 8.5in × 11in page (1 column × 1 row)\n" in result.stdout


# -- single pages order -------------------------------------------------------------------------
def test_single_pages_face_first_by_default_and_back_first_on_request(run, tmp_path: Path):
    from pypdf import PdfReader

    result = run("export", str(CATALOGUE), "--profile", "single-pages", "-o", str(tmp_path / "a"))
    assert result.exit_code == 0, result.stderr
    pages = PdfReader(next((tmp_path / "a").glob("*.pdf"))).pages
    assert "AGI" in pages[0].extract_text() and "MEATSHIELD" in pages[1].extract_text()
    profiles = tmp_path / "p.yaml"
    profiles.write_text("backfirst:\n  extends: single-pages\n  order: [back, face]\n", "utf-8")
    result = run("export", str(CATALOGUE), "--profile", "backfirst", "--profiles", str(profiles), "-o", str(tmp_path / "b"))
    assert result.exit_code == 0, result.stderr
    pages = PdfReader(next((tmp_path / "b").glob("*.pdf"))).pages
    assert "MEATSHIELD" in pages[0].extract_text() and "AGI" in pages[1].extract_text()


# -- Makefile checks the Python version ----------------------------------------------------------
@pytest.mark.skipif(shutil.which("make") is None, reason="needs make (Debian package make)")
def test_makefile_names_the_python_it_needs(tmp_path: Path):
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    fake = tmp_path / "python3.9"
    fake.write_text('#!/bin/sh\nif [ "$1" = "--version" ]; then echo "Python 3.9.2"; exit 0; fi\nexit 1\n', "utf-8")
    fake.chmod(0o755)
    done = subprocess.run(["make", "test", f"PYTHON={fake}"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert f"tokengen needs Python 3.11 or newer; {fake} is Python 3.9.2." in done.stderr
    assert not (tmp_path / ".venv").exists()


def test_a_page_over_200_inches_is_refused_at_once(run, tmp_path: Path):
    """A long string of digits as a page size used to lay out a page of 10^14 in (minutes, GBs)."""
    from tokengen.units import MAX_PAGE, parse_page

    assert parse_page("200inx200in") == (MAX_PAGE, MAX_PAGE) == (14_400.0, 14_400.0)
    result = run("build", "meatshields", "--page", "99999999999999inx9in", "-o", str(tmp_path / "x.pdf"))
    assert result.exit_code == 2 and not (tmp_path / "x.pdf").exists()
    assert ("Invalid value for '--page': page '99999999999999inx9in' is 1e+14in wide, more than 200in (14,400 pt), "
            "the largest page a PDF viewer opens (PDF 1.7 reference, appendix C)") in result.stderr
    result = run("build", "meatshields", "--page", "8inx201in", "-o", str(tmp_path / "x.pdf"))
    assert result.exit_code == 2 and "is 201in high, more than 200in" in result.stderr
