"""The ticket planner as text, for screen readers: the hand's private reply only.

The same plans the hand image draws (planned once per hand reply, in the
service's view model: :attr:`bot.host.services.TableView.plans`), told in the reader's language; never posted in a public message (a test plays
through the fake Discord and checks that).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.host.services import Board, TicketPlan
from words import Words


def _city(board: Board, cid: str) -> str:
    return board.cities[cid].name


def plan_line(w: Words, plan: TicketPlan, board: Board) -> str:
    """One ticket's plan on ``board`` (the map's, ``rules.board``): done, impossible, or the cars,
    colours and routes still needed, the train station to build and the routes the reader's
    stations let it use (Europe), the routes lost to others and the detour."""
    name = w.t("{a} – {b}", a=_city(board, plan.a), b=_city(board, plan.b))
    if plan.done:
        return w.t("{ticket} ({points}): done.", ticket=name, points=plan.points)
    if not plan.possible:
        return w.t(
            "{ticket} ({points}): can no longer be completed (−{points} at the end).",
            ticket=name,
            points=plan.points,
        )
    colors = ", ".join(f"{n}× {w.color(c)}" for c, n in plan.colors.items())
    routes = ", ".join(board.route_name(r) for r in plan.routes)
    if plan.routes:
        text = w.n(
            "{ticket} ({points}): {count} more space ({colors}): {routes}.",
            "{ticket} ({points}): {count} more spaces ({colors}): {routes}.",
            plan.cars,
            ticket=name,
            points=plan.points,
            colors=colors,
            routes=routes,
        )
    else:
        text = w.t("{ticket} ({points}): no route left to claim.", ticket=name, points=plan.points)
    for where, rid in plan.borrowed:
        facts = {"city": _city(board, where), "route": board.route_name(rid)}
        if where == plan.station:
            text += " " + w.t("Build a {station} in {city} to use {route}.", **facts)
        else:
            text += " " + w.t("Your {station} in {city} lets it use {route}.", **facts)
    if plan.lost:
        text += " " + w.n(
            "Taken by others: {routes}; this detour costs {count} more space.",
            "Taken by others: {routes}; this detour costs {count} more spaces.",
            plan.detour,
            routes=", ".join(board.route_name(r) for r in plan.lost),
        )
    if not plan.enough_pieces:
        text += " " + w.t("You have too few {pieces} left for it.")
    return text


def planner_text(w: Words, plan: Sequence[TicketPlan], board: Board) -> str:
    """The whole plan (one line per ticket, under a heading) for the reader's ephemeral hand reply;
    empty when the reader holds no tickets."""
    if not plan:
        return ""
    return "\n".join(
        [w.t("**Planner for your {tickets}**")] + ["• " + plan_line(w, p, board) for p in plan]
    )
