"""Paid moves: a claim and a train station go the same way (a picker, a choice of payments, the
move), and a command may name the route or the station's city with a colour and a number of
locomotives. This module holds both kinds side by side (:data:`CLAIMING`, :data:`BUILDING`),
how a named one is found in the turn menu, and which of its payments fit what the command
said; the claim and station openers of :class:`~._play.PlayFlows` run them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.discord_app import send
from bot.host.services import Action, Cards, TableView, TurnMenu
from sentences import stories
from words import Words

from . import _prompts as prompts
from ._base import CogError


@dataclass(frozen=True, slots=True)
class Paid:
    """A route or a station city named by a command: its index in the menu, its payments and the
    positions of those that pay for what was named (a double route's track)."""

    index: int
    payments: Sequence[Cards]
    positions: list[int]


def named_route(route: str, table: TableView, menu: TurnMenu, w: Words) -> Paid:
    """The route ``route`` as the turn menu offers it, its payments narrowed to the named track
    of a double route whose tracks differ. CogError ``cannot_claim`` when it cannot be claimed now."""
    choice = menu.route_named(route)
    if choice is None:
        known = route in table.rules.board.routes
        shown = stories.route_label(table.rules, route, w) if known else send.echo(route)
        raise CogError("cannot_claim", {"route": shown})
    apart = route in choice.pay_tracks and choice.tracks_differ
    return Paid(
        choice.index,
        choice.payments,
        [i for i in range(len(choice.payments)) if not apart or choice.track(i) == route],
    )


def named_station(city: str, table: TableView, menu: TurnMenu, w: Words) -> Paid:
    """A train station in ``city`` as the turn menu offers it (Europe). CogError
    ``cannot_build_station`` when none can be built there now."""
    choice = next((c for c in menu.stations if c.city == city), None)
    if choice is None:
        known = city in table.rules.board.cities
        shown = stories.city(table.rules, city) if known else send.echo(city)
        raise CogError("cannot_build_station", {"city": shown})
    return Paid(choice.index, choice.payments, list(range(len(choice.payments))))


def fitting(paid: Paid, color: str | None, locomotives: int | None) -> list[int]:
    """The positions of ``paid``'s payments that use ``color`` (``locomotive``: only
    locomotives) and exactly ``locomotives`` locomotives; None matches any."""
    return [i for i in paid.positions if _pays_like(paid.payments[i], color, locomotives)]


def _pays_like(payment: Cards, color: str | None, locomotives: int | None) -> bool:
    """``payment`` uses ``color`` (``locomotive``: only locomotives) and ``locomotives``."""
    return (
        color is None
        or payment.get(color, 0) > 0
        or (color == "locomotive" and set(payment) == {"locomotive"})
    ) and (locomotives is None or payment.get("locomotive", 0) == locomotives)


@dataclass(frozen=True, slots=True)
class Steps:
    """How one kind of paid move goes: the ``picker`` of what to pay for, how a ``named`` one is
    found (:class:`Paid`; raises CogError), the ``pay_step`` (the choice of payments: index,
    chosen, allowed) and the action of an index and a payment."""

    picker: Callable[[TableView, TurnMenu, Words], prompts.Prompt]
    named: Callable[[str, TableView, TurnMenu, Words], Paid]
    pay_step: Callable[[TableView, TurnMenu, Words, int, int, Sequence[int]], prompts.Prompt]
    play: Callable[[TurnMenu, int, int], Action]


#: Claiming a route (/ttr claim, the Claim button).
CLAIMING = Steps(prompts.routes, named_route, prompts.payments, TurnMenu.claim)
#: Building a train station (/ttr station, the Train station button).
BUILDING = Steps(prompts.stations, named_station, prompts.station_payments, TurnMenu.build_station)

__all__ = ["BUILDING", "CLAIMING", "Paid", "Steps", "fitting", "named_route", "named_station"]
