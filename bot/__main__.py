"""``python -m bot [run|demo|health|verify|export|migrate|ratings|backup|forget|purge|privacy]``:
the bot (default), the AI demo, the container health check, and the operator tools
(replay-verify a database, export a game's log, copy every game to another database, print or
recompute the rating tables, back the database up while the bot runs, forget a user, purge a
server, print the privacy notice)."""

from __future__ import annotations

import sys


def main(argv: list[str]) -> int:
    """Dispatch a subcommand; returns the exit code."""
    command = argv[0] if argv and not argv[0].startswith("-") else "run"
    rest = argv[1:] if argv and not argv[0].startswith("-") else argv
    if command == "demo":
        from .demo import main as demo_main

        return demo_main(rest)
    if command in ("forget", "purge", "privacy"):
        from .host.services import privacy_ops

        privacy_tools = {
            "forget": privacy_ops.main_forget,
            "purge": privacy_ops.main_purge,
            "privacy": privacy_ops.main_privacy,
        }
        return privacy_tools[command](rest)
    if command in ("verify", "export", "migrate", "ratings"):
        from .host.services import ops

        tools = {
            "verify": ops.main_verify,
            "export": ops.main_export,
            "migrate": ops.main_migrate,
            "ratings": ops.main_ratings,
        }
        return tools[command](rest)
    if command == "backup":
        from .backup import main_backup

        return main_backup(rest)
    if command in ("run", "health"):
        from .process.config import Settings
        from .process.run import health, run

        try:
            settings = Settings.from_env()
        except ValueError as exc:
            print(f"bad setting: {exc}", file=sys.stderr)
            return 2
        if command == "run":
            return run(settings)
        return health(settings, ready="--ready" in rest)
    print(
        f"unknown command {command!r}; use run, demo, health, verify, export, migrate, ratings,"
        " backup, forget, purge or privacy",
        file=sys.stderr,
    )
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
