"""build --watch: rebuild on save, one line per rebuild, last good PDF kept, clean Ctrl-C.

The child's stdout is read line by line: each step waits for the line that proves the previous
one happened (the watcher announces itself only once its folders are watched), never a sleep.
The queue timeout only turns a hang into a failure.
"""

from __future__ import annotations

import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.conftest import CATALOGUE
from tokengen.outputs.watch import catalogue_inputs

pytest.importorskip("watchfiles")

HANG = 120  # s: a failure guard, not a synchronisation
LINE = re.compile(r"^\d\d:\d\d:\d\d wrote (?P<pdf>\S+): (?P<tokens>\d+) tokens [^;]*?on (?P<pages>\d+) (face )?page"
                  r"[^;]*; wrote (?P<pngs>\d+) preview PNGs? at 100 DPI: .* \(\d+\.\d\d s\)$")


def _replace(path: Path, text: str) -> None:
    """Save as editors do: write a new file, rename it over the old one (one change event)."""
    temp = path.with_name(".edit.tmp")
    temp.write_text(text, encoding="utf-8")
    os.replace(temp, path)


class Child:
    def __init__(self, *args: str, cwd: Path):
        code = "import sys; from tokengen.cli import run; sys.argv[0] = 'tokengen'; run()"
        self.proc = subprocess.Popen([sys.executable, "-c", code, *args], cwd=cwd, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        self.lines: queue.Queue[str] = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put("<EOF>")

    def line(self) -> str:
        return self.lines.get(timeout=HANG)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(HANG)
        self.reader.join(HANG)
        assert self.proc.stdout is not None
        self.proc.stdout.close()


@pytest.fixture
def child_factory():
    children: list[Child] = []

    def make(*args: str, cwd: Path) -> Child:
        children.append(Child(*args, cwd=cwd))
        return children[-1]

    yield make
    for c in children:
        c.stop()


def test_watch_rebuilds_on_save_keeps_last_good_pdf_and_stops_on_ctrl_c(tmp_path: Path, child_factory):
    cat = tmp_path / "token_defs.yaml"
    shutil.copy(CATALOGUE, cat)
    text = cat.read_text(encoding="utf-8")
    out = tmp_path / "w.pdf"
    child = child_factory("build", str(cat), "-o", str(out), "--watch", "--preview", cwd=tmp_path)

    first = LINE.match(child.line())
    assert first and first["tokens"] == "18" and first["pages"] == "1" and first["pngs"] == "1"
    assert child.line().startswith("watching ")
    assert out.is_file() and (tmp_path / "w-1.png").is_file()

    # outputs and unrelated files never trigger: the next line is the catalogue's change (36 tokens)
    (tmp_path / "notes.txt").write_text("not an input")
    (tmp_path / "w-1.png").write_bytes((tmp_path / "w-1.png").read_bytes())
    _replace(cat, text.replace("size: 1in", "size: 1.25in"))
    second = LINE.match(child.line())
    assert second, "expected a rebuild line"
    assert second["tokens"] == "18"
    import pypdf

    assert "1.25in" in (pypdf.PdfReader(out).metadata.subject or "")
    good = out.read_bytes()

    # a broken catalogue: the error is printed, the last good PDF stays as it was
    _replace(cat, text + "\nbogus: [\n")
    error = child.line()
    assert re.match(r"^\d\d:\d\d:\d\d tokengen: error: .*token_defs\.yaml:\d+: YAML syntax error: .*; kept the last good output$", error), error
    assert out.read_bytes() == good

    # fixed again: rebuilt
    _replace(cat, text)
    third = LINE.match(child.line())
    assert third and third["tokens"] == "18"
    assert out.read_bytes() != good

    # Ctrl-C: a clean stop, exit 0, nothing half-written left
    child.proc.send_signal(signal.SIGINT)
    assert child.line() == "stopped watching"
    assert child.line() == "<EOF>"
    assert child.proc.wait(HANG) == 0
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".part")]


def test_watch_with_a_bad_option_exits_at_once(tmp_path: Path, child_factory):
    cat = tmp_path / "token_defs.yaml"
    shutil.copy(CATALOGUE, cat)
    child = child_factory("build", str(cat), "-o", str(tmp_path / "x.pdf"), "--watch", "--backs", "--back-offset", "1mm",
                          cwd=tmp_path)
    assert child.line() == "tokengen: error: --back-offset: expected X,Y such as 0.5mm,-1mm, got '1mm'"
    assert child.proc.wait(HANG) == 2


def test_inputs_are_the_catalogue_its_art_fonts_and_data_beside_it(tmp_path: Path):
    cat = tmp_path / "cat.yaml"
    shutil.copy(CATALOGUE, cat)
    out = tmp_path / "cat.pdf"
    inputs = catalogue_inputs(cat, (out,), previews=tmp_path / "cat.png")
    assert inputs.is_input(cat)
    assert inputs.is_input(tmp_path / "tokens.xlsx")  # a spreadsheet beside the catalogue
    assert inputs.is_input(tmp_path / "art.png")
    assert not inputs.is_input(out)
    assert not inputs.is_input(tmp_path / "cat-1.png") and not inputs.is_input(tmp_path / "cat-12.png")
    assert not inputs.is_input(tmp_path / ".cat.pdf.123.abcd.part")
    assert not inputs.is_input(tmp_path / "readme.txt")
    assert not inputs.is_input(tmp_path / "sub" / "x.yaml")  # not beside the catalogue
    assert any(f.suffix == ".ttf" for f in inputs.files)  # the bundled fonts
    assert tmp_path in inputs.folders


@pytest.mark.parametrize(("example", "inputs"), [
    ("poker-cards/cards.yaml", ["art/back.svg", "art/dragon.png", "art/knight.png"]),  # art in a subfolder
    ("hex-counters/counters.yaml", ["tokens.xlsx"]),  # the tokens' spreadsheet
    ("status-tokens/status.yaml", ["tokens.csv"]),
])
def test_inputs_of_the_examples(example: str, inputs: list[str]):
    from tests.conftest import ROOT

    cat = ROOT / "examples" / example
    found = catalogue_inputs(cat)
    for name in inputs:
        path = (cat.parent / name).absolute()
        assert found.is_input(path)
        assert path.parent in found.folders
    assert not found.is_input(cat.parent / "notes.txt")


def test_watch_a_missing_folder_is_one_line(run, tmp_path: Path):
    cat = tmp_path / "none" / "cat.yaml"
    result = run("build", str(cat), "--watch", "-o", str(tmp_path / "x.pdf"))
    assert result.exit_code == 2
    assert result.stderr.endswith(f"tokengen: error: {cat}: folder {cat.parent} does not exist, nothing to watch\n")
    assert not (tmp_path / "x.pdf").exists()


@pytest.mark.parametrize(("example", "catalogue", "edit"), [
    ("poker-cards", "cards.yaml", "art/knight.png"),  # an art file in a subfolder
    ("status-tokens", "status.yaml", "tokens.csv"),  # the tokens' spreadsheet
])
def test_watch_rebuilds_when_art_or_spreadsheet_changes(tmp_path: Path, child_factory, example: str, catalogue: str, edit: str):
    from tests.conftest import ROOT

    folder = tmp_path / example
    shutil.copytree(ROOT / "examples" / example, folder)
    out = tmp_path / "out.pdf"
    child = child_factory("build", str(folder / catalogue), "-o", str(out), "--watch", cwd=tmp_path)
    lines = [child.line()]
    while not lines[-1].startswith("watching "):
        lines.append(child.line())
    assert any(re.match(r"^\d\d:\d\d:\d\d wrote ", line) for line in lines), lines
    before = out.read_bytes()
    target = folder / edit
    if target.suffix == ".png":
        from PIL import Image, ImageOps

        with Image.open(target) as image:
            flipped = ImageOps.flip(image.convert("RGB"))
        temp = target.with_name(".edit.png")
        flipped.save(temp)
        os.replace(temp, target)
    else:
        rows = target.read_text(encoding="utf-8").splitlines()
        _replace(target, "\n".join(rows[:-1]) + "\n")  # drop the last token row
    line = child.line()
    while line.startswith("tokengen: warning:"):
        line = child.line()
    assert re.match(r"^\d\d:\d\d:\d\d wrote ", line), line
    assert out.read_bytes() != before
