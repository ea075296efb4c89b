"""Hostile input, part two (issue 10): no input overwritten, non-regular files refused by type,
linear parsing, no internal error on bad input, clean-up on every signal, bounded PNG export.

Every case is made here (small files, sparse files, FIFOs, symlinks and hard links) and asserts
the exact one-line message. Processes are synchronised on events (a pipe written by a hook in
the child), never on a sleep.
"""

from __future__ import annotations

import errno
import os
import select
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from PIL import Image

from tokengen.io import atomic, guard
from tokengen.outputs.batch import Job, read_keywords
from tokengen.sources import fonts
from tokengen.sources.catalogue import validate_schema

ROOT = Path(__file__).resolve().parents[2]
MINIMAL = Path(__file__).resolve().parents[1] / "data" / "good" / "minimal.yaml"
OLD = b"%PDF-1.4 previous good output\n"
TOKENGEN = [sys.executable, "-c", "import sys; from tokengen.cli import run; sys.argv[0] = 'tokengen'; run()"]


def catalogue(folder: Path, extra: str = "", name: str = "cat.yaml") -> Path:
    """The minimal catalogue in ``folder``, with ``extra`` YAML after the title."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(MINIMAL.read_text("utf-8").replace("title: T", "title: T" + extra), "utf-8")
    return path


def with_art(folder: Path) -> tuple[Path, Path]:
    """A catalogue whose faces draw ``art.png`` (beside it); returns (catalogue, art)."""
    folder.mkdir(parents=True, exist_ok=True)
    art = folder / "art.png"
    Image.new("RGB", (8, 8), "red").save(art)
    return catalogue(folder, "\nstyle: {art: art.png}"), art


def listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


# ---- (1) no input is ever overwritten ------------------------------------------------------------


@pytest.mark.parametrize("profile, name", [("tgc-chits", "t-01-a.png"), ("tgc-chits", "t-tgc-chits.pdf"),
                                           ("single-pages", "t-single-pages.pdf"), ("print-shop", "t-print-shop.pdf")])
@pytest.mark.parametrize("how", ["symlink", "hardlink"])
def test_export_never_writes_onto_the_art(run, tmp_path: Path, profile: str, name: str, how: str):
    cat, art = with_art(tmp_path / "cats")
    before = art.read_bytes()
    out = tmp_path / "out"
    out.mkdir()
    if how == "symlink":
        (out / name).symlink_to(art)
    else:
        os.link(art, out / name)
    result = run("export", str(cat), "--profile", profile, "-o", str(out))
    assert (result.exit_code, result.stderr) == (2, f"tokengen: error: {out / name}: output would overwrite an input file\n")
    assert art.read_bytes() == before
    assert listing(out) == [name]  # checked before anything was written: no PDF, no other PNG


def test_export_never_writes_onto_the_profiles_file(run, tmp_path: Path):
    cat = catalogue(tmp_path)
    profiles = tmp_path / "profiles.yaml"
    profiles.write_text("mine:\n  extends: home\n", "utf-8")
    before = profiles.read_bytes()
    out = tmp_path / "out"
    out.mkdir()
    (out / "t-mine.pdf").symlink_to(profiles)
    result = run("export", str(cat), "--profile", "mine", "--profiles", str(profiles), "-o", str(out))
    assert (result.exit_code, result.stderr) == (2, f"tokengen: error: {out / 't-mine.pdf'}: output would overwrite an input file\n")
    assert profiles.read_bytes() == before


@pytest.mark.parametrize("how", ["same", "hardlink"])
def test_build_never_writes_onto_a_bundled_font(run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str):
    copy = tmp_path / "fonts"
    shutil.copytree(fonts.font_dir(), copy)
    monkeypatch.setenv("TOKENGEN_FONT_DIR", str(copy))
    font = copy / f"{fonts.REGULAR}.ttf"
    before = font.read_bytes()
    out = font
    if how == "hardlink":
        out = tmp_path / "x.pdf"
        os.link(font, out)
    result = run("build", str(MINIMAL), "-o", str(out))
    assert (result.exit_code, result.stderr) == (2, f"tokengen: error: {out}: output would overwrite an input file\n")
    assert font.read_bytes() == before


def test_build_never_writes_onto_the_package_data(run, tmp_path: Path):
    from tokengen.sources.profiles import builtin_path

    builtin = builtin_path()
    before = builtin.read_bytes()
    link = tmp_path / "x.pdf"
    link.symlink_to(builtin)
    result = run("build", str(MINIMAL), "-o", str(link))  # build reads no profile: still refused
    assert (result.exit_code, result.stderr) == (2, f"tokengen: error: {link}: output would overwrite an input file\n")
    assert builtin.read_bytes() == before


@pytest.mark.parametrize("how", ["symlink", "hardlink", "itself"])
def test_batch_never_replaces_its_job_file(run, tmp_path: Path, how: str):
    catalogue(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    text = "jobs:\n  - {catalogue: cat.yaml, output: a.pdf}\n  - {catalogue: cat.yaml, size: 2in, output: b.pdf}\n"
    if how == "itself":  # the job file is the first job's output
        jobs = out / "a.pdf"
        text = text.replace("cat.yaml", "../cat.yaml")
        jobs.write_text(text, "utf-8")
    else:
        jobs = tmp_path / "jobs.yaml"
        jobs.write_text(text, "utf-8")
        (out / "a.pdf").symlink_to(jobs) if how == "symlink" else os.link(jobs, out / "a.pdf")
    result = run("batch", str(jobs), "-o", str(out), "-j", "1")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"tokengen: error: {out / 'a.pdf'}: output would overwrite an input file\n"
    assert jobs.read_text("utf-8") == text
    assert not (out / "b.pdf").exists()  # every output is checked before any job runs


def test_guard_compares_device_and_inode_of_the_resolved_target(tmp_path: Path):
    source = tmp_path / "in.yaml"
    source.write_text("x: 1\n")
    guard.note_input(source)
    hop = tmp_path / "hop"
    hop.symlink_to(source)
    link = tmp_path / "link.pdf"
    link.symlink_to(hop)  # two symlinks deep
    assert guard.input_of(link) == str(source)
    source.unlink()  # a deleted input no longer counts, even if its inode is reused
    fresh = tmp_path / "fresh.pdf"
    fresh.write_text("new")
    assert guard.input_of(fresh) is None


# ---- (2) non-regular files refused by type ------------------------------------------------------


def test_preflight_of_a_fifo_is_refused_without_reading(run, tmp_path: Path):
    fifo = tmp_path / "x.pdf"
    os.mkfifo(fifo)  # no writer: opening it would wait for ever
    result = run("preflight", str(fifo))
    assert (result.exit_code, result.stderr) == (
        2, f"tokengen: error: {fifo}: is a FIFO or pipe, not a regular file (save it to a file and give that)\n")


@pytest.mark.parametrize("what", ["catalogue", "profiles", "art"])
def test_a_fifo_as_input_is_refused(run, tmp_path: Path, what: str):
    fifo = tmp_path / "in.fifo"
    os.mkfifo(fifo)
    out = tmp_path / "out"
    if what == "catalogue":
        result = run("build", str(fifo), "-o", str(tmp_path / "x.pdf"))
        expected = f"{fifo}: is a FIFO or pipe, not a regular file (save it to a file and give that)"
    elif what == "profiles":
        result = run("export", str(MINIMAL), "--profile", "home", "--profiles", str(fifo), "-o", str(out))
        expected = f"{fifo}: is a FIFO or pipe, not a regular file (save it to a file and give that)"
    else:
        cat = catalogue(tmp_path, "\nstyle: {art: in.fifo}")
        result = run("build", str(cat), "-o", str(tmp_path / "x.pdf"))
        expected = f"{cat}:2: style.art: art file 'in.fifo' is a FIFO or pipe, not a regular file"
    assert (result.exit_code, result.stderr) == (2, f"tokengen: error: {expected}\n")


def test_batch_with_a_fifo_at_an_output_path_is_refused_before_any_job(run, tmp_path: Path):
    out = tmp_path / "out"
    out.mkdir()
    fifo = out / "t_2in_letter.pdf"
    os.mkfifo(fifo)
    assert not Job(MINIMAL, fifo).is_current()  # stat only: never opened
    result = run("batch", str(MINIMAL), "-o", str(out), "--size", "1in", "--size", "2in", "-j", "1")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"tokengen: error: {fifo}: is a FIFO or pipe, not a regular file; give a file name to write\n"
    assert listing(out) == ["t_2in_letter.pdf"]  # the first job's output is not written either


@pytest.mark.parametrize("command", [["build", "/dev/stdin", "-o", "{out}"], ["preflight", "/dev/stdin"],
                                     ["batch", "/dev/stdin", "-o", "{dir}"]])
def test_piped_input_is_refused_the_same_way_everywhere(tmp_path: Path, command: list[str]):
    args = [a.replace("{out}", str(tmp_path / "x.pdf")).replace("{dir}", str(tmp_path / "out")) for a in command]
    proc = subprocess.run([*TOKENGEN, *args], input=MINIMAL.read_bytes(), capture_output=True, cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.decode() == ("tokengen: error: /dev/stdin: is a FIFO or pipe, not a regular file "
                                    "(save it to a file and give that)\n")
    assert listing(tmp_path) == []


def test_dev_zero_is_refused_by_type(run, tmp_path: Path):
    result = run("export", str(MINIMAL), "--profile", "home", "--profiles", "/dev/zero", "-o", str(tmp_path))
    assert (result.exit_code, result.stderr) == (
        2, "tokengen: error: /dev/zero: is a character device, not a regular file (save it to a file and give that)\n")


# ---- (3) linear parsing, length caps, identifiers ----------------------------------------------


def test_a_huge_length_on_the_command_line_is_refused_at_once(run, tmp_path: Path):
    size = "0" * 120_000 + "1in"
    result = run("build", str(MINIMAL), "--size", size, "-o", str(tmp_path / "x.pdf"))
    assert (result.exit_code, result.stderr) == (
        2, "tokengen: error: tokengen build: Invalid value for '--size': expected a length such as 1in or 25mm, "
           "got 120003 characters (at most 64) (see 'tokengen build --help')\n")


def test_a_huge_length_in_a_catalogue_is_refused_at_once(run, tmp_path: Path):
    cat = catalogue(tmp_path, f'\nsize: "{"0" * 60_000}1in"')
    result = run("build", str(cat), "-o", str(tmp_path / "x.pdf"))
    assert (result.exit_code, result.stderr) == (
        2, f"tokengen: error: {cat}:2: size: expected a length with a unit such as 1in or 25mm, got 60003 characters (at most 64)\n")


def test_zero_lengths_still_parse():
    from tokengen.units import parse_length

    assert [parse_length(t) for t in ("0", "00", "0.0", ".0", " -0 ", "0in", "0001in")] == [0, 0, 0, 0, 0, 0, 72]


def test_uniqueness_of_a_long_mixed_list_is_linear(tmp_path: Path):
    # jsonschema's own uniqueItems compares pairs when values cannot be sorted (60 s for 20,000)
    values = [i if i % 2 else f"v{i}" for i in range(20_000)] + ["v0"]
    data = {"title": "T", "game": {"attributes": [{"code": "A", "name": "a"}],
                                   "priorities": [{"code": "low", "glyph": "v", "name": "low"}]},
            "tokens": [{"id": "a", "attribute": "A", "priority": "low"}], "variants": values}
    problems = [str(p) for p in validate_schema(tmp_path / "c.yaml", data, {})]
    assert f"{tmp_path / 'c.yaml'}: variants: has more than 64 entries" in problems
    assert f"{tmp_path / 'c.yaml'}: variants: lists the same entry twice" in problems


def test_an_integer_of_5000_digits_is_one_line(run, tmp_path: Path):
    cat = catalogue(tmp_path, "\ncolumns: " + "9" * 5000)
    result = run("build", str(cat), "-o", str(tmp_path / "x.pdf"))
    assert (result.exit_code, result.stderr) == (
        2, f"tokengen: error: {cat}:2: columns: whole number too long (5000 characters; at most 18 digits)\n")


def test_a_hex_dpi_of_5000_digits_is_one_line(run, tmp_path: Path):
    profiles = tmp_path / "p.yaml"
    profiles.write_text("mine:\n  dpi: 0x" + "f" * 5000 + "\n", "utf-8")
    result = run("preflight", str(MINIMAL), "--profile", "mine", "--profiles", str(profiles))
    assert (result.exit_code, result.stderr) == (
        2, f"tokengen: error: {profiles}:2: mine.dpi: whole number too long (5002 characters; at most 18 digits)\n")


def test_a_hex_dpi_is_read_as_its_value(tmp_path: Path):
    from tokengen.sources.profiles import get_profile

    profiles = tmp_path / "p.yaml"
    profiles.write_text("mine:\n  dpi: 0x12c\n", "utf-8")
    assert get_profile("mine", profiles).dpi == 300


@pytest.mark.parametrize("field, value, message", [
    ("id", '"a\\n"', "tokens[0].id: id 'a\\n' must be lowercase letters, digits, '-' or '_'"),
    ("attribute", '"AGI\\n"', "tokens[0].attribute: unknown attribute 'AGI\\n'; did you mean 'AGI'?"),
])
def test_identifiers_refuse_a_trailing_newline(run, tmp_path: Path, field: str, value: str, message: str):
    path = tmp_path / "cat.yaml"
    old = {"id": "id: a,", "attribute": "attribute: AGI,"}[field]
    path.write_text(MINIMAL.read_text("utf-8").replace(old, f"{field}: {value},"), "utf-8")
    result = run("build", str(path), "-o", str(tmp_path / "x.pdf"))
    assert (result.exit_code, result.stderr) == (2, f"tokengen: error: {path}:10: {message}\n")


def test_variant_name_with_a_trailing_newline_is_refused(tmp_path: Path):
    data = {"title": "T", "game": {"attributes": [{"code": "A", "name": "a"}],
                                   "priorities": [{"code": "low", "glyph": "v", "name": "low"}],
                                   "variants": {"x\n": {"description": "d"}}},
            "tokens": [{"id": "a", "attribute": "A", "priority": "low"}]}
    assert [p.message for p in validate_schema(tmp_path / "c.yaml", data, {})] == ["'x\\n' does not match '^[a-z][a-z0-9-]{0,39}$'"]


# ---- (4) internal errors become one line --------------------------------------------------------


def test_profile_extends_a_list(run, tmp_path: Path):
    profiles = tmp_path / "p.yaml"
    profiles.write_text("mine:\n  extends: [home]\n", "utf-8")
    result = run("export", str(MINIMAL), "--profile", "mine", "--profiles", str(profiles), "-o", str(tmp_path / "o"))
    assert (result.exit_code, result.stderr) == (
        2, f"tokengen: error: {profiles}:2: mine.extends: expected text, got ['home']\n")


def test_stdout_full(tmp_path: Path):
    with open("/dev/full", "w") as full:
        proc = subprocess.run([*TOKENGEN, "check", str(ROOT / "token_defs.yaml")], stdout=full, stderr=subprocess.PIPE, text=True)
    assert (proc.returncode, proc.stderr) == (2, "tokengen: error: cannot write to standard output: No space left on device\n")


def test_stdout_closed_pipe(tmp_path: Path):
    read, write = os.pipe()
    os.close(read)  # nobody will read: every write is EPIPE
    try:
        proc = subprocess.run([*TOKENGEN, "check", str(ROOT / "token_defs.yaml")], stdout=write, stderr=subprocess.PIPE, text=True)
    finally:
        os.close(write)
    assert (proc.returncode, proc.stderr) == (2, "tokengen: error: cannot write to standard output: Broken pipe\n")


def test_stdout_that_cannot_encode(tmp_path: Path):
    """A console encoding without the arrows (latin-1 here; cp1252 and ASCII in test_cli_console.py)
    prints them in a readable ASCII form (issue 11: never a crash, never an error)."""
    env = {**os.environ, "PYTHONIOENCODING": "latin-1"}
    proc = subprocess.run([*TOKENGEN, "check", str(ROOT / "token_defs.yaml")], capture_output=True, env=env)
    assert (proc.returncode, proc.stderr) == (0, b"")
    assert "a vX or ^X token stands in" in proc.stdout.decode("latin-1")


def test_symlink_loop_as_output(run, tmp_path: Path):
    loop = tmp_path / "loop.pdf"
    loop.symlink_to("loop.pdf")
    result = run("build", str(MINIMAL), "-o", str(loop))
    assert (result.exit_code, result.stderr) == (2, f"tokengen: error: {loop}: is a symlink loop (too many levels of symbolic links)\n")


# ---- (5) batch: bounded up-to-date check, signals, one failing job -----------------------------


def _rchar() -> int:
    """Bytes this process has read with read(2) so far (Linux /proc/self/io)."""
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("rchar:"):
            return int(line.split()[1])
    raise AssertionError("no rchar")


@pytest.mark.skipif(not Path("/proc/self/io").exists(), reason="needs Linux /proc/self/io to count bytes read")
def test_up_to_date_check_reads_only_the_fingerprint(run, tmp_path: Path):
    out = tmp_path / "out"
    assert run("batch", str(MINIMAL), "-o", str(out)).exit_code == 0
    pdf = next(out.glob("*.pdf"))
    job = Job(MINIMAL, pdf)
    assert read_keywords(pdf).split() == [job.fingerprint]
    big = tmp_path / "big.pdf"  # a 2 GiB sparse file that starts like a PDF
    with open(big, "wb") as handle:
        handle.write(b"%PDF-1.4\n")
        handle.truncate(2 * 1024**3)
    before = _rchar()
    assert read_keywords(big) == ""
    assert not Job(MINIMAL, big).is_current()
    assert _rchar() - before < 64 * 1024


@pytest.mark.skipif(not Path("/proc/self/io").exists(), reason="needs Linux /proc/self/io to count bytes read")
def test_keywords_read_through_pikepdf_in_any_layout_and_without_the_pages(tmp_path: Path):
    """The fingerprint is read from the document information (pikepdf's docinfo), so a PDF
    saved with a cross-reference stream still reads; a 4 MB page stream is not read for it."""
    import pikepdf

    pdf = pikepdf.new()
    pdf.add_blank_page()
    pdf.pages[0].Contents = pdf.make_stream(b"% padding\n" * 400_000)
    pdf.docinfo["/Keywords"] = "tokengen-fingerprint-1"
    target = tmp_path / "streamed.pdf"
    pdf.save(target, object_stream_mode=pikepdf.ObjectStreamMode.generate, compress_streams=False)
    assert target.stat().st_size > 4_000_000
    before = _rchar()
    assert read_keywords(target) == "tokengen-fingerprint-1"
    assert _rchar() - before < 256 * 1024


#: Run as a script (``python hook.py ARGS``), so a spawned or fork-server worker re-imports it as
#: ``__mp_main__`` and is hooked too: every drawing process says so on the ``HOOK_READY`` FIFO, then
#: waits on the ``HOOK_BLOCK`` FIFO, which nobody opens for writing, until it is signalled.
HOOK = textwrap.dedent("""
    import os, sys
    from tokengen.faces import render
    real = render.SheetCanvas.place
    def place(self, *args, **kwargs):
        ready = os.open(os.environ["HOOK_READY"], os.O_WRONLY)
        os.write(ready, b"x")   # this process is drawing: its .part file exists
        os.close(ready)
        os.open(os.environ["HOOK_BLOCK"], os.O_RDONLY)  # wait here until signalled (no writer comes)
        return real(self, *args, **kwargs)
    render.SheetCanvas.place = place
    if __name__ == "__main__":
        from tokengen.cli import run
        sys.argv = ["tokengen"] + sys.argv[1:]
        run()
""")


def _default_sigint() -> None:
    """In the child: Ctrl-C as in a terminal. A test run started in the background by a shell
    (CI, a load test) inherits SIGINT ignored, and Python then installs no handler for it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start_paused(tmp_path: Path, args: list[str], drawing: int) -> tuple[subprocess.Popen, int]:
    """Start ``tokengen ARGS`` with a hook that stops every drawing process in the middle of its
    job; return once ``drawing`` processes are there (read from a FIFO: an event, not a sleep)."""
    hooks = tmp_path.parent / f"{tmp_path.name}-hook"  # beside tmp_path, whose listing the tests check
    hooks.mkdir()
    script = hooks / "hook.py"
    script.write_text(HOOK, "utf-8")
    os.mkfifo(hooks / "ready")
    os.mkfifo(hooks / "block")
    ready_r = os.open(hooks / "ready", os.O_RDWR)  # read-write: no end of file between two writers
    env = {**os.environ, "HOOK_READY": str(hooks / "ready"), "HOOK_BLOCK": str(hooks / "block")}
    proc = subprocess.Popen([sys.executable, str(script), *args], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=_default_sigint)  # its own process group, as a terminal gives a command
    got = b""
    while len(got) < drawing:
        # a safety net only (a process that died never writes): the wait itself is for the event
        assert select.select([ready_r], [], [], 120)[0] and proc.poll() is None, proc.communicate()
        got += os.read(ready_r, drawing - len(got))
    os.close(ready_r)
    return proc, os.open(os.devnull, os.O_RDONLY)


@pytest.mark.parametrize("signum, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_batch_stops_at_once_on_a_signal(tmp_path: Path, signum: int, code: int):
    out = tmp_path / "out"
    sizes = [a for s in ("0.5in", "0.6in", "0.7in", "0.8in", "0.9in", "1in", "1.1in", "1.2in") for a in ("--size", s)]
    proc, block = _start_paused(tmp_path, ["batch", str(MINIMAL), "-o", str(out), "-j", "2", *sizes], drawing=2)
    assert len(list(out.glob(".*.part"))) == 2  # both workers are writing
    if signum == signal.SIGINT:
        os.killpg(proc.pid, signum)  # Ctrl-C reaches the whole process group, workers included
    else:
        proc.send_signal(signum)
    _, stderr = proc.communicate(timeout=30)
    os.close(block)
    assert proc.returncode == code
    assert not out.exists()  # no .part left, none of the 6 pending jobs ran, and the folder it made is gone
    if signum == signal.SIGINT:
        assert stderr.strip() == "tokengen: interrupted"


def test_sighup_during_a_build_cleans_up_like_sigterm(tmp_path: Path):
    out = tmp_path / "x.pdf"
    out.write_bytes(OLD)
    proc, block = _start_paused(tmp_path, ["build", str(MINIMAL), "-o", str(out)], drawing=1)
    proc.send_signal(signal.SIGHUP)
    proc.communicate(timeout=30)
    os.close(block)
    assert proc.returncode == 129
    assert out.read_bytes() == OLD
    assert listing(tmp_path) == ["x.pdf"]


def test_ctrl_c_during_start_up_is_one_line(tmp_path: Path):
    # the handler tokengen's first import installs for the tokengen command; SIGINT arrives
    # while the rest of the package is still importing
    code = ("import os, signal, sys; sys.argv = ['/usr/bin/tokengen', '--version']; "
            "from tokengen import _startup; _startup.quiet_start(); "
            "assert signal.getsignal(signal.SIGINT) is _startup._interrupted; "
            "os.kill(os.getpid(), signal.SIGINT); import tokengen.cli")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, preexec_fn=_default_sigint)
    assert (proc.returncode, proc.stderr, proc.stdout) == (130, "tokengen: interrupted\n", "")
    # importing tokengen as a library leaves SIGINT alone
    lib = subprocess.run([sys.executable, "-c", "import signal, tokengen; "
                          "assert signal.getsignal(signal.SIGINT) is signal.default_int_handler"], capture_output=True,
                         preexec_fn=_default_sigint)
    assert lib.returncode == 0, lib.stderr


def test_the_console_script_installs_it_first(tmp_path: Path):
    script = tmp_path / "tokengen"
    script.write_text("import signal, tokengen._startup as s\n"
                      "print(signal.getsignal(signal.SIGINT) is s._interrupted)\n")
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, preexec_fn=_default_sigint)
    assert proc.stdout == "True\n", proc.stderr


# ---- (6) outputs: permissions, long names, PNG sets all or nothing -----------------------------


def test_replacing_an_output_keeps_its_permission_bits(run, tmp_path: Path):
    out = tmp_path / "x.pdf"
    out.write_bytes(OLD)
    out.chmod(0o600)
    assert run("build", str(MINIMAL), "-o", str(out)).exit_code == 0
    assert out.stat().st_mode & 0o777 == 0o600
    assert out.read_bytes() != OLD


def test_a_long_legal_name_works_and_a_too_long_one_is_exit_2(run, tmp_path: Path):
    limit = guard.name_max(tmp_path)
    ok = tmp_path / ("n" * (limit - 4) + ".pdf")
    assert run("build", str(MINIMAL), "-o", str(ok)).exit_code == 0
    assert listing(tmp_path) == [ok.name]
    long = tmp_path / ("n" * (limit + 45) + ".pdf")
    result = run("build", str(MINIMAL), "-o", str(long))
    assert (result.exit_code, result.stderr) == (
        2, f"tokengen: error: {long}: file name too long ({limit + 49} bytes; this file system takes at most {limit})\n")


def test_long_name_temporary_files_fit_and_are_cleaned_as_leftovers(tmp_path: Path):
    target = tmp_path / ("n" * (guard.name_max(tmp_path) - 4) + ".pdf")
    with atomic.atomic_path(target) as temp:
        assert len(temp.name.encode()) <= guard.name_max(tmp_path)
        dead = tmp_path / temp.name.replace(f".{os.getpid()}.", ".2147483646.")
        dead.write_bytes(b"")
        temp.write_bytes(b"%PDF")
    assert atomic.remove_stale_parts(target) == [dead]


def test_png_set_is_all_or_nothing(run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from tokengen.outputs import pngs

    # the face PNG is written, then the disk is full for the back
    out = tmp_path / "out"
    out.mkdir()
    (out / "t-01-a.png").write_bytes(b"old face")
    monkeypatch.setattr(pngs, "_write", _write_failing_on(2), raising=True)
    result = run("export", str(MINIMAL), "--profile", "tgc-chits", "-o", str(out))
    assert (result.exit_code, result.stderr) == (
        2, f"tokengen: error: {out / 't-back.png'}: cannot write PNG: No space left on device; no file of the set was replaced\n")
    assert listing(out) == ["t-01-a.png"]  # no PDF, no back, no .part; the old face kept
    assert (out / "t-01-a.png").read_bytes() == b"old face"


def _write_failing_on(n: int):
    """:func:`tokengen.outputs.pngs._write` (how the chit PNGs reach the disk), the ``n``-th call failing with ENOSPC."""
    from tokengen.outputs import pngs

    real = pngs._write
    count = [0]

    def write(path, data):
        count[0] += 1
        if count[0] == n:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(path, data)

    return write


# ---- (7) PNG export and single pages: bounded before anything is built -------------------------


def test_png_per_image_limit(run, tmp_path: Path):
    profiles = tmp_path / "p.yaml"
    profiles.write_text("huge:\n  extends: tgc-chits\n  bleed: 20in\n", "utf-8")
    result = run("export", str(MINIMAL), "--profile", "huge", "--profiles", str(profiles), "-o", str(tmp_path / "o"))
    assert (result.exit_code, result.stderr) == (
        2, f"tokengen: error: {MINIMAL}: each PNG would be 12300 x 12300 px (151,290,000 pixels) at 300 DPI, more than "
           "the limit of 40,000,000 (raise it with --max-pixels, or lower --dpi)\n")
    assert not (tmp_path / "o").exists()  # refused before the folder is made


def test_png_per_run_limit(run, tmp_path: Path):
    result = run("export", str(MINIMAL), "--profile", "tgc-chits", "--max-total-pixels", "200000", "-o", str(tmp_path / "o"))
    assert (result.exit_code, result.stderr) == (
        2, f"tokengen: error: {MINIMAL}: 2 PNGs of 375 x 375 px are 281,250 pixels, more than the limit of 200,000 per run "
           "(raise it with --max-total-pixels, or lower --dpi)\n")
    assert run("export", str(MINIMAL), "--profile", "tgc-chits", "--max-total-pixels", "281250",
               "-o", str(tmp_path / "o")).exit_code == 0


def test_png_dpi_2400_on_100_designs_is_refused_before_drawing(run, tmp_path: Path):
    tokens = "".join(f"  - {{id: t{i}, attribute: AGI, priority: low}}\n" for i in range(100))
    cat = tmp_path / "many.yaml"
    cat.write_text(MINIMAL.read_text("utf-8").split("tokens:")[0] + "tokens:\n" + tokens, "utf-8")
    result = run("export", str(cat), "--profile", "tgc-chits", "--dpi", "2400", "-o", str(tmp_path / "o"))
    assert (result.exit_code, result.stderr) == (
        2, f"tokengen: error: {cat}: 101 PNGs of 3000 x 3000 px are 909,000,000 pixels, more than the limit of "
           "400,000,000 per run (raise it with --max-total-pixels, or lower --dpi)\n")
    assert not (tmp_path / "o").exists()  # refused before the folder is made


def test_single_pages_refuses_over_limit_runs_before_building(run, tmp_path: Path):
    cat = catalogue(tmp_path).read_text("utf-8").replace("priority: low}", "priority: low, copies: 10000}")
    path = tmp_path / "many.yaml"
    path.write_text(cat, "utf-8")
    result = run("export", str(path), "--profile", "single-pages", "-o", str(tmp_path / "o"))
    assert (result.exit_code, result.stderr) == (
        2, f"tokengen: error: {path}: 10000 tokens need 20000 pages, more than the limit of 5000 (raise it with --max-pages)\n")
    result = run("export", str(path), "--profile", "single-pages", "--max-tokens", "9999", "-o", str(tmp_path / "o"))
    assert (result.exit_code, result.stderr) == (
        2, f"tokengen: error: {path}: 10000 tokens requested, more than the limit of 9999 (raise it with --max-tokens)\n")
    assert not (tmp_path / "o").exists()  # refused before the folder is made


def test_target_specs_are_capped(run):
    result = run("target", "-c", str(ROOT / "token_defs.yaml"), "-m", "↓" + "S" * 100_000)
    assert (result.exit_code, result.stderr) == (
        2, "tokengen: error: tokengen target: Invalid value for '--monster': 100001 characters, more than 200 "
           "(see 'tokengen target --help')\n")


def test_a_fifo_as_font_is_refused(run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("TOKENGEN_FONT_DIR", str(tmp_path))
    os.mkfifo(tmp_path / f"{fonts.REGULAR}.ttf")
    fonts.register.cache_clear()
    try:
        with pytest.raises(Exception, match="is a FIFO or pipe, not a regular file"):
            fonts.register()
    finally:
        monkeypatch.delenv("TOKENGEN_FONT_DIR")
        fonts.register.cache_clear()
        fonts.register()


def _times_ten_or_die(x: int) -> int:
    if x == 2:
        os._exit(3)  # a worker killed in the middle of a job
    return x * 10


def test_a_dead_worker_fails_its_job_only():
    from tokengen.io.workers import run_pool

    results: dict[int, object] = {}
    run_pool(_times_ten_or_die, [0, 1, 2, 3, 4], [0, 1, 2, 3, 4], 2, results.__setitem__,
             lambda i, reason: f"job {i}: {reason}")
    assert results == {0: 0, 1: 10, 2: "job 2: worker process ended unexpectedly (exit code 3)", 3: 30, 4: 40}
