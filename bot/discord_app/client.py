"""The Discord client: a ``commands.Bot`` built by :func:`create_bot`.

``setup_hook`` installs the German translator, loads the ``cogs.ttr``
extension (which registers the restart-proof DynamicItem buttons) and syncs
the commands to ``TTR_DEV_GUILD_ID`` or globally. The client tells the
process's :class:`~bot.process.health.Health` when it is connected (READY, a resumed
session) and when the connection is gone; :mod:`bot.discord_app.connect` runs it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from typing import Any

import discord
import discord.asset
import discord.gateway
import discord.http
import yarl
from discord.ext import commands

from bot.host.services import GameServicePort
from bot.process import metrics
from bot.process.config import Settings
from bot.process.health import Health

from . import send
from .translator import Translator
from .tree import TtrTree

log = logging.getLogger(__name__)


def point_client_at(settings: Settings) -> None:
    """Redirect discord.py's REST, gateway and CDN bases where the settings ask (tests: a fake Discord)."""
    if settings.api_base:
        discord.http.Route.BASE = settings.api_base.rstrip("/")
    if settings.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)
    if settings.cdn_base:
        discord.asset.Asset.BASE = settings.cdn_base.rstrip("/")


class TtrBot(commands.Bot):
    """The bot: holds the settings and the game service the /ttr cog and its clicks use, and
    reports its connection to ``health``.

    Args:
        settings: the parsed settings.
        service: the game service (a :class:`~bot.host.services.GameService`).
        health: the process's readiness (:mod:`bot.process.health`; a private one when not given).
        options: passed on to :class:`discord.ext.commands.Bot` (tests shorten timeouts).
    """

    service: GameServicePort

    def __init__(
        self,
        settings: Settings,
        service: GameServicePort,
        *,
        health: Health | None = None,
        **options: Any,
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        options.setdefault("guild_ready_timeout", 0.05 if settings.points_at_fake else 2.0)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            tree_cls=TtrTree,
            help_command=None,
            chunk_guilds_at_startup=False,
            # no one by default: each send names whom it pings (bot.discord_app.send.mentions)
            allowed_mentions=discord.AllowedMentions.none(),
            **options,
        )
        self.settings = settings
        self.service = service
        self.health = health or Health()
        #: set by :meth:`close`: the warm-up thread stops after the map it is drawing
        self._warm_stop = threading.Event()

    async def setup_hook(self) -> None:
        await self.tree.set_translator(Translator())
        await self.load_extension("cogs.ttr")
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            with send.counted():
                synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to guild %s", len(synced), self.settings.dev_guild_id)
        else:
            with send.counted():
                if self.settings.activity_enabled and isinstance(self.tree, TtrTree):
                    synced = await self.tree.sync_keeping_entry_point()  # see its docstring
                else:
                    synced = await self.tree.sync()
            log.info("synced %d global commands", len(synced))
        self._warm_task = asyncio.create_task(self._warm_up(), name="ttr-warm-up")

    async def _warm_up(self) -> None:
        """Draw every map's static board layers in a daemon thread, map by map, so no first
        board waits for them. Once the client closes the thread stops after the map it is
        drawing (a client closed after a failed connection left its warm-up drawing beside
        the next client's); a daemon thread, because the process's exit must not wait for a
        map's layers, a cache only (a stop mid-game waited 2-3 s for one on a busy machine).
        Layers drawn stay cached for the next client."""
        stop = self._warm_stop
        loop = asyncio.get_running_loop()
        finished = asyncio.Event()
        failed: list[Exception] = []
        try:
            from maps.loader import available_maps
            from render import warm_up

            def draw() -> None:
                try:
                    for map_id in available_maps():
                        if stop.is_set():
                            return
                        warm_up([map_id])
                except Exception as exc:  # noqa: BLE001 - reported on the loop below
                    failed.append(exc)
                finally:
                    with contextlib.suppress(RuntimeError):  # the loop is closed: we exit
                        loop.call_soon_threadsafe(finished.set)

            threading.Thread(target=draw, name="ttr-warm-up", daemon=True).start()
            await finished.wait()
            if failed:
                raise failed[0]
        except Exception:  # noqa: BLE001 - only a speed-up; the boards render anyway
            log.warning("warming up the board images failed", exc_info=True)

    async def close(self) -> None:
        """Stop the warm-up after the map under way, then close the client."""
        self._warm_stop.set()
        await super().close()

    async def on_resumed(self) -> None:
        metrics.reconnect("resumed")
        self.health.ready()

    async def on_disconnect(self) -> None:
        if self.health.snapshot().ready:
            self.health.not_ready("the connection to Discord was lost; reconnecting")

    async def on_ready(self) -> None:
        self.health.ready()
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
    """Build the bot for ``settings`` around ``service`` (a ``bot.host.services.GameService``):
    an ``AutoShardedBot`` on ``settings.shard_ids`` of ``shard_count`` when those are set."""
    point_client_at(settings)
    if settings.shard_count is not None and settings.shard_ids is not None:
        options.setdefault("shard_count", settings.shard_count)
        options.setdefault("shard_ids", list(settings.shard_ids))
        return ShardedTtrBot(settings, service, **options)
    return TtrBot(settings, service, **options)
