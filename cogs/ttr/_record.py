"""What happened in a game: its move log (paged), the server's finished games, and one game
shown whole (the final board, the scores, the tickets, the rating changes, the analysis).

All answers are private and in the reader's language.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

import discord

from bot.host.services import TableView, TurnRecord
from bot.host.storage import SeatHandover
from sentences import stories
from sentences import texts as fmt
from words import Words

from . import _ids as ids
from . import _images as images
from ._base import Base, CogError, display_names, hints_taken, resigned_seats, seat_names
from ._coach import CoachFlows
from ._components import Btn, components
from ._seats import handover_line
from ._table import status_text


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


class RecordFlows(Base):
    """/ttr game log (and the Log and page buttons), /ttr game history and /ttr game show."""

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
        handovers = await self.service.seats.handovers(game_id)
        lines = self._log_lines(records[start:], table, w, handovers)
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
    def _log_lines(
        records: list[TurnRecord],
        table: TableView,
        w: Words,
        handovers: Sequence[SeatHandover] = (),
    ) -> list[str]:
        """``**Turn 12** · Alice drew ...`` per turn (``**Start**`` for the ticket choice): one
        player's turn, counted as /ttr status counts them; a seat that changed hands is told
        after the turn it followed (:func:`~._seats.handover_line`)."""
        names = seat_names(table)
        out = []
        for i, record in enumerate(records):
            told = stories.turn_lines(record.events, table.rules, names, w)
            if told:
                label = (
                    w.t("**Start**")
                    if record.number == 0
                    else w.t("**Turn {turn}**", turn=record.number)
                )
                out.append(f"{label} · " + " ".join(told))
            until = records[i + 1].last_version if i + 1 < len(records) else None
            out += [
                "↪ " + handover_line(h, w)
                for h in handovers
                if record.last_version <= h.version and (until is None or h.version < until)
            ]
        return out

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
            await self.reply(interaction, status_text(table, w))
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
