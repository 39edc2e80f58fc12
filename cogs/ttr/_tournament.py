"""Tournaments in Discord: open one, sign up with a button, start it, each round's tables
opened in threads of the tournament's channel, the standings as text and image.

The service (:class:`bot.host.services.Tournaments`) decides and stores every step; this
family makes the threads, posts the public messages in the tournament's language and
answers privately in the reader's. When a table's game ends (the publisher's
``on_final``), its table is scored and, after a round's last game, the next round's
tables are opened here, or the final standings posted.
"""

from __future__ import annotations

import math
import re
from collections.abc import Awaitable, Callable, Sequence

import discord

from bot.discord_app import send
from bot.discord_app.client import TtrBot
from bot.host.services import GameServicePort, RoundStep, TournamentView
from bot.host.storage import TournamentRow, TournamentTable
from maps import load_ruleset
from words import Words, lang_of, words_for

from . import _ids as ids
from . import _images as images
from ._announce import Announcer, Post
from ._base import Base, CogError
from ._components import Btn, components
from ._ladder import manages_server
from ._publish import Publisher

#: Lines of the standings or the list per page.
PAGE_LINES = 20
#: The longest public message part (characters; Discord allows 2,000).
PART = 1_900


def player_name(view: TournamentView, user: int, w: Words) -> str:
    """A player's display name ("Former player" once forgotten)."""
    return view.names.get(user) or w.t("Former player")


def format_name(fmt: str, w: Words) -> str:
    """A format's name in ``w``'s language."""
    if fmt == "swiss":
        return w.t("Swiss with tables")
    if fmt == "round_robin":
        return w.t("round robin")
    return w.t("single elimination")


def standing_lines(view: TournamentView, w: Words) -> list[str]:
    """One line per player, best first."""
    lines = []
    for s in view.standings:
        name = player_name(view, s.player, w)
        mark = "" if s.active else " †"
        lines.append(
            w.n(
                "{place}. {name}{mark}: {points} point (Buchholz {buchholz}, margin {margin}), "
                "{count} game",
                "{place}. {name}{mark}: {points} points (Buchholz {buchholz}, margin {margin}), "
                "{count} games",
                s.games,
                place=s.place,
                name=send.echo(name),
                mark=mark,
                points=w.decimal(s.points, 1),
                buchholz=w.decimal(s.buchholz, 1),
                margin=w.decimal(s.margin, 1, sign=True),
            )
        )
    return lines


def pages(lines: Sequence[str], page: int) -> tuple[list[str], int, int]:
    """Page ``page`` (from 1, clamped) of ``lines``: its lines, the page and the page count."""
    count = max(1, math.ceil(len(lines) / PAGE_LINES))
    page = min(max(page, 1), count)
    return list(lines[(page - 1) * PAGE_LINES : page * PAGE_LINES]), page, count


def parts(lines: Sequence[str]) -> list[str]:
    """``lines`` as messages of at most :data:`PART` characters each."""
    out: list[str] = []
    current = ""
    for line in lines:
        line = send.clip(line, PART)
        if current and len(current) + 1 + len(line) > PART:
            out.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    return [*out, current] if current else out


class TournamentFlows(Base):
    """The ``/ttr tournament`` commands and the sign-up buttons.

    Args:
        publisher: posts each table's first turn.
        after_final: awaited first with a game's id when its game-over message is posted
            (the coach's); then the game's tournament table, if any, is scored.
    """

    def __init__(
        self,
        bot: TtrBot,
        service: GameServicePort,
        announcer: Announcer,
        publisher: Publisher,
        after_final: Callable[[int], Awaitable[None]] | None = None,
    ) -> None:
        super().__init__(bot, service, announcer)
        self.publisher = publisher
        self.then = after_final

    # ------------------------------------------------------------ finding
    async def find(self, interaction: discord.Interaction, tournament_id: int | None) -> int:
        """The tournament named, else this channel's newest open or running one, else its
        newest (``no_tournament_here``); one of another server is ``tournament_not_found``."""
        found = await self.service.tournaments.in_guild(interaction.guild_id or 0)
        if tournament_id is not None:
            if not any(t.id == tournament_id for t in found):
                raise CogError("tournament_not_found")
            return tournament_id
        channel = interaction.channel_id or 0
        parent = getattr(interaction.channel, "parent_id", None)
        here = [t for t in found if t.channel_id in (channel, parent)]
        live = [t for t in here if t.status in ("open", "running")]
        if not (live or here):
            raise CogError("no_tournament_here")
        return (live or here)[0].id

    # ------------------------------------------------------------ opening and sign-up
    async def open(
        self,
        interaction: discord.Interaction,
        name: str,
        maps: Sequence[str],
        format: str,
        table_size: int,
        rounds: int | None,
        turn_seconds: int,
        rated: bool,
        language: str | None,
    ) -> None:
        """Open a tournament in this text channel (Manage Server) and post its sign-up."""
        await self.defer(interaction)
        if not isinstance(interaction.channel, discord.TextChannel):
            raise CogError("no_threads_here")
        lang = language or lang_of(interaction.guild_locale)
        t = await self.service.tournaments.open(
            guild_id=interaction.guild_id or 0,
            channel_id=interaction.channel_id or 0,
            user_id=interaction.user.id,
            manage_server=manages_server(interaction),
            name=name,
            maps=maps,
            format=format,
            table_size=table_size,
            rated=rated,
            turn_seconds=turn_seconds,
            rounds=rounds or 0,
            language=lang,
        )
        interaction.extras["committed"] = True
        await self.post_signup(t)
        w = self.words(interaction)
        await self.reply(
            interaction,
            w.t(
                "You opened the tournament **{name}** (number {id}). Start it with "
                "/ttr tournament start once everyone has signed up.",
                name=send.echo(t.name),
                id=t.id,
            ),
        )

    async def post_signup(self, t: TournamentRow) -> None:
        """The public sign-up message with Join, Leave and Standings."""
        tw = words_for(t.language, None)
        maps = ", ".join(self._map_name(m, tw) for m in t.maps)
        text = tw.n(
            "**{name}**: a tournament, {format} at tables of {count} on {maps}. "
            "Sign up with the button or /ttr tournament join.",
            "**{name}**: a tournament, {format} at tables of {count} on {maps}. "
            "Sign up with the button or /ttr tournament join.",
            t.table_size,
            name=send.echo(t.name),
            format=format_name(t.format, tw),
            maps=maps,
        )
        view = components(
            [
                Btn(
                    tw.t("Join"),
                    ids.TournamentButton(t.id, "join").custom_id,
                    discord.ButtonStyle.success,
                ),  # fmt: skip
                Btn(tw.t("Leave"), ids.TournamentButton(t.id, "leave").custom_id),
                Btn(tw.t("Standings"), ids.TournamentButton(t.id, "standings").custom_id),
            ]
        )
        await self.announcer.post(Post(0, t.guild_id, t.channel_id, text, tw, view=view))

    @ids.TournamentButton.handler
    async def clicked(self, interaction: discord.Interaction, click: ids.TournamentButton) -> None:
        """A sign-up message's button: join, leave or the standings (privately)."""
        if click.step == "join":
            await self.join(interaction, click.tournament)
        elif click.step == "leave":
            await self.leave(interaction, click.tournament)
        else:
            await self.standings(interaction, click.tournament, 1)

    async def join(self, interaction: discord.Interaction, tournament_id: int | None) -> None:
        """Sign up."""
        await self.defer(interaction)
        tid = await self.find(interaction, tournament_id)
        await self.service.tournaments.join(tid, interaction.user.id, interaction.user.display_name)
        interaction.extras["committed"] = True
        view = await self.service.tournaments.view(tid)
        w = self.words(interaction)
        await self.reply(
            interaction,
            w.n(
                "You signed up for **{name}**: {count} player so far.",
                "You signed up for **{name}**: {count} players so far.",
                len(view.players),
                name=send.echo(view.tournament.name),
            ),
        )

    async def leave(self, interaction: discord.Interaction, tournament_id: int | None) -> None:
        """Leave: before the start the sign-up goes; once running, the later rounds are
        forfeited."""
        await self.defer(interaction)
        tid = await self.find(interaction, tournament_id)
        t = await self.service.tournaments.leave(tid, interaction.user.id)
        interaction.extras["committed"] = True
        w = self.words(interaction)
        if t.status == "open":
            text = w.t("You are no longer signed up for **{name}**.", name=send.echo(t.name))
        else:
            text = w.t(
                "You left **{name}**: you forfeit every round after round {round}. Your game "
                "of this round goes on; /ttr game resign hands your seat to the computer.",
                name=send.echo(t.name),
                round=t.round,
            )
        await self.reply(interaction, text)

    async def cancel(self, interaction: discord.Interaction, tournament_id: int | None) -> None:
        """Cancel (Manage Server): no more rounds; running games go on as ordinary games."""
        await self.defer(interaction)
        tid = await self.find(interaction, tournament_id)
        t = await self.service.tournaments.cancel(tid, manage_server=manages_server(interaction))
        interaction.extras["committed"] = True
        tw = words_for(t.language, None)
        await self.announcer.post(
            Post(
                0,
                t.guild_id,
                t.channel_id,
                tw.t(
                    "The tournament **{name}** was cancelled. Games still running go on as "
                    "ordinary games.",
                    name=send.echo(t.name),
                ),
                tw,
            )  # fmt: skip
        )
        await self.reply(interaction, self.words(interaction).t("The tournament was cancelled."))

    # ------------------------------------------------------------ rounds
    async def start(self, interaction: discord.Interaction, tournament_id: int | None) -> None:
        """Start (Manage Server): round one's tables are seated and their games opened, each
        in its own thread. On a running tournament: open the tables a failure left without
        their game."""
        await self.defer(interaction)
        tid = await self.find(interaction, tournament_id)
        t = (await self.service.tournaments.view(tid)).tournament
        allowed = manages_server(interaction)
        if t.status == "running" and allowed:
            step = await self.service.tournaments.advance(tid)
        else:
            step = await self.service.tournaments.start(tid, manage_server=allowed)
        interaction.extras["committed"] = True
        await self.follow(step)
        w = self.words(interaction)
        await self.reply(
            interaction,
            w.n(
                "Round {round} has begun at {count} table.",
                "Round {round} has begun at {count} tables.",
                len((await self.service.tournaments.view(tid)).round_tables(step.tournament.round)),
                round=step.tournament.round,
            ),
        )

    async def after_final(self, game_id: int) -> None:
        """A game's end was posted: the coach first, then its tournament table, if any, is
        scored, and a round that ends brings the next one (or the final standings)."""
        if self.then is not None:
            await self.then(game_id)
        step = await self.service.tournaments.game_over(game_id)
        if step is not None:
            await self.follow(step)

    async def follow(self, step: RoundStep) -> None:
        """Do what a step asks: open the new tables and announce the round, or post the
        final standings."""
        t = step.tournament
        tw = words_for(t.language, None)
        if step.finished:
            view = await self.service.tournaments.view(t.id)
            head = tw.t("**{name}** is over. Final standings:", name=send.echo(t.name))
            png = await self._image(view, tw)
            for i, text in enumerate(parts([head, *standing_lines(view, tw)])):
                image = (lambda: self._const(png)) if i == 0 else None
                await self.announcer.post(
                    Post(
                        0, t.guild_id, t.channel_id, text, tw, image=image, filename="standings.png"
                    )  # fmt: skip
                )
            return
        opened = [await self._open(t, table, tw) for table in step.to_open]
        if not opened:
            return
        view = await self.service.tournaments.view(t.id)
        lines = [tw.t("**{name}**, round {round}:", name=send.echo(t.name), round=t.round)]
        for table, thread in opened:
            names = ", ".join(f"<@{u}>" for u in table.players if u > 0)
            lines.append(
                tw.t(
                    "Table {table}: {players} in <#{thread}>",
                    table=table.table_no,
                    players=names,
                    thread=thread,
                )  # fmt: skip
            )
        byes = [x for x in view.round_tables(t.round) if len(x.players) == 1]
        for x in byes:
            mention = f"<@{x.players[0]}>"
            lines.append(tw.t("{player} has a bye.", player=mention))
        for text in parts(lines):  # each part pings the players it names
            pinged = tuple(int(u) for u in re.findall(r"<@(\d+)>", text))
            await self.announcer.post(Post(0, t.guild_id, t.channel_id, text, tw, ping=pinged))

    async def _open(
        self, t: TournamentRow, table: TournamentTable, tw: Words
    ) -> tuple[TournamentTable, int]:
        """Make the table's thread, open and start its game, post its first turn."""
        channel = self.bot.get_channel(t.channel_id)
        if not isinstance(channel, discord.TextChannel):
            raise CogError("no_threads_here")
        title = tw.t(
            "{name}: round {round}, table {table}",
            name=t.name,
            round=table.round,
            table=table.table_no,
        )
        with send.counted():
            thread = await channel.create_thread(
                name=send.thread_name(title),
                type=discord.ChannelType.public_thread,
                auto_archive_duration=10080,
            )
        outcome = await self.service.tournaments.open_table(
            t.id, table.round, table.table_no, thread.id
        )
        if outcome is not None:
            await self.publisher.turn(outcome.game.id, outcome.from_turn)
        return table, thread.id

    # ------------------------------------------------------------ reading
    async def standings(
        self, interaction: discord.Interaction, tournament_id: int | None, page: int
    ) -> None:
        """The standings, privately: a page of lines and the image."""
        await self.defer(interaction)
        tid = await self.find(interaction, tournament_id)
        view = await self.service.tournaments.view(tid)
        w = self.words(interaction)
        t = view.tournament
        lines, page, count = pages(standing_lines(view, w), page)
        head = self._heading(t, w)
        tail = [w.t("Page {page} of {pages}.", page=page, pages=count)] if count > 1 else []
        text = send.clip("\n".join([head, *lines, *tail]), PART)
        files = [self.png(await self._image(view, w), "standings.png")] if view.standings else []
        await self.reply(interaction, text, files=files)

    def _heading(self, t: TournamentRow, w: Words) -> str:
        if t.status == "open":
            return w.t("**{name}**: sign-up is open.", name=send.echo(t.name))
        if t.status == "running":
            return w.t("**{name}**, standings after round {round} of {rounds}:",
                       name=send.echo(t.name), round=t.round, rounds=t.rounds or "?")  # fmt: skip
        if t.status == "finished":
            return w.t("**{name}** is over. Final standings:", name=send.echo(t.name))
        return w.t("**{name}** was cancelled. Standings:", name=send.echo(t.name))

    async def tournaments(self, interaction: discord.Interaction, page: int) -> None:
        """This server's tournaments, newest first, privately (a page)."""
        await self.defer(interaction)
        w = self.words(interaction)
        found = await self.service.tournaments.in_guild(interaction.guild_id or 0)
        status = {
            "open": w.t("sign-up open"),
            "running": w.t("running"),
            "finished": w.t("finished"),
            "cancelled": w.t("cancelled"),
        }
        lines = [
            w.t(
                "{id}. **{name}**: {format}, {status}, in <#{channel}>",
                id=t.id,
                name=send.echo(t.name),
                format=format_name(t.format, w),
                status=status[t.status],
                channel=t.channel_id,
            )  # fmt: skip
            for t in found
        ]
        if not lines:
            await self.reply(interaction, w.t("No tournament has been played on this server yet."))
            return
        shown, page, count = pages(lines, page)
        tail = [w.t("Page {page} of {pages}.", page=page, pages=count)] if count > 1 else []
        await self.reply(interaction, send.clip("\n".join([*shown, *tail]), PART))

    async def _image(self, view: TournamentView, w: Words) -> bytes:
        names = {s.player: player_name(view, s.player, w) for s in view.standings}
        return await images.standings_png(view, names, self._heading(view.tournament, w), w)

    @staticmethod
    async def _const(png: bytes) -> bytes:
        return png

    @staticmethod
    def _map_name(map_id: str, w: Words) -> str:
        names = load_ruleset(map_id).meta.get("name") or {}
        return str(names.get(w.lang) or names.get("en") or map_id)


__all__ = ["TournamentFlows", "format_name", "standing_lines"]
