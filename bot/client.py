"""The Discord client: a ``commands.Bot`` built by :func:`create_bot`.

``setup_hook`` installs the German translator, loads the ``cogs.ttr``
extension (which registers the restart-proof DynamicItem buttons) and syncs
the commands to ``TTR_DEV_GUILD_ID`` or globally. A heartbeat file is touched
while the gateway is connected, for the Docker HEALTHCHECK (``bot.run.health``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

import discord
import discord.asset
import discord.gateway
import discord.http
import yarl
from discord.ext import commands

from .config import Settings
from .services import GameServicePort
from .translator import Translator
from .tree import TtrTree

log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 30.0


def point_client_at(settings: Settings) -> None:
    """Redirect discord.py's REST, gateway and CDN bases where the settings ask (tests: a fake Discord)."""
    if settings.api_base:
        discord.http.Route.BASE = settings.api_base.rstrip("/")
    if settings.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)
    if settings.cdn_base:
        discord.asset.Asset.BASE = settings.cdn_base.rstrip("/")


class TtrBot(commands.Bot):
    """The bot: holds the settings and the game service the /ttr cog and its clicks use.

    Args:
        settings: the parsed settings.
        service: the game service (a :class:`~bot.services.GameService`).
        options: passed on to :class:`discord.ext.commands.Bot` (tests shorten timeouts).
    """

    service: GameServicePort

    def __init__(self, settings: Settings, service: GameServicePort, **options: Any) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        options.setdefault("guild_ready_timeout", 0.05 if settings.points_at_fake else 2.0)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            tree_cls=TtrTree,
            help_command=None,
            chunk_guilds_at_startup=False,
            # no one by default: each send names whom it pings (bot.send.mentions)
            allowed_mentions=discord.AllowedMentions.none(),
            **options,
        )
        self.settings = settings
        self.service = service
        self._heartbeat_task: asyncio.Task[None] | None = None

    async def setup_hook(self) -> None:
        await self.tree.set_translator(Translator())
        await self.load_extension("cogs.ttr")
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to guild %s", len(synced), self.settings.dev_guild_id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d global commands", len(synced))
        self._heartbeat_task = asyncio.create_task(self._heartbeat(), name="ttr-heartbeat")
        self._warm_task = asyncio.create_task(self._warm_up(), name="ttr-warm-up")

    async def _warm_up(self) -> None:
        """Draw every map's static board layer in a worker thread, so no first board waits for it."""
        try:
            from render import warm_up

            await asyncio.to_thread(warm_up)
        except Exception:  # noqa: BLE001 - only a speed-up; the boards render anyway
            log.warning("warming up the board images failed", exc_info=True)

    async def _heartbeat(self) -> None:
        path = self.settings.heartbeat_file
        await self.wait_until_ready()
        while not self.is_closed():
            if self.is_ready() and self.ws is not None:
                try:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_text(f"{time.time():.0f}\n")
                except OSError:
                    log.warning("cannot write the heartbeat file %s", path, exc_info=True)
            await asyncio.sleep(HEARTBEAT_SECONDS)

    async def close(self) -> None:
        if self._heartbeat_task is not None:
            self._heartbeat_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._heartbeat_task
        await super().close()

    async def on_ready(self) -> None:
        # idempotent: resumes pending AI moves and turn clocks stored in the database
        self.service.start_timers()
        log.info(
            "connected as %s (%s) in %d guild(s)",
            self.user,
            getattr(self.user, "id", "?"),
            len(self.guilds),
        )


class ShardedTtrBot(TtrBot, commands.AutoShardedBot):
    """The bot on a range of Discord shards (``TTR_SHARD_COUNT``, ``TTR_SHARD_IDS``): one
    process of several, each running its own shards over one PostgreSQL database."""


def create_bot(settings: Settings, service: GameServicePort, **options: Any) -> TtrBot:
    """Build the bot for ``settings`` around ``service`` (a ``bot.services.GameService``):
    an ``AutoShardedBot`` on ``settings.shard_ids`` of ``shard_count`` when those are set."""
    point_client_at(settings)
    if settings.shard_count is not None and settings.shard_ids is not None:
        options.setdefault("shard_count", settings.shard_count)
        options.setdefault("shard_ids", list(settings.shard_ids))
        return ShardedTtrBot(settings, service, **options)
    return TtrBot(settings, service, **options)
