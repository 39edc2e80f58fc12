"""The words the live board's page shows (a placeholder until the page's own list lands)."""

from __future__ import annotations


def page_strings(lang: str) -> dict[str, str]:
    """Every word the page shows, in ``lang``, from the catalogs (none yet)."""
    return {}


__all__ = ["page_strings"]
