"""The coach's words: a hint explained, the turning points of a game, the analysis's status.

Pure functions over the service's results and :class:`words.Words` (the reader's
language for a hint, the table's for the analysis); every sentence goes through
the catalogs. Used by the cogs and by the demo (which prints the turning points),
beside :mod:`sentences.stories` (the turns), whose names of places, routes and cards it uses.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.host.services import AnalysisView
from engine import (
    AbandonTunnel,
    Action,
    BuildStation,
    ClaimRoute,
    ClassicRules,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepFlagCard,
    KeepTickets,
    PayTunnel,
    Resign,
)
from engine.ai.analysis import MIN_CHANGE, TurningPoint, TurnMove
from engine.ai.coach import Hint, Risk
from engine.payment import tunnel_spare
from words import Words

from .stories import cards_text, city, route_name


def ticket_words(rules: ClassicRules, ticket_id: str) -> str:
    """``Denver – El Paso (4)``: the ticket's places and points."""
    ticket = rules.board.tickets[ticket_id]
    return f"{city(rules, ticket.a)} – {city(rules, ticket.b)} ({ticket.points})"


def _listed(items: Sequence[str], w: Words) -> str:
    """``a``, ``a and b``, ``a, b and c`` in ``w``'s language."""
    if len(items) <= 1:
        return "".join(items)
    return w.t("{items} and {last}", items=", ".join(items[:-1]), last=items[-1])


def move_words(
    action: Action, rules: ClassicRules, w: Words, face_up: Sequence[str | None] = ()
) -> str:
    """What to do, as an instruction: ``Claim Denver – Omaha with 2× red``. ``face_up``: the
    face-up row the move was chosen at, so a face-up card is named by its colour (as its
    button is) rather than by its slot."""
    if isinstance(action, ClaimRoute):
        return w.t(
            "Claim {route} with {cards}",
            route=route_name(rules, action.route),
            cards=cards_text(action.payment.to_dict(), w),
        )
    if isinstance(action, BuildStation):
        return w.t(
            "Build a {station} in {city} with {cards}",
            city=city(rules, action.city),
            cards=cards_text(action.payment.to_dict(), w),
        )
    if isinstance(action, DrawFaceUp):
        card = face_up[action.slot] if action.slot < len(face_up) else None
        if card == "locomotive":
            return w.t("Take the face-up {wild}")
        if card is not None:
            return w.t("Take the face-up {color} card", color=w.color(card))
        return w.t("Take the face-up card in slot {slot}", slot=action.slot + 1)
    if isinstance(action, DrawBlind):
        return w.t("Draw a card from the deck")
    if isinstance(action, DrawTickets):
        return w.t("Draw new {tickets}")
    if isinstance(action, KeepTickets):
        kept = [ticket_words(rules, t) for t in action.tickets]
        return w.t("Keep {tickets_kept}", tickets_kept=_listed(kept, w))
    if isinstance(action, PayTunnel):
        cards = action.extra.to_dict()
        if not any(cards.values()):
            return w.t("Finish the tunnel: nothing more to pay")
        return w.t("Pay the tunnel's extra cards: {cards}", cards=cards_text(cards, w))
    if isinstance(action, AbandonTunnel):
        return w.t("Give up the tunnel")
    if isinstance(action, KeepFlagCard):
        if action.color is None:
            return w.t("Set no card aside for a {flag}")
        return w.t("Set a {color} card aside for a {flag}", color=w.color(action.color))
    if isinstance(action, Resign):
        return w.t("Resign")
    return w.t("Pass")


def _why(hint: Hint, rules: ClassicRules, w: Words, names: Sequence[str]) -> str:
    """The reason line of a hint."""
    tickets = [ticket_words(rules, t) for t in hint.tickets]
    count = len(tickets)
    listed = _listed(tickets, w)
    reason = hint.reason
    if reason == "claim_ticket":
        line = w.n(
            "It is on the way for your {ticket} {tickets_list}.",
            "It is on the way for your {tickets} {tickets_list}.",
            count,
            tickets_list=listed,
        )
        if hint.completes:
            done = _listed([ticket_words(rules, t) for t in hint.completes], w)
            line += " " + w.t("It completes {tickets_done}.", tickets_done=done)
        return line
    if reason == "claim_points":
        assert isinstance(hint.action, ClaimRoute)
        route = rules.board.routes[hint.action.route]
        points = rules.params.route_points.get(route.length, 0)
        return w.n(
            "None of your {tickets} needs it, but it scores {count} point now.",
            "None of your {tickets} needs it, but it scores {count} points now.",
            points,
        )
    if reason == "claim_block":
        who = names[hint.blocked] if hint.blocked is not None and hint.blocked < len(names) else ""
        return w.t(
            "It cuts a route that {player} probably needs (judged from their claims).", player=who
        )
    if reason == "draw_cards":
        if not tickets:
            return w.t("Your {tickets} are done: collect cards for long routes.")
        return w.n(
            "{tickets_list} still needs cards.",
            "{tickets_list} still need cards.",
            count,
            tickets_list=listed,
        )
    if reason == "draw_tickets":
        return w.t("Your {tickets} are done or out of reach, and new ones bring points.")
    if reason == "keep_tickets":
        return w.n(
            "Together they need {cars} more car space, and your plan can carry it.",
            "Together they need {cars} more car spaces, and your plan can carry them.",
            hint.cars,
            cars=hint.cars,
        )
    if reason == "station" and tickets:  # else the search's own reason, below
        return w.n(
            "At the end it lends you a route of another player for your {ticket} "
            "{tickets_list}: a way that is shorter, or the only one left.",
            "At the end it lends you a route of another player for your {tickets} "
            "{tickets_list}: a way that is shorter, or the only one left.",
            count,
            tickets_list=listed,
        )
    if reason == "tunnel_pay":
        return w.t("Paying keeps the route you started to claim.")
    if reason == "tunnel_abandon":
        return w.t("The extra cards cost more than the route is worth to you now.")
    return w.t("It came out best in the games simulated from what you can see.")


def _missing(hint: Hint, w: Words) -> str | None:
    if not hint.tickets or hint.reason in (
        "draw_tickets",
        "claim_points",
        "claim_block",
        "station",
    ):
        return None
    if not hint.missing:
        return w.t("You hold every card those routes still need.")
    parts = [
        w.n("{count} card of one colour", "{count} cards of one colour", n)
        if color == "gray"
        else f"{n}× {w.color(color)}"
        for color, n in hint.missing
    ]
    return w.t("Still to collect: {cards}.", cards=", ".join(parts))


def spare_words(spare: int, color: str | None, w: Words) -> str:
    """What a tunnel claim keeps for its extra cards: ``Tunnel: up to 3 more cards may be
    asked; you keep 1 spare (black or locomotive).``, or the warning that nothing is spare."""
    if not spare:
        if color is None:
            return w.t(
                "Tunnel: you keep no spare {wild}; if a revealed card is a {wild}, you cannot "
                "pay and your turn is lost."
            )
        return w.t(
            "Tunnel: you keep no spare {color} card or {wild}; if a revealed card matches, you "
            "cannot pay and your turn is lost.",
            color=w.color(color),
        )
    if color is None:
        return w.n(
            "Tunnel: up to 3 more cards may be asked; you keep {count} spare {wild}.",
            "Tunnel: up to 3 more cards may be asked; you keep {count} spare {wilds}.",
            spare,
        )
    return w.n(
        "Tunnel: up to 3 more cards may be asked; you keep {count} spare ({color} or {wild}).",
        "Tunnel: up to 3 more cards may be asked; you keep {count} spare ({color} or {wild}).",
        spare,
        color=w.color(color),
    )


def confirm_words(
    action: Action,
    rules: ClassicRules,
    w: Words,
    *,
    face_up: Sequence[str | None] = (),
    hand: Mapping[str, int] | None = None,
) -> str:
    """The question before a hinted move is played: ``Play this move now: {move}?``, and for
    a tunnel the cards kept for its extra cards (:func:`spare_words`; ``hand``: the player's
    cards, None when unknown)."""
    text = w.t("Play this move now: {move}?", move=move_words(action, rules, w, face_up))
    if isinstance(action, ClaimRoute) and hand is not None:
        route = rules.board.routes[action.route]
        plan = rules.payment_plan(route, action.payment) if route.tunnel else None
        if plan is not None:
            spare = tunnel_spare(plan.color, action.payment, hand)
            text += "\n" + spare_words(spare, plan.color, w)
    return text


def risky_confirm_words(
    action: Action,
    rules: ClassicRules,
    w: Words,
    *,
    face_up: Sequence[str | None] = (),
    hand: Mapping[str, int] | None = None,
) -> str | None:
    """The question **Do it** asks before a risky hinted move, or None when it plays at once.

    Risky is a tunnel claim that keeps no spare card for the extra cards (the hint warned of
    it, :func:`spare_words`): a revealed match then costs the turn, so the player confirms
    once more. Every other hinted move is played on the click. ``hand``: the player's cards
    (None when unknown: nothing is asked)."""
    if not isinstance(action, ClaimRoute) or hand is None:
        return None
    route = rules.board.routes[action.route]
    plan = rules.payment_plan(route, action.payment) if route.tunnel else None
    if plan is None or tunnel_spare(plan.color, action.payment, hand):
        return None
    why = w.t("Asked before playing: the hint warned that this tunnel can cost your turn.")
    return confirm_words(action, rules, w, face_up=face_up, hand=hand) + "\n" + why


def risk_words(risk: Risk, rules: ClassicRules, w: Words) -> str:
    """``Denver – Omaha is the last free track on your path to ...``."""
    route, ticket = route_name(rules, risk.route), ticket_words(rules, risk.ticket)
    if risk.fails:
        return w.t(
            "{route} is the last free track on your path to {ticket_name}: if someone claims it, "
            "that {ticket} fails.",
            route=route,
            ticket_name=ticket,
        )
    return w.n(
        "If someone claims {route}, your way to {ticket_name} costs {count} more car space.",
        "If someone claims {route}, your way to {ticket_name} costs {count} more car spaces.",
        risk.detour,
        route=route,
        ticket_name=ticket,
    )


def hint_words(
    hint: Hint, rules: ClassicRules, w: Words, names: Sequence[str], *, used: int
) -> list[str]:
    """The hint as lines: the move, why, what is still missing, the risk, the alternative."""
    face_up = hint.face_up
    lines = [
        w.n(
            "**Hint** ({count} hint taken in this game): {move}.",
            "**Hint** ({count} hints taken in this game): {move}.",
            used,
            move=move_words(hint.action, rules, w, face_up),
        )
    ]
    if hint.then is not None:
        lines.append("• " + w.t("Then: {move}.", move=move_words(hint.then, rules, w, face_up)))
    if hint.spare is not None:
        lines.append("• " + spare_words(hint.spare, hint.spare_color, w))
    lines.append("• " + w.t("Why: {reason}", reason=_why(hint, rules, w, names)))
    missing = _missing(hint, w)
    if missing:
        lines.append("• " + missing)
    if hint.risk is not None:
        lines.append("• " + w.t("Risk: {risk}", risk=risk_words(hint.risk, rules, w)))
    if hint.alternative is not None:
        alt = w.t("Alternative: {move}.", move=move_words(hint.alternative, rules, w, face_up))
        if hint.worlds and hint.clear:
            alt += " " + w.n(
                "In {count} game simulated from what you can see, the hint did better in "
                "{ahead} and worse in {behind}.",
                "In {count} games simulated from what you can see, the hint did better in "
                "{ahead} and worse in {behind}.",
                hint.worlds,
                ahead=hint.ahead,
                behind=hint.behind,
            )
        elif hint.worlds:
            alt += " " + w.n(
                "In {count} game simulated from what you can see the two came out close: the "
                "hint better in {ahead}, worse in {behind}.",
                "In {count} games simulated from what you can see the two came out close: the "
                "hint better in {ahead}, worse in {behind}.",
                hint.worlds,
                ahead=hint.ahead,
                behind=hint.behind,
            )
        lines.append("• " + alt)
    return lines


# ---------------------------------------------------------------- the analysis


def turn_move_words(move: TurnMove, who: str, rules: ClassicRules, w: Words) -> str:
    """What a seat did in a turn, in the past: ``Björn claimed Denver – Kansas City``."""
    kind = move.kind
    if kind == "claim" and move.route:
        return w.t("{player} claimed {route}", player=who, route=route_name(rules, move.route))
    if kind == "tunnel_abandoned" and move.route:
        return w.t(
            "{player} gave up the tunnel {route}", player=who, route=route_name(rules, move.route)
        )
    if kind == "cards":
        text = w.n(
            "{player} drew {count} {card}", "{player} drew {count} {cards}", move.count, player=who
        )
        if move.cards:
            text += " (" + ", ".join(w.color(c) for c in move.cards) + ")"
        return text
    if kind == "tickets":
        return w.n(
            "{player} kept {count} new {ticket}",
            "{player} kept {count} new {tickets}",
            move.count,
            player=who,
        )
    if kind == "station" and move.city:
        return w.t("{player} built a {station} in {city}", player=who, city=city(rules, move.city))
    if kind == "resign":
        return w.t("{player} resigned", player=who)
    if kind == "setup":
        return w.t("everyone chose their first {tickets}")
    return w.t("{player} passed", player=who)


def _pct(chance: float, w: Words) -> str:
    return w.t("{percent}%", percent=round(100 * chance))


def turning_point_words(
    point: TurningPoint, rules: ClassicRules, w: Words, names: Sequence[str]
) -> str:
    """``Turn 42: Björn claimed Denver – Kansas City; Åsa's chance 48% → 21%``."""
    who = names[point.mover] if point.mover is not None and point.mover < len(names) else "?"
    seat = names[point.seat] if point.seat < len(names) else "?"
    return w.t(
        "Turn {turn}: {move}; {player}'s chance {before} → {after}",
        turn=point.turn,
        move=turn_move_words(point.move, who, rules, w),
        player=seat,
        before=_pct(point.before, w),
        after=_pct(point.after, w),
    )


def analysis_words(
    view: AnalysisView, rules: ClassicRules, w: Words, names: Sequence[str]
) -> list[str]:
    """The analysis as lines: what it is, how it was made, what makes a turning point and the
    turning points (numbered as on the chart; a game may have none); or where it stands
    (queued, running, failed)."""
    analysis = view.analysis
    if view.status == "done" and analysis is not None:
        lines = [
            w.t(
                "**Analysis of game {game}**: each player's chance to win after every turn.",
                game=view.game.id,
            ),
            w.n(
                "Estimated from {count} game played to the end from every turn, with every hand "
                "known and the cards still to come shuffled.",
                "Estimated from {count} games played to the end from every turn, with every hand "
                "known and the cards still to come shuffled.",
                analysis.rollouts,
            ),
        ]
        points = round(100 * MIN_CHANGE)
        lines.append(
            w.n(
                "A turning point is a move that could have been otherwise and changed a chance "
                "by at least {count} point, clearly more than the estimate's noise (the bands "
                "on the chart).",
                "A turning point is a move that could have been otherwise and changed a chance "
                "by at least {count} points, clearly more than the estimate's noise (the bands "
                "on the chart).",
                points,
            )
        )
        if analysis.turning_points:
            lines.append(w.t("Turning points:"))
            lines += [
                f"{n}. " + turning_point_words(p, rules, w, names)
                for n, p in enumerate(analysis.turning_points, start=1)
            ]
        else:
            lines.append(w.t("No move of this game was one."))
        return lines
    if view.status == "queued":
        return [
            w.n(
                "The analysis of game {game} is queued behind {count} other game; it follows here.",
                "The analysis of game {game} is queued behind {count} other games; it follows "
                "here.",
                view.ahead,
                game=view.game.id,
            )
            if view.ahead
            else w.t("The analysis of game {game} is next; it follows here.", game=view.game.id)
        ]
    if view.status == "running":
        return [
            w.t("The analysis of game {game} is being made; it follows here.", game=view.game.id)
        ]
    if view.status == "failed":
        return [w.t("The analysis of game {game} could not be made.", game=view.game.id)]
    return [w.t("Game {game} has no analysis.", game=view.game.id)]


__all__ = [
    "analysis_words",
    "confirm_words",
    "hint_words",
    "move_words",
    "risk_words",
    "risky_confirm_words",
    "spare_words",
    "ticket_words",
    "turn_move_words",
    "turning_point_words",
]
