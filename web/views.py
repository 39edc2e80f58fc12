"""What a grant may read: the map, the state, a move, the replay, each for one reader.

The one place the web package asks the service for a game: the reader's
:class:`~bot.host.services.TableView` (:meth:`bot.host.services.Queries.board`: the public
view, and the reader's own view only when the grant names a user who holds a seat), the
public steps (:meth:`~bot.host.services.Queries.board_steps`) and the stored analysis. The
state of spectators is the same for all of them: it is built once per version and language.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from bot.host.services import BoardStep, TableView

from .payloads import (
    LOG_LINES,
    map_name,
    map_payload,
    move_payload,
    private_part,
    public_state,
    seat_names,
    step_text,
    words_of,
)
from .replay import final_steps, replay_payload
from .strings import page_strings
from .tokens import Grant

#: Spectator states kept (per game, version and language).
CACHED_STATES = 128


class BoardReader:
    """Reads games for grants (see the module docstring).

    Args:
        service: the game service.
        clock: unix seconds (the seats' clocks).
    """

    def __init__(self, service: Any, clock: Callable[[], float]) -> None:
        self.service = service
        self.clock = clock
        self._public: OrderedDict[tuple[Any, ...], dict[str, Any]] = OrderedDict()
        self._tables: OrderedDict[int, TableView] = OrderedDict()
        self._reading: dict[int, asyncio.Future[TableView]] = {}

    async def table(self, grant: Grant) -> TableView:
        """The grant's look at its game (a seated reader's with their menu of moves, the
        page's ``me.moves``). Raises ServiceError ``game_not_found``."""
        queries = self.service.queries
        if grant.user_id is None:
            table: TableView = await queries.board(grant.game_id, None)
        else:
            table = await queries.table(grant.game_id, grant.user_id, plans=True)
        return table

    async def public_table(self, game_id: int, version: int) -> TableView:
        """The public look at a game at ``version`` or later, read once for all spectators
        (their streams ask at once after a move; a read under way is shared)."""
        cached = self._tables.get(game_id)
        for _ in range(3):  # a read under way may have started before the move: read again
            if cached is not None and cached.version >= version:
                break
            reading = self._reading.get(game_id)
            if reading is None:
                reading = asyncio.ensure_future(self.service.queries.board(game_id, None))
                self._reading[game_id] = reading
                reading.add_done_callback(lambda _t: self._reading.pop(game_id, None))
            table: TableView = await asyncio.shield(reading)
            if cached is None or table.version >= cached.version:
                self._tables[game_id] = cached = table
                self._tables.move_to_end(game_id)
                while len(self._tables) > CACHED_STATES:
                    self._tables.popitem(last=False)
            if table.version < version and reading.done():
                self._reading.pop(game_id, None)
        if cached is None:
            cached = await self.service.queries.board(game_id, None)
        return cached

    @staticmethod
    def title(table: TableView, lang: str) -> str:
        """The page's title: the map's name and the board."""
        rules, w = words_of(table.game.map_id, lang)
        return w.t("Live board: {map}", map=map_name(rules, lang))

    async def map(self, grant: Grant) -> dict[str, Any]:
        """The map payload of the grant's game."""
        table = await self.table(grant)
        return map_payload(table.game.map_id, grant.lang)

    async def state(self, grant: Grant, steps: Sequence[BoardStep] | None = None) -> dict[str, Any]:
        """The state payload for the grant's reader now. ``steps``: the game's newest public
        steps when the caller has them (the feed's), else they are read."""
        table = await self.table(grant)
        if not steps or steps[-1].version != table.version:
            after = max(0, table.version - LOG_LINES * 3)
            _, _, read = await self.service.queries.board_steps(grant.game_id, after=after)
            steps = read
        return self.state_of(table, grant, steps)

    def state_of(
        self, table: TableView, grant: Grant, steps: Sequence[BoardStep]
    ) -> dict[str, Any]:
        """The state payload of ``table`` for ``grant`` with the newest ``steps``."""
        me = private_part(table) if grant.user_id is not None else None
        game = table.game
        key = (game.id, table.version, grant.lang, len(table.seats), game.status, game.deadline_at)
        base = self._public.get(key) if me is None else None
        if base is None:
            base = self._public_of(table, grant.lang, steps)
            if me is None:
                self._public[key] = base
                while len(self._public) > CACHED_STATES:
                    self._public.popitem(last=False)
        return {**base, "me": me}

    def _public_of(self, table: TableView, lang: str, steps: Sequence[BoardStep]) -> dict[str, Any]:
        game = table.game
        rules, w = words_of(game.map_id, lang)
        names = seat_names(table.seats)
        state = public_state(game, table.seats, table.public, table.version, self.clock())
        shown = [s for s in steps if s.version <= table.version]
        log = [
            {"version": s.version, "seat": s.seat, "text": text}
            for s in shown
            if (text := step_text(s, rules, names, w))
        ][-LOG_LINES:]
        last = move_payload(shown[-1], rules, names, w) if shown else None
        result = table.public.result if table.public is not None else None
        state["strings"] = page_strings(lang, rules.meta)
        state["last_move"] = last
        state["log"] = log
        state["final"] = None
        if result is not None and table.public is not None:
            state["final"] = {"steps": final_steps(result, table.public, rules, names, w)}
        return state

    def move(self, table: TableView, grant: Grant, step: BoardStep) -> dict[str, Any]:
        """One move as an event carries it (without the state)."""
        rules, w = words_of(table.game.map_id, grant.lang)
        return move_payload(step, rules, seat_names(table.seats), w)

    async def replay(self, grant: Grant) -> dict[str, Any]:
        """The replay payload of the grant's game (public for every reader)."""
        game, seats, steps = await self.service.queries.board_steps(grant.game_id, after=0)
        analysis = None
        if game.status == "finished":
            analysis = await self.service.analyses.analysis(grant.game_id, queue=False)
        return replay_payload(game, seats, steps, analysis, grant.lang, self.clock())


__all__ = ["CACHED_STATES", "BoardReader"]
