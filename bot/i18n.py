"""Keyed access to the catalogs for the /ttr cog (a thin layer over :mod:`words`; no discord import).

``t(key, locale, meta=..., **facts)`` looks ``key`` up in :data:`UI` (or the
error codes) and translates it with :func:`words.words_for`. New code calls
``words_for(lang, meta).t("English sentence")`` directly.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from words import ERRORS, N_, lang_of, words_for
from words import error_text as _error_text

LANGS = ("en", "de")

#: UI sentences by key (English msgids; German in the catalog).
UI: dict[str, str] = {
    "nothing_changed": N_("Something went wrong on our side; nothing was changed. (game {game})"),
    "not_for_you": N_("This is not for you."),
    "not_in_game": N_("You are not in this game."),
    "not_your_turn": N_("It is not your turn."),
    "lobby_opened": N_(
        "{host} opened a game of **{map}** (turn time {turn_time}). Join with /ttr join or the button. Players: {players}"
    ),
    "lobby_players": N_("Game {game} on **{map}**. Players: {players}"),
    "joined": N_("{user} joined. Players: {players}"),
    "left": N_("{user} left. Players: {players}"),
    "ai_added": N_("A computer player joined. Players: {players}"),
    "cancelled": N_("The game was cancelled."),
    "started": N_(
        "The game on **{map}** has started! Everyone: choose your {tickets} with /ttr hand or the button."
    ),
    "your_turn": N_("{user}, it is your turn."),
    "waiting_setup": N_("Waiting for {users} to choose {tickets}."),
    "last_round": N_("**Last round!** {user} has 2 or fewer {pieces} left."),
    "game_over": N_("**Game over.** Winner: {winners}"),
    "score_line": N_("{rank}. {player}: {score} points ({breakdown})"),
    "move_draw_blind": N_("{player} drew a card from the deck."),
    "move_draw_face_up": N_("{player} took a face-up {color} card."),
    "move_claim": N_("{player} claimed {route} ({length}) for {points} points."),
    "move_tickets": N_("{player} drew {tickets}."),
    "move_keep": N_("{player} kept {count} {tickets}."),
    "move_tunnel": N_("{player} is building a tunnel."),
    "move_pass": N_("{player} passed."),
    "move_other": N_("{player} moved."),
    "hand_title": N_("Your hand (game {game}, **{map}**)"),
    "hand_cards": N_("{cards}: {hand}"),
    "hand_pieces": N_("{pieces} left: {count}"),
    "hand_tickets": N_("Your {tickets}:"),
    "ticket_line": N_("{a} – {b} ({points}){done}"),
    "ticket_done": N_(" ✅ done"),
    "no_tickets": N_("none yet"),
    "choose_tickets": N_("Choose the {tickets} to keep (at least {min}):"),
    "keep_button": N_("Keep selected"),
    "kept": N_("Kept {count} {tickets}."),
    "second_card": N_("Take your second card:"),
    "drew_card": N_("You drew: **{color}**."),
    "draw_deck": N_("Deck"),
    "tunnel_prompt": N_("Tunnel: the revealed cards demand {extra} more card(s). Pay or give up."),
    "tunnel_abandon": N_("Give up"),
    "flag_prompt": N_("Set aside one card for a flag?"),
    "flag_decline": N_("No flag"),
    "claim_confirm": N_("Claim **{route}** paying {payment}?"),
    "claim_choose": N_("Choose how to pay for **{route}**:"),
    "confirm": N_("Confirm"),
    "cancel": N_("Cancel"),
    "cancelled_choice": N_("Nothing was done."),
    "claim_pick_route": N_("Use /ttr claim and pick a route; you can pay for these now: {routes}"),
    "claim_none": N_("You cannot pay for any route right now."),
    "tickets_prompt": N_("Draw {tickets}?"),
    "draw_tickets_button": N_("Draw {tickets}"),
    "done": N_("Done."),
    "btn_hand": N_("My hand"),
    "btn_draw": N_("Draw"),
    "btn_claim": N_("Claim"),
    "btn_tickets": N_("Tickets"),
    "btn_board": N_("Board"),
    "btn_join": N_("Join"),
    "btn_start": N_("Start"),
    "status": N_("Game {game} on **{map}**, {status}. Turn {turn}. {active}"),
    "status_player": N_(
        "{player}: {score} points, {pieces_n} {pieces}, {cards_n} cards, {tickets_n} {tickets}"
    ),
    "log_empty": N_("No moves yet."),
    "maps_line": N_("**{name}** (`{id}`){provisional}"),
    "provisional": N_(" – provisional board: {notes}"),
    "mygames_none": N_("You are in no open games."),
    "mygames_line": N_("Game {game} on **{map}** in {channel}: {status}{turn}"),
    "your_move": N_(" – your move!"),
    "stats": N_("{user}: {played} games, {won} won, best score {best}."),
    "leaderboard_empty": N_("No finished games yet."),
    "leaderboard_line": N_("{rank}. {user}: {won} wins in {played} games"),
    "clock": N_("The turn clock runs out {when}; then the computer plays the turn."),
    "reminder": N_(
        "{users}: half of your turn time is gone (game {game}). Open /ttr hand to move."
    ),
    "vacation_set": N_("Vacation set for {days} day(s); your turns wait for you."),
    "resigned": N_("{user} resigned; a computer plays their seat."),
    "ai_name": N_("Computer {n}"),
}

#: Command names, option names and descriptions localised by ``bot.translator`` (context "command").
COMMAND_STRINGS: tuple[str, ...] = (
    N_("ttr"),
    N_("Ticket to Ride: asynchronous games in this channel"),
    N_("Open a lobby for a new game in this channel"),
    N_("Join the game in this channel"),
    N_("Leave the lobby in this channel"),
    N_("Add a computer player (host)"),
    N_("Start the game (host)"),
    N_("Cancel the game (host or Manage Channels)"),
    N_("Show your hand, tickets and pending choice (only you see it)"),
    N_("Draw one card"),
    N_("Claim a route"),
    N_("Draw destination tickets"),
    N_("Show the board"),
    N_("Show the game status"),
    N_("Show the last moves"),
    N_("Show the rules of a map"),
    N_("List the maps"),
    N_("List your games"),
    N_("Show a player's statistics"),
    N_("Show the leaderboard"),
    N_("Take a vacation: your turns wait"),
    N_("Resign: a computer plays your seat"),
    N_("map"),
    N_("The map to play"),
    N_("turn_time"),
    N_("Time per turn"),
    N_("tickets"),
    N_("Germany: ticket edition"),
    N_("source"),
    N_("Deck or face-up slot 1-5"),
    N_("route"),
    N_("The route to claim"),
    N_("color"),
    N_("Colour to pay with"),
    N_("locomotives"),
    N_("Locomotives to use"),
    N_("short"),
    N_("long"),
    N_("Short tickets (Germany)"),
    N_("Long tickets (Germany)"),
    N_("count"),
    N_("How many moves"),
    N_("user"),
    N_("The player"),
    N_("days"),
    N_("Number of days"),
)


def t(key: str, locale: object, *, meta: Mapping[str, Any] | None = None, **facts: Any) -> str:
    """The UI sentence ``key`` in the locale's language with the map's words and ``facts`` filled in."""
    msgid = UI.get(key) or ERRORS.get(key) or key
    return words_for(lang_of(locale), meta).t(msgid, **facts)


def error_text(
    code: str,
    locale: object,
    *,
    meta: Mapping[str, Any] | None = None,
    detail: Mapping[str, Any] | None = None,
) -> str:
    """The sentence for an engine or service error ``code`` (unknown codes: a generic refusal)."""
    return _error_text(code, words_for(lang_of(locale), meta), detail)


def color_name(color: str, locale: object, meta: Mapping[str, Any] | None = None) -> str:
    """A card colour in the locale's language (the wild card by the map's own word)."""
    return words_for(lang_of(locale), meta).color(color)


def map_text(meta: Mapping[str, Any], field: str, locale: object) -> str:
    """A per-language map field (``name``, ``rules_text``) in the locale's language (English fallback)."""
    value = meta.get(field) or {}
    if isinstance(value, Mapping):
        return str(value.get(lang_of(locale)) or value.get("en") or "")
    return str(value)


__all__ = ["COMMAND_STRINGS", "LANGS", "UI", "color_name", "error_text", "lang_of", "map_text", "t"]
