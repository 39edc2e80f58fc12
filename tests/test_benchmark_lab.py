"""The AI lab: endless games found, agents compared by seed blocks, the levels' ratings.

``python -m benchmarks ai --no-limit N`` (:mod:`benchmarks.endless`), ``--compare A B``
(:mod:`benchmarks.lab`) and ``--ratings`` (:mod:`benchmarks.ratings`).
"""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import pytest

from benchmarks import ai, endless, lab, ratings
from engine.ai import EasyPlayer, ExpertPlayer, HardPlayer, HeuristicPlayer
from engine.ai.heuristic import NORMAL_STYLE, hard_style


def test_the_endless_run_covers_every_map_size_and_mix() -> None:
    """The games cycle through the maps, each map through its table sizes, and the mixes."""
    jobs = list(endless.jobs(6 * 4 * len(endless.MIXES), ["usa", "nordic"]))
    assert {(m, n) for m, n, _, _ in jobs} == {("usa", n) for n in (2, 3, 4, 5)} | {
        ("nordic", n) for n in (2, 3)
    }
    assert {mix for _, _, mix, _ in jobs} == set(range(len(endless.MIXES)))
    assert [seed for *_, seed in jobs] == list(range(len(jobs)))


def test_a_few_games_end_before_the_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A small run on Europe (tunnels) and Nordic: every game ends by the rules, and the
    summary says so, in the file too."""
    out = tmp_path / "endless.txt"
    assert ai.main(f"--no-limit 8 --maps europe,nordic --out {out} --json".split()) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["games"] == 8 and summary["at_limit"] == []
    assert 0 < summary["longest_turns"] < summary["turn_limit"]
    assert "8 AI-only games" in out.read_text() and "0 reached" in out.read_text()


def test_a_stalled_tunnel_game_of_the_old_heuristic_now_ends() -> None:
    """Europe, 3 normal seats, seed 33: the heuristic of before (``careful_tunnels=0``) gives
    up the same tunnels with the same hands turn after turn until the turn limit; the
    normal level finishes the game by the rules."""
    old = lab.play_game("europe", 33, ("normal:careful_tunnels=0",) * 3, None)
    new = lab.play_game("europe", 33, ("normal",) * 3, None)
    assert old.scores != new.scores
    from engine import apply, new_game
    from engine.ai import choose_action
    from engine.params import TURN_LIMIT
    from maps import load_ruleset

    rules = load_ruleset("europe")
    for player, ends in (
        (HeuristicPlayer(careful_tunnels=False), False),
        (HeuristicPlayer(), True),
    ):
        state = new_game(rules, seats=3, seed=33)
        while not state.finished:
            action = choose_action(rules, state, state.seats_to_act()[0], player=player)
            state = apply(rules, state, action).state
        assert (state.turn < TURN_LIMIT) == ends


def test_specs_name_players_and_identities() -> None:
    """A spec is a level with settings; its canonical form sorts them; the identity changes
    with the spec and with the code."""
    assert lab.parse_spec("hard:iterations=120,time_cap_s=1.5") == (
        "hard",
        {"iterations": 120, "time_cap_s": 1.5},
    )
    assert (
        lab.canonical("hard:time_cap_s=1.5,iterations=120") == "hard:iterations=120,time_cap_s=1.5"
    )
    with pytest.raises(ValueError, match="unknown AI level"):
        lab.parse_spec("grandmaster")
    with pytest.raises(ValueError, match="malformed"):
        lab.parse_spec("hard:iterations")
    expert = lab.make_player("expert:time_cap_s=2")
    assert isinstance(expert, ExpertPlayer) and expert.time_cap_s == 2
    hard = lab.make_player("hard:iterations=12")
    assert isinstance(hard, HardPlayer) and hard.iterations == 12
    old = lab.make_player("easy:careful_tunnels=0")
    assert isinstance(old, EasyPlayer) and not old.normal.careful_tunnels
    styled = lab.make_player("normal:style=hard")
    assert isinstance(styled, HeuristicPlayer) and styled.style is hard_style
    searched = lab.make_player("hard:plan=hard")
    assert isinstance(searched, HardPlayer) and searched.normal.style is hard_style
    assert lab.make_player("hard").normal.style == NORMAL_STYLE  # type: ignore[attr-defined]
    with pytest.raises(SystemExit, match="style"):
        lab.make_player("normal:style=greedy")
    assert lab.identity("normal", "a" * 16) == lab.identity("normal", "a" * 16)
    assert lab.identity("normal", "a" * 16) != lab.identity("normal", "b" * 16)
    assert lab.identity("normal", "a" * 16) != lab.identity("easy", "a" * 16)


def _game(focal: int | None, scores: tuple[int, ...]) -> lab.GameRecord:
    best = max(scores)
    winners = tuple(i for i, s in enumerate(scores) if s == best)
    return lab.GameRecord("usa", 1, focal, ("x",) * len(scores), scores, winners)


def test_the_paired_margin_takes_the_baseline_away() -> None:
    """2 seats: the mean of A's margins. 4 seats: each focal margin minus the baseline's
    margin of that seat (same deal, B in every seat)."""
    assert lab.paired_margin([_game(0, (50, 40)), _game(1, (45, 41))]) == (10 - 4) / 2
    four = [_game(f, tuple(60 if i == f else 50 for i in range(4))) for f in range(4)]
    base = _game(None, (55, 50, 50, 50))
    # focal margins all +10; the baseline's: seat 0 +5, seats 1-3 -5
    assert lab.paired_margin([*four, base]) == ((10 - 5) + 3 * (10 + 5)) / 4


def test_the_sequential_test_and_the_intervals() -> None:
    """Wald's bounds at alpha = beta = 0.05 for p 0.4 against 0.6: 8 straight block wins
    decide for A (8 ln 1.5 > ln 19), 7 do not; as many losses decide for B; equal counts
    never decide. The bootstrap interval of a constant is that constant, and it holds the
    mean of a spread sample."""
    assert math.log(19) / math.log(1.5) < 8
    assert lab.sprt(8, 0) == "A" and lab.sprt(7, 0) is None
    assert lab.sprt(0, 8) == "B" and lab.sprt(30, 30) is None
    assert lab.bootstrap([3.0] * 10) == (3.0, 3.0)
    values = [float(v) for v in range(-10, 31)]
    low, high = lab.bootstrap(values)
    assert low < sum(values) / len(values) < high


def test_a_comparison_stops_when_decided_and_records_every_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """normal against easy on USA, 2 seats: the sequential test decides for normal before
    the cap of 30 blocks; every game of the blocks played is one record line, both seatings
    of each seed, with the margin of the focal seat."""
    record = tmp_path / "cmp.jsonl"
    argv = f"--compare normal easy --maps usa --blocks 30 --workers 1 --record {record} --json"
    assert ai.main(argv.split()) == 0
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert result["decision"] == "normal stronger" and 8 <= result["blocks"] < 30
    assert result["paired_margin_ci95"][0] > 0
    rows = [json.loads(line) for line in record.read_text().splitlines()]
    assert len(rows) == 2 * result["blocks"]
    for row in rows:
        focal = row["focal"]
        assert row["agents"][focal] == "normal" and row["agents"][1 - focal] == "easy"
        assert row["margin"] == row["scores"][focal] - row["scores"][1 - focal]
    assert {(r["seed"], r["focal"]) for r in rows} == {
        (b, f) for b in range(result["blocks"]) for f in (0, 1)
    }


def test_the_ratings_tool_reproduces_the_committed_file() -> None:
    """``python -m benchmarks ai --ratings`` over the committed records gives the committed
    ``bot/host/ai_ratings.json`` exactly; hard rates above normal, normal above easy."""
    made = ratings.level_ratings()
    assert ratings.text(made) == ratings.OUT.read_text(encoding="utf-8")
    levels = made["levels"]
    assert levels["hard"]["ordinal"] > levels["normal"]["ordinal"] > levels["easy"]["ordinal"]


def test_the_ratings_read_both_record_formats(tmp_path: Path) -> None:
    """A hard-vs-normal line places by its scores, or by its winner alone (a shared first
    place without scores is left out); a comparison line by its agents and scores; a
    variant's games are left out."""
    old = {"seats": 3, "hard_seat": 1, "place": 2, "times": []}
    assert ratings.game_levels(old) == (["normal", "hard", "normal"], [1, 2, 2])
    assert ratings.game_levels({**old, "place": None}) is None
    assert ratings.game_levels({**old, "scores": [10, 30, 30]}) == (
        ["normal", "hard", "normal"],
        [3, 1, 1],
    )
    lab_row = {"agents": ["easy", "normal"], "scores": [40, 90]}
    assert ratings.game_levels(lab_row) == (["easy", "normal"], [2, 1])
    assert ratings.game_levels({**lab_row, "agents": ["hard:iterations=9", "normal"]}) is None
    # an expert at a smaller cap counts as expert; any other expert variant is left out
    capped = {**lab_row, "agents": ["hard", "expert:time_cap_s=2"]}
    assert ratings.game_levels(capped) == (["hard", "expert"], [2, 1])
    assert ratings.game_levels({**capped, "agents": ["hard", "expert:iterations=9"]}) is None
    assert ratings.game_levels({**capped, "agents": ["hard", "expert:beta=1,time_cap_s=2"]}) is None
    (tmp_path / "a.jsonl").write_text(json.dumps(lab_row) + "\n" + '{"agents": ["ea')
    found = ratings.level_ratings(tmp_path)
    assert found["games"] == 1 and set(found["levels"]) == {"easy", "normal"}
    assert found["levels"]["normal"]["mu"] > found["levels"]["easy"]["mu"]
    shutil.copy(tmp_path / "a.jsonl", tmp_path / "b.jsonl")
    assert ratings.level_ratings(tmp_path)["games"] == 2
