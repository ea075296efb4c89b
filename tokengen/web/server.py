"""The routes, jobs and safety rules of ``tokengen serve`` (Starlette app, uvicorn server).

Routes (all GET or HEAD; a request with a body, any other method, a query longer than
:data:`MAX_QUERY` bytes or a path longer than :data:`MAX_PATH` is refused before any work):

* ``/``: the page (``static/index.html``); ``/static/…``: its own CSS and script (no CDN).
* ``/api/render?FIELDS``: build the sheet for the form's fields, render every page to PNG at
  :data:`PREVIEW_DPI`, run ``check``; JSON with the page URLs, the CLI's output lines, the
  error (one line, as the CLI prints it) and the check report.
* ``/render/KEY/N.png``: page N of a render (kept in memory, the last :data:`CACHE_SIZE`).
* ``/api/changes?since=G``: long poll; answers with the catalogue's generation once an input
  changed (the same watcher as ``build --watch``) or after :data:`POLL_SECONDS`.
* ``/download/home``, ``/download/backs``, ``/download/shop?profile=NAME[&image_url=URL]``,
  ``/download/align``: the home PDF, the separate backs PDF, the print-shop files (the PDF, or a
  zip of the files when a profile writes several, such as the PNG chits or a Tabletop Simulator
  save, whose ``image_url`` is the address its images will be uploaded to) and the duplex
  alignment test.
* ``/files/PATH``: a file inside the catalogue's folder (art, the catalogue); a path that
  resolves outside it (``..``, a symlink) is refused with 403.

How options are handled: the form's fields (:data:`FIELDS`, each at most :data:`MAX_VALUE`
characters) are checked and turned into library calls by the page's own handlers
(:mod:`tokengen.web.jobs`: build, check, export, alignment test), with the CLI's ranges and
messages (:mod:`tokengen.outputs.summary`) and the CLI's bytes; nothing here imports
:mod:`tokengen.cli`. The jobs write into a private temporary folder, never into the catalogue's
folder; the results are served from memory, so a rebuild during a download cannot change the
file being sent. The equivalent command line (``build_args``) is only shown on the page.
The server listens on 127.0.0.1 only and answers only requests whose Host is 127.0.0.1 or
localhost (a DNS-rebinding page cannot reach it).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import html
import io
import json
import logging
import shutil
import socket
import tempfile
import threading
import zipfile
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..errors import TokengenError
from ..sources import bundled
from . import jobs

STATIC = Path(__file__).resolve().parent / "static"
#: Longest query string and path accepted (bytes).
MAX_QUERY = 2048
MAX_PATH = 1024
#: Longest value of one form field (characters).
MAX_VALUE = 100
#: Resolution of the pages shown (px per in): US Letter is 850 × 1100 px.
PREVIEW_DPI = 100
#: Pages shown (the first ones; the PDF to download has them all).
MAX_SHOWN = 12
#: The form's values :func:`tokengen.web.jobs.check` reads (``tokengen check``'s options).
CHECKED = ("page", "margin", "size")
#: Renders kept in memory.
CACHE_SIZE = 8
#: Longest wait of a long poll (s).
POLL_SECONDS = 20.0
#: Form fields: the build options, plus the print profile and (tts) image URL for the shop download.
FIELDS = ("page", "landscape", "margin", "gutter", "crop_marks", "no_cut_lines", "size", "scale", "copies", "fill",
          "backs", "flip", "back_offset", "printer_scale", "rules", "profile", "image_url")
#: Longest wait for a request's headers (s), from the connection or the request's first byte:
#: a client that never finishes them is disconnected, so slow clients cannot hold every slot.
HEADER_TIMEOUT = 10.0
#: Longest wait for the next request on an idle kept-alive connection (s).
KEEP_ALIVE = 5
#: Requests served at once (renders, downloads, long polls); past this a request gets 503 until
#: one ends.
MAX_CONNECTIONS = 64
#: Connections still sending their request's headers at once (each for at most
#: :data:`HEADER_TIMEOUT` s); past this a new connection gets 503 and is closed. Apart from
#: :data:`MAX_CONNECTIONS`, so clients that send their headers slowly cannot lock out the requests
#: that are being served or that arrive whole.
MAX_HEADER_SLOTS = 256
#: Hosts a request may name (plus ``localhost`` with any port).
HOSTS = ("127.0.0.1", "localhost")

SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; img-src 'self'; style-src 'self'; script-src 'self'; "
                                 b"connect-src 'self'; frame-ancestors 'none'; form-action 'self'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cache-control", b"no-store"),
]


class Refused(Exception):
    """A request refused with ``status`` and a one-line ``message``."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class Rendered:
    """One render of the sheet: what the page shows and what the download buttons send."""

    key: str
    generation: int
    args: list[str]
    error: str | None = None
    log: list[str] = field(default_factory=list)
    pages: list[bytes] = field(default_factory=list)
    pdf: bytes | None = None
    backs: bytes | None = None
    name: str = "tokens.pdf"
    check: dict[str, Any] | None = None
    page_count: int = 0


# --- the form -------------------------------------------------------------------------------

def form_values(query: str) -> dict[str, str]:
    """The form fields of a query string, checked: known names only, each once, each at most
    :data:`MAX_VALUE` characters. Raises :class:`Refused` (400)."""
    try:
        pairs = parse_qsl(query, keep_blank_values=True, max_num_fields=2 * len(FIELDS), strict_parsing=False)
    except ValueError:
        raise Refused(400, f"too many fields (at most {len(FIELDS)})") from None
    values: dict[str, str] = {}
    for key, value in pairs:
        if key not in FIELDS:
            raise Refused(400, f"unknown field {key[:40]!r}")
        if key in values:
            raise Refused(400, f"{key}: given twice")
        if len(value) > MAX_VALUE or "\x00" in value:
            raise Refused(400, f"{key}: longer than {MAX_VALUE} characters")
        values[key] = value.strip()
    return values


def build_args(values: dict[str, str]) -> list[str]:
    """The ``tokengen build`` options the page shows as the equivalent command line
    (``--name=value``); the build itself is :func:`tokengen.web.jobs.build`."""
    args: list[str] = []
    for name, flag in (("page", "--page"), ("margin", "--margin"), ("gutter", "--gutter"), ("size", "--size"),
                       ("scale", "--scale"), ("copies", "--copies"), ("printer_scale", "--printer-scale")):
        if values.get(name):
            args.append(f"{flag}={values[name]}")
    for name, flag in (("landscape", "--landscape"), ("crop_marks", "--crop-marks"), ("no_cut_lines", "--no-cut-lines"),
                       ("rules", "--rules")):
        if jobs.on(values.get(name)):
            args.append(flag)
    if jobs.on(values.get("fill")):
        args.append("--fill")
    if values.get("backs"):
        args.append(f"--backs={values['backs']}")
        if values.get("flip"):
            args.append(f"--flip={values['flip']}")
    if values.get("back_offset"):
        args.append(f"--back-offset={values['back_offset']}")
    return args


def zip_bytes(files: list[Path]) -> bytes:
    """A deterministic zip of ``files`` (in order, by name, fixed timestamps)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in files:
            info = zipfile.ZipInfo(path.name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, path.read_bytes())
    return buffer.getvalue()


# --- state --------------------------------------------------------------------------------------

class State:
    """The served catalogue, its generation (bumped by the watcher on every input change), the
    private work folder and the render cache."""

    def __init__(self, catalogue: Path, workdir: Path):
        self.catalogue = catalogue.absolute()
        self.given = str(catalogue)  # as the user typed it: messages name it as the CLI would
        self.root = self.catalogue.parent.resolve()
        self.workdir = workdir
        self.generation = 0
        self.cache: OrderedDict[str, Rendered] = OrderedDict()
        self.downloads: OrderedDict[str, tuple[str, bytes, str]] = OrderedDict()
        self.checks: OrderedDict[str, dict[str, Any]] = OrderedDict()  # check reports by generation and CHECKED values
        self.cache_lock = threading.Lock()
        self.stop = threading.Event()
        self.watching = threading.Event()  # set once the watcher sees every later change
        self.loop: asyncio.AbstractEventLoop | None = None
        self.changed: asyncio.Event | None = None
        self.counter = 0
        self.own_workdir = False  # the work folder is ours to remove (create_app made it)

    def closing(self) -> None:
        """The server is stopping: the watcher stops, every long poll answers now (runs in the
        event loop), so no request is left to be cancelled."""
        self.stop.set()
        if self.changed is not None:
            self.changed.set()

    def remove_workdir(self) -> None:
        """Remove the private work folder when it is ours (also after a forced stop, when the
        app's own shutdown does not run)."""
        if self.own_workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)

    # the watcher thread (tokengen.outputs.watch, as build --watch) ---------------------------------
    def watch(self) -> None:
        from ..outputs.watch import catalogue_inputs, changes

        try:
            for _ in changes(lambda: catalogue_inputs(self.catalogue), self.stop, on_ready=lambda inputs: self.watching.set()):
                if self.loop is not None:
                    self.loop.call_soon_threadsafe(self.bump)
        except TokengenError:  # the catalogue's folder is gone: one last render shows the missing file
            if self.loop is not None:
                self.loop.call_soon_threadsafe(self.bump)

    def bump(self) -> None:
        """A new generation: wake every long poll (runs in the event loop)."""
        self.generation += 1
        if self.changed is not None:
            self.changed.set()
        self.changed = asyncio.Event()

    def _out(self, name: str) -> Path:
        with self.cache_lock:
            self.counter += 1
            folder = self.workdir / f"job-{self.counter}"
        folder.mkdir()
        return folder / name

    # jobs (run in a worker thread) ------------------------------------------------------------
    def render(self, values: dict[str, str]) -> Rendered:
        """Build, render and check for ``values`` (cached per generation and options)."""
        args = build_args(values)
        generation = self.generation
        key = hashlib.sha256(json.dumps([generation, args]).encode()).hexdigest()[:24]
        with self.cache_lock:
            if key in self.cache:
                self.cache.move_to_end(key)
                return self.cache[key]
        rendered = Rendered(key, generation, args, name=self._pdf_name())
        out = self._out(rendered.name)
        try:
            try:
                built = jobs.build(self.given, values, out)
            except TokengenError as exc:
                rendered.error = str(exc)
            else:
                from ..outputs.preview import page_count, png_bytes, render_pages

                rendered.log = [line.replace(str(out.parent) + "/", "") for line in built.lines]
                rendered.pdf = out.read_bytes()
                backs = built.result.backs_path
                rendered.backs = backs.read_bytes() if backs is not None and backs.exists() else None
                try:
                    with jobs.LIBRARY_LOCK:  # pdfium is not thread-safe (see LIBRARY_LOCK)
                        rendered.page_count = page_count(rendered.pdf)
                        rendered.pages = [png_bytes(image, PREVIEW_DPI) for image in render_pages(rendered.pdf, PREVIEW_DPI, limit=MAX_SHOWN)]
                except TokengenError as exc:
                    rendered.error = str(exc)
            rendered.check = self._check(generation, values)
        finally:
            shutil.rmtree(out.parent, ignore_errors=True)
        self._remember(self.cache, key, rendered)
        return rendered

    def _check(self, generation: int, values: dict[str, str]) -> dict[str, Any]:
        """``tokengen check``'s report for ``values`` (or its error), kept per generation and
        the values it reads (:data:`CHECKED`): an option it does not read (copies, backs,
        gutter, marks, …) reuses the report instead of reading and checking the catalogue again."""
        key = json.dumps([generation, [values.get(name) or "" for name in CHECKED]])
        with self.cache_lock:
            if key in self.checks:
                self.checks.move_to_end(key)
                return self.checks[key]
        try:
            report = jobs.check(self.given, values)
        except TokengenError as exc:
            report = {"error": str(exc)}
        self._remember(self.checks, key, report)
        return report

    def _pdf_name(self) -> str:
        """The download's name: the catalogue's title as a file name (``tokens.pdf`` when it
        cannot be read), from the catalogue kept while its files are unchanged."""
        from ..outputs.export import slug
        from ..sources.bundled import resolve
        from ..sources.catalogue import load_catalogue, load_unchanged

        path = resolve(self.given)  # as jobs.build reads it: the kept catalogue names its file as the user gave it
        try:
            with jobs.LIBRARY_LOCK:
                cat = load_unchanged(path) if path.absolute() == self.catalogue else load_catalogue(self.catalogue)
        except TokengenError:
            return "tokens.pdf"
        return f"{slug(cat.title)}.pdf"

    def shop(self, profile: str, image_url: str | None = None) -> tuple[str, bytes, str]:
        """The print-shop files of ``profile`` (a ``tts`` one with ``image_url``, the
        ``--image-url``): (file name, bytes, media type)."""
        key = json.dumps([self.generation, profile, image_url])
        with self.cache_lock:
            if key in self.downloads:
                return self.downloads[key]
        folder = self._out("shop")
        try:
            try:
                written = jobs.export(self.given, profile, folder, image_url)
            except TokengenError as exc:  # the message and any preflight lines, without the private folder's path
                details = getattr(exc, "details", ())
                text = "\n".join([str(exc), *details]).replace(f"{folder}/", "").replace(str(self.workdir), "…")
                raise Refused(400, text) from None
            if len(written) == 1:
                answer = (written[0].name, written[0].read_bytes(), "application/pdf")
            else:
                answer = (f"{written[0].stem}.zip", zip_bytes(written), "application/zip")
        finally:
            shutil.rmtree(folder.parent, ignore_errors=True)
        self._remember(self.downloads, key, answer)
        return answer

    def _remember(self, cache: OrderedDict[str, Any], key: str, value: Any) -> None:
        """Keep ``value`` under ``key`` in ``cache``, dropping the oldest past :data:`CACHE_SIZE`."""
        with self.cache_lock:
            cache[key] = value
            while len(cache) > CACHE_SIZE:
                cache.popitem(last=False)

    def align(self, values: dict[str, str]) -> bytes:
        """The duplex alignment test for the form's page, flip, offset and printer scale."""
        out = self._out("align.pdf")
        try:
            try:
                jobs.align(values, out)
            except TokengenError as exc:
                raise Refused(400, str(exc)) from None
            return out.read_bytes()
        finally:
            shutil.rmtree(out.parent, ignore_errors=True)


# --- routes -------------------------------------------------------------------------------------

def _state(request: Request) -> State:
    return request.app.state.tokengen


def _values(request: Request) -> dict[str, str]:
    return form_values(request.url.query)


def _refused(exc: Refused) -> PlainTextResponse:
    return PlainTextResponse(exc.message + "\n", status_code=exc.status)


async def index(request: Request) -> Response:
    """The page, with the catalogue's name and the print profiles filled in."""
    state = _state(request)
    from ..sources.profiles import load_profiles

    page = (STATIC / "index.html").read_text(encoding="utf-8")
    helps = {name: profile_help(profile) for name, profile in load_profiles().items()}
    profiles = "".join(f'<option value="{html.escape(name)}" data-help="{html.escape(help)}"{" selected" if name == "print-shop" else ""}>'
                       f'{html.escape(name)}</option>' for name, help in helps.items())
    page = page.replace("{{catalogue}}", html.escape(state.catalogue.name)).replace("{{profiles}}", profiles)
    page = page.replace("{{profile_help}}", html.escape(helps.get("print-shop", "")))
    return HTMLResponse(page.replace("{{rules_hidden}}", "" if _has_rules_sheet(state.catalogue) else " hidden"))


def profile_help(profile: Any) -> str:
    """The line under the page's profile list for ``profile`` (a :class:`tokengen.sources.profiles.Profile`):
    its name, its product (else its description) and what it writes, e.g. ``tts: Tabletop Simulator …
    (writes tts)``."""
    return f"{profile.name}: {profile.product or profile.description} (writes {profile.output})"


def _has_rules_sheet(catalogue: Path) -> bool:
    """True unless the catalogue declares its own fields: only a Meatshields catalogue has a
    rules sheet (``build --rules``). An unreadable file counts as one: the build says what is wrong."""
    from ..sources.catalogue import declares_fields
    from ..sources.yamlsrc import read_yaml

    try:
        data, _ = read_yaml(catalogue, ("catalogue", "catalogue-fields"))
    except TokengenError:
        return True
    return not declares_fields(data)


async def api_render(request: Request) -> Response:
    """Render the sheet for the query's form fields: JSON (see the module docstring)."""
    state = _state(request)
    try:
        values = _values(request)
    except Refused as exc:
        return JSONResponse({"error": exc.message}, status_code=exc.status)
    rendered = await run_in_threadpool(state.render, values)
    return JSONResponse({
        "key": rendered.key, "generation": rendered.generation, "error": rendered.error, "log": rendered.log,
        "pages": [f"/render/{rendered.key}/{n}.png" for n in range(1, len(rendered.pages) + 1)],
        "backs": rendered.backs is not None, "name": rendered.name, "check": rendered.check, "page_count": rendered.page_count,
        "args": ["tokengen", "build", bundled.shown(state.given), *rendered.args],  # as typed: the line works where serve ran
    }, status_code=200)


async def render_page(request: Request) -> Response:
    """PNG of page N of a render still in the cache (404 once it was dropped)."""
    state = _state(request)
    key, number = request.path_params["key"], request.path_params["number"]
    with state.cache_lock:
        rendered = state.cache.get(key)
    if rendered is None or not 1 <= number <= len(rendered.pages):
        return PlainTextResponse("no such page (the sheet was rendered again: reload)\n", status_code=404)
    return Response(rendered.pages[number - 1], media_type="image/png")


async def api_changes(request: Request) -> Response:
    """Long poll: the catalogue's generation, once it differs from ``since`` or after :data:`POLL_SECONDS`."""
    state = _state(request)
    try:
        since = int(request.query_params.get("since", "-1"))
    except ValueError:
        return PlainTextResponse("since: expected a whole number\n", status_code=400)
    if state.generation == since and state.changed is not None and not state.stop.is_set():
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(state.changed.wait(), POLL_SECONDS)
    return JSONResponse({"generation": state.generation})


def _attachment(name: str, data: bytes, media_type: str) -> Response:
    return Response(data, media_type=media_type, headers={"content-disposition": f'attachment; filename="{name}"'})


async def download(request: Request) -> Response:
    """The home PDF, separate backs, print-shop files or alignment test, as attachments (400 with the CLI's message on bad input)."""
    state = _state(request)
    what = request.path_params["what"]
    try:
        values = _values(request)
        if what in ("home", "backs"):
            rendered = await run_in_threadpool(state.render, values)
            if rendered.error is not None or rendered.pdf is None:
                raise Refused(400, rendered.error or "nothing to download")
            if what == "backs":
                if rendered.backs is None:
                    raise Refused(400, "no separate backs file: choose backs 'separate'")
                return _attachment(rendered.name.replace(".pdf", "-backs.pdf"), rendered.backs, "application/pdf")
            return _attachment(rendered.name, rendered.pdf, "application/pdf")
        if what == "shop":
            return _attachment(*await run_in_threadpool(state.shop, values.get("profile") or "print-shop", values.get("image_url") or None))
        if what == "align":
            return _attachment("align.pdf", await run_in_threadpool(state.align, values), "application/pdf")
    except Refused as exc:
        return _refused(exc)
    return PlainTextResponse("no such download\n", status_code=404)


async def files(request: Request) -> Response:
    """A file inside the catalogue's folder; anything resolving outside it is refused."""
    state = _state(request)
    relative = request.path_params["path"]
    if "\x00" in relative:
        return PlainTextResponse("refused: bad path\n", status_code=400)
    target = (state.root / relative).resolve()
    if not target.is_relative_to(state.root):
        return PlainTextResponse("refused: outside the catalogue's folder\n", status_code=403)
    if not target.is_file() or any(part.startswith(".") for part in target.relative_to(state.root).parts):
        return PlainTextResponse("not found\n", status_code=404)
    return FileResponse(target)


class Limits:
    """ASGI middleware: GET and HEAD only, no request body, bounded path and query, and the
    security headers on every answer."""

    def __init__(self, app: ASGIApp):
        self.app = app
        self.serving = 0  # requests in the app now (at most MAX_CONNECTIONS)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        refusal: tuple[int, str] | None = None
        if self.serving >= MAX_CONNECTIONS:
            refusal = (503, f"busy: {MAX_CONNECTIONS} requests are being served; try again")
        elif scope["method"] not in ("GET", "HEAD"):
            refusal = (405, f"{scope['method']}: only GET and HEAD are served")
        elif int(headers.get(b"content-length", b"0") or b"0") > 0 or b"transfer-encoding" in headers:
            refusal = (413, "request bodies are refused (limit: 0 bytes)")
        elif len(scope.get("query_string", b"")) > MAX_QUERY:
            refusal = (414, f"query longer than {MAX_QUERY} bytes")
        elif len(scope.get("raw_path") or scope["path"].encode()) > MAX_PATH:
            refusal = (414, f"path longer than {MAX_PATH} bytes")

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], *SECURITY_HEADERS]
            await send(message)

        if refusal is not None:
            await PlainTextResponse(refusal[1] + "\n", status_code=refusal[0])(scope, receive, with_headers)
            return
        self.serving += 1
        try:
            await self.app(scope, receive, with_headers)
        finally:
            self.serving -= 1


def create_app(catalogue: str | Path, *, workdir: Path | None = None, watch: bool = True,
               hosts: tuple[str, ...] = HOSTS, on_ready: Any = None) -> Starlette:
    """The Starlette app serving ``catalogue``.

    Args:
        catalogue: the catalogue YAML; its folder is the only one files are served from.
        workdir: private folder for the commands' outputs (default: a new temporary folder,
            removed on shutdown); it must not be the catalogue's folder.
        watch: re-render when an input changes (:mod:`tokengen.outputs.watch`).
        hosts: accepted Host header names.
        on_ready: called (no arguments) once the app is ready and, with ``watch``, the watcher
            sees every later change.
    Raises:
        UsageError: ``workdir`` is the catalogue's folder.
    """
    from ..errors import UsageError

    catalogue = Path(catalogue)
    own = workdir is None
    work = workdir or _private_folder(catalogue)
    if work.resolve() == catalogue.absolute().parent.resolve():
        raise UsageError(f"{work}: the work folder must not be the catalogue's folder")
    state = State(catalogue, work)
    state.own_workdir = own
    from ..faces.art import keep_decoded

    keep_decoded()  # an option change re-renders without decoding the pictures again

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> Any:
        state.loop = asyncio.get_running_loop()
        state.changed = asyncio.Event()
        watcher = threading.Thread(target=state.watch, name="tokengen-watch", daemon=True) if watch else None
        if watcher:
            watcher.start()
            await run_in_threadpool(state.watching.wait, 60)
        if on_ready is not None:
            on_ready()
        try:
            yield
        finally:
            state.closing()
            if watcher:
                watcher.join(5)
            state.remove_workdir()

    routes = [
        Route("/", index),
        Route("/api/render", api_render),
        Route("/api/changes", api_changes),
        Route("/render/{key:str}/{number:int}.png", render_page),
        Route("/download/{what:str}", download),
        Route("/files/{path:path}", files),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = [Middleware(Limits), Middleware(TrustedHostMiddleware, allowed_hosts=list(hosts))]
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan)
    app.state.tokengen = state
    return app


def _private_folder(catalogue: Path) -> Path:
    """A new temporary folder that is not the catalogue's folder."""
    folder = Path(tempfile.mkdtemp(prefix="tokengen-serve-"))
    if folder.parent.resolve() == catalogue.absolute().parent.resolve():  # the catalogue lives in /tmp itself
        folder.rmdir()
        folder = Path(tempfile.mkdtemp(prefix="tokengen-serve-", dir=Path.home()))
    return folder


def _protocol() -> type:
    """uvicorn's h11 protocol with a deadline for the request's headers (:data:`HEADER_TIMEOUT`).

    uvicorn times out only idle kept-alive connections; a client sending its headers a byte at a
    time (or never) held its connection, and enough of them locked everyone else out with 503.
    Here such connections hold header slots (at most :data:`MAX_HEADER_SLOTS`, a new connection
    past them is answered 503), apart from the requests being served. The deadline starts when the connection opens (and again with the
    first byte of each later request) and is not moved by more bytes; once it passes with the
    headers still incomplete, the server answers 408 and closes the connection."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    waiting: set[Any] = set()  # connections of this server still sending headers (the header slots)

    class HeaderDeadline(H11Protocol):
        header_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]  # uvicorn's own signature
            super().connection_made(transport)
            if len(waiting) >= MAX_HEADER_SLOTS:  # every header slot is taken: refused, the requests served go on
                self._answer(503, f"busy: {MAX_HEADER_SLOTS} connections are sending their headers; try again\n")
                return
            self._arm()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                if self.header_timer is None and self.conn.trailing_data[0]:
                    self._arm()  # a later request on a kept-alive connection has begun
            else:
                self._disarm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            self._disarm()
            waiting.add(self)
            self.header_timer = self.loop.call_later(HEADER_TIMEOUT, self._too_slow)

        def _disarm(self) -> None:
            waiting.discard(self)
            if self.header_timer is not None:
                self.header_timer.cancel()
                self.header_timer = None

        def _too_slow(self) -> None:
            self.header_timer = None
            waiting.discard(self)
            if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
                return
            self._answer(408, f"request headers not complete within {HEADER_TIMEOUT:g} s\n")

        def _answer(self, status: int, text: str) -> None:
            _answer_and_close(self.conn, self.transport, status, text)

    return HeaderDeadline


def _answer_and_close(conn: Any, transport: asyncio.Transport, status: int, text: str) -> None:
    """Answer ``status`` with ``text`` on the h11 connection ``conn`` (when no answer has begun),
    then close ``transport``."""
    import h11

    if conn.our_state is h11.IDLE:
        message = text.encode()
        with contextlib.suppress(h11.LocalProtocolError):
            transport.write(conn.send(h11.Response(status_code=status, headers=[
                (b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(message)).encode()),
                (b"connection", b"close"), *SECURITY_HEADERS])))
            transport.write(conn.send(h11.Data(data=message)))
            transport.write(conn.send(h11.EndOfMessage()))
    transport.close()


def uvicorn_server(app: Starlette) -> Any:
    """The uvicorn server ``serve`` runs ``app`` (from :func:`create_app`) with: h11 with the
    header deadline and at most :data:`MAX_HEADER_SLOTS` connections sending headers
    (:func:`_protocol`), at most :data:`MAX_CONNECTIONS` requests served at once (:class:`Limits`), idle
    connections closed after :data:`KEEP_ALIVE` s, and a shutdown that first answers every long
    poll (:meth:`State.closing`) and keeps a forced stop quiet."""
    import uvicorn

    state: State = app.state.tokengen
    config = uvicorn.Config(app, log_level="warning", access_log=False, timeout_graceful_shutdown=1,
                            h11_max_incomplete_event_size=16 * 1024, lifespan="on",
                            http=_protocol(), timeout_keep_alive=KEEP_ALIVE)

    class Server(uvicorn.Server):
        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            state.closing()  # long polls answer now: nothing open is cancelled with a traceback
            logging.getLogger("uvicorn.error").setLevel(logging.CRITICAL)  # a forced stop (second Ctrl-C) is quiet too
            await super().shutdown(sockets)

    return Server(config)


def serve(catalogue: str | Path, port: int = 0, open_browser: bool = False,
          echo: Any = print) -> None:
    """Serve ``catalogue`` on http://127.0.0.1:PORT/ until Ctrl-C (``port`` 0: a free one);
    Ctrl-C prints ``stopped serving`` and raises ``KeyboardInterrupt`` again (the CLI exits 130),
    with every open request answered first (a second Ctrl-C stops at once, quietly).

    The address is printed once the socket listens on 127.0.0.1 and the watcher is ready (a
    change made after the line is seen); ``open_browser`` then opens it in the default browser.

    Raises:
        UsageError: the port is taken or cannot be bound.
    """
    import webbrowser

    from ..errors import UsageError

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind(("127.0.0.1", port))
    except OSError as exc:
        sock.close()
        raise UsageError(f"--port {port}: cannot listen on 127.0.0.1:{port}: {exc.strerror or exc}") from None
    sock.listen(64)
    url = f"http://127.0.0.1:{sock.getsockname()[1]}/"
    app = create_app(catalogue, on_ready=lambda: echo(f"serving {bundled.shown(catalogue)} at {url} (Ctrl-C to stop)"))
    state: State = app.state.tokengen
    server = uvicorn_server(app)
    if open_browser:
        threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()  # connections wait in the listen queue
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn re-raises the Ctrl-C it handled once it stopped cleanly
        echo("stopped serving")
        raise  # exit 130, "tokengen: interrupted", as every command answers Ctrl-C
    finally:
        sock.close()
        state.remove_workdir()
    echo("stopped serving")
