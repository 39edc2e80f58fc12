"""The ladder: the server's rating table, a player's statistics with their rating chart, and the
server's settings and seasons (``/ttr admin``).

Answers are private and in the reader's language. Changing a setting or starting a season needs
the Manage Server permission (asked of the service with the member's permission); anyone may look.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.host.services import Ladder, UserStats
from bot.host.storage import GuildSettings
from maps import load_ruleset
from sentences import achievements as achievement_words
from sentences import stories
from sentences import texts as fmt
from words import Words

from . import _images as images
from ._base import Base
from ._lobby import TURN_TIMES

#: Lines of the rating table per page.
PER_PAGE = 15
#: ``/ttr admin config language:`` choices -> the stored value (None: the server's own language).
LANGUAGE_CHOICES = {"en": "en", "de": "de", "server": None}


def manages_server(interaction: discord.Interaction) -> bool:
    """True when the member may manage the server (Manage Server, or an administrator)."""
    perms = interaction.permissions
    return bool(perms.manage_guild or perms.administrator)


def map_name(map_id: str, w: Words) -> str:
    """A map's name in ``w``'s language."""
    names = load_ruleset(map_id).meta.get("name") or {}
    return str(names.get(w.lang) or names.get("en") or map_id)


class LadderFlows(Base):
    """/ttr player leaderboard, /ttr player stats, /ttr admin config and /ttr admin season."""

    async def leaderboard(
        self,
        interaction: discord.Interaction,
        map_id: str | None,
        season: int | None,
        page: int,
    ) -> None:
        """One page of the server's rating table, and the reader's own line wherever it is."""
        await self.defer(interaction)
        w = self.words(interaction)
        ladder = await self.service.ladder.ladder(
            interaction.guild_id or 0, season=season, map_id=map_id
        )
        await self.reply(interaction, ladder_text(ladder, page - 1, interaction.user.id, w))

    async def stats(self, interaction: discord.Interaction, user: discord.abc.User) -> None:
        """A player's results, rating and achievements (each with the date earned) in this
        server, with the rating chart of this season."""
        await self.defer(interaction)
        w = self.words(interaction)
        st = await self.service.ladder.stats(interaction.guild_id or 0, user.id)
        files = []
        if st.history:
            png = await images.rating_png(st, user.display_name, w)
            files.append(self.png(png, "rating.png"))
        text = stats_text(st, user.mention, w)
        earned = await self.service.achievements.of_user(interaction.guild_id or 0, user.id)
        room = fmt.MAX_CONTENT - len(text) - 1
        text = "\n".join([text, *achievement_words.stats_lines(earned, w, limit=room)])
        await self.reply(interaction, text, files=files)

    async def config(
        self,
        interaction: discord.Interaction,
        language: str | None,
        turn_time: str | None,
        rated: bool | None,
        hints: bool | None,
        add_channel: discord.abc.Snowflake | None,
        remove_channel: discord.abc.Snowflake | None,
        *,
        more: Sequence[str] = (),
        saved: bool = False,
    ) -> None:
        """Show the server's settings; with options (Manage Server only) change them first.
        ``more``: further settings lines (the open tables'), ``saved``: those were changed."""
        await self.defer(interaction)
        w = self.words(interaction)
        guild = interaction.guild_id or 0
        changes: dict[str, object] = {}
        if language is not None:
            changes["language"] = LANGUAGE_CHOICES.get(language)
        if turn_time is not None:
            changes["turn_seconds"] = TURN_TIMES.get(turn_time)
        changes |= {k: v for k, v in (("rated", rated), ("hints", hints)) if v is not None}
        if add_channel is not None or remove_channel is not None:
            now = await self.service.ladder.server_settings(guild)
            channels = set(now.channels) | ({add_channel.id} if add_channel else set())
            changes["channels"] = tuple(sorted(channels - {getattr(remove_channel, "id", None)}))
        if changes:
            settings = await self.service.ladder.set_server_settings(
                guild, interaction.user.id, manage_server=manages_server(interaction), **changes
            )
            interaction.extras["committed"] = True
        else:
            settings = await self.service.ladder.server_settings(guild)
        season = (await self.service.ladder.ladder(guild)).seasons[-1]
        saved = saved or bool(changes)
        head = w.t("The server settings were saved.") if saved else w.t("**Server settings**")
        when = "" if season.started_at is None else f" (<t:{int(season.started_at)}:D>)"
        lines = [head, *settings_lines(settings, w)]
        lines.append(w.t("• Season: {season}{since}", season=season.number, since=when))
        lines.extend(more)
        lines.append(
            w.t(
                "Members with Manage Server change them with /ttr admin config and start a new "
                "season with /ttr admin season. Server Settings → Integrations can also limit "
                "who may use /ttr, and in which channels."
            )
        )
        await self.reply(interaction, "\n".join(lines))

    async def season(self, interaction: discord.Interaction) -> None:
        """Start the next season (Manage Server): every rating starts afresh."""
        await self.defer(interaction)
        w = self.words(interaction)
        started = await self.service.ladder.start_season(
            interaction.guild_id or 0,
            interaction.user.id,
            manage_server=manages_server(interaction),
        )
        interaction.extras["committed"] = True
        await self.reply(
            interaction,
            w.t(
                "Season {season} has begun: every rating starts afresh. Season {last} stays "
                "viewable with /ttr player leaderboard season:{last}.",
                season=started.number,
                last=started.number - 1,
            ),
        )


def ladder_text(ladder: Ladder, page: int, reader: int, w: Words) -> str:
    """A page of the table (from 0), its heading and page line, and the reader's own line."""
    where = map_name(ladder.map_id, w) if ladder.map_id else w.t("every map")
    lines = [w.t("**Ratings** – season {season}, {where}", season=ladder.season, where=where)]
    if not ladder.lines:
        lines.append(w.t("No rated game in this season yet."))
        return "\n".join(lines)
    pages = ladder.pages(PER_PAGE)
    page = min(max(0, page), pages - 1)
    shown = ladder.page(page, PER_PAGE)
    lines += [fmt.ladder_line(line, w) for line in shown]
    mine = ladder.line_of(reader)
    if mine is None:
        lines.append(w.t("You have no rating in this table yet."))
    elif mine not in shown:
        lines.append(w.t("You: {line}", line=fmt.ladder_line(mine, w)))
    if page + 1 < pages:
        lines.append(
            w.t(
                "Page {page} of {pages}; the next with /ttr player leaderboard page:{next}.",
                page=page + 1,
                pages=pages,
                next=page + 2,
            )
        )
    elif pages > 1:
        lines.append(w.t("Page {page} of {pages}.", page=page + 1, pages=pages))
    if ladder.season < ladder.current:
        lines.append(w.t("The current season is {season}.", season=ladder.current))
    return "\n".join(lines)


def stats_text(st: UserStats, who: str, w: Words) -> str:
    """A player's statistics in words: games, wins and win rate, scores, tickets, longest-path
    bonuses, the favourite map, and the rating of this season."""
    lines = [
        w.t(
            "{player}: {games}, {won} won ({rate}%), average score {average}, best {best}.",
            player=who,
            games=w.n("{count} game", "{count} games", st.games),
            won=st.wins,
            rate=w.decimal(100 * st.win_rate, 0),
            average=w.decimal(st.avg_score),
            best="–" if st.best_score is None else st.best_score,
        ),
        w.n(
            "{count} {ticket} completed, {failed} failed",
            "{count} {tickets} completed, {failed} failed",
            st.tickets_completed,
            failed=st.tickets_failed,
        ),
        w.n(
            "Longest-path bonus: {count} time",
            "Longest-path bonus: {count} times",
            st.longest_path_bonuses,
        ),
    ]
    if st.favourite_map:
        lines.append(w.t("Favourite map: {map}", map=map_name(st.favourite_map, w)))
    if st.rating is None:
        lines.append(w.t("No rating in season {season} yet.", season=st.season))
    else:
        lines.append(
            w.t(
                "Rating in season {season}: {rating}, place {rank}",
                season=st.season,
                rating=stories.rating_text(st.rating.ordinal, st.rating.games, w),
                rank=st.rating.rank,
            )
        )
    return "\n".join(lines)


def settings_lines(settings: GuildSettings, w: Words) -> list[str]:
    """The server's settings, one line each."""
    languages = {"en": w.t("English"), "de": w.t("German")}
    seconds = settings.turn_seconds or TURN_TIMES["24h"]
    hours = seconds // 3600
    clock = (
        w.n("{count} hour", "{count} hours", hours)
        if hours
        else w.n("{count} minute", "{count} minutes", seconds // 60)
    )
    channels = ", ".join(f"<#{c}>" for c in settings.channels) or w.t("any channel")
    server_language = w.t("the server's language")
    return [
        w.t(
            "• Table language of new games: {language}",
            language=languages.get(settings.language or "", server_language),
        ),
        w.t("• Turn time of new games: {clock}", clock=clock),
        w.t("• New games are rated: {state}", state=w.t("yes") if settings.rated else w.t("no")),
        w.t(
            "• Hints: {state}",
            state=w.t("allowed in casual games") if settings.hints else w.t("not allowed"),
        ),
        w.t("• Games may be opened in: {channels}", channels=channels),
    ]
