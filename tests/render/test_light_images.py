"""Light images: every PNG sent to Discord is at most 200 KB on every map, and its
256 colours stay within a stated colour difference of the full-colour picture.

The colour difference is colorspacious' ``deltaE`` (Euclidean distance in CAM02-UCS, where
about 1 is a just-noticeable difference), per pixel between the full-colour image and the
decoded PNG. The bounds we hold, for every image kind on every map:

- the mean over all pixels: <= 1.0 (measured 0.2-0.66);
- the 99th percentile: <= 6.5 (measured up to 4.6: anti-aliased edges between two colours);
- every colour that covers at least 0.1 % of the image (land, sea, routes, seat colours, the
  panel, text): <= 5.0 (measured up to 4.4, on the phone board: the quantizer gives a flat
  colour the mean of its bucket; seat colours stay >= 30 apart, see test_colors.py).

A palette that would make the board harder to read (fewer colours, a worse quantizer) breaks
these bounds: see the last test.
"""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from colorspacious import deltaE
from PIL import Image

import render.__main__ as render_cli
from engine import apply, new_game, player_view, public_view
from engine.ai import choose_action
from maps.loader import available_maps, load_ruleset
from render import (
    MAX_IMAGE_BYTES,
    board_image,
    encode,
    final_image,
    hand_image,
    load_layout,
    phone_final_image,
    phone_image,
    render_board_png,
    render_final_png,
    render_hand_png,
    render_zoom_png,
    zoom_image,
)

#: Long names (cut by the renderer) and letters outside ASCII: the widest panels and legends.
NAMES = ["Åsa Lindqvist-Öberg", "Björn", "Zoë Ø. Kowalczyk", "Øystein", "Ülkü Şahin-Yılmaz"]
MEAN_MAX = 1.0
P99_MAX = 6.5
MAIN_MAX = 5.0
MAIN_SHARE = 0.001
KINDS = (
    "board",
    "board_hc",
    "phone",
    "zoom",
    "zoom_all",
    "hand",
    "hand_hc",
    "final",
    "final_phone",
)


@lru_cache(maxsize=8)
def _game(map_id: str) -> tuple[Any, Any, Any, list[str]]:
    """A whole game at the map's most players: (late state, finished state, the last turn's
    claims, the cities of seat 0's tickets). Late in the game most routes are claimed: the
    busiest board, the most colours."""
    rules = load_ruleset(map_id)
    st = new_game(rules, seats=rules.params.max_players, seed=36)
    states = [st]
    while not st.finished:
        st = apply(rules, st, choose_action(rules, st, st.seats_to_act()[0])).state
        states.append(st)
    late = states[-2]
    earlier = next(s for s in reversed(states) if s.turn < late.turn - 1)
    highlight = [r for r in late.owners if r not in earlier.owners]
    mine = player_view(rules, late, 0)
    cities = [c for t in mine.tickets for c in (t.a, t.b)]
    return late, st, highlight, cities


@lru_cache(maxsize=2)
def _images(map_id: str) -> dict[str, Image.Image]:
    """Every kind of image the bot sends for ``map_id``, in full colour (before encoding)."""
    rules = load_ruleset(map_id)
    layout = load_layout(map_id)
    late, end, highlight, cities = _game(map_id)
    view = public_view(rules, late)
    mine = player_view(rules, late, 0)
    return {
        "board": board_image(layout, view, NAMES, "en", highlight=highlight),
        "board_hc": board_image(layout, view, NAMES, "de", highlight=highlight, high_contrast=True),
        "phone": phone_image(layout, view, NAMES, highlight=highlight),
        "zoom": zoom_image(layout, view, NAMES, cities=cities, marks=cities, high_contrast=True),
        "zoom_all": zoom_image(layout, view, NAMES, cities=list(layout.cities)),
        "hand": hand_image(mine, NAMES, layout=layout),
        "hand_hc": hand_image(mine, NAMES, lang="de", layout=layout, high_contrast=True),
        "final": final_image(layout, public_view(rules, end), NAMES),
        "final_phone": phone_final_image(layout, public_view(rules, end), NAMES, lang="de"),
    }


def _decoded(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


def colour_difference(full: Image.Image, light: Image.Image) -> tuple[float, float, float]:
    """``(mean, 99th percentile, worst main colour)`` of the CAM02-UCS difference per pixel
    between two images of one size; a main colour covers at least ``MAIN_SHARE`` of ``full``.
    Computed once per distinct (full colour, light colour) pair, weighted by its pixels."""
    a = np.asarray(full.convert("RGB"), dtype=np.uint64).reshape(-1, 3)
    b = np.asarray(light.convert("RGB"), dtype=np.uint64).reshape(-1, 3)
    ka = a[:, 0] << 16 | a[:, 1] << 8 | a[:, 2]
    kb = b[:, 0] << 16 | b[:, 1] << 8 | b[:, 2]
    pairs, pixels = np.unique(ka << 24 | kb, return_counts=True)

    def rgb(key: np.ndarray) -> np.ndarray:
        return np.stack([key >> 16 & 255, key >> 8 & 255, key & 255], axis=1).astype(float)

    d = deltaE(rgb(pairs >> 24), rgb(pairs & 0xFFFFFF), input_space="sRGB255")
    total = pixels.sum()
    order = np.argsort(d)
    p99 = d[order][np.searchsorted(np.cumsum(pixels[order]), 0.99 * total)]
    _, colour_of = np.unique(pairs >> 24, return_inverse=True)
    per_colour = np.bincount(colour_of, weights=pixels)
    main = per_colour[colour_of] >= MAIN_SHARE * total
    return float((d * pixels).sum() / total), float(p99), float(d[main].max())


@pytest.mark.parametrize("map_id", available_maps())
def test_every_image_is_at_most_200_kb(map_id: str) -> None:
    """Board (also in high contrast), phone board, zooms (ticket cities, the whole map), hand (also
    in high contrast) and final image (also for a phone), as sent: 256-colour PNGs of at most
    200 KB."""
    sizes = {}
    for kind, img in _images(map_id).items():
        png = encode(img)
        assert _decoded(png).mode == "P"
        sizes[kind] = len(png)
    assert max(sizes.values()) <= MAX_IMAGE_BYTES, {k: v // 1024 for k, v in sizes.items()}
    assert MAX_IMAGE_BYTES == 200 * 1024


@pytest.mark.parametrize("map_id", available_maps())
def test_light_images_look_like_the_full_colour_ones(map_id: str) -> None:
    """Each image kind, decoded from its PNG, is within the stated colour difference of the
    full-colour picture (see the module docstring), at the same size."""
    worst = {}
    for kind, img in _images(map_id).items():
        light = _decoded(encode(img))
        assert light.size == img.size
        worst[kind] = colour_difference(img, light)
    assert max(m for m, _, _ in worst.values()) <= MEAN_MAX, worst
    assert max(p for _, p, _ in worst.values()) <= P99_MAX, worst
    assert max(c for _, _, c in worst.values()) <= MAIN_MAX, worst


def test_what_is_sent_is_the_encoded_picture() -> None:
    """The render_*_png functions the cogs call send exactly ``encode`` of the pictures above."""
    rules = load_ruleset("usa")
    layout = load_layout("usa")
    late, end, highlight, cities = _game("usa")
    view = public_view(rules, late)
    mine = player_view(rules, late, 0)
    images = _images("usa")
    sent = {
        "board": render_board_png(layout, view, NAMES, highlight=highlight),
        "zoom": render_zoom_png(
            layout, view, NAMES, cities=cities, marks=cities, high_contrast=True
        ),
        "hand": render_hand_png(mine, NAMES, layout=layout),
        "final": render_final_png(layout, public_view(rules, end), NAMES),
    }
    for kind, png in sent.items():
        assert png == encode(images[kind]), kind


def test_a_poorer_palette_breaks_the_bounds() -> None:
    """The check can fail: the same board with 16 colours is beyond the bounds, and the 256
    colours of ``encode`` are within them."""
    board = _images("usa")["board"]
    poor = colour_difference(board, board.quantize(16, method=Image.Quantize.FASTOCTREE))
    assert poor[0] > MEAN_MAX or poor[1] > P99_MAX or poor[2] > MAIN_MAX, poor
    good = colour_difference(board, _decoded(encode(board)))
    assert good[0] <= MEAN_MAX and good[1] <= P99_MAX and good[2] <= MAIN_MAX, good


def test_render_sample_writes_light_pngs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``python -m render sample --map M`` writes board.png (and every other PNG) within 200 KB
    on every map, and says how big each file is."""
    for map_id in available_maps():
        assert render_cli.main(["sample", "--map", map_id, "--out", str(tmp_path / map_id)]) == 0
        pngs = sorted((tmp_path / map_id).glob("*.png"))
        assert {p.name for p in pngs} >= {"board.png", "zoom.png", "hand.png", "final.png"}
        for path in pngs:
            assert path.stat().st_size <= MAX_IMAGE_BYTES, (map_id, path.name)
    assert "board.png (" in capsys.readouterr().out
