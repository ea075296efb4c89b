"""Every command with more than one output checks all of them before it writes the first: a
second output that is a symlink to the art is refused (exit 2, one line naming it), nothing new
is left on disk and the art is byte-identical."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

MINIMAL = Path(__file__).resolve().parents[1] / "data" / "good" / "minimal.yaml"

# (command line with {cat} and {o} for the catalogue and the output folder, the output made a symlink to the art)
CASES = {
    "build --backs separate": ("build {cat} -o {o}/q.pdf --backs separate", "q-backs.pdf"),
    "build --preview": ("build {cat} -o {o}/q.pdf --preview", "q-1.png"),
    "build --preview FILE --preview-page": ("build {cat} -o {o}/q.pdf --preview={o}/p.png --preview-page 1", "p.png"),
    "build --backs --rules --preview": ("build {cat} -o {o}/q.pdf --backs --rules --preview", "q-3.png"),  # a rules page
    "build --backs separate --preview": ("build {cat} -o {o}/q.pdf --backs separate --preview", "q-1.png"),
    "export cut-svg": ("export {cat} --profile cut-svg -o {o}", "t-cut-1.svg"),
    "export print-shop --preview": ("export {cat} --profile print-shop -o {o} --preview", "t-print-shop-2.png"),  # a back page
    "export single-pages --preview": ("export {cat} --profile single-pages -o {o} --preview", "t-single-pages-2.png"),
    "export tgc-chits (png)": ("export {cat} --profile tgc-chits -o {o}", "t-back.png"),
    "export tgc-chits --preview": ("export {cat} --profile tgc-chits -o {o} --preview", "t-tgc-chits-2.png"),
    "batch": ("batch {cat} --size 1in --size 2in -j 1 -o {o}", "t_2in_letter.pdf"),
}


def _play(folder: Path) -> tuple[Path, Path]:
    """A catalogue drawing ``art.png`` beside it, and that art."""
    folder.mkdir()
    art = folder / "art.png"
    Image.new("RGB", (8, 8), "red").save(art)
    cat = folder / "cat.yaml"
    cat.write_text(MINIMAL.read_text("utf-8").replace("title: T", "title: T\nstyle: {art: art.png}"), "utf-8")
    return cat, art


@pytest.mark.parametrize("command, name", CASES.values(), ids=CASES.keys())
def test_a_refused_second_output_leaves_nothing_written(run, tmp_path: Path, command: str, name: str):
    cat, art = _play(tmp_path / "play")
    before = art.read_bytes()
    out = tmp_path / "o"
    out.mkdir()
    link = out / name
    link.symlink_to(art)
    result = run(*command.format(cat=cat, o=out).split())
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"tokengen: error: {link}: output would overwrite an input file\n"
    assert sorted(p.name for p in out.iterdir()) == [name]  # no first output, no temporary file
    assert art.read_bytes() == before


def test_the_same_commands_write_every_output_when_none_is_refused(run, tmp_path: Path):
    cat, _ = _play(tmp_path / "play")
    for label, (command, name) in CASES.items():
        out = tmp_path / label.replace(" ", "_").replace("(", "").replace(")", "")
        out.mkdir()
        extra = " --allow-preflight-failures" if command.startswith("export") else ""  # the 8 px art fails a shop's preflight
        result = run(*(command + extra).format(cat=cat, o=out).split())
        assert result.exit_code == 0, (label, result.stderr)
        assert (out / name).is_file(), (label, sorted(p.name for p in out.iterdir()))


def test_preview_command_checks_every_png_before_the_first(run, tmp_path: Path):
    cat, art = _play(tmp_path / "play")
    before = art.read_bytes()
    pdf = tmp_path / "x.pdf"
    assert run("build", str(cat), "-o", str(pdf), "--backs").exit_code == 0  # 2 pages: face and back
    link = tmp_path / "x-2.png"
    link.symlink_to(art)
    result = run("preview", str(pdf))
    assert (result.exit_code, result.stderr) == (2, f"tokengen: error: {link}: output would overwrite an input file\n")
    assert not (tmp_path / "x-1.png").exists()
    assert art.read_bytes() == before
