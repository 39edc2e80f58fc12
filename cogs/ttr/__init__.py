"""The /ttr feature: commands, persistent buttons, private views. This module only wires it up."""

from __future__ import annotations

from typing import Any

from ._cog import TtrCog
from ._components import GameButton


async def setup(bot: Any) -> None:
    """Extension entry point: add the cog with the bot's game service and register the buttons."""
    bot.add_dynamic_items(GameButton)
    await bot.add_cog(TtrCog(bot, bot.service))


__all__ = ["GameButton", "TtrCog", "setup"]
