"""/ttr add_ai level: the host picks easy, normal or hard; the seat is stored and named with it."""

from __future__ import annotations

from pathlib import Path

from ._harness import running_table


async def test_add_ai_level_option_stores_and_names_the_level(tmp_path: Path) -> None:
    """level hard and easy are stored as the seat's AI kind and shown in the name; no level is
    normal. (Discord itself rejects values off the choice menu; the service test covers them.)"""
    async with running_table(tmp_path, ("alice",)) as t:
        alice = t.players["alice"]
        await alice.slash("new", {"map": "usa"})
        hard = await alice.slash("add_ai", {"level": "hard"})
        assert "AI 1 (hard)" in hard.content, hard.summary()
        easy = await alice.slash("add_ai", {"level": "easy"})
        assert "AI 2 (easy)" in easy.content, easy.summary()
        plain = await alice.slash("add_ai")
        assert "AI 3 (computer)" in plain.content, plain.summary()
        seats = await t.service.storage.seats.seats(await t.game_id())
        assert [(s.display_name, s.ai_kind) for s in seats if s.is_ai] == [
            ("AI 1 (hard)", "hard"),
            ("AI 2 (easy)", "easy"),
            ("AI 3", "normal"),
        ]


async def test_german_table_names_the_level_in_german(tmp_path: Path) -> None:
    """On a German server the AI seat is "KI 1 (schwer)" in the public lobby notice."""
    async with running_table(tmp_path, ("alice",)) as t:
        t.fake.guild_locale = "de"
        alice = t.players["alice"]
        await alice.slash("new", {"map": "usa"})
        await alice.slash("add_ai", {"level": "hard"})
        public = [m.content for m in t.fake.messages_in("games")]
        assert any("KI 1 (schwer)" in c for c in public), public
