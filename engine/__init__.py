"""The pure rules engine of ttrbot: standard library only, no I/O, no global randomness.

Typical use (map data comes from ``maps.load_ruleset``)::

    rules = maps.load_ruleset("usa")
    state = new_game(rules, seats=4, seed=7)
    for action in legal_actions(rules, state, seat): ...
    transition = apply(rules, state, action)     # (state, events); raises IllegalAction
    view = player_view(rules, transition.state, seat)
"""

from __future__ import annotations

from .actions import (
    AbandonTunnel,
    Action,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
    PayTunnel,
    Resign,
    UndoLast,
)
from .board import Board, City, Route, Ticket
from .errors import EngineError, IllegalAction, SetupError
from .events import (
    EVENT_TYPES,
    CardDrawn,
    DeckReshuffled,
    EngineEvent,
    Event,
    EventBase,
    FaceUpRefilled,
    FaceUpReset,
    GameOver,
    LastRound,
    MoveTakenBack,
    Passed,
    PlayStarted,
    Resigned,
    RouteClaimed,
    SeatEvent,
    TicketsDrawn,
    TicketsKept,
    TunnelAbandoned,
    TunnelPaid,
    TunnelRevealed,
    TurnStarted,
)
from .reducer import (
    Transition,
    apply,
    can_resign,
    can_undo,
    claimable_routes,
    legal_actions,
    new_game,
    replay,
)
from .rules import RULESETS, ClassicRules, build_ruleset
from .rules.amsterdam import MerchandiseDrawn
from .rules.europe import BuildStation, StationBuilt, StationUse
from .rules.paris import FlagCardDeclined, FlagCardKept, FlagOffered, FlagScored, KeepFlagCard
from .scoring import ScoreSheet, score_sheets
from .state import FinalResult, GameState, PlayerState, SeatScore
from .types import GRAY, LOCOMOTIVE, Cards
from .views import PlayerView, PublicView, player_view, public_view

#: Bumped when rules change in a way that changes replays of stored games.
#: "2": empty face-up slots are refilled at every turn end once cards are back
#: in the discard, with the three-locomotive reset on every refill.
#: "3": the three-locomotive reset deals again until a row with fewer can be dealt
#: from the cards available or none can (it stopped after 50 deals).
#: "4": a game ends and is scored after params.TURN_LIMIT turns.
ENGINE_VERSION = "4"

__all__ = [
    "FlagScored",
    "FlagOffered",
    "FlagCardKept",
    "FlagCardDeclined",
    "StationBuilt",
    "MerchandiseDrawn",
    "TurnStarted",
    "TunnelRevealed",
    "TunnelPaid",
    "TunnelAbandoned",
    "TicketsKept",
    "TicketsDrawn",
    "SeatEvent",
    "RouteClaimed",
    "MoveTakenBack",
    "Resigned",
    "PlayStarted",
    "Passed",
    "LastRound",
    "GameOver",
    "FaceUpReset",
    "FaceUpRefilled",
    "DeckReshuffled",
    "CardDrawn",
    "ENGINE_VERSION",
    "EVENT_TYPES",
    "GRAY",
    "LOCOMOTIVE",
    "RULESETS",
    "AbandonTunnel",
    "Action",
    "Board",
    "BuildStation",
    "Cards",
    "City",
    "ClaimRoute",
    "ClassicRules",
    "DrawBlind",
    "DrawFaceUp",
    "DrawTickets",
    "EngineError",
    "EngineEvent",
    "Event",
    "EventBase",
    "FinalResult",
    "GameState",
    "IllegalAction",
    "KeepFlagCard",
    "KeepTickets",
    "Pass",
    "PayTunnel",
    "PlayerState",
    "PlayerView",
    "PublicView",
    "Resign",
    "UndoLast",
    "Route",
    "ScoreSheet",
    "SeatScore",
    "SetupError",
    "StationUse",
    "Ticket",
    "Transition",
    "apply",
    "build_ruleset",
    "can_resign",
    "can_undo",
    "claimable_routes",
    "legal_actions",
    "new_game",
    "player_view",
    "public_view",
    "replay",
    "score_sheets",
]
