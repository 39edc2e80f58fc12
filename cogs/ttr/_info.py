"""Information: the board, the status, the move log, rules, maps, a user's games, statistics.

All answers are private and in the reader's language.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from maps import available_maps, load_ruleset, registry
from words import words_for

from . import _format as fmt
from . import _images as images
from ._base import Base, CogError, display_names, seat_names

log = logging.getLogger(__name__)


def provisional_note(meta: dict[str, Any], w: Any) -> str:
    """`` – provisional board: ...`` for a map whose data is not yet exact."""
    prov = meta.get("provenance") or {}
    if prov.get("status") == "provisional":
        return " – " + w.t("provisional board: {notes}", notes=str(prov.get("notes", ""))[:300])
    return ""


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


class InfoFlows(Base):
    """Read-only commands and the Board button."""

    async def board(self, interaction: discord.Interaction, game_id: int) -> None:
        """The board image and the status, privately."""
        await self.defer(interaction)
        table = await self.read(interaction, game_id)
        if table.public is None:
            raise CogError("not_started")
        w = self.words(interaction, table)
        text = fmt.status_text(
            table.public, seat_names(table), w, game_id=game_id, map_name=self.map_name(table, w)
        )
        png = await images.board_png(table.rules.map_id, table.public, display_names(table), w.lang)
        await self.reply(interaction, text, files=[self.png(png, "board.png")])

    async def status(self, interaction: discord.Interaction, game_id: int) -> None:
        """Whose turn, scores, pieces, cards and tickets per seat, and the turn clock."""
        await self.defer(interaction)
        table = await self.read(interaction, game_id)
        w = self.words(interaction, table)
        if table.public is None:
            text = w.t(
                "Game {game} on **{map}** (lobby). Players: {players}",
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
            )
            if table.game.deadline_at and table.public.phase != "finished":
                text += "\n" + w.t(
                    "The turn clock runs out {when}; then the computer plays the turn.",
                    when=f"<t:{int(table.game.deadline_at)}:R>",
                )
        await self.reply(interaction, text)

    async def log(self, interaction: discord.Interaction, game_id: int, count: int) -> None:
        """The last ``count`` turns, told in full."""
        await self.defer(interaction)
        table = await self.read(interaction, game_id)
        w = self.words(interaction, table)
        events = await self.service.public_log(game_id, count)
        lines = fmt.turn_lines(events, table.rules, seat_names(table), w)[-count:]
        await self.reply(interaction, "\n".join(lines) or w.t("No moves yet."))

    async def rules(
        self, interaction: discord.Interaction, map_id: str | None, game_id: int | None
    ) -> None:
        """A map's rules text (this channel's game's map by default)."""
        await self.defer(interaction)
        if map_id is None and game_id is not None:
            map_id = (await self.read(interaction, game_id)).rules.map_id
        map_id = map_id or "usa"
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

    async def maps(self, interaction: discord.Interaction) -> None:
        """Every loaded map (built-in and added through ``TTR_MAPS_DIR``) with its player range."""
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
        await self.reply(interaction, "\n".join(lines))

    async def mygames(self, interaction: discord.Interaction) -> None:
        """The user's open games in every server, the ones waiting for them first."""
        await self.defer(interaction)
        w = self.words(interaction)
        lines = []
        for g in await self.service.games_for_user(interaction.user.id):
            meta = load_ruleset(g.map_id).meta
            names = meta.get("name") or {}
            lines.append(
                w.t(
                    "Game {game} on **{map}** in <#{channel}>{turn}",
                    game=g.id,
                    map=str(names.get(w.lang) or names.get("en") or g.map_id),
                    channel=g.thread_id or g.channel_id,
                    turn=" – " + w.t("your move!") if g.your_turn else "",
                )
            )
        await self.reply(interaction, "\n".join(lines) or w.t("You are in no open games."))

    async def stats(self, interaction: discord.Interaction, user: discord.abc.User) -> None:
        """A player's results in this server."""
        await self.defer(interaction)
        w = self.words(interaction)
        st = await self.service.stats(interaction.guild_id or 0, user.id)
        text = w.n(
            "{player}: {count} game, {won} won, best score {best}, {done} {tickets} completed, {failed} failed.",
            "{player}: {count} games, {won} won, best score {best}, {done} {tickets} completed, {failed} failed.",
            st.games,
            player=user.mention,
            won=st.wins,
            best="–" if st.best_score is None else st.best_score,
            done=st.tickets_completed,
            failed=st.tickets_failed,
        )
        await self.reply(interaction, text)

    async def leaderboard(self, interaction: discord.Interaction) -> None:
        """The server's best players by wins, then average score."""
        await self.defer(interaction)
        w = self.words(interaction)
        rows = await self.service.leaderboard(interaction.guild_id or 0, 20)
        lines = [
            w.n(
                "{rank}. <@{user}>: {won} wins in {count} game",
                "{rank}. <@{user}>: {won} wins in {count} games",
                r.games,
                rank=n,
                user=r.user_id,
                won=r.wins,
            )
            for n, r in enumerate(rows, 1)
        ]
        await self.reply(interaction, "\n".join(lines) or w.t("No finished games yet."))
