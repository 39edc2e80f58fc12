"""The hard style of weighing tickets (engine/ai/heuristic.py, ``PlanStyle``), a variant.

The heuristic can play :func:`engine.ai.heuristic.hard_style` (``normal:style=hard`` in
the lab) and the hard search can play its default move, the steps it does not search
and its own seat in every rollout in it (``HardPlayer(plan="hard")``); the levels play
the normal style (benchmarks/HISTORY.md, AI, item 9). These tests pin what the style is
per map, that it changes the play where it should (and only there), and that the hard
level plays the normal style.
"""

from __future__ import annotations

import random

import pytest

from engine import apply, new_game
from engine.actions import DrawTickets, KeepTickets
from engine.ai import HardPlayer, choose_action
from engine.ai.heuristic import (
    NORMAL_STYLE,
    HeuristicPlayer,
    PlanStyle,
    hard_style,
    keep_values,
)
from engine.ai.rollout import CoreRolloutPolicy
from engine.core import Core
from engine.reducer import legal_actions
from engine.views import player_view
from maps import load_ruleset

from .test_ai_levels import _midgame


def test_the_styles_numbers() -> None:
    assert NORMAL_STYLE == PlanStyle(14, 0.75, 0.6, 0.35)
    usa, paris = load_ruleset("usa"), load_ruleset("paris")
    assert hard_style(usa) == PlanStyle(18, 0.65, 0.55, 1.163)  # USA tickets: 11.63 points
    assert hard_style(paris).extra_weight == 0.53  # Paris tickets: 5.3 points
    assert hard_style(usa) is hard_style(usa)  # made once per rule set


def test_the_hard_level_plays_the_normal_style_and_an_unknown_plan_is_refused() -> None:
    with pytest.raises(ValueError, match="plan"):
        HardPlayer(plan="greedy")
    assert HardPlayer().normal.style == NORMAL_STYLE
    assert HardPlayer(plan="hard").normal.style is hard_style


def _decisions(map_id: str, seeds: range) -> list[tuple[object, object, object, list[object]]]:
    """(rules, state, seat, legal) of every decision of normal-AI games on ``map_id``."""
    rules = load_ruleset(map_id)
    out = []
    for seed in seeds:
        state = new_game(rules, seats=2, seed=seed)
        while not state.finished:
            seat = state.seats_to_act()[0]
            out.append((rules, state, seat, legal_actions(rules, state, seat)))
            state = apply(rules, state, choose_action(rules, state, seat, "normal")).state
    return out


def test_the_hard_style_draws_fewer_tickets_and_keeps_tighter() -> None:
    """Over every decision of six normal-AI games on the USA map, the heuristic in the
    hard style and in the normal style choose alike except on tickets: the hard style
    never draws new tickets with fewer than 18 pieces left where the normal one does
    with 14 to 17, and it ranks keep options by its own weights."""
    normal = HeuristicPlayer()
    styled = HeuristicPlayer(style=hard_style)
    drew_late = differed_keeps = other = 0
    for rules, state, seat, legal in _decisions("usa", range(6)):
        view = player_view(rules, state, seat)  # type: ignore[arg-type]
        a = normal.choose(rules, view, legal, random.Random(1))  # type: ignore[arg-type]
        b = styled.choose(rules, view, legal, random.Random(1))  # type: ignore[arg-type]
        pieces = view.me.pieces
        if isinstance(b, DrawTickets) and state.phase == "play":  # type: ignore[attr-defined]
            assert pieces >= 18
        if a == b:
            continue
        if isinstance(a, DrawTickets) and 14 <= pieces < 18:
            drew_late += 1
        elif isinstance(a, KeepTickets):
            keeps = [x for x in legal if isinstance(x, KeepTickets)]
            assert keep_values(rules, view, keeps) != keep_values(  # type: ignore[arg-type]
                rules,  # type: ignore[arg-type]
                view,
                keeps,
                hard_style(rules),  # type: ignore[arg-type]
            )
            differed_keeps += 1
        else:
            other += 1
    assert drew_late >= 1 and differed_keeps >= 5  # the style changes ticket choices ...
    assert other == 0  # ... and only ticket choices


def test_a_rollout_plays_the_styled_seat_in_its_style() -> None:
    """From the same mid-game states and seeds, a rollout with seat 0 in the hard style
    ends otherwise than the unstyled one in some games (its ticket draws and keeps
    differ), and with no styled seat it is the normal rollout exactly."""
    rules = load_ruleset("usa")
    differ = 0
    for seed in range(8):
        state = _midgame(rules, seed, 2, 30)
        ends = [
            CoreRolloutPolicy(rules, random.Random(seed), styles)
            .play_out(Core.from_state(rules, state))
            .result
            for styles in (None, {}, {0: hard_style(rules)})
        ]
        assert ends[0] == ends[1]
        differ += ends[0] != ends[2]
    assert differ >= 2
