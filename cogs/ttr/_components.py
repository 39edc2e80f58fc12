"""Building the buttons and selects the bot sends: rows of :class:`Btn` and :class:`Pick`.

Views are only used to serialise components: they are stopped before
sending, so nothing lives in memory and nothing goes dead when a view times
out. Clicks are answered by their custom_id alone (:mod:`._ids` builds the
ids, :mod:`._clicks` answers them), after any restart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import discord

#: Discord's layout limits.
MAX_ROWS = 5
MAX_PER_ROW = 5


@dataclass(frozen=True, slots=True)
class Btn:
    """A button to send: its label, custom_id, style and whether it is disabled."""

    label: str
    custom_id: str
    style: discord.ButtonStyle = discord.ButtonStyle.secondary
    disabled: bool = False


@dataclass(frozen=True, slots=True)
class Pick:
    """A select to send: options as ``(label, value, preselected)``, how many may be chosen;
    ``descriptions``: a second line per option (by position; missing or empty: none)."""

    custom_id: str
    options: tuple[tuple[str, str, bool], ...]
    placeholder: str = ""
    least: int = 1
    most: int = 1
    descriptions: tuple[str, ...] = ()


def components(*rows: Sequence[Btn] | Pick) -> discord.ui.View:
    """A stopped (memory-free) view holding ``rows``: each a select or up to five buttons.

    Extra rows and buttons beyond Discord's limits are left out (callers page
    long lists instead of relying on this).
    """
    view = discord.ui.View(timeout=None)
    for row, content in enumerate(rows[:MAX_ROWS]):
        if isinstance(content, Pick):
            notes = list(content.descriptions) + [""] * len(content.options)
            opts = [
                discord.SelectOption(
                    label=label[:100],
                    value=value,
                    default=chosen,
                    description=notes[i][:100] or None,
                )
                for i, (label, value, chosen) in enumerate(content.options[:25])
            ]
            if not opts:
                continue
            select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
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
