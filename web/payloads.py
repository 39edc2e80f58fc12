"""The live board's JSON: the map as drawn, a game's state for one reader, a move.

Pure functions of the service's views (:class:`~bot.host.services.TableView`, the public
view of each :class:`~bot.host.services.BoardStep`) and the catalogs' words; the shapes are
the contract in ``docs/contributors/live-board.md``. The public parts come from the public
view alone (counts, claims, face-up cards); ``me`` only from the reader's own
:class:`~bot.host.services.PlayerView`, the one Discord's private replies use. Nothing here
reads a seed, a deck's order or another seat's hand or tickets: the views do not hold them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from bot.host.services import BoardStep, ClassicRules, PublicView, TableView
from bot.host.services import events as ev_
from bot.host.storage import GameRow, SeatRow
from maps.loader import load_ruleset, map_dirs, read_layout
from render._theme import CARD_COLORS, CARD_SYMBOLS, SEAT_COLORS, SEAT_SYMBOLS
from sentences.stories import turn_lines
from words import N_, Words, words_for

from .moves import moves_payload

#: Public log lines a state carries (the newest).
LOG_LINES = 20

#: The seats' colour names, in the order of the images' seat colours (render/_theme.py).
SEAT_COLOUR_NAMES = (N_("green"), N_("lilac"), N_("brown"), N_("midnight blue"), N_("slate"))

#: Gray routes take any colour: no symbol on the board, "·" where the page names the colour.
ROUTE_SYMBOLS = {**CARD_SYMBOLS, "gray": "·"}

#: The engine's step -> the page's turn phase.
_PHASES = {"turn": "main", "second_card": "second_draw", "keep_tickets": "tickets"}


def words_of(map_id: str, lang: str) -> tuple[ClassicRules, Words]:
    """The map's rules and the catalogs' words in ``lang`` with the map's nouns."""
    rules = load_ruleset(map_id)
    return rules, words_for(lang, meta=rules.meta)


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def map_name(rules: ClassicRules, lang: str) -> str:
    """A map's name in ``lang``."""
    names = rules.meta.get("name") or {}
    return str(names.get(lang) or names.get("en") or rules.map_id)


@lru_cache(maxsize=64)
def map_payload(map_id: str, lang: str) -> dict[str, Any]:
    """The map as drawn: places, routes with their geometry hints, colours (the images')."""
    rules, w = words_of(map_id, lang)
    layout = read_layout(map_id) or {"size": [1000, 700], "cities": {}, "routes": {}}
    board = rules.board
    routes = []
    for route in board.routes.values():
        geometry = layout["routes"].get(route.id, {})
        sibling = next((s for s in board.siblings(route.id) if s != route.id), None)
        routes.append(
            {
                "id": route.id,
                "a": route.a,
                "b": route.b,
                "length": route.length,
                "colour": route.color,
                "tunnel": route.tunnel,
                "ferry": route.locomotives,
                "lane": float(geometry.get("lane", 0.0)),
                "bend": float(geometry.get("bend", 0.0)),
                "double_of": sibling,
            }
        )
    cities = [
        {
            "id": city.id,
            "name": city.name,
            "x": layout["cities"].get(city.id, {}).get("x", 0.0),
            "y": layout["cities"].get(city.id, {}).get("y", 0.0),
            "label": layout["cities"].get(city.id, {}).get("label", ""),
            "kind": city.kind,
        }
        for city in board.cities.values()
    ]
    colours = {
        colour: {"hex": _hex(rgb), "symbol": ROUTE_SYMBOLS.get(colour, ""), "name": w.color(colour)}
        for colour, rgb in CARD_COLORS.items()
    }
    seat_colours = [
        {"hex": _hex(rgb), "symbol": SEAT_SYMBOLS[i], "name": w.text(SEAT_COLOUR_NAMES[i])}
        for i, rgb in enumerate(SEAT_COLORS)
    ]
    return {
        "map": map_id,
        "name": map_name(rules, lang),
        "size": list(layout["size"]),
        "cities": cities,
        "routes": routes,
        "colours": colours,
        "seat_colours": seat_colours,
        "background": _background(map_id),
    }


def _background(map_id: str) -> dict[str, Any]:
    """The map's ``background.json`` (land, water, borders as the PNG draws them), or {}."""
    folder = map_dirs().get(map_id)
    if folder is None or not (folder / "background.json").is_file():
        return {}
    data: dict[str, Any] = json.loads((folder / "background.json").read_text(encoding="utf-8"))
    return data


def move_kind(events: Sequence[ev_.Event]) -> str:
    """What a stored action did, in one word: ``claim``, ``tunnel``, ``station``, ``tickets``,
    ``draw``, ``resign``, ``pass`` or ``other``."""
    kinds = [
        (ev_.RouteClaimed, "claim"),
        (ev_.TunnelRevealed, "tunnel"),
        (ev_.TunnelAbandoned, "tunnel"),
        (ev_.StationBuilt, "station"),
        (ev_.TicketsKept, "tickets"),
        (ev_.TicketsDrawn, "tickets"),
        (ev_.CardDrawn, "draw"),
        (ev_.Resigned, "resign"),
        (ev_.Passed, "pass"),
    ]
    for cls, kind in kinds:
        if any(isinstance(e, cls) for e in events):
            return kind
    return "other"


def step_text(step: BoardStep, rules: ClassicRules, names: Sequence[str], w: Words) -> str:
    """The public sentence of one stored action (may be empty: a choice told with the next)."""
    return " ".join(turn_lines(step.events, rules, names, w))


def move_payload(
    step: BoardStep, rules: ClassicRules, names: Sequence[str], w: Words
) -> dict[str, Any]:
    """A move as the page shows it (the contract's ``last_move``)."""
    routes = [e.route for e in step.events if isinstance(e, ev_.RouteClaimed)]
    cities = [e.city for e in step.events if isinstance(e, ev_.StationBuilt)]
    return {
        "version": step.version,
        "seat": step.seat,
        "kind": move_kind(step.events),
        "routes": routes,
        "cities": cities,
        "text": step_text(step, rules, names, w),
    }


def seat_names(seats: Sequence[SeatRow]) -> list[str]:
    """Each seat's shown name, by seat (AI seats carry their level: "AI 2 (hard)")."""
    return [s.display_name for s in sorted(seats, key=lambda r: r.seat)]


def _status(game: GameRow) -> str:
    return {"active": "running"}.get(game.status, game.status)


def _turn(public: PublicView | None) -> dict[str, Any]:
    if public is None:
        return {"seat": None, "phase": "lobby", "round": 0, "last_round": False}
    if public.phase == "finished":
        phase = "over"
    elif public.phase == "setup":
        phase = "initial_tickets"
    else:
        phase = _PHASES.get(public.step, public.step)
    seat = None if public.phase != "play" else public.active
    return {"seat": seat, "phase": phase, "round": public.turn, "last_round": public.last_round}


def _stations(public: PublicView) -> dict[str, int]:
    try:
        built = public.stations
    except AttributeError:
        return {}
    # the rule set's field is a read-only mapping (MappingProxyType), not a dict
    return dict(built) if isinstance(built, Mapping) else {}


def public_state(
    game: GameRow,
    seats: Sequence[SeatRow],
    public: PublicView | None,
    version: int,
    now: float,
) -> dict[str, Any]:
    """The state everyone may see at ``version`` (no ``me``, ``strings``, ``log``)."""
    rules = load_ruleset(game.map_id)
    built = _stations(public) if public is not None else {}
    stations_each = rules.params.stations.count if rules.params.stations else None
    waiting = set(public.waiting_for) if public is not None else set()
    rows = []
    for row in sorted(seats, key=lambda r: r.seat):
        player = public.players[row.seat] if public and row.seat < len(public.players) else None
        left = None
        if stations_each is not None:
            left = stations_each - sum(1 for s in built.values() if s == row.seat)
        on_vacation = row.vacation_until is not None and row.vacation_until > now
        deadline = game.deadline_at if row.seat in waiting else None
        rows.append(
            {
                "seat": row.seat,
                "name": row.display_name,
                "colour": row.seat,
                "ai": row.is_ai or row.ai_permanent,
                "trains": player.pieces if player else rules.params.pieces,
                "stations": left,
                "score": player.score if player else 0,
                "cards": player.cards if player else 0,
                "tickets": player.tickets if player else 0,
                "resigned": row.resigned,
                "clock": {"deadline": deadline, "vacation": on_vacation},
            }
        )
    out: dict[str, Any] = {
        "version": version,
        "game": {
            "id": game.id,
            "map": game.map_id,
            "status": _status(game),
            "lang": game.language,
            "rated": bool(game.rated),
        },
        "seats": rows,
        "turn": _turn(public),
        "face_up": list(public.face_up) if public else [],
        "deck": public.deck_size if public else 0,
        "discard": public.discard_size if public else 0,
        "tickets_left": sum(public.ticket_decks.values()) if public else 0,
        "claims": [{"route": r, "seat": s} for r, s in (public.owners if public else {}).items()],
        "stations": [{"city": c, "seat": s} for c, s in built.items()],
        "extras": _extras(public),
    }
    return out


def _extras(public: PublicView | None) -> dict[str, Any]:
    if public is None or public.extra is None:
        return {}
    return dict(public.extra.to_json())


def private_part(table: TableView) -> dict[str, Any] | None:
    """The reader's own hand, tickets, ticket offer and plans (None: no seat of theirs)."""
    mine = table.mine
    if mine is None or table.seat is None:
        return None
    return {
        "seat": table.seat,
        "hand": dict(mine.hand),
        "tickets": [
            {"id": t.id, "a": t.a, "b": t.b, "points": t.points, "done": t.done}
            for t in mine.tickets
        ],
        "offer": list(mine.offer) or None,
        "planner": [
            {"ticket": p.ticket, "routes": list(p.routes), "cars_missing": p.cars}
            for p in table.plans
        ],
        "moves": moves_payload(table),
    }


__all__ = [
    "LOG_LINES",
    "SEAT_COLOUR_NAMES",
    "map_name",
    "map_payload",
    "move_kind",
    "move_payload",
    "private_part",
    "public_state",
    "seat_names",
    "step_text",
    "words_of",
]
