"""The coach: a suggested move for the player to act, from that player's own view, and why.

:func:`suggest` runs the hard AI's search (:meth:`engine.ai.hard.HardPlayer.evaluate`:
determinised Monte Carlo over a few candidate moves, the hidden cards and tickets
dealt at random in every sampled world) on the asking player's
:class:`~engine.views.PlayerView`, the legal actions and the game's public options,
and explains the move it picks with the ticket planner (:mod:`engine.planner`):

- which of the player's tickets the move advances (or completes, or keeps);
- the cards still to collect for those tickets after the move (by route colour;
  ``gray`` means cards of any one colour), after the player's own hand and wild
  cards are counted;
- the risk: the free route whose loss would hurt the player's plan most (the
  ticket fails: "the last free track on your path", or the detour it would cost);
- one alternative: the best other move of the search, with how many of the sampled
  worlds the suggestion did better in.

It never reads a :class:`~engine.state.GameState`: the RNG is seeded from public
facts only (:func:`hint_rng`), so the suggestion is the same for every state the
player cannot tell apart (``tests/engine/test_coach.py`` re-deals the hidden
information and checks). The texts are made outside the engine, from the
:class:`Hint`'s ids and counts (``sentences.coach``).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..actions import (
    AbandonTunnel,
    Action,
    BuildStation,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepFlagCard,
    KeepTickets,
    PayTunnel,
)
from ..board import Board
from ..planner import TicketPlan, plan_ticket
from ..reducer import legal_actions
from ..state import GameState
from ..types import GRAY, LOCOMOTIVE
from ..views import PlayerView, player_view
from .hard import Z_SCORE, Evaluation, HardPlayer, blocking_claims
from .heuristic import lend_at_stations, route_costs
from .world import ticket_weights, unseen_tickets

if TYPE_CHECKING:
    from ..rules.classic import ClassicRules

#: Rollouts per hint and the wall-clock cap of the search (seconds): the hard AI's budget
#: with a little more time, well inside the 5 s a deferred Discord answer may take.
HINT_ITERATIONS = 240
HINT_TIME_CAP_S = 1.5
#: A detour shorter than this many car spaces is not worth a warning.
MIN_DETOUR = 2

#: Why a move is suggested (:attr:`Hint.reason`).
REASONS = (
    "claim_ticket",  # the claim is on the path of one of the player's tickets
    "claim_points",  # no ticket needs it: points (and pieces used up) now
    "claim_block",  # it cuts another seat's likely path
    "draw_cards",  # collect the colours the tickets need
    "draw_tickets",  # the tickets are done or lost: new ones bring points
    "keep_tickets",  # which offered tickets to keep
    "tunnel_pay",
    "tunnel_abandon",
    "flag_card",
    "station",  # a train station lends a route of another player to these tickets (Europe)
    "other",
)


@dataclass(frozen=True, slots=True)
class Risk:
    """The free route whose loss would hurt the plan most.

    Attributes:
        route: its id.
        ticket: the ticket it would hurt (the most valuable when several).
        fails: the ticket could no longer be completed ("the last free track").
        detour: otherwise, how many more car spaces the way would cost.
    """

    route: str
    ticket: str
    fails: bool
    detour: int = 0


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested move and why (ids and counts; the words are made outside the engine).

    Attributes:
        seat: the player it is for.
        version: the game version it was computed at (a move after it makes it stale).
        action: the suggested move, one of the legal actions given to :func:`suggest`.
        reason: one of :data:`REASONS`.
        tickets: the player's tickets the move advances (or the ones it keeps), ids.
        completes: those of ``tickets`` the move completes.
        missing: route colour -> cards still to collect for ``tickets`` after the move
            (``gray``: cards of any one colour), after the hand and wild cards are counted.
        cars: car spaces of the routes still to claim for ``tickets`` after the move.
        risk: the worst loss the plan could suffer, or None.
        alternative: the best other move, or None when there is none worth naming.
        worlds: sampled worlds in which the suggestion and the alternative were compared
            (0 when nothing was searched).
        ahead, behind: of those, the worlds in which the suggestion did better, worse.
        clear: the suggestion's mean gain over the alternative in those worlds is above zero by
            more than its standard error (else the two were close: the search keeps the
            heuristic's move unless another is clearly better, see
            :func:`engine.ai.hard.pick`).
        blocked: for ``claim_block``, the seat whose likely path the claim cuts.
    """

    seat: int
    version: int
    action: Action
    reason: str
    tickets: tuple[str, ...] = ()
    completes: tuple[str, ...] = ()
    missing: tuple[tuple[str, int], ...] = ()
    cars: int = 0
    risk: Risk | None = None
    alternative: Action | None = None
    worlds: int = 0
    ahead: int = 0
    behind: int = 0
    clear: bool = False
    blocked: int | None = None


def hint_rng(view: PlayerView) -> random.Random:
    """The search's RNG for this view: seeded from public facts only (map, version, seat),
    so nothing hidden can change the hint, and asking twice gives the same one."""
    pub = view.public
    return random.Random(f"hint:{pub.map_id}:{pub.version}:{view.seat}")


def hint_for(
    rules: ClassicRules,
    state: GameState,
    seat: int,
    *,
    iterations: int = HINT_ITERATIONS,
    time_cap_s: float | None = HINT_TIME_CAP_S,
) -> Hint:
    """:func:`suggest` for ``seat`` of ``state``: what the service calls.

    Like the AI players it reads only ``player_view(rules, state, seat)``, the seat's
    legal actions (which depend on its own hand and the table) and the public options.
    Raises ValueError when the seat has nothing to do.
    """
    legal = legal_actions(rules, state, seat, payments="sensible")
    if not legal:
        raise ValueError(f"seat {seat} has no action to take")
    view = player_view(rules, state, seat)
    return suggest(rules, view, legal, state.options, iterations=iterations, time_cap_s=time_cap_s)


def suggest(
    rules: ClassicRules,
    view: PlayerView,
    legal: list[Action],
    options: Mapping[str, Any] | None = None,
    *,
    iterations: int = HINT_ITERATIONS,
    time_cap_s: float | None = HINT_TIME_CAP_S,
) -> Hint:
    """The move the hard AI would weigh best for ``view``'s seat, with its explanation.

    Args:
        legal: the seat's legal actions now (non-empty).
        options: the game's public map options (the ticket set the search samples from).
        iterations, time_cap_s: the search budget (rollouts, wall-clock seconds; None: no
            cap, which makes the hint depend on the view alone).
    """
    searcher = HardPlayer(iterations=iterations, time_cap_s=time_cap_s)
    found = searcher.evaluate(rules, view, legal, hint_rng(view), options)
    action = found.choice
    alternative, diffs = _alternative(rules.board, found, legal, view)
    hint = _explain(rules, view, legal, options, action)
    return replace(
        hint,
        alternative=alternative,
        worlds=len(diffs),
        ahead=sum(1 for d in diffs if d > 0),
        behind=sum(1 for d in diffs if d < 0),
        clear=_clearly_ahead(diffs),
    )


def _clearly_ahead(diffs: Sequence[float]) -> bool:
    """True when the mean of the paired differences is above zero by more than one standard
    error (:data:`engine.ai.hard.Z_SCORE` of them)."""
    n = len(diffs)
    if n < 2:
        return False
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean > 0 and mean > Z_SCORE * (var / n) ** 0.5


# ---------------------------------------------------------------- the alternative


def _alternative(
    board: Board, found: Evaluation, legal: Sequence[Action], view: PlayerView
) -> tuple[Action | None, list[float]]:
    """``(alternative, the choice's outcome minus the alternative's in each world both were
    played in)``; no worlds where nothing was searched."""
    if not found.searched:
        return _plain_alternative(legal, found.choice, view), []
    mine = found.values[found.chosen]
    best: tuple[float, int] | None = None
    for i in found.alive:
        if i == found.chosen or _same_move(board, found.candidates[i], found.choice):
            continue
        n = min(len(found.values[i]), len(mine))
        if n == 0:
            continue
        mean = sum(found.values[i][:n]) / n
        if best is None or mean > best[0]:
            best = (mean, i)
    if best is None:
        return _plain_alternative(legal, found.choice, view), []
    other = found.values[best[1]]
    return found.candidates[best[1]], [m - o for m, o in zip(mine, other, strict=False)]


def _same_move(board: Board, a: Action, b: Action) -> bool:
    """True for two claims of the same connection (another payment, or the other track of a
    double route): not worth naming as an alternative."""
    return (
        isinstance(a, ClaimRoute)
        and isinstance(b, ClaimRoute)
        and (a.route == b.route or a.route in board.siblings(b.route))
    )


def _plain_alternative(legal: Sequence[Action], action: Action, view: PlayerView) -> Action | None:
    """Another sensible move where nothing was searched: the other kind of draw, the other
    tunnel answer, the next keep option; None when ``action`` is the only move."""
    others = [a for a in legal if a != action]
    if not others:
        return None
    if isinstance(action, DrawFaceUp):
        blind = next((a for a in others if isinstance(a, DrawBlind)), None)
        if blind is not None:
            return blind
    if isinstance(action, DrawBlind):
        face = [a for a in others if isinstance(a, DrawFaceUp)]
        useful = [a for a in face if view.public.face_up[a.slot] != LOCOMOTIVE]
        if useful or face:
            return (useful or face)[0]
    same_kind = [a for a in others if a.kind != action.kind]
    return (same_kind or others)[0]


# ---------------------------------------------------------------- the explanation


def _explain(
    rules: ClassicRules,
    view: PlayerView,
    legal: Sequence[Action],
    options: Mapping[str, Any] | None,
    action: Action,
) -> Hint:
    """Why ``action``: the tickets it concerns, then what those still need and the risk (the
    alternative is filled in by :func:`suggest`)."""
    board = rules.board
    held = [t.id for t in view.tickets if not t.done]
    at = _Position(dict(view.public.owners), dict(view.hand), view.me.pieces, {})
    at.plans = _plans(rules, view, at.owners, held, at.pieces)
    draft: dict[str, Any] = {"reason": "other"}  # Hint's fields of the kind of move
    focus: list[str] = []
    if isinstance(action, ClaimRoute):
        focus = _explain_claim(rules, view, legal, options, action, draft, at, held)
    elif isinstance(action, (DrawFaceUp, DrawBlind)):
        card = view.public.face_up[action.slot] if isinstance(action, DrawFaceUp) else None
        if card is not None:
            at.hand[card] = at.hand.get(card, 0) + 1
        focus = [
            p.ticket
            for p in at.plans.values()
            if p.possible and p.routes and _wants(board, p, card, at.hand)
        ]
        draft.update(tickets=tuple(focus), reason="draw_cards")
    elif isinstance(action, KeepTickets):
        focus = list(action.tickets)
        at.plans.update(_plans(rules, view, at.owners, focus, at.pieces))
        draft.update(tickets=tuple(focus), reason="keep_tickets")
    elif isinstance(action, BuildStation):
        focus = station_tickets(rules, view, action.city)
        draft.update(tickets=tuple(focus), reason="station")
    elif isinstance(action, PayTunnel):
        draft["reason"] = "tunnel_pay"
        focus = [p.ticket for p in at.plans.values() if p.possible and not p.done]
    else:
        draft["reason"] = _OTHER_REASONS.get(type(action), "other")
    focused = [at.plans[t] for t in focus if t in at.plans]
    open_plans = [p for p in at.plans.values() if p.possible and not p.done and p.routes]
    return Hint(
        seat=view.seat,
        version=view.public.version,
        action=action,
        missing=_missing(rules, focused, at.hand),
        cars=sum(
            board.routes[r].length for r in dict.fromkeys(r for p in focused for r in p.routes)
        ),
        risk=_risk(rules, view, at.owners, open_plans, at.pieces),
        **draft,
    )


def station_tickets(rules: ClassicRules, view: PlayerView, city: str) -> list[str]:
    """The viewer's open tickets (ids, in hand order) that a train station in ``city``
    helps: their cheapest path over own and free routes gets shorter, or exists again,
    when other players' routes into ``city`` are lent (Europe rules digest, "Train
    stations"; planned as :func:`engine.ai.heuristic.route_costs` does)."""
    pub = view.public
    before = route_costs(rules, view)
    after = dict(before)
    lend_at_stations(rules, pub.owners, {city: view.seat}, view.seat, after)
    out = []
    for t in view.tickets:
        if t.done:
            continue
        was = rules.board.shortest_path(t.a, t.b, before)
        now = rules.board.shortest_path(t.a, t.b, after)
        if now is not None and (was is None or now[0] < was[0]):
            out.append(t.id)
    return out


#: The reason of a move that concerns no ticket in particular, by kind.
_OTHER_REASONS: dict[type[Action], str] = {
    DrawTickets: "draw_tickets",
    AbandonTunnel: "tunnel_abandon",
    KeepFlagCard: "flag_card",
}


@dataclass(slots=True)
class _Position:
    """The seat's position as the explanation moves it on: owners, hand, pieces, plans."""

    owners: dict[str, int]
    hand: dict[str, int]
    pieces: int
    plans: dict[str, TicketPlan]


def _explain_claim(
    rules: ClassicRules,
    view: PlayerView,
    legal: Sequence[Action],
    options: Mapping[str, Any] | None,
    action: ClaimRoute,
    draft: dict[str, Any],
    at: _Position,
    held: list[str],
) -> list[str]:
    """A claim: the tickets whose path uses this connection (either track of a double route)
    and those it completes, or else the seat it blocks or the points; moves ``at`` past the
    claim and returns the tickets still open that it serves."""
    board = rules.board
    route = board.routes[action.route]
    ends = {route.a, route.b}
    along = [
        p.ticket
        for p in at.plans.values()
        if p.possible and any({board.routes[r].a, board.routes[r].b} == ends for r in p.routes)
    ]
    at.owners[action.route] = view.seat
    for color, n in action.payment.items():
        at.hand[color] = at.hand.get(color, 0) - n
    at.pieces -= route.length
    at.plans = _plans(rules, view, at.owners, held, at.pieces)
    draft["tickets"] = tuple(along)
    draft["completes"] = tuple(t for t in along if at.plans[t].done)
    if along:
        draft["reason"] = "claim_ticket"
    else:
        blocked = _blocked_seat(rules, view, legal, options, action)
        draft.update(blocked=blocked, reason="claim_points" if blocked is None else "claim_block")
    return [t for t in along if not at.plans[t].done]


def _plans(
    rules: ClassicRules,
    view: PlayerView,
    owners: Mapping[str, int],
    tickets: Iterable[str],
    pieces: int,
) -> dict[str, TicketPlan]:
    """Ticket id -> its plan for the view's seat over ``owners`` (see :mod:`engine.planner`)."""
    doubles_open = view.public.num_seats >= rules.params.double_routes_min_players
    return {
        t: plan_ticket(rules.board, owners, view.seat, t, doubles_open=doubles_open, pieces=pieces)
        for t in tickets
    }


def _wants(board: Board, plan: TicketPlan, card: str | None, hand: Mapping[str, int]) -> bool:
    """True when a drawn ``card`` (None: a blind card) helps ``plan``: a route of its
    colour, a gray route, or a wild card; a blind card helps any plan with routes left."""
    if card is None or card == LOCOMOTIVE:
        return True
    return any(board.routes[r].color in (card, GRAY) for r in plan.routes)


def _missing(
    rules: ClassicRules, plans: Sequence[TicketPlan], hand: Mapping[str, int]
) -> tuple[tuple[str, int], ...]:
    """Cards still to collect for the routes of ``plans`` (each route once): coloured routes
    take their colour from the hand, gray ones the most plentiful colour left, then wild
    cards (where they pay any route) cover what is short. ``(colour, count)`` pairs,
    coloured first by colour name, then ``gray``."""
    board = rules.board
    routes = list(dict.fromkeys(r for p in plans for r in p.routes))
    have = {c: n for c, n in hand.items() if c != LOCOMOTIVE and n > 0}
    wilds = hand.get(LOCOMOTIVE, 0)
    short: dict[str, int] = {}
    coloured = [r for r in routes if board.routes[r].color != GRAY]
    gray = sorted(
        (r for r in routes if board.routes[r].color == GRAY), key=lambda r: -board.routes[r].length
    )
    for rid in coloured + gray:
        route = board.routes[rid]
        color = route.color
        if color == GRAY:
            color_from = max(have, key=lambda c: (have[c], c), default=None)
            use = min(have.get(color_from, 0), route.length) if color_from else 0
            if color_from:
                have[color_from] -= use
        else:
            use = min(have.get(color, 0), route.length)
            have[color] = have.get(color, 0) - use
        if route.length > use:
            short[route.color] = short.get(route.color, 0) + route.length - use
    if rules.params.locomotives_pay == "any":
        for color in sorted(short, key=lambda c: (c == GRAY, c)):
            use = min(wilds, short[color])
            short[color] -= use
            wilds -= use
    return tuple((c, short[c]) for c in sorted(short, key=lambda c: (c == GRAY, c)) if short[c] > 0)


def _risk(
    rules: ClassicRules,
    view: PlayerView,
    owners: Mapping[str, int],
    plans: Sequence[TicketPlan],
    pieces: int,
) -> Risk | None:
    """The free route of ``plans`` whose claim by another seat would hurt most: a ticket
    that fails (the most valuable first), else the longest detour (at least
    :data:`MIN_DETOUR` spaces); None when no single loss matters."""
    if view.public.num_seats < 2:
        return None
    other = (view.seat + 1) % view.public.num_seats
    best: tuple[tuple[int, int, int], Risk] | None = None
    for route in dict.fromkeys(r for p in plans for r in p.routes):
        taken = {**owners, route: other}
        for plan in plans:
            if route not in plan.routes:
                continue
            again = _plans(rules, view, taken, [plan.ticket], pieces)[plan.ticket]
            if not again.possible:
                key = (1, plan.points, 0)
                risk = Risk(route, plan.ticket, fails=True)
            else:
                detour = again.cars - plan.cars
                if detour < MIN_DETOUR:
                    continue
                key = (0, detour, plan.points)
                risk = Risk(route, plan.ticket, fails=False, detour=detour)
            if best is None or key > best[0]:
                best = (key, risk)
    return None if best is None else best[1]


def _blocked_seat(
    rules: ClassicRules,
    view: PlayerView,
    legal: Sequence[Action],
    options: Mapping[str, Any] | None,
    action: ClaimRoute,
) -> int | None:
    """The other seat whose likely ticket paths (judged from public claims only) ``action``
    cuts the most, or None."""
    weights = ticket_weights(rules, view, unseen_tickets(rules, view, options))
    claims: list[Action] = [
        a for a in legal if isinstance(a, ClaimRoute) and a.route == action.route
    ]
    for seat in sorted(weights, key=lambda s: (s - view.seat) % view.public.num_seats):
        if blocking_claims(rules, view, claims, {seat: weights[seat]}):
            return seat
    return None


__all__ = [
    "HINT_ITERATIONS",
    "HINT_TIME_CAP_S",
    "REASONS",
    "Hint",
    "Risk",
    "hint_for",
    "hint_rng",
    "suggest",
]
