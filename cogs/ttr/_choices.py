"""Autocomplete of /ttr claim, /ttr station and /ttr board: the reader's claimable routes, the
colours in their hand, the cities where their next train station can stand (with its cost) and
the places the board zooms to; and of every ``map`` option: the loaded maps.

Each answers quietly (an empty list) when the channel has no game or the reader no menu.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import discord
from discord.app_commands import Choice

from bot.discord_app import send
from bot.host.services import GameServicePort, TableView
from sentences import texts as fmt

from . import _prompts as prompts
from ._base import Base
from ._lobby import LobbyFlows
from ._table import fold

#: The open game of the interaction's channel (``TtrCog.here``), or the one it shows
#: (``TtrCog.shown``: the open one, else the last finished one).
Here = Callable[[discord.Interaction], Awaitable[int]]


async def _table(
    service: GameServicePort, here: Here, interaction: discord.Interaction
) -> TableView | None:
    try:
        return await service.queries.table(await here(interaction), interaction.user.id)
    except Exception:  # noqa: BLE001 - autocomplete answers quietly
        return None


async def routes(
    service: GameServicePort, here: Here, interaction: discord.Interaction, current: str
) -> list[Choice[str]]:
    """The routes the reader can claim now whose label or id contains ``current``, the ones on
    their ticket plans first (★)."""
    table = await _table(service, here, interaction)
    if table is None or table.menu is None:
        return []
    w = Base.words(interaction, table)
    needle = current.lower()
    out = []
    for choice in table.menu.claims:
        label = fmt.claim_label(table.rules, choice, w)
        if needle in label.lower() or any(needle in r for r in choice.tracks):
            out.append((("★ " if choice.planned else "") + label, choice.route))
    return send.choices(out)


async def colors(
    service: GameServicePort, here: Here, interaction: discord.Interaction, current: str
) -> list[Choice[str]]:
    """The colours in the reader's hand whose name contains ``current``."""
    table = await _table(service, here, interaction)
    if table is None or table.mine is None:
        return []
    w = Base.words(interaction, table)
    return send.choices(
        (w.color(c), c)
        for c, n in sorted(table.mine.hand.items())
        if n and current.lower() in w.color(c).lower()
    )


async def station_cities(
    service: GameServicePort, here: Here, interaction: discord.Interaction, current: str
) -> list[Choice[str]]:
    """Europe: the cities where the reader can build their next train station now, with its cost
    (``Madrid (2 cards)``), whose label or id contains ``current``."""
    table = await _table(service, here, interaction)
    if table is None or table.menu is None:
        return []
    w = Base.words(interaction, table)
    needle = current.lower()
    return send.choices(
        (label, c.city)
        for c in table.menu.stations
        for label in (prompts.station_label(table, c, w),)
        if needle in label.lower() or needle in c.city
    )


async def regions(
    service: GameServicePort, shown: Here, interaction: discord.Interaction, current: str
) -> list[Choice[str]]:
    """``/ttr board region:``: "Your tickets" (for a player of the shown game), then the map's
    cities whose name contains ``current`` (accents and case ignored), alphabetically."""
    table = await _table(service, shown, interaction)
    if table is None:
        return []
    w = Base.words(interaction, table)
    out = [(w.t("Your {tickets}"), "tickets")] if table.mine else []
    needle = fold(current)
    for city in sorted(table.rules.board.cities.values(), key=lambda c: fold(c.name)):
        if needle in fold(city.name):
            out.append((city.name, city.name))
    return send.choices(out)


async def map_names(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """The maps whose name matches ``current`` (the autocomplete of every ``map`` option)."""
    return send.choices(LobbyFlows.map_choices(current, interaction.locale))
