"""``/ttr admin``: the server's settings and seasons, and the permission check.

A subgroup of ``/ttr`` of its own class: the cog (:class:`._commands.TtrCog`) makes it with
the families its commands hand over to. Names and descriptions are English here and
translated by ``bot.discord_app.translator`` from the catalogs.
"""

from __future__ import annotations

import discord
from discord import app_commands

from ._admin import AdminFlows
from ._ladder import LadderFlows
from ._lobby import TURN_TIMES
from ._tables import OpenTableFlows

Choice = app_commands.Choice
#: ``/ttr admin config language:``: a table language, or the server's own (Discord's locale).
SERVER_LANGUAGES = [
    Choice(name="English", value="en"),
    Choice(name="Deutsch", value="de"),
    Choice(name="The server's language", value="server"),
]


class AdminGroup(
    app_commands.Group,
    name="admin",
    description="The server's settings and seasons (Manage Server changes them)",
):
    """The ``/ttr admin`` commands.

    Args:
        ladder: the server's settings and seasons.
        admin: the permission check.
        tables: the open-table settings (the looking-for-players role, its pings, the expiry).
    """

    def __init__(self, ladder: LadderFlows, admin: AdminFlows, tables: OpenTableFlows) -> None:
        super().__init__()
        self.ladder = ladder
        self.admin = admin
        self.tables = tables

    @app_commands.command(
        name="config", description="Show the server's settings; Manage Server changes them"
    )
    @app_commands.describe(
        language="Table language of new games",
        turn_time="Turn time of new games",
        rated="New games are rated unless their host says otherwise",
        hints="Hints may be allowed (in casual games)",
        add_channel="Allow games in this channel (once one is named, only the named ones)",
        remove_channel="No more new games in this channel",
        table_role="The role pinged when a table opens (members take it with /ttr tables notify)",
        table_role_off="No role is pinged when a table opens",
        table_ping="Least minutes between two pings of that role (default: 10)",
        table_expiry="Hours a table nobody joins waits before it closes (default: 24)",
    )
    @app_commands.choices(
        language=SERVER_LANGUAGES, turn_time=[Choice(name=k, value=k) for k in TURN_TIMES]
    )
    async def config(
        self,
        interaction: discord.Interaction,
        language: str | None = None,
        turn_time: str | None = None,
        rated: bool | None = None,
        hints: bool | None = None,
        add_channel: discord.TextChannel | None = None,
        remove_channel: discord.TextChannel | None = None,
        table_role: discord.Role | None = None,
        table_role_off: bool | None = None,
        table_ping: app_commands.Range[int, 1, 1440] | None = None,
        table_expiry: app_commands.Range[int, 1, 720] | None = None,
    ) -> None:
        saved, lines = await self.tables.configure(
            interaction, table_role, table_role_off, table_ping, table_expiry
        )
        await self.ladder.config(
            interaction,
            language,
            turn_time,
            rated,
            hints,
            add_channel,
            remove_channel,
            more=lines,
            saved=saved,
        )

    @app_commands.command(name="check", description="Check the bot's permissions in this channel")
    async def check(self, interaction: discord.Interaction) -> None:
        await self.admin.check(interaction)

    @app_commands.command(
        name="season", description="Start a new season: every rating starts afresh (Manage Server)"
    )
    async def season(self, interaction: discord.Interaction) -> None:
        await self.ladder.season(interaction)
