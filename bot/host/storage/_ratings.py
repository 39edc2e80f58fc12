"""Ratings: each server's ladder (its season and order of rated games), seasons, every player's
rating per season and scope, and the change every rated game made.

A rated game is rated by :func:`rate_in`, inside the transaction that stores its results
(:func:`~._results.replace_results`), so a crash leaves both or neither. It first updates the
server's ``ladders`` row: on PostgreSQL that row lock makes a second process rating a game of
the same server wait until this one commits (and then read its ratings); on SQLite every write
is serialised anyway. The math is :func:`bot.host.ratings.rate` (openskill's Plackett-Luce).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bot.host.ratings import OVERALL, Entrant, Rating, is_former, rate

from ._rows import PlayerResult, RatedGame, RatingChange, RatingRow, Season
from ._sql import (
    RATED_GAME_COLUMNS,
    RATING_COLUMNS,
    RATING_HISTORY_COLUMNS,
    Row,
    SqlBase,
    Tx,
)

_CHANGE_COLUMNS = (
    "h.game_id, r.guild_id, r.season, r.seq, r.map_id, h.scope, h.player, h.user_id,"
    " h.mu_before, h.sigma_before, h.mu_after, h.sigma_after, h.games, r.rated_at"
)
_CHANGES = f"SELECT {_CHANGE_COLUMNS} FROM rating_history h JOIN rated_games r USING (game_id)"


class SqlRatingStore(SqlBase):
    """The ladders, seasons, rated_games, ratings and rating_history tables (see
    :class:`~bot.host.storage.RatingStore`)."""

    async def current_season(self, guild_id: int) -> Season:
        async with self._read() as tx:
            return await _current_season(tx, guild_id)

    async def seasons(self, guild_id: int) -> list[Season]:
        async with self._read() as tx:
            rows = await tx.fetch(
                "SELECT guild_id, season, started_at, started_by FROM seasons"
                " WHERE guild_id = ? ORDER BY season",
                guild_id,
            )
            current = await _current_season(tx, guild_id)
        found = [_season(r) for r in rows]
        if not any(s.number == current.number for s in found):
            found.append(current)
        return found

    async def start_season(self, guild_id: int, user_id: int | None) -> Season | None:
        now = self._clock()
        async with self._write() as tx:
            ladder = await _lock_ladder(tx, guild_id, now)
            season = int(ladder["season"])
            played = await tx.fetchrow(
                "SELECT COUNT(*) AS n FROM rated_games WHERE guild_id = ? AND season = ?",
                guild_id,
                season,
            )
            if played is None or not int(played["n"]):
                return None
            await tx.execute(
                "UPDATE ladders SET season = ?, updated_at = ? WHERE guild_id = ?",
                season + 1,
                now,
                guild_id,
            )
            await tx.execute(
                "INSERT INTO seasons (guild_id, season, started_at, started_by) VALUES (?, ?, ?, ?)",
                guild_id,
                season + 1,
                now,
                user_id,
            )
        return Season(guild_id, season + 1, now, user_id)

    async def ratings(
        self, guild_id: int, season: int | None = None, scope: str = OVERALL
    ) -> list[RatingRow]:
        async with self._read() as tx:
            if season is None:
                season = (await _current_season(tx, guild_id)).number
            rows = await tx.fetch(
                f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND season = ?"
                " AND scope = ? ORDER BY mu - 3 * sigma DESC, games DESC, player",
                guild_id,
                season,
                scope,
            )
        return [rating_row(r) for r in rows]

    async def all_ratings(self) -> list[RatingRow]:
        async with self._read() as tx:
            rows = await tx.fetch(
                f"SELECT {RATING_COLUMNS} FROM ratings"
                " ORDER BY guild_id, season, scope, mu - 3 * sigma DESC, games DESC, player"
            )
        return [rating_row(r) for r in rows]

    async def game_rating_changes(self, game_id: int) -> list[RatingChange]:
        async with self._read() as tx:
            rows = await tx.fetch(
                f"{_CHANGES} WHERE h.game_id = ? ORDER BY h.scope, h.player", game_id
            )
        return [_change(r) for r in rows]

    async def player_rating_history(
        self, guild_id: int, player: str, *, season: int | None = None, scope: str = OVERALL
    ) -> list[RatingChange]:
        sql = f"{_CHANGES} WHERE r.guild_id = ? AND h.player = ? AND h.scope = ?"
        params: list[Any] = [guild_id, player, scope]
        if season is not None:
            sql += " AND r.season = ?"
            params.append(season)
        async with self._read() as tx:
            rows = await tx.fetch(sql + " ORDER BY r.seq", *params)
        return [_change(r) for r in rows]

    async def rated_games(self, guild_id: int | None = None) -> list[RatedGame]:
        sql = f"SELECT {RATED_GAME_COLUMNS} FROM rated_games"
        params: list[Any] = []
        if guild_id is not None:
            sql += " WHERE guild_id = ?"
            params.append(guild_id)
        async with self._read() as tx:
            rows = await tx.fetch(sql + " ORDER BY guild_id, seq", *params)
        return [
            RatedGame(
                game_id=int(r["game_id"]),
                guild_id=int(r["guild_id"]),
                season=int(r["season"]),
                seq=int(r["seq"]),
                map_id=str(r["map_id"]),
                rated_at=float(r["rated_at"]),
            )
            for r in rows
        ]


async def rate_in(
    tx: Tx, game: Row, results: Sequence[PlayerResult], now: float
) -> list[RatingChange]:
    """Rate the finished game whose header is ``game`` (see :func:`~._sql.game_header`) from its
    ``results``, inside the open transaction ``tx``: the server's ladder row first (the lock, the
    season, the game's place in the server's order), then overall and the game's map, each
    player's new rating and the change. A game rated before is left alone (its stored results
    are replaced only). Returns the changes written.

    Raises:
        ValueError: a result without its ``player`` or ``place``.
    """
    game_id, guild_id, map_id = int(game["id"]), int(game["guild_id"]), str(game["map_id"])
    missing = [r.seat for r in results if r.player is None or r.place is None]
    if missing:
        raise ValueError(f"game {game_id}: rated results need player and place (seats {missing})")
    if await tx.fetchrow("SELECT game_id FROM rated_games WHERE game_id = ?", game_id):
        return []
    ladder = await _lock_ladder(tx, guild_id, now, rated=1)
    season, seq = int(ladder["season"]), int(ladder["rated_games"])
    await tx.execute(
        "INSERT INTO seasons (guild_id, season, started_at, started_by) VALUES (?, ?, ?, NULL)"
        " ON CONFLICT (guild_id, season) DO NOTHING",
        guild_id,
        season,
        now,
    )
    await tx.execute(
        f"INSERT INTO rated_games ({RATED_GAME_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
        game_id,
        guild_id,
        season,
        seq,
        map_id,
        now,
    )
    entrants = [Entrant(r.seat, str(r.player), int(r.place or 0)) for r in results]
    users = {str(r.player): r.user_id for r in results}
    head = RatingChange(
        game_id, guild_id, season, seq, map_id, OVERALL, "", None, 0, 0, 0, 0, 0, now
    )
    changes: list[RatingChange] = []
    for scope in (OVERALL, map_id):
        changes += await _rate_scope(tx, replace(head, scope=scope), entrants, users)
    return changes


async def _rate_scope(
    tx: Tx, head: RatingChange, entrants: Sequence[Entrant], users: dict[str, int | None]
) -> list[RatingChange]:
    """Rate ``entrants`` in the scope, season and server of ``head`` (a change naming no player
    yet): the players' new ratings and the changes, written; returns the changes."""
    guild_id, season, scope, now = head.guild_id, head.season, head.scope, head.rated_at
    current = await _current_ratings(tx, guild_id, season, scope, sorted(users))
    # a forgotten person is rated with the others (their ratings depend on it) but not stored
    new = {p: r for p, r in rate(entrants, current).items() if not is_former(p)}
    if not new:
        return []
    await tx.executemany(
        f"INSERT INTO ratings ({RATING_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (guild_id, season, scope, player) DO UPDATE SET mu = excluded.mu,"
        " sigma = excluded.sigma, games = excluded.games, user_id = excluded.user_id,"
        " updated_at = excluded.updated_at",
        [
            (guild_id, season, scope, p, users[p], r.mu, r.sigma, r.games, now)
            for p, r in sorted(new.items())
        ],
    )
    rows = [
        replace(
            head, player=p, user_id=users[p], mu_before=current.get(p, Rating()).mu,
            sigma_before=current.get(p, Rating()).sigma, mu_after=r.mu, sigma_after=r.sigma,
            games=r.games,
        )
        for p, r in sorted(new.items())
    ]  # fmt: skip
    await tx.executemany(
        f"INSERT INTO rating_history ({RATING_HISTORY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                c.game_id,
                c.scope,
                c.player,
                c.user_id,
                c.mu_before,
                c.sigma_before,
                c.mu_after,
                c.sigma_after,
                c.games,
            )
            for c in rows
        ],  # fmt: skip
    )
    return rows


async def _lock_ladder(tx: Tx, guild_id: int, now: float, *, rated: int = 0) -> Row:
    """The server's ladder row, created at season 1 when missing, with ``rated`` more rated
    games counted; updating it holds the row's lock until the transaction ends."""
    row = await tx.fetchrow(
        "INSERT INTO ladders (guild_id, season, rated_games, updated_at) VALUES (?, 1, ?, ?)"
        " ON CONFLICT (guild_id) DO UPDATE SET rated_games = ladders.rated_games + ?,"
        " updated_at = excluded.updated_at RETURNING season, rated_games",
        guild_id,
        rated,
        now,
        rated,
    )
    assert row is not None
    return row


async def _current_ratings(
    tx: Tx, guild_id: int, season: int, scope: str, players: Sequence[str]
) -> dict[str, Rating]:
    if not players:
        return {}
    marks = ", ".join("?" * len(players))
    rows = await tx.fetch(
        "SELECT player, mu, sigma, games FROM ratings WHERE guild_id = ? AND season = ?"
        f" AND scope = ? AND player IN ({marks})",
        guild_id,
        season,
        scope,
        *players,
    )
    return {
        str(r["player"]): Rating(float(r["mu"]), float(r["sigma"]), int(r["games"])) for r in rows
    }


async def _current_season(tx: Tx, guild_id: int) -> Season:
    row = await tx.fetchrow(
        "SELECT l.guild_id, l.season, s.started_at, s.started_by FROM ladders l"
        " LEFT JOIN seasons s ON s.guild_id = l.guild_id AND s.season = l.season"
        " WHERE l.guild_id = ?",
        guild_id,
    )
    return Season(guild_id, 1, None) if row is None else _season(row)


def _season(r: Row) -> Season:
    return Season(
        guild_id=int(r["guild_id"]),
        number=int(r["season"]),
        started_at=None if r["started_at"] is None else float(r["started_at"]),
        started_by=r["started_by"],
    )


def rating_row(r: Row) -> RatingRow:
    """A :class:`RatingRow` from a ``ratings`` row."""
    return RatingRow(
        guild_id=int(r["guild_id"]),
        season=int(r["season"]),
        scope=str(r["scope"]),
        player=str(r["player"]),
        user_id=r["user_id"],
        mu=float(r["mu"]),
        sigma=float(r["sigma"]),
        games=int(r["games"]),
        updated_at=float(r["updated_at"]),
    )


def _change(r: Row) -> RatingChange:
    return RatingChange(
        game_id=int(r["game_id"]),
        guild_id=int(r["guild_id"]),
        season=int(r["season"]),
        seq=int(r["seq"]),
        map_id=str(r["map_id"]),
        scope=str(r["scope"]),
        player=str(r["player"]),
        user_id=r["user_id"],
        mu_before=float(r["mu_before"]),
        sigma_before=float(r["sigma_before"]),
        mu_after=float(r["mu_after"]),
        sigma_after=float(r["sigma_after"]),
        games=int(r["games"]),
        rated_at=float(r["rated_at"]),
    )
