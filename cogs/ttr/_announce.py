"""Public messages after a move was committed: they must reach the table, or someone must know why.

A move is stored before anything is posted, so a failed post never undoes
it. :class:`Announcer` posts a message to the game's channel and, when
Discord refuses:

- 403 (Missing Permissions / Access): post again without the image; if even
  text is refused, tell the players who must act by direct message; the
  server's owner gets one direct message naming the missing permission;
- 404 (the channel is gone): the players who must act get a direct message;
- anything else (Discord down, 5xx after discord.py's own retries, timeouts):
  retried in the background with backoff, then the same fallbacks.

The result (:class:`Delivery`) lets the cog tell the player what happened
to their table. Permission checks for ``/ttr new`` use :func:`missing_permissions`.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

import discord

from bot.discord_app import send
from words import N_, Words

log = logging.getLogger(__name__)

#: Seconds to wait before each background retry of a post Discord failed to take.
RETRY_DELAYS: tuple[float, ...] = (2.0, 10.0, 30.0)

#: Permission flag -> its name as Discord's settings show it (translated by the catalogs).
PERMISSION_NAMES: dict[str, str] = {
    "view_channel": N_("View Channel"),
    "send_messages": N_("Send Messages"),
    "send_messages_in_threads": N_("Send Messages in Threads"),
    "attach_files": N_("Attach Files"),
    "read_message_history": N_("Read Message History"),
    "create_public_threads": N_("Create Public Threads"),
}


def required_permissions(*, thread: bool, new_thread: bool = False) -> tuple[str, ...]:
    """The permissions the bot needs where a game lives (a channel, a thread, or a channel it opens a thread in)."""
    need = [
        "view_channel",
        "send_messages_in_threads" if thread else "send_messages",
        "attach_files",
    ]
    if new_thread:
        need += ["create_public_threads", "send_messages_in_threads"]
    return tuple(dict.fromkeys(need))


def missing_permissions(have: discord.Permissions, need: Sequence[str]) -> list[str]:
    """The flags of ``need`` that ``have`` lacks (administrators lack nothing)."""
    if have.administrator:
        return []
    return [flag for flag in need if not getattr(have, flag)]


def permission_names(flags: Sequence[str], w: Words) -> str:
    """``Attach Files, Send Messages`` in ``w``'s language."""
    return ", ".join(w.t(PERMISSION_NAMES.get(f, f)) for f in flags)


FileFactory = Callable[[], Awaitable[bytes | None]]


@dataclass(frozen=True, slots=True)
class Post:
    """One public message for a game's channel.

    Attributes:
        game_id, guild_id, channel_id: where it goes.
        content: the text (already clipped).
        image: makes the PNG (called at most once per attempt; None: text only).
        filename: the PNG's name.
        view: buttons (a stopped view).
        ping: user ids this message pings.
        reach: user ids who must be told by DM if the channel cannot be reached
            (the players who must act next).
        dm_text: what those direct messages say.
        words: the table's words (for the owner's notice).
        extra: more files ``(filename, factory)`` sent with the image (the final recap GIF).
        reply_to: the id of a message of the channel this one answers (the analysis answers
            the game-over message); posted as a plain message when that one is gone.
        ping_roles: role ids this message pings (the looking-for-players role).
    """

    game_id: int
    guild_id: int
    channel_id: int
    content: str
    words: Words
    image: FileFactory | None = None
    filename: str = "board.png"
    view: discord.ui.View | None = None
    ping: tuple[int, ...] = ()
    reach: tuple[int, ...] = ()
    dm_text: str = ""
    extra: tuple[tuple[str, FileFactory], ...] = ()
    reply_to: int | None = None
    ping_roles: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Delivery:
    """What became of a :class:`Post`.

    ``posted``: the message is in the channel (``image`` says whether with its
    PNG). ``missing``: permissions Discord refused for. ``problem``: None, or
    ``missing_permission``, ``channel_gone``, ``discord_error``. ``retrying``:
    a background retry is scheduled. ``dm_sent``: users told by DM;
    ``unreached``: users who had to be told by DM and could not be (closed DMs).
    """

    posted: bool
    image: bool = False
    problem: str | None = None
    missing: tuple[str, ...] = ()
    retrying: bool = False
    dm_sent: tuple[int, ...] = ()
    unreached: tuple[int, ...] = ()
    message: discord.Message | None = field(default=None, compare=False)


def _missed(post: Post, sent: tuple[int, ...]) -> tuple[int, ...]:
    """The users ``post`` had to reach who did not get the direct message."""
    return tuple(u for u in post.reach if u not in sent)


class Announcer:
    """Posts public messages with fallbacks (see the module docstring). One per bot."""

    def __init__(self, client: discord.Client, *, delays: Sequence[float] = RETRY_DELAYS) -> None:
        self.client = client
        self.delays = tuple(delays)
        self._notified: set[tuple[int, int, tuple[str, ...]]] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    def _channel(self, channel_id: int) -> discord.abc.Messageable:
        found = self.client.get_channel(channel_id)
        if isinstance(found, discord.abc.Messageable):
            return found
        return self.client.get_partial_messageable(channel_id)

    async def _send(self, post: Post, *, with_image: bool) -> discord.Message:
        files: list[discord.File] = []
        if with_image and post.image is not None:
            png = await post.image()
            if png:
                files.append(discord.File(io.BytesIO(png), filename=post.filename))
            for name, make in post.extra:
                data = await make()
                if data:
                    files.append(discord.File(io.BytesIO(data), filename=name))
        reference = None
        if post.reply_to:  # an answer to an earlier message (plain when that one is gone)
            reference = discord.MessageReference(
                message_id=post.reply_to, channel_id=post.channel_id, fail_if_not_exists=False
            )
        return await send.post(
            self._channel(post.channel_id),
            post.content,
            files=files,
            view=post.view,
            ping=post.ping,
            reply_to=reference,
            ping_roles=post.ping_roles,
        )

    async def post(self, post: Post) -> Delivery:
        """Post ``post`` now, falling back as the module docstring says; never raises for Discord's refusals."""
        try:
            message = await self._send(post, with_image=True)
            return Delivery(True, image=post.image is not None, message=message)
        except discord.Forbidden:
            return await self._forbidden(post)
        except discord.NotFound:
            log.warning("game %s: the channel %s is gone", post.game_id, post.channel_id)
            sent = await self._reach(post)
            return Delivery(
                False, problem="channel_gone", dm_sent=sent, unreached=_missed(post, sent)
            )
        except (discord.HTTPException, TimeoutError, OSError) as exc:
            log.warning(
                "game %s: posting failed (%s); retrying in the background", post.game_id, exc
            )
            task = asyncio.get_running_loop().create_task(self._retry(post))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            return Delivery(False, problem="discord_error", retrying=True)

    async def _forbidden(self, post: Post) -> Delivery:
        missing: tuple[str, ...] = ("send_messages",)
        if post.image is not None:
            try:
                message = await self._send(post, with_image=False)
            except discord.Forbidden:
                pass
            except discord.HTTPException:
                log.warning("game %s: the text-only post failed too", post.game_id, exc_info=True)
            else:
                await self._tell_owner(post, ("attach_files",))
                return Delivery(
                    True,
                    image=False,
                    problem="missing_permission",
                    missing=("attach_files",),
                    message=message,
                )
        await self._tell_owner(post, missing)
        sent = await self._reach(post)
        return Delivery(
            False,
            problem="missing_permission",
            missing=missing,
            dm_sent=sent,
            unreached=_missed(post, sent),
        )

    async def _retry(self, post: Post) -> None:
        for delay in self.delays:
            await asyncio.sleep(delay)
            try:
                await self._send(post, with_image=True)
                log.info("game %s: posted after a retry", post.game_id)
                return
            except discord.Forbidden:
                await self._forbidden(post)
                return
            except discord.NotFound:
                await self._reach(post)
                return
            except (discord.HTTPException, TimeoutError, OSError) as exc:
                log.warning("game %s: retry failed (%s)", post.game_id, exc)
        log.error(
            "game %s: could not post after %d retries; telling the players directly",
            post.game_id,
            len(self.delays),
        )
        await self._reach(post)

    async def _reach(self, post: Post) -> tuple[int, ...]:
        """Tell ``post.reach`` by direct message; returns who was reached."""
        return await self.direct(post.game_id, post.reach, post.dm_text or post.content)

    async def _user(self, user_id: int) -> discord.User:
        """The user ``user_id`` (cached, else asked of Discord: a refusal is counted, then
        raised as discord.HTTPException)."""
        cached = self.client.get_user(user_id)
        if cached is not None:
            return cached
        with send.counted():
            return await self.client.fetch_user(user_id)

    async def direct(self, game_id: int, user_ids: Sequence[int], text: str) -> tuple[int, ...]:
        """Send ``text`` to each user by direct message; returns who was reached (closed DMs are logged)."""
        reached = []
        for user_id in user_ids:
            try:
                user = await self._user(user_id)
                await send.direct(user, text)
                reached.append(user_id)
            except discord.HTTPException:
                log.warning("game %s: a player could not be reached by direct message", game_id)
        return tuple(reached)

    async def _tell_owner(self, post: Post, missing: tuple[str, ...]) -> None:
        """One direct message per server, channel and missing permissions to the server's owner."""
        key = (post.guild_id, post.channel_id, missing)
        if key in self._notified or not post.guild_id:
            return
        self._notified.add(key)
        guild = self.client.get_guild(post.guild_id)
        owner_id = guild.owner_id if guild is not None else None
        if owner_id is None:
            log.warning(
                "game %s: missing %s in channel %s; owner unknown",
                post.game_id,
                missing,
                post.channel_id,
            )
            return
        w = post.words
        text = w.n(
            "Ticket to Ride cannot post in <#{channel}> on your server {server}: it lacks the permission {permissions}. "
            "Please grant it in the channel's settings so the games there can be followed.",
            "Ticket to Ride cannot post in <#{channel}> on your server {server}: it lacks the permissions {permissions}. "
            "Please grant them in the channel's settings so the games there can be followed.",
            len(missing),
            channel=post.channel_id,
            server=send.echo(guild.name) if guild is not None else "",
            permissions=permission_names(missing, w),
        )
        try:
            owner = await self._user(owner_id)
            await send.direct(owner, text)
        except discord.HTTPException:
            log.warning(
                "game %s: the server owner could not be told about %s", post.game_id, missing
            )

    async def close(self) -> None:
        """Cancel pending background retries."""
        for task in list(self._tasks):
            task.cancel()
