"""The fake Discord refuses what Discord refuses, as Discord does: 400, code 50035, and an
``errors`` body that names the path and Discord's error code."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

from .fake_discord import FakeDiscord, check_components, check_message_payload, errors_body


def _button(custom_id: str | None = "b", **extra: Any) -> dict[str, Any]:
    button: dict[str, Any] = {"type": 2, "style": 1, "label": "Go", **extra}
    if custom_id is not None:
        button["custom_id"] = custom_id
    return button


def _select(options: int = 3, **extra: Any) -> dict[str, Any]:
    opts = [{"label": f"o{i}", "value": str(i)} for i in range(options)]
    return {"type": 3, "custom_id": "s", "options": opts, **extra}


def _choices(*options: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": 3, "custom_id": "s", "options": list(options), **extra}


def _row(*children: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(children)}


def _codes(components: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(".".join(map(str, p.path)), p.code) for p in check_components(components)]


GOOD = [_row(_select(25, max_values=25)), _row(*(_button(f"b{i}") for i in range(5)))]

BAD: dict[str, tuple[list[dict[str, Any]], tuple[str, str]]] = {
    "duplicate custom id": (
        [_row(_select()), _row(_button("s"))],
        ("components.1.components.0.custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED"),
    ),
    "six rows": (
        [_row(_button(f"r{i}")) for i in range(6)],
        ("components", "BASE_TYPE_BAD_LENGTH"),
    ),
    "six buttons in a row": (
        [_row(*(_button(f"b{i}") for i in range(6)))],
        ("components.0.components", "BASE_TYPE_BAD_LENGTH"),
    ),
    "empty row": ([_row()], ("components.0.components", "BASE_TYPE_BAD_LENGTH")),
    "select beside a button": (
        [_row(_select(), _button("x"))],
        ("components.0.components", "COMPONENT_LAYOUT_WIDTH_EXCEEDED"),
    ),
    "26 options": (
        [_row(_select(26))],
        ("components.0.components.0.options", "BASE_TYPE_BAD_LENGTH"),
    ),
    "no options": (
        [_row(_select(0, min_values=0))],
        ("components.0.components.0.options", "BASE_TYPE_BAD_LENGTH"),
    ),
    "option values twice": (
        [_row(_choices({"label": "a", "value": "v"}, {"label": "b", "value": "v"}))],
        ("components.0.components.0.options.1.value", "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED"),
    ),
    "option label 101": (
        [_row(_choices({"label": "x" * 101, "value": "v"}))],
        ("components.0.components.0.options.0.label", "BASE_TYPE_MAX_LENGTH"),
    ),
    "empty option value": (
        [_row(_choices({"label": "a", "value": ""}))],
        ("components.0.components.0.options.0.value", "BASE_TYPE_REQUIRED"),
    ),
    "option description 101": (
        [_row(_choices({"label": "a", "value": "v", "description": "d" * 101}))],
        ("components.0.components.0.options.0.description", "BASE_TYPE_MAX_LENGTH"),
    ),
    "placeholder 151": (
        [_row(_select(placeholder="p" * 151))],
        ("components.0.components.0.placeholder", "BASE_TYPE_MAX_LENGTH"),
    ),
    "max_values over the options": (
        [_row(_select(3, max_values=4))],
        ("components.0.components.0.max_values", "SELECT_COMPONENT_MAX_VALUES_EXCEEDS_OPTIONS"),
    ),
    "min_values over max_values": (
        [_row(_select(3, min_values=3, max_values=2))],
        ("components.0.components.0.min_values", "BASE_TYPE_BAD_INT"),
    ),
    "two preselected of one": (
        [
            _row(
                _choices(
                    {"label": "a", "value": "a", "default": True},
                    {"label": "b", "value": "b", "default": True},
                )
            )
        ],
        ("components.0.components.0.options", "SELECT_COMPONENT_TOO_MANY_DEFAULT_VALUES"),
    ),
    "custom id 101": (
        [_row(_button("c" * 101))],
        ("components.0.components.0.custom_id", "BASE_TYPE_BAD_LENGTH"),
    ),
    "empty custom id": (
        [_row(_button(""))],
        ("components.0.components.0.custom_id", "BASE_TYPE_BAD_LENGTH"),
    ),
    "button label 81": (
        [_row(_button("b", label="l" * 81))],
        ("components.0.components.0.label", "BASE_TYPE_MAX_LENGTH"),
    ),
    "button without label or emoji": (
        [_row(_button("b", label=""))],
        ("components.0.components.0", "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED"),
    ),
    "button without custom id": (
        [_row(_button(None))],
        ("components.0.components.0.custom_id", "BASE_TYPE_REQUIRED"),
    ),
    "link button with a custom id": (
        [_row(_button("b", style=5, url="https://example.org"))],
        ("components.0.components.0.custom_id", "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED"),
    ),
    "link button without url": (
        [_row(_button(None, style=5))],
        ("components.0.components.0.url", "BASE_TYPE_REQUIRED"),
    ),
    "unknown style": (
        [_row(_button("b", style=9))],
        ("components.0.components.0.style", "ENUM_TYPE_COERCE"),
    ),
    "text input in a message": (
        [_row({"type": 4, "custom_id": "t", "style": 1, "label": "x"})],
        ("components.0.components.0", "COMPONENT_TYPE_INVALID"),
    ),
    "a button at the top": (
        [_button("b")],
        ("components.0.type", "UNION_TYPE_CHOICES"),
    ),
}


def test_a_valid_message_passes() -> None:
    """Five rows: a select of 25 options (all may be chosen) and five buttons."""
    assert check_components(GOOD) == []
    link = _row(_button(None, style=5, url="https://example.org", label="Rules"))
    assert check_components([link]) == []


@pytest.mark.parametrize("case", sorted(BAD))
def test_each_component_rule(case: str) -> None:
    """Each rule Discord enforces is found, at the path Discord names, with its error code."""
    components, expected = BAD[case]
    assert expected in _codes(components), _codes(components)


def test_message_rules_and_the_errors_body() -> None:
    """Content over 2,000, embeds over their limits, allowed mentions that contradict
    themselves; the errors body nests the paths as Discord does."""
    payload = {
        "content": "x" * 2001,
        "embeds": [{"title": "t" * 257, "fields": [{"name": "n", "value": "v" * 1025}]}],
        "allowed_mentions": {"parse": ["users"], "users": ["1"]},
    }
    problems = check_message_payload(payload, [], size_limit=1 << 20, creating=True)
    found = {(".".join(map(str, p.path)), p.code) for p in problems}
    assert {
        ("content", "BASE_TYPE_MAX_LENGTH"),
        ("embeds.0.title", "BASE_TYPE_MAX_LENGTH"),
        ("embeds.0.fields.0.value", "BASE_TYPE_MAX_LENGTH"),
        ("allowed_mentions", "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE"),
    } <= found, found
    body = errors_body(problems, ("data",))
    assert body["data"]["content"]["_errors"] == [
        {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 2000 or fewer in length."}
    ]
    total = check_message_payload(
        {"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]},
        [],
        size_limit=1 << 20,
        creating=True,
    )
    assert [p.code for p in total] == ["MAX_EMBED_SIZE_EXCEEDED"]


async def test_the_fake_answers_400_50035_with_the_errors_body() -> None:
    """Over HTTP, a channel message and an interaction callback with a duplicate custom id are
    refused with 400, code 50035 and the errors body (under ``data`` for the callback)."""
    async with FakeDiscord() as fake:
        headers = {"Authorization": "Bot fake-token"}
        duplicate = [_row(_select()), _row(_button("s"))]
        async with aiohttp.ClientSession() as session:
            url = f"{fake.api_base}/channels/{fake.default_channel.id}/messages"
            async with session.post(
                url, json={"content": "x", "components": duplicate}, headers=headers
            ) as response:
                assert response.status == 400
                body = await response.json()
        assert body["code"] == 50035 and body["message"] == "Invalid Form Body"
        leaf = body["errors"]["components"]["1"]["components"]["0"]["custom_id"]
        assert leaf["_errors"][0]["code"] == "COMPONENT_CUSTOM_ID_DUPLICATED"
        assert [v.kind for v in fake.take_violations()] == ["custom_id"]


def test_pings_follow_allowed_mentions() -> None:
    """Who a message notifies: every mention without allowed_mentions; only what they allow
    with them (a user list, parse of users, roles, everyone)."""
    from .fake_discord import pings_of

    text = "<@1> <@!2> <@&3> @everyone"
    assert pings_of(text, None) == {"user:1", "user:2", "role:3", "everyone"}
    assert pings_of(text, {"parse": []}) == set()
    assert pings_of(text, {"parse": [], "users": ["2"]}) == {"user:2"}
    assert pings_of(text, {"parse": ["users"]}) == {"user:1", "user:2"}
    assert pings_of(text, {"parse": ["roles", "everyone"]}) == {"role:3", "everyone"}
