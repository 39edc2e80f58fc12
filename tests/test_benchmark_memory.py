"""The memory benchmark: sizes of a fresh process that plays AI games, one per game."""

from __future__ import annotations

import json

import pytest

from benchmarks import memory


def test_each_process_reports_its_size_after_every_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Two maps, one game each, a tiny search budget: each map's process and the process
    that plays both report one size per game it played, none well below (10%) the size
    it started with, and a peak no smaller than any of them (within the kernel's lag)."""
    argv = "--json --games 1 --maps paris,amsterdam --workers 2 --iterations 4 --time-cap-s 5"
    assert memory.main(argv.split()) == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert set(report) == {"paris", "amsterdam", "all", "settings"}
    for key, games in (("paris", 1), ("amsterdam", 1), ("all", 2)):
        r = report[key]
        assert r["games"] == games == len(r["after_game_mb"])
        assert r["start_mb"] > 10
        assert min(r["after_game_mb"]) >= r["start_mb"] * 0.9
        # the kernel updates the peak lazily: it may trail the last reading a little
        assert r["peak_mb"] >= max(r["after_game_mb"]) * 0.97


def test_sizes_are_read_from_this_process() -> None:
    """Allocating 64 MiB and touching it shows in the current size and the peak."""
    before = memory.resident_mib()
    block = bytearray(64 * 1024 * 1024)
    block[::4096] = b"x" * len(block[::4096])
    assert memory.resident_mib() - before > 50
    assert memory.peak_mib() >= memory.resident_mib() - 3  # the kernel's lag, as above
    del block
