"""Final scoring and ranking (USA rules "Spielende"; per-map bonuses via hooks).

Score = route points (+ in-game bonuses such as French flags) + completed
ticket points - failed ticket points + end bonuses. Winner: most points, then
the map's tie-breaks in order (``tickets_completed``, ``longest_path``); seats
still tied all win. A resigned seat never wins: its breakdown is computed as
for anyone, but it is ranked after every seat that did not resign and is never
among the winners (no winner at all when every seat resigned; issue 14.6).
"""

from __future__ import annotations

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
    reach_cache: dict[str, set[str]] = {}
    for tid in player.tickets:
        t = board.tickets[tid]
        if t.a not in reach_cache:
            reach_cache[t.a] = board.reachable(t.a, player.routes)
        (done if t.b in reach_cache[t.a] else failed).append(tid)
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
        if rules.params.french_flags:
            breakdown["flags"] = player.bonus_points
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
        k = [s.score]
        for tb in rules.params.tiebreaks:
            k.append(s.tickets_completed if tb == "tickets_completed" else s.longest_path)
        return tuple(k)

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
