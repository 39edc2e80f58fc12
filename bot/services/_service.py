"""GameService: the one door between Discord (or the demo) and the engine plus storage.

It is composed of five parts that change for different reasons, over the
loading of games (:mod:`._loading`: locks, the state cache, quarantine) and
the recording of moves (:mod:`._recording`: AI seats, timers, one
transaction per move, outcomes):
lobby (:mod:`._lobby`), play (:mod:`._play`), the clock (:mod:`._clock`),
reading (:mod:`._queries`) and the ladder (:mod:`._ladder`: server settings,
seasons, ratings, statistics). Nothing here imports discord: methods take
Discord ids and return dataclasses (:mod:`._models`).
"""

from __future__ import annotations

from ._clock import ClockOps
from ._ladder import LadderOps
from ._lobby import LobbyOps
from ._play import PlayOps
from ._queries import QueryOps


class GameService(LobbyOps, PlayOps, ClockOps, QueryOps, LadderOps):
    """Games in channels: lobby, play, clocks, ratings and statistics. Methods take Discord ids and return dataclasses.

    Args:
        storage: an open :class:`~bot.storage.Storage`.
        clock: unix seconds (tests pass a fake).
        seed_source: seeds for new games (default: 63 random bits).
        auto_ai: when True (default) AI seats act as soon as it is their turn;
            the demo passes False and steps them with :meth:`play_ai`.
        on_turn: awaited after moves made by the clock (timeouts, resumed AI
            turns) so the caller can post the board.
        on_reminder: awaited when half a turn's time is gone.
        on_quarantine: awaited once when a game is taken out of play because
            its stored state cannot be read (tell the players).
        shards: the Discord shards this process serves; the clock only fires
            for games of guilds on them (None: every game).

    Errors: :class:`ServiceError` (typed code), engine ``IllegalAction`` /
    ``SetupError`` (typed code); in every case nothing was written.
    """


__all__ = ["GameService"]
