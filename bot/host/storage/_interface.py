"""The storage interface the game service depends on (both backends implement it).

Every method is atomic: a write either commits completely or leaves nothing,
and each write is ONE transaction (a service operation that changes several
rows calls one method that changes them together). Ids are Discord snowflakes
(``int``); times are unix seconds (``float``); JSON values are JSON-able
dicts handed in by the service and come back as fresh dicts.

The interface is one protocol per thing stored (:class:`GameStore`,
:class:`SeatStore`, :class:`ActionLog`, :class:`TimerStore`,
:class:`ResultStore`, :class:`RatingStore`, :class:`SettingsStore`,
:class:`GuildSettingsStore`, :class:`GameCopier`, :class:`CoachStore`,
:class:`PrivacyStore`); :class:`Storage` is all of them.

Errors: every error raised on purpose is a :class:`~bot.host.storage.StorageError`
(``GameNotFound``, ``VersionConflict``, ``GameStatusError``, ``ChannelBusy``,
``SeatTaken``, ``SeatNotFound``, ``ConstraintError``, ``CorruptGame``,
``StorageFull``, ``StorageUnavailable``, ``UserInOpenGames``); a write that raised
wrote nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, Self, runtime_checkable

from ._rows import (
    DEFAULT_TURN_SECONDS,
    ActionRow,
    ActionSource,
    AnalysisRow,
    Checkpoint,
    ForgetReport,
    GameDump,
    GameRow,
    GameStatus,
    GuildDeparture,
    GuildDump,
    GuildSettings,
    LeaderboardRow,
    NewAction,
    NewSeat,
    NextTimer,
    PlayerResult,
    PurgeReport,
    QuarantinedGame,
    RatedGame,
    RatingChange,
    RatingRow,
    ResultRow,
    Season,
    SeatChanges,
    SeatRow,
    ShardFilter,
    UserData,
    UserSettings,
)
from ._sql import UNSET, Unset


class GameStore(Protocol):
    """Games: one row per game, from the lobby to the end (or a quarantine)."""

    async def create_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_user_id: int,
        map_id: str,
        options: Mapping[str, Any] | None = None,
        thread_id: int | None = None,
        lobby_message_id: int | None = None,
        turn_seconds: int = DEFAULT_TURN_SECONDS,
        seats: Sequence[NewSeat] = (),
        language: str = "en",
        rematch_of: int | None = None,
        rated: bool = False,
        hints_allowed: bool = True,
    ) -> GameRow:
        """Create a game in the ``lobby`` status at version 0, with ``seats``
        (e.g. the host's) in the same transaction.

        ``channel_id`` is where the game lives (a channel or a thread);
        ``language`` the table's language (``"en"`` or ``"de"``);
        ``rematch_of`` the finished game this lobby follows; ``rated``: its
        results update the players' ratings (see :class:`RatingStore`);
        ``hints_allowed`` whether its players may ask ``/ttr hint``.

        Raises:
            ChannelBusy: the channel already has a lobby or active game.
            SeatTaken: two of ``seats`` clash (same seat number or user).
            ValueError: ``turn_seconds`` not positive, unknown ``language``.
        """
        ...

    async def get_game(self, game_id: int) -> GameRow | None:
        """The game with this id, or None.

        Raises:
            CorruptGame: the row's options are not readable.
        """
        ...

    async def active_game_in_channel(self, channel_id: int) -> GameRow | None:
        """The channel's open game (``lobby`` or ``active``), or None."""
        ...

    async def last_game_in_channel(self, channel_id: int) -> GameRow | None:
        """The channel's newest game whatever its status (``/ttr status``
        after the end), or None."""
        ...

    async def list_games(
        self, status: GameStatus | None = None, *, guild_id: int | None = None
    ) -> list[GameRow]:
        """Games ordered by id, optionally of one status and/or one guild
        (admin listings and restart recovery; not for hot paths).

        Raises:
            CorruptGame: a row's options are not readable (use
                :meth:`game_ids` and :meth:`get_game` to step around it).
        """
        ...

    async def game_ids(self, status: GameStatus | None = None) -> list[int]:
        """Ids of all games (or of one status), ascending; decodes nothing."""
        ...

    async def game_counts(self) -> dict[str, int]:
        """How many games there are of each status (``{"active": 3, ...}``; a status
        without games is left out); decodes nothing (the ``ttr_games`` metric)."""
        ...

    async def finished_games(
        self, guild_id: int, *, limit: int = 10, offset: int = 0
    ) -> list[GameRow]:
        """A guild's finished games, newest first, ``limit`` from ``offset``
        (``/ttr game`` without an id, in pages).

        Raises:
            ValueError: a negative ``limit`` or ``offset``.
        """
        ...

    async def games_for_user(
        self, user_id: int, status: GameStatus | None = "active"
    ) -> list[GameRow]:
        """Games where ``user_id`` holds a seat, ordered by id; ``status=None``
        means any status."""
        ...

    async def start_game(
        self,
        game_id: int,
        *,
        seed: int,
        snapshot: Mapping[str, Any],
        engine_version: str,
        version: int = 0,
        deadline_at: float | None = None,
        reminder_at: float | None = None,
    ) -> GameRow:
        """Start a lobby game, all in ONE transaction: renumber its seats
        0..n-1 in their current order (players who left leave gaps), set
        ``active`` with the seed, store the first snapshot (``version``
        actions already applied, normally 0) and the first turn's timers.

        Raises:
            GameNotFound: no such game.
            GameStatusError: the game is not in the lobby.
        """
        ...

    async def set_message_ids(
        self,
        game_id: int,
        *,
        lobby_message_id: int | None | Unset = UNSET,
        board_message_id: int | None | Unset = UNSET,
    ) -> None:
        """Remember the lobby and/or board message of a game; an omitted
        argument stays as it is, None clears it.

        Raises:
            GameNotFound: no such game.
        """
        ...

    async def set_status(
        self, game_id: int, status: GameStatus, *, expected_version: int | None = None
    ) -> GameRow:
        """End or cancel a game: ``lobby -> cancelled``, ``active ->
        finished|cancelled``, ``quarantined -> cancelled``. Leaving ``active``
        clears the timers and sets ``finished_at``. Setting a final status the
        game already has is a no-op (retries are safe).

        Raises:
            GameNotFound: no such game.
            GameStatusError: the transition is not allowed.
            VersionConflict: ``expected_version`` given and different.
        """
        ...

    async def quarantine(self, game_id: int, reason: str) -> QuarantinedGame | None:
        """Take a lobby or active game whose stored state cannot be read out
        of play: status ``quarantined`` with ``reason`` (what is wrong, never
        the data), timers cleared, so the timer loop leaves it alone and the
        channel is free. Returns where the game lives and its players (read
        without decoding anything), or None when it was not lobby/active
        (already quarantined: so the players are told once)."""
        ...

    async def delete_game(self, game_id: int) -> bool:
        """Delete a game with its seats, actions, snapshot and results.
        Returns False when there was no such game."""
        ...


class SeatStore(Protocol):
    """Seats: who sits where in a game, and what changes about a seat during play."""

    async def add_seat(self, game_id: int, new_seat: NewSeat) -> SeatRow:
        """Seat a player or an AI (``new_seat.seat=None``: the lowest free
        number). Does not check status or size: the service decides who joins.

        Raises:
            GameNotFound: no such game.
            SeatTaken: the seat number is taken or the user already sits here.
        """
        ...

    async def remove_seat(self, game_id: int, seat: int) -> bool:
        """Free a seat; False when it was not taken. Other seats keep their numbers."""
        ...

    async def update_seat(
        self,
        game_id: int,
        seat: int,
        *,
        user_id: int | None | Unset = UNSET,
        display_name: str | Unset = UNSET,
        color: str | None | Unset = UNSET,
        is_ai: bool | Unset = UNSET,
        ai_kind: str | None | Unset = UNSET,
        expiries_in_row: int | Unset = UNSET,
        ai_permanent: bool | Unset = UNSET,
        vacation_used_s: float | Unset = UNSET,
        vacation_until: float | None | Unset = UNSET,
        resigned: bool | Unset = UNSET,
    ) -> SeatRow:
        """Change the given columns of one seat (omitted ones stay).

        Raises:
            SeatNotFound: the game has no such seat.
            SeatTaken: ``user_id`` already sits elsewhere in this game.
            ConstraintError: a value breaks a rule (e.g. a negative count).
        """
        ...

    async def update_seats(
        self,
        game_id: int,
        changes: Mapping[int, SeatChanges],
        *,
        deadline_at: float | None | Unset = UNSET,
        reminder_at: float | None | Unset = UNSET,
        expected_version: int | None = None,
    ) -> list[SeatRow]:
        """Change several seats and (when given) the turn's timers in ONE
        transaction, e.g. resign (the seat plus an AI turn due now) or a
        vacation (the seat plus the moved deadline). Returns all seats after.

        Raises:
            GameNotFound, SeatNotFound, SeatTaken, ConstraintError.
            VersionConflict: ``expected_version`` given and different.
            ValueError: an unknown seat column.
        """
        ...

    async def seats(self, game_id: int) -> list[SeatRow]:
        """The game's seats by seat number (empty for an unknown game)."""
        ...

    async def game_with_seats(self, game_id: int) -> tuple[GameRow, list[SeatRow]] | None:
        """The game and its seats by seat number, read by ONE statement (a move's hot path:
        one round trip instead of :meth:`get_game` and :meth:`seats`), or None.

        Raises:
            CorruptGame: the row's options are not readable.
        """
        ...


class ActionLog(Protocol):
    """The action log and snapshots: every move in one transaction with the game's new version."""

    async def append_action(
        self,
        game_id: int,
        expected_version: int,
        *,
        action: Mapping[str, Any],
        seat: int | None,
        deadline_at: float | None,
        reminder_at: float | None,
        new_snapshot: Mapping[str, Any] | None = None,
        source: ActionSource = "player",
        actor_user_id: int | None = None,
        new_status: GameStatus | None = None,
        results: Sequence[PlayerResult] | None = None,
        seat_changes: Mapping[int, SeatChanges] | None = None,
    ) -> GameRow:
        """Record one applied action and everything that belongs to it, in ONE
        transaction (under the game's advisory lock on PostgreSQL):

        - ``version = expected_version + 1 WHERE version = expected_version
          AND status = 'active'``, the next turn's timers (None clears them);
        - the action with ``seq = expected_version + 1``;
        - ``new_snapshot`` (the state after this action) when given: the
          service passes one every :data:`~bot.host.storage.SNAPSHOT_EVERY` actions
          and at the end; between snapshots the log is the state;
        - ``seat_changes`` (seat -> columns), e.g. a player's timeout streak
          reset and vacation end after their move, or the streak after a
          timeout;
        - ``new_status`` (``finished`` or ``cancelled``) ends the game: timers
          cleared, ``finished_at`` set, and ``results`` (only with
          ``finished``) recorded; a rated game is rated from them in the
          same transaction (see :class:`RatingStore`), and a finished game's
          analysis is queued (:meth:`CoachStore.queue_analysis`) in it too.

        Returns the updated game.

        Raises:
            VersionConflict: the game's version is not ``expected_version``.
            GameNotFound: no such game.
            GameStatusError: the game is not ``active``.
            SeatNotFound: ``seat_changes`` names a seat the game lacks.
            ValueError: ``new_status`` not final, ``results`` without
                ``finished``, unknown seat columns, a snapshot that is not JSON.
        """
        ...

    async def append_actions(
        self,
        game_id: int,
        expected_version: int,
        actions: Sequence[NewAction],
        *,
        deadline_at: float | None,
        reminder_at: float | None,
        new_snapshot: Mapping[str, Any] | None = None,
        new_status: GameStatus | None = None,
        results: Sequence[PlayerResult] | None = None,
        seat_changes: Mapping[int, SeatChanges] | None = None,
    ) -> GameRow:
        """Record several actions applied one after the other (a player's move and the AI's
        replies, a timeout and what follows) and everything that belongs to them in ONE
        transaction: as :meth:`append_action` with ``seq`` ``expected_version + 1 ..
        expected_version + len(actions)``; the timers, ``new_snapshot``, ``new_status`` and
        ``results`` are those after the last action.

        Raises:
            as :meth:`append_action`; ValueError for an empty ``actions``.
        """
        ...

    async def load_checkpoint(self, game_id: int) -> Checkpoint | None:
        """The newest snapshot of a started game and the actions after it, read
        in one consistent look; None for an unknown or lobby game.

        Raises:
            CorruptGame: the snapshot is missing or unreadable, an action is
                not JSON, or the log after the snapshot has a gap.
        """
        ...

    async def actions(
        self, game_id: int, after_seq: int = 0, *, limit: int | None = None
    ) -> list[ActionRow]:
        """The game's actions with ``seq > after_seq`` in order, at most
        ``limit`` of them (None: all). Empty for an unknown game."""
        ...


class TimerStore(Protocol):
    """Timers: each game's turn deadline and reminder."""

    async def set_deadline(
        self,
        game_id: int,
        deadline_at: float | None,
        reminder_at: float | None,
        *,
        expected_version: int | None = None,
    ) -> None:
        """Set (or clear with None) the active turn's expiry and reminder. With
        ``expected_version`` the write only happens if the game has not moved on.

        Raises:
            GameNotFound: no such game.
            VersionConflict: ``expected_version`` given and different.
        """
        ...

    async def claim_reminder(self, game_id: int, when: float) -> bool:
        """Clear the game's reminder if it is still ``when``; True for the one
        caller that cleared it (so a reminder is sent once even when several
        processes see it due)."""
        ...

    async def next_deadline(self, shards: ShardFilter | None = None) -> NextTimer | None:
        """The soonest ``deadline_at`` or ``reminder_at`` over active games
        (only games whose guild belongs to ``shards`` when given), as
        ``(game_id, when, kind)``, or None. On a tie the deadline comes first.
        Served by two partial indexes: the cost does not grow with the number
        of games."""
        ...


class ResultStore(Protocol):
    """Results of finished games and the statistics made from them."""

    async def record_results(
        self, game_id: int, results: Sequence[PlayerResult]
    ) -> list[ResultRow]:
        """Store a finished game's results, replacing any stored before; a rated game not
        rated yet is rated from them in the same transaction (once: a game rated before
        keeps its ratings).

        Raises:
            GameNotFound: no such game.
            GameStatusError: the game is not ``finished``.
            ValueError: two results for the same seat; a rated game's result without
                ``player`` or ``place``.
        """
        ...

    async def results(self, game_id: int) -> list[ResultRow]:
        """A game's stored results by seat."""
        ...

    async def user_history(
        self, user_id: int, limit: int = 10, *, guild_id: int | None = None
    ) -> list[ResultRow]:
        """The user's latest results, newest first, optionally in one guild."""
        ...

    async def leaderboard(
        self, guild_id: int, limit: int = 10, *, map_id: str | None = None
    ) -> list[LeaderboardRow]:
        """Per-user totals over the guild's results (AI seats left out), by
        wins, then average score, then games, then user id."""
        ...


class RatingStore(Protocol):
    """Ratings per server, season and scope (``"*"`` every map, or a map id), and seasons.

    A rated game is rated when its results are stored (:meth:`ActionLog.append_actions`
    with ``results``, :meth:`ResultStore.record_results`), in that transaction: each
    server's ladder counts its rated games (the order a recompute replays them in) and
    holds its current season; every player's rating moves by :func:`bot.host.ratings.rate`
    overall and for the game's map, and the change is kept per game.
    """

    async def current_season(self, guild_id: int) -> Season:
        """The server's current season (season 1, ``started_at`` None, before any rated game)."""
        ...

    async def seasons(self, guild_id: int) -> list[Season]:
        """Every season of the server, oldest first, the current one included."""
        ...

    async def start_season(self, guild_id: int, user_id: int | None) -> Season | None:
        """Start the next season (ratings start afresh; earlier ones stay), in one
        transaction; ``user_id`` who started it. None, with nothing written, when the
        current season has no rated game yet."""
        ...

    async def ratings(
        self, guild_id: int, season: int | None = None, scope: str = "*"
    ) -> list[RatingRow]:
        """A server's table in one season (None: the current one) and scope, best first:
        by ordinal (``mu - 3 sigma``), then games, then player."""
        ...

    async def all_ratings(self) -> list[RatingRow]:
        """Every stored rating, by server, season, scope, then as :meth:`ratings` orders."""
        ...

    async def game_rating_changes(self, game_id: int) -> list[RatingChange]:
        """How the game changed each player's rating, by scope and player (empty for a game
        that was not rated)."""
        ...

    async def player_rating_history(
        self, guild_id: int, player: str, *, season: int | None = None, scope: str = "*"
    ) -> list[RatingChange]:
        """A player's changes in a server and scope, in rating order (one season, or all)."""
        ...

    async def rated_games(self, guild_id: int | None = None) -> list[RatedGame]:
        """Rated games by server, then in the order they were rated."""
        ...


class SettingsStore(Protocol):
    """User settings (turn pings, a DM on one's turn, high contrast)."""

    async def get_user_settings(self, user_id: int) -> UserSettings:
        """The user's settings; the defaults (``updated_at`` None) when never set."""
        ...

    async def set_user_settings(self, user_id: int, **changes: bool) -> UserSettings:
        """Change some of ``turn_pings``, ``dm_turns``, ``high_contrast``
        (the others keep their value or default); returns the stored settings.

        Raises:
            ValueError: an unknown setting name or a value that is not a bool.
        """
        ...

    async def all_user_settings(self) -> list[UserSettings]:
        """Every stored user's settings, by user id (for copying a database)."""
        ...

    async def restore_user_settings(self, rows: Sequence[UserSettings]) -> None:
        """Store these settings as they are, ``updated_at`` included."""
        ...


class GuildSettingsStore(Protocol):
    """Server settings: the defaults of new games and where they may be opened."""

    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings; the defaults (``updated_at`` None) when never set."""
        ...

    async def set_guild_settings(
        self, guild_id: int, *, updated_by: int | None = None, **changes: Any
    ) -> GuildSettings:
        """Change some of ``language`` (``"en"``, ``"de"`` or None), ``turn_seconds`` (a
        positive int or None), ``rated``, ``hints`` (bools) and ``channels`` (channel ids;
        empty: any); the others keep their value. Returns the stored settings.

        Raises:
            ValueError: an unknown setting or a value it cannot take.
        """
        ...


class GameCopier(Protocol):
    """Whole games copied between databases (``python -m bot migrate``)."""

    async def dump_game(self, game_id: int) -> GameDump | None:
        """Every row of one game, column by column, read in one consistent
        look (None for an unknown game). Holds secrets: never log it."""
        ...

    async def restore_game(self, dump: GameDump) -> None:
        """Insert a dumped game under its own id, in one transaction.

        Raises:
            StorageError: a game with this id exists here.
            ChannelBusy: the channel already has an open game here.
        """
        ...

    async def dump_guild_tables(self) -> GuildDump:
        """Every row of the server-wide tables (settings, ladders, seasons, ratings)."""
        ...

    async def restore_guild_tables(self, dump: GuildDump) -> None:
        """Insert dumped server-wide rows into an empty database, in one transaction."""
        ...


class CoachStore(Protocol):
    """The coach (issue 33): hints counted per seat, and the analyses of finished games, queued
    by the move that finishes a game (:meth:`ActionLog.append_actions`)."""

    async def count_hint(self, game_id: int, seat: int) -> int:
        """Count one more hint taken by ``seat``; returns its new total.

        Raises:
            SeatNotFound: the game has no such seat.
        """
        ...

    async def queue_analysis(self, game_id: int) -> AnalysisRow:
        """Queue the analysis of a finished game unless it has a row already (queued,
        running, done or failed: that row is returned as it is).

        Raises:
            GameNotFound: no such game.
        """
        ...

    async def analysis(self, game_id: int) -> AnalysisRow | None:
        """The game's analysis row, or None when none was ever queued."""
        ...

    async def analysis_queue(self, shards: ShardFilter | None = None) -> list[int]:
        """Ids of the games whose analysis is queued or running, first asked first
        (only games of guilds on ``shards`` when given)."""
        ...

    async def start_analysis(self, game_id: int, *, stale_after: float) -> AnalysisRow | None:
        """Claim a queued analysis for a worker: ``running``, ``attempts`` + 1. A row
        ``running`` since more than ``stale_after`` seconds (its worker died) is claimed
        again. None when there is nothing to claim (done, failed, or running elsewhere)."""
        ...

    async def finish_analysis(self, game_id: int, data: Mapping[str, Any]) -> AnalysisRow:
        """Store the finished analysis (JSON-able ``data``): ``done``.

        Raises:
            GameNotFound: no analysis row for this game.
        """
        ...

    async def fail_analysis(self, game_id: int, note: str) -> AnalysisRow:
        """Give up on an analysis: ``failed`` with ``note`` (why; never game data).

        Raises:
            GameNotFound: no analysis row for this game.
        """
        ...


class PrivacyStore(Protocol):
    """What is stored about a user and forgetting it; the servers that removed the bot (issue 35)."""

    async def user_data(self, user_id: int) -> UserData:
        """What is stored about ``user_id``, in counts, with the games in which they still
        play (read in one consistent look; nothing is changed)."""
        ...

    async def forget_user(self, user_id: int, seat_name: Callable[[str, int], str]) -> ForgetReport:
        """Forget a user in ONE transaction: delete their settings, their ratings and their
        rating history (every server, season and scope); in every game they sat in,
        their seat keeps its number, moves and score under ``seat_name(language, seat)`` (the
        game's table language) and no user id, and their id leaves the action log
        (``actor_user_id``), the results (whose rating identity becomes one random
        ``former:<key>`` for all of them, so the others' ratings still replay exactly), the games
        they hosted (host id 0) and the server settings and seasons that named them (NULL). In
        a paused game
        (its server removed the bot) the computer takes their seat over. Other players' rows,
        the moves and the seeds are untouched, so every game still replays. Forgetting someone
        twice (or someone never seen) changes nothing and reports zeros.

        Raises:
            UserInOpenGames: they sit in a lobby (or host one), or in a running game whose seat
                they still play (not resigned, not lost to timeouts); nothing was changed.
        """
        ...

    async def depart_guild(self, guild_id: int) -> GuildDeparture:
        """The server removed the bot: in ONE transaction, record when (the first removal
        counts), cancel its lobbies and pause its running games (their timers cleared: they
        never fire, and a paused game takes no move until :meth:`return_guild`)."""
        ...

    async def return_guild(self, guild_id: int) -> list[GameRow]:
        """The bot is back in the server: in ONE transaction, forget its departure and resume
        its paused games, each game's turn clock (and any vacation) moved on by its pause.
        Returns the resumed games (empty, after one read, when the server never left)."""
        ...

    async def departures(self) -> dict[int, float]:
        """Every server that removed the bot and is not purged yet: guild id -> when it left."""
        ...

    async def restore_departures(self, departures: Mapping[int, float]) -> None:
        """Store these departures as they are (for copying a database)."""
        ...

    async def guild_ids(self) -> list[int]:
        """The servers that have stored games, ascending."""
        ...

    async def purge_guild(self, guild_id: int) -> PurgeReport:
        """Delete everything of a server in ONE transaction: its games (lobbies, running,
        finished: seats, log, snapshots, results, rated games, rating history), its settings,
        ladder, seasons and ratings, and its departure. Purging twice (or a
        server never seen) deletes nothing and reports zeros."""
        ...


@runtime_checkable
class Storage(
    GameStore,
    SeatStore,
    ActionLog,
    TimerStore,
    ResultStore,
    RatingStore,
    SettingsStore,
    GuildSettingsStore,
    GameCopier,
    CoachStore,
    PrivacyStore,
    Protocol,
):
    """Games, seats, the action log, timers, results, ratings, user and server settings,
    whole-game copies, the coach's hints and analyses, and privacy, on
    SQLite or PostgreSQL (see :func:`~bot.host.storage.open_storage`); each part is its own
    protocol above. Usable as an async context manager that closes it."""

    @property
    def backend(self) -> str:
        """``"sqlite"`` or ``"postgres"``."""
        ...

    @property
    def url(self) -> str:
        """A printable name of the database: a path, or a URL without its password."""
        ...

    async def __aenter__(self) -> Self: ...

    async def __aexit__(self, *exc: object) -> None: ...

    async def close(self) -> None:
        """Wait for running calls, then release the connections. Idempotent."""

    async def integrity_check(self) -> list[str]:
        """``["ok"]`` when the database is sound, otherwise one line per problem."""
        ...

    async def schema_version(self) -> int:
        """The schema version (the number of the last migration applied)."""
        ...
