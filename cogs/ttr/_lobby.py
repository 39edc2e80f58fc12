"""The lobby: open a game, join, leave, add computer players, start.

Public lobby lines use the table's language; the person who clicked gets a
private confirmation in theirs that names what happened.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord

from bot.discord_app import send
from bot.discord_app.client import TtrBot
from bot.host.services import GameServicePort, TableView
from maps import available_maps, load_ruleset, registry
from words import lang_of

from . import _ids as ids
from ._announce import Announcer, missing_permissions, permission_names, required_permissions
from ._base import Base, CogError, seat_names
from ._components import Btn, components
from ._publish import Publisher, delivery_note

log = logging.getLogger(__name__)

#: ``/ttr new turn_time:`` choices -> seconds.
TURN_TIMES = {"10m": 600, "1h": 3600, "24h": 86_400, "72h": 259_200}


def lobby_buttons(table: TableView) -> discord.ui.View:
    """Join, Start and Follow under the lobby message, in the table's language."""
    w = Base.table_words(table)
    g = table.game.id
    return components(
        [
            Btn(w.t("Join"), ids.Join(g).custom_id, discord.ButtonStyle.success),
            Btn(w.t("Start"), ids.Start(g).custom_id, discord.ButtonStyle.primary),
            Btn(w.t("Follow"), ids.Follow(g).custom_id, discord.ButtonStyle.secondary),
        ]
    )


class LobbyFlows(Base):
    """Lobby commands and the Join/Start buttons.

    ``on_opened`` is awaited with each new lobby once its message is posted (the open tables
    ping the looking-for-players role).
    """

    on_opened: Callable[[TableView], Awaitable[None]] | None = None

    def __init__(
        self, bot: TtrBot, service: GameServicePort, announcer: Announcer, publisher: Publisher
    ) -> None:
        super().__init__(bot, service, announcer)
        self.publisher = publisher

    def _players(self, table: TableView) -> str:
        return ", ".join(seat_names(table)) or "–"

    async def new(
        self,
        interaction: discord.Interaction,
        map_id: str,
        turn_time: str | None,
        tickets: str | None,
        language: str | None = None,
        thread: bool = False,
        rated: bool | None = None,
        hints: bool | None = None,
    ) -> None:
        """Open a lobby here, or in a new public thread (after checking the bot may post the board there).

        What the host leaves out comes from the server's settings (``/ttr admin config``):
        the table's language (else the server's preferred locale: German for ``de``, English
        otherwise), the turn time (else 24 h), rated or casual (else rated), and whether players
        may ask ``/ttr hint`` (:func:`~bot.host.services.hints_by_default`: in casual games where the
        server allows hints).
        """
        await self.defer(interaction)
        w = self.words(interaction)
        if map_id not in available_maps():
            raise CogError("unknown_map", {"maps": ", ".join(available_maps())})
        in_thread = isinstance(interaction.channel, discord.Thread)
        need = required_permissions(thread=in_thread, new_thread=thread and not in_thread)
        missing = missing_permissions(interaction.app_permissions, need)
        if missing:
            raise CogError(
                "missing_permissions",
                {"permissions": permission_names(missing, w), "missing": len(missing)},
            )
        seconds = TURN_TIMES.get(turn_time) if turn_time else None
        if turn_time and seconds is None:
            raise CogError("bad_turn_time", {"choices": ", ".join(TURN_TIMES)})
        channel_id = interaction.channel_id or 0
        thread_id = channel_id if in_thread else None
        parent = getattr(interaction.channel, "parent_id", None) if in_thread else channel_id
        settings = await self.service.lobby.open_here(interaction.guild_id or 0, channel_id, parent)
        lang = language or settings.language or lang_of(interaction.guild_locale)
        if thread and not in_thread:
            channel_id = thread_id = await self._open_thread(interaction, map_id, lang)
        game = await self.service.lobby.create(
            guild_id=interaction.guild_id or 0,
            channel_id=channel_id,
            thread_id=thread_id,
            host_id=interaction.user.id,
            host_name=interaction.user.display_name,
            map_id=map_id,
            options={"tickets": tickets} if tickets else {},
            turn_seconds=seconds,
            language=lang,
            rated=rated,
            parent_id=parent,
            hints=hints,
        )
        interaction.extras["committed"] = True
        table = await self.read(interaction, game.id, here=False)
        await self.post_lobby(table, interaction.user.mention)
        if self.on_opened is not None:
            await self.on_opened(table)
        text = w.t(
            "You opened game {game} on **{map}** in <#{channel}>. Start it with **Start** once everyone has joined.",
            game=game.id,
            map=self.map_name(table, w),
            channel=table.channel_id,
        )
        await self.reply(interaction, text)

    async def _open_thread(self, interaction: discord.Interaction, map_id: str, lang: str) -> int:
        """A new public thread of this channel for the game (named after the map and the host)."""
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            raise CogError("no_threads_here")
        names = load_ruleset(map_id).meta.get("name") or {}
        title = f"{names.get(lang) or names.get('en') or map_id}: {interaction.user.display_name}"
        with send.counted():
            created = await channel.create_thread(
                name=send.thread_name(title),
                type=discord.ChannelType.public_thread,
                auto_archive_duration=10080,
            )
        return created.id

    async def post_lobby(
        self, table: TableView, host_mention: str, *, ping: tuple[int, ...] = ()
    ) -> None:
        """The public lobby message with Join and Start, in the table's language."""
        tw = self.table_words(table)
        seconds = table.game.turn_seconds
        hours = seconds // 3600
        clock = (
            tw.n("{count} hour", "{count} hours", hours)
            if hours
            else tw.n("{count} minute", "{count} minutes", seconds // 60)
        )
        text = tw.t(
            "{host} opened a game of **{map}** (turn time {clock}). Join with the button or /ttr join. Players: {players}",
            host=host_mention,
            map=self.map_name(table, tw),
            clock=clock,
            players=self._players(table),
        )
        text += "\n" + (
            tw.t("Rated: the result changes every player's rating.")
            if table.game.rated
            else tw.t("Casual: no rating changes.")
        )
        text += " " + (
            tw.t("Hints: allowed (/ttr hint).")
            if table.game.hints_allowed
            else tw.t("Hints: off in this game.")
        )
        if ping:
            text = " ".join(f"<@{u}>" for u in ping) + " " + tw.t("Rematch!") + "\n" + text
        await self.publisher.notice(table, text, view=lobby_buttons(table), ping=ping)

    @ids.Rematch.game_handler
    async def rematch(self, interaction: discord.Interaction, game_id: int) -> None:
        """After the end: a new lobby with the same map, options and computer players; the others are pinged."""
        await self.defer(interaction)
        old = await self.read(interaction, game_id)
        game = await self.service.lobby.rematch(
            game_id, interaction.user.id, interaction.user.display_name
        )
        interaction.extras["committed"] = True
        table = await self.read(interaction, game.id)
        others = tuple(
            s.user_id
            for s in old.seats
            if s.user_id and not s.is_ai and s.user_id != interaction.user.id
        )
        await self.post_lobby(table, interaction.user.mention, ping=others)
        w = self.words(interaction, table)
        await self.reply(
            interaction,
            w.t("You opened game {game}, a rematch. The others were asked to join.", game=game.id),
        )

    @ids.Join.game_handler
    async def join(
        self, interaction: discord.Interaction, game_id: int, *, here: bool = True
    ) -> None:
        """Take a seat in the lobby (``here`` False: from another channel, the list of open
        tables); the lobby's channel is told as when someone joins there."""
        await self.defer(interaction)
        table = await self.read(interaction, game_id, here=here)
        await self.service.lobby.join(game_id, interaction.user.id, interaction.user.display_name)
        interaction.extras["committed"] = True
        fresh = await self.read(interaction, game_id, here=here)
        tw = self.table_words(fresh)
        await self.publisher.notice(
            fresh,
            tw.t(
                "{player} joined. Players: {players}",
                player=interaction.user.mention,
                players=self._players(fresh),
            ),
        )
        w = self.words(interaction, table)
        if interaction.channel_id in (table.game.channel_id, table.game.thread_id):
            await self.reply(interaction, w.t("You joined game {game}.", game=game_id))
        else:
            await self.reply(
                interaction,
                w.t(
                    "You joined game {game} in <#{channel}>.",
                    game=game_id,
                    channel=table.channel_id,
                ),
            )

    async def leave(self, interaction: discord.Interaction, game_id: int) -> None:
        """Give up a lobby seat."""
        await self.defer(interaction)
        await self.read(interaction, game_id)
        await self.service.lobby.leave(game_id, interaction.user.id)
        interaction.extras["committed"] = True
        fresh = await self.read(interaction, game_id)
        tw = self.table_words(fresh)
        await self.publisher.notice(
            fresh,
            tw.t(
                "{player} left. Players: {players}",
                player=interaction.user.mention,
                players=self._players(fresh),
            ),
        )
        await self.reply(
            interaction, self.words(interaction, fresh).t("You left game {game}.", game=game_id)
        )

    async def add_ai(
        self, interaction: discord.Interaction, game_id: int, level: str = "normal"
    ) -> None:
        """The host adds a computer player of ``level`` (easy, normal or hard)."""
        await self.defer(interaction)
        await self.read(interaction, game_id)
        seat = await self.service.lobby.add_ai(game_id, interaction.user.id, level=level)
        interaction.extras["committed"] = True
        fresh = await self.read(interaction, game_id)
        tw = self.table_words(fresh)
        await self.publisher.notice(
            fresh,
            tw.t(
                "{player} (computer) joined. Players: {players}",
                player=seat.display_name,
                players=self._players(fresh),
            ),
        )
        await self.reply(
            interaction,
            self.words(interaction, fresh).t(
                "{player} (computer) joined.", player=seat.display_name
            ),
        )

    @ids.Start.game_handler
    async def start(self, interaction: discord.Interaction, game_id: int) -> None:
        """The host starts: cards and tickets are dealt; everyone chooses tickets privately."""
        await self.defer(interaction)
        table = await self.read(interaction, game_id)
        outcome = await self.service.lobby.start(game_id, interaction.user.id)
        interaction.extras["committed"] = True
        tw = self.table_words(table)
        await self.publisher.notice(
            table, tw.t("The game on **{map}** has started!", map=self.map_name(table, tw))
        )
        delivery = await self.publisher.turn(game_id, outcome.from_turn)
        w = self.words(interaction, table)
        text = w.t("The game has started. Choose your {tickets} with **My hand** or /ttr hand.")
        note = delivery_note(delivery, w)
        await self.reply(interaction, text + ("\n" + note if note else ""))

    @staticmethod
    def map_choices(current: str, locale: object) -> list[tuple[str, str]]:
        """``(name, id)`` of the loaded maps matching ``current`` (autocomplete), built-in and ``TTR_MAPS_DIR`` ones."""
        lang = lang_of(locale)
        return [(entry.name(lang), entry.id) for entry in registry().search(current)]
