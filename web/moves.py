"""Playing on the live board: the moves a player's page offers and the request that makes one.

The page of a private grant (a seated user's own link) gets its seat's legal moves in the
state's ``me.moves`` (:func:`moves_payload`: the service's :class:`~bot.host.services.TurnMenu`,
the same menu Discord's buttons are built from) and sends the chosen one with
``POST /api/b/{token}/act``, body ``{"version": v, "action": {...}}`` (:func:`parse_move`). The
move is turned into an engine action by the same menu methods as a click in Discord
(``menu.draw``, ``menu.claim``, ...) and applied by ``service.play.act`` with the version the
page showed as the expected version, so a move from the page and one from Discord can never
both land: the later one is refused with ``stale_version``. A turn that ended is told in the
channel by the service's ``on_turn`` callback (the cogs' publisher, the same one that posts
the clock's moves), through the one send funnel.

A refusal is ``{"error": code, "message": text}``: a code of ``words/_errors.py`` and the
sentence Discord shows for it, in the grant's language with the map's nouns.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Protocol

from aiohttp import web

from bot.host.services import ServiceError, TableView, TurnMenu
from words import error_text, refusal, words_for
from words._catalog import NP_

from .tokens import Grant

log = logging.getLogger(__name__)

#: A refusal's HTTP status (any other refusal of a move: 400; the sentence says why).
MOVE_STATUS = {"stale_version": 409, "not_in_game": 403, "game_not_found": 404}
#: The largest index, slot or payment number a move may name (a menu holds far fewer).
MAX_INDEX = 9999
#: The most tickets a keep may name.
MAX_KEEP = 16

#: Each move kind and its fields: field -> (type, may be null).
MOVE_FIELDS: dict[str, dict[str, tuple[str, bool]]] = {
    "draw": {"slot": ("int", True)},
    "claim": {"route": ("int", False), "payment": ("int", False)},
    "station": {"city": ("int", False), "payment": ("int", False)},
    "tickets": {"draw": ("int", False)},
    "keep": {"tickets": ("ints", False)},
    "tunnel": {"payment": ("int", True)},
    "flag": {"colour": ("str", True)},
}


#: The move panel's words (page word key -> English msgid, context "web"; the page fills
#: ``{name}``, ``{colour}`` and ``{n}``): part of the state's ``strings``.
MOVE_WORDS: dict[str, str] = {
    "your_move": NP_("web", "Your move"),
    "wait_turn": NP_("web", "Wait for your turn."),
    "draw_deck": NP_("web", "Draw from the deck"),
    "take_face_up": NP_("web", "Take the face-up card: {colour}"),
    "second_card": NP_("web", "Take your second card."),
    "claim_hint": NP_("web", "Tap a route on the board to claim it."),
    "choose_payment": NP_("web", "Choose the cards to play for {name}:"),
    "pay": NP_("web", "Play {name}"),
    "cancel": NP_("web", "Cancel"),
    "draw_tickets": NP_("web", "Draw {tickets}"),
    "draw_mix": NP_("web", "Draw {tickets}: {name}"),
    "keep_title": NP_("web", "Choose the {tickets} to keep."),
    "keep_least": NP_("web", "Keep at least: {n}"),
    "keep": NP_("web", "Keep the chosen {tickets}"),
    "tunnel_title": NP_("web", "Tunnel {name}: extra cards to play: {n}"),
    "tunnel_revealed": NP_("web", "Revealed: {name}"),
    "tunnel_pay": NP_("web", "Play the extra cards: {name}"),
    "tunnel_give_up": NP_("web", "Give up the tunnel"),
    "station_title": NP_("web", "Or build a {station}:"),
    "station_build": NP_("web", "Build a {station} in {name}"),
    "flag_keep": NP_("web", "Set a {colour} card aside for a {flag}"),
    "flag_none": NP_("web", "Set no card aside for a {flag}"),
    "sending": NP_("web", "Sending your move…"),
}


class BadMove(ValueError):
    """The request body is not a move of the contract (refused as ``malformed_action``)."""


def _field(value: Any, kind: str, nullable: bool) -> Any:
    if value is None:
        if nullable:
            return None
        raise BadMove("null")
    if kind == "int":
        if type(value) is not int or not 0 <= value <= MAX_INDEX:
            raise BadMove("not an index")
        return value
    if kind == "ints":
        if not isinstance(value, list) or len(value) > MAX_KEEP:
            raise BadMove("not a list of indexes")
        return [_field(v, "int", False) for v in value]
    if not isinstance(value, str) or not 0 < len(value) <= 32:
        raise BadMove("not a name")
    return value


def parse_move(body: bytes) -> tuple[int, dict[str, Any]]:
    """The expected version and the move of a request body ``{"version": v, "action":
    {"kind": ..., fields}}`` (fields per kind: :data:`MOVE_FIELDS`; no other key anywhere).

    Raises:
        BadMove: anything else (not JSON, a missing or extra key, a wrong type, a negative
            or huge number).
    """
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise BadMove("not JSON") from None
    if not isinstance(data, dict) or set(data) != {"version", "action"}:
        raise BadMove("not a move request")
    version, action = data["version"], data["action"]
    if type(version) is not int or not 0 <= version < 2**31:
        raise BadMove("bad version")
    if not isinstance(action, dict) or not isinstance(action.get("kind"), str):
        raise BadMove("bad action")
    fields = MOVE_FIELDS.get(action["kind"])
    if fields is None or set(action) != {"kind", *fields}:
        raise BadMove("unknown kind or fields")
    move = {"kind": action["kind"]}
    for name, (kind, nullable) in fields.items():
        move[name] = _field(action[name], kind, nullable)
    return version, move


def menu_action(menu: TurnMenu, move: Mapping[str, Any]) -> Any:
    """The engine action of ``move`` (a :func:`parse_move` result), made by the menu's own
    methods, as a Discord click makes it.

    Raises:
        ServiceError: ``bad_draw``, ``bad_route``, ``bad_payment``, ``bad_station_city``,
            ``bad_ticket_draw``, ``bad_keep``, ``must_keep_at_least``, ``wrong_step``,
            ``flag_color_not_allowed`` (the choices that exist, as in Discord).
    """
    kind = move["kind"]
    if kind == "draw":
        return menu.draw(move["slot"])
    if kind == "claim":
        return menu.claim(move["route"], move["payment"])
    if kind == "station":
        return menu.build_station(move["city"], move["payment"])
    if kind == "tickets":
        return menu.draw_tickets(move["draw"])
    if kind == "keep":
        return menu.keep_tickets(move["tickets"])
    if kind == "tunnel":
        return menu.pay_tunnel(move["payment"])
    return menu.keep_flag(move["colour"])


def current_menu(table: TableView, version: int) -> TurnMenu:
    """The reader's menu when ``version`` is the game's; else the refusal a Discord click on
    that version gets (the cogs' ``need_seat``/``need_turn``, then the stale version).

    Raises:
        ServiceError: ``not_in_game``, ``not_started``, ``game_over``, ``not_your_turn``,
            ``stale_version`` (detail ``expected``, ``current``).
    """
    if table.mine is None or table.seat is None:
        raise ServiceError("not_in_game")
    if table.menu is None and version == table.version:
        if table.game.status == "lobby":
            raise ServiceError("not_started")
        if table.game.status != "active":
            raise ServiceError("game_over")
        raise ServiceError("not_your_turn")
    if table.menu is None or version != table.version:
        raise ServiceError("stale_version", {"expected": version, "current": table.version})
    return table.menu


def moves_payload(table: TableView) -> dict[str, Any] | None:
    """The reader's legal moves now, as the page renders them (None: nothing to decide).

    ``claims`` and ``stations`` carry the menu's stable indexes and each payment's cards
    (colour -> count), ``tickets`` the allowed ticket draws (``[[deck, count], ...]`` mixes,
    ``[]`` the plain draw), ``keep`` the offered tickets with the numbers to keep, ``tunnel``
    the revealed cards and the ways to pay the extra cards, ``flags`` (Paris) the colours a
    card may be set aside in.
    """
    menu = table.menu
    if menu is None:
        return None
    board = table.rules.board
    keep = None
    if menu.keep is not None:
        offer = [board.tickets[t] for t in menu.keep.offer]
        keep = {
            "offer": [{"id": t.id, "a": t.a, "b": t.b, "points": t.points} for t in offer],
            "min": menu.keep.least,
            "max": menu.keep.most,
            "setup": menu.keep.setup,
        }
    tunnel = None
    if menu.tunnel is not None:
        t = menu.tunnel
        tunnel = {
            "route": t.route,
            "revealed": list(t.revealed),
            "extra": t.extra,
            "colour": t.color,
            "payments": [dict(p) for p in t.payments],
        }
    return {
        "version": menu.version,
        "step": menu.step,
        "deck": menu.draw_deck,
        "slots": list(menu.draw_slots),
        "claims": [
            {
                "index": c.index,
                "route": c.route,
                "tracks": list(c.tracks) or [c.route],
                "payments": [
                    {"cards": dict(p), "track": c.track(i)} for i, p in enumerate(c.payments)
                ],
            }
            for c in menu.claims
        ],
        "tickets": [[list(pile) for pile in mix] for mix in menu.ticket_draws],
        "keep": keep,
        "tunnel": tunnel,
        "flags": list(menu.flag_colors),
        "stations": [
            {
                "index": s.index,
                "city": s.city,
                "cost": s.cost,
                "payments": [dict(p) for p in s.payments],
            }
            for s in menu.stations
        ],
    }


class MoveApp(Protocol):
    """What the move route needs of :class:`web.server.WebApp`."""

    service: Any

    def grant(self, request: web.Request) -> Grant:
        """The request's verified grant (raises the app's refusal)."""

    async def state_for(self, grant: Grant) -> dict[str, Any]:
        """The state payload for ``grant`` now."""


def _refused(code: str, lang: str, meta: Mapping[str, Any] | None, detail: Any) -> web.Response:
    text = error_text(code, words_for(lang, meta), detail)
    payload = json.dumps({"error": code, "message": text}, ensure_ascii=False)
    return web.Response(
        status=MOVE_STATUS.get(code, 400),
        text=payload,
        content_type="application/json",
        headers={"Cache-Control": "no-store"},
    )


class Moves:
    """``POST /api/b/{token}/act``: a player's move from the page (see the module docstring).

    Args:
        web_app: the live board's app (grants, the service, the state payload).
    """

    def __init__(self, web_app: MoveApp) -> None:
        self.web_app = web_app

    def add_to(self, app: web.Application) -> None:
        """Register the route on ``app``."""
        app.router.add_post("/api/b/{token}/act", self.act)

    async def act(self, request: web.Request) -> web.Response:
        """Make the move of the request's body for the grant's seat; answer
        ``{"version": v, "state": {...}}`` (the state after it) or a refusal."""
        grant = self.web_app.grant(request)
        body = await request.read()
        try:
            version, move = parse_move(body)
        except BadMove as exc:
            log.info("game %s: a move from the page was malformed (%s)", grant.game_id, exc)
            return _refused("malformed_action", grant.lang, None, {})
        if grant.user_id is None:
            return _refused("not_in_game", grant.lang, None, {})
        service = self.web_app.service
        meta: Mapping[str, Any] | None = None
        try:
            table: TableView = await service.queries.table(grant.game_id, grant.user_id)
            meta = table.rules.meta
            action = menu_action(current_menu(table, version), move)
            outcome = await service.play.act(
                grant.game_id, grant.user_id, action, expected_version=version
            )
        except Exception as exc:
            refused = refusal(exc)
            if refused is None:
                raise
            log.info("game %s: a move from the page was refused: %s", grant.game_id, refused.code)
            return _refused(refused.code, grant.lang, meta, refused.detail)
        await self._publish(service.on_turn, grant.game_id, outcome)
        state = await self.web_app.state_for(grant)
        return web.Response(
            text=json.dumps({"version": outcome.game.version, "state": state}, ensure_ascii=False),
            content_type="application/json",
            headers={"Cache-Control": "no-store"},
        )

    @staticmethod
    async def _publish(
        on_turn: Callable[[int, Any], Awaitable[None]] | None, game_id: int, outcome: Any
    ) -> None:
        """Tell the channel of the turn that ended, as after a move of the clock; a failure
        there does not undo the stored move."""
        if on_turn is None:
            return
        try:
            await on_turn(game_id, outcome)
        except Exception:
            log.exception("game %s: the turn message of a move from the page failed", game_id)


__all__ = [
    "MAX_INDEX",
    "MOVE_WORDS",
    "MOVE_FIELDS",
    "MOVE_STATUS",
    "BadMove",
    "Moves",
    "current_menu",
    "menu_action",
    "moves_payload",
    "parse_move",
]
