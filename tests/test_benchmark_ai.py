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


@pytest.mark.parametrize("name", ["reducer.py", "_core.py"])
def test_the_code_digest_follows_the_engine_source(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The digest that stamps recorded games changes when an engine file changes: the value
    engine's, and the integer core's (the hard AI's rollouts run on it)."""
    from pathlib import Path

    before = ai.code_digest()
    assert before == ai.code_digest()
    real = Path.read_bytes

    def edited(self: Path) -> bytes:
        data = real(self)
        return data + b"# edited" if self.name == name else data

    monkeypatch.setattr(Path, "read_bytes", edited)
    assert ai.code_digest() != before


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
    stamp = json.loads(record.read_text().splitlines()[0])["stamp"]
    before = record.read_bytes()
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import json, sys; from pathlib import Path; from benchmarks.ai import Recorder;"
            f" r = Recorder(Path({str(record)!r}), json.loads({json.dumps(stamp)!r}));"
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
