"""Screenshots of the live board page for the documentation (``docs/players/live-board.md``).

    python tools/live_board_screenshots.py [--out docs/images/live-board] [maps...]

For each map: the page at desktop size (1280 x 800, the spectator's view) and at
phone size (390 x 844, the seated player's view with the hand in the bottom
sheet), mid-game, served by the real live board (``tests/web/live_server.py``:
the ``web`` app over a game service on SQLite, a 3-player game played through
the service by the engine's easy AI) and drawn by Debian's ``chromium`` through
Playwright. The PNGs are reduced to 256 colours with Pillow so the documentation
stays small.
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.web.conftest import CHROMIUM, DESKTOP, LAUNCH_ARGS, PHONE  # noqa: E402
from tests.web.live_server import FIRST_USER, LiveServer, serve  # noqa: E402

MAPS = ("usa", "europe", "germany", "nordic", "paris", "amsterdam")
#: How far into the game the screenshots are taken (a share of the moves).
AT = 0.6
SEATS = 3


def shoot(browser: object, live: LiveServer, map_id: str, out: Path) -> list[Path]:
    """The desktop and phone screenshots of ``map_id`` written to ``out``; returns their paths."""
    whole = live.new_game(map_id, seats=SEATS).play_to_end(analysed=False)
    game = live.new_game(map_id, seats=SEATS)  # dealt alike: the same game, stopped midway
    game.play(int(whole * AT))
    written = []
    for name, options, user in (
        ("desktop", DESKTOP, None),
        ("phone", {**PHONE, "device_scale_factor": 1}, FIRST_USER),
    ):
        context = browser.new_context(**options, reduced_motion="reduce")  # type: ignore[attr-defined]
        page = context.new_page()
        page.goto(f"{live.base}/b/{game.token(user)}")
        page.wait_for_selector("#app[data-ready='true']")
        png = page.screenshot()
        context.close()
        path = out / f"{map_id}-{name}.png"
        Image.open(io.BytesIO(png)).convert("RGB").quantize(256).save(path, optimize=True)
        written.append(path)
    return written


def main() -> None:
    """Parse the arguments and write the screenshots."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("maps", nargs="*", default=list(MAPS))
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images" / "live-board")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    with (
        tempfile.TemporaryDirectory() as folder,
        serve(Path(folder)) as live,
        sync_playwright() as pw,
    ):
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        for map_id in args.maps:
            for path in shoot(browser, live, map_id, args.out):
                print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
        browser.close()


if __name__ == "__main__":
    main()
