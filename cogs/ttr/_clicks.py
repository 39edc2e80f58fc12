"""Clicks as classes: one :class:`discord.ui.DynamicItem` per kind of click, made from the kinds, and one for every other id.

Every kind in :data:`._ids.KINDS` gets its item class here, made from the
kind alone (as in discord.py's ``examples/views/dynamic_counter.py``, the
kind's ``TEMPLATE`` is the item's template), so discord.py hands a click to
exactly one class, after any restart. All of them answer the same way
(:func:`answer_click`): read the click from the id, find the method that answers
the kind (:meth:`._ids.Click.answered_by`) and the family of the /ttr cog it
belongs to, call it. Every error a click raises goes to the one error
funnel (:func:`bot.discord_app.tree.answer_error`), because discord.py only logs
exceptions of component callbacks.

:class:`OtherComponent` takes every id no kind matches: an older release's
menu id is rewritten (:func:`._ids.upgrade`) and answered as today's id; a
forged, oversize or unknown id gets a clear private error, never
"interaction failed".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import ClassVar, Self, cast

import discord
from discord.ext import commands

from bot.discord_app.tree import answer_error
from bot.process import metrics

from . import _ids as ids
from ._base import CogError
from ._commands import TtrCog

Item = discord.ui.Item[discord.ui.View]


def ttr_cog(client: discord.Client) -> TtrCog:
    """The /ttr cog of the bot that received a click (RuntimeError when it is not loaded)."""
    cog = client.get_cog(TtrCog.__cog_name__) if isinstance(client, commands.Bot) else None
    if not isinstance(cog, TtrCog):
        raise RuntimeError("the /ttr cog is not loaded")
    return cog


def chosen(values: Sequence[str]) -> tuple[int, ...]:
    """A select's chosen values as indexes (CogError ``bad_choice`` for a forged value)."""
    try:
        return ids.positions(values)
    except ValueError:
        raise CogError("bad_choice", {"reason": "not an index"}) from None


def family_of(cog: TtrCog, method: Callable[..., object]) -> object:
    """What a handler is called on: the one family of ``cog`` (``cog.play``, ``cog.menus``...)
    whose class has ``method``, or the cog itself for a function of a module (one that asks
    several families, as below). RuntimeError when none or several families have it."""
    if "." not in getattr(method, "__qualname__", "."):
        return cog
    name = getattr(method, "__name__", "")
    found = [f for f in vars(cog).values() if getattr(type(f), name, None) is method]
    if len(found) != 1:
        raise RuntimeError(f"{len(found)} families of the /ttr cog answer with {method!r}")
    return found[0]


async def answer_click(
    cog: TtrCog, interaction: discord.Interaction, click: ids.Click, values: Sequence[str]
) -> None:
    """Answer ``click`` (``values``: a select's choices) with its kind's handler."""
    if isinstance(click, ids.MenuSelect):
        click = click.choosing(chosen(values))
    handler = type(click).answered_by()
    await handler.call(family_of(cog, handler.method), interaction, click)


# ====================================================================== answers made of others
@ids.Zoom.handler
async def zoom(cog: TtrCog, interaction: discord.Interaction, click: ids.Zoom) -> None:
    """Zoom (under the hand reply): the board around the reader's ticket cities."""
    await cog.table.board(interaction, click.game, "tickets")


@ids.Log.handler
async def moves(cog: TtrCog, interaction: discord.Interaction, click: ids.Log) -> None:
    """Moves (under the game-over message): the move log since the reader's last turn."""
    await cog.record.log(interaction, click.game, None)


@ids.LogPage.handler
async def log_page(cog: TtrCog, interaction: discord.Interaction, click: ids.LogPage) -> None:
    """A page button of the move log."""
    await cog.record.log(interaction, click.game, None, page=(click.first, click.page))


# ====================================================================== one item per kind
class ClickItem(discord.ui.DynamicItem[Item], template=r"(?!)"):
    """What every kind's item shares: keep the match, answer through the cog, errors to the
    funnel. ``kind``: the kind whose ``TEMPLATE`` is the item's template."""

    kind: ClassVar[type[ids.Click]] = ids.Click

    def __init_subclass__(
        cls, *, kind: type[ids.Click] | None = None, template: str | None = None
    ) -> None:
        super().__init_subclass__(template=template or (kind or ids.Click).TEMPLATE)
        cls.kind = kind or ids.Click

    def __init__(self, item: Item, match: re.Match[str]) -> None:
        super().__init__(item)
        self.match = match

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Item, match: re.Match[str], /
    ) -> Self:
        return cls(item, match)

    async def callback(self, interaction: discord.Interaction) -> None:
        interaction.extras.setdefault("game", self.match.groupdict().get("game") or "-")
        with metrics.interaction_timer("component"):
            try:
                await self.answer(ttr_cog(interaction.client), interaction)
            except Exception as exc:  # noqa: BLE001 - one funnel for every component error
                await answer_error(interaction, exc)

    def values(self) -> list[str]:
        """A select's chosen values (empty for a button)."""
        return list(self.item.values) if isinstance(self.item, discord.ui.Select) else []

    async def answer(self, cog: TtrCog, interaction: discord.Interaction) -> None:
        """Read the click of this item's kind from the id and answer it (BadComponentId for an
        id no game can have)."""
        await answer_click(cog, interaction, self.kind.read(self.match), self.values())

    @classmethod
    def of(cls, kind: type[ids.Click]) -> type[ClickItem]:
        """The item class of ``kind``, named after it (``DrawCard`` -> ``DrawCardItem``)."""
        made = type(f"{kind.__name__}Item", (cls,), {"__doc__": kind.__doc__}, kind=kind)
        return cast(type[ClickItem], made)


#: One item class per kind of click, in the order of :data:`._ids.KINDS`.
KIND_ITEMS: tuple[type[ClickItem], ...] = tuple(ClickItem.of(kind) for kind in ids.KINDS)

#: Every id that no kind's template takes in full.
OTHER_TEMPLATE = r"(?s)(?!" + ids.any_template() + r"\Z).*"


class OtherComponent(ClickItem, template=OTHER_TEMPLATE):
    """An older release's menu id (answered as today's id of its kind), or an id that is not
    ours (BadComponentId: a private ``unknown_component`` / ``bad_game_id`` answer)."""

    async def answer(self, cog: TtrCog, interaction: discord.Interaction) -> None:
        select = isinstance(self.item, discord.ui.Select)
        await answer_click(
            cog, interaction, ids.parse(self.custom_id, select=select), self.values()
        )


#: What the bot registers (``bot.add_dynamic_items``): every kind, and the one for the rest.
ITEMS: tuple[type[ClickItem], ...] = (*KIND_ITEMS, OtherComponent)
