"""What one reader may ask of the live board: token buckets per address and per link, and a cap
on open event streams per address and in all.

Both are plain counters in memory, bounded: a bucket table forgets its least recently used
keys beyond :data:`MAX_KEYS`, and a stream slot is given back when its stream ends. Nothing is
shared between processes (each process limits what it serves).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

#: Keys a bucket table remembers at most (the least recently seen are forgotten).
MAX_KEYS = 10_000


@dataclass(slots=True)
class _Bucket:
    tokens: float
    at: float


class Buckets:
    """Token buckets by key: ``rate`` requests a second on average, bursts of ``burst``.

    Args:
        rate: tokens added per second.
        burst: the bucket's size (a new key starts full).
        clock: monotonic seconds.
    """

    def __init__(self, rate: float, burst: float, clock: Callable[[], float]) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()

    def take(self, key: str) -> float:
        """Take one token of ``key``'s bucket: 0.0 when there was one, else the seconds until
        there is (the request is refused; nothing is taken)."""
        now = self.clock()
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = _Bucket(self.burst, now)
        else:
            self._buckets.move_to_end(key)
            bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.at) * self.rate)
            bucket.at = now
        while len(self._buckets) > MAX_KEYS:
            self._buckets.popitem(last=False)
        if bucket.tokens >= 1.0:
            bucket.tokens -= 1.0
            return 0.0
        return (1.0 - bucket.tokens) / self.rate


class StreamSlots:
    """Open event streams: at most ``per_address`` from one address and ``total`` in all.

    Args:
        per_address: streams one address may hold open.
        total: streams the server holds open at most.
    """

    def __init__(self, per_address: int, total: int) -> None:
        self.per_address = per_address
        self.total = total
        self.open = 0
        self._by_address: dict[str, int] = {}

    def take(self, address: str) -> bool:
        """Open a slot for ``address`` (False: full; nothing taken)."""
        held = self._by_address.get(address, 0)
        if self.open >= self.total or held >= self.per_address:
            return False
        self._by_address[address] = held + 1
        self.open += 1
        return True

    def give_back(self, address: str) -> None:
        """Close a slot of ``address`` taken with :meth:`take`."""
        held = self._by_address.get(address, 0)
        if held <= 1:
            self._by_address.pop(address, None)
        else:
            self._by_address[address] = held - 1
        self.open = max(0, self.open - 1)


__all__ = ["MAX_KEYS", "Buckets", "StreamSlots"]
