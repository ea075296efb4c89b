"""A hairline (0.144 pt) is a warning of the export's own preflight, printed by ``export`` (never
"passes every check"), and ``check`` names the stroke under the shop's minimum before any export."""

from __future__ import annotations

from pathlib import Path

import pikepdf

HAIR = """\
title: Hairline
size: 1in
fields: {name: text}
template:
  - {frame: edge, width: 0.144pt, inset: 0.1, colour: "#000000"}
  - {text: "{name}", at: [0.5, 0.5], size: 0.2}
tokens:
  - {id: a, name: Alpha}
safe_area: 0.125in
"""  # safe_area: laid out for the shop, so the export draws the faces as they are


def _catalogue(tmp_path: Path, text: str = HAIR) -> Path:
    path = tmp_path / "hair.yaml"
    path.write_text(text, "utf-8")
    return path


def test_export_prints_the_hairline_warning(run, tmp_path: Path):
    out = tmp_path / "out"
    result = run("export", str(_catalogue(tmp_path)), "--profile", "print-shop", "-o", str(out))
    assert result.exit_code == 0  # a warning: the file is written
    assert result.stdout.splitlines() == [
        f"wrote 1 file to {out} (profile print-shop): hairline-print-shop.pdf",
        "preflight: hairline-print-shop.pdf passes the checks of profile print-shop, with 1 warning (hairlines)"]
    assert result.stderr == ("preflight: warning hairlines: page 1: a stroke 0.144 pt wide in form /FormXob.face-a, "
                             "thinner than 0.25 pt (and 47 more)\n")
    with pikepdf.open(out / "hairline-print-shop.pdf") as pdf:  # the stroke really is 0.144 pt
        face = pdf.pages[0].Resources.XObject["/FormXob.face-a"].read_bytes()
        assert b".144 w" in face


def test_a_clean_export_still_passes_every_check(run, tmp_path: Path):
    out = tmp_path / "out"
    result = run("export", str(_catalogue(tmp_path, HAIR.replace("0.144pt", "0.5pt"))), "--profile", "print-shop", "-o", str(out))
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout.splitlines()[1] == "preflight: hairline-print-shop.pdf passes every check of profile print-shop"


def test_check_names_strokes_under_the_shops_minimum(run, tmp_path: Path):
    path = _catalogue(tmp_path)
    result = run("check", str(path))
    assert result.exit_code == 0
    assert result.stdout.splitlines()[-1] == (
        f"{path}:5: warning thin-stroke: template[0]: face frame stroke is 0.144 pt wide at 1in, thinner than the "
        "0.25 pt a print shop prints reliably (preflight warns of a hairline)")
    # a stroke given as a fraction of the token: 0.003 × 72 pt = 0.216 pt at 1 in, 0.432 pt at 2 in
    fraction = _catalogue(tmp_path, HAIR.replace("0.144pt", "0.003"))
    assert "thin-stroke" in run("check", str(fraction)).stdout
    assert "thin-stroke" not in run("check", str(fraction), "--size", "2in").stdout
    # no colour: no line is drawn, nothing to warn about
    assert "thin-stroke" not in run("check", str(_catalogue(tmp_path, HAIR.replace(', colour: "#000000"', "")))).stdout
