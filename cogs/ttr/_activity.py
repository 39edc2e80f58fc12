"""Open in Discord: the live board launched as the application's Activity in the game's
channel (Discord's interaction callback ``LAUNCH_ACTIVITY``), offered beside the Live board
link when the bot is configured as an Activity (``DISCORD_CLIENT_ID``,
``DISCORD_CLIENT_SECRET`` and ``TTR_WEB_PORT``: :attr:`bot.process.config.Settings.activity_enabled`).
Inside the Activity the page signs its user in and opens the channel's board
(:mod:`web.activity`)."""

from __future__ import annotations

import logging

import discord

from bot.discord_app import send

from . import _ids as ids
from ._base import Base
from ._links import with_board_link

log = logging.getLogger(__name__)


class ActivityFlows(Base):
    """The Open in Discord button."""

    @ids.Activity.game_handler
    async def launch(self, interaction: discord.Interaction, game_id: int) -> None:
        """Launch the Activity in this channel. When Discord refuses (the application has no
        Activity, or it is not allowed here) the reader gets the board's link instead, and
        an Activity not configured at all (an old button) says the same."""
        if self.bot.settings.activity_enabled:
            try:
                with send.counted():
                    await interaction.response.launch_activity()
                return
            except discord.HTTPException as exc:
                log.info("Discord refused to launch the Activity (status %s)", exc.status)
        table = await self.read(interaction, game_id, here=False)
        w = self.words(interaction, table)
        view = with_board_link(self.bot.settings, game_id, table.seat, interaction.user.id, w)
        await self.reply(
            interaction,
            w.t("The board cannot open inside Discord here; open it in your browser."),
            view=view,
        )
