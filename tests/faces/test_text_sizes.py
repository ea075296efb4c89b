"""One measure of printed text size: ``build``, ``check`` and ``export`` name the font size the
PDF holds (pdfplumber's per-character size: the ``Tf`` operand times the face's scale), in one
format; ``fit: false`` never shrinks a one-line text, and build still warns when it is small."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pdfplumber

from tokengen.units import format_pt


def _catalogue(folder: Path, size: str, element: str, names: tuple[str, ...] = ("Alpha", "Beta")) -> Path:
    path = folder / "tokens.yaml"
    rows = "".join(f"\n  - {{id: {n.lower()}, name: {n}}}" for n in names)
    path.write_text(f"""title: Sizes
size: {size}
fields: {{name: text}}
template:
  - {{rect: box, box: [0, 0, 1, 1], fill: "#ffffff"}}
  - {element}
tokens:{rows}
""", "utf-8")
    return path


def _sizes(pdf: Path, text: str) -> set[float]:
    """The sizes (pt) the PDF holds for the characters of ``text``'s words."""
    with pdfplumber.open(pdf) as doc:
        return {round(ch["size"], 6) for page in doc.pages for ch in page.chars if ch["text"] in text and ch["text"].strip()
                and ch["fontname"].endswith("DejaVuSans-Bold")}


def _number(pattern: str, text: str) -> str:
    found = re.search(pattern, text)
    assert found, text
    return found.group(1)


def test_build_check_and_the_pdf_agree_on_a_shrunk_one_line_text(tmp_path: Path, run):
    # a 0.5 in token: its text is set to its width, then drawn at the token's text shrink (< 1)
    path = _catalogue(tmp_path, "0.5in", '{text: "{name}", font: bold, at: [0.5, 0.6], size: 0.2, width: 0.4}', ("Alpha",))
    out = tmp_path / "out.pdf"
    built = run("build", str(path), "--no-cut-lines", "-o", str(out))
    assert built.exit_code == 0, built.stderr
    held = _sizes(out, "Alpha")
    assert len(held) == 1 and min(held) < 5
    pt = format_pt(held.pop())
    assert _number(r"\{name\} text is ([0-9.]+) pt on 1 token \(alpha\)", built.stderr) == pt
    checked = run("check", str(path), "--format", "json")
    small = {f["data"]["token"]: f for f in json.loads(checked.stdout)["findings"] if f["code"] == "small-text"}
    assert small["alpha"]["message"] == f"token alpha: face text 'Alpha' is {pt} pt, below 5 pt"
    assert format_pt(small["alpha"]["data"]["pt"]) == pt


def test_export_names_the_size_its_pdf_holds(tmp_path: Path, run):
    path = _catalogue(tmp_path, "0.75in", '{text: "{name}", font: bold, at: [0.5, 0.6], size: 0.15, width: 0.3}', ("Alpha",))
    out = tmp_path / "shop"
    exported = run("export", str(path), "--profile", "print-shop", "-o", str(out), "--allow-preflight-failures")
    assert exported.exit_code == 0, exported.stderr
    pdf = next(out.glob("*.pdf")) if out.is_dir() else out
    held = _sizes(pdf, "Alpha")
    assert len(held) == 1
    assert _number(r"\{name\} text is ([0-9.]+) pt on 1 token \(alpha\)", exported.stderr) == format_pt(held.pop())


def test_fit_false_never_shrinks_one_line_text_and_build_warns(tmp_path: Path, run):
    # far wider than its width and the token's safe area asks nothing of it: printed at 4.5 pt exactly
    path = _catalogue(tmp_path, "1in", '{text: "{name}", font: bold, at: [0.5, 0.5], size: 4.5pt, width: 0.1, fit: false}',
                      ("Alphabet",))
    out = tmp_path / "out.pdf"
    built = run("build", str(path), "--no-cut-lines", "-o", str(out))
    assert built.exit_code == 0
    assert _sizes(out, "Alphabet") == {4.5}
    assert "tokengen: warning: {name} text is 4.5 pt on 1 token (alphabet), below 5 pt at 1in\n" in built.stderr
    checked = run("check", str(path), "--format", "json")
    assert [f["message"] for f in json.loads(checked.stdout)["findings"] if f["code"] == "small-text"] == [
        "token alphabet: face text 'Alphabet' is 4.5 pt, below 5 pt"]


def test_fit_false_is_not_shrunk_for_the_safe_area_either(tmp_path: Path, run):
    # a line too long for the token's safe area: fit true shrinks it, fit false keeps its size and warns
    long = "Alphabetically"
    fitted = _catalogue(tmp_path, "0.75in", '{text: "{name}", font: bold, at: [0.5, 0.5], size: 10pt, width: 1}', (long,))
    out = tmp_path / "fit.pdf"
    assert run("build", str(fitted), "--no-cut-lines", "-o", str(out)).exit_code == 0
    assert max(_sizes(out, long)) < 10
    kept = _catalogue(tmp_path, "0.75in", '{text: "{name}", font: bold, at: [0.5, 0.5], size: 10pt, fit: false}', (long,))
    out = tmp_path / "kept.pdf"
    built = run("build", str(kept), "--no-cut-lines", "-o", str(out))
    assert built.exit_code == 0
    assert _sizes(out, long) == {10}
    assert "does not fit inside the 4.50pt safe area even at 10 pt" in built.stderr
