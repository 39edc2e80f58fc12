"""The table in the channel: every move told, catch-up, numbers that agree, help, languages."""

from __future__ import annotations

from pathlib import Path

from ._harness import running_table, started_game


async def _draw_twice(player) -> None:  # type: ignore[no-untyped-def]
    await player.slash("draw", {"source": "deck"})
    await player.slash("draw", {"source": "deck"})


async def test_log_catches_up_since_your_last_turn(tmp_path: Path) -> None:
    """/ttr game log shows what happened since the reader's own last turn, numbered like the board and status."""
    async with running_table(tmp_path) as t:
        g = await started_game(t)
        first = await t.active(g)
        second = await t.idle(g)
        await _draw_twice(first)  # turn 1
        await _draw_twice(second)  # turn 2
        await _draw_twice(first)  # turn 3
        log = await second.slash("game log")
        assert log.ephemeral and log.content.startswith("Since your last turn"), log.content
        assert "**Turn 3**" in log.content and "**Turn 2**" not in log.content
        assert f"<@{first.user.id}> drew two cards from the deck." in log.content
        status = await second.slash("status")
        assert "round 2 (turn 4)" in status.content, status.content
        assert f"<@{second.user.id}> to move" in status.content
        everything = await second.slash("game log", {"count": 10})
        assert "**Start**" in everything.content and "**Turn 1**" in everything.content
        # the public turn message told the same turn, whole
        told = t.turn_messages(g)[-1].content
        assert f"<@{first.user.id}> drew two cards from the deck." in told


async def test_help_in_the_readers_language(tmp_path: Path) -> None:
    """/ttr help is a short guide in the reader's language, with the commands as that reader sees them."""
    async with running_table(tmp_path) as t:
        alice = t.players["alice"]
        english = await alice.slash("help")
        assert "/ttr new" in english.content and "**My hand**" in english.content
        alice.user.locale = "de"
        german = await alice.slash("help")
        assert "kurz erklärt" in german.content and "/ttr neu" in german.content
        assert "/ttr new" not in german.content
