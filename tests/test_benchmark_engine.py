"""The engine benchmark's report: whole random games per player count, both clocks."""

from __future__ import annotations

import json

import pytest

from benchmarks import engine as bench


@pytest.mark.parametrize("clock", ["wall", "cpu"])
def test_the_report_times_whole_games_per_player_count(
    clock: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """One Paris game per player count (2-4): a row per count with legal and apply parts that make
    up the total, the longest-path worst case, the clock named, and a peer that is not
    installed reported as such (never an error)."""
    monkeypatch.setattr(bench, "clock", bench.clock)  # main sets it; put it back after
    argv = ["--json", "--games", "1", "--maps", "paris", "--clock", clock]
    assert bench.main([*argv, "--peer", "/nonexistent"]) == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert report["clock"] == clock
    rows = report["maps"]["paris"]["rows"]
    assert [r["seats"] for r in rows] == [2, 3, 4]  # Paris: 2-4 players
    for r in rows:
        assert r["total_ms"] > 0 and r["actions"] > 20
        assert r["total_ms"] == pytest.approx(r["legal_ms"] + r["apply_ms"], abs=0.02)
    assert report["maps"]["paris"]["longest_path_worst_ms"] > 0
    assert report["peer"]["status"] in ("peer not installed", "ok")
    assert bench.clock is bench.CLOCKS[clock]


def test_the_report_times_the_integer_core(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Core rows per map and player count (USA 2-5, Paris 2-4) whose parts add up, the
    headline figure, and whether the mypyc build ran."""
    monkeypatch.setattr(bench, "clock", bench.clock)
    assert bench.main(["--json", "--games", "1", "--maps", "usa,paris"]) == 0
    out = capsys.readouterr().out
    report = json.loads(out.strip().splitlines()[-1])
    core = report["core"]
    assert isinstance(core["compiled"], bool)
    rows = core["maps"]["usa"]["rows"]
    assert [r["seats"] for r in rows] == [2, 3, 4, 5]
    for r in rows:
        assert r["actions"] > 50
        assert r["total_ms"] == pytest.approx(r["legal_ms"] + r["apply_ms"], abs=0.02)
    assert report["usa_4p_core_ms"] == rows[2]["total_ms"]
    assert [r["seats"] for r in core["maps"]["paris"]["rows"]] == [2, 3, 4]
    assert ("mypyc build" if core["compiled"] else "pure Python") in out
