"""``python -m bot demo [--map usa] [--players 4] [--seed 7] [--out DIR] [--every N]
[--ai LEVELS] [--language en|de] [--db PATH | --database-url URL]``: a whole game between
computer seats through the bot's own service (:func:`bot.cli.demo_game.run_demo`).

Exit 0 when the game was played and its stored log replays, 1 when it does not (or the game
got stuck), 2 for an unknown map, player count or AI level, a database that cannot be opened,
or an output folder that cannot be written."""

from __future__ import annotations

import argparse
from pathlib import Path

from words import LANGS


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``demo`` to ``python -m bot``."""
    demo = commands.add_parser(
        "demo",
        help="play a whole game between computer seats, no Discord needed",
        description="Play a whole game between AI seats.",
    )
    demo.add_argument("--map", default="usa")
    demo.add_argument("--players", type=int, default=4)
    demo.add_argument("--seed", type=int, default=7)
    demo.add_argument("--out", type=Path, default=Path("out/demo"))
    demo.add_argument(
        "--every",
        type=int,
        default=10,
        help="write a board image at the start and every N turns (default 10)",
    )
    where = demo.add_mutually_exclusive_group()
    where.add_argument("--db", type=Path, help="play in this SQLite file (default OUT/ttr.sqlite3)")
    where.add_argument(
        "--database-url", help="play in this database (sqlite:///... or postgresql://...)"
    )
    demo.add_argument(
        "--ai",
        default="normal",
        help="AI level of the seats (easy, normal, hard), or one per seat separated by commas"
        " (e.g. hard,normal); default normal",
    )
    demo.add_argument(
        "--language", choices=LANGS, default="en", help="the console's language (default en)"
    )
    demo.add_argument(
        "--analysis-rollouts",
        type=int,
        default=32,
        help="rollouts per turn of the analysis after the game (default 32; the bot: up to 128)",
    )
    demo.set_defaults(handler=demo_command, parser=demo)


def demo_command(args: argparse.Namespace) -> int:
    """Check the options, then play the demo game; its exit code."""
    import asyncio

    from engine.ai import AI_LEVELS

    from .demo_game import run_demo

    if args.every < 1:
        args.parser.error("--every must be at least 1")
    if args.analysis_rollouts < 1:
        args.parser.error("--analysis-rollouts must be at least 1")
    levels = [level.strip() for level in args.ai.split(",") if level.strip()]
    wrong = [level for level in levels if level not in AI_LEVELS]
    if not levels or wrong:
        args.parser.error(f"--ai: choose from {', '.join(AI_LEVELS)} (got {args.ai!r})")
    return asyncio.run(
        run_demo(
            args.map,
            args.players,
            args.seed,
            args.out,
            args.every,
            args.database_url or args.db,
            levels,
            args.language,
            analysis_rollouts=args.analysis_rollouts,
        )
    )
