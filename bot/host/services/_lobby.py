"""The lobby: open a game, join, leave, add AI seats, start, cancel."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from bot.host.storage import (
    DEFAULT_TURN_SECONDS,
    LANGUAGES,
    ChannelBusy,
    GameRow,
    GuildSettings,
    NewSeat,
    SeatRow,
    SeatTaken,
    Storage,
)
from engine import (
    ENGINE_VERSION,
    SetupError,
    new_game,
)
from engine.ai import AI_LEVELS, ai_level
from engine.codec import encode_state
from maps.loader import UnknownMap, available_maps, load_ruleset
from words import words_for
from words._catalog import NP_

from ._errors import ServiceError
from ._ladder import hints_by_default
from ._loading import GameLoader, Wakes, need_status, seat_of
from ._models import Outcome
from ._recording import MoveRecorder

log = logging.getLogger(__name__)

#: AI level -> its player-facing name (translated in the context "ai_level").
AI_LEVEL_NAMES: dict[str, str] = {
    "easy": NP_("ai_level", "easy"),
    "normal": NP_("ai_level", "normal"),
    "hard": NP_("ai_level", "hard"),
    "expert": NP_("ai_level", "expert"),
}


class Lobby:
    """The lobby: open a game (or a rematch), join, leave, add AI seats, start, cancel.

    Owns nothing of its own. Needs the storage, the :class:`~._loading.GameLoader` (locks,
    rows), the :class:`~._recording.MoveRecorder` (the first timers; the AI seats' ticket
    choices after the start), the :class:`~._loading.Wakes` (a started game's first timer)
    and ``seed_source`` (seeds for new games).
    """

    def __init__(
        self,
        storage: Storage,
        loader: GameLoader,
        recorder: MoveRecorder,
        wakes: Wakes,
        *,
        seed_source: Callable[[], int],
    ) -> None:
        self.storage = storage
        self.loader = loader
        self.recorder = recorder
        self.wakes = wakes
        self.seed_source = seed_source

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
    ) -> GameRow:
        """Open a lobby in ``channel_id`` (a channel or thread) with the host seated (unless ``host_plays`` is False).

        What the host leaves out comes from the server's settings (:class:`~bot.host.storage.GuildSettings`):
        ``language`` the table's language for everything public (``en`` or ``de``; the server's,
        else English), ``turn_seconds`` (the server's, else one day), ``rated`` (the server's,
        else rated), ``hints`` whether players may ask ``/ttr hint``
        (:func:`~bot.host.services.hints_by_default`: where the server allows hints, in casual games
        only). A server that names its game channels refuses any other: the game's
        channel, thread or the thread's channel (``parent_id``) must be one of them.

        Fair play: a rated game never allows hints, and a server that turned
        hints off (``/ttr admin config hints:False``) allows them in no game.

        Raises:
            ServiceError: ``unknown_map``, ``bad_option`` (options the map does
                not offer), ``bad_turn_time`` (not positive), ``bad_language``, ``channel_busy``,
                ``channel_not_allowed`` (detail ``channels``: where games may be opened),
                ``hints_rated`` (hints asked for in a rated game), ``hints_off_here`` (hints
                asked for where the server turned them off).
        """
        settings = await self.open_here(guild_id, channel_id, thread_id, parent_id)
        rated = settings.rated if rated is None else rated
        if hints and rated:
            raise ServiceError("hints_rated")
        if hints and not settings.hints:
            raise ServiceError("hints_off_here")
        return await self._open(
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            host_name=host_name,
            map_id=map_id,
            options=options,
            turn_seconds=(
                turn_seconds
                if turn_seconds is not None
                else settings.turn_seconds or DEFAULT_TURN_SECONDS
            ),
            thread_id=thread_id,
            host_plays=host_plays,
            language=language if language is not None else settings.language or "en",
            rematch_of=rematch_of,
            rated=rated,
            hints_allowed=hints_by_default(settings, rated=rated) if hints is None else hints,
        )

    async def open_here(self, guild_id: int, *channels: int | None) -> GuildSettings:
        """The server's settings, when a game may be opened in one of ``channels`` (a channel,
        or a thread and its channel): any channel, unless the server names its game channels.

        Raises:
            ServiceError: ``channel_not_allowed`` (detail ``channels``: where games may be opened).
        """
        settings = await self.storage.guild_settings.get_guild_settings(guild_id)
        allowed = settings.channels
        if allowed and not set(channels) & set(allowed):
            raise ServiceError(
                "channel_not_allowed", {"channels": ", ".join(f"<#{c}>" for c in allowed)}
            )
        return settings

    async def _open(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        map_id: str,
        options: Mapping[str, Any] | None,
        turn_seconds: int,
        thread_id: int | None,
        host_plays: bool,
        language: str,
        rematch_of: int | None,
        rated: bool,
        hints_allowed: bool,
    ) -> GameRow:
        """:meth:`create` with every setting decided (a rematch keeps the old game's)."""
        if language not in LANGUAGES:
            raise ServiceError("bad_language", {"choices": ", ".join(LANGUAGES)})
        try:
            if map_id not in available_maps():  # no such map, or a broken one
                raise UnknownMap(map_id, available_maps())
            rules = load_ruleset(map_id)
        except UnknownMap:
            raise ServiceError(
                "unknown_map", {"map": map_id, "maps": ", ".join(available_maps())}
            ) from None
        try:
            resolved = rules.resolve_options(dict(options or {}))
        except SetupError as exc:
            raise ServiceError("bad_option", exc.detail) from None
        if not isinstance(turn_seconds, int) or turn_seconds <= 0:
            raise ServiceError(
                "bad_turn_time", {"given": turn_seconds, "choices": "10m, 1h, 24h, 72h"}
            )
        seats = [NewSeat(display_name=host_name, user_id=host_id, seat=0)] if host_plays else []
        try:
            return await self.storage.games.create_game(
                guild_id=guild_id,
                channel_id=channel_id,
                thread_id=thread_id,
                host_user_id=host_id,
                map_id=map_id,
                options=dict(resolved),
                turn_seconds=turn_seconds,
                seats=seats,
                language=language,
                rematch_of=rematch_of,
                rated=rated,
                hints_allowed=hints_allowed and not rated,
            )
        except ChannelBusy as exc:
            raise ServiceError("channel_busy", {"game": exc.game_id}) from None

    async def rematch(self, game_id: int, user_id: int, name: str) -> GameRow:
        """A new lobby after a finished game: same channel, map, options, turn time, language,
        rated or casual, hint setting and computer players (same levels); the one who asks is
        the host, the others join with one click.

        Raises:
            ServiceError: ``game_not_found``, ``not_finished`` (the game still runs),
                ``not_in_game`` (only a player of that game may ask), ``channel_busy``.
        """
        async with self.loader.lock(game_id):
            game = await self.loader.game(game_id)
            if game.status not in ("finished", "cancelled"):
                raise ServiceError("not_finished")
            seats = await self.storage.seats.seats(game_id)
            if seat_of(seats, user_id) is None:
                raise ServiceError("not_in_game")
        new = await self._open(
            guild_id=game.guild_id,
            channel_id=game.channel_id,
            thread_id=game.thread_id,
            host_id=user_id,
            host_name=name,
            map_id=game.map_id,
            options=game.options,
            turn_seconds=game.turn_seconds,
            host_plays=True,
            language=game.language,
            rematch_of=game_id,
            rated=game.rated,
            hints_allowed=game.hints_allowed,
        )
        for s in sorted(seats, key=lambda r: r.seat):
            if s.is_ai:
                await self.storage.seats.add_seat(
                    new.id, NewSeat(display_name=s.display_name, is_ai=True, ai_kind=s.ai_kind)
                )
        log.info("game %s: rematch of game %s", new.id, game_id)
        return new

    async def game_in_channel(self, channel_id: int) -> GameRow | None:
        """The open (lobby or active) game of a channel or thread, or None."""
        return await self.storage.games.active_game_in_channel(channel_id)

    async def _seats_limit(self, game: GameRow) -> tuple[int, int]:
        p = load_ruleset(game.map_id).params
        return p.min_players, p.max_players

    async def join(self, game_id: int, user_id: int, name: str) -> SeatRow:
        """Seat ``user_id`` in the lobby.

        Raises:
            ServiceError: ``game_not_found``, ``already_started``, ``already_joined``, ``game_full``.
        """
        async with self.loader.lock(game_id):
            game = await self.loader.game(game_id)
            need_status(game, "lobby")
            seats = await self.storage.seats.seats(game_id)
            if seat_of(seats, user_id) is not None:
                raise ServiceError("already_joined")
            _, most = await self._seats_limit(game)
            if len(seats) >= most:
                raise ServiceError("game_full", {"max": most})
            try:
                row = await self.storage.seats.add_seat(
                    game_id, NewSeat(display_name=name, user_id=user_id)
                )
            except SeatTaken:
                raise ServiceError("already_joined") from None
            self.recorder.changes.notify(game_id, game.version)
            return row

    async def leave(self, game_id: int, user_id: int) -> None:
        """Give up a lobby seat (the host cancels instead).

        Raises:
            ServiceError: ``game_not_found``, ``already_started``, ``not_in_game``, ``host_cannot_leave``.
        """
        async with self.loader.lock(game_id):
            game = await self.loader.game(game_id)
            need_status(game, "lobby")
            seat = seat_of(await self.storage.seats.seats(game_id), user_id)
            if seat is None:
                raise ServiceError("not_in_game")
            if user_id == game.host_user_id:
                raise ServiceError("host_cannot_leave")
            await self.storage.seats.remove_seat(game_id, seat.seat)
            self.recorder.changes.notify(game_id, game.version)

    async def add_ai(
        self, game_id: int, user_id: int, *, level: str = "normal", kind: str | None = None
    ) -> SeatRow:
        """The host adds an AI seat of ``level`` (one of :data:`engine.ai.AI_LEVELS`) to the lobby.

        The level is stored as the seat's ``ai_kind``; seats stored before the
        levels existed say ``"heuristic"``, which the engine plays as normal.
        ``kind`` is the older name of ``level`` (still accepted; it wins when given).
        An easy or hard seat's name says its level ("AI 2 (hard)").

        Raises:
            ServiceError: ``bad_ai_level`` (detail ``given``, ``choices``; nothing is
                written), ``game_not_found``, ``not_host``, ``already_started``, ``game_full``.
        """
        chosen = ai_level(kind if kind is not None else level)
        if chosen not in AI_LEVELS:
            raise ServiceError(
                "bad_ai_level", {"given": str(level), "choices": ", ".join(AI_LEVELS)}
            )
        async with self.loader.lock(game_id):
            game = await self.loader.game(game_id)
            if user_id != game.host_user_id:
                raise ServiceError("not_host")
            need_status(game, "lobby")
            seats = await self.storage.seats.seats(game_id)
            _, most = await self._seats_limit(game)
            if len(seats) >= most:
                raise ServiceError("game_full", {"max": most})
            number = 1 + sum(1 for s in seats if s.is_ai)
            # the seat's name is public text: in the table's language ("AI 1", "KI 1 (schwer)")
            tw = words_for(game.language)
            name = tw.t("AI {number}", number=number)
            if chosen != "normal":
                name = tw.t(
                    "{name} ({level})", name=name, level=tw.ctx("ai_level", AI_LEVEL_NAMES[chosen])
                )
            row = await self.storage.seats.add_seat(
                game_id, NewSeat(display_name=name, is_ai=True, ai_kind=chosen)
            )
            self.recorder.changes.notify(game_id, game.version)
            return row

    async def start(self, game_id: int, user_id: int, *, seed: int | None = None) -> Outcome:
        """The host starts the game: deal, then AI seats choose their tickets.

        Seats are renumbered 0..n-1 in joining order (leaving may have left
        gaps) in the same transaction that starts the game. Raises:
            ServiceError: ``game_not_found``, ``not_host``, ``already_started``,
                ``not_enough_players``/``too_many_players`` (detail min, max).
        """
        async with self.loader.lock(game_id):
            game = await self.loader.game(game_id)
            if user_id != game.host_user_id:
                raise ServiceError("not_host")
            need_status(game, "lobby")
            rules = load_ruleset(game.map_id)
            seats = await self.storage.seats.seats(game_id)
            least, most = rules.params.min_players, rules.params.max_players
            if len(seats) < least:
                raise ServiceError("not_enough_players", {"min": least, "max": most})
            if len(seats) > most:
                raise ServiceError("too_many_players", {"min": least, "max": most})
            seed = self.seed_source() if seed is None else seed
            state = new_game(rules, seats=len(seats), seed=seed, options=game.options)
            deadline, reminder = self.recorder.timers(game, seats, None, state)
            # one transaction: seats renumbered 0..n-1 in joining order, status, seed, snapshot
            game = await self.storage.games.start_game(
                game_id,
                seed=seed,
                snapshot=encode_state(state),
                engine_version=ENGINE_VERSION,
                deadline_at=deadline,
                reminder_at=reminder,
            )
            seats = await self.storage.seats.seats(game_id)
            self.loader.remember(game_id, state)
            self.wakes.timers.set()
            self.recorder.changes.notify(game_id, game.version)
            return await self.recorder.proceed(game, seats, state, [], before=None)

    async def cancel(self, game_id: int, user_id: int, *, moderator: bool = False) -> GameRow:
        """Cancel a lobby or running game: the host, or a member with Manage Channels (``moderator``).

        Raises:
            ServiceError: ``game_not_found``, ``not_allowed``, ``game_over``.
        """
        async with self.loader.lock(game_id):
            game = await self.loader.game(game_id)
            if user_id != game.host_user_id and not moderator:
                raise ServiceError("not_allowed")
            need_status(game, "lobby", "active")
            self.loader.forget(game_id)
            cancelled = await self.storage.games.set_status(game_id, "cancelled")
            self.recorder.changes.notify(game_id, cancelled.version)
            return cancelled
