"""The live board: a second presenter beside ``cogs/`` that shows a game in the browser.

``web.strings`` gives the page its words from the catalogs; the page itself is the ES
modules and CSS in ``web/static/`` (no build step).
"""
