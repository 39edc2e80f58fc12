"""Tournaments: open one, sign up, seat each round, open its tables' games, score them,
advance, and the standings.

The seating and the standings are pure logic (:mod:`bot.host.tournaments`); this part
loads a tournament, asks them, and stores what they decided, one transaction per step:

- a round's tables are written together (:meth:`Tournaments.start` and
  :meth:`Tournaments.advance`), so a crash leaves no half round;
- each table's game is then opened in its own thread (the cog makes the thread):
  :meth:`Tournaments.open_table` creates the game with every seat, links it to the
  table and starts it; a table left without a game by a crash is opened again by the
  next call (its thread's lobby is picked up, not doubled);
- a table is scored when its game ends (:meth:`Tournaments.game_over`: the game's own
  places, tie-breaks included), and when the round's last table is scored the next
  round is seated, or the tournament ends.

A player who leaves a running tournament forfeits the rounds after the current one
(their current game goes on: resigning hands their seat to the computer, and a seat
whose clock runs out three times is played by the computer as in any game). Nothing
here imports discord.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.host.storage import (
    FORMATS,
    ChannelBusy,
    GameRow,
    NewSeat,
    NewTable,
    Storage,
    TournamentFormat,
    TournamentPlayer,
    TournamentRefused,
    TournamentRow,
    TournamentTable,
)
from bot.host.tournaments import (
    Standing,
    TableResult,
    first_round,
    knocked_out,
    next_round,
    standings,
)
from maps.loader import available_maps, load_ruleset

from ._errors import ServiceError
from ._lobby import Lobby
from ._models import Outcome

#: The longest tournament name (characters).
NAME_LIMIT = 60
#: The most maps one tournament rotates through.
MAPS_LIMIT = 5
#: The most Swiss rounds an admin may ask for.
ROUNDS_LIMIT = 20


@dataclass(frozen=True, slots=True)
class TournamentView:
    """A tournament as its readers see it: the row, its ``players`` (sign-up order), every
    ``tables`` of every round, the ``standings`` (best first) and ``names`` by user id
    ("" for a forgotten player)."""

    tournament: TournamentRow
    players: tuple[TournamentPlayer, ...]
    tables: tuple[TournamentTable, ...]
    standings: tuple[Standing, ...]

    @property
    def names(self) -> dict[int, str]:
        """Each player's display name by user id."""
        return {p.user_id: p.display_name for p in self.players}

    def round_tables(self, round_no: int) -> list[TournamentTable]:
        """The tables of one round."""
        return [t for t in self.tables if t.round == round_no]


@dataclass(frozen=True, slots=True)
class RoundStep:
    """What a step did: the ``tournament`` afterwards, the tables still to open (``to_open``:
    the cog makes each one's thread and calls :meth:`Tournaments.open_table`) and whether
    the tournament ``finished`` with this step."""

    tournament: TournamentRow
    to_open: tuple[TournamentTable, ...] = ()
    finished: bool = False


def refused(exc: TournamentRefused) -> ServiceError:
    """The service's refusal for a storage refusal."""
    reason = exc.reason
    if reason == "not_found":
        return ServiceError("tournament_not_found")
    if reason == "not_open":
        return ServiceError("tournament_started")
    if reason == "already_joined":
        return ServiceError("tournament_joined_already")
    if reason == "not_joined":
        return ServiceError("tournament_not_joined")
    if reason == "status":
        return ServiceError("tournament_over")
    return ServiceError("tournament_moved_on")


class Tournaments:
    """Tournaments (see the module docstring). Needs the storage and the lobby (which
    starts each table's game)."""

    def __init__(self, storage: Storage, lobby: Lobby) -> None:
        self.storage = storage
        self.lobby = lobby

    # ------------------------------------------------------------ opening and sign-up
    async def open(
        self,
        *,
        guild_id: int,
        channel_id: int,
        user_id: int,
        manage_server: bool,
        name: str,
        maps: Sequence[str],
        format: str,
        table_size: int,
        rated: bool,
        turn_seconds: int,
        rounds: int = 0,
        language: str = "en",
    ) -> TournamentRow:
        """Open a tournament for sign-up (Manage Server). ``maps`` rotate by round;
        ``rounds``: Swiss rounds (0: enough to find a winner, ``ceil(log2(players))``, at
        the start); round robin and elimination decide their own.

        Raises:
            ServiceError: ``not_manager``, ``tournament_bad_name``, ``unknown_map``,
                ``tournament_bad_format``, ``tournament_bad_table`` (detail min, max: the
                maps' seat limits), ``tournament_pairs_only`` (a round robin seats two),
                ``tournament_bad_rounds``, ``bad_turn_time``.
        """
        if not manage_server:
            raise ServiceError("not_manager")
        name = " ".join(name.split())
        if not name or len(name) > NAME_LIMIT:
            raise ServiceError("tournament_bad_name", {"max": NAME_LIMIT})
        maps = list(dict.fromkeys(maps))
        known = available_maps()
        for m in maps:
            if m not in known:
                raise ServiceError("unknown_map", {"map": m, "maps": ", ".join(known)})
        if not maps or len(maps) > MAPS_LIMIT:
            raise ServiceError("unknown_map", {"map": "", "maps": ", ".join(known)})
        if format not in FORMATS:
            raise ServiceError("tournament_bad_format", {"choices": ", ".join(FORMATS)})
        params = [load_ruleset(m).params for m in maps]
        least = max(max(p.min_players for p in params), 2)
        most = min(min(p.max_players for p in params), 5)
        if not least <= table_size <= most:
            raise ServiceError("tournament_bad_table", {"min": least, "max": most})
        if format == "round_robin" and table_size != 2:
            raise ServiceError("tournament_pairs_only")
        if not 0 <= rounds <= ROUNDS_LIMIT or (rounds and format != "swiss"):
            raise ServiceError("tournament_bad_rounds", {"max": ROUNDS_LIMIT})
        if turn_seconds <= 0:
            raise ServiceError("bad_turn_time", {"given": turn_seconds, "choices": ""})
        fmt: TournamentFormat = next(f for f in FORMATS if f == format)
        return await self.storage.tournaments.create(
            guild_id=guild_id,
            channel_id=channel_id,
            name=name,
            maps=maps,
            format=fmt,
            table_size=table_size,
            rounds=rounds,
            rated=rated,
            turn_seconds=turn_seconds,
            language=language,
            created_by=user_id,
        )

    async def join(self, tournament_id: int, user_id: int, name: str) -> TournamentPlayer:
        """Sign up for a tournament that has not started.

        Raises:
            ServiceError: ``tournament_not_found``, ``tournament_started``,
                ``tournament_joined_already``.
        """
        try:
            return await self.storage.tournaments.join(tournament_id, user_id, name)
        except TournamentRefused as exc:
            raise refused(exc) from None

    async def leave(self, tournament_id: int, user_id: int) -> TournamentRow:
        """Leave: before the start the sign-up goes; once running, the player forfeits every
        later round (their current game goes on). Returns the tournament as it was.

        Raises:
            ServiceError: ``tournament_not_found``, ``tournament_not_joined``,
                ``tournament_over``.
        """
        try:
            return await self.storage.tournaments.leave(tournament_id, user_id)
        except TournamentRefused as exc:
            raise refused(exc) from None

    async def cancel(self, tournament_id: int, *, manage_server: bool) -> TournamentRow:
        """Cancel a tournament (Manage Server); its running games go on as ordinary games.

        Raises:
            ServiceError: ``not_manager``, ``tournament_not_found``, ``tournament_over``.
        """
        if not manage_server:
            raise ServiceError("not_manager")
        try:
            return await self.storage.tournaments.set_status(tournament_id, "cancelled")
        except TournamentRefused as exc:
            raise refused(exc) from None

    # ------------------------------------------------------------ rounds
    async def start(self, tournament_id: int, *, manage_server: bool) -> RoundStep:
        """Close the sign-up and seat round one (one transaction).

        Raises:
            ServiceError: ``not_manager``, ``tournament_not_found``, ``tournament_started``,
                ``tournament_few_players`` (detail min).
        """
        if not manage_server:
            raise ServiceError("not_manager")
        t = await self._get(tournament_id)
        if t.status != "open":
            raise ServiceError("tournament_started")
        players = [p.user_id for p in await self.storage.tournaments.players(tournament_id)]
        if len(players) < 2:
            raise ServiceError("tournament_few_players", {"min": 2})
        first, rounds = first_round(t.format, t.table_size, players, t.rounds)
        return await self._seat(t, 1, first, rounds=rounds)

    async def _seat(
        self,
        t: TournamentRow,
        round_no: int,
        tables: Sequence[tuple[int, ...]],
        *,
        rounds: int | None = None,
    ) -> RoundStep:
        """Store round ``round_no``'s ``tables`` (one transaction) and say what to open."""
        new = [NewTable(t.map_of(round_no), tuple(table)) for table in tables if table]
        try:
            t = await self.storage.tournaments.start_round(t.id, round_no, new, rounds=rounds)
        except TournamentRefused as exc:
            raise refused(exc) from None
        if all(len(table.players) < 2 for table in new):  # only byes: nothing to wait for
            return await self.advance(t.id)
        return await self.pending(t.id)

    async def pending(self, tournament_id: int) -> RoundStep:
        """The current round's tables whose game is missing or not started (after a crash,
        or for the cog that just seated them); a table with a thread keeps it."""
        t = await self._get(tournament_id)
        tables = await self.storage.tournaments.tables(tournament_id)
        todo = []
        for x in tables:
            if x.round != t.round or x.done or t.status != "running":
                continue
            game = None if x.game_id is None else await self.storage.games.get_game(x.game_id)
            if game is None or game.status == "lobby":
                todo.append(x)
        return RoundStep(t, tuple(todo))

    async def open_table(
        self, tournament_id: int, round_no: int, table_no: int, thread_id: int
    ) -> Outcome | None:
        """Open table ``table_no``'s game in ``thread_id`` with every seat and start it;
        None when the table has its game already (opened twice: nothing is done). A lobby
        a crash left in the thread is taken over, not doubled.

        Raises:
            ServiceError: ``tournament_not_found``, ``tournament_moved_on`` (no such table).
        """
        t = await self._get(tournament_id)
        view = await self.view(tournament_id)
        table = next(
            (x for x in view.tables if (x.round, x.table_no) == (round_no, table_no)), None
        )
        if table is None:
            raise ServiceError("tournament_moved_on")
        if table.done:
            return None
        if table.game_id is not None:  # linked: only its start may be missing
            game = await self.storage.games.get_game(table.game_id)
        else:
            game = await self.storage.games.active_game_in_channel(thread_id)
            if game is None:
                game = await self._create_game(t, table, thread_id, view.names, t.created_by or 0)
            await self.storage.tournaments.set_table_game(
                tournament_id, round_no, table_no, thread_id, game.id
            )
        if game is None or game.status != "lobby":
            return None
        return await self.lobby.start(game.id, game.host_user_id)

    async def _create_game(
        self,
        t: TournamentRow,
        table: TournamentTable,
        thread_id: int,
        names: dict[int, str],
        host: int,
    ) -> GameRow:
        rules = load_ruleset(table.map_id)
        seats = [
            NewSeat(display_name=names.get(u) or "?", user_id=u, seat=i)
            for i, u in enumerate(table.players)
        ]
        try:
            return await self.storage.games.create_game(
                guild_id=t.guild_id,
                channel_id=thread_id,
                thread_id=thread_id,
                host_user_id=host,
                map_id=table.map_id,
                options=dict(rules.resolve_options({})),
                turn_seconds=t.turn_seconds,
                seats=seats,
                language=t.language,
                rated=t.rated,
                hints_allowed=False,
            )
        except ChannelBusy as exc:
            raise ServiceError("channel_busy", {"game": exc.game_id}) from None

    async def game_over(self, game_id: int) -> RoundStep | None:
        """A game ended: score its table (the game's own places and scores) and, when it was
        the round's last, seat the next round or end the tournament (again: a table scored
        before is not scored twice, and a round a crash left unseated is seated). None when
        the game is no tournament's or has not ended."""
        where = await self.storage.tournaments.table_of_game(game_id)
        if where is None:
            return None
        tournament_id, round_no, table_no = where
        game = await self.storage.games.get_game(game_id)
        if game is None or game.status not in ("finished", "cancelled"):
            return None
        tables = await self.storage.tournaments.tables(tournament_id)
        table = next(x for x in tables if (x.round, x.table_no) == (round_no, table_no))
        places, scores = await self._table_result(game, table)
        # False when it was scored before (a crash may have stopped before the next round)
        await self.storage.tournaments.record_table(
            tournament_id, round_no, table_no, places, scores
        )
        return await self.advance(tournament_id)

    async def _table_result(
        self, game: GameRow, table: TournamentTable
    ) -> tuple[list[int], list[int]]:
        """Each seat's place and score: a finished game's stored results (its own ranking
        with its tie-breaks); a cancelled game is a draw at 0 points."""
        if game.status != "finished":
            return [1] * len(table.seats), [0] * len(table.seats)
        rows = {r.seat: r for r in await self.storage.results.results(game.id)}
        places = [
            (rows[s.seat].place or rows[s.seat].rank) if s.seat in rows else len(table.seats)
            for s in table.seats
        ]
        scores = [rows[s.seat].score if s.seat in rows else 0 for s in table.seats]
        # competition places (1, 1, 3): a place counts the seats strictly better than it
        return [1 + sum(q < p for q in places) for p in places], scores

    async def advance(self, tournament_id: int) -> RoundStep:
        """When every table of the current round is done: seat the next round, or end the
        tournament (the rounds are played, or one player is left in an elimination). Else
        what is still to open. Safe to call again: a round moved on meanwhile is left as it
        is."""
        view = await self.view(tournament_id)
        t = view.tournament
        current = view.round_tables(t.round)
        if t.status != "running" or not current or not all(x.done for x in current):
            return await self.pending(tournament_id)
        nxt = t.round + 1
        ranked = [p.user_id for p in self._by_standing(view) if p.plays_in(nxt)]
        played = [[_result(x) for x in view.round_tables(r)] for r in range(1, nxt)]
        everyone = [p.user_id for p in view.players]
        tables = next_round(t.format, t.table_size, t.rounds, played, ranked, everyone)
        if not tables:
            try:
                done = await self.storage.tournaments.set_status(
                    tournament_id, "finished", expected_round=t.round
                )
            except TournamentRefused as exc:
                raise refused(exc) from None
            return RoundStep(done, (), finished=True)
        return await self._seat(t, nxt, tables)

    @staticmethod
    def _by_standing(view: TournamentView) -> list[TournamentPlayer]:
        """The players best placed first (the standings' order)."""
        by_id = {p.user_id: p for p in view.players}
        return [by_id[s.player] for s in view.standings if s.player in by_id]

    # ------------------------------------------------------------ reading
    async def _get(self, tournament_id: int) -> TournamentRow:
        t = await self.storage.tournaments.get(tournament_id)
        if t is None:
            raise ServiceError("tournament_not_found")
        return t

    async def view(self, tournament_id: int) -> TournamentView:
        """The tournament with its players, tables and standings.

        Raises:
            ServiceError: ``tournament_not_found``.
        """
        t = await self._get(tournament_id)
        players = await self.storage.tournaments.players(tournament_id)
        tables = await self.storage.tournaments.tables(tournament_id)
        out = {p.user_id for p in players if p.left_round is not None}
        if t.format == "elimination" and t.round:
            current = [
                (x.players, _result(x) if x.done else None) for x in tables if x.round == t.round
            ]
            out |= knocked_out([p.user_id for p in players], current)
        lines = standings(
            [p.user_id for p in players],
            [_result(x) for x in tables if x.done],
            inactive=out,
        )
        return TournamentView(t, tuple(players), tuple(tables), tuple(lines))

    async def in_guild(self, guild_id: int) -> list[TournamentRow]:
        """A server's tournaments, newest first."""
        return await self.storage.tournaments.in_guild(guild_id)


def _result(table: TournamentTable) -> TableResult:
    """A done table as the standings read it."""
    return TableResult(
        players=table.players,
        places=tuple(s.place or len(table.seats) for s in table.seats),
        scores=tuple(s.score or 0 for s in table.seats),
    )


__all__ = ["RoundStep", "TournamentView", "Tournaments", "refused"]
