"""Command names and descriptions in the user's language, through discord.py's ``app_commands.Translator``."""

from __future__ import annotations

import discord
from discord import app_commands

from words import lang_of, translations


class Translator(app_commands.Translator):
    """Translates the /ttr command tree with the catalogs' ``command`` context (English is the source);
    a ``locale_str`` with a ``context`` extra uses that context (one English name, two meanings)."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContext,  # type: ignore[type-arg]
    ) -> str | None:
        lang = lang_of(locale)
        if lang == "en":
            return None
        where = str(string.extras.get("context") or "command")
        found = translations(lang).pgettext(where, string.message)
        return None if found == string.message else found
