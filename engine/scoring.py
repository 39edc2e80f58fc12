"""Final scoring and ranking (USA rules "Spielende"; per-map bonuses via hooks).

Score = route points (+ in-game bonuses of a rule set) + completed
ticket points - failed ticket points + end bonuses. Winner: most points, then
the map's tie-breaks in order (the rule set's ``tiebreak_value``); seats
still tied all win. A resigned seat never wins: its breakdown is computed as
for anyone, but it is ranked after every seat that did not resign and is never
among the winners (no winner at all when every seat resigned).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .state import FinalResult, GameState, SeatScore

if TYPE_CHECKING:
    from .rules.classic import ClassicRules


def ticket_status(rules: ClassicRules, state: GameState, seat: int) -> tuple[list[str], list[str]]:
    """``(completed ticket ids, failed ticket ids)`` of ``seat`` on the current board."""
    board = rules.board
    player = state.players[seat]
    done: list[str] = []
    failed: list[str] = []
    tickets = board.tickets
    reach = board.reachable_from((tickets[tid].a for tid in player.tickets), player.routes)
    for tid in player.tickets:
        t = tickets[tid]
        (done if t.b in reach[t.a] else failed).append(tid)
    return done, failed


def final_scores(rules: ClassicRules, state: GameState) -> FinalResult:
    """Compute every seat's final score, breakdown and the ranking.

    Returns a :class:`FinalResult`; ``breakdown`` values always sum to ``score``.
    """
    board = rules.board
    scores: list[SeatScore] = []
    for player in state.players:
        done, failed = ticket_status(rules, state, player.seat)
        won = sum(board.tickets[t].points for t in done)
        lost = sum(board.tickets[t].points for t in failed)
        breakdown = {"routes": player.route_points, "tickets": won - lost}
        scores.append(
            SeatScore(
                seat=player.seat,
                score=0,
                breakdown=breakdown,
                tickets_completed=len(done),
                tickets_failed=len(failed),
                completed=done,
                failed=failed,
                longest_path=board.longest_path(player.routes),
            )
        )
    rules.final_bonuses(state, scores)
    for s in scores:
        s.score = sum(s.breakdown.values())

    def key(s: SeatScore) -> tuple[int, ...]:
        return (s.score, *(rules.tiebreak_value(tb, s) for tb in rules.params.tiebreaks))

    resigned = [p.resigned for p in state.players]
    ranking = sorted(
        range(len(scores)), key=lambda i: (not resigned[i], key(scores[i])), reverse=True
    )
    contenders = [i for i in ranking if not resigned[i]]
    winners: list[int] = []
    if contenders:
        top = key(scores[contenders[0]])
        winners = sorted(i for i in contenders if key(scores[i]) == top)
    return FinalResult(winners=winners, seats=scores, ranking=ranking)


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """One seat's final score as a sheet (what :func:`score_sheets` returns).

    Attributes:
        seat: 0-based seat.
        total: final points; equals ``routes + tickets + longest_path_bonus +
            globetrotter_bonus + sum(map_bonuses.values())``.
        routes: points of claimed routes (USA rules, route scoring table).
        tickets_completed, tickets_failed: ``(ticket id, points)`` pairs in the
            seat's ticket order; completed add, failed subtract ("Spielende").
        tickets: net ticket points (completed minus failed).
        longest_path: length in spaces of the seat's longest continuous path.
        longest_path_bonus: the longest-path bonus won (0 without it or on maps
            that have none; USA: 10, every tied seat).
        globetrotter_bonus: most completed tickets bonus (Germany, Nordic), else 0.
        map_bonuses: the rule set's own points by breakdown key (its ``breakdown_keys``
            beyond the shared ones); empty where it has none.
        winner: True when the seat is among the winners (tie-breaks applied).
        rank: 0-based place in the ranking (resigned seats last).
    """

    seat: int
    total: int
    routes: int
    tickets_completed: tuple[tuple[str, int], ...]
    tickets_failed: tuple[tuple[str, int], ...]
    tickets: int
    longest_path: int
    longest_path_bonus: int
    globetrotter_bonus: int
    map_bonuses: dict[str, int] = field(default_factory=dict)
    winner: bool = False
    rank: int = 0


def score_sheets(rules: ClassicRules, state: GameState) -> list[ScoreSheet]:
    """Final scoring of ``state`` as it stands, one :class:`ScoreSheet` per seat.

    Works on any state (a finished game gives the same numbers as
    ``state.result``; a running one is scored as if it ended now). Pure: the
    state is not changed. Rule sources: USA rules "Spielende" (routes, tickets,
    longest path), Germany/Nordic rulebooks (Globetrotter); a rule set's own
    bonuses as its ``final_bonuses`` cite them.
    """
    result = final_scores(rules, state)
    board = rules.board
    sheets = []
    for s in result.seats:
        b = s.breakdown
        extra = {k: v for k, v in b.items() if k not in _MAIN_KEYS}
        sheets.append(
            ScoreSheet(
                seat=s.seat,
                total=s.score,
                routes=b.get("routes", 0),
                tickets_completed=tuple((t, board.tickets[t].points) for t in s.completed),
                tickets_failed=tuple((t, board.tickets[t].points) for t in s.failed),
                tickets=b.get("tickets", 0),
                longest_path=s.longest_path,
                longest_path_bonus=b.get("longest_path", 0),
                globetrotter_bonus=b.get("globetrotter", 0),
                map_bonuses=extra,
                winner=s.seat in result.winners,
                rank=result.ranking.index(s.seat),
            )
        )
    return sheets


_MAIN_KEYS = frozenset({"routes", "tickets", "longest_path", "globetrotter"})
