"""Plain results the service returns (no discord, no engine state)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.host.ai_ratings import LevelRatings
from bot.host.ratings import OVERALL, PROVISIONAL_GAMES, Rating
from bot.host.storage import GameRow, ResultRow, Season, SeatRow
from engine import ClassicRules, Event, FinalResult, PlayerView, PublicView
from engine.planner import TicketPlan
from maps.loader import load_ruleset

from ._menus import TurnMenu
from .events import RouteClaimed, StationBuilt


@dataclass(frozen=True, slots=True)
class TableView:
    """The table as one reader sees it, read fresh from the database: the one view model per click.

    ``public`` is None in the lobby; ``mine``/``seat`` are None for a reader
    without a seat (spectators, or ``user_id=0`` for the public channel);
    ``menu`` is the reader's choices when they must act now (else None);
    ``plans`` the ticket planner's plan of each of the reader's tickets (only
    when asked for: the hand's text and image both show it, planned once).
    """

    game: GameRow
    seats: list[SeatRow]
    public: PublicView | None
    mine: PlayerView | None
    seat: int | None
    menu: TurnMenu | None = None
    plans: tuple[TicketPlan, ...] = ()

    @property
    def version(self) -> int:
        """The game version this look was taken at (what a click must carry back)."""
        return self.game.version

    @property
    def channel_id(self) -> int:
        """Where the game lives: its thread, or its channel."""
        return self.game.thread_id or self.game.channel_id

    @property
    def rules(self) -> ClassicRules:
        """The map's rule set (board, parameters, words)."""
        return load_ruleset(self.game.map_id)

    @property
    def language(self) -> str:
        """The table's language for public messages (``en`` or ``de``)."""
        return str(getattr(self.game, "language", None) or "en")


def redacted(event: Event) -> Event:
    """``event`` as the table sees it: its secret part (a blind card's colour, ticket ids) cut out."""
    return event.redacted()


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """One turn of a game's history as the table saw it.

    Attributes:
        number: 0 for the ticket choice at the start, then 1, 2, ... (as the board counts turns).
        seat: who played it (None for the start, where every seat chooses).
        events: its public events, in order.
        last_version: the game version after its last action (a seat that changed hands at
            that version or before, and after the turn before, did so during this turn).
    """

    number: int
    seat: int | None
    events: tuple[Event, ...]
    last_version: int = 0


def _by_turn(
    records: Sequence[TurnRecord], pick: Callable[[Event], tuple[str, int] | None]
) -> list[dict[str, int]]:
    """Per turn of the log (index = turn number; missing numbers are empty), what ``pick`` takes
    from each event (an id and a seat; None: nothing)."""
    out: list[dict[str, int]] = []
    for r in records:
        while len(out) <= r.number:
            out.append({})
        for e in r.events:
            picked = pick(e)
            if picked is not None:
                out[r.number][picked[0]] = picked[1]
    return out


def claims_by_turn(records: Sequence[TurnRecord]) -> list[dict[str, int]]:
    """Per turn of the log (index = turn number; missing numbers are empty), route id -> seat
    claimed in it: what the recap animates (public: the board shows every claim)."""
    return _by_turn(records, lambda e: (e.route, e.seat) if isinstance(e, RouteClaimed) else None)


def stations_by_turn(records: Sequence[TurnRecord]) -> list[dict[str, int]]:
    """Per turn of the log (as :func:`claims_by_turn`), city id -> seat of the train station built
    in it (Europe; public: the board shows every station)."""
    return _by_turn(records, lambda e: (e.city, e.seat) if isinstance(e, StationBuilt) else None)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one service call did to a game.

    Attributes:
        game: the stored game afterwards (status, version, timers).
        events: every event of the applied actions, secrets included: for
            server-side use only, never post them.
        public_events: the same events with their secrets cut out.
        private_events: seat -> that seat's own view of the events
            (``Event.for_reader`` dicts), for ephemeral replies.
        actions: number of actions applied (the caller's and the AI seats').
        to_act: seats that must act now.
        turn_ended: True when the game moved to another turn, phase or the end
            (the channel gets a new board message).
        result: the final result once the game finished.
        from_turn: the number (as the board counts) of the turn the first of
            these actions belonged to: the turn message tells every turn from it.
    """

    game: GameRow
    events: tuple[Event, ...] = ()
    public_events: tuple[Event, ...] = ()
    private_events: dict[int, tuple[dict[str, Any], ...]] = field(default_factory=dict)
    actions: int = 0
    to_act: tuple[int, ...] = ()
    turn_ended: bool = False
    result: FinalResult | None = None
    from_turn: int = 0

    @property
    def finished(self) -> bool:
        """True when the game is over."""
        return self.game.status == "finished"


@dataclass(frozen=True, slots=True)
class UserGame:
    """A game where a user holds a seat (for ``/ttr player games``)."""

    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    map_id: str
    status: str
    seat: int
    your_turn: bool

    @property
    def url(self) -> str:
        """A link to the game's channel (or thread)."""
        return f"https://discord.com/channels/{self.guild_id or '@me'}/{self.thread_id or self.channel_id}"


@dataclass(frozen=True, slots=True)
class LadderLine:
    """One player's line of a server's rating table.

    Attributes:
        rank: 1-based place in the table (best ordinal first).
        player: the rating identity (``user:<id>`` or ``ai:<level>``, see :mod:`bot.host.ratings`).
        user_id: the person (None for a computer level); ai_level: the level (None for people).
        mu, sigma: the rating; games: rated games in this table's season and scope.
    """

    rank: int
    player: str
    user_id: int | None
    ai_level: str | None
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``: what is shown."""
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        """True during the player's first five games (:data:`bot.host.ratings.PROVISIONAL_GAMES`)."""
        return Rating(self.mu, self.sigma, self.games).provisional


@dataclass(frozen=True, slots=True)
class Ladder:
    """A server's rating table in one season and scope (``"*"``: every map, or a map id), best
    first; ``seasons`` every season of the server, ``current`` the season now played;
    ``ai_levels`` the AI levels' reference ratings from the recorded AI games
    (:mod:`bot.host.ai_ratings`), shown beside the table."""

    guild_id: int
    season: int
    current: int
    scope: str
    lines: tuple[LadderLine, ...]
    seasons: tuple[Season, ...]
    ai_levels: LevelRatings = field(default_factory=LevelRatings)

    @property
    def map_id(self) -> str | None:
        """The map of this table, None for every map."""
        return None if self.scope == OVERALL else self.scope

    def page(self, number: int, per_page: int) -> tuple[LadderLine, ...]:
        """The lines of page ``number`` (from 0; clamped to the last page)."""
        last = max(0, (len(self.lines) - 1) // per_page)
        start = min(max(0, number), last) * per_page
        return self.lines[start : start + per_page]

    def pages(self, per_page: int) -> int:
        """How many pages of ``per_page`` lines (at least 1)."""
        return max(1, -(-len(self.lines) // per_page))

    def line_of(self, user_id: int) -> LadderLine | None:
        """The line of ``user_id`` (None when they have no rating here)."""
        return next((line for line in self.lines if line.user_id == user_id), None)


@dataclass(frozen=True, slots=True)
class RatingShift:
    """How a finished rated game moved one seat's rating (overall, in the game's season).

    ``before``/``after`` are ordinals (``mu - 3 sigma``); ``games`` the player's rated games
    after this one (provisional while at most five). Two computer seats of one level share
    their level's shift.
    """

    seat: int
    player: str
    user_id: int | None
    before: float
    after: float
    games: int

    @property
    def provisional(self) -> bool:
        """True during the player's first five games."""
        return self.games <= PROVISIONAL_GAMES


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A player's overall rating after one rated game: the ordinal, the games so far, the map."""

    game_id: int
    games: int
    ordinal: float
    map_id: str


@dataclass(frozen=True, slots=True)
class UserStats:
    """A user's totals over finished games (one guild, or all with guild 0).

    ``longest_path_bonuses``: games in which they won the longest-path bonus (results stored
    since ratings exist); ``favourite_map``: the map they played most (the latest on a tie);
    ``rating``: their line of the server's overall table this season (None: not rated yet);
    ``history``: their overall rating after each rated game of this season, in order.
    """

    user_id: int
    games: int
    wins: int
    avg_score: float
    best_score: int | None
    tickets_completed: int
    tickets_failed: int
    recent: tuple[ResultRow, ...] = ()
    longest_path_bonuses: int = 0
    favourite_map: str | None = None
    rating: LadderLine | None = None
    season: int = 1
    history: tuple[RatingPoint, ...] = ()

    @property
    def win_rate(self) -> float:
        """Wins per game, 0 to 1 (0 without games)."""
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class Reminder:
    """Half of a turn's time is gone: remind these seats (user ids, never AI)."""

    game: GameRow
    seats: tuple[SeatRow, ...]
