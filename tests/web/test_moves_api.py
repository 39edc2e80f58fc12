"""Playing from the live board's page: ``me.moves`` offers the seat's legal moves, ``POST
/api/b/{token}/act`` makes one through the same service call and menu as a Discord click, and
every refusal is the code and the sentence Discord shows, in the grant's language."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.host.services import GameService, ServiceError
from bot.host.services.ops import verify_storage
from maps.loader import load_ruleset
from web import Limits
from web.moves import parse_move
from words import error_text, words_for

from ._helpers import (
    BOB,
    HOST,
    STRANGER,
    Clock,
    board,
    private_token,
    public_token,
    two_player_game,
)
from ._live_game import first_move, play_to_end, send, state

#: Limits a test that plays many moves at once does not meet (the real page plays slowly).
FAST = Limits(address_rate=1e6, address_burst=1e6, token_rate=1e6, token_burst=1e6)


def discord_words(code: str, lang: str, detail: dict[str, Any] | None = None) -> str:
    """The sentence Discord's error funnel shows for ``code`` on the USA map."""
    return error_text(code, words_for(lang, load_ruleset("usa").meta), detail)


async def tokens_of(
    service: GameService, game: int, now: float, lang: str = "en"
) -> dict[int, str]:
    """Seat -> that seat's private token."""
    seats = await service.storage.seats.seats(game)
    return {s.seat: private_token(game, s.user_id or 0, now, lang) for s in seats}


async def keep_initial(client: Any, tokens: dict[int, str]) -> int:
    """Both seats keep every offered ticket of the deal, from their pages; returns the seat
    whose turn it then is."""
    for token in tokens.values():
        now = await state(client, token)
        status, body = await send(client, token, now["version"], first_move(now["me"]["moves"]))
        assert status == 200, body
    return int((await state(client, tokens[0]))["turn"]["seat"])


async def test_the_page_offers_the_initial_ticket_choice_and_keeps_it(tmp_path: Path) -> None:
    clock = Clock()
    async with board(tmp_path / "db", clock=clock) as (service, client, _):
        game = await two_player_game(service)
        tokens = await tokens_of(service, game, clock.now)
        public = await state(client, public_token(game))
        assert public["me"] is None
        first = await state(client, tokens[0])
        moves = first["me"]["moves"]
        assert moves["step"] == "keep_tickets" and moves["version"] == first["version"]
        keep = moves["keep"]
        assert keep["setup"] and keep["min"] == 2 and keep["max"] == len(keep["offer"]) == 3
        assert [t["id"] for t in keep["offer"]] == first["me"]["offer"]
        assert moves["claims"] == [] and moves["deck"] is False
        status, body = await send(
            client, tokens[0], first["version"], {"kind": "keep", "tickets": [0, 2]}
        )
        assert status == 200, body
        assert body["version"] == first["version"] + 1
        mine = {t["id"] for t in body["state"]["me"]["tickets"]}
        assert mine == {keep["offer"][0]["id"], keep["offer"][2]["id"]}
        assert body["state"]["me"]["moves"] is None  # waiting for the other seat


async def test_card_draws_from_the_deck_and_face_up_end_the_turn(tmp_path: Path) -> None:
    clock = Clock()
    async with board(tmp_path / "db", clock=clock) as (service, client, _):
        game = await two_player_game(service)
        tokens = await tokens_of(service, game, clock.now)
        seat = await keep_initial(client, tokens)
        token = tokens[seat]
        now = await state(client, token)
        moves = now["me"]["moves"]
        assert moves["step"] == "turn" and moves["deck"] and moves["tickets"] == [[]]
        cards = sum(now["me"]["hand"].values())
        status, body = await send(client, token, now["version"], {"kind": "draw", "slot": None})
        assert status == 200, body
        second = body["state"]["me"]["moves"]
        assert second["step"] == "second_draw" or second["step"] == "second_card"
        slot = next(i for i in second["slots"] if body["state"]["face_up"][i] != "locomotive")
        status, body = await send(client, token, body["version"], {"kind": "draw", "slot": slot})
        assert status == 200, body
        after = body["state"]
        assert sum(after["me"]["hand"].values()) == cards + 2
        assert after["turn"]["seat"] != seat and after["me"]["moves"] is None


async def test_ticket_draw_then_keep_from_the_page(tmp_path: Path) -> None:
    clock = Clock()
    async with board(tmp_path / "db", clock=clock) as (service, client, _):
        game = await two_player_game(service)
        tokens = await tokens_of(service, game, clock.now)
        seat = await keep_initial(client, tokens)
        now = await state(client, tokens[seat])
        held = len(now["me"]["tickets"])
        status, body = await send(
            client, tokens[seat], now["version"], {"kind": "tickets", "draw": 0}
        )
        assert status == 200, body
        keep = body["state"]["me"]["moves"]["keep"]
        assert keep is not None and not keep["setup"] and keep["min"] == 1
        status, body = await send(
            client, tokens[seat], body["version"], {"kind": "keep", "tickets": [1]}
        )
        assert status == 200, body
        assert len(body["state"]["me"]["tickets"]) == held + 1


async def test_a_whole_game_from_the_pages_alone_verifies(tmp_path: Path) -> None:
    clock = Clock()
    async with board(tmp_path / "db", clock=clock, limits=FAST) as (service, client, _):
        game = await two_player_game(service)
        tokens = await tokens_of(service, game, clock.now)
        made = await play_to_end(client, list(tokens.values()))
        assert {"keep", "claim", "draw", "tickets"} <= set(made), made
        final = await state(client, public_token(game))
        assert final["game"]["status"] == "finished" and final["final"] is not None
        checked, problems = await verify_storage(service.storage)
        assert checked == 1 and problems == []


async def test_a_claim_with_a_payment_choice_pays_the_chosen_way(tmp_path: Path) -> None:
    clock = Clock()
    async with board(tmp_path / "db", clock=clock, limits=FAST) as (service, client, _):
        game = await two_player_game(service)
        tokens = list((await tokens_of(service, game, clock.now)).values())
        for _ in range(200):  # draw cards until a route can be paid two ways
            for token in tokens:
                now = await state(client, token)
                if now["me"]["moves"] is not None:
                    break
            moves = now["me"]["moves"]
            choice = next((c for c in moves["claims"] if len(c["payments"]) > 1), None)
            if choice is not None and moves["step"] == "turn":
                break
            action = first_move(moves)
            if action["kind"] == "claim":
                action = {"kind": "draw", "slot": None} if moves["deck"] else action
            status, body = await send(client, token, now["version"], action)
            assert status == 200, body
        assert choice is not None
        hand = dict(now["me"]["hand"])
        paid = choice["payments"][1]["cards"]
        status, body = await send(
            client, token, now["version"], {"kind": "claim", "route": choice["index"], "payment": 1}
        )
        assert status == 200, body
        after = body["state"]
        assert {"route": choice["payments"][1]["track"], "seat": after["me"]["seat"]} in after[
            "claims"
        ]
        for colour, n in paid.items():
            assert after["me"]["hand"].get(colour, 0) == hand[colour] - n


BAD_BODIES = [
    b"not json",
    b"[]",
    b'{"version": 1}',
    b'{"version": -1, "action": {"kind": "draw", "slot": null}}',
    b'{"version": true, "action": {"kind": "draw", "slot": null}}',
    b'{"version": 1, "action": {"kind": "draw"}}',
    b'{"version": 1, "action": {"kind": "draw", "slot": 1.5}}',
    b'{"version": 1, "action": {"kind": "draw", "slot": null, "extra": 1}}',
    b'{"version": 1, "action": {"kind": "claim", "route": 3, "payment": null}}',
    b'{"version": 1, "action": {"kind": "keep", "tickets": "all"}}',
    b'{"version": 1, "action": {"kind": "resign"}}',
    b'{"version": 1, "action": {"kind": "flag", "colour": 7}}',
    b'{"version": 1, "action": {"kind": "draw", "slot": 100000}}',
    b'{"version": 1, "action": {"kind": "draw", "slot": null}, "seat": 1}',
]


@pytest.mark.parametrize("body", BAD_BODIES)
def test_a_body_that_is_not_a_move_is_malformed(body: bytes) -> None:
    with pytest.raises(ValueError):
        parse_move(body)


def test_a_good_body_parses_to_its_move() -> None:
    assert parse_move(b'{"version": 4, "action": {"kind": "keep", "tickets": [0, 2]}}') == (
        4,
        {"kind": "keep", "tickets": [0, 2]},
    )


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_every_refusal_is_discords_code_and_sentence(tmp_path: Path, lang: str) -> None:
    clock = Clock()
    async with board(tmp_path / "db", clock=clock, limits=FAST) as (service, client, _):
        game = await two_player_game(service)
        tokens = await tokens_of(service, game, clock.now, lang)
        seen: dict[str, str] = {}

        async def refused(token: str, version: int, action: Any, code: str, status: int) -> None:
            response = await client.post(
                f"/api/b/{token}/act", json={"version": version, "action": action}
            )
            body = await response.json()
            assert response.status == status, body
            assert body["error"] == code, body
            seen[code] = body["message"]

        setup = await state(client, tokens[0])
        v = setup["version"]
        await refused(tokens[0], v, {"kind": "keep", "tickets": [7]}, "bad_keep", 400)
        await refused(tokens[0], v, {"kind": "keep", "tickets": [1]}, "must_keep_at_least", 400)
        await refused(tokens[0], v, {"kind": "draw", "slot": None}, "bad_draw", 400)
        await refused(
            public_token(game, lang), v, {"kind": "draw", "slot": None}, "not_in_game", 403
        )
        stranger = private_token(game, STRANGER, clock.now, lang)
        await refused(stranger, v, {"kind": "draw", "slot": None}, "not_in_game", 403)
        seat = await keep_initial(client, tokens)
        v = (await state(client, tokens[seat]))["version"]
        me, other = tokens[seat], tokens[1 - seat]
        await refused(other, v, {"kind": "draw", "slot": None}, "not_your_turn", 400)
        await refused(me, v - 1, {"kind": "draw", "slot": None}, "stale_version", 409)
        await refused(me, v, {"kind": "draw", "slot": 9}, "bad_draw", 400)
        await refused(me, v, {"kind": "claim", "route": 9999, "payment": 0}, "bad_route", 400)
        await refused(me, v, {"kind": "station", "city": 0, "payment": 0}, "bad_station_city", 400)
        await refused(me, v, {"kind": "tickets", "draw": 3}, "bad_ticket_draw", 400)
        await refused(me, v, {"kind": "tunnel", "payment": 0}, "wrong_step", 400)
        await refused(me, v, {"kind": "flag", "colour": "red"}, "wrong_step", 400)
        response = await client.post(f"/api/b/{me}/act", data=b"{")
        assert response.status == 400
        assert (await response.json())["error"] == "malformed_action"
        seen["malformed_action"] = (await response.json())["message"]
        assert (await state(client, me))["version"] == v  # nothing was changed
        for code, text in seen.items():
            table = await service.queries.table(game, HOST)
            assert table.version == v
            if code in ("bad_draw", "bad_route", "bad_station_city", "bad_ticket_draw"):
                continue  # their facts: below
            assert text == discord_words(code, lang, _facts(code, v)), code
        table = await service.queries.table(
            game, (await service.storage.seats.seats(game))[seat].user_id or 0
        )
        assert table.menu is not None
        menu = table.menu
        for code, click in (
            ("bad_draw", lambda: menu.draw(9)),
            ("bad_route", lambda: menu.claim(9999, 0)),
            ("bad_station_city", lambda: menu.build_station(0, 0)),
            ("bad_ticket_draw", lambda: menu.draw_tickets(3)),
        ):
            with pytest.raises(ServiceError) as raised:  # what the same click in Discord raises
                click()
            assert seen[code] == discord_words(code, lang, raised.value.detail), code


def _facts(code: str, version: int) -> dict[str, Any]:
    return {
        "bad_keep": {"min": 2, "max": 3},
        "must_keep_at_least": {"min": 2, "kept": 1},
        "stale_version": {"expected": version - 1, "current": version},
    }.get(code, {})


async def test_a_finished_game_refuses_a_move_as_over(tmp_path: Path) -> None:
    clock = Clock()
    async with board(tmp_path / "db", clock=clock, limits=FAST) as (service, client, _):
        game = await two_player_game(service)
        tokens = await tokens_of(service, game, clock.now, "de")
        await play_to_end(client, list(tokens.values()))
        now = await state(client, tokens[0])
        status, body = await send(client, tokens[0], now["version"], {"kind": "draw", "slot": None})
        assert status == 400 and body["error"] == "game_over"
        assert body["message"] == discord_words("game_over", "de")


async def test_moves_keep_to_the_rate_limit_of_the_link(tmp_path: Path) -> None:
    clock = Clock()
    limits = Limits(token_rate=0.001, token_burst=3)
    async with board(tmp_path / "db", clock=clock, limits=limits) as (service, client, _):
        game = await two_player_game(service)
        token = private_token(game, BOB, clock.now)
        answers = [
            (
                await client.post(
                    f"/api/b/{token}/act",
                    json={"version": 0, "action": {"kind": "draw", "slot": None}},
                )
            ).status
            for _ in range(5)
        ]
        assert answers[-1] == 429 and 429 not in answers[:3]


async def test_a_body_over_the_size_limit_is_refused(tmp_path: Path) -> None:
    clock = Clock()
    async with board(tmp_path / "db", clock=clock) as (service, client, _):
        game = await two_player_game(service)
        token = private_token(game, HOST, clock.now)
        response = await client.post(f"/api/b/{token}/act", data=b"x" * 5000)
        assert response.status == 413
        assert (await response.json())["error"] == "request_too_large"


async def map_game(service: GameService, map_id: str) -> int:
    """A started 2-player game of HOST and BOB on ``map_id``."""
    game = await service.lobby.create(
        guild_id=1,
        channel_id=5000,
        host_id=HOST,
        host_name="Anna",
        map_id=map_id,
        turn_seconds=3600,
    )
    await service.lobby.join(game.id, BOB, "Bert")
    await service.lobby.start(game.id, HOST)
    return game.id


async def play_until(
    client: Any, tokens: list[str], wanted: Any, *, limit: int = 400
) -> tuple[str, dict[str, Any]]:
    """Make the first legal move of a kind from the pages until the seat to act has ``wanted``
    (a test of its ``me.moves``): that seat's token and state."""
    for _ in range(limit):
        for token in tokens:
            now = await state(client, token)
            assert now["game"]["status"] == "running", "the game ended first"
            moves = now["me"]["moves"]
            if moves is None:
                continue
            if wanted(moves):
                return token, now
            status, body = await send(client, token, now["version"], first_move(moves))
            assert status == 200, body
            break
    raise AssertionError("the wanted position never came up")


def meta_words(map_id: str, code: str, lang: str, detail: dict[str, Any]) -> str:
    return error_text(code, words_for(lang, load_ruleset(map_id).meta), detail)


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_a_station_is_built_from_the_page(tmp_path: Path, lang: str) -> None:
    clock = Clock()
    async with board(tmp_path / "db", clock=clock, limits=FAST) as (service, client, _):
        game = await map_game(service, "europe")
        tokens = list((await tokens_of(service, game, clock.now, lang)).values())
        token, now = await play_until(
            client, tokens, lambda m: m["step"] == "turn" and m["stations"]
        )
        station = now["me"]["moves"]["stations"][0]
        v = now["version"]
        bad = {"kind": "station", "city": station["index"], "payment": 99}
        status, body = await send(client, token, v, bad)
        choices = len(station["payments"])
        assert (status, body["error"]) == (400, "bad_payment")
        assert body["message"] == meta_words(
            "europe", "bad_payment", lang, {"choices": choices, "given": 100}
        )
        status, body = await send(client, token, v, {"kind": "station", "city": 9999, "payment": 0})
        assert (status, body["error"]) == (400, "bad_station_city")
        assert "{station}" not in body["message"] and body["message"]
        good = {"kind": "station", "city": station["index"], "payment": 0}
        status, body = await send(client, token, v, good)
        assert status == 200, body
        after = body["state"]
        assert {"city": station["city"], "seat": after["me"]["seat"]} in after["stations"]
        assert after["last_move"]["kind"] == "station"


@pytest.mark.parametrize("map_id", ["europe", "nordic"])
async def test_a_tunnel_from_the_page_is_paid_or_given_up(tmp_path: Path, map_id: str) -> None:
    clock = Clock()
    async with board(tmp_path / "db", clock=clock, limits=FAST) as (service, client, _):
        game = await map_game(service, map_id)
        tokens = list((await tokens_of(service, game, clock.now)).values())
        token, now = await play_until(client, tokens, lambda m: m["step"] == "tunnel")
        moves = now["me"]["moves"]
        tunnel = moves["tunnel"]
        assert tunnel["extra"] > 0 and len(tunnel["revealed"]) <= 3
        assert moves["claims"] == [] and moves["deck"] is False
        v = now["version"]
        status, body = await send(client, token, v, {"kind": "tunnel", "payment": 99})
        assert (status, body["error"]) == (400, "bad_payment")
        status, body = await send(client, token, v, {"kind": "draw", "slot": None})
        assert (status, body["error"]) == (400, "bad_draw")
        pay = 0 if tunnel["payments"] else None
        status, body = await send(client, token, v, {"kind": "tunnel", "payment": pay})
        assert status == 200, body
        after = body["state"]
        assert after["last_move"]["kind"] == "tunnel"
        claimed = {"route": tunnel["route"], "seat": after["me"]["seat"]} in after["claims"]
        assert claimed == (pay is not None)


async def test_a_french_flag_card_is_set_aside_from_the_page(tmp_path: Path) -> None:
    clock = Clock()
    async with board(tmp_path / "db", clock=clock, limits=FAST) as (service, client, _):
        game = await map_game(service, "paris")
        tokens = list((await tokens_of(service, game, clock.now, "de")).values())
        token, now = await play_until(client, tokens, lambda m: m["step"] == "flag")
        flags = now["me"]["moves"]["flags"]
        assert flags
        v = now["version"]
        status, body = await send(client, token, v, {"kind": "flag", "colour": "locomotive"})
        assert (status, body["error"]) == (400, "flag_color_not_allowed")
        assert body["message"] == meta_words(
            "paris", "flag_color_not_allowed", "de", {"color": "locomotive"}
        )
        status, body = await send(client, token, v, {"kind": "flag", "colour": flags[0]})
        assert status == 200, body
        assert (
            body["state"]["me"]["moves"] is None or body["state"]["me"]["moves"]["step"] != "flag"
        )


async def test_amsterdam_claims_from_the_page_take_merchandise_without_a_choice(
    tmp_path: Path,
) -> None:
    clock = Clock()
    async with board(tmp_path / "db", clock=clock, limits=FAST) as (service, client, _):
        game = await map_game(service, "amsterdam")
        tokens = list((await tokens_of(service, game, clock.now)).values())
        token, now = await play_until(client, tokens, lambda m: m["step"] == "turn" and m["claims"])
        claim = now["me"]["moves"]["claims"][0]
        action = {"kind": "claim", "route": claim["index"], "payment": 0}
        status, body = await send(client, token, now["version"], action)
        assert status == 200, body
        assert body["state"]["last_move"]["kind"] == "claim"


async def test_a_move_with_a_bad_or_expired_link_is_refused_before_anything(
    tmp_path: Path,
) -> None:
    clock = Clock()
    async with board(tmp_path / "db", clock=clock) as (service, client, _):
        game = await two_player_game(service)
        move = {"version": 0, "action": {"kind": "keep", "tickets": [0, 1]}}
        forged = private_token(game, HOST, clock.now)[:-4] + "AAAA"
        response = await client.post(f"/api/b/{forged}/act", json=move)
        assert response.status == 403 and (await response.json())["error"] == "link_invalid"
        old = private_token(game, HOST, clock.now - 3 * 3600, "de")
        response = await client.post(f"/api/b/{old}/act", json=move)
        body = await response.json()
        assert response.status == 403 and body["error"] == "link_expired"
        assert body["message"] == discord_words("link_expired", "de")
        assert (await service.loader.game(game)).version == 0
