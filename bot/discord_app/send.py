"""The one send funnel: every message, embed, select and button the bot sends goes through here.

Discord refuses a whole message (400, code 50035) for one part over its
limits, and the player then sees "The application did not respond". This
module makes every outgoing message fit before it leaves:

- content at most 2,000 characters (cut with an ellipsis; never empty);
- embeds: at most 10; title 256, description 4,096, 25 fields of name 256
  and value 1,024, footer 2,048, author 256, 6,000 characters in all;
- components (:func:`fit_view`): labels of buttons at most 80 characters,
  select options at most 25 with labels, values and descriptions of at most
  100, placeholders at most 150, custom ids of 1-100 characters and unique in
  the message (a duplicate is left out and logged as the bug it is);
- at most 10 files;
- ``allowed_mentions`` on every send: nobody is pinged unless named in
  ``ping`` (never ``@everyone``, ``@here`` or a role).

A user's own text echoed back (a route or city name typed into a command, a
server name) goes through :func:`echo`: shortened, control, zero-width and
direction characters removed, markdown escaped and mentions broken, so it
shows as typed and pings no one.

When Discord still refuses a private reply with components (400), the text
is sent again without them and says which commands still work
(:data:`STILL_WORKS`), so the player is never stuck behind a menu.

Every refusal Discord answers (an HTTP error status) is counted by status in
``ttr_discord_errors_total`` (:mod:`bot.process.metrics`) before it reaches the caller;
:func:`counted` does the same for the calls that are not messages.

Everything here is about Discord's rules, nothing about the game; the cogs
decide what to say. ``tests/test_send.py`` holds each limit; ``tests/test_boundaries``
holds that nothing else calls discord.py's send methods.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import discord
from discord import app_commands

from bot.process import metrics
from words import N_, Words, lang_of, words_for

log = logging.getLogger(__name__)

# ---------------------------------------------------------------------- Discord's limits
MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TITLE = 256
MAX_EMBED_DESCRIPTION = 4096
MAX_EMBED_FIELDS = 25
MAX_EMBED_FIELD_NAME = 256
MAX_EMBED_FIELD_VALUE = 1024
MAX_EMBED_FOOTER = 2048
MAX_EMBED_AUTHOR = 256
MAX_EMBED_TOTAL = 6000
MAX_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_OPTIONS = 25
MAX_BUTTON_LABEL = 80
MAX_OPTION_TEXT = 100
MAX_PLACEHOLDER = 150
MAX_CUSTOM_ID = 100
MAX_FILES = 10
MAX_CHOICES = 25
MAX_CHOICE_TEXT = 100
MAX_THREAD_NAME = 100
#: How much of a user's own text is echoed back (characters, before escaping).
ECHO_LIMIT = 60

#: Said when a menu could not be shown, or something failed: the commands that still work.
STILL_WORKS = N_(
    "You can still play with commands: /ttr hand shows your cards and choices; "
    "/ttr draw, /ttr claim route: and /ttr tickets make a move."
)
#: Said with :data:`STILL_WORKS` when Discord refused a menu.
MENU_REFUSED = N_("Discord did not take this menu, so it is not shown.")

ELLIPSIS = "…"
_ZWSP = "\u200b"
#: Unicode categories echo() drops: control, format (zero-width, direction marks and
#: overrides, BOM), private use, surrogates, unassigned, line and paragraph separators.
_DROPPED = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
_BLANKS = re.compile(r"\s+")


# ---------------------------------------------------------------------- text
def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, an ellipsis marking the cut."""
    return text if len(text) <= limit else text[: max(0, limit - 1)] + ELLIPSIS


def echo(value: object, limit: int = ECHO_LIMIT) -> str:
    """A user's own text, safe to show back: shortened to ``limit`` characters (an ellipsis
    marks the cut), control, zero-width and direction characters removed, line breaks and
    runs of blanks made one space, markdown escaped, mentions (``@everyone``, ``<@id>``,
    ``<@&role>``, ``<#channel>``) and links broken. Never empty (``…`` for nothing)."""
    text = "".join(
        ch for ch in str(value) if unicodedata.category(ch) not in _DROPPED or ch in "\t\n\r"
    )
    text = clip(_BLANKS.sub(" ", text).strip(), limit) or ELLIPSIS
    text = discord.utils.escape_markdown(text)
    if text[:1] in "#->":  # a heading, list or quote when it starts a line
        text = "\\" + text
    return (
        text.replace("@", "@" + _ZWSP).replace("<", "<" + _ZWSP).replace("://", ":" + _ZWSP + "//")
    )


def content_of(text: str | None) -> str:
    """Message content within Discord's 2,000 characters, never empty."""
    return clip(text or ELLIPSIS, MAX_CONTENT)


def mentions(ping: Iterable[int] = (), roles: Iterable[int] = ()) -> discord.AllowedMentions:
    """Allowed mentions that ping exactly the users ``ping`` and the roles ``roles`` (no one by
    default): never ``@everyone``/``@here``, another role, or a user merely named in the text."""
    users = [discord.Object(u) for u in dict.fromkeys(ping)]
    named = [discord.Object(r) for r in dict.fromkeys(roles)]
    return discord.AllowedMentions(
        everyone=False, roles=named or False, users=users, replied_user=False
    )


def thread_name(text: str) -> str:
    """A thread name: one line, 1-100 characters."""
    return clip(_BLANKS.sub(" ", text).strip(), MAX_THREAD_NAME) or ELLIPSIS


def choices(items: Iterable[tuple[str, Any]]) -> list[app_commands.Choice[Any]]:
    """Autocomplete choices within Discord's limits: at most 25, names of 1-100 characters,
    string values of at most 100 (a longer value could not be sent back, so it is left out)."""
    out: list[app_commands.Choice[Any]] = []
    for name, value in items:
        if isinstance(value, str) and not 0 < len(value) <= MAX_CHOICE_TEXT:
            continue
        out.append(app_commands.Choice(name=clip(name, MAX_CHOICE_TEXT) or ELLIPSIS, value=value))
        if len(out) == MAX_CHOICES:
            break
    return out


# ---------------------------------------------------------------------- embeds
def fit_embeds(embeds: Sequence[discord.Embed]) -> list[discord.Embed]:
    """At most 10 embeds, each part within its limit, and 6,000 characters in all (fields
    that would pass the total are left out, then descriptions are cut)."""
    out: list[discord.Embed] = []
    budget = MAX_EMBED_TOTAL
    for embed in list(embeds)[:MAX_EMBEDS]:
        e = embed.copy()
        if e.title:
            e.title = clip(e.title, min(MAX_EMBED_TITLE, max(1, budget)))
            budget -= len(e.title)
        if e.author.name:
            e.set_author(
                name=clip(e.author.name, MAX_EMBED_AUTHOR),
                url=e.author.url,
                icon_url=e.author.icon_url,
            )
            budget -= len(e.author.name or "")
        if e.footer.text:
            e.set_footer(text=clip(e.footer.text, MAX_EMBED_FOOTER), icon_url=e.footer.icon_url)
            budget -= len(e.footer.text or "")
        fields = [(f.name or ELLIPSIS, f.value or ELLIPSIS, f.inline) for f in e.fields][
            :MAX_EMBED_FIELDS
        ]
        e.clear_fields()
        for name, value, inline in fields:
            name, value = clip(name, MAX_EMBED_FIELD_NAME), clip(value, MAX_EMBED_FIELD_VALUE)
            if len(name) + len(value) > budget:
                log.warning("an embed field was left out: the embeds would pass 6,000 characters")
                break
            e.add_field(name=name, value=value, inline=inline)
            budget -= len(name) + len(value)
        if e.description:
            e.description = clip(e.description, max(1, min(MAX_EMBED_DESCRIPTION, budget)))
            budget -= len(e.description)
        if budget < 0:
            log.warning("an embed was left out: the embeds would pass 6,000 characters")
            break
        out.append(e)
    return out


# ---------------------------------------------------------------------- components
def _fit_select(select: discord.ui.Select[Any]) -> bool:
    """Fit a select in place; False when it cannot be sent at all (no option left)."""
    options: list[discord.SelectOption] = []
    values: set[str] = set()
    for opt in select.options:
        if not 0 < len(opt.value) <= MAX_OPTION_TEXT or opt.value in values:
            log.error(
                "a select option with the value %r was left out (empty, too long or twice)",
                opt.value[:40],
            )
            continue
        values.add(opt.value)
        opt.label = clip(opt.label or opt.value, MAX_OPTION_TEXT)
        if opt.description:
            opt.description = clip(opt.description, MAX_OPTION_TEXT)
        options.append(opt)
    if len(options) > MAX_OPTIONS:
        log.error("a select had %d options; the first %d are sent", len(options), MAX_OPTIONS)
        options = options[:MAX_OPTIONS]
    if not options:
        return False
    most = max(1, min(select.max_values, len(options), MAX_OPTIONS))
    least = max(0, min(select.min_values, most))
    chosen = [o for o in options if o.default]
    for extra in chosen[most:]:
        extra.default = False
    select.options = options
    select.max_values, select.min_values = most, least
    if select.placeholder:
        select.placeholder = clip(select.placeholder, MAX_PLACEHOLDER)
    return True


def fit_view(view: discord.ui.View | None) -> discord.ui.View | None:
    """``view`` made to fit Discord's component rules (see the module docstring), in place.

    discord.py's View already keeps rows (at most 5, each 5 buttons or one select).
    Anything that cannot be repaired (a duplicate or malformed custom id, a select
    without options) is left out and logged as an error: it is a bug in the menu.
    Returns None when nothing is left.
    """
    if view is None:
        return None
    seen: set[str] = set()
    for item in list(view.children):
        custom_id = getattr(item, "custom_id", None)
        is_link = isinstance(item, discord.ui.Button) and item.url is not None
        if not is_link and (
            not isinstance(custom_id, str)
            or not 0 < len(custom_id) <= MAX_CUSTOM_ID
            or custom_id in seen
        ):
            log.error(
                "a component with the custom id %r was left out (bad or twice)", str(custom_id)[:40]
            )
            view.remove_item(item)
            continue
        if isinstance(custom_id, str):
            seen.add(custom_id)
        if isinstance(item, discord.ui.Button):
            if item.label:
                item.label = clip(item.label, MAX_BUTTON_LABEL)
            elif item.emoji is None:
                item.label = ELLIPSIS
        elif isinstance(item, discord.ui.Select) and not _fit_select(item):
            log.error("a select without options was left out")
            view.remove_item(item)
    return view if view.children else None


# ---------------------------------------------------------------------- sending
@contextmanager
def counted() -> Iterator[None]:
    """Count what Discord refuses inside (``ttr_discord_errors_total`` by HTTP status), then
    let the refusal go on to the caller. Every send here is counted; the few other calls
    that answer players (acknowledging an interaction, opening a game's thread, finding a
    user for a direct message, syncing the commands) use it too."""
    try:
        yield
    except discord.HTTPException as exc:
        metrics.discord_error(exc.status)
        raise


def _words(interaction: discord.Interaction) -> Words:
    return words_for(lang_of(interaction.locale), interaction.extras.get("meta"))


def still_works(w: Words) -> str:
    """The sentence naming the commands that still work, in ``w``'s language."""
    return w.t(STILL_WORKS)


async def reply(
    interaction: discord.Interaction,
    content: str,
    *,
    view: discord.ui.View | None = None,
    files: Sequence[discord.File] = (),
    embeds: Sequence[discord.Embed] = (),
    ephemeral: bool = True,
    ping: Iterable[int] = (),
) -> None:
    """Answer an interaction (the first response, or a followup once it was acknowledged),
    privately unless ``ephemeral`` is False; pings only ``ping``.

    When Discord refuses a reply that carries components (400), the text is sent again
    without them, saying the menu could not be shown and which commands still work.
    Raises discord.HTTPException for anything else Discord refuses.
    """
    fitted = fit_view(view)
    kwargs: dict[str, Any] = {
        "content": content_of(content),
        "files": list(files)[:MAX_FILES],
        "embeds": fit_embeds(embeds) or discord.utils.MISSING,
        "ephemeral": ephemeral,
        "allowed_mentions": mentions(ping),
    }
    try:
        await _respond(interaction, view=fitted, **kwargs)
    except discord.HTTPException as exc:
        if fitted is None or exc.status != 400:
            raise
        log.error(
            "Discord refused a reply's components (%s %s); sending its text alone",
            exc.status,
            exc.code,
        )
        w = _words(interaction)
        kwargs["content"] = content_of(
            "\n".join([w.t(MENU_REFUSED) + " " + still_works(w), content_of(content)])
        )
        kwargs["files"] = []  # a file is read once; the first attempt used it
        await _respond(interaction, view=None, **kwargs)


async def _respond(
    interaction: discord.Interaction, *, view: discord.ui.View | None, **kwargs: Any
) -> None:
    with counted():
        if interaction.response.is_done():
            await interaction.followup.send(view=view or discord.utils.MISSING, **kwargs)
        else:
            await interaction.response.send_message(view=view or discord.utils.MISSING, **kwargs)


async def update(
    interaction: discord.Interaction, content: str, view: discord.ui.View | None
) -> None:
    """Replace the message whose component was clicked (a private menu turning a page)."""
    with counted():
        await interaction.response.edit_message(
            content=content_of(content), view=fit_view(view), allowed_mentions=mentions()
        )


async def rewrite(
    interaction: discord.Interaction,
    content: str,
    view: discord.ui.View | None,
    *,
    files: Sequence[discord.File] | None = None,
) -> None:
    """Rewrite the private message whose component was clicked (a panel that moves on in
    place), acknowledging the click first when that is still to do (a silent update, no
    "thinking"). ``files``: the new attachments (empty: none); None keeps the message's own.

    When Discord refuses the components (400) the text is shown alone with the commands that
    still work; when the message is gone (404: the player dismissed it) the answer comes as a
    new private message. Raises discord.HTTPException for anything else Discord refuses.
    """
    if not interaction.response.is_done():
        with counted():
            await interaction.response.defer()
    fitted = fit_view(view)
    kwargs: dict[str, Any] = {
        "content": content_of(content),
        "view": fitted,
        "allowed_mentions": mentions(),
    }
    if files is not None:
        kwargs["attachments"] = list(files)[:MAX_FILES]
    try:
        with counted():
            await interaction.edit_original_response(**kwargs)
    except discord.NotFound:
        for file in files or ():
            file.reset()
        await reply(interaction, content, view=view, files=list(files or [])[:MAX_FILES])
    except discord.HTTPException as exc:
        if fitted is None or exc.status != 400:
            raise
        log.error(
            "Discord refused a panel's components (%s %s); showing its text alone",
            exc.status,
            exc.code,
        )
        w = _words(interaction)
        kwargs["content"] = content_of(
            "\n".join([w.t(MENU_REFUSED) + " " + still_works(w), content_of(content)])
        )
        kwargs["view"] = None
        kwargs.pop("attachments", None)  # a file is read once; the first attempt used it
        with counted():
            await interaction.edit_original_response(**kwargs)


async def post(
    channel: discord.abc.Messageable,
    content: str,
    *,
    view: discord.ui.View | None = None,
    files: Sequence[discord.File] = (),
    embeds: Sequence[discord.Embed] = (),
    ping: Iterable[int] = (),
    reply_to: discord.MessageReference | None = None,
    ping_roles: Iterable[int] = (),
) -> discord.Message:
    """Post a public message in ``channel``; pings only ``ping`` and the roles ``ping_roles``
    (an answer to ``reply_to`` pings nobody for it either). Raises discord.HTTPException as discord.py does (the caller
    decides the fallback)."""
    answer: dict[str, Any] = {}
    if reply_to is not None:
        answer["reference"] = reply_to
        answer["mention_author"] = False
    with counted():
        return await channel.send(
            content_of(content),
            files=list(files)[:MAX_FILES],
            embeds=fit_embeds(embeds) or discord.utils.MISSING,
            view=fit_view(view) or discord.utils.MISSING,
            allowed_mentions=mentions(ping, ping_roles),
            **answer,
        )


async def direct(user: discord.abc.Messageable, content: str) -> discord.Message:
    """A direct message to ``user`` (it pings no one else). Raises discord.HTTPException
    (closed DMs: Forbidden)."""
    with counted():
        return await user.send(content_of(content), allowed_mentions=mentions())


__all__ = [
    "ECHO_LIMIT",
    "MAX_CONTENT",
    "MAX_OPTIONS",
    "STILL_WORKS",
    "choices",
    "clip",
    "content_of",
    "direct",
    "echo",
    "rewrite",
    "fit_embeds",
    "fit_view",
    "mentions",
    "post",
    "reply",
    "still_works",
    "thread_name",
    "update",
]
