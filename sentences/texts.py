"""Texts of the /ttr cog: hands, tickets, status, score tables, payments, Discord's limits.

Pure functions over the service's view model and :class:`words.Words` (the
reader's language for private replies, the table's language for public
messages); no discord calls. Every sentence goes through the catalogs. Turn
stories and the names of places, routes, cards and score parts are
:mod:`sentences.stories` (the demo tells games with them too).

One count of time everywhere, in both languages: a **round** ("Round 12",
German "Runde 12") is every seat's turn once, as the board's caption and
``/ttr status`` count it (:func:`round_of`); a **turn** ("Turn 34", German
"Zug 34") is one player's turn, numbered from 1 in the order played, wherever a
single one is named: ``/ttr status``, ``/ttr game log``, the recap's frames,
the analysis and its turning points. "Move" names what a player does in a turn
(a hint's suggested move), never a number.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.host.services import (
    Cards,
    ClassicRules,
    FinalResult,
    LadderLine,
    PlayerView,
    PublicView,
    RouteChoice,
    SeatScore,
    TicketPlan,
)
from engine.planner import (
    stations_left as stations_left,  # the cogs reach it here, never the engine
)
from render import CARD_ORDER, CARD_SYMBOLS
from words import Words

from .stories import (
    breakdown_name,
    city,
    player_name,
    rated_player,
    rating_text,
    route_label,
    route_name,
    track_text,
)

#: Discord's limit for a message's content, and for options in one select.
MAX_CONTENT = 2000
MAX_OPTIONS = 25
MAX_LABEL = 100


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    """``text`` cut to Discord's limit (an ellipsis marks the cut)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def fit(told: Sequence[str], tail: Sequence[str], w: Words, limit: int = MAX_CONTENT) -> str:
    """The turn lines ``told`` and the ``tail`` (whose turn, the score table) in one message:
    when too long, the oldest turns give way to one line pointing at /ttr game log, never the tail."""
    told = list(told)
    dropped = 0
    while told:
        head = (
            [
                w.n(
                    "({count} earlier turn: /ttr game log)",
                    "({count} earlier turns: /ttr game log)",
                    dropped,
                )
            ]
            if dropped
            else []
        )
        text = "\n".join([*head, *told, *tail])
        if len(text) <= limit:
            return text
        told.pop(0)
        dropped += 1
    return clip("\n".join(tail), limit)


def card_name(color: str, w: Words) -> str:
    """A card by its symbol and name, readable without colour: ``♥ Red``, ``★ Locomotive``."""
    symbol = CARD_SYMBOLS.get(color, "")
    return f"{symbol} {w.color(color)}" if symbol else w.color(color)


def _ordered(cards: Mapping[str, int]) -> list[tuple[str, int]]:
    return sorted(
        ((c, n) for c, n in cards.items() if n),
        key=lambda cn: (CARD_ORDER.index(cn[0]) if cn[0] in CARD_ORDER else 99, cn[0]),
    )


def cards_line(cards: Mapping[str, int], w: Words) -> str:
    """Cards with counts, symbols and names: ``2× ★ Locomotive · 3× ♥ Red``; none: ``–``."""
    return " · ".join(f"{n}× {card_name(c, w)}" for c, n in _ordered(cards)) or "–"


def deck_text(deck: int, discard: int, w: Words) -> str:
    """The train card deck with its count: ``Deck (12 cards)``; an empty deck says what a draw
    from it does: with discards they are shuffled into a new deck (``Deck (0 cards: the
    discards are shuffled)``), without any the deck is empty (``Deck (empty)``).
    ``deck``, ``discard``: the cards in the deck and in the discard pile."""
    if deck:
        return w.n("Deck ({count} card)", "Deck ({count} cards)", deck)
    if discard:
        return w.t("Deck (0 cards: the discards are shuffled)")
    return w.t("Deck (empty)")


def round_of(public: PublicView) -> int:
    """The round in play as players count it (every seat's turn once), from 1."""
    return public.turn // max(1, public.num_seats) + 1


def claim_label(rules: ClassicRules, choice: RouteChoice, w: Words) -> str:
    """A claim entry: the route (``Atlanta – Miami (5, blue)``), or a double route's claimable
    tracks once (``Kansas City – Omaha (1, gray)``, ``Helsinki – Stockholm (4, gray / yellow)``)."""
    if len(choice.tracks) <= 1:
        return route_label(rules, choice.route, w)
    first = rules.board.routes[choice.route]
    kinds = dict.fromkeys(track_text(rules, r, w) for r in choice.tracks)
    return f"{route_name(rules, choice.route)} ({first.length}, {' / '.join(kinds)})"


def offer_cost(plan: TicketPlan, w: Words) -> str:
    """What an offered ticket would still cost given the reader's network:
    ``needs 6 more trains, 2 routes already yours`` (the map's own noun for the pieces)."""
    if plan.done:
        return w.t("already joined by your routes")
    if not plan.possible:
        return w.t("can no longer be joined")
    text = w.n("needs {count} more {piece}", "needs {count} more {pieces}", plan.cars)
    if plan.owned:
        text += ", " + w.n(
            "{count} route already yours", "{count} routes already yours", plan.owned
        )
    if not plan.enough_pieces:
        text += " " + w.t("(more than you have left)")
    return text


def ticket_text(rules: ClassicRules, ticket_id: str, w: Words, *, done: bool = False) -> str:
    """``Boston – Miami (12)``, with a done mark when completed."""
    tk = rules.board.tickets[ticket_id]
    line = f"{city(rules, tk.a)} – {city(rules, tk.b)} ({tk.points})"
    return line + " ✅ " + w.t("done") if done else line


def stations_left_text(rules: ClassicRules, public: PublicView, seat: int, w: Words) -> str | None:
    """``2 train stations left`` for ``seat`` (:func:`stations_left`), or None on a map without
    stations."""
    left = stations_left(rules, public, seat)
    if left is None:
        return None
    return w.n("{count} {station} left", "{count} {stations} left", left)


def _stations_part(
    rules: ClassicRules | None, public: PublicView, seat: int, w: Words
) -> tuple[str, ...]:
    """``("2 train stations left",)`` for a status line on a map with stations, else ``()``."""
    if rules is None:
        return ()
    text = stations_left_text(rules, public, seat, w)
    return (text,) if text else ()


def hand_text(
    view: PlayerView, rules: ClassicRules, w: Words, *, game_id: int, map_name: str
) -> str:
    """The private hand: cards, pieces left, (Europe) train stations left and tickets with
    their state."""
    lines = [
        w.t("Your hand (game {game}, **{map}**)", game=game_id, map=map_name),
        w.t("Your {cards}: {list}", list=cards_line(view.hand, w)),
        w.n("{count} {piece} left", "{count} {pieces} left", view.me.pieces),
    ]
    if stations := stations_left_text(rules, view.public, view.seat, w):
        lines.append(stations)
    lines.append(w.t("Your {tickets}:"))
    if view.tickets:
        lines += ["• " + ticket_text(rules, tk.id, w, done=tk.done) for tk in view.tickets]
    else:
        lines.append("• " + w.t("none yet"))
    return "\n".join(lines)


# ====================================================================== tables


def station_lines(rules: ClassicRules, score: SeatScore, w: Words) -> list[str]:
    """Europe: one line per built train station: the route of another player it used and the
    tickets that route completed (``Madrid: Barcelona – Madrid (2, yellow) for Madrid – Zürich (8)``)."""
    out = []
    for use in score.stations:
        where = city(rules, use.city)
        if use.route is None:
            out.append(w.t("{station:cap} {city}: no route used", city=where))
            continue
        tickets = ", ".join(ticket_text(rules, t, w) for t in use.tickets) or "–"
        out.append(
            w.t(
                "{station:cap} {city}: uses {route} for {tickets_done}",
                city=where,
                route=route_label(rules, use.route, w),
                tickets_done=tickets,
            )
        )
    return out


def score_table(
    result: FinalResult,
    names: Sequence[str],
    w: Words,
    resigned: frozenset[int] = frozenset(),
    hints: Mapping[int, int] | None = None,
    rules: ClassicRules | None = None,
) -> str:
    """The final ranking with each seat's breakdown (resigned seats marked) and, in a game
    that allows hints, the hints each player took (``hints``: seat -> count); with ``rules``, what
    each built train station did (Europe: its route and tickets, :func:`station_lines`)."""
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
        line = w.n(
            "{rank}. {player}{mark}: {count} point ({breakdown})",
            "{rank}. {player}{mark}: {count} points ({breakdown})",
            s.score,
            rank=rank,
            player=player_name(names, seat),
            mark=mark,
            breakdown=parts,
        )
        if hints is not None:
            line += " · " + w.n("{count} hint", "{count} hints", hints.get(seat, 0))
        lines.append(line)
        if rules is not None:
            lines.extend("   " + line for line in station_lines(rules, s, w))
    return "\n".join(lines)


def status_text(
    public: PublicView,
    names: Sequence[str],
    w: Words,
    *,
    game_id: int,
    map_name: str,
    resigned: frozenset[int] = frozenset(),
    rules: ClassicRules | None = None,
) -> str:
    """The public status: whose turn, each seat's counts and score (resigned seats marked;
    with the map's ``rules``, Europe: the train stations left);
    after the end, the score table, and each seat's line shows its final score (routes,
    tickets and bonuses: the table's total), not the running route score of play; in play
    also the deck (:func:`deck_text`)."""
    if public.phase == "play":
        head = w.t(
            "Game {game} on **{map}**, round {round} (turn {turn}): {player} to move.",
            game=game_id,
            map=map_name,
            round=round_of(public),
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
    final = {s.seat: s.score for s in public.result.seats} if public.result is not None else {}
    for p in public.players:
        lines.append(
            "• "
            + player_name(names, p.seat)
            + (" " + w.t("(resigned)") if p.seat in resigned else "")
            + ": "
            + ", ".join(
                (
                    w.n("{count} point", "{count} points", final.get(p.seat, p.score)),
                    w.n("{count} {piece}", "{count} {pieces}", p.pieces),
                    w.n("{count} {card}", "{count} {cards}", p.cards),
                    w.n("{count} {ticket}", "{count} {tickets}", p.tickets),
                    *_stations_part(rules, public, p.seat, w),
                )
            )
        )
    if public.phase == "play":
        lines.append(deck_text(public.deck_size, public.discard_size, w))
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
    """A payment as words, each card with its symbol: ``2× ♥ Red · 1× ★ Locomotive``."""
    return cards_line(payment.to_dict(), w)


def ladder_line(line: LadderLine, w: Words) -> str:
    """``3. <@1>: 12.5 in 7 games`` (a rank, who, the rating, the games)."""
    return w.n(
        "{rank}. {player}: {rating} in {count} game",
        "{rank}. {player}: {rating} in {count} games",
        line.games,
        rank=line.rank,
        player=rated_player(line.player, w),
        rating=rating_text(line.ordinal, line.games, w),
    )
