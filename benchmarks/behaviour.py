"""The behaviour digest: what the code does in a fixed set of seeded AI games, per map.

``python -m benchmarks ai --digest [--maps usa,paris] [--workers K]`` prints it.

An AI record (``benchmarks/results/*.jsonl``, see :mod:`benchmarks.ai`) is
valid for as long as the code plays the same games. Its stamp therefore holds,
per map, a digest of behaviour rather than of source text: a refactor that
changes no move keeps every recorded game valid; a change that alters a move,
a score or a winner on a map changes that map's digest (and only that map's:
adding a map or changing another one leaves it alone).

Per map, :data:`GAMES` are played to the end from fixed seeds, the seats
taken by the levels named (the hard AI with the budget of :class:`DigestSpec`:
``iterations`` rollouts per decision and **no** wall-clock cap, so its choice
depends only on what it sees and its seeded RNG). The digest is the first 16
hex digits of the SHA-256 of every move (:func:`engine.codec.encode_action`,
canonical JSON) and every final result, in order.

It is a fingerprint, not a proof: the record's games ran at the default
budget (240 rollouts) under a 1.4 s cap, and a change could in principle
alter only moves that these games never reach. The games cover the three
levels, 2 players and a full table, and every decision kind of each map
(ticket keeps, claims, draws, tunnels, flags, merchandise as they come up).

Only the engine's public API of before the digest existed is used
(:func:`engine.new_game`, :func:`engine.apply`, :func:`engine.ai.choose_action`,
:class:`engine.ai.HardPlayer`, :func:`maps.load_ruleset`), so the digest of an
older commit is computed by running this file against that commit's
``engine/`` and ``maps/`` (``tools/behaviour_at.py COMMIT``).
"""

from __future__ import annotations

import hashlib
import json
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from engine import apply, new_game
from engine.ai import HardPlayer, choose_action
from engine.codec import encode_action
from maps import load_ruleset

#: Per map: ``(seats, seed, levels by seat)``; seats beyond a map's range are cut to it.
GAMES: tuple[tuple[int, int, tuple[str, ...]], ...] = (
    (2, 1, ("hard", "normal")),
    (4, 2, ("normal", "hard", "easy", "normal")),
)


@dataclass(frozen=True)
class DigestSpec:
    """What the digest plays: the games and the hard AI's rollouts per decision."""

    games: tuple[tuple[int, int, tuple[str, ...]], ...] = GAMES
    iterations: int = 40


#: The digest that stamps AI records. Changing it changes every map's digest.
SPEC = DigestSpec()


def play_digest_game(
    map_id: str, seats: int, seed: int, levels: tuple[str, ...], iterations: int
) -> tuple[list[str], str]:
    """Play one digest game; return ``(moves as canonical JSON lines, final result JSON)``."""
    rules = load_ruleset(map_id)
    seats = min(seats, rules.params.max_players)
    hard = HardPlayer(iterations=iterations, time_cap_s=None)
    state = new_game(rules, seats=seats, seed=seed)
    moves: list[str] = []
    while not state.finished:
        seat = state.seats_to_act()[0]
        level = levels[seat]
        if level == "hard":
            action = choose_action(rules, state, seat, player=hard)
        else:
            action = choose_action(rules, state, seat, level)
        moves.append(json.dumps(encode_action(action), sort_keys=True))
        state = apply(rules, state, action).state
    assert state.result is not None
    return moves, json.dumps(state.result.to_dict(), sort_keys=True)


def behaviour_digest(map_id: str, spec: DigestSpec | None = None) -> str:
    """The behaviour digest of one map: 16 hex digits (see the module docstring);
    ``spec`` defaults to :data:`SPEC`."""
    spec = SPEC if spec is None else spec
    digest = hashlib.sha256(f"behaviour:1:{map_id}:{spec.iterations}\n".encode())
    for seats, seed, levels in spec.games:
        moves, result = play_digest_game(map_id, seats, seed, levels, spec.iterations)
        digest.update(f"game {seats} {seed} {','.join(levels)}\n".encode())
        for move in moves:
            digest.update(move.encode() + b"\n")
        digest.update(result.encode() + b"\n")
    return digest.hexdigest()[:16]


def behaviour_digests(
    maps: list[str], spec: DigestSpec | None = None, workers: int = 1
) -> dict[str, str]:
    """:func:`behaviour_digest` of each of ``maps`` (on ``workers`` processes);
    ``spec`` defaults to :data:`SPEC`."""
    spec = SPEC if spec is None else spec
    if workers <= 1 or len(maps) <= 1:
        return {m: behaviour_digest(m, spec) for m in maps}
    with ProcessPoolExecutor(max_workers=workers) as pool:
        found = pool.map(behaviour_digest, maps, [spec] * len(maps))
        return dict(zip(maps, found, strict=True))
