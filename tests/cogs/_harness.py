"""A running bot over the real GameService and a temporary SQLite file, against the fake Discord."""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.discord_app.client import TtrBot, create_bot
from bot.host.services import GameService
from bot.host.storage import open_storage
from bot.process.config import Settings

from ..e2e.fake_discord import FakeDiscord, SentMessage, pointed_at, running_client
from ._driver import Player, _keep_offered

TIMEOUT = 20.0


@dataclass
class RunningTable:
    """What a test drives: the fake, the service, the bot and the human players."""

    fake: FakeDiscord
    service: GameService
    bot: TtrBot
    players: dict[str, Player]

    @property
    def cog(self) -> Any:
        """The /ttr cog."""
        return self.bot.get_cog("ttr")

    async def game_id(self, channel: str = "games") -> int:
        """The open game of a channel."""
        game = await self.service.lobby.game_in_channel(self.fake.channel(channel).id)
        assert game is not None
        return game.id

    async def version(self, game_id: int) -> int:
        """The stored version of a game."""
        game = await self.service.storage.games.get_game(game_id)
        assert game is not None
        return game.version

    async def active(self, game_id: int) -> Player:
        """The player whose turn it is."""
        t = await self.service.queries.table(game_id, 0)
        assert t.public is not None
        seat = t.seats[t.public.active]
        return next(p for p in self.players.values() if p.user.id == seat.user_id)

    async def idle(self, game_id: int) -> Player:
        """A human player whose turn it is not."""
        active = await self.active(game_id)
        return next(p for p in self.players.values() if p is not active)

    def turn_messages(self, game_id: int, channel: str = "games") -> list[SentMessage]:
        """The public turn messages of a game, oldest first."""
        return [m for m in self.fake.messages_in(channel) if f"ttr:{game_id}:draw" in m.custom_ids]


@contextlib.asynccontextmanager
async def running_table(
    tmp_path: Path,
    names: tuple[str, ...] = ("alice", "bob"),
    *,
    seed: int = 7,
    env: dict[str, str] | None = None,
) -> AsyncIterator[RunningTable]:
    """The bot running in-process over a fresh database; ``names`` are the members who will play;
    ``env``: more settings (``TTR_WEB_PORT`` ...)."""
    settings = Settings.from_env(
        {"DISCORD_TOKEN": "x", "TTR_DATABASE_PATH": str(tmp_path / "db"), **(env or {})},
        env_file=None,
    )
    async with FakeDiscord(member_names=names) as fake:
        fake.require_allowed_mentions = True
        with pointed_at(fake):
            storage = await open_storage(tmp_path / "ttr.sqlite3")
            try:
                # one short round of rollouts per turn: a game's analysis takes a second
                service = GameService(
                    storage, seed_source=lambda: seed, analysis_rollouts=8, analysis_budget_s=0.0
                )
                bot = create_bot(settings, service, guild_ready_timeout=0.05)
                async with running_client(fake, bot):
                    await fake.wait_for_commands("ttr new", "ttr hand", timeout=TIMEOUT)
                    yield RunningTable(
                        fake, service, bot, {n: Player(fake, n, "games") for n in names}
                    )
            finally:
                await storage.close()


async def started_game(table: RunningTable, map_id: str = "usa", **new: object) -> int:
    """Open (``new``: more options of /ttr new), seat every player, start, and let everyone keep
    their offered tickets; returns the game id."""
    names = list(table.players)
    host = table.players[names[0]]
    await host.slash("new", {"map": map_id, **new})
    for name in names[1:]:
        await table.players[name].slash("join")
    await host.slash("start")
    for p in table.players.values():
        await _keep_offered(p, await p.slash("hand"))
    return await table.game_id()


async def my_turn_or_end(
    table: RunningTable, game_id: int, player: Player, since: int, *, timeout: float = TIMEOUT
) -> SentMessage:
    """The first public message from ``table.fake.sent[since:]`` on that pings ``player`` to move
    in game ``game_id``, or the game-over message (it carries the Rematch button)."""
    mine = re.compile(rf"<@!?{player.user.id}>")
    return await table.fake.wait_for_message(
        lambda m: (
            m.kind == "channel"
            and (
                f"ttr:{game_id}:rematch" in m.custom_ids
                or (bool(mine.search(m.content)) and f"ttr:{game_id}:draw" in m.custom_ids)
            )
        ),
        since=since,
        timeout=timeout,
    )
