"""The game service: lobby, play, clocks and statistics over the engine and the storage.

Nothing here imports discord: methods take Discord ids and return dataclasses.
Start with :class:`GameService` (its constructor wires its parts); operations tools are in :mod:`bot.host.services.ops`.
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

from ._achievements import Achievements, Recompute, game_record
from ._analysis import Analyses, AnalysisView, OnAnalysis
from ._board import BoardStep
from ._changes import CHANNEL as CHANGES_CHANNEL
from ._changes import Changes, OnChange
from ._clock import MAX_EXPIRIES, Timers
from ._coach import Coach, HintAnswer
from ._errors import ServiceError
from ._jobs import Jobs, ProcessJobs, ThreadJobs, WorkerJobs
from ._ladder import ServerLadder, favourite_map, hints_by_default
from ._loading import GameLoader, ai_controlled, replay_game, stored_state, turn_key
from ._lobby import AI_LEVEL_NAMES, Lobby
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
from ._play import VACATION_DAYS, Play
from ._port import GameServicePort
from ._privacy import DEFAULT_RETENTION_DAYS, Privacy, former_player
from ._queries import Queries
from ._recording import MoveRecorder, player_results, rating_identity, rating_places
from ._service import GameService
from ._tables import OnExpired, OpenTable, OpenTables
from .events import Event

__all__ = [
    "CHANGES_CHANNEL",
    "BoardStep",
    "Changes",
    "OnChange",
    "OnExpired",
    "OpenTable",
    "OpenTables",
    "Achievements",
    "Recompute",
    "game_record",
    "Analyses",
    "Coach",
    "GameLoader",
    "Lobby",
    "MoveRecorder",
    "Play",
    "Privacy",
    "Queries",
    "ServerLadder",
    "Timers",
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
