"""Deterministic, version-independent random numbers kept inside the game state.

The generator is SplitMix64: the whole RNG state is one 64-bit integer stored
in :class:`engine.state.GameState` (``state.rng``), so a snapshot carries its
own chance and a replay from the seed gives the same draws on every Python
version (``random.shuffle`` is not promised stable across versions).
"""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    """Initial RNG state for an integer seed (any int; reduced to 64 bits)."""
    return (seed * 0x9E3779B97F4A7C15 + 0x6A09E667F3BCC909) & _MASK


def next_u64(state: int) -> tuple[int, int]:
    """One SplitMix64 step: returns ``(new_state, 64-bit output)``."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """A uniform integer in ``[0, n)`` without modulo bias.

    Returns ``(new_state, value)``. Raises ValueError when ``n <= 0``.
    """
    if n <= 0:
        raise ValueError("n must be positive")
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        state, x = next_u64(state)
        if x < limit:
            return state, x % n


def shuffle(state: int, items: list[T]) -> int:
    """Fisher-Yates shuffle of ``items`` in place; returns the new RNG state."""
    for i in range(len(items) - 1, 0, -1):
        state, j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state
