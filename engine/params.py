"""Rule parameters of a map: the numbers and switches that make the five rule sets differ.

Built from the ``rules`` block of a map's data by :meth:`RuleParams.from_dict`.
Each field names the rulebook rule it encodes (files in ``shared/rules``;
summary table in the documentation's docs/maps/rulesets.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

#: Turns after which a game ends and is scored as it stands. Not in any rulebook: a
#: safeguard against a game no seat can finish, such as two AI seats retrying a
#: tunnel neither can pay for, turn after turn (seen on Europe). Five-player games
#: between AI seats end in 190-270 turns.
TURN_LIMIT = 1000


@dataclass(frozen=True)
class TicketDeal:
    """How many tickets are dealt or drawn and how many must be kept.

    Attributes:
        count: tickets dealt (setup) or drawn (draw-tickets action).
        keep: the minimum to keep (fewer when fewer were drawn: all of them).
        unkept: ``"bottom"`` (under their deck) or ``"remove"`` (out of the game, Nordic).
        announce_mix: the player announces how many come from each deck (Germany).
        mix: a fixed mix, ``((deck, count), ...)`` in data order (Europe: setup
            ``(("long", 1), ("main", 3))``, draws ``(("main", 3),)``; rules digest,
            "Setup"), or None: the first ticket deck that has tickets.
    """

    count: int
    keep: int
    unkept: str = "bottom"
    announce_mix: bool = False
    mix: tuple[tuple[str, int], ...] | None = None


@dataclass(frozen=True)
class StationParams:
    """Train stations (Europe rules digest, "Train stations").

    Attributes:
        count: stations per player (3).
        costs: cards paid for the 1st, 2nd, ... station, of one colour with
            locomotives wild (1, 2, 3).
        points_unbuilt: points for every station not built at the end (4).
    """

    count: int
    costs: tuple[int, ...]
    points_unbuilt: int


@dataclass(frozen=True)
class RuleParams:
    """All rule parameters of one map.

    Attributes:
        min_players, max_players: allowed seat count.
        pieces: trains (carts, buses) per player.
        deck: colour -> number of cards, the wild card under ``"locomotive"``.
        starting_hand: cards dealt to each player.
        face_up: size of the face-up row (5).
        face_up_wild_limit: that many face-up locomotives discard the row and deal
            a new one (None: never).
        face_up_wild_restricted: a face-up locomotive taken first is the whole draw
            and may not be taken second (False on Nordic).
        locomotives_pay: ``"any"`` or ``"tunnels_and_ferries"`` (Nordic).
        initial_tickets, draw_tickets: see :class:`TicketDeal`.
        shuffle_ticket_decks_after_setup: Germany shuffles both decks after setup.
        last_round_at: a player ending a turn with this many pieces or fewer starts the last round.
        double_routes_min_players: with fewer players only one track of a group is usable.
        route_points: length -> points.
        longest_path_bonus: points for the longest continuous path (None: no bonus).
        globetrotter_bonus: points for most completed tickets (None: no bonus).
        merchandise: Amsterdam ``{"cards": 16, "points": {"2": [8, 4], ...}}`` or None.
        french_flags: Paris ``{"colors": [...], "points": 4}`` or None.
        ferry_locomotive_substitute: any N cards may replace one ferry locomotive (Nordic 3).
        stations: Europe's train stations (:class:`StationParams`) or None.
        tiebreaks: ordered tie-break keys after points (``"tickets_completed"``: most;
            ``"longest_path"``: longest path; ``"fewest_stations"``: fewest train
            stations built; ``"longest_path_bonus"``: holds the longest-path bonus).
    """

    min_players: int
    max_players: int
    pieces: int
    deck: Mapping[str, int]
    starting_hand: int = 4
    face_up: int = 5
    face_up_wild_limit: int | None = 3
    face_up_wild_restricted: bool = True
    locomotives_pay: str = "any"
    initial_tickets: TicketDeal = field(default_factory=lambda: TicketDeal(3, 2))
    draw_tickets: TicketDeal = field(default_factory=lambda: TicketDeal(3, 1))
    shuffle_ticket_decks_after_setup: bool = False
    last_round_at: int = 2
    double_routes_min_players: int = 4
    route_points: Mapping[int, int] = field(default_factory=dict)
    longest_path_bonus: int | None = None
    globetrotter_bonus: int | None = None
    merchandise: Mapping[str, Any] | None = None
    french_flags: Mapping[str, Any] | None = None
    ferry_locomotive_substitute: int | None = None
    stations: StationParams | None = None
    tiebreaks: tuple[str, ...] = ("tickets_completed",)

    @property
    def colors(self) -> tuple[str, ...]:
        """The card colours of the deck, wild card excluded, in data order."""
        return tuple(c for c in self.deck if c != "locomotive")

    @property
    def deck_size(self) -> int:
        """Total number of cards in the game."""
        return sum(self.deck.values())

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleParams:
        """Parse a map's ``rules`` block. Raises KeyError/ValueError/TypeError on bad data."""
        cards = data["cards"]
        per = cards["per_color"]
        deck: dict[str, int] = {}
        for color in cards["colors"]:
            deck[color] = int(per[color] if isinstance(per, Mapping) else per)
        deck["locomotive"] = int(cards["locomotives"])

        def deal(d: Mapping[str, Any]) -> TicketDeal:
            return TicketDeal(
                count=int(d["count"]),
                keep=int(d["keep"]),
                unkept=d.get("unkept", "bottom"),
                announce_mix=bool(d.get("announce_mix", False)),
                mix=tuple((str(k), int(n)) for k, n in d["mix"].items()) if d.get("mix") else None,
            )

        st = data.get("stations")
        stations = (
            StationParams(
                int(st["count"]), tuple(int(c) for c in st["costs"]), int(st["points_unbuilt"])
            )
            if st
            else None
        )

        return cls(
            min_players=int(data["players"]["min"]),
            max_players=int(data["players"]["max"]),
            pieces=int(data["pieces"]),
            deck=deck,
            starting_hand=int(data.get("starting_hand", 4)),
            face_up=int(data.get("face_up", 5)),
            face_up_wild_limit=data.get("face_up_wild_limit", 3),
            face_up_wild_restricted=bool(data.get("face_up_wild_restricted", True)),
            locomotives_pay=data.get("locomotives_pay", "any"),
            initial_tickets=deal(data["initial_tickets"]),
            draw_tickets=deal(data["draw_tickets"]),
            shuffle_ticket_decks_after_setup=bool(
                data.get("shuffle_ticket_decks_after_setup", False)
            ),
            last_round_at=int(data.get("last_round_at", 2)),
            double_routes_min_players=int(data.get("double_routes_min_players", 4)),
            route_points={int(k): int(v) for k, v in data["route_points"].items()},
            longest_path_bonus=data.get("longest_path_bonus"),
            globetrotter_bonus=data.get("globetrotter_bonus"),
            merchandise=data.get("merchandise"),
            french_flags=data.get("french_flags"),
            ferry_locomotive_substitute=data.get("ferry_locomotive_substitute"),
            stations=stations,
            tiebreaks=tuple(data.get("tiebreaks", ("tickets_completed",))),
        )
