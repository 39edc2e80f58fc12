"""Checks between the parts of a map file: what the schema (:mod:`maps.schema`) cannot state.

:func:`check_map_data` validates a map data dict against :class:`maps.schema.MapFile`
and then runs every check in :data:`CHECKS` on the validated parts. When the
schema refuses some parts, the checks still run on every part that is valid on
its own (each city, route and ticket separately, each part of the ``rules``
block), so one run lists every problem at once. References count every item
with an id, valid or not, so one broken city does not make each of its routes
"not a city" too.

Each check is a small function ``Parts -> list[MapProblem]``; the rulebook
behind a check is named in its docstring.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from functools import cache
from typing import Annotated, Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

from engine.rules import RULESETS, build_ruleset

from .errors import MapProblem
from .schema import (
    Cards,
    City,
    Deal,
    Id,
    MapFile,
    OptionSpec,
    Players,
    Route,
    Rules,
    Ticket,
    schema_problems,
)

M = TypeVar("M", bound=BaseModel)

_STRICT = ConfigDict(strict=True)
_OPTIONS = TypeAdapter(dict[Id, OptionSpec], config=_STRICT)


@dataclass(frozen=True)
class Section(Generic[M]):
    """One list of the file (``cities``, ``routes`` or ``tickets``).

    Attributes:
        name: the key in the file.
        items: (index, model) of every item that passed the schema.
        ids: (index, id) of every item that has a string id, valid or not.
        complete: every item passed the schema (checks over the whole list
            run only then, so a broken ticket does not look like a missing one).
    """

    name: str
    items: tuple[tuple[int, M], ...]
    ids: tuple[tuple[int, str], ...]
    complete: bool

    def at(self, index: int, field: str) -> str:
        """The path of ``field`` of item ``index`` (``"routes[3].color"``)."""
        return f"{self.name}[{index}].{field}"


@dataclass(frozen=True)
class RuleParts:
    """The parts of the ``rules`` block the checks use; None where a part failed the schema.

    Each part is validated on its own, so a broken ``pieces`` does not hide a
    route colour that is not in ``cards``. Meanings in :class:`maps.schema.Rules`.
    """

    players: Players | None = None
    cards: Cards | None = None
    route_points: Mapping[str, int] | None = None
    initial_tickets: Deal | None = None
    draw_tickets: Deal | None = None
    starting_hand: int | None = None
    face_up: int | None = None
    tiebreaks: list[str] | None = None
    #: the keys of the block with a value other than null, valid or not
    given: frozenset[str] = frozenset()
    #: every key of the block that passed the schema on its own, as plain JSON (what a
    #: rule set's own checks read: :func:`ruleset_parameters`)
    valid: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, rules: Rules) -> RuleParts:
        """The parts of a valid ``rules`` block."""
        given = frozenset(k for k in Rules.model_fields if getattr(rules, k) is not None)
        valid = {k: _plain(getattr(rules, k)) for k in sorted(given)}
        return cls(**{name: getattr(rules, name) for name in _PART_NAMES}, given=given, valid=valid)

    @classmethod
    def salvage(cls, raw: Any) -> RuleParts:
        """The parts of an invalid ``rules`` block that pass the schema on their own."""
        if not isinstance(raw, Mapping):
            return cls()
        given = frozenset(k for k, v in raw.items() if v is not None)
        parts = {k: _rule_part(k, raw) for k in sorted(given) if k in Rules.model_fields}
        valid = {k: _plain(v) for k, v in parts.items() if v is not None}
        return cls(
            **{name: _rule_part(name, raw) for name in _PART_NAMES}, given=given, valid=valid
        )


#: The fields of :class:`RuleParts` taken from the ``rules`` block.
_PART_NAMES = tuple(f.name for f in fields(RuleParts) if f.name not in ("given", "valid"))


def _plain(value: Any) -> Any:
    """A validated part as plain JSON (a model as its dict)."""
    return value.model_dump() if isinstance(value, BaseModel) else value


@cache
def _rule_adapter(name: str) -> TypeAdapter[Any]:
    """A validator of the one field ``name`` of :class:`Rules`, as strict as the model."""
    info = Rules.model_fields[name]
    tp: Any = info.annotation
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return TypeAdapter(tp)  # a model brings its own (strict) config
    if info.metadata:  # the field's constraints (ge=1...), rebuilt at run time
        tp = Annotated[(tp, *info.metadata)]
    return TypeAdapter(tp, config=_STRICT)


def _rule_part(name: str, raw: Mapping[str, Any]) -> Any:
    if name not in raw:
        return Rules.model_fields[name].get_default(call_default_factory=True)
    try:
        return _rule_adapter(name).validate_python(raw[name])
    except ValidationError:
        return None


@dataclass(frozen=True)
class Parts:
    """The parts of a map file the checks look at; None where the schema refused the part."""

    map_id: str | None
    ruleset: str | None
    rules: RuleParts
    options: Mapping[str, OptionSpec] | None
    cities: Section[City]
    routes: Section[Route]
    tickets: Section[Ticket]

    @property
    def city_ids(self) -> frozenset[str]:
        """The ids of every city in the file, valid or not."""
        return frozenset(city_id for _, city_id in self.cities.ids)


def _valid_section(name: str, items: list[M]) -> Section[M]:
    ids = tuple((i, str(getattr(item, "id", ""))) for i, item in enumerate(items))
    return Section(name, tuple(enumerate(items)), ids, complete=True)


def parts_of(model: MapFile) -> Parts:
    """The parts of a map file that passed the schema as a whole."""
    return Parts(
        map_id=model.id,
        ruleset=model.ruleset,
        rules=RuleParts.of(model.rules),
        options=model.options,
        cities=_valid_section("cities", model.cities),
        routes=_valid_section("routes", model.routes),
        tickets=_valid_section("tickets", model.tickets),
    )


def _salvage_section(name: str, model: type[M], raw: Any) -> Section[M]:
    items: list[tuple[int, M]] = []
    ids: list[tuple[int, str]] = []
    complete = isinstance(raw, list)
    for i, item in enumerate(raw if isinstance(raw, list) else []):
        if isinstance(item, Mapping) and isinstance(item.get("id"), str):
            ids.append((i, item["id"]))
        try:
            items.append((i, model.model_validate(item)))
        except ValidationError:
            complete = False
    return Section(name, tuple(items), tuple(ids), complete)


def _salvage_options(raw: Any) -> Mapping[str, OptionSpec] | None:
    try:
        return _OPTIONS.validate_python({} if raw is None else raw)
    except ValidationError:
        return None


def salvage(data: Mapping[str, Any]) -> Parts:
    """The parts of a map file that pass the schema on their own (the file as a whole did not)."""
    map_id, ruleset = data.get("id"), data.get("ruleset")
    return Parts(
        map_id=map_id if isinstance(map_id, str) else None,
        ruleset=ruleset if isinstance(ruleset, str) and ruleset in RULESETS else None,
        rules=RuleParts.salvage(data.get("rules")),
        options=_salvage_options(data.get("options")),
        cities=_salvage_section("cities", City, data.get("cities")),
        routes=_salvage_section("routes", Route, data.get("routes")),
        tickets=_salvage_section("tickets", Ticket, data.get("tickets")),
    )


# --------------------------------------------------------------------- checks
def duplicate_ids(parts: Parts) -> list[MapProblem]:
    """Ids are unique within cities, routes and tickets (they name things in saved games)."""
    out: list[MapProblem] = []
    for section in (parts.cities, parts.routes, parts.tickets):
        first: dict[str, int] = {}
        for i, item_id in section.ids:
            if item_id in first:
                where = f"{section.name}[{first[item_id]}]"
                out.append(MapProblem(section.at(i, "id"), f"duplicate id {item_id!r} ({where})"))
            first.setdefault(item_id, i)
    return out


def _ends_are_cities(
    section: Section[Route] | Section[Ticket], cities: frozenset[str]
) -> list[MapProblem]:
    out: list[MapProblem] = []
    for i, item in section.items:
        for end, city in (("a", item.a), ("b", item.b)):
            if city not in cities:
                out.append(MapProblem(section.at(i, end), f"{city!r} is not a city of this map"))
    return out


def route_and_ticket_ends(parts: Parts) -> list[MapProblem]:
    """Both ends of every route and ticket are cities of the map."""
    cities = parts.city_ids
    return _ends_are_cities(parts.routes, cities) + _ends_are_cities(parts.tickets, cities)


def route_colours(parts: Parts) -> list[MapProblem]:
    """A route's colour is a card colour of the deck, or ``gray`` (any one colour)."""
    cards = parts.rules.cards
    if cards is None:
        return []
    return [
        MapProblem(
            parts.routes.at(i, "color"),
            f"{route.color!r} is not a card colour ({', '.join(cards.colors)}) nor 'gray'",
        )
        for i, route in parts.routes.items
        if route.color != "gray" and route.color not in cards.colors
    ]


def route_lengths(parts: Parts) -> list[MapProblem]:
    """Every route length has points in ``rules.route_points`` (scoring table, each rulebook)."""
    table = parts.rules.route_points
    if table is None:
        return []
    return [
        MapProblem(
            parts.routes.at(i, "length"),
            f"length {route.length} has no entry in rules.route_points ({', '.join(sorted(table))})",
        )
        for i, route in parts.routes.items
        if str(route.length) not in table
    ]


def _pair(route: Route) -> tuple[str, str]:
    return (min(route.a, route.b), max(route.a, route.b))


def double_routes(parts: Parts) -> list[MapProblem]:
    """The tracks of a double/triple route join one pair of cities, and one pair has one group.

    Without a ``group`` a route is grouped by its pair of cities (as
    :meth:`engine.board.Board.from_dict` does); two groups on one pair would let
    one player claim both tracks (USA rules, "Doppelstrecken").
    """
    out: list[MapProblem] = []
    pair_of_group: dict[str, tuple[tuple[str, str], int]] = {}
    group_of_pair: dict[tuple[str, str], tuple[str, int]] = {}
    cities = parts.city_ids
    for i, route in parts.routes.items:
        if route.a not in cities or route.b not in cities:
            continue  # reported by route_and_ticket_ends
        pair = _pair(route)
        group = route.group or "__".join(pair)
        first_pair, first_i = pair_of_group.setdefault(group, (pair, i))
        first_group, group_i = group_of_pair.setdefault(pair, (group, i))
        if first_pair != pair:
            out.append(
                MapProblem(
                    parts.routes.at(i, "group"),
                    f"group {group!r} joins {'-'.join(pair)} here "
                    f"but {'-'.join(first_pair)} at routes[{first_i}]",
                )
            )
        if first_group != group:
            out.append(
                MapProblem(
                    parts.routes.at(i, "group"),
                    f"{'-'.join(pair)} is in group {group!r} here "
                    f"but in {first_group!r} at routes[{group_i}]",
                )
            )
    return out


def _tickets_in_play(parts: Parts) -> dict[str, int]:
    """Option label -> number of tickets in play (label "" when the map has no ticket option)."""
    tickets = [t for _, t in parts.tickets.items]
    option = (parts.options or {}).get("tickets")
    if option is None:
        return {"": len(tickets)}
    return {
        f" with option tickets={choice}": sum(1 for t in tickets if not t.sets or choice in t.sets)
        for choice in option.choices
    }


def ticket_count(parts: Parts) -> list[MapProblem]:
    """The tickets in play can deal the setup tickets to a full table (every option choice)."""
    players, deal = parts.rules.players, parts.rules.initial_tickets
    if players is None or deal is None or parts.options is None or not parts.tickets.complete:
        return []
    need = players.max * deal.count
    return [
        MapProblem(
            "tickets",
            f"{have} tickets{label} cannot deal {need} at setup ({players.max} players x {deal.count})",
        )
        for label, have in _tickets_in_play(parts).items()
        if have < need
    ]


def ticket_decks(parts: Parts) -> list[MapProblem]:
    """Several ticket decks need a mix on every deal: announced (Germany: short and long)
    or fixed (Europe: 1 long + 3 regular at setup, regular only later).

    Without it the engine draws from one deck only.
    """
    decks = sorted({t.deck for _, t in parts.tickets.items})
    if len(decks) < 2:
        return []
    deals = (
        ("initial_tickets", parts.rules.initial_tickets),
        ("draw_tickets", parts.rules.draw_tickets),
    )
    return [
        MapProblem(
            f"rules.{name}.announce_mix",
            f"the tickets come in decks {', '.join(decks)} but this deal announces no mix",
        )
        for name, deal in deals
        if deal is not None and not deal.announce_mix and deal.mix is None
    ]


def fixed_mixes(parts: Parts) -> list[MapProblem]:
    """A fixed mix deals from decks the tickets have, and the setup's mix deals a full table
    from each of them (Europe: 5 players x 1 long ticket of 6)."""
    out: list[MapProblem] = []
    held: dict[str, int] = {}
    for _, ticket in parts.tickets.items:
        held[ticket.deck] = held.get(ticket.deck, 0) + 1
    players = parts.rules.players
    deals = (
        ("initial_tickets", parts.rules.initial_tickets),
        ("draw_tickets", parts.rules.draw_tickets),
    )
    for name, deal in deals:
        for deck, n in (deal.mix or {}).items() if deal is not None else ():
            where = f"rules.{name}.mix.{deck}"
            if deck not in held:
                out.append(MapProblem(where, f"{deck!r} is not a ticket deck of this map"))
            elif (
                name == "initial_tickets"
                and players is not None
                and parts.tickets.complete
                and held[deck] < players.max * n
            ):
                out.append(
                    MapProblem(
                        where,
                        f"{held[deck]} {deck} tickets cannot deal {players.max * n} at setup "
                        f"({players.max} players x {n})",
                    )
                )
    return out


def ruleset_features(parts: Parts) -> list[MapProblem]:
    """What only some rule sets read of the shared parameters, in both directions: a fixed
    ticket mix (a rule set's ``ticket_mix``) and a rule set's own tie-break keys (its
    ``tiebreaks``) on a map of another rule set would silently be played without;
    the tie-break ``longest_path_bonus``, where read, needs a longest-path bonus. A rule
    set's own parameters are checked by :func:`hook_parameters` and
    :func:`ruleset_parameters`. Sources: the rule sets' docstrings (Europe: rules
    digest, "Setup", "Tie-break for the win")."""
    if parts.ruleset is None:
        return []
    r = parts.rules
    own = RULESETS.get(parts.ruleset)
    if own is None:  # a pending rule set: what it will read is not known here yet
        return []
    if "longest_path_bonus" in own.tiebreaks and "longest_path_bonus" in (r.tiebreaks or []):
        if "longest_path_bonus" not in r.given:
            return [
                MapProblem("rules.tiebreaks", "'longest_path_bonus' needs rules.longest_path_bonus")
            ]
    found: list[tuple[str, str, list[str]]] = []
    mixers = sorted(name for name, cls in RULESETS.items() if cls.ticket_mix)
    if mixers and not own.ticket_mix:
        deals = (("initial_tickets", r.initial_tickets), ("draw_tickets", r.draw_tickets))
        found += [
            (f"rules.{name}.mix", "a fixed ticket mix", mixers)
            for name, deal in deals
            if deal is not None and deal.mix
        ]
    for key in r.tiebreaks or []:
        readers = sorted(name for name, cls in RULESETS.items() if key in cls.tiebreaks)
        if readers and key not in own.tiebreaks:
            found.append(("rules.tiebreaks", f"the tie-break {key!r}", readers))
    return [
        MapProblem(
            where,
            f"{what} is played only by the rule set {', '.join(map(repr, only))}, "
            f"not {parts.ruleset!r}",
        )
        for where, what, only in found
    ]


def ticket_sets(parts: Parts) -> list[MapProblem]:
    """A ticket's ``sets`` name choices of the option ``tickets`` (an edition's deck)."""
    if parts.options is None:
        return []
    option = parts.options.get("tickets")
    choices = sorted(option.choices) if option else []
    return [
        MapProblem(
            parts.tickets.at(i, "sets"),
            f"{name!r} is not a choice of options.tickets"
            + (f" ({', '.join(choices)})" if choices else " (the map has no such option)"),
        )
        for i, ticket in parts.tickets.items
        for name in ticket.sets
        if name not in choices
    ]


def hook_parameters(parts: Parts) -> list[MapProblem]:
    """A rule set's own parameters (its ``params_used``: Amsterdam ``merchandise``, Paris
    ``french_flags``) are there on its maps and nowhere else: both engines read them
    only through that rule set's hooks, so on another rule set's map they would be
    silently ignored (a ``classic`` map with French flags would score none)."""
    if parts.ruleset is None:
        return []
    own = RULESETS.get(parts.ruleset)
    mine = own.params_used if own is not None else ()
    problems = [
        MapProblem(f"rules.{name}", f"missing: the rule set {parts.ruleset!r} needs it")
        for name in mine
        if name not in parts.rules.given
    ]
    for other, cls in sorted(RULESETS.items()):
        problems += [
            MapProblem(
                f"rules.{name}",
                f"only the rule set {other!r} uses it; this map's rule set is {parts.ruleset!r}",
            )
            for name in cls.params_used
            if name not in mine and name in parts.rules.given
        ]
    return problems


def ruleset_parameters(parts: Parts) -> list[MapProblem]:
    """The map's rule set's own checks of its ``rules`` block (its ``param_problems``, on
    the parts that passed the schema: Amsterdam's merchandise ranking for every player
    count, Paris's flag colours among the card colours...)."""
    own = RULESETS.get(parts.ruleset) if parts.ruleset is not None else None
    if own is None:
        return []
    return [
        MapProblem(f"rules.{where}", what) for where, what in own.param_problems(parts.rules.valid)
    ]


def deck_deals(parts: Parts) -> list[MapProblem]:
    """The deck deals every starting hand of a full table and fills the face-up row."""
    r = parts.rules
    if r.players is None or r.cards is None or r.starting_hand is None or r.face_up is None:
        return []
    if r.cards.total >= r.players.max * r.starting_hand + r.face_up:
        return []
    return [
        MapProblem(
            "rules.cards",
            f"{r.cards.total} cards cannot deal {r.starting_hand} to each of "
            f"{r.players.max} players and {r.face_up} face up",
        )
    ]


#: Every check between parts, in the order its problems are listed.
CHECKS: tuple[Callable[[Parts], list[MapProblem]], ...] = (
    hook_parameters,
    ruleset_parameters,
    deck_deals,
    duplicate_ids,
    route_and_ticket_ends,
    route_colours,
    route_lengths,
    double_routes,
    ticket_count,
    ticket_decks,
    fixed_mixes,
    ruleset_features,
    ticket_sets,
)


def _folder_id(parts: Parts, expected_id: str | None) -> list[MapProblem]:
    if expected_id is None or parts.map_id in (None, expected_id):
        return []
    return [MapProblem("id", f"{parts.map_id!r} does not match its folder {expected_id!r}")]


def _builds(data: Mapping[str, Any]) -> list[MapProblem]:
    """The engine builds the rule set (a last guard: the checks above should catch everything)."""
    try:
        build_ruleset(data)
    except Exception as exc:  # noqa: BLE001 - any construction failure refuses the map
        return [MapProblem("", f"cannot build the rule set: {type(exc).__name__}: {exc}")]
    return []


def check_map_data(
    data: Any, expected_id: str | None = None
) -> tuple[MapFile | None, list[MapProblem]]:
    """Validate a map data dict: the schema, then every check between parts.

    Args:
        data: the parsed ``map.json``.
        expected_id: the folder name the ``id`` must equal (None: not checked).

    Returns:
        (the validated model, []) for a valid map; (None, every problem) otherwise.
        Problems carry a path but no file (see :meth:`MapProblem.in_file`).
    """
    if not isinstance(data, Mapping):
        return None, [MapProblem("", "the file is not a JSON object")]
    model: MapFile | None
    try:
        model = MapFile.model_validate(data)
    except ValidationError as exc:
        model, problems, parts = None, schema_problems(exc), salvage(data)
    else:
        problems, parts = [], parts_of(model)
    problems += _folder_id(parts, expected_id)
    for check in CHECKS:
        problems += check(parts)
    if model is not None and not problems:
        problems = _builds(data)
    return (model if not problems else None), problems
