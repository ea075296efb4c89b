"""A boxed text whose box is lower than one line: what the warning says is what is drawn, in
``build``, ``check`` and a print-shop export alike. Read back with pdfplumber."""

from __future__ import annotations

from pathlib import Path

import pdfplumber

CATALOGUE = """\
title: Low box
size: 63mmx88mm
fields: {name: text, rules: text}
template:
  - {text: "{name}", at: [0.5, 0.1], size: 0.06}
  - {text: "{rules}", box: [0.1, 0.5, 0.8, 0.02], size: 10pt, min_size: 8pt}
tokens:
  - {id: knight, name: Knight, rules: "Deal two damage to one enemy."}
"""


def test_a_box_lower_than_one_line_says_nothing_is_drawn(tmp_path: Path, run):
    path = tmp_path / "c.yaml"
    path.write_text(CATALOGUE, "utf-8")
    out = tmp_path / "out.pdf"
    built = run("build", str(path), "--no-cut-lines", "-o", str(out))
    assert built.exit_code == 0, built.stderr
    with pdfplumber.open(out) as pdf:
        drawn = "".join(c["text"] for c in pdf.pages[0].chars if c["size"] > 7)
    assert drawn == "Knight"  # the box holds nothing, not even '…'
    said = [line for line in built.stderr.splitlines() if "template[1]" in line]
    assert len(said) == 1 and "'…'" not in said[0], said
    assert said[0].endswith("token knight: the box is 4.99 pt high, lower than one line at 8 pt (9.6 pt): nothing of the text "
                            "is drawn (6 words, 24 characters left out); make the box taller or lower min_size"), said
    checked = run("check", str(path))
    assert "nothing of the text is drawn (6 words, 24 characters left out)" in checked.stdout
    shop = run("export", str(path), "--profile", "print-shop", "-o", str(tmp_path / "shop"), "--allow-preflight-failures")
    assert "nothing of the text is drawn (6 words, 24 characters left out)" in shop.stderr
