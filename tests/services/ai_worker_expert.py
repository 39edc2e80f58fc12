"""The expert's decision function for the worker test (tests/services/test_ai_expert.py): a
spawned worker imports it by name, so it lives in a module of its own."""

from __future__ import annotations

from typing import Any

from bot.host.ai_workers import resident_mib

#: The expert's budget in tests: few rollouts, no time cap (the same choice whoever decides).
ITERATIONS = 8


def small_expert(map_id: str, state: Any, seat: int, kind: str) -> tuple[Any, float]:
    """The AI ``kind`` with the expert at a small budget; other levels as the bot plays them.
    Records the level and this process's id beside the answer (see the test)."""
    from engine.ai import ExpertPlayer, choose_action
    from maps.loader import load_ruleset

    player = ExpertPlayer(iterations=ITERATIONS, time_cap_s=None) if kind == "expert" else None
    action = choose_action(load_ruleset(map_id), state, seat, kind, player=player)
    return action, resident_mib()
