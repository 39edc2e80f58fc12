"""A random legal player: picks an action kind uniformly, then an action of that kind."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ..actions import Action
from ..views import PlayerView

if TYPE_CHECKING:
    from ..rules.classic import ClassicRules


class RandomPlayer:
    """Uniform over action kinds, then uniform within the kind (so claims do not drown draws)."""

    def choose(
        self, rules: ClassicRules, view: PlayerView, legal: list[Action], rng: random.Random
    ) -> Action:
        """One random action of ``legal`` (non-empty)."""
        kinds: dict[str, list[Action]] = {}
        for a in legal:
            kinds.setdefault(a.kind, []).append(a)
        kind = rng.choice(sorted(kinds))
        return rng.choice(kinds[kind])
