"""The replay of a game for the page's slider: every stored action's public state, the final
scoring step by step, and the post-game analysis's chances per version.

Made from the service's :class:`~bot.host.services.BoardStep` list (the seed and the action
log replayed by the engine, see :meth:`bot.host.services.Queries.board_steps`) and the
analysis the service stored (:meth:`bot.host.services.Analyses.analysis`). The final
scoring is the engine's own (``FinalResult``, shown once the game is over, when the rules
reveal every ticket): each seat's routes, each ticket won or lost, the longest path, unbuilt
stations and the map's bonuses, then the total, told like the final image's table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.host.services import AnalysisView, BoardStep, ClassicRules, FinalResult, PublicView
from bot.host.storage import GameRow, SeatRow
from sentences.coach import turning_point_words
from sentences.stories import breakdown_name, city
from words import Words

from .payloads import public_state, seat_names, step_text, words_of

#: The score breakdown's keys told as their own kind of step (the rest are ``bonus`` steps).
_KINDS = {"routes": "routes", "longest_path": "longest", "stations": "stations"}


def traced(rules: ClassicRules, routes: Sequence[str]) -> tuple[list[str], list[str]]:
    """One longest continuous path over ``routes`` (the one the final image highlights): its
    route ids and its places, in path order."""
    _, path = rules.board.longest_trail(routes)
    if not path:
        return [], []
    tracks = [rules.board.routes[r] for r in path]
    first = tracks[0]
    start = first.a
    if len(tracks) > 1 and first.a in (tracks[1].a, tracks[1].b):
        start = first.b
    places = [start]
    for track in tracks:
        places.append(track.b if track.a == places[-1] else track.a)
    return list(path), places


def final_steps(
    result: FinalResult,
    public: PublicView,
    rules: ClassicRules,
    names: Sequence[str],
    w: Words,
) -> list[dict[str, Any]]:
    """The final scoring step by step, seat by seat in the ranking's order."""
    steps: list[dict[str, Any]] = []
    tickets = rules.board.tickets
    for seat in result.ranking:
        score = result.seats[seat]
        name = names[seat] if seat < len(names) else "?"
        owned = list(public.players[seat].routes) if seat < len(public.players) else []
        for key, points in score.breakdown.items():
            if key == "tickets":
                continue
            step = {
                "kind": _KINDS.get(key, "bonus"),
                "seat": seat,
                "text": w.t("{player}: {what}", player=name, what=breakdown_name(key, w)),
                "points": points,
                "routes": owned if key == "routes" else [],
                "path": [],
            }
            if key == "longest_path":
                step["length"] = score.longest_path
                step["routes"], step["path"] = traced(rules, owned)
            steps.append(step)
        for done, ids in ((True, score.completed), (False, score.failed)):
            for ticket_id in ids:
                ticket = tickets.get(ticket_id)
                if ticket is None:
                    continue
                route = w.t("{a} – {b}", a=city(rules, ticket.a), b=city(rules, ticket.b))
                steps.append(
                    {
                        "kind": "ticket",
                        "seat": seat,
                        "text": w.t("{player}: {ticket}", player=name, ticket=route),
                        "points": ticket.points if done else -ticket.points,
                        "done": done,
                        "routes": [],
                        "path": [ticket.a, ticket.b],
                    }
                )
        total = w.t("{player}: total", player=name)
        steps.append(
            {"kind": "total", "seat": seat, "text": total, "points": score.score, "routes": []}
        )
    return steps


def analysis_part(
    view: AnalysisView | None,
    steps: Sequence[BoardStep],
    rules: ClassicRules,
    names: Sequence[str],
    w: Words,
) -> dict[str, Any] | None:
    """The analysis's chances per version (None before the setup's end) and its turning points
    placed at the first version of their turn; None when there is no finished analysis."""
    if view is None or view.analysis is None:
        return None
    turns = view.analysis.turns
    chances: list[list[float] | None] = []
    first_of_turn: dict[int, int] = {}
    for step in steps:
        at = step.public.turn if step.public.phase != "setup" else None
        if at is not None:
            first_of_turn.setdefault(at, step.version)
        known = at is not None and at < len(turns)
        chances.append(list(turns[at].chances) if known and at is not None else None)
    points = [
        {
            "version": first_of_turn.get(point.turn),
            "text": turning_point_words(point, rules, w, names),
        }
        for point in view.analysis.turning_points
    ]
    return {"chances": chances, "turning_points": points}


def replay_payload(
    game: GameRow,
    seats: Sequence[SeatRow],
    steps: Sequence[BoardStep],
    analysis: AnalysisView | None,
    lang: str,
    now: float,
) -> dict[str, Any]:
    """Every stored action's public state, the final scoring and the analysis (the contract's
    ``/replay``)."""
    rules, w = words_of(game.map_id, lang)
    names = seat_names(seats)
    turns = [
        {
            "version": step.version,
            "seat": step.seat,
            "text": step_text(step, rules, names, w),
            "state": public_state(game, seats, step.public, step.version, now),
        }
        for step in steps
    ]
    last = steps[-1].public if steps else None
    result = last.result if last is not None else None
    final = None
    if result is not None and last is not None:
        final = {"steps": final_steps(result, last, rules, names, w)}
    return {
        "turns": turns,
        "final": final,
        "analysis": analysis_part(analysis, steps, rules, names, w),
    }


__all__ = ["analysis_part", "final_steps", "replay_payload"]
