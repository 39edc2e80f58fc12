"""The game service: lobby, play, clocks and statistics over the engine and SQLite storage.

Nothing here imports discord: methods take Discord ids and return dataclasses.
Start with :class:`GameService`; operations tools are in :mod:`bot.host.services.ops`.
"""

from __future__ import annotations

from engine import (
    Action,
    Board,
    Cards,
    ClassicRules,
    FinalResult,
    PlayerView,
    PublicView,
    SeatScore,
)
from engine.ai import AI_LEVELS
from engine.ai.analysis import GameAnalysis, TurningPoint, TurnMove
from engine.ai.coach import Hint, Risk
from engine.planner import TicketPlan

from ._analysis import AnalysisView, OnAnalysis
from ._clock import MAX_EXPIRIES
from ._coach import HintAnswer
from ._errors import ServiceError
from ._jobs import Jobs, ProcessJobs, ThreadJobs, WorkerJobs
from ._ladder import favourite_map, hints_by_default
from ._loading import ai_controlled, replay_game, stored_state, turn_key
from ._lobby import AI_LEVEL_NAMES
from ._menus import KeepChoice, RouteChoice, StationChoice, TunnelChoice, TurnMenu
from ._models import (
    Ladder,
    LadderLine,
    Outcome,
    RatingPoint,
    RatingShift,
    Reminder,
    TableView,
    TurnRecord,
    UserGame,
    UserStats,
    claims_by_turn,
    stations_by_turn,
)
from ._play import VACATION_DAYS
from ._port import GameServicePort
from ._privacy import DEFAULT_RETENTION_DAYS, former_player
from ._recording import player_results, rating_identity, rating_places
from ._service import GameService
from .events import Event

__all__ = [
    "AI_LEVELS",
    "AI_LEVEL_NAMES",
    "DEFAULT_RETENTION_DAYS",
    "Action",
    "AnalysisView",
    "Board",
    "GameAnalysis",
    "Hint",
    "HintAnswer",
    "Jobs",
    "OnAnalysis",
    "ProcessJobs",
    "Risk",
    "ThreadJobs",
    "WorkerJobs",
    "TurnMove",
    "TurningPoint",
    "Cards",
    "FinalResult",
    "SeatScore",
    "GameServicePort",
    "KeepChoice",
    "Ladder",
    "LadderLine",
    "RatingPoint",
    "RatingShift",
    "PlayerView",
    "PublicView",
    "RouteChoice",
    "StationChoice",
    "ClassicRules",
    "TableView",
    "Event",
    "TicketPlan",
    "TunnelChoice",
    "TurnMenu",
    "TurnRecord",
    "MAX_EXPIRIES",
    "VACATION_DAYS",
    "GameService",
    "Outcome",
    "Reminder",
    "ServiceError",
    "UserGame",
    "UserStats",
    "ai_controlled",
    "claims_by_turn",
    "favourite_map",
    "hints_by_default",
    "former_player",
    "player_results",
    "rating_identity",
    "rating_places",
    "replay_game",
    "stations_by_turn",
    "stored_state",
    "turn_key",
]
