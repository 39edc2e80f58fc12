"""``python -m bot [run|demo|health|verify|export]``: the bot (default), the AI demo, the container
health check, and the operator tools (replay-verify a database, export a game's log)."""

from __future__ import annotations

import sys


def main(argv: list[str]) -> int:
    """Dispatch a subcommand; returns the exit code."""
    command = argv[0] if argv and not argv[0].startswith("-") else "run"
    rest = argv[1:] if argv and not argv[0].startswith("-") else argv
    if command == "demo":
        from .demo import main as demo_main

        return demo_main(rest)
    if command in ("verify", "export"):
        from .services import ops

        return ops.main_verify(rest) if command == "verify" else ops.main_export(rest)
    if command in ("run", "health"):
        from .config import Settings
        from .run import health, run

        settings = Settings.from_env()
        return run(settings) if command == "run" else health(settings)
    print(f"unknown command {command!r}; use run, demo, health, verify or export", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
