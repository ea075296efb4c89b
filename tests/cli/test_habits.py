"""Command-line habits: --quiet and --verbose on every command, --format json of build, export and
batch (read back against the files written), and the progress bar on a terminal's stderr only."""

from __future__ import annotations

import json
import os
import re
import select
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from tests.conftest import CATALOGUE, ROOT
from tokengen.cli import cli

COMMANDS = sorted(cli.commands)


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_takes_quiet_and_verbose(run, name: str):
    result = run(name, "--help")
    assert result.exit_code == 0
    assert "-q, --quiet" in result.stdout and "-v, --verbose" in result.stdout


def test_the_group_takes_them_too(run):
    result = run("--help")
    assert "-q, --quiet" in result.stdout and "-v, --verbose" in result.stdout


@pytest.mark.parametrize("where", ["before", "after"])
def test_quiet_prints_nothing_but_writes(run, tmp_path: Path, where: str):
    out = tmp_path / "q.pdf"
    args = ["build", str(CATALOGUE), "--size", "0.5in", "-o", str(out)]  # 0.5in: a small-text warning
    loud = run(*args)
    assert loud.stdout.startswith(f"wrote {out}: 18 tokens") and "tokengen: warning: caption text is 3.69 pt" in loud.stderr
    result = run("--quiet", *args) if where == "before" else run(*args, "--quiet")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "")
    assert out.read_bytes() == (tmp_path / "q.pdf").read_bytes() and len(PdfReader(out).pages) == 1


def test_quiet_still_prints_errors(run, tmp_path: Path):
    result = run("build", str(tmp_path / "nope.yaml"), "-q")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(f"tokengen: error: {tmp_path / 'nope.yaml'}: file not found")


def test_quiet_check_answers_with_its_exit_code(run):
    result = run("-q", "check", str(CATALOGUE))
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "")


def test_quiet_keeps_the_json_asked_for(run, tmp_path: Path):
    result = run("-q", "build", str(CATALOGUE), "--format", "json", "-o", str(tmp_path / "j.pdf"))
    assert result.exit_code == 0 and json.loads(result.stdout)["files"] == [str(tmp_path / "j.pdf")]


def test_quiet_and_verbose_are_exclusive(run):
    result = run("-q", "build", "-v")
    assert result.exit_code == 2
    assert result.stderr == "tokengen: error: tokengen build: --quiet and --verbose are exclusive (see 'tokengen build --help')\n"


def test_verbose_names_each_step_with_its_time(run, tmp_path: Path):
    out = tmp_path / "v.pdf"
    result = run("build", str(CATALOGUE), "-o", str(out), "--verbose")
    assert result.exit_code == 0 and result.stdout == f"wrote {out}: 18 tokens (1 set) on 1 face page\n"
    steps = result.stderr.splitlines()
    assert [re.sub(r"\(\d+\.\d\d s\)$", "(T)", s) for s in steps] == [
        f"tokengen: read {CATALOGUE} (T)", f"tokengen: built {out} (T)", "tokengen: build ended (T)"]


def test_verbose_export_times_the_preflight(run, tmp_path: Path):
    result = run("-v", "export", str(CATALOGUE), "--profile", "print-shop", "-o", str(tmp_path / "shop"))
    assert result.exit_code == 0
    names = [re.sub(r" \(\d+\.\d\d s\)$", "", s) for s in result.stderr.splitlines()]
    pdf = tmp_path / "shop" / "meatshields-print-shop.pdf"
    assert names == [f"tokengen: read {CATALOGUE}", f"tokengen: exported {tmp_path / 'shop'} (profile print-shop)",
                     f"tokengen: preflight of {pdf}", "tokengen: export ended"]


# ---- --format json, read back -----------------------------------------------------------------------


def test_build_json_is_what_was_written(run, tmp_path: Path):
    out = tmp_path / "b.pdf"
    result = run("build", str(CATALOGUE), "--backs", "separate", "--rules", "--copies", "2", "--size", "0.5in",
                 "--preview", "--format", "json", "-o", str(out))
    assert result.exit_code == 0
    report = json.loads(result.stdout)
    backs = tmp_path / "b-backs.pdf"
    pngs = sorted(str(p) for p in tmp_path.glob("b-*.png"))
    assert report["command"] == "build" and report["files"] == [str(out), str(backs), *pngs]
    assert report["tokens"] == 36 == 2 * 18 and report["sets"] == 2
    face = len(PdfReader(out).pages)
    assert report["face_pages"] + report["rules_pages"] == face and report["back_pages"] == len(PdfReader(backs).pages)
    assert report["pages"] == face + report["back_pages"] and len(pngs) == face
    assert report["warnings"] == ["caption text is 3.69 pt on 18 tokens (agi-low, agi-high, agi-both, …), below 5 pt at 0.5in"]
    assert report["checks"] == []


def test_export_json_lists_files_and_checks(run, tmp_path: Path):
    out = tmp_path / "tgc"
    result = run("export", str(CATALOGUE), "--profile", "tgc-chits", "-o", str(out), "--format", "json")
    assert result.exit_code == 0 and result.stderr == ""
    report = json.loads(result.stdout)
    assert report["files"] == [str(out / "meatshields-tgc-chits.pdf"), *[str(p) for p in sorted(out.glob("meatshields-[0-9]*.png"))],
                               str(out / "meatshields-back.png")]
    assert all(Path(f).is_file() for f in report["files"]) and len(report["files"]) == 1 + 18 + 1
    assert report["pages"] == len(PdfReader(out / "meatshields-tgc-chits.pdf").pages) == 19
    assert (report["tokens"], report["profile"], report["passed"], report["warnings"]) == (18, "tgc-chits", True, [])
    names = [c["name"] for c in report["checks"]]
    assert "bleed" in names and "safe-area" in names and all(c["passed"] for c in report["checks"])
    assert set(report["checks"][0]) == {"name", "passed", "message", "page", "problems", "warning"}


def test_export_json_is_printed_when_the_preflight_fails(run, tmp_path: Path):
    """A written file that fails its own preflight still gets its report (exit 1)."""
    user = tmp_path / "mine.yaml"
    user.write_text("strict:\n  extends: print-shop\n  dpi: 600\n", "utf-8")  # the example's art is 300 DPI
    poker = ROOT / "examples" / "poker-cards" / "cards.yaml"
    result = run("export", str(poker), "--profile", "strict", "--profiles", str(user), "-o", str(tmp_path / "o"), "--format", "json")
    report = json.loads(result.stdout)
    assert result.exit_code == 1 and report["passed"] is False and report["files"] == [str(tmp_path / "o" / "poker-cards-strict.pdf")]
    assert [c["name"] for c in report["checks"] if not c["passed"]] == ["images"]
    assert result.stderr.splitlines()[-1].startswith("tokengen: error: poker-cards-strict.pdf fails preflight (images)")


def test_batch_json_sums_the_jobs(run, tmp_path: Path):
    out = tmp_path / "out"
    result = run("batch", str(CATALOGUE), "--size", "1in", "--size", "0.75in", "--page", "letter", "-o", str(out), "--format", "json")
    assert result.exit_code == 0
    report = json.loads(result.stdout)
    files = sorted(report["files"])
    assert files == [str(out / "meatshields_0.75in_letter.pdf"), str(out / "meatshields_1in_letter.pdf")]
    assert report["pages"] == sum(len(PdfReader(f).pages) for f in files) and report["tokens"] == 36
    assert [j["name"] for j in report["jobs"]] == ["meatshields_1in_letter.pdf", "meatshields_0.75in_letter.pdf"]
    again = json.loads(run("batch", str(CATALOGUE), "--size", "1in", "--page", "letter", "-o", str(out), "--format", "json").stdout)
    assert again["files"] == [] and again["jobs"][0]["skipped"] is True


# ---- the progress bar: a terminal's stderr only ----------------------------------------------------

BAR = re.compile(r"\r\x1b\[2K(pages|preflight pages) \[[#.]{30}\] (\d+)/(\d+)")


def _tokengen(args: list[str], tmp_path: Path, *, terminal: bool, after: str = "0", both: bool = False) -> tuple[int, str]:
    """Run the tokengen command with stderr on a pseudo-terminal (or a pipe), the bar's delay
    ``after`` seconds; its exit code and stderr (``both``: stdout on the same terminal, as in a
    shell, and what the terminal received)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TOKENGEN_PROGRESS_AFTER": after}
    command = [sys.executable, "-m", "tokengen", *args]
    if not terminal:
        done = subprocess.run(command, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=300)
        return done.returncode, done.stderr.decode()
    import pty

    master, slave = pty.openpty()
    process = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=slave if both else subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    chunks = []
    while True:
        ready, _, _ = select.select([master], [], [], 300)
        assert ready, "no output from tokengen for 300 s"
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the child closed its end
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    return process.wait(timeout=60), b"".join(chunks).decode()


LONG_EXPORT = ["export", str(CATALOGUE), "--profile", "print-shop", "--copies", "60", "-o", "shop"]  # 2,160 tokens, 60 sheets


def test_a_long_export_shows_a_bar_on_a_terminal(tmp_path: Path):
    code, err = _tokengen(LONG_EXPORT, tmp_path, terminal=True)
    assert code == 0, err
    bars = BAR.findall(err)
    assert bars, err
    built = [(int(d), int(t)) for label, d, t in bars if label == "pages"]
    checked = [(int(d), int(t)) for label, d, t in bars if label == "preflight pages"]
    pages = len(PdfReader(tmp_path / "shop" / "meatshields-print-shop.pdf").pages)  # face and back sheets
    assert built[-1] == (pages // 2, pages // 2) and checked[-1] == (pages, pages)
    assert [d for d, _ in built] == sorted(d for d, _ in built)
    assert err.replace("\r\n", "\n").endswith(f"{checked[-1][0]}/{checked[-1][1]}\n")  # the finished bar's line is ended before the result line
    assert "tokengen: warning" not in err


def test_the_result_line_starts_a_line_of_its_own_after_the_bar(tmp_path: Path):
    """On a terminal, stdout and stderr share the screen: the bar's line ends before the result
    line (``113/113wrote 1 file`` was glued)."""
    code, shown = _tokengen(["export", str(CATALOGUE), "--profile", "print-shop", "--copies", "20", "-o", "shop"], tmp_path,
                            terminal=True, both=True)
    assert code == 0, shown
    assert BAR.search(shown), shown
    lines = shown.replace("\r\n", "\n").split("\n")
    results = [line for line in lines if "wrote " in line or "preflight: " in line]
    assert len(results) == 2 and all(line.startswith(("wrote ", "preflight: ")) for line in results), results
    assert not re.search(r"\d+/\d+(wrote|preflight:)", shown), shown


def test_no_bar_when_stderr_is_piped(tmp_path: Path):
    code, err = _tokengen(LONG_EXPORT, tmp_path, terminal=False)
    assert (code, err) == (0, "")


def test_no_bar_with_quiet_on_a_terminal(tmp_path: Path):
    code, err = _tokengen([*LONG_EXPORT, "--quiet"], tmp_path, terminal=True)
    assert (code, err) == (0, "")


def test_a_short_build_shows_no_bar_before_the_delay(tmp_path: Path):
    """The bar waits TOKENGEN_PROGRESS_AFTER seconds (default 1): a build well under it draws none."""
    code, err = _tokengen(["build", str(CATALOGUE), "-o", "s.pdf"], tmp_path, terminal=True, after="3600")
    assert (code, err) == (0, "")
