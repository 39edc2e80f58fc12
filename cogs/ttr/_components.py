"""Buttons and selects that survive restarts: every click is routed by its custom_id alone.

One :class:`discord.ui.DynamicItem` class matches EVERY custom_id the bot receives (buttons and selects), so no click ever goes unanswered
("interaction failed"): ours are parsed (:mod:`._ids`) and handed to the
router the /ttr cog installs on the bot; anything else (a forged, oversized
or unknown id) gets a clear private error. Views are only used to serialise
components: they are stopped before sending, so nothing lives in memory and
nothing goes dead when a view times out.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import discord

from bot.tree import answer_error

from ._ids import ComponentId, parse

log = logging.getLogger(__name__)

#: Discord's layout limits.
MAX_ROWS = 5
MAX_PER_ROW = 5


class ComponentRouter(Protocol):
    """Who handles a parsed click (the /ttr cog)."""

    async def on_component(
        self, interaction: discord.Interaction, cid: ComponentId, values: list[str]
    ) -> None:
        """Answer the click on component ``cid`` (``values``: a select's chosen values)."""


def _router(interaction: discord.Interaction) -> ComponentRouter | None:
    router = getattr(interaction.client, "ttr_router", None)
    return router  # type: ignore[no-any-return]


async def _route(interaction: discord.Interaction, custom_id: str, values: list[str]) -> None:
    try:
        cid = parse(custom_id)
        interaction.extras["game"] = cid.game
        router = _router(interaction)
        if router is None:
            raise RuntimeError("the /ttr cog is not loaded")
        await router.on_component(interaction, cid, values)
    except Exception as exc:  # noqa: BLE001 - one funnel for every component error
        await answer_error(interaction, exc)


class AnyComponent(discord.ui.DynamicItem[discord.ui.Item[Any]], template=r"(?s)(?P<id>.*)"):
    """Every button click and select choice reaches :meth:`callback` (see the module docstring).

    One class for both kinds: discord.py schedules every matching dynamic
    item, so two catch-all classes would each see every click.
    """

    def __init__(self, item: discord.ui.Item[Any]) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> AnyComponent:
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        values: list[str] = []
        if isinstance(self.item, discord.ui.Select):
            data: Any = interaction.data or {}
            values = [str(v) for v in data.get("values", [])]
        await _route(interaction, self.custom_id, values)


# ====================================================================== building components
@dataclass(frozen=True, slots=True)
class Btn:
    """A button to send: its label, custom_id, style and whether it is disabled."""

    label: str
    custom_id: str
    style: discord.ButtonStyle = discord.ButtonStyle.secondary
    disabled: bool = False


@dataclass(frozen=True, slots=True)
class Pick:
    """A select to send: options as ``(label, value, preselected)``, how many may be chosen."""

    custom_id: str
    options: tuple[tuple[str, str, bool], ...]
    placeholder: str = ""
    least: int = 1
    most: int = 1


def components(*rows: Sequence[Btn] | Pick) -> discord.ui.View:
    """A stopped (memory-free) view holding ``rows``: each a select or up to five buttons.

    Extra rows and buttons beyond Discord's limits are left out (callers page
    long lists instead of relying on this).
    """
    view = discord.ui.View(timeout=None)
    for row, content in enumerate(rows[:MAX_ROWS]):
        if isinstance(content, Pick):
            opts = [
                discord.SelectOption(label=label[:100], value=value, default=chosen)
                for label, value, chosen in content.options[:25]
            ]
            if not opts:
                continue
            select: discord.ui.Select[Any] = discord.ui.Select(
                custom_id=content.custom_id,
                options=opts,
                placeholder=content.placeholder[:150] or None,
                min_values=min(content.least, len(opts)),
                max_values=min(max(content.most, 1), len(opts)),
                row=row,
            )
            view.add_item(select)
            continue
        for b in content[:MAX_PER_ROW]:
            view.add_item(
                discord.ui.Button(
                    label=b.label[:80],
                    custom_id=b.custom_id,
                    style=b.style,
                    disabled=b.disabled,
                    row=row,
                )
            )
    view.stop()
    return view


def button_rows(buttons: Sequence[Btn]) -> list[list[Btn]]:
    """``buttons`` split into rows of five."""
    return [list(buttons[i : i + MAX_PER_ROW]) for i in range(0, len(buttons), MAX_PER_ROW)]
