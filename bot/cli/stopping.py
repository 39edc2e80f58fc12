"""Stop signals from the process's first moment (``python -m bot`` installs this before it
imports anything heavy).

Python as a container's PID 1 ignores SIGTERM until a handler is installed (the kernel drops
signals with the default action for PID 1), so without this a ``docker stop`` during start-up
waited Docker's whole grace period. :func:`install` makes SIGTERM and SIGINT raise
:class:`Stopped` while the process starts (imports, reading settings: nothing is stored yet),
which ends the command at once; once the bot's event loop is about to take the signals over,
:func:`hold` turns that into a note only, which the loop reads with :func:`received` when it
installs its own handlers (:func:`bot.process.run.run`), so a signal between the two is not lost.
"""

from __future__ import annotations

import signal
from collections.abc import Sequence
from types import FrameType

#: The signals that stop the process.
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)

_received: int | None = None
_raising = True


class Stopped(BaseException):
    """A stop signal arrived while the command was starting; ``signum`` is the signal.

    A BaseException, like KeyboardInterrupt, so that no ``except Exception`` on the way swallows
    it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _on_signal(signum: int, frame: FrameType | None) -> None:
    global _received
    _received = signum
    if _raising:
        raise Stopped(signum)


def install() -> None:
    """Take SIGTERM and SIGINT: from now on each raises :class:`Stopped` (until :func:`hold`)."""
    global _raising, _received
    _raising, _received = True, None
    for sig in STOP_SIGNALS:
        signal.signal(sig, _on_signal)


def hold() -> None:
    """From now on a stop signal is only noted (see :func:`received`): the caller is about to
    hand the signals to its event loop, where an exception raised at a random point would
    interrupt the loop's own work."""
    global _raising
    _raising = False


def exit_code(argv: Sequence[str], signum: int) -> int:
    """The exit code of a command line ``argv`` (without the program) that a stop signal ended
    while it started: 0 for the bot (``run``, also ``python -m bot`` alone: a stop is its
    normal end), 128 + ``signum`` for the other commands (interrupted)."""
    command = next((a for a in argv if not a.startswith("-")), "run")
    return 0 if command == "run" else 128 + signum


def received() -> int | None:
    """The stop signal noted so far (its number), or None."""
    return _received
