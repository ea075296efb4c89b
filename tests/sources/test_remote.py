"""Tokens read from a link (issue 43): ``tokens: http://…`` fetched once per run from a local HTTP
server (``http.server`` in a thread), kept in the cache with its fetch time, read from the cache
with ``--offline``, and refused by name past the size and time limits or towards another scheme.

The stalling server sends its headers and a few bytes, then waits on an event the test sets when
it is done: the time limit (``--max-fetch-seconds 0.2``) fires on the client's socket, whatever the
machine's speed; nothing here sleeps.
"""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

import pdfplumber
import pytest

from tests.conftest import write_sheet
from tokengen.sources import remote

CSV = "id,name,power\nwolf,Grey Wolf,3\nbear,Cave Bear,5\n"
CATALOGUE = """\
title: From a link
fields: {{name: text, power: integer}}
template:
  - {{text: "{{name}}", at: [0.5, 0.4], size: 0.12}}
  - {{text: "{{power}}", at: [0.5, 0.7], size: 0.12}}
tokens: {url}
"""


class Server:
    """A local HTTP server: ``/sheet.csv`` the table, ``/big`` 2 MiB without a length, ``/stall``
    headers then nothing, ``/to-file`` a redirect to ``file:///etc/passwd``; counts requests."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.requests: list[str] = []
        self.xlsx = b""
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:  # quiet
                pass

            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                outer.requests.append(self.path)
                if self.path == "/sheet.csv":
                    body = CSV.encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "text/csv")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                elif self.path == "/export?format=xlsx":  # an .xlsx behind a link without a suffix
                    body = outer.xlsx
                    self.send_response(200)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                elif self.path == "/big":
                    self.send_response(200)
                    self.end_headers()  # no Content-Length: the size is found while reading
                    line = b"x" * 1023 + b"\n"
                    try:
                        for _ in range(2048):
                            self.wfile.write(line)
                    except (BrokenPipeError, ConnectionResetError):  # the client stopped at its limit
                        pass
                elif self.path == "/stall":
                    self.send_response(200)
                    self.send_header("Content-Length", "1000")
                    self.end_headers()
                    self.wfile.write(b"id,name\n")
                    self.wfile.flush()
                    outer.release.wait()  # until the test is over
                elif self.path == "/to-file":
                    self.send_response(302)
                    self.send_header("Location", "file:///etc/passwd")
                    self.end_headers()
                else:
                    self.send_error(404)

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def close(self) -> None:
        self.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join()


@pytest.fixture
def server() -> Iterator[Server]:
    s = Server()
    yield s
    s.close()


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = tmp_path / "cache"
    monkeypatch.setenv("TOKENGEN_CACHE_DIR", str(folder))
    remote.configure(reset=True)
    yield folder
    remote.configure(reset=True)


def catalogue(folder: Path, url: str) -> Path:
    path = folder / "cat.yaml"
    path.write_text(CATALOGUE.format(url=url), "utf-8")
    return path


def words(pdf: Path) -> list[str]:
    with pdfplumber.open(pdf) as doc:
        return [w["text"] for w in doc.pages[0].extract_words()]


def test_a_build_reads_a_csv_link_once_and_offline_its_cache(run, server: Server, tmp_path: Path, cache: Path):
    cat = catalogue(tmp_path, server.base + "/sheet.csv")
    result = run("build", str(cat), "-o", str(tmp_path / "a.pdf"))
    assert result.exit_code == 0, result.stderr
    assert server.requests == ["/sheet.csv"]  # once per build
    assert {"Grey", "Wolf", "Cave", "Bear", "3", "5"} <= set(words(tmp_path / "a.pdf"))
    [record] = cache.glob("*.json")
    assert '"fetched": "' in record.read_text("utf-8") and [p.suffix for p in cache.glob("*.csv")] == [".csv"]

    server.close()  # nobody answers now
    offline = run("build", str(cat), "-o", str(tmp_path / "b.pdf"), "--offline")
    assert offline.exit_code == 0, offline.stderr
    fetched = record.read_text("utf-8").split('"fetched": "')[1].split('"')[0]
    assert offline.stderr == (f"tokengen: warning: {server.base}/sheet.csv: --offline: read the copy fetched {fetched} "
                              f"({len(CSV)} bytes)\n")
    assert result.stderr == ""  # online: nothing to say
    assert words(tmp_path / "b.pdf") == words(tmp_path / "a.pdf")
    assert server.requests == ["/sheet.csv"]


def test_a_failed_fetch_with_a_cached_copy_names_offline(run, server: Server, tmp_path: Path):
    cat = catalogue(tmp_path, server.base + "/sheet.csv")
    assert run("build", str(cat), "-o", str(tmp_path / "a.pdf")).exit_code == 0
    server.close()  # nobody answers now
    remote.configure(reset=True)  # a new run: nothing fetched in it yet
    result = run("build", str(cat), "-o", str(tmp_path / "b.pdf"))
    assert result.exit_code == 2 and "cannot fetch" in result.stderr
    assert result.stderr.endswith("; a copy fetched before is cached, and --offline reads it\n")


def test_offline_without_a_cache_is_one_line(run, server: Server, tmp_path: Path, cache: Path):
    cat = catalogue(tmp_path, server.base + "/sheet.csv")
    result = run("build", str(cat), "-o", str(tmp_path / "a.pdf"), "--offline")
    assert result.exit_code == 2 and server.requests == []
    assert result.stderr == (f"tokengen: error: {cat}:6: tokens: link {server.base}/sheet.csv: --offline and no cached copy "
                             f"in {cache} (build once online to fetch it)\n")


def test_too_big_is_refused_naming_the_limit_and_flag(run, server: Server, tmp_path: Path):
    cat = catalogue(tmp_path, server.base + "/big")
    result = run("build", str(cat), "-o", str(tmp_path / "a.pdf"), "--max-fetch-mb", "1")
    assert result.exit_code == 2
    assert result.stderr == (f"tokengen: error: {cat}:6: tokens: link {server.base}/big: larger than the limit of 1 MiB "
                             "(raise it with --max-fetch-mb)\n")


def test_a_stalled_server_meets_the_time_limit(run, server: Server, tmp_path: Path):
    cat = catalogue(tmp_path, server.base + "/stall")
    result = run("--max-fetch-seconds", "0.2", "build", str(cat), "-o", str(tmp_path / "a.pdf"))
    assert result.exit_code == 2
    assert result.stderr == (f"tokengen: error: {cat}:6: tokens: link {server.base}/stall: no answer within 0.2 s "
                             "(the time limit; raise it with --max-fetch-seconds)\n")


def test_a_redirect_to_a_file_is_not_followed(run, server: Server, tmp_path: Path):
    cat = catalogue(tmp_path, server.base + "/to-file")
    result = run("build", str(cat), "-o", str(tmp_path / "a.pdf"))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"tokengen: error: {cat}:6: tokens: link {server.base}/to-file: cannot fetch: "
                                    "redirected to a file address (file:///etc/passwd); only http and https are followed"), result.stderr


@pytest.mark.parametrize("url", ["file:///etc/passwd", "ftp://example.org/t.csv"])
def test_only_http_and_https_links(run, tmp_path: Path, url: str):
    cat = catalogue(tmp_path, url)
    result = run("build", str(cat), "-o", str(tmp_path / "a.pdf"))
    assert result.exit_code == 2
    scheme = url.split(":")[0]
    assert result.stderr == f"tokengen: error: {cat}:6: tokens: link {url}: only http and https links are read, not {scheme}\n"


def test_a_bad_cell_names_the_link_and_row(run, server: Server, tmp_path: Path):
    """The fetched bytes go through the same reader and schema as a local table."""
    global CSV
    old, CSV = CSV, "id,name,power\nwolf,Grey Wolf,lots\n"
    try:
        cat = catalogue(tmp_path, server.base + "/sheet.csv")
        result = run("build", str(cat), "-o", str(tmp_path / "a.pdf"))
    finally:
        CSV = old
    assert result.exit_code == 2
    assert result.stderr.startswith(f"tokengen: error: {server.base}/sheet.csv:2: "), result.stderr
    assert "power" in result.stderr and "lots" in result.stderr


def test_an_xlsx_link_is_read_as_a_workbook(run, server: Server, tmp_path: Path, cache: Path):
    """Whether the answer is CSV or XLSX is read from its bytes, not from the link."""
    sheet = tmp_path / "book"
    sheet.mkdir()
    server.xlsx = write_sheet(sheet, [["id", "name", "power"], ["owl", "Snow Owl", 2]]).read_bytes()
    cat = catalogue(tmp_path, server.base + "/export?format=xlsx")
    result = run("--offline", "build", str(cat), "-o", str(tmp_path / "none.pdf"))
    assert result.exit_code == 2 and server.requests == []  # offline before the command too: nothing fetched
    result = run("build", str(cat), "-o", str(tmp_path / "a.pdf"))
    assert result.exit_code == 0, result.stderr
    assert {"Snow", "Owl", "2"} <= set(words(tmp_path / "a.pdf"))
    assert [p.suffix for p in cache.iterdir() if p.suffix != ".json"] == [".xlsx"]


def test_check_offline_names_the_link_as_written(run, server: Server, tmp_path: Path):
    cat = catalogue(tmp_path, server.base + "/sheet.csv")
    assert run("build", str(cat), "-o", str(tmp_path / "a.pdf")).exit_code == 0
    result = run("check", str(cat), "--offline")
    assert f"{server.base}/sheet.csv: warning spreadsheet" in result.stdout, result.stdout
    assert "http:/1" not in result.stdout
