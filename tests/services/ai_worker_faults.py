"""Decision functions for AI worker processes that misbehave on purpose (tests/services/test_ai_workers.py).

A spawned worker imports this module by name, so the functions live here, not in
the test module. They read ``TTR_TEST_AI_MARKER`` (a folder) from the environment,
which a spawned process inherits.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

from bot.host.ai_workers import resident_mib

MARKER_ENV = "TTR_TEST_AI_MARKER"
#: The hard AI's budget in tests: few rollouts, no wall-clock cap (so the choice is the same
#: whoever makes it).
ITERATIONS = 6


def cheap(map_id: str, state: Any, seat: int, kind: str) -> tuple[Any, float]:
    """The hard AI with a small budget (deterministic: no time cap)."""
    from engine.ai import HardPlayer, choose_action
    from maps.loader import load_ruleset

    player = HardPlayer(iterations=ITERATIONS, time_cap_s=1e9)
    return choose_action(load_ruleset(map_id), state, seat, kind, player=player), resident_mib()


def hangs_first(map_id: str, state: Any, seat: int, kind: str) -> tuple[Any, float]:
    """The first decision ever (no marker yet): write this process's id into the marker folder and
    wait to be killed. Every later one: :func:`cheap`."""
    folder = Path(os.environ[MARKER_ENV])
    marker = folder / "pid"
    if not marker.exists():
        tmp = folder / "pid.tmp"
        tmp.write_text(str(os.getpid()))
        tmp.rename(marker)
        time.sleep(60)
    return cheap(map_id, state, seat, kind)


def dies(map_id: str, state: Any, seat: int, kind: str) -> tuple[Any, float]:
    """Every decision kills its worker (as the kernel's out-of-memory killer would)."""
    folder = Path(os.environ[MARKER_ENV])
    (folder / f"died-{os.getpid()}").touch()
    os.kill(os.getpid(), signal.SIGKILL)
    raise AssertionError("unreachable")


def stalls(map_id: str, state: Any, seat: int, kind: str) -> tuple[Any, float]:
    """Every decision hangs (a wedged worker)."""
    time.sleep(60)
    return cheap(map_id, state, seat, kind)
