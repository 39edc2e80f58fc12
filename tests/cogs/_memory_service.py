"""A small in-memory stand-in for GameService, for cog tests without a database (tests only)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from engine import apply, new_game, player_view, public_view
from engine.ai import choose_action
from maps.loader import load_ruleset


class Refused(Exception):
    """A domain refusal with a code (module under cogs so the funnel treats it as domain)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code
        self.detail: dict[str, Any] = {}


Refused.__module__ = "bot.services.memory"


@dataclass(frozen=True)
class Game:
    id: int
    channel_id: int
    thread_id: int | None
    host_user_id: int
    map_id: str
    status: str


@dataclass(frozen=True)
class Seat:
    seat: int
    user_id: int | None
    display_name: str
    is_ai: bool


@dataclass
class Snap:
    game: Game
    seats: list[Seat]
    public: Any
    mine: Any
    seat: int | None


@dataclass
class Outcome:
    public_events: list[Any] = field(default_factory=list)


class MemoryService:
    def __init__(self) -> None:
        self.games: dict[int, Game] = {}
        self.seats: dict[int, list[Seat]] = {}
        self.states: dict[int, Any] = {}

    async def create(self, *, guild_id: int, channel_id: int, host_id: int, host_name: str, map_id: str,
                     options: dict[str, Any], turn_seconds: int) -> Game:
        if any(g.channel_id == channel_id and g.status in ("lobby", "active") for g in self.games.values()):
            raise Refused("channel_busy")
        gid = len(self.games) + 1
        self.games[gid] = Game(gid, channel_id, None, host_id, map_id, "lobby")
        self.seats[gid] = [Seat(0, host_id, host_name, False)]
        return self.games[gid]

    async def game_in_channel(self, channel_id: int) -> Game | None:
        return next((g for g in self.games.values() if g.channel_id == channel_id and g.status in ("lobby", "active")), None)

    async def join(self, game_id: int, user_id: int, name: str) -> None:
        if any(s.user_id == user_id for s in self.seats[game_id]):
            raise Refused("already_joined")
        self.seats[game_id].append(Seat(len(self.seats[game_id]), user_id, name, False))

    async def add_ai(self, game_id: int, user_id: int) -> None:
        if self.games[game_id].host_user_id != user_id:
            raise Refused("not_host")
        n = len(self.seats[game_id])
        self.seats[game_id].append(Seat(n, None, f"Computer {n}", True))

    async def start(self, game_id: int, user_id: int) -> Outcome:
        g = self.games[game_id]
        if g.host_user_id != user_id:
            raise Refused("not_host")
        rules = load_ruleset(g.map_id)
        self.states[game_id] = new_game(rules, seats=len(self.seats[game_id]), seed=7)
        self.games[game_id] = replace(g, status="active")
        return self._run_ai(game_id)

    def _run_ai(self, game_id: int) -> Outcome:
        rules = load_ruleset(self.games[game_id].map_id)
        out = Outcome()
        while True:
            st = self.states[game_id]
            ai = [s for s in st.seats_to_act() if self.seats[game_id][s].is_ai]
            if not ai:
                break
            tr = apply(rules, st, choose_action(rules, st, ai[0]))
            self.states[game_id] = tr.state
            out.public_events += tr.events
        if self.states[game_id].finished:
            self.games[game_id] = replace(self.games[game_id], status="finished")
        return out

    async def act(self, game_id: int, user_id: int, action: Any) -> Outcome:
        rules = load_ruleset(self.games[game_id].map_id)
        tr = apply(rules, self.states[game_id], action)
        self.states[game_id] = tr.state
        out = self._run_ai(game_id)
        out.public_events[:0] = tr.events
        return out

    async def views(self, game_id: int, user_id: int) -> Snap:
        g = self.games.get(game_id)
        if g is None:
            raise Refused("game_not_found")
        rules = load_ruleset(g.map_id)
        seat = next((s.seat for s in self.seats[game_id] if s.user_id == user_id), None)
        st = self.states.get(game_id)
        public = public_view(rules, st) if st else None
        mine = player_view(rules, st, seat) if st and seat is not None else None
        return Snap(g, list(self.seats[game_id]), public, mine, seat)
