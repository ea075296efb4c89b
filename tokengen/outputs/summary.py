"""The sentences both front ends show: what a build or an export wrote, its warnings, the
export's preflight verdict, and the usage errors of the options (one place for each sentence:
``tokengen`` prints them, ``tokengen serve`` shows the same text on the page).

Every function returns one line (no newline); paths are shown as given (``str(path)``).
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..preflight.checks import Check
    from .build import BuildResult

#: ``--flip``/``--back-offset`` given without ``--backs``.
BACKS_NEEDED = "--flip and --back-offset apply to back sheets: add --backs"
#: ``--size`` and ``--scale`` both given.
SIZE_OR_SCALE = "--size and --scale are exclusive: give one or the other"
#: Appended to a bad ``--backs`` value (an optional value can swallow the catalogue's name).
BACKS_HINT = "; put the catalogue before --backs, or write --backs duplex"


def warning_line(warning: str) -> str:
    """``tokengen: warning: WARNING`` (the CLI prints it on stderr)."""
    return f"tokengen: warning: {warning}"


def build_lines(result: BuildResult) -> list[str]:
    """What a build wrote: ``wrote PATH: 18 tokens (1 set) on …`` and, for separate backs,
    ``wrote NAME-backs.pdf: N back page(s)``, then its notes (``faces scaled to …``; the
    warnings are :func:`warning_line`'s)."""
    from .build import describe

    lines = [f"wrote {result.path}: {describe(result)}"]
    if result.back_pages and result.backs_path:
        lines.append(f"wrote {result.backs_path}: {result.back_pages} back page{'s' if result.back_pages != 1 else ''}")
    return lines + list(result.notes)


def export_line(written: Sequence[Path], out_dir: Path, profile: str) -> str:
    """``wrote N file(s) to DIR (profile NAME): a.pdf, b.png, c.png, ...`` (the first three names)."""
    return (f"wrote {len(written)} file{'s' if len(written) != 1 else ''} to {out_dir} (profile {profile}): "
            + ", ".join(p.name for p in written[:3]) + (", ..." if len(written) > 3 else ""))


def preflight_passed(pdf: Path, profile: str, warned: Sequence[str] = ()) -> str:
    """The export's own preflight failed nothing: ``passes every check`` when nothing warned
    either, else ``passes the checks of profile P, with N warning(s) (names)`` after the
    warnings' own lines (:func:`preflight_warning`)."""
    if not warned:
        return f"preflight: {pdf.name} passes every check of profile {profile}"
    return (f"preflight: {pdf.name} passes the checks of profile {profile}, with "
            f"{len(warned)} warning{'s' if len(warned) != 1 else ''} ({', '.join(warned)})")


def preflight_warning(name: str, message: str) -> str:
    """One warning of the export's own preflight: ``preflight: warning NAME: MESSAGE``."""
    return f"preflight: warning {name}: {message}"


def preflight_lines(checks: Sequence[Check]) -> list[str]:
    """``tokengen preflight``'s text lines for ``checks`` (:class:`tokengen.preflight.checks.Check`):
    ``FAIL|WARN|PASS  NAME  MESSAGE`` and one indented line per further problem."""
    lines: list[str] = []
    for check in checks:
        lines.append(f"{'FAIL' if not check.passed else 'WARN' if check.warning else 'PASS'}  {check.name:<12} {check.message}")
        lines += [f"      {'':<12} {problem}" for problem in check.problems[1:]]
    return lines


def preflight_failed(pdf: Path, failed: Sequence[str], profile: str, options: Sequence[str] = ()) -> str:
    """The export's own preflight failed the checks named ``failed`` (the error, or with
    ``--allow-preflight-failures`` the warning after ``warning: ``). ``options`` are the
    preflight options that repeat the export's overrides of the profile (``--page tabloid``), so
    the command shown checks what the export checked."""
    more = "".join(f" {shlex.quote(o)}" for o in options)
    return f"{pdf.name} fails preflight ({', '.join(failed)}): see tokengen preflight {pdf} --profile {profile}{more}"


def usage_line(command: str, message: str) -> str:
    """A usage error of ``command`` (``tokengen build``) in one line:
    ``tokengen build: MESSAGE (see 'tokengen build --help')``, MESSAGE without its final full stop."""
    return f"{command}: {message.rstrip('.')} (see '{command} --help')"

