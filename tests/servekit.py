"""Helpers for the ``tokengen serve`` tests: a real server in a child process, found by the
address it prints (an event, not a sleep)."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
from pathlib import Path

HANG = 120  # s: a failure guard only


class Server:
    """``tokengen serve CATALOGUE --port 0`` in a child process; ``url`` is read from its first line."""

    def __init__(self, catalogue: Path, cwd: Path, tmpdir: Path | None = None):
        code = "import sys; from tokengen.cli import run; sys.argv[0] = 'tokengen'; run()"
        self.proc = subprocess.Popen([sys.executable, "-c", code, "serve", str(catalogue), "--port", "0"], cwd=cwd,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     env={**os.environ, "PYTHONUNBUFFERED": "1", **({"TMPDIR": str(tmpdir)} if tmpdir else {})})
        self.lines: queue.Queue[str] = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        first = self.first = self.lines.get(timeout=HANG)
        assert first.startswith("serving ") and " at http://127.0.0.1:" in first, first
        self.url = first.split(" at ", 1)[1].split(" ", 1)[0].rstrip("/")
        self.port = int(self.url.rsplit(":", 1)[1])

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put("<EOF>")

    def stop(self) -> int:
        import signal

        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            code = self.proc.wait(HANG)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            self.reader.join(HANG)
            assert self.proc.stdout is not None
            self.proc.stdout.close()
        return code


def replace(path: Path, text: str) -> None:
    """Save as editors do: write a new file, rename it over the old one."""
    temp = path.with_name(".edit.tmp")
    temp.write_text(text, encoding="utf-8")
    os.replace(temp, path)


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file under ``folder`` with its size and modification time (ns)."""
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns) for p in sorted(folder.rglob("*"))}
