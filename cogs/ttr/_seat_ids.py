"""Click kinds of seats and second thoughts: Accept and Decline under a seat offered to a
member, and Take back, Approve and Refuse of a move taken back by consent.

Kinds declared outside :mod:`._ids` (as its docstring says): subclasses of
:class:`~._ids.Click` whose definition registers them in :data:`._ids.KINDS`; this module is
imported by the family that answers them (:mod:`._seats`), before :mod:`._clicks` makes the
items.

The offer itself lives in the Accept button's id, nothing stores it: the seat, its holder,
the member it is offered to, until when (unix seconds) and how (``h``: the holder gives it;
``t``: the host offers a seat the computer plays after timeouts). ``ttr:42:sit:1:{holder}:
{member}:1764400000:h`` is at most 4 + 19 + 5 + 4 + 1 + 19 + 1 + 19 + 1 + 12 + 2 = 87
characters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Self

from bot.host.services import SeatOffer
from bot.host.storage import HandoverReason

from ._ids import GAME, MAX_INT, PREFIX, SMALL, VERSION, BadComponentId, Click, MenuClick

USER = "[0-9]{1,19}"


def _user(text: str) -> int:
    """A Discord user id read from an id (BadComponentId ``unknown_component`` beyond SQL)."""
    value = int(text)
    if not 0 < value <= MAX_INT:
        raise BadComponentId("unknown_component", text)
    return value


@dataclass(frozen=True)
class SeatTake(Click):
    """Accept: member ``member`` takes seat ``seat`` from ``holder`` (offered ``how``, valid
    until ``until``); only that member may click it."""

    TEMPLATE = (
        GAME + f":sit:(?P<seat>{SMALL}):(?P<holder>{USER}):(?P<member>{USER})"
        r":(?P<until>[0-9]{1,12}):(?P<how>h|t)"
    )

    seat: int = 0
    holder: int = 0
    member: int = 0
    until: int = 0
    how: str = "h"

    @classmethod
    def of(cls, offer: SeatOffer) -> Self:
        """The Accept button of ``offer``."""
        how = "t" if offer.reason == "timeout" else "h"
        return cls(
            offer.game_id, offer.seat, offer.from_user_id, offer.to_user_id, offer.expires_at, how
        )

    def offer(self) -> SeatOffer:
        """The offer this button carries."""
        reason: HandoverReason = "timeout" if self.how == "t" else "handed"
        return SeatOffer(self.game, self.seat, self.holder, self.member, reason, self.until)

    def _text(self) -> str:
        return (
            f"{PREFIX}:{self.game}:sit:{self.seat}:{self.holder}:{self.member}"
            f":{self.until}:{self.how}"
        )

    @classmethod
    def _fields(cls, game: int, match: re.Match[str]) -> Self:
        return cls(
            game,
            int(match["seat"]),
            _user(match["holder"]),
            _user(match["member"]),
            int(match["until"]),
            match["how"],
        )


@dataclass(frozen=True)
class SeatRefuse(Click):
    """Decline: member ``member`` does not take seat ``seat`` of ``holder`` (the member or the
    holder may click it: an offer can be taken back)."""

    TEMPLATE = GAME + f":sit-no:(?P<seat>{SMALL}):(?P<holder>{USER}):(?P<member>{USER})"

    seat: int = 0
    holder: int = 0
    member: int = 0

    def _text(self) -> str:
        return f"{PREFIX}:{self.game}:sit-no:{self.seat}:{self.holder}:{self.member}"

    @classmethod
    def _fields(cls, game: int, match: re.Match[str]) -> Self:
        return cls(game, int(match["seat"]), _user(match["holder"]), _user(match["member"]))


# ====================================================================== taking a move back
@dataclass(frozen=True)
class UndoAsk(MenuClick):
    """Take back (under the mover's private answer to a move that may be taken back): ask the
    table to take back the last move, made at game ``version``."""

    TEMPLATE = GAME + ":undo-ask:" + VERSION

    def _text(self) -> str:
        return f"{PREFIX}:{self.game}:undo-ask:v{self.version}"


@dataclass(frozen=True)
class UndoYes(MenuClick):
    """Approve (under a public request): take back ``seat``'s move made at ``version``; ``ok``
    is the bit set of the seats that approved before (``1 << seat`` each)."""

    TEMPLATE = GAME + ":undo-yes:" + VERSION + f":seat:(?P<seat>{SMALL}):ok:(?P<ok>[0-9]{{1,3}})"

    seat: int = 0
    ok: int = 0

    @property
    def approved(self) -> frozenset[int]:
        """The seats that approved before this click."""
        return frozenset(s for s in range(10) if self.ok >> s & 1)

    def _text(self) -> str:
        return f"{PREFIX}:{self.game}:undo-yes:v{self.version}:seat:{self.seat}:ok:{self.ok}"

    @classmethod
    def _menu_fields(cls, game: int, version: int, match: re.Match[str]) -> Self:
        return cls(game, version, int(match["seat"]), int(match["ok"]))


@dataclass(frozen=True)
class UndoNo(MenuClick):
    """Refuse (under a public request): ``seat``'s move made at ``version`` stands."""

    TEMPLATE = GAME + ":undo-no:" + VERSION + f":seat:(?P<seat>{SMALL})"

    seat: int = 0

    def _text(self) -> str:
        return f"{PREFIX}:{self.game}:undo-no:v{self.version}:seat:{self.seat}"

    @classmethod
    def _menu_fields(cls, game: int, version: int, match: re.Match[str]) -> Self:
        return cls(game, version, int(match["seat"]))


__all__ = ["SeatRefuse", "SeatTake", "UndoAsk", "UndoNo", "UndoYes"]
