"""Spreadsheets as token lists: ``.csv`` (UTF-8, with or without a byte-order mark, comma,
semicolon or tab separated as Excel writes them) and ``.xlsx`` (read with openpyxl).

The first non-empty row is the header: one field name per column. Every later non-empty row
is one token. Each cell keeps where it came from, so an error names the file, the row and the
column: ``tokens.csv:5: strength (column C): expected a number, got 'x'``.
"""

from __future__ import annotations

import csv
import io
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import CatalogueError
from ..yamlsrc import one_line

#: Largest spreadsheet read, bytes, and most token rows (the catalogue's limit of 10,000 tokens).
MAX_BYTES = 8 * 1024 * 1024
MAX_ROWS = 10_000
#: Most columns in a header.
MAX_COLUMNS = 256
#: Largest unpacked size of an .xlsx (a zip of XML parts), bytes: a small file that unpacks to
#: gigabytes (a zip bomb) is refused before openpyxl reads it.
MAX_UNPACKED = 64 * 1024 * 1024


@dataclass(frozen=True)
class Row:
    """One token row: ``values`` maps each header name to its cell (text for CSV; text, number
    or None for XLSX); ``line`` is the row's line (CSV) or row number (XLSX); ``columns`` maps
    each header name to its column letter (``C``); ``header_line`` is the header's line or row."""

    values: dict[str, Any]
    line: int
    columns: dict[str, str]
    header_line: int = 1

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


def read_table(path: Path) -> list[Row]:
    """Read the token rows of a ``.csv`` or ``.xlsx`` file.

    Raises:
        CatalogueError: missing or unreadable file, larger than :data:`MAX_BYTES`, not UTF-8
            (CSV) or not a workbook (XLSX), an XLSX unpacking to more than :data:`MAX_UNPACKED`, no header, an empty or repeated header name, a row
            with more cells than the header, more than :data:`MAX_ROWS` rows — each naming the
            file and, where there is one, the row and column.
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
    raw_rows = _csv_rows(path) if suffix == ".csv" else _xlsx_rows(path)
    header: list[str] | None = None
    header_line = 1
    rows: list[Row] = []
    for line, cells in raw_rows:
        if all(c is None or (isinstance(c, str) and not c.strip()) for c in cells):
            continue
        if header is None:
            header, header_line = _header(path, line, cells), line
            continue
        extra = [i for i in range(len(header), len(cells)) if cells[i] is not None and str(cells[i]).strip()]
        if extra:
            raise CatalogueError(path, f"row has a value in column {column_letter(extra[0])}, past the header's {len(header)} columns", line=line)
        if len(rows) >= MAX_ROWS:
            raise CatalogueError(path, f"has more than {MAX_ROWS} token rows", line=line)
        values = {name: (cells[i] if i < len(cells) else None) for i, name in enumerate(header) if name}
        rows.append(Row(values, line, {name: column_letter(i) for i, name in enumerate(header) if name}, header_line))
    if header is None:
        raise CatalogueError(path, "is empty: the first row must name the fields (id, copies, …)")
    if not rows:
        raise CatalogueError(path, "has a header but no token rows")
    return rows


def _header(path: Path, line: int, cells: list[Any]) -> list[str]:
    if len(cells) > MAX_COLUMNS:
        raise CatalogueError(path, f"header has {len(cells)} columns, more than {MAX_COLUMNS}", line=line)
    names = ["" if c is None else str(c).strip() for c in cells]
    while names and not names[-1]:
        names.pop()
    seen: dict[str, str] = {}
    for i, name in enumerate(names):
        if not name:
            raise CatalogueError(path, f"header cell in column {column_letter(i)} is empty: name the field", line=line)
        if name in seen:
            raise CatalogueError(path, f"header names '{one_line(name)}' twice (columns {seen[name]} and {column_letter(i)})", line=line)
        seen[name] = column_letter(i)
    return names


def _csv_rows(path: Path) -> list[tuple[int, list[Any]]]:
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise CatalogueError(path, f"not UTF-8 text (byte 0x{raw[exc.start]:02x}); save the sheet as 'CSV UTF-8'", line=line) from None
    if "\x00" in text:
        raise CatalogueError(path, "not a text file (contains NUL bytes)", line=text.count("\n", 0, text.index("\x00")) + 1)
    first = text.split("\n", 1)[0]
    try:
        dialect: Any = csv.Sniffer().sniff(first, delimiters=",;\t") if first.strip() else csv.excel
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(text, newline=""), dialect)
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
    return out


def _xlsx_rows(path: Path) -> list[tuple[int, list[Any]]]:
    import openpyxl
    from openpyxl.utils.exceptions import InvalidFileException

    try:
        with zipfile.ZipFile(path) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, OSError) as exc:
        raise CatalogueError(path, f"not an .xlsx workbook ({one_line(str(exc)) or type(exc).__name__})") from None
    if unpacked > MAX_UNPACKED:
        raise CatalogueError(path, f"unpacks to {unpacked // (1024 * 1024)} MiB, more than {MAX_UNPACKED // (1024 * 1024)} MiB")
    try:
        book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except (InvalidFileException, zipfile.BadZipFile, KeyError, OSError, ValueError) as exc:
        raise CatalogueError(path, f"not an .xlsx workbook ({one_line(str(exc)) or type(exc).__name__})") from None
    try:
        sheet = book.worksheets[0]
        out = []
        for number, cells in enumerate(sheet.iter_rows(values_only=True, max_col=MAX_COLUMNS + 1), start=1):
            row = [c.strip() if isinstance(c, str) else c for c in cells]
            while row and row[-1] is None:  # openpyxl pads every row to the widest
                row.pop()
            out.append((number, row))
            if len(out) > MAX_ROWS + 1:
                break
        return out
    finally:
        book.close()
