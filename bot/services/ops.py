"""Operator tools over a database file: verify every game by replay, export one game's log.

``python -m bot verify --db PATH`` and ``python -m bot export --db PATH --game ID``
(see :func:`main_verify`, :func:`main_export`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import EngineError
from engine.codec import decode_state, encode_state

from ..storage import Storage, open_storage
from ._core import replay_game


@dataclass(frozen=True, slots=True)
class Mismatch:
    """A stored game whose replay does not give its snapshot (or cannot be replayed)."""

    game_id: int
    reason: str


async def verify_storage(storage: Storage) -> tuple[int, list[Mismatch]]:
    """Replay every started game from its seed and action log and compare with its snapshot.

    Returns ``(games checked, mismatches)``. Lobby games (no snapshot) are skipped.
    """
    checked = 0
    problems: list[Mismatch] = []
    for game in await storage.list_games():
        if game.snapshot is None or game.seed is None:
            continue
        checked += 1
        try:
            state = await replay_game(storage, game)
        except (EngineError, KeyError, ValueError) as exc:
            problems.append(Mismatch(game.id, f"the log does not replay: {exc}"))
            continue
        if state.version != game.version:
            problems.append(
                Mismatch(
                    game.id, f"replay has {state.version} actions, the game says {game.version}"
                )
            )
        elif state != decode_state(game.snapshot):
            diff = _first_difference(encode_state(state), game.snapshot)
            problems.append(Mismatch(game.id, f"replay differs from the snapshot at {diff}"))
        elif game.status == "finished" and not state.finished:
            problems.append(Mismatch(game.id, "marked finished but the replay is not over"))
    return checked, problems


def _first_difference(a: Any, b: Any, path: str = "$") -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if a.get(key) != b.get(key):
                return _first_difference(a.get(key), b.get(key), f"{path}.{key}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
    return path


async def export_game(storage: Storage, game_id: int) -> dict[str, Any] | None:
    """A game's whole record as JSON-able dict: game, seats, action log, results (None if unknown)."""
    game = await storage.get_game(game_id)
    if game is None:
        return None
    seats = await storage.seats(game_id)
    return {
        "game": {k: getattr(game, k) for k in game.__slots__ if k != "snapshot"},  # type: ignore[attr-defined]
        "seats": [{k: getattr(s, k) for k in s.__slots__} for s in seats],  # type: ignore[attr-defined]
        "actions": [
            {
                "seq": a.seq,
                "seat": a.seat,
                "action": a.action,
                "source": a.source,
                "actor_user_id": a.actor_user_id,
                "at": a.created_at,
            }
            for a in await storage.actions(game_id)
        ],
        "results": [
            {k: getattr(r, k) for k in r.__slots__} for r in await storage.results(game_id)
        ],  # type: ignore[attr-defined]
        "snapshot": game.snapshot,
    }


def _db_arg(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--db", type=Path, required=True, help="the SQLite file (TTR_DATABASE_PATH)")


async def _verify(path: Path) -> int:
    storage = await open_storage(path)
    try:
        checked, problems = await verify_storage(storage)
    finally:
        await storage.close()
    for p in problems:
        print(f"game {p.game_id}: MISMATCH: {p.reason}")
    print(f"{checked} games checked, {len(problems)} mismatches")
    return 1 if problems else 0


def main_verify(argv: list[str]) -> int:
    """``python -m bot verify --db PATH``: exit 0 when every game replays to its snapshot, 1 otherwise, 2 on bad use."""
    ap = argparse.ArgumentParser(
        prog="python -m bot verify", description="Replay every stored game and compare."
    )
    _db_arg(ap)
    args = ap.parse_args(argv)
    if not args.db.is_file():
        print(f"no database at {args.db}", file=sys.stderr)
        return 2
    return asyncio.run(_verify(args.db))


async def _export(path: Path, game_id: int, out: Path | None) -> int:
    storage = await open_storage(path)
    try:
        doc = await export_game(storage, game_id)
    finally:
        await storage.close()
    if doc is None:
        print(f"no game {game_id} in {path}", file=sys.stderr)
        return 1
    text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    if out is None:
        sys.stdout.write(text)
    else:
        out.write_text(text, encoding="utf-8")
        print(f"wrote {out}")
    return 0


def main_export(argv: list[str]) -> int:
    """``python -m bot export --db PATH --game ID [--out FILE]``: a game's JSON log (stdout by default)."""
    ap = argparse.ArgumentParser(
        prog="python -m bot export", description="Write one game's JSON log."
    )
    _db_arg(ap)
    ap.add_argument("--game", type=int, required=True)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    if not args.db.is_file():
        print(f"no database at {args.db}", file=sys.stderr)
        return 2
    return asyncio.run(_export(args.db, args.game, args.out))
