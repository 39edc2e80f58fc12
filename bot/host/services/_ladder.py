"""The ladder: server settings, seasons, rating tables, a game's rating changes and a player's statistics.

Ratings themselves are written by the storage with a rated game's results (one transaction,
see :class:`~bot.host.storage.RatingStore`); this part reads them and lets a server's admins
(Manage Server, decided by the caller) change the settings and start a season.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from bot.host.ai_ratings import LevelRatings, level_ratings
from bot.host.ratings import OVERALL, ai_level_of, user_player
from bot.host.storage import (
    GUILD_SETTING_NAMES,
    LANGUAGES,
    GuildSettings,
    ResultRow,
    Season,
    Storage,
)
from maps.loader import available_maps

from ._errors import ServiceError
from ._models import Ladder, LadderLine, RatingPoint, RatingShift, UserStats


def hints_by_default(settings: GuildSettings, *, rated: bool) -> bool:
    """Whether a new game allows hints when its host does not say: where the
    server allows hints (its setting ``hints``), in casual games only. The coach's per-game
    switch takes its default from here."""
    return settings.hints and not rated


class ServerLadder:
    """A server's ladder: its settings, seasons, rating tables, a game's rating changes and
    a player's statistics. Owns nothing of its own; needs only the storage."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def server_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings (the defaults when no admin changed any)."""
        return await self.storage.guild_settings.get_guild_settings(guild_id)

    async def set_server_settings(
        self, guild_id: int, user_id: int, *, manage_server: bool, **changes: Any
    ) -> GuildSettings:
        """Change the server's settings (``language``, ``turn_seconds``, ``rated``, ``hints``,
        ``channels``; see :class:`~bot.host.storage.GuildSettings`): members with Manage Server only.

        Raises:
            ServiceError: ``not_manager``; ``bad_language``, ``bad_turn_time`` (nothing written).
        """
        if not manage_server:
            raise ServiceError("not_manager")
        unknown = sorted(set(changes) - set(GUILD_SETTING_NAMES))
        if unknown:
            raise ValueError(f"unknown server settings {unknown}")
        if changes.get("language") not in (None, *LANGUAGES):
            raise ServiceError("bad_language", {"choices": ", ".join(LANGUAGES)})
        seconds = changes.get("turn_seconds")
        if seconds is not None and (not isinstance(seconds, int) or seconds <= 0):
            raise ServiceError("bad_turn_time", {"given": seconds, "choices": "10m, 1h, 24h, 72h"})
        return await self.storage.guild_settings.set_guild_settings(
            guild_id, updated_by=user_id, **changes
        )

    async def start_season(self, guild_id: int, user_id: int, *, manage_server: bool) -> Season:
        """Start the server's next season: every rating starts afresh, earlier seasons stay
        viewable (members with Manage Server only).

        Raises:
            ServiceError: ``not_manager``; ``season_empty`` (detail ``season``: the current
                season has no rated game yet, so it goes on).
        """
        if not manage_server:
            raise ServiceError("not_manager")
        started = await self.storage.ratings.start_season(guild_id, user_id)
        if started is None:
            current = await self.storage.ratings.current_season(guild_id)
            raise ServiceError("season_empty", {"season": current.number})
        return started

    async def ladder(
        self, guild_id: int, *, season: int | None = None, map_id: str | None = None
    ) -> Ladder:
        """The server's rating table: one season (None: the current one), every map or one;
        the table of every map carries the AI levels' reference ratings
        (:func:`bot.host.ai_ratings.level_ratings`).

        Raises:
            ServiceError: ``unknown_season`` (detail ``season``, ``seasons``), ``unknown_map``.
        """
        seasons = await self.storage.ratings.seasons(guild_id)
        current = seasons[-1].number
        if season is not None and season not in {s.number for s in seasons}:
            raise ServiceError("unknown_season", {"season": season, "seasons": f"1-{current}"})
        if map_id is not None and map_id not in available_maps():
            raise ServiceError("unknown_map", {"map": map_id, "maps": ", ".join(available_maps())})
        scope = map_id or OVERALL
        rows = await self.storage.ratings.ratings(guild_id, season or current, scope)
        lines = tuple(
            LadderLine(n, r.player, r.user_id, ai_level_of(r.player), r.mu, r.sigma, r.games)
            for n, r in enumerate(rows, 1)
        )
        levels = level_ratings() if scope == OVERALL else LevelRatings()
        return Ladder(guild_id, season or current, current, scope, lines, tuple(seasons), levels)

    async def game_ratings(self, game_id: int) -> list[RatingShift]:
        """How a finished rated game moved each seat's overall rating, by seat (empty for a
        casual game, or one rated before ratings were kept)."""
        changes = {
            c.player: c
            for c in await self.storage.ratings.game_rating_changes(game_id)
            if c.scope == OVERALL
        }
        return [
            RatingShift(r.seat, c.player, c.user_id, c.before, c.after, c.games)
            for r in await self.storage.results.results(game_id)
            if r.player is not None and (c := changes.get(r.player)) is not None
        ]

    async def stats(self, guild_id: int, user_id: int) -> UserStats:
        """A user's totals over finished games in ``guild_id`` (0: every server), with their
        rating in the server this season and its history (ratings are per server)."""
        rows = await self.storage.results.user_history(
            user_id, limit=1_000_000, guild_id=guild_id or None
        )
        games = len(rows)
        ladder = await self.ladder(guild_id)
        history = await self.storage.ratings.player_rating_history(
            guild_id, user_player(user_id), season=ladder.season
        )
        return UserStats(
            user_id=user_id,
            games=games,
            wins=sum(r.won for r in rows),
            avg_score=sum(r.score for r in rows) / games if games else 0.0,
            best_score=max((r.score for r in rows), default=None),
            tickets_completed=sum(r.tickets_completed for r in rows),
            tickets_failed=sum(r.tickets_failed for r in rows),
            recent=tuple(rows[:5]),
            longest_path_bonuses=sum(bool(r.longest_path_bonus) for r in rows),
            favourite_map=favourite_map(rows),
            rating=ladder.line_of(user_id),
            season=ladder.season,
            history=tuple(RatingPoint(h.game_id, h.games, h.after, h.map_id) for h in history),
        )


def favourite_map(rows: list[ResultRow]) -> str | None:
    """The map of most of ``rows`` (newest first); on a tie the one played last."""
    counts = Counter(r.map_id for r in rows)
    if not counts:
        return None
    latest: dict[str, int] = {}
    for age, r in enumerate(rows):
        latest.setdefault(r.map_id, -age)
    return max(counts, key=lambda m: (counts[m], latest[m]))


__all__ = ["ServerLadder", "favourite_map", "hints_by_default"]
