"""Typed refusals of the game service.

A :class:`ServiceError` is a :class:`words.Refusal`: a stable ``code`` from
the closed table :data:`words.ERRORS` (turned into words at the edge by
:func:`words.error_text`) and a JSON-able ``detail``. Engine refusals
(:class:`engine.IllegalAction`, :class:`engine.SetupError`) pass through the
service unchanged: they are refusals already.
"""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """A request the service refuses; nothing was changed.

    Attributes:
        code: e.g. ``game_not_found``, ``not_in_game``, ``not_your_turn``,
            ``stale_version``, ``not_host``, ``game_full``, ``already_joined``,
            ``not_started``, ``game_over``, ``channel_busy``, ``bad_days``,
            ``vacation_limit``, ``is_ai``, ``malformed_action``, ``unknown_map``,
            ``not_enough_players``, ``too_many_players``, ``host_cannot_leave``,
            ``not_allowed``, ``bad_turn_time``, ``bad_ai_level``.
        detail: facts for the message (``{"min": 2, "max": 5}`` ...).
    """

    def __init__(self, code: str, detail: dict[str, Any] | None = None) -> None:
        self.code = code
        self.detail = dict(detail or {})
        super().__init__(f"{code}: {self.detail}" if self.detail else code)
