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
