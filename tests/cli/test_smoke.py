from pathlib import Path

from tokengen.sources.bundled import missing_message


def test_build_default_catalogue(run, tmp_path: Path, catalogue_path: Path):
    out = tmp_path / "sheet.pdf"
    result = run("build", str(catalogue_path), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert out.read_bytes().startswith(b"%PDF")
    assert "18 tokens (1 set) on 1 face page\n" in result.stdout


def test_missing_file_is_one_line(run, tmp_path: Path):
    result = run("build", str(tmp_path / "nope.yaml"), "-o", str(tmp_path / "x.pdf"))
    assert result.exit_code == 2
    assert result.stderr == f"tokengen: error: {tmp_path / 'nope.yaml'}: {missing_message()}\n"
    assert not (tmp_path / "x.pdf").exists()


def test_an_internal_error_is_one_line_with_exit_70(run, tmp_path: Path, catalogue_path: Path, monkeypatch):
    import tokengen.outputs.build

    def broken(*args, **kwargs):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(tokengen.outputs.build, "build_pdf", broken)  # the CLI imports it when build runs
    monkeypatch.delenv("TOKENGEN_DEBUG", raising=False)
    result = run("build", str(catalogue_path), "-o", str(tmp_path / "x.pdf"))
    assert result.exit_code == 70
    assert result.stderr == ("tokengen: internal error: ZeroDivisionError: division by zero "
                             "(please report it; TOKENGEN_DEBUG=1 shows the traceback)\n")
