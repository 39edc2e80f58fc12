"""The memory benchmark: the total size of a bot process and its AI workers, after every game."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from benchmarks import memory


def test_each_bot_reports_itself_and_its_workers_after_every_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Two maps, one game each, a tiny search budget: each map's bot and the bot that plays
    both report one total per game, counted over the bot and its helper processes (hard
    seats are decided in a worker), none below the size it started with less 10 %, a peak
    no smaller than any of them, PSS within RSS, the event loop's lag and the hard AI's
    decisions through the worker."""
    argv = "--json --games 1 --maps paris,amsterdam --workers 2 --iterations 4 --time-cap-s 5"
    assert memory.main(argv.split()) == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert set(report) == {"paris", "amsterdam", "all", "settings"}
    for key, games in (("paris", 1), ("amsterdam", 1), ("all", 2)):
        r = report[key]
        assert r["games"] == games == len(r["after_game_mb"]) == len(r["after_game_rss_mb"])
        assert r["start_mb"] > 10
        assert min(r["after_game_mb"]) >= r["start_mb"] * 0.9
        assert r["peak_mb"] >= max(r["after_game_mb"])
        # the bot, its AI worker and the resource tracker that comes with the worker pool
        assert r["worker_pools"] >= 1 and r["processes"] >= 3
        assert r["bot_rss_mb"] < max(r["after_game_rss_mb"])  # the total counts more
        assert r["start_mb"] <= r["start_rss_mb"] and r["peak_mb"] <= r["peak_rss_mb"]
        assert 0 <= r["loop_lag_ms"]["p50"] <= r["loop_lag_ms"]["p99"] <= r["loop_lag_ms"]["max"]
        moves = r["ai_move_s"]  # every hard decision timed, through the worker
        assert moves["n"] >= 10 * games and 0 < moves["p50"] <= moves["p99"] <= moves["max"]


def test_sizes_are_read_from_this_process() -> None:
    """Allocating 64 MiB and touching it shows in the current size and the peak."""
    before = memory.resident_mib()
    block = bytearray(64 * 1024 * 1024)
    block[::4096] = b"x" * len(block[::4096])
    assert memory.resident_mib() - before > 50
    assert memory.peak_mib() >= memory.resident_mib() - 3  # the kernel's lag, as above
    del block


def test_the_total_counts_child_processes() -> None:
    """A child process holding 64 MiB adds about that much to this process's total, and is
    counted as a process of its own."""
    rss, _, count = memory.tree_mib()
    code = "b = bytearray(64 << 20); b[::4096] = b'x' * len(b[::4096]); import time; time.sleep(30)"
    child = subprocess.Popen([sys.executable, "-c", code])
    try:
        for _ in range(100):
            grown, _, counted = memory.tree_mib()
            if grown - rss > 60:
                break
            time.sleep(0.1)
        assert grown - rss > 60 and counted == count + 1
    finally:
        child.kill()
        child.wait()


def test_the_loop_lag_record_stays_small_and_reads_its_percentiles() -> None:
    """The event loop's lags are counted per 0.1 ms, not kept one by one (a long run's list
    grew with every wake and counted as the bot's growth): a million wakes of a few lags
    stay a few entries, and the percentiles are those of the sorted lags."""
    lag = memory._LoopLag()
    for i in range(1, 101):  # 0.1 ms .. 10.0 ms
        lag.add(i / 10_000)
    assert lag.summary() == {"p50": 5.1, "p99": 10.0, "max": 10.0}
    many = memory._LoopLag()
    for _ in range(1_000_000):
        many.add(0.0012)
    many.add(-0.001)  # woken early: no lag
    assert len(many.counts) == 2
    assert many.summary() == {"p50": 1.2, "p99": 1.2, "max": 1.2}
    assert memory._LoopLag().summary() == {"p50": 0.0, "p99": 0.0, "max": 0.0}


def test_a_timed_run_samples_the_bot_its_database_and_its_c_heap(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--minutes``: only ``all`` runs, and its first game is sampled with the bot's own
    size, its objects, the database's size and the bot's C heap (glibc here)."""
    argv = "--json --minutes 0.01 --maps paris --workers 1 --iterations 4 --time-cap-s 5"
    assert memory.main(argv.split()) == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert set(report) == {"all", "settings"}
    first = report["all"]["samples"][0]
    minutes, pss, rss, bot_pss, bot_rss, objects, db, in_use, free, mapped = first
    assert 0 <= minutes < 1 and 0 < bot_pss <= pss <= rss and bot_pss <= bot_rss <= rss
    assert objects > 10_000 and 0 < db < 50
    assert in_use > 0 and free >= 0 and mapped >= 0


def test_the_c_heap_shows_c_allocations() -> None:
    """Buffers allocated by C (ctypes, below glibc's mmap threshold) raise ``in use`` by
    about their size, and freeing them lowers it again."""
    import ctypes

    from bot.process.malloc import heap_mib

    before = heap_mib()
    assert before is not None  # glibc on every machine the tests run on
    buffers = [ctypes.create_string_buffer(16 * 1024) for _ in range(640)]  # 10 MiB
    grown = heap_mib()
    assert grown is not None and grown[0] - before[0] > 9
    del buffers
    after = heap_mib()
    assert after is not None and grown[0] - after[0] > 9
