"""Hostile input in every command option gets a private answer within Discord's limits.

A property test (hypothesis) drives every string and number option of every /ttr command, and
the autocomplete of every option that has one, with what a mischievous player types: 6,000
characters, control, zero-width and right-to-left characters, markdown, mentions of everyone,
roles and users, and the edges of every number range. The bot and the fake Discord run on an
event loop in a thread; each example is one interaction through the fake, and it must be:

- acknowledged within 3 s, measured on the fake's clock (the acknowledgement's timestamp,
  not a timed test);
- answered privately, every message within Discord's limits (the fake refuses anything
  else with 400 / 50035 and records a violation);
- pinging no one, showing no raw mention, direction override or control character;
- leaving nothing public and no traceback or error in the log.

Options whose values Discord restricts to a list of choices (``/ttr draw source``, ``level``,
``turn_time``...) can only carry those choices and are drawn from them.
"""

from __future__ import annotations

import asyncio
import logging
import re
import threading
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ..e2e.fake_discord import FakeDiscord, SentMessage
from ._harness import RunningTable, running_table, started_game

#: Examples per command (each is one interaction through the fake, about 0.1 s).
EXAMPLES_PER_COMMAND = 20

#: Options whose free text reaches the bot: drawn from HOSTILE; the rest from their choices.
CONTROL = [chr(c) for c in range(32) if chr(c) not in "\n"] + ["\x7f"]
INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"]
DIRECTION = [
    "\u202a",
    "\u202b",
    "\u202c",
    "\u202d",
    "\u202e",
    "\u2066",
    "\u2067",
    "\u2068",
    "\u2069",
    "\u200e",
    "\u200f",
]
MARKUP = [
    "**",
    "__",
    "`",
    "```",
    "~~",
    "||",
    "> ",
    "# ",
    "-# ",
    "[x](https://evil.example)",
    "https://evil.example",
    "@everyone",
    "@here",
    "<@123456789012345678>",
    "<@!123456789012345678>",
    "<@&123456789012345678>",
    "<#123456789012345678>",
    "</ttr hand:1>",
    "<t:1:R>",
    ":smile:",
]
PIECES = CONTROL + INVISIBLE + DIRECTION + MARKUP + ["Denver", "é", "\n", "ß", "漢", "🚂", " "]

#: The nastiest values, sent to every free-text option before the generated ones.
CANONICAL = (
    ("@everyone <@123456789012345678> <@&123456789012345678> **x** " * 200)[:6000],
    "\u202e" + "[x](https://evil.example) " * 20 + "\u2066\x00\x1b[31m\u200b",
    "".join(PIECES),
    "x" * 6000,
    "\n".join(MARKUP),
)

HOSTILE = st.one_of(
    st.lists(st.sampled_from(PIECES), min_size=1, max_size=40).map("".join),
    st.text(max_size=120),
    st.builds(
        lambda piece, n: (piece * n)[:6000],
        st.sampled_from(["x", "@everyone ", "\u202e", "**", "é", "<@123456789012345678>"]),
        st.integers(1, 6000),
    ),
    st.just("x" * 6000),
    st.sampled_from(["", " ", "usa", "tickets", "denver", "Denver", "d", "a"]),
).map(lambda s: s[:6000])


def _options(command: dict[str, Any], prefix: str = "") -> dict[str, list[dict[str, Any]]]:
    """Subcommand path (``claim``, ``game log``) -> its string and number options, for every
    subcommand, in the groups too, where at least one of them takes free input (text, or a
    number in a range); a subcommand whose options are all lists of choices (``/ttr draw
    source``, ``/ttr add_ai level``) can only receive those, and making its move would post in
    public as it should."""
    out = {}
    for sub in command.get("options") or []:
        if sub.get("type") == 2:
            out |= _options(sub, f"{prefix}{sub['name']} ")
        if sub.get("type") != 1:
            continue
        every = sub.get("options") or []
        if any(o.get("required") and o.get("type") not in (3, 4, 10) for o in every):
            continue  # a required member (/ttr seat offer): Discord sends only real members
        opts = [o for o in every if o.get("type") in (3, 4, 10)]
        if any(not o.get("choices") for o in opts):
            out[prefix + sub["name"]] = opts
    return out


def _fit(option: dict[str, Any], text: str) -> str:
    """``text`` within the option's ``min_length``/``max_length``, as Discord's client sends
    it (it refuses to send a text outside them: the fake checks that too)."""
    text = text[: option.get("max_length", 6000)]
    return text + "x" * max(0, option.get("min_length", 0) - len(text))


def _plain(option: dict[str, Any]) -> Any:
    """A harmless value of a required option beside the hostile one (``/ttr tournament open``
    needs its map and format too): the first choice, the least number, a short text."""
    if option.get("choices"):
        return option["choices"][0]["value"]
    if option["type"] == 3:
        return _fit(option, "x")
    return option.get("min_value", 1)


def _value(draw: Callable[..., Any], option: dict[str, Any]) -> Any:
    if option.get("choices"):
        return draw(st.sampled_from([c["value"] for c in option["choices"]]))
    if option["type"] == 3:
        return _fit(option, draw(HOSTILE))
    lo = option.get("min_value", -(2**53))
    hi = option.get("max_value", 2**53)
    return draw(
        st.one_of(st.sampled_from([lo, hi, lo + 1 if lo < hi else lo]), st.integers(lo, hi))
    )


class Live:
    """The running table (fake Discord, bot, service) on an event loop in a thread."""

    def __init__(self, tmp_path: Path) -> None:
        self._ready: Future[tuple[RunningTable, asyncio.AbstractEventLoop]] = Future()
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(
            target=asyncio.run, args=(self._main(tmp_path),), daemon=True
        )
        self._thread.start()
        self.table, self.loop = self._ready.result(timeout=120)

    async def _main(self, tmp_path: Path) -> None:
        self._stop = asyncio.Event()
        try:
            async with running_table(tmp_path, ("alice", "bob")) as table:
                await started_game(table)
                self._ready.set_result((table, asyncio.get_running_loop()))
                await self._stop.wait()
        except BaseException as exc:
            if not self._ready.done():
                self._ready.set_exception(exc)
            raise

    def run(self, coro: Coroutine[Any, Any, Any], timeout: float = 60) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def close(self) -> None:
        assert self._stop is not None
        self.loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(timeout=60)


class Records(logging.Handler):
    """Every log record of the process while the test runs."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def live(tmp_path: Path) -> Iterator[tuple[Live, Records]]:
    records = Records()
    root = logging.getLogger()
    root.addHandler(records)
    live = Live(tmp_path)
    try:
        yield live, records
    finally:
        live.close()
        root.removeHandler(records)


#: What no answer may show: control and direction characters, @everyone/@here, a role mention,
#: the mentions and links the hostile input carries (the players' own mentions are the bot's).
_FORBIDDEN = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f"
    + "".join(DIRECTION)
    + "]|@everyone|@here|<@&|<[@#]!?123456789012345678>|</ttr hand:1>|<t:1:R>|https://evil"
)


def _check_messages(messages: list[SentMessage], what: str) -> None:
    assert messages, f"{what}: no answer"
    for m in messages:
        assert m.ephemeral, f"{what}: a public answer {m.summary()}"
        assert not m.pings, f"{what}: it pinged {sorted(m.pings)}"
        bad = _FORBIDDEN.search(m.text.replace("\t", " "))
        assert bad is None, f"{what}: shows {bad.group()!r}: {m.text[:300]!r}"


async def _mover(table: RunningTable) -> str:
    """The name of the player whose move it is."""
    return (await table.active(await table.game_id())).user.name


async def _interact(
    fake: FakeDiscord, who: str, sub: str, options: dict[str, Any], focused: str | None
) -> tuple[Any, list[SentMessage]]:
    handle = await fake.slash(who, "ttr", sub, options, channel="games", focused=focused)
    result = await handle.response(timeout=30)
    latency = handle.ack_latency
    assert latency is not None and latency <= 3.0, f"acknowledged after {latency} s"
    return result, list(handle.messages)


def test_hostile_options_are_answered_privately_within_limits(live: tuple[Live, Records]) -> None:
    """Every string and number option (and every autocomplete) with hostile values: first the
    :data:`CANONICAL` ones in every free-text option, then generated ones for every command;
    see the module docstring for what each answer must be."""
    runner, records = live
    fake = runner.table.fake
    commands = _options(fake.command("ttr"))
    assert {"claim", "board", "new", "game rules", "tickets", "game log", "game show"} <= set(
        commands
    )
    public_before = [m.message_id for m in fake.sent if not m.ephemeral]
    seen: set[str] = set()

    def check(sub: str, who: str, options: dict[str, Any], focused: str | None) -> None:
        seen.add(sub + (" autocomplete" if focused else ""))
        before = len(records.records)
        result, messages = runner.run(_interact(fake, who, sub, options, focused))
        what = f"/ttr {sub} {options!r}"[:300]
        if focused is None:
            _check_messages(messages, what)
        else:
            assert isinstance(result, list) and len(result) <= 25, what
        assert not fake.take_violations(), what
        bad = [
            r
            for r in records.records[before:]
            if r.levelno >= logging.ERROR or r.exc_info or "Traceback" in r.getMessage()
        ]
        assert not bad, f"{what}: {[r.getMessage() for r in bad]}"

    for sub, defs in sorted(commands.items()):
        for option in defs:
            if option["type"] != 3 or option.get("choices"):
                continue
            others = {o["name"]: _plain(o) for o in defs if o.get("required") and o is not option}
            for value in (_fit(option, text) for text in CANONICAL):
                mover = runner.run(_mover(runner.table))
                check(sub, mover, {**others, option["name"]: value}, None)
                if option.get("autocomplete"):
                    check(sub, mover, {**others, option["name"]: value}, option["name"])

    @settings(
        max_examples=EXAMPLES_PER_COMMAND,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(data=st.data())
    def one(sub: str, data: st.DataObject) -> None:
        defs = commands[sub]
        options = {}
        for option in defs:
            if option.get("required") or data.draw(st.booleans(), label=f"{option['name']}?"):
                options[option["name"]] = _value(data.draw, option)
        auto = [o["name"] for o in defs if o.get("autocomplete")]
        focused = data.draw(st.sampled_from([None, *auto]), label="autocomplete")
        if focused is not None:
            options[focused] = data.draw(HOSTILE, label="typed")
        mover = runner.run(_mover(runner.table))
        other = "bob" if mover == "alice" else "alice"
        who = data.draw(st.sampled_from([mover, mover, mover, other]), label="user")
        check(sub, who, options, focused)

    for sub in sorted(commands):
        one(sub)
    assert set(commands) <= seen, seen
    assert {"claim autocomplete", "board autocomplete", "new autocomplete"} <= seen, seen
    public_after = [m for m in fake.sent if not m.ephemeral and m.message_id not in public_before]
    assert not public_after, [m.summary() for m in public_after]
    assert not fake.problems()
