"""Per-reader projections of the state: hidden information is cut out here.

- :func:`public_view`: what the table shows (board, counts, face-up cards,
  scores during play, a pending tunnel's cards). No hands, tickets, deck
  order or RNG. Used by the board renderer and spectators.
- :func:`player_view`: the public view plus one seat's own hand, tickets
  (with completion), ticket offer and pending decision. Used for ephemeral
  replies and by the AI players (which therefore never see hidden data).

A rule set's own fields are its extras (:mod:`engine.extras`): the game's, as
its ``public_extra`` hook shows them, in :attr:`PublicView.extra`, a seat's in
:attr:`PublicPlayer.extra`. Both views read them as attributes too
(``public.stations``, ``player.merchandise``), with the registered default where
the game has none (:func:`engine.extras.field_value`), so a renderer asks
without knowing the rule set.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .extras import PlayerExtra, StateExtra, field_value
from .scoring import ticket_status
from .state import FinalResult, GameState

if TYPE_CHECKING:
    from .rules.classic import ClassicRules


@dataclass(frozen=True, slots=True)
class PublicPlayer:
    """Public facts of one seat (counts only for hidden things); ``resigned`` once it resigned;
    ``extra`` the rule set's own fields of the seat (module docstring)."""

    seat: int
    pieces: int
    cards: int
    tickets: int
    offered: int
    score: int
    routes: tuple[str, ...]
    resigned: bool = False
    extra: PlayerExtra | None = None

    def __getattr__(self, name: str) -> Any:
        """A rule set's field of this seat (module docstring)."""
        if name.startswith("__") or name == "extra":
            raise AttributeError(name)
        return field_value(PlayerExtra, self.extra, name)


@dataclass(frozen=True, slots=True)
class TunnelView:
    """A pending tunnel as the table sees it: committed and revealed cards are on the table."""

    route: str
    committed: dict[str, int]
    color: str | None
    revealed: tuple[str, ...]
    extra: int


@dataclass(frozen=True, slots=True)
class PublicView:
    """The table: everything any reader may see.

    Attributes (shapes): ``face_up`` tuple of colour or None per slot;
    ``owners`` route id -> seat; ``ticket_decks`` deck name -> cards left;
    ``waiting_for`` seats that may act now; ``result`` once finished; ``extra`` the
    rule set's own public fields of the game (module docstring).
    """

    map_id: str
    version: int
    phase: str
    step: str
    active: int
    turn: int
    num_seats: int
    face_up: tuple[str | None, ...]
    deck_size: int
    discard_size: int
    ticket_decks: dict[str, int]
    owners: dict[str, int]
    players: tuple[PublicPlayer, ...]
    last_round_by: int | None
    turns_left: int | None
    tunnel: TunnelView | None
    waiting_for: tuple[int, ...]
    cards_drawn: int
    result: FinalResult | None = None
    extra: StateExtra | None = None

    def __getattr__(self, name: str) -> Any:
        """A rule set's public field of the game (module docstring)."""
        if name.startswith("__") or name == "extra":
            raise AttributeError(name)
        return field_value(StateExtra, self.extra, name)

    @property
    def last_round(self) -> bool:
        """True once the last round has started."""
        return self.last_round_by is not None


@dataclass(frozen=True, slots=True)
class TicketView:
    """One of the reader's own tickets with its current completion."""

    id: str
    a: str
    b: str
    points: int
    done: bool


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What one seat may see: the table plus its own hand, tickets and decision.

    Attributes:
        seat: the reader.
        public: the :class:`PublicView`.
        hand: colour -> count.
        tickets: kept tickets with completion.
        offer: ticket ids waiting for the keep decision.
        needs_mix: must announce a ticket mix (Germany setup).
        to_act: True when this seat may act now.
    """

    seat: int
    public: PublicView
    hand: dict[str, int] = field(default_factory=dict)
    tickets: tuple[TicketView, ...] = ()
    offer: tuple[str, ...] = ()
    needs_mix: bool = False
    to_act: bool = False

    @property
    def me(self) -> PublicPlayer:
        """This seat's public facts."""
        return self.public.players[self.seat]


def public_view(rules: ClassicRules, state: GameState) -> PublicView:
    """Project ``state`` to what everyone may see (see module docstring)."""
    st = state
    players = tuple(
        PublicPlayer(
            seat=p.seat,
            pieces=p.pieces,
            cards=p.card_count,
            tickets=len(p.tickets),
            offered=len(p.offer),
            score=p.public_score,
            routes=tuple(p.routes),
            resigned=p.resigned,
            extra=p.extra,
        )
        for p in st.players
    )
    tunnel = None
    if st.tunnel is not None:
        t = st.tunnel
        tunnel = TunnelView(t.route, dict(t.committed), t.color, tuple(t.revealed), t.extra)
    return PublicView(
        map_id=st.map_id,
        version=st.version,
        phase=st.phase,
        step=st.step,
        active=st.active,
        turn=st.turn,
        num_seats=st.num_seats,
        face_up=tuple(st.face_up),
        deck_size=len(st.deck),
        discard_size=len(st.discard),
        ticket_decks={k: len(v) for k, v in st.ticket_decks.items()},
        owners=dict(st.owners),
        players=players,
        last_round_by=st.last_round_by,
        turns_left=st.turns_left,
        tunnel=tunnel,
        waiting_for=tuple(st.seats_to_act()),
        cards_drawn=st.cards_drawn,
        result=st.result,
        extra=rules.public_extra(st),
    )


def player_view(rules: ClassicRules, state: GameState, seat: int) -> PlayerView:
    """Project ``state`` to what ``seat`` may see. Raises IndexError for an unknown seat."""
    player = state.players[seat]
    done, _ = ticket_status(rules, state, seat)
    done_set = set(done)
    tickets = tuple(
        TicketView(
            t,
            rules.board.tickets[t].a,
            rules.board.tickets[t].b,
            rules.board.tickets[t].points,
            t in done_set,
        )
        for t in player.tickets
    )
    return PlayerView(
        seat=seat,
        public=public_view(rules, state),
        hand=dict(player.hand),
        tickets=tickets,
        offer=tuple(player.offer),
        needs_mix=player.needs_mix,
        to_act=seat in state.seats_to_act(),
    )
