"""Lengths and page sizes (and :func:`counted`, a count with its noun, for messages).

Everything inside tokengen is in PDF points (1 in = 72 pt, 1 mm = 72/25.4 pt). Strings with
units (``"25mm"``, ``"1in"``, ``"0.125in"``, ``"72pt"``, ``"2.5cm"``) are parsed only at the
edges: the catalogue loader and the CLI.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import cache

PT_PER_IN = 72.0
PT_PER_MM = 72.0 / 25.4

UNITS: dict[str, float] = {"in": PT_PER_IN, "mm": PT_PER_MM, "cm": 10 * PT_PER_MM, "pt": 1.0}

#: Named page sizes, portrait, in pt (width, height). Sources: ANSI (letter, legal, tabloid)
#: and ISO 216 (A4 = 210 × 297 mm, A3 = 297 × 420 mm).
PAGES: dict[str, tuple[float, float]] = {
    "letter": (8.5 * PT_PER_IN, 11 * PT_PER_IN),
    "legal": (8.5 * PT_PER_IN, 14 * PT_PER_IN),
    "tabloid": (11 * PT_PER_IN, 17 * PT_PER_IN),
    "a4": (210 * PT_PER_MM, 297 * PT_PER_MM),
    "a3": (297 * PT_PER_MM, 420 * PT_PER_MM),
}

#: Longest text read as a length (``"0.125in"`` is 7): longer text is refused before any pattern
#: runs, so parsing time is bounded whatever the input.
MAX_TEXT = 64

_LENGTH = re.compile(r"^\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+))\s*([a-zA-Z]+)\s*$")


def parse_length(text: str | int | float, *, allow_zero: bool = True) -> float:
    """Parse a length with a unit (``"0.25in"``, ``"3mm"``, ``"0.5cm"``, ``"18pt"``) into pt.

    A bare ``0`` is accepted (zero needs no unit); any other bare number is refused, since a
    length without a unit is ambiguous.

    Returns:
        The length in pt, finite and >= 0 (> 0 when ``allow_zero`` is False).
    Raises:
        ValueError: with a short reason (unknown unit, negative, not a number). Callers wrap it
            in a :class:`~tokengen.errors.CatalogueError` or ``UsageError`` naming the field.
    """
    value = _length_value(text)
    if not math.isfinite(value):
        raise ValueError(f"length is too large: {str(text)[:40]!r}")
    if value < 0:
        raise ValueError(f"length must not be negative: {text!r}")
    if not allow_zero and value == 0:
        raise ValueError(f"length must be greater than zero: {text!r}")
    return value


def _length_value(text: str | int | float) -> float:
    """The number of pt ``text`` gives, before its range is checked: a bare zero (a number, or
    text such as ``-0.0``), else a number and a unit (:func:`_with_unit`).

    Raises:
        ValueError: a boolean, text over :data:`MAX_TEXT` characters, a bare number other than 0.
    """
    if isinstance(text, bool):
        raise ValueError(f"expected a length such as 1in or 25mm, got {text!r}")
    if isinstance(text, str) and len(text) > MAX_TEXT:  # every pattern below then runs on a short string
        raise ValueError(f"expected a length such as 1in or 25mm, got {len(text)} characters (at most {MAX_TEXT})")
    if isinstance(text, (int, float)):
        if text == 0:
            return 0.0
        raise ValueError(f"a length needs a unit (in, mm, cm, pt): {text!r}")
    if re.fullmatch(r"\s*[+-]?(?:0+\.?0*|\.0+)\s*", str(text)):
        return 0.0
    return _with_unit(text)


def _with_unit(text: str | int | float) -> float:
    """A number with a unit of :data:`UNITS` (``3mm``) in pt.

    Raises:
        ValueError: a number without a unit, an unknown unit, not a length at all.
    """
    match = _LENGTH.match(str(text))
    if not match and re.fullmatch(r"\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*", str(text)):
        raise ValueError(f"a length needs a unit (in, mm, cm, pt): {text!r}")
    if not match:
        raise ValueError(f"expected a length such as 1in or 25mm, got {text!r}")
    number, unit = match.groups()
    factor = UNITS.get(unit.lower())
    if factor is None:
        raise ValueError(f"unknown unit {unit!r} in {text!r} (use in, mm, cm or pt)")
    return float(number) * factor


#: ``WIDTHxHEIGHT`` as users of other tools type it: ``63mmx88mm``, ``63x88mm`` (the unit on the
#: right for both), ``2.5inx3.5in``, ``63 x 88 mm``, ``63×88mm``.
_WXH = re.compile(r"^\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+))\s*([a-zA-Z]*)\s*[x×X]\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+))\s*([a-zA-Z]*)\s*$")
#: The forms :func:`parse_size` accepts, as its messages name them.
SIZE_FORMS = "a length such as 1in, WIDTHxHEIGHT such as 63mmx88mm, 63x88mm or 2.5inx3.5in, or a card name such as poker"
#: A size name as :func:`parse_size` looks it up: letters, digits and hyphens, beginning with a letter.
_NAME = re.compile(r"^\s*([a-zA-Z][a-zA-Z0-9_-]*)\s*$")


@dataclass(frozen=True)
class NamedSize:
    """A card or tile size known by name (``poker``): its trim in pt, portrait (width <= height),
    the other names it answers to, and where the figure comes from (``data/sizes.yaml``)."""

    name: str
    width: float
    height: float
    also: tuple[str, ...]
    source: str


@cache
def named_sizes() -> dict[str, NamedSize]:
    """Every named size of the package's ``data/sizes.yaml``, by each of its names (lower case).

    The file is package data, read once; its sizes are written as :func:`parse_size` reads them.

    Raises:
        ValueError: the package's own file is damaged (a size that does not parse).
    """
    return _size_table("sizes", "size")


@cache
def named_sleeves() -> dict[str, NamedSize]:
    """Every card sleeve of the package's ``data/sizes.yaml`` (``sleeves:``), by each of its names
    (lower case): the size of the card the sleeve holds, in pt, portrait, with its source. A
    catalogue's ``sleeve: NAME`` draws its cards at that size.

    Raises:
        ValueError: the package's own file is damaged (a size that does not parse).
    """
    return _size_table("sleeves", "card")


def _size_table(section: str, key: str) -> dict[str, NamedSize]:
    """One section of ``data/sizes.yaml`` (each entry's size under ``key``), by each name of each
    entry (lower case)."""
    from importlib.resources import files

    import yaml

    data = yaml.safe_load((files("tokengen") / "data" / "sizes.yaml").read_text(encoding="utf-8"))
    found: dict[str, NamedSize] = {}
    for name, entry in data[section].items():
        width, height = _parse_dimensions(entry[key])
        size = NamedSize(name, width, height if height is not None else width, tuple(entry.get("also", ())),
                         " ".join(str(entry["source"]).split()))
        for alias in (name, *size.also):
            found[alias.lower()] = size
    return found


def sleeve_card(name: object) -> tuple[float, float | None]:
    """The card size (pt; a square one as its width alone, as :func:`parse_size` gives it) that
    the sleeve ``name`` holds (:func:`named_sleeves`).

    Raises:
        ValueError: not a sleeve's name, with the closest name and where the names are listed.
    """
    import difflib

    sleeves = named_sleeves()
    size = sleeves.get(str(name).lower()) if isinstance(name, str) else None
    if size is None:
        close = difflib.get_close_matches(str(name).lower(), list(sleeves), n=1)
        hint = f"did you mean {close[0]}? " if close else ""
        raise ValueError(f"unknown sleeve {str(name)[:40]!r}: {hint}'tokengen sizes' lists the sleeves")
    return size.width, (None if size.height == size.width else size.height)


def parse_size(text: str, *, allow_zero: bool = False) -> tuple[float, float | None]:
    """Parse a token size: one length (``"1in"`` → (72.0, None)), ``WIDTHxHEIGHT``
    (``"63mmx88mm"``, ``"63x88mm"``, ``"63 x 88 mm"`` → (178.58…, 249.44…)), or a card's name
    (``"poker"`` → (180.0, 252.0); :func:`named_sizes`, a square one as its width alone), in pt,
    each side > 0.
    The one size parser: a catalogue's ``size:`` and ``--size`` both read here; ``allow_zero``
    lets a zero side through for the caller to refuse in its own words (``--size 0``: see
    :func:`tokengen.geometry.sizing.token_size`).

    Raises:
        ValueError: one line with a short reason and :data:`SIZE_FORMS`.
    """
    if not isinstance(text, str):
        raise ValueError(f"expected {SIZE_FORMS}, got {text!r}")
    if len(text) > 2 * MAX_TEXT + 1:  # too long for WIDTHxHEIGHT: parse_length refuses it, saying how long
        return parse_length(text, allow_zero=allow_zero), None
    name = _NAME.match(text)
    if name:
        return _named(name.group(1))
    return _parse_dimensions(text, allow_zero=allow_zero)


def _named(name: str) -> tuple[float, float | None]:
    """A named size as :func:`parse_size` returns it (a square one as its width alone)."""
    import difflib

    sizes = named_sizes()
    size = sizes.get(name.lower())
    if size is None:
        close = difflib.get_close_matches(name.lower(), list(sizes), n=1)
        hint = f"did you mean {close[0]}? " if close else ""
        raise ValueError(f"unknown size name {name!r}: {hint}'tokengen sizes' lists the names; or give {SIZE_FORMS}")
    return size.width, (None if size.height == size.width else size.height)


def _parse_dimensions(text: str, *, allow_zero: bool = False) -> tuple[float, float | None]:
    """One length or ``WIDTHxHEIGHT`` (see :func:`parse_size`)."""
    match = _WXH.match(text)
    if match:
        width, left, height, right = match.groups()
        if not right:
            raise ValueError(f"size {text!r} needs a unit after the height; expected {SIZE_FORMS}")
        return parse_length(width + (left or right), allow_zero=allow_zero), parse_length(height + right, allow_zero=allow_zero)
    try:
        return parse_length(text, allow_zero=allow_zero), None
    except ValueError as exc:
        if str(exc).startswith("expected a length"):  # malformed, not a wrong unit or sign: name every form
            raise ValueError(f"expected {SIZE_FORMS}, got {text!r}") from None
        raise


#: Largest page side, pt: 200 in, the implementation limit of PDF viewers (Adobe, PDF 1.7
#: reference, appendix C: 14,400 units of 1/72 in, without UserUnit). Larger pages are refused.
MAX_PAGE = 14_400.0


def parse_page(text: str, *, landscape: bool = False) -> tuple[float, float]:
    """Parse a page name (``letter``, ``a4``, …) or ``WIDTHxHEIGHT`` (``210mmx297mm``) into pt.

    Returns:
        (width, height) in pt; swapped so width > height when ``landscape`` is set.
    Raises:
        ValueError: unknown name, malformed size, or a side over :data:`MAX_PAGE` (200 in).
    """
    if len(text) > 2 * MAX_TEXT + 1:
        raise ValueError(f"unknown page: {len(text)} characters is too long for a page name or WIDTHxHEIGHT")
    key = text.strip().lower()
    if key in PAGES:
        width, height = PAGES[key]
    elif key in reportlab_pages():
        width, height = reportlab_pages()[key]
    else:
        parts = re.split(r"(?<=[a-z])x", key, maxsplit=1)
        if len(parts) != 2 and re.fullmatch(r"[\d.]+x[\d.]+", key):
            raise ValueError(f"page size {text!r} needs units, e.g. {key.replace('x', 'inx')}in or 210mmx297mm")
        if len(parts) != 2:
            names = ", ".join(PAGES)
            raise ValueError(f"unknown page {text!r}: use one of {names}, a ReportLab page name (a5, b5, c4, half_letter, …)"
                             " or WIDTHxHEIGHT such as 210mmx297mm")
        width = parse_length(parts[0], allow_zero=False)
        height = parse_length(parts[1], allow_zero=False)
    for side, value in (("wide", width), ("high", height)):
        if value > MAX_PAGE:
            raise ValueError(f"page {text!r} is {format_length(value)} {side}, more than {format_length(MAX_PAGE)} (14,400 pt), the largest "
                             "page a PDF viewer opens (PDF 1.7 reference, appendix C)")
    if landscape:
        width, height = max(width, height), min(width, height)
    return width, height


def reportlab_pages() -> dict[str, tuple[float, float]]:
    """ReportLab's own named page sizes (``reportlab.lib.pagesizes``: A0-A10, B0-B10, C0-C10,
    half_letter, junior_legal, elevenseventeen, ledger, …), lower-case name → (width, height) pt
    as ReportLab gives them (ledger is landscape there). Plain data; imported on first use."""
    global _REPORTLAB_PAGES
    if _REPORTLAB_PAGES is None:
        from reportlab.lib import pagesizes

        _REPORTLAB_PAGES = {name.lower(): (float(value[0]), float(value[1])) for name, value in vars(pagesizes).items()
                            if name.isupper() and isinstance(value, tuple) and len(value) == 2}
    return _REPORTLAB_PAGES


_REPORTLAB_PAGES: dict[str, tuple[float, float]] | None = None


def page_names() -> list[str]:
    """Every page name ``--page`` accepts: ours first (letter, legal, tabloid, a4, a3), then ReportLab's."""
    return [*PAGES, *sorted(set(reportlab_pages()) - set(PAGES), key=lambda n: (n[0], len(n), n))]


def format_length(pt: float) -> str:
    """Render a length in pt for messages: ``"1in"``, ``"0.75in"``, ``"25mm"`` when exact, else pt."""
    inches = pt / PT_PER_IN
    if abs(inches * 1000 - round(inches * 1000)) < 1e-6:
        return f"{round(inches, 3):g}in"
    mm = pt / PT_PER_MM
    if abs(mm * 10 - round(mm * 10)) < 1e-6:
        return f"{round(mm, 1):g}mm"
    return f"{pt:.2f}pt"


def format_like(pt: float, like: float) -> str:
    """Render ``pt`` in the unit :func:`format_length` shows ``like`` in, so one sentence keeps
    one unit: ``format_like(4.5, 9.0)`` → ``"0.0625in"``; to 4 significant figures, with the
    exact pt in brackets when that rounds: ``format_like(4.5, 3 * PT_PER_MM)`` →
    ``"1.588mm (4.50pt)"``. A ``like`` shown in pt gives ``"4.50pt"``. Never raises."""
    unit = format_length(like)[-2:]
    if unit == "pt":
        return f"{pt:.2f}pt"
    per = PT_PER_IN if unit == "in" else PT_PER_MM
    shown = f"{pt / per:.4g}"
    exact = abs(float(shown) * per - pt) < 1e-6
    return f"{shown}{unit}" if exact else f"{shown}{unit} ({pt:.2f}pt)"


def format_pt(pt: float) -> str:
    """A font size (pt) as every message prints it: to the nearest 1/100 pt (what a PDF reader
    shows of the size the page holds), trailing zeros dropped: ``4.77``, ``3.8``, ``5``."""
    return f"{pt:.2f}".rstrip("0").rstrip(".")


def counted(count: int, noun: str) -> str:
    """A count with its noun: ``counted(1, "token")`` → ``"1 token"``, ``counted(18, "token")``
    → ``"18 tokens"`` (every noun tokengen counts takes an ``s``)."""
    return f"{count} {noun}{'' if count == 1 else 's'}"
