"""The live board's reading: a game's public story move by move, replayed from its stored log.

Every stored action is one step of the game's version (version ``v`` is the state after the
``v``-th action). A step carries what anyone may see of it: the public view after it and its
public events (secrets cut out: :func:`~._models.redacted`). The steps are made by replaying
the seed and the action log with the engine, so they are the truth whatever the snapshot
holds. The newest replayed state of a few games is kept (:data:`CACHED_GAMES`), so a page
that follows a game move by move replays only the new actions.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine import ClassicRules, Event, GameState, PublicView, apply, new_game, public_view
from engine.codec import decode_action

from ._models import redacted

#: Games whose newest replayed state is kept (a few hundred KB each at most).
CACHED_GAMES = 64


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


@dataclass(frozen=True, slots=True)
class _Replayed:
    seed: int
    version: int
    state: GameState


class BoardReplays:
    """Replays games for the live board, keeping the newest state of :data:`CACHED_GAMES` games."""

    def __init__(self) -> None:
        self._cache: OrderedDict[int, _Replayed] = OrderedDict()

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
        in a worker thread; one game is replayed by one caller at a time, the service's lock
        or the cache's last writer wins)."""
        cached = self._cache.get(game_id)
        if (
            cached is not None
            and cached.seed == seed
            and cached.version <= min(after, len(actions))
        ):
            state, start = cached.state, cached.version
        else:
            state, start = new_game(rules, seats=seats, seed=seed, options=options), 0
        out: list[BoardStep] = []
        for version, stored in enumerate(actions[start:], start=start + 1):
            action = decode_action(stored)
            transition = apply(rules, state, action)
            state = transition.state
            if version > after:
                public = tuple(redacted(e) for e in transition.events)
                out.append(BoardStep(version, action.seat, public_view(rules, state), public))
        self._cache[game_id] = _Replayed(seed, len(actions), state)
        self._cache.move_to_end(game_id)
        while len(self._cache) > CACHED_GAMES:
            self._cache.popitem(last=False)
        return out


__all__ = ["CACHED_GAMES", "BoardReplays", "BoardStep"]
