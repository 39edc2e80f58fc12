"""The claim picker never cuts: with more routes than a select holds, it pages."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace
from typing import Any, cast

import discord

from bot.host.services import TableView
from bot.host.services._menus import build_menu
from cogs.ttr import _prompts as prompts
from cogs.ttr._ids import Draw, RoutePage, parse
from engine import KeepTickets, apply, new_game
from maps import load_ruleset
from words import words_for


def _rich_table() -> tuple[TableView, Any]:
    """A USA game where seat 0 holds 12 cards of every colour: it can pay for almost any route."""
    rules = load_ruleset("usa")
    state = new_game(rules, seats=2, seed=3)
    while state.phase != "play":  # both keep every offered ticket
        seat = state.seats_to_act()[0]
        state = apply(rules, state, KeepTickets(seat, tuple(state.players[seat].offer))).state
    rich = {c: 12 for c in rules.params.colors}
    rich["locomotive"] = 14
    players = list(state.players)
    players[state.active] = dataclasses.replace(players[state.active], hand=rich)
    state = dataclasses.replace(state, players=players)
    menu = build_menu(rules, state, state.active, game_id=9)
    assert menu is not None and menu.step == "turn"
    # the picker reads only the game's id, the rules and the reader's hand (none here)
    table = cast(
        TableView, SimpleNamespace(game=SimpleNamespace(id=9), rules=rules, menu=menu, mine=None)
    )
    return table, menu


Custom = discord.ui.Button | discord.ui.Select


def _view(table: TableView, menu: Any, page: int) -> discord.ui.View:
    text, view = prompts.routes(table, menu, words_for("en"), page)
    assert view is not None, text
    return view


def _page(table: TableView, menu: Any, page: int) -> tuple[list[str], list[discord.ui.Button[Any]]]:
    view = _view(table, menu, page)
    selects = [c for c in view.children if isinstance(c, discord.ui.Select)]
    buttons = [c for c in view.children if isinstance(c, discord.ui.Button)]
    assert len(selects) == 1
    assert len(selects[0].options) <= 25
    return [o.value for o in selects[0].options], buttons


def test_every_claimable_route_is_on_some_page() -> None:
    table, menu = _rich_table()
    claims = menu.claims
    assert len(claims) > 50, len(claims)  # more than two selects' worth
    seen: list[str] = []
    pages = (len(claims) + 24) // 25
    for page in range(pages):
        values, buttons = _page(table, menu, page)
        seen += values
        labels = [b.label for b in buttons]
        assert f"Page {page + 1} of {pages}" in labels
        assert buttons[-1].label == "Back" and parse(str(buttons[-1].custom_id)) == Draw(9)
        back, forward = buttons[0], buttons[-2]
        assert back.disabled == (page == 0) and forward.disabled == (page == pages - 1)
        if not forward.disabled:  # the ▶ button names the next page
            assert parse(forward.custom_id) == RoutePage(9, menu.version, page + 1)
        ids = [c.custom_id for c in _view(table, menu, page).children if isinstance(c, Custom)]
        assert len(ids) == len(set(ids)), ids  # Discord refuses a message with one id twice
    assert seen == [str(c.index) for c in claims]  # every route once, in the menu's order
    # a page number past the end shows the last page instead of an empty select
    assert _page(table, menu, pages + 3)[0] == _page(table, menu, pages - 1)[0]
