"""The cog's only door to the renderer: PNGs (and the recap GIF) of a table, drawn in a worker thread.

Each image is timed by kind in the worker (``ttr_render_seconds``, :mod:`bot.process.metrics`).

The public images use the table's language, the private ones (hand, zoom) the
reader's, with the reader's high-contrast setting.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from bot.host.ratings import PROVISIONAL_GAMES
from bot.host.services import (
    GameAnalysis,
    PlayerView,
    PublicView,
    TicketPlan,
    TournamentView,
    TurnRecord,
    UserStats,
    claims_by_turn,
    stations_by_turn,
)
from bot.process import metrics
from render import (
    StandingRow,
    load_layout,
    render_board_png,
    render_chance_png,
    render_final_png,
    render_hand_png,
    render_offer_png,
    render_phone_final_png,
    render_phone_png,
    render_rating_png,
    render_recap,
    render_standings_png,
    render_zoom_png,
)
from words import Words


@metrics.render_timer("board")
def _board(
    map_id: str,
    public: PublicView,
    names: Sequence[str],
    lang: str,
    highlight: Sequence[str],
    high_contrast: bool = False,
) -> bytes:
    return render_board_png(
        load_layout(map_id),
        public,
        list(names),
        lang=lang,
        highlight=highlight,
        high_contrast=high_contrast,
    )


@metrics.render_timer("final")
def _final(map_id: str, public: PublicView, names: Sequence[str], lang: str) -> bytes:
    return render_final_png(load_layout(map_id), public, list(names), lang=lang)


@metrics.render_timer("phone")
def _phone(map_id: str, public: PublicView, names: Sequence[str], lang: str) -> bytes:
    if public.result is not None:
        return render_phone_final_png(load_layout(map_id), public, list(names), lang=lang)
    return render_phone_png(load_layout(map_id), public, list(names), lang=lang)


@metrics.render_timer("hand")
def _hand(
    mine: PlayerView,
    names: Sequence[str],
    lang: str,
    high_contrast: bool,
    plans: Sequence[TicketPlan],
) -> bytes:
    return render_hand_png(mine, list(names), lang=lang, high_contrast=high_contrast, plans=plans)


@metrics.render_timer("offer")
def _offer(mine: PlayerView, lang: str, plans: Sequence[TicketPlan], high_contrast: bool) -> bytes:
    return render_offer_png(mine, plans, lang=lang, high_contrast=high_contrast)


@metrics.render_timer("zoom")
def _zoom(
    map_id: str,
    public: PublicView,
    names: Sequence[str],
    lang: str,
    cities: Sequence[str],
    marks: Sequence[str],
    high_contrast: bool,
) -> bytes:
    return render_zoom_png(
        load_layout(map_id),
        public,
        list(names),
        cities=cities,
        marks=marks,
        lang=lang,
        high_contrast=high_contrast,
    )


async def board_png(
    map_id: str,
    public: PublicView,
    names: Sequence[str],
    lang: str,
    highlight: Sequence[str] = (),
    high_contrast: bool = False,
) -> bytes:
    """The board with the panel; ``highlight``: route ids claimed in the last turn(s);
    ``high_contrast`` only for a reader's private reply."""
    return await asyncio.to_thread(
        _board, map_id, public, names, lang, tuple(highlight), high_contrast
    )


async def final_png(map_id: str, public: PublicView, names: Sequence[str], lang: str) -> bytes:
    """The final board and score table (public)."""
    return await asyncio.to_thread(_final, map_id, public, names, lang)


async def phone_png(map_id: str, public: PublicView, names: Sequence[str], lang: str) -> bytes:
    """The board 500 px wide, names 11 px and more on a phone; at the end the final board with the
    score table written out for that width. Private replies, in the reader's language."""
    return await asyncio.to_thread(_phone, map_id, public, names, lang)


async def hand_png(
    mine: PlayerView,
    names: Sequence[str],
    lang: str,
    high_contrast: bool = False,
    plans: Sequence[TicketPlan] = (),
) -> bytes:
    """The reader's hand, tickets and ``plans`` (the ticket planner; private replies only)."""
    return await asyncio.to_thread(_hand, mine, names, lang, high_contrast, tuple(plans))


async def offer_png(
    mine: PlayerView, lang: str, plans: Sequence[TicketPlan] = (), *, high_contrast: bool = False
) -> bytes:
    """A small map of the tickets on offer to the reader (numbered as the message lists them)
    with each one's planned path (``plans``); private replies only."""
    return await asyncio.to_thread(_offer, mine, lang, tuple(plans), high_contrast)


async def zoom_png(
    map_id: str,
    public: PublicView,
    names: Sequence[str],
    lang: str,
    cities: Sequence[str],
    marks: Sequence[str] = (),
    high_contrast: bool = False,
) -> bytes:
    """The board around ``cities`` at full size (private replies: ``marks`` may be the reader's
    ticket cities). Raises ValueError when no city is known."""
    return await asyncio.to_thread(
        _zoom, map_id, public, names, lang, tuple(cities), tuple(marks), high_contrast
    )


@metrics.render_timer("recap")
def _recap(map_id: str, records: Sequence[TurnRecord], names: Sequence[str], lang: str) -> bytes:
    return render_recap(
        load_layout(map_id),
        claims_by_turn(records),
        list(names),
        lang=lang,
        stations=stations_by_turn(records),
    )


async def recap_gif(
    map_id: str, records: Sequence[TurnRecord], names: Sequence[str], lang: str
) -> bytes:
    """The animated recap of a game from its turn log (public: only claims and train stations,
    which the board shows)."""
    return await asyncio.to_thread(_recap, map_id, tuple(records), names, lang)


@metrics.render_timer("analysis")
def _chance(analysis: GameAnalysis, names: Sequence[str], lang: str) -> bytes:
    return render_chance_png(
        analysis.series(),
        list(names),
        lang=lang,
        marks=[p.turn for p in analysis.turning_points],
        turns=[t.turn for t in analysis.turns],
        rollouts=analysis.rollouts,
        bands=analysis.bands(),
    )


async def chance_png(analysis: GameAnalysis, names: Sequence[str], lang: str) -> bytes:
    """The analysis chart: each seat's chance to win after every turn, turning points numbered
    (public, the table's language)."""
    return await asyncio.to_thread(_chance, analysis, names, lang)


@metrics.render_timer("chart")
def _rating(st: UserStats, name: str, w: Words) -> bytes:
    return render_rating_png(
        [(p.games, p.ordinal, p.games <= PROVISIONAL_GAMES) for p in st.history],
        title=w.ctx("image", "Rating of {player}, season {season}", player=name, season=st.season),
        axis=w.ctx("image", "rated games"),
        legend=(
            w.ctx("image", "provisional (first five games)"),
            w.ctx("image", "established"),
        ),
        lang=w.lang,
    )


async def rating_png(st: UserStats, name: str, w: Words) -> bytes:
    """A player's rating chart of this season (``/ttr player stats``), in the reader's language
    ``w``: one point per rated game, the provisional ones marked."""
    return await asyncio.to_thread(_rating, st, name, w)


@metrics.render_timer("chart")
def _standings(view: TournamentView, names: dict[int, str], title: str, w: Words) -> bytes:
    rows = [
        StandingRow(
            s.place, names.get(s.player, ""), s.points, s.buchholz, s.margin, s.games, s.active
        )  # fmt: skip
        for s in view.standings
    ]
    return render_standings_png(
        rows,
        title=title.replace("**", ""),
        headers=(
            w.ctx("image", "Player"),
            w.ctx("image", "Points"),
            w.ctx("image", "Buchholz"),
            w.ctx("image", "Margin"),
            w.ctx("image", "Games"),
        ),
        footer=w.ctx("image", "† left or knocked out. Ties: points, Buchholz, score margin."),
        lang=w.lang,
    )


async def standings_png(view: TournamentView, names: dict[int, str], title: str, w: Words) -> bytes:
    """A tournament's standings (``/ttr tournament standings``) in ``w``'s language: one line
    per player, best first, under ``title``."""
    return await asyncio.to_thread(_standings, view, names, title, w)
