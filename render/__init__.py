"""The Pillow renderer: board, private hand and final-score images as PNG bytes.

Pure functions of engine views (never the state) plus the map's geometry::

    layout = load_layout("usa")
    png = render_board_png(layout, public_view, names)
    png = render_hand_png(player_view, names, lang="de")     # ephemeral replies only
    png = render_final_png(layout, public_view, names)

They are CPU-bound: call them in a worker thread (``asyncio.to_thread``), never
on the event loop.
"""

from __future__ import annotations

from ._board import base_layer, label_boxes, render_board_png
from ._final import longest_routes, render_final_png
from ._hand import render_hand_png
from ._layout import Car, Layout, RouteShape, auto_positions, build_layout, load_layout
from ._theme import SEAT_COLORS, card_color, seat_color

__all__ = [
    "SEAT_COLORS",
    "Car",
    "Layout",
    "RouteShape",
    "auto_positions",
    "base_layer",
    "build_layout",
    "card_color",
    "label_boxes",
    "load_layout",
    "longest_routes",
    "render_board_png",
    "render_final_png",
    "render_hand_png",
    "seat_color",
]
