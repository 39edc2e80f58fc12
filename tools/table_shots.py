"""Screenshots of the table for the documentation (docs/players/playing.md): real messages of a
real game, drawn like Discord.

Plays a whole USA game (one human seat driven like a player would, two computer
seats) through the real bot, service, storage and renderer against the fake
Discord of the test suite, then draws three of the messages the bot actually
sent, with their attachments, in a Discord-like dark theme:

- ``turn.png``: a public turn message (what was done, the board, the buttons);
- ``log.png``: the player's ``/ttr log`` catch-up reply (ephemeral);
- ``final.png``: the game-over message with the final image and the Rematch button.

Usage (from the repository root, test extra installed)::

    python tools/table_shots.py --out docs/images/table

The text is the bot's own; only the chat chrome (name, avatar, button shapes)
is drawn here. Nothing of this runs in the product or the tests.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import re
import sys
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.cogs._driver import _keep_offered, _play_turn  # noqa: E402
from tests.cogs._harness import my_turn_or_end, running_table  # noqa: E402
from tests.e2e.fake_discord import SentMessage  # noqa: E402

FONTS = ROOT / "render" / "fonts"
WIDTH = 760
PAD = 16
TEXT_X = 72
BG = (49, 51, 56)
TEXT = (219, 222, 225)
MUTED = (148, 155, 164)
MENTION_BG = (60, 66, 112)
MENTION_FG = (201, 205, 251)
BUTTON_BG = (78, 80, 88)
BUTTON_PRIMARY = (88, 101, 242)
EMOJI = {"✅": "✔", "❌": "✘", "🏁": "⚑", "🎉": "★", "⏰": "⌚", "🔁": "↻"}


def _font(bold: bool = False, size: int = 16) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(
        str(FONTS / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")), size
    )


def _clean(text: str, names: dict[int, str]) -> str:
    text = re.sub(r"<@!?(\d+)>", lambda m: "@" + names.get(int(m.group(1)), "someone"), text)
    text = re.sub(r"</([\w ]+):\d+>", r"/\1", text)
    for emoji, glyph in EMOJI.items():
        text = text.replace(emoji, glyph)
    return text.replace("`", "")


def _runs(line: str) -> list[tuple[str, bool]]:
    """Split a markdown line into (text, bold) runs on ``**``."""
    parts = line.split("**")
    return [(p, i % 2 == 1) for i, p in enumerate(parts) if p]


def _wrap(line: str, width: int) -> list[list[tuple[str, bool]]]:
    """Word-wrap one markdown line into rows of (text, bold) runs that fit ``width`` px."""
    rows: list[list[tuple[str, bool]]] = [[]]
    used = 0.0
    for text, bold in _runs(line):
        font = _font(bold)
        for word in re.split(r"(\s+)", text):
            if not word:
                continue
            w = font.getlength(word)
            if used + w > width and used > 0 and not word.isspace():
                rows.append([])
                used = 0.0
            if word.isspace() and used == 0:
                continue
            rows[-1].append((word, bold))
            used += w
    return rows


def _draw_text(
    draw: ImageDraw.ImageDraw, x: int, y: int, rows: list[list[tuple[str, bool]]]
) -> int:
    for row in rows:
        cx = float(x)
        for word, bold in row:
            font = _font(bold)
            colour = TEXT
            if word.startswith("@"):
                box = (cx - 1, y - 1, cx + font.getlength(word) + 1, y + 20)
                draw.rounded_rectangle(box, 3, fill=MENTION_BG)
                colour = MENTION_FG
            draw.text((cx, y), word, font=font, fill=colour)
            cx += font.getlength(word)
        y += 22
    return y


def draw_message(message: SentMessage, names: dict[int, str], *, title: str) -> Image.Image:
    """One message as Discord shows it: author line, text, images, buttons; ``title`` is a caption."""
    inner = WIDTH - TEXT_X - PAD
    rows = [
        r
        for line in _clean(message.content, names).splitlines()
        for r in (_wrap(line, inner) or [[]])
    ]
    images = []
    for a in message.attachments:
        if a.content_type.startswith("image/"):
            img = Image.open(io.BytesIO(a.data)).convert("RGB")
            scale = min(1.0, inner / img.width, 520 / img.height)
            images.append(
                img.resize((int(img.width * scale), int(img.height * scale)), Image.LANCZOS)
            )
    buttons = [b for b in message.buttons if b.get("label")]
    height = (
        PAD * 2 + 30 + 22 * len(rows) + sum(i.height + 8 for i in images) + (44 if buttons else 0)
    )
    height += 26 if message.ephemeral else 0
    out = Image.new("RGB", (WIDTH, height + 28), BG)
    draw = ImageDraw.Draw(out)
    draw.text((PAD, 6), title, font=_font(False, 13), fill=MUTED)
    y = PAD + 22
    draw.ellipse((PAD, y, PAD + 40, y + 40), fill=(35, 165, 90))
    draw.text((PAD + 9, y + 8), "TtR", font=_font(True, 13), fill=(255, 255, 255))
    draw.text((TEXT_X, y), "ttrbot", font=_font(True), fill=(255, 255, 255))
    draw.rounded_rectangle((TEXT_X + 62, y + 2, TEXT_X + 98, y + 18), 3, fill=BUTTON_PRIMARY)
    draw.text((TEXT_X + 66, y + 3), "APP", font=_font(True, 11), fill=(255, 255, 255))
    y = _draw_text(draw, TEXT_X, y + 26, rows)
    for img in images:
        out.paste(img, (TEXT_X, y + 4))
        y += img.height + 8
    x = TEXT_X
    for b in buttons:
        label = _clean(str(b["label"]), names)
        w = int(_font().getlength(label)) + 28
        fill = BUTTON_PRIMARY if b.get("style") == 1 else BUTTON_BG
        draw.rounded_rectangle((x, y + 8, x + w, y + 40), 4, fill=fill)
        draw.text((x + 14, y + 14), label, font=_font(), fill=(255, 255, 255))
        x += w + 8
    if buttons:
        y += 44
    if message.ephemeral:
        draw.text(
            (TEXT_X, y + 4),
            "Only you can see this · Dismiss message",
            font=_font(False, 13),
            fill=MUTED,
        )
    return out


async def play(out: Path) -> None:
    """Play the game and write the three images into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        async with running_table(Path(tmp), ("alice",)) as t:
            alice = t.players["alice"]
            await alice.slash("new", {"map": "usa"})
            await alice.slash("add_ai")
            await alice.slash("add_ai")
            await alice.slash("start")
            await _keep_offered(alice, await alice.slash("hand"))
            g = await t.game_id()
            names = {alice.user.id: "alice"}
            seen = 0
            turn_shot = log_shot = None
            for turn in range(300):
                message = await my_turn_or_end(t, g, alice, seen, timeout=30)
                seen = len(t.fake.sent)
                if f"ttr:{g}:rematch" in message.custom_ids:
                    break
                if turn == 31:
                    log_shot = await alice.slash("log")
                if turn >= 30 and turn_shot is None and "claimed" in message.content:
                    turn_shot = message
                await _play_turn(alice, message, turn)
            final = next(
                m for m in t.fake.messages_in("games") if f"ttr:{g}:rematch" in m.custom_ids
            )
            shots = {
                "turn": (turn_shot, "#games: a turn message"),
                "log": (log_shot, "/ttr log: catching up"),
                "final": (final, "#games: the end of the game"),
            }
            for name, (message, title) in shots.items():
                if message is None:
                    raise SystemExit(f"no {name} message was captured")
                draw_message(message, names, title=title).save(out / f"{name}.png", optimize=True)
                print(out / f"{name}.png")


def main() -> None:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images" / "table")
    asyncio.run(play(parser.parse_args().out))


if __name__ == "__main__":
    main()
