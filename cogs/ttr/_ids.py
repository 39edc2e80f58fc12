"""Component custom_ids: ``ttr:{game}:{verb}`` and ``ttr:{game}:{verb}:{version}:{arg}``.

Every button and select the bot sends carries its meaning in its custom_id,
so a click is understood after any restart and no in-memory view is needed:

- public message buttons: ``ttr:{game}:{verb}`` (hand, draw, claim, tickets,
  board, log, join, start, rematch);
- private menus: ``ttr:{game}:{verb}:{version}:{arg}``: the game version the
  menu was made at, and an argument (a slot, a route index, a payment index,
  a ticket bitmask ...). A click made on another version is stale and is
  answered with the current menu.

Pure functions, no discord. Discord limits custom_ids to 100 characters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PREFIX = "ttr"
MAX_CUSTOM_ID = 100
#: Game ids and versions are SQL integers: anything larger is not ours.
MAX_INT = 2**63 - 1

_ID = re.compile(
    r"ttr:(?P<game>[0-9]{1,19}):(?P<verb>[a-z_]{1,16})"
    r"(?::(?P<version>[0-9]{1,19})(?::(?P<arg>[A-Za-z0-9._-]{0,40}))?)?"
)

#: Verbs of the buttons on public messages (no version: they open a fresh private menu).
PUBLIC_VERBS = frozenset(
    {"hand", "draw", "claim", "tickets", "board", "log", "join", "start", "rematch", "zoom"}
)
#: Verbs of private menu components (they carry the version they were made at).
PRIVATE_VERBS = frozenset(
    {
        "dr",  # draw a card: arg "d" (deck) or a slot 0-4
        "cr",  # route picker page: arg page number; select values are route indexes
        "cs",  # payment select of a route: arg route index; values are payment indexes
        "cc",  # confirm a claim: arg "route.payment"
        "cx",  # cancel the claim menu
        "td",  # draw destination tickets: arg the index of the allowed draw (Germany: the mix)
        "ks",  # keep-tickets select: values are offer positions
        "kt",  # keep tickets: arg a hex bitmask of offer positions
        "tp",  # pay the tunnel: arg the payment index
        "ta",  # give the tunnel up
        "fl",  # Paris flag: arg a colour index, or "n" to decline
    }
)


class BadComponentId(ValueError):
    """A custom_id that is not one of ours (or names an id no game can have).

    ``code`` is ``unknown_component`` or ``bad_game_id``.
    """

    def __init__(self, code: str, custom_id: str) -> None:
        super().__init__(f"{code}: {custom_id[:MAX_CUSTOM_ID]!r}")
        self.code = code
        self.detail = {"id": custom_id[:40]}


@dataclass(frozen=True, slots=True)
class ComponentId:
    """A parsed custom_id. ``version`` is None for public buttons; ``arg`` may be empty."""

    game: int
    verb: str
    version: int | None = None
    arg: str = ""

    @property
    def private(self) -> bool:
        """True for a private menu component (it carries a version)."""
        return self.version is not None


def encode(game: int, verb: str, version: int | None = None, arg: str = "") -> str:
    """The custom_id of a component. Raises ValueError when it would break Discord's limits."""
    text = (
        f"{PREFIX}:{game}:{verb}" if version is None else f"{PREFIX}:{game}:{verb}:{version}:{arg}"
    )
    if len(text) > MAX_CUSTOM_ID or not _ID.fullmatch(text):
        raise ValueError(f"bad custom_id {text!r}")
    return text


def parse(custom_id: str) -> ComponentId:
    """Parse a custom_id; raises :class:`BadComponentId` for anything that is not ours."""
    match = _ID.fullmatch(custom_id or "")
    if match is None:
        raise BadComponentId("unknown_component", custom_id or "")
    game = int(match["game"])
    version = None if match["version"] is None else int(match["version"])
    if not 0 < game <= MAX_INT or (version is not None and version > MAX_INT):
        raise BadComponentId("bad_game_id", custom_id)
    verb = match["verb"]
    known = PRIVATE_VERBS if version is not None else PUBLIC_VERBS
    if verb not in known:
        raise BadComponentId("unknown_component", custom_id)
    return ComponentId(game, verb, version, match["arg"] or "")


def mask(positions: list[int] | tuple[int, ...]) -> str:
    """A set of small positions (< 64) as a hex bitmask."""
    value = 0
    for p in positions:
        value |= 1 << p
    return format(value, "x")


def unmask(text: str) -> list[int]:
    """The positions of a hex bitmask (ValueError when it is not hex)."""
    value = int(text or "0", 16)
    return [i for i in range(64) if value >> i & 1]
