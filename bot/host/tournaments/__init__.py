"""Tournaments' pure logic: who sits at which table each round (:mod:`.pairing`), what each
format seats next (:mod:`.rounds`) and the standings with their tie-breaks
(:mod:`.standings`).

Standard library only (no discord, no database, no clock, no global randomness): the
service (:mod:`bot.host.services._tournaments`) loads a tournament, asks these
functions and stores what they decided.
"""

from __future__ import annotations

from .pairing import (
    PairingError,
    Table,
    elimination_first_round,
    elimination_next_round,
    elimination_rounds,
    met_pairs,
    repeats,
    round_robin,
    swiss_tables,
    table_sizes,
)
from .rounds import first_round, knocked_out, next_round
from .standings import BYE_POINTS, Standing, TableResult, place_points, standings, table_winner

__all__ = [
    "BYE_POINTS",
    "PairingError",
    "Standing",
    "Table",
    "TableResult",
    "elimination_first_round",
    "elimination_next_round",
    "elimination_rounds",
    "first_round",
    "knocked_out",
    "met_pairs",
    "next_round",
    "place_points",
    "repeats",
    "round_robin",
    "standings",
    "swiss_tables",
    "table_sizes",
    "table_winner",
]
