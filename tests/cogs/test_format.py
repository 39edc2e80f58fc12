"""The turn formatter covers every event the engine emits, in English and German, on every map."""

from __future__ import annotations

import random
import re

import pytest

from bot.host.services.events import EVENT_TYPES
from engine import apply, legal_actions, new_game
from maps import available_maps, load_ruleset
from sentences import stories
from words import words_for

MAPS = ("usa", "germany", "nordic", "amsterdam", "paris")


def test_every_event_kind_has_a_phrase() -> None:
    """A new event class without a phrase (or an explicit silence) fails here."""
    missing = [kind for kind, cls in EVENT_TYPES.items() if cls not in stories.PHRASES]
    assert not missing, f"event kinds the turn messages cannot tell: {missing}"
    assert set(stories.PHRASES) == set(EVENT_TYPES.values())


@pytest.mark.parametrize("map_id", MAPS)
def test_random_games_are_told_in_both_languages(map_id: str) -> None:
    """Every turn of a random game becomes one filled-in line per language (no {placeholder} left)."""
    assert map_id in available_maps()
    rules = load_ruleset(map_id)
    rng = random.Random(map_id)
    state = new_game(rules, seats=rules.params.min_players + 1 if map_id != "nordic" else 3, seed=5)
    events = []
    for _ in range(400):
        if state.finished:
            break
        seat = state.seats_to_act()[0]
        action = rng.choice(legal_actions(rules, state, seat))
        transition = apply(rules, state, action)
        events.extend(e.redacted() for e in transition.events)
        state = transition.state
    names = [f"P{i}" for i in range(state.num_seats)]
    seen = {type(e) for e in events}
    assert len(seen) >= 6
    for lang in ("en", "de"):
        lines = stories.turn_lines(events, rules, names, words_for(lang, rules.meta))
        assert len(lines) > 20
        for line in lines:
            assert not re.search(r"\{[a-z_]+\}", line), line
            assert line.startswith("P") or line.startswith("**"), line
