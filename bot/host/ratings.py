"""Ratings: openskill's Plackett-Luce model over the finished rated games of a server.

Pure functions (no database, no Discord, no engine): the storage calls :func:`rate` inside
the transaction that stores a game's results, and the operators' ``python -m bot ratings
--recompute`` calls it again over the stored results in the order they were rated, so both
give the same floats.

- A **player** is an identity string: ``"user:<discord id>"`` for a person, ``"ai:easy"``,
  ``"ai:normal"`` or ``"ai:hard"`` for the computer at each level (one identity per level,
  so players see where they stand against each one), or ``"former:<key>"`` for a person who
  was forgotten: the key names no one, and such a player is rated like any other
  (so every other player's rating replays exactly) but its own rating is never stored.
- A game's **places** are competition ranks: 1 + the seats strictly ahead; tied seats share
  a place; a resigned seat is placed after every seat that did not resign (all resigned seats
  share that last place).
- A rating is ``(mu, sigma)``; what players see is the **ordinal** ``mu - 3 sigma`` (0 for a
  new player), marked provisional during a player's first :data:`PROVISIONAL_GAMES` games.
- Every rated game updates two **scopes** per player: :data:`OVERALL` and the game's map id.
- Ratings live per server and **season**; a new season starts everyone afresh.

The model's parameters are pinned here (:data:`MODEL`: openskill's defaults written out), so a
library release that changed a default could not silently change stored ratings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

#: The scope of a player's rating over every map (a map's scope is its id, which is never "*").
OVERALL = "*"
#: A player's ratings are provisional during this many first rated games (in a scope and season).
PROVISIONAL_GAMES = 5
#: The prior: openskill's defaults (Weng and Lin 2011): mu 25, sigma 25/3, beta 25/6, tau 25/300.
MU = 25.0
SIGMA = MU / 3
BETA = SIGMA / 2
TAU = MU / 300
#: The one model every rating goes through.
MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU, limit_sigma=False, balance=False)
#: The computer's levels, each rated as one identity.
AI_PREFIX = "ai:"
USER_PREFIX = "user:"
#: A forgotten person: ``"former:<key>"`` (a random key, or ``<game>.<seat>`` for a seat whose
#: user was forgotten before the game ended).
FORMER_PREFIX = "former:"


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's rating in one scope and season.

    Attributes:
        mu: the estimated skill; sigma: its uncertainty (both in openskill's units).
        games: rated games played in this scope and season (0 for a new player).
    """

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``: the skill the player is very likely above (what is shown; 0 at start)."""
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        """True during the player's first :data:`PROVISIONAL_GAMES` games."""
        return self.games <= PROVISIONAL_GAMES


@dataclass(frozen=True, slots=True)
class Entrant:
    """A seat of a finished game as the ratings see it: who (``player``) and where it ended
    (``place``, 1 = first; tied seats share a place)."""

    seat: int
    player: str
    place: int


def user_player(user_id: int) -> str:
    """The identity of a person: ``"user:<id>"``."""
    return f"{USER_PREFIX}{int(user_id)}"


def ai_player(level: str) -> str:
    """The identity of the computer at ``level`` (``"easy"``, ``"normal"``, ``"hard"``, ``"expert"``)."""
    return f"{AI_PREFIX}{level}"


def user_of(player: str) -> int | None:
    """The Discord id of a person's identity, None for any other identity."""
    if player.startswith(USER_PREFIX) and player[len(USER_PREFIX) :].isdigit():
        return int(player[len(USER_PREFIX) :])
    return None


def former_player(key: str) -> str:
    """The identity of a forgotten person under ``key`` (which must name no one)."""
    return f"{FORMER_PREFIX}{key}"


def is_former(player: str) -> bool:
    """True for a forgotten person's identity (:func:`former_player`): rated, never stored."""
    return player.startswith(FORMER_PREFIX)


def ai_level_of(player: str) -> str | None:
    """The level of a computer identity (``"ai:hard"`` -> ``"hard"``), None for any other."""
    return player[len(AI_PREFIX) :] if player.startswith(AI_PREFIX) else None


def places(keys: Sequence[tuple[int, ...]], resigned: Sequence[bool]) -> list[int]:
    """Competition places of the seats of one game (index = seat).

    ``keys``: each seat's ranking key, bigger is better (points, then the map's tie-breaks);
    ``resigned``: each seat's resignation. A seat's place is 1 + the seats that did not
    resign and have a bigger key; tied seats share it. A resigned seat ranks last: every
    resigned seat gets 1 + the number of seats that did not resign.

    Raises:
        ValueError: the two sequences differ in length.
    """
    if len(keys) != len(resigned):
        raise ValueError(f"{len(keys)} keys for {len(resigned)} seats")
    playing = [k for k, r in zip(keys, resigned, strict=True) if not r]
    last = 1 + len(playing)
    return [
        last if r else 1 + sum(1 for other in playing if other > k)
        for k, r in zip(keys, resigned, strict=True)
    ]


def rate(entrants: Sequence[Entrant], current: Mapping[str, Rating]) -> dict[str, Rating]:
    """The new ratings of a game's players in one scope.

    ``entrants``: every seat in seat order; ``current``: the players' ratings before the game
    (a player missing here starts from the prior). Each seat is one team of one in a single
    :meth:`PlackettLuce.rate` call with the places as ranks (ties share a rank). A player who
    held several seats (two computer seats of one level) takes the mean of its seats' new mu
    and sigma. Each player's game count grows by one.

    Returns player -> new rating; empty when the game has fewer than two players (one
    identity alone learns nothing, e.g. four computer seats of one level).
    """
    players = {e.player for e in entrants}
    if len(players) < 2:
        return {}
    before = {p: current.get(p, Rating()) for p in players}
    teams = [[MODEL.rating(mu=before[e.player].mu, sigma=before[e.player].sigma)] for e in entrants]
    ranks = [float(e.place) for e in entrants]
    after = MODEL.rate(teams, ranks=ranks)
    seats: dict[str, list[tuple[float, float]]] = {}
    for e, team in zip(entrants, after, strict=True):
        seats.setdefault(e.player, []).append((team[0].mu, team[0].sigma))
    return {
        p: Rating(
            mu=sum(mu for mu, _ in got) / len(got),
            sigma=sum(sigma for _, sigma in got) / len(got),
            games=before[p].games + 1,
        )
        for p, got in seats.items()
    }
