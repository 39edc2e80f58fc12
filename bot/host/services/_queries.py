"""Reading: one reader's look at a game, the move log, a user's games and settings."""

from __future__ import annotations

import asyncio
import dataclasses
import logging

from bot.host.storage import OPEN_STATUSES, GameRow, SeatRow, Storage, UserSettings
from engine import (
    ClassicRules,
    Event,
    GameState,
    PlayerView,
    apply,
    new_game,
    player_view,
    public_view,
)
from engine.codec import decode_action
from engine.planner import TicketPlan, plan_tickets
from engine.rules.europe import station_choice
from maps.loader import load_ruleset

from ._board import BoardReplays, BoardStep
from ._errors import ServiceError
from ._loading import GameLoader, ai_controlled, seat_of, turn_number
from ._menus import TurnMenu, build_menu
from ._models import TableView, TurnRecord, UserGame, redacted

log = logging.getLogger(__name__)


def _private(
    rules: ClassicRules, state: GameState, seat: int, game_id: int, *, menu: bool, plans: bool
) -> tuple[PlayerView, TurnMenu | None, tuple[TicketPlan, ...]]:
    """The seat's view, its menu (with ``menu``) and its ticket plans (with ``plans``; else
    empty), the tickets planned once for both."""
    mine = lent_tickets_done(rules, state, player_view(rules, state, seat))
    planned = tuple(plan_tickets(rules, mine)) if plans else None
    if planned:
        done = {t.id for t in mine.tickets if t.done}
        planned = tuple(_done(p) if p.ticket in done and not p.done else p for p in planned)
    built = build_menu(rules, state, seat, game_id, plans=planned) if menu else None
    return mine, built, planned or ()


def lent_tickets_done(rules: ClassicRules, state: GameState, view: PlayerView) -> PlayerView:
    """``view`` with the tickets its reader's train stations complete marked done (Europe rules
    digest, "Train stations": each station lends one route of another player into its city;
    the choice that scores best, the one the final score makes:
    :func:`engine.rules.europe.station_choice`, for the reader's seat alone rather than the
    whole final score of every seat). A view of the table only: the rules, the AI and the
    stored game are untouched."""
    if rules.params.stations is None or view.seat not in view.public.stations.values():
        return view
    completed = set(station_choice(rules, state, view.seat)[0])
    if all(t.done or t.id not in completed for t in view.tickets):
        return view
    tickets = tuple(
        t if t.done or t.id not in completed else dataclasses.replace(t, done=True)
        for t in view.tickets
    )
    return dataclasses.replace(view, tickets=tickets)


def _done(plan: TicketPlan) -> TicketPlan:
    """``plan`` of a ticket completed through a train station: nothing left to claim."""
    return dataclasses.replace(
        plan, done=True, routes=(), cars=0, colors={}, station=None, detour=0, lost=()
    )


class Queries:
    """Reading: one reader's look at a game (the table), the move log, a user's games, a
    server's history, and a player's settings.

    Owns nothing of its own. Needs the storage and the :class:`~._loading.GameLoader`
    (rows and cached states).
    """

    def __init__(self, storage: Storage, loader: GameLoader) -> None:
        self.storage = storage
        self.loader = loader
        self.replays = BoardReplays()

    async def table(
        self, game_id: int, user_id: int, *, plans: bool = False, menu: bool = True
    ) -> TableView:
        """The game as ``user_id`` may see it, with their menu when they must act (``user_id=0``: the public).

        One read per click: the cogs render this and nothing else. ``plans``: also plan the
        reader's tickets (:func:`engine.planner.plan_tickets`; the hand reply's text and image);
        ``menu``: False leaves the menu out even when the reader must act.
        Raises:
            ServiceError: ``game_not_found``.
        """
        game = await self.loader.game(game_id)
        seats = await self.storage.seats.seats(game_id)
        if not game.started:
            return TableView(game, seats, None, None, None)
        rules = load_ruleset(game.map_id)
        state = await self.loader.state(game)
        seat = seat_of(seats, user_id) if user_id else None
        if seat is None:
            return TableView(game, seats, public_view(rules, state), None, None)
        acts = (
            menu and game.status == "active" and game.paused_at is None and not ai_controlled(seat)
        )
        # bounded, but the planner and the payments of every route are CPU work: off the loop
        mine, turn_menu, planned = await asyncio.to_thread(
            _private, rules, state, seat.seat, game_id, menu=acts, plans=plans
        )
        return TableView(
            game, seats, public_view(rules, state), mine, seat.seat, turn_menu, planned
        )

    async def board(self, game_id: int, user_id: int | None) -> TableView:
        """The live board's look at a game: :meth:`table` without the menu, with the reader's
        ticket plans when ``user_id`` holds a seat (None: the public, a spectator). The same
        per-seat views as Discord's replies (:func:`engine.player_view` /
        :func:`engine.public_view`); ``version`` says which state it is.

        Raises:
            ServiceError: ``game_not_found``.
        """
        return await self.table(game_id, user_id or 0, plans=True, menu=False)

    async def board_steps(
        self, game_id: int, *, after: int = 0
    ) -> tuple[GameRow, list[SeatRow], list[BoardStep]]:
        """The game row, its seats and every stored action after version ``after`` as the table
        saw it (:class:`~._board.BoardStep`: the public view after it and its public events),
        replayed from the seed and the action log (empty before the start).

        Raises:
            ServiceError: ``game_not_found``.
        """
        game = await self.loader.game(game_id)
        seats = await self.storage.seats.seats(game_id)
        if game.seed is None:
            return game, seats, []
        actions = [a.action for a in await self.storage.actions.actions(game_id)]
        steps = await asyncio.to_thread(
            self.replays.steps,
            load_ruleset(game.map_id),
            game_id,
            seats=len(seats),
            seed=game.seed,
            options=dict(game.options),
            actions=actions,
            after=after,
        )
        return game, seats, steps

    async def turn_log(self, game_id: int) -> list[TurnRecord]:
        """Every turn of the game so far, oldest first, as the table may see it (secrets cut out).

        Turn numbers count as the board does: 0 is the ticket choice at the
        start, then 1, 2, ... (the board shows the turn in play as ``turn + 1``).
        Raises:
            ServiceError: ``game_not_found``, ``not_started``.
        """
        game = await self.loader.game(game_id)
        if game.seed is None:
            raise ServiceError("not_started")
        rules = load_ruleset(game.map_id)
        actions = [decode_action(a.action) for a in await self.storage.actions.actions(game_id)]
        state = new_game(
            rules,
            seats=len(await self.storage.seats.seats(game_id)),
            seed=game.seed,
            options=game.options,
        )
        records: list[TurnRecord] = []
        for version, action in enumerate(actions, 1):
            number = turn_number(state)
            seat = None if state.phase == "setup" else state.active
            transition = apply(rules, state, action)
            public = tuple(redacted(e) for e in transition.events)
            if records and (records[-1].number, records[-1].seat) == (number, seat):
                records[-1] = TurnRecord(number, seat, records[-1].events + public, version)
            else:
                records.append(TurnRecord(number, seat, public, version))
            state = transition.state
        return records

    async def public_log(self, game_id: int, count: int = 10) -> list[Event]:
        """The public events of the last ``count`` turns, oldest first, secrets cut out.

        Raises:
            ServiceError: ``game_not_found``, ``not_started``.
        """
        records = await self.turn_log(game_id)
        return [e for r in records[-max(1, count) :] for e in r.events]

    async def _waits_for(self, game: GameRow, seat: SeatRow) -> bool:
        try:
            return seat.seat in (await self.loader.state(game)).seats_to_act()
        except ServiceError:  # quarantined just now: listed, but nobody's turn
            return False

    async def games_for_user(self, user_id: int) -> list[UserGame]:
        """Every open game (any server) where ``user_id`` holds a seat, the ones waiting for them first."""
        out = []
        for game in await self.storage.games.games_for_user(user_id, status=None):
            if game.status not in OPEN_STATUSES:
                continue
            seats = await self.storage.seats.seats(game.id)
            seat = seat_of(seats, user_id)
            if seat is None:
                continue
            your_turn = (
                game.started
                and game.paused_at is None  # its server removed the bot: nobody moves
                and not ai_controlled(seat)
                and await self._waits_for(game, seat)
            )
            out.append(
                UserGame(
                    game.id,
                    game.guild_id,
                    game.channel_id,
                    game.thread_id,
                    game.map_id,
                    game.status,
                    seat.seat,
                    your_turn,
                )
            )
        out.sort(key=lambda g: (not g.your_turn, g.id))
        return out

    async def last_game_in_channel(self, channel_id: int) -> GameRow | None:
        """The channel's newest game whatever its status: a finished game stays until a new one starts."""
        return await self.storage.games.last_game_in_channel(channel_id)

    async def history(self, guild_id: int, *, page: int = 0, per_page: int = 10) -> list[GameRow]:
        """A server's finished games, newest first, one page of ``per_page``."""
        return await self.storage.games.finished_games(
            guild_id, limit=per_page, offset=max(0, page) * per_page
        )

    async def user_settings(self, user_id: int) -> UserSettings:
        """A player's settings (defaults when never set)."""
        return await self.storage.settings.get_user_settings(user_id)

    async def set_user_settings(self, user_id: int, **changes: bool) -> UserSettings:
        """Change a player's settings: ``turn_pings``, ``dm_turns``, ``high_contrast``,
        ``phone_board``, ``confirm_claims``."""
        return await self.storage.settings.set_user_settings(user_id, **changes)
