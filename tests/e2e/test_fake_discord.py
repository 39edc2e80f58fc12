"""Proof that the fake Discord works with the real discord.py client.

A throwaway demo bot (a ``commands.Bot`` with an app-command group ``/demo``)
runs in-process against :class:`FakeDiscord`, and once in a subprocess that is
killed and restarted. Run this module with ``python -m`` to start the demo bot
from the environment (that is what the subprocess test does).
"""

from __future__ import annotations

import asyncio
import io
import os
import sys
from pathlib import Path

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from tests.e2e.fake_discord import (
    EPHEMERAL,
    LOADING,
    BotProcess,
    FakeDiscord,
    pointed_at,
    running_client,
)

ROOT = Path(__file__).resolve().parents[2]
MAPS = ["usa", "europe", "nordic", "switzerland", "india"]
BOARD_RGB = (200, 30, 40)


def render_png(size: int) -> bytes:
    """A deterministic PNG the demo bot uploads."""
    buffer = io.BytesIO()
    Image.new("RGB", (size, size), BOARD_RGB).save(buffer, "PNG")
    return buffer.getvalue()


# ---------------------------------------------------------------------------
# The throwaway demo bot
# ---------------------------------------------------------------------------


class PressButton(discord.ui.DynamicItem[discord.ui.Button], template=r"demo:press:(?P<n>[0-9]+)"):
    """A persistent button: it works on messages posted by an earlier process."""

    def __init__(self, n: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Press {n}", style=discord.ButtonStyle.primary, custom_id=f"demo:press:{n}"
            )
        )
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: object
    ) -> PressButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["n"]))  # type: ignore[index]

    async def callback(self, interaction: discord.Interaction) -> None:
        """Answer privately, naming the process that answered."""
        await interaction.response.send_message(
            f"pressed {self.n} by {interaction.user.name} pid {os.getpid()}", ephemeral=True
        )


class PickView(discord.ui.View):
    """A non-persistent view with a string select."""

    def __init__(self) -> None:
        super().__init__(timeout=60)

    @discord.ui.select(
        custom_id="demo:pick",
        min_values=1,
        max_values=3,
        options=[discord.SelectOption(label=c, value=c) for c in ("red", "green", "blue")],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        """Replace the menu by the picked values (callback type 7)."""
        await interaction.response.edit_message(
            content="picked " + ", ".join(select.values), view=None
        )


class NameModal(discord.ui.Modal, title="Your name"):
    """A one-field modal."""

    name = discord.ui.TextInput(label="Name", custom_id="demo:modal:name", max_length=32)

    def __init__(self) -> None:
        super().__init__(custom_id="demo:modal")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Greet privately."""
        await interaction.response.send_message(f"hi {self.name.value}", ephemeral=True)


class DemoTree(app_commands.CommandTree):
    """Answers command errors privately, like a real bot should."""

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Report the error to the user."""
        if isinstance(error, app_commands.MissingPermissions):
            text = "you need Manage Channels"
        else:
            text = f"error: {type(error).__name__}"
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)


def build_demo_group() -> app_commands.Group:
    """A fresh ``/demo`` group (one per bot instance)."""
    demo = app_commands.Group(name="demo", description="Demo commands for the fake Discord tests")
    admin = app_commands.Group(name="admin", description="Moderator commands", parent=demo)

    @demo.command(name="secret", description="Answer privately")
    async def secret(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("the secret is 42", ephemeral=True)

    @demo.command(name="public", description="Answer publicly")
    async def public(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"hello {interaction.user.name}")

    @demo.command(name="image", description="Defer, then send a PNG")
    @app_commands.describe(size="Edge length in pixels")
    async def image(
        interaction: discord.Interaction, size: app_commands.Range[int, 1, 512] = 16
    ) -> None:
        await interaction.response.defer(thinking=True)
        png = render_png(size)
        await interaction.followup.send(
            "here is the board", file=discord.File(io.BytesIO(png), filename="board.png")
        )

    @demo.command(name="button", description="Post a persistent button")
    async def button(interaction: discord.Interaction, n: int) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(PressButton(n))
        await interaction.response.send_message(f"button {n}", view=view)

    @demo.command(name="pick", description="Private colour menu")
    async def pick(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pick colours", view=PickView(), ephemeral=True)

    @demo.command(name="echo", description="Echo text")
    @app_commands.choices(
        colour=[
            app_commands.Choice(name="Red", value="red"),
            app_commands.Choice(name="Blue", value="blue"),
        ]
    )
    async def echo(
        interaction: discord.Interaction,
        text: str,
        colour: app_commands.Choice[str],
        times: app_commands.Range[int, 1, 3] = 1,
        who: discord.Member | None = None,
    ) -> None:
        words = " ".join([text] * times)
        suffix = f" for {who.name}" if who is not None else ""
        await interaction.response.send_message(
            f"{words} in {colour.value}{suffix}", ephemeral=True
        )

    @echo.autocomplete("text")
    async def echo_text(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=m, value=m) for m in MAPS if m.startswith(current.lower())]

    @demo.command(name="long", description="Send too much text")
    async def long(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("x" * 2001)

    @demo.command(name="slow", description="Answer too late")
    async def slow(interaction: discord.Interaction) -> None:
        await asyncio.sleep(0.3)
        await interaction.response.send_message("late")

    @demo.command(name="post", description="Post and edit a channel message")
    async def post(interaction: discord.Interaction) -> None:
        note = discord.File(io.BytesIO(b"hello"), filename="notes.txt")
        message = await interaction.channel.send("public board v1", file=note)
        await message.edit(content="public board v2")
        await interaction.response.send_message(f"posted {message.id}", ephemeral=True)

    @demo.command(name="modal", description="Open a modal")
    async def modal(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())

    @demo.command(name="thread", description="Open a game thread")
    async def thread(interaction: discord.Interaction) -> None:
        created = await interaction.channel.create_thread(
            name="game-1", type=discord.ChannelType.public_thread
        )
        await created.send("game starts")
        await created.add_user(interaction.user)
        await interaction.response.send_message(f"thread {created.id}", ephemeral=True)

    @admin.command(name="reset", description="Moderators only")
    @app_commands.checks.has_permissions(manage_channels=True)
    async def reset(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("reset done", ephemeral=True)

    return demo


class DemoBot(commands.Bot):
    """The throwaway bot: global ``/demo`` group, guild ``/ping``, persistent buttons."""

    def __init__(self, guild_id: int) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            tree_cls=DemoTree,
            help_command=None,
            guild_ready_timeout=0.05,
            chunk_guilds_at_startup=False,
        )
        self.demo_guild_id = guild_id

    async def setup_hook(self) -> None:
        """Register commands and persistent items, then sync."""
        self.add_dynamic_items(PressButton)
        self.tree.add_command(build_demo_group())

        @app_commands.command(name="ping", description="Guild-only ping")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pong")

        guild = discord.Object(self.demo_guild_id)
        self.tree.add_command(ping, guild=guild)
        await self.tree.sync()
        await self.tree.sync(guild=guild)


def run_demo_bot_from_env() -> None:
    """Entry point of the subprocess: connect the demo bot to the fake named in the environment."""
    import yarl

    discord.http.Route.BASE = os.environ["DISCORD_API_BASE"]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["DISCORD_GATEWAY_URL"])
    DemoBot(int(os.environ["DEMO_GUILD_ID"])).run(os.environ["DISCORD_TOKEN"])


# ---------------------------------------------------------------------------
# Fixtures
# ---------------------------------------------------------------------------


@pytest.fixture
async def fake() -> FakeDiscord:
    """A running fake; fails at teardown on unknown routes, violations or unanswered interactions."""
    async with FakeDiscord() as server:
        yield server


@pytest.fixture
async def bot(fake: FakeDiscord) -> DemoBot:
    """The demo bot connected in-process; discord.py's class attributes restored afterwards."""
    with pointed_at(fake):
        client = DemoBot(fake.guild_id)
        async with running_client(fake, client):
            yield client


# ---------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------


async def test_pointing_is_restored() -> None:
    original = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    async with FakeDiscord() as server:
        with pointed_at(server):
            assert discord.http.Route.BASE == server.api_base
            assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == server.gateway_url
    assert (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == original


async def test_login_sync_and_guild(fake: FakeDiscord, bot: DemoBot) -> None:
    await asyncio.wait_for(bot.wait_until_ready(), 5)
    assert bot.user.id == fake.bot_user.id
    assert bot.application_id == fake.application_id
    assert fake.tokens_seen == {"fake-token"}

    demo = fake.command("demo")
    assert demo["application_id"] == str(fake.application_id)
    assert {"demo secret", "demo admin reset", "demo image", "ping"} <= set(fake.command_names())
    assert fake.command("ping", guild=True)["guild_id"] == str(fake.guild_id)
    fetched = {c.name: c.id for c in await bot.tree.fetch_commands()}
    assert fetched["demo"] == int(demo["id"])

    guild = bot.get_guild(fake.guild_id)
    assert guild is not None and guild.owner_id == fake.owner_id
    assert sorted(c.name for c in guild.text_channels) == ["games", "general"]
    assert guild.member_count == 1 + len(fake.users)

    pong = await (await fake.slash("dave", "ping"))
    assert pong.content == "pong" and not pong.ephemeral


async def test_ephemeral_reply(fake: FakeDiscord, bot: DemoBot) -> None:
    alice = fake.user("alice")
    handle = await fake.slash(alice, "demo", "secret")
    reply = await handle
    assert reply.kind == "response"
    assert reply.flags & EPHEMERAL and reply.ephemeral
    assert reply.content == "the secret is 42"
    assert reply.user is alice and reply.interaction_token == handle.token
    assert reply.channel_id == fake.default_channel.id
    assert handle.ack_latency is not None and handle.ack_latency < 1.0


async def test_privacy_violations(fake: FakeDiscord, bot: DemoBot) -> None:
    fake.require_private_command("demo public", "/demo secret")
    public = await (await fake.slash("alice", "demo public"))
    assert not public.ephemeral
    [violation] = fake.take_violations()
    assert violation.kind == "privacy" and violation.interaction.startswith("/demo public")

    await (await fake.slash("alice", "demo", "secret"))
    assert fake.violations == []


async def test_deferred_followup_with_png(fake: FakeDiscord, bot: DemoBot) -> None:
    handle = await fake.slash("bob", "demo", "image", {"size": 24})
    message = await handle
    assert [m.kind for m in handle.messages] == ["deferred", "followup"]
    assert handle.messages[0].flags & LOADING
    assert message.message_id == handle.messages[0].message_id  # replaces the thinking message
    assert not message.ephemeral and message.content == "here is the board"
    attachment = message.attachment("board.png")
    assert attachment.is_png and attachment.content_type == "image/png"
    assert attachment.data == render_png(24)
    with Image.open(io.BytesIO(attachment.data)) as picture:
        assert picture.size == (24, 24)
        assert picture.convert("RGB").getpixel((3, 3)) == BOARD_RGB


async def test_persistent_dynamic_button(fake: FakeDiscord, bot: DemoBot) -> None:
    post = await (await fake.slash("alice", "demo", "button", {"n": 7}))
    assert post.custom_ids == ["demo:press:7"] and not post.ephemeral
    answer = await (await fake.click("bob", post, "demo:press:7"))
    assert answer.kind == "response" and answer.ephemeral
    assert answer.content.startswith("pressed 7 by bob")
    assert answer.user is fake.user("bob")
    with pytest.raises(LookupError):
        await fake.click("bob", post, "demo:press:8")


async def test_select_values_arrive(fake: FakeDiscord, bot: DemoBot) -> None:
    alice = fake.user("alice")
    menu = await (await fake.slash(alice, "demo", "pick"))
    assert menu.ephemeral and [s["custom_id"] for s in menu.selects] == ["demo:pick"]
    with pytest.raises(PermissionError):
        await fake.select("bob", menu, "demo:pick", ["red"])
    with pytest.raises(ValueError):
        await fake.select(alice, menu, "demo:pick", ["purple"])

    updated = await (await fake.select(alice, menu, "demo:pick", ["red", "blue"]))
    assert updated.kind == "update" and updated.message_id == menu.message_id
    assert updated.content == "picked red, blue"
    assert updated.ephemeral and updated.components == []


async def test_autocomplete_and_typed_options(fake: FakeDiscord, bot: DemoBot) -> None:
    choices = await (
        await fake.autocomplete("alice", "demo echo", options={"text": "sw"}, focused="text")
    )
    assert choices == [{"name": "switzerland", "value": "switzerland"}]

    reply = await (
        await fake.slash(
            "alice",
            "demo echo",
            options={"text": "go", "colour": "blue", "times": 2, "who": fake.user("carol")},
        )
    )
    assert reply.content == "go go in blue for carol"

    with pytest.raises(ValueError, match="not one of"):
        await fake.slash("alice", "demo echo", options={"text": "go", "colour": "green"})
    with pytest.raises(ValueError, match="not in 1..3"):
        await fake.slash("alice", "demo echo", options={"text": "go", "colour": "red", "times": 5})
    with pytest.raises(ValueError, match="missing required"):
        await fake.slash("alice", "demo echo", options={"text": "go"})
    with pytest.raises(ValueError, match="no option"):
        await fake.slash("alice", "demo echo", options={"text": "go", "colour": "red", "bogus": 1})
    with pytest.raises(LookupError):
        await fake.slash("alice", "demo", "nope")


async def test_subcommand_group_and_permissions(fake: FakeDiscord, bot: DemoBot) -> None:
    denied = await (await fake.slash("alice", "demo admin reset"))
    assert denied.content == "you need Manage Channels" and denied.ephemeral
    allowed = await (await fake.slash("mod", "demo", "admin reset"))
    assert allowed.content == "reset done"


async def test_channel_messages_edits_and_events(fake: FakeDiscord, bot: DemoBot) -> None:
    seen_by_bot = asyncio.ensure_future(
        bot.wait_for("message", check=lambda m: m.content == "public board v1")
    )
    board = fake.expect_message(lambda m: m.kind == "channel")
    reply = await (await fake.slash("alice", "demo", "post"))
    created = await board
    assert created.content == "public board v1" and not created.ephemeral and created.user is None
    note = created.attachment("notes.txt")
    assert note.data == b"hello" and note.content_type == "text/plain"
    edit = await fake.wait_for_message(lambda m: m.kind == "channel_edit")
    assert edit.message_id == created.message_id and edit.content == "public board v2"
    assert [a.filename for a in edit.attachments] == ["notes.txt"]
    assert reply.content == f"posted {created.message_id}" and reply.ephemeral
    assert (await asyncio.wait_for(seen_by_bot, 5)).id == created.message_id
    assert [m.content for m in fake.messages_in("general")] == ["public board v2"]

    heard = asyncio.ensure_future(
        bot.wait_for("message", check=lambda m: m.author.id == fake.user("carol").id)
    )
    await fake.say("carol", "hello bot")
    assert (await asyncio.wait_for(heard, 5)).content == "hello bot"


async def test_modal_roundtrip(fake: FakeDiscord, bot: DemoBot) -> None:
    opener = await fake.slash("alice", "demo", "modal")
    modal = await opener.wait_modal()
    assert modal.custom_id == "demo:modal" and modal.title == "Your name"
    assert [c["custom_id"] for c in modal.text_inputs] == ["demo:modal:name"]
    reply = await (await fake.submit_modal("alice", opener, {"demo:modal:name": "Ada"}))
    assert reply.content == "hi Ada" and reply.ephemeral


async def test_threads(fake: FakeDiscord, bot: DemoBot) -> None:
    table = fake.add_thread("games", "table-1", members=[fake.user("alice")])
    inside = await (await fake.slash("alice", "demo", "secret", channel=table))
    assert inside.channel_id == table.id

    made = await (await fake.slash("alice", "demo", "thread"))
    thread = fake.channel(int(made.content.split()[1]))
    assert thread.is_thread and thread.parent_id == fake.default_channel.id
    assert fake.user("alice").id in thread.member_ids
    assert [m.content for m in fake.sent if m.channel_id == thread.id] == ["game starts"]


async def test_discord_limits_are_enforced(fake: FakeDiscord, bot: DemoBot) -> None:
    too_long = await fake.slash("alice", "demo", "long")
    reply = await too_long  # the 400 makes the command fail; the error handler answers
    assert reply.content == "error: CommandInvokeError"
    assert [v.kind for v in fake.take_violations()] == ["content_length"]

    headers = {"Authorization": "Bot fake-token"}
    async with aiohttp.ClientSession() as session:
        url = (
            f"{fake.api_base}/interactions/{too_long.id}/{too_long.token}/callback?with_response=1"
        )
        async with session.post(url, json={"type": 4, "data": {"content": "again"}}) as response:
            assert response.status == 400
            assert response.headers["Content-Type"] == "application/json"
            assert (await response.json())["code"] == 40060
        assert [v.kind for v in fake.take_violations()] == ["double_ack"]

        button = {"type": 2, "style": 1, "label": "b", "custom_id": "c" * 101}
        rows = [{"type": 1, "components": [dict(button, custom_id=f"r{i}")]} for i in range(6)]
        channel_url = f"{fake.api_base}/channels/{fake.default_channel.id}/messages"
        async with session.post(
            channel_url, json={"content": "x", "components": rows}, headers=headers
        ) as response:
            assert response.status == 400
        async with session.post(
            channel_url,
            json={"components": [{"type": 1, "components": [button] * 6}]},
            headers=headers,
        ) as response:
            assert response.status == 400
    kinds = sorted({v.kind for v in fake.take_violations()})
    assert kinds == ["components", "custom_id"]

    fake.ack_deadline = 0.1
    slow = await fake.slash("alice", "demo", "slow")
    with pytest.raises(AssertionError, match="not acknowledged"):
        await slow
    # Let the bot's late attempts (the response, then its error handler) hit the fake.
    await fake.wait_until(lambda: sum(f"/interactions/{slow.id}/" in r for r in fake.requests) >= 2)
    assert [v.kind for v in fake.take_violations()] == ["late_ack"]
    assert fake.sent[-1].interaction_token != slow.token  # nothing was recorded for it


async def test_unknown_routes_are_caught(fake: FakeDiscord, bot: DemoBot) -> None:
    with pytest.raises(discord.NotFound):
        await bot.http.request(
            discord.http.Route("GET", "/guilds/{guild_id}/bans", guild_id=fake.guild_id)
        )
    [route] = fake.unknown_routes
    assert route.method == "GET" and route.path.endswith(f"/guilds/{fake.guild_id}/bans")
    with pytest.raises(AssertionError, match="unknown route"):
        fake.assert_clean()
    fake.take_unknown_routes()
    fake.assert_clean()


async def test_gateway_resume(fake: FakeDiscord, bot: DemoBot) -> None:
    resumed = asyncio.ensure_future(bot.wait_for("resumed"))
    await fake.drop_gateway(4000)
    await asyncio.wait_for(resumed, 5)
    assert fake.resume_count == 1 and fake.identify_count == 1
    reply = await (await fake.slash("alice", "demo", "secret"))
    assert reply.ephemeral


async def test_bot_subprocess_killed_and_restarted(fake: FakeDiscord) -> None:
    process = BotProcess(
        fake,
        [sys.executable, "-m", "tests.e2e.test_fake_discord"],
        env={"DEMO_GUILD_ID": str(fake.guild_id)},
        cwd=str(ROOT),
    )
    try:
        await process.start()
        first_pid = process.process.pid
        demo_id = fake.command("demo")["id"]
        post = await (await fake.slash("alice", "demo", "button", {"n": 3}))
        first = await (await fake.click("bob", post, "demo:press:3"))
        assert first.content == f"pressed 3 by bob pid {first_pid}"
        menu = await (await fake.slash("alice", "demo", "pick"))

        await process.kill()
        assert not fake.connected
        await process.start()
        assert process.process.pid != first_pid
        assert fake.identify_count == 2 and len(fake.command_syncs) == 4
        assert fake.command("demo")["id"] == demo_id  # same command ids after re-sync

        again = await (await fake.click("bob", post, "demo:press:3"))
        assert again.content == f"pressed 3 by bob pid {process.process.pid}"

        # The select view lived only in the dead process: nobody answers, the fake notices.
        fake.ack_deadline = 0.3
        stale = await fake.select("alice", menu, "demo:pick", ["red"])
        with pytest.raises(AssertionError, match="not acknowledged"):
            await stale
        assert [v.kind for v in fake.take_violations()] == ["late_ack"]
    except BaseException:
        print(process.output()[-3000:])
        raise
    finally:
        await process.close()


if __name__ == "__main__":
    run_demo_bot_from_env()
