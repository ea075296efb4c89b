"""Spreadsheets as token lists: ``.csv`` (UTF-8, with or without a byte-order mark, comma,
semicolon or tab separated as Excel writes them) and ``.xlsx`` (read with openpyxl).

The first non-empty row is the header: one field name per column, matched to the catalogue's
names exactly or else ignoring case (``Name`` is ``name``). Every later non-empty row is one
token. Each cell keeps where it came from, so an error names the file, the row and the column:
``tokens.csv:5: strength (column C): expected a number, got 'x'``.
"""

from __future__ import annotations

import csv
import datetime
import io
import re
import zipfile
from collections.abc import Sequence
from contextlib import closing
from dataclasses import dataclass
from itertools import zip_longest
from pathlib import Path
from typing import Any

from ..errors import CatalogueError
from .yamlsrc import one_line

#: Largest spreadsheet read, bytes, and most token rows (the catalogue's limit of 10,000 tokens).
MAX_BYTES = 8 * 1024 * 1024
MAX_ROWS = 10_000
#: Most columns in a header.
MAX_COLUMNS = 256
#: Largest unpacked size of an .xlsx (a zip of XML parts), bytes: a small file that unpacks to
#: gigabytes (a zip bomb) is refused before openpyxl reads it.
MAX_UNPACKED = 64 * 1024 * 1024


@dataclass(frozen=True)
class DateCell:
    """A date, time or duration cell of an .xlsx, as a spreadsheet shows it in ISO form:
    ``text`` is ``2026-11-29``, ``2026-11-29 14:30``, ``14:30`` or ``14:30:15``; ``kind`` is
    ``date``, ``date and time`` or ``time`` (for messages: ``got the date 2026-11-29``)."""

    text: str
    kind: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Uncalculated:
    """An .xlsx formula cell with no saved value (the file was written by a program that does not
    calculate, such as openpyxl or a script): ``formula`` is its text, ``=B2*2``."""

    formula: str


@dataclass(frozen=True)
class Row:
    """One token row: ``values`` maps each header name to its cell (text for CSV; text, number,
    :class:`DateCell` or None for XLSX); ``line`` is the row's line (CSV) or row number (XLSX);
    ``columns`` maps each header name to its column letter (``C``); ``header_line`` is the
    header's line or row; ``decimal_comma`` is true for a semicolon-separated CSV, where a number
    may be written ``2,5`` (European Excel)."""

    values: dict[str, Any]
    line: int
    columns: dict[str, str]
    header_line: int = 1
    decimal_comma: bool = False

    def where(self, name: str) -> str:
        """The field label for messages: ``strength (column C)``."""
        column = self.columns.get(name)
        return f"{name} (column {column})" if column else name


def column_letter(index: int) -> str:
    """0 → ``A``, 25 → ``Z``, 26 → ``AA`` (spreadsheet column names)."""
    out = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        out = chr(65 + rest) + out
    return out


def read_table(path: Path, names: Sequence[str] = ()) -> list[Row]:
    """Read the token rows of a ``.csv`` or ``.xlsx`` file. A header cell that is not one of
    ``names`` but matches exactly one of them ignoring case is taken as that name (``ID`` →
    ``id``); any other header is kept as written.

    Raises:
        CatalogueError: missing or unreadable file, larger than :data:`MAX_BYTES`, not UTF-8
            (CSV) or not a workbook (XLSX), an XLSX unpacking to more than :data:`MAX_UNPACKED`,
            no header, an empty or repeated header name (``name`` and ``Name`` both naming
            ``name``), a row with more cells than the header, more than :data:`MAX_ROWS` rows —
            each naming the file and, where there is one, the row and column.
    """
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".xlsx"):
        raise CatalogueError(path, "tokens can be read from a .csv or .xlsx file only")
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise CatalogueError(path, "file not found") from None
    except OSError as exc:
        raise CatalogueError(path, f"cannot read: {exc.strerror or exc}") from None
    if size > MAX_BYTES:
        raise CatalogueError(path, f"file is larger than {MAX_BYTES // (1024 * 1024)} MiB")
    raw_rows, decimal_comma = _csv_rows(path) if suffix == ".csv" else (_xlsx_rows(path), False)
    header: list[str] | None = None
    header_line = 1
    rows: list[Row] = []
    for line, cells in raw_rows:
        formula = next((i for i, c in enumerate(cells) if isinstance(c, Uncalculated)), None)
        if formula is not None:
            name = header[formula] if header is not None and formula < len(header) and header[formula] else None
            column = f"column {column_letter(formula)}"
            raise CatalogueError(path, f"a formula without a saved value ({one_line(cells[formula].formula)}): save the file in a "
                                 "spreadsheet program (which calculates it), or type the value", line=line,
                                 field=f"{name} ({column})" if name else column)
        if all(c is None or (isinstance(c, str) and not c.strip()) for c in cells):
            continue
        if header is None:
            header, header_line = _header(path, line, cells, names), line
            continue
        extra = [i for i in range(len(header), len(cells)) if cells[i] is not None and str(cells[i]).strip()]
        if extra:
            raise CatalogueError(path, f"row has a value in column {column_letter(extra[0])}, past the header's {len(header)} columns", line=line)
        if len(rows) >= MAX_ROWS:
            raise CatalogueError(path, f"has more than {MAX_ROWS} token rows", line=line)
        values = {name: (cells[i] if i < len(cells) else None) for i, name in enumerate(header) if name}
        rows.append(Row(values, line, {name: column_letter(i) for i, name in enumerate(header) if name}, header_line, decimal_comma))
    if header is None:
        raise CatalogueError(path, "is empty: the first row must name the fields (id, copies, …)")
    if not rows:
        raise CatalogueError(path, "has a header but no token rows")
    return rows


def _header(path: Path, line: int, cells: list[Any], known: Sequence[str]) -> list[str]:
    if len(cells) > MAX_COLUMNS:
        raise CatalogueError(path, f"header has {len(cells)} columns, more than {MAX_COLUMNS}", line=line)
    written = ["" if c is None else str(c).strip() for c in cells]
    while written and not written[-1]:
        written.pop()
    folded: dict[str, list[str]] = {}
    for name in known:
        folded.setdefault(name.casefold(), []).append(name)
    names = []
    seen: dict[str, int] = {}
    for i, text in enumerate(written):
        if not text:
            raise CatalogueError(path, f"header cell in column {column_letter(i)} is empty: name the field", line=line)
        matches = folded.get(text.casefold(), [])
        name = matches[0] if text not in known and len(matches) == 1 else text
        if name in seen:
            first = seen[name]
            if written[first] == text:
                raise CatalogueError(path, f"header names '{one_line(text)}' twice (columns {column_letter(first)} and {column_letter(i)})", line=line)
            raise CatalogueError(path, f"header names the field '{one_line(name)}' twice: '{one_line(written[first])}' "
                                       f"(column {column_letter(first)}) and '{one_line(text)}' (column {column_letter(i)})", line=line)
        seen[name] = i
        names.append(name)
    return names


def _csv_rows(path: Path) -> tuple[list[tuple[int, list[Any]]], bool]:
    """The rows of a CSV with their line numbers, and whether it is semicolon-separated."""
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise CatalogueError(path, f"not UTF-8 text (byte 0x{raw[exc.start]:02x}); save the sheet as 'CSV UTF-8'", line=line) from None
    if "\x00" in text:
        raise CatalogueError(path, "not a text file (contains NUL bytes)", line=text.count("\n", 0, text.index("\x00")) + 1)
    delimiter = _delimiter(text.split("\n", 1)[0])
    reader = csv.reader(io.StringIO(text, newline=""), csv.excel, delimiter=delimiter)  # RFC 4180 quoting
    out = []
    start = 1
    try:
        for cells in reader:
            out.append((start, list(cells)))
            start = reader.line_num + 1
            if len(out) > MAX_ROWS + 1:
                break
    except csv.Error as exc:
        raise CatalogueError(path, f"not readable as CSV: {one_line(str(exc))}", line=reader.line_num) from None
    return out, delimiter == ";"


def _delimiter(header: str) -> str:
    """The separator of a CSV: whichever of comma, semicolon or tab its header line holds most
    often outside quotes (a comma when none). Only the separator is guessed; quoting is always
    Excel's (RFC 4180: ``"a ""b"" c"``, quoted separators and line breaks)."""
    bare = re.sub(r'"[^"]*"', "", header)
    return max(",;\t", key=bare.count)


def _xlsx_rows(path: Path) -> list[tuple[int, list[Any]]]:
    try:
        with zipfile.ZipFile(path) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, OSError) as exc:
        raise CatalogueError(path, f"not an .xlsx workbook ({one_line(str(exc)) or type(exc).__name__})") from None
    if unpacked > MAX_UNPACKED:
        raise CatalogueError(path, f"unpacks to {unpacked // (1024 * 1024)} MiB, more than {MAX_UNPACKED // (1024 * 1024)} MiB")
    # the formulas too, to tell a formula never calculated (no saved value) from a blank cell
    with closing(_open_xlsx(path, data_only=True)) as book, closing(_open_xlsx(path, data_only=False)) as formulas:
        out = []
        # zip_longest runs both readers to their end, so each closes its part of the file (an older openpyxl
        # keeps a reader stopped early, as plain zip leaves the second, holding the file open)
        for number, (cells, written) in enumerate(zip_longest(_sheet_rows(book), _sheet_rows(formulas), fillvalue=()), start=1):
            row = [_cell(c, f) for c, f in zip(cells, written)]
            while row and row[-1] is None:  # openpyxl pads every row to the widest
                row.pop()
            out.append((number, row))
            if len(out) > MAX_ROWS + 1:
                break
        return out


def _open_xlsx(path: Path, data_only: bool) -> Any:
    """The workbook, read-only: cell values as last saved (``data_only``) or formulas as written."""
    import openpyxl
    from openpyxl.utils.exceptions import InvalidFileException

    try:
        return openpyxl.load_workbook(path, read_only=True, data_only=data_only)
    except (InvalidFileException, zipfile.BadZipFile, KeyError, OSError, ValueError) as exc:
        raise CatalogueError(path, f"not an .xlsx workbook ({one_line(str(exc)) or type(exc).__name__})") from None


def _cell(value: Any, written: Any) -> Any:
    """A cell's value as read: text stripped, a date as a :class:`DateCell`, a formula with no
    saved value (``value`` None, ``written`` its formula) as :class:`Uncalculated`."""
    if value is None and written is not None:
        return Uncalculated(str(getattr(written, "text", written)))  # an array formula keeps its text in .text
    return value.strip() if isinstance(value, str) else _date_cell(value)


def _sheet_rows(book: Any) -> Any:
    """The first sheet's rows of an openpyxl workbook, as tuples of cell values."""
    return book.worksheets[0].iter_rows(values_only=True, max_col=MAX_COLUMNS + 1)


def _date_cell(value: Any) -> Any:
    """An openpyxl date, time or duration as a :class:`DateCell`; any other value as it is.
    A date at midnight is the date alone; seconds show only when there are some."""
    if isinstance(value, datetime.timedelta):  # a duration format such as [h]:mm
        seconds = round(value.total_seconds())
        minutes, second = divmod(abs(seconds), 60)
        clock = f"{minutes // 60}:{minutes % 60:02d}" + (f":{second:02d}" if second else "")
        return DateCell(("-" if seconds < 0 else "") + clock, "time")
    if isinstance(value, datetime.datetime):
        if value.time() == datetime.time():
            return DateCell(value.date().isoformat(), "date")
        return DateCell(f"{value.date().isoformat()} {_clock(value.time())}", "date and time")
    if isinstance(value, datetime.date):
        return DateCell(value.isoformat(), "date")
    if isinstance(value, datetime.time):
        return DateCell(_clock(value), "time")
    return value


def _clock(time: datetime.time) -> str:
    """``14:30``, or ``14:30:15`` when there are seconds (milliseconds are dropped)."""
    return time.isoformat("seconds" if time.second else "minutes")
