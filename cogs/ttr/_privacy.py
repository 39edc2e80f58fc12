"""Privacy: /ttr player privacy (the notice) and forget_me (forgetting, with its buttons), and the
servers that add or remove the bot.

Everything said to the player is private and in their language. Forgetting
asks first (what will go, with a button) and refuses nothing silently: a
player who still plays is shown those games and may have the bot resign and
leave them there and then (each announced in its channel), then be forgotten.
The :class:`GuildEvents` listeners hand Discord's guild events to the service:
a server that removes the bot has its lobbies cancelled and games paused, one
that invites it back (or is there when the bot connects) has them resumed.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import discord
from discord.ext import commands

from bot.discord_app.client import TtrBot
from bot.host.services import GameServicePort, TableView
from bot.host.storage import ForgetReport, SeatRef, UserData
from words import Words, privacy_notice

from . import _ids as ids
from ._announce import Announcer
from ._base import Base, CogError, seat_names, user_of
from ._components import Btn, components
from ._play import PlayFlows
from ._publish import Publisher

log = logging.getLogger(__name__)


@dataclass
class LeftGames:
    """What the bot did for a player before forgetting them: games resigned, games that had
    not started left, and ones they hosted cancelled."""

    resigned: int = 0
    left: int = 0
    cancelled: int = 0


class PrivacyFlows(Base):
    """/ttr player privacy: the notice; /ttr player forget_me (or the notice's button): forgetting."""

    def __init__(
        self,
        bot: TtrBot,
        service: GameServicePort,
        announcer: Announcer,
        publisher: Publisher,
        play: PlayFlows,
    ) -> None:
        super().__init__(bot, service, announcer)
        self.publisher = publisher
        self.play = play

    async def privacy(self, interaction: discord.Interaction, *, forget_me: bool = False) -> None:
        """/ttr player privacy: what the bot stores about a player, why, for how long, how to have it
        deleted, with a **Forget me…** button; ``forget_me`` (/ttr player forget_me): straight
        to what forgetting would delete."""
        await self.defer(interaction)
        w = self.words(interaction)
        if forget_me:
            await self._ask(interaction, w)
            return
        days = self.bot.settings.guild_retention_days
        button = Btn(w.t("Forget me…"), ids.ForgetMe(0, interaction.user.id, "ask").custom_id)
        await self.reply(interaction, privacy_notice(w, days), view=components([button]))

    async def _ask(self, interaction: discord.Interaction, w: Words) -> None:
        """Say what forgetting deletes (or which games stop it), with the buttons to go on."""
        data = await self.service.privacy.user_data(interaction.user.id)
        text, view = _question(data, w)
        await self.reply(interaction, text, view=view)

    @ids.ForgetMe.handler
    async def forget_click(self, interaction: discord.Interaction, click: ids.ForgetMe) -> None:
        """A forgetting button: ask (what would go), keep (nothing happens), confirm, or
        resign-and-leave then confirm. Only the player it was made for may click it."""
        if click.user != interaction.user.id:
            raise CogError("not_your_button")
        w = self.words(interaction)
        if click.step == "keep":
            await self.update(interaction, w.t("Nothing was deleted."), None)
            return
        await self.defer(interaction)
        if click.step == "ask":
            await self._ask(interaction, w)
            return
        left = LeftGames()
        if click.step == "resign":
            left = await self._leave_games(interaction)
        report = await self.service.privacy.forget_user(interaction.user.id)
        interaction.extras["committed"] = True
        await self.reply(interaction, _done(report, left, w))

    async def _leave_games(self, interaction: discord.Interaction) -> LeftGames:
        """Resign from every running game the player still plays, leave (or, as host, cancel)
        every game that has not started; each is told in its channel."""
        user = interaction.user
        left = LeftGames()
        for ref in (await self.service.privacy.user_data(user.id)).open_games:
            interaction.extras["game"] = ref.game_id
            outcome = None
            if ref.status == "active":
                outcome = await self.service.play.resign(ref.game_id, user.id)
                kind, left.resigned = "resigned", left.resigned + 1
            elif ref.host:
                await self.service.lobby.cancel(ref.game_id, user.id)
                kind, left.cancelled = "cancelled", left.cancelled + 1
            else:
                await self.service.lobby.leave(ref.game_id, user.id)
                kind, left.left = "left", left.left + 1
            interaction.extras["committed"] = True
            table = await self.service.queries.table(ref.game_id, 0)
            await self.publisher.notice(table, _announcement(table, kind, user.mention))
            if outcome is not None:
                await self.play.publish(outcome)
        return left


def _announcement(table: TableView, kind: str, mention: str) -> str:
    """The public line of a player who ``resigned``, ``cancelled`` their game or ``left``, in
    the table's language (the same lines as /ttr game resign, /ttr game cancel and /ttr leave)."""
    tw = Base.table_words(table)
    if kind == "resigned":
        return tw.t("{player} resigned; the computer plays their seat to the end.", player=mention)
    if kind == "cancelled":
        return tw.t("The game was cancelled by {player}.", player=mention)
    players = ", ".join(seat_names(table)) or "–"
    return tw.t("{player} left. Players: {players}", player=mention, players=players)


def _game_line(ref: SeatRef, w: Words) -> str:
    """One game that stops the forgetting, and what the bot would do there."""
    where = {"game": ref.game_id, "channel": ref.channel}
    if ref.status == "active":
        return w.t("- Game {game} in <#{channel}> is running: you would resign.", **where)
    if ref.host:
        return w.t(
            "- Game {game} in <#{channel}> has not started and is yours: it would be cancelled.",
            **where,
        )
    return w.t("- Game {game} in <#{channel}> has not started: you would leave it.", **where)


def _question(data: UserData, w: Words) -> tuple[str, discord.ui.View | None]:
    """What forgetting says before anything is deleted, and its buttons."""
    if not data.anything:
        return w.t("The bot stores nothing about you."), None
    keep = Btn(w.t("Keep my data"), ids.ForgetMe(0, data.user_id, "keep").custom_id)
    if data.open_games:
        count = len(data.open_games)
        lines = [w.n("You still play in {count} game:", "You still play in {count} games:", count)]
        lines += [_game_line(ref, w) for ref in data.open_games]
        lines.append(
            w.t(
                "Leave or resign there yourself first, or let the bot do it now and then "
                "forget you. It cannot be undone."
            )
        )
        go = Btn(
            w.t("Resign, leave and forget me"),
            ids.ForgetMe(0, data.user_id, "resign").custom_id,
            discord.ButtonStyle.danger,
        )
        return "\n".join(lines), components([go, keep])
    lines = [w.t("This deletes what the bot stores about you:")]
    if data.settings:
        lines.append(w.t("- your settings;"))
    if data.games:
        lines.append(
            w.n(
                '- your id and name in {count} game: your seat there becomes "Former player" '
                "and a number, so the other players' results stay.",
                '- your id and name in {count} games: your seat there becomes "Former player" '
                "and a number, so the other players' results stay.",
                data.games,
            )
        )
    if data.ratings:
        lines.append(
            w.n(
                "- your {count} rating and its history (your places in rated games stay, "
                "without your name, so the other players' ratings stay);",
                "- your {count} ratings and their history (your places in rated games stay, "
                "without your name, so the other players' ratings stay);",
                data.ratings,
            )
        )
    if data.named:
        lines.append(w.t("- your name where you changed a server's settings or started a season;"))
    if data.following:
        lines.append(
            w.n(
                "- the {count} game you follow;",
                "- the {count} games you follow;",
                data.following,
            )
        )
    lines.append(w.t("It cannot be undone."))
    go = Btn(
        w.t("Forget me"),
        ids.ForgetMe(0, data.user_id, "confirm").custom_id,
        discord.ButtonStyle.danger,
    )
    return "\n".join(lines), components([go, keep])


def _done(report: ForgetReport, left: LeftGames, w: Words) -> str:
    """What was removed, after forgetting."""
    lines = []
    if left.resigned:
        lines.append(
            w.n(
                "You resigned from {count} game.", "You resigned from {count} games.", left.resigned
            )
        )
    if left.left:
        lines.append(
            w.n(
                "You left {count} game that had not started.",
                "You left {count} games that had not started.",
                left.left,
            )
        )
    if left.cancelled:
        lines.append(
            w.n(
                "{count} game of yours that had not started was cancelled.",
                "{count} games of yours that had not started were cancelled.",
                left.cancelled,
            )
        )
    if not report.anything:
        return "\n".join([*lines, w.t("The bot stores nothing about you any more.")])
    lines.append(w.t("Done: the bot has forgotten you."))
    if report.games:
        lines.append(
            w.n(
                'Your id and name were removed from {count} game (your seat is "Former player" '
                "and a number there).",
                'Your id and name were removed from {count} games (your seat is "Former player" '
                "and a number there).",
                report.games,
            )
        )
    if report.ratings:
        lines.append(
            w.n(
                "{count} rating of yours and its history were deleted.",
                "{count} ratings of yours and their history were deleted.",
                report.ratings,
            )
        )
    if report.settings:
        lines.append(w.t("Your settings were deleted."))
    if report.following:
        lines.append(
            w.n(
                "You no longer follow {count} game.",
                "You no longer follow {count} games.",
                report.following,
            )
        )
    return "\n".join(lines)


class GuildEvents(commands.Cog):
    """Discord's server events for the service: removed (cancel and pause at once), invited
    back or there when the bot connects (resume, told in each game's channel), and the servers
    that removed the bot while it was away (noticed when it is ready).

    Args:
        bot: the bot (its servers).
        service: the game service.
        publisher: posts the notice that a game goes on.
    """

    def __init__(self, bot: TtrBot, service: GameServicePort, publisher: Publisher) -> None:
        self.bot = bot
        self.service = service
        self.publisher = publisher

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The server removed the bot (kicked, or the server deleted): pause and cancel at once."""
        departure = await self.service.privacy.guild_removed(guild.id)
        log.info(
            "guild %s removed the bot: %s games paused, %s cancelled",
            guild.id,
            len(departure.paused),
            len(departure.cancelled),
        )

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        """The bot was invited (back): resume the server's paused games."""
        await self._back(guild.id)

    @commands.Cog.listener()
    async def on_guild_available(self, guild: discord.Guild) -> None:
        """A server is there when the bot connects: resume what was paused while it was away."""
        await self._back(guild.id)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Connected: servers with stored games that the bot is no longer in removed it meanwhile."""
        for departure in await self.service.privacy.guilds_present([g.id for g in self.bot.guilds]):
            log.info("guild %s removed the bot while it was away", departure.guild_id)

    async def _back(self, guild_id: int) -> None:
        for game in await self.service.privacy.guild_returned(guild_id):
            table = await self.service.queries.table(game.id, 0)
            tw = Base.table_words(table)
            waiting = () if table.public is None else table.public.waiting_for
            users = tuple(u for s in waiting if (u := user_of(table, s)) is not None)
            text = tw.t(
                "The bot is back in this server: game {game} goes on, its turn clock moved on "
                "by the pause.",
                game=game.id,
            )
            if users:
                text += " " + tw.n(
                    "{players}: it is your turn.",
                    "{players}: it is your turn.",
                    len(users),
                    players=", ".join(f"<@{u}>" for u in users),
                )
            await self.publisher.notice(table, text, ping=users)
