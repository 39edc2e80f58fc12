"""``/ttr game``: this channel's game beyond the moves (its log, its map's rules, a vacation,
resigning, cancelling, following it) and the server's finished games.

A subgroup of ``/ttr`` of its own class: the cog (:class:`._commands.TtrCog`) makes it with
the families its commands hand over to. Names and descriptions are English here and
translated by ``bot.discord_app.translator`` from the catalogs.
"""

from __future__ import annotations

import discord
from discord import app_commands

from . import _choices as choices
from ._admin import AdminFlows
from ._follow import FollowFlows
from ._guide import GuideFlows
from ._lobby import LobbyFlows
from ._play import PlayFlows
from ._record import RecordFlows


class GameGroup(
    app_commands.Group,
    name="game",
    description="Manage this game: log, rules, vacation, resign, cancel, follow; finished games",
):
    """The ``/ttr game`` commands.

    Args:
        lobby: finds the game a command is about (this channel's open one, or the one it shows).
        record: the log and the finished games.
        guide: the rules.
        play: a vacation, resigning.
        admin: cancelling.
        follow: following a game without playing.
    """

    def __init__(
        self,
        lobby: LobbyFlows,
        record: RecordFlows,
        guide: GuideFlows,
        play: PlayFlows,
        admin: AdminFlows,
        follow: FollowFlows,
    ) -> None:
        super().__init__()
        self.lobby = lobby
        self.record = record
        self.guide = guide
        self.play = play
        self.admin = admin
        self.follow = follow

    @app_commands.command(name="log", description="Show the moves since your last turn")
    @app_commands.describe(count="Or: how many of the last turns")
    async def log_(
        self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 200] | None = None
    ) -> None:
        await self.record.log(interaction, await self.lobby.game_shown(interaction), count)

    @app_commands.command(
        name="rules", description="Show the rules of a map (without one: the list of maps)"
    )
    @app_commands.describe(map="The map whose rules to show")
    async def rules(self, interaction: discord.Interaction, map: str | None = None) -> None:
        await self.guide.rules(interaction, map, await self.lobby.game_last_shown(interaction))

    rules.autocomplete("map")(choices.map_names)

    @app_commands.command(name="vacation", description="Take a vacation: your turns wait")
    @app_commands.describe(days="Number of days")
    async def vacation(
        self, interaction: discord.Interaction, days: app_commands.Range[int, 1, 7]
    ) -> None:
        await self.play.vacation(interaction, await self.lobby.game_here(interaction), days)

    @app_commands.command(name="resign", description="Resign: a computer plays your seat")
    async def resign(self, interaction: discord.Interaction) -> None:
        await self.play.resign(interaction, await self.lobby.game_here(interaction))

    @app_commands.command(name="cancel", description="Cancel the game (host or Manage Channels)")
    async def cancel(self, interaction: discord.Interaction) -> None:
        await self.admin.cancel(interaction, await self.lobby.game_here(interaction))

    @app_commands.command(name="history", description="List this server's finished games")
    @app_commands.describe(page="Page number")
    async def history(
        self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 1000] = 1
    ) -> None:
        await self.record.history(interaction, page)

    @app_commands.command(
        name="show",
        description="Show a finished game: final image, scores, rating changes, analysis",
    )
    @app_commands.describe(id="The game's number")
    async def show_game(
        self, interaction: discord.Interaction, id: app_commands.Range[int, 1, 2**53]
    ) -> None:
        await self.record.game(interaction, id)

    @app_commands.command(
        name="follow", description="Follow this game without playing: a direct message at its end"
    )
    @app_commands.describe(each_turn="Also a direct message at each turn (default: no)")
    async def follow_(self, interaction: discord.Interaction, each_turn: bool = False) -> None:
        await self.follow.follow(interaction, await self.lobby.game_here(interaction), each_turn)

    @app_commands.command(name="unfollow", description="Stop following this game")
    async def unfollow(self, interaction: discord.Interaction) -> None:
        await self.follow.unfollow(interaction, await self.lobby.game_shown(interaction))
