"""The only place a game changes: :func:`new_game`, :func:`apply` (legal moves: :mod:`engine.legal`).

Rules implemented here are the shared ones of all five maps (rulebooks in
``shared/rules``; USA: usa-bga-gamehelp-de.txt), driven by
:class:`engine.params.RuleParams` and the hooks of the map's rule set:

- draw cards: two cards, from the deck or the face-up row; a face-up
  locomotive taken first is the whole draw and may not be taken second
  (unless ``face_up_wild_restricted`` is off: Nordic); a blind locomotive
  counts as one card; a taken face-up card is replaced at once; with
  ``face_up_wild_limit`` locomotives face up the row is discarded and dealt
  again (repeated while it happens, stopped when the cards left cannot give
  a better row); an empty deck is rebuilt from the shuffled discard; with
  nothing to draw, drawing is not legal;
- claim a route: exact payment (see :mod:`engine.payment`), enough pieces,
  not taken; no seat takes two tracks of one double/triple route, and with
  fewer than ``double_routes_min_players`` players only one track is usable;
- tunnels (Nordic): committed payment, three cards revealed, pay or abandon;
- draw tickets: ``draw_tickets.count`` (fewer if fewer are left), keep at
  least ``keep`` (all when fewer were drawn), the rest under their deck or
  out of the game;
- last round: a seat ending a turn with ``last_round_at`` pieces or fewer
  gives every seat, itself included, one more turn.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import rng as rngmod
from .actions import (
    ACTION_TYPES,
    AbandonTunnel,
    Action,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
    PayTunnel,
    Resign,
    UndoLast,
)
from .errors import IllegalAction, SetupError
from .events import (
    CardDrawn,
    DeckReshuffled,
    EngineEvent,
    FaceUpRefilled,
    FaceUpReset,
    GameOver,
    LastRound,
    MoveTakenBack,
    Passed,
    PlayStarted,
    Resigned,
    RouteClaimed,
    TicketsDrawn,
    TicketsKept,
    TunnelAbandoned,
    TunnelPaid,
    TunnelRevealed,
    TurnStarted,
)
from .legal import (
    can_draw_blind,
    claimable_routes,
    face_up_ok,
    legal_actions,
    route_blocker,
    route_payments,
    tickets_left,
)
from .params import TURN_LIMIT, TicketDeal
from .payment import PaymentPlan, tunnel_extra, tunnel_extra_options
from .payment_table import payment_table
from .scoring import final_scores
from .state import CLAIMED, GameState, PlayerState, TunnelPending
from .types import LOCOMOTIVE, Cards

if TYPE_CHECKING:
    from .rules.classic import ClassicRules

#: Cards turned up for a tunnel (Nordic rulebook, "Tunnel").
TUNNEL_REVEAL = 3


@dataclass(frozen=True, slots=True)
class Transition:
    """Result of :func:`apply`: the new state and what happened, in order."""

    state: GameState
    events: list[EngineEvent]


# =============================================================== setup
def new_game(
    rules: ClassicRules, *, seats: int, seed: int, options: Mapping[str, Any] | None = None
) -> GameState:
    """Create a game: shuffle, deal starting hands, the face-up row and the initial tickets.

    Args:
        seats: number of players, within the map's range.
        seed: any int; the same seed and actions always give the same game.
        options: map options (e.g. Germany ``{"tickets": "2017"}``).

    Raises:
        SetupError: ``player_count`` (with ``min``/``max``) or ``bad_option``.
    """
    p = rules.params
    if not isinstance(seats, int) or not p.min_players <= seats <= p.max_players:
        raise SetupError(
            "player_count", {"min": p.min_players, "max": p.max_players, "given": seats}
        )
    opts = rules.resolve_options(options)
    st = GameState(
        map_id=rules.map_id, seed=seed, options=opts, num_seats=seats, rng=rngmod.seed_state(seed)
    )
    deck = [c for c, n in p.deck.items() for _ in range(n)]
    st.rng = rngmod.shuffle(st.rng, deck)
    st.deck = deck
    decks: dict[str, list[str]] = {}
    for tid in rules.ticket_ids(opts):
        decks.setdefault(rules.board.tickets[tid].deck, []).append(tid)
    for name in sorted(decks):
        st.rng = rngmod.shuffle(st.rng, decks[name])
    st.ticket_decks = {name: decks[name] for name in sorted(decks)}
    st.players = [PlayerState(seat=i, pieces=p.pieces) for i in range(seats)]
    scratch: list[EngineEvent] = []
    for player in st.players:
        for _ in range(p.starting_hand):
            card = _pop_card(st, scratch)
            if card is not None:
                player.hand[card] = player.hand.get(card, 0) + 1
    st.face_up = [None] * p.face_up
    for slot in range(p.face_up):
        st.face_up[slot] = _pop_card(st, scratch)
    _check_face_up_reset(rules, st, scratch)
    rules.on_setup(st)
    st.rng, st.active = rngmod.below(st.rng, seats)
    deal = p.initial_tickets
    for player in st.players:
        if deal.announce_mix:
            player.needs_mix = True
        else:
            player.offer = _draw_tickets(st, _deal_mix(st, deal))
    _retire_undrawn_decks(rules, st)
    return st


# =============================================================== helpers
def _pop_card(st: GameState, events: list[EngineEvent]) -> str | None:
    """Top card of the deck, rebuilding the deck from the discard when empty; None when none left."""
    if not st.deck:
        if not st.discard:
            return None
        st.deck = st.discard
        st.discard = []
        st.rng = rngmod.shuffle(st.rng, st.deck)
        events.append(DeckReshuffled(len(st.deck)))
    return st.deck.pop()


def _face_up_locos(st: GameState) -> int:
    return st.face_up.count(LOCOMOTIVE)


def _check_face_up_reset(rules: ClassicRules, st: GameState, events: list[EngineEvent]) -> None:
    """Discard and re-deal the face-up row while it shows too many locomotives.

    USA rules ("Wagenkarten"): three face-up locomotives (the map's
    ``face_up_wild_limit``) are discarded with the rest of the row, and five new
    cards are dealt, again as often as it happens. With the last cards this goes
    on while a row with fewer locomotives can be dealt from the cards available
    (:func:`better_row_possible`: the row, the deck and the discard) and stops
    only when none can.

    It ends: the deals are random (whenever the deck runs out, the discard, old
    rows included, is shuffled into a new deck), and while a better row can be
    dealt the deals have a chance to give one, so a run of failed deals ends
    with probability one. It is long only when nearly every card left is a
    locomotive: with 14 locomotives and the 3 other cards a row needs, about one
    deal in 68 succeeds.
    """
    limit = rules.params.face_up_wild_limit
    if not limit:
        return
    while _face_up_locos(st) >= limit and better_row_possible(
        limit, st.face_up, st.deck, st.discard
    ):
        row = [c for c in st.face_up if c is not None]
        st.discard.extend(row)
        st.face_up = [None] * len(st.face_up)
        for slot in range(len(st.face_up)):
            st.face_up[slot] = _pop_card(st, events)
        events.append(FaceUpReset(tuple(row), tuple(st.face_up)))


def better_row_possible(
    limit: int, face_up: Sequence[str | None], deck: Sequence[str], discard: Sequence[str]
) -> bool:
    """True when a face-up row with fewer than ``limit`` locomotives can be dealt from the
    cards available: the row's, the deck's and the discard's. A row is as long as the
    face-up row, or all the cards when fewer are left."""
    row = [c for c in face_up if c is not None]
    pool = len(row) + len(deck) + len(discard)
    non_wild = (
        sum(1 for c in row if c != LOCOMOTIVE)
        + sum(1 for c in deck if c != LOCOMOTIVE)
        + sum(1 for c in discard if c != LOCOMOTIVE)
    )
    slots = min(len(face_up), pool)
    return slots - min(non_wild, slots) < limit


def _refill_face_up(rules: ClassicRules, st: GameState, events: list[EngineEvent]) -> None:
    """Deal a card into every empty face-up slot while cards are left, then apply the reset.

    USA rules ("Wagenkarten"): the display always shows five cards when the deck
    and the discard can give them; spent cards that reached the discard after
    both ran out come back this way. Called at every turn end;
    the three-locomotive reset is checked every time ("at any time", USA rules).
    """
    for slot, card in enumerate(st.face_up):
        if card is None and (st.deck or st.discard):
            st.face_up[slot] = _pop_card(st, events)
            events.append(FaceUpRefilled(slot, st.face_up[slot]))
    # a row stuck with too many locomotives is reset as soon as the discard can do better
    _check_face_up_reset(rules, st, events)


def _can_draw_second(rules: ClassicRules, st: GameState) -> bool:
    return can_draw_blind(st) or any(face_up_ok(rules, st, i) for i in range(len(st.face_up)))


def _single_deck_mix(st: GameState, count: int) -> tuple[tuple[str, int], ...]:
    """The draw from a map's one ticket deck (or the first non-empty deck)."""
    for name, deck in st.ticket_decks.items():
        if deck:
            return ((name, min(count, len(deck))),)
    return ()


def _deal_mix(st: GameState, deal: TicketDeal) -> tuple[tuple[str, int], ...]:
    """The mix of a deal or draw that is not announced: its fixed mix (as far as the
    decks have the tickets), else the first ticket deck with tickets."""
    if deal.mix is None:
        return _single_deck_mix(st, deal.count)
    out = ((name, min(n, len(st.ticket_decks.get(name, ())))) for name, n in deal.mix)
    return tuple((name, n) for name, n in out if n)


def _retire_undrawn_decks(rules: ClassicRules, st: GameState) -> None:
    """After the setup deal, the tickets of decks the draws never use leave the game
    unseen (Europe rules digest, "Setup": undealt long tickets go back in the box)."""
    mix = rules.params.draw_tickets.mix
    if mix is None:
        return
    drawn = {name for name, _ in mix}
    for name, deck in st.ticket_decks.items():
        if name not in drawn and deck:
            st.removed_tickets.extend(deck)
            deck.clear()


def _draw_tickets(st: GameState, mix: Sequence[tuple[str, int]]) -> list[str]:
    out: list[str] = []
    for name, n in mix:
        for _ in range(n):
            out.append(st.ticket_decks[name].pop())
    return out


def _check_mix(
    rules: ClassicRules, st: GameState, mix: Sequence[tuple[str, int]], count: int
) -> tuple[tuple[str, int], ...]:
    """Validate an announced short/long mix (Germany): the right total, decks that have the tickets."""
    want = min(count, tickets_left(st))
    seen: dict[str, int] = {}
    for entry in mix:
        if not (isinstance(entry, tuple | list) and len(entry) == 2):
            raise IllegalAction(
                "bad_mix", {"mix": [list(e) if isinstance(e, tuple | list) else e for e in mix]}
            )
        name, n = entry
        if name not in st.ticket_decks or not isinstance(n, int) or n < 0:
            raise IllegalAction("bad_mix", {"deck": name, "decks": sorted(st.ticket_decks)})
        seen[name] = seen.get(name, 0) + n
    for name, n in seen.items():
        if n > len(st.ticket_decks[name]):
            raise IllegalAction(
                "mix_unavailable", {"deck": name, "asked": n, "left": len(st.ticket_decks[name])}
            )
    if sum(seen.values()) != want:
        raise IllegalAction("bad_mix_total", {"total": sum(seen.values()), "expected": want})
    return tuple((name, seen[name]) for name in st.ticket_decks if seen.get(name))


def _return_tickets(rules: ClassicRules, st: GameState, ids: Sequence[str], unkept: str) -> None:
    for tid in ids:
        if unkept == "remove":
            st.removed_tickets.append(tid)
        else:
            st.ticket_decks[rules.board.tickets[tid].deck].insert(0, tid)


def _min_keep(offered: int, keep: int) -> int:
    return min(keep, offered)


def _take(hand: dict[str, int], cards: Mapping[str, int]) -> None:
    for c, n in cards.items():
        left = hand.get(c, 0) - n
        if left:
            hand[c] = left
        else:
            hand.pop(c, None)


def _give(hand: dict[str, int], cards: Mapping[str, int]) -> None:
    for c, n in cards.items():
        if n:
            hand[c] = hand.get(c, 0) + n


def _spread(cards: Mapping[str, int]) -> list[str]:
    return [c for c, n in sorted(cards.items()) for _ in range(n)]


# =============================================================== apply
def apply(rules: ClassicRules, state: GameState, action: Action) -> Transition:
    """Apply ``action`` to ``state``; return the new state and its events.

    ``state`` itself is never modified. Raises :class:`IllegalAction` with a
    stable code when the rules forbid the action (``game_over``,
    ``not_your_turn``, ``wrong_step``, ``route_taken``, ``cannot_pay``, ...).
    """
    if not isinstance(action, Action):
        raise IllegalAction("malformed_action", {"type": type(action).__name__})
    if state.phase == "finished":
        raise IllegalAction("game_over")
    seat = action.seat
    if not isinstance(seat, int) or not 0 <= seat < state.num_seats:
        raise IllegalAction("not_in_game", {"seat": seat})
    if isinstance(action, UndoLast):
        return _undo(state, seat)
    st = state.clone()  # shares nothing that can change: history stays as it was
    st.undo = None  # any action ends the chance to take the one before it back
    events: list[EngineEvent] = []
    if isinstance(action, Resign):
        if st.players[seat].resigned:
            raise IllegalAction("already_resigned", {"seat": seat})
        st.players[seat].resigned = True
        events.append(Resigned(seat))
    elif st.phase == "setup":
        _apply_setup(rules, st, action, events)
    else:
        if seat != st.active:
            raise IllegalAction("not_your_turn", {"active": st.active})
        _apply_play(rules, st, action, events)
        if _reveals_nothing(state, st, action):
            st.undo = dataclasses.replace(state, undo=None)  # states never change in place
    st.version += 1
    return Transition(st, events)


#: The moves that may be taken back (:class:`UndoLast`) when they showed nothing hidden: a
#: claim, and a train station (Europe's ``BuildStation``, named by its kind so the shared
#: reducer names no rule set).
UNDOABLE_KINDS = frozenset({"claim_route", "build_station"})


def _reveals_nothing(before: GameState, after: GameState, action: Action) -> bool:
    """``action`` (applied to ``before``, giving ``after``) may be taken back: a claim or a train
    station that ended the turn of a game still running, drew nothing from the RNG, and left
    the card deck and every ticket deck as they were. So a tunnel (three cards turned up), a
    claim that emptied the deck into a reshuffle, one that ended the game (the tickets are
    shown) and every draw (a face-up draw shows its replacement at once) never qualify: what
    was seen cannot be unseen."""
    return (
        action.kind in UNDOABLE_KINDS
        and after.phase == "play"
        and after.tunnel is None
        and after.active != action.seat
        and after.rng == before.rng
        and after.deck == before.deck
        and after.ticket_decks == before.ticket_decks
    )


def can_undo(state: GameState, seat: int) -> bool:
    """True when ``seat`` may apply :class:`UndoLast` now: the state keeps the position before
    ``seat``'s last move (see :attr:`GameState.undo`), and no action came after it."""
    prior = state.undo
    return prior is not None and not state.finished and prior.active == seat


def _undo(state: GameState, seat: int) -> Transition:
    """:class:`UndoLast`: the position before ``seat``'s last move, one version on.

    Raises:
        IllegalAction: ``cannot_undo`` when that move cannot be taken back (it showed
            something hidden, it was not a claim or a train station, or an action followed it).
    """
    if not can_undo(state, seat):
        raise IllegalAction("cannot_undo", {"seat": seat})
    assert state.undo is not None
    st = state.undo.clone()
    st.undo = None
    st.version = state.version + 1
    return Transition(st, [MoveTakenBack(seat)])


def _apply_setup(
    rules: ClassicRules, st: GameState, action: Action, events: list[EngineEvent]
) -> None:
    player = st.players[action.seat]
    deal = rules.params.initial_tickets
    if isinstance(action, DrawTickets):
        if not player.needs_mix:
            raise IllegalAction(
                "wrong_step", {"step": "keep_tickets" if player.offer else "waiting"}
            )
        mix = _check_mix(rules, st, action.mix, deal.count)
        player.offer = _draw_tickets(st, mix)
        player.needs_mix = False
        events.append(TicketsDrawn(action.seat, len(player.offer), mix, tuple(player.offer)))
        return
    if isinstance(action, KeepTickets):
        if player.needs_mix:
            raise IllegalAction("wrong_step", {"step": "announce_mix"})
        if not player.offer:
            raise IllegalAction("nothing_to_keep")
        _keep(rules, st, player, action.tickets, deal.keep, deal.unkept, events)
        if not any(p.offer or p.needs_mix for p in st.players):
            if rules.params.shuffle_ticket_decks_after_setup:
                for name in st.ticket_decks:
                    st.rng = rngmod.shuffle(st.rng, st.ticket_decks[name])
            st.phase = "play"
            st.step = "turn"
            events.append(PlayStarted(st.active))
        return
    if player.offer or player.needs_mix:
        raise IllegalAction("setup_tickets_first", {"action": action.kind})
    raise IllegalAction("waiting_for_players", {"waiting": st.seats_to_act()})


def _keep(
    rules: ClassicRules,
    st: GameState,
    player: PlayerState,
    tickets: Sequence[str],
    keep: int,
    unkept: str,
    events: list[EngineEvent],
) -> None:
    chosen = list(tickets)
    if len(set(chosen)) != len(chosen) or any(t not in player.offer for t in chosen):
        raise IllegalAction(
            "ticket_not_offered", {"tickets": chosen, "offered": list(player.offer)}
        )
    need = _min_keep(len(player.offer), keep)
    if len(chosen) < need:
        raise IllegalAction("must_keep_at_least", {"min": need, "kept": len(chosen)})
    returned = [t for t in player.offer if t not in chosen]
    kept = [t for t in player.offer if t in chosen]
    player.tickets.extend(kept)
    player.offer = []
    _return_tickets(rules, st, returned, unkept)
    events.append(
        TicketsKept(
            player.seat,
            len(kept),
            len(returned),
            "removed" if unkept == "remove" else "bottom",
            tuple(kept),
            tuple(returned),
        )
    )


def _apply_play(
    rules: ClassicRules, st: GameState, action: Action, events: list[EngineEvent]
) -> None:
    """Apply one play-phase action of the active seat (dispatch on the action class;
    the rule set's own action classes go to its :meth:`ClassicRules.apply_action`)."""
    handler = _PLAY_HANDLERS.get(type(action))
    if handler is not None:
        handler(rules, st, action, events)
        return
    for cls in type(action).__mro__:
        handler = _PLAY_HANDLERS.get(cls)
        if handler is not None:
            handler(rules, st, action, events)
            return
        if cls in rules.action_types or cls in ACTION_TYPES.values():
            if rules.apply_action(st, action, events):  # another rule set's: wrong_step
                _end_turn(rules, st, events)
            return
    raise IllegalAction("malformed_action", {"type": type(action).__name__})


def _need_step(st: GameState, *steps: str) -> None:
    if st.step not in steps:
        raise IllegalAction("wrong_step", {"step": st.step})


def _play_draw_blind(
    rules: ClassicRules, st: GameState, action: Action, events: list[EngineEvent]
) -> None:
    _need_step(st, "turn", "second_card")
    if not can_draw_blind(st):
        raise IllegalAction("deck_empty")
    card = _pop_card(st, events)
    assert card is not None
    hand = st.players[action.seat].hand
    hand[card] = hand.get(card, 0) + 1
    st.cards_drawn += 1
    events.append(CardDrawn(action.seat, "deck", None, card))
    _after_draw(rules, st, events, ends_turn=False)


def _play_draw_face_up(
    rules: ClassicRules, st: GameState, action: Action, events: list[EngineEvent]
) -> None:
    assert isinstance(action, DrawFaceUp)
    _need_step(st, "turn", "second_card")
    slot = action.slot
    if not isinstance(slot, int) or not 0 <= slot < len(st.face_up) or st.face_up[slot] is None:
        raise IllegalAction("bad_slot", {"slot": slot})
    card = st.face_up[slot]
    assert card is not None
    wild_limited = card == LOCOMOTIVE and rules.params.face_up_wild_restricted
    if wild_limited and st.cards_drawn == 1:
        raise IllegalAction("locomotive_second", {"slot": slot})
    hand = st.players[action.seat].hand
    hand[card] = hand.get(card, 0) + 1
    st.cards_drawn += 1
    events.append(CardDrawn(action.seat, "face_up", slot, card))
    st.face_up[slot] = _pop_card(st, events)
    events.append(FaceUpRefilled(slot, st.face_up[slot]))
    _check_face_up_reset(rules, st, events)
    _after_draw(rules, st, events, ends_turn=wild_limited)


def _play_claim(
    rules: ClassicRules, st: GameState, action: Action, events: list[EngineEvent]
) -> None:
    assert isinstance(action, ClaimRoute)
    _need_step(st, "turn")
    _claim_route(rules, st, action.seat, action, events)


def _play_pay_tunnel(
    rules: ClassicRules, st: GameState, action: Action, events: list[EngineEvent]
) -> None:
    assert isinstance(action, PayTunnel)
    if st.step != "tunnel" or st.tunnel is None:
        raise IllegalAction("wrong_step", {"step": st.step})
    seat = action.seat
    player = st.players[seat]
    tun = st.tunnel
    extra = action.extra
    if not isinstance(extra, Cards) or extra not in tunnel_extra_options(
        tun.color, tun.extra, player.hand
    ):
        raise IllegalAction("cannot_pay_tunnel", {"extra": tun.extra, "color": tun.color})
    _take(player.hand, extra)
    paid = (
        Cards({**tun.committed})
        if not extra
        else Cards(list(tun.committed.items()) + list(extra.items()))
    )
    st.discard.extend(_spread(paid))
    st.discard.extend(tun.revealed)
    st.tunnel = None
    route = rules.board.routes[tun.route]
    events.append(TunnelPaid(seat, route.id, extra))
    plan = rules.payment_plan(route, tun.committed)
    assert plan is not None
    _finish_claim(rules, st, seat, route.id, paid, plan, events)


def _play_abandon_tunnel(
    rules: ClassicRules, st: GameState, action: Action, events: list[EngineEvent]
) -> None:
    if st.step != "tunnel" or st.tunnel is None:
        raise IllegalAction("wrong_step", {"step": st.step})
    tun = st.tunnel
    _give(st.players[action.seat].hand, tun.committed)
    st.discard.extend(tun.revealed)
    st.tunnel = None
    events.append(TunnelAbandoned(action.seat, tun.route, Cards(tun.committed)))
    _end_turn(rules, st, events)


def _play_draw_tickets(
    rules: ClassicRules, st: GameState, action: Action, events: list[EngineEvent]
) -> None:
    assert isinstance(action, DrawTickets)
    _need_step(st, "turn")
    if tickets_left(st) == 0:
        raise IllegalAction("no_tickets_left")
    deal = rules.params.draw_tickets
    mix = (
        _check_mix(rules, st, action.mix, deal.count) if deal.announce_mix else _deal_mix(st, deal)
    )
    if not deal.announce_mix and action.mix:
        raise IllegalAction("bad_mix", {"mix": [list(m) for m in action.mix]})
    player = st.players[action.seat]
    player.offer = _draw_tickets(st, mix)
    st.step = "keep_tickets"
    events.append(TicketsDrawn(action.seat, len(player.offer), mix, tuple(player.offer)))


def _play_keep_tickets(
    rules: ClassicRules, st: GameState, action: Action, events: list[EngineEvent]
) -> None:
    assert isinstance(action, KeepTickets)
    _need_step(st, "keep_tickets")
    deal = rules.params.draw_tickets
    _keep(rules, st, st.players[action.seat], action.tickets, deal.keep, deal.unkept, events)
    _end_turn(rules, st, events)


def _play_pass(
    rules: ClassicRules, st: GameState, action: Action, events: list[EngineEvent]
) -> None:
    if st.step != "turn" or _has_any_move(rules, st, action.seat):
        raise IllegalAction("cannot_pass")
    events.append(Passed(action.seat))
    _end_turn(rules, st, events, passed=True)


_PlayHandler = Callable[["ClassicRules", GameState, Action, list[EngineEvent]], None]

#: Play-phase handlers per action class (USA rules, "Spielablauf": one action per turn).
_PLAY_HANDLERS: dict[type, _PlayHandler] = {
    DrawBlind: _play_draw_blind,
    DrawFaceUp: _play_draw_face_up,
    ClaimRoute: _play_claim,
    PayTunnel: _play_pay_tunnel,
    AbandonTunnel: _play_abandon_tunnel,
    DrawTickets: _play_draw_tickets,
    KeepTickets: _play_keep_tickets,
    Pass: _play_pass,
}


def _after_draw(
    rules: ClassicRules, st: GameState, events: list[EngineEvent], *, ends_turn: bool
) -> None:
    if ends_turn or st.cards_drawn >= 2 or not _can_draw_second(rules, st):
        _end_turn(rules, st, events)
    else:
        st.step = "second_card"


def _claim_route(
    rules: ClassicRules, st: GameState, seat: int, action: ClaimRoute, events: list[EngineEvent]
) -> None:
    blocker = route_blocker(rules, st, seat, action.route)
    if blocker:
        raise blocker
    route = rules.board.routes[action.route]
    player = st.players[seat]
    payment = action.payment
    if not isinstance(payment, Cards):
        raise IllegalAction("malformed_action", {"field": "payment"})
    if not payment.fits_in(player.hand):
        raise IllegalAction("cards_not_in_hand", {"payment": payment.to_dict()})
    plan = rules.payment_plan(route, payment)
    if plan is None:
        raise IllegalAction("cannot_pay", {"route": route.id, "payment": payment.to_dict()})
    _take(player.hand, payment)
    if route.tunnel:
        revealed: list[str] = []
        for _ in range(TUNNEL_REVEAL):
            card = _pop_card(st, events)
            if card is None:
                break
            revealed.append(card)
        extra = tunnel_extra(plan.color, revealed)
        events.append(TunnelRevealed(seat, route.id, payment, tuple(revealed), extra))
        if extra:
            st.tunnel = TunnelPending(route.id, payment.to_dict(), plan.color, revealed, extra)
            st.step = "tunnel"
            return
        st.discard.extend(_spread(payment))
        st.discard.extend(revealed)
    else:
        st.discard.extend(_spread(payment))
    _finish_claim(rules, st, seat, route.id, payment, plan, events)


def _finish_claim(
    rules: ClassicRules,
    st: GameState,
    seat: int,
    route_id: str,
    paid: Cards,
    plan: PaymentPlan,
    events: list[EngineEvent],
) -> None:
    route = rules.board.routes[route_id]
    player = st.players[seat]
    st.owners[route_id] = seat
    player.routes.append(route_id)
    player.pieces -= route.length
    points = payment_table(rules).points[route.length]
    player.route_points += points
    events.append(RouteClaimed(seat, route_id, paid, points, player.pieces))
    st.step = CLAIMED  # transient: the rule set's hook may open a decision of its own
    rules.on_route_claimed(st, seat, route, paid, plan, events)
    if st.step == CLAIMED:
        _end_turn(rules, st, events)


def _end_turn(
    rules: ClassicRules, st: GameState, events: list[EngineEvent], *, passed: bool = False
) -> None:
    seat = st.active
    rules.on_turn_end(st, seat, events)
    st.passes = st.passes + 1 if passed else 0
    player = st.players[seat]
    st.cards_drawn = 0
    st.turn += 1
    if st.last_round_by is None and player.pieces <= rules.params.last_round_at:
        st.last_round_by = seat
        st.turns_left = st.num_seats
        events.append(LastRound(seat, player.pieces))
    elif st.turns_left is not None:
        st.turns_left -= 1
        if st.turns_left <= 0:
            _finish(rules, st, events)
            return
    if st.passes >= st.num_seats or st.turn >= TURN_LIMIT:
        _finish(rules, st, events)
        return
    _refill_face_up(rules, st, events)
    st.active = (seat + 1) % st.num_seats
    st.step = "turn"
    events.append(TurnStarted(st.active, st.turn))


def _finish(rules: ClassicRules, st: GameState, events: list[EngineEvent]) -> None:
    st.result = final_scores(rules, st)
    st.phase = "finished"
    st.step = "over"
    events.append(GameOver(tuple(st.result.winners), tuple(s.score for s in st.result.seats)))


# =============================================================== legal actions
def can_resign(state: GameState, seat: int) -> bool:
    """True when ``seat`` may apply :class:`Resign` now: a running game, a seat not resigned."""
    return not state.finished and 0 <= seat < state.num_seats and not state.players[seat].resigned


def _has_any_move(rules: ClassicRules, st: GameState, seat: int) -> bool:
    if can_draw_blind(st) or any(face_up_ok(rules, st, i) for i in range(len(st.face_up))):
        return True
    if tickets_left(st) or rules.turn_actions(st, seat):
        return True
    return bool(route_payments(rules, st, seat, payments="sensible"))


def replay(
    rules: ClassicRules,
    *,
    seats: int,
    seed: int,
    options: Mapping[str, Any] | None,
    actions: Sequence[Action],
) -> GameState:
    """Rebuild a game from its creation parameters and action log.

    Raises :class:`IllegalAction` if an action in the log is not legal (a corrupt log).
    """
    st = new_game(rules, seats=seats, seed=seed, options=options)
    for action in actions:
        st = apply(rules, st, action).state
    return st


__all__ = [
    "Transition",
    "can_resign",
    "can_undo",
    "UNDOABLE_KINDS",
    "apply",
    "claimable_routes",
    "legal_actions",
    "new_game",
    "replay",
    "SetupError",
]
