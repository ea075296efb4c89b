"""Console output that never fails on a console that cannot show a character.

A Windows console or a redirected stream often uses cp1252, and some systems are plain ASCII;
printing ``↓STR`` there raises ``UnicodeEncodeError``. :func:`make_safe` lets standard output
and standard error print every message: a character the console's encoding lacks is written in
a readable ASCII form (``↓`` → ``v``, ``↑`` → ``^``, ``→`` → ``->``, ``×`` → ``x``, other
letters without their accents, ``?`` as a last resort); characters it has are unchanged.

ASCII streams are re-encoded with an ASCII codec of our own (``tokengen-ascii``) so that click
does not replace them with a UTF-8 stream (it treats an ASCII stream as misconfigured), which
would print unreadable bytes.
"""

from __future__ import annotations

import codecs
import io
import sys
import unicodedata

#: Readable ASCII for the characters tokengen prints (arrows of the targeting priorities,
#: the separators of captions, typographic punctuation).
FALLBACK = {
    "↓": "v", "↑": "^", "→": "->", "←": "<-", "·": "-", "×": "x", "…": "...", "–": "-", "—": "-",
    "≥": ">=", "≤": "<=", "≠": "!=", "±": "+/-", "‘": "'", "’": "'", "“": '"', "”": '"', "•": "*",
    "✓": "ok", "✗": "x", "°": " deg", "µ": "u", "\u00a0": " ",
}
ERRORS = "tokengen-fallback"
ASCII = "tokengen-ascii"


def ascii_form(text: str) -> str:
    """``text`` with every non-ASCII character in its readable ASCII form (see :data:`FALLBACK`)."""
    out = []
    for ch in text:
        if ord(ch) < 128:
            out.append(ch)
        elif ch in FALLBACK:
            out.append(FALLBACK[ch])
        else:
            plain = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode("ascii")
            out.append(plain or "?")
    return "".join(out)


def _fallback(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    return ascii_form(exc.object[exc.start:exc.end]), exc.end


class _AsciiEncoder(codecs.IncrementalEncoder):
    def encode(self, input: str, final: bool = False) -> bytes:
        return codecs.ascii_encode(input, ERRORS)[0]


def _search(name: str) -> codecs.CodecInfo | None:
    if name.replace("_", "-") != ASCII:
        return None
    ascii_codec = codecs.lookup("ascii")
    return codecs.CodecInfo(name=ASCII, encode=lambda s, errors="strict": (codecs.ascii_encode(s, ERRORS)[0], len(s)),
                            decode=ascii_codec.decode, incrementalencoder=_AsciiEncoder,
                            incrementaldecoder=ascii_codec.incrementaldecoder)


_registered = False


def _register() -> None:
    global _registered
    if not _registered:
        codecs.register_error(ERRORS, _fallback)
        codecs.register(_search)
        _registered = True


def make_safe() -> None:
    """Make ``sys.stdout`` and ``sys.stderr`` print every message (see the module docstring).
    Streams that can encode everything (UTF-8) and streams that are not text files are left alone."""
    _register()
    for stream in (sys.stdout, sys.stderr):
        if not isinstance(stream, io.TextIOWrapper) or not stream.encoding:
            continue
        try:
            "↓↑".encode(stream.encoding)
            continue  # the console shows the arrows: nothing to do
        except (UnicodeEncodeError, LookupError):
            pass
        encoding = ASCII if codecs.lookup(stream.encoding).name == "ascii" else stream.encoding
        stream.flush()
        stream.reconfigure(encoding=encoding, errors=ERRORS)
