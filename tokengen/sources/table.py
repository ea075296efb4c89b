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
import warnings
import zipfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from ..errors import CatalogueError
from .cellformat import format_date
from .merges import RawRow, fill_merged
from .yamlsrc import one_line

#: Largest spreadsheet read, bytes, and most token rows (the catalogue's limit of 10,000 token
#: designs, as a YAML list of tokens has; it has no flag: ``copies`` repeats a design). Blank rows
#: do not count.
MAX_BYTES = 8 * 1024 * 1024
MAX_ROWS = 10_000
#: Most columns in a header; a value in any later column (of any row) is refused.
MAX_COLUMNS = 256
#: Largest unpacked size of an .xlsx (a zip of XML parts), bytes: a small file that unpacks to
#: gigabytes (a zip bomb) is refused before openpyxl reads it.
MAX_UNPACKED = 64 * 1024 * 1024
#: Largest unpacked XML part of an .xlsx, bytes (a sheet of 10,000 rows of 40 filled columns is
#: about 16 MiB).
MAX_PART = 24 * 1024 * 1024
#: Most XML elements (start tags) of one part of an .xlsx other than its sheets, and of all
#: such parts together, counted by a streaming scan before openpyxl reads them. openpyxl builds
#: an object per element of the styles, the shared strings and the workbook part, 10 to 40 us
#: apiece (measured: 500,000 ``<font>`` took 23 s and 481 MB, 999,999 shared strings 19 s,
#: 400,000 defined names 11 s and 421 MB, 130,980 ``<xf>`` with an alignment 10 s and 338 MB),
#: so these bound that work to a few seconds (at the limits: 3.8 s for the styles, 4.6 s for rich shared strings). The shared strings part may use the whole of
#: :data:`MAX_ELEMENTS` (125,000 plain strings, two elements each); Excel's styles of a plain
#: list are a few hundred elements. The sheets are read row by row and stop at :data:`MAX_ROWS`.
MAX_PART_ELEMENTS = 100_000
MAX_ELEMENTS = 250_000
#: Most fonts of an .xlsx's styles (Excel's specifications and limits: "1,024 global fonts
#: available for use"); openpyxl builds each (500,000 took 23 s and 481 MB). Counted as elements are.
MAX_FONTS = 1_024
#: Longest text or attribute value in an XML part of an .xlsx, bytes (a cell holds at most
#: 32,767 characters, under 200 KB written): a 20 MB attribute took openpyxl 37 s. Measured by
#: the scan as the longest run of bytes without a ``<``, which neither may hold.
MAX_XML_TEXT = 1024 * 1024


@dataclass(frozen=True)
class DateCell:
    """A date, time or duration cell of an .xlsx: ``text`` is what the spreadsheet shows in the
    cell's number format ``fmt`` (``12-Jan`` for 2026-01-12 in ``d-mmm``), None for a format
    tokengen cannot show (then a text field refuses the cell); ``iso`` is its ISO form
    (``2026-11-29``, ``2026-11-29 14:30``, ``14:30`` or ``14:30:15``), which messages and an id
    use; ``kind`` is ``date``, ``date and time`` or ``time`` (``got the date 2026-01-12``)."""

    text: str | None
    kind: str
    iso: str = ""
    fmt: str = ""

    def __str__(self) -> str:
        return self.text if self.text is not None else self.iso


@dataclass(frozen=True)
class Uncalculated:
    """An .xlsx formula cell with no saved value (the file was written by a program that does not
    calculate, such as openpyxl or a script): ``formula`` is its text, ``=B2*2``."""

    formula: str


@dataclass(frozen=True)
class Shown:
    """An .xlsx number or boolean cell with a number format that shows it otherwise than
    plainly: ``text`` is what the spreadsheet shows (``007`` for 7 in format ``000``, ``50%`` for
    0.5, ``1,234.50`` for 1234.5 in ``#,##0.00``, ``TRUE`` for true), ``value`` the number or
    boolean stored. A text field prints ``text`` (``str()`` of the cell is it); a number field
    takes ``value``. ``text`` is None when the format (``fmt``) is one tokengen cannot show as the
    sheet does (a fraction ``# ?/?``, a condition ``[>100]``): a number field still takes the
    value, a text field refuses the cell."""

    text: str | None
    value: int | float | bool
    fmt: str = field(default="", compare=False)

    def __str__(self) -> str:
        return self.text if self.text is not None else _plain(self.value)


class Marked(str):
    """A rich-text cell of an .xlsx: the str is its text as face-text markup (``Deal **2**``, a
    bold run in stars), ``plain`` its text without the styling (``Deal 2``): what a header, an
    id, a number, a colour or a picture path reads."""

    plain: str
    #: What its runs have that is not printed (``superscript``, ``underline``, ``colour``, …).
    dropped: tuple[str, ...]

    def __new__(cls, text: str, plain: str, dropped: tuple[str, ...] = ()) -> Marked:
        made = super().__new__(cls, text)
        made.plain = plain
        made.dropped = dropped
        return made

    def __getnewargs__(self) -> tuple[str, str, tuple[str, ...]]:  # type: ignore[override]  # pickled (to build workers) whole
        return str(self), self.plain, self.dropped


@dataclass(frozen=True)
class Row:
    """One token row: ``values`` maps each header name to its cell (text for CSV; text, number,
    :class:`Marked`, :class:`DateCell`, :class:`Shown` or None for XLSX); ``line`` is the row's line (CSV) or row number (XLSX);
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


def read_table(path: Path, names: Sequence[str] = (), hidden: list[int] | None = None) -> list[Row]:
    """Read the token rows of a ``.csv`` or ``.xlsx`` file. A header cell that is not one of
    ``names`` but matches exactly one of them ignoring case is taken as that name (``ID`` →
    ``id``); any other header is kept as written. Of an .xlsx, the sheet its author sees is read:
    the active sheet if it is visible, else the first visible one; its hidden rows (hidden by
    hand, by an autofilter or in a collapsed group) are skipped as if blank, and when ``hidden``
    is given the row numbers of those that held a value are appended to it (1-based, in order).

    Raises:
        CatalogueError: missing or unreadable file, larger than :data:`MAX_BYTES`, not UTF-8
            (CSV) or not a workbook (XLSX), an XLSX unpacking to more than :data:`MAX_UNPACKED`
            or with a part over :data:`MAX_PART`, more than :data:`MAX_PART_ELEMENTS` XML
            elements in a part other than a sheet, :data:`MAX_ELEMENTS` in all or
            :data:`MAX_FONTS` fonts, a DTD, a damaged part, no header, an empty or repeated
            header name (``name`` and ``Name`` both naming ``name``), a value past the header's
            columns, more than :data:`MAX_ROWS` rows (blank rows not counted) — each naming
            the file and, where there is one, the row and column.
    """
    suffix = _check_file(path)
    skipped: list[int] = []
    raw_rows, decimal_comma = _csv_rows(path) if suffix == ".csv" else (_xlsx_rows(path, skipped), False)
    if hidden is not None:
        hidden.extend(skipped)
    aside = f"; {hidden_rows(skipped)}" if skipped else ""
    header: list[str] | None = None
    header_line = 1
    rows: list[Row] = []
    for line, cells, far in raw_rows:
        _refuse_uncalculated(path, line, cells, header)
        if far is None and _blank(cells):
            continue
        if header is None:
            if far is not None:
                raise CatalogueError(path, f"header has a name in column {column_letter(far)}, past the {MAX_COLUMNS} columns read", line=line)
            header, header_line = _header(path, line, cells, names), line
            letters = {name: column_letter(i) for i, name in enumerate(header) if name}  # one map, shared by every row (read only)
            continue
        _check_row(path, line, cells, far, len(header), len(rows))
        values = {name: (cells[i] if i < len(cells) else None) for i, name in enumerate(header) if name}
        rows.append(Row(values, line, letters, header_line, decimal_comma))
    _check_found(path, header is not None, len(rows), aside)
    return rows


def _check_found(path: Path, headed: bool, rows: int, aside: str) -> None:
    """Refuse a table without a header, or with a header and no token rows (``aside``: what the
    message adds about hidden rows).

    Raises:
        CatalogueError: naming the file.
    """
    if not headed:
        raise CatalogueError(path, f"is empty: the first row must name the fields (id, copies, …){aside}")
    if not rows:
        raise CatalogueError(path, f"has a header but no token rows{aside}")


def _check_file(path: Path) -> str:
    """The lower-case suffix of a token table that exists and is at most :data:`MAX_BYTES`.

    Raises:
        CatalogueError: not .csv or .xlsx, missing, unreadable, or too large.
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
    return suffix


def _refuse_uncalculated(path: Path, line: int, cells: Sequence[Any], header: list[str] | None) -> None:
    """Refuse a row with a formula whose value the file does not hold, naming its column.

    Raises:
        CatalogueError: the first such cell, at its row and column (and header name).
    """
    formula = next((i for i, c in enumerate(cells) if isinstance(c, Uncalculated)), None)
    if formula is not None:
        name = header[formula] if header is not None and formula < len(header) and header[formula] else None
        column = f"column {column_letter(formula)}"
        raise CatalogueError(path, f"a formula without a saved value ({one_line(cells[formula].formula)}): save the file in a "
                             "spreadsheet program (which calculates it), or type the value", line=line,
                             field=f"{name} ({column})" if name else column)


def _check_row(path: Path, line: int, cells: Sequence[Any], far: int | None, columns: int, rows: int) -> None:
    """Refuse a token row with a value past the header's ``columns`` (or past the columns read:
    ``far``), or one more than :data:`MAX_ROWS` (``rows`` already read).

    Raises:
        CatalogueError: at the row's line.
    """
    extra = [i for i in range(columns, len(cells)) if cells[i] is not None and str(cells[i]).strip()]
    if extra or far is not None:
        at = extra[0] if extra else far
        assert at is not None
        raise CatalogueError(path, f"row has a value in column {column_letter(at)}, past the header's {columns} columns", line=line)
    if rows >= MAX_ROWS:
        raise CatalogueError(path, f"has more than {MAX_ROWS:,} token rows, the most one catalogue holds (a fixed limit, "
                                   "not counting blank rows): split the tokens into two catalogues, or give repeated "
                                   "tokens a 'copies' column", line=line)


#: Most row numbers a message about hidden rows lists (then ``…``).
_LISTED_ROWS = 10


def hidden_rows(numbers: Sequence[int]) -> str:
    """The words for skipped hidden rows: ``1 hidden row skipped (row 4)``, ``2 hidden rows
    skipped (rows 4, 9)``; past :data:`_LISTED_ROWS` rows the list ends with ``…``."""
    listed = ", ".join(str(n) for n in numbers[:_LISTED_ROWS]) + (", …" if len(numbers) > _LISTED_ROWS else "")
    many = len(numbers) != 1
    return f"{len(numbers):,} hidden row{'s' if many else ''} skipped (row{'s' if many else ''} {listed})"


def _blank(cells: Sequence[Any]) -> bool:
    return all(c is None or (isinstance(c, str) and not c.strip()) for c in cells)


def _header(path: Path, line: int, cells: list[Any], known: Sequence[str]) -> list[str]:
    if len(cells) > MAX_COLUMNS:
        raise CatalogueError(path, f"header has {len(cells)} columns, more than {MAX_COLUMNS}", line=line)
    written = ["" if c is None else c.plain if isinstance(c, Marked) else str(c).strip() for c in cells]
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


#: Excel's first line naming the separator of a CSV: ``sep=;`` (then the header on line 2).
_SEP_LINE = re.compile(r"sep=(.)\r?\n?", re.IGNORECASE)


def _csv_rows(path: Path) -> tuple[list[RawRow], bool]:
    """The rows of a CSV with their line numbers (blank rows skipped; at most a header and
    :data:`MAX_ROWS` + 1 rows, enough to tell there are too many), and whether it is
    semicolon-separated."""
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise CatalogueError(path, f"not UTF-8 text (byte 0x{raw[exc.start]:02x}); save the sheet as 'CSV UTF-8' (Excel) or with the character set 'Unicode (UTF-8)' (LibreOffice)", line=line) from None
    if "\x00" in text:
        raise CatalogueError(path, "not a text file (contains NUL bytes)", line=text.count("\n", 0, text.index("\x00")) + 1)
    first = text.split("\n", 1)[0]
    start = 1
    sep = _SEP_LINE.fullmatch(first.rstrip("\r") + "\n") if first.lower().startswith("sep=") else None
    if sep and sep.group(1) not in "\r\n\"":
        delimiter = sep.group(1)
        text = text.split("\n", 1)[1] if "\n" in text else ""
        start = 2
    else:
        delimiter = _delimiter(first)
    reader = csv.reader(io.StringIO(text, newline=""), csv.excel, delimiter=delimiter)  # RFC 4180 quoting
    out: list[RawRow] = []
    offset = start - 1
    try:
        for cells in reader:
            if not _blank(cells):
                out.append((start, list(cells), None))
                if len(out) > MAX_ROWS + 1:
                    break
            start = reader.line_num + 1 + offset
    except csv.Error as exc:
        raise CatalogueError(path, f"not readable as CSV: {one_line(str(exc))}", line=reader.line_num + offset) from None
    return out, delimiter == ";"


def _delimiter(header: str) -> str:
    """The separator of a CSV: whichever of comma, semicolon or tab its header line holds most
    often outside quotes (a comma when none). Only the separator is guessed; quoting is always
    Excel's (RFC 4180: ``"a ""b"" c"``, quoted separators and line breaks)."""
    bare = re.sub(r'"[^"]*"', "", header)
    return max(",;\t", key=bare.count)


# -- .xlsx ------------------------------------------------------------------------------------------

#: Bytes decompressed at a time by the scan of the parts (:func:`_check_parts`).
_CHUNK = 1024 * 1024
_ELEMENT = re.compile(rb"<[A-Za-z_]")  # a start tag (not an end tag, comment, PI or DTD)
_FONT = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?font[\s/>]")
_DTD = re.compile(rb"<!(?:DOCTYPE|ENTITY)", re.IGNORECASE)


def _check_parts(path: Path) -> None:
    """Bound an .xlsx before openpyxl parses it: its unpacked size, each XML part's size (read
    from the zip's directory), and, by a streaming scan of each part with a hard cap, its
    longest text or attribute value, the XML elements of each part other than a sheet
    (:data:`MAX_PART_ELEMENTS`, and :data:`MAX_ELEMENTS` in all; the shared strings part
    may hold the whole of the latter) and the fonts of the styles; a DTD (which Excel never
    writes: entity expansion, external entities) is refused. Raises CatalogueError naming the
    part and the limit."""
    try:
        with zipfile.ZipFile(path) as archive:
            infos = archive.infolist()
            unpacked = sum(info.file_size for info in infos)
            if unpacked > MAX_UNPACKED:
                raise CatalogueError(path, f"unpacks to {unpacked // (1024 * 1024)} MiB, more than {MAX_UNPACKED // (1024 * 1024)} MiB")
            left = MAX_ELEMENTS  # elements the parts other than sheets may still hold
            for info in infos:
                if not info.filename.lower().endswith((".xml", ".rels")):
                    continue
                if info.file_size > MAX_PART:
                    raise CatalogueError(path, f"part {one_line(info.filename)} unpacks to {info.file_size / (1024 * 1024):.1f} MiB, "
                                               f"more than the {MAX_PART // (1024 * 1024)} MiB read of one part")
                counts = _part_counts(info.filename, left)
                found = _scan_part(path, archive, info, counts)
                if counts:
                    left -= found[0]
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, EOFError, OSError, ValueError, RuntimeError) as exc:
        raise _not_a_workbook(path, exc) from None


#: What the scan of a part counts: (pattern, most matches, the message refusing more).
Counts = list[tuple[re.Pattern[bytes], int, str]]


def _part_counts(name: str, left: int) -> Counts:
    """What the scan of the part ``name`` counts: the XML elements of a part other than a sheet
    (a sheet is read row by row, as far as :data:`MAX_ROWS`), at most :data:`MAX_PART_ELEMENTS`
    (the shared strings: :data:`MAX_ELEMENTS`) and at most the ``left`` the parts before it
    leave of :data:`MAX_ELEMENTS`; the fonts of the styles part."""
    lower, part = name.lower(), one_line(name)
    counts: Counts = []
    if "/worksheets/" not in f"/{lower}":  # a sheet is read row by row, as far as MAX_ROWS
        most = MAX_ELEMENTS if lower.endswith("sharedstrings.xml") else MAX_PART_ELEMENTS
        counts.append((_ELEMENT, min(left, most), f"part {part} has more than {most:,} XML elements (a fixed limit)"
                       if most <= left else f"its parts other than sheets hold more than {MAX_ELEMENTS:,} XML elements "
                       f"in all, counted as far as part {part} (a fixed limit)"))
    if lower.endswith("styles.xml"):
        counts.append((_FONT, MAX_FONTS, f"part {part} has more than {MAX_FONTS:,} fonts (Excel's own limit; fixed)"))
    return counts


def _not_a_workbook(path: Path, exc: BaseException) -> CatalogueError:
    """The error for a file the zip reader cannot open as an .xlsx: a CSV file named .xlsx is
    named as such; else the reader's reason."""
    if isinstance(exc, zipfile.BadZipFile) and _csv_text(path):
        return CatalogueError(path, f"not an .xlsx workbook: it holds text like a CSV file; name it {path.with_suffix('.csv').name}")
    return CatalogueError(path, f"not an .xlsx workbook ({one_line(str(exc)) or type(exc).__name__})")


def _csv_text(path: Path) -> bool:
    """Whether the file at ``path`` reads as CSV text (a .csv renamed .xlsx): its first line
    (within the first 64 KiB) decodes as UTF-8 and holds a comma, semicolon or tab."""
    try:
        with path.open("rb") as f:
            head = f.read(64 * 1024)
    except OSError:
        return False
    first = head.split(b"\n", 1)[0]
    try:
        line = first.decode("utf-8-sig")
    except UnicodeDecodeError:
        return False
    return "\x00" not in line and any(sep in line for sep in ",;\t")


def _scan_part(path: Path, archive: zipfile.ZipFile, info: zipfile.ZipInfo, counts: Counts) -> list[int]:
    """Stream one part (at most :data:`MAX_PART` bytes, whatever its directory says): refuse a
    DTD, a text or attribute value over :data:`MAX_XML_TEXT` (a run without ``<``), and more
    than ``limit`` matches of each (pattern, limit, message) of ``counts`` (refused with that
    message); return the match counts, in the order of ``counts``."""
    found = [0] * len(counts)
    tail = b""
    read = run = 0
    name = one_line(info.filename)
    with archive.open(info) as part:
        while chunk := part.read(_CHUNK):
            read += len(chunk)
            if read > MAX_PART:  # a directory that understates the size
                raise CatalogueError(path, f"part {name} unpacks to more than the {MAX_PART // (1024 * 1024)} MiB read of one part")
            run = _check_runs(path, name, chunk, run)
            data = tail + chunk
            if _DTD.search(data):
                raise CatalogueError(path, f"part {name} has a DTD (<!DOCTYPE or <!ENTITY), which spreadsheet programs never write")
            # a tag cut between two chunks is counted in the next (the tail ends before any '<' it holds)
            cut = data.rfind(b"<", max(0, len(data) - 16))
            body, tail = (data[:cut], data[cut:]) if cut >= 0 and counts else (data, data[-16:])
            _add_counts(path, counts, found, body)
    _add_counts(path, counts, found, tail, last=True)
    return found


def _check_runs(path: Path, name: str, chunk: bytes, run: int) -> int:
    """Refuse a run of bytes without ``<`` (a text or attribute value) longer than
    :data:`MAX_XML_TEXT`, counting ``run``, the bytes of the run the chunks before ended with;
    return the run this ``chunk`` ends with."""
    pieces = chunk.split(b"<")  # a run of bytes without '<': one text or attribute value at least
    longest = max([run + len(pieces[0]), *(len(p) for p in pieces[1:-1])]) if len(pieces) > 1 else run + len(chunk)
    run = len(pieces[-1]) if len(pieces) > 1 else run + len(chunk)
    if longest > MAX_XML_TEXT:
        raise CatalogueError(path, f"part {name} holds a text or attribute of more than {MAX_XML_TEXT // (1024 * 1024)} MiB "
                                   "(a cell holds at most 32,767 characters; a fixed limit)")
    return run


def _add_counts(path: Path, counts: Counts, found: list[int], data: bytes, last: bool = False) -> None:
    """Add to ``found`` the matches in ``data`` of each pattern of ``counts``, in order (of the
    ``last`` bytes of a part, a tag cut off: one at most), refusing the first count that passes
    its limit with its message."""
    for i, (pattern, limit, message) in enumerate(counts):
        found[i] += (1 if pattern.search(data) else 0) if last else len(pattern.findall(data))
        if found[i] > limit:
            raise CatalogueError(path, message)


#: Errors openpyxl (and the XML parser under it) raises for a damaged workbook.
_DAMAGED: tuple[type[BaseException], ...] = (SyntaxError, zipfile.BadZipFile, KeyError, IndexError, ValueError, TypeError,
                                             AttributeError, EOFError, OSError, OverflowError, InvalidOperation)


def _xlsx_rows(path: Path, hidden: list[int]) -> list[RawRow]:
    """The non-blank visible rows of the sheet the author sees, each cell as :func:`_cell` makes
    it; at most a header and :data:`MAX_ROWS` + 1 rows. The numbers of non-blank hidden rows are
    appended to ``hidden``. The workbook is read once (saved values; a formula's text is kept
    only where it has no saved value)."""
    from openpyxl.utils.exceptions import InvalidFileException

    _check_parts(path)
    with warnings.catch_warnings():  # openpyxl's remarks on a file (unknown extensions, no default style) are not the user's concern
        warnings.simplefilter("ignore")
        try:
            return _read_xlsx(path, hidden)
        except CatalogueError:
            raise
        except (InvalidFileException, *_DAMAGED) as exc:  # type: ignore[misc]  # mypy cannot type a starred tuple of exception classes in an except clause
            if isinstance(exc, ValueError) and str(exc).startswith("Unable to read workbook") and exc.__cause__ is not None:
                exc = exc.__cause__  # openpyxl's "could not read … from <file>" over the reason
            raise CatalogueError(path, f"not a readable .xlsx workbook ({type(exc).__name__}: {one_line(str(exc))[:200]})") from None


def _read_xlsx(path: Path, hidden: list[int]) -> list[RawRow]:
    """The rows of the sheet the author sees (:func:`_xlsx_rows`), read with openpyxl."""
    import openpyxl

    # the file opened here, so it is closed however openpyxl fails (it leaves its own zip open on an
    # error, closed only when the garbage collector breaks the exception's cycle: a ResourceWarning)
    # rich_text: a cell's bold and italic runs are read as runs (:func:`_marked`), not flattened
    with path.open("rb") as file, closing(openpyxl.load_workbook(file, read_only=True, data_only=True, rich_text=True)) as book:
        sheet = _seen_sheet(path, book)
        out: list[RawRow] = []
        merged: list[str] = []
        for number, cells, shown in _sheet_cells(path, sheet, merged):
            row, far = _row_values(path, cells, sheet)
            if not shown:
                if far is not None or not _blank(row):
                    hidden.append(number)
                continue
            _refuse_error_value(path, cells)
            if far is not None or not _blank(row):
                out.append((number, row, far))
                if len(out) > MAX_ROWS + 1:
                    break
        return fill_merged(path, out, merged)


def _row_values(path: Path, cells: list[dict[str, Any]], sheet: Any) -> tuple[list[Any], int | None]:
    """A sheet row's values by column (None where empty, :func:`_cell` for the others) up to
    :data:`MAX_COLUMNS` + 1, and the first column past that holding a value (else None).

    Raises:
        CatalogueError: a cell whose value or style cannot be read, at its row and column.
    """
    row: list[Any] = []
    far = None
    for cell in cells:
        column = cell["column"] - 1
        try:
            value = _cell(cell, sheet)
        except _DAMAGED as exc:
            raise _damaged_cell(path, cell["row"], cell["column"], exc) from None
        if value is None or (isinstance(value, str) and not value):
            continue
        if column > MAX_COLUMNS:
            far = column if far is None else min(far, column)
            continue
        row.extend([None] * (column + 1 - len(row)))
        row[column] = value
    return row, far


def _refuse_error_value(path: Path, cells: list[dict[str, Any]]) -> None:
    """Refuse a visible row's first error value (``#DIV/0!``) within the columns read.

    Raises:
        CatalogueError: naming the cell (``C5``) in the message.
    """
    wrong = next((c for c in cells if c["data_type"] == "e" and c["value"]), None)
    if wrong is not None and wrong["column"] - 1 <= MAX_COLUMNS:
        at = f"{column_letter(wrong['column'] - 1)}{wrong['row']}"  # in the message: `check` shows no field without a line
        raise CatalogueError(path, f"{at}: {one_line(str(wrong['value']))[:20]} is an error value in the sheet: correct "
                                   "the formula or the cells it reads, or clear the cell")


def _seen_sheet(path: Path, book: Any) -> Any:
    """The worksheet a spreadsheet program opens on: the active one if visible, else the first
    visible one (a chart sheet is not a table)."""
    sheets = [ws for ws in book.worksheets if getattr(ws, "sheet_state", "visible") == "visible"]
    if not sheets:
        raise CatalogueError(path, "has no visible worksheet")
    active = book.active
    return active if active in sheets else sheets[0]


#: The last row and column of a worksheet (Excel's, XFD1048576).
_LAST_ROW, _LAST_COLUMN = 1_048_576, 16_384


def _damaged_cell(path: Path, row: int, column: int, exc: BaseException) -> CatalogueError:
    """The error for a cell whose value or style cannot be read, at its row and column (1-based)."""
    return CatalogueError(path, f"a damaged cell ({type(exc).__name__}: {one_line(str(exc))[:200]})", line=row,
                          field=f"column {column_letter(column - 1)}")


def _sheet_cells(path: Path, sheet: Any, merged: list[str]) -> Iterator[tuple[int, list[dict[str, Any]], bool]]:
    """The rows of a read-only worksheet as (row number, cells, shown), each cell openpyxl's dict
    of ``row``, ``column``, ``value`` (the saved value), ``data_type`` and ``style_id``, plus
    ``formula`` (its text, ``=B2*2``) when it has a formula and no saved value; ``shown`` is false
    for a row marked hidden (``<row hidden="1">``: hidden by hand, by an autofilter or in a
    collapsed group). One pass over the sheet's XML; once it is read whole, the sheet's merged
    ranges (``B2:B3``) are appended to ``merged``.

    Raises:
        CatalogueError: a shared-string cell whose index is not one of the workbook's shared
            strings, or a cell whose value cannot be read (a boolean ``2``, a date ``x``), naming
            its row and column; a cell reference or row number outside A1 to XFD1048576 (``ZZZZ1``,
            ``A0``), naming the row where it is one.
    """
    # read_rich_text (rich_text=True) leaves Excel's escape of an underscore (_x005F_) that the
    # plain reader takes out: taken out here too, from the plain strings
    shared = [text.replace("x005F_", "") if isinstance(text, str) else text for text in sheet._shared_strings]
    book = sheet.parent
    with sheet._get_source() as source:
        parser = _parser_class()(source, shared, data_only=True, epoch=book.epoch, date_formats=book._date_formats,
                                 timedelta_formats=book._timedelta_formats, rich_text=True)
        parser.path, parser.strings, parser.hidden = path, len(shared), set()
        for number, cells in parser.parse():
            yield number, cells, number not in parser.hidden
        ranges = getattr(parser, "merged_cells", None)  # <mergeCells>, after the rows: read by openpyxl's parser
        merged += [str(cell.ref) for cell in getattr(ranges, "mergeCell", None) or ()]


def _parser_class() -> Any:
    """openpyxl's worksheet parser, made to note the rows marked hidden (in ``hidden``), to keep
    a formula's text where the cell has no saved value, and to refuse a damaged cell by its row
    and column (:func:`_cell_place`, :func:`_check_cell_type`) rather than fail inside openpyxl.
    Its ``path`` and ``strings`` (the workbook's shared strings) are set on each instance."""
    from openpyxl.worksheet._reader import FORMULA_TAG, VALUE_TAG, WorkSheetParser

    class Parser(WorkSheetParser):
        path: Path
        strings = 0
        hidden: set[int] = set()

        def parse_row(self, element: Any) -> tuple[int, list[dict[str, Any]]]:
            number, cells = super().parse_row(element)
            if element.get("hidden", "").strip().lower() in ("1", "true"):
                self.hidden.add(number)
            return number, cells

        def parse_cell(self, element: Any) -> dict[str, Any]:
            row, column = _cell_place(self.path, element.get("r"), self.row_counter, self.col_counter)
            _check_cell_type(self.path, element, VALUE_TAG, self.strings, row, column)
            try:
                cell = super().parse_cell(element)
            except _DAMAGED as exc:
                raise _damaged_cell(self.path, row, column, exc) from None
            if cell["data_type"] == "e" and element.get("t", "n") == "n":  # openpyxl's "#VALUE!" for a date it cannot read
                raise CatalogueError(self.path, f"{column_letter(column - 1)}{row}: a date or time cell holds "
                                                f"{one_line(str(element.findtext(VALUE_TAG)))[:20]}, outside the dates a "
                                                "spreadsheet shows (1900 to 9999)")
            if cell["value"] is None:
                formula = element.find(FORMULA_TAG)
                if formula is not None:
                    cell["formula"] = "=" + (formula.text or "")
            return cell

    return Parser


def _cell_place(path: Path, reference: str | None, row_counter: int, col_counter: int) -> tuple[int, int]:
    """A cell's (row, column), 1-based: from its reference (``C5``), else from the parser's
    counters (a cell written without one follows the one before).

    Raises:
        CatalogueError: outside A1 to XFD1048576, naming the row where it is one.
    """
    from openpyxl.utils.cell import coordinate_to_tuple

    try:
        row, column = coordinate_to_tuple(reference) if reference else (row_counter, col_counter + 1)
    except (ValueError, TypeError, IndexError):
        row, column = 0, 0
    if not (1 <= row <= _LAST_ROW and 1 <= column <= _LAST_COLUMN):
        line = row_counter if 1 <= row_counter <= _LAST_ROW else None
        if reference:
            raise CatalogueError(path, f"cell reference '{one_line(reference)[:20]}' is not a cell (A1 to XFD1048576): a damaged file", line=line)
        raise CatalogueError(path, f"row number {row_counter} is not a row (1 to {_LAST_ROW:,}): a damaged file", line=line)
    return row, column


def _check_cell_type(path: Path, element: Any, value_tag: str, strings: int, row: int, column: int) -> None:
    """Refuse a shared-string cell whose index is not one of the workbook's ``strings`` (openpyxl
    indexes a Python list: -1 would read the last string) and a boolean cell holding other than
    0 or 1 (openpyxl reads any number as true).

    Raises:
        CatalogueError: a damaged file, at the cell's row and column.
    """
    if element.get("t") == "s":  # openpyxl indexes a Python list: -1 would read the last string
        index = element.findtext(value_tag, None) or None
        if index is not None and not (index.strip().isdigit() and int(index) < strings):
            raise CatalogueError(path, f"a shared-string cell refers to string {one_line(index)[:20]}, but the workbook has "
                                       f"{strings} (numbered from 0): a damaged file",
                                 line=row, field=f"column {column_letter(column - 1)}")
    if element.get("t") == "b":  # openpyxl reads any number as a boolean: bool(int("2")) is True
        flag = (element.findtext(value_tag, None) or "").strip()
        if flag not in ("0", "1", ""):
            raise CatalogueError(path, f"a boolean cell holds {one_line(flag)[:20]!r}, not 0 or 1: a damaged file",
                                 line=row, field=f"column {column_letter(column - 1)}")


def _cell(cell: dict[str, Any], sheet: Any) -> Any:
    """A cell's value as read: text stripped (rich text as markup, :func:`_marked`), a date as a
    :class:`DateCell`, a boolean or a formatted number as a :class:`Shown`, a formula with no
    saved value as :class:`Uncalculated`."""
    if "formula" in cell:
        return Uncalculated(cell["formula"])
    value = cell["value"]
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, bool):  # TRUE and FALSE whatever the format, as both programs show them
        return Shown("TRUE" if value else "FALSE", value)
    if isinstance(value, (int, float)):
        return _number_cell(value, _cell_format(cell, sheet))
    if isinstance(value, (datetime.date, datetime.time, datetime.timedelta)):
        return _date_cell(value, _cell_format(cell, sheet))
    if value is not None:  # openpyxl's CellRichText
        return Marked(_marked(value).strip(), "".join(run if isinstance(run, str) else str(run.text) for run in value).strip(),
                      _dropped(value, sheet, cell["style_id"]))
    return value


def _cell_format(cell: dict[str, Any], sheet: Any) -> str:
    """The number format of a cell (``General`` for a cell with no style)."""
    return _number_format(sheet, cell["style_id"]) if cell["style_id"] else "General"


def _number_cell(value: int | float, fmt: str) -> int | float | Shown:
    """A number cell: the number itself when its format ``fmt`` shows it plainly, else a
    :class:`Shown` with the text the format shows (None for a format tokengen cannot show)."""
    if fmt in ("General", "@", ""):
        general = _general(value)
        return value if general == _plain(value) else Shown(general, value, fmt)
    shown = format_number(value, fmt)
    if shown is None:
        return Shown(None, value, fmt)
    return Shown(shown, value, fmt) if shown != _plain(value) else value


def _marked(text: Any) -> str:
    """A rich-text cell (openpyxl's ``CellRichText``: plain strings and ``TextBlock`` runs with a
    font) as face-text markup: a bold run as ``**…**``, an italic one as ``*…*``, both as
    ``***…***``, the text of each run as typed. A style changes where a run's words start and
    ends before its trailing white space, so the stars always touch a word (markup reads a star
    with white space on both sides as a star). Other run properties (colour, size, underline,
    font) are not kept: the face's text element styles the whole text."""
    out: list[str] = []
    bold = italic = False
    trail = ""  # the white space after the last word, written once the next style is known
    for run in text:
        words = run if isinstance(run, str) else str(run.text)
        font = None if isinstance(run, str) else run.font
        want_bold, want_italic = bool(font is not None and font.b), bool(font is not None and font.i)
        core = words.strip()
        if not core:
            trail += words
            continue
        lead = words[: len(words) - len(words.lstrip())]
        stars = _toggle(bold != want_bold, italic != want_italic)
        opens = (want_bold and not bold) or (want_italic and not italic)
        # a style that only ends closes at the last word; one that starts opens at the next
        out.append(trail + lead + stars if opens else stars + trail + lead)
        out.append(core)
        bold, italic, trail = want_bold, want_italic, words[len(words.rstrip()):]
    out.append(_toggle(bold, italic))
    return "".join(out)


def _dropped(text: Any, sheet: Any, style_id: int) -> tuple[str, ...]:
    """What the runs of a rich-text cell show that a face does not print: ``superscript`` or
    ``subscript``, ``underline``, ``strike-through``, and a ``colour``, ``size`` or ``font`` other
    than the cell's own (a run's black, or its theme's first text colour, is the cell's); in
    the order of :data:`_RUN_PROPERTIES`, run by run."""
    book = sheet.parent
    try:
        base = book._fonts[book._cell_styles[style_id].fontId]
    except (IndexError, AttributeError, TypeError):
        base = None
    found: dict[str, None] = {}
    for run in text:
        font = None if isinstance(run, str) else run.font
        if font is None or not str(run.text).strip():
            continue
        for dropped in _RUN_PROPERTIES:
            name = dropped(font, base)
            if name:
                found[name] = None
    return tuple(found)


def _raised(font: Any, base: Any) -> str | None:
    return str(font.vertAlign) if font.vertAlign in ("superscript", "subscript") else None


def _underlined(font: Any, base: Any) -> str | None:
    return "underline" if font.u not in (None, "none") else None


def _struck(font: Any, base: Any) -> str | None:
    return "strike-through" if font.strike else None


def _own_colour(font: Any, base: Any) -> str | None:
    return "colour" if _colour_key(font.color) != _colour_key(getattr(base, "color", None)) else None


def _own_size(font: Any, base: Any) -> str | None:
    return "size" if font.sz is not None and base is not None and base.sz is not None and float(font.sz) != float(base.sz) else None


def _own_font(font: Any, base: Any) -> str | None:
    return "font" if font.rFont is not None and base is not None and base.name and font.rFont != base.name else None


#: The run properties a face does not print, each (a run's font, the cell's font or None) → its
#: name when the run has it, else None.
_RUN_PROPERTIES: tuple[Callable[[Any, Any], str | None], ...] = (_raised, _underlined, _struck, _own_colour, _own_size, _own_font)


def _colour_key(colour: Any) -> str:
    """A run's or a cell's text colour, with the usual black (none, automatic, black, theme 1) as ``""``."""
    if colour is None or getattr(colour, "auto", None):
        return ""
    if getattr(colour, "type", "") == "theme":
        return "" if colour.theme == 1 and not colour.tint else f"theme {colour.theme} {colour.tint or 0}"
    if getattr(colour, "type", "") == "rgb":
        rgb = str(colour.rgb).upper()
        return "" if rgb[-6:] == "000000" else rgb[-6:]
    return f"{getattr(colour, 'type', '')} {getattr(colour, 'indexed', '')}"


def _toggle(bold: bool, italic: bool) -> str:
    """The stars that switch bold and/or italic: ``**``, ``*`` or ``***``."""
    return "*" * (2 * bold + italic)


def _number_format(sheet: Any, style_id: int) -> str:
    """The number format of a cell's style (``0.00``, ``General``)."""
    from openpyxl.styles.numbers import BUILTIN_FORMATS, BUILTIN_FORMATS_MAX_SIZE

    book = sheet.parent
    number = book._cell_styles[style_id].numFmtId
    if number < BUILTIN_FORMATS_MAX_SIZE:
        return str(BUILTIN_FORMATS.get(number, "General"))
    return str(book._number_formats[number - BUILTIN_FORMATS_MAX_SIZE])


def _general(value: int | float) -> str:
    """A number as the format ``General`` shows it, to 15 significant digits (the most Excel and
    LibreOffice keep): 0.1 + 0.2 is ``0.3``, not ``0.30000000000000004``. Past that range (an
    exponent) or for a whole number, as :func:`_plain` writes it. A sheet shows fewer digits
    when the column is narrow; tokengen cannot know the width, so it prints them."""
    if isinstance(value, int) or value.is_integer():
        return _plain(value)
    text = f"{value:.15g}"
    return _plain(value) if "e" in text else text


def _plain(value: int | float) -> str:
    """A number as a field prints it unformatted (``7``, ``0.5``)."""
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


_LITERAL = re.compile(r'"([^"]*)"|\\(.)|_.|\*.|\[\$([^\]-]*)(?:-[^\]]*)?\]|\[[A-Za-z]+\d*\]')
_PATTERN = re.compile(r"(?P<int>[#0?,]*)(?:\.(?P<dec>[#0?]*))?(?P<exp>E[+-]0+)?")


def format_number(value: int | float, fmt: str) -> str | None:
    """``value`` as a spreadsheet shows it in number format ``fmt``, for the common formats:
    ``0``, ``000`` (zero-padded), ``0.00``, ``#,##0.00`` (thousands), ``0%``, ``0.0%``,
    ``0.00E+00``, with literal text (``"gp"``, ``\\-``, ``[$€-407]``) and a section for
    negative numbers (``#,##0;(#,##0)``). None for ``General``, text (``@``), dates and any
    format not understood (conditions, fractions, scaling by a trailing comma): the caller
    then shows a General number as it is (:func:`_general`) and refuses any other format in a
    text field (:class:`Shown` with no text). Rounds half away from zero, as Excel does."""
    if fmt in ("General", "@") or not fmt:
        return None
    section, value, own_sign = _section_for(value, fmt)
    parsed = _number_pattern(section)
    if parsed is None:
        return None
    prefix, whole, decimals, exponent, suffix = parsed
    percent = prefix.count("%") + suffix.count("%")
    number = Decimal(repr(float(value))) if isinstance(value, float) else Decimal(value)
    number *= Decimal(100) ** percent
    if exponent:
        return prefix + _scientific(number, decimals, exponent) + suffix
    return prefix + _fixed(number, whole, decimals, own_sign) + suffix


def _section_for(value: int | float, fmt: str) -> tuple[str, int | float, bool]:
    """The section of ``fmt`` that shows ``value`` (positive; negative; zero), the value it
    shows (a negative section shows the value without its sign), and whether that section
    writes the sign itself."""
    sections = _split_sections(fmt)
    if value < 0 and len(sections) > 1 and sections[1]:
        return sections[1], -value, True
    if value == 0 and len(sections) > 2 and sections[2]:
        return sections[2], value, False
    return sections[0], value, False


def _number_pattern(section: str) -> tuple[str, str, str | None, str | None, str] | None:
    """One format section as (literal text before, the whole-number digits ``#,##0``, the
    decimal digits or None without a point, the exponent ``E+00`` or None, literal text after),
    or None when tokengen cannot show it: not a plain number pattern, a fraction's ``?``, a
    trailing comma (scaling), no digits, an exponent after more than one ``0``."""
    prefix, pattern, suffix = _parse_section(section)
    if pattern is None:
        return None
    match = _PATTERN.fullmatch(pattern)
    if match is None or not pattern or "?" in pattern:
        return None
    whole, decimals, exponent = match.group("int"), match.group("dec"), match.group("exp")
    if whole.endswith(",") or (not whole and decimals is None):
        return None
    if exponent and whole.replace(",", "") != "0":
        return None
    return prefix, whole, decimals, exponent, suffix


def _scientific(number: Decimal, decimals: str | None, exponent: str) -> str:
    """``number`` in a scientific format (``0.00E+00``): the mantissa to as many decimals as the
    pattern has, the exponent signed and padded to the pattern's zeros."""
    places = len(decimals or "")
    text = f"{float(number):.{places}E}"
    mantissa, power = text.split("E")
    sign = "-" if power.startswith("-") else "+"
    return mantissa + "E" + sign + power.lstrip("+-").zfill(len(exponent) - 2)


def _fixed(number: Decimal, whole: str, decimals: str | None, own_sign: bool) -> str:
    """``number`` in a fixed-point pattern: rounded half away from zero to the decimal digits,
    the whole part padded to its ``0`` digits and grouped by thousands when it has a comma, the
    trailing optional ``#`` decimals dropped when zero; a minus sign unless the section writes
    its own (``own_sign``)."""
    places = len(decimals or "")
    rounded = number.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    digits = f"{abs(rounded):f}"
    integer, _, fraction = digits.partition(".")
    least = whole.count("0")
    integer = integer.lstrip("0").zfill(least) if least else integer.lstrip("0")
    if "," in whole and integer:
        integer = f"{int(integer):,}".zfill(0)
    keep = len(decimals or "") - len((decimals or "").rstrip("#"))  # optional digits at the end
    if keep:
        fraction = fraction[: len(fraction) - keep] + fraction[len(fraction) - keep:].rstrip("0")
    sign = "-" if rounded < 0 and not own_sign else ""
    return sign + integer + ("." + fraction if decimals is not None else "")


def _split_sections(fmt: str) -> list[str]:
    """A number format's sections (positive; negative; zero; text), split at ``;`` outside quotes."""
    sections, current, quoted, escaped = [], "", False, False
    for ch in fmt:
        if escaped:
            current += ch
            escaped = False
        elif ch == "\\":
            current += ch
            escaped = True
        elif ch == '"':
            current += ch
            quoted = not quoted
        elif ch == ";" and not quoted:
            sections.append(current)
            current = ""
        else:
            current += ch
    return sections + [current]


def _parse_section(section: str) -> tuple[str, str | None, str]:
    """(literal text before, the digit pattern, literal text after) of one format section; the
    pattern is None when the section is not a plain number pattern."""
    prefix, pattern, suffix = "", "", ""
    for literal, text in _section_parts(section):
        if literal:
            if pattern:
                suffix += text
            else:
                prefix += text
            continue
        for ch in text:
            # a sign is part of the pattern only in an exponent (0.0E+00); before it, literal text (+0;-0)
            if _in_pattern(ch, pattern) and not suffix:
                pattern += ch
            elif ch in "%$-+/():!^&'~{}<>= " or ch.isspace():
                if pattern:
                    suffix += ch
                else:
                    prefix += ch
            else:
                return "", None, ""
    return prefix, pattern, suffix


def _in_pattern(ch: str, pattern: str) -> bool:
    """Whether ``ch`` continues the digit ``pattern`` read so far: a digit place, a comma or
    point, an ``E`` after digits, a sign right after that ``E``."""
    return ch in "#0?,." or (ch == "E" and bool(pattern)) or (ch in "+-" and pattern.endswith("E"))


def _section_parts(section: str) -> list[tuple[bool, str]]:
    """A format section as (is literal, text) parts: quoted text (``"gp"``), an escaped
    character (``\\-``) and a currency (``[$€-407]``) are literals; a colour in brackets
    (``[Red]``) and the padding and fill codes (``_)``, ``*-``) are empty literals."""
    parts: list[tuple[bool, str]] = []
    last = 0
    for match in _LITERAL.finditer(section):
        if match.start() > last:
            parts.append((False, section[last:match.start()]))
        literal = match.group(1) if match.group(1) is not None else match.group(2) if match.group(2) is not None else (match.group(3) or "")
        parts.append((True, literal))
        last = match.end()
    parts.append((False, section[last:]))
    return parts


def _date_cell(value: datetime.date | datetime.time | datetime.timedelta, fmt: str) -> DateCell:
    """An openpyxl date, time or duration as a :class:`DateCell` with the text format ``fmt``
    shows (:func:`~tokengen.sources.cellformat.format_date`). Its ISO form (for messages, and for
    a format not shown): a date at midnight is the date alone; seconds show only when there are
    some."""
    fmt = _LOCALE_DATES.get(fmt, fmt)
    cell = _iso_cell(value)
    shown = cell.iso if fmt in ("General", "") else format_date(value, fmt)  # General: a date written as ISO text (t="d")
    return DateCell(shown, cell.kind, cell.iso, fmt)


def _iso_cell(value: datetime.date | datetime.time | datetime.timedelta) -> DateCell:
    if isinstance(value, datetime.timedelta):  # a duration format such as [h]:mm
        seconds = round(value.total_seconds())
        minutes, second = divmod(abs(seconds), 60)
        clock = f"{minutes // 60}:{minutes % 60:02d}" + (f":{second:02d}" if second else "")
        return DateCell(None, "time", ("-" if seconds < 0 else "") + clock)
    if isinstance(value, datetime.datetime):
        if value.time() == datetime.time():
            return DateCell(None, "date", value.date().isoformat())
        return DateCell(None, "date and time", f"{value.date().isoformat()} {_clock(value.time())}")
    if isinstance(value, datetime.date):
        return DateCell(None, "date", value.isoformat())
    return DateCell(None, "time", _clock(value))


#: The built-in date formats whose look follows the reader's locale (ECMA-376 Part 1, §18.8.30:
#: numFmtId 14 is the system's short date, 22 its short date and time), as Excel shows them for
#: the United States (openpyxl names them ``mm-dd-yy`` and ``m/d/yy h:mm``).
_LOCALE_DATES = {"mm-dd-yy": "m/d/yyyy", "m/d/yy h:mm": "m/d/yyyy h:mm"}


def _clock(time: datetime.time) -> str:
    """``14:30``, or ``14:30:15`` when there are seconds (milliseconds are dropped)."""
    return time.isoformat("seconds" if time.second else "minutes")
