"""Fault-injection points of the storage layer (used by crash tests only).

Every write transaction calls :func:`point` before each statement
(``"statement"``), right before its commit (``"commit"``) and right after it
(``"committed"``). In production :data:`hook` is None and a point costs one
attribute test. A crash test sets ``hook`` to a function that kills the
process at the n-th point, proving that each service operation is stored
whole or not at all.
"""

from __future__ import annotations

from collections.abc import Callable

#: Called with the point's label, or None (the default: nothing happens).
hook: Callable[[str], None] | None = None


def point(label: str) -> None:
    """Pass a fault-injection point (see the module docstring)."""
    if hook is not None:
        hook(label)
