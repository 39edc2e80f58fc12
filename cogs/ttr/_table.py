"""The table as it stands: the board image (whole, or zoomed on a place or on the reader's
ticket cities) and the status (whose turn, scores, pieces, cards, the turn clock).

All answers are private and in the reader's language.
"""

from __future__ import annotations

import unicodedata

import discord

from bot.discord_app import send
from bot.host.services import TableView
from sentences import texts as fmt
from words import LANGS, Words, words_for

from . import _ids as ids
from . import _images as images
from ._base import Base, CogError, display_names, resigned_seats, seat_names
from ._links import with_board_link


def fold(text: str) -> str:
    """``text`` lower-cased without accents, for matching typed city names."""
    decomposed = unicodedata.normalize("NFKD", text.strip().casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).replace("ß", "ss")


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


def status_text(table: TableView, w: Words) -> str:
    """The status in ``w``'s language: the lobby's players, or the public table and the clock
    (/ttr status, and /ttr game show for a game still running)."""
    game_id = table.game.id
    if table.public is None:
        text = w.t(
            "Game {game} on **{map}** has not started yet. Players: {players}",
            game=game_id,
            map=Base.map_name(table, w),
            players=", ".join(seat_names(table)) or "–",
        )
    else:
        text = fmt.status_text(
            table.public,
            seat_names(table),
            w,
            game_id=game_id,
            map_name=Base.map_name(table, w),
            resigned=resigned_seats(table),
            rules=table.rules,
        )
        if table.game.deadline_at and table.public.phase != "finished":
            text += "\n" + w.t(
                "The turn clock runs out {when}; then the computer plays the turn.",
                when=f"<t:{int(table.game.deadline_at)}:R>",
            )
    return text


class TableFlows(Base):
    """/ttr board (and the Board button) and /ttr status."""

    @ids.Board.game_handler
    async def board(
        self, interaction: discord.Interaction, game_id: int, region: str | None = None
    ) -> None:
        """The board image with a one-line caption (the scores, hands and clock are /ttr
        status's), privately, in the reader's contrast setting (drawn 500 px wide when the reader
        set ``phone_board``); with ``region`` (a city name, or "tickets" for the reader's ticket
        cities) a zoomed view captioned with what it shows."""
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
        if settings.phone_board:  # the player's setting: the board drawn 500 px wide
            png = await images.phone_png(
                table.rules.map_id, table.public, display_names(table), w.lang
            )
            await self.reply(
                interaction, self._board_caption(table, w), files=[self.png(png, "phone.png")]
            )
            return
        png = await images.board_png(
            table.rules.map_id,
            table.public,
            display_names(table),
            w.lang,
            high_contrast=settings.high_contrast,
        )
        await self.reply(
            interaction,
            self._board_caption(table, w),
            files=[self.png(png, "board.png")],
            view=with_board_link(self.bot.settings, game_id, table.seat, interaction.user.id, w),
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
        await self.reply(interaction, status_text(table, self.words(interaction, table)))
