"""Running discord.py against the fake: in this process (:func:`pointed_at`,
:func:`running_client`) or as the bot in a subprocess (:class:`BotProcess`)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .fake import FakeDiscord


@contextlib.contextmanager
def pointed_at(fake: FakeDiscord) -> Iterator[None]:
    """Point discord.py's class attributes (REST base, gateway, CDN) at ``fake``; restore on exit."""
    import discord.asset
    import discord.gateway
    import discord.http
    import yarl

    saved = (
        discord.http.Route.BASE,
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
        discord.asset.Asset.BASE,
    )
    discord.http.Route.BASE = fake.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    discord.asset.Asset.BASE = fake.cdn_base
    try:
        yield
    finally:
        (
            discord.http.Route.BASE,
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
            discord.asset.Asset.BASE,
        ) = saved


@contextlib.asynccontextmanager
async def running_client(
    fake: FakeDiscord,
    client: Any,
    *,
    token: str = "fake-token",
    timeout: float = 10.0,
) -> AsyncIterator[Any]:
    """Run a discord.py client in this process until it has identified; close it on exit.

    Use inside :func:`pointed_at`. Raises if the client stops before connecting.
    """
    before = fake.identify_count
    task = asyncio.create_task(client.start(token), name="fake-discord-client")
    ready = asyncio.ensure_future(fake.wait_for_identify(after=before, timeout=timeout))
    done, _ = await asyncio.wait({task, ready}, return_when=asyncio.FIRST_COMPLETED)
    if task in done:
        ready.cancel()
        task.result()  # re-raise the client's error
        raise RuntimeError("the discord.py client stopped before identifying")
    try:
        ready.result()
    except BaseException:
        await client.close()
        task.cancel()
        raise
    try:
        yield client
    finally:
        await client.close()
        try:
            await asyncio.wait_for(task, 5)
        except (asyncio.CancelledError, Exception):
            pass


class BotProcess:
    """The bot in a subprocess, connected to a :class:`FakeDiscord` through environment variables.

    The child gets ``DISCORD_API_BASE``, ``DISCORD_GATEWAY_URL``,
    ``DISCORD_CDN_BASE``, ``DISCORD_TOKEN`` and ``PYTHONUNBUFFERED=1`` on top
    of the current environment and ``env``. Output (stdout and stderr) goes to
    a temporary file, see :meth:`output`. The fake keeps running across
    :meth:`kill` / :meth:`start`, so stored commands and messages persist.
    """

    def __init__(
        self,
        fake: FakeDiscord,
        argv: Sequence[str] | None = None,
        *,
        env: Mapping[str, str] | None = None,
        cwd: str | None = None,
        token: str = "fake-token",
    ) -> None:
        self.fake = fake
        self.argv = list(argv or [sys.executable, "-m", "bot"])
        self.extra_env = dict(env or {})
        self.cwd = cwd
        self.token = token
        self.process: asyncio.subprocess.Process | None = None
        self._log = tempfile.NamedTemporaryFile(prefix="bot-", suffix=".log", delete=False)
        self.starts = 0

    def environment(self) -> dict[str, str]:
        """The child's environment."""
        env = dict(os.environ)
        env.update(
            DISCORD_API_BASE=self.fake.api_base,
            DISCORD_GATEWAY_URL=self.fake.gateway_url,
            DISCORD_CDN_BASE=self.fake.cdn_base,
            DISCORD_TOKEN=self.token,
            PYTHONUNBUFFERED="1",
        )
        env.update(self.extra_env)
        return env

    @property
    def running(self) -> bool:
        """Whether the child is alive."""
        return self.process is not None and self.process.returncode is None

    async def start(self, *, timeout: float = 20.0, wait_ready: bool = True) -> None:
        """Start the child and (by default) wait until it identified on the gateway."""
        if self.running:
            raise RuntimeError("bot process already running")
        before = self.fake.identify_count
        self._log.write(f"\n===== start {self.starts + 1}: {' '.join(self.argv)}\n".encode())
        self._log.flush()
        self.process = await asyncio.create_subprocess_exec(
            *self.argv,
            env=self.environment(),
            cwd=self.cwd,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=self._log,
            stderr=asyncio.subprocess.STDOUT,
        )
        self.starts += 1
        if not wait_ready:
            return
        exited = asyncio.ensure_future(self.process.wait())
        ready = asyncio.ensure_future(self.fake.wait_for_identify(after=before, timeout=timeout))
        done, _ = await asyncio.wait({exited, ready}, return_when=asyncio.FIRST_COMPLETED)
        if ready in done:
            exited.cancel()
            try:
                ready.result()
            except AssertionError as exc:
                raise AssertionError(
                    f"{exc}\n--- bot output ---\n{self.output()[-4000:]}"
                ) from None
            return
        ready.cancel()
        raise AssertionError(
            f"bot process exited with {self.process.returncode} before identifying\n"
            f"--- bot output ---\n{self.output()[-4000:]}"
        )

    async def kill(self) -> None:
        """SIGKILL the child (a crash) and wait until its gateway connection is gone."""
        await self._end(kill=True)

    async def terminate(self, timeout: float = 5.0) -> None:
        """SIGTERM the child, SIGKILL after ``timeout``."""
        await self._end(kill=False, timeout=timeout)

    async def _end(self, *, kill: bool, timeout: float = 5.0) -> None:
        if self.process is None or self.process.returncode is not None:
            return
        open_before = list(self.fake.connections)
        if kill:
            self.process.kill()
        else:
            self.process.terminate()
        try:
            await asyncio.wait_for(self.process.wait(), timeout)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()
        await self.fake.wait_until(
            lambda: not any(c in self.fake.connections for c in open_before),
            timeout=5.0,
            what="the killed bot's gateway connection to close",
        )

    async def restart(self, *, kill: bool = True, timeout: float = 20.0) -> None:
        """Kill (or terminate) the child and start it again."""
        await self._end(kill=kill)
        await self.start(timeout=timeout)

    def output(self) -> str:
        """Everything the child printed so far."""
        self._log.flush()
        with open(self._log.name, "rb") as fh:
            return fh.read().decode(errors="replace")

    async def close(self) -> None:
        """Terminate the child and delete the log file."""
        await self.terminate()
        self._log.close()
        with contextlib.suppress(OSError):
            os.unlink(self._log.name)

    async def __aenter__(self) -> BotProcess:
        await self.start()
        return self

    async def __aexit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        await self.close()
