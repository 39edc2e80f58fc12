"""The demo (the project's main job) end to end, as a user runs it: ``python -m bot demo``."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def demo(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "demo", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_demo_plays_a_whole_game_and_writes_result_json(tmp_path):
    """Exit 0, a turn log, a score table, result.json of the documented shape whose breakdowns sum up."""
    out = tmp_path / "out"
    proc = demo(
        "--map", "usa", "--players", "4", "--seed", "7", "--out", str(out),
        "--analysis-rollouts", "8",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert (
        "claimed" in proc.stdout
        and "Final scores" in proc.stdout
        and "matches the snapshot" in proc.stdout
    )
    doc = json.loads((out / "result.json").read_text())
    assert doc["map"] == "usa" and doc["seed"] == 7 and doc["turns"] > 20
    assert [s["seat"] for s in doc["seats"]] == [0, 1, 2, 3]
    for s in doc["seats"]:
        assert s["score"] == sum(s["breakdown"].values())
        assert {"routes", "tickets", "longest_path"} <= set(s["breakdown"])
    best = max(s["score"] for s in doc["seats"])
    assert all(doc["seats"][w]["score"] == best for w in doc["winner"])
    with sqlite3.connect(out / "ttr.sqlite3") as db:
        status, version = db.execute("SELECT status, version FROM games").fetchone()
        (logged,) = db.execute("SELECT COUNT(*) FROM actions").fetchone()
    assert status == "finished" and version == logged > 0
    # a handful of boards sized for people: the start, every tenth turn, the final image, the board
    # 500 px wide, the first seat's hand and the recap
    boards = sorted(out.glob("board-[0-9]*.png"))
    assert {p.name for p in boards} == {f"board-{n}.png" for n in range(0, doc["turns"], 10)}, [
        p.name for p in boards
    ]
    assert (out / "final.png").is_file()
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in [*boards[:3], out / "final.png"])
    for name in ("board-phone.png", "hand.png"):
        assert (out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (out / "recap.gif").read_bytes()[:6] == b"GIF89a"
    # the analysis after the game: a chart, a chance per seat per turn, at most three
    # turning points printed and stored, each a change of ten points or more
    (chart,) = [p for p in out.glob("*.png") if "analysis" in p.name]
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    analysis = doc["analysis"]
    names = [s["name"] for s in doc["seats"]]
    chances = analysis["win_chance"]
    assert sorted(chances) == sorted(names)
    turns = len(analysis["turns"])
    assert turns == doc["turns"] + 1 and all(len(c) == turns for c in chances.values())
    for i in range(turns):
        assert sum(c[i] for c in chances.values()) == pytest.approx(1.0, abs=1e-9)
    for w in doc["winner"]:
        assert chances[names[w]][-1] == pytest.approx(1 / len(doc["winner"]))
    points = analysis["turning_points"]
    assert len(points) <= 3
    for point in points:
        assert point["text"].startswith(f"Turn {point['turn']}: ") and point["text"] in proc.stdout
        assert point["change"] == pytest.approx(point["after"] - point["before"], abs=1e-4)
        assert abs(point["change"]) >= 0.1 - 1e-4
        seat = chances[point["seat"]]
        assert seat[analysis["turns"].index(point["turn"])] == pytest.approx(point["after"])
    assert [s["hints"] for s in doc["seats"]] == [0, 0, 0, 0] and "hints" in proc.stdout
    # the operator tools agree: every stored game replays to its snapshot; the export has the whole log
    verify = subprocess.run(
        [sys.executable, "-m", "bot", "verify", "--db", str(out / "ttr.sqlite3")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert verify.returncode == 0 and "1 games checked, 0 mismatches" in verify.stdout
    export = subprocess.run(
        [sys.executable, "-m", "bot", "export", "--db", str(out / "ttr.sqlite3"), "--game", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert export.returncode == 0 and len(json.loads(export.stdout)["actions"]) == logged
    # a backup of the demo's database is one file that passes verify on its own
    backup = subprocess.run(
        [sys.executable, "-m", "bot", "backup", "--db", str(out / "ttr.sqlite3")]
        + ["--to", str(tmp_path / "backups"), "--verify"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert backup.returncode == 0, backup.stderr
    (copy,) = (tmp_path / "backups").iterdir()
    assert copy.name.startswith("ttr-") and copy.suffix == ".sqlite3"
    verify = subprocess.run(
        [sys.executable, "-m", "bot", "verify", "--db", str(copy)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert verify.returncode == 0 and "1 games checked, 0 mismatches" in verify.stdout
    with sqlite3.connect(copy) as db:
        assert db.execute("SELECT COUNT(*) FROM actions").fetchone() == (logged,)


def test_demo_same_seed_same_game(tmp_path):
    """Two runs with one seed write identical result.json; another seed gives another game."""
    docs = []
    for i, seed in enumerate(("11", "11", "12")):
        out = tmp_path / str(i)
        assert (
            demo(
                "--players",
                "3",
                "--seed",
                seed,
                "--out",
                str(out),
                "--every",
                "1000",
                "--analysis-rollouts",
                "8",
            ).returncode  # fmt: skip
            == 0
        )
        docs.append((out / "result.json").read_text())
    assert docs[0] == docs[1] != docs[2]


@pytest.mark.parametrize(
    "args,needle",
    [
        (("--map", "atlantis"), "unknown map"),
        (("--players", "6"), "2-5 players"),
        (("--players", "1"), "2-5 players"),
    ],
)
def test_demo_refuses_unknown_map_or_player_count(tmp_path, args, needle):
    """Unknown maps and player counts exit with code 2 and a clear message, creating nothing."""
    out = tmp_path / "out"
    proc = demo(*args, "--out", str(out))
    assert proc.returncode == 2 and needle in proc.stderr
    assert not out.exists()


def test_demo_ai_levels_per_seat_and_refusal(tmp_path):
    """--ai easy,hard seats an easy and a hard AI (named so); an unknown level exits with 2."""
    out = tmp_path / "out"
    proc = demo(
        "--map", "amsterdam", "--players", "2", "--ai", "easy,hard", "--out", str(out),
        "--analysis-rollouts", "8",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "AI 1 (easy)" in proc.stdout and "AI 2 (hard)" in proc.stdout
    db = sqlite3.connect(out / "ttr.sqlite3")
    try:
        kinds = [k for (k,) in db.execute("SELECT ai_kind FROM seats ORDER BY seat")]
    finally:
        db.close()
    assert kinds == ["easy", "hard"]
    wrong = demo("--ai", "wizard", "--out", str(tmp_path / "no"))
    assert wrong.returncode == 2 and "easy, normal, hard" in wrong.stderr


def test_demo_tells_the_game_in_the_channels_words(tmp_path):
    """The console speaks through the catalogs as the channel does (sentences.stories, with the catalogs'
    plural rules), in --language: the same sentences, without Discord's bold marks."""
    en = demo(
        "--map", "usa", "--players", "2", "--seed", "7", "--out", str(tmp_path / "en"),
        "--analysis-rollouts", "8",
    )  # fmt: skip
    de = demo(
        "--map", "usa", "--players", "2", "--seed", "7", "--out", str(tmp_path / "de"),
        "--language", "de", "--analysis-rollouts", "8",
    )  # fmt: skip
    assert en.returncode == 0 and de.returncode == 0, en.stderr + de.stderr
    assert "Start " in en.stdout and "Turn 1 " in en.stdout and "**" not in en.stdout
    assert " for 1 point." in en.stdout and " points." in en.stdout
    assert "Aufbau " in de.stdout and "Zug 1 " in de.stdout and "Endstand nach" in de.stdout
    assert " (+1 Punkt)." in de.stdout and " Punkte)." in de.stdout
    assert "A turning point is a move" in en.stdout  # the analysis too
    assert "Ein entscheidender Zug ist" in de.stdout
    assert "Tipps" in de.stdout and "hints" in en.stdout  # the score table's hint column
    # the same game: as many told turns in both languages
    assert en.stdout.count("\nTurn ") == de.stdout.count("\nZug ") > 20
    assert demo("--language", "fr", "--out", str(tmp_path / "fr")).returncode == 2


def test_demo_games_in_one_database_build_a_rating_table_that_a_replay_rebuilds(tmp_path):
    """Demo games are rated (the server's default): played into one database they build its
    table of the computer levels; 'bot ratings --recompute' replays the stored results to the
    same table and JSON, and verify checks it."""
    db = tmp_path / "ladder.sqlite3"
    runs = (("1", "hard,normal,easy", "3"), ("2", "easy,normal", "2"), ("3", "normal,easy", "2"))
    for seed, levels, players in runs:
        proc = demo(
            "--map", "amsterdam", "--players", players, "--seed", seed, "--ai", levels,
            "--database-url", f"sqlite:///{db}", "--out", str(tmp_path / seed), "--every", "1000",
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        assert "Ratings" in proc.stdout and "AI (easy): " in proc.stdout
        shifts = json.loads((tmp_path / seed / "result.json").read_text())["ratings"]
        assert len(shifts) == int(players) and all(s["provisional"] for s in shifts)

    def ratings(*extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "bot", "ratings", "--db", str(db), "--json", *extra],
            cwd=ROOT, capture_output=True, text=True, timeout=120,
        )  # fmt: skip

    stored, rebuilt = ratings(), ratings("--recompute")
    assert stored.returncode == rebuilt.returncode == 0, stored.stderr + rebuilt.stderr
    assert stored.stdout == rebuilt.stdout and "exactly the stored ratings" in rebuilt.stderr
    [server] = json.loads(stored.stdout.splitlines()[-1])["servers"]
    overall = server["seasons"][0]["tables"][0]
    assert overall["scope"] == "overall"
    assert {r["player"]: r["games"] for r in overall["rows"]} == {
        "ai:hard": 1, "ai:normal": 3, "ai:easy": 3
    }  # fmt: skip
    for level in ("AI (hard)", "AI (normal)", "AI (easy)"):
        assert level in stored.stdout
    verify = subprocess.run(
        [sys.executable, "-m", "bot", "verify", "--db", str(db)],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert verify.returncode == 0 and "3 games checked, 0 mismatches" in verify.stdout
