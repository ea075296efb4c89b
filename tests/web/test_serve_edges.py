"""tokengen serve at its edges: slow clients time out instead of locking everyone out, Ctrl-C
exits 130 and a stop with a tab open is clean, the bundled catalogue is served by name, and a
refused print-shop download says why without a server path."""

from __future__ import annotations

import http.client
import json
import shutil
import socket
import threading
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CATALOGUE, catalogue_with_art
from tests.servekit import HANG, Server

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
from starlette.testclient import TestClient  # noqa: E402

from tokengen.web import server as web  # noqa: E402


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    cat = tmp_path / "game"
    cat.mkdir()
    shutil.copy(CATALOGUE, cat / "token_defs.yaml")
    return cat


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=HANG) as response:
        return response.read()


def _serving(folder: Path, tmp_path: Path) -> tuple[Any, threading.Thread, socket.socket, int]:
    """A running server on a free port: (server, its thread, its socket, the port)."""
    ready = threading.Event()
    work = tmp_path / "work"
    work.mkdir()
    app = web.create_app(folder / "token_defs.yaml", workdir=work, watch=False, on_ready=ready.set)
    server = web.uvicorn_server(app)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    assert ready.wait(HANG)
    return server, thread, sock, sock.getsockname()[1]


def _status(port: int) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=HANG)
    conn.request("GET", "/static/style.css")
    code = conn.getresponse().status
    conn.close()
    return code


def test_slow_clients_hold_header_slots_not_the_requests_served(folder: Path, tmp_path: Path, monkeypatch):
    """70 clients that never finish their headers (more than the 64 requests served at once) wait
    in header slots of their own: a whole request is served at once beside them."""
    monkeypatch.setattr(web, "HEADER_TIMEOUT", HANG)
    server, thread, sock, port = _serving(folder, tmp_path)
    slow = [socket.create_connection(("127.0.0.1", port), timeout=HANG) for _ in range(70)]
    try:
        for s in slow:
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        assert _status(port) == 200
        assert 70 > web.MAX_CONNECTIONS and 70 < web.MAX_HEADER_SLOTS
    finally:
        for s in slow:
            s.close()
        server.should_exit = True
        thread.join(HANG)
        sock.close()


def test_clients_that_never_finish_their_headers_time_out(folder: Path, tmp_path: Path, monkeypatch):
    monkeypatch.setattr(web, "HEADER_TIMEOUT", 0.5)
    monkeypatch.setattr(web, "MAX_HEADER_SLOTS", 4)
    server, thread, sock, port = _serving(folder, tmp_path)
    slow = [socket.create_connection(("127.0.0.1", port), timeout=HANG) for _ in range(4)]
    try:
        for s in slow:  # the request line and one header, never the blank line that ends them
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")

        assert _status(port) == 503  # every slot is held
        for s in slow:  # each is answered and closed once its deadline passes (recv waits for it)
            answer = b""
            while chunk := s.recv(4096):
                answer += chunk
            head, _, body = answer.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 408 ")
            assert body == b"request headers not complete within 0.5 s\n"
        assert _status(port) == 200  # the slots are free again
    finally:
        for s in slow:
            s.close()
        server.should_exit = True
        thread.join(HANG)
        sock.close()


def _poll_forever(url: str) -> threading.Thread:
    """An open tab: a long poll waiting for the next change."""
    generation = json.loads(_get(f"{url}/api/changes?since=-1"))["generation"]
    done = threading.Event()

    def wait() -> None:
        conn = http.client.HTTPConnection(url.removeprefix("http://"), timeout=HANG)
        conn.request("GET", f"/api/changes?since={generation}")
        done.set()
        try:
            conn.getresponse().read()
        except OSError:
            pass
        conn.close()

    thread = threading.Thread(target=wait, daemon=True)
    thread.start()
    assert done.wait(HANG)
    return thread


def _rest(server: Server) -> list[str]:
    lines = []
    while (line := server.lines.get(timeout=HANG)) != "<EOF>":
        lines.append(line)
    return lines


@pytest.mark.parametrize(("signals", "code"), [(("SIGINT",), 130), (("SIGINT", "SIGINT"), 130), (("SIGTERM",), 143)])
def test_a_stop_with_a_tab_open_is_clean(folder: Path, tmp_path: Path, signals: tuple[str, ...], code: int):
    import signal

    private = tmp_path / "tmp"
    private.mkdir()
    server = Server(folder / "token_defs.yaml", cwd=tmp_path, tmpdir=private)
    poll = _poll_forever(server.url)
    for name in signals:
        server.proc.send_signal(getattr(signal, name))
    assert server.stop() == code
    poll.join(HANG)
    lines = _rest(server)
    assert not any("Traceback" in line or "Error" in line for line in lines), lines
    if code == 130:
        assert [line for line in lines if line] == ["stopped serving", "tokengen: interrupted"]
    else:
        assert lines == []
    assert list(private.iterdir()) == []  # the work folder is removed, a forced stop too


def test_ctrl_c_exits_130(folder: Path, tmp_path: Path):
    server = Server(folder / "token_defs.yaml", cwd=tmp_path)
    assert _get(f"{server.url}/download/home").startswith(b"%PDF-")
    assert server.stop() == 130
    assert [line for line in _rest(server) if line] == ["stopped serving", "tokengen: interrupted"]


def test_the_bundled_catalogue_is_served_by_name(tmp_path: Path, run):
    server = Server(Path("meatshields"), cwd=tmp_path)
    try:
        assert server.lines.qsize() == 0
        pdf = _get(f"{server.url}/download/home")
    finally:
        assert server.stop() == 130
    out = tmp_path / "cli.pdf"
    assert run("build", "meatshields", "-o", str(out)).exit_code == 0
    assert pdf == out.read_bytes()
    assert list(tmp_path.iterdir()) == [out]  # nothing written where it ran


def test_a_refused_shop_download_gives_the_preflight_lines_without_a_server_path(tmp_path: Path, monkeypatch):
    from PIL import Image

    folder = tmp_path / "game"
    folder.mkdir()
    Image.new("RGB", (20, 20), (200, 30, 30)).save(folder / "lo.png")  # 16 DPI on a 1.25 in token
    catalogue_with_art(CATALOGUE, {"str-low": "lo.png"}, folder / "token_defs.yaml")
    monkeypatch.chdir(folder)
    work = tmp_path / "work"
    work.mkdir()
    app = web.create_app(Path("token_defs.yaml"), workdir=work, watch=False, hosts=("testserver",))
    with TestClient(app) as client:
        answer = client.get("/download/shop?profile=print-shop")
    assert answer.status_code == 400
    lines = answer.text.splitlines()
    assert lines[0] == ("meatshields-print-shop.pdf fails preflight (images): "
                        "see tokengen preflight meatshields-print-shop.pdf --profile print-shop")
    assert [line.split()[:2] for line in lines[1:] if not line.startswith(" ")][:2] == [["PASS", "pages"], ["PASS", "boxes"]]
    images = next(line for line in lines if line.startswith("FAIL  images"))
    assert images.startswith("FAIL  images       page 1: image /FormXob.") and images.endswith(
        " in form /FormXob.face-str-low: 20 × 20 px placed at 1.250 × 1.250 in is 16 DPI, less than 300 (and 1 more)")
    assert str(work) not in answer.text and "job-" not in answer.text and str(tmp_path) not in answer.text


def test_every_aria_label_has_a_role_that_allows_it():
    """axe-core's aria-prohibited-attr (serious): a div or span with aria-label needs a role."""
    import re

    page = (Path(web.__file__).parent / "static" / "index.html").read_text("utf-8")
    for tag in re.findall(r"<(?:div|span|p)\b[^>]*aria-label[^>]*>", page):
        assert "role=" in tag, tag
    assert '<div id="error" role="alert" hidden></div>' in page
    assert '<div id="download-error" role="alert" hidden></div>' in page
