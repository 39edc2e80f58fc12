"""The demo, the project's main job: a whole game between built-in AI seats, no Discord needed.

``python -m bot demo [--map usa] [--players 4] [--seed 7] [--out DIR] [--every N]
[--db PATH | --database-url URL]``
creates the game through the bot's own :class:`~bot.services.GameService` on a
real SQLite file ``DIR/ttr.sqlite3``; every AI action goes through the service
(engine, then the action with its snapshot in one transaction), and the demo prints a readable turn log and the final
score table, writes ``DIR/result.json`` and, when the renderer is installed,
board images. At the end the stored action log is replayed from the seed and
compared with the stored snapshot. The same seed gives the same game.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.ai import AI_LEVELS
from engine.events import Event
from maps import MapError, UnknownMap, available_maps, load_ruleset


def _cards(d: dict[str, int]) -> str:
    return ", ".join(f"{n} {c}" for c, n in sorted(d.items()))


def describe(rules: Any, events: list[Event], names: list[str]) -> list[str]:
    """Readable public lines for one action's events (no hidden information)."""
    board = rules.board
    words = rules.meta.get("words", {}).get("en", {})
    lines: list[str] = []
    for e in events:
        who = names[e.seat] if e.seat is not None else ""
        p = e.public
        if e.kind == "card_drawn":
            lines.append(
                f"{who} drew {'a face-up ' + p['color'] if p['source'] == 'face_up' else 'a card from the deck'}"
            )
        elif e.kind == "route_claimed":
            lines.append(
                f"{who} claimed {board.route_name(p['route'])} ({_cards(p['payment'])}) +{p['points']}"
            )
        elif e.kind == "tickets_kept":
            lines.append(
                f"{who} kept {p['kept']} of {p['kept'] + p['returned']} {words.get('tickets', 'tickets')}"
            )
        elif e.kind == "tunnel_revealed":
            lines.append(
                f"{who} tries the tunnel {board.route_name(p['route'])}: revealed {', '.join(p['revealed']) or 'nothing'}, {p['extra']} more"
            )
        elif e.kind == "tunnel_abandoned":
            lines.append(f"{who} abandoned the tunnel {board.route_name(p['route'])}")
        elif e.kind == "merchandise_drawn":
            lines.append(f"{who} took a merchandise card ({p['left']} left)")
        elif e.kind == "flag_card_kept":
            lines.append(f"{who} set aside a {p['color']} card for a French flag")
        elif e.kind == "flag_scored":
            lines.append(f"{who} completed a French flag +{p['points']}")
        elif e.kind == "face_up_reset":
            lines.append("three face-up locomotives: the row is dealt again")
        elif e.kind == "last_round":
            lines.append(
                f"*** last round: {who} has {p['pieces']} {words.get('pieces', 'trains')} left ***"
            )
        elif e.kind == "passed":
            lines.append(f"{who} cannot do anything and passes")
    return lines


def _renderer() -> Any:
    """The renderer module when it offers board images, else None (the demo works without it)."""
    try:
        import render
    except ImportError:
        return None
    return render if hasattr(render, "render_board_png") else None


def _demo_database(out: Path, database: str | Path | None) -> str | Path:
    """The database to play in: ``database``, or a fresh ``OUT/ttr.sqlite3``."""
    if database is not None:
        return database
    db_path = out / "ttr.sqlite3"
    for suffix in ("", "-wal", "-shm"):
        Path(str(db_path) + suffix).unlink(missing_ok=True)
    return db_path


async def run_demo(
    map_id: str,
    players: int,
    seed: int,
    out: Path,
    every: int = 1,
    database: str | Path | None = None,
    levels: Sequence[str] = ("normal",),
) -> int:
    """Play the demo game through :class:`~bot.services.GameService`; return the exit code
    (2 for an unknown map or player count, or a database that cannot be opened).

    ``levels``: AI level per seat (one of :data:`engine.ai.AI_LEVELS` each); the
    last one repeats for the seats after it (one level: every seat).

    ``database``: a path or URL (``sqlite:///...``, ``postgresql://...``) to play in, next to
    the games it already holds; default a new ``OUT/ttr.sqlite3``."""
    try:
        rules = load_ruleset(map_id)
    except UnknownMap:
        print(
            f"unknown map {map_id!r}; choose one of: {', '.join(available_maps())}", file=sys.stderr
        )
        return 2
    except MapError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    p = rules.params
    if not p.min_players <= players <= p.max_players:
        print(
            f"{map_id} is played by {p.min_players}-{p.max_players} players, not {players}",
            file=sys.stderr,
        )
        return 2

    from .services import GameService, replay_game, stored_state
    from .storage import MigrationError, StorageUnavailable, open_storage

    out.mkdir(parents=True, exist_ok=True)
    db_path = _demo_database(out, database)
    renderer = _renderer()
    layout = None
    if renderer is not None:
        try:
            layout = renderer.load_layout(map_id)
        except Exception as exc:  # noqa: BLE001 - the demo goes on without images
            print(f"(no board images: {exc})")
            renderer = None

    host = 0  # the demo's host is nobody: every seat is an AI seat
    try:
        storage = await open_storage(db_path)
    except (StorageUnavailable, MigrationError) as exc:
        print(str(exc), file=sys.stderr)
        return 2
    try:
        service = GameService(storage, auto_ai=False)
        # a channel of its own: a database shared with other games may hold older demos
        channel = 0 if database is None else -1 - len(await storage.game_ids())
        game = await service.create(
            guild_id=0,
            channel_id=channel,
            host_id=host,
            host_name="demo",
            map_id=map_id,
            host_plays=False,
        )
        for i in range(players):
            await service.add_ai(game.id, host, level=levels[min(i, len(levels) - 1)])
        await service.start(game.id, host, seed=seed)
        snap = await service.table(game.id, 0)
        names = [s.display_name for s in snap.seats]
        name = rules.meta["name"]["en"]
        print(f"{name}: {players} AI seats, seed {seed}, game #{game.id} in {storage.url}")
        images = 0
        public = snap.public
        assert public is not None
        while public.phase != "finished":
            before = public
            outcome = await service.play_ai(game.id, max_actions=1)
            if outcome.actions != 1:
                print(f"the game is stuck at version {before.version}", file=sys.stderr)
                return 1
            prefix = f"Turn {before.turn + 1:>3}" if before.phase == "play" else "Setup   "
            for line in describe(rules, list(outcome.public_events), names):
                print(f"{prefix}  {line}")
                prefix = " " * len(prefix)
            public = (await service.table(game.id, 0)).public
            assert public is not None
            if (
                renderer is not None
                and public.phase == "play"
                and (public.turn != before.turn or before.phase != "play")
                and public.turn % every == 0
            ):
                png = await asyncio.to_thread(renderer.render_board_png, layout, public, names)
                (out / f"board-{public.turn}.png").write_bytes(png)
                images += 1
        if renderer is not None and hasattr(renderer, "render_final_png"):
            png = await asyncio.to_thread(renderer.render_final_png, layout, public, names)
            (out / "final.png").write_bytes(png)
            images += 1
        if renderer is not None and hasattr(renderer, "render_recap"):
            images += await _people_images(renderer, layout, service, storage, game.id, names, out)

        stored = await storage.get_game(game.id)
        assert stored is not None
        state = await stored_state(storage, stored)
        log = await storage.actions(game.id)
        verified = await replay_game(storage, stored) == state and stored.status == "finished"
    finally:
        await storage.close()

    result = state.result
    assert result is not None
    breakdown_keys = rules.breakdown_keys()
    print()
    print(
        f"Final scores after {state.turn} turns ({len(log)} actions; replay from the stored log "
        f"{'matches' if verified else 'DOES NOT MATCH'} the snapshot)"
    )
    width = max(8, *(len(n) + 1 for n in names))  # "AI 2 (hard)" is longer than "AI 2"
    header = (
        f"{'seat':<{width}}{'score':>6}"
        + "".join(f"{k:>14}" for k in breakdown_keys)
        + f"{'tickets +/-':>13}"
    )
    print(header)
    for i in result.ranking:
        s = result.seats[i]
        mark = " *" if i in result.winners else ""
        print(
            f"{names[i]:<{width}}{s.score:>6}"
            + "".join(f"{s.breakdown.get(k, 0):>14}" for k in breakdown_keys)
            + f"{s.tickets_completed:>8}/{s.tickets_failed:<4}{mark}"
        )
    print(f"winner: {', '.join(names[w] for w in result.winners)}")
    doc = {
        "map": map_id,
        "seed": seed,
        "turns": state.turn,
        "winner": list(result.winners),
        "seats": [
            {
                "seat": s.seat,
                "name": names[s.seat],
                "score": s.score,
                "breakdown": dict(s.breakdown),
                "tickets_completed": s.tickets_completed,
                "tickets_failed": s.tickets_failed,
            }
            for s in result.seats
        ],
    }
    (out / "result.json").write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {out / 'result.json'}" + (f" and {images} images" if images else ""))
    return 0 if verified else 1


async def _people_images(
    renderer: Any,
    layout: Any,
    service: Any,
    storage: Any,
    game_id: int,
    names: list[str],
    out: Path,
) -> int:
    """The images a person looks at after a game: the board 500 px wide (board-phone.png), the
    first seat's hand with its ticket planner at the end (hand.png) and the recap (recap.gif);
    returns how many were written."""
    from engine import player_view

    from .services import stored_state

    stored = await storage.get_game(game_id)
    state = await stored_state(storage, stored)
    rules = layout.rules
    public = (await service.table(game_id, 0)).public
    records = await service.turn_log(game_id)
    turns: list[dict[str, int]] = []
    for r in records:
        while len(turns) <= r.number:
            turns.append({})
        turns[r.number].update(
            {e.route: e.seat for e in r.events if type(e).__name__ == "RouteClaimed"}
        )
    files = {
        "board-phone.png": renderer.render_phone_png(layout, public, names),
        "hand.png": renderer.render_hand_png(player_view(rules, state, 0), names, layout=layout),
        "recap.gif": renderer.render_recap(layout, turns, names),
    }
    for name, data in files.items():
        (out / name).write_bytes(data)
    return len(files)


def main(argv: list[str]) -> int:
    """Parse demo arguments and run it."""
    ap = argparse.ArgumentParser(
        prog="python -m bot demo", description="Play a whole game between AI seats."
    )
    ap.add_argument("--map", default="usa")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", type=Path, default=Path("out/demo"))
    ap.add_argument(
        "--every",
        type=int,
        default=10,
        help="write a board image at the start and every N turns (default 10)",
    )
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--db", type=Path, help="play in this SQLite file (default OUT/ttr.sqlite3)")
    where.add_argument(
        "--database-url", help="play in this database (sqlite:///... or postgresql://...)"
    )
    ap.add_argument(
        "--ai",
        default="normal",
        help=f"AI level of the seats: one of {', '.join(AI_LEVELS)}, or one per seat"
        " separated by commas (e.g. hard,normal); default normal",
    )
    args = ap.parse_args(argv)
    if args.every < 1:
        ap.error("--every must be at least 1")
    levels = [level.strip() for level in args.ai.split(",") if level.strip()]
    wrong = [level for level in levels if level not in AI_LEVELS]
    if not levels or wrong:
        ap.error(f"--ai: choose from {', '.join(AI_LEVELS)} (got {args.ai!r})")
    database = args.database_url or args.db
    return asyncio.run(
        run_demo(args.map, args.players, args.seed, args.out, args.every, database, levels)
    )
