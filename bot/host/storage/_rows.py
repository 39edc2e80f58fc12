"""Frozen rows read from and written to the database, the same for every backend.

JSON columns come back as plain ``dict`` objects (the caller must not mutate
them in place and expect the database to change). Times are unix seconds as
``float``; Discord ids are ``int``. Fields that hold secrets (the seed, a
snapshot, an action that names tickets) are left out of ``repr`` so a row
printed into a log line cannot leak them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple, TypedDict

GameStatus = Literal["lobby", "active", "finished", "cancelled", "quarantined"]
ActionSource = Literal["player", "ai", "timeout"]
TimerKind = Literal["deadline", "reminder"]
AnalysisStatus = Literal["queued", "running", "done", "failed"]

#: Statuses in which a channel counts as busy.
OPEN_STATUSES: frozenset[str] = frozenset({"lobby", "active"})
#: Statuses a game never leaves.
FINAL_STATUSES: frozenset[str] = frozenset({"finished", "cancelled"})
#: Every status a game can have. ``quarantined``: the stored state cannot be
#: read (corrupt row); the timers leave it alone until an operator repairs it.
ALL_STATUSES: frozenset[str] = frozenset(
    {"lobby", "active", "finished", "cancelled", "quarantined"}
)
#: Default time a player has for a turn: one day.
DEFAULT_TURN_SECONDS = 86_400
#: Languages a table can be played in (``games.language``).
LANGUAGES: tuple[str, ...] = ("en", "de")
#: The service stores a snapshot every this many actions (and at start and at
#: the end); between two snapshots the action log is the state, replayed by the
#: engine on load. 32 keeps the replay on load under a millisecond and the
#: snapshot share of the bytes written per action small.
SNAPSHOT_EVERY = 32


@dataclass(frozen=True, slots=True)
class GameRow:
    """One game: its Discord placement, lifecycle, clock and version.

    ``version`` is the number of actions applied (0 right after start).
    ``snapshot_version`` is the version of the newest stored snapshot (None in
    the lobby); the state at ``version`` is that snapshot plus the actions
    after it (:meth:`Storage.load_checkpoint`). ``deadline_at`` and
    ``reminder_at`` are the active turn's expiry and nudge time, or None.
    ``language`` is the table's language (one of :data:`LANGUAGES`);
    ``rematch_of`` the game this lobby is a rematch of; ``status_note`` why a
    game was quarantined; ``rated``: the game updates its players' ratings when
    it finishes; ``hints_allowed`` whether players may ask ``/ttr hint``;
    ``paused_at`` when a running game was paused because its server removed the
    bot (None while it plays: a paused game keeps its status ``active``, its
    timers never fire and it takes no move). ``seed`` is secret and left out of
    ``repr``.
    """

    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    lobby_message_id: int | None
    board_message_id: int | None
    host_user_id: int
    map_id: str
    options: dict[str, Any]
    status: GameStatus
    seed: int | None = field(repr=False)
    engine_version: str | None
    version: int
    snapshot_version: int | None
    language: str
    rematch_of: int | None
    turn_seconds: int
    deadline_at: float | None
    reminder_at: float | None
    created_at: float
    updated_at: float
    finished_at: float | None
    status_note: str | None
    rated: bool = False
    hints_allowed: bool = True
    paused_at: float | None = None

    @property
    def started(self) -> bool:
        """True once the game was dealt (it has a seed and a snapshot)."""
        return self.snapshot_version is not None


@dataclass(frozen=True, slots=True)
class NewSeat:
    """A seat to insert. ``seat`` None means the lowest free seat number (from 0).

    An AI seat has ``is_ai=True``, usually ``user_id=None`` and an ``ai_kind``
    such as ``"heuristic"``.
    """

    display_name: str
    user_id: int | None = None
    color: str | None = None
    is_ai: bool = False
    ai_kind: str | None = None
    seat: int | None = None


class SeatChanges(TypedDict, total=False):
    """Columns of a seat to change (see :class:`SeatRow`); omitted keys stay as they are."""

    user_id: int | None
    display_name: str
    color: str | None
    is_ai: bool
    ai_kind: str | None
    expiries_in_row: int
    ai_permanent: bool
    vacation_used_s: float
    vacation_until: float | None
    resigned: bool


#: The keys :class:`SeatChanges` may hold (the seat columns that can change).
SEAT_CHANGE_COLUMNS: frozenset[str] = frozenset(SeatChanges.__annotations__)


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One seat of a game (0-based ``seat``).

    ``expiries_in_row`` counts consecutive turn timeouts; ``ai_permanent`` means
    the AI keeps playing this seat; ``vacation_used_s`` is vacation time spent
    in seconds and ``vacation_until`` the end of the current vacation (or None);
    ``hints_used`` counts the hints the player took (``/ttr hint``).
    """

    game_id: int
    seat: int
    user_id: int | None
    display_name: str
    color: str | None
    is_ai: bool
    ai_kind: str | None
    joined_at: float
    expiries_in_row: int
    ai_permanent: bool
    vacation_used_s: float
    vacation_until: float | None
    resigned: bool
    hints_used: int = 0


@dataclass(frozen=True, slots=True)
class ActionRow:
    """One entry of a game's append-only action log; ``seq`` starts at 1 and
    equals the game version after this action was applied. ``action`` (the
    engine's JSON form) may name tickets and is left out of ``repr``."""

    game_id: int
    seq: int
    seat: int | None
    action: dict[str, Any] = field(repr=False)
    actor_user_id: int | None = None
    source: ActionSource = "player"
    created_at: float = 0.0


@dataclass(frozen=True, slots=True)
class NewAction:
    """An action to append (see :meth:`Storage.append_actions`): the engine's JSON form
    (not in ``repr``: it may name tickets), the acting seat, who made it."""

    action: dict[str, Any] = field(repr=False)
    seat: int | None = None
    source: ActionSource = "player"
    actor_user_id: int | None = None


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """What the state of a started game is made of, read in one consistent look.

    ``snapshot`` (secret, not in ``repr``) is the engine state after
    ``version`` actions; ``actions`` are the log entries after it, in order,
    up to ``game_version``. Replaying ``actions`` on ``snapshot`` gives the
    state at ``game_version``.
    """

    game_id: int
    version: int
    snapshot: dict[str, Any] = field(repr=False)
    actions: tuple[ActionRow, ...] = ()
    game_version: int = 0


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """A finished game's outcome for one seat, as handed in by the service.

    ``rank`` is 1 for the winner(s); ``user_id`` is None for AI seats (kept in
    the table, left out of user statistics). What a rated game's ratings are
    computed from (see :mod:`bot.host.ratings`): ``player``, the seat's rating
    identity (``"user:<id>"``, ``"ai:hard"``...), and ``place``, its place with
    ties shared and a resigned seat last; ``longest_path_bonus``: the seat won
    the longest-path bonus. The three are None in results stored before
    schema version 4, and a rated game needs them.
    """

    seat: int
    user_id: int | None
    score: int
    rank: int
    won: bool
    tickets_completed: int = 0
    tickets_failed: int = 0
    player: str | None = None
    place: int | None = None
    longest_path_bonus: bool | None = None


@dataclass(frozen=True, slots=True)
class ResultRow:
    """A stored result: :class:`PlayerResult` plus the game's guild, map and
    finish time."""

    game_id: int
    seat: int
    user_id: int | None
    guild_id: int
    map_id: str
    score: int
    rank: int
    won: bool
    tickets_completed: int
    tickets_failed: int
    finished_at: float
    player: str | None = None
    place: int | None = None
    longest_path_bonus: bool | None = None


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    """A user's totals over the finished games of one guild."""

    user_id: int
    games: int
    wins: int
    avg_score: float
    tickets_completed: int
    tickets_failed: int


@dataclass(frozen=True, slots=True)
class UserSettings:
    """A user's preferences (defaults when the user never changed any).

    ``turn_pings``: mention the user when it is their turn (default on);
    ``dm_turns``: also send a direct message (default off);
    ``high_contrast``: boards and hands in the high-contrast palette (off);
    ``phone_board``: private board replies drawn 500 px wide for a phone (off).
    ``updated_at`` is None for defaults that were never stored.
    """

    user_id: int
    turn_pings: bool = True
    dm_turns: bool = False
    high_contrast: bool = False
    updated_at: float | None = None
    phone_board: bool = False


#: The settings :meth:`Storage.set_user_settings` accepts.
USER_SETTING_NAMES: tuple[str, ...] = ("turn_pings", "dm_turns", "high_contrast", "phone_board")


class NextTimer(NamedTuple):
    """The soonest pending timer: ``(game_id, when, kind)``, ``when`` in unix
    seconds, ``kind`` ``"deadline"`` (turn expiry) or ``"reminder"``."""

    game_id: int
    when: float
    kind: TimerKind


@dataclass(frozen=True, slots=True)
class ShardFilter:
    """The Discord shards one process serves: ``ids`` out of ``count``.

    A guild belongs to shard ``(guild_id >> 22) % count`` (Discord's rule);
    direct-message games (guild 0) belong to shard 0.

    Raises:
        ValueError: ``count`` below 1, no ids, or an id outside ``0..count-1``.
    """

    count: int
    ids: frozenset[int]

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError(f"shard count must be at least 1, got {self.count}")
        if not self.ids:
            raise ValueError("a shard filter needs at least one shard id")
        bad = sorted(i for i in self.ids if not 0 <= i < self.count)
        if bad:
            raise ValueError(f"shard ids {bad} outside 0..{self.count - 1}")

    @property
    def everything(self) -> bool:
        """True when every shard is served (no filter needed)."""
        return len(self.ids) == self.count

    def owns(self, guild_id: int) -> bool:
        """True when ``guild_id``'s events go to one of these shards."""
        return (guild_id >> 22) % self.count in self.ids


@dataclass(frozen=True, slots=True)
class GameDump:
    """Every stored row of one game, column by column, for copying a game to
    another database (``python -m bot migrate``). Holds secrets: never log it."""

    game: dict[str, Any] = field(repr=False)
    seats: tuple[dict[str, Any], ...] = field(repr=False)
    actions: tuple[dict[str, Any], ...] = field(repr=False)
    results: tuple[dict[str, Any], ...] = field(repr=False)
    snapshot: dict[str, Any] | None = field(repr=False)
    rated: tuple[dict[str, Any], ...] = field(default=(), repr=False)
    rating_history: tuple[dict[str, Any], ...] = field(default=(), repr=False)
    analysis: dict[str, Any] | None = field(default=None, repr=False)
    followers: tuple[dict[str, Any], ...] = field(default=(), repr=False)
    achievements: tuple[dict[str, Any], ...] = field(default=(), repr=False)

    @property
    def game_id(self) -> int:
        """The game's id."""
        return int(self.game["id"])


@dataclass(frozen=True, slots=True)
class QuarantinedGame:
    """A game just moved to ``quarantined`` (see :meth:`Storage.quarantine`):
    where it lives and who sits in it, read without decoding anything, so the
    players can be told even when the row itself is damaged."""

    game_id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    reason: str
    user_ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A server's settings for new games (the defaults when an admin never changed any).

    ``language``: the table language of new games (None: the server's Discord locale);
    ``turn_seconds``: their turn time (None: :data:`DEFAULT_TURN_SECONDS`); ``rated``: new
    games are rated unless the host says otherwise; ``hints``: hints may be allowed (in
    casual games by default); ``channels``: the channels where games may be opened (empty:
    any). ``updated_at`` None for defaults that were never stored; ``updated_by`` who
    changed them last.
    """

    guild_id: int
    language: str | None = None
    turn_seconds: int | None = None
    rated: bool = True
    hints: bool = True
    channels: tuple[int, ...] = ()
    updated_at: float | None = None
    updated_by: int | None = None


#: The settings :meth:`Storage.set_guild_settings` accepts.
GUILD_SETTING_NAMES: tuple[str, ...] = ("language", "turn_seconds", "rated", "hints", "channels")


@dataclass(frozen=True, slots=True)
class Season:
    """One season of a server's ratings: ``number`` from 1, when and by whom it was started
    (``started_by`` None: the first season, opened by the server's first rated game;
    ``started_at`` None: no game was rated yet)."""

    guild_id: int
    number: int
    started_at: float | None
    started_by: int | None = None


@dataclass(frozen=True, slots=True)
class RatingRow:
    """A player's current rating in one server, season and scope (``"*"`` or a map id).

    ``player`` is the rating identity (:mod:`bot.host.ratings`); ``user_id`` the person's id
    (None for a computer level); ``games`` rated games played in this scope and season.
    """

    guild_id: int
    season: int
    scope: str
    player: str
    user_id: int | None
    mu: float
    sigma: float
    games: int
    updated_at: float

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``, what players see."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True, slots=True)
class RatingChange:
    """How one rated game changed one player's rating in one scope.

    ``seq`` is the game's place in the server's order of rated games; ``games`` the
    player's games in this scope and season after this one; ``finished_at`` when the
    game was rated.
    """

    game_id: int
    guild_id: int
    season: int
    seq: int
    map_id: str
    scope: str
    player: str
    user_id: int | None
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    games: int
    rated_at: float

    @property
    def before(self) -> float:
        """The ordinal before the game."""
        return self.mu_before - 3 * self.sigma_before

    @property
    def after(self) -> float:
        """The ordinal after the game."""
        return self.mu_after - 3 * self.sigma_after


@dataclass(frozen=True, slots=True)
class RatedGame:
    """A rated game in a server's order (``seq`` 1, 2, ...), its season and map."""

    game_id: int
    guild_id: int
    season: int
    seq: int
    map_id: str
    rated_at: float


@dataclass(frozen=True, slots=True)
class GuildDump:
    """Every row of the server-wide tables (settings, ladders, seasons, ratings, the open
    tables' settings), column by column, for copying a database (``python -m bot migrate``)."""

    settings: tuple[dict[str, Any], ...] = ()
    ladders: tuple[dict[str, Any], ...] = ()
    seasons: tuple[dict[str, Any], ...] = ()
    ratings: tuple[dict[str, Any], ...] = ()
    tables: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True, slots=True)
class AnalysisRow:
    """The analysis of a finished game (see :meth:`Storage.queue_analysis`).

    ``status``: ``queued`` (waiting for a worker), ``running`` (since ``started_at``),
    ``done`` (``data`` holds the analysis as a JSON-able dict) or ``failed`` (``note``
    says why). ``attempts`` counts the times a worker took it up.
    """

    game_id: int
    status: AnalysisStatus
    queued_at: float
    started_at: float | None = None
    finished_at: float | None = None
    attempts: int = 0
    data: dict[str, Any] | None = field(default=None, repr=False)
    note: str | None = None


# -- privacy: what is stored about a user, forgetting, servers that removed the bot


@dataclass(frozen=True, slots=True)
class SeatRef:
    """A game a user sits in, as forgetting sees it: where it lives, its status and the seat.

    ``host``: the user hosts it (a lobby's host cancels it instead of leaving);
    ``paused``: its server removed the bot (see :attr:`GameRow.paused_at`).
    """

    game_id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    status: GameStatus
    seat: int
    host: bool
    paused: bool

    @property
    def channel(self) -> int:
        """Where the game lives: its thread, or its channel."""
        return self.thread_id or self.channel_id


@dataclass(frozen=True, slots=True)
class UserData:
    """What is stored about one user (``/ttr player forget_me`` shows it before asking).

    ``games``: games with a seat of theirs (any status), ``finished`` of them
    finished; ``results``: result rows with their id; ``settings``: they have
    stored settings; ``ratings``: their rating rows (one per server, season and
    scope); ``named``: server settings and seasons that name them as who changed
    or started them; ``open_games``: lobbies and running games in which they
    still play (not paused, the seat not played by the computer): these stop
    a forget until they leave, resign or finish; ``following``: games they follow.
    """

    user_id: int
    games: int
    finished: int
    results: int
    settings: bool
    ratings: int = 0
    named: int = 0
    open_games: tuple[SeatRef, ...] = ()
    following: int = 0

    @property
    def anything(self) -> bool:
        """True when anything at all is stored about the user."""
        stored = (self.games, self.results, self.settings, self.ratings, self.named)
        return any(stored) or bool(self.following)


@dataclass(frozen=True, slots=True)
class ForgetReport:
    """What :meth:`~bot.host.storage.Storage.forget_user` removed, in counts.

    ``games``: games in which the user's seat now has an anonymous name and no
    id (``handed_to_ai`` of them paused games whose seat the computer plays
    from now on); ``actions``: log entries whose actor id was cleared;
    ``results``: result rows whose user id was cleared and whose rating
    identity became an anonymous one; ``hosted``: games whose host id was
    cleared; ``settings``: settings rows deleted (0 or 1); ``ratings``: rating
    rows deleted, ``rating_changes``: rows of their rating history deleted;
    ``named``: server settings and seasons that no longer name them as who
    changed or started them; ``following``: games they no longer follow. All zero when
    nothing was stored (forgetting twice is harmless).
    """

    user_id: int
    games: int = 0
    actions: int = 0
    results: int = 0
    hosted: int = 0
    settings: int = 0
    handed_to_ai: int = 0
    ratings: int = 0
    rating_changes: int = 0
    named: int = 0
    following: int = 0

    @property
    def anything(self) -> bool:
        """True when something was removed."""
        counts = (self.games, self.actions, self.results, self.hosted, self.settings)
        more = (self.ratings, self.rating_changes, self.named, self.following)
        return any(counts) or any(more)


@dataclass(frozen=True, slots=True)
class GuildDeparture:
    """A server that removed the bot: since when (``left_at``, the first removal counts),
    and the lobbies cancelled and running games paused by this removal."""

    guild_id: int
    left_at: float
    cancelled: tuple[int, ...] = ()
    paused: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class PurgeReport:
    """What :meth:`~bot.host.storage.Storage.purge_guild` deleted, in counts: the server's games
    (``running`` of them lobbies or running games), their seats, log entries and results
    (their rated games and rating history go with them), the server's ``ratings`` rows, its
    ``server_rows`` (its settings, its ladder and its seasons) and whether its departure was
    recorded. All zero when nothing was stored."""

    guild_id: int
    games: int = 0
    running: int = 0
    seats: int = 0
    actions: int = 0
    results: int = 0
    departure: bool = False
    ratings: int = 0
    server_rows: int = 0

    @property
    def anything(self) -> bool:
        """True when something was deleted."""
        return bool(self.games or self.departure or self.ratings or self.server_rows)
