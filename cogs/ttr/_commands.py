"""The /ttr command table: one line per command, the work is in the families.

discord.py binds one slash-command group to one cog, so ``/ttr`` is declared
here once, with the commands players use in every game; its three subgroups are
classes of their own (:mod:`._game_group`, :mod:`._player_group`,
:mod:`._admin_group`) that the cog makes with the families they call. Each
command hands over to its family (:mod:`._lobby`, :mod:`._play`, :mod:`._table`,
:mod:`._record`, :mod:`._guide`, :mod:`._players`, :mod:`._ladder`,
:mod:`._admin`). Names and descriptions are English here and translated by
``bot.discord_app.translator`` from the catalogs.

Discord allows 25 entries (commands and groups) under ``/ttr`` and 25 in each group. What
players do in every game has its own command at the top: the lobby (``new``, ``join``,
``leave``, ``add_ai``, ``start``), the moves (``hand``, ``draw``, ``claim``, ``station``,
``tickets``, ``hint``), the table (``board``, ``status``) and ``help``. What is asked
now and then sits in groups: ``/ttr game`` (this channel's game beyond the moves: its log,
its map's rules, a vacation, resigning, cancelling, following; and the finished games),
``/ttr player`` (ratings, your games, your settings and your data), ``/ttr admin`` (the
server's settings and seasons, the permission check), ``/ttr tables`` (the server's open
tables, the looking-for-players role), ``/ttr tournament`` and ``/ttr seat`` (a seat handed
to another member, a move taken back). That leaves five entries free at the top
(``tests/cogs/test_command_tree.py`` fails when fewer than five are).
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_app.client import TtrBot
from bot.host.services import AI_LEVELS

from . import _choices as choices
from ._activity import ActivityFlows
from ._admin import AdminFlows
from ._admin_group import AdminGroup
from ._announce import Announcer
from ._coach import CoachFlows
from ._follow import FollowFlows
from ._game_group import GameGroup
from ._guide import GuideFlows
from ._ladder import LadderFlows
from ._lobby import TURN_TIMES, LobbyFlows
from ._menu_clicks import MenuClicks
from ._play import DRAW_SOURCES, PlayFlows
from ._player_group import PlayerGroup
from ._players import PlayerFlows
from ._privacy import PrivacyFlows
from ._publish import Publisher
from ._record import RecordFlows
from ._seat_group import SeatGroup
from ._seats import SeatFlows
from ._table import TableFlows
from ._tables import OpenTableFlows
from ._tables_group import TablesGroup
from ._takeback import TakeBackFlows
from ._tournament import TournamentFlows
from ._tournament_group import TournamentGroup

log = logging.getLogger(__name__)

Choice = app_commands.Choice
#: The catalog context of the ``tickets`` option of ``/ttr new`` (Germany's ticket edition), so
#: that German can name it apart from the ``/ttr tickets`` command (``ausgabe``, ``zielkarten``).
EDITION = "command edition"


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
        self.table = TableFlows(bot, service, self.announcer)
        self.record = RecordFlows(bot, service, self.announcer)
        self.guide = GuideFlows(bot, service, self.announcer)
        self.players = PlayerFlows(bot, service, self.announcer)
        self.ladder = LadderFlows(bot, service, self.announcer)
        self.admin = AdminFlows(bot, service, self.announcer, self.publisher)
        self.privacy = PrivacyFlows(bot, service, self.announcer, self.publisher, self.play)
        self.open_tables = OpenTableFlows(
            bot, service, self.announcer, self.publisher, self.lobby_flows
        )
        self.follow = FollowFlows(bot, service, self.announcer)
        self.tournaments = TournamentFlows(
            bot, service, self.announcer, self.publisher, self.coach.after_final
        )
        self.seats = SeatFlows(bot, service, self.announcer, self.publisher)
        self.takeback = TakeBackFlows(bot, service, self.announcer, self.publisher, self.play)
        self.activity = ActivityFlows(bot, service, self.announcer)
        super().__init__()
        ttr = self.app_command
        assert ttr is not None  # a GroupCog's group, made by Cog.__new__
        for group in (
            GameGroup(
                self.lobby_flows, self.record, self.guide, self.play, self.admin, self.follow
            ),
            PlayerGroup(self.players, self.ladder, self.privacy),
            AdminGroup(self.ladder, self.admin, self.open_tables),
            TablesGroup(self.open_tables),
            TournamentGroup(self.tournaments),
            SeatGroup(self.lobby_flows, self.seats, self.takeback),
        ):
            ttr.add_command(group)  # after the commands above: Discord lists them in this order
            self.__cog_app_commands__.append(group)  # walk_app_commands() sees it too
        service.on_turn = self.publisher.clock_moved
        service.on_reminder = self.publisher.reminder
        service.on_analysis = self.coach.analysed
        self.publisher.on_final = self.tournaments.after_final  # the coach's first
        self.publisher.on_posted = self.follow.after_turn
        self.lobby_flows.on_opened = self.open_tables.lobby_opened
        service.on_expired = self.open_tables.expired

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

    new.autocomplete("map")(choices.map_names)

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
        await self.table.board(interaction, await self.shown(interaction), region)

    @board.autocomplete("region")
    async def _regions(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        return await choices.regions(self.service, self.shown, interaction, current)

    @app_commands.command(name="status", description="Show the game status")
    async def status(self, interaction: discord.Interaction) -> None:
        await self.table.status(interaction, await self.shown(interaction))

    @app_commands.command(
        name="help", description="How to play here: a turn, the commands and buttons"
    )
    async def help(self, interaction: discord.Interaction) -> None:
        await self.guide.help(interaction, await self.lobby_flows.game_last_shown(interaction))
