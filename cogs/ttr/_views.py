"""Ephemeral views for private choices: keep tickets, second card, payment, tunnel, flag, ticket mix.

They hold no game state, only the owner's id and what to call with the
choice; the service re-reads the game from the database and rejects a stale
choice, and ``/ttr hand`` or the "My hand" button always opens a fresh one.
Every view guards itself: anyone else gets a private "this is not for you".
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord

from bot import i18n
from bot.tree import answer_error

log = logging.getLogger(__name__)

Choice = Callable[[discord.Interaction, Any], Awaitable[None]]

VIEW_TIMEOUT = 14 * 60.0  # ephemeral tokens die after 15 minutes


class OwnedView(discord.ui.View):
    """A view only ``owner_id`` may use; errors go through the bot's error funnel."""

    def __init__(self, owner_id: int, *, game_id: int | None = None, meta: Any = None) -> None:
        super().__init__(timeout=VIEW_TIMEOUT)
        self.owner_id = owner_id
        self.game_id = game_id
        self.meta = meta

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        interaction.extras.setdefault("game", self.game_id)
        interaction.extras.setdefault("meta", self.meta)
        if interaction.user.id != self.owner_id:
            await interaction.response.send_message(
                i18n.t("not_for_you", interaction.locale), ephemeral=True
            )
            return False
        return True

    async def on_error(
        self, interaction: discord.Interaction, error: Exception, item: discord.ui.Item[Any]
    ) -> None:
        await answer_error(interaction, error)

    def add_choice_button(
        self,
        label: str,
        value: Any,
        on_choice: Choice,
        *,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> discord.ui.Button[Any]:
        """A button that calls ``on_choice(interaction, value)``."""
        button: discord.ui.Button[Any] = discord.ui.Button(label=label[:80], style=style, row=row)

        async def pressed(interaction: discord.Interaction) -> None:
            self.stop()
            await on_choice(interaction, value)

        button.callback = pressed  # type: ignore[method-assign]
        self.add_item(button)
        return button


class ChoiceView(OwnedView):
    """One button per option (up to 20), plus an optional extra row of buttons."""

    def __init__(
        self,
        owner_id: int,
        options: Sequence[tuple[str, Any]],
        on_choice: Choice,
        *,
        game_id: int | None = None,
        meta: Any = None,
        extra: Sequence[tuple[str, Any, discord.ButtonStyle]] = (),
    ) -> None:
        super().__init__(owner_id, game_id=game_id, meta=meta)
        for i, (label, value) in enumerate(options[:20]):
            self.add_choice_button(
                label, value, on_choice, style=discord.ButtonStyle.primary, row=i // 5
            )
        for label, value, style in extra[:5]:
            self.add_choice_button(label, value, on_choice, style=style, row=4)


class SelectView(OwnedView):
    """A select of options (up to 25), then a confirm button; ``on_choice`` gets the chosen values."""

    def __init__(
        self,
        owner_id: int,
        options: Sequence[tuple[str, str]],
        on_choice: Choice,
        *,
        confirm_label: str,
        cancel_label: str | None = None,
        min_values: int = 1,
        max_values: int = 1,
        game_id: int | None = None,
        meta: Any = None,
        preselect: Sequence[str] = (),
    ) -> None:
        super().__init__(owner_id, game_id=game_id, meta=meta)
        self.on_choice = on_choice
        self.chosen: list[str] = list(preselect)
        opts = [
            discord.SelectOption(label=label[:100], value=value, default=value in preselect)
            for label, value in options[:25]
        ]
        self.select: discord.ui.Select[Any] = discord.ui.Select(
            options=opts,
            min_values=min(min_values, len(opts)),
            max_values=min(max_values, len(opts)),
            row=0,
        )
        self.select.callback = self._picked  # type: ignore[method-assign]
        self.add_item(self.select)
        self.add_choice_button(
            confirm_label, "confirm", self._confirmed, style=discord.ButtonStyle.success, row=1
        )
        if cancel_label:
            self.add_choice_button(
                cancel_label, "cancel", self._confirmed, style=discord.ButtonStyle.secondary, row=1
            )

    async def _picked(self, interaction: discord.Interaction) -> None:
        self.chosen = list(self.select.values)
        await interaction.response.defer()

    async def _confirmed(self, interaction: discord.Interaction, value: Any) -> None:
        if value == "cancel":
            await interaction.response.edit_message(
                content=i18n.t("cancelled_choice", interaction.locale), view=None
            )
            return
        await self.on_choice(interaction, list(self.chosen))
