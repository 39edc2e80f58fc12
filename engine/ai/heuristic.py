"""A heuristic player: keeps tickets it can make, plans cheapest paths, collects their colours.

Plan (recomputed every decision from the player's view):
1. For each own ticket not yet completed, the cheapest chain of routes
   (cost = spaces; own routes free; routes others own or that are locked are
   unusable) from :meth:`engine.board.Board.shortest_path`.
2. Claim a route of the plan when it can be paid (longest first, fewest
   locomotives), otherwise draw the colours the plan needs (face-up first).
3. With every ticket done or impossible: draw new tickets while many pieces
   are left, else claim the longest route it can pay for points.

Tunnels (Europe, Nordic): a tunnel is claimed only when the extra cards are
likely to fit in the hand, and never again with the hand it was given up with
(:mod:`engine.ai.tunnels`); the plan collects one card more for each tunnel.

Train stations (Europe): a station is built only when an open ticket is
blocked and one other player's route next to a free city would unblock it
(:func:`station_move`); the others are kept for their points. Routes of
other players at the player's own stations plan as free (one is borrowed at
the end).
"""

from __future__ import annotations

import random
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..actions import (
    AbandonTunnel,
    Action,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
    PayTunnel,
)
from ..rules.europe import BuildStation
from ..rules.paris import KeepFlagCard
from ..types import GRAY, LOCOMOTIVE, Cards
from ..views import PlayerView
from .tunnels import TunnelMemory, TunnelOdds

if TYPE_CHECKING:
    from ..rules.classic import ClassicRules


@dataclass(frozen=True, slots=True)
class PlanStyle:
    """How a heuristic player weighs tickets: the numbers behind its ticket draws and keeps.

    Attributes:
        tickets_at: with every ticket done, new tickets are drawn only while at least this
            many pieces are left (trains; the normal level: 14).
        keep_setup, keep_play: the share of the pieces left that the kept tickets' paths may
            take (spaces), at setup and later; each space over it costs 3 points
            (:func:`keep_values`).
        extra_weight: points a kept ticket's path costs per space it adds to the plan.
    """

    tickets_at: int = 14
    keep_setup: float = 0.75
    keep_play: float = 0.6
    extra_weight: float = 0.35


#: The normal level's style (and every seat's in the rollouts of the hard level).
NORMAL_STYLE = PlanStyle()

#: The hard style, tuned 2026-11-28 on 400 games per map and table size against the
#: normal level (``benchmarks/HISTORY.md``, AI, item 9): fewer tickets drawn in the middle
#: of the game, tighter keeps, and a path's extra spaces weighed three times as much (a
#: tenth of the map's mean ticket value per space: :func:`hard_style`). The heuristic
#: alone plays better in it (``normal:style=hard`` in the lab); the hard search gained
#: nothing shown from it (``hard:plan=hard``), so no level plays it yet.
HARD_TICKETS_AT = 18
HARD_KEEP = (0.65, 0.55)


def hard_style(rules: ClassicRules) -> PlanStyle:
    """The hard style's :class:`PlanStyle` for a rule set: :data:`HARD_TICKETS_AT`,
    :data:`HARD_KEEP` and an extra space weighed at a tenth of the map's mean ticket
    points (USA 1.16, Europe 0.97, Paris 0.53: on the small maps a space is cheap)."""
    style = _HARD_STYLES.get(rules)
    if style is None:
        tickets = rules.board.tickets.values()
        mean = sum(t.points for t in tickets) / max(1, len(tickets))
        style = _HARD_STYLES[rules] = PlanStyle(
            HARD_TICKETS_AT, HARD_KEEP[0], HARD_KEEP[1], round(mean / 10.0, 3)
        )
    return style


_HARD_STYLES: weakref.WeakKeyDictionary[ClassicRules, PlanStyle] = weakref.WeakKeyDictionary()


def route_costs(rules: ClassicRules, view: PlayerView) -> dict[str, int | None]:
    """Route id -> planning cost for the viewer: 0 own, length if claimable, None if not
    usable; other players' routes at the viewer's own train stations cost 0 (Europe)."""
    pub = view.public
    costs = seat_route_costs(rules, pub.owners, pub.num_seats, view.seat, view.me.pieces)
    lend_at_stations(rules, pub.owners, pub.stations, view.seat, costs)
    return costs


def lend_at_stations(
    rules: ClassicRules,
    owners: Mapping[str, int],
    stations: Mapping[str, int],
    seat: int,
    costs: dict[str, int | None],
) -> None:
    """Set to 0 in ``costs`` the routes of other players into ``seat``'s own train
    stations' cities (``stations``: city id -> seat): a station lends one of them for
    the tickets at the end (Europe rules digest, "Train stations")."""
    mine = {city for city, owner in stations.items() if owner == seat}
    if mine:
        for rid, owner in owners.items():
            route = rules.board.routes[rid]
            if owner != seat and (route.a in mine or route.b in mine):
                costs[rid] = 0


def cheapest_station_payment(
    colors: Sequence[str], cost: int, hand: Mapping[str, int]
) -> Cards | None:
    """The payment :func:`station_move` takes for a station costing ``cost`` cards: the
    fewest locomotives, then the first colour of ``colors`` (the order of
    :func:`engine.rules.europe.station_payments`); all locomotives last; None: unpayable."""
    locos = hand.get(LOCOMOTIVE, 0)
    for wild in range(min(cost - 1, locos) + 1):
        for color in colors:
            if hand.get(color, 0) >= cost - wild:
                return Cards({color: cost - wild, LOCOMOTIVE: wild})
    return Cards({LOCOMOTIVE: cost}) if locos >= cost else None


def lent_station_city(
    rules: ClassicRules,
    owners: Mapping[str, int],
    stations: Mapping[str, int],
    seat: int,
    pieces: int,
    blocked: Sequence[tuple[str, str]],
    costs: Mapping[str, int | None],
) -> str | None:
    """The city :func:`station_move` builds on for the first of ``blocked`` (city pairs
    whose cheapest path over ``costs`` does not exist, most points first) that one
    route of another player unblocks: a free end of that route (no station there) when
    the rest of the path fits in ``pieces``; None when none does."""
    board = rules.board
    borrow = dict(costs)
    for rid, owner in owners.items():
        if owner != seat and costs.get(rid) is None:
            borrow[rid] = BORROW_COST + board.routes[rid].length
    for a, b in blocked:
        found = board.shortest_path(a, b, borrow)
        if found is None or found[0] >= 2 * BORROW_COST:
            continue
        lent = [r for r in found[1] if r in owners and owners[r] != seat]
        if sum(costs.get(r) or 0 for r in found[1] if r not in lent) > pieces:
            continue
        for r in lent:
            for city in (board.routes[r].a, board.routes[r].b):
                if city not in stations:
                    return city
    return None


#: Planning cost of a route another player owns, when looking for a station to build:
#: high enough that a path borrows as few routes as it can.
BORROW_COST = 1000


def station_move(
    rules: ClassicRules,
    view: PlayerView,
    stations: Sequence[BuildStation],
    costs: Mapping[str, int | None],
) -> BuildStation | None:
    """A train station that unblocks an open ticket, or None (Europe rules digest,
    "Train stations").

    For the open tickets, most points first, that no path over own and free routes
    joins: the cheapest path that may also use other players' routes; when it uses
    exactly one, and the rest fits in the pieces left, a station at one of that
    route's free ends (the payment with the fewest locomotives, then of the colour
    the plan needs least). Stations that unblock nothing are kept: each one not
    built scores 4 points.
    """
    if not stations:
        return None
    board = rules.board
    blocked = [
        (t.a, t.b)
        for t in sorted((t for t in view.tickets if not t.done), key=lambda t: -t.points)
        if board.shortest_path(t.a, t.b, dict(costs)) is None
    ]
    pub = view.public
    city = lent_station_city(
        rules, pub.owners, pub.stations, view.seat, view.me.pieces, blocked, costs
    )
    if city is None:
        return None
    pays = [a for a in stations if a.city == city]
    return min(pays, key=lambda a: (a.payment.get(LOCOMOTIVE), a.payment.total))


def seat_route_costs(
    rules: ClassicRules, owners: Mapping[str, int], num_seats: int, seat: int, pieces: int
) -> dict[str, int | None]:
    """Route id -> planning cost for ``seat`` with ``pieces`` trains left, given the route
    owners: 0 own, the length if claimable, None if taken, blocked (the second track of a
    double route: always for its owner, for everyone below the map's double-route player
    count) or too long. Rulebook: USA, "Double routes"."""
    few = num_seats < rules.params.double_routes_min_players
    board = rules.board
    costs: dict[str, int | None] = {}
    for rid, route in board.routes.items():
        owner = owners.get(rid)
        if owner is not None:
            costs[rid] = 0 if owner == seat else None
            continue
        length = route.length
        if length > pieces:
            costs[rid] = None
            continue
        for sib in board.siblings(rid):
            so = owners.get(sib)
            if so is not None and (so == seat or few):
                costs[rid] = None
                break
        else:
            costs[rid] = length
    return costs


def plan_routes(
    rules: ClassicRules,
    view: PlayerView,
    tickets: Sequence[tuple[str, str]],
    costs: dict[str, int | None],
) -> tuple[list[str], int, int]:
    """Union of cheapest paths for ``tickets`` (pairs of city ids), planned one after another.

    Routes chosen for an earlier ticket become free for later ones. Returns
    ``(unclaimed route ids to claim, their total spaces, tickets impossible)``.
    """
    c = dict(costs)
    needed: list[str] = []
    impossible = 0
    for a, b in tickets:
        found = rules.board.shortest_path(a, b, c)
        if found is None:
            impossible += 1
            continue
        for rid in found[1]:
            if c[rid]:
                needed.append(rid)
                c[rid] = 0
    return needed, sum(rules.board.routes[r].length for r in needed), impossible


def _claim_key(rules: ClassicRules, a: ClaimRoute) -> tuple[int, int, int]:
    """Sort key of a claim: longest route, then fewest locomotives, then fewest cards."""
    return (rules.board.routes[a.route].length, -a.payment.get(LOCOMOTIVE), -a.payment.total)


def keep_values(
    rules: ClassicRules,
    view: PlayerView,
    options: Sequence[KeepTickets],
    style: PlanStyle = NORMAL_STYLE,
) -> list[float]:
    """The heuristic value of each keep option (points minus estimated cost and risk).

    Value = ticket points - 3 x spaces over the piece budget (``style.keep_setup`` or
    ``keep_play`` of the pieces left) - 20 x impossible tickets - ``style.extra_weight``
    x extra spaces to claim (normal: budgets 0.75 and 0.6, 0.35 per space). One float
    per option, same order.
    """
    costs = route_costs(rules, view)
    held = [(t.a, t.b) for t in view.tickets if not t.done]
    _, base_cost, _ = plan_routes(rules, view, held, costs)
    share = style.keep_setup if view.public.phase == "setup" else style.keep_play
    budget = view.me.pieces * share
    board = rules.board
    values: list[float] = []
    for opt in options:
        pairs = [(board.tickets[t].a, board.tickets[t].b) for t in opt.tickets]
        _, cost, impossible = plan_routes(rules, view, held + pairs, costs)
        points = sum(board.tickets[t].points for t in opt.tickets)
        extra = cost - base_cost
        over = max(0.0, base_cost + extra - budget)
        values.append(points - 3 * over - 2 * impossible * 10 - style.extra_weight * extra)
    return values


class HeuristicPlayer:
    """See the module docstring. Safe to share between seats and games: its only state is
    the tunnels it gave up (:class:`engine.ai.tunnels.TunnelMemory`), keyed by seat and
    hand and counted only later in the same game.

    ``careful_tunnels=False`` plays as the heuristic did before tunnels were weighed (any
    affordable tunnel, given up or not, and no card more collected for one): a variant for
    the benchmarks' comparisons (``normal:careful_tunnels=0``), which can stall a game.
    ``style`` weighs its tickets (:class:`PlanStyle`, or a function of the rule set such as
    :func:`hard_style`); the normal level plays :data:`NORMAL_STYLE`."""

    def __init__(
        self,
        *,
        careful_tunnels: bool = True,
        style: PlanStyle | Callable[[ClassicRules], PlanStyle] = NORMAL_STYLE,
    ) -> None:
        self.tunnels = TunnelMemory()
        self.careful_tunnels = careful_tunnels
        self.style = style

    def style_for(self, rules: ClassicRules) -> PlanStyle:
        """The :class:`PlanStyle` this player plays ``rules`` with."""
        style = self.style
        return style if isinstance(style, PlanStyle) else style(rules)

    def choose(
        self, rules: ClassicRules, view: PlayerView, legal: list[Action], rng: random.Random
    ) -> Action:
        """One of ``legal`` (non-empty), chosen from ``view`` only."""
        legal = self.completable(rules, view, legal)
        by_kind: dict[str, list[Action]] = {}
        for a in legal:
            by_kind.setdefault(a.kind, []).append(a)
        forced = self._forced(view, legal, by_kind)
        if forced is not None:
            if isinstance(forced, list):
                return self._keep(rules, view, forced)
            return forced
        costs = route_costs(rules, view)
        open_tickets = [(t.a, t.b) for t in view.tickets if not t.done]
        needed, _, _ = plan_routes(rules, view, open_tickets, costs)
        stations = [a for a in by_kind.get("build_station", []) if isinstance(a, BuildStation)]
        station = station_move(rules, view, stations, costs)
        if station is not None:
            return station
        claims = [a for a in by_kind.get("claim_route", []) if isinstance(a, ClaimRoute)]
        move = self._claim_or_tickets(rules, view, by_kind, needed, claims)
        if move is not None:
            return move
        return self._draw(rules, view, by_kind, needed, view.hand, rng)

    def completable(
        self, rules: ClassicRules, view: PlayerView, legal: list[Action]
    ) -> list[Action]:
        """``legal`` without the tunnel claims not worth trying now
        (:meth:`engine.ai.tunnels.TunnelOdds.worth`); when that leaves nothing, without
        the tunnels given up with this hand; when that leaves nothing too, ``legal``."""
        routes = rules.board.routes
        if not self.careful_tunnels or not any(
            isinstance(a, ClaimRoute) and routes[a.route].tunnel for a in legal
        ):
            return legal
        odds = TunnelOdds(rules, view, self.tunnels)
        kept = [a for a in legal if not isinstance(a, ClaimRoute) or odds.worth(a)]
        if kept:
            return kept
        fresh = [a for a in legal if not isinstance(a, ClaimRoute) or not odds.forbids(a.route)]
        return fresh or legal

    def _forced(
        self, view: PlayerView, legal: list[Action], by_kind: dict[str, list[Action]]
    ) -> Action | list[KeepTickets] | None:
        """Decisions outside a normal turn: keep options (returned as a list), tunnel, flag, setup."""
        if "keep_tickets" in by_kind:
            return [a for a in by_kind["keep_tickets"] if isinstance(a, KeepTickets)]
        if "pay_tunnel" in by_kind or "abandon_tunnel" in by_kind:
            pays = [a for a in by_kind.get("pay_tunnel", []) if isinstance(a, PayTunnel)]
            if pays:
                return min(pays, key=lambda a: a.extra.get(LOCOMOTIVE))
            self.tunnels.give_up(view)
            return next(a for a in legal if isinstance(a, AbandonTunnel))
        if "keep_flag_card" in by_kind:
            keep = [a for a in by_kind["keep_flag_card"] if isinstance(a, KeepFlagCard) and a.color]
            return keep[0] if keep else by_kind["keep_flag_card"][0]
        if view.public.phase == "setup" and "draw_tickets" in by_kind:
            return self.mix_choice(_tickets(by_kind), setup=True)
        if list(by_kind) == ["pass"]:
            return legal[0]
        return None

    def _claim_or_tickets(
        self,
        rules: ClassicRules,
        view: PlayerView,
        by_kind: dict[str, list[Action]],
        needed: list[str],
        claims: list[ClaimRoute],
    ) -> Action | None:
        """A claim or a ticket draw when the plan calls for one, else None (then draw cards)."""
        last_round = view.public.last_round
        can_tickets = "draw_tickets" in by_kind
        if claims and (last_round or not needed):
            # score points: longest affordable route, fewest locomotives
            best = max(claims, key=lambda a: _claim_key(rules, a))
            if last_round or view.me.pieces <= 12 or not can_tickets:
                if not needed or rules.board.routes[best.route].length >= 2 or last_round:
                    return best
        if needed:
            mine = [a for a in claims if a.route in needed]
            if mine:
                return max(mine, key=lambda a: _claim_key(rules, a))
            return None
        if can_tickets and view.me.pieces >= self.style_for(rules).tickets_at and not last_round:
            return self.mix_choice(_tickets(by_kind), setup=False)
        if claims:
            return max(
                claims,
                key=lambda a: (rules.board.routes[a.route].length, -a.payment.get(LOCOMOTIVE)),
            )
        return None

    def _draw(
        self,
        rules: ClassicRules,
        view: PlayerView,
        by_kind: dict[str, list[Action]],
        needed: list[str],
        hand: dict[str, int],
        rng: random.Random,
    ) -> Action:
        demand, gray_need = _demand(rules, needed, spare=self.careful_tunnels)
        face = [a for a in by_kind.get("draw_face_up", []) if isinstance(a, DrawFaceUp)]
        row = view.public.face_up
        best_slot = _best_face_up(face, row, demand, gray_need, hand)
        if best_slot is not None:
            return best_slot
        loco_useful = rules.params.locomotives_pay == "any" or any(
            rules.board.routes[r].tunnel or rules.board.routes[r].is_ferry for r in needed
        )
        if view.public.cards_drawn == 0 and loco_useful and needed:
            locos = [a for a in face if row[a.slot] == LOCOMOTIVE]
            if locos and sum(demand.values()) + gray_need - sum(hand.values()) >= 4:
                return locos[0]
        blind = [a for a in by_kind.get("draw_blind", []) if isinstance(a, DrawBlind)]
        if blind:
            return blind[0]
        if face:
            return rng.choice(face)
        return _last_resort(rules, by_kind, needed)

    @staticmethod
    def mix_choice(options: list[DrawTickets], *, setup: bool) -> DrawTickets:
        """The ticket draw to make: the mix closest to 3 (setup) or 4 short tickets."""

        def short_count(a: DrawTickets) -> int:
            return sum(n for deck, n in a.mix if deck != "long")

        want = 3 if setup else 4
        return min(options, key=lambda a: (abs(short_count(a) - want), -short_count(a)))

    def _keep(
        self, rules: ClassicRules, view: PlayerView, options: list[KeepTickets]
    ) -> KeepTickets:
        values = keep_values(rules, view, options, self.style_for(rules))
        best = max(range(len(options)), key=lambda i: (values[i], -len(options[i].tickets), -i))
        return options[best]


def _tickets(by_kind: dict[str, list[Action]]) -> list[DrawTickets]:
    return [a for a in by_kind.get("draw_tickets", []) if isinstance(a, DrawTickets)]


def _demand(
    rules: ClassicRules, needed: list[str], *, spare: bool = True
) -> tuple[dict[str, int], int]:
    """Cards the plan needs: colour -> spaces, and the longest gray route's length; with
    ``spare``, a tunnel needs one card more, to pay a revealed match."""
    demand: dict[str, int] = {}
    gray_need = 0
    for rid in needed:
        r = rules.board.routes[rid]
        length = r.length + (1 if r.tunnel and spare else 0)
        if r.color == GRAY:
            gray_need = max(gray_need, length)
        else:
            demand[r.color] = demand.get(r.color, 0) + length
    return demand, gray_need


def _best_face_up(
    face: list[DrawFaceUp],
    row: tuple[str | None, ...],
    demand: dict[str, int],
    gray_need: int,
    hand: dict[str, int],
) -> DrawFaceUp | None:
    """The face-up card that closes the largest gap in the plan's colours, or None."""
    best_slot = None
    best_gap = 0.0
    for a in face:
        color = row[a.slot]
        if color is None or color == LOCOMOTIVE:
            continue
        gap = float(demand.get(color, 0) - hand.get(color, 0))
        if gap <= 0 and gray_need and hand.get(color, 0) + 1 <= gray_need:
            gap = 0.5
        if gap > best_gap:
            best_gap, best_slot = gap, a
    return best_slot


def _last_resort(
    rules: ClassicRules, by_kind: dict[str, list[Action]], needed: list[str]
) -> Action:
    """No card to draw: tickets (with nothing planned), the longest claim, anything, or pass."""
    rest = [a for kind, acts in by_kind.items() if kind != "pass" for a in acts]
    if "draw_tickets" in by_kind and not needed:
        return by_kind["draw_tickets"][0]
    claims = [a for a in rest if isinstance(a, ClaimRoute)]
    if claims:
        return max(claims, key=lambda a: rules.board.routes[a.route].length)
    others = [a for a in rest if not isinstance(a, DrawTickets)]
    if others:
        return others[0]
    if rest:
        return rest[0]
    return next(a for acts in by_kind.values() for a in acts if isinstance(a, Pass))
