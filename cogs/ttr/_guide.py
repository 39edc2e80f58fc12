"""Reference texts: a map's rules, the list of maps, and /ttr help's short guide to a turn,
the commands and the buttons.

All answers are private and in the reader's language.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.host.services import TableView
from maps import available_maps, load_ruleset, registry
from sentences import texts as fmt
from words import Words, words_for

from ._base import Base, CogError


def provisional_note(meta: dict[str, Any], w: Words) -> str:
    """`` – provisional board: ...`` for a map whose data is not yet exact."""
    prov = meta.get("provenance") or {}
    if prov.get("status") == "provisional":
        notes = prov.get(f"notes_{w.lang}") or prov.get("notes", "")
        return " – " + w.t("provisional board: {notes}", notes=str(notes)[:300])
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


class GuideFlows(Base):
    """/ttr game rules (a map's rules, or the list of maps) and /ttr help."""

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
