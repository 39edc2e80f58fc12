"""The /ttr cog in-process against the fake Discord, over the real GameService on a temporary SQLite file."""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncIterator
from pathlib import Path

from bot.discord_app.client import create_bot
from bot.host.services import GameService
from bot.host.storage import open_storage
from bot.process.config import Settings
from engine import DrawBlind

from ..e2e.fake_discord import FakeDiscord, pointed_at, running_client


@contextlib.asynccontextmanager
async def real_service(
    tmp_path: Path, cls: type[GameService] = GameService
) -> AsyncIterator[GameService]:
    """A GameService over a fresh database file, seeded so that runs repeat."""
    storage = await open_storage(tmp_path / "ttr.sqlite3")
    try:
        yield cls(storage, seed_source=lambda: 7)
    finally:
        await storage.close()


async def test_lobby_setup_and_a_turn_privately(tmp_path: Path) -> None:
    """Open, add an AI, start, keep tickets from the private hand, draw twice; intruders are refused."""
    settings = Settings.from_env(
        {"DISCORD_TOKEN": "x", "TTR_DATABASE_PATH": str(tmp_path / "db")}, env_file=None
    )
    async with FakeDiscord(member_names=("alice", "bob")) as fake:
        fake.require_private_command("ttr hand", "ttr draw", "ttr claim", "ttr tickets")
        fake.require_private_component(re.compile(r"ttr:[0-9]+:(hand|draw|claim|tickets|board)"))
        with pointed_at(fake):
            async with real_service(tmp_path) as service:
                bot = create_bot(settings, service, guild_ready_timeout=0.05)
                async with running_client(fake, bot):
                    await fake.wait_for_commands("ttr new", "ttr hand", timeout=10)
                    alice, bob = fake.user("alice"), fake.user("bob")
                    r = await (
                        await fake.slash(alice, "ttr", "new", {"map": "usa"}, channel="games")
                    ).message(timeout=10)
                    assert r.ephemeral
                    r = await (await fake.slash(alice, "ttr", "add_ai", channel="games")).message(
                        timeout=10
                    )
                    r = await (await fake.slash(bob, "ttr", "add_ai", channel="games")).message(
                        timeout=10
                    )
                    assert r.ephemeral and "host" in r.content
                    await (await fake.slash(alice, "ttr", "start", channel="games")).message(
                        timeout=10
                    )
                    r = await (await fake.slash(bob, "ttr", "hand", channel="games")).message(
                        timeout=10
                    )
                    assert r.ephemeral and "not in this game" in r.content
                    hand = await (await fake.slash(alice, "ttr", "hand", channel="games")).message(
                        timeout=10
                    )
                    assert hand.ephemeral and hand.selects, hand.summary()
                    keep = next(
                        b["custom_id"] for b in hand.buttons if b["label"].startswith("Keep")
                    )
                    kept = await (await fake.click(alice, hand, keep, private=True)).message(
                        timeout=10
                    )
                    assert kept.ephemeral, kept.summary()
                    turn = [m for m in fake.messages_in("games") if "ttr:1:draw" in m.custom_ids][
                        -1
                    ]
                    menu = await (await fake.click(alice, turn, "ttr:1:draw")).message(timeout=10)
                    if "not your turn" not in menu.content:
                        deck = menu.buttons[0]["custom_id"]
                        first = await (await fake.click(alice, menu, deck, private=True)).message(
                            timeout=10
                        )
                        assert first.ephemeral and "You drew" in first.content, first.summary()
                        second = await (
                            await fake.click(
                                alice, first, first.buttons[0]["custom_id"], private=True
                            )
                        ).message(timeout=10)
                        assert second.ephemeral
                    r = await (await fake.click(bob, turn, "ttr:1:claim")).message(timeout=10)
                    assert r.ephemeral and "not in this game" in r.content


async def test_whole_game_in_process(tmp_path: Path) -> None:
    """A human seat plays a USA game to the final score through commands and buttons."""
    from ._driver import Player, _is_final, _keep_offered, _play_turn

    settings = Settings.from_env(
        {"DISCORD_TOKEN": "x", "TTR_DATABASE_PATH": str(tmp_path / "db")}, env_file=None
    )
    async with FakeDiscord(member_names=("alice", "bob")) as fake:
        fake.require_private_command("ttr hand", "ttr draw", "ttr claim", "ttr tickets")
        fake.require_private_component(re.compile(r"ttr:[0-9]+:(hand|draw|claim|tickets|board)"))
        with pointed_at(fake):
            async with real_service(tmp_path) as service:
                bot = create_bot(settings, service, guild_ready_timeout=0.05)
                async with running_client(fake, bot):
                    await fake.wait_for_commands("ttr new", "ttr hand", timeout=10)
                    alice = Player(fake, "alice", "games")
                    await alice.slash("new", {"map": "usa"})
                    await alice.slash("add_ai")
                    await alice.slash("start")
                    await _keep_offered(alice, await alice.slash("hand"))
                    mine = re.compile(rf"<@!?{alice.user.id}>")
                    seen = 0
                    for turn in range(150):
                        message = await fake.wait_for_message(
                            lambda m: (
                                _is_final(m)
                                or (
                                    m.kind == "channel"
                                    and bool(mine.search(m.content))
                                    and bool(m.custom_ids)
                                )
                            ),
                            since=seen,
                            timeout=10,
                        )
                        seen = len(fake.sent)
                        if _is_final(message):
                            break
                        await _play_turn(alice, message, turn)
                    assert _is_final(message), message.summary()
                    assert turn > 10
                    print(turn, message.content)


class _BrokenService(GameService):
    async def leave(self, game_id: int, user_id: int) -> None:
        raise RuntimeError("database on fire")


async def test_unexpected_errors_answer_nothing_changed(tmp_path: Path) -> None:
    """An unexpected exception is answered privately with "nothing was changed" and the game id."""
    settings = Settings.from_env(
        {"DISCORD_TOKEN": "x", "TTR_DATABASE_PATH": str(tmp_path / "db")}, env_file=None
    )
    async with FakeDiscord(member_names=("alice", "bob")) as fake:
        with pointed_at(fake):
            async with real_service(tmp_path, _BrokenService) as service:
                bot = create_bot(settings, service, guild_ready_timeout=0.05)
                async with running_client(fake, bot):
                    await fake.wait_for_commands("ttr new", timeout=10)
                    alice = fake.user("alice")
                    await (
                        await fake.slash(alice, "ttr", "new", {"map": "usa"}, channel="games")
                    ).message(timeout=10)
                    r = await (
                        await fake.slash(alice, "ttr", "join", {"leave": True}, channel="games")
                    ).message(timeout=10)
                    assert (
                        r.ephemeral and "nothing was changed" in r.content and "game 1" in r.content
                    )
                    r = await (
                        await fake.slash(
                            alice, "ttr", "draw", {"source": "deck"}, channel="general"
                        )
                    ).message(timeout=10)
                    assert r.ephemeral and "no game in this channel" in r.content


async def test_out_of_turn_is_refused_privately_and_changes_nothing(tmp_path: Path) -> None:
    """Two humans: the one who is not active gets a private "not your turn" for a command and a button;
    the stored game does not move."""
    from ._driver import Player, _keep_offered

    settings = Settings.from_env(
        {"DISCORD_TOKEN": "x", "TTR_DATABASE_PATH": str(tmp_path / "db")}, env_file=None
    )
    async with FakeDiscord(member_names=("alice", "bob")) as fake:
        with pointed_at(fake):
            async with real_service(tmp_path) as service:
                bot = create_bot(settings, service, guild_ready_timeout=0.05)
                async with running_client(fake, bot):
                    await fake.wait_for_commands("ttr new", timeout=10)
                    alice, bob = Player(fake, "alice", "games"), Player(fake, "bob", "games")
                    await alice.slash("new", {"map": "usa"})
                    await bob.slash("join")
                    await alice.slash("start")
                    for p in (alice, bob):
                        await _keep_offered(p, await p.slash("hand"))
                    game = await service.game_in_channel(fake.channel("games").id)
                    views = await service.table(game.id, 0)
                    idle = (alice, bob)[1 - views.public.active]
                    version = (await service.storage.get_game(game.id)).version
                    r = await idle.slash("draw", {"source": "deck"})
                    assert r.ephemeral and "not your turn" in r.content.lower()
                    turn = [
                        m
                        for m in fake.messages_in("games")
                        if f"ttr:{game.id}:draw" in m.custom_ids
                    ][-1]
                    r = await idle.click(turn, f"ttr:{game.id}:draw")
                    assert r.ephemeral and "not your turn" in r.content.lower()
                    assert (await service.storage.get_game(game.id)).version == version
                    seat = 1 - views.public.active
                    try:
                        await service.act(
                            game.id, idle.user.id, DrawBlind(seat), expected_version=None
                        )
                    except Exception as exc:  # the service refuses too, with its code
                        assert getattr(exc, "code", "") == "not_your_turn"
                    else:
                        raise AssertionError("the service accepted an out-of-turn action")
