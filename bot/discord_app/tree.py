"""The one error funnel for slash commands and components.

Refusals (errors raised on purpose by the engine, the service, the storage,
the maps or the cogs: the :class:`words.Refusal` protocol of a code and its
facts) become a specific localised ephemeral message; anything else is logged
with the game id and answered "nothing was changed".
discord.py only logs exceptions raised in component callbacks, so the
components call :func:`answer_error` themselves (see ``cogs/ttr/_clicks.py``).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands

from bot.process import metrics
from words import error_text, lang_of, refusal, words_for

from . import send

log = logging.getLogger(__name__)


def _unwrap(error: BaseException) -> BaseException:
    while (
        isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError)
        and error.__cause__
    ):
        error = error.__cause__
    if isinstance(error, app_commands.CommandInvokeError):
        return error.original
    return error


async def send_private(interaction: discord.Interaction, content: str, **kwargs: Any) -> None:
    """Answer privately (ephemeral) whether or not the interaction was already acknowledged
    (through the send funnel :func:`bot.discord_app.send.reply`)."""
    await send.reply(interaction, content, **kwargs)


async def answer_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Turn ``error`` into a private answer in the user's language; log what was not expected.

    After a move was committed (``interaction.extras["committed"]``), an
    unexpected failure never claims that nothing changed: the player is told
    the move was made.
    """
    error = _unwrap(error)
    meta: Mapping[str, Any] | None = interaction.extras.get("meta")
    w = words_for(lang_of(interaction.locale), meta)
    game = interaction.extras.get("game", "-")
    refused = refusal(error)
    if refused is not None:
        text = error_text(refused.code, w, refused.detail)
        log.info("game %s: %s refused: %s", game, _what(interaction), refused.code)
    elif isinstance(error, app_commands.CheckFailure):
        text = error_text("not_allowed", w)
    elif isinstance(error, discord.NotFound) and error.code in (10062, 10015):
        log.warning("game %s: interaction expired for %s", game, _what(interaction))
        return
    elif interaction.extras.get("committed"):
        log.error(
            "game %s: %s failed after its move was stored", game, _what(interaction), exc_info=error
        )
        text = w.t(
            "Your move was made (game {game}), but something went wrong afterwards: "
            "use /ttr hand to see where the game stands.",
            game=game,
        )
    else:
        log.error("game %s: %s failed", game, _what(interaction), exc_info=error)
        text = w.t(
            "Something went wrong on our side; nothing was changed. (game {game})", game=game
        )
        text += " " + send.still_works(w)
    try:
        await send_private(interaction, text)
    except discord.HTTPException:
        log.warning(
            "game %s: could not answer the error for %s", game, _what(interaction), exc_info=True
        )


def _what(interaction: discord.Interaction) -> str:
    if interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    data: Mapping[str, Any] = interaction.data or {}
    return f"component {data.get('custom_id', '?')}"


class TtrTree(app_commands.CommandTree):
    """CommandTree whose ``on_error`` answers every failed command privately, and which times
    every slash command and autocomplete (``ttr_interaction_seconds``)."""

    async def _call(self, interaction: discord.Interaction) -> None:
        # discord.py 2.7 (pinned) runs every command and autocomplete through _call, its
        # refusals answered inside it: the one place that sees each from arrival to answer
        autocomplete = interaction.type is discord.InteractionType.autocomplete
        with metrics.interaction_timer("autocomplete" if autocomplete else "command"):
            await super()._call(interaction)

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await answer_error(interaction, error)

    async def sync_keeping_entry_point(self) -> list[app_commands.AppCommand]:
        """Sync the global commands as :meth:`sync` does, keeping the application's Activity
        entry point command.

        When an application has Activities enabled, Discord gives it an entry point command
        (type 4, "Launch", that opens the Activity from the app launcher) and refuses a bulk
        overwrite of the global commands that leaves it out (Discord's documentation,
        "Application Commands", entry point commands). discord.py 2.7 (pinned) knows no such
        command, so this reads the application's entry point commands and sends them along
        with the tree's own.

        Raises:
            discord.HTTPException: the sync failed (as :meth:`sync`).
        """
        app_id = self.client.application_id
        if app_id is None:
            raise app_commands.MissingApplicationID
        existing = await self._http.get_global_commands(app_id)
        kept = [
            {k: v for k, v in command.items() if k in ENTRY_POINT_FIELDS}
            for command in existing
            if command.get("type") == ENTRY_POINT
        ]
        if not kept:
            return await self.sync()
        commands = self._get_all_commands(guild=None)
        translator = self.translator
        if translator:
            payload = [await c.get_translated_payload(self, translator) for c in commands]
        else:
            payload = [c.to_dict(self) for c in commands]
        data = await self._http.bulk_upsert_global_commands(app_id, payload=[*payload, *kept])
        return [
            app_commands.AppCommand(data=d, state=self._state)
            for d in data
            if d.get("type") != ENTRY_POINT
        ]


#: Discord's application command type of an Activity's entry point ("PRIMARY_ENTRY_POINT").
ENTRY_POINT = 4
#: What an entry point command keeps when it is sent back in a bulk overwrite.
ENTRY_POINT_FIELDS = (
    "name",
    "type",
    "description",
    "handler",
    "name_localizations",
    "description_localizations",
    "integration_types",
    "contexts",
    "default_member_permissions",
    "nsfw",
)
