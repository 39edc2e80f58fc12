"""What a /ttr claim or /ttr station command names: which of the payments fit its colour and
locomotive count (cogs/ttr/_paid.py)."""

from __future__ import annotations

from bot.host.services import Cards
from cogs.ttr._paid import Paid, fitting

PAYMENTS = [
    Cards({"red": 3}),
    Cards({"red": 2, "locomotive": 1}),
    Cards({"locomotive": 3}),
    Cards({"blue": 3}),
]


def test_nothing_named_fits_every_payment() -> None:
    assert fitting(Paid(0, PAYMENTS, [0, 1, 2, 3]), None, None) == [0, 1, 2, 3]


def test_a_colour_and_a_locomotive_count_narrow_the_payments() -> None:
    paid = Paid(0, PAYMENTS, [0, 1, 2, 3])
    assert fitting(paid, "red", None) == [0, 1]
    assert fitting(paid, "red", 1) == [1]
    assert fitting(paid, None, 0) == [0, 3]
    assert fitting(paid, None, 3) == [2]
    assert fitting(paid, "green", None) == []


def test_only_the_named_track_of_a_double_route_is_offered() -> None:
    """The positions say which payments pay for the named track; others never fit."""
    assert fitting(Paid(0, PAYMENTS, [1, 3]), None, None) == [1, 3]
    assert fitting(Paid(0, PAYMENTS, [1, 3]), "red", None) == [1]
