"""The cog's only door to the renderer: PNGs of a table, drawn in a worker thread.

The public images use the table's language, the private hand the reader's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from bot.services import PlayerView, PublicView
from render import load_layout, render_board_png, render_final_png, render_hand_png


def _board(map_id: str, public: PublicView, names: Sequence[str], lang: str) -> bytes:
    return render_board_png(load_layout(map_id), public, list(names), lang=lang)


def _final(map_id: str, public: PublicView, names: Sequence[str], lang: str) -> bytes:
    return render_final_png(load_layout(map_id), public, list(names), lang=lang)


def _hand(mine: PlayerView, names: Sequence[str], lang: str) -> bytes:
    return render_hand_png(mine, list(names), lang=lang)


async def board_png(map_id: str, public: PublicView, names: Sequence[str], lang: str) -> bytes:
    """The board with the panel (public)."""
    return await asyncio.to_thread(_board, map_id, public, names, lang)


async def final_png(map_id: str, public: PublicView, names: Sequence[str], lang: str) -> bytes:
    """The final board and score table (public)."""
    return await asyncio.to_thread(_final, map_id, public, names, lang)


async def hand_png(mine: PlayerView, names: Sequence[str], lang: str) -> bytes:
    """The reader's hand and tickets (private replies only)."""
    return await asyncio.to_thread(_hand, mine, names, lang)
