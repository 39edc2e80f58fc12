"""The menu of one seat: every choice it has right now, answered by the engine, as one typed object.

The cogs render a :class:`TurnMenu` and turn a click back into an engine action
with its methods (:meth:`TurnMenu.draw`, :meth:`TurnMenu.claim`, ...), which
refuse an index out of range with a :class:`ServiceError` that lists the
choices that exist. Indexes are stable for a given game version: a route's
index is its position in the map's route list (a double route's entry takes the
index of its first claimable track, and answers to the others' too); a
payment's index is its place in :attr:`RouteChoice.payments`. So a button can
carry ``(version, index)`` and still mean the same thing after a restart.

The claim list never enumerates every exact payment (on Nordic's ferries a big
hand has millions): routes come from the engine's bounded ("sensible") move
list and each route's payments from :func:`engine.claims.payment_choices`; the
reducer validates the one chosen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from engine import (
    AbandonTunnel,
    Action,
    BuildStation,
    Cards,
    ClaimRoute,
    ClassicRules,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    GameState,
    KeepFlagCard,
    KeepTickets,
    PayTunnel,
    Route,
    legal_actions,
    player_view,
)
from engine.claims import MAX_CHOICES, payment_choices, payment_key
from engine.payment import payment_fields, tunnel_spare
from engine.planner import TicketPlan, plan_offer, plan_tickets

from ._errors import ServiceError


@dataclass(frozen=True, slots=True)
class RouteChoice:
    """A route the seat can claim now: one entry per route, the claimable tracks of a double
    route together.

    Attributes:
        index: the board position of the entry's first claimable track (stable across versions).
        route: that track's id.
        payments: the ways to pay, best first (fewest locomotives, then fewest cards, then the
            one that keeps the hand's sets together: :func:`engine.claims.payment_key`), at most
            :data:`engine.claims.MAX_CHOICES`. A double route's tracks that claim alike (same
            length, colour, tunnel, ferry and cart symbols) share their payments; tracks that
            differ each keep theirs.
        tracks: the entry's claimable tracks, ``route`` first.
        pay_tracks: per payment, the track it claims (empty: every payment claims ``route``).
        planned: the route is on the planned path of one of the seat's tickets.
        serves: the seat's tickets (ids) whose planned path uses it.
        others: board positions of the entry's other claimable tracks.
        spares: for a tunnel, per payment, the cards the hand keeps after it that can pay
            the tunnel's extra cards (:func:`engine.payment.tunnel_spare`; 0: any match of
            the revealed cards loses the turn); empty for a route that is no tunnel.
    """

    index: int
    route: str
    payments: tuple[Cards, ...]
    tracks: tuple[str, ...] = ()
    pay_tracks: tuple[str, ...] = ()
    planned: bool = False
    serves: tuple[str, ...] = ()
    others: tuple[int, ...] = ()
    spares: tuple[int, ...] = ()

    def track(self, payment: int) -> str:
        """The track that payment ``payment`` claims."""
        return self.pay_tracks[payment] if self.pay_tracks else self.route

    @property
    def single(self) -> bool:
        """Exactly one way to pay exists: picking the route claims it, without a confirm step."""
        return len(self.payments) == 1

    @property
    def tracks_differ(self) -> bool:
        """Its payments claim different tracks (the buttons must say which)."""
        return len(set(self.pay_tracks)) > 1


@dataclass(frozen=True, slots=True)
class StationChoice:
    """A city where the seat can build its next train station now (Europe rules digest,
    "Train stations").

    Attributes:
        index: the city's position in the map's city list (stable across versions).
        city: the city id.
        cost: cards the station costs (1, 2, 3: the seat's first, second, third).
        payments: the distinct ways to pay, one per (colour, number of locomotives),
            fewest locomotives first.
        serves: the seat's tickets (ids) whose plan suggests a station in this city
            (:attr:`engine.planner.TicketPlan.station`); such cities come first.
    """

    index: int
    city: str
    cost: int
    payments: tuple[Cards, ...]
    serves: tuple[str, ...] = ()

    @property
    def planned(self) -> bool:
        """The seat's ticket plans suggest a station here."""
        return bool(self.serves)


@dataclass(frozen=True, slots=True)
class KeepChoice:
    """Destination tickets on offer: keep between ``least`` and ``most`` of ``offer`` (ticket ids);
    ``plans``: per offered ticket, what it would still cost given the seat's network."""

    offer: tuple[str, ...]
    least: int
    most: int
    setup: bool
    plans: tuple[TicketPlan, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class TunnelChoice:
    """A tunnel waiting for its extra cards (Nordic rulebook, "Tunnel").

    Attributes:
        route: the tunnel; committed: the cards played for its length;
        revealed: the three cards turned up; extra: cards owed;
        payments: the ways to pay them from the hand (empty: only giving up is possible);
        color: the colour the revealed cards had to match, besides locomotives (None: only
            locomotives were played, so only locomotives match and pay).
    """

    route: str
    committed: Cards
    revealed: tuple[str, ...]
    extra: int
    payments: tuple[Cards, ...]
    color: str | None = None


@dataclass(frozen=True, slots=True)
class TurnMenu:
    """Everything ``seat`` may do now in game ``game_id`` at ``version``.

    ``step`` is ``"turn"`` (choose an action), ``"second_card"``,
    ``"keep_tickets"``, ``"announce_mix"`` (Germany: choose the ticket mix),
    ``"tunnel"`` or ``"flag"`` (Paris). Draw sources: ``draw_deck`` and the
    face-up ``draw_slots`` (0-based) allowed now; ``ticket_draws`` the ticket
    draws allowed (``((deck, n), ...)`` mixes; ``()`` is the plain draw).
    """

    game_id: int
    version: int
    seat: int
    step: str
    draw_deck: bool = False
    draw_slots: tuple[int, ...] = ()
    claims: tuple[RouteChoice, ...] = ()
    ticket_draws: tuple[tuple[tuple[str, int], ...], ...] = ()
    keep: KeepChoice | None = None
    tunnel: TunnelChoice | None = None
    flag_colors: tuple[str, ...] = ()
    stations: tuple[StationChoice, ...] = ()

    # ------------------------------------------------------------ clicks back to actions
    def draw(self, slot: int | None) -> Action:
        """The card draw from the deck (``slot`` None) or face-up ``slot`` (0-based).

        Raises ServiceError ``bad_draw`` with the sources that exist now.
        """
        if slot is None and self.draw_deck:
            return DrawBlind(self.seat)
        if slot is not None and slot in self.draw_slots:
            return DrawFaceUp(self.seat, slot)
        raise ServiceError(
            "bad_draw",
            {
                "deck": self.draw_deck,
                "slots": ", ".join(str(s + 1) for s in self.draw_slots) or "-",
            },
        )

    def route(self, index: int) -> RouteChoice:
        """The claimable route with this index (an entry's own, or one of its other tracks');
        ServiceError ``bad_route`` when it is not claimable now."""
        for choice in self.claims:
            if choice.index == index or index in choice.others:
                return choice
        raise ServiceError("bad_route", {"routes": len(self.claims)})

    def route_named(self, route: str) -> RouteChoice | None:
        """The entry that holds track ``route`` (a route id), or None when it is not claimable now."""
        return next((c for c in self.claims if route in (c.route, *c.tracks)), None)

    def claim(self, index: int, payment: int) -> Action:
        """Claim route ``index`` paying its ``payment``-th option.

        Raises ServiceError ``bad_route`` or ``bad_payment`` (with the number of options).
        """
        choice = self.route(index)
        if not 0 <= payment < len(choice.payments):
            raise ServiceError(
                "bad_payment", {"choices": len(choice.payments), "given": payment + 1}
            )
        return ClaimRoute(self.seat, choice.track(payment), choice.payments[payment])

    def station(self, index: int) -> StationChoice:
        """The city with this index where a station can be built now; ServiceError
        ``bad_station_city`` otherwise."""
        for choice in self.stations:
            if choice.index == index:
                return choice
        raise ServiceError("bad_station_city", {"cities": len(self.stations)})

    def build_station(self, index: int, payment: int) -> Action:
        """Build a train station in city ``index`` paying its ``payment``-th option.

        Raises ServiceError ``bad_station_city`` or ``bad_payment`` (with the number of options).
        """
        choice = self.station(index)
        if not 0 <= payment < len(choice.payments):
            raise ServiceError(
                "bad_payment", {"choices": len(choice.payments), "given": payment + 1}
            )
        return BuildStation(self.seat, choice.city, choice.payments[payment])

    def draw_tickets(self, index: int = 0) -> Action:
        """The ``index``-th allowed ticket draw; ServiceError ``bad_ticket_draw`` when none is."""
        if not 0 <= index < len(self.ticket_draws):
            raise ServiceError("bad_ticket_draw", {"choices": len(self.ticket_draws)})
        return DrawTickets(self.seat, self.ticket_draws[index])

    def keep_tickets(self, chosen: Sequence[int]) -> Action:
        """Keep the offered tickets at these positions; ServiceError ``bad_keep`` (with min/max)."""
        keep = self.keep
        picked = sorted(set(chosen))
        if (
            keep is None
            or not picked
            and keep.least
            or any(not 0 <= i < len(keep.offer) for i in picked)
        ):
            raise ServiceError(
                "bad_keep",
                {"min": keep.least if keep else 0, "max": keep.most if keep else 0},
            )
        if not keep.least <= len(picked) <= keep.most:
            raise ServiceError("must_keep_at_least", {"min": keep.least, "kept": len(picked)})
        return KeepTickets(self.seat, tuple(keep.offer[i] for i in picked))

    def pay_tunnel(self, option: int | None) -> Action:
        """Pay the tunnel's ``option``-th way, or give it up (None). ServiceError ``bad_payment``."""
        tunnel = self.tunnel
        if tunnel is None:
            raise ServiceError("wrong_step", {"step": self.step})
        if option is None:
            return AbandonTunnel(self.seat)
        if not 0 <= option < len(tunnel.payments):
            raise ServiceError(
                "bad_payment", {"choices": len(tunnel.payments), "given": option + 1}
            )
        return PayTunnel(self.seat, tunnel.payments[option])

    def keep_flag(self, color: str | None) -> Action:
        """Paris: set aside a card of ``color`` for a French flag, or decline (None)."""
        if self.step != "flag":
            raise ServiceError("wrong_step", {"step": self.step})
        if color is not None and color not in self.flag_colors:
            raise ServiceError("flag_color_not_allowed", {"color": color})
        return KeepFlagCard(self.seat, color)


def _claims(
    rules: ClassicRules,
    state: GameState,
    seat: int,
    routes: Sequence[str],
    plans: Sequence[TicketPlan] | None,
) -> tuple[RouteChoice, ...]:
    """The claim entries of ``routes`` (claimable now): double routes merged, each with its
    bounded payments; the routes on the seat's ticket plans (``plans``; None: planned here)
    first, then the longest."""
    board = rules.board
    position = {rid: i for i, rid in enumerate(board.routes)}
    hand = state.players[seat].hand
    if plans is None:
        plans = plan_tickets(rules, player_view(rules, state, seat))
    serves: dict[str, list[str]] = {}
    for plan in plans:
        for rid in plan.routes:
            serves.setdefault(rid, []).append(plan.ticket)
    claimable = set(routes)
    groups: dict[str, list[str]] = {}
    for rid in sorted(claimable, key=position.__getitem__):
        first = min(
            (s for s in (rid, *board.siblings(rid)) if s in claimable), key=position.__getitem__
        )
        groups.setdefault(first, []).append(rid)
    out = []
    for first, tracks in groups.items():
        paid: dict[tuple[Cards, tuple[object, ...]], str] = {}
        for rid in tracks:
            route = board.routes[rid]
            alike = (*payment_fields(route), route.carts)  # tracks that claim alike share
            for pay in payment_choices(rules.params, route, hand):
                paid.setdefault((pay, alike), rid)
        ordered = sorted(paid, key=lambda pk: (payment_key(pk[0], hand), position[paid[pk]]))
        ordered = ordered[:MAX_CHOICES]
        if not ordered:
            continue
        tickets = tuple(dict.fromkeys(t for rid in tracks for t in serves.get(rid, ())))
        found = [_spare(rules, board.routes[paid[pk]], pk[0], hand) for pk in ordered]
        spares = tuple(n for n in found if n is not None)
        out.append(
            RouteChoice(
                position[first],
                first,
                tuple(p for p, _ in ordered),
                tuple(tracks),
                tuple(paid[pk] for pk in ordered) if len(tracks) > 1 else (),
                planned=bool(tickets),
                serves=tickets,
                others=tuple(position[r] for r in tracks[1:]),
                spares=spares if len(spares) == len(found) else (),
            )
        )
    out.sort(key=lambda c: (not c.planned, -board.routes[c.route].length, c.index))
    return tuple(out)


@dataclass(slots=True)
class _LegalByKind:
    """The seat's legal actions sorted by the choice each belongs to (one pass over the list).

    Attributes:
        routes: the claimable routes' ids, in the engine's order, once each.
        station_pays: city id -> the payments a station there can take, in the engine's order.
        slots: the face-up slots the seat can draw from.
        deck: whether the seat can draw from the deck.
        draws: each ticket draw's mix (``((deck, count), ...)`` on a map that asks for a mix,
            Germany's; ``()`` elsewhere).
    """

    routes: dict[str, None] = field(default_factory=dict)
    station_pays: dict[str, list[Cards]] = field(default_factory=dict)
    slots: list[int] = field(default_factory=list)
    deck: bool = False
    draws: list[tuple[tuple[str, int], ...]] = field(default_factory=list)


def _by_kind(legal: Sequence[Action]) -> _LegalByKind:
    """``legal`` sorted into the claims, the stations, the card draws and the ticket draws."""
    out = _LegalByKind()
    for action in legal:
        if isinstance(action, ClaimRoute):
            out.routes[action.route] = None
        elif isinstance(action, DrawFaceUp):
            out.slots.append(action.slot)
        elif isinstance(action, DrawBlind):
            out.deck = True
        elif isinstance(action, DrawTickets):
            out.draws.append(action.mix)
        elif isinstance(action, BuildStation):
            out.station_pays.setdefault(action.city, []).append(action.payment)
    return out


def _keep_choice(rules: ClassicRules, state: GameState, seat: int) -> KeepChoice | None:
    """The tickets ``seat`` is offered and how many it must keep (the setup deal's numbers in
    setup, a draw's in play), with the planner's advice; None without an offer."""
    player = state.players[seat]
    if not player.offer:
        return None
    deal = rules.params.initial_tickets if state.phase == "setup" else rules.params.draw_tickets
    return KeepChoice(
        tuple(player.offer),
        min(deal.keep, len(player.offer)),
        len(player.offer),
        state.phase == "setup",
        plan_offer(rules, player_view(rules, state, seat)),
    )


def _spare(rules: ClassicRules, route: Route, payment: Cards, hand: dict[str, int]) -> int | None:
    """The cards ``hand`` keeps after ``payment`` for the extra cards of tunnel ``route``
    (:func:`engine.payment.tunnel_spare`); None when the route is no tunnel."""
    if not route.tunnel:
        return None
    plan = rules.payment_plan(route, payment)
    return tunnel_spare(plan.color if plan is not None else None, payment, hand)


def _tunnel_choice(state: GameState, step: str, legal: Sequence[Action]) -> TunnelChoice | None:
    """The tunnel being paid for (its revealed cards and the extra cost) and the ways to pay
    the extra among ``legal``; None when the step is not a tunnel's."""
    if state.tunnel is None or step != "tunnel":
        return None
    t = state.tunnel
    options = tuple(a.extra for a in legal if isinstance(a, PayTunnel))
    return TunnelChoice(t.route, Cards(t.committed), tuple(t.revealed), t.extra, options, t.color)


def _station_choices(
    rules: ClassicRules, station_pays: Mapping[str, list[Cards]], plans: Sequence[TicketPlan]
) -> tuple[StationChoice, ...]:
    """One :class:`StationChoice` per city of ``station_pays`` (city id -> the legal payments),
    each city's payments fewest locomotives first: the cities the seat's ticket ``plans``
    suggest a station in first, then in the map's city order."""
    city_index = {cid: i for i, cid in enumerate(rules.board.cities)}
    serves: dict[str, list[str]] = {}
    for plan in plans:
        if plan.station is not None:
            serves.setdefault(plan.station, []).append(plan.ticket)
    out = [
        StationChoice(
            city_index[cid],
            cid,
            p[0].total,
            tuple(sorted(p, key=lambda c: (c.get("locomotive"), tuple(c.items())))),
            tuple(serves.get(cid, ())),
        )
        for cid, p in station_pays.items()
    ]
    out.sort(key=lambda c: (not c.planned, c.index))
    return tuple(out)


def build_menu(
    rules: ClassicRules,
    state: GameState,
    seat: int,
    game_id: int,
    *,
    plans: Sequence[TicketPlan] | None = None,
) -> TurnMenu | None:
    """The menu of ``seat`` now, or None when it has nothing to decide (not its move, game over).
    ``plans``: the seat's ticket plans when the caller has them (:func:`engine.planner.plan_tickets`
    of the seat's view), else they are made here when routes are claimable.

    CPU work bounded whatever the hand (see the module docstring); the service runs it in a
    worker thread.
    """
    if seat not in state.seats_to_act():
        return None
    legal = legal_actions(rules, state, seat, payments="sensible")
    step = (
        state.step
        if state.phase == "play"
        else ("announce_mix" if state.players[seat].needs_mix else "keep_tickets")
    )
    kinds = _by_kind(legal)
    routes = list(kinds.routes)
    if kinds.station_pays and plans is None:
        plans = plan_tickets(rules, player_view(rules, state, seat))
    return TurnMenu(
        game_id=game_id,
        version=state.version,
        seat=seat,
        step=step,
        draw_deck=kinds.deck,
        draw_slots=tuple(kinds.slots),
        claims=_claims(rules, state, seat, routes, plans) if routes else (),
        ticket_draws=tuple(kinds.draws),
        keep=_keep_choice(rules, state, seat),
        tunnel=_tunnel_choice(state, step, legal),
        flag_colors=tuple(
            a.color for a in legal if isinstance(a, KeepFlagCard) and a.color is not None
        ),
        stations=_station_choices(rules, kinds.station_pays, plans or ()),
    )
