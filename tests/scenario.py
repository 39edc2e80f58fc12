"""Scenario builders for rule tests: a game in play with a given hand, board and deck.

Shared by the engine and map tests. States are built with the real
``new_game`` and setup actions, then edited on a clone, so every test starts
from a state the engine could reach in shape.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine import KeepTickets, apply, new_game
from engine.state import GameState
from engine.types import LOCOMOTIVE


def all_cards(state: GameState) -> dict[str, int]:
    """Every card of the game by colour: deck, discard, face-up, hands, tunnel and flag cards."""
    out: dict[str, int] = {}

    def add(c: str, n: int = 1) -> None:
        out[c] = out.get(c, 0) + n

    for c in state.deck + state.discard:
        add(c)
    for c in state.face_up:
        if c is not None:
            add(c)
    for p in state.players:
        for c, n in p.hand.items():
            add(c, n)
        for c in p.extra.cards_out() if p.extra is not None else ():
            add(c)
    if state.tunnel is not None:
        for c, n in state.tunnel.committed.items():
            add(c, n)
        for c in state.tunnel.revealed:
            add(c)
    return out


def in_play(rules, seats: int = 2, seed: int = 1, options=None) -> GameState:
    """A game past setup: every seat kept all of its offered tickets (or its first mix)."""
    st = new_game(rules, seats=seats, seed=seed, options=options)
    while st.phase == "setup":
        seat = st.seats_to_act()[0]
        from engine import legal_actions

        st = apply(
            rules,
            st,
            legal_actions(rules, st, seat)[-1]
            if not st.players[seat].needs_mix
            else legal_actions(rules, st, seat)[0],
        ).state
    return st


def scenario(
    rules,
    seats: int = 2,
    *,
    seed: int = 1,
    active: int = 0,
    hands: Mapping[int, Mapping[str, int]] | None = None,
    face_up: list[str | None] | None = None,
    deck: list[str] | None = None,
    discard: list[str] | None = None,
    owners: Mapping[str, int] | None = None,
    pieces: Mapping[int, int] | None = None,
    tickets: Mapping[int, list[str]] | None = None,
    options=None,
) -> GameState:
    """A game in play, seat ``active`` to move, with the given hands, row, deck (top last) and owners.

    Cards are NOT conserved by this builder (tests of conservation use real play).
    Unspecified parts keep what the dealt game had; ``owners`` also updates each
    owner's route list and points.
    """
    st = in_play(rules, seats, seed, options).clone()
    st.active = active
    st.step = "turn"
    if hands is not None:
        for seat, hand in hands.items():
            st.players[seat].hand = {c: n for c, n in hand.items() if n}
    if face_up is not None:
        st.face_up = list(face_up)
    if deck is not None:
        st.deck = list(deck)
    if discard is not None:
        st.discard = list(discard)
    if owners:
        for rid, seat in owners.items():
            st.owners[rid] = seat
            st.players[seat].routes.append(rid)
            length = rules.board.routes[rid].length
            st.players[seat].route_points += rules.params.route_points[length]
            st.players[seat].pieces -= length
    if pieces:
        for seat, n in pieces.items():
            st.players[seat].pieces = n
    if tickets is not None:
        for seat, ids in tickets.items():
            st.players[seat].tickets = list(ids)
    return st


def keep_first(rules, st: GameState) -> GameState:
    """Finish setup by keeping every offered ticket."""
    while st.phase == "setup":
        seat = st.seats_to_act()[0]
        st = apply(rules, st, KeepTickets(seat, tuple(st.players[seat].offer))).state
    return st


__all__ = ["LOCOMOTIVE", "all_cards", "in_play", "keep_first", "scenario"]
