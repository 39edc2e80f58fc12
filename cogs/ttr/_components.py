"""Restart-proof buttons on the public messages: ``ttr:{game}:{verb}``.

A :class:`GameButton` only parses its custom_id; the click is handed to the
cog, which re-reads the game from the database. So the buttons of any old
message keep working after a restart (registered with ``add_dynamic_items``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot import i18n
from bot.tree import answer_error

if TYPE_CHECKING:
    from ._cog import TtrCog

VERBS = ("hand", "draw", "claim", "tickets", "board", "join", "start")
TURN_VERBS = ("hand", "draw", "claim", "tickets", "board")
LOBBY_VERBS = ("join", "start")

_STYLES = {
    "hand": discord.ButtonStyle.primary,
    "draw": discord.ButtonStyle.secondary,
    "claim": discord.ButtonStyle.success,
    "tickets": discord.ButtonStyle.secondary,
    "board": discord.ButtonStyle.secondary,
    "join": discord.ButtonStyle.success,
    "start": discord.ButtonStyle.primary,
}


def custom_id(game_id: int, verb: str) -> str:
    """``ttr:{game}:{verb}``."""
    return f"ttr:{game_id}:{verb}"


class GameButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ttr:(?P<game>[0-9]+):(?P<verb>[a-z_]+)",
):
    """A persistent button of one game; the verb names the flow it opens."""

    def __init__(self, game_id: int, verb: str, *, label: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or verb,
                style=_STYLES.get(verb, discord.ButtonStyle.secondary),
                custom_id=custom_id(game_id, verb),
            )
        )
        self.game_id = game_id
        self.verb = verb

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> GameButton:
        return cls(int(match["game"]), match["verb"], label=item.label)

    async def callback(self, interaction: discord.Interaction) -> None:
        interaction.extras["game"] = self.game_id
        cog: TtrCog | None = interaction.client.get_cog("ttr")  # type: ignore[attr-defined]
        try:
            if cog is None or self.verb not in VERBS:
                raise RuntimeError(f"no handler for button {self.verb!r}")
            await cog.button_clicked(interaction, self.game_id, self.verb)
        except Exception as exc:  # noqa: BLE001 - one funnel for every component error
            await answer_error(interaction, exc)


def buttons_view(game_id: int, verbs: tuple[str, ...], locale: Any = None) -> discord.ui.View:
    """A timeout-less view with the game's buttons (labels in ``locale``; the guild's language)."""
    view = discord.ui.View(timeout=None)
    for verb in verbs:
        view.add_item(GameButton(game_id, verb, label=i18n.t(f"btn_{verb}", locale)))
    return view
