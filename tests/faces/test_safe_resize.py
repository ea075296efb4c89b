"""Face text is fitted to the safe area at the size the token prints (``--size``, ``--scale`` or
the catalogue's own), so ``build``, ``check`` and ``export`` agree with ``preflight --profile
home`` read back from the PDF: the text fits and preflight passes, or the run warns."""

from __future__ import annotations

from pathlib import Path

import pytest

from tokengen.geometry.imposition import SheetSpec
from tokengen.outputs.build import BuildOptions, build_pdf
from tokengen.preflight.checks import preflight
from tokengen.sources.catalogue import load_catalogue
from tokengen.sources.profiles import get_profile
from tokengen.units import PAGES

UNFIT = "does not fit inside the 4.50pt safe area"


LOW_LEFT = "at: [0.15, 0.16], width: 0.5, size: 0.13, align: left"  # a user's sweep catalogue
MIDDLE = "at: [0.5, 0.5], width: 0.8, size: 0.3, align: centre"  # shrinks to fit, at every size


def catalogue(tmp_path: Path, name: str, place: str = LOW_LEFT) -> Path:
    """A 1 in rounded token with its name placed as ``place`` says."""
    path = tmp_path / "c.yaml"
    path.write_text("title: Sweep\nsize: 1in\nshape: {kind: rounded, radius: 5mm}\nfields:\n  name: text\ntemplate:\n"
                    f'  - {{text: "{{name}}", {place}}}\n'
                    f'tokens:\n  - {{id: t, name: "{name}"}}\n')
    return path


def safe_area(pdf: Path) -> tuple[bool, str]:
    (check,) = [c for c in preflight(pdf, get_profile("home")) if c.name == "safe-area"]
    return check.passed, check.message


@pytest.mark.parametrize(("name", "place"), [("Wgjy Qp", LOW_LEFT), ("Wgjy Qp", MIDDLE)])
@pytest.mark.parametrize("resize", [[], ["--size", "0.6in"], ["--scale", "0.6"], ["--size", "2in"]])
def test_build_warns_or_passes_preflight(run, tmp_path: Path, name: str, place: str, resize: list[str]):
    pdf = tmp_path / "out.pdf"
    built = run("build", str(catalogue(tmp_path, name, place)), *resize, "-o", str(pdf))
    assert built.exit_code == 0, built.stderr
    passed, message = safe_area(pdf)
    assert passed, message
    small = resize[-1:] in (["0.6in"], ["0.6"])
    assert (UNFIT in built.stderr) == (small and place == LOW_LEFT), built.stderr
    if resize[:1] != ["--scale"]:  # check has --size only
        checked = run("check", str(catalogue(tmp_path, name, place)), *resize)
        assert (UNFIT in checked.stdout) == (UNFIT in built.stderr), checked.stdout


def test_export_agrees_with_build(run, tmp_path: Path):
    built = run("build", str(catalogue(tmp_path, "Wgjy Qp")), "--size", "0.6in", "-o", str(tmp_path / "b.pdf"))
    exported = run("export", str(catalogue(tmp_path, "Wgjy Qp")), "--profile", "home", "--size", "0.6in", "-o", str(tmp_path / "x"))
    assert exported.exit_code == 0, exported.stderr
    assert UNFIT in built.stderr and UNFIT in exported.stderr
    (pdf,) = (tmp_path / "x").glob("*.pdf")
    assert safe_area(pdf)[0]


def test_preflight_says_the_safe_distance_once(tmp_path: Path):
    """Text set closer than the home profile's 1/16 in: the message names 4.50pt once."""
    cat = load_catalogue(catalogue(tmp_path, "Wgjy Qp"))
    pdf = tmp_path / "near.pdf"
    build_pdf(cat, BuildOptions(sheet=SheetSpec(page=PAGES["letter"], size=43.2), safe=1.0), pdf)
    passed, message = safe_area(pdf)
    assert not passed
    assert message.endswith("from the token's trim (needs 4.50pt)"), message


@pytest.mark.parametrize(("side", "safe"), [(144.0, 9.0), (72.0, 4.5), (43.2, 4.5), (9.0, 9.0 / 16)])
def test_default_safe_is_at_least_a_sixteenth_inch_where_text_has_room(side: float, safe: float):
    from tokengen.faces.render import default_safe

    assert default_safe(side) == pytest.approx(safe)
