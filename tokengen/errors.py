"""One error hierarchy for tokengen; the CLI maps each to a one-line message and an exit code."""

from __future__ import annotations

from pathlib import Path


class TokengenError(Exception):
    """Base of every error tokengen raises on purpose.

    ``exit_code`` is what the CLI exits with (2: bad input or usage, 1: a check failed).
    ``str(error)`` is the complete one-line message shown to the user.
    """

    exit_code = 2


class CatalogueError(TokengenError):
    """A catalogue (or other YAML input) is unreadable or invalid.

    Args:
        path: the file at fault.
        message: what is wrong, without the location.
        line: 1-based line number in the file, when known.
        field: dotted path of the offending field (``tokens[3].priority``), when known.
    """

    def __init__(self, path: str | Path, message: str, line: int | None = None, field: str | None = None):
        self.path = str(path)
        self.line = line
        self.field = field
        self.message = message
        where = self.path if line is None else f"{self.path}:{line}"
        what = f"{field}: {message}" if field else message
        super().__init__(f"{where}: {what}")


class UsageError(TokengenError):
    """An option value is malformed (a length without a unit, an unknown page name, …)."""


class LayoutError(TokengenError):
    """The tokens cannot be imposed as asked (page too small, size not printable, too many pages)."""


class RenderError(TokengenError):
    """Drawing failed: a glyph missing from the font, an unreadable art image, …"""


class ArtError(RenderError):
    """A picture (PNG, JPEG or SVG art, an icon) cannot be used: missing, unreadable, refused or
    over a limit.

    Args:
        path: the art file, as the build was given it (resolved: an absolute path).
        reason: what is wrong, without the file.
        line: the line inside the file at fault (an SVG element's), when known.

    ``str()`` names the file as given (``/…/art/huge.jpg: image of …``); a build or export names
    it where the catalogue (or its spreadsheet) does, relative to the catalogue's folder, as a
    :class:`CatalogueError` (``cat.yaml:9: tokens[0].art: art/huge.jpg: image of …``).
    """

    def __init__(self, path: str | Path, reason: str, line: int | None = None):
        self.path = str(path)
        self.reason = reason
        self.line = line
        super().__init__(f"{self.path}{'' if line is None else f':{line}'}: {reason}")


class ExportError(TokengenError):
    """An output could not be written (read-only folder, output equal to an input, full disk)."""


class CheckFailed(TokengenError):
    """A check ran and found the input unfit (``tokengen check``: the set is not playable;
    ``tokengen preflight``: a print shop would reject the PDF). ``details``: further lines a
    front end may show below the message (the preflight report of a refused export)."""

    exit_code = 1
    details: tuple[str, ...] = ()


class GameModuleError(TokengenError):
    """An installed game module (entry point group ``tokengen.games``) broke its contract: a
    check returned something other than a list of findings. The message names the module."""


class PreflightError(TokengenError):
    """A PDF given to ``tokengen preflight`` cannot be read (missing, not a PDF, encrypted, damaged)."""
