"""``--size S`` gives exactly what ``size: S`` in the catalogue gives, for every shape and
orientation (a hex is sized across its flats): the face box read back from the PDF, the page
count, and what ``check`` reports."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

SHAPES = ["square", "{kind: rounded, radius: 3mm}", "circle", "{kind: hex, orientation: flat}", "{kind: hex, orientation: pointy}"]


def catalogue(tmp_path: Path, shape: str, size: str) -> Path:
    path = tmp_path / f"{size}.yaml"
    path.write_text(f"title: Sizes\nsize: {size}\nshape: {shape}\nfields:\n  name: text\ntemplate:\n"
                    '  - {text: "{name}", at: [0.5, 0.5], width: 0.5, size: 0.13, align: centre}\n'
                    'tokens:\n  - {id: t, name: "A", copies: 100}\n')
    return path


def faces(pdf: Path) -> tuple[int, list[list[float]]]:
    """Page count and the BBox (pt) of every face form of the first page."""
    reader = PdfReader(pdf)
    xobjects = reader.pages[0]["/Resources"]["/XObject"]
    return len(reader.pages), [[round(float(v), 3) for v in xobjects[k].get_object()["/BBox"]] for k in xobjects if "face" in k]


@pytest.mark.parametrize("shape", SHAPES)
def test_size_flag_is_the_catalogue_size(run, tmp_path: Path, shape: str):
    flag, own = tmp_path / "flag.pdf", tmp_path / "own.pdf"
    assert run("build", str(catalogue(tmp_path, shape, "0.75in")), "--size", "1in", "-o", str(flag)).exit_code == 0
    assert run("build", str(catalogue(tmp_path, shape, "1in")), "-o", str(own)).exit_code == 0
    assert faces(flag) == faces(own)
    pages, boxes = faces(own)
    if "hex" in shape:  # 1 in across the flats: 72 pt one way, 83.14 pt corner to corner the other
        assert sorted(boxes[0][2:]) == [72.0, 83.138]


def test_flat_hex_size_flag_keeps_its_flats(run, tmp_path: Path):
    out = tmp_path / "flag.pdf"
    assert run("build", str(catalogue(tmp_path, SHAPES[3], "1in")), "--size", "1in", "-o", str(out)).exit_code == 0
    assert faces(out) == (2, [[0.0, 0.0, 83.138, 72.0]])


@pytest.mark.parametrize("shape", SHAPES)
def test_check_size_flag_is_the_catalogue_size(run, tmp_path: Path, shape: str):
    flag = run("check", str(catalogue(tmp_path, shape, "0.75in")), "--size", "1in")
    own = run("check", str(catalogue(tmp_path, shape, "1in")))
    assert flag.stdout.replace("0.75in.yaml", "1in.yaml") == own.stdout
    assert "tokens of 1in" in flag.stdout


def test_check_flat_hex_size_flag(run, tmp_path: Path):
    result = run("check", str(catalogue(tmp_path, SHAPES[3], "1in")), "--size", "1in")
    assert "72 tokens of 1in hex" in result.stdout


@pytest.mark.parametrize("command", ["export", "batch"])
def test_export_and_batch_size_flag_keep_flat_hex_flats(run, tmp_path: Path, command: str):
    path = catalogue(tmp_path, SHAPES[3], "0.75in")
    extra = ["--profile", "home"] if command == "export" else []
    result = run(command, str(path), *extra, "--size", "1in", "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stderr
    (pdf,) = (tmp_path / "out").glob("*.pdf")
    assert faces(pdf) == (2, [[0.0, 0.0, 83.138, 72.0]])
