"""Loading the catalogs and the :class:`Words` object handed to every formatter."""

from __future__ import annotations

import gettext
import io
import logging
import string
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

log = logging.getLogger(__name__)

#: Languages the bot speaks; the first is the source language of the msgids.
LANGS = ("en", "de")
DOMAIN = "ttrbot"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
#: Babel extraction keywords: ``w.t(msgid)``, ``w.n(singular, plural, n)``, ``w.ctx(context, msgid)``, ``N_(msgid)``.
KEYWORDS: dict[str, Any] = {
    "t": None,
    "n": (1, 2),
    "ctx": ((1, "c"), 2),
    "N_": None,
    "NP_": ((1, "c"), 2),
}


def N_(msgid: str) -> str:  # noqa: N802 - the gettext convention for "mark now, translate later"
    """Mark ``msgid`` for extraction without translating it here (gettext_noop)."""
    return msgid


def NP_(context: str, msgid: str) -> str:  # noqa: N802 - gettext convention, with a context
    """Mark ``msgid`` in ``context`` for extraction without translating it here."""
    return msgid


#: Card and route colours of every map, by name (translated in the context "color").
COLOR_NAMES: tuple[str, ...] = (
    NP_("color", "red"),
    NP_("color", "blue"),
    NP_("color", "green"),
    NP_("color", "yellow"),
    NP_("color", "orange"),
    NP_("color", "black"),
    NP_("color", "white"),
    NP_("color", "pink"),
    NP_("color", "purple"),
    NP_("color", "gray"),
    NP_("color", "brown"),
)

#: The nouns every sentence may use, with their English defaults (the USA map's words).
TERM_DEFAULTS: dict[str, str] = {
    "piece": N_("train"),
    "pieces": N_("trains"),
    "card": N_("train car card"),
    "cards": N_("train car cards"),
    "wild": N_("locomotive"),
    "wilds": N_("locomotives"),
    "ticket": N_("destination ticket"),
    "tickets": N_("destination tickets"),
}


def lang_of(locale: object) -> str:
    """``"de"`` for any German Discord locale (``de``, ``discord.Locale.german``), else ``"en"``."""
    value = str(getattr(locale, "value", locale) or "")
    return "de" if value.lower().startswith("de") else "en"


def catalog_file(lang: str) -> Path:
    """The ``.po`` source of ``lang``'s catalog."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of ``lang`` (``.po`` compiled in memory by Babel; cached).

    English is the source language: without an ``en`` catalog the msgids are
    returned as they are, with the English plural rule (``n != 1``).
    Raises ``ValueError`` for a language the bot does not speak.
    """
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; the bot speaks {', '.join(LANGS)}")
    path = catalog_file(lang)
    if not path.is_file():
        return gettext.NullTranslations()
    with path.open("rb") as src:
        catalog = read_po(src, locale=lang, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)  # fuzzy entries are left out, as msgfmt does
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


class _Facts(dict[str, Any]):
    """Format values; a placeholder nobody filled stays visible (and is logged) instead of raising."""

    def __missing__(self, key: str) -> str:
        log.warning("message placeholder {%s} has no value", key)
        return "{" + key + "}"


_FORMATTER = string.Formatter()


@dataclass(frozen=True, slots=True)
class Words:
    """The words of one language at one map's table.

    Attributes:
        lang: ``"en"`` or ``"de"``.
        terms: the map's nouns in ``lang`` (``piece``/``pieces``, ``ticket``/``tickets``,
            ``card``/``cards``, ``wild``/``wilds`` and map extras such as ``merchandise``).
    """

    lang: str
    terms: Mapping[str, str] = field(default_factory=dict)

    @property
    def catalog(self) -> gettext.NullTranslations:
        """The compiled catalog of :attr:`lang`."""
        return translations(self.lang)

    def _format(self, template: str, facts: Mapping[str, Any]) -> str:
        values = _Facts(self.terms)
        values.update(facts)
        return _FORMATTER.vformat(template, (), values)

    def t(self, msgid: str, /, **facts: Any) -> str:
        """``msgid`` translated, with the map's nouns and ``facts`` filled in."""
        return self._format(self.catalog.gettext(msgid), facts)

    def n(self, singular: str, plural: str, count: int, /, **facts: Any) -> str:
        """The form of a sentence for ``count`` by the catalog's plural rule; ``{count}`` is filled in."""
        facts.setdefault("count", count)
        return self._format(self.catalog.ngettext(singular, plural, count), facts)

    def ctx(self, context: str, msgid: str, /, **facts: Any) -> str:
        """``msgid`` in ``context`` (e.g. ``"color"``, ``"command"``), translated and filled in."""
        return self._format(self.catalog.pgettext(context, msgid), facts)

    def color(self, color: str | None) -> str:
        """A card or route colour by name; the wild card by the map's own word."""
        if color is None:
            return self.t("none")
        if color == "locomotive":
            return self.terms.get("wild", color)
        if color == "gray":
            return self.t("gray")
        return self.catalog.pgettext("color", color)


def words_for(lang: str, meta: Mapping[str, Any] | None = None) -> Words:
    """The :class:`Words` of ``lang`` at a table of the map whose data is ``meta`` (``rules.meta``).

    The map's ``words`` block (per language) overrides the default nouns;
    missing nouns fall back to the catalog's translation of the English defaults.
    """
    if lang not in LANGS:
        lang = LANGS[0]
    cat = translations(lang)
    terms = {key: cat.gettext(value) for key, value in TERM_DEFAULTS.items()}
    block = (meta or {}).get("words") or {}
    if isinstance(block, Mapping):
        own = block.get(lang) or {}
        if isinstance(own, Mapping):
            terms.update({str(k): str(v) for k, v in own.items()})
    return Words(lang, terms)
