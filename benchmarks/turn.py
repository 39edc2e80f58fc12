"""Turn latency through the real service and storage, throughput, and restart time.

``python -m benchmarks turn [--json] [--games 1000] [--active 100] [--restart-games 10000]``

- ``turn_p50_ms``/``turn_p99_ms``: one player action through ``GameService.act``
  (lock, load the row, decode, apply, encode, one SQLite transaction) on a
  database holding ``--games`` games; ``turn_render_*``: the same plus the board
  PNG of the new public view (when the renderer is installed); ``phone_render_p99_ms``
  and ``zoom_render_p99_ms``: the 500 px board and a two-city zoom of the same view
  (render and encode only).
- ``actions_per_s``: player actions per second through ``act`` over ``--active``
  two-player games played at once (the players' choices are made off the clock).
- ``restart_s``: open a database holding ``--restart-games`` started games and
  serve (migrations checked, the timer query answered, one game's views read).

Goals on the project's 2-core machine (issue 6): turn p99 <= 150 ms with the
render, >= 500 actions/s without it, restart <= 2 s with 10,000 games.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.host.services import GameService
from bot.host.storage import NewSeat, open_storage
from engine import ENGINE_VERSION, new_game
from engine.ai import choose_action
from engine.codec import encode_state
from maps.loader import available_maps, load_ruleset

HUMAN = 1


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


async def _fill(service: GameService, count: int, maps: list[str]) -> list[int]:
    """``count`` started games: one human seat (user HUMAN) against one AI seat."""
    ids = []
    for i in range(count):
        game = await service.create(
            guild_id=1,
            channel_id=100_000 + i,
            host_id=HUMAN,
            host_name="p",
            map_id=maps[i % len(maps)],
            turn_seconds=86_400,
        )
        await service.add_ai(game.id, HUMAN)
        await service.start(game.id, HUMAN)
        ids.append(game.id)
    return ids


async def _timed_turns(
    service: GameService, ids: list[int], renderer: Any
) -> tuple[list[float], list[float]]:
    plain, rendered = [], []
    layouts: dict[str, Any] = {}
    for gid in ids:
        game = await service.storage.get_game(gid)
        state = await service.game_state(gid)
        if state.finished or 0 not in state.seats_to_act():
            continue
        action = choose_action(load_ruleset(game.map_id), state, 0, "random")
        t0 = time.perf_counter()
        await service.act(gid, HUMAN, action, expected_version=None)
        t1 = time.perf_counter()
        plain.append((t1 - t0) * 1000)
        if renderer is not None:
            views = await service.table(gid, 0)
            layout = layouts.get(game.map_id) or layouts.setdefault(
                game.map_id, renderer.load_layout(game.map_id)
            )
            await asyncio.to_thread(renderer.render_board_png, layout, views.public)
            rendered.append((time.perf_counter() - t0) * 1000)
            if hasattr(renderer, "render_phone_png"):  # the 500 px board and a zoom, issue 15
                t2 = time.perf_counter()
                await asyncio.to_thread(renderer.render_phone_png, layout, views.public)
                PHONE.append((time.perf_counter() - t2) * 1000)
                cities = list(layout.cities)[:2]
                t3 = time.perf_counter()
                await asyncio.to_thread(
                    renderer.render_zoom_png, layout, views.public, cities=cities
                )
                ZOOM.append((time.perf_counter() - t3) * 1000)
    return plain, rendered


#: Render times (ms) of the phone board and of a zoom after each timed turn.
PHONE: list[float] = []
ZOOM: list[float] = []


async def _restart(path: Path, count: int) -> float:
    storage = await open_storage(path)
    rules = load_ruleset("usa")
    snapshot = encode_state(new_game(rules, seats=2, seed=1))
    for i in range(count):
        game = await storage.create_game(
            guild_id=1,
            channel_id=500_000 + i,
            host_user_id=HUMAN,
            map_id="usa",
            seats=[
                NewSeat("p", user_id=HUMAN, seat=0),
                NewSeat("ai", is_ai=True, ai_kind="heuristic", seat=1),
            ],
        )
        await storage.start_game(
            game.id,
            seed=1,
            snapshot=snapshot,
            engine_version=ENGINE_VERSION,
            deadline_at=time.time() + 86_400 + i,
            reminder_at=None,
        )
    await storage.close()
    t0 = time.perf_counter()
    storage = await open_storage(path)
    service = GameService(storage)
    await storage.next_deadline()
    await service.table(count // 2, HUMAN)
    elapsed = time.perf_counter() - t0
    await storage.close()
    return elapsed


async def _main(args: argparse.Namespace) -> dict[str, Any]:
    try:
        import render

        renderer = render if hasattr(render, "render_board_png") else None
    except ImportError:
        renderer = None
    maps = available_maps()
    if renderer is not None:
        renderer.warm_up(maps)  # as the bot does at start: static layers are built once per map
    with tempfile.TemporaryDirectory() as tmp:
        storage = await open_storage(Path(tmp) / "bench.sqlite3")
        service = GameService(storage)
        t0 = time.perf_counter()
        ids = await _fill(service, args.games, maps)
        fill_s = time.perf_counter() - t0
        active = ids[: args.active]
        plain, rendered = [], []
        for _ in range(3):
            p, r = await _timed_turns(service, active, renderer)
            plain += p
            rendered += r
        # throughput: games of two human seats; the players' choices are made before the clock runs
        pairs = []
        for i in range(args.active):
            game = await service.create(
                guild_id=1,
                channel_id=900_000 + i,
                host_id=HUMAN,
                host_name="p",
                map_id=maps[i % len(maps)],
            )
            await service.join(game.id, HUMAN + 1, "q")
            await service.start(game.id, HUMAN)
            pairs.append(game.id)
        count, spent = 0, 0.0
        for _ in range(10):
            moves = []
            for gid in pairs:
                game = await storage.get_game(gid)
                state = await service.game_state(gid)
                if not state.finished:
                    seat = state.seats_to_act()[0]
                    moves.append(
                        (
                            gid,
                            HUMAN + seat,
                            choose_action(load_ruleset(game.map_id), state, seat, "random"),
                        )
                    )
            t0 = time.perf_counter()
            await asyncio.gather(
                *(
                    service.act(gid, user, action, expected_version=None)
                    for gid, user, action in moves
                )
            )
            spent += time.perf_counter() - t0
            count += len(moves)
        await storage.close()
        restart_s = await _restart(Path(tmp) / "restart.sqlite3", args.restart_games)
    return {
        "games": args.games,
        "fill_s": round(fill_s, 2),
        "turn_p50_ms": round(statistics.median(plain), 2),
        "turn_p99_ms": round(_pct(plain, 0.99), 2),
        "turn_render_p50_ms": round(statistics.median(rendered), 2) if rendered else None,
        "turn_render_p99_ms": round(_pct(rendered, 0.99), 2) if rendered else None,
        "phone_render_p99_ms": round(_pct(PHONE, 0.99), 2) if PHONE else None,
        "zoom_render_p99_ms": round(_pct(ZOOM, 0.99), 2) if ZOOM else None,
        "actions_per_s": round(count / spent, 1),
        "restart_games": args.restart_games,
        "restart_s": round(restart_s, 3),
    }


def main(argv: list[str]) -> int:
    """Run the benchmark; print a table and, with --json, one JSON object last."""
    ap = argparse.ArgumentParser(prog="python -m benchmarks turn")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--active", type=int, default=100)
    ap.add_argument("--restart-games", type=int, default=10_000)
    args = ap.parse_args(argv)
    result = asyncio.run(_main(args))
    for key, value in result.items():
        print(f"{key:<22}{value}")
    if args.json:
        print(json.dumps(result))
    return 0
