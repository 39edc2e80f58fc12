"""The table's public messages: the turn message (board, what happened, who is next), the game's end.

Everything public uses the table's language. A turn message pings only the
players who must act next (everyone during the ticket choice at the start);
the last round and the end ping every player. Posting goes through the
:class:`~._announce.Announcer`, so a refused post falls back and is reported.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord

from bot.host.services import Outcome, Reminder, TableView
from bot.host.services import events as ev_
from sentences import achievements as achievement_words
from sentences import stories
from sentences import texts as fmt
from sentences.coach import analysis_words
from words import Words

from . import _ids as ids
from . import _images as images
from . import _prompts as prompts
from ._announce import Delivery, Post, permission_names
from ._base import (
    Base,
    CogError,
    display_names,
    hints_taken,
    resigned_seats,
    seat_names,
    user_of,
)
from ._components import Btn, components
from ._links import with_live_board

log = logging.getLogger(__name__)


def turn_buttons(table: TableView) -> discord.ui.View:
    """The persistent buttons under a turn message, labelled in the table's language: My hand,
    Draw, Claim, {tickets:cap}, Board; in play also the five face-up cards and the deck, so a
    draw takes two clicks (the first card here, the second on the private panel it opens);
    last Phone board (the board drawn 500 px wide, privately: the turn image shrunk to a phone's
    width is unreadable) and Follow (a direct message at the game's end, for those who watch).
    The card buttons carry the version they were posted at: a click after the game moved on
    takes nothing and shows the current panel."""
    w = Base.table_words(table)
    g = table.game.id
    primary, success, secondary = (
        discord.ButtonStyle.primary,
        discord.ButtonStyle.success,
        discord.ButtonStyle.secondary,
    )
    rows: list[list[Btn]] = [
        [
            Btn(w.t("My hand"), ids.Hand(g).custom_id, primary),
            Btn(w.t("Draw"), ids.Draw(g).custom_id, secondary),
            Btn(w.t("Claim"), ids.Claim(g).custom_id, success),
            Btn(w.t("{tickets:cap}"), ids.Tickets(g).custom_id, secondary),
            Btn(w.t("Board"), ids.Board(g).custom_id, secondary),
        ]
    ]
    public = table.public
    if public is not None and public.phase == "play" and table.game.status == "active":
        rows.append(prompts.card_buttons(table, w, table.version, None))
        if public.deck_size or public.discard_size:
            rows.append([prompts.deck_button(table, w, table.version)])
    last = [
        Btn(w.t("Phone board"), ids.Phone(g).custom_id, secondary),
        Btn(w.t("Follow"), ids.Follow(g).custom_id, secondary),
    ]
    if table.rules.params.stations is not None:  # Europe: a fifth kind of turn
        last.insert(0, Btn(w.t("{station:cap}"), ids.Station(g).custom_id, secondary))
    for button in last:
        if len(rows) > 1 and len(rows[-1]) < 5:
            rows[-1].append(button)
        else:
            rows.append([button])
    return components(*rows)


def delivery_note(delivery: Delivery | None, w: Words) -> str:
    """What the player must know when the table could not (fully) be updated after their move."""
    if delivery is None or delivery.problem is None:
        return ""
    missing = len(delivery.missing)
    names = permission_names(delivery.missing, w)
    if delivery.problem == "missing_permission" and delivery.posted:
        return w.n(
            "The board could not be attached: the bot lacks the permission {permissions} in this channel. "
            "The turn was posted as text and the server owner was told.",
            "The board could not be attached: the bot lacks the permissions {permissions} in this channel. "
            "The turn was posted as text and the server owner was told.",
            missing,
            permissions=names,
        )
    if delivery.problem == "missing_permission" and delivery.unreached:
        return w.n(
            "The table could not be updated: the bot lacks the permission {permissions} in this channel, "
            "and the next player could not be reached by direct message. The server owner was told.",
            "The table could not be updated: the bot lacks the permissions {permissions} in this channel, "
            "and the next player could not be reached by direct message. The server owner was told.",
            missing,
            permissions=names,
        )
    if delivery.problem == "missing_permission":
        return w.n(
            "The table could not be updated: the bot lacks the permission {permissions} in this channel. "
            "The next player was told by direct message and the server owner was told.",
            "The table could not be updated: the bot lacks the permissions {permissions} in this channel. "
            "The next player was told by direct message and the server owner was told.",
            missing,
            permissions=names,
        )
    if delivery.problem == "channel_gone" and delivery.unreached:
        return w.t(
            "The game's channel is gone, and the next player could not be reached by direct message."
        )
    if delivery.problem == "channel_gone":
        return w.t("The game's channel is gone: the next player was told by direct message.")
    return w.t("Discord did not take the turn message; it is being sent again shortly.")


class Publisher(Base):
    """Builds and posts the public messages of a game.

    ``on_final`` is awaited with the game's id once its game-over message is posted and
    remembered (the coach then posts the analysis if it is ready); ``on_posted`` with the
    table after each turn message or game-over message (the followers' notes).
    """

    on_final: Callable[[int], Awaitable[None]] | None = None
    on_posted: Callable[[TableView], Awaitable[None]] | None = None

    async def clock_moved(self, game_id: int, outcome: Outcome) -> None:
        """The service played on its own (a timeout, resumed AI seats): post the turn message."""
        if outcome.turn_ended:
            await self.turn(game_id, outcome.from_turn)

    async def turn(self, game_id: int, from_turn: int) -> Delivery | None:
        """Post the message of the turns from ``from_turn`` on (they just ended), or of the game's end.

        Every turn is told whole (both card draws, a tunnel's reveal and its end ...),
        from the game's history, not only the last click's events. Pings: the
        players who must act next (unless they turned turn pings off; those who
        asked for it also get a direct message); the last round and the end ping
        every player. None: nothing to post.
        """
        table = await self.service.queries.table(game_id, 0)
        public = table.public
        if public is None:
            return None
        records = await self.service.queries.turn_log(game_id)
        events = [e for r in records if r.number >= from_turn for e in r.events]
        w = self.table_words(table)
        names = seat_names(table)
        lines = stories.turn_lines(events, table.rules, names, w)
        if public.phase == "finished" and public.result is not None:
            return await self._final(table, lines)
        humans = tuple(u for s in range(public.num_seats) if (u := user_of(table, s)) is not None)
        waiting = tuple(public.waiting_for)
        to_act = tuple(u for s in waiting if (u := user_of(table, s)) is not None)
        settings = {u: await self.service.queries.user_settings(u) for u in to_act}
        if public.phase == "setup":
            tail = w.n(
                "{players}: choose your {tickets} with **My hand**.",
                "{players}: choose your {tickets} with **My hand**.",
                len(waiting),
                players=", ".join(stories.player_name(names, s) for s in waiting),
            )
        else:
            tail = w.t(
                "{player}, it is your turn.", player=stories.player_name(names, public.active)
            )
        last_round = any(isinstance(e, ev_.LastRound) for e in events)
        pings = humans if last_round else tuple(u for u in to_act if settings[u].turn_pings)
        dm = w.t(
            "It is your turn in the game of Ticket to Ride in <#{channel}>, but the bot cannot post there. "
            "Use /ttr hand in that channel to play.",
            channel=table.channel_id,
        )
        post = Post(
            game_id,
            table.game.guild_id,
            table.channel_id,
            fmt.fit(lines, [tail], w),
            w,
            image=lambda: images.board_png(
                table.rules.map_id,
                public,
                display_names(table),
                w.lang,
                highlight=[e.route for e in events if isinstance(e, ev_.RouteClaimed)],
            ),
            view=with_live_board(turn_buttons(table), self.bot.settings, game_id, w),
            ping=pings,
            reach=to_act,
            dm_text=dm,
        )
        delivery = await self.announcer.post(post)
        wants_dm = tuple(u for u in to_act if settings[u].dm_turns and u not in delivery.dm_sent)
        if wants_dm:
            await self.announcer.direct(
                game_id,
                wants_dm,
                w.t(
                    "It is your turn in the game of Ticket to Ride in <#{channel}>.",
                    channel=table.channel_id,
                ),
            )
        await self._posted(table)
        return delivery

    async def _posted(self, table: TableView) -> None:
        """Await ``on_posted`` (a failure is logged: the turn stands and was posted)."""
        if self.on_posted is None:
            return
        try:
            await self.on_posted(table)
        except Exception:  # noqa: BLE001 - the followers' notes must not fail a move
            log.exception("game %s: the followers' notes failed", table.game.id)

    async def _final(self, table: TableView, lines: list[str]) -> Delivery:
        """The game's end: the last turns, the score table, each player's rating change (a rated
        game), the achievements first earned in it, the final image, Rematch, Moves and Phone board (the final image for a phone);
        every player pinged (those who resigned too)."""
        public = table.public
        assert public is not None and public.result is not None
        w = self.table_words(table)
        scores = fmt.score_table(
            public.result,
            seat_names(table),
            w,
            resigned_seats(table),
            hints_taken(table),
            table.rules,
        )
        ratings = stories.rating_changes(await self.service.ladder.game_ratings(table.game.id), w)
        earned = achievement_words.game_over_lines(
            await self.service.achievements.for_game_over(table.game.id),
            {s.user_id: f"<@{s.user_id}>" for s in table.seats if s.user_id},
            w,
        )
        analysis = await self.service.analyses.analysis(table.game.id, queue=False)
        if analysis.status in ("queued", "running"):  # the analysis follows as a reply
            scores += "\n" + "\n".join(analysis_words(analysis, table.rules, w, ()))
        players = tuple(s.user_id for s in table.seats if s.user_id and not s.is_ai)
        g = table.game.id
        view = components(
            [
                Btn(w.t("Rematch"), ids.Rematch(g).custom_id, discord.ButtonStyle.success),
                Btn(w.t("Moves"), ids.Log(g).custom_id),
                Btn(w.t("Phone board"), ids.Phone(g).custom_id),
            ]
        )
        view = with_live_board(view, self.bot.settings, g, w)  # the replay and the final scoring
        post = Post(
            g,
            table.game.guild_id,
            table.channel_id,
            fmt.fit(lines, [scores, *([ratings] if ratings else []), *earned], w),
            w,
            image=lambda: images.final_png(
                table.rules.map_id, public, display_names(table), w.lang
            ),
            filename="final.png",
            extra=(("recap.gif", lambda: self._recap(table, w)),),
            view=view,
            ping=players,
        )
        delivery = await self.announcer.post(post)
        await self._posted(table)  # the followers hear the end before the analysis is awaited
        if delivery.message is not None:
            await self.service.analyses.remember_final_message(g, delivery.message.id)
            if self.on_final is not None:
                await self.on_final(g)
        return delivery

    @ids.Phone.game_handler
    async def phone(self, interaction: discord.Interaction, game_id: int) -> None:
        """Phone board: the board 500 px wide with its place names 11 px and more, and the seats
        under it (at the end: the final board with the score table written out for that width),
        privately, in the reader's language. Refuses ``not_started`` before the game begins."""
        await self.defer(interaction)
        table = await self.read(interaction, game_id)
        if table.public is None:
            raise CogError("not_started")
        w = self.words(interaction, table)
        png = await images.phone_png(table.rules.map_id, table.public, display_names(table), w.lang)
        text = w.t(
            "Game {game} on **{map}**, drawn for a phone.",
            game=table.game.id,
            map=self.map_name(table, w),
        )
        await self.reply(interaction, text, files=[self.png(png, "phone.png")])

    async def _recap(self, table: TableView, w: Words) -> bytes:
        """The game's recap GIF (from the public turn log)."""
        records = await self.service.queries.turn_log(table.game.id)
        return await images.recap_gif(table.rules.map_id, records, display_names(table), w.lang)

    async def notice(
        self,
        table: TableView,
        text: str,
        *,
        view: discord.ui.View | None = None,
        ping: tuple[int, ...] = (),
    ) -> Delivery:
        """A plain public line about the game (lobby changes, resignations)."""
        post = Post(
            table.game.id,
            table.game.guild_id,
            table.channel_id,
            fmt.clip(text),
            self.table_words(table),
            view=view,
            ping=ping,
        )
        return await self.announcer.post(post)

    async def reminder(self, reminder: Reminder) -> None:
        """Half of a turn's time is gone: mention the waiting players (nothing private)."""
        users = tuple(s.user_id for s in reminder.seats if s.user_id)
        if not users:
            return
        table = await self.service.queries.table(reminder.game.id, 0)
        w = self.table_words(table)
        text = w.n(
            "{players}: half of your turn time is gone (game {game}). Open **My hand** or /ttr hand to move.",
            "{players}: half of your turn time is gone (game {game}). Open **My hand** or /ttr hand to move.",
            len(users),
            players=", ".join(f"<@{u}>" for u in users),
            game=table.game.id,
        )
        await self.notice(table, text, ping=users)
