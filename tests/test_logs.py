"""bot/process/logs.py: library lines keep their shape without payloads; tokens masked; noisy libraries
capped at INFO (issue 28 point 1)."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest

from bot.process.logs import QUIET, install, mask_tokens, safe_arg


@pytest.fixture
def captured() -> Iterator[io.StringIO]:
    root = logging.getLogger()
    saved = (
        list(root.handlers),
        root.level,
        {n: logging.getLogger(n).level for n in (*QUIET, "discord")},
    )
    stream = io.StringIO()
    install("DEBUG", shard="0-1/2", stream=stream)
    try:
        yield stream
    finally:
        for handler in list(root.handlers):
            root.removeHandler(handler)
        for handler in saved[0]:
            root.addHandler(handler)
        root.setLevel(saved[1])
        for name, level in saved[2].items():
            logging.getLogger(name).setLevel(level)


SECRET = {"op": 0, "t": "INTERACTION_CREATE", "d": {"content": "• Helena – Los Angeles (8)"}}


def test_library_payloads_are_hidden_and_shapes_kept(captured: io.StringIO) -> None:
    logging.getLogger("discord.gateway").debug("For Shard ID %s: WebSocket Event: %s", None, SECRET)
    logging.getLogger("discord.http").debug(
        "%s %s with %s has returned %s",
        "POST",
        "https://discord.com/api/v10/webhooks/1/SECRET-TOKEN-abc",
        '{"content": "Helena"}',
        200,
    )
    logging.getLogger("discord.http").warning(
        "rate limited on %s", "https://discord.com/api/v10/interactions/5/TOK/callback"
    )
    logging.getLogger("somelib").debug("x" * 500)
    logging.getLogger("aiosqlite").debug("executing %s", "INSERT ... ('Helena')")
    logging.getLogger("bot.host.storage").debug("game %s: actions %s-%s stored", 7, 1, 2)
    text = captured.getvalue()
    assert "Helena" not in text and "SECRET-TOKEN" not in text and "TOK/" not in text
    assert "<gateway op=0 t=INTERACTION_CREATE s=None>" in text
    assert (
        "POST https://discord.com/api/v10/webhooks/1/<token> with <21 characters hidden> has returned 200"
        in text
    )
    assert "<500 characters of somelib debug output hidden>" in text
    assert "aiosqlite" not in text  # held at INFO
    assert "shard=0-1/2 game=7 bot.host.storage: game 7: actions 1-2 stored" in text


def test_json_lines_are_filtered_too() -> None:
    stream = io.StringIO()
    root = logging.getLogger()
    saved = list(root.handlers), root.level
    handler = install("DEBUG", json_lines=True, stream=stream)
    try:
        logging.getLogger("discord.gateway").debug("event %s", SECRET)
    finally:
        root.removeHandler(handler)
        for h in saved[0]:
            root.addHandler(h)
        root.setLevel(saved[1])
    doc = json.loads(stream.getvalue().splitlines()[0])
    assert doc["message"] == "event <gateway op=0 t=INTERACTION_CREATE s=None>"


def test_safe_arg() -> None:
    assert safe_arg(5) == 5 and safe_arg("GET") == "GET"
    assert safe_arg(b"abc") == "<3 bytes hidden>"
    assert safe_arg(["a"]) == "<list hidden>"
    assert safe_arg({"a": 1}) == "<1 keys hidden>"
    assert mask_tokens("/webhooks/12/abc.def-ghi/messages/@original") == (
        "/webhooks/12/<token>/messages/@original"
    )
