"""The demo, the project's main job: a whole game between built-in AI seats, no Discord needed.

``python -m bot demo [--map usa] [--players 4] [--seed 7] [--out DIR] [--every N]``
creates the game in a real SQLite file ``DIR/ttr.sqlite3`` (the same storage
the bot uses), applies every AI action through the engine and appends it with
its snapshot in one transaction, prints a readable turn log and the final
score table, writes ``DIR/result.json`` and, when the renderer is installed,
board images. At the end the stored action log is replayed from the seed and
compared with the stored snapshot. The same seed gives the same game.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from engine import ENGINE_VERSION, SetupError, apply, new_game, public_view, replay
from engine.ai import choose_action
from engine.codec import decode_action, decode_state, encode_action, encode_state
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
            lines.append(f"{who} drew {'a face-up ' + p['color'] if p['source'] == 'face_up' else 'a card from the deck'}")
        elif e.kind == "route_claimed":
            lines.append(f"{who} claimed {board.route_name(p['route'])} ({_cards(p['payment'])}) +{p['points']}")
        elif e.kind == "tickets_kept":
            lines.append(f"{who} kept {p['kept']} of {p['kept'] + p['returned']} {words.get('tickets', 'tickets')}")
        elif e.kind == "tunnel_revealed":
            lines.append(f"{who} tries the tunnel {board.route_name(p['route'])}: revealed {', '.join(p['revealed']) or 'nothing'}, {p['extra']} more")
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
            lines.append(f"*** last round: {who} has {p['pieces']} {words.get('pieces', 'trains')} left ***")
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


async def run_demo(map_id: str, players: int, seed: int, out: Path, every: int = 1) -> int:
    """Play the demo game; return the exit code (2 for an unknown map or player count)."""
    try:
        rules = load_ruleset(map_id)
    except UnknownMap:
        print(f"unknown map {map_id!r}; choose one of: {', '.join(available_maps())}", file=sys.stderr)
        return 2
    except MapError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    p = rules.params
    if not p.min_players <= players <= p.max_players:
        print(f"{map_id} is played by {p.min_players}-{p.max_players} players, not {players}", file=sys.stderr)
        return 2
    try:
        state = new_game(rules, seats=players, seed=seed)
    except SetupError as exc:
        print(f"cannot create the game: {exc}", file=sys.stderr)
        return 2

    from .storage import NewSeat, PlayerResult, open_storage

    out.mkdir(parents=True, exist_ok=True)
    db_path = out / "ttr.sqlite3"
    for suffix in ("", "-wal", "-shm"):
        Path(str(db_path) + suffix).unlink(missing_ok=True)
    names = [f"AI {i + 1}" for i in range(players)]
    renderer = _renderer()
    layout = None
    if renderer is not None:
        try:
            layout = renderer.load_layout(map_id)
        except Exception as exc:  # noqa: BLE001 - the demo goes on without images
            print(f"(no board images: {exc})")
            renderer = None

    storage = await open_storage(db_path)
    try:
        game = await storage.create_game(
            guild_id=0, channel_id=0, host_user_id=0, map_id=map_id,
            seats=[NewSeat(display_name=n, is_ai=True, ai_kind="heuristic", seat=i) for i, n in enumerate(names)],
        )
        await storage.start_game(game.id, seed=seed, snapshot=encode_state(state), engine_version=ENGINE_VERSION)
        name = rules.meta["name"]["en"]
        print(f"{name}: {players} AI seats, seed {seed}, game #{game.id} in {db_path}")
        last_turn = -1
        images = 0
        while not state.finished:
            seat = state.seats_to_act()[0]
            action = choose_action(rules, state, seat, "heuristic")
            transition = apply(rules, state, action)
            new = transition.state
            results = None
            if new.finished:
                results = [
                    PlayerResult(seat=s.seat, user_id=None, score=s.score,
                                 rank=1 + new.result.ranking.index(s.seat) if s.seat not in new.result.winners else 1,
                                 won=s.seat in new.result.winners, tickets_completed=s.tickets_completed,
                                 tickets_failed=s.tickets_failed)
                    for s in new.result.seats
                ]
            await storage.append_action(
                game.id, state.version, action=encode_action(action), new_snapshot=encode_state(new), seat=seat,
                deadline_at=None, reminder_at=None, source="ai",
                new_status="finished" if new.finished else None, results=results,
            )
            prefix = f"Turn {state.turn + 1:>3}" if state.phase == "play" else "Setup   "
            for line in describe(rules, transition.events, names):
                print(f"{prefix}  {line}")
                prefix = " " * len(prefix)
            state = new
            if renderer is not None and state.phase == "play" and state.turn != last_turn and state.turn % every == 0:
                png = await asyncio.to_thread(renderer.render_board_png, layout, public_view(rules, state))
                (out / f"board-{state.turn}.png").write_bytes(png)
                images += 1
            last_turn = state.turn
        if renderer is not None and hasattr(renderer, "render_final_png"):
            png = await asyncio.to_thread(renderer.render_final_png, layout, public_view(rules, state), names)
            (out / "final.png").write_bytes(png)
            images += 1

        stored = await storage.get_game(game.id)
        log = [decode_action(a.action) for a in await storage.actions(game.id)]
        again = replay(rules, seats=players, seed=seed, options=None, actions=log)
        verified = again == decode_state(stored.snapshot) == state
    finally:
        await storage.close()

    result = state.result
    breakdown_keys = rules.breakdown_keys()
    print()
    print(f"Final scores after {state.turn} turns ({len(log)} actions; replay from the stored log "
          f"{'matches' if verified else 'DOES NOT MATCH'} the snapshot)")
    header = f"{'seat':<8}{'score':>6}" + "".join(f"{k:>14}" for k in breakdown_keys) + f"{'tickets +/-':>13}"
    print(header)
    for i in result.ranking:
        s = result.seats[i]
        mark = " *" if i in result.winners else ""
        print(f"{names[i]:<8}{s.score:>6}" + "".join(f"{s.breakdown.get(k, 0):>14}" for k in breakdown_keys)
              + f"{s.tickets_completed:>8}/{s.tickets_failed:<4}{mark}")
    print(f"winner: {', '.join(names[w] for w in result.winners)}")
    doc = {
        "map": map_id,
        "seed": seed,
        "turns": state.turn,
        "winner": list(result.winners),
        "seats": [
            {"seat": s.seat, "name": names[s.seat], "score": s.score, "breakdown": dict(s.breakdown),
             "tickets_completed": s.tickets_completed, "tickets_failed": s.tickets_failed}
            for s in result.seats
        ],
    }
    (out / "result.json").write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {out / 'result.json'}" + (f" and {images} images" if images else ""))
    return 0 if verified else 1


def main(argv: list[str]) -> int:
    """Parse demo arguments and run it."""
    ap = argparse.ArgumentParser(prog="python -m bot demo", description="Play a whole game between AI seats.")
    ap.add_argument("--map", default="usa")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", type=Path, default=Path("out/demo"))
    ap.add_argument("--every", type=int, default=1, help="write a board image every N turns")
    args = ap.parse_args(argv)
    if args.every < 1:
        ap.error("--every must be at least 1")
    return asyncio.run(run_demo(args.map, args.players, args.seed, args.out, args.every))
