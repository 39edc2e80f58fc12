"""Typed errors of the storage layer.

The ones a player can cause (a game that is gone, a seat taken twice, a busy
channel, a game that moved on or changed status) are :class:`StorageRefusal`:
each has a ``code`` from the closed table :data:`words.ERRORS` and a
``detail`` (the :class:`words.Refusal` protocol), so one that the service does
not translate itself still reaches the player as a specific sentence. The
others (unavailable, full, corrupt, a failed migration) are faults for the
operator.
"""

from __future__ import annotations

from typing import Any, ClassVar


class StorageError(Exception):
    """Base class of every error raised on purpose by :mod:`bot.host.storage`."""


class StorageRefusal(StorageError):
    """A refusal of the storage: ``code`` per class, ``detail`` the game (and what it names)."""

    code: ClassVar[str] = ""

    def __init__(self, message: str, detail: dict[str, Any]) -> None:
        super().__init__(message)
        self.detail = detail


class MigrationError(StorageError):
    """A migration file is malformed, failed to apply, or the database is newer
    than the code (its ``user_version`` is above the latest shipped migration)."""


class GameNotFound(StorageRefusal):
    """No game has this id (``game_not_found``)."""

    code = "game_not_found"

    def __init__(self, game_id: int) -> None:
        super().__init__(f"game {game_id} not found", {"game": game_id})
        self.game_id = game_id


class SeatNotFound(StorageRefusal):
    """The game has no such seat (``not_in_game``)."""

    code = "not_in_game"

    def __init__(self, game_id: int, seat: int) -> None:
        super().__init__(f"game {game_id} has no seat {seat}", {"game": game_id, "seat": seat})
        self.game_id = game_id
        self.seat = seat


class SeatTaken(StorageRefusal):
    """The seat number is occupied, or the user already sits in this game (``already_joined``)."""

    code = "already_joined"

    def __init__(self, game_id: int, detail: str) -> None:
        super().__init__(f"game {game_id}: {detail}", {"game": game_id})
        self.game_id = game_id


class ChannelBusy(StorageRefusal):
    """The channel already has a game in the lobby or in play (``channel_busy``)."""

    code = "channel_busy"

    def __init__(self, channel_id: int, game_id: int | None) -> None:
        super().__init__(
            f"channel {channel_id} already has open game {game_id}",
            {"channel": channel_id, "game": game_id},
        )
        self.channel_id = channel_id
        #: The open game, or None when it could not be read back.
        self.game_id = game_id


class VersionConflict(StorageRefusal):
    """The game moved on since the caller read it (optimistic concurrency; ``version_conflict``).

    ``expected`` is the version the caller based its write on; ``actual`` the
    version found in the database. Nothing was written.
    """

    code = "version_conflict"

    def __init__(self, game_id: int, expected: int, actual: int) -> None:
        super().__init__(
            f"game {game_id}: expected version {expected}, found {actual}",
            {"game": game_id, "expected": expected, "current": actual},
        )
        self.game_id = game_id
        self.expected = expected
        self.actual = actual


class GameStatusError(StorageRefusal):
    """The game is not in a status that allows the write (e.g. an action on a
    finished game, starting a game twice, reopening a cancelled one; ``wrong_status``)."""

    code = "wrong_status"

    def __init__(self, game_id: int, status: str, wanted: str) -> None:
        super().__init__(
            f"game {game_id} is {status!r}; {wanted}", {"game": game_id, "status": status}
        )
        self.game_id = game_id
        self.status = status


class UserInOpenGames(StorageRefusal):
    """A user cannot be forgotten while they play: they sit in a lobby or a running game
    (``forget_open_games``; ``game_ids`` names them). Nothing was changed."""

    code = "forget_open_games"

    def __init__(self, user_id: int, game_ids: tuple[int, ...]) -> None:
        names = ", ".join(str(g) for g in game_ids)
        super().__init__(
            f"user {user_id} still plays in games {names}",
            {"games": names, "count": len(game_ids)},
        )
        self.user_id = user_id
        self.game_ids = game_ids


class StorageUnavailable(StorageError):
    """The database cannot be opened or reached: the path is a directory or
    not a database, permission is denied, the server refuses or is down.

    ``str()`` is one line meant for an operator (no traceback needed); it never
    contains a password from the URL.
    """


class StorageFull(StorageError):
    """The disk (or the database's size limit) is full: the write was rolled
    back whole, nothing of it is stored."""


class ConstraintError(StorageError, ValueError):
    """A value breaks a rule of the schema (a CHECK or a foreign key), e.g. a
    negative count; nothing was written."""


class CorruptGame(StorageError):
    """A stored game cannot be read: bad JSON, an unreadable or missing
    snapshot, or a log that does not replay. ``reason`` names what is wrong
    (never the data itself)."""

    def __init__(self, game_id: int, reason: str) -> None:
        super().__init__(f"game {game_id}: {reason}")
        self.game_id = game_id
        self.reason = reason
