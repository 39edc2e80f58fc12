"""The /ttr feature: the command table, its families, restart-proof components. This module only wires it up.

Layout (no import cycles; data flows interaction -> family -> service -> reply):
``_commands`` (the /ttr table, its groups in ``_game_group``, ``_player_group``
and ``_admin_group``) and ``_clicks`` (one DynamicItem per kind of click, ids
in ``_ids``) -> ``_lobby``, ``_play``, ``_menu_clicks``, ``_table``,
``_record``, ``_guide``, ``_admin`` (the families) -> ``_publish`` (public messages), ``_prompts``
(private menus), ``_paid`` (claims and stations named in a command),
``_panel_images`` (a panel's private images), ``_format`` (texts), ``_images``
(renderer), ``_announce`` (posting with fallbacks), ``_components`` (building
buttons and selects), ``_base`` (what the families share).
"""

from __future__ import annotations

from discord.ext import commands

from bot.discord_app.client import TtrBot

from ._clicks import ITEMS
from ._commands import TtrCog
from ._privacy import GuildEvents


async def setup(bot: commands.Bot) -> None:
    """Extension entry point: the cog over the bot's game service, the click classes, and the
    listeners of servers adding and removing the bot.

    Raises TypeError for a bot that is not a :class:`~bot.discord_app.client.TtrBot` (it has no service).
    """
    if not isinstance(bot, TtrBot):
        raise TypeError(f"the /ttr cog needs a TtrBot, not {type(bot).__name__}")
    bot.add_dynamic_items(*ITEMS)
    cog = TtrCog(bot)
    await bot.add_cog(cog)
    await bot.add_cog(GuildEvents(bot, bot.service, cog.publisher))


__all__ = ["ITEMS", "GuildEvents", "TtrCog", "setup"]
