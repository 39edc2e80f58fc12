"""Admin: ending a game (the host, or a member with Manage Channels) and checking the bot's permissions."""

from __future__ import annotations

import logging

import discord

from bot.discord_app.client import TtrBot
from bot.host.services import GameServicePort

from ._announce import Announcer, missing_permissions, permission_names, required_permissions
from ._base import Base
from ._publish import Publisher

log = logging.getLogger(__name__)


class AdminFlows(Base):
    """Cancel and the permission check."""

    def __init__(
        self, bot: TtrBot, service: GameServicePort, announcer: Announcer, publisher: Publisher
    ) -> None:
        super().__init__(bot, service, announcer)
        self.publisher = publisher

    async def cancel(self, interaction: discord.Interaction, game_id: int) -> None:
        """End the game without a result."""
        await self.defer(interaction)
        table = await self.read(interaction, game_id)
        perms = getattr(interaction.user, "guild_permissions", None)
        await self.service.cancel(
            game_id, interaction.user.id, moderator=bool(perms and perms.manage_channels)
        )
        interaction.extras["committed"] = True
        tw = self.table_words(table)
        await self.publisher.notice(
            table, tw.t("The game was cancelled by {player}.", player=interaction.user.mention)
        )
        await self.reply(
            interaction,
            self.words(interaction, table).t("Game {game} was cancelled.", game=game_id),
        )

    async def check(self, interaction: discord.Interaction) -> None:
        """Whether the bot may run a game here: the permissions it has and lacks in this channel."""
        await self.defer(interaction)
        w = self.words(interaction)
        in_thread = isinstance(interaction.channel, discord.Thread)
        missing = missing_permissions(
            interaction.app_permissions, required_permissions(thread=in_thread)
        )
        if missing:
            text = w.n(
                "Games cannot run here yet: the bot lacks the permission {permissions} in this channel.",
                "Games cannot run here yet: the bot lacks the permissions {permissions} in this channel.",
                len(missing),
                permissions=permission_names(missing, w),
            )
        else:
            text = w.t("The bot has every permission it needs in this channel.")
        await self.reply(interaction, text)
