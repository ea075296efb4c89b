"""Safe paths and outputs that are never half-written (issue 7).

Art paths that leave the catalogue's folder, output onto an input, missing or read-only
destinations, write failures (full disk), SIGKILL and Ctrl-C in the middle of a large build.
"""

from __future__ import annotations

import errno
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from PIL import Image

from tokengen.geometry.imposition import SheetSpec
from tokengen.io import atomic, testhook
from tokengen.outputs.build import BuildOptions, build_pdf
from tokengen.sources.catalogue import load_catalogue
from tokengen.units import PAGES

ROOT = Path(__file__).resolve().parents[2]
MINIMAL = Path(__file__).resolve().parents[1] / "data" / "good" / "minimal.yaml"
OLD = b"%PDF-1.4 previous good output\n"
TOKENGEN = [sys.executable, "-c", "import sys; from tokengen.cli import run; sys.argv[0] = 'tokengen'; run()"]


def catalogue_with_art(folder: Path, art: str) -> Path:
    text = MINIMAL.read_text("utf-8").replace("title: T", f"title: T\nstyle: {{art: '{art}'}}")
    path = folder / "cat.yaml"
    path.write_text(text, "utf-8")
    return path


@pytest.fixture
def outside_png(tmp_path: Path) -> Path:
    """A real PNG outside the catalogue folder ``tmp_path / "cats"``."""
    png = tmp_path / "outside.png"
    Image.new("RGB", (4, 4), "red").save(png)
    (tmp_path / "cats").mkdir()
    return png


# ---- art paths --------------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["dotdot", "absolute", "symlink"])
def test_art_outside_the_catalogue_folder_is_refused(run, tmp_path: Path, outside_png: Path, how: str):
    cats = tmp_path / "cats"
    if how == "dotdot":
        art = "../outside.png"
    elif how == "absolute":
        art = str(outside_png)
    else:
        (cats / "link.png").symlink_to(outside_png)
        art = "link.png"
    cat = catalogue_with_art(cats, art)
    out = tmp_path / "x.pdf"
    result = run("build", str(cat), "-o", str(out))
    assert result.exit_code == 2
    assert result.stderr == (f"tokengen: error: {cat}:2: style.art: art path '{art}' leaves the catalogue's folder"
                             " (use --allow-outside-art to permit it)\n")
    assert not out.exists()
    # the loader resolves it when allowed; so does the CLI flag
    assert load_catalogue(cat, allow_outside_art=True).tokens[0].style.art == outside_png.resolve()
    allowed = run("build", str(cat), "--allow-outside-art", "-o", str(out))
    assert "leaves the catalogue's folder" not in allowed.stderr


def test_deep_dotdot_art_is_refused(run, tmp_path: Path, outside_png: Path):
    cat = catalogue_with_art(tmp_path / "cats", "../../../../../../../../etc/passwd")
    result = run("build", str(cat), "-o", str(tmp_path / "x.pdf"))
    assert result.exit_code == 2 and "leaves the catalogue's folder" in result.stderr


def test_art_inside_the_folder_is_fine(tmp_path: Path, outside_png: Path):
    cats = tmp_path / "cats"
    (cats / "art").mkdir()
    Image.new("RGB", (4, 4), "blue").save(cats / "art" / "face.png")
    cat = catalogue_with_art(cats, "art/../art/face.png")
    assert load_catalogue(cat).tokens[0].style.art == (cats / "art" / "face.png").resolve()


# ---- destinations -----------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["same", "symlink", "hardlink"])
def test_output_onto_the_catalogue_is_refused(run, tmp_path: Path, how: str):
    cat = tmp_path / "cat.yaml"
    cat.write_bytes(MINIMAL.read_bytes())
    out = cat
    if how == "symlink":
        out = tmp_path / "out.pdf"
        out.symlink_to(cat)
    elif how == "hardlink":
        out = tmp_path / "out.pdf"
        os.link(cat, out)
    result = run("build", str(cat), "-o", str(out))
    assert (result.exit_code, result.stderr) == (2, f"tokengen: error: {out}: output would overwrite an input file\n")
    assert cat.read_bytes() == MINIMAL.read_bytes()


def test_output_folder_that_does_not_exist(run, tmp_path: Path):
    out = tmp_path / "no" / "such" / "x.pdf"
    result = run("build", str(MINIMAL), "-o", str(out))
    assert (result.exit_code, result.stderr) == (2, f"tokengen: error: {out}: folder {out.parent} does not exist\n")
    assert not (tmp_path / "no").exists()  # -o FILE never creates folders


def test_read_only_destination_simulated(run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    def refuse(*args, **kwargs):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))

    monkeypatch.setattr(atomic.tempfile, "mkstemp", refuse)
    out = tmp_path / "x.pdf"
    result = run("build", str(MINIMAL), "-o", str(out))
    assert (result.exit_code, result.stderr) == (2, f"tokengen: error: {out}: cannot write in {tmp_path}: Permission denied\n")


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores folder permissions")
def test_read_only_destination_for_real(run, tmp_path: Path):
    folder = tmp_path / "ro"
    folder.mkdir()
    (folder / "x.pdf").write_bytes(OLD)
    folder.chmod(0o555)
    try:
        result = run("build", str(MINIMAL), "-o", str(folder / "x.pdf"))
    finally:
        folder.chmod(0o755)
    assert (result.exit_code, result.stderr) == (2, f"tokengen: error: {folder / 'x.pdf'}: cannot write in {folder}: Permission denied\n")
    assert (folder / "x.pdf").read_bytes() == OLD


NOBODY = 65534
SETPRIV = shutil.which("setpriv")


def _unprivileged(args: list[str], folder: Path) -> subprocess.CompletedProcess:
    """Run ``args`` in ``folder`` as an unprivileged user: as root, as nobody (uid/gid 65534, no extra
    groups) through util-linux setpriv, so that folder permissions apply; otherwise as the current user."""
    prefix = [SETPRIV, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"] if os.geteuid() == 0 else []
    return subprocess.run([*prefix, *args], cwd=folder, env={**os.environ, "HOME": str(folder)}, capture_output=True, text=True)


def test_read_only_destination_as_an_unprivileged_user():
    """The real code path, nothing monkeypatched: a tokengen child process that may read but not write the
    destination folder is refused by the kernel when it makes its temporary file there."""
    if os.geteuid() == 0 and SETPRIV is None:
        pytest.skip("running as root and util-linux setpriv is absent: no way to drop privileges")
    # pytest's tmp tree is root-only (0700) when run as root, so the test gets its own temporary folder,
    # readable by everyone, with a copy of the catalogue in it
    folder = Path(tempfile.mkdtemp(prefix="tokengen-ro-"))
    ro = folder / "ro"
    try:
        folder.chmod(0o755)
        cat = folder / "minimal.yaml"
        cat.write_bytes(MINIMAL.read_bytes())
        ro.mkdir()
        (ro / "x.pdf").write_bytes(OLD)
        ro.chmod(0o555)
        probe = _unprivileged([sys.executable, "-c", "import tokengen.cli"], folder)
        if probe.returncode != 0:
            pytest.skip(f"the unprivileged user cannot import tokengen from this Python: {probe.stderr.strip()[-200:]}")

        result = _unprivileged([*TOKENGEN, "build", str(cat), "-o", str(ro / "x.pdf")], folder)
        assert (result.returncode, result.stdout, result.stderr) == (
            2, "", f"tokengen: error: {ro / 'x.pdf'}: cannot write in {ro}: Permission denied\n")
        assert (ro / "x.pdf").read_bytes() == OLD  # the previous output is untouched
        assert [p.name for p in ro.iterdir()] == ["x.pdf"]  # and nothing half-written beside it

        # the same user writes where the folder allows it: the refusal above came from the permissions
        ok = folder / "ok"
        ok.mkdir()
        ok.chmod(0o777)
        wrote = _unprivileged([*TOKENGEN, "build", str(cat), "-o", str(ok / "x.pdf")], folder)
        assert (wrote.returncode, wrote.stderr) == (0, "")
        assert (ok / "x.pdf").read_bytes().startswith(b"%PDF-")
    finally:
        if ro.exists():
            ro.chmod(0o755)
        shutil.rmtree(folder)


def test_output_keeps_umask_permissions(run, tmp_path: Path):
    old = os.umask(0o027)
    try:
        assert run("build", str(MINIMAL), "-o", str(tmp_path / "x.pdf")).exit_code == 0
    finally:
        os.umask(old)
    assert (tmp_path / "x.pdf").stat().st_mode & 0o777 == 0o640


# ---- failures while writing ---------------------------------------------------------------------


def _full_disk(*args, **kwargs):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.mark.parametrize("where", ["save", "replace"])
def test_full_disk_keeps_the_previous_file(run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str):
    out = tmp_path / "x.pdf"
    out.write_bytes(OLD)
    if where == "save":
        monkeypatch.setattr("reportlab.pdfgen.canvas.Canvas.save", _full_disk)
        monkeypatch.setattr("tokengen.outputs.build.save", _full_disk)  # the sheet's save, piece by piece (faces.pagestream)
    else:
        monkeypatch.setattr(atomic.os, "replace", _full_disk)
    result = run("build", str(MINIMAL), "-o", str(out))
    assert (result.exit_code, result.stderr) == (2, f"tokengen: error: {out}: write failed: No space left on device\n")
    assert out.read_bytes() == OLD
    assert [p.name for p in tmp_path.iterdir()] == ["x.pdf"]


def test_partial_write_then_failure_leaves_no_temp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The disk fills up after half the PDF is written: the half file is removed."""
    from tokengen.faces import pagestream

    def half_then_full(canvas):  # the sheet is saved by faces.pagestream.save, piece by piece
        pagestream.save(canvas)
        name = canvas._filename
        data = Path(name).read_bytes()
        Path(name).write_bytes(data[: len(data) // 2])
        _full_disk()

    monkeypatch.setattr("tokengen.outputs.build.save", half_then_full)
    out = tmp_path / "x.pdf"
    out.write_bytes(OLD)
    spec = SheetSpec(page=PAGES["letter"])
    with pytest.raises(Exception, match="No space left on device"):
        build_pdf(load_catalogue(MINIMAL), BuildOptions(sheet=spec), out)
    assert out.read_bytes() == OLD
    assert [p.name for p in tmp_path.iterdir()] == ["x.pdf"]


def test_drawing_error_leaves_no_temp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    def boom(*args, **kwargs):
        raise RuntimeError("drawing failed")

    monkeypatch.setattr("tokengen.outputs.build.SheetCanvas.place", boom)
    out = tmp_path / "x.pdf"
    out.write_bytes(OLD)
    with pytest.raises(RuntimeError):
        build_pdf(load_catalogue(MINIMAL), BuildOptions(sheet=SheetSpec(page=PAGES["letter"])), out)
    assert out.read_bytes() == OLD
    assert [p.name for p in tmp_path.iterdir()] == ["x.pdf"]


# ---- killed and interrupted builds --------------------------------------------------------------


def _default_sigint() -> None:
    """In the child: Ctrl-C as in a terminal. A test run started in the background by a shell
    (CI, a load test) inherits SIGINT ignored, and Python then never raises KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start_big_build(tmp_path: Path, out: Path) -> subprocess.Popen:
    """Start ``tokengen build --copies 20`` (360 tokens, 20 pages) and return it stopped (SIGSTOP)
    right after its first page, its temporary file open: the build stops itself at the test hook
    (:mod:`tokengen.io.testhook`) and this waits for that event, so no timing is guessed."""
    env = {**os.environ, testhook.ENV: "page"}
    proc = subprocess.Popen([*TOKENGEN, "build", str(ROOT / "token_defs.yaml"), "--copies", "20", "-o", str(out)],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            preexec_fn=_default_sigint)
    _, status = os.waitpid(proc.pid, os.WUNTRACED)  # returns when the child stops (or ends: then fail)
    assert os.WIFSTOPPED(status), (status, proc.communicate())
    assert list(tmp_path.glob(f".{out.name}.*.part")), "the build is in its page loop, writing a temporary file"
    return proc


def _signal_stopped(proc: subprocess.Popen, signum: int) -> None:
    """Send ``signum`` to a stopped build, then let it run on so it can handle the signal."""
    proc.send_signal(signum)
    os.kill(proc.pid, signal.SIGCONT)


def test_sigkill_midway_leaves_the_old_file(tmp_path: Path):
    out = tmp_path / "big.pdf"
    out.write_bytes(OLD)
    proc = _start_big_build(tmp_path, out)
    _signal_stopped(proc, signal.SIGKILL)
    proc.communicate()
    assert proc.returncode == -signal.SIGKILL
    assert out.read_bytes() == OLD  # never a truncated PDF
    # SIGKILL cannot be caught: a hidden .part file may remain (documented) ...
    leftovers = list(tmp_path.glob(".big.pdf.*.part"))
    assert all(p.stat().st_size == 0 or not p.read_bytes().endswith(b"%%EOF\n") for p in leftovers) or leftovers == []
    # ... and the next run that writes the same output removes it.
    assert subprocess.run([*TOKENGEN, "build", str(MINIMAL), "-o", str(out)], capture_output=True).returncode == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.pdf"]
    assert out.read_bytes().startswith(b"%PDF") and out.read_bytes().rstrip().endswith(b"%%EOF")


def test_sigkill_with_no_previous_file_leaves_nothing_usable(tmp_path: Path):
    out = tmp_path / "big.pdf"
    proc = _start_big_build(tmp_path, out)
    _signal_stopped(proc, signal.SIGKILL)
    proc.communicate()
    assert proc.returncode == -signal.SIGKILL
    assert not out.exists()


def test_ctrl_c_exits_130_with_one_line_and_cleans_up(tmp_path: Path):
    out = tmp_path / "big.pdf"
    out.write_bytes(OLD)
    proc = _start_big_build(tmp_path, out)
    _signal_stopped(proc, signal.SIGINT)
    stdout, stderr = proc.communicate()
    assert proc.returncode == 130
    assert stderr.strip() == "tokengen: interrupted"
    assert "Traceback" not in stderr
    assert out.read_bytes() == OLD
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.pdf"]


def test_stale_parts_of_live_runs_are_kept(tmp_path: Path):
    target = tmp_path / "x.pdf"
    live = tmp_path / f".x.pdf.{os.getppid()}.abc.part"
    dead_pid = 2 ** 22 + 12345  # above the kernel's pid_max default
    dead = tmp_path / f".x.pdf.{dead_pid}.abc.part"
    other = tmp_path / f".y.pdf.{dead_pid}.abc.part"
    for p in (live, dead, other):
        p.write_bytes(b"")
    assert atomic.remove_stale_parts(target) == [dead]
    assert live.exists() and other.exists() and not dead.exists()


def test_device_or_fifo_output_is_refused(run, tmp_path: Path):
    fifo = tmp_path / "pipe.pdf"
    os.mkfifo(fifo)
    result = run("build", str(MINIMAL), "-o", str(fifo))
    assert (result.exit_code, result.stderr) == (2, f"tokengen: error: {fifo}: is a FIFO or pipe, not a regular file; give a file name to write\n")
    assert run("build", str(MINIMAL), "-o", "/dev/null").exit_code == 2
    assert Path("/dev/null").is_char_device()


def test_symlinked_output_writes_through_the_link(run, tmp_path: Path):
    real = tmp_path / "real.pdf"
    real.write_bytes(OLD)
    link = tmp_path / "link.pdf"
    link.symlink_to(real)
    assert run("build", str(MINIMAL), "-o", str(link)).exit_code == 0
    assert link.is_symlink() and real.read_bytes().startswith(b"%PDF") and real.read_bytes() != OLD


def test_catalogue_from_an_endless_device_is_bounded(run, tmp_path: Path):
    result = run("build", "/dev/zero", "-o", str(tmp_path / "x.pdf"))
    assert (result.exit_code, result.stderr) == (2, "tokengen: error: /dev/zero: is a character device, not a regular file (save it to a file and give that)\n")


def test_art_symlink_loop_is_an_error_not_a_crash(run, tmp_path: Path):
    cats = tmp_path / "cats"
    cats.mkdir()
    (cats / "loop.png").symlink_to("loop.png")
    cat = catalogue_with_art(cats, "loop.png")
    result = run("build", str(cat), "-o", str(tmp_path / "x.pdf"))
    assert (result.exit_code, result.stderr) == (
        2, f"tokengen: error: {cat}:2: style.art: art path 'loop.png' cannot be used: a symlink loop\n")


def test_sigterm_midway_exits_143_and_cleans_up(tmp_path: Path):
    out = tmp_path / "big.pdf"
    out.write_bytes(OLD)
    proc = _start_big_build(tmp_path, out)
    _signal_stopped(proc, signal.SIGTERM)
    proc.communicate()
    assert proc.returncode == 143
    assert out.read_bytes() == OLD
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.pdf"]


def test_output_onto_an_art_file_is_refused(run, tmp_path: Path):
    cats = tmp_path / "cats"
    cats.mkdir()
    png = cats / "face.png"
    Image.new("RGB", (4, 4), "blue").save(png)
    before = png.read_bytes()
    cat = catalogue_with_art(cats, "face.png")
    result = run("build", str(cat), "-o", str(png))
    assert (result.exit_code, result.stderr) == (2, f"tokengen: error: {png}: output would overwrite an input file\n")
    assert png.read_bytes() == before


# ---- power cuts: the data is on the disk before the rename (fsync) --------------------------------


def _record_syncs(monkeypatch: pytest.MonkeyPatch, fail: Exception | None = None, fail_folders: bool = False) -> list[tuple]:
    """Record each fsync (the inode synced and whether it is a folder) and each rename, in order."""
    events: list[tuple] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd: int) -> None:
        info = os.fstat(fd)
        folder = stat.S_ISDIR(info.st_mode)
        events.append(("fsync", info.st_ino, folder))
        if fail is not None and folder == fail_folders:
            raise fail
        real_fsync(fd)

    def replace(src, dst) -> None:
        events.append(("replace", os.stat(src).st_ino, Path(dst).name))
        real_replace(src, dst)

    monkeypatch.setattr(atomic.os, "fsync", fsync)
    monkeypatch.setattr(atomic.os, "replace", replace)
    return events


def test_each_file_is_synced_before_its_rename_and_the_folder_after(run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    events = _record_syncs(monkeypatch)
    face, backs = tmp_path / "x.pdf", tmp_path / "x-backs.pdf"
    face.write_bytes(OLD)
    result = run("build", str(MINIMAL), "--backs", "separate", "-o", str(face))
    assert result.exit_code == 0, result.stderr
    assert events == [("fsync", face.stat().st_ino, False), ("fsync", backs.stat().st_ino, False),
                      ("replace", face.stat().st_ino, "x.pdf"), ("replace", backs.stat().st_ino, "x-backs.pdf"),
                      ("fsync", tmp_path.stat().st_ino, True)]
    assert face.read_bytes().startswith(b"%PDF") and backs.read_bytes().startswith(b"%PDF")


def test_atomic_path_syncs_file_then_renames_then_syncs_the_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    events = _record_syncs(monkeypatch)
    target = tmp_path / "out.bin"
    with atomic.atomic_path(target) as temp:
        temp.write_bytes(b"new data")
    ino = target.stat().st_ino
    assert events == [("fsync", ino, False), ("replace", ino, "out.bin"), ("fsync", tmp_path.stat().st_ino, True)]
    assert target.read_bytes() == b"new data"


def test_a_folder_that_cannot_be_synced_is_tolerated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    events = _record_syncs(monkeypatch, OSError(errno.EINVAL, os.strerror(errno.EINVAL)), fail_folders=True)
    target = tmp_path / "out.bin"
    with atomic.atomic_path(target) as temp:
        temp.write_bytes(b"new data")
    assert target.read_bytes() == b"new data"
    assert [e[0] for e in events] == ["fsync", "replace", "fsync"]
    assert [p.name for p in tmp_path.iterdir()] == ["out.bin"]


def test_a_file_sync_failure_keeps_every_previous_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    events = _record_syncs(monkeypatch, OSError(errno.EIO, os.strerror(errno.EIO)))
    first, second = tmp_path / "a.pdf", tmp_path / "b.pdf"
    first.write_bytes(OLD)
    with pytest.raises(atomic.ExportError) as info, atomic.atomic_files([first, second]) as temps:
        for temp in temps:
            temp.write_bytes(b"new")
    assert str(info.value) == f"{first}: write failed: Input/output error"
    assert [e[0] for e in events] == ["fsync"]  # nothing renamed
    assert first.read_bytes() == OLD
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.pdf"]
