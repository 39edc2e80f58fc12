"""Open tables: the server's list of lobbies waiting for players with a Join button each, the
looking-for-players role (members opt in and out; pinged when a lobby opens, at most once per
the server's interval), the note to a host whose lobby expired, and the settings of all three
in ``/ttr admin config``.

The list and the opt-in answer privately in the reader's language; the ping and the expiry
note are public, in the table's language, and mention only the role or the host.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord

from bot.discord_app import send
from bot.discord_app.client import TtrBot
from bot.host.services import GameServicePort, OpenTable, TableView
from bot.host.storage import GameRow, TableSettings
from words import Words

from . import _ids as ids
from ._announce import Announcer, Post
from ._base import Base, CogError
from ._components import Btn, components
from ._ladder import manages_server, map_name
from ._lobby import LobbyFlows
from ._publish import Publisher

log = logging.getLogger(__name__)

#: Open tables per page of ``/ttr tables list`` (one Join button each: one row of buttons).
PER_PAGE = 5

#: A table language -> its name, in the reader's language.
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch"}


def duration(seconds: float, w: Words) -> str:
    """``3 days``, ``5 hours`` or ``10 minutes`` (the largest whole unit, at least one minute)."""
    whole = int(seconds)
    if whole >= 2 * 86_400:
        return w.n("{count} day", "{count} days", whole // 86_400)
    if whole >= 3600:
        return w.n("{count} hour", "{count} hours", whole // 3600)
    return w.n("{count} minute", "{count} minutes", max(1, whole // 60))


def table_line(number: int, open_table: OpenTable, w: Words) -> str:
    """One line of the list: the map, free seats, turn time, language, rated or casual, host,
    age and channel."""
    game = open_table.game
    kind = w.t("rated") if game.rated else w.t("casual")
    return w.n(
        "**{number}.** Game {game}: **{map}**, {count} free seat, turn time {clock}, {language}, "
        "{kind}, host <@{host}>, open for {age}, in <#{channel}>",
        "**{number}.** Game {game}: **{map}**, {count} free seats, turn time {clock}, {language}, "
        "{kind}, host <@{host}>, open for {age}, in <#{channel}>",
        open_table.free,
        number=number,
        game=game.id,
        map=map_name(game.map_id, w),
        clock=duration(game.turn_seconds, w),
        language=LANGUAGE_NAMES.get(game.language, game.language),
        kind=kind,
        host=game.host_user_id,
        age=duration(open_table.age_s, w),
        channel=game.thread_id or game.channel_id,
    )


def settings_lines(settings: TableSettings, w: Words) -> list[str]:
    """The open-table settings as lines of ``/ttr admin config``."""
    role = f"<@&{settings.role_id}>" if settings.role_id else w.t("none")
    return [
        w.t(
            "• Role pinged when a table opens: {role} (at most once per {interval})",
            role=role,
            interval=duration(settings.ping_seconds, w),
        ),
        w.t(
            "• A table nobody joins expires after {expiry}",
            expiry=duration(settings.expiry_seconds, w),
        ),
    ]


class OpenTableFlows(Base):
    """The list of open tables, joining from it, the looking-for-players role and its ping,
    the expiry note and the open-table settings."""

    def __init__(
        self,
        bot: TtrBot,
        service: GameServicePort,
        announcer: Announcer,
        publisher: Publisher,
        lobby: LobbyFlows,
    ) -> None:
        super().__init__(bot, service, announcer)
        self.publisher = publisher
        self.lobby = lobby

    async def list_tables(self, interaction: discord.Interaction, page: int) -> None:
        """``/ttr tables list``: the server's lobbies with a free seat, oldest first, five per
        page, each with its Join button (privately, in the reader's language)."""
        await self.defer(interaction)
        w = self.words(interaction)
        tables = await self.service.tables.open_tables(interaction.guild_id or 0)
        if not tables:
            await self.reply(
                interaction,
                w.t("No table is waiting for players. Open one with /ttr new."),
            )
            return
        pages = (len(tables) + PER_PAGE - 1) // PER_PAGE
        page = min(max(1, page), pages)
        shown = tables[(page - 1) * PER_PAGE : page * PER_PAGE]
        lines = [w.t("**Open tables** (page {page} of {pages})", page=page, pages=pages)]
        first = (page - 1) * PER_PAGE + 1
        lines += [table_line(first + i, t, w) for i, t in enumerate(shown)]
        if page < pages:
            lines.append(w.t("More: /ttr tables list page:{page}", page=page + 1))
        buttons = [
            Btn(
                w.t("Join {number}", number=first + i),
                ids.TakeSeat(t.game.id).custom_id,
                discord.ButtonStyle.success,
            )
            for i, t in enumerate(shown)
        ]
        await self.reply(interaction, "\n".join(lines), view=components(buttons))

    @ids.TakeSeat.game_handler
    async def take_seat(self, interaction: discord.Interaction, game_id: int) -> None:
        """Join from the list or the ping: seated as with Join in the lobby's channel, which
        is told."""
        await self.lobby.join(interaction, game_id, here=False)

    async def notify(self, interaction: discord.Interaction, on: bool) -> None:
        """``/ttr tables notify``: give the reader the server's looking-for-players role, or take
        it away. Refuses ``no_table_role`` when the server names none and
        ``role_not_manageable`` when the bot may not manage it (no Manage Roles, or the role
        stands above the bot's)."""
        await self.defer(interaction)
        w = self.words(interaction)
        settings = await self.service.tables.settings(interaction.guild_id or 0)
        if settings.role_id is None:
            raise CogError("no_table_role")
        role = f"<@&{settings.role_id}>"
        member = interaction.user
        if not interaction.app_permissions.manage_roles or not isinstance(member, discord.Member):
            raise CogError("role_not_manageable", {"role": role})
        try:
            with send.counted():
                if on:
                    await member.add_roles(discord.Object(settings.role_id))
                else:
                    await member.remove_roles(discord.Object(settings.role_id))
        except discord.Forbidden:
            raise CogError("role_not_manageable", {"role": role}) from None
        interaction.extras["committed"] = True
        text = (
            w.t("You have the role {role} now: you are pinged when a table opens.", role=role)
            if on
            else w.t("You no longer have the role {role}: no more pings for tables.", role=role)
        )
        await self.reply(interaction, text)

    async def lobby_opened(self, table: TableView) -> None:
        """A lobby just opened: ping the looking-for-players role in its channel, unless the
        server names none or pinged it less than its interval ago (the one message pings only
        that role), with a Join button."""
        role = await self.service.tables.ping_role(table.game.guild_id)
        if role is None:
            return
        tw = self.table_words(table)
        most = table.rules.params.max_players
        free = most - len(table.seats)
        text = tw.n(
            "<@&{role}> A table of **{map}** is open in <#{channel}>: {count} free seat, turn "
            "time {clock}. Join with the button or /ttr tables list.",
            "<@&{role}> A table of **{map}** is open in <#{channel}>: {count} free seats, turn "
            "time {clock}. Join with the button or /ttr tables list.",
            free,
            role=role,
            map=self.map_name(table, tw),
            channel=table.channel_id,
            clock=duration(table.game.turn_seconds, tw),
        )
        view = components(
            [
                Btn(
                    tw.t("Join"),
                    ids.TakeSeat(table.game.id).custom_id,
                    discord.ButtonStyle.success,
                )
            ]
        )
        post = Post(
            table.game.id,
            table.game.guild_id,
            table.channel_id,
            text,
            tw,
            view=view,
            ping_roles=(role,),
        )
        await self.announcer.post(post)

    async def expired(self, game: GameRow) -> None:
        """A lobby nobody joined expired: tell its host in its channel (mentioning only them)."""
        table = await self.service.queries.table(game.id, 0)
        settings = await self.service.tables.settings(game.guild_id)
        tw = self.table_words(table)
        text = tw.t(
            "<@{host}>, nobody joined your table of **{map}** (game {game}) within {expiry}, so "
            "it was closed. Open a new one with /ttr new.",
            host=game.host_user_id,
            map=self.map_name(table, tw),
            game=game.id,
            expiry=duration(settings.expiry_seconds, tw),
        )
        await self.publisher.notice(table, text, ping=(game.host_user_id,))

    async def configure(
        self,
        interaction: discord.Interaction,
        role: discord.Role | None,
        role_off: bool | None,
        ping_minutes: int | None,
        expiry_hours: int | None,
    ) -> tuple[bool, Sequence[str]]:
        """The open-table part of ``/ttr admin config``: change what was given (Manage Server
        only; ``not_manager`` otherwise, nothing written), and the settings as lines. Returns
        whether something changed, and the lines."""
        await self.defer(interaction)
        w = self.words(interaction)
        guild = interaction.guild_id or 0
        if role is None and not role_off and ping_minutes is None and expiry_hours is None:
            return False, settings_lines(await self.service.tables.settings(guild), w)
        settings = await self.service.tables.configure(
            guild,
            interaction.user.id,
            manage_server=manages_server(interaction),
            role_id=None if role is None else role.id,
            clear_role=bool(role_off),
            ping_minutes=ping_minutes,
            expiry_hours=expiry_hours,
        )
        interaction.extras["committed"] = True
        return True, settings_lines(settings, w)
