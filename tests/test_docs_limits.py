"""The limits table of the manual cannot drift (issue 24): every ``--max-*`` option of every
command, read from the click app, has a row in ``docs/limits.md`` naming the flag, the command
and the option's default from the code; every limit in :mod:`tokengen.limits` and the
spreadsheet limits of :mod:`tokengen.sources.table` is either such an option's default or a
row of its own, its value as the code has it."""

from __future__ import annotations

import re

import click

from tests.conftest import ROOT
from tokengen import limits
from tokengen.cli import cli
from tokengen.sources import fields, table, yamlsrc

PAGE = (ROOT / "docs" / "limits.md").read_text("utf-8")
MIB = 1024 * 1024


def _rows() -> list[list[str]]:
    """The cells of the 'Limits at a glance' table, a list per row (header and rule left out)."""
    section = PAGE.split("## Limits at a glance", 1)[1].split("\n## ", 1)[0]
    lines = [line for line in section.splitlines() if line.startswith("|")][2:]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines]


def _commands(group: click.Group = cli, prefix: str = "") -> list[tuple[str, click.Command]]:
    out = []
    for name, command in sorted(group.commands.items()):
        if isinstance(command, click.Group):
            out += _commands(command, f"{prefix}{name} ")
        else:
            out.append((prefix + name, command))
    return out


def _max_options() -> list[tuple[str, str, int]]:
    """(command, flag, default) of every ``--max-*`` option."""
    out = []
    for name, command in _commands():
        for param in command.params:
            for flag in getattr(param, "opts", []):
                if flag.startswith("--max-"):
                    assert isinstance(param.default, int), (name, flag, param.default)
                    out.append((name, flag, param.default))
    return out


def test_the_table_is_found():
    assert len(_rows()) > 20
    assert all(len(row) == 4 for row in _rows()), [row for row in _rows() if len(row) != 4]


def test_every_max_option_has_a_row_with_its_command_and_default():
    options = _max_options()
    assert len(options) >= 19
    rows = _rows()
    for command, flag, default in options:
        found = [row for row in rows if f"`{flag} N`" in row[2] and f"`{command}`" in row[3]]
        assert len(found) == 1, f"docs/limits.md: no row (or more than one) for {flag} on {command}"
        assert found[0][1] == f"{default:,}", f"docs/limits.md: {flag} on {command}: the default is {default:,}, the table says {found[0][1]}"


def test_every_flag_row_names_an_option_that_exists():
    options = {(command, flag) for command, flag, _ in _max_options()}
    for row in _rows():
        for flag in re.findall(r"`(--max-[a-z-]+) N`", row[2]):
            for command in re.findall(r"`([a-z ]+)`", row[3]):
                assert (command, flag) in options, f"docs/limits.md lists {flag} on {command}, which has no such option"


def _mib(value: int) -> str:
    assert value % MIB == 0
    return f"{value // MIB} MiB"


#: The limits without a flag: the code's value as the table shows it, and words of its row.
FIXED = {
    "limits.MIN_SIZE": (f"0.125in ({limits.MIN_SIZE:g} pt)", "smallest token size"),
    "limits.MAX_DESIGN_ELEMENTS": (f"{limits.MAX_DESIGN_ELEMENTS:,}", "token designs × template elements"),
    "limits.MAX_DPI": (f"{limits.MAX_DPI:,}", "resampled down"),
    "limits.MAX_SVG_BYTES": (_mib(limits.MAX_SVG_BYTES), "one SVG file"),
    "limits.MAX_SVG_ATTRIBUTES": (f"{limits.MAX_SVG_ATTRIBUTES:,}", "attributes of one SVG element"),
    "limits.SVG_PATH_NUMBERS_PER_ELEMENT": (f"{limits.SVG_PATH_NUMBERS_PER_ELEMENT:,}", "numbers of SVG path data"),
    "limits.MAX_SVG_NUMBER": (f"{limits.MAX_SVG_NUMBER:.0e}".replace("+0", ""), "largest number of an SVG picture"),
    "limits.MIN_SVG_SIZE": (f"{limits.MIN_SVG_SIZE:g}", "smallest width or height of an SVG picture"),
    "fields.MAX_FONT_BYTES": (_mib(fields.MAX_FONT_BYTES), "one catalogue font file"),
    "yamlsrc.MAX_BYTES": (_mib(yamlsrc.MAX_BYTES), "size of one YAML file"),
    "yamlsrc.MAX_NODES": (f"{yamlsrc.MAX_NODES:,}", "values of one YAML file"),
    "yamlsrc.MAX_DEPTH": (f"{yamlsrc.MAX_DEPTH:,}", "nesting of one YAML file"),
    "table.MAX_BYTES": (_mib(table.MAX_BYTES), "size of one spreadsheet"),
    "table.MAX_ROWS": (f"{table.MAX_ROWS:,}", "token rows of one spreadsheet"),
    "table.MAX_COLUMNS": (f"{table.MAX_COLUMNS:,}", "columns of one spreadsheet"),
    "table.MAX_UNPACKED": (_mib(table.MAX_UNPACKED), "unpacked size of one .xlsx"),
    "table.MAX_PART": (_mib(table.MAX_PART), "one XML part of an .xlsx"),
    "table.MAX_PART_ELEMENTS": (f"{table.MAX_PART_ELEMENTS:,}", "XML elements of one part of an .xlsx"),
    "table.MAX_ELEMENTS": (f"{table.MAX_ELEMENTS:,}", "XML elements of all parts of an .xlsx"),
    "table.MAX_FONTS": (f"{table.MAX_FONTS:,}", "fonts of one .xlsx"),
    "table.MAX_XML_TEXT": (_mib(table.MAX_XML_TEXT), "one text or attribute value in an XML part"),
}


def test_every_fixed_limit_has_a_row_with_its_value():
    rows = _rows()
    for name, (value, words) in FIXED.items():
        found = [row for row in rows if words in row[0]]
        assert len(found) == 1, f"docs/limits.md: no row (or more than one) for {name} ({words!r})"
        assert found[0][1] == value, f"docs/limits.md: {name} is {value}, the table says {found[0][1]}"


def test_every_limit_of_the_limits_module_is_an_option_default_or_a_fixed_row():
    defaults = {default for _, _, default in _max_options()}
    for name in dir(limits):
        value = getattr(limits, name)
        if name.isupper() and isinstance(value, (int, float)):
            # PICTURE_SHARE is the share of --max-art-pixels one picture may hold (that row says so)
            assert value in defaults or f"limits.{name}" in FIXED or name == "PICTURE_SHARE", (
                f"tokengen.limits.{name} = {value} is neither a --max-* option's default nor in the docs' table")
    art = next(row for row in _rows() if "`--max-art-pixels N`" in row[2])
    assert "a fifth" in art[0] and limits.PICTURE_SHARE == 5


def test_the_content_stream_container_row_follows_the_operators_limit():
    from tokengen.preflight.pdfwalk import ITEMS_SHARE

    row = next(row for row in _rows() if "items of one array or dictionary in a content stream" in row[0])
    assert row[1] == f"{limits.PREFLIGHT_LIMITS['operators'] // ITEMS_SHARE:,}" and ITEMS_SHARE == 10
    assert row[2] == "a tenth of `--max-operators`"


def test_every_spreadsheet_limit_has_a_row():
    for name in dir(table):
        if name.startswith("MAX_") and isinstance(getattr(table, name), int):
            assert f"table.{name}" in FIXED, f"tokengen.sources.table.{name} is not in the docs' table"
