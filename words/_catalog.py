"""Loading the catalogs and the :class:`Words` object handed to every formatter."""

from __future__ import annotations

import gettext
import io
import logging
import string
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

log = logging.getLogger(__name__)

#: Languages the bot speaks; the first is the source language of the msgids.
LANGS = ("en", "de")
DOMAIN = "ttrbot"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
#: Babel extraction keywords: ``w.t(msgid)``, ``w.n(singular, plural, n)``, ``w.ctx(context, msgid)``,
#: ``w.nctx(context, singular, plural, n)``, ``N_(msgid)``, ``NP_(context, msgid)`` and
#: ``NN_(singular, plural, count_key)`` for plural sentences kept in tables.
KEYWORDS: dict[str, Any] = {
    "t": None,
    "n": (1, 2),
    "ctx": ((1, "c"), 2),
    "nctx": ((1, "c"), 2, 3),
    "N_": None,
    "NP_": ((1, "c"), 2),
    "NN_": (1, 2),
}


def N_(msgid: str) -> str:  # noqa: N802 - the gettext convention for "mark now, translate later"
    """Mark ``msgid`` for extraction without translating it here (gettext_noop)."""
    return msgid


def NP_(context: str, msgid: str) -> str:  # noqa: N802 - gettext convention, with a context
    """Mark ``msgid`` in ``context`` for extraction without translating it here."""
    return msgid


class Plural(NamedTuple):
    """A sentence kept in a table whose form depends on a count (see :func:`NN_`).

    ``key``: the name of the fact that holds the count (``"min"`` in "Keep at least {min} ...").
    """

    singular: str
    plural: str
    key: str


def NN_(singular: str, plural: str, key: str) -> Plural:  # noqa: N802 - gettext convention
    """Mark a plural sentence for extraction; it is translated later with ``ngettext`` by the
    value of the fact named ``key``."""
    return Plural(singular, plural, key)


#: Card and route colours of every map, by name (translated in the context "color"; a map's
#: ``words`` block may name them its own way, e.g. Nordic's "Purpur" for pink).
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

#: The map's nouns every sentence may use: key -> English (singular, plural), the USA map's
#: words, translated by the catalogs where a map's ``words`` block has no noun of its own.
#: Each noun fills two placeholders: ``{key}`` (one) and ``{key}s`` (more):
#: ``{piece}``/``{pieces}``, ``{ticket}``/``{tickets}``, ``{merchandise_card}``/``{merchandise_cards}``.
NOUN_DEFAULTS: dict[str, tuple[str, str]] = {
    "piece": (N_("train"), N_("trains")),
    "card": (N_("train car card"), N_("train car cards")),
    "wild": (N_("locomotive"), N_("locomotives")),
    "ticket": (N_("destination ticket"), N_("destination tickets")),
    "merchandise_card": (N_("merchandise bonus card"), N_("merchandise bonus cards")),
    "flag": (N_("French flag"), N_("French flags")),
    "globetrotter": (N_("Globetrotter"), N_("Globetrotter")),
    "longest_path": (N_("longest path"), N_("longest paths")),
}

#: Grammatical variants a sentence may ask of a noun with a format spec: ``{pieces:dat}`` (German
#: dative: "mit 2 Fuhrwerken"), ``{flags:cap}`` (first letter capitalised: a label that starts a line).
FORM_SPECS = ("dat", "cap")

#: The gender the German sentences assume for a noun when they put an article or a pronoun with it
#: ("eine offene {wild}", "mindestens eine davon" of {tickets}, "eine {merchandise_card}", "eine
#: {flag}"): a map whose German noun has another gender would print wrong German, so the map schema
#: refuses it (``maps/schema.py``). Nouns used without an article (``{piece}``) have no entry.
GERMAN_GENDER_ASSUMED: dict[str, str] = {
    "card": "f",
    "wild": "f",
    "ticket": "f",
    "merchandise_card": "f",
    "flag": "f",
    "station": "m",
}


def plural_name(key: str) -> str:
    """The placeholder of a noun's plural: ``piece`` -> ``pieces``."""
    return key + "s"


class Form(str):
    """One form of a map noun (``"Fuhrwerke"``) that also answers the format specs of
    :data:`FORM_SPECS`: ``format(form, "dat")`` is its dative (``"Fuhrwerken"``; a language or
    noun without cases gives the form itself), ``"cap"`` capitalises its first letter.

    It is a ``str``: equal to its text, usable wherever a word is.
    """

    dative: str

    def __new__(cls, text: str, dative: str | None = None) -> Form:
        """``text`` (nominative and accusative) with its ``dative`` (default: the same)."""
        self = super().__new__(cls, text)
        self.dative = text if dative is None else dative
        return self

    def __format__(self, spec: str) -> str:
        if spec == "dat":
            return self.dative
        if spec == "cap":
            return self[:1].upper() + self[1:]
        return format(str(self), spec)


def lang_of(locale: object) -> str:
    """``"de"`` for any German Discord locale (``de``, ``discord.Locale.german``), else ``"en"``."""
    value = str(getattr(locale, "value", locale) or "")
    return "de" if value.lower().startswith("de") else "en"


def catalog_file(lang: str) -> Path:
    """The ``.po`` source of ``lang``'s catalog."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def _check_lang(lang: str) -> None:
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; the bot speaks {', '.join(LANGS)}")


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of ``lang`` (``.po`` compiled in memory by Babel; cached).

    English is the source language: without an ``en`` catalog the msgids are
    returned as they are, with the English plural rule (``n != 1``).
    Raises ``ValueError`` for a language the bot does not speak.
    """
    _check_lang(lang)
    path = catalog_file(lang)
    if not path.is_file():
        return gettext.NullTranslations()
    with path.open("rb") as src:
        catalog = read_po(src, locale=lang, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)  # fuzzy entries are left out, as msgfmt does
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


@cache
def plural_rule(lang: str) -> Callable[[int], int]:
    """The catalog's ``Plural-Forms`` rule of ``lang``: count -> index of the form (English and
    German: 0 for 1, 1 for any other count). Raises ``ValueError`` for an unknown language."""
    _check_lang(lang)
    rule = getattr(translations(lang), "plural", None)
    if callable(rule):
        return rule  # type: ignore[no-any-return]
    return lambda n: int(n != 1)


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
        terms: the map's nouns in ``lang`` by placeholder (``piece``/``pieces``, ``ticket``/
            ``tickets``, ``card``/``cards``, ``wild``/``wilds``, ``merchandise_card``/
            ``merchandise_cards``, ``flag``/``flags``...), each a :class:`Form`.
        colors: the map's own colour names in ``lang`` (colour -> name), over the catalog's.
    """

    lang: str
    terms: Mapping[str, str] = field(default_factory=dict)
    colors: Mapping[str, str] = field(default_factory=dict)

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

    def nctx(self, context: str, singular: str, plural: str, count: int, /, **facts: Any) -> str:
        """:meth:`n` in ``context`` (e.g. ``"image"``)."""
        facts.setdefault("count", count)
        return self._format(self.catalog.npgettext(context, singular, plural, count), facts)

    def text(self, entry: str | Plural, /, **facts: Any) -> str:
        """A sentence kept in a table (:func:`N_` or :func:`NN_`), translated; a :class:`Plural`
        takes its form from the fact its ``key`` names (missing: the plural)."""
        if isinstance(entry, Plural):
            raw = facts.get(entry.key)
            count = raw if isinstance(raw, int) and not isinstance(raw, bool) else 2
            return self._format(self.catalog.ngettext(entry.singular, entry.plural, count), facts)
        return self.t(entry, **facts)

    def noun(self, key: str, count: int) -> str:
        """The map's noun ``key`` (``"piece"``, ``"ticket"``...) in the form for ``count`` by the
        catalog's plural rule: ``noun("piece", 1)`` -> "Fuhrwerk", ``noun("piece", 2)`` -> "Fuhrwerke"."""
        name = key if plural_rule(self.lang)(count) == 0 else plural_name(key)
        return self.terms.get(name, name)

    def decimal(self, value: float, digits: int = 1, *, sign: bool = False) -> str:
        """``value`` with ``digits`` decimals as the language writes it (English ``-3.5``,
        German ``-3,5``; Babel's CLDR data); ``sign``: a ``+`` before a positive value."""
        value = round(value, digits) or 0.0  # no "-0.0"
        pattern = ("+" if sign else "") + "0" + ("." + "0" * digits if digits else "")
        if sign:
            pattern += ";-" + pattern[1:]
        return str(format_decimal(value, format=pattern, locale=self.lang))

    def color(self, color: str | None) -> str:
        """A card or route colour by name (the map's own name first); the wild card by the map's word."""
        if color is None:
            return self.t("none")
        if color == "locomotive":
            return self.terms.get("wild", color)
        if color in self.colors:
            return self.colors[color]
        if color == "gray":
            return self.t("gray")
        return self.catalog.pgettext("color", color)


def _nouns(lang: str, block: Mapping[str, Any]) -> dict[str, Form]:
    """Placeholder -> :class:`Form` from a map's ``words`` block in ``lang`` (``maps/schema.py``
    describes it: ``{"piece": {"forms": ["Fuhrwerk", "Fuhrwerke"], "gender": "n", "dative":
    ["Fuhrwerk", "Fuhrwerken"]}, ...}``), over the catalog's defaults."""
    cat = translations(lang)
    out = {}
    for key, (one, other) in NOUN_DEFAULTS.items():
        out[key], out[plural_name(key)] = Form(cat.gettext(one)), Form(cat.gettext(other))
    for key, noun in block.items():
        if key == "colors" or not isinstance(noun, Mapping):
            continue
        forms = [str(f) for f in noun.get("forms") or ()]
        dative = [str(f) for f in noun.get("dative") or forms]
        if len(forms) == 2 and len(dative) == 2:
            out[key] = Form(forms[0], dative[0])
            out[plural_name(key)] = Form(forms[1], dative[1])
    return out


def words_for(lang: str, meta: Mapping[str, Any] | None = None) -> Words:
    """The :class:`Words` of ``lang`` at a table of the map whose data is ``meta`` (``rules.meta``).

    The map's ``words`` block (per language) overrides the default nouns and may
    rename colours; missing nouns fall back to the catalog's translation of the
    English defaults. An unknown language gives English.
    """
    if lang not in LANGS:
        lang = LANGS[0]
    block = (meta or {}).get("words") or {}
    own = block.get(lang) if isinstance(block, Mapping) else None
    own = own if isinstance(own, Mapping) else {}
    colors = own.get("colors")
    return Words(
        lang,
        _nouns(lang, own),
        {str(k): str(v) for k, v in colors.items()} if isinstance(colors, Mapping) else {},
    )
