"""Every prompt the bot can build fits Discord's component rules.

Each menu of :mod:`cogs.ttr._prompts` (the turn panel on a fresh turn and for the
second card, as the hand shows it too; every page of the route list with its
descriptions, every route's payment buttons, the ticket, keep, tunnel and flag
menus), the public buttons with the face-up cards and the move log's pager are
built on every map, from states made to make the lists long (hands holding most of
the deck, from ``engine.testing.build_state``; on Nordic that is some 10 cards of
every kind, millions of exact payments, which the claim menu never enumerates) and
from random play, and checked with the fake Discord's own validator: the same rules
it answers with 400 / 50035 (duplicate custom ids, rows, widths, option counts and
lengths, min/max values).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import discord
import pytest

from bot.discord_app.send import content_of
from bot.host.services import TableView
from bot.host.services._menus import build_menu
from bot.host.storage import GameRow, SeatRow
from cogs.ttr import _prompts as prompts
from cogs.ttr._lobby import lobby_buttons
from cogs.ttr._play import with_zoom
from cogs.ttr._publish import turn_buttons
from cogs.ttr._record import log_pager
from engine import (
    ClaimRoute,
    DrawBlind,
    DrawTickets,
    GameState,
    KeepTickets,
    apply,
    legal_actions,
    new_game,
    player_view,
    public_view,
)
from engine.testing import build_state
from maps import available_maps, load_ruleset
from words import words_for

from ..e2e.fake_discord import check_message_payload

MAPS = sorted(available_maps())
GAME = 987654321


def _game_row(map_id: str, version: int, language: str) -> GameRow:
    return GameRow(
        id=GAME,
        guild_id=1,
        channel_id=2,
        thread_id=None,
        lobby_message_id=None,
        board_message_id=None,
        host_user_id=100,
        map_id=map_id,
        options={},
        status="active",
        seed=None,
        engine_version=None,
        version=version,
        snapshot_version=0,
        language=language,
        rematch_of=None,
        turn_seconds=86_400,
        deadline_at=None,
        reminder_at=None,
        created_at=0.0,
        updated_at=0.0,
        finished_at=None,
        status_note=None,
    )


def _table(map_id: str, state: GameState, seat: int, language: str = "en") -> TableView:
    rules = load_ruleset(map_id)
    seats = [
        SeatRow(GAME, s, 100 + s, f"Player {s}", None, False, None, 0.0, 0, False, 0.0, None, False)
        for s in range(len(state.players))
    ]
    return TableView(
        _game_row(map_id, state.version, language),
        seats,
        public_view(rules, state),
        player_view(rules, state, seat),
        seat,
        build_menu(rules, state, seat, GAME),
    )


def _check(what: str, text: str, view: discord.ui.View | None) -> list[str]:
    """The fake Discord's verdict on a message of ``text`` (as the send funnel clips it) and
    ``view`` exactly as built (the funnel repairs nothing here)."""
    payload: dict[str, Any] = {"content": content_of(text)}
    if view is not None:
        payload["components"] = view.to_components()
    problems = check_message_payload(payload, [], size_limit=10 << 20, creating=True)
    return [f"{what}: {p.detail} at {'.'.join(map(str, p.path))}" for p in problems]


class Seen:
    """What was checked, and every problem found."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.steps: Counter[str] = Counter()
        self.route_pages = 0
        self.long_payments = 0
        self.doubles = 0
        self.turn_cards = 0

    def check(self, what: str, prompt: tuple[str, discord.ui.View | None]) -> None:
        self.problems += _check(what, *prompt)


def _every_prompt(table: TableView, seen: Seen, *, deep: bool) -> None:
    """Check the pending prompt and, on a turn, every menu the player can open from it
    (with ``deep``: every page of the routes and every route's payments)."""
    menu = table.menu
    if menu is None:
        return
    key = f"{table.rules.map_id}/{menu.step}{'/setup' if menu.keep and menu.keep.setup else ''}"
    seen.steps[key] += 1
    public = turn_buttons(table)  # the turn message, with the face-up cards and the deck
    seen.check(key + " turn message", ("turn", public))
    seen.turn_cards += sum(":card:" in str(getattr(c, "custom_id", "")) for c in public.children)
    for lang in ("en", "de"):
        w = words_for(lang, table.rules.meta)
        where = f"{key} ({lang}, v{menu.version})"
        pending = prompts.pending(table, w)
        seen.check(where + " pending", pending)
        seen.check(where + " hand", (pending[0], with_zoom(pending[1], GAME, w)))
        if menu.keep is not None:
            seen.check(where + " keep none", prompts.keep_tickets(table, menu, w, []))
            least = list(range(menu.keep.least))
            seen.check(where + " keep least", prompts.keep_tickets(table, menu, w, least))
        if menu.step not in ("turn", "second_card"):
            continue
        seen.check(where + " panel", prompts.panel(table, menu, w))
        hand = prompts.panel(table, menu, w, cards=False)
        seen.check(where + " hand panel", (hand[0], with_zoom(hand[1], GAME, w)))
        if menu.step != "turn":
            continue
        seen.check(where + " tickets", prompts.ticket_draws(table, menu, w))
        pages = max(1, -(-len(menu.claims) // 25))
        seen.route_pages = max(seen.route_pages, pages)
        for page in range(pages if deep else 1):
            seen.check(
                f"{where} routes page {page + 1}/{pages}", prompts.routes(table, menu, w, page)
            )
        for claim in menu.claims if deep else menu.claims[:3]:
            n = len(claim.payments)
            seen.long_payments = max(seen.long_payments, n)
            seen.doubles += len(claim.tracks) > 1
            for chosen in {0, n - 1}:
                seen.check(
                    f"{where} pay {claim.route} ({n} ways, {chosen})",
                    prompts.payments(table, menu, w, claim.index, chosen),
                )
            seen.check(
                f"{where} pay {claim.route} (the last way alone)",
                prompts.payments(table, menu, w, claim.index, n - 1, [n - 1]),
            )


def _rich_state(map_id: str, seed: int) -> GameState:
    """Seat 0 holds every card but the face-up row and a few for the others: the longest lists
    (on Nordic millions of exact payments: the menus must not enumerate them)."""
    rules = load_ruleset(map_id)
    base = new_game(rules, seats=rules.params.min_players, seed=seed)
    total: Counter[str] = Counter()
    for p in base.players:
        total.update(p.hand)
    total.update(base.deck)
    total.update(c for c in base.face_up if c)
    total.update(base.discard)
    row = [c for c in base.face_up if c]
    for c in row:
        total[c] -= 1
    others = {s: {} for s in range(1, len(base.players))}
    rich = dict(total)
    for s in others:  # two cards of the commonest colours for each other seat
        for colour, _ in Counter(rich).most_common(2):
            rich[colour] -= 2
            others[s][colour] = others[s].get(colour, 0) + 2
    deck = []
    for colour, _ in Counter(rich).most_common(3):  # a few cards left to draw blind
        rich[colour] -= 1
        deck.append(colour)
    random.Random(seed).shuffle(deck)
    return build_state(
        rules,
        seats=len(base.players),
        seed=seed,
        hands={0: rich, **others},
        face_up=row,
        deck=deck,
        discard=[],
        tickets={s: list(base.players[s].offer[:1]) for s in range(len(base.players))},
    )


def _states_from(map_id: str, state: GameState, rng: random.Random) -> Iterator[GameState]:
    """``state`` and the states one or two moves on: the second card, a ticket choice, a
    tunnel's extra cost (Nordic) and a French flag (Paris) when the moves lead there."""
    rules = load_ruleset(map_id)
    yield state
    seat = state.active
    legal = legal_actions(rules, state, seat, payments="sensible")
    for kind in (DrawBlind, DrawTickets):
        action = next((a for a in legal if isinstance(a, kind)), None)
        if action is not None:
            yield apply(rules, state, action).state
    claims = [a for a in legal if isinstance(a, ClaimRoute)]
    rng.shuffle(claims)
    claims.sort(key=lambda a: not rules.board.routes[a.route].tunnel)  # tunnels first
    wanted = {"tunnel": 2, "flag": 2}
    for action in claims[:200]:
        after = apply(rules, state, action).state
        if after.step in wanted and wanted[after.step] > 0:
            wanted[after.step] -= 1
            yield after


@pytest.mark.parametrize("map_id", MAPS)
def test_every_prompt_of_a_long_list_fits_discord(map_id: str) -> None:
    """From a hand holding most of the deck: every route page and payment list, the second
    card, a ticket choice, tunnels and flags; nothing Discord would refuse."""
    seen = Seen()
    rng = random.Random(5)
    for state in _states_from(map_id, _rich_state(map_id, seed=5), rng):
        for seat in state.seats_to_act():
            _every_prompt(_table(map_id, state, seat), seen, deep=True)
    assert not seen.problems, "\n".join(seen.problems[:20])
    steps = {k.split("/", 1)[1] for k in seen.steps}
    assert {"turn", "second_card", "keep_tickets"} <= steps, seen.steps
    if map_id == "nordic":
        assert "tunnel" in steps, seen.steps
    if map_id == "paris":
        assert "flag" in steps, seen.steps
    rules = load_ruleset(map_id)
    if len(rules.board.routes) > 60:  # the lists are long: the route menu pages
        assert seen.route_pages > 1, seen.route_pages
    assert seen.long_payments > 1 and seen.doubles, (seen.long_payments, seen.doubles)
    assert seen.turn_cards, "the turn message's face-up cards were checked"


@pytest.mark.parametrize("map_id", MAPS)
def test_every_prompt_of_a_random_game_fits_discord(map_id: str) -> None:
    """A seeded random game from the deal to the end (setup choices included): the pending
    prompt of every seat that must act, and every menu of a turn, at every step."""
    rules = load_ruleset(map_id)
    rng = random.Random(map_id)
    state = new_game(rules, seats=rules.params.max_players, seed=11)
    seen = Seen()
    for step in range(400):
        if state.phase == "finished":
            break
        to_act = state.seats_to_act()
        for seat in to_act:
            _every_prompt(_table(map_id, state, seat), seen, deep=step % 25 == 0)
        seat = to_act[0]
        legal = legal_actions(rules, state, seat)
        keeps = [a for a in legal if isinstance(a, KeepTickets)]
        draws = [a for a in legal if not isinstance(a, ClaimRoute | DrawTickets)]
        pool = keeps or (draws if rng.random() < 0.6 and draws else legal)
        state = apply(rules, state, rng.choice(pool)).state
    assert not seen.problems, "\n".join(seen.problems[:20])
    assert any(k.endswith("/setup") for k in seen.steps), seen.steps
    assert seen.turn_cards, "the turn message's face-up cards were checked"


@pytest.mark.parametrize("map_id", MAPS)
def test_public_buttons_and_the_log_pager_fit_discord(map_id: str) -> None:
    """The turn message's and the lobby's buttons in both languages, and every page of a
    long move log."""
    rules = load_ruleset(map_id)
    state = _rich_state(map_id, seed=3)
    problems: list[str] = []
    for lang in ("en", "de"):
        table = _table(map_id, state, 0, language=lang)
        problems += _check(f"{lang} turn buttons", "turn", turn_buttons(table))
        problems += _check(f"{lang} lobby buttons", "lobby", lobby_buttons(table))
        w = words_for(lang, rules.meta)
        for pages in (1, 2, 3, 40):
            for number in range(pages):
                view = log_pager(GAME, 1234, number, pages, w)
                problems += _check(f"{lang} log page {number + 1}/{pages}", "log", view)
    assert not problems, "\n".join(problems[:20])


def test_the_route_pager_has_no_duplicate_ids() -> None:
    """The case that broke the Claim button: more than 25 routes, a page row under the select
    whose "Page 1 of N" button reused the select's custom id (Discord: 400, 50035)."""
    table = _table("usa", _rich_state("usa", seed=5), 0)
    assert table.menu is not None and len(table.menu.claims) > 25
    for page in range(-(-len(table.menu.claims) // 25)):
        _, view = prompts.routes(table, table.menu, words_for("en"), page)
        assert view is not None
        ids = [c["custom_id"] for row in view.to_components() for c in row["components"]]
        assert len(ids) == len(set(ids)), ids
