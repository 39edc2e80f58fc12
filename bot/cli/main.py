"""``python -m bot [command] [options]``: one argparse parser with a sub-parser per command;
no command is ``run``.

Every command fails the same way: one line on stderr, ``ttrbot <command>: <what went wrong>``,
no traceback, and exit code 2 for bad use (argparse's own usage message), a setting that does
not parse, a database that cannot be opened or reached, and a file or folder that cannot be
read or written (an :class:`OSError`, e.g. a read-only bind mount); 1 where a command found
problems (its own lines say which). A stop signal while a command starts ends it at once with
exit code 0 for ``run`` (a stop) and 128 + the signal's number for the others (interrupted).
Only a bug ends in a traceback (exit 1). The table of codes: ``docs/operators/commands.md``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from . import achievements, backup, demo, games, privacy, ratings, run
from ._common import BAD_USE, CommandError
from .stopping import Stopped, exit_code

PROG = "python -m bot"
#: The command families, in the order ``--help`` lists them.
FAMILIES = (run, demo, games, ratings, achievements, backup, privacy)


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``python -m bot``: every command as a sub-parser."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="ttrbot, a Discord bot for Ticket to Ride: the bot (run, the default) and "
        "the operator's tools.",
    )
    commands = parser.add_subparsers(dest="command", metavar="command")
    for family in FAMILIES:
        family.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` (default ``sys.argv[1:]``) and run the command; the exit code."""
    args = build_parser().parse_args(sys.argv[1:] if argv is None else list(argv))
    if args.command is None:  # ``python -m bot`` alone runs the bot
        args.command = "run"
        args.handler = run.run_command
    handler: Callable[[argparse.Namespace], int] = args.handler
    try:
        return handler(args)
    except CommandError as exc:
        return fail(args.command, str(exc), exc.code)
    except Stopped as exc:
        return exit_code([args.command], exc.signum)
    except OSError as exc:
        return fail(args.command, os_error_line(exc), BAD_USE)
    except Exception as exc:
        line = storage_error_line(exc)
        if line is None:
            raise  # a bug: its traceback is what the operator reports
        return fail(args.command, line, BAD_USE)


def fail(command: str, message: str, code: int) -> int:
    """Say ``ttrbot <command>: <message>`` on stderr (one line); returns ``code``."""
    line = " ".join(message.split())
    print(f"ttrbot {command}: {line}", file=sys.stderr)
    return code


def os_error_line(exc: OSError) -> str:
    """An OSError in the operator's words: the file and the system's reason, e.g.
    ``cannot write /out/demo: Read-only file system``."""
    reason = exc.strerror or type(exc).__name__
    if exc.filename is None:
        return f"{reason}: {exc}" if exc.strerror is None else reason
    where = str(exc.filename)
    if exc.filename2 is not None:
        where += f" -> {exc.filename2}"
    return f"cannot use {where}: {reason}"


def storage_error_line(exc: Exception) -> str | None:
    """The line for a database that cannot be opened or used (a :class:`bot.host.storage`
    ``StorageError`` that reached the command), or None for any other exception."""
    storage = sys.modules.get("bot.host.storage")  # imported by whatever raised it
    error = getattr(storage, "StorageError", None)
    if error is None or not isinstance(exc, error):
        return None
    return str(exc) or type(exc).__name__
