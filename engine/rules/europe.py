"""Europe: train stations (``shared/rules/europe-rules-en.md``, "Train stations"), for both engines.

Every player has ``rules.stations.count`` (3) train stations. Building one is a
whole turn: on a city that has no station yet (one per city in all), paying
as many cards as the player's next station costs (``costs``: 1, 2, 3) of one
colour, locomotives wild. At the end each built station lets its owner use
exactly one route of another player into or out of its city for the owner's
tickets; the choice that scores best for the owner is taken (the rules leave
it to the owner) and recorded in :attr:`EuropeScore.stations`. A
station never counts for the longest path (the European Express is computed
from the seat's own routes). Every station not built scores ``points_unbuilt``
(4). The rest of Europe (one long and three regular tickets at setup, keep
two; tunnels; ferries; double routes; tie-breaks) is shared data
(:class:`engine.params.RuleParams`).

:class:`EuropeRules` holds the value hooks, :class:`EuropeCoreHooks` the same
rules for the integer core; the end-game choice is written once, on the value
side (:func:`station_choice`), and the core scores with it.

Declared here, for both engines, the codec and the views: state
:class:`EuropeState` (``GameState.extra``: city id -> seat, in build order;
public, read as ``PublicView.stations``), final facts :class:`EuropeScore`
(``SeatScore.extra``: what each station did, read as ``SeatScore.stations``),
action :class:`BuildStation`, event :class:`StationBuilt`, the tie-breaks
``fewest_stations`` and ``longest_path_bonus`` (:meth:`EuropeRules.tiebreak_value`)
and the breakdown key ``"stations"`` (points of the stations not built).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Self

from ..actions import Action, action_type, json_cards, json_str
from ..board import Board
from ..errors import IllegalAction
from ..events import EngineEvent, SeatEvent, event_type
from ..extras import ScoreExtra, StateExtra, stored
from ..params import StationParams
from ..state import GameState, SeatScore
from ..types import LOCOMOTIVE, Cards
from .classic import ClassicRules
from .corehooks import CoreHooks

if TYPE_CHECKING:
    from ..integer_core import Core, CoreTable


@action_type
@dataclass(frozen=True, slots=True)
class BuildStation(Action):
    """Build a train station in ``city`` paying ``payment``: as many cards as the seat's
    next station costs (1, 2, 3), of one colour with locomotives wild (Europe rules
    digest, "Train stations"). A whole turn."""

    city: str = ""
    payment: Cards = Cards()
    kind: ClassVar[str] = "build_station"

    def json_fields(self) -> dict[str, Any]:
        return {"city": self.city, "payment": self.payment.to_dict()}

    @classmethod
    def from_json(cls, seat: int, data: Mapping[str, Any]) -> Self:
        return cls(seat, json_str(data, "city"), json_cards(data["payment"]))


@event_type
@dataclass(frozen=True, slots=True)
class StationBuilt(SeatEvent):
    """``seat`` built a train station in ``city`` paying exactly ``payment`` (Europe rules
    digest, "Train stations"); ``stations_left``: the seat's stations not built yet."""

    city: str
    payment: Cards
    stations_left: int
    kind: ClassVar[str] = "station_built"


@dataclass(frozen=True, slots=True, eq=False)
class EuropeState(StateExtra):
    """The train stations on the board (Europe rules digest, "Train stations": one per
    city): city id -> the seat whose station stands there, in build order. Public.

    Immutable (a read-only mapping; building one stores a new value: :meth:`with_station`).
    Two are equal when they hold the same stations, whatever their order (as dicts): the
    storage writes JSON objects with sorted keys, so a stored snapshot keeps no order."""

    stations: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    kind: ClassVar[str] = "europe"

    def __post_init__(self) -> None:
        if not isinstance(self.stations, MappingProxyType):
            object.__setattr__(self, "stations", MappingProxyType(dict(self.stations)))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, EuropeState):
            return NotImplemented
        return dict(self.stations) == dict(other.stations)

    def __hash__(self) -> int:
        return hash(frozenset(self.stations.items()))

    def with_station(self, city: str, seat: int) -> EuropeState:
        """These stations and ``seat``'s new one in ``city``."""
        return EuropeState({**self.stations, city: seat})


@dataclass(frozen=True, slots=True)
class StationUse:
    """What one train station did at the end (Europe rules digest, "Train stations").

    Attributes:
        city: the station's city id.
        route: the route of another player it let its owner use (None: none was
            of use, or there was none to use).
        tickets: the owner's tickets completed only thanks to that route.
    """

    city: str
    route: str | None
    tickets: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"city": self.city, "route": self.route, "tickets": list(self.tickets)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> StationUse:
        """Inverse of :meth:`to_dict`."""
        return cls(d["city"], d["route"], tuple(d["tickets"]))


@dataclass(frozen=True, slots=True)
class EuropeScore(ScoreExtra):
    """A seat's built train stations at the end, in build order, and what each did
    (:func:`station_choice`); JSON ``"stations"`` beside the score's shared fields,
    only where there are any."""

    stations: tuple[StationUse, ...] = ()
    kind: ClassVar[str] = "europe"

    def to_json(self) -> dict[str, Any]:
        return {"stations": [u.to_dict() for u in self.stations]} if self.stations else {}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        return cls(tuple(StationUse.from_dict(u) for u in data.get("stations", ())))


def stations_of(state: GameState) -> Mapping[str, int]:
    """The train stations of ``state``: city id -> seat, in build order (empty: none)."""
    extra = state.extra
    return extra.stations if isinstance(extra, EuropeState) else EuropeState().stations


def station_payments(colors: Sequence[str], cost: int, hand: Mapping[str, int]) -> list[Cards]:
    """Every exact payment of a station costing ``cost`` cards from ``hand``.

    One colour of ``colors`` with locomotives standing in for any of them, or
    locomotives only (rules digest, "Train stations": BGA ``canPayForStation``).
    """
    locos = hand.get(LOCOMOTIVE, 0)
    out: list[Cards] = []
    for color in colors:
        have = hand.get(color, 0)
        for wild in range(min(cost - 1, locos) + 1):
            if have >= cost - wild:
                out.append(Cards({color: cost - wild, LOCOMOTIVE: wild}))
    if locos >= cost:
        out.append(Cards({LOCOMOTIVE: cost}))
    return out


def is_station_payment(colors: Sequence[str], cost: int, payment: Mapping[str, int]) -> bool:
    """True when ``payment`` is ``cost`` cards of one colour of ``colors`` and locomotives."""
    if sum(payment.values()) != cost:
        return False
    plain = [c for c, n in payment.items() if n and c != LOCOMOTIVE]
    return len(plain) <= 1 and all(c in colors for c in plain)


def seat_stations(state: GameState, seat: int) -> list[str]:
    """The cities of ``seat``'s built stations, in build order."""
    return [city for city, owner in stations_of(state).items() if owner == seat]


def station_choice(
    rules: ClassicRules, state: GameState, seat: int
) -> tuple[list[str], list[str], list[StationUse]]:
    """The best use of ``seat``'s stations at the end: ``(completed, failed, uses)``.

    Each built station may use one route of another player that touches its
    city (rules digest, "Train stations"); every combination is tried and the
    one with the most ticket points is taken, then the most completed tickets,
    then the first (a station that helps nothing uses no route; of parallel
    tracks the first in route-id order is named). ``completed`` and ``failed``
    are ticket ids in the seat's ticket order; ``uses`` one
    :class:`StationUse` per built station, in build order, with the
    tickets completed only thanks to it.
    """
    board = rules.board
    player = state.players[seat]
    own = list(player.routes)
    cities = seat_stations(state, seat)
    parts = _components(board, own)
    options: list[list[str | None]] = []
    for city in cities:
        opts: list[str | None] = [None]
        seen: set[str] = set()
        for rid in sorted(board.routes):
            route = board.routes[rid]
            owner = state.owners.get(rid)
            if owner is None or owner == seat or city not in (route.a, route.b):
                continue
            other = route.b if route.a == city else route.a
            key = parts.get(other, other)
            if key in seen or (city in parts and parts.get(city) == key):
                continue  # parallel to a route already listed, or joins nothing new
            seen.add(key)
            opts.append(rid)
        options.append(opts)
    best: tuple[int, int] | None = None
    best_pick: tuple[str | None, ...] = tuple(None for _ in cities)
    best_done: list[str] = []
    for pick in itertools.product(*options):
        done = _completed(rules, player.tickets, own + [r for r in pick if r is not None])
        points = sum(
            board.tickets[t].points if t in done else -board.tickets[t].points
            for t in player.tickets
        )
        score = (points, len(done))
        if best is None or score > best:
            best, best_pick, best_done = score, pick, sorted(done)
    done_set = set(best_done)
    completed = [t for t in player.tickets if t in done_set]
    failed = [t for t in player.tickets if t not in done_set]
    uses: list[StationUse] = []
    for i, city in enumerate(cities):
        used = best_pick[i]
        served: tuple[str, ...] = ()
        if used is not None:
            others = own + [r for j, r in enumerate(best_pick) if r is not None and j != i]
            without = _completed(rules, completed, others)
            served = tuple(t for t in completed if t not in without)
        uses.append(StationUse(city, used, served))
    return completed, failed, uses


def _components(board: Board, route_ids: Sequence[str]) -> dict[str, str]:
    """City -> a representative city of its component over ``route_ids`` (only the
    cities those routes touch)."""
    parent: dict[str, str] = {}

    def find(c: str) -> str:
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    for rid in route_ids:
        route = board.routes[rid]
        a = find(parent.setdefault(route.a, route.a))
        b = find(parent.setdefault(route.b, route.b))
        parent[a] = b
    return {c: find(c) for c in parent}


def _completed(rules: ClassicRules, tickets: Sequence[str], route_ids: Sequence[str]) -> set[str]:
    """The tickets of ``tickets`` whose cities ``route_ids`` join (countries are dead ends)."""
    board = rules.board
    reach = board.reachable_from((board.tickets[tid].a for tid in tickets), route_ids)
    return {tid for tid in tickets if board.tickets[tid].b in reach[board.tickets[tid].a]}


#: Station action lists :meth:`EuropeRules.turn_actions` remembers before starting afresh
#: (bounds memory: a list is up to a few hundred actions, some 30 KB).
STATION_MEMO_LIMIT = 256


class EuropeRules(ClassicRules):
    """Classic rules plus train stations: building them and their end-game use and points."""

    name = "europe"
    params_used: ClassVar[tuple[str, ...]] = ("stations",)
    action_types: ClassVar[tuple[type[Action], ...]] = (BuildStation,)
    tiebreaks: ClassVar[tuple[str, ...]] = ("fewest_stations", "longest_path_bonus")
    ticket_mix: ClassVar[bool] = True

    def __init__(self, map_data: Mapping[str, Any]) -> None:
        super().__init__(map_data)
        #: turn_actions' station lists per (seat, payments, stations built); derived only
        self._station_memo: dict[tuple[object, ...], tuple[BuildStation, ...]] = {}

    @property
    def stations(self) -> StationParams:
        """The map's station parameters (count, costs, points for each one not built)."""
        st = self.params.stations
        assert st is not None, "a Europe map has rules.stations (maps.checks)"
        return st

    def next_station_cost(self, state: GameState, seat: int) -> int | None:
        """Cards ``seat``'s next station costs, or None when all are built."""
        built = sum(1 for owner in stations_of(state).values() if owner == seat)
        costs = self.stations.costs
        return costs[built] if built < min(self.stations.count, len(costs)) else None

    def station_cities(self, state: GameState) -> list[str]:
        """Cities with no station yet, in the board's order."""
        stations = stations_of(state)
        return [c for c in self.board.cities if c not in stations]

    def turn_actions(self, state: GameState, seat: int) -> list[Action]:
        """Every station ``seat`` may build now: each free city with each exact payment.

        Remembered per seat, payments and stations built (the AI's rollouts list them
        often; at most :data:`STATION_MEMO_LIMIT` lists, then started afresh).
        """
        cost = self.next_station_cost(state, seat)
        if cost is None:
            return []
        pays = station_payments(self.params.colors, cost, state.players[seat].hand)
        if not pays:
            return []
        key = (seat, tuple(pays), tuple(stations_of(state)))
        memo = self._station_memo
        found = memo.get(key)
        if found is None:
            if len(memo) >= STATION_MEMO_LIMIT:
                memo.clear()
            cities = self.station_cities(state)
            found = memo[key] = tuple(BuildStation(seat, c, p) for c in cities for p in pays)
        return list(found)

    def apply_action(self, state: GameState, action: Action, events: list[EngineEvent]) -> bool:
        """:class:`BuildStation`: pay, place the station; the turn is over.

        Raises:
            IllegalAction: ``wrong_step`` (not at the start of a turn),
                ``unknown_city``, ``station_taken`` (a station stands there),
                ``no_stations_left``, ``cards_not_in_hand``, ``cannot_pay_station``
                (not the next station's cost in one colour and locomotives).
        """
        if state.step != "turn" or not isinstance(action, BuildStation):
            raise IllegalAction("wrong_step", {"step": state.step})
        seat, city, payment = action.seat, action.city, action.payment
        if city not in self.board.cities:
            raise IllegalAction("unknown_city", {"city": city})
        stations = stations_of(state)
        if city in stations:
            raise IllegalAction("station_taken", {"city": city, "seat": stations[city]})
        cost = self.next_station_cost(state, seat)
        if cost is None:
            raise IllegalAction("no_stations_left", {"count": self.stations.count})
        if not isinstance(payment, Cards):
            raise IllegalAction("malformed_action", {"field": "payment"})
        player = state.players[seat]
        if not payment.fits_in(player.hand):
            raise IllegalAction("cards_not_in_hand", {"payment": payment.to_dict()})
        if not is_station_payment(self.params.colors, cost, payment):
            raise IllegalAction("cannot_pay_station", {"cost": cost, "payment": payment.to_dict()})
        for c, n in payment.items():
            left = player.hand.get(c, 0) - n
            if left:
                player.hand[c] = left
            else:
                player.hand.pop(c, None)
        state.discard.extend(c for c, n in payment.items() for _ in range(n))
        state.extra = EuropeState(stations).with_station(city, seat)
        left = self.stations.count - len(seat_stations(state, seat))
        events.append(StationBuilt(seat, city, payment, left))
        return True

    def final_bonuses(self, state: GameState, scores: list[SeatScore]) -> None:
        """Tickets with each seat's stations' best routes, and the stations not built.

        ``breakdown["tickets"]`` and the ticket lists are scored again with the
        routes the stations use (:func:`station_choice`), :class:`EuropeScore` (the
        score's ``extra``) records the choice, ``breakdown["stations"]`` is ``points_unbuilt`` per
        station not built; then the European Express (classic longest path, own
        routes only).
        """
        board = self.board
        builders = set(stations_of(state).values())
        for s in scores:
            if s.seat not in builders:  # no station: the tickets as scored, all unbuilt
                s.extra = None
                s.breakdown["stations"] = self.stations.count * self.stations.points_unbuilt
                continue
            done, failed, uses = station_choice(self, state, s.seat)
            s.completed, s.failed = done, failed
            s.extra = stored(EuropeScore(tuple(uses)))
            s.tickets_completed, s.tickets_failed = len(done), len(failed)
            won = sum(board.tickets[t].points for t in done)
            s.breakdown["tickets"] = won - sum(board.tickets[t].points for t in failed)
            s.breakdown["stations"] = (self.stations.count - len(uses)) * (
                self.stations.points_unbuilt
            )
        super().final_bonuses(state, scores)

    def tiebreak_value(self, key: str, score: SeatScore) -> int:
        """Europe's own tie-breaks besides the shared ones: ``fewest_stations`` (fewest
        train stations built: the negated count), ``longest_path_bonus`` (1 for a holder
        of the European Express). Europe's order (tickets, fewest stations, European
        Express) is the rulebook's as remembered in the rules digest, "Tie-break".

        Raises:
            ValueError: an unknown key.
        """
        if key == "fewest_stations":
            extra = score.extra
            return -len(extra.stations) if isinstance(extra, EuropeScore) else 0
        if key == "longest_path_bonus":
            return 1 if score.breakdown.get("longest_path", 0) > 0 else 0
        return super().tiebreak_value(key, score)

    def breakdown_keys(self) -> list[str]:
        return [*super().breakdown_keys(), "stations"]


@dataclass(slots=True)
class EuropeCoreState:
    """The stations on the core: per city index the owning seat (-1: none) and the
    cities in build order."""

    owner: list[int]
    order: list[int]


class EuropeCoreHooks(CoreHooks["Core", "CoreTable"]):
    """:class:`EuropeRules` on the integer core. Action ints, from ``base``:
    ``((city * M + cost - 1) * S) + colour * (M + 1) + wild`` builds a station
    costing ``cost`` (M: the largest cost) in ``city`` paying ``cost - wild`` cards
    of ``colour`` and ``wild`` locomotives (colour ``loco``: locomotives only,
    ``wild == cost``); S = (colours + 1) * (M + 1)."""

    def __init__(self, table: CoreTable) -> None:
        super().__init__(table)
        st = table.rules.params.stations
        self.count = min(st.count, len(st.costs)) if st else 0
        self.costs = list(st.costs) if st else []
        self.most = max(self.costs, default=0)
        self.top = self.most + 1
        self.slots = (table.loco + 1) * self.top
        self.city_names = sorted(table.city_index, key=table.city_index.__getitem__)
        self.cities = len(self.city_names)

    def action_count(self) -> int:
        return self.cities * self.most * self.slots

    def encode(self, action: Action) -> int:
        if not isinstance(action, BuildStation):
            return super().encode(action)
        t = self.table
        cost = action.payment.total
        wild = action.payment.get(LOCOMOTIVE, 0)
        plain = [c for c in action.payment if c != LOCOMOTIVE]
        color = t.card_index[plain[0]] if plain else t.loco
        city = t.city_index[action.city]
        return self.base + (city * self.most + cost - 1) * self.slots + color * self.top + wild

    def _unpack(self, action: int) -> tuple[int, Cards]:
        """The city index and the payment of a station action."""
        t = self.table
        rest, slot = divmod(action - self.base, self.slots)
        city, cost = divmod(rest, self.most)
        color, wild = divmod(slot, self.top)
        if color == t.loco:
            return city, Cards({LOCOMOTIVE: wild})
        return city, Cards({t.card_names[color]: cost + 1 - wild, LOCOMOTIVE: wild})

    def decode(self, seat: int, action: int) -> Action:
        city, paid = self._unpack(action)
        return BuildStation(seat, self.city_names[city], paid)

    def turn_actions(self, core: Core, seat: int, out: list[int]) -> None:
        state: EuropeCoreState = core.variant
        built = sum(1 for c in state.order if state.owner[c] == seat)
        if built >= self.count:
            return
        cost = self.costs[built]
        hand = core.hands[seat]
        loco = self.table.loco
        locos = hand[loco]
        slots = [
            color * self.top + wild
            for color in range(loco)
            for wild in range(min(cost - 1, locos) + 1)
            if hand[color] >= cost - wild
        ]
        if locos >= cost:
            slots.append(loco * self.top + cost)
        if not slots:
            return
        owner = state.owner
        for city in range(self.cities):
            if owner[city] < 0:
                first = self.base + (city * self.most + cost - 1) * self.slots
                out.extend([first + s for s in slots])

    def apply(self, core: Core, seat: int, action: int) -> bool:
        """Pay (the cards to the discard in colour-name order, as the reducer) and build."""
        state: EuropeCoreState = core.variant
        t = self.table
        city, paid = self._unpack(action)
        built = sum(1 for c in state.order if state.owner[c] == seat)
        hand = core.hands[seat]
        for name, n in paid.items():
            card = t.card_index[name]
            hand[card] -= n
            core.discard.extend([card] * n)
        state.owner[city] = seat
        state.order.append(city)
        if core.events is not None:
            name = self.city_names[city]
            core.events.append(StationBuilt(seat, name, paid, self.count - built - 1))
        return True

    def stations(self, core: Core) -> tuple[list[int], list[int]]:
        state: EuropeCoreState = core.variant
        return state.owner, state.order

    def new_state(self, core: Core) -> EuropeCoreState:
        return EuropeCoreState([-1] * self.cities, [])

    def load(self, core: Core, state: GameState) -> None:
        index = self.table.city_index
        owner = [-1] * self.cities
        order = []
        for city, seat in stations_of(state).items():
            owner[index[city]] = seat
            order.append(index[city])
        core.variant = EuropeCoreState(owner, order)

    def save(self, core: Core, state: GameState) -> None:
        variant: EuropeCoreState = core.variant
        names = self.city_names
        state.extra = stored(EuropeState({names[c]: variant.owner[c] for c in variant.order}))


EuropeRules.core_hooks = EuropeCoreHooks
