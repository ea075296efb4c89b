"""Dates and times as a spreadsheet shows them in a cell's number format: pure string work.

:func:`format_date` turns a date, time or duration (as openpyxl reads a date cell) and the
cell's format code into the text Excel and LibreOffice show in the cell, for the date and time
codes of ECMA-376 Part 1, §18.8.31 (numFmts): ``yy``, ``yyyy``, ``m`` to ``mmmmm``, ``d`` to
``dddd``, ``h``/``hh``, ``m``/``mm`` as minutes after an hour or before seconds, ``s``/``ss`` with
``.0`` to ``.000`` for fractions, ``AM/PM`` and ``A/P``, elapsed ``[h]``, ``[m]``, ``[s]``; literal
text in quotes or after a backslash, the separators Excel takes bare (``- / : , . ( ) space``),
``[$-409]`` locale tags and colour tags such as ``[Red]`` (the colour is not drawn: the text is).
Month and day names are English, as Excel and LibreOffice show them for an English locale; a
format whose locale tag names another language (``[$-407]mmmm``, German) is not shown.

Anything else (an era ``g``/``b``, ``[DBNum1]``, a condition ``[>100]``, ``@`` or a digit
placeholder in a date) gives None: the caller refuses the cell by name rather than print it
otherwise than the sheet does.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from dataclasses import dataclass

_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December")
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_COLOURS = {"black", "blue", "cyan", "green", "magenta", "red", "white", "yellow"}
_TOKEN = re.compile(r'"(?P<quoted>[^"]*)"|\\(?P<escaped>.)|_.|\*.|\[\$(?P<currency>[^\]-]*)(?:-[^\]]*)?\]'
                    r"|\[(?P<elapsed>h+|m+|s+)\]|\[(?P<tag>[^\]]*)\]|(?P<ampm>AM/PM|A/P)|(?P<fraction>\.0{1,3})"
                    r"|(?P<code>y+|m+|d+|h+|s+|e)|(?P<other>.)", re.IGNORECASE | re.DOTALL)
_LOCALE = re.compile(r"\[\$[^\]-]*-([^\]]*)\]")
_BARE = set("-/:,. ()$+'!^&~{}<>=%")


def format_date(value: datetime.datetime | datetime.date | datetime.time | datetime.timedelta, fmt: str) -> str | None:
    """``value`` as a spreadsheet shows it in the date or time format ``fmt`` (its first section):
    ``format_date(date(2026, 1, 12), "d-mmm")`` is ``12-Jan``; ``h:mm AM/PM`` of 14:30 is
    ``2:30 PM``; ``[h]:mm`` of 36 h 30 min is ``36:30``. Seconds are rounded to the places the
    format shows, then the larger units follow (Excel's rule: 14:29:59.6 in ``h:mm:ss`` is
    ``14:30:00``). None when the format holds a code this function does not show (see the
    module's docstring), or asks for a date part of a time-only value."""
    section = _first_section(fmt)
    tokens = [(m.lastgroup, m.group(m.lastgroup) if m.lastgroup else m.group(0)) for m in _TOKEN.finditer(section)]
    if not _english_names(tokens, section):
        return None  # month or day names, or AM/PM, in another language than English
    places = max((len(text) - 1 for kind, text in tokens if kind == "fraction"), default=0)
    total = _seconds(value)
    if total is None:
        return None
    scale = 10 ** places
    ticks = round(total * scale)  # the value in units of the finest shown fraction of a second
    whole, part = divmod(ticks, scale)
    moment, clock = _moment(value, whole)
    twelve = any(kind == "ampm" for kind, _ in tokens)
    codes = [i for i, (kind, _) in enumerate(tokens) if kind in ("code", "elapsed")]
    shown = _Shown(tokens, codes, moment, clock, whole, part, places, twelve)
    out: list[str] = []
    for i, (kind, text) in enumerate(tokens):
        written = _WRITERS[kind](text, i, shown)
        if written is None:
            return None
        out.append(written)
    return "".join(out)


def _english_names(tokens: list[tuple[str | None, str]], section: str) -> bool:
    """Whether a section's month and day names and AM/PM (if it shows any) are English: every
    locale tag it holds names an English locale (:func:`_english`)."""
    named = any(kind == "ampm" or (kind == "code" and len(text) >= 3 and text[0].lower() in "md") for kind, text in tokens)
    return not named or all(_english(lcid) for lcid in _LOCALE.findall(section))


def _moment(value: datetime.datetime | datetime.date | datetime.time | datetime.timedelta,
            whole: int) -> tuple[datetime.datetime | None, int]:
    """(the date and time shown, None for a time or duration; the seconds shown of its day, or
    of the duration), from ``whole``, the value's seconds rounded as the format shows them (a
    rounding up to midnight moves the date on)."""
    if isinstance(value, (datetime.time, datetime.timedelta)):
        return None, whole
    base = value if isinstance(value, datetime.datetime) else datetime.datetime.combine(value, datetime.time())
    moment = datetime.datetime.combine(base.date(), datetime.time()) + datetime.timedelta(seconds=whole)
    return moment, whole - (moment.date() - base.date()).days * 86_400


@dataclass(frozen=True)
class _Shown:
    """What the codes of a format show: the ``tokens`` (kind, text) and the indexes of the date
    and time ``codes`` among them, the ``moment`` (None for a time or duration), the seconds of
    its day ``clock``, the ``whole`` seconds of a duration, the fraction of a second ``part``
    in ``places`` digits, and whether an AM/PM makes the hours ``twelve``."""

    tokens: list[tuple[str | None, str]]
    codes: list[int]
    moment: datetime.datetime | None
    clock: int
    whole: int
    part: int
    places: int
    twelve: bool


def _literal(text: str, i: int, shown: _Shown) -> str:
    """Quoted or escaped text, or a currency's symbol: as written."""
    return text


def _tag(text: str, i: int, shown: _Shown) -> str | None:
    """A colour tag (``[Red]``, ``[Color10]``) shows nothing; any other tag is not shown (None)."""
    if text.lower() not in _COLOURS and not re.fullmatch(r"(?i)color\d{1,2}", text):
        return None
    return ""


def _spacing(text: str, i: int, shown: _Shown) -> str:
    """``_x`` (a space as wide as x) or ``*x`` (fill): what a cell shows is a space, or nothing."""
    return " " if text.startswith("_") else ""


def _other(text: str, i: int, shown: _Shown) -> str | None:
    """A character outside the codes: a separator Excel takes bare, else not shown (None)."""
    return text if text in _BARE else None


def _fraction(text: str, i: int, shown: _Shown) -> str:
    """``.0`` to ``.000``: the fraction of a second to as many digits."""
    return "." + str(shown.part).zfill(shown.places)[: len(text) - 1]


def _ampm(text: str, i: int, shown: _Shown) -> str:
    """``AM/PM`` or ``A/P``, in the case written."""
    pm = (shown.clock // 3600) % 24 >= 12
    written = ("PM" if pm else "AM") if len(text) == 5 else ("P" if pm else "A")
    return written.lower() if text.islower() else written


def _elapsed(text: str, i: int, shown: _Shown) -> str:
    """``[h]``, ``[m]``, ``[s]``: the hours, minutes or seconds elapsed in all."""
    unit = {"h": 3600, "m": 60, "s": 1}[text[0].lower()]
    return str(shown.whole // unit).zfill(len(text))


def _date_or_time(text: str, i: int, shown: _Shown) -> str | None:
    """A date or time code (``yyyy``, ``mmm``, ``hh``, ``ss``; :func:`_code`)."""
    return _code(text.lower(), i, shown.tokens, shown.codes, shown.moment, shown.clock, shown.twelve)


#: Each kind of token of :data:`_TOKEN` (None: a space or fill) → its text as shown, or None
#: when the format cannot be shown as the sheet does.
_WRITERS: dict[str | None, Callable[[str, int, _Shown], str | None]] = {
    "quoted": _literal, "escaped": _literal, "currency": _literal, "tag": _tag, None: _spacing, "other": _other,
    "fraction": _fraction, "ampm": _ampm, "elapsed": _elapsed, "code": _date_or_time,
}


def _english(lcid: str) -> bool:
    """Whether the locale of a ``[$…-LCID]`` tag names months and days in English: an English
    one (the low ten bits of the LCID are 0x09: ``409`` en-US, ``809`` en-GB), or Windows'
    system date and time (``F800``, ``F400``, ``x-sysdate``, ``x-systime``, shown here as in
    the United States)."""
    if lcid.upper() in ("F800", "F400", "X-SYSDATE", "X-SYSTIME"):
        return True
    try:
        number = int(lcid, 16)
    except ValueError:
        return False
    return number & 0x3FF == 0x09


def _first_section(fmt: str) -> str:
    quoted = False
    for i, ch in enumerate(fmt):
        if ch == '"':
            quoted = not quoted
        elif ch == ";" and not quoted and (i == 0 or fmt[i - 1] != "\\"):
            return fmt[:i]
    return fmt


def _seconds(value: datetime.datetime | datetime.date | datetime.time | datetime.timedelta) -> float | None:
    """Seconds into the value's day (a date or time) or in all (a duration)."""
    if isinstance(value, datetime.timedelta):
        return value.total_seconds()
    if isinstance(value, datetime.datetime):
        value = value.time()
    elif isinstance(value, datetime.date):
        return 0.0
    return value.hour * 3600 + value.minute * 60 + value.second + value.microsecond / 1e6


def _code(code: str, i: int, tokens: list[tuple[str | None, str]], codes: list[int],
          moment: datetime.datetime | None, clock: int, twelve: bool) -> str | None:
    """One date or time code's text; None for a date part of a time-only value."""
    letter = code[0]
    if letter == "m" and len(code) <= 2 and _minutes(i, tokens, codes):
        letter = "n"
    if letter in ("h", "n", "s"):
        return _time_code(letter, code, clock, twelve)
    if moment is None:
        return None
    return _date_code(letter, code, moment)


def _time_code(letter: str, code: str, clock: int, twelve: bool) -> str:
    """An hour (``h``, on a twelve-hour clock when ``twelve``), minute (``n``: an ``m`` read as
    minutes) or second (``s``) code's text, from the seconds ``clock`` of the day."""
    if letter == "h":
        hour = (clock // 3600) % 24
        if twelve:
            hour = hour % 12 or 12
        return str(hour).zfill(min(len(code), 2))
    if letter == "n":
        return str(clock // 60 % 60).zfill(len(code))
    return str(clock % 60).zfill(min(len(code), 2))


def _date_code(letter: str, code: str, moment: datetime.datetime) -> str:
    """A year (``yy``, ``yyyy``, ``e``), month (``m`` to ``mmmmm``) or day (``d`` to ``dddd``)
    code's text."""
    if letter == "y" or letter == "e":
        return str(moment.year) if len(code) > 2 or letter == "e" else f"{moment.year % 100:02d}"
    if letter == "m":
        name = _MONTHS[moment.month - 1]
        return str(moment.month).zfill(len(code)) if len(code) <= 2 else name[:3] if len(code) == 3 else name[0] if len(code) == 5 else name
    name = _DAYS[moment.weekday()]
    return str(moment.day).zfill(len(code)) if len(code) <= 2 else name[:3] if len(code) == 3 else name


def _minutes(i: int, tokens: list[tuple[str | None, str]], codes: list[int]) -> bool:
    """Whether the ``m``/``mm`` at ``tokens[i]`` means minutes: the code before it is an hour, or
    the one after it is seconds (Excel's rule)."""
    at = codes.index(i)
    before = tokens[codes[at - 1]][1].lower() if at else ""
    after = tokens[codes[at + 1]][1].lower() if at + 1 < len(codes) else ""
    return before[:1] == "h" or after[:1] == "s"
