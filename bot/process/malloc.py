"""glibc's allocator tuned for a long-running bot that renders large images in threads.

Python's own allocator serves small objects; everything larger (a board image is
5-10 MB of pixels, allocated by Pillow) comes from the C library's ``malloc``. With
glibc's defaults two things make a bot process keep memory it no longer uses: the
threshold above which a block is mapped on its own (and given back to the system
when freed) rises with every large block freed, so later images are carved out of
the heap, which rarely shrinks; and every thread that renders may get its own heap
("arena"). Measured on the bot's own work (README, "Running the bot"): about 30 MiB
less after warming the renderer, and no growth from rendering turn after turn.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
from typing import Any

log = logging.getLogger(__name__)

#: ``mallopt`` parameters (glibc ``malloc.h``).
M_MMAP_THRESHOLD = -3
M_ARENA_MAX = -8
#: Blocks from this size on are mapped on their own and returned when freed (bytes).
MMAP_THRESHOLD = 1 << 20
#: At most this many heaps for all threads.
ARENA_MAX = 2


def _glibc(name: str) -> Any:
    """The C library's function ``name``, or None where it has none (not glibc, or too old)."""
    try:
        return getattr(ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6"), name)
    except (OSError, AttributeError):
        return None


def tune_malloc() -> bool:
    """Apply the settings above to this process's ``malloc`` (call it before starting threads).
    Returns False, changing nothing, where the C library is not glibc."""
    mallopt = _glibc("mallopt")
    if mallopt is None:
        return False
    ok = bool(mallopt(M_ARENA_MAX, ARENA_MAX)) and bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD))
    if not ok:
        log.debug("mallopt refused the allocator settings")
    return ok


class _MallInfo2(ctypes.Structure):
    """glibc's ``struct mallinfo2`` (glibc 2.33 and later; every field a ``size_t``)."""

    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena",
            "ordblks",
            "smblks",
            "hblks",
            "hblkhd",
            "usmblks",
            "fsmblks",
            "uordblks",
            "fordblks",
            "keepcost",
        )
    ]


def heap_mib() -> tuple[float, float, float] | None:
    """This process's ``malloc`` in MiB: ``(in use, free but kept in the heaps, mapped on its
    own)`` from glibc's ``mallinfo2``, or None where that does not exist (another C library,
    an older glibc). Python's small objects live apart (its own arenas), so a growing "in
    use" is C-level data (SQLite's page cache, Pillow's images, ...) and a growing "free"
    is fragmentation."""
    fn = _glibc("mallinfo2")
    if fn is None:
        return None
    fn.restype = _MallInfo2
    info = fn()
    mib = 1 << 20
    return info.uordblks / mib, info.fordblks / mib, info.hblkhd / mib
