"""The menu of one seat: every choice it has right now, answered by the engine, as one typed object.

The cogs render a :class:`TurnMenu` and turn a click back into an engine action
with its methods (:meth:`TurnMenu.draw`, :meth:`TurnMenu.claim`, ...), which
refuse an index out of range with a :class:`ServiceError` that lists the
choices that exist. Indexes are stable for a given game version: a route's
index is its position in the map's route list; a payment's index is its place
in :attr:`RouteChoice.payments`. So a button can carry ``(version, index)``
and still mean the same thing after a restart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine import (
    LOCOMOTIVE,
    AbandonTunnel,
    Action,
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
    legal_actions,
)

from ._errors import ServiceError


@dataclass(frozen=True, slots=True)
class RouteChoice:
    """A route the seat can claim now.

    Attributes:
        index: the route's position in the map's route list (stable across versions).
        route: the route id.
        payments: the distinct ways to pay, one per (main colour, number of
            locomotives), fewest locomotives and cards first.
    """

    index: int
    route: str
    payments: tuple[Cards, ...]


@dataclass(frozen=True, slots=True)
class KeepChoice:
    """Destination tickets on offer: keep between ``least`` and ``most`` of ``offer`` (ticket ids)."""

    offer: tuple[str, ...]
    least: int
    most: int
    setup: bool


@dataclass(frozen=True, slots=True)
class TunnelChoice:
    """A tunnel waiting for its extra cards (Nordic rulebook, "Tunnel").

    Attributes:
        route: the tunnel; committed: the cards played for its length;
        revealed: the three cards turned up; extra: cards owed;
        payments: the ways to pay them from the hand (empty: only giving up is possible).
    """

    route: str
    committed: Cards
    revealed: tuple[str, ...]
    extra: int
    payments: tuple[Cards, ...]


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
        """The claimable route with this index; ServiceError ``bad_route`` when it is not claimable now."""
        for choice in self.claims:
            if choice.index == index:
                return choice
        raise ServiceError("bad_route", {"routes": len(self.claims)})

    def claim(self, index: int, payment: int) -> Action:
        """Claim route ``index`` paying its ``payment``-th option.

        Raises ServiceError ``bad_route`` or ``bad_payment`` (with the number of options).
        """
        choice = self.route(index)
        if not 0 <= payment < len(choice.payments):
            raise ServiceError(
                "bad_payment", {"choices": len(choice.payments), "given": payment + 1}
            )
        return ClaimRoute(self.seat, choice.route, choice.payments[payment])

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


def _main_color(cards: Cards) -> str | None:
    colours = [(n, c) for c, n in cards.items() if c != LOCOMOTIVE]
    return max(colours)[1] if colours else None


def group_payments(payments: Sequence[Cards]) -> tuple[Cards, ...]:
    """One payment per (main colour, locomotives), keeping the first of each in the given order."""
    seen: set[tuple[str | None, int]] = set()
    out: list[Cards] = []
    for pay in sorted(payments, key=lambda p: (p.get(LOCOMOTIVE), p.total, tuple(p.items()))):
        key = (_main_color(pay), pay.get(LOCOMOTIVE))
        if key not in seen:
            seen.add(key)
            out.append(pay)
    return tuple(out)


def build_menu(rules: ClassicRules, state: GameState, seat: int, game_id: int) -> TurnMenu | None:
    """The menu of ``seat`` now, or None when it has nothing to decide (not its move, game over)."""
    if seat not in state.seats_to_act():
        return None
    legal = legal_actions(rules, state, seat)
    player = state.players[seat]
    step = (
        state.step
        if state.phase == "play"
        else ("announce_mix" if player.needs_mix else "keep_tickets")
    )
    route_index = {rid: i for i, rid in enumerate(rules.board.routes)}
    pays: dict[str, list[Cards]] = {}
    slots: list[int] = []
    deck = False
    draws: list[tuple[tuple[str, int], ...]] = []
    for action in legal:
        if isinstance(action, ClaimRoute):
            pays.setdefault(action.route, []).append(action.payment)
        elif isinstance(action, DrawFaceUp):
            slots.append(action.slot)
        elif isinstance(action, DrawBlind):
            deck = True
        elif isinstance(action, DrawTickets):
            draws.append(action.mix)
    claims = tuple(
        RouteChoice(route_index[rid], rid, group_payments(p))
        for rid, p in sorted(pays.items(), key=lambda kv: route_index[kv[0]])
    )
    keep = None
    if player.offer:
        deal = rules.params.initial_tickets if state.phase == "setup" else rules.params.draw_tickets
        keep = KeepChoice(
            tuple(player.offer),
            min(deal.keep, len(player.offer)),
            len(player.offer),
            state.phase == "setup",
        )
    tunnel = None
    if state.tunnel is not None and step == "tunnel":
        t = state.tunnel
        options = tuple(a.extra for a in legal if isinstance(a, PayTunnel))
        tunnel = TunnelChoice(t.route, Cards(t.committed), tuple(t.revealed), t.extra, options)
    flags = tuple(a.color for a in legal if isinstance(a, KeepFlagCard) and a.color is not None)
    return TurnMenu(
        game_id=game_id,
        version=state.version,
        seat=seat,
        step=step,
        draw_deck=deck,
        draw_slots=tuple(slots),
        claims=claims,
        ticket_draws=tuple(draws),
        keep=keep,
        tunnel=tunnel,
        flag_colors=flags,
    )
