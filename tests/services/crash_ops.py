"""Crash-injection helper, run as a subprocess: one service operation, killed at its n-th write point.

``python tests/services/crash_ops.py DB OP N`` opens the prepared database
``DB`` (see :func:`prepare`), arms the storage's fault hook so that the
process SIGKILLs itself at the N-th write point (before a statement, before a
commit or right after one, counted from 1), and runs OP through
GameService: ``start`` (the host starts a lobby whose seats have a gap),
``resign`` (the player to move gives up; the AI plays on), ``vacation``
(the player to move takes two days; the clock moves), ``finish`` (the last
action of a rated game: its results and every player's new rating are one
write), ``forget`` (the host,
who finished one game with others and resigned from another, is forgotten)
or ``purge`` (a server that removed the bot, with a finished and a paused
game, is deleted while another server's game runs), ``expire`` (a lobby nobody joined is
closed by the open tables' expiry a day later), ``follow`` (someone follows a lobby) or
``award`` (the achievements of a game HOST and BOB played to the end, lost by a crash between
the finishing transaction and their own, are awarded again). When the operation
finishes before the N-th point it prints ``done <points passed>``.

``prepare(db, op)`` (called by the test in-process) builds the database the
operation starts from; :data:`CLOCK` is the fixed time both sides use.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from bot.host.services import GameService
from bot.host.storage import _faults, open_storage
from engine import KeepTickets, apply
from engine.ai import choose_action
from maps.loader import load_ruleset

HOST, LEAVER, BOB, CAROL = 101, 102, 202, 303
CLOCK = 1_800_000_000.0
OPS = ("start", "resign", "vacation", "finish", "forget", "purge", "expire", "follow", "award")
#: When the ``expire`` operation runs: a day and a second after the lobby opened.
EXPIRE_AT = CLOCK + 86_401
#: The operations on many rows of many games, checked by comparing whole databases.
ROW_OPS = ("forget", "purge", "award")


def clock() -> float:
    return CLOCK


async def prepare(db: Path, op: str) -> None:
    """The database ``op`` starts from: a lobby with a gap in its seats (start), a running
    game after the ticket choice where HOST is to move (resign, vacation), or a rated game
    one action from its end (finish)."""
    if op == "finish":
        await prepare_finish(db)
        return
    storage = await open_storage(db, clock=clock)
    service = GameService(storage, clock=clock, seed_source=lambda: 4242)
    if op in ("expire", "follow"):  # a lobby of the host and a computer player
        try:
            game = await service.lobby.create(
                guild_id=1, channel_id=7, host_id=HOST, host_name="host", map_id="usa"
            )
            await service.lobby.add_ai(game.id, HOST)
            return
        finally:
            await service.close()
            await storage.close()
    try:
        game = await service.lobby.create(
            guild_id=1, channel_id=7, host_id=HOST, host_name="host", map_id="usa",
            turn_seconds=3600,
        )  # fmt: skip
        for user, name in ((LEAVER, "leaver"), (BOB, "bob"), (CAROL, "carol")):
            await service.lobby.join(game.id, user, name)
        await service.lobby.add_ai(game.id, HOST)
        await service.lobby.leave(game.id, LEAVER)  # seats 0, 2, 3, 4: a gap to close at start
        if op == "start":
            return
        await service.lobby.start(game.id, HOST)
        state = await service.loader.game_state(game.id)
        seats = await storage.seats.seats(game.id)
        for seat in state.seats_to_act():
            user = seats[seat].user_id
            if user is not None:
                await service.play.act(
                    game.id,
                    user,
                    KeepTickets(seat, state.players[seat].offer),
                    expected_version=None,
                )
        assert (await service.loader.game_state(game.id)).seats_to_act() == [0]  # HOST is to move
    finally:
        await service.close()
        await storage.close()


async def prepare_finish(db: Path) -> None:
    """A rated USA game of HOST (who resigned after choosing tickets, so the computer plays the
    seat) against an easy and a normal computer seat, stepped one action at a time until the
    next action ends it."""
    storage = await open_storage(db, clock=clock)
    service = GameService(storage, clock=clock, seed_source=lambda: 4242, auto_ai=False)
    try:
        game = await service.lobby.create(
            guild_id=1, channel_id=7, host_id=HOST, host_name="host", map_id="usa", rated=True
        )
        await service.lobby.add_ai(game.id, HOST, level="easy")
        await service.lobby.add_ai(game.id, HOST, level="normal")
        await service.lobby.start(game.id, HOST)
        while 0 not in (await service.loader.game_state(game.id)).seats_to_act():
            await service.play.play_ai(game.id)
        state = await service.loader.game_state(game.id)
        await service.play.act(
            game.id, HOST, KeepTickets(0, state.players[0].offer), expected_version=None
        )
        await service.play.resign(game.id, HOST)
        rules = load_ruleset("usa")
        seats = await storage.seats.seats(game.id)
        while True:
            state = await service.loader.game_state(game.id)
            seat = state.seats_to_act()[0]
            action = choose_action(rules, state, seat, seats[seat].ai_kind or "heuristic")
            if apply(rules, state, action).state.finished:
                return
            await service.play.play_ai(game.id)
    finally:
        await service.close()
        await storage.close()


async def _keep_offered(service: GameService, game_id: int) -> None:
    """Every human seat keeps its offered tickets."""
    state = await service.loader.game_state(game_id)
    seats = await service.storage.seats.seats(game_id)
    for seat in state.seats_to_act():
        user = seats[seat].user_id
        if user is not None and not seats[seat].is_ai:
            offer = KeepTickets(seat, state.players[seat].offer)
            await service.play.act(game_id, user, offer, expected_version=None)


async def prepare_award(db: Path) -> None:
    """A USA game HOST and BOB played to the end (their moves the AI's choices, so they earn
    achievements), with its achievements deleted as a crash after the finishing transaction
    leaves them."""
    storage = await open_storage(db, clock=clock)
    service = GameService(storage, clock=clock, seed_source=lambda: 4242)
    try:
        game = await service.lobby.create(
            guild_id=1, channel_id=7, host_id=HOST, host_name="host", map_id="usa"
        )
        await service.lobby.join(game.id, BOB, "bob")
        await service.lobby.start(game.id, HOST)
        rules = load_ruleset("usa")
        while (state := await service.loader.game_state(game.id)).result is None:
            seat = state.seats_to_act()[0]
            user = (HOST, BOB)[seat]
            action = choose_action(rules, state, seat)
            await service.play.act(game.id, user, action, expected_version=None)
        earned = await storage.achievements.of_game(game.id)
        assert earned
        await storage.achievements.replace_all(earned, [])
    finally:
        await service.close()
        await storage.close()


async def prepare_rows(db: Path, op: str) -> None:
    """The database ``forget`` and ``purge`` start from: in guild 1 a game HOST, BOB and CAROL
    finished (each resigned; the AI played on) and a running one of HOST (resigned) and BOB,
    in guild 2 a running game of BOB and CAROL; HOST has settings. For ``purge`` guild 1
    removed the bot (its running game is paused). ``award``: :func:`prepare_award`."""
    if op == "award":
        await prepare_award(db)
        return
    storage = await open_storage(db, clock=clock)
    service = GameService(storage, clock=clock, seed_source=lambda: 4242)
    try:
        for guild, channel, users in (
            (1, 7, (HOST, BOB, CAROL)),
            (1, 8, (HOST, BOB)),
            (2, 9, (BOB, CAROL)),
        ):
            game = await service.lobby.create(
                guild_id=guild, channel_id=channel, host_id=users[0], host_name=f"u{users[0]}",
                map_id="amsterdam",
            )  # fmt: skip
            for user in users[1:]:
                await service.lobby.join(game.id, user, f"u{user}")
            await service.lobby.start(game.id, users[0])
            await _keep_offered(service, game.id)
            for user in users if channel == 7 else users[:1] if channel == 8 else ():
                await service.play.resign(game.id, user)
        await service.queries.set_user_settings(HOST, dm_turns=True)
        if op == "purge":
            await service.privacy.guild_removed(1)
    finally:
        await service.close()
        await storage.close()


async def run(service: GameService, op: str, game_id: int) -> None:
    """Run ``op`` (see the module docstring) through the service."""
    if op == "start":
        await service.lobby.start(game_id, HOST)
    elif op == "resign":
        await service.play.resign(game_id, HOST)
    elif op == "vacation":
        await service.play.vacation(game_id, HOST, days=2)
    elif op == "finish":
        await service.play.play_ai(game_id)
    elif op == "forget":
        await service.privacy.forget_user(HOST)
    elif op == "expire":
        await service.tables.expire_due(EXPIRE_AT)
    elif op == "follow":
        await service.tables.follow(game_id, CAROL, each_turn=True, language="de")
    elif op == "award":
        [finished] = await service.storage.games.game_ids("finished")
        await service.achievements.award(finished)
    else:
        await service.privacy.purge_guild(1)


async def main(db: Path, op: str, kill_at: int) -> None:
    passed = 0

    def hook(label: str) -> None:
        nonlocal passed
        passed += 1
        if passed == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)

    storage = await open_storage(db, clock=clock)
    service = GameService(storage, clock=clock, auto_ai=op != "finish")
    game_id = (await storage.games.game_ids())[0]
    _faults.hook = hook
    await run(service, op, game_id)
    _faults.hook = None
    await storage.close()
    print(f"done {passed}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])))
