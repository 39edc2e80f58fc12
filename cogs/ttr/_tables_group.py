"""``/ttr tables``: the server's open tables (lobbies waiting for players, each with a Join
button) and the looking-for-players role members take or drop themselves.

A subgroup of ``/ttr`` of its own class: the cog (:class:`._commands.TtrCog`) makes it with
the family its commands hand over to. Names and descriptions are English here and
translated by ``bot.discord_app.translator`` from the catalogs.
"""

from __future__ import annotations

import discord
from discord import app_commands

from ._tables import OpenTableFlows


class TablesGroup(
    app_commands.Group,
    name="tables",
    description="Find a game: the server's open tables, and pings when one opens",
):
    """The ``/ttr tables`` commands.

    Args:
        tables: the list of open tables and the looking-for-players role.
    """

    def __init__(self, tables: OpenTableFlows) -> None:
        super().__init__()
        self.tables = tables

    @app_commands.command(
        name="list", description="List the tables waiting for players, with a Join button each"
    )
    @app_commands.describe(page="Page number")
    async def list_(
        self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 1000] = 1
    ) -> None:
        await self.tables.list_tables(interaction, page)

    @app_commands.command(
        name="notify", description="Get pinged when a table opens, or stop the pings"
    )
    @app_commands.describe(on="Whether you want the pings")
    async def notify(self, interaction: discord.Interaction, on: bool) -> None:
        await self.tables.notify(interaction, on)
