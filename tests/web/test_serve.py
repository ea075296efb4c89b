"""tokengen serve without a browser: the same bytes as the CLI, the CLI's messages, refusals,
nothing written beside the catalogue, two clients and a rebuild during a download."""

from __future__ import annotations

import io
import json
import shutil
import socket
import threading
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import pytest

from tests.conftest import CATALOGUE
from tests.servekit import HANG, Server, replace, snapshot

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
from starlette.testclient import TestClient  # noqa: E402

from tokengen.web.server import MAX_QUERY, create_app  # noqa: E402


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    cat = tmp_path / "game"
    cat.mkdir()
    shutil.copy(CATALOGUE, cat / "token_defs.yaml")
    return cat


@pytest.fixture
def client(folder: Path, tmp_path: Path, monkeypatch):
    monkeypatch.chdir(folder)
    work = tmp_path / "work"
    work.mkdir()
    app = create_app(Path("token_defs.yaml"), workdir=work, watch=False, hosts=("testserver",))
    with TestClient(app) as c:
        yield c


def test_page_loads_with_labelled_controls_and_no_outside_resources(client):
    page = client.get("/")
    assert page.status_code == 200
    text = page.text
    for control in ("page", "landscape", "size", "scale", "copies", "fill", "backs", "flip", "back_offset", "printer_scale",
                    "rules", "profile"):
        assert f'id="{control}"' in text
        assert f'for="{control}"' in text or f'id="{control}" name="{control}"> ' in text  # label for=, or wrapping label
    assert "http://" not in text and "https://" not in text  # no CDN
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert client.get("/static/app.js").status_code == 200


def test_render_shows_pages_check_and_log(client):
    data = client.get("/api/render?page=a4&backs=duplex").json()
    assert data["error"] is None
    assert data["log"][0].startswith("wrote meatshields.pdf: 18 tokens") and "1 back page" in data["log"][0]
    assert len(data["pages"]) == 2
    from PIL import Image

    png = client.get(data["pages"][0])
    assert png.headers["content-type"] == "image/png"
    assert Image.open(io.BytesIO(png.content)).size == (827, 1169)  # A4 at 100 DPI
    assert data["check"]["playable"] is True
    assert any(f["code"] == "draw-odds" and f["data"]["rows"] for f in data["check"]["findings"])
    assert data["args"] == ["tokengen", "build", "token_defs.yaml", "--page=a4", "--backs=duplex"]


@pytest.mark.parametrize(("query", "cli"), [
    ("page=a4&backs=duplex&flip=short&back_offset=0.5mm,-1mm", ["--page", "a4", "--backs", "duplex", "--flip", "short", "--back-offset", "0.5mm,-1mm"]),
    ("size=25mm&copies=3&fill=on&rules=on&printer_scale=100.4%25,99.7%25&landscape=on",
     ["--size", "25mm", "--copies", "3", "--fill", "--rules", "--printer-scale", "100.4%,99.7%", "--landscape"]),
    ("scale=1.25&crop_marks=on&no_cut_lines=on&margin=0.5in", ["--scale", "1.25", "--crop-marks", "--no-cut-lines", "--margin", "0.5in"]),
])
def test_home_pdf_is_the_bytes_the_cli_writes(client, run, tmp_path: Path, query: str, cli: list[str]):
    out = tmp_path / "cli.pdf"
    result = run("build", "token_defs.yaml", "-o", str(out), *cli)
    assert result.exit_code == 0, result.stderr
    download = client.get(f"/download/home?{query}")
    assert download.status_code == 200, download.text
    assert download.headers["content-disposition"] == 'attachment; filename="meatshields.pdf"'
    assert download.content == out.read_bytes()


def test_separate_backs_download(client, run, tmp_path: Path):
    out = tmp_path / "cli.pdf"
    assert run("build", "token_defs.yaml", "-o", str(out), "--backs", "separate").exit_code == 0
    data = client.get("/api/render?backs=separate").json()
    assert data["backs"] is True
    assert client.get("/download/home?backs=separate").content == out.read_bytes()
    assert client.get("/download/backs?backs=separate").content == (tmp_path / "cli-backs.pdf").read_bytes()


def test_shop_files_are_the_cli_export(client, run, tmp_path: Path):
    assert run("export", "token_defs.yaml", "--profile", "print-shop", "-o", str(tmp_path / "shop")).exit_code == 0
    pdf = client.get("/download/shop?profile=print-shop")
    assert pdf.headers["content-type"] == "application/pdf"
    assert pdf.content == (tmp_path / "shop" / "meatshields-print-shop.pdf").read_bytes()

    assert run("export", "token_defs.yaml", "--profile", "tgc-chits", "-o", str(tmp_path / "chits")).exit_code == 0
    archive = client.get("/download/shop?profile=tgc-chits")
    assert archive.headers["content-type"] == "application/zip"
    assert archive.headers["content-disposition"] == 'attachment; filename="meatshields-tgc-chits.zip"'
    with zipfile.ZipFile(io.BytesIO(archive.content)) as z:
        names = z.namelist()
        assert sorted(names) == sorted(p.name for p in (tmp_path / "chits").iterdir())
        for name in names:
            assert z.read(name) == (tmp_path / "chits" / name).read_bytes(), name


def test_alignment_test_is_the_cli_one(client, run, tmp_path: Path):
    out = tmp_path / "align.pdf"
    assert run("align", "--page", "a4", "--landscape", "--flip", "short", "--back-offset", "0.5mm,-1mm", "-o", str(out)).exit_code == 0
    got = client.get("/download/align?page=a4&landscape=on&flip=short&back_offset=0.5mm,-1mm")
    assert got.status_code == 200
    assert got.content == out.read_bytes()


@pytest.mark.parametrize(("query", "cli"), [
    ("copies=0", ["--copies", "0"]),
    ("page=b77", ["--page", "b77"]),  # b7 is a page (ReportLab's table); b77 is not
    ("size=3", ["--size", "3"]),
    ("backs=duplex&back_offset=1mm", ["--backs", "duplex", "--back-offset", "1mm"]),
    ("back_offset=1mm,1mm", ["--back-offset", "1mm,1mm"]),
    ("printer_scale=120%25", ["--printer-scale", "120%"]),
    ("size=1in&scale=2", ["--size", "1in", "--scale", "2"]),
    ("backs=triplex", ["--backs=triplex"]),
])
def test_bad_values_get_the_cli_message(client, run, tmp_path: Path, query: str, cli: list[str]):
    result = run("build", "token_defs.yaml", "-o", str(tmp_path / "x.pdf"), *cli)
    assert result.exit_code == 2
    expected = result.stderr.removeprefix("tokengen: error: ").rstrip("\n")
    # the CLI was given "--flag value", the page "--flag=value": click's message is the same
    data = client.get(f"/api/render?{query}").json()
    assert data["error"] == expected
    assert data["pages"] == []
    download = client.get(f"/download/home?{query}")
    assert download.status_code == 400 and download.text == expected + "\n"


def test_unknown_profile_gets_the_cli_message(client, run, tmp_path: Path):
    result = run("export", "token_defs.yaml", "--profile", "nope", "-o", str(tmp_path / "x"))
    got = client.get("/download/shop?profile=nope")
    assert got.status_code == 400
    assert got.text == result.stderr.removeprefix("tokengen: error: ")


@pytest.mark.parametrize(("method", "url", "kwargs", "status", "message"), [
    ("GET", "/api/render?colour=red", {}, 400, "unknown field 'colour'"),
    ("GET", "/api/render?page=" + "a" * 101, {}, 400, "page: longer than 100 characters"),
    ("GET", "/api/render?page=a4&page=letter", {}, 400, "page: given twice"),
    ("GET", "/api/render?" + "x" * (MAX_QUERY + 1), {}, 414, f"query longer than {MAX_QUERY} bytes"),
    ("POST", "/api/render", {"content": b"x" * 10}, 405, "POST: only GET and HEAD are served"),
    ("GET", "/api/render", {"content": b"x" * 10}, 413, "request bodies are refused (limit: 0 bytes)"),
    ("GET", "/files/..%2F..%2Fetc%2Fpasswd", {}, 403, "refused: outside the catalogue's folder"),
    ("GET", "/files/%2Fetc%2Fpasswd", {}, 403, "refused: outside the catalogue's folder"),
    ("GET", "/files/missing.png", {}, 404, "not found"),
    ("GET", "/", {"headers": {"host": "evil.example"}}, 400, "Invalid host header"),
])
def test_refusals(client, method: str, url: str, kwargs: dict, status: int, message: str):
    response = client.request(method, url, **kwargs)
    assert response.status_code == status
    body = response.json()["error"] if response.headers["content-type"].startswith("application/json") else response.text
    assert body.strip() == message


def test_files_serves_only_the_catalogue_folder(client, folder: Path, tmp_path: Path):
    assert client.get("/files/token_defs.yaml").content == (folder / "token_defs.yaml").read_bytes()
    (tmp_path / "secret.txt").write_text("secret")
    (folder / "link.txt").symlink_to(tmp_path / "secret.txt")
    assert client.get("/files/link.txt").status_code == 403
    (folder / ".hidden").write_text("x")
    assert client.get("/files/.hidden").status_code == 404


def test_path_traversal_over_a_raw_socket_is_refused(folder: Path, tmp_path: Path):
    """No client normalises the path here: the request line carries ../ as typed."""
    server = Server(folder / "token_defs.yaml", cwd=tmp_path)
    try:
        for path in ("/files/../../../../etc/passwd", "/files/..%2f..%2f..%2fetc%2fpasswd", "/static/../../../../etc/passwd",
                     "/files/%2e%2e/%2e%2e/%2e%2e/etc/passwd"):
            with socket.create_connection(("127.0.0.1", server.port), timeout=HANG) as s:
                s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nConnection: close\r\n\r\n".encode())
                answer = b""
                while chunk := s.recv(65536):
                    answer += chunk
            status = int(answer.split(b" ", 2)[1])
            assert status in (403, 404), (path, answer[:200])
            assert b"root:" not in answer
    finally:
        assert server.stop() == 130  # Ctrl-C: exit 130, as every command


def test_listens_on_loopback_only_and_cleans_up(folder: Path, tmp_path: Path):
    private = tmp_path / "tmp"
    private.mkdir()
    server = Server(folder / "token_defs.yaml", cwd=tmp_path, tmpdir=private)
    try:
        assert server.url.startswith("http://127.0.0.1:")
        assert _get(f"{server.url}/download/home").startswith(b"%PDF-")
        assert [p.name[:15] for p in private.iterdir()] == ["tokengen-serve-"]  # its work folder
        table = Path("/proc/net/tcp")
        if table.is_file():  # Linux: the listening socket of that port is bound to 127.0.0.1 (0100007F), no other
            listening = [line.split()[1] for line in table.read_text().splitlines()[1:]
                         if line.split()[3] == "0A" and int(line.split()[1].split(":")[1], 16) == server.port]
            assert listening == [f"0100007F:{server.port:04X}"]
            six = Path("/proc/net/tcp6")
            assert not six.is_file() or not [line for line in six.read_text().splitlines()[1:]
                                             if line.split()[3] == "0A" and int(line.split()[1].split(":")[1], 16) == server.port]
    finally:
        assert server.stop() == 130  # Ctrl-C: exit 130, as every command
    assert server.lines.get(timeout=HANG) == "stopped serving"
    assert list(private.iterdir()) == []  # removed on Ctrl-C


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=HANG) as response:
        return response.read()


def test_two_clients_and_a_rebuild_during_a_download(folder: Path, tmp_path: Path, run):
    cat = folder / "token_defs.yaml"
    text = cat.read_text(encoding="utf-8")
    before = snapshot(folder)
    for name, args in (("a4", ["--page", "a4", "--backs", "duplex"]), ("letter", ["--rules"])):
        assert run("build", str(cat), "-o", str(tmp_path / f"{name}.pdf"), *args).exit_code == 0
    assert run("export", str(cat), "--profile", "tgc-chits", "-o", str(tmp_path / "old")).exit_code == 0
    server = Server(cat, cwd=tmp_path)
    try:
        results: dict[str, bytes] = {}

        def fetch(name: str, query: str) -> None:
            results[name] = _get(f"{server.url}/download/{query}")

        threads = [threading.Thread(target=fetch, args=("a4", "home?page=a4&backs=duplex")),
                   threading.Thread(target=fetch, args=("letter", "home?rules=on")),
                   threading.Thread(target=fetch, args=("zip", "shop?profile=tgc-chits"))]
        generation = json.loads(_get(f"{server.url}/api/changes?since=-1"))["generation"]
        for t in threads:
            t.start()
        replace(cat, text.replace("size: 1in", "size: 0.75in"))  # a rebuild while the downloads run
        while json.loads(_get(f"{server.url}/api/changes?since={generation}"))["generation"] == generation:
            pass  # the long poll returns when the watcher has seen the edit
        new = json.loads(_get(f"{server.url}/api/render?page=a4"))
        assert new["error"] is None
        for t in threads:
            t.join(HANG)
        assert results["a4"] in ((tmp_path / "a4.pdf").read_bytes(), _cli_bytes(run, cat, tmp_path, "--page", "a4", "--backs", "duplex"))
        assert results["letter"] in ((tmp_path / "letter.pdf").read_bytes(), _cli_bytes(run, cat, tmp_path, "--rules"))
        with zipfile.ZipFile(io.BytesIO(results["zip"])) as z:
            assert z.testzip() is None and len(z.namelist()) == len(list((tmp_path / "old").iterdir()))
        assert _get(f"{server.url}/download/home?page=a4") == _cli_bytes(run, cat, tmp_path, "--page", "a4")
    finally:
        assert server.stop() == 130  # Ctrl-C: exit 130, as every command
    replace(cat, text)
    after = snapshot(folder)
    assert after.keys() == before.keys()  # nothing written beside the catalogue (only our own edits)


def _cli_bytes(run, cat: Path, tmp_path: Path, *args: str) -> bytes:
    out = tmp_path / "now.pdf"
    assert run("build", str(cat), "-o", str(out), *args).exit_code == 0
    return out.read_bytes()


def test_serve_without_the_catalogue(run, tmp_path: Path):
    result = run("serve", str(tmp_path / "none.yaml"))
    assert result.exit_code == 2
    assert "none.yaml: no such file" in result.stderr


def test_nothing_else_imports_the_web_package():
    import subprocess
    import sys

    code = ("import sys; from tokengen.cli import main; main(['build', '--help']); "
            "assert not any(m.startswith(('tokengen.web', 'starlette', 'uvicorn')) for m in sys.modules), sorted(sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=HANG).returncode == 0


def test_a_taken_port_is_one_line(run, folder: Path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = run("serve", str(folder / "token_defs.yaml"), "--port", str(port))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"tokengen: error: --port {port}: cannot listen on 127.0.0.1:{port}: ")
    assert result.stderr.count("\n") == 1


def test_a_long_run_shows_its_first_pages(client):
    from tokengen.web.server import MAX_SHOWN

    data = client.get("/api/render?copies=100").json()  # 1800 tokens, 60 to a Letter page
    assert data["error"] is None
    assert data["page_count"] == 30 and len(data["pages"]) == MAX_SHOWN == 12


def test_sigterm_stops_cleanly_too(folder: Path, tmp_path: Path):
    import signal

    private = tmp_path / "tmp"
    private.mkdir()
    server = Server(folder / "token_defs.yaml", cwd=tmp_path, tmpdir=private)
    assert _get(f"{server.url}/api/render")
    server.proc.send_signal(signal.SIGTERM)
    assert server.stop() == 143  # as every tokengen command answers a plain kill
    assert list(private.iterdir()) == []


GENERIC = """\
title: Counters
size: 0.5in
fields: {name: text}
template:
  - {text: "{name}", at: [0.5, 0.5], size: 0.3}
tokens:
  - {id: a, name: Alpha}
"""


def test_a_catalogue_of_another_game_gets_no_meatshield_words(tmp_path: Path, monkeypatch):
    """The page leaves out the rules sheet (Meatshields only) and the check has no readings."""
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "counters.yaml").write_text(GENERIC, "utf-8")
    monkeypatch.chdir(folder)
    work = tmp_path / "work"
    work.mkdir()
    app = create_app(Path("counters.yaml"), workdir=work, watch=False, hosts=("testserver",))
    with TestClient(app) as c:
        assert '<label class="check" hidden><input type="checkbox" id="rules" name="rules"> Rules sheet</label>' in c.get("/").text
        data = c.get("/api/render").json()
    assert data["error"] is None
    assert list(data["check"]) == ["catalogue", "playable", "counts", "game", "findings"]
    assert "Meatshield" not in json.dumps(data, ensure_ascii=False)


def test_a_meatshields_catalogue_offers_the_rules_sheet(client):
    assert '<label class="check"><input type="checkbox" id="rules" name="rules"> Rules sheet</label>' in client.get("/").text


@pytest.mark.parametrize(("query", "cli"), [
    ("scale=abc", ["--scale", "abc"]),
    ("scale=-1", ["--scale", "-1"]),
    ("gutter=x", ["--gutter", "x"]),
    ("margin=5in", ["--margin", "5in"]),
    ("size=0.1in", ["--size", "0.1in"]),
    ("backs=separate&flip=sideways", ["--backs", "separate", "--flip", "sideways"]),
    ("copies=many", ["--copies", "many"]),
])
def test_more_bad_values_get_the_cli_message(client, run, tmp_path: Path, query: str, cli: list[str]):
    """Click's words (float, Choice, IntRange), the library's (page fit, smallest size), the same on the page."""
    result = run("build", "token_defs.yaml", "-o", str(tmp_path / "x.pdf"), *cli)
    assert result.exit_code == 2
    assert client.get(f"/api/render?{query}").json()["error"] == result.stderr.removeprefix("tokengen: error: ").rstrip("\n")


@pytest.mark.parametrize(("query", "cli"), [
    ("page=zz", ["--page", "zz"]),
    ("back_offset=1mm", ["--back-offset", "1mm"]),
    ("printer_scale=80%25", ["--printer-scale", "80%"]),
    ("flip=sideways", ["--flip", "sideways"]),
])
def test_bad_alignment_values_get_the_cli_message(client, run, tmp_path: Path, query: str, cli: list[str]):
    result = run("align", "-o", str(tmp_path / "a.pdf"), *cli)
    assert result.exit_code == 2
    got = client.get(f"/download/align?{query}")
    assert got.status_code == 400 and got.text == result.stderr.removeprefix("tokengen: error: ")


def test_the_check_of_a_bad_page_is_the_cli_message(client, run):
    result = run("check", "token_defs.yaml", "--page", "zz")
    assert result.exit_code == 2
    data = client.get("/api/render?page=zz").json()
    assert data["check"] == {"error": result.stderr.removeprefix("tokengen: error: ").rstrip("\n")}
    assert data["error"] == result.stderr.removeprefix("tokengen: error: ").rstrip("\n").replace("tokengen check", "tokengen build")


def test_the_check_is_the_cli_json(client, run):
    result = run("check", "token_defs.yaml", "--format", "json", "--page", "a4", "--size", "25mm")
    cli = json.loads(result.stdout)
    assert (cli.pop("schema_version"), cli.pop("command")) == (1, "check")  # the report's head; the rest is the page's
    assert client.get("/api/render?page=a4&size=25mm").json()["check"] == cli


def test_the_page_log_is_the_cli_output(client, run, tmp_path: Path):
    """Separate backs: both 'wrote' lines, the folder left out as the page writes in its own."""
    out = tmp_path / "meatshields.pdf"
    result = run("build", "token_defs.yaml", "-o", str(out), "--backs", "separate", "--copies", "2")
    assert result.exit_code == 0
    expected = [line.replace(f"{tmp_path}/", "") for line in (result.stdout + result.stderr).splitlines() if line]
    assert client.get("/api/render?backs=separate&copies=2").json()["log"] == expected
    assert len(expected) == 2 and expected[1] == "wrote meatshields-backs.pdf: 1 back page"


def test_the_page_defaults_are_the_cli_defaults():
    """web/jobs.py cannot read the CLI's options (it imports nothing from tokengen.cli): its
    defaults for the blank fields must be those of tokengen build and align."""
    from tokengen.cli import cli
    from tokengen.web.jobs import BACKS, COPIES, DEFAULTS, FLIPS

    build = {p.name: p for p in cli.commands["build"].params}
    assert {name: build[name].default for name in ("page", "margin", "gutter", "home_bleed")} == \
        {name: DEFAULTS[name] for name in ("page", "margin", "gutter", "home_bleed")}
    assert (build["copies"].type.min, build["copies"].type.max) == (COPIES.min, COPIES.max)
    assert build["backs"].type.choices == BACKS.choices and build["flip"].type.choices == FLIPS.choices
    assert cli.commands["align"].params[[p.name for p in cli.commands["align"].params].index("flip")].default == DEFAULTS["flip"]


def test_the_page_prints_nothing(client, capfd):
    """The jobs call the library: no line goes to the server's stdout or stderr."""
    assert client.get("/api/render?backs=separate").json()["error"] is None
    assert client.get("/download/shop?profile=print-shop").status_code == 200
    assert client.get("/download/align").status_code == 200
    out, err = capfd.readouterr()
    assert (out, err) == ("", "")


def test_the_page_shows_the_catalogues_rules_and_odds(client):
    """The check report the page shows holds the catalogue's rules and odds (Meatshields
    declares 3 rules and 1 odd), and the page writes them as the command line does."""
    findings = client.get("/api/render").json()["check"]["findings"]
    rules = next(f for f in findings if f["code"] == "rules")
    assert rules["message"] == "all 3 rules hold" and [r["holds"] for r in rules["data"]["rules"]] == [True] * 3
    odds = next(f for f in findings if f["code"] == "odds")
    assert (odds["field"], odds["data"]["p"]) == ("odds[0]", "361/816")  # 1 - C(15,3)/C(18,3)
    script = client.get("/static/app.js").text
    assert '(f.code === "rule" || f.code === "odds")' in script
