"""Supported test API: build mid-game states directly, and score them.

For tests, puzzles and benchmarks that need a position without playing up to
it. A built state is an ordinary :class:`engine.state.GameState` in the play
phase: :func:`engine.apply` and :func:`engine.legal_actions` work on it. It is
*not* reachable by replay from its seed (there is no action log behind it), so
a game that must be replayed is stored as a snapshot, not as seed + actions.

Card order: the deck and the ticket decks keep their **top at the end of the
list** (``deck[-1]`` is drawn first), as everywhere in the engine.

What the caller leaves out is dealt, shuffled by the state's ``seed``:

- **Train cards** (``hands``, ``face_up``, ``deck``, ``discard``): seats not given hold
  no cards; the face-up row is dealt from the cards placed nowhere else (no locomotive
  reset is applied); the deck holds every card placed nowhere else and the discard is
  empty, or, when ``deck`` is given, the discard holds those cards. With
  ``conserve_cards`` the hands, row, deck and discard hold exactly the map's cards; without
  it, at most the map's cards.
- **Routes** (``owned``): each scores its length's points from the map's table and costs
  its length in pieces unless ``pieces`` says how many are left; on Amsterdam each cart
  route drew a merchandise card (in seat order while cards are left).
- **Tickets** (``tickets``, ``ticket_decks``): the decks hold the tickets nobody holds.

The last round is not started whatever the pieces (set ``last_round_by`` and
``turns_left`` for that); no Paris flag cards are set aside.

Example::

    rules = maps.load_ruleset("usa")
    st = build_state(
        rules,
        seats=2,
        hands={0: {"red": 3, "locomotive": 1}},
        owned={1: ["atlanta__nashville__1"]},
        tickets={0: ["boston__miami"]},
        active=0,
    )
    sheets = score_sheets(rules, st)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from . import rng as rngmod
from .errors import EngineError
from .extras import stored
from .rules.amsterdam import AmsterdamPlayer, AmsterdamState, merchandise, merchandise_left
from .rules.europe import EuropeState, stations_of
from .scoring import ScoreSheet, score_sheets
from .state import GameState, PlayerState

if TYPE_CHECKING:
    from .rules.classic import ClassicRules


class StateBuildError(EngineError, ValueError):
    """:func:`build_state` was asked for an impossible state.

    Attributes:
        problems: every problem found, one sentence each (also in the message).
    """

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        super().__init__("cannot build state: " + "; ".join(self.problems))


def build_state(
    rules: ClassicRules,
    *,
    seats: int = 2,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    hands: Mapping[int, Mapping[str, int]] | None = None,
    face_up: Sequence[str | None] | None = None,
    deck: Sequence[str] | None = None,
    discard: Sequence[str] | None = None,
    owned: Mapping[int, Sequence[str]] | None = None,
    tickets: Mapping[int, Sequence[str]] | None = None,
    ticket_decks: Mapping[str, Sequence[str]] | None = None,
    pieces: Mapping[int, int] | None = None,
    stations: Mapping[str, int] | None = None,
    active: int = 0,
    turn: int = 0,
    conserve_cards: bool = True,
) -> GameState:
    """A play-phase state at the start of ``active``'s turn (step ``"turn"``).

    Args:
        seats: player count, within the map's range.
        seed: seeds the state's RNG (later draws and reshuffles) and the shuffle of whatever
            this function deals itself (the module docstring says what that is).
        options: map options as for :func:`engine.new_game`.
        hands: seat -> colour -> count.
        face_up: the face-up row, one colour per slot (``None`` for an empty slot).
        deck: card colours, **top last**.
        discard: card colours.
        owned: seat -> route ids the seat has claimed, in claim order.
        tickets: seat -> kept ticket ids.
        ticket_decks: deck name -> ticket ids, top last.
        pieces: seat -> pieces left.
        stations: Europe: city id -> the seat whose train station stands there.
        active: the seat to move.
        turn: completed turns so far (``state.turn``).
        conserve_cards: the cards must add up to the map's (else at most the map's).

    Raises:
        StateBuildError: with every problem found (unknown colour, route or
            ticket; more cards of a colour than the map has; card totals not
            conserved; a route owned twice or against the double-route rule;
            negative pieces; bad seat numbers; bad or too many stations).
        engine.SetupError: bad player count or options.
    """
    from .reducer import new_game

    base = new_game(rules, seats=seats, seed=seed, options=options)
    problems: list[str] = []
    _check_seats(seats, active, [hands, owned, tickets, pieces], problems)
    st = GameState(
        map_id=rules.map_id,
        seed=seed,
        options=dict(base.options),
        num_seats=seats,
        rng=rngmod.seed_state(seed),
        phase="play",
        active=active,
        step="turn",
        turn=turn,
        players=[PlayerState(seat=i, pieces=rules.params.pieces) for i in range(seats)],
        extra=base.extra,  # the rule set's fields of a new game (Amsterdam's cards laid out)
    )
    _place_routes(rules, st, owned or {}, pieces or {}, problems)
    _place_stations(rules, st, stations or {}, problems)
    _place_tickets(rules, st, tickets or {}, ticket_decks, problems)
    _place_cards(rules, st, hands or {}, face_up, deck, discard, conserve_cards, problems)
    if problems:
        raise StateBuildError(problems)
    return st


def _check_seats(
    seats: int, active: int, maps: Sequence[Mapping[int, Any] | None], problems: list[str]
) -> None:
    if not 0 <= active < seats:
        problems.append(f"active seat {active} is not in 0..{seats - 1}")
    for mapping in maps:
        for seat in mapping or {}:
            if not (isinstance(seat, int) and 0 <= seat < seats):
                problems.append(f"seat {seat!r} is not in 0..{seats - 1}")


def _place_routes(
    rules: ClassicRules,
    st: GameState,
    owned: Mapping[int, Sequence[str]],
    pieces: Mapping[int, int],
    problems: list[str],
) -> None:
    board, p = rules.board, rules.params
    for seat, ids in owned.items():
        if not 0 <= seat < st.num_seats:
            continue
        player = st.players[seat]
        for rid in ids:
            if rid not in board.routes:
                problems.append(f"unknown route {rid!r}")
                continue
            if rid in st.owners:
                problems.append(f"route {rid!r} is owned twice")
                continue
            for sib in board.siblings(rid):
                other = st.owners.get(sib)
                if other == seat:
                    problems.append(f"seat {seat} owns both {sib!r} and {rid!r} (double route)")
                elif other is not None and st.num_seats < p.double_routes_min_players:
                    problems.append(
                        f"{rid!r} and {sib!r} are both taken with {st.num_seats} players "
                        f"(only one track is usable below {p.double_routes_min_players})"
                    )
            route = board.routes[rid]
            st.owners[rid] = seat
            player.routes.append(rid)
            player.pieces -= route.length
            player.route_points += p.route_points.get(route.length, 0)
            left = merchandise_left(st)
            if route.carts and left > 0:
                # Amsterdam: a cart route drew a merchandise card while any were left
                st.extra = stored(AmsterdamState(left - 1))
                player.extra = AmsterdamPlayer(merchandise(st, seat) + 1)
    for seat, left in pieces.items():
        if 0 <= seat < st.num_seats:
            st.players[seat].pieces = left
    for player in st.players:
        if player.pieces < 0:
            problems.append(f"seat {player.seat} has {player.pieces} pieces left")


def _place_stations(
    rules: ClassicRules, st: GameState, stations: Mapping[str, int], problems: list[str]
) -> None:
    count = rules.params.stations.count if rules.params.stations else 0
    for city, seat in stations.items():
        if city not in rules.board.cities:
            problems.append(f"unknown city {city!r} for a station")
        elif not (isinstance(seat, int) and 0 <= seat < st.num_seats):
            problems.append(f"station seat {seat!r} is not in 0..{st.num_seats - 1}")
        else:
            st.extra = stored(EuropeState(stations_of(st)).with_station(city, seat))
    for seat in range(st.num_seats):
        built = sum(1 for s in stations_of(st).values() if s == seat)
        if built > count:
            problems.append(f"seat {seat} has {built} stations; the map gives {count}")


def _place_tickets(
    rules: ClassicRules,
    st: GameState,
    tickets: Mapping[int, Sequence[str]],
    ticket_decks: Mapping[str, Sequence[str]] | None,
    problems: list[str],
) -> None:
    board = rules.board
    held: set[str] = set()
    for seat, ids in tickets.items():
        if not 0 <= seat < st.num_seats:
            continue
        for tid in ids:
            if tid not in board.tickets:
                problems.append(f"unknown ticket {tid!r}")
            elif tid in held:
                problems.append(f"ticket {tid!r} is held twice")
            else:
                held.add(tid)
                st.players[seat].tickets.append(tid)
    if ticket_decks is not None:
        for name, ids in ticket_decks.items():
            for tid in ids:
                if tid not in board.tickets:
                    problems.append(f"unknown ticket {tid!r}")
                elif tid in held:
                    problems.append(f"ticket {tid!r} is both held and in deck {name!r}")
        st.ticket_decks = {name: list(ids) for name, ids in ticket_decks.items()}
        return
    decks: dict[str, list[str]] = {}
    for tid in rules.ticket_ids(st.options):
        decks.setdefault(board.tickets[tid].deck, [])
        if tid not in held:
            decks[board.tickets[tid].deck].append(tid)
    for name in sorted(decks):
        st.rng = rngmod.shuffle(st.rng, decks[name])
    st.ticket_decks = {name: decks[name] for name in sorted(decks)}


def _place_cards(
    rules: ClassicRules,
    st: GameState,
    hands: Mapping[int, Mapping[str, int]],
    face_up: Sequence[str | None] | None,
    deck: Sequence[str] | None,
    discard: Sequence[str] | None,
    conserve: bool,
    problems: list[str],
) -> None:
    p = rules.params
    left = _cards_left(rules, st, hands, (face_up, deck, discard), problems)
    rest = [c for c, n in left.items() for _ in range(max(n, 0))]
    st.rng = rngmod.shuffle(st.rng, rest)
    if face_up is None:
        # deal the row from the cards not placed by the caller
        row: list[str | None] = [rest.pop() if rest else None for _ in range(p.face_up)]
        for c in row:
            if c is not None:
                left[c] -= 1
    else:
        row = list(face_up)
        if len(row) != p.face_up:
            problems.append(f"the face-up row has {len(row)} slots, the map {p.face_up}")
    st.face_up = row
    if deck is None:
        st.deck = rest
        st.discard = list(discard or ())
    else:
        st.deck = list(deck)
        st.discard = list(discard) if discard is not None else rest
    placed_rest = deck is None or discard is None
    for color, n in left.items():
        if n < 0:
            problems.append(f"{-n} more {color!r} cards than the map's {p.deck[color]}")
        elif n > 0 and conserve and not placed_rest:
            problems.append(
                f"{n} {color!r} cards are missing (hands, row, deck and discard must hold "
                f"all {p.deck[color]}; pass conserve_cards=False to allow fewer)"
            )


def _cards_left(
    rules: ClassicRules,
    st: GameState,
    hands: Mapping[int, Mapping[str, int]],
    piles: Sequence[Sequence[str | None] | None],
    problems: list[str],
) -> dict[str, int]:
    """Fill the hands; return colour -> cards of the map not in hands or ``piles``."""
    left = dict(rules.params.deck)

    def use(color: str | None, n: int, where: str) -> None:
        if color is None:
            return
        if color not in left:
            problems.append(f"unknown card colour {color!r} in {where}")
        elif not isinstance(n, int) or n < 0:
            problems.append(f"bad count {n!r} of {color!r} in {where}")
        else:
            left[color] -= n

    for seat, hand in hands.items():
        if not 0 <= seat < st.num_seats:
            continue
        for color, n in hand.items():
            use(color, n, f"seat {seat}'s hand")
            if n:
                st.players[seat].hand[color] = n
    for where, cards in zip(("the face-up row", "the deck", "the discard"), piles, strict=True):
        for c in cards or ():
            use(c, 1, where)
    return left


__all__ = ["ScoreSheet", "StateBuildError", "build_state", "score_sheets"]
