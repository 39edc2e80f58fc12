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


def test_the_turning_point_measurement_counts_card_draws_and_draw_changes(
    capsys: pytest.CaptureFixture[str], tmp_path
) -> None:
    """``--turning-points``: one small Paris game analysed; the report counts its turning
    points (at most three, each of a known kind) and the card draws among them, a seat's mean
    change on its draw turns as the chart steps and as the move's own change (the smaller),
    and keeps the game with its analysis in ``--out``."""
    out = tmp_path / "games.jsonl"
    argv = ["--turning-points", "--json", "--games", "1", "--maps", "paris", "--rollouts", "8"]
    assert bench.main([*argv, "--out", str(out)]) == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    row = report["maps"]["paris"]
    assert report["rollouts"] == 8 and row["games"] == 1 and row["rollouts_min"] == 8
    assert 0 <= row["card_points"] <= row["points"] <= 3 and row["draw_turns"] > 5
    assert 0 <= row["draw_own"] <= row["draw_change"] < 1
    (game,) = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(game["analysis"]["turning_points"]) == row["points"]
