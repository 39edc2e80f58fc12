"""The live board's refusal: a code of the closed table in ``words/_errors.py`` and the
language to say it in; :class:`web.server.WebApp` answers it with its HTTP status and the
sentence (a page for ``/b/...``, JSON elsewhere)."""

from __future__ import annotations

from typing import Any


class WebError(Exception):
    """A refused request: ``code`` (a key of :data:`web.server.STATUS`, its sentence in the
    catalogs), the language to say it in, and a ``Retry-After`` in seconds when there is one."""

    def __init__(self, code: str, lang: str = "en", retry_after: float | None = None) -> None:
        super().__init__(code)
        self.code = code
        self.lang = lang
        self.retry_after = retry_after
        self.detail: dict[str, Any] = {}


__all__ = ["WebError"]
