"""Achievements in words: the game-over message's lines and the list of ``/ttr player stats``.

The names and rules are the catalog sentences of :data:`bot.host.achievements.ACHIEVEMENTS`
(``N_``), said with the reader's words, and with the nouns of the achievement's own map where
it has one (the European Express, the French flag, the merchandise bonus cards). Dates are Discord timestamps (``<t:…:d>``), which every reader sees in their own
locale and time zone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.host.achievements import ACHIEVEMENTS, BY_ID, Achievement
from bot.host.storage import AchievementRow
from maps.loader import load_ruleset
from words import Words, words_for


def _words(entry: Achievement, w: Words) -> Words:
    """``w``, or the words of the achievement's own map in ``w``'s language."""
    if entry.words_of is None:
        return w
    return words_for(w.lang, meta=load_ruleset(entry.words_of).meta)


def achievement_name(achievement: str, w: Words) -> str:
    """The achievement's name in ``w``'s language (its id when the code no longer knows it)."""
    entry = BY_ID.get(achievement)
    return _words(entry, w).text(entry.name) if entry is not None else achievement


def achievement_rule(achievement: str, w: Words) -> str:
    """The achievement's one-sentence rule in ``w``'s language ("" when unknown)."""
    entry = BY_ID.get(achievement)
    return _words(entry, w).text(entry.rule) if entry is not None else ""


def game_over_lines(
    rows: Sequence[AchievementRow], names: Mapping[int, str], w: Words
) -> list[str]:
    """One line per player who earned something in the game that just ended:
    "🏆 {player}: {names}" in the table's order of ``rows``; ``names``: user id -> how the
    player is shown (a mention). No line when nobody earned anything."""
    by_user: dict[int, list[str]] = {}
    for row in rows:
        by_user.setdefault(row.user_id, []).append(achievement_name(row.achievement, w))
    return [
        w.t(
            "🏆 {player} earned: {achievements}",
            player=names.get(user, "?"),
            achievements=", ".join(f"**{a}**" for a in earned),
        )
        for user, earned in by_user.items()
    ]


def stats_lines(rows: Sequence[AchievementRow], w: Words, *, limit: int = 1000) -> list[str]:
    """A player's achievements for ``/ttr player stats``: a head line (how many of how many),
    then one line each, newest first, with the date it was earned and, when all of them fit in
    ``limit`` characters with it, its rule; when even the names do not fit, the oldest give
    way to one line saying how many more."""
    head = w.t("Achievements: {count} of {total}", count=len(rows), total=len(ACHIEVEMENTS))
    newest = sorted(rows, key=lambda r: (r.earned_at, r.game_id), reverse=True)
    with_rules = [
        w.t(
            "🏆 **{name}** (<t:{when}:d>): {rule}",
            name=achievement_name(r.achievement, w),
            when=int(r.earned_at),
            rule=achievement_rule(r.achievement, w),
        )
        for r in newest
    ]
    if len("\n".join([head, *with_rules])) <= limit:
        return [head, *with_rules]
    lines = [
        w.t("🏆 **{name}** (<t:{when}:d>)", name=achievement_name(r.achievement, w),
            when=int(r.earned_at))
        for r in newest
    ]  # fmt: skip
    shown: list[str] = []
    size = len(head)
    for n, line in enumerate(lines):
        rest = len(lines) - n
        more = w.n("… and {count} more", "… and {count} more", rest - 1)
        if size + len(line) + 1 + (len(more) + 1 if rest > 1 else 0) > limit:
            shown.append(w.n("… and {count} more", "… and {count} more", rest))
            break
        shown.append(line)
        size += len(line) + 1
    return [head, *shown]
