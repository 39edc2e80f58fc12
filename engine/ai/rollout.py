"""A fast playout policy for the hard AI's Monte Carlo search.

Rollouts run on a *sampled* state (:mod:`engine.ai.world`), where every seat
plays the normal heuristic's plan, cheaply: claim a route of the cheapest
paths for its open tickets when the hand pays for it, else draw the colours
that plan needs; with no plan left, draw tickets while many pieces are left,
else claim the longest affordable route. With train stations (Europe: the
rule set's ``params.stations``) a seat also plays normal's stations: it builds
one when a ticket's path is blocked and one route of another player would open
it (:func:`engine.ai.heuristic.lent_station_city`; the rest stay unbuilt for
their points), and plans over the routes its own stations lend, so the search
sees what a station is worth. It builds its actions
itself (no full ``legal_actions`` listing per move, which is what makes it
fast) and falls back to the normal heuristic on rare steps (ticket choice,
tunnels, flags, Germany's ticket mix) or when an action it built is refused.

:class:`RolloutPolicy` plays on value states; :class:`CoreRolloutPolicy`, which
the hard AI uses, makes the same moves on the integer core (:mod:`engine.core`),
several times cheaper per move; a test plays both to the same end on every map.
The core policy also answers a tunnel's extra cards itself (the heuristic's
answer: fewest locomotives, else abandon) and works out plain payments on the
ints, so only ticket choices and refused claims fall back to the heuristic.
"""

from __future__ import annotations

import random
import weakref
from typing import TYPE_CHECKING

from ..actions import Action, BuildStation, ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets
from ..core import FINISHED, PLAY, SECOND_CARD, TUNNEL, TURN, Core, core_table
from ..errors import IllegalAction
from ..payment_table import kind_payments, payment_table
from ..reducer import apply, legal_actions
from ..state import GameState
from ..types import GRAY, LOCOMOTIVE
from ..views import player_view
from .heuristic import (
    BORROW_COST,
    HeuristicPlayer,
    cheapest_station_payment,
    lend_at_stations,
    lent_station_city,
    seat_route_costs,
)

if TYPE_CHECKING:
    from ..rules.classic import ClassicRules

_FALLBACK = HeuristicPlayer()


def _costs(rules: ClassicRules, st: GameState, seat: int) -> dict[str, int | None]:
    """Route id -> planning cost for ``seat`` (0 own, length claimable, None unusable;
    other players' routes into the seat's own train stations 0, as the heuristic plans)."""
    costs = seat_route_costs(rules, st.owners, st.num_seats, seat, st.players[seat].pieces)
    if st.stations:
        lend_at_stations(rules, st.owners, st.stations, seat, costs)
    return costs


class RolloutPolicy:
    """Plays every seat of a sampled game to its end; caches each seat's plan between claims.

    One instance per rollout (the cache is keyed by the board, not by game).
    """

    def __init__(self, rules: ClassicRules, rng: random.Random) -> None:
        self.rules = rules
        self.rng = rng
        #: seat -> (claims seen, tickets, pieces, plan, plan routes and their siblings)
        self._plans: dict[int, tuple[int, int, int, list[str], frozenset[str]]] = {}
        #: seat -> (train stations on the board when its plan was made, the city pairs
        #: of its tickets that plan found no path for, most points first)
        self._blocked: dict[int, tuple[int, list[tuple[str, str]]]] = {}

    def plan(self, st: GameState, seat: int) -> list[str]:
        """Unclaimed route ids of ``seat``'s cheapest paths for its open tickets.

        Kept between moves while a fresh plan would be the same (see
        :meth:`_still_cheapest`), made again otherwise; the tests compare the two
        at every step of whole rollouts on every map.
        """
        player = st.players[seat]
        claims = len(st.owners)
        cached = self._plans.get(seat)
        built = len(st.stations)
        if (
            cached is not None
            and cached[1] == len(player.tickets)
            and self._blocked[seat][0] == built
        ):
            kept = self._still_cheapest(st, seat, claims, cached)
            if kept is not None:
                return kept
        board = self.rules.board
        costs = _costs(self.rules, st, seat)
        needed: list[str] = []
        blocked: list[str] = []
        for tid in player.tickets:
            t = board.tickets[tid]
            found = board.shortest_path(t.a, t.b, costs)
            if found is None:
                blocked.append(tid)
                continue
            for rid in found[1]:
                if costs[rid]:
                    needed.append(rid)
                    costs[rid] = 0
        near = frozenset(s for rid in needed for s in (rid, *board.siblings(rid)))
        mine = [city for city, owner in st.stations.items() if owner == seat]
        if mine:  # a claim into an own station lends a route: the plan may change
            near |= {r for r, route in board.routes.items() if route.a in mine or route.b in mine}
        self._plans[seat] = (claims, len(player.tickets), player.pieces, needed, near)
        tickets = board.tickets
        blocked.sort(key=lambda tid: -tickets[tid].points)
        self._blocked[seat] = (built, [(tickets[tid].a, tickets[tid].b) for tid in blocked])
        return needed

    def _still_cheapest(
        self,
        st: GameState,
        seat: int,
        claims: int,
        cached: tuple[int, int, int, list[str], frozenset[str]],
    ) -> list[str] | None:
        """The cached plan when a fresh one would be the same, else None.

        Others' claims off the plan and its double-route siblings only make other
        routes dearer, so the cheapest paths stay. With an empty plan (every
        ticket done or impossible) the seat's own claims cannot add a route to
        it either: they only free a route that was usable already and use up
        pieces. The seat's own claim on a non-empty plan frees a route that an
        earlier ticket's path may now use, so that plan is made again.
        """
        seen, tickets, pieces, needed, near = cached
        player = st.players[seat]
        if pieces != player.pieces:
            if needed:
                return None
            self._plans[seat] = (claims, tickets, player.pieces, needed, near)
            return needed
        if seen != claims:
            if self._touched(st, claims - seen, near):
                return None
            self._plans[seat] = (claims, tickets, pieces, needed, near)
        return needed

    @staticmethod
    def _touched(st: GameState, new: int, near: frozenset[str]) -> bool:
        """True when one of the ``new`` latest claims (the owners dict keeps claim order)
        is in ``near``."""
        for i, rid in enumerate(reversed(st.owners)):
            if i >= new:
                return False
            if rid in near:
                return True
        return False

    def _affordable(self, st: GameState, seat: int, rid: str) -> ClaimRoute | None:
        """A claim of ``rid`` with the fewest locomotives, or None when it cannot be paid now."""
        rules = self.rules
        route = rules.board.routes[rid]
        player = st.players[seat]
        hand = player.hand
        if route.length > player.pieces or rid in st.owners:
            return None
        locos = hand.get(LOCOMOTIVE, 0)
        if route.color == GRAY:
            best = max((n for c, n in hand.items() if c != LOCOMOTIVE), default=0)
        else:
            best = hand.get(route.color, 0)
        if best + locos < route.length and route.substitute is None:
            return None
        pays = rules.sensible_payments(route, hand)
        if not pays:
            return None
        pay = min(pays, key=lambda p: (p.get(LOCOMOTIVE), p.total))
        return ClaimRoute(seat, rid, pay)

    def _claim(self, st: GameState, seat: int, routes: list[str]) -> ClaimRoute | None:
        board = self.rules.board
        for rid in sorted(routes, key=lambda r: -board.routes[r].length):
            claim = self._affordable(st, seat, rid)
            if claim is not None:
                return claim
        return None

    def _draw(self, st: GameState, seat: int, needed: list[str]) -> Action | None:
        board = self.rules.board
        hand = st.players[seat].hand
        want = {board.routes[r].color for r in needed}
        for slot, color in enumerate(st.face_up):
            if color is None or color == LOCOMOTIVE:
                continue
            if color in want or (GRAY in want and hand.get(color, 0) > 0):
                return DrawFaceUp(seat, slot)
        if st.deck or st.discard:
            return DrawBlind(seat)
        return None

    def _turn(self, st: GameState, seat: int) -> Action | None:
        """The normal heuristic's turn, cheaply: plan claims, points when done, tickets early."""
        needed = self.plan(st, seat)
        if st.step == "second_card":
            return self._draw(st, seat, needed)
        if self._blocked[seat][1] and self.rules.params.stations is not None:
            station = self._station(st, seat)
            if station is not None:
                return station
        player = st.players[seat]
        last = st.last_round_by is not None
        can_tickets = any(st.ticket_decks.values())
        best: ClaimRoute | None = None
        if not needed or last:
            best = self._claim(st, seat, [r for r in self.rules.board.routes if r not in st.owners])
            if best is not None and (last or player.pieces <= 12 or not can_tickets):
                return best
        if needed:
            claim = self._claim(st, seat, needed)
            return claim if claim is not None else self._draw(st, seat, needed)
        if can_tickets and player.pieces >= 14 and not self.rules.params.draw_tickets.announce_mix:
            return DrawTickets(seat)
        return best if best is not None else self._draw(st, seat, needed)

    def _station(self, st: GameState, seat: int) -> BuildStation | None:
        """The train station the normal heuristic builds for ``seat``'s blocked tickets
        (:func:`engine.ai.heuristic.station_move`), or None."""
        stations = self.rules.params.stations
        assert stations is not None
        built = sum(1 for owner in st.stations.values() if owner == seat)
        if built >= min(stations.count, len(stations.costs)):
            return None
        player = st.players[seat]
        pay = cheapest_station_payment(self.rules.params.colors, stations.costs[built], player.hand)
        if pay is None:
            return None
        city = lent_station_city(
            self.rules,
            st.owners,
            st.stations,
            seat,
            player.pieces,
            self._blocked[seat][1],
            _costs(self.rules, st, seat),
        )
        return None if city is None else BuildStation(seat, city, pay)

    def act(self, st: GameState) -> GameState:
        """Apply one move of the seat to act; return the new state."""
        seat = st.seats_to_act()[0]
        action: Action | None = None
        if st.phase == "play" and st.step in ("turn", "second_card"):
            action = self._turn(st, seat)
        if action is not None:
            try:
                return apply(self.rules, st, action).state
            except IllegalAction:
                pass
        legal = legal_actions(self.rules, st, seat, payments="sensible")
        choice = _FALLBACK.choose(self.rules, player_view(self.rules, st, seat), legal, self.rng)
        return apply(self.rules, st, choice).state

    def play_out(self, st: GameState, max_actions: int = 2000) -> GameState:
        """Play ``st`` to the end (or ``max_actions`` moves); return the last state."""
        for _ in range(max_actions):
            if st.finished:
                break
            st = self.act(st)
        return st


class _CoreFixed:
    """What :class:`CoreRolloutPolicy` reads of a rule set, built once per rule set
    (:meth:`of`) rather than once per rollout."""

    _made: weakref.WeakKeyDictionary[ClassicRules, _CoreFixed] = weakref.WeakKeyDictionary()

    @classmethod
    def of(cls, rules: ClassicRules) -> _CoreFixed:
        """The rule set's tables, made on first use and kept while it lives."""
        fixed = cls._made.get(rules)
        if fixed is None:
            fixed = cls._made[rules] = cls(rules)
        return fixed

    def __init__(self, rules: ClassicRules) -> None:
        board = rules.board
        self.table = t = core_table(rules)
        #: route indices longest first, ties in board order: the order in which the value
        #: policy tries the free routes (a stable sort commutes with the filter)
        self.longest_first = sorted(
            (t.route_index[rid] for rid in board.routes), key=lambda r: -t.length[r]
        )
        #: ticket index -> its two cities' indices, and its points
        self.ticket_ends = [
            (t.city_index[board.tickets[tid].a], t.city_index.get(board.tickets[tid].b, -1))
            for tid in t.ticket_ids
        ]
        self.ticket_points = [board.tickets[tid].points for tid in t.ticket_ids]
        #: route index -> its two cities' indices; city index -> city id
        self.route_ends = [(t.city_index[r.a], t.city_index[r.b]) for r in t.route_objs]
        self.city_names = sorted(t.city_index, key=t.city_index.__getitem__)
        #: the rule set's train stations (None: it has none)
        self.station_rules = rules.params.stations
        #: the rule set pays with the shared sensible payments (no override of its own)
        self.shared_sensible = not payment_table(rules).uncached_sensible
        #: cards may stand in for a ferry's locomotives (else only locomotives fill them)
        self.ferry_substitute = bool(rules.params.ferry_locomotive_substitute)
        #: routes whose claims are colour cards plus locomotives (see
        #: :meth:`CoreRolloutPolicy._plain_payment`)
        self.plain = [self.shared_sensible and not g for g in t.general]
        #: routes with "any N cards" substitutes (payable beyond one colour plus locomotives)
        self.substitute = [bool(r.substitute) for r in t.route_objs]
        #: colour indices in the order of their names (how payments tie-break)
        self.by_name = sorted(range(t.loco), key=lambda c: t.card_names[c])


class CoreRolloutPolicy:
    """:class:`RolloutPolicy` on the integer core (:mod:`engine.core`): the same
    decisions from the same data, read from the core's arrays and stepped as ints.

    Same seat plans, kept on the same terms; the same fallback to the normal
    heuristic (on a value state made for that step) where the policy builds no
    move or its move would be refused. ``tests/engine/test_rollout_core.py``
    plays both policies from the same states and seeds to the same end.
    """

    def __init__(self, rules: ClassicRules, rng: random.Random) -> None:
        self.rules = rules
        self.rng = rng
        fixed = _CoreFixed.of(rules)
        self.table = fixed.table
        self._longest_first = fixed.longest_first
        self._ticket_ends = fixed.ticket_ends
        self._ticket_points = fixed.ticket_points
        self._route_ends = fixed.route_ends
        self._city_names = fixed.city_names
        self._station_rules = fixed.station_rules
        self._shared_sensible = fixed.shared_sensible
        self._ferry_substitute = fixed.ferry_substitute
        self._plain = fixed.plain
        self._substitute = fixed.substitute
        self._by_name = fixed.by_name
        self._plans: dict[int, tuple[int, int, int, list[int], frozenset[int]]] = {}
        #: as :attr:`RolloutPolicy._blocked`, on indices
        self._blocked: dict[int, tuple[int, list[tuple[int, int]]]] = {}
        #: seat -> (its plan as last returned, that plan longest first)
        self._by_length: dict[int, tuple[list[int], list[int]]] = {}

    def plan(self, core: Core, seat: int) -> list[int]:
        """Unclaimed routes of ``seat``'s cheapest paths for its open tickets (as
        :meth:`RolloutPolicy.plan`)."""
        claims = len(core.claim_order)
        tickets = core.tickets[seat]
        cached = self._plans.get(seat)
        stations = self.table.hooks.stations(core) if self._station_rules else None
        built = len(stations[1]) if stations else 0
        if cached is not None and cached[1] == len(tickets) and self._blocked[seat][0] == built:
            kept = self._still_cheapest(core, seat, claims, cached)
            if kept is not None:
                return kept
        t = self.table
        costs = self._costs(core, seat, stations)
        needed: list[int] = []
        blocked: list[int] = []
        for x in tickets:
            a, b = self._ticket_ends[x]
            found = t.shortest_path(a, b, costs)
            if found is None:
                blocked.append(x)
                continue
            for route in found:
                if costs[route]:
                    needed.append(route)
                    costs[route] = 0
        near = frozenset(s for r in needed for s in (r, *t.siblings[r]))
        if stations and seat in stations[0]:  # as RolloutPolicy.plan
            owner = stations[0]
            near |= {r for c in stations[1] if owner[c] == seat for r, _ in t.neighbours[c]}
        self._plans[seat] = (claims, len(tickets), core.pieces[seat], needed, near)
        points = self._ticket_points
        blocked.sort(key=lambda x: -points[x])
        self._blocked[seat] = (built, [self._ticket_ends[x] for x in blocked])
        return needed

    def _costs(
        self, core: Core, seat: int, stations: tuple[list[int], list[int]] | None
    ) -> list[int]:
        """:func:`_costs` on indices (-1 for None)."""
        costs = core.route_costs(seat)
        if stations:
            owner = stations[0]
            routes = core.owner
            for c in stations[1]:
                if owner[c] == seat:
                    for r, _ in self.table.neighbours[c]:
                        if routes[r] >= 0 and routes[r] != seat:
                            costs[r] = 0
        return costs

    def _station(self, core: Core, seat: int) -> int:
        """:meth:`RolloutPolicy._station` on the core: the action int, or -1."""
        t = self.table
        params = self._station_rules
        stations = t.hooks.stations(core)
        assert params is not None and stations is not None
        owner, order = stations
        built = sum(1 for c in order if owner[c] == seat)
        if built >= min(params.count, len(params.costs)):
            return -1
        cost = params.costs[built]
        hand = core.hands[seat]
        pay = cheapest_station_payment(
            t.colors, cost, {t.card_names[c]: k for c, k in enumerate(hand) if k}
        )
        if pay is None:
            return -1
        costs = self._costs(core, seat, stations)
        routes = core.owner
        borrow = [
            BORROW_COST + t.length[r] if c < 0 and 0 <= routes[r] != seat else c
            for r, c in enumerate(costs)
        ]
        pieces = core.pieces[seat]
        for a, b in self._blocked[seat][1]:
            found = t.shortest_path(a, b, borrow)
            if found is None or sum(borrow[r] for r in found) >= 2 * BORROW_COST:
                continue
            lent = [r for r in found if 0 <= routes[r] != seat]
            if sum(costs[r] for r in found if r not in lent) > pieces:
                continue
            for r in lent:
                for city in self._route_ends[r]:
                    if owner[city] < 0:
                        name = self._city_names[city]
                        return t.encode(BuildStation(seat, name, pay), [])
        return -1

    def _still_cheapest(
        self,
        core: Core,
        seat: int,
        claims: int,
        cached: tuple[int, int, int, list[int], frozenset[int]],
    ) -> list[int] | None:
        seen, tickets, pieces, needed, near = cached
        if pieces != core.pieces[seat]:
            if needed:
                return None
            self._plans[seat] = (claims, tickets, core.pieces[seat], needed, near)
            return needed
        if seen != claims:
            if any(r in near for r in core.claim_order[seen:]):
                return None
            self._plans[seat] = (claims, tickets, pieces, needed, near)
        return needed

    def _affordable(self, core: Core, seat: int, route: int) -> int:
        """The int of a claim of ``route`` with the fewest locomotives; -1 when it cannot
        be paid now; -2 when it can but a double-route sibling bars it (the value engine
        would refuse it, so the caller falls back as :meth:`RolloutPolicy.act` does).

        The payment is :meth:`RolloutPolicy._affordable`'s (the first of the rule set's
        ``sensible_payments``): worked out on the ints for the plain routes (colour cards
        plus locomotives, see :meth:`_plain_payment`), read from the shared payment
        caches (:func:`engine.payment_table.kind_payments`) for the others."""
        t = self.table
        length = t.length[route]
        if length > core.pieces[seat] or core.owner[route] >= 0:
            return -1
        hand = core.hands[seat]
        if self._plain[route]:
            slot = self._plain_payment(hand, t.color[route], length)
            if slot < 0:
                return -1
            if not core.can_claim(seat, route):
                return -2  # built, but the value engine refuses it: fall back
            return route * t.stride + slot
        obj = t.route_objs[route]
        locos = hand[t.loco]
        if locos < obj.locomotives and not self._ferry_substitute:
            return -1  # a ferry's locomotive spaces take locomotives only
        if t.color[route] == t.loco:
            best = max(hand[: t.loco], default=0)
        else:
            best = hand[t.color[route]]
        if best + locos < length and obj.substitute is None:
            return -1
        named = {t.card_names[c]: k for c, k in enumerate(hand) if k}
        if self._shared_sensible:
            pays = kind_payments(self.rules, t.kinds[route], named, True)
        else:
            pays = tuple(self.rules.sensible_payments(obj, named))
        if not pays:
            return -1
        if not core.can_claim(seat, route):
            return -2  # built, but the value engine refuses it: fall back
        # sensible payments come sorted by (locomotives, cards, colours): the first is the min
        return (
            t.claim_id(route, pays[0])
            if t.general[route]
            else t.encode(ClaimRoute(seat, t.route_ids[route], pays[0]), [])
        )

    def _plain_payment(self, hand: list[int], color: int, length: int) -> int:
        """The slot (``colour * span + locomotives``, see :mod:`engine.integer_core`) of the
        first :func:`engine.payment.sensible_payments` payment of a plain route of
        ``length`` and ``color`` (``loco``: gray) from ``hand``; -1 when none.

        On a plain route (locomotives pay anywhere; no tunnel, ferry or substitute) that
        list holds, per colour held, its cards plus the fewest locomotives, and all
        locomotives; sorted by locomotives then by colour name, so its first is the
        colour needing the fewest locomotives (ties: the first name), else all
        locomotives.
        """
        t = self.table
        loco = t.loco
        locos = hand[loco]
        if color != loco:
            have = hand[color]
            if have:
                wild = length - have if have < length else 0
                return color * t.span + wild if wild <= locos else -1
        else:
            best, best_wild = -1, length
            for c in self._by_name:
                have = hand[c]
                if have:
                    wild = length - have if have < length else 0
                    if wild < best_wild and wild <= locos:
                        best, best_wild = c, wild
            if best >= 0:
                return best * t.span + best_wild
        return loco * t.span + length if locos >= length else -1

    def _claim(self, core: Core, seat: int, routes: list[int]) -> int:
        """The first claim of ``routes`` (longest first) that :meth:`_affordable` builds
        (-2 included); -1 when none.

        Routes that cannot be paid for in any case are passed over unasked: taken ones,
        longer than the pieces left, or (without "any N cards" substitutes) longer than
        the seat's most cards of one colour plus its locomotives."""
        t = self.table
        length = t.length
        hand = core.hands[seat]
        loco = t.loco
        most = max(hand[:loco], default=0) + hand[loco]
        pieces = core.pieces[seat]
        owner = core.owner
        substitute = self._substitute
        for route in routes:
            n = length[route]
            if n > pieces or owner[route] >= 0 or (n > most and not substitute[route]):
                continue
            code = self._affordable(core, seat, route)
            if code != -1:
                return code
        return -1

    def _longest(self, seat: int, needed: list[int]) -> list[int]:
        """``needed`` (the seat's cached plan) longest first, ties in plan order."""
        cached = self._by_length.get(seat)
        if cached is None or cached[0] is not needed:
            length = self.table.length
            cached = self._by_length[seat] = (needed, sorted(needed, key=lambda r: -length[r]))
        return cached[1]

    def _draw(self, core: Core, seat: int, needed: list[int]) -> int:
        t = self.table
        hand = core.hands[seat]
        want = {t.color[r] for r in needed}
        for slot, card in enumerate(core.face):
            if card < 0 or card == t.loco:
                continue
            if card in want or (t.loco in want and hand[card] > 0):
                return t.draw_face + slot
        if core.deck or core.discard:
            return t.draw_deck
        return -1

    def _turn(self, core: Core, seat: int) -> int:
        t = self.table
        needed = self.plan(core, seat)
        if core.step_ == SECOND_CARD:
            return self._draw(core, seat, needed)
        if self._blocked[seat][1] and self._station_rules is not None:
            station = self._station(core, seat)
            if station >= 0:
                return station
        last = core.last_round_by >= 0
        can_tickets = any(core.ticket_decks.values())
        pieces = core.pieces[seat]
        best = -1
        if not needed or last:
            best = self._claim(core, seat, self._longest_first)
            if best != -1 and (last or pieces <= 12 or not can_tickets):
                return best
        if needed:
            claim = self._claim(core, seat, self._longest(seat, needed))
            return claim if claim != -1 else self._draw(core, seat, needed)
        if can_tickets and pieces >= 14 and not self.rules.params.draw_tickets.announce_mix:
            return t.draw_tickets
        return best if best != -1 else self._draw(core, seat, needed)

    def act(self, core: Core) -> None:
        """Apply one move of the seat to act."""
        seat = core.to_act()[0]
        code = -1
        if core.phase == PLAY:
            if core.step_ in (TURN, SECOND_CARD):
                code = self._turn(core, seat)
            elif core.step_ == TUNNEL:
                # the normal heuristic's answer: the extra payment with the fewest
                # locomotives (listed first, by locomotives), else abandon (then alone)
                code = core.legal(seat)[0]
        if code >= 0:
            core.step_seat(seat, code)
            return
        st = core.to_state()
        legal = legal_actions(self.rules, st, seat, payments="sensible")
        choice = _FALLBACK.choose(self.rules, player_view(self.rules, st, seat), legal, self.rng)
        core.step_seat(seat, self.table.encode(choice, core.offers[seat]))

    def play_out(self, core: Core, max_actions: int = 2000) -> Core:
        """Play ``core`` to the end (or ``max_actions`` moves) in place; return it."""
        for _ in range(max_actions):
            if core.phase == FINISHED:
                break
            self.act(core)
        return core
