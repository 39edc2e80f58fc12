"""The integer core (engine/core.py) against the value engine, action by action.

Whole games from random seeds: at every step each seat to act gets exactly the
value engine's legal actions (decoded), the chosen action round-trips through
its int, and after it the core's state, as a value, equals the reducer's,
final scores included, and so do the events it gave.
"""

from __future__ import annotations

import hashlib
import importlib.util
import random
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from engine import Resign, apply, legal_actions, new_game
from engine import core as core_module
from engine.core import Core, core_table
from engine.errors import SetupError
from engine.reducer import can_resign
from engine.rules import ClassicRules
from maps import load_ruleset

CORE_MAPS = ("usa", "germany", "nordic", "amsterdam", "paris", "europe")


def pure_source() -> ModuleType:
    """engine/integer_core.py run as plain Python (under its own name), whatever engine.core
    runs."""
    spec = importlib.util.spec_from_file_location("engine.integer_core_source", core_module.SOURCE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def play_both(
    map_id: str,
    seats: int,
    seed: int,
    impl: ModuleType | None = None,
    options: dict[str, str] | None = None,
    rules: ClassicRules | None = None,
) -> int:
    """Play one random game on both engines, checking every step; the number of actions.

    ``impl``: the core module to check (default: the one engine.core runs); ``rules``:
    a rule set to play instead of the map's."""
    rules = load_ruleset(map_id) if rules is None else rules
    core_cls = Core if impl is None else impl.Core
    table = core_table(rules) if impl is None else impl.core_table(rules)
    chooser = random.Random(seed)
    state = new_game(rules, seats=seats, seed=seed, options=options)
    core = core_cls.new(rules, seats=seats, seed=seed, options=options)
    assert core.to_state() == state
    n = 0
    while not state.finished:
        for seat in state.seats_to_act():
            offer = core.offers[seat]
            listed = [table.decode(seat, a, offer) for a in core.legal(seat)]
            assert len(listed) == len(set(listed))
            assert set(listed) == set(legal_actions(rules, state, seat)), (seat, state.version)
        seat = state.seats_to_act()[chooser.randrange(len(state.seats_to_act()))]
        actions = legal_actions(rules, state, seat)
        action = actions[chooser.randrange(len(actions))]
        if chooser.random() < 0.004:  # now and then a seat resigns (and plays on)
            seat = chooser.randrange(seats)
            action = Resign(seat)
            if not can_resign(state, seat):
                continue
        offer = core.offers[seat]
        code = table.encode(action, offer)
        assert table.decode(seat, code, offer) == action
        core.events = []
        core.step_seat(seat, code)
        done = apply(rules, state, action)
        state = done.state
        value = core.to_state()
        assert value == state, (action, state.version)
        assert list(value.owners) == list(state.owners)  # claim order, too
        assert core.events == done.events, (action, state.version)
        if n % 17 == 0:  # a core rebuilt from the value state goes on the same
            core = core_cls.from_state(rules, state)
            assert core.to_state() == state
        n += 1
    assert core.result == state.result
    return n


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(map_id=st_.sampled_from(CORE_MAPS), seats=st_.integers(2, 5), seed=st_.integers(0, 2**32))
def test_the_core_plays_the_value_engines_games(map_id: str, seats: int, seed: int) -> None:
    """Every state, every legal list and the final result equal the value engine's."""
    p = load_ruleset(map_id).params
    assert play_both(map_id, min(seats, p.max_players), seed) > 20


def test_germany_with_the_2017_tickets() -> None:
    """The other ticket set: the same games on both engines."""
    for seats in (2, 5):
        assert play_both("germany", seats, 5, options={"tickets": "2017"}) > 50


def test_player_count_outside_the_map_is_refused() -> None:
    """As new_game: SetupError ``player_count``."""
    with pytest.raises(SetupError):
        Core.new(load_ruleset("usa"), seats=6, seed=1)


def test_the_source_plays_the_same_games_as_what_runs() -> None:
    """The plain-Python source is checked too, on every map (what runs may be the mypyc
    build; the two keep separate tables)."""
    source = pure_source()
    assert not str(source.__file__).endswith(".so")
    for map_id in CORE_MAPS:
        assert play_both(map_id, 2, 11, impl=source) > 20


def test_a_build_runs_only_while_it_matches_the_source(tmp_path: Path) -> None:
    """A build counts only with its stamp equal to the source's SHA-256: an edit after the
    build, a missing stamp or a missing build each mean the source runs."""
    source = tmp_path / "integer_core.py"
    source.write_text("X = 1\n")
    stamp = tmp_path / "integer_core.built"
    built = tmp_path / "integer_core.cpython-311-x86_64-linux-gnu.so"
    assert not core_module.build_is_current(source, stamp)  # nothing built
    built.write_bytes(b"")
    assert not core_module.build_is_current(source, stamp)  # no stamp
    stamp.write_text(hashlib.sha256(source.read_bytes()).hexdigest() + "\n")
    assert core_module.build_is_current(source, stamp)
    source.write_text("X = 2\n")  # edited after the build
    assert not core_module.build_is_current(source, stamp)
    assert core_module.COMPILED == core_module.build_is_current()
