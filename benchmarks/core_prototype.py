"""Feasibility prototype for issue 16.1: could a mutable, integer-action core beat the peer?

``python -m benchmarks core-prototype [--json] [--games N] [--peer PATH] [--clock wall|cpu]``

**Not the engine and not used by the product.** A measuring device for one design
decision: the engine returns a new immutable state with its events for each
action and lists every exact payment as its own action object, and is 2.5x
slower than edwisdom/ticket_to_ride in whole random 4-player USA games. This
module plays the USA base rules on one mutable state with integer actions
(the peer's design) but with **this** engine's action list: every exact
payment of every claimable route (colour cards plus 0..L locomotives, one
all-locomotive payment per route), every face-up slot, the deck, a ticket
draw, every allowed subset of a ticket offer.

What it leaves out, so what a real core would add: events, the last-turn pass
when a seat can do nothing, tunnels, ferries, substitutes and the other maps'
hooks, the per-player view and the value API on top.

Before timing it checks itself: on every turn state of seeded random games of
the engine (2-5 seats), the prototype, loaded with the same hands, owners,
pieces, face-up row and deck sizes, lists exactly the engine's legal actions
(every claim with its payment, the draws, the ticket draw). A mismatch
stops the run (exit 1). Then it times whole random games of the prototype,
the engine (``benchmarks.engine.random_game``) and, with ``--peer``, the peer,
in one process with one clock.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from collections.abc import Callable, Sequence
from typing import Any

from benchmarks import engine as engine_bench
from engine import apply, legal_actions, new_game
from engine import rng as rngmod
from engine.actions import Action, ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets
from engine.rules import ClassicRules
from maps import load_ruleset

#: Integer action space: a claim is ``route * CLAIM_STRIDE + payment slot``, where the
#: slot is ``colour * 7 + locomotives`` (colour 0-7) or ``ALL_LOCOS + length``.
CLAIM_STRIDE = 63
ALL_LOCOS = 56
DRAW_DECK = 7000
DRAW_FACE = 7001  # + slot 0-4
DRAW_TICKETS = 7010
KEEP = 7100  # + bit mask of the offer kept
LOCO = 8
TURN, SECOND_DRAW, KEEPING, DONE = 0, 1, 2, 3


class Table:
    """Per rule set constants: routes as indices, claim buckets by (length, colour)."""

    def __init__(self, rules: ClassicRules) -> None:
        board, params = rules.board, rules.params
        self.rules = rules
        self.colors = list(params.colors)
        self.routes = sorted(board.routes)
        index = {r: i for i, r in enumerate(self.routes)}
        self.index = index
        routes = [board.routes[r] for r in self.routes]
        if any(r.tunnel or r.locomotives or r.substitute for r in routes):
            raise SystemExit("the prototype plays maps without tunnels, ferries or substitutes")
        self.length = [r.length for r in routes]
        self.color = [LOCO if r.color == "gray" else self.colors.index(r.color) for r in routes]
        groups: dict[str, list[int]] = {}
        for i, r in enumerate(routes):
            groups.setdefault(r.group, []).append(i)
        self.sibling = [
            next((j for j in groups[r.group] if j != i), -1) for i, r in enumerate(routes)
        ]
        cities = sorted(board.cities)
        city = {c: i for i, c in enumerate(cities)}
        self.cities = len(cities)
        self.ends = [(city[r.a], city[r.b]) for r in routes]
        self.tickets = [(city[t.a], city[t.b], t.points) for t in board.tickets.values()]
        buckets: dict[tuple[int, int], list[int]] = {}
        for i in range(len(routes)):
            buckets.setdefault((self.length[i], self.color[i]), []).append(i)
        #: ``(length, colour, route indices)`` sorted by length (LOCO = gray).
        self.buckets = [(ln, c, tuple(rs)) for (ln, c), rs in sorted(buckets.items())]
        self.bucket_of = {r: b for b, (_, _, rs) in enumerate(self.buckets) for r in rs}
        self.deck = [
            LOCO if c == "locomotive" else self.colors.index(c)
            for c, k in params.deck.items()
            for _ in range(k)
        ]
        self.points = dict(params.route_points)
        self.pieces = params.pieces
        self.doubles_min = params.double_routes_min_players


class Core:
    """One mutable game of the USA base rules; ``legal()`` -> ints, ``step(int)``."""

    __slots__ = (
        "t",
        "rng",
        "n",
        "deck",
        "discard",
        "hands",
        "face",
        "pieces",
        "score",
        "owner",
        "ticket_deck",
        "kept",
        "free",
        "cur",
        "last",
        "setup_left",
        "offer",
        "min_keep",
        "phase",
    )

    def __init__(self, table: Table, seats: int, seed: int) -> None:
        self.t = table
        self.rng = rngmod.seed_state(seed)  # the engine's SplitMix64, as a real core needs
        self.n = seats
        self.deck = list(table.deck)
        self.rng = rngmod.shuffle(self.rng, self.deck)
        self.discard: list[int] = []
        self.hands = [[0] * 9 for _ in range(seats)]
        for hand in self.hands:
            for _ in range(4):
                hand[self.deck.pop()] += 1
        self.face = [-1] * 5
        self._refill()
        self.pieces = [table.pieces] * seats
        self.score = [0] * seats
        self.owner = [-1] * len(table.routes)
        self.ticket_deck = list(range(len(table.tickets)))
        self.rng = rngmod.shuffle(self.rng, self.ticket_deck)
        self.kept: list[list[int]] = [[] for _ in range(seats)]
        #: per seat, per bucket: ``route * CLAIM_STRIDE`` of the routes that seat may claim
        self.free = [
            [[r * CLAIM_STRIDE for r in rs] for _, _, rs in table.buckets] for _ in range(seats)
        ]
        self.cur = 0
        self.last = -1
        self.setup_left = seats
        self.offer: list[int] = []
        self.min_keep = 2
        self.phase = KEEPING
        self._offer(2)

    def load(
        self, hands: list[list[int]], owners: dict[int, int], pieces: list[int], cur: int
    ) -> None:
        """Put a turn position in place (for the cross-check)."""
        self.hands, self.pieces, self.cur, self.phase = hands, pieces, cur, TURN
        for r, seat in owners.items():
            self.cur = seat
            self._claimed(r)
        self.cur = cur

    def load_cards(self, face: list[int], deck: int, discard: int, tickets: int) -> None:
        """Put a face-up row and deck, discard and ticket deck sizes in place (cross-check)."""
        self.face = face
        self.deck = [0] * deck
        self.discard = [0] * discard
        self.ticket_deck = list(range(tickets))

    def _offer(self, keep: int) -> None:
        self.offer = [self.ticket_deck.pop() for _ in range(min(3, len(self.ticket_deck)))]
        self.min_keep = keep
        self.phase = KEEPING

    def _card(self) -> int:
        if not self.deck:
            self.deck, self.discard = self.discard, []
            self.rng = rngmod.shuffle(self.rng, self.deck)
        return self.deck.pop() if self.deck else -1

    def _refill(self) -> None:
        face = self.face
        for _ in range(50):
            for s in range(5):
                if face[s] < 0:
                    face[s] = self._card()
            if face.count(LOCO) < 3 or len(self.deck) + len(self.discard) < 5:
                return
            self.discard.extend(c for c in face if c >= 0)
            face[:] = [-1] * 5

    def legal(self) -> list[int]:
        """Every legal action of the seat to act, as integers."""
        face = self.face
        if self.phase == TURN:
            out: list[int] = []
            self._claims(out)
            if self.deck or self.discard:
                out.append(DRAW_DECK)
            out.extend([DRAW_FACE + s for s in range(5) if face[s] >= 0])
            if self.ticket_deck:
                out.append(DRAW_TICKETS)
            return out
        if self.phase == SECOND_DRAW:
            out = [DRAW_FACE + s for s in range(5) if 0 <= face[s] < LOCO]
            if self.deck or self.discard:
                out.append(DRAW_DECK)
            return out
        k = len(self.offer)
        least = min(self.min_keep, k)
        return [KEEP + m for m in range(1, 1 << k) if m.bit_count() >= least]

    def _claims(self, out: list[int]) -> None:
        # the hot loop: the slot arithmetic is inlined (a helper call per bucket costs 30 %)
        cur = self.cur
        trains = self.pieces[cur]
        hand = self.hands[cur]
        wild = hand[LOCO]
        free = self.free[cur]
        gray: list[list[int] | None] = [None] * 7
        extend = out.extend
        for b, (length, color, _) in enumerate(self.t.buckets):
            if length > trains:
                break
            bases = free[b]
            if not bases:
                continue
            if color == LOCO:
                slots = gray[length]
                if slots is None:
                    slots = gray[length] = _gray_slots(hand, wild, length)
                if not slots:
                    continue
                if len(slots) == 1:
                    slot = slots[0]
                    extend([base + slot for base in bases])
                else:
                    extend([base + slot for base in bases for slot in slots])
                continue
            have = hand[color]
            low = length - have if have < length else 0
            top = wild if wild < length else length
            if low == top:  # one payment: the common case
                slot = ALL_LOCOS + length if low == length else color * 7 + low
                extend([base + slot for base in bases])
            elif low < top:
                slots = list(
                    range(color * 7 + low, color * 7 + (top if top < length else length - 1) + 1)
                )
                if top == length:
                    slots.append(ALL_LOCOS + length)
                extend([base + slot for base in bases for slot in slots])

    def step(self, action: int) -> None:
        """Apply one legal action (not checked)."""
        cur = self.cur
        if action < DRAW_DECK:
            route, slot = divmod(action, CLAIM_STRIDE)
            color, locos = divmod(slot, 7)
            length = self.t.length[route]
            hand = self.hands[cur]
            if color == LOCO:
                hand[LOCO] -= length
                self.discard.extend([LOCO] * length)
            else:
                hand[color] -= length - locos
                hand[LOCO] -= locos
                self.discard.extend([color] * (length - locos) + [LOCO] * locos)
            self._claimed(route)
            self.pieces[cur] -= length
            self.score[cur] += self.t.points[length]
            self._end_turn()
        elif action == DRAW_DECK:
            self.hands[cur][self._card()] += 1
            self._after_draw(wild=False)
        elif action < DRAW_TICKETS:
            slot = action - DRAW_FACE
            card = self.face[slot]
            self.hands[cur][card] += 1
            self.face[slot] = -1
            self._refill()
            self._after_draw(wild=card == LOCO)
        elif action == DRAW_TICKETS:
            self._offer(1)
        else:
            self._keep(action - KEEP)

    def _claimed(self, route: int) -> None:
        self.owner[route] = self.cur
        t = self.t
        base = route * CLAIM_STRIDE
        bucket = t.bucket_of[route]
        for lists in self.free:
            lst = lists[bucket]
            if base in lst:
                lst.remove(base)
        twin = t.sibling[route]
        if twin >= 0:
            twin_base = twin * CLAIM_STRIDE
            seats = self.free if self.n < t.doubles_min else [self.free[self.cur]]
            for lists in seats:
                lst = lists[t.bucket_of[twin]]
                if twin_base in lst:
                    lst.remove(twin_base)

    def _after_draw(self, *, wild: bool) -> None:
        if self.phase == TURN and not wild:
            self.phase = SECOND_DRAW
            if not (self.deck or self.discard) and not any(0 <= f < LOCO for f in self.face):
                self._end_turn()
        else:
            self._end_turn()

    def _keep(self, mask: int) -> None:
        for i, ticket in enumerate(self.offer):
            if mask >> i & 1:
                self.kept[self.cur].append(ticket)
            else:
                self.ticket_deck.insert(0, ticket)
        self.offer = []
        if not self.setup_left:
            self._end_turn()
            return
        self.setup_left -= 1
        if self.setup_left:
            self.cur = (self.cur + 1) % self.n
            self._offer(2)
        else:
            self.cur, self.phase = 0, TURN

    def _end_turn(self) -> None:
        cur = self.cur
        if self.last == cur:
            self._finish()
            return
        if self.last < 0 and self.pieces[cur] <= 2:
            self.last = cur
        self.cur = (cur + 1) % self.n
        self.phase = TURN

    def _finish(self) -> None:
        self.phase = DONE
        t = self.t
        board = t.rules.board
        for seat in range(self.n):
            parent = list(range(t.cities))
            owned = [r for r, o in enumerate(self.owner) if o == seat]
            for r in owned:
                a, b = t.ends[r]
                parent[_find(parent, a)] = _find(parent, b)
            for ticket in self.kept[seat]:
                a, b, points = t.tickets[ticket]
                self.score[seat] += points if _find(parent, a) == _find(parent, b) else -points
            board.longest_path([t.routes[r] for r in owned])  # timed like the others' bonus


def _find(parent: list[int], x: int) -> int:
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


def _gray_slots(hand: list[int], wild: int, length: int) -> list[int]:
    slots: list[int] = []
    top = min(wild, length - 1)
    for color in range(8):
        have = hand[color]
        if have:
            low = max(0, length - have)
            if low <= top:
                slots.extend(range(color * 7 + low, color * 7 + top + 1))
    if wild >= length:
        slots.append(ALL_LOCOS + length)
    return slots


def play(table: Table, seats: int, seed: int, tick: Callable[[], float]) -> tuple[float, int]:
    """One uniformly random prototype game: ``(seconds, actions)``."""
    chooser = random.Random(seed)
    table.rules.board._trails.clear()  # no longest-path memo from an earlier game
    t0 = tick()
    core = Core(table, seats, seed)
    n = 0
    while core.phase != DONE:
        actions = core.legal()
        if not actions:  # the engine's pass; rare, and not modelled
            core._end_turn()
            continue
        core.step(actions[chooser.randrange(len(actions))])
        n += 1
    return tick() - t0, n


def cross_check(table: Table, games: int) -> int:
    """Turn states checked; raises AssertionError when the prototype's legal actions there
    (claims with their payments, draws, a ticket draw) differ from the engine's."""
    rules = table.rules
    checked = 0
    for seats in range(rules.params.min_players, rules.params.max_players + 1):
        for seed in range(games):
            chooser = random.Random(seed)
            st = new_game(rules, seats=seats, seed=seed)
            while not st.finished:
                seat = st.seats_to_act()[0]
                actions = legal_actions(rules, st, seat)
                if st.phase == "play" and st.step == "turn":
                    core = Core(table, seats, 0)
                    hands = [
                        [p.hand.get(c, 0) for c in table.colors] + [p.hand.get("locomotive", 0)]
                        for p in st.players
                    ]
                    owners = {table.index[r]: s for r, s in st.owners.items()}
                    core.load(hands, owners, [p.pieces for p in st.players], seat)
                    face = [-1 if c is None else _card(table, c) for c in st.face_up]
                    tickets = sum(len(d) for d in st.ticket_decks.values())
                    core.load_cards(face, len(st.deck), len(st.discard), tickets)
                    got = core.legal()
                    ours = {_encode(table, a) for a in actions}
                    assert len(got) == len(set(got)) == len(actions), (seats, seed, st.version)
                    assert set(got) == ours, (seats, seed, st.version)
                    checked += 1
                st = apply(rules, st, actions[chooser.randrange(len(actions))]).state
    return checked


def _card(table: Table, color: str) -> int:
    return LOCO if color == "locomotive" else table.colors.index(color)


def _encode(table: Table, action: Action) -> int:
    if isinstance(action, DrawBlind):
        return DRAW_DECK
    if isinstance(action, DrawFaceUp):
        return DRAW_FACE + action.slot
    if isinstance(action, DrawTickets):
        return DRAW_TICKETS
    assert isinstance(action, ClaimRoute), action
    pay = dict(action.payment.items())
    locos = pay.pop("locomotive", 0)
    base = table.index[action.route] * CLAIM_STRIDE
    if not pay:
        return base + ALL_LOCOS + locos
    ((color, _),) = pay.items()
    return base + table.colors.index(color) * 7 + locos


def rows(table: Table, games: int, seats: Sequence[int]) -> list[dict[str, Any]]:
    """Per player count: medians (ms per whole game) of the prototype and the engine."""
    out = []
    for n in seats:
        proto = [play(table, n, seed, engine_bench.clock) for seed in range(games)]
        engine = [engine_bench.random_game(table.rules, n, seed) for seed in range(games)]
        out.append(
            {
                "seats": n,
                "prototype_ms": round(statistics.median(s for s, _ in proto) * 1000, 2),
                "prototype_actions": round(statistics.mean(k for _, k in proto), 1),
                "engine_ms": round(statistics.median(lg + ap for lg, ap, _ in engine) * 1000, 2),
                "engine_actions": round(statistics.mean(k for _, _, k in engine), 1),
            }
        )
    return out


def main(argv: list[str]) -> int:
    """Cross-check, then time; print a table and, with --json, one JSON object last."""
    ap = argparse.ArgumentParser(prog="python -m benchmarks core-prototype")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--games", type=int, default=10, help="games per player count")
    ap.add_argument(
        "--check-games", type=int, default=3, help="engine games per player count checked"
    )
    ap.add_argument("--peer", nargs="?", const="", default=None, metavar="PATH")
    ap.add_argument("--clock", choices=sorted(engine_bench.CLOCKS), default="wall")
    args = ap.parse_args(argv)
    engine_bench.clock = engine_bench.CLOCKS[args.clock]
    table = Table(load_ruleset("usa"))
    try:
        checked = cross_check(table, args.check_games)
    except AssertionError as exc:
        print(f"the prototype's claims differ from the engine's at {exc}", file=sys.stderr)
        return 1
    print(f"legal actions equal to the engine's on {checked} turn states (usa, 2-5 seats)")
    seats = range(2, 6)
    table_rows = rows(table, args.games, seats)
    peer = engine_bench.peer_rows(args.peer, args.games, seats) if args.peer is not None else None
    peer_ms = {r["seats"]: r["total_ms"] for r in (peer or {}).get("rows", [])}
    print(f"usa, whole random games, {args.games} per row, {args.clock} clock (ms per game)")
    print(f"{'seats':>5}{'prototype':>11}{'engine':>9}{'peer':>8}{'actions':>9}")
    for r in table_rows:
        p = peer_ms.get(r["seats"], "-")
        print(
            f"{r['seats']:>5}{r['prototype_ms']:>11}{r['engine_ms']:>9}{p:>8}{r['prototype_actions']:>9}"
        )
    if args.json:
        print(json.dumps({"checked_states": checked, "rows": table_rows, "peer": peer}))
    return 0
