"""Following a game without playing: the Follow button and ``/ttr game follow``/``unfollow``,
and the followers' private notes (a direct message at the game's end, and at each turn for
those who asked), each in the follower's language. A follower whose direct messages are closed
is skipped silently (one log line without the id)."""

from __future__ import annotations

import logging

import discord

from bot.discord_app import send
from bot.host.services import TableView
from words import lang_of, words_for

from . import _ids as ids
from ._base import Base, display_names

log = logging.getLogger(__name__)


class FollowFlows(Base):
    """Follow and unfollow a game; the notes to its followers (:meth:`after_turn`, awaited by
    the publisher after each turn message)."""

    @ids.Follow.game_handler
    async def follow(
        self, interaction: discord.Interaction, game_id: int, each_turn: bool = False
    ) -> None:
        """Follow the game: a direct message at its end, and at each turn when ``each_turn``
        (in the reader's language). Refuses ``follow_own_game`` for its players and
        ``game_over`` once it ended."""
        await self.defer(interaction)
        table = await self.read(interaction, game_id, here=False)
        await self.service.tables.follow(
            game_id, interaction.user.id, each_turn=each_turn, language=lang_of(interaction.locale)
        )
        interaction.extras["committed"] = True
        w = self.words(interaction, table)
        if each_turn:
            text = w.t(
                "You follow game {game} in <#{channel}>: you get a direct message at each turn "
                "and at its end. Stop with /ttr game unfollow.",
                game=game_id,
                channel=table.channel_id,
            )
        else:
            text = w.t(
                "You follow game {game} in <#{channel}>: you get a direct message when it ends "
                "(at each turn too: /ttr game follow each_turn:True). Stop with /ttr game unfollow.",
                game=game_id,
                channel=table.channel_id,
            )
        await self.reply(interaction, text)

    async def unfollow(self, interaction: discord.Interaction, game_id: int) -> None:
        """Stop following the game (``not_following`` when the reader does not follow it)."""
        await self.defer(interaction)
        table = await self.read(interaction, game_id, here=False)
        await self.service.tables.unfollow(game_id, interaction.user.id)
        interaction.extras["committed"] = True
        w = self.words(interaction, table)
        await self.reply(interaction, w.t("You no longer follow game {game}.", game=game_id))

    async def after_turn(self, table: TableView) -> None:
        """The followers' notes after a turn message: at the end to every follower, during
        play to those who follow each turn (nothing while the tickets are chosen at the start).
        Names only public facts: whose turn it is, who won."""
        public = table.public
        if public is None or public.phase == "setup":
            return
        final = public.phase == "finished" and public.result is not None
        followers = [
            f for f in await self.service.tables.followers(table.game.id) if final or f.each_turn
        ]
        names = [send.echo(n, 40) for n in display_names(table)]
        for follower in followers:
            w = words_for(follower.language, table.rules.meta)
            if final and public.result is not None:
                winners = public.result.winners
                text = w.n(
                    "Game {game} on **{map}** in <#{channel}> is over. Winner: {winners}.",
                    "Game {game} on **{map}** in <#{channel}> is over. Winners: {winners}.",
                    len(winners),
                    game=table.game.id,
                    map=self.map_name(table, w),
                    channel=table.channel_id,
                    winners=", ".join(names[s] for s in winners),
                )
            else:
                text = w.t(
                    "Game {game} on **{map}** in <#{channel}>: it is {player}'s turn.",
                    game=table.game.id,
                    map=self.map_name(table, w),
                    channel=table.channel_id,
                    player=names[public.active],
                )
            await self.announcer.direct(table.game.id, (follower.user_id,), text)
