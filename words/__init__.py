"""Player-facing words of ttrbot: gettext message catalogs (compiled with Babel), English and German.

One place for every sentence the bot says or draws, used by the cogs and the
images alike; no discord import. Sentences are English msgids translated by
``words/locale/<lang>/LC_MESSAGES/ttrbot.po``; plurals use ``ngettext`` and
the catalog's ``Plural-Forms`` rule (never hand-made ``n == 1`` logic). The
map's own nouns (trains, carts, buses; destination tickets, contracts) come
from the map data's ``words`` block and are filled into the sentences as
``{piece}``/``{pieces}``, ``{ticket}``/``{tickets}``, ``{card}``/``{cards}``,
``{wild}``/``{wilds}``::

    w = words_for("de", meta=rules.meta)
    w.t("It is not your turn.")                       # "Du bist nicht am Zug."
    w.n("Kept {count} {ticket}.", "Kept {count} {tickets}.", 2, count=2)
    w.color("red")                                    # "rot"

Markers for the extractor (``tools/update_catalogs.py``): ``t``, ``n``
(singular, plural), ``ctx`` (context, msgid) and :func:`N_` for strings kept in
tables and translated later.
"""

from __future__ import annotations

from ._catalog import (
    DOMAIN,
    KEYWORDS,
    LANGS,
    LOCALE_DIR,
    N_,
    Words,
    catalog_file,
    lang_of,
    translations,
    words_for,
)
from ._errors import ERRORS, error_text

__all__ = [
    "DOMAIN",
    "ERRORS",
    "KEYWORDS",
    "LANGS",
    "LOCALE_DIR",
    "N_",
    "Words",
    "catalog_file",
    "error_text",
    "lang_of",
    "translations",
    "words_for",
]
