"""The AI benchmark's report: rates per map that add up, with the best normal seat beside hard."""

from __future__ import annotations

import json

import pytest

from benchmarks import ai


def test_the_report_counts_every_game_once(capsys: pytest.CaptureFixture[str]) -> None:
    """A tiny run (Paris, two games per mode, a small search budget, one worker): the JSON
    line has the counts asked for, rates that are fractions of them, and 4-player win rates
    of hard and the best normal seat that cannot add up to more than all games."""
    assert (
        ai.main("--json --games 2 --maps paris --workers 1 --iterations 6 --time-cap-s 5".split())
        == 0
    )
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    paris = report["paris"]
    assert (paris["games"], paris["games_4p"], paris["seats_4p"]) == (2, 2, 4)
    assert paris["hard_vs_normal_2p"] in (0.0, 0.5, 1.0)
    assert paris["hard_win_4p"] in (0.0, 0.5, 1.0)
    assert paris["best_normal_win_4p"] in (0.0, 0.5, 1.0)
    assert paris["hard_win_4p"] + paris["best_normal_win_4p"] <= 1.0
    low, high = paris["hard_vs_normal_2p_ci95"]
    assert 0.0 <= low <= paris["hard_vs_normal_2p"] <= high <= 1.0
    assert paris["hard_move_p99_s"] > 0.0
    assert report["settings"]["iterations"] == 6


def test_wilson_interval() -> None:
    """The Wilson 95% interval: known values, and (0, 1) with no games."""
    assert ai.wilson(0, 0) == (0.0, 1.0)
    low, high = ai.wilson(13, 20)
    assert (round(low, 3), round(high, 3)) == (0.433, 0.819)
