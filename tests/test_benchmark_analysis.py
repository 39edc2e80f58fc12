"""The coach benchmark's report: analysis CPU per game and hint latency per map."""

from __future__ import annotations

import json

import pytest

from benchmarks import analysis as bench


def test_the_report_gives_cpu_per_game_and_hint_latency_per_map(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """One small Paris game: the analysis's CPU seconds and the rollouts it reached, and the
    latency of three hints (p50 <= p99 <= max), in the table and the JSON line."""
    argv = ["--json", "--games", "1", "--maps", "paris", "--seats", "2", "--hints", "3"]
    assert bench.main([*argv, "--rollouts", "8", "--workers", "0"]) == 0
    out = capsys.readouterr().out
    report = json.loads(out.strip().splitlines()[-1])
    row = report["maps"]["paris"]
    assert report["benchmark"] == "analysis" and report["rollouts"] == 8
    assert row["seats"] == 2 and row["turns"][0] > 10
    assert 0 < row["cpu_s_max"] < 60 and row["rollouts_per_turn"] == [8]
    assert row["hints"] == 3
    assert 0 < row["hint_p50_s"] <= row["hint_p99_s"] <= row["hint_max_s"] < 5
    assert "paris" in out.splitlines()[1]


def test_hints_are_timed_in_the_ai_worker_while_it_makes_an_analysis(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--busy``: the hints go to the AI worker process as the bot sends them, while an
    analysis is made there in slices; each hint is answered."""
    argv = ["--json", "--games", "1", "--maps", "paris", "--seats", "2", "--hints", "2"]
    assert bench.main([*argv, "--rollouts", "8", "--workers", "1", "--busy"]) == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert report["busy"] is True and report["workers"] == 1
    row = report["maps"]["paris"]
    assert row["hints"] == 2 and 0 < row["hint_p50_s"] <= row["hint_max_s"]
