"""The engine's event classes, as the Discord side may read them (it never imports the engine itself).

A closed union: :data:`Event` is every event a game can tell;
:data:`EVENT_TYPES` maps each kind to its class.
"""

from __future__ import annotations

from engine import (
    EVENT_TYPES,
    CardDrawn,
    DeckReshuffled,
    Event,
    EventBase,
    FaceUpRefilled,
    FaceUpReset,
    FlagCardDeclined,
    FlagCardKept,
    FlagOffered,
    FlagScored,
    GameOver,
    LastRound,
    MerchandiseDrawn,
    MoveTakenBack,
    Passed,
    PlayStarted,
    Resigned,
    RouteClaimed,
    StationBuilt,
    TicketsDrawn,
    TicketsKept,
    TunnelAbandoned,
    TunnelPaid,
    TunnelRevealed,
    TurnStarted,
)

__all__ = [
    "EVENT_TYPES",
    "CardDrawn",
    "DeckReshuffled",
    "Event",
    "EventBase",
    "FaceUpRefilled",
    "FaceUpReset",
    "FlagCardDeclined",
    "FlagCardKept",
    "FlagOffered",
    "FlagScored",
    "StationBuilt",
    "GameOver",
    "LastRound",
    "MerchandiseDrawn",
    "MoveTakenBack",
    "Passed",
    "PlayStarted",
    "Resigned",
    "RouteClaimed",
    "TicketsDrawn",
    "TicketsKept",
    "TunnelAbandoned",
    "TunnelPaid",
    "TunnelRevealed",
    "TurnStarted",
]
