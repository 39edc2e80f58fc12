"""The headers every answer of the live board carries: a strict Content-Security-Policy (no
inline script or style, nothing from another origin; framed only by the page itself and
Discord's Activity frame), no type sniffing, no referrer."""

from __future__ import annotations

#: Frames that may show the page: the page itself and Discord's Activity frame.
FRAME_ANCESTORS = "'self' https://discord.com https://*.discordsays.com"
#: The page's Content-Security-Policy.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; "
    f"frame-ancestors {FRAME_ANCESTORS}"
)
#: Every answer's security headers.
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Resource-Policy": "same-origin",
}

__all__ = ["CSP", "FRAME_ANCESTORS", "SECURITY_HEADERS"]
