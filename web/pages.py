"""The head every HTML page of the live board shares: language, viewport, no referrer, the
title, the stylesheet and at most one module script (no inline script or style: the CSP of
:mod:`web.headers` allows neither)."""

from __future__ import annotations

import html


def page(lang: str, title: str, body: str, script: str | None = None) -> str:
    """A whole HTML document: ``body`` (already escaped markup) under the shared head, with
    ``/static/<script>`` as its module when given."""
    module = f'<script type="module" src="/static/{script}"></script>\n' if script else ""
    return (
        "<!doctype html>\n"
        f'<html lang="{html.escape(lang)}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="referrer" content="no-referrer">\n'
        f"<title>{html.escape(title)}</title>\n"
        '<link rel="stylesheet" href="/static/board.css">\n'
        f"{module}</head>\n<body>\n{body}</body>\n</html>\n"
    )


__all__ = ["page"]
