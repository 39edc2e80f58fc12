"""The core prototype benchmark (issue 16.1 feasibility): it checks its claims against the engine."""

from __future__ import annotations

import json

import pytest

from benchmarks import core_prototype as proto
from benchmarks import engine as engine_bench
from maps import load_ruleset


def test_the_prototype_lists_the_engines_claims_and_plays_whole_games() -> None:
    """On every turn state of one engine game per player count the prototype's legal actions are
    the engine's (each claim with its exact payment, the draws, the ticket draw); its own
    random games run to the end and claim routes."""
    table = proto.Table(load_ruleset("usa"))
    assert proto.cross_check(table, games=1) > 100
    for seats in (2, 5):
        core = proto.Core(table, seats, seed=3)
        actions = 0
        while core.phase != proto.DONE and actions < 2000:
            legal = core.legal()
            if not legal:
                core._end_turn()
                continue
            core.step(legal[actions % len(legal)])
            actions += 1
        assert core.phase == proto.DONE
        assert sum(core.pieces) < seats * table.pieces  # routes were claimed
        assert any(o >= 0 for o in core.owner)


def test_a_prototype_that_lists_other_actions_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check can fail: drop the all-locomotive payment of gray routes and it stops."""
    table = proto.Table(load_ruleset("usa"))
    real = proto._gray_slots

    def without_all_locos(hand: list[int], wild: int, length: int) -> list[int]:
        return [s for s in real(hand, wild, length) if s < proto.ALL_LOCOS]

    monkeypatch.setattr(proto, "_gray_slots", without_all_locos)
    with pytest.raises(AssertionError):
        proto.cross_check(table, games=2)


def test_the_report_compares_prototype_engine_and_peer(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """One game per player count: a row per count (2-5) with both engines' times, the checked
    states, and a peer that is not installed reported as such."""
    monkeypatch.setattr(engine_bench, "clock", engine_bench.clock)  # main sets it
    argv = [
        "--json",
        "--games",
        "1",
        "--check-games",
        "1",
        "--clock",
        "cpu",
        "--peer",
        "/nonexistent",
    ]
    assert proto.main(argv) == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert report["checked_states"] > 100
    assert [r["seats"] for r in report["rows"]] == [2, 3, 4, 5]
    for r in report["rows"]:
        assert r["prototype_ms"] > 0 and r["engine_ms"] > 0 and r["prototype_actions"] > 50
    assert report["peer"]["status"] in ("peer not installed", "ok")
