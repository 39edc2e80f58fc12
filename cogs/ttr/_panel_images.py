"""The images of a player's private panel: their hand (with the ticket planner) and the map of
the tickets on offer, each drawn in the reader's language and contrast setting, and which of
them a panel shows again after a move."""

from __future__ import annotations

import discord

from bot.host.services import GameServicePort, TableView
from words import Words

from . import _images as images
from ._base import Base, display_names


class PanelImages:
    """The private images of the reader of an interaction (the settings come from the service)."""

    def __init__(self, service: GameServicePort) -> None:
        self.service = service

    async def hand(
        self, interaction: discord.Interaction, table: TableView, w: Words
    ) -> discord.File:
        """``hand.png``: the reader's hand image in their contrast setting."""
        assert table.mine is not None
        settings = await self.service.queries.user_settings(interaction.user.id)
        data = await images.hand_png(
            table.mine,
            display_names(table),
            w.lang,
            high_contrast=settings.high_contrast,
            plans=table.plans,
        )
        return Base.png(data, "hand.png")

    async def offer(
        self, interaction: discord.Interaction, table: TableView, w: Words
    ) -> discord.File:
        """``tickets.png``: a small map of the offered tickets' cities and the reader's network."""
        assert table.mine is not None and table.menu is not None and table.menu.keep is not None
        settings = await self.service.queries.user_settings(interaction.user.id)
        data = await images.offer_png(
            table.mine, w.lang, table.menu.keep.plans, high_contrast=settings.high_contrast
        )
        return Base.png(data, "tickets.png")

    def offer_open(self, table: TableView) -> bool:
        """Whether the reader has tickets on offer to choose from (the offer map belongs)."""
        return table.menu is not None and table.menu.keep is not None and table.mine is not None

    async def after_move(
        self, interaction: discord.Interaction, table: TableView, w: Words
    ) -> list[discord.File] | None:
        """The images a panel shows after a move: the offered tickets' map while a choice is
        open; a hand image the panel had, drawn again for the new hand; an offer map the panel
        had, gone once the choice is made; None: the panel's attachments stay as they are."""
        if self.offer_open(table):
            return [await self.offer(interaction, table, w)]
        message = interaction.message if Base.on_panel(interaction) else None
        had = {a.filename for a in message.attachments} if message is not None else set()
        if "hand.png" in had and table.mine is not None:
            return [await self.hand(interaction, table, w)]
        if "tickets.png" in had:
            return []
        return None


__all__ = ["PanelImages"]
