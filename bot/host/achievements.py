"""Achievements: what a player earns at a game's end, each a small declarative entry.

An :class:`Achievement` is an id (stored, never renamed), a name and a one-sentence rule
(words of the catalogs, translated in ``words/locale/de``), the rulebook section of its game
term where it has one, and a predicate over the finished game's record. Every predicate is a
pure function of what is stored: the game's results, its ratings and what its replay (seed
plus action log) shows, gathered into a :class:`GameRecord` by the service
(:mod:`bot.host.services._achievements`), and the player's :class:`Career` in the server (their
finished games up to and including this one). So :func:`achievements_of` gives the same set
at the game's end and in a recompute (``python -m bot achievements recompute``).

An achievement is earned once per player and server, with the first game that met its rule
(games in the order they finished). Computer seats and players who resigned earn nothing in
that game; a forgotten player has no id and earns nothing.

Definitions where a rule needs one:

- *Comeback*: when the last round was announced (a player ended a turn with few enough
  trains; the turn that announced it counts), the seat had strictly the fewest points of the
  seats still playing, counting the points scored during play (routes; French flags in
  Paris; tickets are hidden until the end and do not count), and it won. The post-game
  analysis' win chances are not used: the analysis is made after the game, may never be
  made (its budget, a restart) and is not part of the stored game a recompute reads.
- *European Express*: on the Europe rule set, the seat won the game and the European Express
  bonus (the longest continuous path, ``breakdown["longest_path"] > 0``) without building a
  train station (all 3 kept, scored 4 points each).
- *Beat a hard AI*: the seat finished at a better place (by the ratings' places: points, then
  the map's tie-breaks) than every seat the hard or expert computer player played, with at
  least one.
- *Upset*: a rated game the seat won, in which another seat's overall rating (``mu - 3
  sigma``) before the game was higher than the seat's own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache

from words import N_


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """One seat of a finished game, as the achievements read it.

    Attributes:
        seat: the seat number (0-based).
        user_id: the Discord user who sat there, or None (a computer seat, a forgotten player).
        ai_level: ``"easy"``, ``"normal"``, ``"hard"`` or ``"expert"`` for a computer seat, else
            None.
        won: the seat won (or shared the win).
        place: its place (1 = the winners; ties shared), as the ratings count places.
        score: final points.
        resigned: the player resigned.
        tickets_completed, tickets_failed: destination tickets (contracts) at the end.
        bonuses: the final score's breakdown by key (``"longest_path"``, ``"globetrotter"``,
            ``"stations"``, ``"flags"``, ``"merchandise"``, ...; points).
        longest_route: spaces of the longest route the seat claimed (0: none).
        ferries: ferry routes claimed (routes with locomotive symbols).
        tunnel_extra: extra cards paid for tunnels, over the game.
        stations_built: train stations built (Europe; 0 elsewhere).
        pieces_left: trains (carts, buses) left at the end.
        last_at_last_round: strictly the fewest points of the seats still playing when the last
            round was announced (module docstring).
        rating_before: the overall rating's ordinal before a rated game, else None.
    """

    seat: int
    user_id: int | None
    ai_level: str | None
    won: bool
    place: int
    score: int
    resigned: bool = False
    tickets_completed: int = 0
    tickets_failed: int = 0
    bonuses: Mapping[str, int] = field(default_factory=dict)
    longest_route: int = 0
    ferries: int = 0
    tunnel_extra: int = 0
    stations_built: int = 0
    pieces_left: int = 0
    last_at_last_round: bool = False
    rating_before: float | None = None


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A finished game as the achievements read it: its id, server, map and rule set, when it
    finished (unix seconds), whether it was rated, and its seats in seat order."""

    game_id: int
    guild_id: int
    map_id: str
    ruleset: str
    finished_at: float
    rated: bool
    seats: tuple[SeatRecord, ...]

    def others(self, seat: SeatRecord) -> tuple[SeatRecord, ...]:
        """Every seat but ``seat``."""
        return tuple(s for s in self.seats if s.seat != seat.seat)


@dataclass(frozen=True, slots=True)
class Career:
    """A player's finished games in one server up to and including the game looked at:
    how many, and the maps they won on."""

    games: int = 0
    maps_won: frozenset[str] = frozenset()


#: What an achievement asks: the game, the seat, the player's career -> earned.
Predicate = Callable[[GameRecord, SeatRecord, Career], bool]


@dataclass(frozen=True, slots=True)
class Achievement:
    """One achievement: ``id`` (stored), ``name`` and ``rule`` (catalog sentences, ``N_``),
    ``source`` (the rulebook and section of its game term, or ""), ``earned`` (the predicate),
    ``words_of``: the map whose nouns its words use (``{longest_path}`` is the European
    Express on ``"europe"``), or None for the reader's."""

    id: str
    name: str
    rule: str
    earned: Predicate
    source: str = ""
    words_of: str | None = None


@cache
def map_ids() -> frozenset[str]:
    """The ids of every map the bot offers (what *Grand tour* asks for)."""
    from maps.catalog import list_maps

    return frozenset(entry.id for entry in list_maps())


def _margin(game: GameRecord, seat: SeatRecord) -> int | None:
    """How many points ``seat`` (a sole winner) is ahead of the next seat; None when it shares
    the win or did not win."""
    if not seat.won or sum(s.won for s in game.seats) > 1:
        return None
    rest = [s.score for s in game.others(seat)]
    return seat.score - max(rest) if rest else None


def _beat_hard_ai(game: GameRecord, seat: SeatRecord) -> bool:
    hard = [s for s in game.others(seat) if s.ai_level in ("hard", "expert")]
    return bool(hard) and all(seat.place < s.place for s in hard)


def _upset(game: GameRecord, seat: SeatRecord) -> bool:
    mine = seat.rating_before
    if not (game.rated and seat.won) or mine is None:
        return False
    return any(s.rating_before is not None and s.rating_before > mine for s in game.others(seat))


def _photo_finish(game: GameRecord, seat: SeatRecord) -> bool:
    if not seat.won:
        return False
    margin = _margin(game, seat)
    return margin is None or margin <= 2


def _landslide(game: GameRecord, seat: SeatRecord) -> bool:
    margin = _margin(game, seat)
    return margin is not None and margin >= 40


ACHIEVEMENTS: tuple[Achievement, ...] = (
    Achievement("first_win", N_("First win"), N_("Win a game."), lambda g, s, c: s.won),
    Achievement(
        "regular",
        N_("Regular"),
        N_("Finish 10 games in this server."),
        lambda g, s, c: c.games >= 10,
    ),
    Achievement(
        "veteran",
        N_("Veteran"),
        N_("Finish 50 games in this server."),
        lambda g, s, c: c.games >= 50,
    ),
    Achievement(
        "grand_tour",
        N_("Grand tour"),
        N_("Win at least once on every map of the bot."),
        lambda g, s, c: map_ids() <= c.maps_won,
    ),
    Achievement(
        "globetrotter",
        N_("Globetrotter"),
        N_("Win the Globetrotter bonus for the most completed {tickets}."),
        lambda g, s, c: s.bonuses.get("globetrotter", 0) > 0,
        "nordic-countries-rulebook-de.txt, Berechnung der Punkte; germany-rulebook-de.txt",
    ),
    Achievement(
        "busy_timetable",
        N_("Busy timetable"),
        N_("Complete 5 or more {tickets} in one game."),
        lambda g, s, c: s.tickets_completed >= 5,
    ),
    Achievement(
        "long_haul",
        N_("Long haul"),
        N_("Claim a route of 6 or more spaces."),
        lambda g, s, c: s.longest_route >= 6,
    ),
    Achievement(
        "perfect_game",
        N_("Perfect game"),
        N_("Complete every one of your {tickets}, at least 4, and fail none."),
        lambda g, s, c: s.tickets_failed == 0 and s.tickets_completed >= 4,
    ),
    Achievement(
        "longest_path",
        N_("Longest path"),
        N_("Win the bonus for the longest continuous path."),
        lambda g, s, c: s.bonuses.get("longest_path", 0) > 0,
        "usa-bga-gamehelp-de.txt, Spielende 3; europe-rules-en.md, Scoring",
    ),
    Achievement(
        "european_express",
        N_("Non-stop express"),
        N_(
            "Europe: win the game and the {longest_path} without building any of your 3 {stations}."
        ),
        lambda g, s, c: (
            g.ruleset == "europe"
            and s.won
            and s.bonuses.get("longest_path", 0) > 0
            and s.stations_built == 0
        ),
        "europe-rules-en.md, Train stations and Scoring",
        "europe",
    ),
    Achievement(
        "machine_beater",
        N_("Machine beater"),
        N_("Finish ahead of every hard or expert computer player of a game."),
        lambda g, s, c: _beat_hard_ai(g, s),
    ),
    Achievement(
        "comeback",
        N_("Comeback"),
        N_(
            "Win a game in which you had the fewest points of all when the last round "
            "was announced."
        ),
        lambda g, s, c: s.won and s.last_at_last_round,
        "usa-bga-gamehelp-de.txt, Spielende",
    ),
    Achievement(
        "through_the_mountain",
        N_("Through the mountain"),
        N_("Win a game in which you paid extra cards for a tunnel."),
        lambda g, s, c: s.won and s.tunnel_extra > 0,
        "nordic-countries-rulebook-de.txt, Tunnel; europe-rules-en.md, Tunnels",
    ),
    Achievement(
        "ferryman",
        N_("Ferryman"),
        N_("Win a game in which you claimed a ferry."),
        lambda g, s, c: s.won and s.ferries > 0,
        "nordic-countries-rulebook-de.txt, Fähren; europe-rules-en.md, Ferries",
    ),
    Achievement(
        "vive_la_france",
        N_("Vive la France"),
        N_("Paris: win a game in which you scored a {flag}."),
        lambda g, s, c: s.won and s.bonuses.get("flags", 0) > 0,
        "paris-rulebook-de.txt, Französische Flaggen bilden",
        "paris",
    ),
    Achievement(
        "merchant",
        N_("Merchant"),
        N_(
            "Amsterdam: win a game with the most {merchandise_cards} (a shared first place counts)."
        ),
        lambda g, s, c: (
            s.won
            and s.bonuses.get("merchandise", 0) > 0
            and all(s.bonuses["merchandise"] >= o.bonuses.get("merchandise", 0) for o in g.seats)
        ),
        "amsterdam-rulebook-de.txt, Spielende (Handelsgüter-Bonuskarten)",
        "amsterdam",
    ),
    Achievement(
        "landslide",
        N_("Landslide"),
        N_("Win by 40 or more points over the next player."),
        lambda g, s, c: _landslide(g, s),
    ),
    Achievement(
        "photo_finish",
        N_("Photo finish"),
        N_("Win by 2 points or fewer, or share the win."),
        lambda g, s, c: _photo_finish(g, s),
    ),
    Achievement(
        "upset",
        N_("Upset"),
        N_("Win a rated game against a player rated higher than you before it."),
        lambda g, s, c: _upset(g, s),
    ),
    Achievement(
        "full_house",
        N_("Full house"),
        N_("Win a game of 5 players."),
        lambda g, s, c: s.won and len(g.seats) >= 5,
    ),
    Achievement(
        "last_train",
        N_("End of the line"),
        N_("End a game with none of your {pieces} left."),
        lambda g, s, c: s.pieces_left == 0,
    ),
)

#: Every achievement by id.
BY_ID: Mapping[str, Achievement] = {a.id: a for a in ACHIEVEMENTS}


def achievements_of(game: GameRecord, careers: Mapping[int, Career]) -> frozenset[tuple[int, str]]:
    """Every (user id, achievement id) whose rule ``game`` meets, for each seat of a person who
    did not resign; ``careers``: each user's :class:`Career` up to and including ``game``
    (a user missing has none). Whether it is *new* (earned the first time) is the store's
    business. Pure: the same record gives the same set."""
    out: set[tuple[int, str]] = set()
    for seat in game.seats:
        if seat.user_id is None or seat.ai_level is not None or seat.resigned:
            continue
        career = careers.get(seat.user_id, Career())
        out.update((seat.user_id, a.id) for a in ACHIEVEMENTS if a.earned(game, seat, career))
    return frozenset(out)


def career_of(results: Iterable[tuple[int, str, bool, float]], upto: tuple[float, int]) -> Career:
    """A player's :class:`Career` from their results ``(game id, map id, won, finished at)``,
    counting the games that finished up to ``upto`` (finish time, game id) included."""
    games = 0
    maps: set[str] = set()
    for game_id, map_id, won, finished_at in results:
        if (finished_at, game_id) <= upto:
            games += 1
            if won:
                maps.add(map_id)
    return Career(games, frozenset(maps))
