"""Turn stories: what happened in a game, told in the catalogs' words (one voice everywhere);
and how a rated game moved its players' ratings.

The channel's turn messages, ``/ttr game log`` and the demo's console all tell a
game's public events through these functions, in the table's (or reader's)
language with the catalogs' plural rules: one sentence per seat and turn
(``Alice drew a face-up red card and a card from the deck.``), and the names
of places, routes and cards they use. Public facts only; no discord.

A card's colour takes its English article ("an orange card", "a red card")
from the sentence itself: a sentence that puts an article before a colour has
one msgid per article (:data:`AN_COLORS` says which colours take "an"), so
the catalogs hold whole sentences and German translates each in its own words.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.host.ai_ratings import LevelRatings
from bot.host.ratings import PROVISIONAL_GAMES, ai_level_of, user_of
from bot.host.services import AI_LEVEL_NAMES, ClassicRules, Event, RatingShift
from bot.host.services import events as ev_
from words import N_, Words

#: Card colours (the engine's names, which are also the English words: maps rename colours
#: only in German) that take the English article "an" rather than "a".
AN_COLORS = frozenset({"orange"})


def city(rules: ClassicRules, city_id: str) -> str:
    """A place's printed name."""
    c = rules.board.cities.get(city_id)
    return c.name if c is not None else city_id


def route_name(rules: ClassicRules, route_id: str) -> str:
    """``Atlanta – Miami``."""
    r = rules.board.routes[route_id]
    return f"{city(rules, r.a)} – {city(rules, r.b)}"


def track_text(rules: ClassicRules, route_id: str, w: Words) -> str:
    """One track of a route by what tells it apart: its colour, tunnel and ferry marks
    (``blue``, ``gray, tunnel``, ``gray, 1 ferry locomotive``)."""
    r = rules.board.routes[route_id]
    parts = [w.color(r.color) if r.color != "gray" else w.t("gray")]
    if r.tunnel:
        parts.append(w.t("tunnel"))
    if r.locomotives:
        parts.append(w.n("{count} ferry {wild}", "{count} ferry {wilds}", r.locomotives))
    return ", ".join(parts)


def route_label(rules: ClassicRules, route_id: str, w: Words) -> str:
    """``Atlanta – Miami (5, blue)``: the route's places, length and :func:`track_text`; double
    tracks differ by colour. An id the board does not know is returned as it is."""
    r = rules.board.routes.get(route_id)
    if r is None:
        return route_id
    return f"{route_name(rules, route_id)} ({r.length}, {track_text(rules, route_id, w)})"


def cards_text(cards: Mapping[str, int], w: Words) -> str:
    """``2× red, 1× locomotive``; no cards: ``–``."""
    parts = [f"{n}× {w.color(c)}" for c, n in sorted(cards.items()) if n]
    return ", ".join(parts) or "–"


def player_name(names: Sequence[str], seat: int | None) -> str:
    """How a seat is shown (a mention for people, the name for AI seats)."""
    if seat is None or not 0 <= seat < len(names):
        return "?"
    return names[seat]


@dataclass(slots=True)
class Story:
    """What one seat did in one turn, as sentence parts (public facts only)."""

    seat: int | None
    parts: list[str] = field(default_factory=list)
    routes: list[str] = field(default_factory=list)
    draws: list[str] = field(default_factory=list)
    last_round: bool = False
    #: the tunnel started in this story: its claim then says "claimed it", not the route again
    tunnel: str | None = None
    reshuffles: list[int] = field(default_factory=list)


def _drew(story: Story, ev: ev_.CardDrawn, rules: ClassicRules, w: Words) -> None:
    if ev.source == "face_up" and ev.color == "locomotive":
        story.draws.append(w.t("a face-up {wild}"))
    elif ev.source == "face_up" and ev.color:
        story.draws.append(w.t("a face-up {color} card", color=w.color(ev.color)))
    else:
        story.draws.append(w.t("a card from the deck"))


def _claimed(story: Story, ev: ev_.RouteClaimed, rules: ClassicRules, w: Words) -> None:
    story.routes.append(ev.route)
    if story.tunnel == ev.route:  # the tunnel part named the route and the cards already
        story.parts.append(
            w.n("claimed it for {count} point", "claimed it for {count} points", ev.points)
        )
        return
    story.parts.append(
        w.n(
            "claimed {route} with {cards} for {count} point",
            "claimed {route} with {cards} for {count} points",
            ev.points,
            route=route_label(rules, ev.route, w),
            cards=cards_text(ev.payment, w),
        )
    )


def _tunnel(story: Story, ev: ev_.TunnelRevealed, rules: ClassicRules, w: Words) -> None:
    story.tunnel = ev.route
    revealed = ", ".join(w.color(c) for c in ev.revealed) or w.t("none")
    if not ev.extra:  # "nothing more" reads better than "0 more cards"
        story.parts.append(
            w.t(
                "tried the tunnel {route} with {cards}; revealed {revealed}: nothing more",
                route=route_name(rules, ev.route),  # the line says tunnel, the cards the colour
                cards=cards_text(ev.committed, w),
                revealed=revealed,
            )
        )
        return
    story.parts.append(
        w.n(
            "tried the tunnel {route} with {cards}; revealed {revealed}: {count} more card",
            "tried the tunnel {route} with {cards}; revealed {revealed}: {count} more cards",
            ev.extra,
            route=route_name(rules, ev.route),  # the line says tunnel, the cards the colour
            cards=cards_text(ev.committed, w),
            revealed=revealed,
        )
    )


def _tunnel_paid(story: Story, ev: ev_.TunnelPaid, rules: ClassicRules, w: Words) -> None:
    story.parts.append(w.t("paid {cards} more", cards=cards_text(ev.extra, w)))


def _tunnel_dropped(story: Story, ev: ev_.TunnelAbandoned, rules: ClassicRules, w: Words) -> None:
    story.parts.append(w.t("gave up the tunnel and took the cards back"))


def _tickets_drawn(story: Story, ev: ev_.TicketsDrawn, rules: ClassicRules, w: Words) -> None:
    story.parts.append(w.n("drew {count} {ticket}", "drew {count} {tickets}", ev.count))


def _tickets_kept(story: Story, ev: ev_.TicketsKept, rules: ClassicRules, w: Words) -> None:
    story.parts.append(w.n("kept {count} {ticket}", "kept {count} {tickets}", ev.kept))


def _merchandise(story: Story, ev: ev_.MerchandiseDrawn, rules: ClassicRules, w: Words) -> None:
    story.parts.append(
        w.n(
            "drew a {merchandise_card} ({count} left)",
            "drew a {merchandise_card} ({count} left)",
            ev.left,
        )
    )


def _flag_kept(story: Story, ev: ev_.FlagCardKept, rules: ClassicRules, w: Words) -> None:
    sentence = (
        N_("set an {color} card aside for a {flag}")
        if ev.color in AN_COLORS
        else N_("set a {color} card aside for a {flag}")
    )
    story.parts.append(w.text(sentence, color=w.color(ev.color)))


def card_drawn(color: str, w: Words) -> str:
    """What the drawer alone reads of a card they drew: ``You drew an **orange** card.``,
    ``You drew a **Locomotive**.`` (``color``: the engine's card name)."""
    if color == "locomotive":
        return w.t("You drew a **{wild}**.")
    sentence = (
        N_("You drew an **{color}** card.")
        if color in AN_COLORS
        else N_("You drew a **{color}** card.")
    )
    return w.text(sentence, color=w.color(color))


def _flag_declined(story: Story, ev: ev_.FlagCardDeclined, rules: ClassicRules, w: Words) -> None:
    story.parts.append(w.t("set no card aside for a {flag}"))


def _flag_scored(story: Story, ev: ev_.FlagScored, rules: ClassicRules, w: Words) -> None:
    story.parts.append(
        w.n(
            "completed a {flag}: +{count} point",
            "completed a {flag}: +{count} points",
            ev.points,
        )
    )


def _station(story: Story, ev: ev_.StationBuilt, rules: ClassicRules, w: Words) -> None:
    story.parts.append(
        w.n(
            "built a {station} in {city} with {cards} ({count} {station} left)",
            "built a {station} in {city} with {cards} ({count} {stations} left)",
            ev.stations_left,
            city=city(rules, ev.city),
            cards=cards_text(ev.payment, w),
        )
    )


def _passed(story: Story, ev: ev_.Passed, rules: ClassicRules, w: Words) -> None:
    story.parts.append(w.t("passed (nothing else was possible)"))


def _resigned(story: Story, ev: ev_.Resigned, rules: ClassicRules, w: Words) -> None:
    story.parts.append(w.t("resigned (the computer plays the seat on; it cannot win)"))


def _taken_back(story: Story, ev: ev_.MoveTakenBack, rules: ClassicRules, w: Words) -> None:
    story.parts.append(w.t("took their last move back (everyone else agreed)"))


def _last_round(story: Story, ev: ev_.LastRound, rules: ClassicRules, w: Words) -> None:
    story.last_round = True


def _reshuffled(story: Story, ev: ev_.DeckReshuffled, rules: ClassicRules, w: Words) -> None:
    story.reshuffles.append(ev.size)


def _silent(story: Story, ev: ev_.EventBase, rules: ClassicRules, w: Words) -> None:
    """Events the turn line does not repeat (the board shows them, or the next line does)."""


#: Every event class the engine emits -> how a turn story tells it (``test_every_event_kind_has_a_phrase``).
PHRASES: dict[type[ev_.EventBase], Callable[[Story, Any, ClassicRules, Words], None]] = {
    ev_.CardDrawn: _drew,
    ev_.RouteClaimed: _claimed,
    ev_.TunnelRevealed: _tunnel,
    ev_.TunnelPaid: _tunnel_paid,
    ev_.TunnelAbandoned: _tunnel_dropped,
    ev_.TicketsDrawn: _tickets_drawn,
    ev_.TicketsKept: _tickets_kept,
    ev_.MerchandiseDrawn: _merchandise,
    ev_.FlagCardKept: _flag_kept,
    ev_.FlagCardDeclined: _flag_declined,
    ev_.FlagScored: _flag_scored,
    ev_.StationBuilt: _station,
    ev_.Passed: _passed,
    ev_.Resigned: _resigned,
    ev_.MoveTakenBack: _taken_back,
    ev_.LastRound: _last_round,
    ev_.FlagOffered: _silent,
    ev_.FaceUpRefilled: _silent,
    ev_.FaceUpReset: _silent,
    ev_.DeckReshuffled: _reshuffled,
    ev_.TurnStarted: _silent,
    ev_.PlayStarted: _silent,
    ev_.GameOver: _silent,
}


#: Table events that end a story.
_STORY_ENDS = (ev_.TurnStarted, ev_.GameOver, ev_.PlayStarted)


def stories(events: Sequence[Event], rules: ClassicRules, w: Words) -> list[Story]:
    """The public events grouped into one story per seat and turn, in order (setup choices
    included). A reshuffle of the discards (no seat's event) belongs to the story of the turn
    whose draw caused it: the current one, or the next one when it opens the turn."""
    out: list[Story] = []
    current: Story | None = None
    pending: list[int] = []
    for ev in events:
        if isinstance(ev, _STORY_ENDS):
            current = None
            continue
        if isinstance(ev, ev_.DeckReshuffled):
            if current is None:
                pending.append(ev.size)
            else:
                _reshuffled(current, ev, rules, w)
            continue
        seat = ev.seat_of
        if seat is None:
            continue
        if current is None or current.seat != seat:
            current = Story(seat, reshuffles=pending)
            pending = []
            out.append(current)
        PHRASES[type(ev)](current, ev, rules, w)
    return [s for s in out if s.parts or s.draws or s.last_round or s.reshuffles]


def story_line(story: Story, names: Sequence[str], w: Words, *, last_round_at: int) -> str:
    """One sentence: ``Alice drew a face-up red card and a card from the deck.``

    ``last_round_at``: the map's last-round threshold (pieces), told when this turn triggered it.
    """
    who = player_name(names, story.seat)
    parts = list(story.parts)
    if story.draws:
        deck = w.t("a card from the deck")
        cards = (
            w.t("two cards from the deck")
            if story.draws == [deck, deck]
            else w.t(" and ").join(story.draws)
        )
        parts.insert(0, w.t("drew {cards}", cards=cards))
    text = w.t("{player} {did}.", player=who, did="; ".join(parts)) if parts else ""
    if story.last_round:
        last = w.n(
            "**Last round!** {player} has {count} {piece} or fewer; everyone plays one more turn.",
            "**Last round!** {player} has {count} {pieces} or fewer; everyone plays one more turn.",
            last_round_at,
            player=who,
        )
        text = f"{text} {last}" if text else last
    for size in story.reshuffles:
        shuffled = w.n(
            "The deck ran out: the discards were shuffled into a new deck of {count} card.",
            "The deck ran out: the discards were shuffled into a new deck of {count} cards.",
            size,
        )
        text = f"{text} {shuffled}" if text else shuffled
    return text


def turn_lines(
    events: Sequence[Event], rules: ClassicRules, names: Sequence[str], w: Words
) -> list[str]:
    """One line per turn story of ``events``."""
    at = rules.params.last_round_at
    return [
        line
        for story in stories(events, rules, w)
        if (line := story_line(story, names, w, last_round_at=at))
    ]


def breakdown_name(key: str, w: Words) -> str:
    """A score breakdown entry by name (never the internal key)."""
    names = {
        "routes": N_("routes"),
        "tickets": N_("{tickets}"),
        "longest_path": N_("{longest_path}"),
        "globetrotter": N_("{globetrotter}"),
        "merchandise": N_("{merchandise_cards}"),
        "flags": N_("{flags}"),
        "stations": N_("unbuilt {stations}"),
    }
    return w.t(names[key]) if key in names else key


def rated_player(player: str, w: Words) -> str:
    """A rating identity as a reader sees it: a person's mention, or the computer's level
    ("AI (hard)", German "KI (schwer)")."""
    user = user_of(player)
    if user is not None:
        return f"<@{user}>"
    level = ai_level_of(player) or player
    return w.t("AI ({level})", level=w.ctx("ai_level", AI_LEVEL_NAMES.get(level, level)))


def ai_levels_line(levels: LevelRatings, w: Words) -> str:
    """The AI levels' reference ratings (:mod:`bot.host.ai_ratings`) as one line of the rating
    table, weakest first: "**AI levels** (rated like players, over 2552 games among
    them): easy 8.2 · normal 13.5 · hard 18.9"; empty when there are none."""
    if not levels.levels:
        return ""
    parts = []
    for rated in levels.levels:
        level = rated.level
        name = w.ctx("ai_level", AI_LEVEL_NAMES.get(level, level))
        parts.append(f"{name} {w.decimal(rated.ordinal)}")
    return w.n(
        "**AI levels** (rated like players, over {count} game among them): {levels}",
        "**AI levels** (rated like players, over {count} games among them): {levels}",
        levels.games,
        levels=" · ".join(parts),
    )


def rating_text(value: float, games: int, w: Words) -> str:
    """A rating as shown (the ordinal, one decimal), marked provisional during the first games."""
    shown = w.decimal(value)
    return w.t("{rating} (provisional)", rating=shown) if games <= PROVISIONAL_GAMES else shown


def rating_changes(shifts: Sequence[RatingShift], w: Words) -> str:
    """The game-over message's rating block: each player's rating before and after the game
    and the change (one line per player: two computer seats of one level are one line)."""
    seen: dict[str, RatingShift] = {}
    for shift in shifts:
        seen.setdefault(shift.player, shift)
    if not seen:
        return ""
    lines = [w.t("**Ratings**")]
    for shift in seen.values():
        facts = {
            "player": rated_player(shift.player, w),
            "before": w.decimal(shift.before),
            "after": w.decimal(shift.after),
            "change": w.decimal(shift.after - shift.before, sign=True),
        }
        lines.append(
            w.t("{player}: {before} → {after} ({change}), provisional", **facts)
            if shift.provisional
            else w.t("{player}: {before} → {after} ({change})", **facts)
        )
    return "\n".join(lines)
