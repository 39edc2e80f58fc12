"""The game service: lobby, play, clocks and statistics over the engine and SQLite storage.

Nothing here imports discord: methods take Discord ids and return dataclasses.
Start with :class:`GameService`; operations tools are in :mod:`bot.services.ops`.
"""

from __future__ import annotations

from engine import Action, Cards, FinalResult, PlayerView, PublicView, Ruleset
from engine.ai import AI_LEVELS
from engine.planner import TicketPlan, plan_tickets

from ._core import (
    MAX_EXPIRIES,
    TURN_TIMES,
    VACATION_DAYS,
    ai_controlled,
    player_results,
    replay_game,
    stored_state,
    turn_key,
)
from ._errors import ServiceError
from ._menus import KeepChoice, RouteChoice, TunnelChoice, TurnMenu
from ._models import GameViews, Outcome, Reminder, Table, TurnRecord, UserGame, UserStats
from ._port import GameServicePort
from ._service import GameService
from .events import TableEvent

__all__ = [
    "AI_LEVELS",
    "Action",
    "Cards",
    "FinalResult",
    "GameServicePort",
    "KeepChoice",
    "PlayerView",
    "PublicView",
    "RouteChoice",
    "Ruleset",
    "Table",
    "TableEvent",
    "TicketPlan",
    "TunnelChoice",
    "TurnMenu",
    "TurnRecord",
    "MAX_EXPIRIES",
    "TURN_TIMES",
    "VACATION_DAYS",
    "GameService",
    "GameViews",
    "Outcome",
    "Reminder",
    "ServiceError",
    "UserGame",
    "UserStats",
    "ai_controlled",
    "plan_tickets",
    "player_results",
    "replay_game",
    "stored_state",
    "turn_key",
]
