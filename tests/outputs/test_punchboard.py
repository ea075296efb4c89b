"""The built-in ``punchboard`` profile (issue 41): counter sheets for a die-cut board, the die line
a Separation named CutContour (0 1 0 0, overprinting) around every counter, 1/8 in of bleed inside
a 1/4 in gutter, CMYK PDF/X-1a with duplex backs; the export passes its own preflight.

Measured on the written file: the die paths read back from page 1 are the 18 counters' trims
(each 1 in square, 0.1 pt), spaced by the gutter; the back sheet has none.
"""

from __future__ import annotations

from pathlib import Path

import pikepdf
import pytest

from tests.outputs.test_cut_dieline import die_paths, tint
from tokengen.outputs.export import export
from tokengen.preflight.checks import preflight
from tokengen.sources.catalogue import load_catalogue
from tokengen.sources.profiles import load_profiles

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Path:
    profile = load_profiles()["punchboard"]
    return export(load_catalogue(ROOT / "token_defs.yaml"), profile, tmp_path_factory.mktemp("punchboard"))[0]


def test_the_profile_is_a_die_cut_counter_sheet():
    profile = load_profiles()["punchboard"]
    assert (profile.output, profile.cut_layer, profile.colour, profile.pdfx) == ("sheets", "CutContour", "cmyk", "x1a")
    assert (profile.bleed, profile.gutter) == (9.0, 18.0)  # 1/8 in inside 1/4 in, pt


def test_every_counter_has_its_die_path_at_its_trim(board: Path):
    with pikepdf.open(board) as pdf:
        space = pdf.pages[0].Resources.ColorSpace.CutContour
        assert [str(v) for v in list(space)[:3]] == ["/Separation", "/CutContour", "/DeviceCMYK"]
        assert tint(space[3].read_bytes(), 1.0) == [0.0, 1.0, 0.0, 0.0]
        paths = die_paths(pdf.pages[0], "CutContour")
        assert len(paths) == 18
        boxes = sorted((round(min(x for x, _ in p), 2), round(min(y for _, y in p), 2),
                        round(max(x for x, _ in p) - min(x for x, _ in p), 2), round(max(y for _, y in p) - min(y for _, y in p), 2))
                       for p in paths)
        assert {(w, h) for _, _, w, h in boxes} == {(72.0, 72.0)}
        columns = sorted({x for x, _, _, _ in boxes})
        assert [b - a for a, b in zip(columns, columns[1:])] == [pytest.approx(90.0, abs=0.01)] * 2  # 1 in + the 1/4 in gutter
        assert die_paths(pdf.pages[1], "CutContour") == []  # the back sheet is printed, not cut


def test_the_board_passes_its_own_preflight(board: Path):
    checks = {c.name: c for c in preflight(board, load_profiles()["punchboard"])}
    assert all(c.passed for c in checks.values()), [c.message for c in checks.values() if not c.passed]
    assert "die line follows every token's trim within 0.1 pt" in checks["trim-size"].message


def test_a_sheet_of_one_counter_passes_its_own_preflight(run, tmp_path):
    """A page holding one counter is one piece: its TrimBox is the counter's trim, which the die follows."""
    catalogue = tmp_path / "one.yaml"
    catalogue.write_text('title: One\nsize: poker\nfields:\n  name: text\ntemplate:\n  - {rect: fill, fill: "#ffffff", bleed: true}\n'
                         '  - {text: "{name}", at: [0.5, 0.5], size: 0.1}\ntokens:\n  - {id: a, name: A}\n', "utf-8")
    result = run("export", str(catalogue), "--profile", "punchboard", "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stderr
    assert "passes every check of profile punchboard" in result.stdout + result.stderr
