"""One token size for every route (issue 22): ``build``, ``export``, ``batch`` and ``check`` settle
``--size`` through :func:`tokengen.geometry.sizing.token_size`, so they refuse the same sizes with
the same message and exit code, and lay out the same box (a hex measured across its flats)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

from tests.conftest import CATALOGUE, ROOT
from tokengen.errors import UsageError
from tokengen.faces import scale
from tokengen.games.generic import _spec
from tokengen.games.meatshields.rules import Settings
from tokengen.geometry import sizing
from tokengen.geometry.imposition import SheetSpec
from tokengen.geometry.shapes import Shape
from tokengen.sources.catalogue import load_catalogue

HEX = ROOT / "examples" / "hex-counters" / "counters.yaml"
STATUS = ROOT / "examples" / "status-tokens" / "status.yaml"
TOO_SMALL = "tokengen: error: token size 0.05in (1.27mm) is smaller than the smallest token size, 0.125in (3.2mm)\n"


def face_boxes(pdf: Path) -> set[tuple[float, ...]]:
    """The BBox (pt, rounded to 0.001) of every face form on the PDF's first page."""
    xobjects = PdfReader(pdf).pages[0]["/Resources"]["/XObject"]
    return {tuple(round(float(v), 3) for v in xobjects[k].get_object()["/BBox"]) for k in xobjects if "face" in k}


@pytest.mark.parametrize("catalogue", [CATALOGUE, HEX, STATUS], ids=["meatshields", "hex", "status"])
def test_check_refuses_a_size_below_the_minimum_as_build_does(run, tmp_path: Path, catalogue: Path):
    built = run("build", "--size", "0.05in", str(catalogue), "-o", str(tmp_path / "out.pdf"))
    checked = run("check", "--size", "0.05in", str(catalogue))
    assert (built.exit_code, built.stderr, built.stdout) == (2, TOO_SMALL, "")
    assert (checked.exit_code, checked.stderr, checked.stdout) == (2, TOO_SMALL, "")
    assert not (tmp_path / "out.pdf").exists()


def test_check_json_refuses_too_small_a_size_too(run):
    checked = run("check", "--size", "0.05in", "--format", "json", str(CATALOGUE))
    assert (checked.exit_code, checked.stderr, checked.stdout) == (2, TOO_SMALL, "")


@pytest.mark.parametrize("command", ["export", "batch"])
def test_export_and_batch_refuse_too_small_a_size_alike(run, tmp_path: Path, command: str):
    extra = ["--profile", "home"] if command == "export" else []
    result = run(command, str(CATALOGUE), *extra, "--size", "0.05in", "-o", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert TOO_SMALL.removeprefix("tokengen: error: ").rstrip("\n") in result.stderr + result.stdout


def test_the_minimum_itself_is_accepted_by_check_and_build(run, tmp_path: Path):
    assert run("check", "--size", "0.125in", str(STATUS)).exit_code == 0
    assert run("build", "--size", "0.125in", str(STATUS), "-o", str(tmp_path / "out.pdf")).exit_code == 0


def test_a_hex_catalogue_gets_the_same_box_from_build_export_batch_and_check(run, tmp_path: Path):
    flat = (0.0, 0.0, 83.138, 72.0)  # 1 in across the flats, 2/√3 in corner to corner
    assert run("build", str(HEX), "--size", "1in", "-o", str(tmp_path / "build.pdf")).exit_code == 0
    assert face_boxes(tmp_path / "build.pdf") == {flat}
    for command, extra in (("export", ["--profile", "home"]), ("batch", [])):
        out = tmp_path / command
        result = run(command, str(HEX), *extra, "--size", "1in", "-o", str(out))
        assert result.exit_code == 0, result.stderr
        (pdf,) = out.glob("*.pdf")
        assert face_boxes(pdf) == {flat}, command
    cat = load_catalogue(HEX)
    spec = _spec(cat, Settings(size=72.0))  # the sheet the generic checks measure
    assert (round(spec.size, 3), round(spec.height, 3)) == flat[2:]
    checked = run("check", str(HEX), "--size", "1in")
    assert checked.exit_code == 0 and "tokens of 1in hex fit on one" in checked.stdout


def test_one_function_settles_the_size():
    assert scale.token_size is sizing.token_size
    flat = Shape("hex", 0.0, "flat")
    assert round(sizing.token_size(64.8, 72.0, None, flat), 3) == 83.138
    assert sizing.token_size(64.8, None, None, flat) == 64.8
    assert sizing.token_size(72.0, 9.0) == 9.0
    with pytest.raises(UsageError) as caught:
        sizing.token_size(72.0, 3.6, None, flat)
    assert str(caught.value) == "token size 0.05in (1.27mm) is smaller than the smallest token size, 0.125in (3.2mm)"
    with pytest.raises(UsageError) as caught:
        Settings(size=3.6).token_size(load_catalogue(HEX))
    assert str(caught.value) == "token size 0.05in (1.27mm) is smaller than the smallest token size, 0.125in (3.2mm)"


def test_sheet_spec_columns_and_group():
    page = (612.0, 792.0)
    assert sizing.sheet_spec(page, 72.0, group=3) == SheetSpec(page=page, size=72.0, group=3)
    assert sizing.sheet_spec(page, 72.0, columns=0, group=3) == SheetSpec(page=page, size=72.0)
    assert sizing.sheet_spec(page, 72.0, columns=4, group=3) == SheetSpec(page=page, size=72.0, columns=4)
    assert sizing.sheet_spec(page, 54.0, margin=9.0, gutter=4.0, bleed=2.0, cut_lines=False, crop_marks=True,
                             calibration=False, home_bleed=4.5) == SheetSpec(
        page=page, size=54.0, margin=9.0, gutter=4.0, bleed=2.0, cut_lines=False, crop_marks=True, calibration=False, home_bleed=4.5)
