"""The /ttr feature: the command table, its families, restart-proof components. This module only wires it up.

Layout (no import cycles; data flows interaction -> family -> service -> reply):
``_commands`` (the /ttr table and the click router) -> ``_lobby``, ``_play``,
``_info``, ``_admin`` (the families) -> ``_publish`` (public messages),
``_prompts`` (private menus), ``_format`` (texts), ``_images`` (renderer),
``_announce`` (posting with fallbacks), ``_components`` + ``_ids`` (clicks),
``_base`` (what the families share).
"""

from __future__ import annotations

from discord.ext import commands

from ._commands import TtrCog
from ._components import AnyComponent


async def setup(bot: commands.Bot) -> None:
    """Extension entry point: the cog with the bot's game service, and the catch-all click handler."""
    bot.add_dynamic_items(AnyComponent)
    await bot.add_cog(TtrCog(bot, bot.service))  # type: ignore[attr-defined]


__all__ = ["AnyComponent", "TtrCog", "setup"]
