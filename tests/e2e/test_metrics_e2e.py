"""The metrics move as a game is played (issue 36 point 3): the real bot process with
``TTR_METRICS_PORT`` against the fake Discord plays a USA game's setup and turns against a
computer seat, one public post refused (403); ``/metrics`` then shows the actions by source,
the AI's decisions, commands, clicks and autocompletes, the images, the storage calls, the
refused post and the active game, and no label value from outside the fixed sets (no id)."""

from __future__ import annotations

import asyncio
import re
import socket
import sys
import time
from pathlib import Path

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from bot.process import metrics

from ..cogs._driver import TIMEOUT, Player, _keep_offered, _play_turn
from .fake_discord import BotProcess, FakeDiscord, SentMessage

ROOT = Path(__file__).resolve().parents[2]
#: Every label of the bot's own metrics and the values it may take.
LABELS: dict[str, set[str]] = {
    "status": set(metrics.GAME_STATUSES) | {str(s) for s in range(100, 600)},
    "source": set(metrics.ACTION_SOURCES.values()),
    "kind": set(metrics.INTERACTION_KINDS) | set(metrics.IMAGE_KINDS),
    "level": set(metrics.AI_LEVELS),
    "operation": set(metrics.STORAGE_OPERATIONS),
    "reason": set(metrics.RECONNECT_REASONS),
    "le": set(),  # histogram buckets: numbers, checked apart
}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _scrape(http: aiohttp.ClientSession) -> tuple[dict[str, float], str]:
    async with http.get("/metrics") as r:
        assert r.status == 200
        text = await r.text()
    values: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            if s.name.startswith("ttr_"):
                for key, value in s.labels.items():
                    assert key in LABELS, (s.name, key)
                    if key == "le":
                        float(value)
                    else:
                        assert value in LABELS[key] | {metrics.OTHER}, (s.name, key, value)
            labels = "".join(f"{{{k}={v}}}" for k, v in sorted(s.labels.items()) if k != "le")
            if "le" not in s.labels:
                values[s.name + labels] = s.value
    return values, text


async def _turn_message(fake: FakeDiscord, player: Player, since: int) -> SentMessage:
    mine = re.compile(rf"<@!?{player.user.id}>")
    return await fake.wait_for_message(
        lambda m: m.kind == "channel" and bool(mine.search(m.content)) and bool(m.custom_ids),
        since=since,
        timeout=TIMEOUT,
    )


async def test_metrics_move_as_a_game_is_played(tmp_path: Path) -> None:
    port = _free_port()
    async with FakeDiscord(member_names=("alice", "bob")) as fake:
        env = {
            "TTR_DATABASE_PATH": str(tmp_path / "ttr.sqlite3"),
            "TTR_METRICS_PORT": str(port),
            "TTR_METRICS_HOST": "127.0.0.1",
        }
        bot = BotProcess(fake, [sys.executable, "-m", "bot"], env=env, cwd=str(ROOT))
        try:
            await bot.start(timeout=TIMEOUT)
            await fake.wait_for_commands("ttr new", "ttr hand", timeout=TIMEOUT)
            async with aiohttp.ClientSession(f"http://127.0.0.1:{port}") as http:
                before, _ = await _scrape(http)
                alice = Player(fake, "alice", "games")
                await alice.slash("new", {"map": "usa", "turn_time": "24h"})
                await alice.slash("add_ai")
                seen = len(fake.sent)
                await alice.slash("start")
                hand = await alice.slash("hand")
                await _keep_offered(alice, hand)
                for n in (1, 2):
                    message = await _turn_message(fake, alice, seen)
                    seen = len(fake.sent)
                    await _play_turn(alice, message, n)
                # Discord refuses the next public post once (403): the funnel counts it
                message = await _turn_message(fake, alice, seen)
                seen = len(fake.sent)
                fake.fail("POST", r"/channels/\d+/messages", 403, 50013, message="Missing Access")
                await _play_turn(alice, message, 3)
                await _turn_message(fake, alice, seen)  # posted again without the image
                await alice.slash("board")

                deadline = time.monotonic() + 15
                after, text = await _scrape(http)
                while after.get("ttr_games{status=active}") != 1:  # counted every 5 s
                    assert time.monotonic() < deadline, after
                    await asyncio.sleep(0.5)
                    after, text = await _scrape(http)
        except BaseException:
            print(bot.output()[-6000:])
            raise
        finally:
            await bot.close()

    def moved(name: str) -> float:
        return after.get(name, 0.0) - before.get(name, 0.0)

    assert moved("ttr_actions_total{source=player}") >= 4  # tickets kept, three turns
    assert moved("ttr_actions_total{source=ai}") >= 4  # its tickets and its turns
    assert moved("ttr_actions_total{source=clock}") == 0
    assert moved("ttr_ai_decision_seconds_count{level=normal}") == moved(
        "ttr_actions_total{source=ai}"
    )
    assert moved("ttr_interaction_seconds_count{kind=command}") >= 7
    assert moved("ttr_interaction_seconds_count{kind=component}") >= 1
    assert moved("ttr_interaction_seconds_count{kind=autocomplete}") >= 3
    assert moved("ttr_render_seconds_count{kind=board}") >= 4  # the start, turns, /ttr board
    assert moved("ttr_render_seconds_count{kind=hand}") >= 1
    assert moved("ttr_storage_seconds_count{operation=write}") >= 6
    assert moved("ttr_storage_seconds_count{operation=read}") >= 10
    assert moved("ttr_discord_errors_total{status=403}") == 1
    assert after["ttr_games{status=active}"] == 1 and after["ttr_games{status=lobby}"] == 0
    assert after["ttr_ready"] == 1 and after["ttr_discord_failed_attempts"] == 0
    # no id of the game, its channel or its players anywhere in the answer
    ids = {str(fake.user(n).id) for n in ("alice", "bob")} | {str(fake.channel("games").id)}
    assert not [i for i in ids if i in text]
