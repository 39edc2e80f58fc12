"""The Pillow renderer: board, phone, zoom, private hand and final images as PNG, the recap as GIF.

Pure functions of engine views (never the state) plus the map's geometry::

    layout = load_layout("usa")
    png = render_board_png(layout, public_view, names, highlight=last_turn_routes)
    png = render_phone_png(layout, public_view, names)                # 500 px wide
    png = render_zoom_png(layout, view, names, cities=["denver"], high_contrast=True)
    png = render_hand_png(player_view, names, lang="de")     # ephemeral replies only
    png = render_final_png(layout, public_view, names)
    png = render_phone_final_png(layout, public_view, names)          # 500 px wide
    gif = render_recap(layout, claims_per_turn, names)       # [{route id: seat}, ...]
    png = render_rating_png([(1, 0.4, True), ...], title=..., axis=..., legend=(..., ...))
    png = render_chance_png(chances_per_seat, names, marks=turning_point_turns)
    png = render_standings_png([StandingRow(1, "Ada", 4.0, 6.5, 12.0, 3)], title=..., ...)
    with recorded_text() as drawn: ...                       # every text drawn meanwhile (tests)
    with recorded_sizes() as drawn: ...                      # ... with its font size in px

Every PNG is a 256-colour image (``encode``), at most ``MAX_IMAGE_BYTES`` (200 KB) on every
map; ``board_image``, ``phone_image``, ``zoom_image``, ``hand_image`` and ``final_image`` give
the same pictures in full colour, before encoding.

``python -m render sample --map usa --out DIR`` writes one of each.

They are CPU-bound: call them in a worker thread (``asyncio.to_thread``), never
on the event loop.
"""

from __future__ import annotations

from ._board import (
    base_layer,
    blocked_routes,
    board_image,
    label_boxes,
    name_pieces,
    render_board_png,
)
from ._chart import render_chance_png
from ._draw import MAX_IMAGE_BYTES, encode, recorded_sizes, recorded_text
from ._final import (
    final_image,
    longest_routes,
    phone_final_image,
    render_final_png,
    render_phone_final_png,
)
from ._hand import CARD_ORDER, hand_image, render_hand_png, render_offer_png
from ._layout import Car, Layout, RouteShape, auto_positions, build_layout, load_layout
from ._rating import render_rating_png
from ._recap import render_recap
from ._standings import StandingRow, render_standings_png
from ._theme import (
    CARD_COLORS,
    CARD_SYMBOLS,
    SEAT_COLORS,
    SEAT_SYMBOLS,
    card_color,
    seat_color,
    seat_symbol,
)
from ._zoom import (
    phone_image,
    phone_names,
    render_phone_png,
    render_zoom_png,
    zoom_box,
    zoom_image,
)


def warm_up(map_ids: list[str] | tuple[str, ...] | None = None) -> None:
    """Build and cache the static layers of ``map_ids`` (default: every map) so that the first board
    of each map renders as fast as the rest (the bot calls this in a worker thread at start)."""
    from maps.loader import available_maps

    for map_id in map_ids or available_maps():
        layout = load_layout(map_id)
        base_layer(layout)
        name_pieces(layout)
        phone_names(layout)


__all__ = [
    "CARD_ORDER",
    "MAX_IMAGE_BYTES",
    "StandingRow",
    "render_standings_png",
    "board_image",
    "encode",
    "final_image",
    "hand_image",
    "phone_image",
    "phone_final_image",
    "zoom_image",
    "CARD_COLORS",
    "CARD_SYMBOLS",
    "SEAT_COLORS",
    "SEAT_SYMBOLS",
    "blocked_routes",
    "render_phone_png",
    "render_phone_final_png",
    "render_rating_png",
    "render_recap",
    "render_zoom_png",
    "seat_symbol",
    "zoom_box",
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
    "recorded_sizes",
    "recorded_text",
    "render_board_png",
    "render_chance_png",
    "render_final_png",
    "render_hand_png",
    "render_offer_png",
    "seat_color",
    "warm_up",
]
