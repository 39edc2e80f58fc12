"""Every word the live board page shows, from the gettext catalogs (context ``"web"``).

The page (``web/static/``) draws no word of its own: the state payload carries
``page_strings(lang)`` as its ``strings`` and the page looks each word up by key.
Placeholders the page fills itself stay in the text as ``{name}``, ``{n}``,
``{time}``, ``{version}``, ``{length}``, ``{colour}``, ``{owner}``, ``{points}``
(the map's nouns, ``{tickets:cap}`` and the like, are filled here: the map's own
when its data is given, else the catalog's defaults). No sentence here depends on a count: numbers stand
beside a label ("Deck" 57), so no plural rule is needed in the browser.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from words import LANGS, Form, words_for
from words._catalog import NP_

from .moves import MOVE_WORDS

#: Placeholders the page fills in (kept verbatim by :func:`page_strings`).
PAGE_FACTS = ("name", "n", "time", "version", "length", "colour", "owner", "points", "map")

#: Page word key -> English msgid (context "web").
WEB_WORDS: dict[str, str] = {
    "title": NP_("web", "Live board"),
    "board_title": NP_("web", "Board of {map}"),
    "reconnecting": NP_("web", "Reconnecting…"),
    "players": NP_("web", "Players"),
    "to_move": NP_("web", "{name} to move"),
    "finished": NP_("web", "The game is over."),
    "cancelled": NP_("web", "The game was cancelled."),
    "lobby": NP_("web", "The game has not started yet."),
    "last_round": NP_("web", "Last round!"),
    "round": NP_("web", "Round {n}"),
    "pieces": NP_("web", "{pieces:cap}"),
    "stations": NP_("web", "{stations:cap}"),
    "score": NP_("web", "Points"),
    "cards": NP_("web", "Cards"),
    "tickets": NP_("web", "{tickets:cap}"),
    "clock": NP_("web", "Time left: {time}"),
    "vacation": NP_("web", "on vacation"),
    "face_up": NP_("web", "Face-up cards"),
    "deck": NP_("web", "Deck"),
    "discard": NP_("web", "Discard pile"),
    "tickets_left": NP_("web", "{tickets:cap} left"),
    "last_move": NP_("web", "Last move"),
    "log": NP_("web", "Recent moves"),
    "your_hand": NP_("web", "Your hand"),
    "your_tickets": NP_("web", "Your {tickets}"),
    "done": NP_("web", "done"),
    "not_done": NP_("web", "not done yet"),
    "plan": NP_("web", "Spaces still to claim: {n}"),
    "plan_show": NP_("web", "Show the routes on the board"),
    "route_info": NP_("web", "Route"),
    "length": NP_("web", "Length: {length}"),
    "colour": NP_("web", "Colour: {colour}"),
    "owner": NP_("web", "Claimed by {owner}"),
    "free": NP_("web", "Not claimed yet"),
    "tunnel": NP_("web", "Tunnel"),
    "ferry": NP_("web", "Ferry: {wilds:cap} needed: {n}"),
    "close": NP_("web", "Close"),
    "zoom_in": NP_("web", "Zoom in"),
    "zoom_out": NP_("web", "Zoom out"),
    "zoom_reset": NP_("web", "Show the whole board"),
    "sheet": NP_("web", "Show or hide the details"),
    "replay": NP_("web", "Replay"),
    "replay_close": NP_("web", "Back to the live game"),
    "replay_turn": NP_("web", "Turn"),
    "play": NP_("web", "Play"),
    "pause": NP_("web", "Pause"),
    "final": NP_("web", "Final scoring"),
    "next_step": NP_("web", "Next step"),
    "all_steps": NP_("web", "Show all steps"),
    "chart": NP_("web", "Chance to win, turn by turn"),
    "chart_point": NP_("web", "{name}: {points}% after move {version}"),
    **MOVE_WORDS,  # the move panel's (web/moves.py)
}


def page_strings(lang: str, meta: Mapping[str, Any] | None = None) -> dict[str, str]:
    """Key -> the page's word in ``lang`` (``en``, ``de``; others: English), with the page's own
    placeholders (:data:`PAGE_FACTS`) left for the page to fill. ``meta``: the map's data
    (``rules.meta``), so its own nouns stand in the words (Amsterdam's carts and contracts);
    without it the catalog's default nouns (trains, destination tickets)."""
    w = words_for(lang if lang in LANGS else "en", meta)
    facts: dict[str, Any] = {name: "{" + name + "}" for name in PAGE_FACTS}
    for noun in ("stations", "station", "flag"):
        if noun not in w.terms:
            facts[noun] = Form("")  # a map without stations or flags: the page shows none
    return {key: w.ctx("web", msgid, **facts) for key, msgid in WEB_WORDS.items()}
