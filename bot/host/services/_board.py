"""The live board's reading: a game's public story move by move, replayed from its stored log.

Every stored action is one step of the game's version (version ``v`` is the state after the
``v``-th action). A step carries what anyone may see of it: the public view after it and its
public events (secrets cut out: :func:`~._models.redacted`). The steps are made by replaying
the seed and the action log with the engine, so they are the truth whatever the snapshot
holds. Some replayed states of a few games are kept (:data:`CACHED_GAMES`, every
:data:`CHECKPOINT_EVERY`-th version and the newest), so a page that follows a game move by
move replays only the new actions.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine import ClassicRules, Event, GameState, PublicView, apply, new_game, public_view
from engine.codec import decode_action

from ._models import redacted

#: Games whose replayed states are kept.
CACHED_GAMES = 64
#: A game's replayed state is kept every this many versions (and its newest), so a page that
#: asks for the steps after any version replays at most this many actions before them.
CHECKPOINT_EVERY = 32


@dataclass(frozen=True, slots=True)
class BoardStep:
    """One stored action as the table saw it.

    Attributes:
        version: the game's version after it (1 for the first action).
        seat: who acted.
        public: the public view after it (no hand, ticket, deck order or seed).
        events: its public events, in order.
    """

    version: int
    seat: int
    public: PublicView
    events: tuple[Event, ...]


@dataclass(slots=True)
class _Replayed:
    """A game's replayed states: every :data:`CHECKPOINT_EVERY`-th version and the newest."""

    seed: int
    states: dict[int, GameState]


class BoardReplays:
    """Replays games for the live board, keeping some states of :data:`CACHED_GAMES` games."""

    def __init__(self) -> None:
        self._cache: OrderedDict[int, _Replayed] = OrderedDict()
        # replays run in worker threads: one at a time reads and writes the kept states (the
        # GIL runs one at a time anyway)
        self._lock = threading.Lock()

    def _start(self, game_id: int, seed: int, after: int) -> tuple[GameState, int] | None:
        """The newest kept state at or before version ``after`` (None: none kept)."""
        cached = self._cache.get(game_id)
        if cached is None or cached.seed != seed:
            return None
        kept = [v for v in cached.states if v <= after]
        if not kept:
            return None
        version = max(kept)
        return cached.states[version], version

    def steps(
        self,
        rules: ClassicRules,
        game_id: int,
        *,
        seats: int,
        seed: int,
        options: dict[str, Any],
        actions: Sequence[dict[str, Any]],
        after: int,
    ) -> list[BoardStep]:
        """The steps of the versions after ``after`` up to ``len(actions)`` (CPU work: call it
        in a worker thread). Replays from the newest kept state at or before ``after``."""
        with self._lock:
            return self._steps(rules, game_id, seats, seed, options, actions, after)

    def _steps(
        self,
        rules: ClassicRules,
        game_id: int,
        seats: int,
        seed: int,
        options: dict[str, Any],
        actions: Sequence[dict[str, Any]],
        after: int,
    ) -> list[BoardStep]:
        found = self._start(game_id, seed, min(after, len(actions)))
        if found is None:
            state, start = new_game(rules, seats=seats, seed=seed, options=options), 0
        else:
            state, start = found
        entry = self._cache.get(game_id)
        if entry is None or entry.seed != seed:
            entry = self._cache[game_id] = _Replayed(seed, {0: state} if start == 0 else {})
        out: list[BoardStep] = []
        for version, stored in enumerate(actions[start:], start=start + 1):
            action = decode_action(stored)
            transition = apply(rules, state, action)
            state = transition.state
            if version % CHECKPOINT_EVERY == 0:
                entry.states[version] = state
            if version > after:
                public = tuple(redacted(e) for e in transition.events)
                out.append(BoardStep(version, action.seat, public_view(rules, state), public))
        newest = max((v for v in entry.states if v % CHECKPOINT_EVERY), default=None)
        if newest is not None and newest != len(actions):
            del entry.states[newest]
        entry.states[len(actions)] = state
        self._cache.move_to_end(game_id)
        while len(self._cache) > CACHED_GAMES:
            self._cache.popitem(last=False)
        return out


__all__ = ["CACHED_GAMES", "CHECKPOINT_EVERY", "BoardReplays", "BoardStep"]
