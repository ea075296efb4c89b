"""Token tables read from a link: ``tokens: https://…/export?format=csv`` (a published Google Sheet,
or any link to a CSV or XLSX file).

The link is fetched once per run (a second catalogue naming it, or a second read of the same
catalogue, reuses the bytes) with a size limit (:data:`tokengen.limits.MAX_FETCH_MB`,
``--max-fetch-mb``) and a time limit (:data:`tokengen.limits.FETCH_SECONDS`, ``--max-fetch-seconds``:
the longest wait for the server to connect or to send the next bytes). Only ``http`` and
``https`` links are fetched, and a redirect may lead only to another ``http``/``https`` address.
The bytes are kept in the cache folder (:func:`cache_dir`) with the link and the fetch time beside
them; ``--offline`` reads that copy and fetches nothing. The caller reads the returned file with
:func:`tokengen.sources.table.read_table`, as a local spreadsheet: the same reader and schema.

Settings come from the command line through :func:`configure` (one run, one set of settings).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
import urllib.parse
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, Any

from ..errors import CatalogueError
from ..limits import FETCH_SECONDS, MAX_FETCH_MB

#: The schemes a ``tokens:`` link may use (and a redirect lead to).
SCHEMES = ("http", "https")
#: Most redirects followed for one link (Google Sheets' published export redirects once).
MAX_REDIRECTS = 5
#: The start of every .xlsx (a zip archive); anything else is read as CSV text.
ZIP_MAGIC = b"PK\x03\x04"
#: Bytes read from the network at a time.
CHUNK = 64 * 1024


@dataclass(frozen=True)
class Settings:
    """How links are fetched in this run.

    Attributes:
        offline: read only the cached copy; fetch nothing.
        max_mb: the largest download, MiB (``--max-fetch-mb``).
        seconds: the longest wait for the connection or for more bytes, s (``--max-fetch-seconds``).
    """

    offline: bool = False
    max_mb: int = MAX_FETCH_MB
    seconds: float = FETCH_SECONDS


_SETTINGS: list[Settings] = [Settings()]
#: Links fetched in this run: link → cached file (fetched once per run).
_FETCHED: dict[str, Path] = {}


def configure(**changes: Any) -> None:
    """Change this run's :class:`Settings` (``offline``, ``max_mb``, ``seconds``); ``reset=True``
    first returns to the defaults and forgets the links fetched (a new run)."""
    if changes.pop("reset", False):
        _SETTINGS[0] = Settings()
        _FETCHED.clear()
    _SETTINGS[0] = replace(_SETTINGS[0], **changes)


def settings() -> Settings:
    """This run's :class:`Settings`."""
    return _SETTINGS[0]


def is_link(spec: str) -> bool:
    """True when a ``tokens:`` value is a link (``scheme://…``) rather than a file name."""
    return "://" in spec.split("?", 1)[0][:16]


def cache_dir() -> Path:
    """The folder fetched tables are kept in: ``$TOKENGEN_CACHE_DIR`` if set, else the user's
    cache folder: ``$XDG_CACHE_HOME/tokengen/links`` (``~/.cache/tokengen/links``) on Linux,
    ``~/Library/Caches/tokengen/links`` on macOS, ``%LOCALAPPDATA%\\tokengen\\links`` on Windows."""
    own = os.environ.get("TOKENGEN_CACHE_DIR")
    if own:
        return Path(own)
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "tokengen" / "links"


def fetch_table(catalogue: Path, url: str, line: int | None, field: str) -> tuple[Path, str]:
    """The local copy of the table at ``url`` (fetched now, or this run's earlier fetch, or with
    ``--offline`` the cached one) and a note saying where it came from.

    Returns:
        (the cached ``.csv`` or ``.xlsx`` file, with ``--offline`` a one-line note for the user
        such as ``"https://…: --offline: read the copy fetched 2026-12-07 19:50:00 UTC (1,234
        bytes)"``, else ``""``).
    Raises:
        CatalogueError: at the catalogue's ``tokens:`` line: a scheme other than http/https, a
            redirect elsewhere, an HTTP error, more than the size limit, the time limit passed,
            or ``--offline`` with no cached copy.
    """
    def fail(message: str) -> CatalogueError:
        return CatalogueError(catalogue, message, line=line, field=field)

    scheme = urllib.parse.urlsplit(url).scheme.lower()
    if scheme not in SCHEMES:
        raise fail(f"link {url}: only http and https links are read, not {scheme or 'this'}")
    folder = cache_dir()
    key = hashlib.sha256(url.encode("utf-8")).hexdigest()[:24]
    meta = folder / f"{key}.json"
    run = settings()
    if url in _FETCHED:
        return _FETCHED[url], _note(url, meta) if run.offline else ""
    if run.offline:
        cached = _cached(folder, key)
        if cached is None:
            raise fail(f"link {url}: --offline and no cached copy in {folder} (build once online to fetch it)")
        _FETCHED[url] = cached
        return cached, _note(url, meta)
    try:
        data = _download(url, run, fail)
    except CatalogueError as exc:
        if _cached(folder, key) is not None:  # say that the last copy can still be read
            raise fail(f"{exc.message}; a copy fetched before is cached, and --offline reads it") from None
        raise
    suffix = ".xlsx" if data.startswith(ZIP_MAGIC) else ".csv"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for old in (folder / f"{key}.csv", folder / f"{key}.xlsx"):
            old.unlink(missing_ok=True)
        target = folder / f"{key}{suffix}"
        temp = folder / f".{key}.part"
        temp.write_bytes(data)
        os.replace(temp, target)
        fetched = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
        meta.write_text(json.dumps({"url": url, "fetched": fetched, "bytes": len(data), "file": target.name}), "utf-8")
    except OSError as exc:
        raise fail(f"link {url}: cannot keep the fetched table in {folder}: {exc.strerror or exc}") from None
    _FETCHED[url] = target
    return target, ""


def _cached(folder: Path, key: str) -> Path | None:
    """The cached copy of the link with cache key ``key``, if there is one."""
    for suffix in (".csv", ".xlsx"):
        path = folder / f"{key}{suffix}"
        if path.is_file():
            return path
    return None


def _note(url: str, meta: Path) -> str:
    """``"<url>: --offline: read the copy fetched <time> (N bytes)"`` from the cache's record."""
    try:
        record = json.loads(meta.read_text("utf-8"))
        return f"{url}: --offline: read the copy fetched {record['fetched']} ({int(record['bytes']):,} bytes)"
    except (OSError, ValueError, KeyError, TypeError):
        return f"{url}: --offline: read the cached copy (its fetch time is not recorded)"


def _opener() -> Any:
    """A urllib opener that follows at most :data:`MAX_REDIRECTS` redirects, to http/https
    addresses only (urllib is imported here: a catalogue without a link never loads it)."""
    import urllib.error
    import urllib.request

    class Redirects(urllib.request.HTTPRedirectHandler):
        max_redirections = MAX_REDIRECTS

        def http_error_302(self, req: urllib.request.Request, fp: IO[bytes], code: int, msg: str, headers: Any) -> Any:
            target = headers.get("location") or headers.get("uri")
            if target:
                newurl = urllib.parse.urljoin(req.full_url, target)
                scheme = urllib.parse.urlsplit(newurl).scheme.lower()
                if scheme not in SCHEMES:
                    raise urllib.error.URLError(f"redirected to a {scheme} address ({newurl}); only http and https are followed")
            return super().http_error_302(req, fp, code, msg, headers)

        http_error_301 = http_error_303 = http_error_307 = http_error_308 = http_error_302

    return urllib.request.build_opener(Redirects)  # no file:, ftp: or data: handlers are reached


def _download(url: str, run: Settings, fail: Any) -> bytes:
    """The body at ``url``, within ``run``'s size and time limits (see :func:`fetch_table`)."""
    limit = int(run.max_mb * 1024 * 1024)
    too_big = f"link {url}: larger than the limit of {run.max_mb:g} MiB (raise it with --max-fetch-mb)"
    too_slow = f"link {url}: no answer within {run.seconds:g} s (the time limit; raise it with --max-fetch-seconds)"
    import socket
    import urllib.error
    import urllib.request

    opener = _opener()
    request = urllib.request.Request(url, headers={"User-Agent": "tokengen", "Accept": "text/csv, */*"})
    try:
        with opener.open(request, timeout=run.seconds) as response:
            length = response.headers.get("Content-Length")
            if length is not None and length.isdigit() and int(length) > limit:
                raise fail(too_big)
            chunks: list[bytes] = []
            size = 0
            while True:
                chunk = response.read(CHUNK)
                if not chunk:
                    break
                size += len(chunk)
                if size > limit:
                    raise fail(too_big)
                chunks.append(chunk)
    except urllib.error.HTTPError as exc:
        raise fail(f"link {url}: the server answered {exc.code} {exc.reason}") from None
    except (TimeoutError, socket.timeout):
        raise fail(too_slow) from None
    except urllib.error.URLError as exc:
        if isinstance(exc.reason, (TimeoutError, socket.timeout)):
            raise fail(too_slow) from None
        raise fail(f"link {url}: cannot fetch: {exc.reason}") from None
    except (OSError, ValueError) as exc:
        raise fail(f"link {url}: cannot fetch: {exc}") from None
    return b"".join(chunks)
