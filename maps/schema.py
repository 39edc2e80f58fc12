"""The schema of a map file (``maps/<id>/map.json``) as pydantic models.

The models state the shape of every field: types (strict: ``"3"`` is not a
number, ``true`` is not an int), ranges, allowed words, required and unknown
keys, and the relations inside one object (``keep`` <= ``count``, ``min`` <=
``max``, a route's ferry locomotives <= its length). Relations between parts of
the file (a route's ends are cities, its colour is a card colour, its length has
route points...) are checked by :mod:`maps.checks` on the validated models.

The field-by-field description of the format is the documentation's "Maps as data"
page (docs/maps/index.md); the rule behind each rule parameter is named in
:class:`engine.params.RuleParams`.

:func:`schema_problems` turns pydantic's errors into :class:`maps.errors.MapProblem`
with a path into the file (``routes[12].length``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Annotated, Any, Literal, Self

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import ErrorDetails, PydanticCustomError

from engine.rules import RULESETS
from words import GERMAN_GENDER_ASSUMED

from .errors import MapProblem

#: The languages every map speaks (names, words, rules text); English is the fallback.
LANGUAGES = ("en", "de")


def _not_blank(value: str) -> str:
    if not value.strip():
        raise PydanticCustomError("blank", "must not be empty or blank")
    return value


#: A stable ascii id: lowercase letters, digits, ``_`` and ``-`` (``new_york``, ``a__b__1``).
Id = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9_-]*$")]
#: Player-facing text: not empty, not only blanks.
Text = Annotated[str, AfterValidator(_not_blank)]
PositiveInt = Annotated[int, Field(ge=1)]
NonNegativeInt = Annotated[int, Field(ge=0)]
#: A key of ``rules.route_points``: a route length "1" to "9".
LengthKey = Annotated[str, Field(pattern=r"^[1-9]$")]
#: A key of ``rules.merchandise.points``: a player count "1" to "9".
PlayerCountKey = Annotated[str, Field(pattern=r"^[1-9]$")]
#: Names that are not card colours: the wild card and a route's "any one colour".
RESERVED_COLOURS = ("locomotive", "gray")


def _per_color_kind(value: Any) -> str | None:
    if isinstance(value, Mapping):
        return "by colour"
    if isinstance(value, int) and not isinstance(value, bool):
        return "same"
    return None


#: ``rules.cards.per_color``: one count for every colour, or colour -> count.
PerColor = Annotated[
    Annotated[PositiveInt, Tag("same")] | Annotated[dict[str, PositiveInt], Tag("by colour")],
    Discriminator(
        _per_color_kind,
        custom_error_type="per_color",
        custom_error_message="must be a count, or an object colour -> count",
    ),
]
#: Segments pydantic adds to an error's location for the members of a union; not in the file.
_UNION_TAGS = frozenset({"same", "by colour"})
#: The segment pydantic adds after a dict key that is itself wrong (the message then says "key").
_KEY = "[key]"


class _Model(BaseModel):
    """Strict, immutable, no unknown keys (a misspelt key is an error, not ignored)."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class LangText(_Model):
    """One text per language (``name``, ``rules_text``, an option choice's label)."""

    en: Text
    de: Text


class Noun(_Model):
    """A noun of the map in one language, by the catalogs' plural forms (English and German:
    ``[one, more]``): ``{"forms": ["cart", "carts"]}``. The sentences fill it in as ``{piece}``
    (the first form) and ``{pieces}`` (the second) and pick the form for a count with ngettext."""

    forms: list[Text] = Field(min_length=2, max_length=2)


class GermanNoun(Noun):
    """A German noun also names what articles and prepositions need: its ``gender`` (``m``,
    ``f``, ``n``) and its ``dative`` forms (``"mit 2 Fuhrwerken"``), e.g. ``{"forms":
    ["Fuhrwerk", "Fuhrwerke"], "gender": "n", "dative": ["Fuhrwerk", "Fuhrwerken"]}``."""

    gender: Literal["m", "f", "n"]
    dative: list[Text] = Field(min_length=2, max_length=2)


class Words(_Model):
    """The map's own words in one language (Waggons, Fuhrwerke, Busse...) as in its rulebook.

    ``piece``, ``card``, ``wild`` and ``ticket`` are required; ``merchandise_card`` (Amsterdam),
    ``flag`` (Paris), ``globetrotter`` (the most-tickets bonus), ``longest_path`` (the
    longest-path bonus: Europe's European Express), ``station`` and ``long_ticket`` (Europe)
    are optional, and ``colors`` renames card colours (colour -> name, e.g. ``{"pink": "Purpur"}``).
    """

    piece: Noun
    card: Noun
    wild: Noun
    ticket: Noun
    merchandise_card: Noun | None = None
    flag: Noun | None = None
    globetrotter: Noun | None = None
    longest_path: Noun | None = None
    station: Noun | None = None
    long_ticket: Noun | None = None
    colors: dict[str, Text] = {}


def _assumed_gender(noun: GermanNoun | None, info: ValidationInfo) -> GermanNoun | None:
    """The German sentences put articles and pronouns with some nouns ("eine offene {wild}"):
    such a noun must have the gender they assume (:data:`words.GERMAN_GENDER_ASSUMED`)."""
    want = GERMAN_GENDER_ASSUMED.get(str(info.field_name))
    if noun is not None and want is not None and noun.gender != want:
        raise PydanticCustomError(
            "noun_gender",
            "the German sentences put articles of gender '{want}' with this noun "
            "(\"eine offene ...\"); a noun of gender '{got}' needs sentences of its own",
            {"want": want, "got": noun.gender},
        )
    return noun


class GermanWords(Words):
    """:class:`Words` in German: every noun with gender and dative (:class:`GermanNoun`)."""

    piece: GermanNoun
    card: Annotated[GermanNoun, AfterValidator(_assumed_gender)]
    wild: Annotated[GermanNoun, AfterValidator(_assumed_gender)]
    ticket: Annotated[GermanNoun, AfterValidator(_assumed_gender)]
    merchandise_card: Annotated[GermanNoun | None, AfterValidator(_assumed_gender)] = None
    flag: Annotated[GermanNoun | None, AfterValidator(_assumed_gender)] = None
    globetrotter: GermanNoun | None = None
    longest_path: GermanNoun | None = None
    station: GermanNoun | None = None
    long_ticket: GermanNoun | None = None


class WordsByLang(_Model):
    """``words``: :class:`Words` per language (German: :class:`GermanWords`)."""

    en: Words
    de: GermanWords


class Provenance(_Model):
    """Where the board comes from. More keys (``details``, ``reference``...) are free notes.

    A ``provisional`` board says so wherever its rules are shown, with ``notes`` (English) or
    ``notes_de`` (German).
    """

    model_config = ConfigDict(strict=True, extra="allow", frozen=True)

    status: Literal["exact", "provisional"]
    notes: Text
    #: ``notes`` in German (shown to German readers; English ``notes`` otherwise).
    notes_de: Text | None = None
    sources: list[str] = []
    provisional_parts: list[str] = []


class OptionSpec(_Model):
    """One game option: its choices (value -> label per language) and the default value."""

    default: str
    choices: dict[str, LangText] = Field(min_length=1)

    @model_validator(mode="after")
    def _default_is_a_choice(self) -> Self:
        if self.default not in self.choices:
            raise PydanticCustomError(
                "option_default",
                "default '{default}' is not one of the choices {choices}",
                {"default": self.default, "choices": ", ".join(sorted(self.choices))},
            )
        return self


class Players(_Model):
    """``rules.players``: the allowed seat count."""

    min: PositiveInt
    max: PositiveInt

    @model_validator(mode="after")
    def _in_order(self) -> Self:
        if self.min > self.max:
            raise PydanticCustomError(
                "players_order",
                "min {min} is above max {max}",
                {"min": self.min, "max": self.max},
            )
        return self


class Cards(_Model):
    """``rules.cards``: the card colours, how many of each and how many wild cards."""

    colors: list[Id] = Field(min_length=1)
    per_color: PerColor
    locomotives: NonNegativeInt

    @field_validator("colors")
    @classmethod
    def _distinct_card_colours(cls, colors: list[str]) -> list[str]:
        twice = sorted({c for c in colors if colors.count(c) > 1})
        reserved = [c for c in colors if c in RESERVED_COLOURS]
        if twice or reserved:
            raise PydanticCustomError(
                "card_colours",
                "colours must be distinct and none may be 'locomotive' or 'gray' (got {bad})",
                {"bad": ", ".join(twice + reserved)},
            )
        return colors

    @model_validator(mode="after")
    def _every_colour_counted(self) -> Self:
        if isinstance(self.per_color, dict) and set(self.per_color) != set(self.colors):
            raise PydanticCustomError(
                "per_color_keys",
                "per_color names {named} but the colours are {colors}",
                {
                    "named": ", ".join(sorted(self.per_color)),
                    "colors": ", ".join(sorted(self.colors)),
                },
            )
        return self

    def count(self, colour: str) -> int:
        """Cards of ``colour`` in the deck (wild cards excluded)."""
        return self.per_color[colour] if isinstance(self.per_color, dict) else self.per_color

    @property
    def total(self) -> int:
        """All cards of the deck, wild cards included."""
        return sum(self.count(c) for c in self.colors) + self.locomotives


class Deal(_Model):
    """``rules.initial_tickets`` / ``rules.draw_tickets``: see :class:`engine.params.TicketDeal`.

    ``mix`` is a fixed mix: ticket deck -> how many of the ``count`` come from it
    (Europe's setup deals 1 ``long`` + 3 ``main``, and its draws come from ``main``
    only, so the long tickets not dealt at setup never come back: Europe rules digest,
    "Setup"). It adds up to ``count`` and excludes ``announce_mix`` (where the player
    chooses the mix: Germany).
    """

    count: PositiveInt
    keep: PositiveInt
    unkept: Literal["bottom", "remove"] = "bottom"
    announce_mix: bool = False
    mix: dict[Id, PositiveInt] | None = None

    @model_validator(mode="after")
    def _keep_at_most_count(self) -> Self:
        if self.keep > self.count:
            raise PydanticCustomError(
                "deal_keep",
                "keep {keep} must be between 1 and count {count}",
                {"keep": self.keep, "count": self.count},
            )
        return self

    @model_validator(mode="after")
    def _mix_adds_up(self) -> Self:
        if self.mix is None:
            return self
        if self.announce_mix:
            raise PydanticCustomError(
                "deal_mix", "a fixed mix and announce_mix exclude each other", {}
            )
        if sum(self.mix.values()) != self.count:
            raise PydanticCustomError(
                "deal_mix",
                "the mix deals {total} tickets but count is {count}",
                {"total": sum(self.mix.values()), "count": self.count},
            )
        return self


class Merchandise(_Model):
    """``rules.merchandise`` (Amsterdam): the number of cards, points by player count by rank."""

    cards: PositiveInt
    points: dict[PlayerCountKey, list[NonNegativeInt]]


class FrenchFlags(_Model):
    """``rules.french_flags`` (Paris): the flag's card colours and its points."""

    colors: list[Id] = Field(min_length=1)
    points: PositiveInt


class Stations(_Model):
    """``rules.stations`` (Europe): train stations.

    Europe rules digest, "Train stations": each player has ``count`` stations; the
    n-th one built costs ``costs[n-1]`` cards of one colour (locomotives stand in);
    building one is a whole turn, on a city with no station yet (one per city in
    all); at the end each built station lets its owner use one route of another
    player into its city for the owner's tickets; each station not built scores
    ``points_unbuilt``. Europe: ``{"count": 3, "costs": [1, 2, 3], "points_unbuilt": 4}``.
    """

    count: PositiveInt
    costs: list[PositiveInt] = Field(min_length=1)
    points_unbuilt: NonNegativeInt

    @model_validator(mode="after")
    def _a_cost_per_station(self) -> Self:
        if len(self.costs) != self.count:
            raise PydanticCustomError(
                "station_costs",
                "{costs} costs for {count} stations: give one cost per station",
                {"costs": len(self.costs), "count": self.count},
            )
        return self


#: Tie-break keys after points, in the order a map lists them: most completed tickets,
#: longest continuous path (its length), fewest train stations built, holding the
#: longest-path bonus (Europe's European Express card).
Tiebreak = Literal["tickets_completed", "longest_path", "fewest_stations", "longest_path_bonus"]


class Rules(_Model):
    """``rules``: every rule parameter (meanings in :class:`engine.params.RuleParams`)."""

    players: Players
    pieces: PositiveInt
    cards: Cards
    starting_hand: NonNegativeInt = 4
    face_up: PositiveInt = 5
    face_up_wild_limit: PositiveInt | None = 3
    face_up_wild_restricted: bool = True
    locomotives_pay: Literal["any", "tunnels_and_ferries"] = "any"
    initial_tickets: Deal
    draw_tickets: Deal
    shuffle_ticket_decks_after_setup: bool = False
    last_round_at: NonNegativeInt = 2
    double_routes_min_players: PositiveInt = 4
    route_points: dict[LengthKey, NonNegativeInt] = Field(min_length=1)
    longest_path_bonus: PositiveInt | None = None
    globetrotter_bonus: PositiveInt | None = None
    merchandise: Merchandise | None = None
    french_flags: FrenchFlags | None = None
    ferry_locomotive_substitute: Annotated[int, Field(ge=2)] | None = None
    stations: Stations | None = None
    tiebreaks: list[Tiebreak] = ["tickets_completed"]


class City(_Model):
    """A place: ``kind`` ``"country"`` is a dead end for paths (Germany's neighbours)."""

    id: Id
    name: Text
    lat: Annotated[float, Field(ge=-90, le=90)]
    lon: Annotated[float, Field(ge=-180, le=180)]
    kind: Literal["city", "country"] = "city"


class Route(_Model):
    """One track (see :class:`engine.board.Route`); ``unverified`` names fields read with doubt."""

    id: Id
    a: Id
    b: Id
    length: Annotated[int, Field(ge=1, le=9)]
    color: Id
    group: Id | None = None
    tunnel: bool = False
    locomotives: NonNegativeInt = 0
    carts: bool = False
    substitute: Annotated[int, Field(ge=2)] | None = None
    unverified: list[Literal["a", "b", "length", "color", "tunnel", "locomotives", "carts"]] = []
    note: str | None = None

    @model_validator(mode="after")
    def _sane_track(self) -> Self:
        if self.a == self.b:
            raise PydanticCustomError("same_ends", "both ends are '{city}'", {"city": self.a})
        if self.locomotives > self.length:
            raise PydanticCustomError(
                "ferry_locomotives",
                "locomotives {locomotives} exceed the length {length}",
                {"locomotives": self.locomotives, "length": self.length},
            )
        return self


class Ticket(_Model):
    """A destination ticket (see :class:`engine.board.Ticket`)."""

    id: Id
    a: Id
    b: Id
    points: PositiveInt
    deck: Id = "main"
    sets: list[str] = []
    provisional: bool = False

    @model_validator(mode="after")
    def _two_places(self) -> Self:
        if self.a == self.b:
            raise PydanticCustomError("same_ends", "both ends are '{city}'", {"city": self.a})
        return self


class MapFile(_Model):
    """A whole ``map.json``."""

    format: Literal[1] = 1
    id: Id
    name: LangText
    ruleset: str
    provenance: Provenance
    options: dict[Id, OptionSpec] = {}
    rules: Rules
    words: WordsByLang
    rules_text: LangText
    cities: list[City] = Field(min_length=2)
    routes: list[Route] = Field(min_length=1)
    tickets: list[Ticket] = Field(min_length=1)

    @model_validator(mode="after")
    def _colour_names_are_card_colours(self) -> Self:
        known = {*self.rules.cards.colors, "gray"}
        for lang in LANGUAGES:
            bad = sorted(set(getattr(self.words, lang).colors) - known)
            if bad:
                raise PydanticCustomError(
                    "colour_names",
                    "words.{lang}.colors names colours this map has no cards of: {bad}",
                    {"lang": lang, "bad": ", ".join(bad)},
                )
        return self

    @field_validator("ruleset")
    @classmethod
    def _known_ruleset(cls, name: str) -> str:
        if name not in RULESETS:
            raise PydanticCustomError(
                "ruleset",
                "unknown rule set '{name}' (known: {known})",
                {"name": name, "known": ", ".join(sorted(RULESETS))},
            )
        return name


def format_path(loc: tuple[int | str, ...]) -> str:
    """``("routes", 12, "length")`` -> ``"routes[12].length"``.

    Segments pydantic adds for union members (not keys of the file) are left out.
    """
    out = ""
    for seg in loc:
        if isinstance(seg, int):
            out += f"[{seg}]"
        elif seg not in _UNION_TAGS and seg != _KEY:
            out += f".{seg}" if out else seg
    return out


def _message(err: ErrorDetails) -> str:
    msg = err["msg"]
    value = err.get("input")
    shown = err["type"] not in ("missing", "extra_forbidden") and (
        value is None or isinstance(value, str | int | float | bool)
    )
    if shown and err["type"] not in _OWN_ERROR_TYPES:
        text = json.dumps(value, ensure_ascii=False)
        msg += f" (got {text if len(text) <= 40 else text[:37] + '...'})"
    return msg


#: Error types raised by the validators above: their messages already name the values.
_OWN_ERROR_TYPES = frozenset(
    {
        "blank",
        "option_default",
        "players_order",
        "card_colours",
        "per_color_keys",
        "deal_keep",
        "deal_mix",
        "station_costs",
        "same_ends",
        "ferry_locomotives",
        "ruleset",
        "noun_gender",
        "colour_names",
    }
)


def schema_problems(exc: ValidationError, prefix: tuple[int | str, ...] = ()) -> list[MapProblem]:
    """Every error of a pydantic validation as a :class:`MapProblem` (no file yet).

    ``prefix`` is the location of the validated part in the file (``("routes", 3)``
    when one route was validated on its own).
    """
    return [
        MapProblem(
            format_path(prefix + tuple(err["loc"])),
            ("key: " if err["loc"][-1:] == (_KEY,) else "") + _message(err),
        )
        for err in exc.errors(include_url=False)
    ]
