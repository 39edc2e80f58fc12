"""``/ttr seat``: substitutes (a seat of this channel's running game passed to another member)
and taking one's last move back by consent.

A subgroup of ``/ttr`` of its own class: the cog (:class:`._commands.TtrCog`) makes it with
the families its commands hand over to (:mod:`._seats`). Names and descriptions are English
here and translated by ``bot.discord_app.translator`` from the catalogs.
"""

from __future__ import annotations

import discord
from discord import app_commands

from ._lobby import LobbyFlows
from ._seats import SeatFlows
from ._takeback import TakeBackFlows


class SeatGroup(
    app_commands.Group,
    name="seat",
    description="Your seat: hand it to a member, offer a timed-out one, take back your last move",
):
    """The ``/ttr seat`` commands.

    Args:
        lobby: finds the game a command is about (this channel's open one).
        seats: the offers and their answers.
        takeback: taking the last move back by consent.
    """

    def __init__(self, lobby: LobbyFlows, seats: SeatFlows, takeback: TakeBackFlows) -> None:
        super().__init__()
        self.lobby = lobby
        self.seats = seats
        self.takeback = takeback

    @app_commands.command(name="give", description="Offer your seat to another member")
    @app_commands.describe(member="The member who takes your seat")
    async def give(self, interaction: discord.Interaction, member: discord.User) -> None:
        await self.seats.give(interaction, await self.lobby.game_here(interaction), member)

    @app_commands.command(
        name="offer",
        description="Offer a seat the computer plays after timeouts to a member (host)",
    )
    @app_commands.describe(seat="The seat's number", member="The member who takes the seat")
    async def offer(
        self,
        interaction: discord.Interaction,
        seat: app_commands.Range[int, 1, 5],
        member: discord.User,
    ) -> None:
        await self.seats.offer(interaction, await self.lobby.game_here(interaction), seat, member)

    @app_commands.command(
        name="take_back", description="Ask the others to let you take back your last move"
    )
    async def take_back(self, interaction: discord.Interaction) -> None:
        await self.takeback.take_back(interaction, await self.lobby.game_here(interaction))
