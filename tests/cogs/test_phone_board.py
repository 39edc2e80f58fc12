"""Phone board: under the turn and game-over messages, a button that answers privately with the
board drawn 500 px wide, its names and its text large enough to read on a phone, in both
languages."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from maps import load_ruleset
from render import recorded_sizes
from render._zoom import phone_names

from ..e2e.fake_discord import SentMessage
from ._driver import Player, _keep_offered
from ._harness import RunningTable, running_table, started_game

#: What a phone reads: text at least this many pixels high when the image is shown 500 px wide.
LEGIBLE = 11
LABEL = {"en": "Phone board", "de": "Spielplan fürs Handy"}
CAPTION = {"en": "drawn for a phone", "de": "fürs Handy gezeichnet"}
LOCALE = {"en": "en-US", "de": "de"}


def _label(message: SentMessage, custom_id: str) -> str:
    return next(str(b.get("label", "")) for b in message.buttons if b["custom_id"] == custom_id)


async def _phone_reply(
    player: Player, message: SentMessage, game_id: int
) -> tuple[SentMessage, Image.Image, list[tuple[str, float, int]]]:
    """Click Phone board under ``message``: the private reply, its image and every text drawn
    meanwhile with its size and the width of the image it was drawn on."""
    phone_names.cache_clear()  # the names are drawn once per map: draw them during the click
    with recorded_sizes() as drawn:
        reply = await player.click(message, f"ttr:{game_id}:phone", private=True)
    assert reply.ephemeral and [a.filename for a in reply.attachments] == ["phone.png"]
    img = Image.open(io.BytesIO(reply.attachments[0].data))
    img.load()
    return reply, img, list(drawn)


def _speak(t: RunningTable, lang: str) -> None:
    """The server and every player in ``lang`` (after the tickets are kept: the driver keeps them
    by the English label)."""
    t.fake.guild_locale = lang
    for p in t.players.values():
        p.user.locale = LOCALE[lang]


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_phone_board_shows_city_names_a_phone_reads(tmp_path: Path, lang: str) -> None:
    """The turn message carries Phone board (in the table's language); a click answers only the
    clicker with a 500 px image whose place names are drawn at least 11 px high at that width."""
    async with running_table(tmp_path) as t:
        t.fake.guild_locale = lang
        g = await started_game(t)
        _speak(t, lang)
        turn = t.turn_messages(g)[-1]
        assert _label(turn, f"ttr:{g}:phone") == LABEL[lang]
        reply, img, drawn = await _phone_reply(t.players["bob"], turn, g)
        assert CAPTION[lang] in reply.content and "USA" in reply.content
        assert img.width == 500
        shown = 500 / img.width  # how many screen pixels one image pixel is at 500 px wide
        board = load_ruleset("usa").board
        words = {part for c in board.cities.values() for part in c.name.split()}
        names = [
            (text, size)
            for text, size, width in drawn
            if width == img.width and text.split() and set(text.split()) <= words
        ]
        named = {part for text, _ in names for part in text.split()}
        assert len(named) >= len(board.cities) // 2, named  # the map's names, drawn on the image
        smallest = min(names, key=lambda n: n[1])
        assert smallest[1] * shown >= LEGIBLE, smallest


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_phone_board_at_the_end_writes_the_score_table_out_legibly(
    tmp_path: Path, lang: str
) -> None:
    """Under the game-over message Phone board answers with the final board and the score table
    500 px wide: every text on it at least 11 px high at that width, the breakdown (not only
    the totals) in the reader's language."""
    async with running_table(tmp_path) as t:
        t.fake.guild_locale = lang
        alice, bob = t.players["alice"], t.players["bob"]
        await alice.slash("new", {"map": "usa"})
        await bob.slash("join")
        await alice.slash("add_ai")
        await alice.slash("start")
        for p in (alice, bob):
            await _keep_offered(p, await p.slash("hand"))
        g = await t.game_id()
        _speak(t, lang)
        await alice.slash("game resign")
        await bob.slash("game resign")
        final = await t.fake.wait_for_message(
            lambda m: f"ttr:{g}:rematch" in m.custom_ids, timeout=20
        )
        assert _label(final, f"ttr:{g}:phone") == LABEL[lang]
        _, img, drawn = await _phone_reply(alice, final, g)
        assert img.width == 500
        on_image = [(text, size) for text, size, width in drawn if width == img.width]
        texts = [text for text, _ in on_image]
        breakdown = {"en": "routes", "de": "Strecken"}[lang]
        assert any(text.startswith(breakdown) for text in texts), texts
        assert any("alice" in text for text in texts) and any("bob" in text for text in texts)
        smallest = min(on_image, key=lambda n: n[1])
        assert smallest[1] * 500 / img.width >= LEGIBLE, smallest


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_the_phone_board_setting_draws_my_board_for_a_phone(
    tmp_path: Path, lang: str
) -> None:
    """/ttr player settings phone_board:True is kept and shown in the reader's language; from then
    on /ttr board answers with the 500 px board, names at least 11 px there; off again, the
    full board."""
    async with running_table(tmp_path) as t:
        t.fake.guild_locale = lang
        await started_game(t)
        _speak(t, lang)
        bob = t.players["bob"]
        saved = await bob.slash("player settings", {"phone_board": True})
        shown = {"en": "Your board drawn for a phone: on", "de": "Dein Spielplan fürs Handy: an"}
        assert saved.ephemeral and shown[lang] in saved.content, saved.content
        phone_names.cache_clear()
        with recorded_sizes() as drawn:
            reply = await bob.slash("board")
        assert reply.ephemeral and [a.filename for a in reply.attachments] == ["phone.png"]
        img = Image.open(io.BytesIO(reply.attachments[0].data))
        assert img.width == 500
        board = load_ruleset("usa").board
        words = {part for c in board.cities.values() for part in c.name.split()}
        sizes = [
            s for text, s, w in drawn if w == 500 and text.split() and set(text.split()) <= words
        ]
        assert sizes and min(sizes) * 500 / img.width >= LEGIBLE
        await bob.slash("player settings", {"phone_board": False})
        full = await bob.slash("board")
        assert [a.filename for a in full.attachments] == ["board.png"]
