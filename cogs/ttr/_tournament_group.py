"""``/ttr tournament``: open a tournament, sign up or leave, start it, the standings, the
server's tournaments, cancel.

A subgroup of ``/ttr`` of its own class: the cog (:class:`._commands.TtrCog`) makes it with
the family its commands hand over to (:class:`._tournament.TournamentFlows`). Names and
descriptions are English here and translated by ``bot.discord_app.translator`` from the
catalogs.
"""

from __future__ import annotations

import discord
from discord import app_commands

from . import _choices as choices
from ._lobby import TURN_TIMES
from ._tournament import TournamentFlows

Choice = app_commands.Choice
#: The formats, as ``/ttr tournament open format:`` offers them.
FORMAT_CHOICES = [
    Choice(name="Swiss with tables", value="swiss"),
    Choice(name="Round robin", value="round_robin"),
    Choice(name="Single elimination", value="elimination"),
]


class TournamentGroup(
    app_commands.Group,
    name="tournament",
    description="Play tournaments: open, sign up, start, standings (Manage Server opens and starts)",
):
    """The ``/ttr tournament`` commands.

    Args:
        flows: the tournaments' family.
    """

    def __init__(self, flows: TournamentFlows) -> None:
        super().__init__()
        self.flows = flows

    @app_commands.command(
        name="open", description="Open a tournament in this channel (Manage Server)"
    )
    @app_commands.describe(
        name="The tournament's name",
        map="The map of the first round",
        format="The format",
        table_size="Players per table",
        rounds="Swiss only: the number of rounds (default: enough to find a winner)",
        turn_time="Time per turn",
        rated="Rated: the games change the players' ratings (default: no)",
        map2="A map for the second round (the maps take turns)",
        map3="A map for the third round",
        language="The tournament's language for everything public (default: the server's)",
    )
    @app_commands.choices(
        format=FORMAT_CHOICES,
        turn_time=[Choice(name=k, value=k) for k in TURN_TIMES],
        language=[Choice(name="English", value="en"), Choice(name="Deutsch", value="de")],
    )
    async def open_(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 60],
        map: str,
        format: str,
        table_size: app_commands.Range[int, 2, 5],
        rounds: app_commands.Range[int, 1, 20] | None = None,
        turn_time: str | None = None,
        rated: bool = False,
        map2: str | None = None,
        map3: str | None = None,
        language: str | None = None,
    ) -> None:
        seconds = TURN_TIMES.get(turn_time or "24h", TURN_TIMES["24h"])
        maps = [m for m in (map, map2, map3) if m]
        await self.flows.open(
            interaction, name, maps, format, table_size, rounds, seconds, rated, language
        )

    open_.autocomplete("map")(choices.map_names)
    open_.autocomplete("map2")(choices.map_names)
    open_.autocomplete("map3")(choices.map_names)

    @app_commands.command(name="join", description="Sign up for this channel's tournament")
    @app_commands.describe(tournament="The tournament's number (default: this channel's)")
    async def join(
        self, interaction: discord.Interaction, tournament: app_commands.Range[int, 1] | None = None
    ) -> None:
        await self.flows.join(interaction, tournament)

    @app_commands.command(
        name="leave", description="Leave a tournament: you forfeit its later rounds"
    )
    @app_commands.describe(tournament="The tournament's number (default: this channel's)")
    async def leave(
        self, interaction: discord.Interaction, tournament: app_commands.Range[int, 1] | None = None
    ) -> None:
        await self.flows.leave(interaction, tournament)

    @app_commands.command(
        name="start", description="Close the sign-up and seat the first round (Manage Server)"
    )
    @app_commands.describe(tournament="The tournament's number (default: this channel's)")
    async def start(
        self, interaction: discord.Interaction, tournament: app_commands.Range[int, 1] | None = None
    ) -> None:
        await self.flows.start(interaction, tournament)

    @app_commands.command(name="standings", description="Show a tournament's standings")
    @app_commands.describe(
        tournament="The tournament's number (default: this channel's)", page="Page number"
    )
    async def standings(
        self,
        interaction: discord.Interaction,
        tournament: app_commands.Range[int, 1] | None = None,
        page: app_commands.Range[int, 1, 1000] = 1,
    ) -> None:
        await self.flows.standings(interaction, tournament, page)

    @app_commands.command(name="list", description="Show this server's tournaments")
    @app_commands.describe(page="Page number")
    async def list_(
        self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 1000] = 1
    ) -> None:
        await self.flows.tournaments(interaction, page)

    @app_commands.command(name="cancel", description="Cancel a tournament (Manage Server)")
    @app_commands.describe(tournament="The tournament's number (default: this channel's)")
    async def cancel(
        self, interaction: discord.Interaction, tournament: app_commands.Range[int, 1] | None = None
    ) -> None:
        await self.flows.cancel(interaction, tournament)
