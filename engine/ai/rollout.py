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

:class:`CoreRolloutPolicy`, which the hard AI and the analysis use, plays on the
integer core (:mod:`engine.core`), several times cheaper per move than value
states. The same policy written plainly on value states is the tests' reference
(``tests/engine/value_rollout.py``, ``RolloutPolicy``); ``tests/engine/test_rollout_core.py``
plays both to the same end on every map. The core policy also answers a tunnel's extra cards itself (the heuristic's
answer: fewest locomotives, else abandon) and works out plain payments on the
ints, so only ticket choices and refused claims fall back to the heuristic.
"""

from __future__ import annotations

import random
import weakref
from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..actions import ClaimRoute
from ..core import FINISHED, PLAY, SECOND_CARD, TUNNEL, TURN, Core, core_table
from ..payment_table import kind_payments, payment_table
from ..reducer import legal_actions
from ..rules.europe import BuildStation
from ..views import player_view
from .heuristic import (
    BORROW_COST,
    NORMAL_STYLE,
    HeuristicPlayer,
    PlanStyle,
    cheapest_station_payment,
)

if TYPE_CHECKING:
    from ..rules.classic import ClassicRules

_FALLBACK = HeuristicPlayer()
_STYLED: dict[PlanStyle, HeuristicPlayer] = {}


def _styled_player(style: PlanStyle) -> HeuristicPlayer:
    """The fallback player of a seat that plays ``style`` (one per style)."""
    player = _STYLED.get(style)
    if player is None:
        player = _STYLED[style] = HeuristicPlayer(style=style)
    return player


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
        #: route indices longest first, ties in board order: the order in which the
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
    """The playout policy of the module docstring on the integer core (:mod:`engine.core`):
    its decisions read from the core's arrays and stepped as ints.

    Each seat's plan is kept between moves while a fresh plan would be the same;
    the policy falls back to the normal heuristic (on a value state made for that
    step) where it builds no move or its move would be refused.
    ``tests/engine/test_rollout_core.py`` plays it and the tests' value reference
    (``tests/engine/value_rollout.py``) from the same states and seeds to the same end.

    ``styles`` (seat -> :class:`engine.ai.heuristic.PlanStyle`) gives a seat another
    style than the normal level's: the pieces from which it draws tickets and how it
    keeps them. The hard search's variant in its own style (``plan="hard"``) plays its
    own seat so, so that a move is judged by how the searcher goes on to play.
    """

    def __init__(
        self,
        rules: ClassicRules,
        rng: random.Random,
        styles: Mapping[int, PlanStyle] | None = None,
    ) -> None:
        self.rules = rules
        self.rng = rng
        #: seat -> (pieces from which it draws tickets with nothing left to plan, the player
        #: that makes its ticket choices); seats not named play :data:`NORMAL_STYLE`
        self._styled = {
            seat: (style.tickets_at, _styled_player(style))
            for seat, style in (styles or {}).items()
        }
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
        #: seat -> (train stations built when its plan was made, the city index pairs of
        #: its tickets that plan found no path for, most points first)
        self._blocked: dict[int, tuple[int, list[tuple[int, int]]]] = {}
        #: seat -> (its plan as last returned, that plan longest first)
        self._by_length: dict[int, tuple[list[int], list[int]]] = {}

    def plan(self, core: Core, seat: int) -> list[int]:
        """Unclaimed routes of ``seat``'s cheapest paths for its open tickets; kept between
        moves while a fresh plan would be the same (:meth:`_still_cheapest`)."""
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
        if stations and seat in stations[0]:  # a claim into an own station lends a route
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
        """Route index -> planning cost for ``seat`` (0 own, length claimable, -1
        unusable; other players' routes into the seat's own train stations 0, as
        :func:`engine.ai.heuristic.lend_at_stations` plans)."""
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
        """The train station the normal heuristic builds for ``seat``'s blocked tickets
        (:func:`engine.ai.heuristic.lent_station_city`, paid with
        :func:`engine.ai.heuristic.cheapest_station_payment`): the action int, or -1."""
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
        would refuse it, so the caller falls back to the heuristic).

        The payment is the first of the rule set's ``sensible_payments`` (the fewest
        locomotives, then the fewest cards): worked out on the ints for the plain routes (colour cards
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
        styled = self._styled.get(seat)
        at = NORMAL_STYLE.tickets_at if styled is None else styled[0]
        if can_tickets and pieces >= at and not self.rules.params.draw_tickets.announce_mix:
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
        styled = self._styled.get(seat)
        player = _FALLBACK if styled is None else styled[1]
        choice = player.choose(self.rules, player_view(self.rules, st, seat), legal, self.rng)
        core.step_seat(seat, self.table.encode(choice, core.offers[seat]))

    def play_out(self, core: Core, max_actions: int = 2000) -> Core:
        """Play ``core`` to the end (or ``max_actions`` moves) in place; return it."""
        for _ in range(max_actions):
            if core.phase == FINISHED:
                break
            self.act(core)
        return core
