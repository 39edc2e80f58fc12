"""Fault injection through the service: a full disk and corrupt rows.

A few trials here; ``python -m benchmarks crash`` runs many more for the README.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .faults import DAMAGE, corrupt_row_trial, disk_full_trial


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_a_full_disk_loses_nothing_acknowledged(tmp_path: Path, seed: int) -> None:
    """Moves refused while the file cannot grow change nothing; acknowledged moves stay; every
    game replays; play goes on once there is room."""
    result = await disk_full_trial(tmp_path, seed)
    assert result.faults > 0, "the disk really was full"
    assert result.acknowledged > 20
    assert (result.lost, result.unreadable) == (0, 0)


@pytest.mark.parametrize("seed", range(len(DAMAGE)))
async def test_a_corrupt_row_is_quarantined_and_the_rest_run_on(tmp_path: Path, seed: int) -> None:
    result, damage, quarantined = await corrupt_row_trial(tmp_path, seed)
    assert quarantined, damage
    assert (result.lost, result.unreadable) == (0, 0), damage
