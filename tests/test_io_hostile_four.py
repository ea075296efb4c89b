"""Hostile input, part four (issue 37): every limit checked before the work it bounds, on the
new surfaces too, with the limit and its flag named, nothing left in the output folder and never
exit 70. Each test builds its issue's reproducer shape, small, in ``tmp_path``; work is bounded by
counts, never by a timer."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import DATA

from tokengen.sources.profiles import load_profiles

HEAD = (DATA / "good" / "minimal.yaml").read_text("utf-8").split("tokens:")[0]


def _catalogue(folder: Path, count: int, size: str = "1in", template: str = '{text: "{name}", at: [0.5, 0.5], width: 0.8, size: 0.1}',
               extra: str = "") -> Path:
    """An any-game catalogue of ``count`` distinct tokens of ``size`` (``WxH`` for cards) in
    ``folder``, its template the one element ``template``, ``extra`` YAML before its tokens."""
    path = folder / "c.yaml"
    rows = "".join(f"  - {{id: t{i}, name: N{i}}}\n" for i in range(count))
    path.write_text(f"title: T\nsize: {size}\nfields: {{name: text}}\ntemplate:\n  - {template}\n{extra}tokens:\n{rows}", "utf-8")
    return path


def _no_traceback(result) -> None:
    assert result.exit_code != 70 and "Traceback" not in result.stderr, result.stderr
    assert result.stderr.count("\n") == 1, result.stderr


# 5. export's pages, files and bytes before the first file is written, for every profile
@pytest.mark.parametrize("name", sorted(load_profiles()))
def test_export_refuses_past_max_pages_before_writing_any_file(run, tmp_path: Path, name: str):
    profile = load_profiles()[name]
    width, height = profile.trim or (72.0, 72.0)  # cards at the profile's trim
    catalogue = _catalogue(tmp_path, 130, f"{width:g}ptx{height:g}pt")  # 130 designs: more than one sheet of any profile
    out = tmp_path / "out"
    result = run("export", str(catalogue), "--profile", name, "-o", str(out), "--max-pages", "1")
    _no_traceback(result)
    assert result.exit_code == 2
    assert "more than the limit of 1 (raise it with --max-pages)" in result.stderr
    assert not out.exists() or not any(out.iterdir())
