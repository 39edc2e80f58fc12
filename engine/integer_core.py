"""The integer core: the rules of every map on one mutable game with integer actions.

Two engines play the same rules. The value engine (:func:`engine.apply` and
:func:`engine.legal_actions` on immutable :class:`engine.state.GameState`
values, with specific error codes) is what the bot plays on and the oracle;
this core is the fast implementation of the same rules, for search (the hard
AI's rollouts) and benchmarks. ``tests/engine/test_core.py`` holds the two
equal action by action on random games of every map (each seat's legal list,
the state as a value, the events, the final scores), and the pinned replay
corpus (``tests/engine/test_replay_corpus.py``) holds both to recorded games,
so a change that alters play shows even when both engines change together.

What every rule set shares is written here, driven by the numbers and
switches of :class:`engine.params.RuleParams` (cards and the face-up row,
ticket decks, announced mixes and returns, tunnels, ferries, "any N cards"
substitutes, double routes, the last round); what one rule set adds is its
:class:`engine.rules.corehooks.CoreHooks`, in the same module as its value
hooks. This module names no map and none of a rule set's own parameters
(``tests/engine/test_core_hooks.py`` checks). Payments come from the module
both engines share (:mod:`engine.payment_table`); a finished game is scored
by the value scoring (:func:`engine.scoring.final_scores`).

Import it from :mod:`engine.core`, which runs the mypyc build of this file
when there is a current one (the plain source otherwise; the same games).
Resignations are applied; the value engine's events are given when
:attr:`Core.events` is a list (None, the default, keeps none: the fast way).

Representation (per rule set, :class:`CoreTable`): cards are ``0..C-1`` for
the deck colours in ``params.colors`` order and ``C`` for the locomotive;
routes and tickets are indices into the sorted ids. An action is an int, in
ascending ranges:

- ``route * stride + slot``: claim a route whose payments are colour cards
  plus locomotives; ``slot = colour * (L + 1) + locomotives`` pays
  ``length - locomotives`` cards of ``colour`` and ``locomotives``
  locomotives; ``colour == C`` is the all-locomotive payment (L: the longest
  route);
- ``draw_deck``, ``draw_face + slot``, ``draw_tickets``, ``pass_turn``,
  ``keep + mask`` (bit i: keep the i-th ticket of the offer), ``mix_base + i``
  (draw the announced ticket mix ``mixes[i]``);
- ``variant_base + i``: the rule set's own actions (``hooks.action_count()``
  of them, encoded and decoded by its hooks);
- ``abandon`` (a tunnel), ``resign``;
- ``extra_base + i``: pay a tunnel's extra cards ``extras[i]``;
- ``general_base + i``: claim ``claims[i]`` = ``(route, payment)``, for the
  routes whose payments come from the shared payment module (tunnels,
  ferries, substitutes, and every route where locomotives do not pay
  everywhere).

The last two are numbered as they are first met (per process, never stored:
what is stored and shown are the value actions of :meth:`CoreTable.decode`).

Randomness is the engine's SplitMix64 (:mod:`engine.rng`) consumed in the same
order as the reducer, so a core game and a reducer game from the same seed
and actions are the same game.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from . import rng as rngmod
from .actions import (
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
)
from .errors import SetupError
from .events import (
    CardDrawn,
    DeckReshuffled,
    EngineEvent,
    FaceUpRefilled,
    FaceUpReset,
    GameOver,
    LastRound,
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
from .params import TURN_LIMIT
from .payment import tunnel_extra, tunnel_extra_options
from .payment_table import CACHE_LIMIT, PaymentKind, kind_payments, payment_table
from .rules.corehooks import CoreHooks, overrides
from .scoring import final_scores
from .state import STEPS, FinalResult, GameState, PlayerState, TunnelPending
from .types import LOCOMOTIVE, Cards

if TYPE_CHECKING:
    from .params import TicketDeal
    from .rules.classic import ClassicRules

SETUP, PLAY, FINISHED = 0, 1, 2
#: Step ints: indices into :data:`engine.state.STEPS`; a rule set's own follow
#: (``CoreHooks.steps``, from ``len(STEPS)`` on).
TURN, SECOND_CARD, KEEP_TICKETS, OVER, TUNNEL = 0, 1, 2, 3, 4
#: Cards turned up for a tunnel (as :data:`engine.reducer.TUNNEL_REVEAL`).
TUNNEL_REVEAL = 3
_PHASE_NAMES = ("setup", "play", "finished")


class CoreTable:
    """The integer tables of one rule set (built once per rule set, see :func:`core_table`).

    Raises:
        NotImplementedError: a rule set that overrides ``payment_options`` (none
            does; the core takes payments from the shared engine.payment_table).
    """

    def __init__(self, rules: ClassicRules) -> None:
        p = rules.params
        board = rules.board
        routes = [board.routes[r] for r in sorted(board.routes)]
        self.rules = rules
        self.colors: list[str] = list(p.colors)
        self.loco = len(self.colors)
        self.card_names: list[str] = [*self.colors, LOCOMOTIVE]
        self.card_index = {c: i for i, c in enumerate(self.card_names)}
        self.route_ids = [r.id for r in routes]
        self.route_index = {r: i for i, r in enumerate(self.route_ids)}
        self.length = [r.length for r in routes]
        self.color = [self.loco if r.color == "gray" else self.card_index[r.color] for r in routes]
        self.siblings = [tuple(self.route_index[s] for s in board.siblings(r.id)) for r in routes]
        payments_table = payment_table(rules)
        #: route points by length (the table both engines score with)
        self.points = payments_table.points
        self.span = max(self.length) + 1
        self.stride = (self.loco + 1) * self.span
        n = len(routes)
        self.draw_deck = n * self.stride
        self.draw_face = self.draw_deck + 1
        self.draw_tickets = self.draw_face + p.face_up
        self.pass_turn = self.draw_tickets + 1
        self.keep = self.pass_turn + 1
        #: ticket decks in the state's order (sorted names) and every mix of at most
        #: the largest draw over them, as counts per deck (for announced mixes)
        self.deck_names = sorted({t.deck for t in board.tickets.values()})
        most = max(p.initial_tickets.count, p.draw_tickets.count)
        self.mixes = [m for m in _count_vectors(len(self.deck_names), most)]
        self.mix_index = {m: i for i, m in enumerate(self.mixes)}
        self.mix_base = self.keep + (1 << most)
        self.ticket_ids = sorted(board.tickets)
        self.ticket_index = {t: i for i, t in enumerate(self.ticket_ids)}
        self.ticket_deck = [board.tickets[t].deck for t in self.ticket_ids]
        #: routes whose payments are not "colour cards plus locomotives" (tunnels,
        #: ferries, any-N substitutes, or every route where locomotives do not pay
        #: everywhere); their payments come from engine.payment, interned
        self.general = [
            bool(r.tunnel or r.locomotives or r.substitute) or p.locomotives_pay != "any"
            for r in routes
        ]
        self.route_objs = routes
        self.general_routes = [i for i in range(n) if self.general[i]]
        # the payment kinds and their per-hand caches both engines share serve the
        # general routes (one set of payment rules: engine.payment via engine.payment_table)
        if payments_table.uncached_all:  # the shared caches would not apply
            raise NotImplementedError("a rule set with its own payment_options")
        kind_of = {rid: kind for rid, _, _, kind in payments_table.routes}
        self.kinds: list[PaymentKind] = [kind_of[r.id] for r in routes]
        groups: dict[int, list[int]] = {}  # id of a payment kind -> its general routes
        for i in self.general_routes:
            groups.setdefault(id(self.kinds[i]), []).append(i)
        #: the general routes by payment kind: ``(length, kind, routes)``, shortest first
        self.general_groups = sorted(
            ((self.length[rs[0]], self.kinds[rs[0]], rs) for rs in groups.values()),
            key=lambda g: g[0],
        )
        self.group_of = [-1] * n
        for g, (_, _, members) in enumerate(self.general_groups):
            for r in members:
                self.group_of[r] = g
        #: (route, id of a cached payment tuple) -> (that tuple, its claim ints)
        self.claim_lists: dict[tuple[int, int], tuple[object, list[int]]] = {}
        buckets: dict[tuple[int, int], list[int]] = {}
        for i in range(n):
            if not self.general[i]:
                buckets.setdefault((self.length[i], self.color[i]), []).append(i)
        # the board's graph on indices (cities as Board numbers them), for planning
        city_index = board._index
        self.city_index = dict(city_index)
        self.neighbours = [
            [(self.route_index[rid], nxt) for rid, nxt in board._neighbours[c]]
            for c in range(len(city_index))
        ]
        self.dead = list(board._dead)
        #: ``(length, colour, route indices)`` sorted by length; colour ``loco`` = gray.
        self.buckets = [(ln, c, tuple(rs)) for (ln, c), rs in sorted(buckets.items())]
        self.bucket_of = [-1] * n
        for b, (_, _, rs) in enumerate(self.buckets):
            for r in rs:
                self.bucket_of[r] = b
        #: the rule set's own actions: ``hooks.action_count()`` ints from ``variant_base``
        self.hooks: CoreHooks[Core, CoreTable] = rules.core_hooks(self)
        self.variant_base = self.mix_base + len(self.mixes)
        self.hooks.base = self.variant_base
        self.hooks.first_step = len(STEPS)
        #: step ints -> the value state's step names (the rule set's own steps last)
        self.step_names: list[str] = [*STEPS, *self.hooks.steps]
        #: which optional hooks the rule set has (the others are not called)
        self.claim_hook = overrides(self.hooks, "on_route_claimed")
        self.turn_end_hook = overrides(self.hooks, "on_turn_end")
        self.turn_hook = overrides(self.hooks, "turn_actions")
        #: tunnels: give up (``abandon``) or pay interned extra cards (``extra_base + i``)
        self.abandon = self.variant_base + self.hooks.action_count()
        #: any seat, any time: give up the game (it plays on, but cannot win)
        self.resign = self.abandon + 1
        self.extra_base = self.resign + 1
        self.extras: list[Cards] = []
        self.extra_ids: dict[Cards, int] = {}
        #: claims of general routes: ``general_base + i`` for interned ``(route, payment)``
        self.general_base = self.extra_base + 1_000_000
        self.claims: list[tuple[int, Cards]] = []
        self.claim_ids: dict[tuple[int, Cards], int] = {}

    def claim_id(self, route: int, payment: Cards) -> int:
        """The int of claiming general ``route`` with ``payment`` (interned on first use)."""
        key = (route, payment)
        code = self.claim_ids.get(key)
        if code is None:
            code = self.claim_ids[key] = self.general_base + len(self.claims)
            self.claims.append(key)
        return code

    def extra_id(self, extra: Cards) -> int:
        """The int of paying a tunnel's ``extra`` cards (interned on first use)."""
        code = self.extra_ids.get(extra)
        if code is None:
            code = self.extra_ids[extra] = self.extra_base + len(self.extras)
            self.extras.append(extra)
        return code

    def encode(self, action: Action, offer: list[int]) -> int:
        """The int of a value action (``offer``: the seat's pending ticket offer).

        Raises:
            ValueError: an action the core cannot express (of another rule set).
        """
        if isinstance(action, ClaimRoute):
            route = self.route_index[action.route]
            if self.general[route]:
                return self.claim_id(route, action.payment)
            pay = dict(action.payment.items())
            locos = pay.pop(LOCOMOTIVE, 0)
            if not pay:
                return route * self.stride + self.loco * self.span + locos
            ((color, _),) = pay.items()
            return route * self.stride + self.card_index[color] * self.span + locos
        simple = {
            DrawBlind: self.draw_deck,
            Pass: self.pass_turn,
            AbandonTunnel: self.abandon,
            Resign: self.resign,
        }
        if type(action) in simple:
            return simple[type(action)]
        if isinstance(action, DrawFaceUp):
            return self.draw_face + action.slot
        if isinstance(action, DrawTickets):
            if not action.mix:
                return self.draw_tickets
            counts = dict(action.mix)
            return self.mix_base + self.mix_index[tuple(counts.get(d, 0) for d in self.deck_names)]
        if isinstance(action, PayTunnel):
            return self.extra_id(action.extra)
        if isinstance(action, KeepTickets):
            ids = [self.ticket_index[t] for t in action.tickets]
            return self.keep + sum(1 << offer.index(t) for t in ids)
        return self.hooks.encode(action)  # the rule set's own, or ValueError

    def shortest_path(self, a: int, b: int, cost: list[int]) -> list[int] | None:
        """:meth:`engine.board.Board.shortest_path` on indices: the routes (in path order)
        of the cheapest chain from city ``a`` to city ``b`` with ``cost`` per route (-1:
        not usable), or None. Same search, same ties, so the same path."""
        far = 1 << 30
        dist = [far] * len(self.neighbours)
        dist[a] = 0
        prev_route = [-1] * len(self.neighbours)
        prev_city = [-1] * len(self.neighbours)
        heap = [(0, a)]
        neighbours, dead = self.neighbours, self.dead
        while heap:
            d, city = heapq.heappop(heap)
            if city == b:
                path: list[int] = []
                while city != a:
                    path.append(prev_route[city])
                    city = prev_city[city]
                path.reverse()
                return path
            if d > dist[city] or (dead[city] and city != a):
                continue
            for route, nxt in neighbours[city]:
                c = cost[route]
                if c < 0:
                    continue
                nd = d + c
                if nd < dist[nxt]:
                    dist[nxt] = nd
                    prev_route[nxt] = route
                    prev_city[nxt] = city
                    heapq.heappush(heap, (nd, nxt))
        return None

    def mix_of(self, action: int) -> tuple[tuple[str, int], ...]:
        """The ``DrawTickets.mix`` of a mix action: ``(deck, count)`` pairs, deck order."""
        counts = self.mixes[action - self.mix_base]
        return tuple((d, k) for d, k in zip(self.deck_names, counts, strict=True) if k)

    def decode(self, seat: int, action: int, offer: list[int]) -> Action:
        """The value action of an int (``offer`` as for :meth:`encode`)."""
        if action < self.draw_deck:
            route, slot = divmod(action, self.stride)
            color, locos = divmod(slot, self.span)
            length = self.length[route]
            pay: dict[str, int] = {}
            if color != self.loco and length - locos:
                pay[self.card_names[color]] = length - locos
            if locos:
                pay[LOCOMOTIVE] = locos
            return ClaimRoute(seat, self.route_ids[route], Cards(pay))
        if action >= self.general_base:
            route, payment = self.claims[action - self.general_base]
            return ClaimRoute(seat, self.route_ids[route], payment)
        if action >= self.extra_base:
            return PayTunnel(seat, self.extras[action - self.extra_base])
        if action == self.abandon:
            return AbandonTunnel(seat)
        if action == self.resign:
            return Resign(seat)
        if action >= self.variant_base:
            return self.hooks.decode(seat, action)
        if action >= self.mix_base:
            return DrawTickets(seat, self.mix_of(action))
        if action >= self.keep:
            mask = action - self.keep
            kept = tuple(self.ticket_ids[t] for i, t in enumerate(offer) if mask >> i & 1)
            return KeepTickets(seat, kept)
        if action == self.draw_deck:
            return DrawBlind(seat)
        if action < self.draw_tickets:
            return DrawFaceUp(seat, action - self.draw_face)
        if action == self.draw_tickets:
            return DrawTickets(seat)
        return Pass(seat)


def _count_vectors(decks: int, most: int) -> list[tuple[int, ...]]:
    """Every tuple of ``decks`` non-negative counts with a sum of at most ``most``."""
    if decks == 0:
        return [()]
    return [(k, *rest) for k in range(most + 1) for rest in _count_vectors(decks - 1, most - k)]


def core_table(rules: ClassicRules) -> CoreTable:
    """The rule set's :class:`CoreTable`, built on first use and kept on the rule set."""
    key = f"core_table:{__name__}"  # the build and the source keep a table each
    table = rules.__dict__.get(key)
    if table is None:
        table = rules.__dict__[key] = CoreTable(rules)
    return table


class Core:
    """One mutable game on a :class:`CoreTable`.

    Build it with :meth:`new` (like :func:`engine.new_game`) or :meth:`from_state`;
    :meth:`legal` lists a seat's actions as ints, :meth:`step_seat` applies one of
    them (unchecked: only what :meth:`legal` listed), :meth:`to_state` gives the
    value :class:`GameState`.
    """

    def __init__(self, rules: ClassicRules, seats: int, seed: int) -> None:
        """An empty game (no cards dealt); :meth:`new` deals one."""
        t = core_table(rules)
        self.t = t
        self.map_id: str = rules.map_id
        self.seed: int = seed
        self.options: dict[str, Any] = rules.resolve_options(None)
        self.n: int = seats
        self.rng: int = rngmod.seed_state(seed)
        self.version = 0
        self.phase = SETUP
        self.active = 0
        self.step_ = TURN
        self.turn = 0
        self.cards_drawn = 0
        self.deck: list[int] = []
        self.discard: list[int] = []
        self.face: list[int] = []
        self.ticket_decks: dict[str, list[int]] = {}
        self.removed: list[int] = []
        self.owner = [-1] * len(t.route_ids)
        self.hands = [[0] * (t.loco + 1) for _ in range(seats)]
        self.pieces = [rules.params.pieces] * seats
        self.route_points = [0] * seats
        #: points scored during play (by a rule set's hooks)
        self.bonus_points = [0] * seats
        self.tickets: list[list[int]] = [[] for _ in range(seats)]
        self.offers: list[list[int]] = [[] for _ in range(seats)]
        self.needs_mix = [False] * seats
        #: the events of the actions applied, as engine.reducer.apply gives them (None:
        #: not kept, the fast way for search and benchmarks)
        self.events: list[EngineEvent] | None = None
        self.resigned = [False] * seats
        self.routes: list[list[int]] = [[] for _ in range(seats)]
        #: every claimed route in claim order (as ``GameState.owners`` keeps them)
        self.claim_order: list[int] = []
        self.last_round_by = -1
        self.turns_left = -1
        self.passes = 0
        self.result: FinalResult | None = None
        #: per seat, per bucket: ``route * stride`` of the routes that seat may claim
        self.free = [[[r * t.stride for r in rs] for _, _, rs in t.buckets] for _ in range(seats)]
        #: per seat: the general routes (see :attr:`CoreTable.general`) that seat may claim
        self.free_general = [[list(rs) for _, _, rs in t.general_groups] for _ in range(seats)]
        #: a tunnel waiting for its extra cards: (route, committed, colour, revealed, extra)
        self.tunnel: tuple[int, Cards, str | None, list[int], int] | None = None
        #: the rule set's own state (:meth:`engine.rules.corehooks.CoreHooks.new_state`)
        self.variant: Any = t.hooks.new_state(self)

    @classmethod
    def new(
        cls,
        rules: ClassicRules,
        *,
        seats: int,
        seed: int,
        options: Mapping[str, Any] | None = None,
    ) -> Core:
        """A new game, the same as :func:`engine.new_game` with these arguments.

        Raises:
            SetupError: ``player_count`` outside the map's range, ``bad_option``.
        """
        p = rules.params
        if not p.min_players <= seats <= p.max_players:
            raise SetupError(
                "player_count", {"min": p.min_players, "max": p.max_players, "given": seats}
            )
        core = cls(rules, seats, seed)
        core.options = rules.resolve_options(options)
        t = core.t
        deck = [t.card_index[c] for c, k in p.deck.items() for _ in range(k)]
        core.rng = rngmod.shuffle(core.rng, deck)
        core.deck = deck
        decks: dict[str, list[int]] = {}
        for tid in rules.ticket_ids(core.options):
            decks.setdefault(rules.board.tickets[tid].deck, []).append(t.ticket_index[tid])
        for name in sorted(decks):
            core.rng = rngmod.shuffle(core.rng, decks[name])
        core.ticket_decks = {name: decks[name] for name in sorted(decks)}
        for hand in core.hands:
            for _ in range(p.starting_hand):
                card = core._pop()
                if card >= 0:
                    hand[card] += 1
        core.face = [core._pop() for _ in range(p.face_up)]
        core._reset_face_up()
        core.rng, core.active = rngmod.below(core.rng, seats)
        for seat in range(seats):
            if p.initial_tickets.announce_mix:
                core.needs_mix[seat] = True
            else:
                core.offers[seat] = core._deal(p.initial_tickets)[0]
        retired = p.draw_tickets.mix
        if retired is not None:  # engine.reducer._retire_undrawn_decks
            drawn = {name for name, _ in retired}
            for name, deck in core.ticket_decks.items():
                if name not in drawn and deck:
                    core.removed.extend(deck)
                    deck.clear()
        return core

    # ------------------------------------------------------------- cards
    def _name(self, card: int) -> str | None:
        return None if card < 0 else self.t.card_names[card]

    def _pop(self) -> int:
        if not self.deck:
            if not self.discard:
                return -1
            self.deck, self.discard = self.discard, []
            self.rng = rngmod.shuffle(self.rng, self.deck)
            if self.events is not None:
                self.events.append(DeckReshuffled(len(self.deck)))
        return self.deck.pop()

    def _reset_face_up(self) -> None:
        """Re-deal the face-up row while it shows the map's limit of locomotives and a
        row with fewer can be dealt from the row, the deck and the discard (as
        :func:`engine.reducer._check_face_up_reset`, which says why it ends)."""
        limit = self.t.rules.params.face_up_wild_limit
        if not limit:
            return
        loco = self.t.loco
        face = self.face
        while face.count(loco) >= limit:
            row = [c for c in face if c >= 0]
            pool = len(row) + len(self.deck) + len(self.discard)
            non_wild = (
                sum(1 for c in row if c != loco)
                + sum(1 for c in self.deck if c != loco)
                + sum(1 for c in self.discard if c != loco)
            )
            slots = min(len(face), pool)
            if slots - min(non_wild, slots) >= limit:
                return  # no row with fewer can be dealt: it stays until cards come back
            self.discard.extend(row)
            for slot in range(len(face)):
                face[slot] = -1
            for slot in range(len(face)):
                face[slot] = self._pop()
            if self.events is not None:
                names = tuple(self.t.card_names[c] for c in row)
                self.events.append(FaceUpReset(names, tuple(self._name(c) for c in face)))

    def _refill_face_up(self) -> None:
        face = self.face
        for slot in range(len(face)):
            if face[slot] < 0 and (self.deck or self.discard):
                face[slot] = self._pop()
                if self.events is not None:
                    self.events.append(FaceUpRefilled(slot, self._name(face[slot])))
        self._reset_face_up()

    def _deal(self, deal: TicketDeal) -> tuple[list[int], tuple[tuple[str, int], ...]]:
        """The tickets of a deal or draw that is not announced, and its mix (as
        :func:`engine.reducer._deal_mix`: the fixed mix, else the first deck with tickets)."""
        if deal.mix is None:
            for name, deck in self.ticket_decks.items():
                if deck:
                    k = min(deal.count, len(deck))
                    return [deck.pop() for _ in range(k)], ((name, k),)
            return [], ()
        out: list[int] = []
        mix: list[tuple[str, int]] = []
        for name, n in deal.mix:
            deck = self.ticket_decks.get(name, [])
            k = min(n, len(deck))
            if k:
                out.extend([deck.pop() for _ in range(k)])
                mix.append((name, k))
        return out, tuple(mix)

    def _draw_mix(self, action: int) -> list[int]:
        out: list[int] = []
        for name, k in self.t.mix_of(action):
            deck = self.ticket_decks[name]
            out.extend([deck.pop() for _ in range(k)])
        return out

    def _mixes(self, count: int) -> list[int]:
        """The mix actions of a draw of ``count`` (fewer if fewer are left): every split
        over the decks that they can give (as :func:`engine.legal.ticket_mixes`)."""
        t = self.t
        sizes = [len(self.ticket_decks.get(d, ())) for d in t.deck_names]
        want = min(count, sum(min(k, count) for k in sizes))
        return [
            t.mix_base + i
            for i, m in enumerate(t.mixes)
            if sum(m) == want and all(k <= size for k, size in zip(m, sizes, strict=True))
        ]

    # ------------------------------------------------------------- legal
    def to_act(self) -> list[int]:
        """Seats that may act now (as :meth:`GameState.seats_to_act`)."""
        if self.phase == FINISHED:
            return []
        if self.phase == SETUP:
            return [s for s in range(self.n) if self.offers[s] or self.needs_mix[s]]
        return [self.active]

    def legal(self, seat: int) -> list[int]:
        """Every action ``seat`` may take now, as ints (empty when it is not its move)."""
        if self.phase == SETUP:
            deal = self.t.rules.params.initial_tickets
            if self.needs_mix[seat]:
                return self._mixes(deal.count)
            offer = self.offers[seat]
            return self._keeps(offer, deal.keep) if offer else []
        if self.phase == FINISHED or seat != self.active:
            return []
        step = self.step_
        if step == KEEP_TICKETS:
            return self._keeps(self.offers[seat], self.t.rules.params.draw_tickets.keep)
        t = self.t
        if step == TUNNEL:
            return self._tunnel_payments(seat)
        if step > TUNNEL:  # a decision of the rule set's own
            return t.hooks.step_actions(self, seat)
        out: list[int] = [t.draw_deck] if self.deck or self.discard else []
        face = self.face
        draw_face = t.draw_face
        if step == SECOND_CARD:
            barred = t.loco if t.rules.params.face_up_wild_restricted else -1
            out += [draw_face + s for s in range(len(face)) if face[s] >= 0 and face[s] != barred]
            return out
        out += [draw_face + s for s in range(len(face)) if face[s] >= 0]
        self._claims(seat, out)
        if t.general_groups:
            self._general_claims(seat, out)
        if t.turn_hook:
            t.hooks.turn_actions(self, seat, out)
        if any(self.ticket_decks.values()):
            deal = t.rules.params.draw_tickets
            if deal.announce_mix:
                out += self._mixes(deal.count)
            else:
                out.append(t.draw_tickets)
        if not out:
            out.append(t.pass_turn)
        return out

    def _tunnel_payments(self, seat: int) -> list[int]:
        assert self.tunnel is not None
        t = self.t
        _, _, color, _, extra = self.tunnel
        hand = {t.card_names[c]: k for c, k in enumerate(self.hands[seat]) if k}
        out = [t.extra_id(e) for e in tunnel_extra_options(color, extra, hand)]
        out.append(t.abandon)
        return out

    def _general_claims(self, seat: int, out: list[int]) -> None:
        """Claims of the general routes (see :attr:`CoreTable.general`): every exact
        payment from engine.payment, interned."""
        t = self.t
        trains = self.pieces[seat]
        hand = {t.card_names[c]: k for c, k in enumerate(self.hands[seat]) if k}
        rules = t.rules
        cache = t.claim_lists
        free = self.free_general[seat]
        for g, (length, kind, _) in enumerate(t.general_groups):
            if length > trains:
                break
            routes = free[g]
            if not routes:
                continue
            pays = kind_payments(rules, kind, hand, False)
            if not pays:
                continue
            for route in routes:
                key = (route, id(pays))
                hit = cache.get(key)
                if hit is None or hit[0] is not pays:  # the entry keeps ``pays`` alive
                    if len(cache) >= CACHE_LIMIT:
                        cache.clear()
                    hit = cache[key] = (pays, [t.claim_id(route, p) for p in pays])
                out += hit[1]

    def route_costs(self, seat: int) -> list[int]:
        """:func:`engine.ai.heuristic.seat_route_costs` on indices (-1 for None): 0 own,
        the length if ``seat`` may still claim it with its pieces, else -1."""
        t = self.t
        few = self.n < t.rules.params.double_routes_min_players
        pieces = self.pieces[seat]
        owner = self.owner
        out = [0] * len(owner)
        for r, o in enumerate(owner):
            if o >= 0:
                out[r] = 0 if o == seat else -1
            elif t.length[r] > pieces:
                out[r] = -1
            else:
                out[r] = t.length[r]
                for sib in t.siblings[r]:
                    so = owner[sib]
                    if so >= 0 and (so == seat or few):
                        out[r] = -1
                        break
        return out

    def can_claim(self, seat: int, route: int) -> bool:
        """True when ``route`` is free for ``seat`` (not taken, not barred by the
        double-route rule) and ``seat`` has the pieces; the cards are not checked."""
        t = self.t
        if t.length[route] > self.pieces[seat]:
            return False
        bucket = t.bucket_of[route]
        if bucket < 0:
            return route in self.free_general[seat][t.group_of[route]]
        return route * t.stride in self.free[seat][bucket]

    def _keeps(self, offer: list[int], keep: int) -> list[int]:
        k = len(offer)
        least = min(keep, k)
        base = self.t.keep
        return [base + m for m in range(1, 1 << k) if m.bit_count() >= least]

    def _claims(self, seat: int, out: list[int]) -> None:
        # the hot loop: slot arithmetic inlined (a helper call per bucket costs 30 %)
        t = self.t
        trains = self.pieces[seat]
        hand = self.hands[seat]
        loco = t.loco
        span = t.span
        all_locos = loco * span
        wild = hand[loco]
        free = self.free[seat]
        gray: list[list[int] | None] = [None] * span
        extend = out.extend
        for b, (length, color, _) in enumerate(t.buckets):
            if length > trains:
                break
            bases = free[b]
            if not bases:
                continue
            if color == loco:
                slots = gray[length]
                if slots is None:
                    slots = gray[length] = _gray_slots(hand, wild, length, loco, span)
                if not slots:
                    continue
                if len(slots) == 1:
                    slot = slots[0]
                    extend([base + slot for base in bases])
                else:
                    extend([base + slot for base in bases for slot in slots])
                continue
            have = hand[color]
            low = length - have if have < length else 0
            top = wild if wild < length else length
            if low == top:  # one payment: the common case
                slot = all_locos + length if low == length else color * span + low
                extend([base + slot for base in bases])
            elif low < top:
                first = color * span
                slots = list(range(first + low, first + (top if top < length else length - 1) + 1))
                if top == length:
                    slots.append(all_locos + length)
                extend([base + slot for base in bases for slot in slots])

    # ------------------------------------------------------------- apply
    def step_seat(self, seat: int, action: int) -> None:
        """Apply ``action`` of ``seat``: one that :meth:`legal` listed for it, or
        ``CoreTable.resign`` of a seat that has not resigned (not checked)."""
        t = self.t
        self.version += 1
        if action == t.resign:  # engine.reducer.apply: any seat, any time
            self.resigned[seat] = True
            if self.events is not None:
                self.events.append(Resigned(seat))
            return
        if self.phase == SETUP:
            self._step_setup(seat, action)
            return
        if action < t.draw_deck:
            self._claim(seat, action)
        elif action >= t.general_base:
            self._claim_general(seat, action)
        elif action >= t.extra_base:
            self._pay_tunnel(seat, t.extras[action - t.extra_base])
        elif action == t.abandon:
            self._abandon_tunnel(seat)
        elif action == t.draw_deck:
            self._draw_deck(seat)
        elif action < t.draw_tickets:
            self._draw_face_up(seat, action - t.draw_face)
        else:
            self._step_choice(seat, action)

    def _step_choice(self, seat: int, action: int) -> None:
        """:meth:`step_seat` for the ints from ``draw_tickets`` to ``abandon`` (tickets,
        pass, ticket mixes and keeps, the rule set's own actions)."""
        t = self.t
        if action == t.draw_tickets:
            self._drawn(seat, *self._deal(t.rules.params.draw_tickets))
            self.step_ = KEEP_TICKETS
        elif action == t.pass_turn:
            if self.events is not None:
                self.events.append(Passed(seat))
            self.end_turn(passed=True)
        elif action >= t.variant_base:
            if t.hooks.apply(self, seat, action):
                self.end_turn()
        elif action >= t.mix_base:
            self._drawn(seat, self._draw_mix(action), t.mix_of(action))
            self.step_ = KEEP_TICKETS
        else:
            self._keep(seat, action - t.keep)
            self.end_turn()

    def _step_setup(self, seat: int, action: int) -> None:
        t = self.t
        if action >= t.mix_base:
            self._drawn(seat, self._draw_mix(action), t.mix_of(action))
            self.needs_mix[seat] = False
            return
        self._keep(seat, action - t.keep)
        if not any(self.offers) and not any(self.needs_mix):
            if t.rules.params.shuffle_ticket_decks_after_setup:
                for deck in self.ticket_decks.values():
                    self.rng = rngmod.shuffle(self.rng, deck)
            self.phase = PLAY
            self.step_ = TURN
            if self.events is not None:
                self.events.append(PlayStarted(self.active))

    def _drawn(self, seat: int, offer: list[int], mix: tuple[tuple[str, int], ...] = ()) -> None:
        """``offer`` drawn for ``seat``: its pending offer (the plain draw's mix is its deck)."""
        self.offers[seat] = offer
        if self.events is not None:
            t = self.t
            if not mix and offer:
                mix = ((t.ticket_deck[offer[0]], len(offer)),)
            ids = tuple(t.ticket_ids[x] for x in offer)
            self.events.append(TicketsDrawn(seat, len(offer), mix, ids))

    def _draw_deck(self, seat: int) -> None:
        card = self._pop()
        self.hands[seat][card] += 1
        self.cards_drawn += 1
        if self.events is not None:
            self.events.append(CardDrawn(seat, "deck", None, self.t.card_names[card]))
        self._after_draw(False)

    def _draw_face_up(self, seat: int, slot: int) -> None:
        t = self.t
        card = self.face[slot]
        self.hands[seat][card] += 1
        self.cards_drawn += 1
        if self.events is not None:
            self.events.append(CardDrawn(seat, "face_up", slot, t.card_names[card]))
        self.face[slot] = self._pop()
        if self.events is not None:
            self.events.append(FaceUpRefilled(slot, self._name(self.face[slot])))
        self._reset_face_up()
        self._after_draw(card == t.loco and t.rules.params.face_up_wild_restricted)

    def _keep(self, seat: int, mask: int) -> None:
        t = self.t
        offer = self.offers[seat]
        self.tickets[seat].extend([tk for i, tk in enumerate(offer) if mask >> i & 1])
        deal = (
            t.rules.params.initial_tickets if self.phase == SETUP else t.rules.params.draw_tickets
        )
        for i, tk in enumerate(offer):
            if not mask >> i & 1:
                if deal.unkept == "remove":  # out of the game
                    self.removed.append(tk)
                else:
                    self.ticket_decks[t.ticket_deck[tk]].insert(0, tk)
        self.offers[seat] = []
        if self.events is not None:
            kept = tuple(t.ticket_ids[x] for i, x in enumerate(offer) if mask >> i & 1)
            back = tuple(t.ticket_ids[x] for i, x in enumerate(offer) if not mask >> i & 1)
            removed = deal.unkept == "remove"
            self.events.append(
                TicketsKept(
                    seat, len(kept), len(back), "removed" if removed else "bottom", kept, back
                )
            )

    def _claim(self, seat: int, action: int) -> None:
        t = self.t
        route, slot = divmod(action, t.stride)
        color, locos = divmod(slot, t.span)
        length = t.length[route]
        hand = self.hands[seat]
        loco = t.loco
        if color == loco:
            hand[loco] -= locos
            paid = [loco] * locos
        else:
            hand[color] -= length - locos
            hand[loco] -= locos
            paid = [color] * (length - locos) + [loco] * locos
        self.discard.extend(sorted(paid, key=t.card_names.__getitem__))
        cards = None
        if self.events is not None:
            decoded = t.decode(seat, action, [])
            assert isinstance(decoded, ClaimRoute)
            cards = decoded.payment
        self._finish_claim(seat, route, color if length - locos else -1, cards)

    def _finish_claim(self, seat: int, route: int, played: int, paid: Cards | None) -> None:
        """The route is ``seat``'s (the cards are paid); ``played``: the colour of the
        colour cards played (-1: none), for the rule set's hook; ``paid``: the cards
        (for the event; None when events are not kept)."""
        t = self.t
        self.owner[route] = seat
        self.routes[seat].append(route)
        self.claim_order.append(route)
        self.pieces[seat] -= t.length[route]
        points = t.points[t.length[route]]
        self.route_points[seat] += points
        self._unlist(seat, route)
        events = self.events
        if events is not None:
            assert paid is not None
            events.append(RouteClaimed(seat, t.route_ids[route], paid, points, self.pieces[seat]))
        if t.claim_hook and t.hooks.on_route_claimed(self, seat, route, played):
            return  # a decision of the rule set's own is pending
        self.end_turn()

    def _claim_general(self, seat: int, action: int) -> None:
        """Claim a route paid as engine.payment says (ferries, substitutes; a tunnel
        turns up three cards first, as :func:`engine.reducer._claim_route`)."""
        t = self.t
        route, payment = t.claims[action - t.general_base]
        hand = self.hands[seat]
        for name, k in payment.items():
            hand[t.card_index[name]] -= k
        if t.route_objs[route].tunnel:
            revealed: list[int] = []
            for _ in range(TUNNEL_REVEAL):
                card = self._pop()
                if card < 0:
                    break
                revealed.append(card)
            plan = t.rules.payment_plan(t.route_objs[route], payment)
            assert plan is not None
            names = [t.card_names[c] for c in revealed]
            extra = tunnel_extra(plan.color, names)
            if self.events is not None:
                rid = t.route_ids[route]
                self.events.append(TunnelRevealed(seat, rid, payment, tuple(names), extra))
            if extra:
                self.tunnel = (route, payment, plan.color, revealed, extra)
                self.step_ = TUNNEL
                return
            self.discard.extend(self._spread(payment))
            self.discard.extend(revealed)
        else:
            self.discard.extend(self._spread(payment))
        self._finish_claim(seat, route, -1, payment)

    def _spread(self, cards: Cards) -> list[int]:
        index = self.t.card_index
        return [index[c] for c, k in sorted(cards.items()) for _ in range(k)]

    def _pay_tunnel(self, seat: int, extra: Cards) -> None:
        assert self.tunnel is not None
        route, committed, _, revealed, _ = self.tunnel
        hand = self.hands[seat]
        for name, k in extra.items():
            hand[self.t.card_index[name]] -= k
        paid = committed if not extra else Cards(list(committed.items()) + list(extra.items()))
        self.discard.extend(self._spread(paid))
        self.discard.extend(revealed)
        self.tunnel = None
        if self.events is not None:
            self.events.append(TunnelPaid(seat, self.t.route_ids[route], extra))
        self._finish_claim(seat, route, -1, paid)

    def _abandon_tunnel(self, seat: int) -> None:
        assert self.tunnel is not None
        route, committed, _, revealed, _ = self.tunnel
        hand = self.hands[seat]
        for name, k in committed.items():
            hand[self.t.card_index[name]] += k
        self.discard.extend(revealed)
        self.tunnel = None
        if self.events is not None:
            self.events.append(TunnelAbandoned(seat, self.t.route_ids[route], committed))
        self.end_turn()

    def _unlist(self, seat: int, route: int) -> None:
        """Take ``route`` out of every seat's claimable lists, and its siblings where the
        double-route rule bars them (base rules, "Doppelstrecken")."""
        t = self.t
        locked = self.n < t.rules.params.double_routes_min_players
        self._drop(range(self.n), route)
        for sib in t.siblings[route]:
            self._drop(range(self.n) if locked else (seat,), sib)

    def _drop(self, seats: Iterable[int], route: int) -> None:
        t = self.t
        bucket = t.bucket_of[route]
        for s in seats:
            if bucket < 0:
                general = self.free_general[s][t.group_of[route]]
                if route in general:
                    general.remove(route)
            else:
                lst = self.free[s][bucket]
                base = route * t.stride
                if base in lst:
                    lst.remove(base)

    def _after_draw(self, ends_turn: bool) -> None:
        if ends_turn or self.cards_drawn >= 2 or not self._can_draw_second():
            self.end_turn()
        else:
            self.step_ = SECOND_CARD

    def _can_draw_second(self) -> bool:
        barred = self.t.loco if self.t.rules.params.face_up_wild_restricted else -1
        return bool(self.deck or self.discard) or any(c >= 0 and c != barred for c in self.face)

    def end_turn(self, *, passed: bool = False) -> None:
        """End the active seat's turn (as :func:`engine.reducer._end_turn`): the rule
        set's turn-end hook, the last round, the end of the game, the face-up row, the
        next seat."""
        seat = self.active
        t = self.t
        if t.turn_end_hook:
            t.hooks.on_turn_end(self, seat)
        self.passes = self.passes + 1 if passed else 0
        self.cards_drawn = 0
        self.turn += 1
        if self.last_round_by < 0 and self.pieces[seat] <= t.rules.params.last_round_at:
            self.last_round_by = seat
            self.turns_left = self.n
            if self.events is not None:
                self.events.append(LastRound(seat, self.pieces[seat]))
        elif self.turns_left >= 0:
            self.turns_left -= 1
            if self.turns_left <= 0:
                self._finish()
                return
        if self.passes >= self.n or self.turn >= TURN_LIMIT:
            self._finish()
            return
        self._refill_face_up()
        self.active = (seat + 1) % self.n
        self.step_ = TURN
        if self.events is not None:
            self.events.append(TurnStarted(self.active, self.turn))

    def _finish(self) -> None:
        self.phase = FINISHED
        self.step_ = OVER
        self.result = result = final_scores(self.t.rules, self.to_state())
        if self.events is not None:
            scores = tuple(s.score for s in result.seats)
            self.events.append(GameOver(tuple(result.winners), scores))

    # ------------------------------------------------------------- values
    @classmethod
    def from_state(cls, rules: ClassicRules, state: GameState) -> Core:
        """The core of a value state (for example one a player view sampled)."""
        core = cls(rules, state.num_seats, state.seed)
        t = core.t
        cards = t.card_index
        tickets = t.ticket_index
        core.options = dict(state.options)
        core.rng = state.rng
        core.version = state.version
        core.phase = _PHASE_NAMES.index(state.phase)
        core.active = state.active
        core.step_ = t.step_names.index(state.step)
        core.turn = state.turn
        core.cards_drawn = state.cards_drawn
        core.deck = [cards[c] for c in state.deck]
        core.discard = [cards[c] for c in state.discard]
        core.face = [-1 if c is None else cards[c] for c in state.face_up]
        core.ticket_decks = {k: [tickets[x] for x in v] for k, v in state.ticket_decks.items()}
        core.removed = [tickets[x] for x in state.removed_tickets]
        for p in state.players:
            s = p.seat
            for c, k in p.hand.items():
                core.hands[s][cards[c]] = k
            core.pieces[s] = p.pieces
            core.route_points[s] = p.route_points
            core.bonus_points[s] = p.bonus_points
            core.resigned[s] = p.resigned
            core.tickets[s] = [tickets[x] for x in p.tickets]
            core.offers[s] = [tickets[x] for x in p.offer]
            core.needs_mix[s] = p.needs_mix
            for rid in p.routes:
                route = t.route_index[rid]
                core.owner[route] = s
                core.routes[s].append(route)
                core._unlist(s, route)
        core.claim_order = [t.route_index[rid] for rid in state.owners]
        core.last_round_by = -1 if state.last_round_by is None else state.last_round_by
        core.turns_left = -1 if state.turns_left is None else state.turns_left
        core.passes = state.passes
        tun = state.tunnel
        if tun is not None:
            core.tunnel = (
                t.route_index[tun.route],
                Cards(tun.committed),
                tun.color,
                [cards[c] for c in tun.revealed],
                tun.extra,
            )
        core.result = state.result
        t.hooks.load(core, state)
        return core

    def _tunnel_value(self) -> TunnelPending | None:
        if self.tunnel is None:
            return None
        route, committed, color, revealed, extra = self.tunnel
        names = self.t.card_names
        return TunnelPending(
            self.t.route_ids[route], dict(committed), color, [names[c] for c in revealed], extra
        )

    def to_state(self) -> GameState:
        """This game as a value :class:`GameState` (a new object; the core is not shared)."""
        t = self.t
        names = t.card_names
        ids = t.ticket_ids
        players = []
        for s in range(self.n):
            hand = {names[c]: k for c, k in enumerate(self.hands[s]) if k}
            players.append(
                PlayerState(
                    seat=s,
                    pieces=self.pieces[s],
                    hand=hand,
                    tickets=[ids[x] for x in self.tickets[s]],
                    offer=[ids[x] for x in self.offers[s]],
                    needs_mix=self.needs_mix[s],
                    routes=[t.route_ids[r] for r in self.routes[s]],
                    route_points=self.route_points[s],
                    bonus_points=self.bonus_points[s],
                    resigned=self.resigned[s],
                )
            )
        st = GameState(
            map_id=self.map_id,
            seed=self.seed,
            options=dict(self.options),
            num_seats=self.n,
            rng=self.rng,
            version=self.version,
            phase=_PHASE_NAMES[self.phase],
            active=self.active,
            step=t.step_names[self.step_],
            turn=self.turn,
            cards_drawn=self.cards_drawn,
            deck=[names[c] for c in self.deck],
            discard=[names[c] for c in self.discard],
            face_up=[None if c < 0 else names[c] for c in self.face],
            ticket_decks={k: [ids[x] for x in v] for k, v in self.ticket_decks.items()},
            removed_tickets=[ids[x] for x in self.removed],
            owners={t.route_ids[r]: self.owner[r] for r in self.claim_order},
            players=players,
            last_round_by=None if self.last_round_by < 0 else self.last_round_by,
            turns_left=None if self.turns_left < 0 else self.turns_left,
            passes=self.passes,
            tunnel=self._tunnel_value(),
        )
        st.result = self.result
        t.hooks.save(self, st)
        return st


def _gray_slots(hand: list[int], wild: int, length: int, loco: int, span: int) -> list[int]:
    """Payment slots of a gray route of ``length`` for ``hand`` (every colour, every split)."""
    slots: list[int] = []
    top = min(wild, length - 1)
    for color in range(loco):
        have = hand[color]
        if have:
            low = max(0, length - have)
            if low <= top:
                slots.extend(range(color * span + low, color * span + top + 1))
    if wild >= length:
        slots.append(loco * span + length)
    return slots
