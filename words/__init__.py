"""Player-facing words of ttrbot: gettext message catalogs (compiled with Babel), English and German.

One place for every sentence the bot says or draws, used by the cogs and the
images alike; no discord import. Sentences are English msgids translated by
``words/locale/<lang>/LC_MESSAGES/ttrbot.po``; plurals use ``ngettext`` and
the catalog's ``Plural-Forms`` rule (never hand-made ``n == 1`` logic). The
map's own nouns (trains, carts, buses; destination tickets, contracts) come
from the map data's ``words`` block (singular and plural forms; German adds
gender and dative) and are filled into the sentences as ``{piece}``/``{pieces}``,
``{ticket}``/``{tickets}``, ``{card}``/``{cards}``, ``{wild}``/``{wilds}``,
``{merchandise_card}``/``{merchandise_cards}``, ``{flag}``/``{flags}``; a German
sentence may ask for a case with a format spec (``{pieces:dat}``), and every
count picks its sentence by the catalog's plural rule::

    w = words_for("de", meta=rules.meta)
    w.t("It is not your turn.")                       # "Du bist nicht am Zug."
    w.n("You kept {count} {ticket}.", "You kept {count} {tickets}.", 1)
    w.color("red")                                    # "Rot" (Nordic's pink: "Purpur")

Markers for the extractor (``tools/update_catalogs.py``): ``t``, ``n``
(singular, plural), ``ctx`` (context, msgid), ``nctx`` (context, singular,
plural), :func:`N_` / ``NP_`` for strings kept in tables and translated later,
and :func:`NN_` for plural sentences kept in tables.
"""

from __future__ import annotations

from ._catalog import (
    DOMAIN,
    FORM_SPECS,
    GERMAN_GENDER_ASSUMED,
    KEYWORDS,
    LANGS,
    LOCALE_DIR,
    N_,
    NN_,
    NOUN_DEFAULTS,
    Form,
    Plural,
    Words,
    catalog_file,
    lang_of,
    plural_name,
    plural_rule,
    translations,
    words_for,
)
from ._errors import ERRORS, Refusal, error_text, refusal
from ._notice import privacy_notice

__all__ = [
    "DOMAIN",
    "ERRORS",
    "FORM_SPECS",
    "GERMAN_GENDER_ASSUMED",
    "KEYWORDS",
    "LANGS",
    "LOCALE_DIR",
    "NN_",
    "NOUN_DEFAULTS",
    "N_",
    "Form",
    "Plural",
    "Refusal",
    "Words",
    "catalog_file",
    "error_text",
    "lang_of",
    "plural_name",
    "plural_rule",
    "privacy_notice",
    "refusal",
    "translations",
    "words_for",
]
