"""Links to the live board (:mod:`web`) on Discord messages: **Live board** under the public turn
message (the spectator's page, the same link for everyone) and **My board** on a player's
private panel (``/ttr hand``, the turn panel: a fresh link of their own seat, valid for two
hours, in their language). Only when the web server is configured (``TTR_WEB_PORT``); the
links are signed with the key the web server verifies them with (:mod:`web.tokens`)."""

from __future__ import annotations

import time
from functools import lru_cache

import discord

from bot.process.config import Settings
from web.tokens import BoardLinks, derive_secret
from words import Words

from . import _ids as ids


@lru_cache(maxsize=4)
def board_links(settings: Settings) -> BoardLinks | None:
    """The bot's board links (None: no web server configured)."""
    base = settings.web_base
    if base is None:
        return None
    return BoardLinks(base, derive_secret(settings.web_secret.get(), settings.token.get()))


def add_link(view: discord.ui.View | None, label: str, url: str) -> discord.ui.View:
    """``view`` (or a new one) with a link button (left out when the view is already full)."""
    if view is None:
        view = discord.ui.View(timeout=None)
    try:
        view.add_item(discord.ui.Button(label=label[:80], url=url, style=discord.ButtonStyle.link))
    except ValueError:  # five full rows
        pass
    view.stop()
    return view


def with_activity(
    view: discord.ui.View, settings: Settings, game_id: int, w: Words
) -> discord.ui.View:
    """``view`` with Open in Discord (the live board as the application's Activity in the
    game's channel) when the bot is configured as an Activity; else ``view`` as it was."""
    if not settings.activity_enabled:
        return view
    try:
        view.add_item(
            discord.ui.Button(
                label=w.t("Open in Discord")[:80],
                custom_id=ids.Activity(game_id).custom_id,
                style=discord.ButtonStyle.secondary,
            )
        )
    except ValueError:  # five full rows
        pass
    view.stop()
    return view


def with_live_board(
    view: discord.ui.View, settings: Settings, game_id: int, w: Words
) -> discord.ui.View:
    """``view`` with the Live board link of game ``game_id`` in ``w``'s language (the table's),
    and Open in Discord where the board is also an Activity."""
    links = board_links(settings)
    if links is None:
        return view
    view = add_link(view, w.t("Live board"), links.public(game_id, w.lang))
    return with_activity(view, settings, game_id, w)


def with_my_board(
    view: discord.ui.View | None, settings: Settings, game_id: int, user_id: int, w: Words
) -> discord.ui.View | None:
    """``view`` with the My board link of ``user_id`` in game ``game_id`` (``w``: their words)."""
    links = board_links(settings)
    if links is None:
        return view
    return add_link(view, w.t("My board"), links.private(game_id, user_id, w.lang, time.time()))


def with_board_link(
    settings: Settings, game_id: int, seat: int | None, user_id: int, w: Words
) -> discord.ui.View | None:
    """The link of ``/ttr board``'s answer: My board for a seated reader (``seat``), Live board
    for anyone else, and Open in Discord where the board is also an Activity; None without a
    web server."""
    if seat is None:
        links = board_links(settings)
        if links is None:
            return None
        view = add_link(None, w.t("Live board"), links.public(game_id, w.lang))
    else:
        mine = with_my_board(None, settings, game_id, user_id, w)
        if mine is None:
            return None
        view = mine
    return with_activity(view, settings, game_id, w)


__all__ = [
    "add_link",
    "board_links",
    "with_activity",
    "with_board_link",
    "with_live_board",
    "with_my_board",
]
