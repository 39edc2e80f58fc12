"""AI levels through GameService.add_ai: stored as the seat's AI kind, named, refused when unknown."""

from __future__ import annotations

import asyncio

import pytest

from bot.host.services import GameService, ServiceError
from bot.host.storage import Storage
from engine.ai import AI_LEVELS

from .conftest import HOST, lobby


async def test_add_ai_stores_each_level_and_names_easy_and_hard(
    service: GameService, storage: Storage
) -> None:
    """easy/normal/hard/expert are stored as ai_kind; the name says the level unless it is
    normal."""
    gid = await lobby(service, users=(HOST,))
    for level in AI_LEVELS:
        await service.lobby.add_ai(gid, HOST, level=level)
    ais = [s for s in await storage.seats.seats(gid) if s.is_ai]
    assert [(s.ai_kind, s.display_name) for s in ais] == [
        ("easy", "AI 1 (easy)"),
        ("normal", "AI 2"),
        ("hard", "AI 3 (hard)"),
        ("expert", "AI 4 (expert)"),
    ]


async def test_add_ai_default_is_normal_and_old_kind_name_maps_to_normal(
    service: GameService, storage: Storage
) -> None:
    """No level: normal. The pre-level name "heuristic" (old callers) is stored as normal."""
    gid = await lobby(service, users=(HOST,))
    plain = await service.lobby.add_ai(gid, HOST)
    old = await service.lobby.add_ai(gid, HOST, kind="heuristic")
    assert (plain.ai_kind, old.ai_kind) == ("normal", "normal")


async def test_level_names_follow_the_tables_language(
    service: GameService, storage: Storage
) -> None:
    """A German table names its AI seats in German: "KI 1 (schwer)"."""
    game = await service.lobby.create(
        guild_id=1, channel_id=77, host_id=HOST, host_name="Host", map_id="usa", language="de"
    )
    seat = await service.lobby.add_ai(game.id, HOST, level="hard")
    easy = await service.lobby.add_ai(game.id, HOST, level="easy")
    assert (seat.display_name, easy.display_name) == ("KI 1 (schwer)", "KI 2 (leicht)")


@pytest.mark.parametrize("level", ["impossible", "", "random", "HARD"])
async def test_unknown_level_is_a_typed_refusal_and_writes_nothing(
    service: GameService, storage: Storage, level: str
) -> None:
    """An unknown level (also the fuzzing-only "random" player) is refused: bad_ai_level, no seat."""
    gid = await lobby(service, users=(HOST,))
    before = await storage.seats.seats(gid)
    with pytest.raises(ServiceError) as err:
        await service.lobby.add_ai(gid, HOST, level=level)
    assert err.value.code == "bad_ai_level"
    assert err.value.detail == {"given": level, "choices": "easy, normal, hard, expert"}
    assert await storage.seats.seats(gid) == before


async def test_the_event_loop_runs_while_an_ai_seat_thinks(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """AI moves are chosen off the event loop (a hard seat thinks up to ~1.4 s per move): while
    the AI chooses, another coroutine runs. The AI's choice waits for that coroutine; had the
    choice run on the loop, the loop could not run it and the wait would time out."""
    import threading

    import bot.host.services._recording as core

    loop_ran = threading.Event()
    waited: list[bool] = []
    real = core.choose_action

    def choose(*args: object, **kwargs: object) -> object:
        if not waited:
            waited.append(loop_ran.wait(timeout=5))
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(core, "choose_action", choose)

    async def elsewhere() -> None:
        await asyncio.sleep(0.01)
        loop_ran.set()

    gid = await lobby(service, users=(HOST,), ais=1)
    await asyncio.gather(service.lobby.start(gid, HOST), elsewhere())
    assert waited == [True]
