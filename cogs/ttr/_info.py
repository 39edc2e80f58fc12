"""Information about games: the board, the status, the move log, rules, maps, finished games.

All answers are private and in the reader's language.
"""

from __future__ import annotations

import io
import logging
import unicodedata
from typing import Any

import discord

from bot.discord_app import send
from bot.host.services import TableView, TurnRecord
from maps import available_maps, load_ruleset, registry
from sentences import stories
from sentences import texts as fmt
from words import LANGS, Words, words_for

from . import _ids as ids
from . import _images as images
from ._base import Base, CogError, display_names, hints_taken, resigned_seats, seat_names
from ._coach import CoachFlows
from ._components import Btn, components

log = logging.getLogger(__name__)


def fold(text: str) -> str:
    """``text`` lower-cased without accents, for matching typed city names."""
    decomposed = unicodedata.normalize("NFKD", text.strip().casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).replace("ß", "ss")


def provisional_note(meta: dict[str, Any], w: Words) -> str:
    """`` – provisional board: ...`` for a map whose data is not yet exact."""
    prov = meta.get("provenance") or {}
    if prov.get("status") == "provisional":
        notes = prov.get(f"notes_{w.lang}") or prov.get("notes", "")
        return " – " + w.t("provisional board: {notes}", notes=str(notes)[:300])
    return ""


def zoom_region(table: TableView, region: str) -> tuple[list[str], list[str]]:
    """(cities to frame, cities to ring) for ``/ttr board region:``: "tickets" (the reader's
    kept and offered tickets' cities; CogError ``not_in_game`` without a seat,
    ``no_tickets_to_zoom`` without tickets) or a city name (accents and case ignored; CogError
    ``unknown_city``)."""
    board = table.rules.board
    own = {  # the map's ticket noun in any language: "Vertragskarten", "contracts"...
        fold(words_for(lang, table.rules.meta).noun("ticket", n)) for lang in LANGS for n in (1, 2)
    }
    if fold(region) in {"tickets", "ticket", "ziele", "zielkarten", "zielkarte", *own}:
        if table.mine is None:
            raise CogError("not_in_game")
        ids = [t.id for t in table.mine.tickets] + list(table.mine.offer)
        cities = [c for tid in ids for c in (board.tickets[tid].a, board.tickets[tid].b)]
        if not cities:
            raise CogError("no_tickets_to_zoom")
        return cities, cities
    want = fold(region)
    exact = [cid for cid, c in board.cities.items() if fold(c.name) == want or cid == want]
    start = [cid for cid, c in board.cities.items() if fold(c.name).startswith(want)]
    found = exact or start
    if not found:
        raise CogError("unknown_city", {"city": send.echo(region)})
    return found[:1], found[:1]


def chunk_lines(lines: list[str], size: int) -> list[str]:
    """``lines`` joined into pages of at most ``size`` characters (a longer line is clipped)."""
    pages: list[str] = []
    cur = ""
    for line in lines:
        line = fmt.clip(line, size)
        if cur and len(cur) + len(line) + 1 > size:
            pages.append(cur)
            cur = ""
        cur = f"{cur}\n{line}" if cur else line
    if cur:
        pages.append(cur)
    return pages


def chunks(text: str, size: int) -> list[str]:
    """``text`` split at line breaks into pieces of at most ``size`` characters."""
    out, cur = [], ""
    for para in text.split("\n"):
        while len(para) > size:
            if cur:
                out.append(cur)
                cur = ""
            out.append(para[:size])
            para = para[size:]
        if cur and len(cur) + len(para) + 1 > size:
            out.append(cur)
            cur = ""
        cur = f"{cur}\n{para}" if cur else para
    if cur:
        out.append(cur)
    return out


def log_pager(
    game_id: int, start: int, number: int, pages: int, w: Words
) -> discord.ui.View | None:
    """◀, "Page n of N" and ▶ under page ``number`` (0-based) of ``pages`` of the move log from
    record ``start`` on; None for a single page. Each button's id names the page it shows."""
    if pages <= 1:
        return None
    return components(
        [
            Btn("◀", ids.LogPage(game_id, start, number - 1).custom_id, disabled=number == 0),
            Btn(
                w.t("Page {page} of {pages}", page=number + 1, pages=pages),
                ids.LogPage(game_id, start, number).custom_id,
                disabled=True,
            ),
            Btn(
                "▶",
                ids.LogPage(game_id, start, number + 1).custom_id,
                disabled=number >= pages - 1,
            ),
        ]
    )


def turn_line(table: TableView | None, w: Words) -> str:
    """/ttr help's line on a turn: the four actions where the rule set has stations (Europe),
    and the face-up {wild} rule of the game's map (the USA's when no game is named)."""
    if table is not None and table.rules.params.stations is not None:
        return w.t(
            "• On your turn do one thing: **Draw** two {cards} (a face-up {wild} counts as two), **Claim** a route by paying its cards, draw {tickets}, or build a {station}."
        )
    if table is None or table.rules.params.face_up_wild_restricted:
        return w.t(
            "• On your turn do one thing: **Draw** two {cards} (a face-up {wild} counts as two), **Claim** a route by paying its cards, or draw {tickets}."
        )
    return w.t(
        "• On your turn do one thing: **Draw** two {cards} (any two, a face-up {wild} too), **Claim** a route by paying its cards, or draw {tickets}."
    )


class InfoFlows(Base):
    """Read-only commands and the Board button."""

    @ids.Board.game_handler
    async def board(
        self, interaction: discord.Interaction, game_id: int, region: str | None = None
    ) -> None:
        """The board image with a one-line caption (the scores, hands and clock are /ttr
        status's), privately, in the reader's contrast setting; with ``region`` (a city name, or
        "tickets" for the reader's ticket cities) a zoomed view captioned with what it shows."""
        await self.defer(interaction)
        table = await self.read(interaction, game_id)
        if table.public is None:
            raise CogError("not_started")
        w = self.words(interaction, table)
        settings = await self.service.queries.user_settings(interaction.user.id)
        if region:
            cities, marks = zoom_region(table, region)
            png = await images.zoom_png(
                table.rules.map_id,
                table.public,
                display_names(table),
                w.lang,
                cities,
                marks,
                high_contrast=settings.high_contrast,
            )
            text = self._zoom_caption(table, w, cities, tickets=marks == cities and len(marks) > 1)
            await self.reply(interaction, text, files=[self.png(png, "zoom.png")])
            return
        png = await images.board_png(
            table.rules.map_id,
            table.public,
            display_names(table),
            w.lang,
            high_contrast=settings.high_contrast,
        )
        await self.reply(
            interaction, self._board_caption(table, w), files=[self.png(png, "board.png")]
        )

    def _board_caption(self, table: TableView, w: Words) -> str:
        """What the board image is: the game, its map and round (the rest is in the image)."""
        public = table.public
        assert public is not None
        where = {"game": table.game.id, "map": self.map_name(table, w)}
        if public.phase == "finished":
            return w.t("Game {game} on **{map}**: the final board.", **where)
        if public.phase == "setup":
            return w.t("Game {game} on **{map}**: the board before the first round.", **where)
        return w.t(
            "Game {game} on **{map}**: the board in round {round}. Scores and the clock: /ttr status.",
            round=fmt.round_of(public),
            **where,
        )

    @staticmethod
    def _zoom_caption(table: TableView, w: Words, cities: list[str], *, tickets: bool) -> str:
        """What a zoom shows: the reader's ticket cities (ringed), or one place."""
        if tickets:
            return w.t("The board around the cities of your {tickets} (gold rings).")
        return w.t("The board around {city}.", city=table.rules.board.cities[cities[0]].name)

    async def status(self, interaction: discord.Interaction, game_id: int) -> None:
        """Whose turn, scores, pieces, cards and tickets per seat, and the turn clock."""
        await self.defer(interaction)
        table = await self.read(interaction, game_id)
        await self.reply(interaction, self._status_text(table, self.words(interaction, table)))

    def _status_text(self, table: TableView, w: Words) -> str:
        """The status in ``w``'s language: the lobby's players, or the public table and the clock."""
        game_id = table.game.id
        if table.public is None:
            text = w.t(
                "Game {game} on **{map}** has not started yet. Players: {players}",
                game=game_id,
                map=self.map_name(table, w),
                players=", ".join(seat_names(table)) or "–",
            )
        else:
            text = fmt.status_text(
                table.public,
                seat_names(table),
                w,
                game_id=game_id,
                map_name=self.map_name(table, w),
                resigned=resigned_seats(table),
                rules=table.rules,
            )
            if table.game.deadline_at and table.public.phase != "finished":
                text += "\n" + w.t(
                    "The turn clock runs out {when}; then the computer plays the turn.",
                    when=f"<t:{int(table.game.deadline_at)}:R>",
                )
        return text

    async def log(
        self,
        interaction: discord.Interaction,
        game_id: int,
        count: int | None,
        page: tuple[int, int] | None = None,
    ) -> None:
        """The moves since the reader's own last turn (or the last ``count`` turns), paged, numbered
        as the board counts; ``page``: (first turn record shown, page) from a page button."""
        await self.defer(interaction)
        table = await self.read(interaction, game_id)
        w = self.words(interaction, table)
        records = await self.service.queries.turn_log(game_id)
        start, number = self._log_range(records, table.seat, count, page)
        lines = self._log_lines(records[start:], table, w)
        if not lines:
            await self.reply(interaction, w.t("No moves yet."))
            return
        pages = chunk_lines(lines, fmt.MAX_CONTENT - 200)
        number = max(0, min(number, len(pages) - 1))
        head = (
            w.t("Since your last turn:")
            if count is None and table.seat is not None and start > 0 and page is None
            else w.n("The last {count} turn:", "The last {count} turns:", len(records) - start)
        )
        text = head + "\n" + pages[number]
        view = log_pager(game_id, start, number, len(pages), w)
        await self.reply(interaction, text, view=view)

    @staticmethod
    def _log_range(
        records: list[TurnRecord], seat: int | None, count: int | None, page: tuple[int, int] | None
    ) -> tuple[int, int]:
        """``(first record shown, page)``: a page click carries both; else since the reader's last turn."""
        if page is not None:
            first, number = page
            return max(0, min(first, len(records))), max(0, number)
        if count is not None:
            return max(0, len(records) - count), 0
        own = [i for i, r in enumerate(records) if r.seat is not None and r.seat == seat]
        if own and own[-1] < len(records) - 1:
            return own[-1] + 1, 0
        return max(0, len(records) - 10), 0

    @staticmethod
    def _log_lines(records: list[TurnRecord], table: TableView, w: Words) -> list[str]:
        """``**Turn 12** · Alice drew ...`` per turn (``**Start**`` for the ticket choice): one
        player's turn, counted as /ttr status counts them."""
        names = seat_names(table)
        out = []
        for record in records:
            told = stories.turn_lines(record.events, table.rules, names, w)
            if not told:
                continue
            label = (
                w.t("**Start**")
                if record.number == 0
                else w.t("**Turn {turn}**", turn=record.number)
            )
            out.append(f"{label} · " + " ".join(told))
        return out

    async def rules(
        self, interaction: discord.Interaction, map_id: str | None, game_id: int | None
    ) -> None:
        """A map's rules text (this channel's game's map by default); else the list of maps."""
        await self.defer(interaction)
        if map_id is None and game_id is not None:
            map_id = (await self.read(interaction, game_id)).rules.map_id
        if map_id is None:
            await self.maps(interaction)
            return
        if map_id not in available_maps():
            raise CogError("unknown_map", {"maps": ", ".join(available_maps())})
        meta = load_ruleset(map_id).meta
        w = words_for(self.words(interaction).lang, meta)
        texts = meta.get("rules_text") or {}
        text = str(texts.get(w.lang) or texts.get("en") or "") + provisional_note(meta, w)
        for n, chunk in enumerate(chunks(text, fmt.MAX_CONTENT - 20)[:5]):
            await self.reply(interaction, chunk)
            if n >= 4:
                break

    async def help(self, interaction: discord.Interaction, game_id: int | None) -> None:
        """A short guide to a turn, the commands and buttons, and where this game's map rules are."""
        await self.defer(interaction)
        table = await self.read(interaction, game_id) if game_id is not None else None
        w = self.words(interaction, table)
        map_line = (
            w.t(
                "This game is played on **{map}**: /ttr game rules shows how it differs from the USA map.",
                map=self.map_name(table, w),
            )
            if table is not None
            else w.t(
                "Every map has its own rules: /ttr game rules lists them, /ttr game rules map: shows one."
            )
        )
        text = "\n".join(
            [
                w.t("**Ticket to Ride here, in short**"),
                w.t(
                    "• Start: /ttr new opens a game in this channel; others join with **Join**; the host presses **Start**."
                ),
                w.t("• Everyone first keeps {tickets} privately: **My hand** (only you see it)."),
                turn_line(table, w),
                w.t(
                    "• After every turn the bot posts the board and pings the next player; /ttr game log tells what happened since your last turn."
                ),
                w.t(
                    "• Your hand and {tickets} are only ever shown to you; /ttr board and /ttr status show the table."
                ),
                w.t(
                    "• Away? /ttr game vacation pauses your clock; /ttr player settings turns pings off or on."
                ),
                w.t(
                    "• Stuck? /ttr hint suggests a move and says why (not in rated games or when hints are off); after the game, /ttr game show id: shows each player's chance to win turn by turn."
                ),
                w.t(
                    "• Now and then: /ttr game (the log, the rules, a vacation, resigning, the finished games), /ttr player (ratings, your games, settings, privacy), /ttr admin (the server's settings)."
                ),
                map_line,
            ]
        )
        await self.reply(interaction, text)

    async def maps(self, interaction: discord.Interaction) -> None:
        """Every loaded map (built-in and ``TTR_MAPS_DIR``) and its player range (/ttr game rules)."""
        await self.defer(interaction)
        w = self.words(interaction)
        lines = []
        for entry in registry():
            meta = load_ruleset(entry.id).meta
            lines.append(
                w.t(
                    "**{name}** (`{id}`): {least}-{most} players{provisional}",
                    name=entry.name(w.lang),
                    id=entry.id,
                    least=entry.min_players,
                    most=entry.max_players,
                    provisional=provisional_note(meta, w),
                )
            )
        lines.append(w.t("/ttr game rules map: shows how a map's rules differ from the USA map."))
        await self.reply(interaction, "\n".join(lines))

    async def history(self, interaction: discord.Interaction, page: int) -> None:
        """/ttr game history: the server's finished games, newest first, ten per page."""
        await self.defer(interaction)
        w = self.words(interaction)
        per_page = 10
        games = await self.service.queries.history(
            interaction.guild_id or 0, page=page - 1, per_page=per_page
        )
        if not games:
            await self.reply(interaction, w.t("No finished games yet."))
            return
        lines = [w.t("**Finished games** (page {page})", page=page)]
        for g in games:
            table = await self.service.queries.table(g.id, 0)
            names = seat_names(table)
            result = table.public.result if table.public is not None else None
            winners = (
                ", ".join(stories.player_name(names, s) for s in result.winners) if result else "–"
            )
            when = f"<t:{int(g.finished_at)}:d>" if g.finished_at else ""
            lines.append(
                w.t(
                    "Game {game} · **{map}** · {when} · winner: {winners} · /ttr game show id:{game}",
                    game=g.id,
                    map=self.map_name(table, w),
                    when=when,
                    winners=winners,
                )
            )
        if len(games) == per_page:
            lines.append(w.t("More: /ttr game history page:{page}", page=page + 1))
        await self.reply(interaction, "\n".join(lines))

    async def game(self, interaction: discord.Interaction, game_id: int) -> None:
        """Any game of this server: a finished one with its final image, score table, every
        ticket's result and (a rated game) each player's rating change, then its analysis (the
        chart and the turning points, or its place in the queue); a running one with its board
        and status."""
        await self.defer(interaction)
        table = await self.read(interaction, game_id, here=False)
        if table.game.guild_id != (interaction.guild_id or 0):
            raise CogError("game_not_found")
        public = table.public
        w = self.words(interaction, table)
        if public is None or public.result is None:
            await self.reply(interaction, self._status_text(table, w))
            return
        names, resigned = seat_names(table), resigned_seats(table)
        lines = [
            w.t("Game {game} on **{map}**", game=game_id, map=self.map_name(table, w)),
            fmt.score_table(public.result, names, w, resigned, hints_taken(table), table.rules),
        ]
        for s in public.result.seats:
            done = [fmt.ticket_text(table.rules, t, w) for t in s.completed]
            failed = [fmt.ticket_text(table.rules, t, w) for t in s.failed]
            lines.append(
                f"{stories.player_name(names, s.seat)}: ✅ "
                + (", ".join(done) or "–")
                + " · ❌ "
                + (", ".join(failed) or "–")
            )
        ratings = stories.rating_changes(await self.service.ladder.game_ratings(game_id), w)
        lines += [ratings] if ratings else []
        png = await images.final_png(table.rules.map_id, public, display_names(table), w.lang)
        records = await self.service.queries.turn_log(game_id)
        gif = await images.recap_gif(table.rules.map_id, records, display_names(table), w.lang)
        await self.reply(
            interaction,
            "\n".join(lines),
            files=[
                self.png(png, "final.png"),
                discord.File(io.BytesIO(gif), filename="recap.gif"),
            ],
        )
        analysis = await self.service.analyses.analysis(game_id)
        text, chart = CoachFlows.analysis_message(table, analysis, w)
        data = await chart() if chart is not None else None
        charts = [self.png(data, "analysis.png")] if data else []
        await self.reply(interaction, text, files=charts)
