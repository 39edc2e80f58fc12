"""The demo, the project's main job: a whole game between built-in AI seats, no Discord needed.

``python -m bot demo [--map usa] [--players 4] [--seed 7] [--out DIR] [--every N]
[--ai LEVELS] [--language en|de] [--db PATH | --database-url URL]``
creates the game through the bot's own :class:`~bot.host.services.GameService` on a
real SQLite file ``DIR/ttr.sqlite3``; every AI action goes through the service
(engine, then the action with its snapshot in one transaction). The console
tells the game in the same words as the channel (:mod:`sentences.stories`, through
the catalogs with their plural rules, in ``--language``), then prints the
final score table (with the hints each seat took) and, as every demo game is
rated (a server's default), how it moved each computer level's rating; the demo
writes ``DIR/result.json`` and images. At the end the stored action log is
replayed from the seed and compared with the stored snapshot, and the game is
analysed as the bot analyses every finished game: each seat's chance to win
after every turn (``DIR/analysis.png``, with each estimate's band; ``analysis`` in
result.json) and the turning points (at most three), printed. The same seed gives the same game and analysis.
Several demo games in one database (``--database-url``) build that server's
rating table (``python -m bot ratings``). The command line is :mod:`bot.cli.demo`.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import render
from bot.host.services import (
    ClassicRules,
    Event,
    FinalResult,
    GameAnalysis,
    GameService,
    RatingShift,
    claims_by_turn,
    replay_game,
    stations_by_turn,
    stored_state,
)
from bot.host.storage import MigrationError, SeatRow, Storage, StorageUnavailable, open_storage
from engine import player_view
from maps import MapError, UnknownMap, available_maps, load_ruleset
from sentences import stories
from sentences.coach import analysis_words, turning_point_words
from words import Words, words_for


@dataclass
class DemoGame:
    """What the demo's steps share: the map, the service and game, the seats' names, the words."""

    rules: ClassicRules
    service: GameService
    storage: Storage
    game_id: int
    names: list[str]
    words: Words
    out: Path


def console(text: str) -> str:
    """A sentence of the channel as the console shows it: Discord's bold marks left out."""
    return text.replace("**", "")


def _rules(map_id: str, players: int) -> ClassicRules | None:
    """The map's rules, or None after saying on stderr why the demo cannot play it."""
    try:
        rules = load_ruleset(map_id)
    except UnknownMap:
        print(
            f"unknown map {map_id!r}; choose one of: {', '.join(available_maps())}", file=sys.stderr
        )
        return None
    except MapError as exc:
        print(str(exc), file=sys.stderr)
        return None
    p = rules.params
    if not p.min_players <= players <= p.max_players:
        print(
            f"{map_id} is played by {p.min_players}-{p.max_players} players, not {players}",
            file=sys.stderr,
        )
        return None
    return rules


def _demo_database(out: Path, database: str | Path | None) -> str | Path:
    """The database to play in: ``database``, or a fresh ``OUT/ttr.sqlite3``."""
    if database is not None:
        return database
    db_path = out / "ttr.sqlite3"
    for suffix in ("", "-wal", "-shm"):
        Path(str(db_path) + suffix).unlink(missing_ok=True)
    return db_path


async def _seat_and_start(
    service: GameService,
    storage: Storage,
    map_id: str,
    seed: int,
    levels: Sequence[str],
    *,
    players: int,
    shared: bool,
) -> tuple[int, list[str]]:
    """Create the game with ``players`` AI seats (``levels``: one per seat, the last repeats) and
    start it; returns the game id and the seats' names. ``shared``: the database holds other
    games, so the demo takes a channel of its own."""
    host = 0  # the demo's host is nobody: every seat is an AI seat
    channel = -1 - len(await storage.games.game_ids()) if shared else 0
    game = await service.lobby.create(
        guild_id=0,
        channel_id=channel,
        host_id=host,
        host_name="demo",
        map_id=map_id,
        host_plays=False,
    )
    for i in range(players):
        await service.lobby.add_ai(game.id, host, level=levels[min(i, len(levels) - 1)])
    await service.lobby.start(game.id, host, seed=seed)
    table = await service.queries.table(game.id, 0)
    return game.id, [s.display_name for s in table.seats]


async def _play(demo: DemoGame, every: int) -> int | None:
    """Play the AI seats to the end, telling each turn when it ends and writing a board image at
    the start and every ``every`` turns; the number of images, or None when the game is stuck."""
    layout = render.load_layout(demo.rules.map_id)
    public = (await demo.service.queries.table(demo.game_id, 0)).public
    assert public is not None
    told: list[Event] = []
    images = 0
    while public.phase != "finished":
        before = public
        outcome = await demo.service.play.play_ai(demo.game_id, max_actions=1)
        if outcome.actions != 1:
            print(f"the game is stuck at version {before.version}", file=sys.stderr)
            return None
        told += outcome.public_events
        if outcome.turn_ended:
            _tell(demo, before.turn + 1 if before.phase == "play" else 0, told)
            told = []
        public = (await demo.service.queries.table(demo.game_id, 0)).public
        assert public is not None
        new_turn = public.turn != before.turn or before.phase != "play"
        if public.phase == "play" and new_turn and public.turn % every == 0:
            png = await asyncio.to_thread(render.render_board_png, layout, public, demo.names)
            (demo.out / f"board-{public.turn}.png").write_bytes(png)
            images += 1
    png = await asyncio.to_thread(render.render_final_png, layout, public, demo.names)
    (demo.out / "final.png").write_bytes(png)
    return images + 1 + await _people_images(demo, layout)


def _tell(demo: DemoGame, number: int, events: Sequence[Event]) -> None:
    """Print one turn (``number`` 0: the ticket choice at the start) as the channel tells it."""
    w = demo.words
    label = console(w.t("**Start**") if number == 0 else w.t("**Turn {turn}**", turn=number))
    prefix = f"{label:<9}"
    for line in stories.turn_lines(events, demo.rules, demo.names, w):
        print(f"{prefix} {console(line)}")
        prefix = " " * len(prefix)


async def _people_images(demo: DemoGame, layout: render.Layout) -> int:
    """The images a person looks at after a game: the board 500 px wide (board-phone.png), the
    first seat's hand with its ticket planner at the end (hand.png) and the recap (recap.gif);
    returns how many were written."""
    table = await demo.service.queries.table(demo.game_id, 0)
    state = await demo.service.loader.game_state(demo.game_id)
    assert table.public is not None
    records = await demo.service.queries.turn_log(demo.game_id)
    files = {
        "board-phone.png": render.render_phone_png(layout, table.public, demo.names),
        "hand.png": render.render_hand_png(
            player_view(demo.rules, state, 0), demo.names, layout=layout
        ),
        "recap.gif": render.render_recap(
            layout, claims_by_turn(records), demo.names, stations=stations_by_turn(records)
        ),
    }
    for name, data in files.items():
        (demo.out / name).write_bytes(data)
    return len(files)


@dataclass(frozen=True)
class StoredGame:
    """The finished game as the database holds it, which is what the demo reports: the result
    and turn count of the stored snapshot, the number of stored actions, whether that log
    replays from the seed to the snapshot, the rating shifts it caused and the seat rows."""

    result: FinalResult
    turns: int
    actions: int
    verified: bool
    shifts: list[RatingShift]
    seats: list[SeatRow]


async def _check_stored(demo: DemoGame) -> StoredGame:
    """Read the finished game back from storage and replay its action log from the seed: the
    demo's proof that what the service stored is the game that was played."""
    stored = await demo.storage.games.get_game(demo.game_id)
    assert stored is not None
    state = await stored_state(demo.storage, stored)
    verified = await replay_game(demo.storage, stored) == state and stored.status == "finished"
    assert state.result is not None
    return StoredGame(
        result=state.result,
        turns=state.turn,
        actions=len(await demo.storage.actions.actions(demo.game_id)),
        verified=verified,
        shifts=await demo.service.ladder.game_ratings(demo.game_id),
        seats=list(await demo.storage.seats.seats(demo.game_id)),
    )


def _print_scores(demo: DemoGame, game: StoredGame) -> None:
    """The summary line, the score table (one column per part of the score, the hints each
    seat took) and the winner."""
    w = demo.words
    result = game.result
    summary = w.n(
        "Final scores after {turns} turns ({count} action; replay from the stored log {check})",
        "Final scores after {turns} turns ({count} actions; replay from the stored log {check})",
        game.actions,
        turns=game.turns,
        check=w.t("matches the snapshot") if game.verified else w.t("DOES NOT MATCH the snapshot"),
    )
    keys = demo.rules.breakdown_keys()
    width = max(8, *(len(n) + 1 for n in demo.names))  # "AI 2 (hard)" is longer than "AI 2"
    player = w.ctx("score table", "player")
    total = w.ctx("score table", "total")
    tickets = w.ctx("score table", "{tickets:cap} done/failed")
    hints = w.ctx("score table", "hints")
    parts = [stories.breakdown_name(k, w) for k in keys]
    widths = [max(8, len(part) + 2) for part in parts]
    print("\n" + summary)
    print(
        f"{player:<{width}}{total:>7}"
        + "".join(f"{part:>{n}}" for part, n in zip(parts, widths, strict=True))
        + f"  {tickets}  {hints}"
    )
    for i in result.ranking:
        s = result.seats[i]
        done = f"{s.tickets_completed}/{s.tickets_failed}"
        print(
            f"{demo.names[i]:<{width}}{s.score:>7}"
            + "".join(f"{s.breakdown.get(k, 0):>{n}}" for k, n in zip(keys, widths, strict=True))
            + f"  {done:>{len(tickets)}}"
            + f"  {game.seats[i].hints_used:>{len(hints)}}"
            + (" *" if i in result.winners else "")
        )
    winners = ", ".join(demo.names[n] for n in result.winners)
    print(w.n("Winner: {players}", "Winners: {players}", len(result.winners), players=winners))


def _write_result(
    demo: DemoGame, seed: int, game: StoredGame, analysis: GameAnalysis | None
) -> Path:
    """``OUT/result.json``: the map, seed, turns, winners, every seat's score, breakdown and
    hints taken (on a map with train stations also what each built station did: its city, the
    route it used and the tickets it served), how the game moved each seat's rating (overall,
    this season; empty when not rated) and the analysis (see :func:`_analysis_doc`)."""
    stations = demo.rules.params.stations is not None
    result = game.result
    doc = {
        "map": demo.rules.map_id,
        "seed": seed,
        "turns": game.turns,
        "winner": list(result.winners),
        "seats": [
            {
                "seat": s.seat,
                "name": demo.names[s.seat],
                "score": s.score,
                "breakdown": dict(s.breakdown),
                "tickets_completed": s.tickets_completed,
                "tickets_failed": s.tickets_failed,
                "hints": game.seats[s.seat].hints_used,
            }
            | ({"stations": [u.to_dict() for u in s.stations]} if stations else {})
            for s in result.seats
        ],
        "ratings": [
            {
                "seat": r.seat,
                "player": r.player,
                "before": r.before,
                "after": r.after,
                "games": r.games,
                "provisional": r.provisional,
            }
            for r in game.shifts
        ],
    }
    if analysis is not None:
        doc["analysis"] = _analysis_doc(demo, analysis)
    path = demo.out / "result.json"
    path.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    return path


def _analysis_doc(demo: DemoGame, analysis: GameAnalysis) -> dict[str, Any]:
    """The analysis in result.json: ``win_chance`` (seat name -> chance after each turn, the
    seats summing to 1 every turn) and ``turning_points`` (turn, text, seat, before, after,
    change), with the method and its budget."""
    names = demo.names
    return {
        "method": analysis.method,
        "rollouts_per_turn": analysis.rollouts,
        "turns": [t.turn for t in analysis.turns],
        "win_chance": {names[s]: chances for s, chances in enumerate(analysis.series())},
        "turning_points": [
            {
                "turn": p.turn,
                "text": console(turning_point_words(p, demo.rules, demo.words, names)),
                "seat": names[p.seat],
                "before": p.before,
                "after": p.after,
                "change": round(p.after - p.before, 4),
            }
            for p in analysis.turning_points
        ],
    }


async def _analyse(demo: DemoGame) -> tuple[GameAnalysis | None, int]:
    """Analyse the finished game as the bot does, print it (method, budget, turning points) and
    draw ``analysis.png``; returns the analysis and the images written."""
    view = await demo.service.analyses.analyse_now(demo.game_id)
    analysis = view.analysis
    if analysis is None:
        return None, 0
    print()
    for line in analysis_words(view, demo.rules, demo.words, demo.names):
        print(console(line))
    print(demo.words.t("({seconds} s of CPU)", seconds=f"{analysis.cpu_s:.1f}"))
    png = await asyncio.to_thread(
        render.render_chance_png,
        analysis.series(),
        demo.names,
        lang=demo.words.lang,
        marks=[p.turn for p in analysis.turning_points],
        turns=[t.turn for t in analysis.turns],
        rollouts=analysis.rollouts,
        bands=analysis.bands(),
    )
    (demo.out / "analysis.png").write_bytes(png)
    return analysis, 1


async def run_demo(
    map_id: str,
    players: int,
    seed: int,
    out: Path,
    every: int = 1,
    database: str | Path | None = None,
    levels: Sequence[str] = ("normal",),
    language: str = "en",
    analysis_rollouts: int = 32,
) -> int:
    """Play the demo game through :class:`~bot.host.services.GameService`; return the exit code: 0, 1
    when the stored log does not replay to the snapshot (or the game gets stuck), 2 for an unknown
    map or player count, or a database that cannot be opened.

    ``levels``: AI level per seat (one of :data:`engine.ai.AI_LEVELS` each); the last one repeats
    for the seats after it. ``database``: a path or URL (``sqlite:///...``,
    ``postgresql://...``) to play in, next to the games it already holds; default a new
    ``OUT/ttr.sqlite3``. ``language``: the console's language (``en`` or ``de``).
    ``analysis_rollouts``: rollouts per turn of the analysis after the game (the bot uses up to
    128 within 40 s of CPU; the demo fewer, so it ends sooner)."""
    rules = _rules(map_id, players)
    if rules is None:
        return 2
    out.mkdir(parents=True, exist_ok=True)
    try:
        storage = await open_storage(_demo_database(out, database))
    except (StorageUnavailable, MigrationError) as exc:
        print(str(exc), file=sys.stderr)
        return 2
    w = words_for(language, rules.meta)
    try:
        service = GameService(
            storage, auto_ai=False, analysis_rollouts=analysis_rollouts, analysis_budget_s=60.0
        )
        game_id, names = await _seat_and_start(
            service, storage, map_id, seed, levels, players=players, shared=database is not None
        )
        demo = DemoGame(rules, service, storage, game_id, names, w, out)
        name = rules.meta["name"].get(language) or rules.meta["name"]["en"]
        print(
            w.n(
                "{map}: {count} computer seat, seed {seed}, game {game} in {database}",
                "{map}: {count} computer seats, seed {seed}, game {game} in {database}",
                players,
                map=name,
                seed=seed,
                game=game_id,
                database=storage.url,
            )
        )
        images = await _play(demo, every)
        if images is None:
            return 1
        checked = await _check_stored(demo)
        _print_scores(demo, checked)
        if checked.shifts:
            print("\n" + console(stories.rating_changes(checked.shifts, w)))
        analysis, drawn = await _analyse(demo)
    finally:
        await storage.close()
    images += drawn
    path = _write_result(demo, seed, checked, analysis)
    print(
        w.n(
            "Wrote {path} and {count} image.", "Wrote {path} and {count} images.", images, path=path
        )
    )
    return 0 if checked.verified else 1
