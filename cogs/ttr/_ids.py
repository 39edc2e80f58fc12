"""Click kinds: one class per kind of button or select, and the ids of older releases.

Every button and select the bot sends carries its meaning in its custom_id,
so a click is understood after any restart and no in-memory view is needed.
Each kind of click is one frozen dataclass here, and the class is the whole
kind: its fields, the id it builds (:attr:`Click.custom_id`), the regular
expression with named groups that reads it back (``TEMPLATE``, also the
template of the kind's :class:`discord.ui.DynamicItem` in :mod:`._clicks`)
and, once its family's module is imported, the method that answers it (put
there by the decorator :meth:`Click.handler`, or :meth:`TableButton.game_handler`
for a public button whose answer needs only the game id). Defining the class
registers it in :data:`KINDS`; nothing else lists the kinds.

- buttons under public messages: ``ttr:{game}:hand`` (also ``draw``, ``claim``,
  ``tickets``, ``board``, ``zoom``, ``log``, ``join``, ``start``, ``rematch``,
  and ``hint`` under a hint the game moved past);
  they open a fresh private menu, so they carry no version;
- private menus: ``ttr:{game}:{kind}:v{version}...``, e.g.
  ``ttr:42:card:v17:deck``, ``ttr:42:claim-confirm:v17:route:5:payment:2``,
  ``ttr:42:hint-do:v17:action:12`` (Do it under a hint).
  The version is the game version the menu was made at: a click made on
  another version is stale and is answered with the current menu;
- a player's own data, not a game's: ``ttr:forget-me:user:{user}:{step}``
  (only that user may click it);
- a tournament's sign-up message: ``ttr:tournament:{tournament}:{step}`` (join, leave,
  standings).

Older releases wrote private ids with two-letter verbs
(``ttr:{game}:{verb}:{version}:{arg}``, e.g. ``ttr:42:dr:17:d``); menus with
such ids may still sit in players' private replies. :func:`upgrade` rewrites
one into today's id, so it is answered by the same code as a new click.

A feature's kinds may live in a module of their own (:mod:`._seat_ids`: Accept and
Decline under a seat offer): subclass :class:`Click` there as here; the definition
registers the kind, so that module must be imported (by the family that answers it) before
:mod:`._clicks` makes the items, and its ids must match no other kind's template.

Dataclasses and pure functions: discord is named only in type hints. Discord
limits custom_ids to 100 characters.
"""

from __future__ import annotations

import dataclasses
import inspect
import re
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, Concatenate, ParamSpec, Self, TypeVar, cast

if TYPE_CHECKING:
    import discord

PREFIX = "ttr"
MAX_CUSTOM_ID = 100
#: Game ids and versions are SQL integers: anything larger is not ours.
MAX_INT = 2**63 - 1

GAME = r"ttr:(?P<game>[0-9]{1,19})"
VERSION = r"v(?P<version>[0-9]{1,19})"
SMALL = "[0-9]{1,4}"
#: A page number: ``-1`` is the page before the first (the disabled ◀ of page 1), so the
#: three page buttons (◀, "page n of m", ▶) always have three different ids.
PAGE = "-1|[0-9]{1,4}"

#: The family (a part of the /ttr cog such as ``MenuClicks``) whose method answers a kind.
Family = TypeVar("Family")
#: A handler's further parameters (with defaults: a click never passes them).
More = ParamSpec("More")
#: How :mod:`._clicks` calls an answer: (family, interaction, click).
Answer = Callable[[object, "discord.Interaction", "Click"], Awaitable[None]]


class BadComponentId(ValueError):
    """A custom_id that is not one of ours (or names an id no game can have).

    ``code`` is ``unknown_component`` or ``bad_game_id``; ``detail`` names the id
    (its first 40 characters).
    """

    def __init__(self, code: str, custom_id: str) -> None:
        super().__init__(f"{code}: {custom_id[:MAX_CUSTOM_ID]!r}")
        self.code = code
        self.detail = {"id": custom_id[:40]}


def _whole(value: str | None, custom_id: str) -> int:
    """A game id or version read from an id (BadComponentId ``bad_game_id`` beyond SQL's range)."""
    number = int(value or 0)
    if number > MAX_INT:
        raise BadComponentId("bad_game_id", custom_id)
    return number


@dataclass(frozen=True)
class Handler:
    """What answers one kind: ``method`` as written in its family's class (how :mod:`._clicks`
    finds the family on the cog; a module's function is given the cog itself), ``call`` how to
    call it with a click."""

    method: Callable[..., Awaitable[None]]
    call: Answer


#: Every kind of click, each read by its own template, in the order the classes are defined
#: (filled by :meth:`Click.__init_subclass__`: a class with its own ``TEMPLATE`` is a kind).
KINDS: list[type[Click]] = []


@dataclass(frozen=True)
class Click:
    """A click on one of the bot's components, in game ``game``.

    A subclass that sets ``TEMPLATE`` is a kind: it is registered in :data:`KINDS`, and
    its family answers it through :meth:`handler`. Kinds are plain ``dataclass(frozen=True)``:
    ``slots=True`` would build a second class after the one registered.
    """

    TEMPLATE: ClassVar[str] = r"(?!)"
    #: The kind's own handler (in the kind's class ``__dict__`` only; see :meth:`answered_by`).
    _handler: ClassVar[Handler | None] = None

    game: int

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if "TEMPLATE" in cls.__dict__:
            KINDS.append(cls)

    @property
    def custom_id(self) -> str:
        """The id to send (ValueError when it would break Discord's limits)."""
        text = self._text()
        if len(text) > MAX_CUSTOM_ID or not re.fullmatch(self.TEMPLATE, text):
            raise ValueError(f"bad custom_id {text!r}")
        return text

    def _text(self) -> str:
        raise NotImplementedError

    @classmethod
    def read(cls, match: re.Match[str]) -> Self:
        """The click from a fullmatch of ``TEMPLATE`` (BadComponentId ``bad_game_id`` for an
        id no game can have)."""
        game = _whole(match["game"], match.string)
        if game <= 0:
            raise BadComponentId("bad_game_id", match.string)
        return cls._fields(game, match)

    @classmethod
    def _fields(cls, game: int, match: re.Match[str]) -> Self:
        return cls(game)

    # ------------------------------------------------------------ who answers
    @classmethod
    def handler(
        cls, method: Callable[Concatenate[Family, discord.Interaction, Self, More], Awaitable[None]]
    ) -> Callable[Concatenate[Family, discord.Interaction, Self, More], Awaitable[None]]:
        """Decorator: ``method`` (of a family class of the /ttr cog, e.g. ``MenuClicks``)
        answers this kind, called with the click. Returns ``method`` unchanged, so one method
        may answer several kinds.

        Raises TypeError when the kind already has its handler, or when ``method`` has a
        further parameter without a default (a click passes only these three).
        """
        cls._answered_by(Handler(method, cast(Answer, method)))
        return method

    @classmethod
    def _answered_by(cls, handler: Handler) -> None:
        """Make ``handler`` this kind's (TypeError: see :meth:`handler`)."""
        if "_handler" in cls.__dict__:
            raise TypeError(f"{cls.__name__} is already answered by {cls.__dict__['_handler']}")
        further = list(inspect.signature(handler.method).parameters.values())[3:]
        if any(
            p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
            for p in further
        ):
            raise TypeError(f"{handler.method!r} needs more than a click gives")
        cls._handler = handler  # a class attribute: the instances stay frozen

    @classmethod
    def answered_by(cls) -> Handler:
        """This kind's handler (LookupError while its family's module is not imported)."""
        found = cls.__dict__.get("_handler")
        if not isinstance(found, Handler):
            raise LookupError(f"no handler answers {cls.__name__} clicks")
        return found

    def choosing(self, values: tuple[int, ...]) -> Self:
        """This click with a select's chosen ``values`` (a button has none: itself)."""
        return self


# ====================================================================== public buttons
@dataclass(frozen=True)
class TableButton(Click):
    """A button under a public message: the same for everyone, opens a private answer."""

    NAME: ClassVar[str] = ""

    def _text(self) -> str:
        return f"{PREFIX}:{self.game}:{self.NAME}"

    @classmethod
    def game_handler(
        cls, method: Callable[Concatenate[Family, discord.Interaction, int, More], Awaitable[None]]
    ) -> Callable[Concatenate[Family, discord.Interaction, int, More], Awaitable[None]]:
        """Decorator: ``method`` answers this button given only the game id (the method a
        slash command calls too). Returns ``method`` unchanged.

        Raises TypeError as :meth:`Click.handler` does.
        """
        by_game = cast(Callable[[object, "discord.Interaction", int], Awaitable[None]], method)

        async def call(family: object, interaction: discord.Interaction, click: Click) -> None:
            await by_game(family, interaction, click.game)

        cls._answered_by(Handler(method, call))
        return method


@dataclass(frozen=True)
class Hand(TableButton):
    """My hand: cards, tickets and the pending choice, privately."""

    NAME = "hand"
    TEMPLATE = GAME + ":hand"


@dataclass(frozen=True)
class Draw(TableButton):
    """Draw: the card-draw menu."""

    NAME = "draw"
    TEMPLATE = GAME + ":draw"


@dataclass(frozen=True)
class Claim(TableButton):
    """Claim: the route picker."""

    NAME = "claim"
    TEMPLATE = GAME + ":claim"


@dataclass(frozen=True)
class Station(TableButton):
    """Station (Europe): the city picker of the train station to build."""

    NAME = "station"
    TEMPLATE = GAME + ":station"


@dataclass(frozen=True)
class Tickets(TableButton):
    """Tickets: the destination ticket draw."""

    NAME = "tickets"
    TEMPLATE = GAME + ":tickets"


@dataclass(frozen=True)
class Board(TableButton):
    """Board: the board image and the status, privately."""

    NAME = "board"
    TEMPLATE = GAME + ":board"


@dataclass(frozen=True)
class Phone(TableButton):
    """Phone board (under the turn and game-over messages): the board 500 px wide, privately."""

    NAME = "phone"
    TEMPLATE = GAME + ":phone"


@dataclass(frozen=True)
class Zoom(TableButton):
    """Zoom (under the hand reply): the board around the reader's ticket cities."""

    NAME = "zoom"
    TEMPLATE = GAME + ":zoom"


@dataclass(frozen=True)
class Log(TableButton):
    """Moves (under the game-over message): the move log."""

    NAME = "log"
    TEMPLATE = GAME + ":log"


@dataclass(frozen=True)
class Join(TableButton):
    """Join (under the lobby message)."""

    NAME = "join"
    TEMPLATE = GAME + ":join"


@dataclass(frozen=True)
class Start(TableButton):
    """Start (under the lobby message; the host only)."""

    NAME = "start"
    TEMPLATE = GAME + ":start"


@dataclass(frozen=True)
class TakeSeat(TableButton):
    """Join from the server's list of open tables or the looking-for-players ping: seats the
    clicker in that game, whichever channel the list is in."""

    NAME = "seat"
    TEMPLATE = GAME + ":seat"


@dataclass(frozen=True)
class Follow(TableButton):
    """Follow (under the lobby and the turn messages): a direct message when the game ends."""

    NAME = "follow"
    TEMPLATE = GAME + ":follow"


@dataclass(frozen=True)
class Activity(TableButton):
    """Open in Discord (beside the Live board link, where the live board is also the
    application's Activity): launches the Activity in the game's channel."""

    NAME = "activity"
    TEMPLATE = GAME + ":activity"


@dataclass(frozen=True)
class Hint(TableButton):
    """A fresh hint (under a hint the game moved past): what ``/ttr hint`` answers."""

    NAME = "hint"
    TEMPLATE = GAME + ":hint"


@dataclass(frozen=True)
class Rematch(TableButton):
    """Rematch (under the game-over message): a new lobby with the same map and options."""

    NAME = "rematch"
    TEMPLATE = GAME + ":rematch"


# ====================================================================== private menus
@dataclass(frozen=True)
class MenuClick(Click):
    """A click on a private menu made at game version ``version``."""

    version: int

    @classmethod
    def _fields(cls, game: int, match: re.Match[str]) -> Self:
        return cls._menu_fields(game, _whole(match["version"], match.string), match)

    @classmethod
    def _menu_fields(cls, game: int, version: int, match: re.Match[str]) -> Self:
        return cls(game, version)


@dataclass(frozen=True)
class MenuSelect(MenuClick):
    """A select on a private menu; ``chosen``: the positions the player picked (what the
    select sent with the click, not part of the id)."""

    chosen: tuple[int, ...] = field(default=(), kw_only=True)

    def choosing(self, values: tuple[int, ...]) -> Self:
        """This click with the select's chosen ``values``."""
        return dataclasses.replace(self, chosen=values)


@dataclass(frozen=True)
class DrawCard(MenuClick):
    """Take a card: from the deck (``slot`` None) or face-up slot ``slot`` (0-based)."""

    TEMPLATE = GAME + ":card:" + VERSION + f":(?:deck|slot:(?P<slot>{SMALL}))"

    slot: int | None = None

    def _text(self) -> str:
        source = "deck" if self.slot is None else f"slot:{self.slot}"
        return f"{PREFIX}:{self.game}:card:v{self.version}:{source}"

    @classmethod
    def _menu_fields(cls, game: int, version: int, match: re.Match[str]) -> Self:
        return cls(game, version, None if match["slot"] is None else int(match["slot"]))


@dataclass(frozen=True)
class RoutePage(MenuClick):
    """A page of the route picker (``page`` 0-based; see :data:`PAGE`)."""

    TEMPLATE = GAME + ":route-page:" + VERSION + f":(?P<page>{PAGE})"

    page: int = 0

    def _text(self) -> str:
        return f"{PREFIX}:{self.game}:route-page:v{self.version}:{self.page}"

    @classmethod
    def _menu_fields(cls, game: int, version: int, match: re.Match[str]) -> Self:
        return cls(game, version, int(match["page"]))


@dataclass(frozen=True)
class RoutePick(MenuSelect):
    """The route picker's select (on page ``page``); its value is the chosen route's index."""

    TEMPLATE = GAME + ":route-pick:" + VERSION + f":(?P<page>{SMALL})"

    page: int = 0

    def _text(self) -> str:
        return f"{PREFIX}:{self.game}:route-pick:v{self.version}:{self.page}"

    @classmethod
    def _menu_fields(cls, game: int, version: int, match: re.Match[str]) -> Self:
        return cls(game, version, int(match["page"]))


@dataclass(frozen=True)
class PaymentPick(MenuSelect):
    """The payment select of route ``route`` (its index); its value is the payment's index."""

    TEMPLATE = GAME + ":payment-pick:" + VERSION + f":route:(?P<route>{SMALL})"

    route: int = 0

    def _text(self) -> str:
        return f"{PREFIX}:{self.game}:payment-pick:v{self.version}:route:{self.route}"

    @classmethod
    def _menu_fields(cls, game: int, version: int, match: re.Match[str]) -> Self:
        return cls(game, version, int(match["route"]))


@dataclass(frozen=True)
class ClaimConfirm(MenuClick):
    """Claim route ``route`` paying its ``payment``-th way (both indexes of the menu)."""

    TEMPLATE = (
        GAME
        + ":claim-confirm:"
        + VERSION
        + f":route:(?P<route>{SMALL}):payment:(?P<payment>{SMALL})"
    )

    route: int = 0
    payment: int = 0

    def _text(self) -> str:
        return (
            f"{PREFIX}:{self.game}:claim-confirm:v{self.version}"
            f":route:{self.route}:payment:{self.payment}"
        )

    @classmethod
    def _menu_fields(cls, game: int, version: int, match: re.Match[str]) -> Self:
        return cls(game, version, int(match["route"]), int(match["payment"]))


@dataclass(frozen=True)
class ClaimSure(MenuClick):
    """Claim route ``route`` paying its ``payment``-th way, the one more click of a player who
    asked for it (``/ttr player settings confirm_claims:``)."""

    TEMPLATE = (
        GAME + ":claim-sure:" + VERSION + f":route:(?P<route>{SMALL}):payment:(?P<payment>{SMALL})"
    )

    route: int = 0
    payment: int = 0

    def _text(self) -> str:
        return (
            f"{PREFIX}:{self.game}:claim-sure:v{self.version}"
            f":route:{self.route}:payment:{self.payment}"
        )

    @classmethod
    def _menu_fields(cls, game: int, version: int, match: re.Match[str]) -> Self:
        return cls(game, version, int(match["route"]), int(match["payment"]))


@dataclass(frozen=True)
class ClaimCancel(MenuClick):
    """Close the claim menu without claiming."""

    TEMPLATE = GAME + ":claim-cancel:" + VERSION

    def _text(self) -> str:
        return f"{PREFIX}:{self.game}:claim-cancel:v{self.version}"


@dataclass(frozen=True)
class StationPage(MenuClick):
    """A page of the station city picker (``page`` 0-based; see :data:`PAGE`)."""

    TEMPLATE = GAME + ":station-page:" + VERSION + f":(?P<page>{PAGE})"

    page: int = 0

    def _text(self) -> str:
        return f"{PREFIX}:{self.game}:station-page:v{self.version}:{self.page}"

    @classmethod
    def _menu_fields(cls, game: int, version: int, match: re.Match[str]) -> Self:
        return cls(game, version, int(match["page"]))


@dataclass(frozen=True)
class StationPick(MenuSelect):
    """The station city picker's select (on page ``page``); its value is the city's index."""

    TEMPLATE = GAME + ":station-pick:" + VERSION + f":(?P<page>{SMALL})"

    page: int = 0

    def _text(self) -> str:
        return f"{PREFIX}:{self.game}:station-pick:v{self.version}:{self.page}"

    @classmethod
    def _menu_fields(cls, game: int, version: int, match: re.Match[str]) -> Self:
        return cls(game, version, int(match["page"]))


@dataclass(frozen=True)
class StationConfirm(MenuClick):
    """Build a train station in city ``city`` paying its ``payment``-th way (menu indexes)."""

    TEMPLATE = (
        GAME
        + ":station-confirm:"
        + VERSION
        + f":city:(?P<city>{SMALL}):payment:(?P<payment>{SMALL})"
    )

    city: int = 0
    payment: int = 0

    def _text(self) -> str:
        return (
            f"{PREFIX}:{self.game}:station-confirm:v{self.version}"
            f":city:{self.city}:payment:{self.payment}"
        )

    @classmethod
    def _menu_fields(cls, game: int, version: int, match: re.Match[str]) -> Self:
        return cls(game, version, int(match["city"]), int(match["payment"]))


@dataclass(frozen=True)
class TicketDraw(MenuClick):
    """Draw destination tickets: the ``mix``-th allowed draw (Germany: a short/long mix)."""

    TEMPLATE = GAME + ":ticket-draw:" + VERSION + f":mix:(?P<mix>{SMALL})"

    mix: int = 0

    def _text(self) -> str:
        return f"{PREFIX}:{self.game}:ticket-draw:v{self.version}:mix:{self.mix}"

    @classmethod
    def _menu_fields(cls, game: int, version: int, match: re.Match[str]) -> Self:
        return cls(game, version, int(match["mix"]))


@dataclass(frozen=True)
class KeepPick(MenuSelect):
    """The keep-tickets select; its values are the chosen offer positions."""

    TEMPLATE = GAME + ":keep-pick:" + VERSION

    def _text(self) -> str:
        return f"{PREFIX}:{self.game}:keep-pick:v{self.version}"


@dataclass(frozen=True)
class Keep(MenuClick):
    """Keep the offered tickets at ``tickets`` (offer positions, 0-based)."""

    TEMPLATE = GAME + ":keep:" + VERSION + r":tickets:(?P<tickets>(?:[0-9]{1,2}(?:\.[0-9]{1,2})*)?)"

    tickets: tuple[int, ...] = ()

    def _text(self) -> str:
        positions = ".".join(str(p) for p in self.tickets)
        return f"{PREFIX}:{self.game}:keep:v{self.version}:tickets:{positions}"

    @classmethod
    def _menu_fields(cls, game: int, version: int, match: re.Match[str]) -> Self:
        text = match["tickets"]
        return cls(game, version, tuple(int(p) for p in text.split(".")) if text else ())


@dataclass(frozen=True)
class TunnelPay(MenuClick):
    """Pay the tunnel's extra cards the ``payment``-th way."""

    TEMPLATE = GAME + ":tunnel-pay:" + VERSION + f":payment:(?P<payment>{SMALL})"

    payment: int = 0

    def _text(self) -> str:
        return f"{PREFIX}:{self.game}:tunnel-pay:v{self.version}:payment:{self.payment}"

    @classmethod
    def _menu_fields(cls, game: int, version: int, match: re.Match[str]) -> Self:
        return cls(game, version, int(match["payment"]))


@dataclass(frozen=True)
class TunnelGiveUp(MenuClick):
    """Give the tunnel up and take the cards back."""

    TEMPLATE = GAME + ":tunnel-give-up:" + VERSION

    def _text(self) -> str:
        return f"{PREFIX}:{self.game}:tunnel-give-up:v{self.version}"


@dataclass(frozen=True)
class Flag(MenuClick):
    """Paris: set aside the ``card``-th offered colour for a French flag, or none (``card`` None)."""

    TEMPLATE = GAME + ":flag:" + VERSION + f":(?:none|card:(?P<card>{SMALL}))"

    card: int | None = None

    def _text(self) -> str:
        choice = "none" if self.card is None else f"card:{self.card}"
        return f"{PREFIX}:{self.game}:flag:v{self.version}:{choice}"

    @classmethod
    def _menu_fields(cls, game: int, version: int, match: re.Match[str]) -> Self:
        return cls(game, version, None if match["card"] is None else int(match["card"]))


#: A hinted action's place in the player's legal actions (payments make the lists long).
ACTION = "[0-9]{1,6}"


@dataclass(frozen=True)
class HintDo(MenuClick):
    """Do it (under a hint): plays the hinted action (a risky one after a confirm), the
    ``action``-th of the player's legal actions at ``version``."""

    TEMPLATE = GAME + ":hint-do:" + VERSION + f":action:(?P<action>{ACTION})"

    action: int = 0

    def _text(self) -> str:
        return f"{PREFIX}:{self.game}:hint-do:v{self.version}:action:{self.action}"

    @classmethod
    def _menu_fields(cls, game: int, version: int, match: re.Match[str]) -> Self:
        return cls(game, version, int(match["action"]))


@dataclass(frozen=True)
class HintConfirm(HintDo):
    """Confirm Do it for a risky hinted action (a tunnel with no spare card): play it."""

    TEMPLATE = GAME + ":hint-confirm:" + VERSION + f":action:(?P<action>{ACTION})"

    def _text(self) -> str:
        return f"{PREFIX}:{self.game}:hint-confirm:v{self.version}:action:{self.action}"


@dataclass(frozen=True)
class HintCancel(MenuClick):
    """Do not play the hinted action after all."""

    TEMPLATE = GAME + ":hint-cancel:" + VERSION

    def _text(self) -> str:
        return f"{PREFIX}:{self.game}:hint-cancel:v{self.version}"


@dataclass(frozen=True)
class LogPage(Click):
    """A page of the move log: the log from turn record ``first`` on, page ``page`` (0-based;
    see :data:`PAGE`)."""

    TEMPLATE = GAME + f":log-page:from:(?P<first>{SMALL}):page:(?P<page>{PAGE})"

    first: int = 0
    page: int = 0

    def _text(self) -> str:
        return f"{PREFIX}:{self.game}:log-page:from:{self.first}:page:{self.page}"

    @classmethod
    def _fields(cls, game: int, match: re.Match[str]) -> Self:
        return cls(game, int(match["first"]), int(match["page"]))


# ====================================================================== a player's own data
@dataclass(frozen=True)
class AccountClick(Click):
    """A click about a player's own data, not about a game (``game`` is 0): it names the
    ``user`` it was made for, and only that user may click it."""

    user: int = 0

    @classmethod
    def read(cls, match: re.Match[str]) -> Self:
        """The click from a fullmatch of ``TEMPLATE`` (BadComponentId ``unknown_component``
        for a user id that cannot exist)."""
        user = int(match["user"] or 0)
        if not 0 < user <= MAX_INT:
            raise BadComponentId("unknown_component", match.string)
        return cls._account_fields(user, match)

    @classmethod
    def _account_fields(cls, user: int, match: re.Match[str]) -> Self:
        return cls(0, user)


@dataclass(frozen=True)
class ForgetMe(AccountClick):
    """The buttons of forgetting (``/ttr privacy``): ``step`` ``ask`` (what would be deleted?),
    ``confirm`` (forget me now), ``resign`` (resign and leave my games first, then forget me)
    or ``keep`` (delete nothing)."""

    TEMPLATE = PREFIX + r":forget-me:user:(?P<user>[0-9]{1,19}):(?P<step>ask|confirm|resign|keep)"
    STEPS: ClassVar[tuple[str, ...]] = ("ask", "confirm", "resign", "keep")

    step: str = "keep"

    def _text(self) -> str:
        return f"{PREFIX}:forget-me:user:{self.user}:{self.step}"

    @classmethod
    def _account_fields(cls, user: int, match: re.Match[str]) -> Self:
        return cls(0, user, match["step"])


# ====================================================================== tournaments
@dataclass(frozen=True)
class TournamentButton(Click):
    """A button under a tournament's public sign-up message, the same for everyone: ``game``
    holds the tournament's id (not a game's), ``step`` is ``join`` (sign up), ``leave`` or
    ``standings`` (privately)."""

    TEMPLATE = PREFIX + r":tournament:(?P<game>[0-9]{1,19}):(?P<step>join|leave|standings)"

    step: str = "standings"

    @property
    def tournament(self) -> int:
        """The tournament's id."""
        return self.game

    def _text(self) -> str:
        return f"{PREFIX}:tournament:{self.game}:{self.step}"

    @classmethod
    def _fields(cls, game: int, match: re.Match[str]) -> Self:
        return cls(game, match["step"])


def parse(custom_id: str, *, select: bool = False) -> Click:
    """The click an id means: today's ids, or an older release's (see :func:`upgrade`).

    ``select``: the id belongs to a select (older releases used one id for the route
    picker's select and its page buttons). Raises :class:`BadComponentId` for anything
    that is not ours.
    """
    text = upgrade(custom_id, select=select)
    for kind in KINDS:
        match = re.fullmatch(kind.TEMPLATE, text)
        if match is not None:
            return kind.read(match)
    raise BadComponentId("unknown_component", custom_id)


def any_template(kinds: Iterable[type[Click]] | None = None) -> str:
    """One pattern that fully matches exactly the ids of ``kinds`` (all kinds when None;
    groups unnamed)."""
    bare = (
        re.sub(r"\(\?P<\w+>", "(?:", kind.TEMPLATE) for kind in (KINDS if kinds is None else kinds)
    )
    return "(?:" + "|".join(bare) + ")"


# ====================================================================== ids of older releases
_OLD = re.compile(
    r"ttr:(?P<game>[0-9]{1,19}):(?P<verb>[a-z]{2})"
    r":(?P<version>[0-9]{1,19}):(?P<arg>[A-Za-z0-9._-]{0,40})"
)


def _old_keep(arg: str) -> str:
    """Offer positions from an old hex bitmask (``x``, which no template takes, when it is not hex)."""
    try:
        value = int(arg or "0", 16)
    except ValueError:
        return "x"
    return ".".join(str(i) for i in range(64) if value >> i & 1)


def _old_pair(arg: str) -> tuple[str, str]:
    first, _, second = arg.partition(".")
    return first, second or "0"


def _old_menu_id(verb: str, arg: str, *, select: bool) -> str | None:
    """Today's id text after ``ttr:{game}:`` for an old private menu verb, or None."""
    if verb == "cr":
        return f"route-pick:{{v}}:{arg or 0}" if select else f"route-page:{{v}}:{arg or 0}"
    if verb == "cc":
        route, payment = _old_pair(arg)
        return f"claim-confirm:{{v}}:route:{route}:payment:{payment}"
    if verb == "fl":
        return "flag:{v}:none" if arg == "n" else f"flag:{{v}}:card:{arg}"
    if verb == "dr":
        return "card:{v}:deck" if arg == "d" else f"card:{{v}}:slot:{arg}"
    if verb == "kt":
        return f"keep:{{v}}:tickets:{_old_keep(arg)}"
    simple = {
        "cs": f"payment-pick:{{v}}:route:{arg}",
        "cx": "claim-cancel:{v}",
        "td": f"ticket-draw:{{v}}:mix:{arg or 0}",
        "ks": "keep-pick:{v}",
        "tp": f"tunnel-pay:{{v}}:payment:{arg}",
        "ta": "tunnel-give-up:{v}",
    }
    return simple.get(verb)


def upgrade(custom_id: str, *, select: bool = False) -> str:
    """``custom_id`` as today's id: an older release's private menu id is rewritten
    (``ttr:42:dr:17:d`` -> ``ttr:42:card:v17:deck``); today's ids come back unchanged.

    Public buttons kept their ids (``ttr:{game}:{button}``). Raises
    :class:`BadComponentId` (``unknown_component``) for an id that is neither.
    """
    text = custom_id or ""
    if re.fullmatch(any_template(), text):
        return text
    old = _OLD.fullmatch(text)
    if old is not None:
        verb, arg, version = old["verb"], old["arg"], old["version"]
        if verb == "lg":  # the old log pages carried a version they never used
            first, page = _old_pair(arg)
            new = f"{PREFIX}:{old['game']}:log-page:from:{first}:page:{page}"
        else:
            rest = _old_menu_id(verb, arg, select=select)
            new = "" if rest is None else f"{PREFIX}:{old['game']}:" + rest.format(v=f"v{version}")
        if re.fullmatch(any_template(), new):
            return new
    raise BadComponentId("unknown_component", text)


def positions(values: Sequence[str]) -> tuple[int, ...]:
    """A select's chosen values as small positions (ValueError when one is not a number)."""
    return tuple(int(v) for v in values)
