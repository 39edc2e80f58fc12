"""Words for the /ttr cog: hands, tickets, routes, move summaries, score tables.

Pure functions over engine views and the ruleset; no discord calls. Every text
is in the reader's language (``locale``) with the map's own words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot import i18n
from engine import Cards, PlayerView, PublicView, Ruleset
from engine.events import Event
from engine.state import FinalResult

MAX_CONTENT = 1900


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    """``text`` cut to Discord's message limit."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def city(rules: Ruleset, city_id: str) -> str:
    """A city's display name."""
    c = rules.board.cities.get(city_id)
    return getattr(c, "name", None) or city_id


def route_label(rules: Ruleset, route_id: str, locale: Any = None) -> str:
    """``Atlanta – Miami (5, blue)``; double tracks are told apart by colour."""
    r = rules.board.routes.get(route_id)
    if r is None:
        return route_id
    extra = []
    if getattr(r, "tunnel", False):
        extra.append("tunnel")
    ferries = getattr(r, "ferries", 0) or getattr(r, "locomotives", 0)
    if ferries:
        extra.append(f"{ferries}× {i18n.color_name('locomotive', locale, rules.meta)}")
    more = (", " + ", ".join(extra)) if extra else ""
    return f"{city(rules, r.a)} – {city(rules, r.b)} ({r.length}, {i18n.color_name(r.color, locale, rules.meta)}{more})"


def cards_text(cards: Mapping[str, int], rules: Ruleset, locale: Any) -> str:
    """``2× red, 1× locomotive``; empty: ``–``."""
    parts = [
        f"{n}× {i18n.color_name(c, locale, rules.meta)}" for c, n in sorted(cards.items()) if n
    ]
    return ", ".join(parts) or "–"


def ticket_text(rules: Ruleset, ticket_id: str, locale: Any, *, done: bool = False) -> str:
    """``Boston – Miami (12)`` with a done mark when completed."""
    tk = rules.board.tickets[ticket_id]
    mark = i18n.t("ticket_done", locale) if done else ""
    return i18n.t(
        "ticket_line", locale, a=city(rules, tk.a), b=city(rules, tk.b), points=tk.points, done=mark
    )


def hand_text(view: PlayerView, rules: Ruleset, locale: Any, *, game_id: int) -> str:
    """The private hand message: cards, pieces left and tickets."""
    meta = rules.meta
    lines = [
        i18n.t(
            "hand_title", locale, meta=meta, game=game_id, map=i18n.map_text(meta, "name", locale)
        ),
        i18n.t("hand_cards", locale, meta=meta, hand=cards_text(view.hand, rules, locale)),
        i18n.t("hand_pieces", locale, meta=meta, count=view.me.pieces),
        i18n.t("hand_tickets", locale, meta=meta),
    ]
    if view.tickets:
        lines += ["• " + ticket_text(rules, tk.id, locale, done=tk.done) for tk in view.tickets]
    else:
        lines.append("• " + i18n.t("no_tickets", locale))
    return "\n".join(lines)


def player_name(names: Sequence[str], seat: int | None) -> str:
    """The display form of a seat (a mention for humans)."""
    if seat is None or seat >= len(names):
        return "?"
    return names[seat]


def move_summary(
    events: Sequence[Event], rules: Ruleset, names: Sequence[str], locale: Any
) -> list[str]:
    """One short line per turn-level event (public facts only)."""
    meta = rules.meta
    out: list[str] = []
    for ev in events:
        who = player_name(names, ev.seat)
        p = ev.public
        if (
            ev.kind in ("card_drawn", "draw_blind")
            and p.get("source", "deck") == "deck"
            and "color" not in p
        ):
            out.append(i18n.t("move_draw_blind", locale, meta=meta, player=who))
        elif ev.kind in ("card_drawn", "draw_face_up", "face_up_taken") and p.get("color"):
            out.append(
                i18n.t(
                    "move_draw_face_up",
                    locale,
                    meta=meta,
                    player=who,
                    color=i18n.color_name(str(p["color"]), locale, meta),
                )
            )
        elif ev.kind == "route_claimed":
            route = str(p.get("route", ""))
            r = rules.board.routes.get(route)
            out.append(
                i18n.t(
                    "move_claim",
                    locale,
                    meta=meta,
                    player=who,
                    route=route_label(rules, route, locale),
                    length=getattr(r, "length", "?"),
                    points=p.get("points", "?"),
                )
            )
        elif ev.kind in ("tickets_kept",):
            out.append(
                i18n.t(
                    "move_keep",
                    locale,
                    meta=meta,
                    player=who,
                    count=p.get("count", p.get("kept", "?")),
                )
            )
        elif ev.kind in ("tickets_drawn",):
            out.append(i18n.t("move_tickets", locale, meta=meta, player=who))
        elif ev.kind == "tunnel_revealed":
            out.append(i18n.t("move_tunnel", locale, meta=meta, player=who))
        elif ev.kind in ("passed", "pass"):
            out.append(i18n.t("move_pass", locale, meta=meta, player=who))
    return out


def score_table(result: FinalResult, rules: Ruleset, names: Sequence[str], locale: Any) -> str:
    """The final ranking with each seat's breakdown."""
    meta = rules.meta
    by_seat = {s.seat: s for s in result.seats}
    lines = [
        i18n.t(
            "game_over",
            locale,
            meta=meta,
            winners=", ".join(player_name(names, w) for w in result.winners),
        )
    ]
    rank = 0
    last = None
    for i, seat in enumerate(result.ranking):
        s = by_seat[seat]
        if s.score != last:
            rank = i + 1
            last = s.score
        parts = ", ".join(
            f"{k} {v:+d}" if k == "tickets" else f"{k} {v}" for k, v in s.breakdown.items()
        )
        lines.append(
            i18n.t(
                "score_line",
                locale,
                meta=meta,
                rank=rank,
                player=player_name(names, seat),
                score=s.score,
                breakdown=parts,
            )
        )
    return "\n".join(lines)


def status_text(
    public: PublicView,
    rules: Ruleset,
    names: Sequence[str],
    locale: Any,
    *,
    game_id: int,
    status: str,
) -> str:
    """The public status: whose turn, each seat's counts and score."""
    meta = rules.meta
    active = ""
    if public.phase == "play":
        active = i18n.t("your_turn", locale, meta=meta, user=player_name(names, public.active))
    elif public.phase == "setup":
        active = i18n.t(
            "waiting_setup",
            locale,
            meta=meta,
            users=", ".join(player_name(names, s) for s in public.waiting_for),
        )
    lines = [
        i18n.t(
            "status",
            locale,
            meta=meta,
            game=game_id,
            map=i18n.map_text(meta, "name", locale),
            status=status,
            turn=public.turn,
            active=active,
        )
    ]
    for p in public.players:
        lines.append(
            i18n.t(
                "status_player",
                locale,
                meta=meta,
                player=player_name(names, p.seat),
                score=p.score,
                pieces_n=p.pieces,
                cards_n=p.cards,
                tickets_n=p.tickets,
            )
        )
    if public.last_round:
        lines.append(
            i18n.t("last_round", locale, meta=meta, user=player_name(names, public.last_round_by))
        )
    return "\n".join(lines)


def payment_text(payment: Cards, rules: Ruleset, locale: Any) -> str:
    """A payment as words."""
    return cards_text(payment.to_dict(), rules, locale)
