"""Tunnels for the easy and normal players: the odds of a claim, and the tunnels given up.

A tunnel claim turns up three cards from the deck; each one of the committed
colour or a locomotive costs one more card of the same kind, and a player who
cannot (or will not) pay gives the tunnel up: the cards go back to the hand
and the turn is over (Europe rulebook, "Tunnels"; Nordic rulebook, "Tunnels").

The heuristics used to claim a tunnel whenever the base cost was in hand. With
no card to spare, one match was enough to give it up, and nothing kept them
from trying again next turn with the same hand: late in a game, with the deck
and the discard down to a few cards of the colour every seat hoards, every
seat gave up its tunnel every turn and the game ran to the engine's turn limit.
Two rules end that:

- **risk** (:func:`success_chance`): a claim is weighed by the chance that the
  extra cards fit in what is left of the hand, each revealed card matching with
  the share of the committed colour plus the locomotives among the cards the
  player cannot see (:func:`engine.ai.world.unseen_cards`, the best estimate of
  the deck it has); a claim is tried when that chance is at least
  :data:`MIN_SUCCESS`, and in the last round always (a failed try then costs
  nothing a card draw would have won);
- **memory** (:class:`TunnelMemory`): a tunnel given up is not tried again
  while the hand is still the one it was given up with.

The players must decide from their view only, and the view holds no log, so
the memory is the player object's own: what it gave up itself, keyed by the
map, the table size, the seat, the route and the hand, with the game version
of the give-up. It counts only at later versions, so a game played again from
its start in the same process makes the same choices as the first time; a
restarted bot forgets it and may try once more, which is harmless.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Mapping
from contextlib import suppress
from math import comb
from typing import TYPE_CHECKING

from ..actions import ClaimRoute
from ..payment import tunnel_spare
from ..types import LOCOMOTIVE
from ..views import PlayerView
from .world import unseen_cards

if TYPE_CHECKING:
    from ..rules.classic import ClassicRules

#: Cards turned up by a tunnel claim (as :data:`engine.reducer.TUNNEL_REVEAL`).
REVEAL = 3
#: A tunnel is tried when the extra cards fit in the hand with at least this chance.
MIN_SUCCESS = 0.5
#: Tunnels given up that one player object keeps (oldest forgotten first).
MEMORY_SIZE = 4096


def match_share(
    rules: ClassicRules,
    view: PlayerView,
    color: str | None,
    unseen: Mapping[str, int] | None = None,
) -> float:
    """Share (0..1) of the cards ``view``'s seat cannot see that a tunnel committed in
    ``color`` counts as a match: that colour and the locomotives (only the locomotives
    when ``color`` is None, a claim paid with locomotives alone). ``unseen``: those cards
    counted by colour, when the caller has them already (:func:`unseen_counts`)."""
    counts = unseen_counts(rules, view) if unseen is None else unseen
    total = sum(counts.values())
    if not total:
        return 0.0
    hits = counts.get(LOCOMOTIVE, 0) + (counts.get(color, 0) if color is not None else 0)
    return hits / total


def unseen_counts(rules: ClassicRules, view: PlayerView) -> dict[str, int]:
    """The cards ``view``'s seat cannot see (:func:`engine.ai.world.unseen_cards`), colour ->
    count."""
    return dict(Counter(unseen_cards(rules, view)))


def success_chance(
    rules: ClassicRules,
    view: PlayerView,
    claim: ClaimRoute,
    unseen: Mapping[str, int] | None = None,
) -> float:
    """The chance (0..1) that ``claim`` ends with the route claimed: 1.0 for a route that
    is no tunnel; for a tunnel, that the matches among the revealed cards (binomial over
    ``min(3, deck + discard)`` cards, each a match with :func:`match_share`) are at most the
    cards left to pay them (:func:`engine.payment.tunnel_spare`). ``unseen``: as for
    :func:`match_share`."""
    route = rules.board.routes[claim.route]
    if not route.tunnel:
        return 1.0
    plan = rules.payment_plan(route, claim.payment)
    color = plan.color if plan is not None else None
    spare = tunnel_spare(color, claim.payment, view.hand)
    shown = min(REVEAL, view.public.deck_size + view.public.discard_size)
    if spare >= shown:
        return 1.0
    q = match_share(rules, view, color, unseen)
    return sum(comb(shown, k) * q**k * (1 - q) ** (shown - k) for k in range(spare + 1))


def expected_extra(rules: ClassicRules, view: PlayerView, color: str | None) -> float:
    """Extra cards a tunnel committed in ``color`` is expected to cost: the revealed cards
    (up to 3) times :func:`match_share`."""
    shown = min(REVEAL, view.public.deck_size + view.public.discard_size)
    return shown * match_share(rules, view, color)


def _hand_key(hand: dict[str, int]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted((c, n) for c, n in hand.items() if n))


class TunnelMemory:
    """The tunnels one player object gave up: ``(map, seats, seat, route, hand)`` -> the
    game versions of the give-ups (see the module docstring). Bounded to
    :data:`MEMORY_SIZE` entries."""

    def __init__(self) -> None:
        self._given_up: OrderedDict[tuple[object, ...], set[int]] = OrderedDict()

    @staticmethod
    def _key(view: PlayerView, route: str, hand: dict[str, int]) -> tuple[object, ...]:
        pub = view.public
        return (pub.map_id, pub.num_seats, view.seat, route, _hand_key(hand))

    def give_up(self, view: PlayerView) -> None:
        """Remember that ``view``'s seat gives up the pending tunnel now: the hand it keeps
        is its hand plus the committed cards, which come back."""
        tunnel = view.public.tunnel
        if tunnel is None:
            return
        hand = dict(view.hand)
        for color, n in tunnel.committed.items():
            hand[color] = hand.get(color, 0) + n
        key = self._key(view, tunnel.route, hand)
        # one player object serves the bot's threads: each step below is one atomic call,
        # and a key dropped by another thread in between is only forgotten
        self._given_up.setdefault(key, set()).add(view.public.version)
        with suppress(KeyError):
            self._given_up.move_to_end(key)
        while len(self._given_up) > MEMORY_SIZE:
            with suppress(KeyError):
                self._given_up.popitem(last=False)

    def forbids(self, view: PlayerView, route: str) -> bool:
        """True when ``view``'s seat gave ``route`` up earlier in this game (an earlier
        version) with the hand it holds now."""
        versions = self._given_up.get(self._key(view, route, view.hand))
        return versions is not None and any(v < view.public.version for v in versions)


class TunnelOdds:
    """Which claims of one decision are worth trying (:meth:`worth`), the unseen cards
    counted once and the forbidden routes and chances computed once each."""

    def __init__(self, rules: ClassicRules, view: PlayerView, memory: TunnelMemory) -> None:
        self.rules, self.view, self.memory = rules, view, memory
        self._unseen: dict[str, int] | None = None
        self._forbidden: dict[str, bool] = {}
        self._chances: dict[tuple[str | None, int], float] = {}

    def forbids(self, route: str) -> bool:
        """:meth:`TunnelMemory.forbids` for this decision's view."""
        found = self._forbidden.get(route)
        if found is None:
            found = self._forbidden[route] = self.memory.forbids(self.view, route)
        return found

    def chance(self, claim: ClaimRoute) -> float:
        """:func:`success_chance` of ``claim``."""
        rules, view = self.rules, self.view
        route = rules.board.routes[claim.route]
        if not route.tunnel:
            return 1.0
        plan = rules.payment_plan(route, claim.payment)
        color = plan.color if plan is not None else None
        key = (color, tunnel_spare(color, claim.payment, view.hand))
        found = self._chances.get(key)
        if found is None:
            if self._unseen is None:
                self._unseen = unseen_counts(rules, view)
            found = self._chances[key] = success_chance(rules, view, claim, self._unseen)
        return found

    def worth(self, claim: ClaimRoute) -> bool:
        """Whether an easy or normal player makes ``claim``: always for a route that is no
        tunnel; a tunnel not given up with this hand (:class:`TunnelMemory`) whose
        :func:`success_chance` is at least :data:`MIN_SUCCESS`, or any such tunnel in the
        last round."""
        if not self.rules.board.routes[claim.route].tunnel:
            return True
        if self.forbids(claim.route):
            return False
        return self.view.public.last_round or self.chance(claim) >= MIN_SUCCESS
