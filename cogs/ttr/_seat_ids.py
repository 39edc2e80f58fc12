"""Click kinds of seats changing hands: Accept and Decline under a seat offered to a member.

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

from ._ids import GAME, MAX_INT, PREFIX, SMALL, BadComponentId, Click

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


__all__ = ["SeatRefuse", "SeatTake"]
