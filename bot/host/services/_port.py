"""The service as the cogs see it: a typed Protocol (the cogs depend on this, not on the class)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any, Protocol

from bot.host.storage import (
    ForgetReport,
    GameRow,
    GuildDeparture,
    GuildSettings,
    Season,
    SeatRow,
    UserData,
    UserSettings,
)
from engine import Action, Event

from ._analysis import AnalysisView, OnAnalysis
from ._coach import HintAnswer
from ._loading import OnReminder, OnTurn
from ._models import Ladder, Outcome, RatingShift, TableView, TurnRecord, UserGame, UserStats


class GameServicePort(Protocol):
    """What the Discord layer may ask of the game service.

    Every mutating call carries ``expected_version``: the game version the
    player saw (a menu click carries it back), so a stale click is refused
    with ``stale_version`` instead of doing something the player did not see.
    """

    on_turn: OnTurn | None
    on_reminder: OnReminder | None
    on_analysis: OnAnalysis | None

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        map_id: str,
        options: Mapping[str, Any] | None = None,
        turn_seconds: int | None = None,
        thread_id: int | None = None,
        host_plays: bool = True,
        language: str | None = None,
        rematch_of: int | None = None,
        rated: bool | None = None,
        parent_id: int | None = None,
        hints: bool | None = None,
        preview: bool = False,
    ) -> GameRow: ...

    async def open_here(self, guild_id: int, *channels: int | None) -> GuildSettings: ...

    async def rematch(self, game_id: int, user_id: int, name: str) -> GameRow: ...

    async def last_game_in_channel(self, channel_id: int) -> GameRow | None: ...

    async def history(
        self, guild_id: int, *, page: int = 0, per_page: int = 10
    ) -> list[GameRow]: ...

    async def user_settings(self, user_id: int) -> UserSettings: ...

    async def set_user_settings(self, user_id: int, **changes: bool) -> UserSettings: ...

    async def game_in_channel(self, channel_id: int) -> GameRow | None: ...

    async def join(self, game_id: int, user_id: int, name: str) -> SeatRow: ...

    async def leave(self, game_id: int, user_id: int) -> None: ...

    async def add_ai(
        self, game_id: int, user_id: int, *, level: str = ..., kind: str | None = ...
    ) -> SeatRow: ...

    async def start(self, game_id: int, user_id: int, *, seed: int | None = None) -> Outcome: ...

    async def cancel(self, game_id: int, user_id: int, *, moderator: bool = False) -> GameRow: ...

    async def act(
        self, game_id: int, user_id: int, action: Action, *, expected_version: int | None
    ) -> Outcome: ...

    async def resign(self, game_id: int, user_id: int) -> Outcome: ...

    async def vacation(self, game_id: int, user_id: int, *, days: int) -> SeatRow: ...

    async def table(self, game_id: int, user_id: int, *, plans: bool = False) -> TableView: ...

    async def public_log(self, game_id: int, count: int = 10) -> list[Event]: ...

    async def turn_log(self, game_id: int) -> list[TurnRecord]: ...

    async def games_for_user(self, user_id: int) -> list[UserGame]: ...

    async def stats(self, guild_id: int, user_id: int) -> UserStats: ...

    async def ladder(
        self, guild_id: int, *, season: int | None = None, map_id: str | None = None
    ) -> Ladder: ...

    async def game_ratings(self, game_id: int) -> list[RatingShift]: ...

    async def server_settings(self, guild_id: int) -> GuildSettings: ...

    async def set_server_settings(
        self, guild_id: int, user_id: int, *, manage_server: bool, **changes: Any
    ) -> GuildSettings: ...

    async def start_season(self, guild_id: int, user_id: int, *, manage_server: bool) -> Season: ...

    async def hint(self, game_id: int, user_id: int) -> HintAnswer: ...

    async def play_hint(
        self, game_id: int, user_id: int, *, version: int, index: int
    ) -> Outcome: ...

    async def hinted(self, game_id: int, user_id: int, *, version: int, index: int) -> Action: ...

    async def analysis(self, game_id: int, *, queue: bool = True) -> AnalysisView: ...

    async def remember_final_message(self, game_id: int, message_id: int) -> None: ...
    async def user_data(self, user_id: int) -> UserData: ...

    async def forget_user(self, user_id: int) -> ForgetReport: ...

    async def guild_removed(self, guild_id: int) -> GuildDeparture: ...

    async def guild_returned(self, guild_id: int) -> list[GameRow]: ...

    async def guilds_present(self, guild_ids: Collection[int]) -> list[GuildDeparture]: ...

    def start_timers(self) -> None: ...
