"""The note an export prints when it scales the faces keeps one unit: the safe area's
(:func:`tokengen.faces.render.scaled_note`, :func:`tokengen.units.format_like`)."""

from __future__ import annotations

from tests.conftest import CATALOGUE
from tokengen.faces.render import scaled_note
from tokengen.units import PT_PER_MM, format_like


def test_format_like_keeps_the_unit_of_the_other_length():
    assert format_like(4.5, 9.0) == "0.0625in"
    assert format_like(4.5, 3 * PT_PER_MM) == "1.587mm (4.50pt)"
    assert format_like(4.5, 4.3) == "4.50pt"
    assert format_like(3 * PT_PER_MM, 6 * PT_PER_MM) == "3mm"


def test_scaled_note_in_inches_and_in_mm():
    assert scaled_note(0.855, 9.0, 4.5) == ("faces scaled to 85.5 % about their centres to keep inside the 0.125in safe area "
                                            "(laid out for 0.0625in; set safe_area: in the catalogue to lay them out for it)")
    assert scaled_note(0.871, 3 * PT_PER_MM, 4.5) == (
        "faces scaled to 87.1 % about their centres to keep inside the 3mm safe area "
        "(laid out for 1.587mm (4.50pt); set safe_area: in the catalogue to lay them out for it)")


def test_eu_export_says_the_note_in_mm(run, tmp_path):
    result = run("export", str(CATALOGUE), "--profile", "eu-3mm", "-o", str(tmp_path / "eu"))
    assert result.exit_code == 0, result.stderr
    assert [line for line in result.stdout.splitlines() if line.startswith("faces scaled")] == [
        "faces scaled to 87.1 % about their centres to keep inside the 3mm safe area "
        "(laid out for 1.587mm (4.50pt); set safe_area: in the catalogue to lay them out for it)"]
