"""Texts of the /ttr cog: hands, tickets, routes, turn stories, status, score tables.

Pure functions over the service's view model and :class:`words.Words` (the
reader's language for private replies, the table's language for public
messages); no discord calls. Every sentence goes through the catalogs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.services import Cards, Event, FinalResult, PlayerView, PublicView, Ruleset
from bot.services import events as ev_
from words import N_, Words

#: Discord's limit for a message's content, and for options in one select.
MAX_CONTENT = 2000
MAX_OPTIONS = 25
MAX_LABEL = 100


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    """``text`` cut to Discord's limit (an ellipsis marks the cut)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def fit(told: Sequence[str], tail: Sequence[str], w: Words, limit: int = MAX_CONTENT) -> str:
    """The turn lines ``told`` and the ``tail`` (whose turn, the score table) in one message:
    when too long, the oldest turns give way to one line pointing at /ttr log, never the tail."""
    told = list(told)
    dropped = 0
    while told:
        head = (
            [w.n("({count} earlier turn: /ttr log)", "({count} earlier turns: /ttr log)", dropped)]
            if dropped
            else []
        )
        text = "\n".join([*head, *told, *tail])
        if len(text) <= limit:
            return text
        told.pop(0)
        dropped += 1
    return clip("\n".join(tail), limit)


def city(rules: Ruleset, city_id: str) -> str:
    """A place's printed name."""
    c = rules.board.cities.get(city_id)
    return c.name if c is not None else city_id


def route_name(rules: Ruleset, route_id: str) -> str:
    """``Atlanta – Miami``."""
    r = rules.board.routes[route_id]
    return f"{city(rules, r.a)} – {city(rules, r.b)}"


def route_label(rules: Ruleset, route_id: str, w: Words) -> str:
    """``Atlanta – Miami (5, blue)``, with tunnel and ferry marks; double tracks differ by colour."""
    r = rules.board.routes.get(route_id)
    if r is None:
        return route_id
    extra = [w.color(r.color) if r.color != "gray" else w.t("gray")]
    if r.tunnel:
        extra.append(w.t("tunnel"))
    if r.locomotives:
        extra.append(w.n("{count} ferry {wild}", "{count} ferry {wilds}", r.locomotives))
    return f"{route_name(rules, route_id)} ({r.length}, {', '.join(extra)})"


def cards_text(cards: Mapping[str, int], w: Words) -> str:
    """``2× red, 1× locomotive``; no cards: ``–``."""
    parts = [f"{n}× {w.color(c)}" for c, n in sorted(cards.items()) if n]
    return ", ".join(parts) or "–"


def ticket_text(rules: Ruleset, ticket_id: str, w: Words, *, done: bool = False) -> str:
    """``Boston – Miami (12)``, with a done mark when completed."""
    tk = rules.board.tickets[ticket_id]
    line = f"{city(rules, tk.a)} – {city(rules, tk.b)} ({tk.points})"
    return line + " ✅ " + w.t("done") if done else line


def player_name(names: Sequence[str], seat: int | None) -> str:
    """How a seat is shown (a mention for people, the name for AI seats)."""
    if seat is None or not 0 <= seat < len(names):
        return "?"
    return names[seat]


def hand_text(view: PlayerView, rules: Ruleset, w: Words, *, game_id: int, map_name: str) -> str:
    """The private hand: cards, pieces left and tickets with their state."""
    lines = [
        w.t("Your hand (game {game}, **{map}**)", game=game_id, map=map_name),
        w.t("Your {cards}: {list}", list=cards_text(view.hand, w)),
        w.n("{count} {piece} left", "{count} {pieces} left", view.me.pieces),
        w.t("Your {tickets}:"),
    ]
    if view.tickets:
        lines += ["• " + ticket_text(rules, tk.id, w, done=tk.done) for tk in view.tickets]
    else:
        lines.append("• " + w.t("none yet"))
    return "\n".join(lines)


# ====================================================================== turn stories
@dataclass(slots=True)
class Story:
    """What one seat did in one turn, as sentence parts (public facts only)."""

    seat: int | None
    parts: list[str] = field(default_factory=list)
    routes: list[str] = field(default_factory=list)
    draws: list[str] = field(default_factory=list)
    last_round: bool = False


def _drew(story: Story, ev: ev_.CardDrawn, rules: Ruleset, w: Words) -> None:
    if ev.source == "face_up" and ev.color == "locomotive":
        story.draws.append(w.t("a face-up {wild}"))
    elif ev.source == "face_up" and ev.color:
        story.draws.append(w.t("a face-up {color} card", color=w.color(ev.color)))
    else:
        story.draws.append(w.t("a card from the deck"))


def _claimed(story: Story, ev: ev_.RouteClaimed, rules: Ruleset, w: Words) -> None:
    story.routes.append(ev.route)
    story.parts.append(
        w.n(
            "claimed {route} with {cards} for {count} point",
            "claimed {route} with {cards} for {count} points",
            ev.points,
            route=route_label(rules, ev.route, w),
            cards=cards_text(ev.payment, w),
        )
    )


def _tunnel(story: Story, ev: ev_.TunnelRevealed, rules: Ruleset, w: Words) -> None:
    revealed = ", ".join(w.color(c) for c in ev.revealed) or w.t("none")
    if not ev.extra:  # "no more cards" reads better than "0 more cards"
        story.parts.append(
            w.t(
                "started the tunnel {route} with {cards}; revealed {revealed}: no more cards",
                route=route_label(rules, ev.route, w),
                cards=cards_text(ev.committed, w),
                revealed=revealed,
            )
        )
        return
    story.parts.append(
        w.n(
            "started the tunnel {route} with {cards}; revealed {revealed}: {count} more card",
            "started the tunnel {route} with {cards}; revealed {revealed}: {count} more cards",
            ev.extra,
            route=route_label(rules, ev.route, w),
            cards=cards_text(ev.committed, w),
            revealed=revealed,
        )
    )


def _tunnel_paid(story: Story, ev: ev_.TunnelPaid, rules: Ruleset, w: Words) -> None:
    story.parts.append(w.t("paid {cards} more", cards=cards_text(ev.extra, w)))


def _tunnel_dropped(story: Story, ev: ev_.TunnelAbandoned, rules: Ruleset, w: Words) -> None:
    story.parts.append(w.t("gave up the tunnel and took the cards back"))


def _tickets_drawn(story: Story, ev: ev_.TicketsDrawn, rules: Ruleset, w: Words) -> None:
    story.parts.append(w.n("drew {count} {ticket}", "drew {count} {tickets}", ev.count))


def _tickets_kept(story: Story, ev: ev_.TicketsKept, rules: Ruleset, w: Words) -> None:
    story.parts.append(w.n("kept {count} {ticket}", "kept {count} {tickets}", ev.kept))


def _merchandise(story: Story, ev: ev_.MerchandiseDrawn, rules: Ruleset, w: Words) -> None:
    story.parts.append(
        w.n(
            "drew a {merchandise_card} ({count} left)",
            "drew a {merchandise_card} ({count} left)",
            ev.left,
        )
    )


def _flag_kept(story: Story, ev: ev_.FlagCardKept, rules: Ruleset, w: Words) -> None:
    story.parts.append(w.t("set a {color} card aside for a {flag}", color=w.color(ev.color)))


def _flag_declined(story: Story, ev: ev_.FlagCardDeclined, rules: Ruleset, w: Words) -> None:
    story.parts.append(w.t("set no card aside for a {flag}"))


def _flag_scored(story: Story, ev: ev_.FlagScored, rules: Ruleset, w: Words) -> None:
    story.parts.append(
        w.n(
            "completed a {flag}: +{count} point",
            "completed a {flag}: +{count} points",
            ev.points,
        )
    )


def _passed(story: Story, ev: ev_.Passed, rules: Ruleset, w: Words) -> None:
    story.parts.append(w.t("passed (nothing else was possible)"))


def _resigned(story: Story, ev: ev_.Resigned, rules: Ruleset, w: Words) -> None:
    story.parts.append(w.t("resigned (the computer plays the seat on; it cannot win)"))


def _last_round(story: Story, ev: ev_.LastRound, rules: Ruleset, w: Words) -> None:
    story.last_round = True


def _silent(story: Story, ev: ev_.EventBase, rules: Ruleset, w: Words) -> None:
    """Events the turn line does not repeat (the board shows them, or the next line does)."""


#: Every event class the engine emits -> how a turn story tells it (``test_every_event_kind_has_a_phrase``).
PHRASES: dict[type[ev_.EventBase], Callable[[Story, Any, Ruleset, Words], None]] = {
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
    ev_.Passed: _passed,
    ev_.Resigned: _resigned,
    ev_.LastRound: _last_round,
    ev_.FlagOffered: _silent,
    ev_.FaceUpRefilled: _silent,
    ev_.FaceUpReset: _silent,
    ev_.DeckReshuffled: _silent,
    ev_.TurnStarted: _silent,
    ev_.PlayStarted: _silent,
    ev_.GameOver: _silent,
}
#: Table events that end a story.
_STORY_ENDS = (ev_.TurnStarted, ev_.GameOver, ev_.PlayStarted)


def stories(events: Sequence[Event], rules: Ruleset, w: Words) -> list[Story]:
    """The public events grouped into one story per seat and turn, in order (setup choices included)."""
    out: list[Story] = []
    current: Story | None = None
    for ev in events:
        if isinstance(ev, _STORY_ENDS):
            current = None
            continue
        seat = ev.seat_of
        if seat is None:
            continue
        if current is None or current.seat != seat:
            current = Story(seat)
            out.append(current)
        PHRASES[type(ev)](current, ev, rules, w)
    return [s for s in out if s.parts or s.draws or s.last_round]


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
    return text


def turn_lines(
    events: Sequence[Event], rules: Ruleset, names: Sequence[str], w: Words
) -> list[str]:
    """One line per turn story of ``events``."""
    at = rules.params.last_round_at
    return [
        line
        for story in stories(events, rules, w)
        if (line := story_line(story, names, w, last_round_at=at))
    ]


# ====================================================================== tables
def breakdown_name(key: str, w: Words) -> str:
    """A score breakdown entry by name (never the internal key)."""
    names = {
        "routes": N_("routes"),
        "tickets": N_("{tickets}"),
        "longest_path": N_("{longest_path}"),
        "globetrotter": N_("{globetrotter}"),
        "merchandise": N_("{merchandise_cards}"),
        "flags": N_("{flags}"),
    }
    return w.t(names[key]) if key in names else key


def score_table(
    result: FinalResult, names: Sequence[str], w: Words, resigned: frozenset[int] = frozenset()
) -> str:
    """The final ranking with each seat's breakdown (resigned seats marked)."""
    by_seat = {s.seat: s for s in result.seats}
    winners = ", ".join(player_name(names, s) for s in result.winners) or "–"
    lines = [
        w.n(
            "**Game over.** Winner: {winners}",
            "**Game over.** Winners: {winners}",
            len(result.winners),
            winners=winners,
        )
    ]
    rank, last = 0, None
    for i, seat in enumerate(result.ranking):
        s = by_seat[seat]
        if s.score != last:
            rank, last = i + 1, s.score
        parts = ", ".join(
            f"{breakdown_name(k, w)} {v:+d}" if k == "tickets" else f"{breakdown_name(k, w)} {v}"
            for k, v in s.breakdown.items()
        )
        mark = " " + w.t("(resigned)") if seat in resigned else ""
        lines.append(
            w.n(
                "{rank}. {player}{mark}: {count} point ({breakdown})",
                "{rank}. {player}{mark}: {count} points ({breakdown})",
                s.score,
                rank=rank,
                player=player_name(names, seat),
                mark=mark,
                breakdown=parts,
            )
        )
    return "\n".join(lines)


def status_text(
    public: PublicView,
    names: Sequence[str],
    w: Words,
    *,
    game_id: int,
    map_name: str,
    resigned: frozenset[int] = frozenset(),
) -> str:
    """The public status: whose turn, each seat's counts and score (resigned seats marked);
    after the end, the score table."""
    if public.phase == "play":
        head = w.t(
            "Game {game} on **{map}**, turn {turn}: {player} to move.",
            game=game_id,
            map=map_name,
            turn=public.turn + 1,
            player=player_name(names, public.active),
        )
    elif public.phase == "setup":
        head = w.n(
            "Game {game} on **{map}**: {players} is still choosing {tickets}.",
            "Game {game} on **{map}**: {players} are still choosing {tickets}.",
            len(public.waiting_for),
            game=game_id,
            map=map_name,
            players=", ".join(player_name(names, s) for s in public.waiting_for),
        )
    else:
        head = w.t("Game {game} on **{map}** is over.", game=game_id, map=map_name)
    lines = [head]
    for p in public.players:
        lines.append(
            "• "
            + player_name(names, p.seat)
            + (" " + w.t("(resigned)") if p.seat in resigned else "")
            + ": "
            + ", ".join(
                (
                    w.n("{count} point", "{count} points", p.score),
                    w.n("{count} {piece}", "{count} {pieces}", p.pieces),
                    w.n("{count} {card}", "{count} {cards}", p.cards),
                    w.n("{count} {ticket}", "{count} {tickets}", p.tickets),
                )
            )
        )
    if public.last_round and public.phase == "play":
        lines.append(w.t("**Last round.**"))
    if public.result is not None:
        lines.append(score_table(public.result, names, w, resigned))
    return "\n".join(lines)


def mix_text(mix: Sequence[tuple[str, int]], w: Words) -> str:
    """A Germany ticket mix as words: ``2 short + 2 long`` (``mix``: (deck, count) pairs)."""
    return " + ".join(
        w.n("{count} short", "{count} short", n)
        if deck == "short"
        else w.n("{count} long", "{count} long", n)
        for deck, n in mix
    )


def payment_text(payment: Cards, w: Words) -> str:
    """A payment as words."""
    return cards_text(payment.to_dict(), w)
