"""``/ttr player``: ratings, your games, your settings and what the bot stores about you.

A subgroup of ``/ttr`` of its own class: the cog (:class:`._commands.TtrCog`) makes it with
the families its commands hand over to. Names and descriptions are English here and
translated by ``bot.discord_app.translator`` from the catalogs.
"""

from __future__ import annotations

import discord
from discord import app_commands

from . import _choices as choices
from ._ladder import LadderFlows
from ._players import PlayerFlows
from ._privacy import PrivacyFlows


class PlayerGroup(
    app_commands.Group,
    name="player",
    description="Show your ratings, games and settings, and what the bot stores about you",
):
    """The ``/ttr player`` commands.

    Args:
        players: a player's games and settings.
        ladder: the ratings.
        privacy: what the bot stores about a player, and forgetting it.
    """

    def __init__(self, players: PlayerFlows, ladder: LadderFlows, privacy: PrivacyFlows) -> None:
        super().__init__()
        self.players = players
        self.ladder = ladder
        self.privacy = privacy

    @app_commands.command(name="games", description="List your games")
    async def games(self, interaction: discord.Interaction) -> None:
        await self.players.mygames(interaction)

    @app_commands.command(name="stats", description="Show a player's statistics and rating")
    @app_commands.describe(user="The player")
    async def stats(
        self, interaction: discord.Interaction, user: discord.User | None = None
    ) -> None:
        await self.ladder.stats(interaction, user or interaction.user)

    @app_commands.command(name="leaderboard", description="Show this server's rating table")
    @app_commands.describe(
        map="Only the ratings on this map",
        season="An earlier season (default: the current one)",
        page="Page number",
    )
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        map: str | None = None,
        season: app_commands.Range[int, 1, 100_000] | None = None,
        page: app_commands.Range[int, 1, 1000] = 1,
    ) -> None:
        await self.ladder.leaderboard(interaction, map, season, page)

    leaderboard.autocomplete("map")(choices.map_names)

    @app_commands.command(
        name="settings",
        description="Your settings: turn pings, a DM on your turn, high contrast, phone board",
    )
    @app_commands.describe(
        turn_pings="Mention me when it is my turn",
        dm_turns="Also send me a direct message on my turn",
        high_contrast="High-contrast colours in my private images",
        phone_board="My private board drawn 500 px wide, for a phone",
        confirm_claims="Ask me once more before I claim a route",
    )
    async def settings(
        self,
        interaction: discord.Interaction,
        turn_pings: bool | None = None,
        dm_turns: bool | None = None,
        high_contrast: bool | None = None,
        phone_board: bool | None = None,
        confirm_claims: bool | None = None,
    ) -> None:
        await self.players.settings(
            interaction, turn_pings, dm_turns, high_contrast, phone_board, confirm_claims
        )

    @app_commands.command(
        name="privacy", description="What the bot stores about you, why, how long"
    )
    async def privacy_show(self, interaction: discord.Interaction) -> None:
        await self.privacy.privacy(interaction, forget_me=False)

    @app_commands.command(name="forget_me", description="Delete what the bot stores about you")
    async def forget_me(self, interaction: discord.Interaction) -> None:
        await self.privacy.privacy(interaction, forget_me=True)
