"""Tunnels that do not lose turns by surprise, and hints that name what the buttons show, as
the fake Discord receives them, in English and German.

Europe's Madrid - Pamplona tunnel (3 black) with exactly 3 black in hand: the claim list and
its payment buttons say that no card is spare, the hint and its Do it confirm name the risk,
the reveal names the matching cards, their colour and count, and the public turn line tells
the tunnel once, short. A draw hint names the face-up card by its colour and says which card
to take second.
"""

from __future__ import annotations

import pytest

from cogs.ttr import _prompts as prompts
from engine import Cards, ClaimRoute, DrawBlind, GameState, PayTunnel, apply, player_view
from engine.ai.coach import suggest
from engine.testing import build_state
from maps import load_ruleset
from sentences.coach import confirm_words, hint_words, risky_confirm_words
from sentences.stories import turn_lines
from words import words_for

from .test_prompt_limits import _check, _table

EUROPE = load_ruleset("europe")
TUNNEL = "madrid__pamplona__1"
#: the deck's top last: the reveal turns up red, black, locomotive (2 match black)
DECK = ["green"] * 5 + ["locomotive", "black", "red"]
SMALL = {"iterations": 12, "time_cap_s": None}


def _state(black: int) -> GameState:
    return build_state(
        EUROPE,
        seats=2,
        seed=5,
        hands={0: {"black": black, "blue": 2}},
        deck=DECK,
        conserve_cards=False,
    )


@pytest.mark.parametrize(
    ("black", "en", "de"),
    [
        (3, "tunnel: no spare card", "Tunnel: keine Karte übrig"),
        (5, "tunnel: 2 spare", "Tunnel: 2 übrig"),
    ],
)
def test_the_claim_list_says_what_a_tunnel_keeps_spare(black: int, en: str, de: str) -> None:
    """The route's line in the picker and each payment button carry the spare cards."""
    table = _table("europe", _state(black), 0)
    menu = table.menu
    assert menu is not None
    entry = menu.route_named(TUNNEL)
    assert entry is not None and entry.spares[0] == black - 3
    for lang, note in (("en", en), ("de", de)):
        w = words_for(lang, EUROPE.meta)
        page = next(
            p
            for p in range(3)
            if str(entry.index) in str(prompts.routes(table, menu, w, p)[1].to_components())
        )
        text, view = prompts.routes(table, menu, w, page)
        assert view is not None and not _check("routes", text, view)
        options = view.to_components()[0]["components"][0]["options"]
        [option] = [o for o in options if o["value"] == str(entry.index)]
        assert note in option["description"], option
        text, view = prompts.payments(table, menu, w, entry.index)
        assert view is not None and not _check("payments", text, view)
        labels = [b.label for b in view.children if hasattr(b, "label")]
        assert any(note in str(label) for label in labels), labels
    plain = next(c for c in menu.claims if not EUROPE.board.routes[c.route].tunnel)
    assert plain.spares == ()


def test_the_reveal_names_the_matching_cards_their_colour_and_count() -> None:
    """Three black played, red, black and a locomotive revealed: 2 match, to pay in black or
    locomotives; with none left the prompt also says it cannot be paid."""
    state = apply(EUROPE, _state(3), ClaimRoute(0, TUNNEL, Cards({"black": 3}))).state
    table = _table("europe", state, 0)
    en = words_for("en", EUROPE.meta)
    text, view = prompts.pending(table, en)
    assert not _check("tunnel", text, view)
    assert (
        "revealed red, **black**, **locomotive**. 2 match: pay 2 more black cards or "
        "locomotives, or give up the tunnel." in text
    ), text
    assert "You cannot pay that" in text
    de = words_for("de", EUROPE.meta)
    text, view = prompts.pending(table, de)
    assert not _check("tunnel", text, view)
    assert (
        "Aufgedeckt: Rot, **Schwarz**, **Lokomotive**. 2 passen: Du musst 2 weitere Karten in "
        "Schwarz oder Lokomotiven ausspielen oder auf den Tunnel verzichten." in text
    ), text


def test_the_public_tunnel_line_is_one_short_line() -> None:
    """Claimed after paying 2 more: the turn line names the route and each set of cards once,
    in both languages, and the German one is short."""
    state = _state(5)
    first = apply(EUROPE, state, ClaimRoute(0, TUNNEL, Cards({"black": 3})))
    paid = apply(EUROPE, first.state, PayTunnel(0, Cards({"black": 2})))
    events = [*first.events, *paid.events]
    names = ["Åsa", "Björn"]
    [en] = turn_lines(events, EUROPE, names, words_for("en", EUROPE.meta))
    assert en.count("Madrid – Pamplona") == 1 and "claimed it for" in en, en
    [de] = turn_lines(events, EUROPE, names, words_for("de", EUROPE.meta))
    assert de.count("Madrid – Pamplona") == 1 and de.count("3× Schwarz") == 1, de
    assert "hat für den Tunnel" in de and "hat ihn genutzt" in de, de
    assert len(de) < 200, (len(de), de)


def test_a_hint_and_its_confirm_name_the_tunnel_risk() -> None:
    """A hinted claim of the tunnel with no spare card says so, and so does Do it's question."""
    state = _state(3)
    claim = ClaimRoute(0, TUNNEL, Cards({"black": 3}))
    view = player_view(EUROPE, state, 0)
    hint = suggest(EUROPE, view, [claim], state.options, **SMALL)
    hand = dict(view.hand)
    for lang, risk in (
        ("en", "Tunnel: you keep no spare black card or locomotive; if a revealed card matches"),
        ("de", "Tunnel: Dir bleibt keine Karte in Schwarz und keine Lokomotive übrig"),
    ):
        w = words_for(lang, EUROPE.meta)
        assert risk in "\n".join(hint_words(hint, EUROPE, w, ["Åsa", "Björn"], used=1))
        assert risk in confirm_words(claim, EUROPE, w, hand=hand)
    spare = _state(4)
    w = words_for("en", EUROPE.meta)
    assert "you keep 1 spare (black or locomotive)" in confirm_words(
        claim, EUROPE, w, hand=dict(player_view(EUROPE, spare, 0).hand)
    )


def test_a_draw_hint_names_the_colours_and_the_second_card() -> None:
    """The face-up card to take is named by its colour (as its button is), never by a slot
    number, and a second line says which card to take next."""
    usa = load_ruleset("usa")
    row = ["white", "green", "pink", "white", "blue"]
    state = build_state(usa, seats=2, seed=5, face_up=row, tickets={0: ["duluth__el_paso"]})
    view = player_view(usa, state, 0)
    hint = suggest(usa, view, [DrawBlind(0)], state.options, **SMALL)
    for lang, then in (
        ("en", "Then: Take the face-up pink card."),
        ("de", "Danach: Nimm die offene Karte in Lila."),
    ):
        text = "\n".join(hint_words(hint, usa, words_for(lang, usa.meta), ["A", "B"], used=1))
        assert then in text and "slot" not in text and "Platz" not in text, text


def test_do_it_asks_first_only_for_a_tunnel_with_no_spare_card() -> None:
    """Do it plays at once (no question) unless the hinted move is the tunnel claim that keeps
    no spare card: then it asks, names the risk and says why it asks, in both languages."""
    claim = ClaimRoute(0, TUNNEL, Cards({"black": 3}))
    bare = dict(player_view(EUROPE, _state(3), 0).hand)
    for lang, risk, why in (
        (
            "en",
            "Tunnel: you keep no spare black card or locomotive",
            "Asked before playing: the hint warned that this tunnel can cost your turn.",
        ),
        (
            "de",
            "Tunnel: Dir bleibt keine Karte in Schwarz und keine Lokomotive übrig",
            "Nachgefragt, bevor gespielt wird: der Tipp hat gewarnt, dass dich dieser Tunnel "
            "deinen Zug kosten kann.",
        ),
    ):
        w = words_for(lang, EUROPE.meta)
        asked = risky_confirm_words(claim, EUROPE, w, hand=bare)
        assert asked is not None and risk in asked and why in asked, asked
        spare = dict(player_view(EUROPE, _state(4), 0).hand)
        assert risky_confirm_words(claim, EUROPE, w, hand=spare) is None
        assert risky_confirm_words(DrawBlind(0), EUROPE, w, hand=bare) is None
        plain = next(r for r in EUROPE.board.routes.values() if not r.tunnel)
        payment = Cards({plain.color if plain.color != "gray" else "black": plain.length})
        assert risky_confirm_words(ClaimRoute(0, plain.id, payment), EUROPE, w, hand=bare) is None
