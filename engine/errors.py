"""Typed errors raised by the rules engine.

Every rule violation raises :class:`IllegalAction` with a stable ``code`` (a short
snake_case string such as ``not_your_turn`` or ``cannot_pay``) and an optional
``detail`` dict. Only the presentation layer (cogs) turns codes into words.
"""

from __future__ import annotations

from typing import Any


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""


class IllegalAction(EngineError):
    """An action that the rules do not allow in the current state.

    Attributes:
        code: stable machine-readable reason, e.g. ``"route_taken"``.
        detail: JSON-able facts for the message (route id, counts, ...).

    The state the action was applied to is never modified.
    """

    def __init__(self, code: str, detail: dict[str, Any] | None = None) -> None:
        self.code = code
        self.detail = dict(detail or {})
        super().__init__(f"{code}: {self.detail}" if self.detail else code)


class SetupError(EngineError):
    """A game cannot be created as asked (player count, unknown option).

    Attributes:
        code: ``"player_count"`` or ``"bad_option"``.
        detail: JSON-able facts (allowed range, option name, ...).
    """

    def __init__(self, code: str, detail: dict[str, Any] | None = None) -> None:
        self.code = code
        self.detail = dict(detail or {})
        super().__init__(f"{code}: {self.detail}" if self.detail else code)
