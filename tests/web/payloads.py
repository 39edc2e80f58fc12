"""Contract-shaped JSON of the live board, made from a real game (test fixture data).

The page (``web/static/``) reads four payloads: the map, the state, the SSE ``move``
events and the replay (their shapes: the live-board contract, written down in
``docs/players/live-board.md`` for players and by the server's docs page for
contributors). Until the server's own app serves them, the browser tests and
``tools/live_board_screenshots.py`` get them from here: a game played to its end
by the engine's easy AI, projected through ``engine.views`` exactly as the
contract says (``me`` from ``player_view`` for a seated reader, everything else
from ``public_view``). Nothing here carries a seed, deck order or another seat's hand.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import maps
from engine import ClaimRoute, apply, new_game, player_view, public_view
from engine.ai import choose_action
from engine.planner import plan_tickets, stations_left
from engine.state import GameState
from engine.trail import component_trail, components
from maps.loader import map_dirs, read_layout
from render._theme import CARD_COLORS, CARD_SYMBOLS, SEAT_COLORS, SEAT_SYMBOLS
from web.strings import page_strings
from words import words_for

MAPS = ("usa", "europe", "germany", "nordic", "paris", "amsterdam")
#: The names the fixture gives the seats (AI seats in the real app read "AI 2 (hard)").
NAMES = ("Anna", "Ben", "Chiara", "Dev", "Eli")
GAME_ID = 12
#: Every route colour symbol; gray routes have none on the PNG, the page shows "·" in text.
ROUTE_SYMBOLS = {**CARD_SYMBOLS, "gray": "·"}


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def _localised(value: Any, lang: str) -> str:
    if isinstance(value, dict):
        return str(value.get(lang) or value.get("en") or next(iter(value.values())))
    return str(value)


@lru_cache(maxsize=16)
def map_payload(map_id: str, lang: str = "en") -> dict[str, Any]:
    """The ``/map`` payload of ``map_id`` in ``lang``: cities and routes as ``layout.json`` places
    them, route and seat colours with the PNG's hex and symbols (``render/_theme.py``)."""
    rules = maps.load_ruleset(map_id)
    w = words_for(lang, rules.meta)
    layout = read_layout(map_id) or {}
    cities = [
        {
            "id": cid,
            "name": city.name,
            "x": float(layout["cities"][cid]["x"]),
            "y": float(layout["cities"][cid]["y"]),
            "label": str(layout["cities"][cid].get("label", "")),
            "kind": city.kind,
        }
        for cid, city in rules.board.cities.items()
    ]
    groups: dict[str, list[str]] = {}
    for rid, r in rules.board.routes.items():
        if r.group:
            groups.setdefault(r.group, []).append(rid)
    routes = []
    for rid, r in rules.board.routes.items():
        geo = layout.get("routes", {}).get(rid, {})
        twins = [t for t in groups.get(r.group, []) if t != rid] if r.group else []
        routes.append(
            {
                "id": rid,
                "a": r.a,
                "b": r.b,
                "length": r.length,
                "colour": r.color,
                "tunnel": r.tunnel,
                "ferry": r.locomotives,
                "lane": float(geo.get("lane", 0.0)),
                "bend": float(geo.get("bend", 0.0)),
                "double_of": twins[0] if twins else None,
            }
        )
    colours = {
        name: {"hex": _hex(rgb), "symbol": ROUTE_SYMBOLS.get(name, ""), "name": w.color(name)}
        for name, rgb in CARD_COLORS.items()
    }
    seat_names = ("spring green", "lilac", "dark brown", "midnight", "slate")
    seat_colours = [
        {"hex": _hex(rgb), "symbol": SEAT_SYMBOLS[i], "name": seat_names[i]}
        for i, rgb in enumerate(SEAT_COLORS)
    ]
    folder = map_dirs().get(map_id)
    background: dict[str, Any] = {}
    if folder is not None and (folder / "background.json").is_file():
        background = json.loads((folder / "background.json").read_text(encoding="utf-8"))
    return {
        "map": map_id,
        "name": _localised(rules.meta.get("name", map_id), lang),
        "size": [int(layout["size"][0]), int(layout["size"][1])],
        "cities": cities,
        "routes": routes,
        "colours": colours,
        "seat_colours": seat_colours,
        "background": background,
    }


@dataclass
class GameRecord:
    """A finished game: every state from the start, the action of each version and its text."""

    map_id: str
    seats: int
    states: list[GameState] = field(default_factory=list)
    moves: list[dict[str, Any]] = field(default_factory=list)


def _move(rules: Any, before: GameState, action: Any, version: int) -> dict[str, Any]:
    """The contract's ``last_move`` of ``action`` (English texts: fixture data)."""
    seat = action.seat
    name = NAMES[seat]
    kind = type(action).__name__
    routes: list[str] = []
    cities: list[str] = []
    if isinstance(action, ClaimRoute):
        r = rules.board.routes[action.route]
        routes = [action.route]
        a, b = rules.board.cities[r.a].name, rules.board.cities[r.b].name
        text = f"{name} claimed {a} – {b} ({r.length} {r.color})"
        kind = "claim"
    elif hasattr(action, "city") and action.city:
        cities = [action.city]
        text = f"{name} built a station in {rules.board.cities[action.city].name}"
        kind = "station"
    elif kind in ("DrawBlind", "DrawFaceUp"):
        text = f"{name} drew a card"
        kind = "draw"
    elif kind in ("PayTunnel", "AbandonTunnel"):
        text = f"{name} paid for a tunnel" if kind == "PayTunnel" else f"{name} gave up a tunnel"
        kind = "tunnel"
    elif kind in ("DrawTickets", "KeepTickets"):
        text = f"{name} chose tickets"
        kind = "tickets"
    else:
        text = f"{name}: {kind}"
        kind = kind.lower()
    return {
        "version": version,
        "seat": seat,
        "kind": kind,
        "routes": routes,
        "cities": cities,
        "text": text,
    }


@lru_cache(maxsize=16)
def play_game(map_id: str, seats: int = 3, seed: int = 7) -> GameRecord:
    """A game on ``map_id`` played to its end by the engine's easy AI (cached per arguments)."""
    rules = maps.load_ruleset(map_id)
    st = new_game(rules, seats=seats, seed=seed)
    record = GameRecord(map_id, seats, [st])
    while st.result is None:
        seat = st.seats_to_act()[0]
        action = choose_action(rules, st, seat, "easy")
        record.moves.append(_move(rules, st, action, len(record.moves) + 1))
        st = apply(rules, st, action).state
        record.states.append(st)
    return record


def _phase(state: GameState) -> str:
    if state.result is not None:
        return "over"
    if state.phase == "setup":
        return "initial_tickets"
    if state.tunnel is not None:
        return "tunnel"
    if state.cards_drawn:
        return "second_draw"
    if any(p.offer for p in state.players):
        return "tickets"
    return "main"


def _stations(public: Any) -> list[dict[str, Any]]:
    try:
        owned = dict(public.stations)
    except AttributeError:
        return []
    return [{"city": city, "seat": seat} for city, seat in sorted(owned.items())]


def state_payload(
    record: GameRecord,
    version: int,
    *,
    lang: str = "en",
    me: int | None = None,
    deadline: float | None = None,
    full: bool = True,
) -> dict[str, Any]:
    """The ``/state`` payload after ``version`` actions, for the reader seat ``me`` (None: public).
    ``full=False``: the replay's shape (no ``me``, ``strings`` or ``log``)."""
    rules = maps.load_ruleset(record.map_id)
    st = record.states[version]
    pub = public_view(rules, st)
    finished = st.result is not None
    seats = [
        {
            "seat": p.seat,
            "name": NAMES[p.seat],
            "colour": p.seat,
            "ai": p.seat != 0,
            "trains": p.pieces,
            "stations": stations_left(rules, pub, p.seat),
            "score": p.score,
            "cards": p.cards,
            "tickets": p.tickets,
            "clock": {
                "deadline": deadline if p.seat == pub.active and not finished else None,
                "vacation": False,
            },
        }
        for p in pub.players
    ]
    out: dict[str, Any] = {
        "version": version,
        "game": {
            "id": GAME_ID,
            "map": record.map_id,
            "status": "finished" if finished else "running",
            "lang": lang,
            "rated": False,
        },
        "seats": seats,
        "turn": {
            "seat": None if finished else pub.active,
            "phase": _phase(st),
            "round": pub.turn // max(1, pub.num_seats) + 1,
            "last_round": pub.last_round,
        },
        "face_up": [c for c in pub.face_up if c is not None],
        "deck": pub.deck_size,
        "discard": pub.discard_size,
        "tickets_left": sum(pub.ticket_decks.values()),
        "claims": [{"route": rid, "seat": seat} for rid, seat in pub.owners.items()],
        "stations": _stations(pub),
        "extras": {},
        "last_move": record.moves[version - 1] if version > 0 else None,
    }
    if not full:
        return out
    out["strings"] = page_strings(lang, rules.meta)
    out["log"] = [
        {"version": m["version"], "seat": m["seat"], "text": m["text"]}
        for m in record.moves[max(0, version - 20) : version]
    ]
    out["me"] = None if me is None else _me(rules, st, me)
    out["final"] = final_payload(record) if finished else None
    return out


def _me(rules: Any, st: GameState, seat: int) -> dict[str, Any]:
    view = player_view(rules, st, seat)
    plans = plan_tickets(rules, view)
    return {
        "seat": seat,
        "hand": {c: n for c, n in view.hand.items() if n},
        "tickets": [
            {"id": t.id, "a": t.a, "b": t.b, "points": t.points, "done": t.done}
            for t in view.tickets
        ],
        "offer": list(view.offer) or None,
        "planner": [
            {"ticket": p.ticket, "routes": list(p.routes), "cars_missing": p.cars} for p in plans
        ],
    }


def _longest(rules: Any, routes: tuple[str, ...]) -> list[str]:
    def ends(rid: str) -> tuple[str, str, int]:
        r = rules.board.routes[rid]
        return r.a, r.b, r.length

    best: tuple[int, tuple[str, ...]] = (0, ())
    for comp in components(routes, ends):
        found = component_trail(comp, ends)
        if found[0] > best[0]:
            best = found
    return list(best[1])


def final_payload(record: GameRecord) -> dict[str, Any]:
    """The final scoring, step by step: each seat's routes, tickets one by one, longest path, total."""
    rules = maps.load_ruleset(record.map_id)
    st = record.states[-1]
    assert st.result is not None
    steps: list[dict[str, Any]] = []
    for sc in st.result.seats:
        player = st.players[sc.seat]
        name = NAMES[sc.seat]
        pts = sc.breakdown.get("routes", 0)
        steps.append(
            {
                "kind": "routes",
                "seat": sc.seat,
                "text": f"{name}: routes {pts}",
                "points": pts,
                "routes": list(player.routes),
                "path": [],
            }
        )
        for tid, done in [(t, True) for t in sc.completed] + [(t, False) for t in sc.failed]:
            t = rules.board.tickets[tid]
            pts = t.points if done else -t.points
            steps.append(
                {
                    "kind": "ticket",
                    "seat": sc.seat,
                    "text": f"{name}: {rules.board.cities[t.a].name} – "
                    f"{rules.board.cities[t.b].name} {pts:+d}",
                    "points": pts,
                    "routes": [],
                    "path": [],
                }
            )
        for key, pts in sc.breakdown.items():
            if key in ("routes", "tickets") or not pts:
                continue
            steps.append(
                {
                    "kind": "longest" if key == "longest_path" else "bonus",
                    "seat": sc.seat,
                    "text": f"{name}: {key} {pts:+d}",
                    "points": pts,
                    "routes": [],
                    "path": _longest(rules, tuple(player.routes)) if key == "longest_path" else [],
                }
            )
    for sc in st.result.seats:
        steps.append(
            {
                "kind": "total",
                "seat": sc.seat,
                "text": f"{NAMES[sc.seat]}: {sc.score}",
                "points": sc.score,
                "routes": [],
                "path": [],
            }
        )
    return {"steps": steps}


def replay_payload(record: GameRecord) -> dict[str, Any]:
    """The ``/replay`` payload: every turn's public state, the final steps and a win-chance chart
    (the chances here follow the score share: fixture data, not the analysis service's numbers)."""
    turns = [
        {
            "version": v,
            "seat": record.moves[v - 1]["seat"],
            "text": record.moves[v - 1]["text"],
            "state": state_payload(record, v, full=False),
        }
        for v in range(1, len(record.states))
    ]
    chances = []
    for st in record.states[1:]:
        scores = [max(1, p.public_score + 10) for p in st.players]
        total = sum(scores)
        chances.append([round(s / total, 3) for s in scores])
    finished = record.states[-1].result is not None
    return {
        "turns": turns,
        "final": final_payload(record) if finished else None,
        "analysis": {
            "chances": chances,
            "turning_points": [{"version": len(chances) // 2, "text": "The middle of the game"}],
        },
    }
