"""The hard AI's playout policy on value states: the reference the integer core's is held to.

:class:`RolloutPolicy` makes, on :class:`engine.state.GameState` values through
:func:`engine.apply`, the moves that :class:`engine.ai.rollout.CoreRolloutPolicy`
makes on the integer core (see that module for the policy itself: the normal
heuristic's plan played cheaply, train stations built where one route of
another player opens a blocked ticket). The product plays only the core policy;
this one is written plainly from the value engine so that
``tests/engine/test_rollout_core.py`` can play both from the same states and
seeds to the same end, and ``tests/engine/test_rollout_plan.py`` can check its
plan cache against a fresh plan at every step.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from engine.actions import Action, ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets
from engine.ai.heuristic import (
    NORMAL_STYLE,
    HeuristicPlayer,
    PlanStyle,
    cheapest_station_payment,
    lend_at_stations,
    lent_station_city,
    seat_route_costs,
)
from engine.errors import IllegalAction
from engine.reducer import apply, legal_actions
from engine.rules.classic import ClassicRules
from engine.rules.europe import BuildStation, stations_of
from engine.state import GameState
from engine.types import GRAY, LOCOMOTIVE
from engine.views import player_view

_FALLBACK = HeuristicPlayer()


def _costs(rules: ClassicRules, st: GameState, seat: int) -> dict[str, int | None]:
    """Route id -> planning cost for ``seat`` (0 own, length claimable, None unusable;
    other players' routes into the seat's own train stations 0, as the heuristic plans)."""
    costs = seat_route_costs(rules, st.owners, st.num_seats, seat, st.players[seat].pieces)
    stations = stations_of(st)
    if stations:
        lend_at_stations(rules, st.owners, stations, seat, costs)
    return costs


class RolloutPolicy:
    """Plays every seat of a sampled game to its end; caches each seat's plan between claims.

    One instance per rollout (the cache is keyed by the board, not by game).
    """

    def __init__(
        self,
        rules: ClassicRules,
        rng: random.Random,
        styles: Mapping[int, PlanStyle] | None = None,
    ) -> None:
        self.rules = rules
        self.rng = rng
        #: seat -> its style (seats not named play the normal style)
        self.styles = dict(styles or {})
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
        built = len(stations_of(st))
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
        mine = [city for city, owner in stations_of(st).items() if owner == seat]
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
        at = self.styles.get(seat, NORMAL_STYLE).tickets_at
        if can_tickets and player.pieces >= at and not self.rules.params.draw_tickets.announce_mix:
            return DrawTickets(seat)
        return best if best is not None else self._draw(st, seat, needed)

    def _station(self, st: GameState, seat: int) -> BuildStation | None:
        """The train station the normal heuristic builds for ``seat``'s blocked tickets
        (:func:`engine.ai.heuristic.station_move`), or None."""
        stations = self.rules.params.stations
        assert stations is not None
        built = sum(1 for owner in stations_of(st).values() if owner == seat)
        if built >= min(stations.count, len(stations.costs)):
            return None
        player = st.players[seat]
        pay = cheapest_station_payment(self.rules.params.colors, stations.costs[built], player.hand)
        if pay is None:
            return None
        city = lent_station_city(
            self.rules,
            st.owners,
            stations_of(st),
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
        style = self.styles.get(seat)
        player = _FALLBACK if style is None else HeuristicPlayer(style=style)
        choice = player.choose(self.rules, player_view(self.rules, st, seat), legal, self.rng)
        return apply(self.rules, st, choice).state

    def play_out(self, st: GameState, max_actions: int = 2000) -> GameState:
        """Play ``st`` to the end (or ``max_actions`` moves); return the last state."""
        for _ in range(max_actions):
            if st.finished:
                break
            st = self.act(st)
        return st
