from pathlib import Path


def test_build_default_catalogue(run, tmp_path: Path, catalogue_path: Path):
    out = tmp_path / "sheet.pdf"
    result = run("build", str(catalogue_path), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert out.read_bytes().startswith(b"%PDF")
    assert "18 tokens on 1 page(s)" in result.stdout


def test_missing_file_is_one_line(run, tmp_path: Path):
    result = run("build", str(tmp_path / "nope.yaml"), "-o", str(tmp_path / "x.pdf"))
    assert result.exit_code == 2
    assert result.stderr == f"tokengen: error: {tmp_path / 'nope.yaml'}: file not found\n"
    assert not (tmp_path / "x.pdf").exists()
