"""The ``tokengen`` command line: parse options, call one library function, map errors to exit codes.

Exit codes: 0 success; 1 a check found problems; 2 bad input or usage; 70 an internal error (a bug);
130 interrupted; 143 terminated.
"""

from __future__ import annotations

import os
import signal
import sys

import click

from ..errors import TokengenError
from ..io import signals
from . import batch, rules, serve, sheets, shop, streams  # noqa: F401  (importing each adds its commands to cli)
from .app import cli
from .habits import add_to_every_command
from .links import add_to_readers

add_to_every_command(cli)  # -q/--quiet and -v/--verbose after the command's name too
add_to_readers(cli)  # --offline, --max-fetch-mb, --max-fetch-seconds for a catalogue's tokens: link

__all__ = ["cli", "main", "run", "usage_message"]


def usage_message(exc: click.ClickException) -> str:
    """One line for a click usage error: click's own message, a hint where a common slip is
    likely, and where to read more (click prints usage, a blank line and the error otherwise)."""
    from ..outputs.summary import BACKS_HINT, usage_line

    message = exc.format_message()
    param = getattr(exc, "param", None)
    if isinstance(exc, click.BadParameter) and param is not None and param.name == "backs":
        message = message.rstrip(".") + BACKS_HINT
    ctx = getattr(exc, "ctx", None)
    if isinstance(exc, click.UsageError) and ctx is not None:
        message = usage_line(ctx.command_path, message)
    return message


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``tokengen`` script: runs :func:`cli` and turns every error into a
    one-line message on stderr and an exit code (never a traceback). With no arguments at all
    it prints the help and exits 0. Standard output that cannot be written (closed pipe, full
    disk, an encoding without the text) is one line and exit code 2 too (:mod:`tokengen.cli.streams`)."""
    completing = "_TOKENGEN_COMPLETE" in os.environ  # shell completion passes its words in the environment
    if not (sys.argv[1:] if argv is None else argv) and not completing:
        with click.Context(cli, info_name="tokengen") as ctx:
            click.echo(cli.get_help(ctx))
        return streams.finish_stdout(0)
    try:
        code = _main(argv)
    except SystemExit:  # click ends a closed pipe (EPIPE) with a silent exit 1
        if not streams.click_pacified():
            raise
        streams.report(streams.BROKEN_PIPE)
        return 2
    return streams.finish_stdout(code)


def _main(argv: list[str] | None) -> int:
    try:
        cli.main(args=argv, prog_name="tokengen", standalone_mode=False)
    except TokengenError as exc:
        click.echo(f"tokengen: error: {exc}", err=True)
        return exc.exit_code
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.Abort:
        click.echo("tokengen: interrupted", err=True)
        return 130
    except click.ClickException as exc:
        click.echo(f"tokengen: error: {usage_message(exc)}", err=True)
        return 2
    except KeyboardInterrupt:
        click.echo("tokengen: interrupted", err=True)
        return 130
    except Exception as exc:  # a bug of ours: one line for the user, the traceback on request
        failure = streams.stdout_failure(exc)
        if failure is not None:
            streams.report(failure)
            return 2
        if os.environ.get("TOKENGEN_DEBUG"):
            raise
        from ..sources.yamlsrc import one_line
        click.echo(f"tokengen: internal error: {type(exc).__name__}: {one_line(str(exc))} "
                   "(please report it; TOKENGEN_DEBUG=1 shows the traceback)", err=True)
        return 70
    return 0



def run() -> None:
    """Console-script wrapper: ``sys.exit(main())``. A plain ``kill`` (SIGTERM) exits 143 and
    a hang-up (SIGHUP, the terminal closed) exits 129, both through the normal clean-up, so no
    temporary file is left behind; Ctrl-C exits 130 (also during start-up, see
    :mod:`tokengen._startup`)."""
    signal.signal(signal.SIGINT, signal.default_int_handler)  # start-up is over: KeyboardInterrupt from here
    signal.signal(signal.SIGTERM, signals.exit_on)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signals.exit_on)
    from .console import make_safe

    make_safe()  # a cp1252 or ASCII console prints ↓ as v instead of failing
    sys.exit(main())
