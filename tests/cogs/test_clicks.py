"""Clicks as classes: one class per kind of component (its readable template, its fields, its
handler), one DynamicItem per kind made from it, one class for every other id, and the ids
already sent (by this release and older ones) still answered."""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path
from typing import Any

import discord
import pytest

from cogs.ttr import _ids as ids
from cogs.ttr._clicks import ITEMS, KIND_ITEMS, OtherComponent
from cogs.ttr._components import Pick, components

from ._harness import running_table, started_game

#: One click of every kind (game 7, version 12).
EXAMPLES: list[ids.Click] = [
    ids.Hand(7),
    ids.Draw(7),
    ids.Claim(7),
    ids.Tickets(7),
    ids.Board(7),
    ids.Zoom(7),
    ids.Log(7),
    ids.Join(7),
    ids.Start(7),
    ids.Rematch(7),
    ids.DrawCard(7, 12),
    ids.DrawCard(7, 12, 4),
    ids.RoutePage(7, 12, 3),
    ids.RoutePage(7, 12, -1),
    ids.RoutePick(7, 12, 0),
    ids.PaymentPick(7, 12, 41),
    ids.ClaimConfirm(7, 12, 41, 2),
    ids.ClaimCancel(7, 12),
    ids.TicketDraw(7, 12, 1),
    ids.KeepPick(7, 12),
    ids.Keep(7, 12, (0, 2)),
    ids.Keep(7, 12, ()),
    ids.TunnelPay(7, 12, 0),
    ids.TunnelGiveUp(7, 12),
    ids.Flag(7, 12, 1),
    ids.Flag(7, 12),
    ids.LogPage(7, 4, 2),
    ids.ForgetMe(0, 123456789012345678, "ask"),
    ids.ForgetMe(0, 123456789012345678, "confirm"),
    ids.ForgetMe(0, 7, "resign"),
    ids.ForgetMe(0, 7, "keep"),
    ids.TournamentButton(12, "join"),
    ids.TournamentButton(12, "leave"),
    ids.TournamentButton(123456789012345678, "standings"),
]

#: Ids older releases sent (two-letter verbs in private menus) -> what they mean now.
OLD_IDS: list[tuple[str, bool, ids.Click]] = [
    ("ttr:7:hand", False, ids.Hand(7)),
    ("ttr:7:draw", False, ids.Draw(7)),
    ("ttr:7:claim", False, ids.Claim(7)),
    ("ttr:7:tickets", False, ids.Tickets(7)),
    ("ttr:7:board", False, ids.Board(7)),
    ("ttr:7:zoom", False, ids.Zoom(7)),
    ("ttr:7:log", False, ids.Log(7)),
    ("ttr:7:join", False, ids.Join(7)),
    ("ttr:7:start", False, ids.Start(7)),
    ("ttr:7:rematch", False, ids.Rematch(7)),
    ("ttr:7:dr:12:d", False, ids.DrawCard(7, 12)),
    ("ttr:7:dr:12:3", False, ids.DrawCard(7, 12, 3)),
    ("ttr:7:cr:12:2", False, ids.RoutePage(7, 12, 2)),
    ("ttr:7:cr:12:2", True, ids.RoutePick(7, 12, 2)),
    ("ttr:7:cs:12:41", True, ids.PaymentPick(7, 12, 41)),
    ("ttr:7:cc:12:41.2", False, ids.ClaimConfirm(7, 12, 41, 2)),
    ("ttr:7:cx:12:0", False, ids.ClaimCancel(7, 12)),
    ("ttr:7:td:12:1", False, ids.TicketDraw(7, 12, 1)),
    ("ttr:7:ks:12:0", True, ids.KeepPick(7, 12)),
    ("ttr:7:kt:12:5", False, ids.Keep(7, 12, (0, 2))),
    ("ttr:7:tp:12:0", False, ids.TunnelPay(7, 12, 0)),
    ("ttr:7:ta:12:0", False, ids.TunnelGiveUp(7, 12)),
    ("ttr:7:fl:12:1", False, ids.Flag(7, 12, 1)),
    ("ttr:7:fl:12:n", False, ids.Flag(7, 12)),
    ("ttr:7:lg:12:4.2", False, ids.LogPage(7, 4, 2)),
]


#: Ids the bot sent before kinds became one class each: kind, select, id, fields as JSON.
SENT = Path(__file__).with_name("old_custom_ids.txt")


def _sent() -> list[tuple[str, bool, str, dict[str, object]]]:
    rows = []
    for line in SENT.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            kind, select, text, fields = line.split("\t")
            rows.append((kind, select == "1", text, json.loads(fields)))
    return rows


def _dispatched(
    custom_id: str,
) -> list[type[discord.ui.DynamicItem[discord.ui.Item[discord.ui.View]]]]:
    """The registered classes discord.py would hand this id to (it fullmatches every template)."""
    return [item for item in ITEMS if item.__discord_ui_compiled_template__.fullmatch(custom_id)]


def test_every_kind_has_its_own_class() -> None:
    """One DynamicItem class per kind of click, and every kind has one."""
    assert sorted(item.kind.__name__ for item in KIND_ITEMS) == sorted(
        k.__name__ for k in ids.KINDS
    )
    assert len({item.kind for item in KIND_ITEMS}) == len(KIND_ITEMS)


@pytest.mark.parametrize("click", EXAMPLES, ids=lambda c: c.custom_id)
def test_each_id_goes_to_exactly_its_kind_and_reads_back(click: ids.Click) -> None:
    """An id is dispatched to one class only (its kind's), and reads back to the same click."""
    text = click.custom_id
    assert len(text) <= ids.MAX_CUSTOM_ID
    [item] = _dispatched(text)
    assert item is not OtherComponent and item.kind is type(click)
    assert ids.parse(text) == click


def test_templates_read_like_the_ids_they_take() -> None:
    """Each template names its fields (game, or the user for a player's own data; version for
    menus) and its kind in words."""
    for kind in ids.KINDS:
        groups = set(re.compile(kind.TEMPLATE).groupindex)
        assert ("game" in groups) != issubclass(kind, ids.AccountClick), kind
        assert ("user" in groups) == issubclass(kind, ids.AccountClick), kind
        assert ("version" in groups) == issubclass(kind, ids.MenuClick), kind
        words = re.sub(r"\(\?P<\w+>[^)]*\)|\(\?:|[()|?*{}\[\]\\.0-9,+-]", " ", kind.TEMPLATE)
        assert re.search(r"[a-z]{3,}", words.replace("ttr", "")), kind.TEMPLATE


def test_the_ids_already_sent_cover_every_kind_of_their_release() -> None:
    """The fixture holds ids of all 32 kinds of the release that wrote it, and every one of
    those kinds still exists."""
    sent = {kind for kind, *_ in _sent()}
    assert len(sent) == 32 and sent <= {k.__name__ for k in ids.KINDS}


@pytest.mark.parametrize("kind,select,text,fields", _sent(), ids=lambda v: str(v)[:60])
def test_ids_already_sent_read_as_the_same_kind_and_fields(
    kind: str, select: bool, text: str, fields: dict[str, object]
) -> None:
    """Every id an earlier release sent (written down before the kinds became one class each)
    reads as the same kind with the same fields, and today's ids are still sent byte for byte."""
    click = ids.parse(text, select=select)
    assert type(click).__name__ == kind
    values: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()}
    assert click == type(click)(**values)
    if ids.upgrade(text, select=select) == text:  # not an older release's two-letter id
        assert click.custom_id == text
        [item] = _dispatched(text)
        assert item.kind is type(click)


def test_every_kind_has_one_handler_that_takes_a_click() -> None:
    """A kind is answered by one method; a second one, or one that needs more than the click,
    is refused when it is declared."""

    async def more(family: object, interaction: discord.Interaction, game: int) -> None:
        raise AssertionError("never called")

    for kind in ids.KINDS:
        assert callable(kind.answered_by().call), kind
    with pytest.raises(TypeError, match="already answered"):
        ids.Hand.game_handler(more)

    class Probe(ids.MenuClick):  # no TEMPLATE: not a kind, not registered
        pass

    async def needy(family: object, interaction: discord.Interaction, click: Probe, x: int) -> None:
        raise AssertionError("never called")

    with pytest.raises(TypeError, match="needs more"):
        Probe.handler(needy)
    assert Probe not in ids.KINDS


@pytest.mark.parametrize(
    "forged",
    ["nonsense", "", "ttr:7:fly", "ttr:7:dr:12:x", "ttr:7:card:v12:slot:", "ttr:7:hand:extra"],
)
def test_every_other_id_goes_to_the_fallback_only(forged: str) -> None:
    """An id no kind takes reaches OtherComponent alone (so it is answered, never twice)."""
    assert _dispatched(forged) == [OtherComponent]


@pytest.mark.parametrize("old,select,new", OLD_IDS, ids=[o for o, s, _ in OLD_IDS])
def test_old_ids_mean_what_they_meant(old: str, select: bool, new: ids.Click) -> None:
    """Every id of an older release reads as the click it was (public ids are unchanged)."""
    assert ids.parse(old, select=select) == new
    assert ids.upgrade(old, select=select) == new.custom_id
    if old.count(":") == 2:  # public buttons kept their ids
        assert old == new.custom_id
    else:
        assert _dispatched(old) == [OtherComponent]


def test_ids_no_game_can_have_are_refused_by_code() -> None:
    """Out-of-range game ids and versions: ``bad_game_id``; anything else not ours: ``unknown_component``."""
    for text, code in [
        ("ttr:9999999999999999999:hand", "bad_game_id"),
        ("ttr:0:hand", "bad_game_id"),
        ("ttr:7:card:v9999999999999999999:deck", "bad_game_id"),
        ("ttr:7:dr:9999999999999999999:d", "bad_game_id"),
        ("ttr:99999999999999999999:hand", "unknown_component"),
        ("ttr:7:kt:12:zz", "unknown_component"),
        ("ttr:7:qq:12:0", "unknown_component"),
        ("ttr:forget-me:user:0:confirm", "unknown_component"),
        ("ttr:forget-me:user:9999999999999999999:keep", "unknown_component"),
        ("ttr:forget-me:user:7:everything", "unknown_component"),
    ]:
        with pytest.raises(ids.BadComponentId) as err:
            ids.parse(text)
        assert err.value.code == code, text


async def test_old_public_buttons_still_answer(tmp_path: Path) -> None:
    """Buttons under turn messages posted by older releases (``ttr:{game}:{verb}``) still work,
    and so do the kinds answered by a function of the cog; every kind's handler is a method of
    exactly one family of the running /ttr cog (or a function given the cog)."""
    async with running_table(tmp_path) as t:
        # the running bot's own modules: closing a bot unloads its extension's modules, so the
        # ones this file imported may be older copies
        live_ids = importlib.import_module("cogs.ttr._ids")
        family_of = importlib.import_module("cogs.ttr._clicks").family_of
        assert [k.__name__ for k in live_ids.KINDS] == [k.__name__ for k in ids.KINDS]
        for kind in live_ids.KINDS:
            method = kind.answered_by().method
            family = family_of(t.cog, method)
            assert family is t.cog or getattr(type(family), method.__name__) is method, kind
        g = await started_game(t)
        alice = t.players["alice"]
        old = t.fake.plant_bot_message("games", "an old turn", [f"ttr:{g}:hand", f"ttr:{g}:board"])
        hand = await alice.click(old, f"ttr:{g}:hand", private=True)
        assert hand.ephemeral and "Your hand" in hand.content, hand.summary()
        board = await alice.click(old, f"ttr:{g}:board", private=True)
        assert board.ephemeral and board.attachments, board.summary()
        # the kinds answered by a function of the cog: Zoom, Moves and the log's pages
        more = [ids.Zoom(g).custom_id, ids.Log(g).custom_id, ids.LogPage(g, 0, 0).custom_id]
        planted = t.fake.plant_bot_message("games", "more", more)
        zoom, moves, page = [await alice.click(planted, c, private=True) for c in more]
        assert zoom.ephemeral and zoom.attachments and "tickets" in zoom.content, zoom.summary()
        for log in (moves, page):
            assert log.ephemeral and "kept 3" in log.content, log.summary()


async def test_old_private_menus_still_play(tmp_path: Path) -> None:
    """Menus of an older release (two-letter verbs, a hex bitmask, one id for a select and its
    page buttons) play as they did: draw a card, draw tickets, pick and keep them, pick a route."""
    async with running_table(tmp_path) as t:
        g = await started_game(t)
        mover = await t.active(g)
        v = await t.version(g)
        planted = t.fake.plant_bot_message("games", "old menu", [f"ttr:{g}:dr:{v}:d"])
        drew = await mover.click(planted, f"ttr:{g}:dr:{v}:d", private=True)
        assert "You drew" in drew.content and await t.version(g) == v + 1, drew.summary()
        drew = await mover.click(planted, f"ttr:{g}:dr:{v}:d", private=True)  # now stale
        assert "out of date" in drew.content and await t.version(g) == v + 1

        await mover.slash("draw", {"source": "deck"})  # the turn ends; back to the mover later
        mover = await t.active(g)
        v = await t.version(g)
        planted = t.fake.plant_bot_message("games", "old tickets", [f"ttr:{g}:td:{v}:0"])
        offer = await mover.click(planted, f"ttr:{g}:td:{v}:0", private=True)
        assert "to keep" in offer.content, offer.summary()
        v = await t.version(g)
        channel = t.bot.get_channel(t.fake.channel("games").id)
        assert isinstance(channel, discord.TextChannel)
        options = (("first", "0", True), ("second", "1", False), ("third", "2", False))
        await channel.send(
            "old keep", view=components(Pick(f"ttr:{g}:ks:{v}:0", options, least=1, most=3))
        )
        menu = t.fake.messages_in("games")[-1]
        # the copy is public (a bot cannot post an ephemeral message unasked), so its update is
        # public too: private=False; the old menu it stands for was an ephemeral reply
        picked = await (
            await t.fake.select(mover.user, menu, f"ttr:{g}:ks:{v}:0", ["0", "2"], private=False)
        ).message(timeout=20)
        keep = next(b["custom_id"] for b in picked.buttons if b["label"].startswith("Keep"))
        assert ids.parse(keep) == ids.Keep(g, v, (0, 2)), keep
        planted = t.fake.plant_bot_message("games", "old keep", [f"ttr:{g}:kt:{v}:5"])
        kept = await mover.click(planted, f"ttr:{g}:kt:{v}:5", private=True)
        assert "You kept 2" in kept.content and await t.version(g) == v + 1, kept.summary()


async def test_old_route_picker_select_and_page_button(tmp_path: Path) -> None:
    """The old route picker used one id for its select and its page buttons: a page button shows
    the picker, the select (with a route) shows how to pay for that route."""
    async with running_table(tmp_path) as t:
        g = await started_game(t)
        mover = await t.active(g)
        view = await t.service.queries.table(g, mover.user.id)
        assert view.menu is not None
        v = view.version
        planted = t.fake.plant_bot_message("games", "old picker", [f"ttr:{g}:cr:{v}:0"])
        page = await mover.click(planted, f"ttr:{g}:cr:{v}:0", private=False)  # a public copy
        assert view.menu.claims, "seed 7 deals cards that pay for routes"
        assert "Choose one" in page.content, page.summary()
        route = view.menu.claims[0]
        channel = t.bot.get_channel(t.fake.channel("games").id)
        assert isinstance(channel, discord.TextChannel)
        old = f"ttr:{g}:cr:{v}:0"
        await channel.send(
            "old picker", view=components(Pick(old, (("r", str(route.index), False),)))
        )
        menu = t.fake.messages_in("games")[-1]
        chosen = await (
            await t.fake.select(mover.user, menu, old, [str(route.index)], private=False)
        ).message(timeout=20)
        if route.single:  # one way to pay: picking the route claims it
            assert "You claimed" in chosen.content and await t.version(g) == v + 1
        else:  # the payments as buttons, the best first
            first = ids.parse(chosen.buttons[0]["custom_id"])
            assert first == ids.ClaimConfirm(g, v, route.index, 0), chosen.summary()
