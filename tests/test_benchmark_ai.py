"""The AI benchmark's report: rates per map that add up, with the best normal seat beside hard."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from benchmarks import ai, behaviour
from maps import available_maps


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


def test_a_recorded_run_resumes_and_refuses_other_settings(
    tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--record appends one line per game; a longer run with the same file plays only the
    games not recorded yet and reports over all of them; a line cut short by a crash is
    played again; a file written under another budget is refused."""
    record = tmp_path / "games.jsonl"
    tiny = "--json --maps paris --workers 1 --iterations 4 --time-cap-s 5 --modes 2p"
    assert ai.main(f"{tiny} --games 2 --record {record}".split()) == 0
    first = record.read_text().splitlines()
    assert sorted(json.loads(line)["seed"] for line in first) == [0, 1]
    for row in map(json.loads, first):  # each game's scores, hard's margin and its block
        hard, scores = row["hard_seat"], row["scores"]
        assert row["margin"] == scores[hard] - scores[1 - hard] and row["block"] == row["seed"]
    capsys.readouterr()

    # a crash in the middle of writing game 2's line
    record.write_text("\n".join(first) + '\n{"map": "paris", "sea')
    assert ai.main(f"{tiny} --games 3 --record {record}".split()) == 0
    out = capsys.readouterr().out.strip().splitlines()
    report = json.loads(out[-1])
    assert report["paris"]["games"] == 3
    assert report["settings"]["games_recorded_before"] == 2
    lines = record.read_text().splitlines()
    assert lines[:2] == first, "recorded games are kept as they were"
    assert json.loads(lines[-1])["seed"] == 2, "only the missing game was played"

    with pytest.raises(SystemExit, match="other code or settings"):
        ai.main(f"{tiny.replace('--iterations 4', '--iterations 5')} --record {record}".split())


#: A small digest for tests: one 2-player game, 4 rollouts per hard decision.
TINY = behaviour.DigestSpec(games=((2, 1, ("hard", "normal")),), iterations=4)


@pytest.fixture(autouse=True)
def tiny_digest(monkeypatch: pytest.MonkeyPatch) -> None:
    """Records in these tests are stamped with the tiny digest (seconds, not a minute)."""
    monkeypatch.setattr(behaviour, "SPEC", TINY)


def test_the_behaviour_digest_is_deterministic() -> None:
    """The same code gives the same digest: twice in one process, and in another process
    with another string hash seed (the hard AI plays by its budget, with no clock)."""
    import os
    import subprocess
    import sys

    first = behaviour.behaviour_digest("paris", TINY)
    assert behaviour.behaviour_digest("paris", TINY) == first
    assert len(first) == 16 and int(first, 16) >= 0
    code = (
        "from benchmarks import behaviour as b;"
        " print(b.behaviour_digest('paris', b.DigestSpec("
        "games=((2, 1, ('hard', 'normal')),), iterations=4)))"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True
    )
    assert out.stdout.strip() == first


def test_a_maps_digest_follows_its_own_games_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """A change that alters Amsterdam's games (here its route points, so its scores)
    changes Amsterdam's digest and leaves Paris's alone."""
    before = behaviour.behaviour_digests(["amsterdam", "paris"], TINY)
    real = behaviour.load_ruleset

    def changed(map_id: str) -> Any:
        rules = real(map_id)
        if map_id != "amsterdam":
            return rules
        import copy
        import dataclasses

        rules = copy.copy(rules)
        points = {n: p + 1 for n, p in rules.params.route_points.items()}
        rules.params = dataclasses.replace(rules.params, route_points=points)
        return rules

    monkeypatch.setattr(behaviour, "load_ruleset", changed)
    after = behaviour.behaviour_digests(["amsterdam", "paris"], TINY)
    assert after["paris"] == before["paris"]
    assert after["amsterdam"] != before["amsterdam"]


def test_games_of_older_code_count_by_the_behaviour_that_code_had(tmp_path) -> None:
    """A line stamped with a source digest counts when the file of known codes says that
    code had this map's current behaviour digest, and is refused when it had another;
    lines of maps outside the run are left alone."""
    digest = behaviour.behaviour_digest("paris", TINY)
    stamp = ai.Stamp(4, 5.0, {"paris": digest})
    old = {"iterations": 4, "time_cap_s": 5.0, "code": "0123456789abcdef"}
    assert stamp.accepts("paris", old, {"0123456789abcdef": {"paris": digest}})
    assert not stamp.accepts("paris", old, {"0123456789abcdef": {"paris": "f" * 16}})
    assert not stamp.accepts("paris", old, {})
    assert not stamp.accepts("paris", {**old, "iterations": 5}, {old["code"]: {"paris": digest}})
    assert stamp.accepts("paris", stamp.line("paris"))
    assert not stamp.accepts("usa", stamp.line("paris"))

    record = tmp_path / "games.jsonl"
    row = {"seats": 2, "seed": 0, "hard_seat": 0, "place": 1, "times": [0.1]}
    lines = [
        {"map": "paris", **row, "stamp": stamp.line("paris")},
        {"map": "usa", **row, "stamp": {"code": "elsewhere"}},
    ]
    record.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert ai.read_record(record, stamp) == [("paris", 2, 0, 0, 1, [0.1])]
    stale = ai.Stamp(4, 5.0, {"paris": digest, "usa": "0" * 16})
    with pytest.raises(SystemExit, match="other code or settings"):
        ai.read_record(record, stale)


def test_the_cap_clock_is_part_of_the_stamp(tmp_path) -> None:
    """A game whose cap was read on the CPU clock says so in its stamp and counts only for a
    run on that clock, and a wall-clock game (no key: every line written before the
    option) only for a wall-clock run, so a report never mixes the two."""
    digest = behaviour.behaviour_digest("paris", TINY)
    wall = ai.Stamp(4, 5.0, {"paris": digest})
    cpu = ai.Stamp(4, 5.0, {"paris": digest}, "cpu")
    assert "cap_clock" not in wall.line("paris")
    assert cpu.line("paris")["cap_clock"] == "cpu"
    assert cpu.accepts("paris", cpu.line("paris")) and wall.accepts("paris", wall.line("paris"))
    assert not cpu.accepts("paris", wall.line("paris"))
    assert not wall.accepts("paris", cpu.line("paris"))
    record = tmp_path / "games.jsonl"
    row = {"map": "paris", "seats": 2, "seed": 0, "hard_seat": 0, "place": 1, "times": [0.1]}
    record.write_text(json.dumps({**row, "stamp": wall.line("paris")}) + "\n")
    with pytest.raises(SystemExit, match="other code or settings"):
        ai.read_record(record, cpu)


def test_a_game_on_the_cpu_clock_times_hard_in_cpu_seconds(monkeypatch) -> None:
    """``play_one`` hands hard the clock asked for and times its decisions on it: with the
    CPU clock replaced by one that stands still, every decision takes 0 s."""
    monkeypatch.setitem(ai.CLOCKS, "cpu", lambda: 7.0)
    map_id, seats, place, times, scores = ai.play_one("paris", 2, 3, 0, 6, 5.0, "cpu")
    assert (map_id, seats) == ("paris", 2) and place in (0, 1, None)
    assert times and set(times) == {0.0}
    assert len(scores) == 2 and (place is None) == (scores[0] == scores[1])
    _, _, _, wall_times, _ = ai.play_one("paris", 2, 3, 0, 6, 5.0, "wall")
    assert len(wall_times) == len(times) and max(wall_times) > 0.0


def test_the_committed_record_is_stamped_by_code_of_known_behaviour() -> None:
    """Every game of the AI record in the README was played by code whose behaviour
    digests are written down (results/behaviour-of-code.json, made with
    tools/behaviour_at.py at that code's commit), for its map."""
    known = ai.code_behaviour()
    path = Path(ai.__file__).parent / "results" / "ai-hard-vs-normal-core.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(rows) == 2000
    for row in rows:
        stamp = row["stamp"]
        assert (stamp["iterations"], stamp["time_cap_s"]) == (240, 1.4)
        assert len(known[stamp["code"]][row["map"]]) == 16


def test_one_run_records_to_a_file_and_report_reads_it_meanwhile(
    tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    """While another process records to the file, a second recording run is refused and
    --report prints the recorded games without playing any (the file is left as it was)."""
    import subprocess
    import sys

    record = tmp_path / "games.jsonl"
    tiny = "--json --maps paris --workers 1 --iterations 4 --time-cap-s 5 --modes 2p"
    assert ai.main(f"{tiny} --games 1 --record {record}".split()) == 0
    capsys.readouterr()
    before = record.read_bytes()
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from pathlib import Path; from benchmarks.ai import Recorder, Stamp;"
            f" r = Recorder(Path({str(record)!r}), Stamp(4, 5.0, {{}}));"
            " print('locked', flush=True); sys.stdin.read()",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        with pytest.raises(SystemExit, match="another run is recording"):
            ai.main(f"{tiny} --games 2 --record {record}".split())
        assert ai.main(f"{tiny} --games 50 --record {record} --report".split()) == 0
    finally:
        holder.communicate("", timeout=30)
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert report["paris"]["games"] == 1
    assert record.read_bytes() == before


def test_the_ai_benchmark_covers_every_offered_map() -> None:
    """Europe included: the record plays every map the bot offers."""
    assert set(ai.MAPS) == set(available_maps())


def _rate(rows: list[dict[str, Any]], map_id: str, two: bool) -> str:
    """Hard's share of ``rows``' games of ``map_id`` (2 players, or more) as the README
    writes it: ``.67 [.60, .73] of 200`` (2 players), ``.45 of 200`` (more)."""
    games = [r for r in rows if r["map"] == map_id and (r["seats"] == 2) == two]
    won = sum(r["place"] == 0 for r in games)

    def short(x: float) -> str:
        return f"{x:.2f}".lstrip("0")

    if not two:
        return f"{short(won / len(games))} of {len(games)}"
    lo, hi = ai.wilson(won, len(games))
    return f"{short(won / len(games))} [{short(lo)}, {short(hi)}] of {len(games)}"


def test_the_readmes_ai_table_is_what_the_record_files_say() -> None:
    """Each row of the README's table of hard against normal is what its record files give
    (as ``--report`` prints them): 2 players from the row's record, 4 players from the
    2,000-game record (Europe: its own file of before)."""
    results = Path(ai.__file__).parent / "results"

    def rows(name: str) -> list[dict[str, Any]]:
        text = (results / name).read_text(encoding="utf-8")
        return [json.loads(line) for line in text.splitlines()]

    core = rows("ai-hard-vs-normal-core.jsonl")
    readme = (Path(ai.__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    table = {
        cells[0]: cells[1:]
        for line in readme.splitlines()
        if line.startswith("| ")
        and (cells := [c.strip() for c in line.strip("|").split("|")])[-1].startswith("`ai-")
    }
    names = {"usa": "USA", "nordic": "Nordic (3 players)", "europe": "Europe"}
    assert len(table) == 6
    for map_id in ("usa", "germany", "nordic", "amsterdam", "paris", "europe"):
        two_p, many_p, record = table[names.get(map_id, map_id.title())]
        newest = rows(record.strip("`"))
        assert two_p == _rate(newest, map_id, True), map_id
        old = core if map_id != "europe" else rows("ai-hard-vs-normal-europe-cpu.jsonl")
        assert many_p.split(",")[0] == _rate(old, map_id, False), map_id
