"""The /ttr command table: one line per command, the work is in the families.

discord.py binds one slash-command group to one cog, so ``/ttr`` is declared
here once; each command hands over to its family (:mod:`._lobby`,
:mod:`._play`, :mod:`._info`, :mod:`._players`, :mod:`._ladder`, :mod:`._admin`). Names
and descriptions are English here and translated by ``bot.discord_app.translator`` from the catalogs.

Discord allows 25 entries (commands and groups) under ``/ttr`` and 25 in each group. What
players do in every game has its own command at the top: the lobby (``new``, ``join``,
``leave``, ``add_ai``, ``start``), the moves (``hand``, ``draw``, ``claim``, ``station``,
``tickets``, ``hint``), the table (``board``, ``status``) and ``help``. What is asked
now and then sits in three groups: ``/ttr game`` (this channel's game beyond the moves:
its log, its map's rules, a vacation, resigning, cancelling; and the finished games),
``/ttr player`` (ratings, your games, your settings and your data) and ``/ttr admin``
(the server's settings and seasons, the permission check). That leaves eight entries
free at the top (``tests/cogs/test_command_tree.py`` fails when fewer than five are).
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_app import send
from bot.discord_app.client import TtrBot
from bot.host.services import AI_LEVELS

from . import _choices as choices
from ._admin import AdminFlows
from ._announce import Announcer
from ._coach import CoachFlows
from ._info import InfoFlows
from ._ladder import LadderFlows
from ._lobby import TURN_TIMES, LobbyFlows
from ._menu_clicks import MenuClicks
from ._play import DRAW_SOURCES, PlayFlows
from ._players import PlayerFlows
from ._privacy import PrivacyFlows
from ._publish import Publisher

log = logging.getLogger(__name__)

Choice = app_commands.Choice
#: The catalog context of the ``tickets`` option of ``/ttr new`` (Germany's ticket edition), so
#: that German can name it apart from the ``/ttr tickets`` command (``ausgabe``, ``zielkarten``).
EDITION = "command edition"
#: ``/ttr admin config language:``: a table language, or the server's own (Discord's locale).
SERVER_LANGUAGES = [
    Choice(name="English", value="en"),
    Choice(name="Deutsch", value="de"),
    Choice(name="The server's language", value="server"),
]


async def map_names(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """The maps whose name matches ``current`` (the autocomplete of every ``map`` option)."""
    return send.choices(LobbyFlows.map_choices(current, interaction.locale))


class TtrCog(
    commands.GroupCog,
    name="ttr",
    group_name="ttr",
    group_description="Ticket to Ride: asynchronous games in this channel",
):
    """The /ttr commands, and the families that answer them and the clicks (:mod:`._clicks`).

    Args:
        bot: the bot; its game service is the one every family asks.
    """

    def __init__(self, bot: TtrBot) -> None:
        service = bot.service
        self.bot = bot
        self.service = service
        self.announcer = Announcer(bot)
        self.publisher = Publisher(bot, service, self.announcer)
        self.lobby_flows = LobbyFlows(bot, service, self.announcer, self.publisher)
        self.play = PlayFlows(bot, service, self.announcer, self.publisher)
        self.menus = MenuClicks(bot, service, self.announcer, self.play)
        self.coach = CoachFlows(bot, service, self.announcer, self.play)
        self.info = InfoFlows(bot, service, self.announcer)
        self.players = PlayerFlows(bot, service, self.announcer)
        self.ladder = LadderFlows(bot, service, self.announcer)
        self.admin = AdminFlows(bot, service, self.announcer, self.publisher)
        self.privacy = PrivacyFlows(bot, service, self.announcer, self.publisher, self.play)
        super().__init__()
        service.on_turn = self.publisher.clock_moved
        service.on_reminder = self.publisher.reminder
        service.on_analysis = self.coach.analysed
        self.publisher.on_final = self.coach.after_final

    async def cog_unload(self) -> None:
        await self.announcer.close()

    # ------------------------------------------------------------ where
    async def here(self, interaction: discord.Interaction) -> int:
        """The open game of this channel."""
        return await self.lobby_flows.game_here(interaction)

    async def shown(self, interaction: discord.Interaction) -> int:
        """The game this channel shows: the open one, else the last finished one."""
        return await self.lobby_flows.game_shown(interaction)

    # ------------------------------------------------------------ lobby
    @app_commands.command(name="new", description="Open a lobby for a new game in this channel")
    @app_commands.describe(
        map="The map to play",
        turn_time="Time per turn",
        tickets="Germany: ticket edition",
        language="The table's language for everything public (default: the server's)",
        thread="Open the game in a new thread of this channel",
        rated="Rated: the result changes the players' ratings (default: the server's setting)",
        hints="May players ask /ttr hint for a suggested move? (default: yes in casual games)",
    )
    @app_commands.rename(tickets=app_commands.locale_str("tickets", context=EDITION))
    @app_commands.choices(
        turn_time=[Choice(name=k, value=k) for k in TURN_TIMES],
        tickets=[Choice(name="2012", value="2012"), Choice(name="2017", value="2017")],
        language=[Choice(name="English", value="en"), Choice(name="Deutsch", value="de")],
    )
    async def new(
        self,
        interaction: discord.Interaction,
        map: str,
        turn_time: str | None = None,
        tickets: str | None = None,
        language: str | None = None,
        thread: bool = False,
        rated: bool | None = None,
        hints: bool | None = None,
    ) -> None:
        await self.lobby_flows.new(
            interaction, map, turn_time, tickets, language, thread, rated, hints
        )

    new.autocomplete("map")(map_names)

    @app_commands.command(name="join", description="Join the game in this channel")
    async def join(self, interaction: discord.Interaction) -> None:
        await self.lobby_flows.join(interaction, await self.here(interaction))

    @app_commands.command(
        name="leave", description="Leave the game in this channel before it starts"
    )
    async def leave(self, interaction: discord.Interaction) -> None:
        await self.lobby_flows.leave(interaction, await self.here(interaction))

    @app_commands.command(name="add_ai", description="Add a computer player (host)")
    @app_commands.describe(level="How well the computer plays (default: normal)")
    @app_commands.choices(level=[Choice(name=k, value=k) for k in AI_LEVELS])
    async def add_ai(self, interaction: discord.Interaction, level: str = "normal") -> None:
        await self.lobby_flows.add_ai(interaction, await self.here(interaction), level)

    @app_commands.command(name="start", description="Start the game (host)")
    async def start(self, interaction: discord.Interaction) -> None:
        await self.lobby_flows.start(interaction, await self.here(interaction))

    # ------------------------------------------------------------ play
    @app_commands.command(
        name="hand", description="Show your hand, tickets and pending choice (only you see it)"
    )
    async def hand(self, interaction: discord.Interaction) -> None:
        await self.play.hand(interaction, await self.here(interaction))

    @app_commands.command(name="draw", description="Draw one card")
    @app_commands.describe(source="Deck or face-up slot 1-5")
    @app_commands.choices(source=[Choice(name=v, value=v) for v in DRAW_SOURCES])
    async def draw(self, interaction: discord.Interaction, source: str) -> None:
        await self.play.draw_now(interaction, await self.here(interaction), source)

    @app_commands.command(name="claim", description="Claim a route")
    @app_commands.describe(
        route="The route to claim", color="Colour to pay with", locomotives="Locomotives to use"
    )
    async def claim(
        self,
        interaction: discord.Interaction,
        route: str | None = None,
        color: str | None = None,
        locomotives: app_commands.Range[int, 0, 9] | None = None,
    ) -> None:
        await self.play.open_claim(
            interaction, await self.here(interaction), route, color, locomotives
        )

    @claim.autocomplete("route")
    async def _routes(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        return await choices.routes(self.service, self.here, interaction, current)

    @claim.autocomplete("color")
    async def _colors(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        return await choices.colors(self.service, self.here, interaction, current)

    @app_commands.command(name="station", description="Build a train station (Europe)")
    @app_commands.describe(city="The city to build in", color="Colour to pay with")
    async def station(
        self, interaction: discord.Interaction, city: str | None = None, color: str | None = None
    ) -> None:
        await self.play.open_station(interaction, await self.here(interaction), city, color)

    @station.autocomplete("city")
    async def _cities(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        return await choices.station_cities(self.service, self.here, interaction, current)

    station.autocomplete("color")(_colors)

    @app_commands.command(name="tickets", description="Draw destination tickets")
    @app_commands.describe(short="Short tickets (Germany)", long="Long tickets (Germany)")
    async def tickets(
        self,
        interaction: discord.Interaction,
        short: app_commands.Range[int, 0, 4] | None = None,
        long: app_commands.Range[int, 0, 4] | None = None,
    ) -> None:
        await self.play.open_tickets(interaction, await self.here(interaction), short, long)

    @app_commands.command(
        name="hint", description="A suggested move and why, from what you can see (only you see it)"
    )
    async def hint(self, interaction: discord.Interaction) -> None:
        await self.coach.hint(interaction, await self.here(interaction))

    # ------------------------------------------------------------ the table
    @app_commands.command(name="board", description="Show the board")
    @app_commands.describe(
        region='Zoom in: a city name, or "tickets" for the cities of your tickets (only you see it)'
    )
    async def board(self, interaction: discord.Interaction, region: str | None = None) -> None:
        await self.info.board(interaction, await self.shown(interaction), region)

    @board.autocomplete("region")
    async def _regions(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        return await choices.regions(self.service, self.shown, interaction, current)

    @app_commands.command(name="status", description="Show the game status")
    async def status(self, interaction: discord.Interaction) -> None:
        await self.info.status(interaction, await self.shown(interaction))

    @app_commands.command(
        name="help", description="How to play here: a turn, the commands and buttons"
    )
    async def help(self, interaction: discord.Interaction) -> None:
        await self.info.help(interaction, await self.lobby_flows.game_last_shown(interaction))

    # ------------------------------------------------------------ /ttr game: now and then
    game_group = app_commands.Group(
        name="game",
        description="Manage this game: log, rules, vacation, resign, cancel; finished games",
    )

    @game_group.command(name="log", description="Show the moves since your last turn")
    @app_commands.describe(count="Or: how many of the last turns")
    async def log_(
        self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 200] | None = None
    ) -> None:
        await self.info.log(interaction, await self.shown(interaction), count)

    @game_group.command(
        name="rules", description="Show the rules of a map (without one: the list of maps)"
    )
    @app_commands.describe(map="The map whose rules to show")
    async def rules(self, interaction: discord.Interaction, map: str | None = None) -> None:
        await self.info.rules(interaction, map, await self.lobby_flows.game_last_shown(interaction))

    rules.autocomplete("map")(map_names)

    @game_group.command(name="vacation", description="Take a vacation: your turns wait")
    @app_commands.describe(days="Number of days")
    async def vacation(
        self, interaction: discord.Interaction, days: app_commands.Range[int, 1, 7]
    ) -> None:
        await self.play.vacation(interaction, await self.here(interaction), days)

    @game_group.command(name="resign", description="Resign: a computer plays your seat")
    async def resign(self, interaction: discord.Interaction) -> None:
        await self.play.resign(interaction, await self.here(interaction))

    @game_group.command(name="cancel", description="Cancel the game (host or Manage Channels)")
    async def cancel(self, interaction: discord.Interaction) -> None:
        await self.admin.cancel(interaction, await self.here(interaction))

    @game_group.command(name="history", description="List this server's finished games")
    @app_commands.describe(page="Page number")
    async def history(
        self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 1000] = 1
    ) -> None:
        await self.info.history(interaction, page)

    @game_group.command(
        name="show",
        description="Show a finished game: final image, scores, rating changes, analysis",
    )
    @app_commands.describe(id="The game's number")
    async def show_game(
        self, interaction: discord.Interaction, id: app_commands.Range[int, 1, 2**53]
    ) -> None:
        await self.info.game(interaction, id)

    # ------------------------------------------------------------ /ttr player
    player_group = app_commands.Group(
        name="player",
        description="Show your ratings, games and settings, and what the bot stores about you",
    )

    @player_group.command(name="games", description="List your games")
    async def games(self, interaction: discord.Interaction) -> None:
        await self.players.mygames(interaction)

    @player_group.command(name="stats", description="Show a player's statistics and rating")
    @app_commands.describe(user="The player")
    async def stats(
        self, interaction: discord.Interaction, user: discord.User | None = None
    ) -> None:
        await self.ladder.stats(interaction, user or interaction.user)

    @player_group.command(name="leaderboard", description="Show this server's rating table")
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

    leaderboard.autocomplete("map")(map_names)

    @player_group.command(
        name="settings",
        description="Your settings: turn pings, a DM on your turn, high contrast, phone board",
    )
    @app_commands.describe(
        turn_pings="Mention me when it is my turn",
        dm_turns="Also send me a direct message on my turn",
        high_contrast="High-contrast colours in my private images",
        phone_board="My private board drawn 500 px wide, for a phone",
    )
    async def settings(
        self,
        interaction: discord.Interaction,
        turn_pings: bool | None = None,
        dm_turns: bool | None = None,
        high_contrast: bool | None = None,
        phone_board: bool | None = None,
    ) -> None:
        await self.players.settings(interaction, turn_pings, dm_turns, high_contrast, phone_board)

    @player_group.command(
        name="privacy", description="What the bot stores about you, why, how long"
    )
    async def privacy_show(self, interaction: discord.Interaction) -> None:
        await self.privacy.privacy(interaction, forget_me=False)

    @player_group.command(name="forget_me", description="Delete what the bot stores about you")
    async def forget_me(self, interaction: discord.Interaction) -> None:
        await self.privacy.privacy(interaction, forget_me=True)

    # ------------------------------------------------------------ /ttr admin: the server
    server_admin = app_commands.Group(
        name="admin", description="The server's settings and seasons (Manage Server changes them)"
    )

    @server_admin.command(
        name="config", description="Show the server's settings; Manage Server changes them"
    )
    @app_commands.describe(
        language="Table language of new games",
        turn_time="Turn time of new games",
        rated="New games are rated unless their host says otherwise",
        hints="Hints may be allowed (in casual games)",
        add_channel="Allow games in this channel (once one is named, only the named ones)",
        remove_channel="No more new games in this channel",
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
    ) -> None:
        await self.ladder.config(
            interaction, language, turn_time, rated, hints, add_channel, remove_channel
        )

    @server_admin.command(name="check", description="Check the bot's permissions in this channel")
    async def check(self, interaction: discord.Interaction) -> None:
        await self.admin.check(interaction)

    @server_admin.command(
        name="season", description="Start a new season: every rating starts afresh (Manage Server)"
    )
    async def season(self, interaction: discord.Interaction) -> None:
        await self.ladder.season(interaction)
