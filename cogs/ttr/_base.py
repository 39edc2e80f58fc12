"""What every /ttr command family shares: reading the game once, choosing the language, answering privately.

A family (lobby, play, info, admin) is a plain class over :class:`Base`;
the command table (:mod:`._commands`) and the click router delegate to it.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Sequence
from typing import Any

import discord

from bot.discord_app import send
from bot.discord_app.client import TtrBot
from bot.host.services import GameServicePort, TableView
from words import Words, lang_of, words_for

from ._announce import Announcer

log = logging.getLogger(__name__)


class CogError(Exception):
    """A refusal decided in the cog (before the service is asked), with an error code and facts."""

    def __init__(self, code: str, detail: dict[str, Any] | None = None) -> None:
        super().__init__(code)
        self.code = code
        self.detail = dict(detail or {})


def seat_names(table: TableView) -> tuple[str, ...]:
    """How each seat is shown in messages: a mention for people, the name for AI seats (made
    harmless by :func:`bot.discord_app.send.echo`: a seat taken over by the computer keeps its player's
    display name)."""
    return tuple(
        f"<@{s.user_id}>" if s.user_id and not s.is_ai else send.echo(s.display_name, 40)
        for s in sorted(table.seats, key=lambda r: r.seat)
    )


def display_names(table: TableView) -> tuple[str, ...]:
    """Each seat's plain name (for images)."""
    return tuple(s.display_name for s in sorted(table.seats, key=lambda r: r.seat))


def user_of(table: TableView, seat: int | None) -> int | None:
    """The Discord user of a human seat (None for AI-controlled seats)."""
    for s in table.seats:
        if s.seat == seat and s.user_id and not s.is_ai and not s.resigned and not s.ai_permanent:
            return s.user_id
    return None


def hints_taken(table: TableView) -> dict[int, int] | None:
    """Seat -> hints its player took, for a game that allows hints (None otherwise: the score
    table then shows no hint column)."""
    if not table.game.hints_allowed:
        return None
    return {s.seat: s.hints_used for s in table.seats}


def resigned_seats(table: TableView) -> frozenset[int]:
    """Seats whose players resigned."""
    return frozenset(s.seat for s in table.seats if s.resigned)


class Base:
    """Shared helpers of the families.

    Args:
        bot: the discord.py bot (for channels and users).
        service: the game service (see :class:`bot.host.services.GameServicePort`).
        announcer: posts public messages with fallbacks.
    """

    def __init__(self, bot: TtrBot, service: GameServicePort, announcer: Announcer) -> None:
        self.bot = bot
        self.service = service
        self.announcer = announcer

    # ------------------------------------------------------------ reading
    async def read(
        self,
        interaction: discord.Interaction,
        game_id: int,
        *,
        here: bool = True,
        plans: bool = False,
    ) -> TableView:
        """The game as the clicking user may see it (one read); remembered for the error funnel.

        ``here``: refuse (``wrong_channel``) a game that lives in another channel than the
        interaction. ``plans``: with the reader's ticket plans (the hand reply).
        """
        interaction.extras["game"] = game_id
        table = await self.service.table(game_id, interaction.user.id, plans=plans)
        interaction.extras["meta"] = table.rules.meta
        if here and interaction.channel_id not in (table.game.channel_id, table.game.thread_id):
            raise CogError("wrong_channel", {"channel": f"<#{table.channel_id}>"})
        return table

    async def game_here(self, interaction: discord.Interaction) -> int:
        """The id of the open game in this channel or thread (``no_game`` when there is none)."""
        game = await self.service.game_in_channel(interaction.channel_id or 0)
        if game is None:
            raise CogError("no_game")
        interaction.extras["game"] = game.id
        return game.id

    async def game_last_shown(self, interaction: discord.Interaction) -> int | None:
        """The game this channel shows: the open one, else the last one (a finished game stays
        until a new one starts); None when the channel never had one."""
        game = await self.service.game_in_channel(interaction.channel_id or 0)
        if game is None:
            game = await self.service.last_game_in_channel(interaction.channel_id or 0)
        return None if game is None else game.id

    async def game_shown(self, interaction: discord.Interaction) -> int:
        """As :meth:`game_last_shown`; ``no_game`` when the channel never had one."""
        game_id = await self.game_last_shown(interaction)
        if game_id is None:
            raise CogError("no_game")
        interaction.extras["game"] = game_id
        return game_id

    # ------------------------------------------------------------ words
    @staticmethod
    def words(interaction: discord.Interaction, table: TableView | None = None) -> Words:
        """The clicking user's language (private replies), with the table's map words."""
        return words_for(lang_of(interaction.locale), table.rules.meta if table else None)

    @staticmethod
    def table_words(table: TableView) -> Words:
        """The table's language (public messages of this game)."""
        return words_for(table.language, table.rules.meta)

    @staticmethod
    def map_name(table: TableView, w: Words) -> str:
        """The map's name in ``w``'s language."""
        names = table.rules.meta.get("name") or {}
        return str(names.get(w.lang) or names.get("en") or table.rules.map_id)

    # ------------------------------------------------------------ answering
    @staticmethod
    async def defer(interaction: discord.Interaction) -> None:
        """Acknowledge at once (within Discord's 3 s) with a private "thinking" state."""
        if not interaction.response.is_done():
            with send.counted():  # 404: answered too late (Discord's 3 s)
                await interaction.response.defer(ephemeral=True, thinking=True)

    @staticmethod
    async def reply(
        interaction: discord.Interaction,
        content: str,
        *,
        view: discord.ui.View | None = None,
        files: Sequence[discord.File] = (),
    ) -> None:
        """A private answer, whether or not the interaction was acknowledged (through the send
        funnel :mod:`bot.discord_app.send`: within Discord's limits, pinging no one)."""
        await send.reply(interaction, content, view=view, files=files)

    @staticmethod
    def on_panel(interaction: discord.Interaction) -> bool:
        """The click came from one of the reader's private messages (a panel that moves on in
        place), not from a public message or a command."""
        message = interaction.message
        return (
            interaction.type == discord.InteractionType.component
            and message is not None
            and message.flags.ephemeral
        )

    @classmethod
    async def acknowledge(cls, interaction: discord.Interaction) -> None:
        """Acknowledge at once: silently when the answer rewrites the clicked panel, else with a
        private "thinking" state (see :meth:`defer`)."""
        if interaction.response.is_done():
            return
        if cls.on_panel(interaction):
            await interaction.response.defer()
        else:
            await cls.defer(interaction)

    @classmethod
    async def answer(
        cls,
        interaction: discord.Interaction,
        content: str,
        view: discord.ui.View | None = None,
        *,
        files: Sequence[discord.File] | None = None,
    ) -> None:
        """The answer of a turn's click: the clicked panel rewritten in place (``files`` None
        keeps its attachments), or a new private message when the click came from a public
        message or a command."""
        if cls.on_panel(interaction):
            await send.rewrite(interaction, content, view, files=files)
        else:
            await send.reply(interaction, content, view=view, files=files or ())

    @staticmethod
    async def update(
        interaction: discord.Interaction, content: str, view: discord.ui.View | None
    ) -> None:
        """Replace the clicked private message (a select changed: nothing was played)."""
        await send.update(interaction, content, view)

    @staticmethod
    def png(data: bytes, name: str) -> discord.File:
        """A PNG attachment."""
        return discord.File(io.BytesIO(data), filename=name)

    # ------------------------------------------------------------ checks
    @staticmethod
    def need_seat(table: TableView) -> None:
        """Refuse (``not_in_game``) a reader without a seat."""
        if table.mine is None or table.seat is None:
            raise CogError("not_in_game")

    @staticmethod
    def need_turn(table: TableView) -> None:
        """Refuse a reader who may not act now, with the reason."""
        Base.need_seat(table)
        if table.game.status == "lobby":
            raise CogError("not_started")
        if table.game.status != "active":
            raise CogError("game_over")
        if table.menu is None:
            raise CogError("not_your_turn")
