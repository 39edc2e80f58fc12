"""The operators' view of the ratings: every server's tables, and the same tables rebuilt by replay.

- ``python -m bot ratings (--db PATH | --database-url URL) [--json] [--recompute]`` prints
  every server's table per season and scope (every map, then each map), as stored, or with
  ``--recompute`` as a replay of the stored results of every rated game, in the order the
  server rated them, through :func:`bot.host.ratings.rate` gives them. Both print the same text
  (and, with ``--json``, the same JSON) when the stored ratings are sound.
- :func:`rating_problems` is what ``python -m bot verify`` checks: the replay equals every
  stored rating and every game's stored change exactly, and every finished rated game was rated.

Exit codes as the other tools: 0 good, 1 the replay differs from what is stored, 2 bad use or
an unopenable database.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from bot.host.ratings import OVERALL, Entrant, Rating, ai_level_of, is_former, rate
from bot.host.storage import CorruptGame, RatingRow, Storage

_T = TypeVar("_T")

#: One table: (server, season, scope).
TableKey = tuple[int, int, str]


@dataclass(frozen=True, slots=True)
class Replay:
    """Every server's ratings rebuilt from the stored results: ``tables`` (key -> player ->
    rating), ``changes`` ((game, scope) -> player -> (before, after)), and the rated games
    whose results cannot be replayed (game id -> why)."""

    tables: dict[TableKey, dict[str, Rating]]
    changes: dict[tuple[int, str], dict[str, tuple[Rating, Rating]]]
    broken: dict[int, str]


async def replay_ratings(storage: Storage) -> Replay:
    """Rate every rated game again from its stored results, server by server in the order they
    were rated, from fresh ratings at each season's start. A forgotten person (``former:``) is
    rated along, so the others' ratings come out exactly as stored, but is left out of what is
    returned, as the storage never stores their rating."""
    tables: dict[TableKey, dict[str, Rating]] = {}
    changes: dict[tuple[int, str], dict[str, tuple[Rating, Rating]]] = {}
    broken: dict[int, str] = {}
    for game in await storage.rated_games():
        results = await storage.results(game.game_id)
        if not results or any(r.player is None or r.place is None for r in results):
            broken[game.game_id] = "rated, but its results lack a rating identity or place"
            continue
        entrants = [Entrant(r.seat, str(r.player), int(r.place or 0)) for r in results]
        for scope in (OVERALL, game.map_id):
            table = tables.setdefault((game.guild_id, game.season, scope), {})
            new = rate(entrants, table)
            changes[(game.game_id, scope)] = {
                p: (table.get(p, Rating()), after) for p, after in new.items()
            }
            table.update(new)
    return Replay(
        {key: _people(table) for key, table in tables.items()},
        {key: _people(change) for key, change in changes.items()},
        broken,
    )


def _people(by_player: dict[str, _T]) -> dict[str, _T]:
    """``by_player`` without forgotten persons (whose ratings are never stored)."""
    return {p: v for p, v in by_player.items() if not is_former(p)}


def _stored_tables(rows: Iterable[RatingRow]) -> dict[TableKey, dict[str, Rating]]:
    tables: dict[TableKey, dict[str, Rating]] = {}
    for r in rows:
        tables.setdefault((r.guild_id, r.season, r.scope), {})[r.player] = Rating(
            r.mu, r.sigma, r.games
        )
    return tables


def tables_doc(tables: dict[TableKey, dict[str, Rating]]) -> dict[str, Any]:
    """The tables as a JSON-able document: servers, their seasons, each season's tables (every
    map first, then the maps by id), each table's rows best first (ordinal, games, player)."""
    servers: dict[int, dict[int, list[dict[str, Any]]]] = {}
    for (guild, season, scope), table in sorted(tables.items(), key=lambda kv: _order(kv[0])):
        rows = sorted(table.items(), key=lambda kv: (-kv[1].ordinal, -kv[1].games, kv[0]))
        servers.setdefault(guild, {}).setdefault(season, []).append(
            {
                "scope": "overall" if scope == OVERALL else scope,
                "rows": [
                    {
                        "rank": n,
                        "player": player,
                        "ordinal": r.ordinal,
                        "mu": r.mu,
                        "sigma": r.sigma,
                        "games": r.games,
                        "provisional": r.provisional,
                    }
                    for n, (player, r) in enumerate(rows, 1)
                ],
            }
        )
    return {
        "servers": [
            {
                "guild_id": guild,
                "seasons": [{"season": s, "tables": t} for s, t in sorted(seasons.items())],
            }
            for guild, seasons in sorted(servers.items())
        ]
    }


def _order(key: TableKey) -> tuple[int, int, int, str]:
    guild, season, scope = key
    return guild, season, scope != OVERALL, scope


def tables_text(doc: dict[str, Any]) -> list[str]:
    """The document as plain lines: a heading per table, one row per player."""
    lines: list[str] = []
    for server in doc["servers"]:
        for season in server["seasons"]:
            for table in season["tables"]:
                where = "every map" if table["scope"] == "overall" else table["scope"]
                lines.append(f"server {server['guild_id']}, season {season['season']}, {where}")
                lines.append(
                    f"  {'#':>3}  {'player':<24}{'rating':>8}{'mu':>9}{'sigma':>8}{'games':>7}"
                )
                for row in table["rows"]:
                    level = ai_level_of(row["player"])
                    name = f"AI ({level})" if level else row["player"]
                    mark = " (provisional)" if row["provisional"] else ""
                    lines.append(
                        f"  {row['rank']:>3}  {name:<24}{row['ordinal']:>8.2f}{row['mu']:>9.3f}"
                        f"{row['sigma']:>8.3f}{row['games']:>7}{mark}"
                    )
    return lines or ["no rated games"]


async def rating_problems(storage: Storage) -> list[tuple[int, str]]:
    """What ``bot verify`` finds wrong with the ratings, as ``(game id or 0, why)``: a rated game
    whose results cannot be replayed, a finished rated game that was never rated, a game whose
    stored change differs from the replay, a table that differs from the replay."""
    replay = await replay_ratings(storage)
    problems = [(game_id, why) for game_id, why in replay.broken.items()]
    rated = {g.game_id: g for g in await storage.rated_games()}
    for game_id in await storage.game_ids("finished"):
        try:
            game = await storage.get_game(game_id)
        except CorruptGame:
            continue  # reported by the game's own check
        if game is not None and game.rated and game_id not in rated:
            if await storage.results(game_id):
                problems.append((game_id, "a finished rated game without its ratings"))
    for game_id in rated:
        stored: dict[tuple[int, str], dict[str, tuple[Rating, Rating]]] = {}
        for c in await storage.game_rating_changes(game_id):
            stored.setdefault((game_id, c.scope), {})[c.player] = (
                Rating(c.mu_before, c.sigma_before, c.games - 1),
                Rating(c.mu_after, c.sigma_after, c.games),
            )
        want = {
            k: v
            for k, v in replay.changes.items()
            if k[0] == game_id and v and game_id not in replay.broken
        }
        if stored != want and game_id not in replay.broken:
            problems.append(
                (game_id, "its stored rating changes differ from a replay of the results")
            )
    got = _stored_tables(await storage.all_ratings())
    for key in sorted(set(got) | set(replay.tables), key=_order):
        if got.get(key, {}) != replay.tables.get(key, {}):
            guild, season, scope = key
            where = "every map" if scope == OVERALL else scope
            problems.append(
                (0, f"the ratings of server {guild}, season {season}, {where} differ from a replay")
            )
    return problems


async def print_ratings(storage: Storage, *, recompute: bool, as_json: bool) -> int:
    """Print the tables (stored, or rebuilt with ``recompute``); with ``recompute`` also say on
    stderr whether the replay equals what is stored. Returns the exit code (1: it differs)."""
    replay = await replay_ratings(storage)
    stored = _stored_tables(await storage.all_ratings())
    doc = tables_doc(replay.tables if recompute else stored)
    print("\n".join(tables_text(doc)))
    if as_json:
        print(json.dumps(doc, sort_keys=True))
    if not recompute:
        return 0
    same = tables_doc(stored) == doc and not replay.broken
    for game_id, why in sorted(replay.broken.items()):
        print(f"game {game_id}: {why}", file=sys.stderr)
    print(
        "the replay gives exactly the stored ratings"
        if same
        else "the replay DIFFERS from the stored ratings (python -m bot verify names where)",
        file=sys.stderr,
    )
    return 0 if same else 1
