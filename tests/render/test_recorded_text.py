"""What the images say: every text the renderer draws can be recorded, and recording changes no pixel."""

from __future__ import annotations

import threading

from engine import new_game, public_view
from maps.loader import load_ruleset
from render import load_layout, recorded_text, render_board_png


def test_recording_lists_the_drawn_labels_from_any_thread_and_changes_no_byte() -> None:
    """A board drawn in a worker thread (as the cog draws it) tells its panel labels to the
    recorder; the PNG is byte for byte the one drawn without recording; after the block nothing
    more is recorded."""
    rules = load_ruleset("usa")
    view = public_view(rules, new_game(rules, seats=2, seed=5))
    layout = load_layout("usa")
    plain = render_board_png(layout, view, ["Ann", "Bo"], lang="de")
    out: list[bytes] = []
    with recorded_text() as drawn:
        worker = threading.Thread(
            target=lambda: out.append(render_board_png(layout, view, ["Ann", "Bo"], lang="de"))
        )
        worker.start()
        worker.join()
    assert out == [plain]
    assert "Offene Karten" in drawn and "Ann" in drawn and "Bo" in drawn
    count = len(drawn)
    render_board_png(layout, view, ["Ann", "Bo"], lang="de")
    assert len(drawn) == count
