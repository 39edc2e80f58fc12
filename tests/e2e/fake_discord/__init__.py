"""A fake Discord (REST API and gateway) on loopback, for end-to-end tests.

The real discord.py client talks to :class:`FakeDiscord` over real sockets, in
the test process or in another process. The fake keeps one guild with text
channels, threads, members and the bot user; it stores the application commands
the bot syncs, records every message the bot creates or edits, and lets a test
act as a Discord user: run slash commands (and autocomplete), click buttons,
pick select options, submit modals and post plain messages.

Typical use in a test::

    async with FakeDiscord() as fake:             # fails at exit on problems
        with pointed_at(fake):                    # discord.py -> the fake
            async with running_client(fake, make_bot()):
                alice = fake.user("alice")
                reply = await (await fake.slash(alice, "ttr", "new", {"map": "usa"}))
                assert reply.ephemeral
                board = await fake.click(alice, reply, "ttr:join:1")

Awaiting the handle that :meth:`FakeDiscord.slash`, :meth:`FakeDiscord.click`,
:meth:`FakeDiscord.select` and :meth:`FakeDiscord.submit_modal` return waits,
without polling, for the interaction's response: the initial message, or for a
deferred acknowledgement the first followup or ``@original`` edit. Every waiter
is armed before the event is sent.

Problems are collected instead of raised inside the server: requests to routes
the fake does not know (:attr:`FakeDiscord.unknown_routes`) and breaches of
Discord's rules (:attr:`FakeDiscord.violations`: privacy, message limits, late
or double acknowledgements, bad command definitions...). :meth:`assert_clean`
fails if any occurred; tests that provoke them on purpose consume them with
:meth:`take_violations` / :meth:`take_unknown_routes`.

For a bot in a subprocess use :class:`BotProcess`, which passes
``DISCORD_API_BASE``, ``DISCORD_GATEWAY_URL``, ``DISCORD_CDN_BASE`` and
``DISCORD_TOKEN`` in the environment. The fake keeps running (and keeps its
commands and messages) while the bot process is killed and started again.
"""

from __future__ import annotations

from .fake import FakeDiscord
from .interactions import InteractionHandle
from .process import BotProcess, pointed_at, running_client
from .protocol import (
    ACK_DEADLINE,
    API_PREFIX,
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFAULT_ATTACHMENT_SIZE_LIMIT,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    EPHEMERAL,
    IS_COMPONENTS_V2,
    LOADING,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    SUPPRESS_EMBEDS,
    SUPPRESS_NOTIFICATIONS,
    UPDATE_MESSAGE,
    Perm,
)
from .records import (
    Attachment,
    FakeChannel,
    FakeUser,
    Fault,
    ModalRequest,
    SentMessage,
    UnknownRoute,
    Violation,
    iter_components,
    pings_of,
)
from .routing import solid_png
from .store import MessageExpectation
from .validation import (
    Problem,
    check_allowed_mentions,
    check_choices,
    check_command_definition,
    check_components,
    check_embeds,
    check_message_payload,
    check_modal,
    errors_body,
)

__all__ = [
    "ACK_DEADLINE",
    "API_PREFIX",
    "APPLICATION_COMMAND",
    "AUTOCOMPLETE",
    "AUTOCOMPLETE_RESULT",
    "CHANNEL_MESSAGE",
    "DEFAULT_ATTACHMENT_SIZE_LIMIT",
    "DEFERRED_CHANNEL_MESSAGE",
    "DEFERRED_UPDATE_MESSAGE",
    "EPHEMERAL",
    "IS_COMPONENTS_V2",
    "LOADING",
    "MESSAGE_COMPONENT",
    "MODAL",
    "MODAL_SUBMIT",
    "SUPPRESS_EMBEDS",
    "SUPPRESS_NOTIFICATIONS",
    "UPDATE_MESSAGE",
    "Attachment",
    "BotProcess",
    "FakeChannel",
    "FakeDiscord",
    "FakeUser",
    "Fault",
    "InteractionHandle",
    "MessageExpectation",
    "ModalRequest",
    "Perm",
    "Problem",
    "SentMessage",
    "UnknownRoute",
    "Violation",
    "check_allowed_mentions",
    "check_choices",
    "check_command_definition",
    "check_components",
    "check_embeds",
    "check_message_payload",
    "check_modal",
    "errors_body",
    "iter_components",
    "pings_of",
    "pointed_at",
    "running_client",
    "solid_png",
]
