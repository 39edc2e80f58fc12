"""Refusals: the one protocol (a code and its facts), the closed table of codes and their sentences.

Every error raised on purpose, with nothing changed, is a :class:`Refusal`:
the engine's ``IllegalAction`` and ``SetupError``, the service's
``ServiceError``, the storage's refusals (``GameNotFound``, ``SeatTaken``,
``VersionConflict`` ...), the maps' ``UnknownMap`` and the cogs' ``CogError``
and ``BadComponentId``. Its ``code`` is one key of :data:`ERRORS`, one code
per meaning; only :func:`error_text` turns it into a sentence, in the
reader's language. ``tests/test_refusals.py`` scans every code raised in the
code against this table both ways.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from ._catalog import N_, NN_, Plural, Words


@runtime_checkable
class Refusal(Protocol):
    """An error raised on purpose: ``code`` (a key of :data:`ERRORS`) and ``detail``, the
    JSON-able facts its sentence names (``{"min": 2, "max": 5}``)."""

    @property
    def code(self) -> str:
        """The stable reason, e.g. ``not_your_turn``."""

    @property
    def detail(self) -> Mapping[str, Any]:
        """Facts for the sentence."""


def refusal(error: BaseException) -> Refusal | None:
    """``error`` when it is a refusal (a non-empty string ``code`` and a mapping ``detail``),
    else None: an unexpected error, to be logged."""
    if isinstance(error, Refusal) and isinstance(error.code, str) and error.code:
        return error if isinstance(error.detail, Mapping) else None
    return None


#: code -> English msgid: the closed set of refusals (one code per meaning, one sentence per
#: code); only :func:`error_text` turns codes into sentences.
ERRORS: dict[str, str | Plural] = {
    "not_your_turn": N_("It is not your turn."),
    "route_taken": N_("That route is already taken."),
    "double_route_locked": N_(
        "With fewer than {min_players} players only one track of a double route may be used."
    ),
    "double_route_own": N_("You already own the other track of this route."),
    "cannot_pay": N_("Those cards cannot pay for this route."),
    "cannot_pay_tunnel": N_("You cannot pay the tunnel's extra cards."),
    "station_taken": N_("A {station} already stands in that city."),
    "no_stations_left": N_("You have built all your {stations}."),
    "cannot_pay_station": NN_(
        "Your next {station} costs {cost} card of one colour ({wilds} count as any colour).",
        "Your next {station} costs {cost} cards of one colour ({wilds} count as any colour).",
        "cost",
    ),
    "cards_not_in_hand": N_("You do not hold those cards."),
    "not_enough_pieces": N_("You have too few {pieces} left for this route."),
    "must_keep_at_least": NN_(
        "Keep at least {min} {ticket}.", "Keep at least {min} {tickets}.", "min"
    ),
    "ticket_not_offered": N_("Those {tickets} were not offered to you."),
    "nothing_to_keep": N_("You have no {tickets} to choose from."),
    "locomotive_second": N_("A face-up {wild} cannot be your second card."),
    "bad_slot": N_("There is no card in that face-up slot."),
    "deck_empty": N_("The deck is empty."),
    "no_tickets_left": N_("No {tickets} are left."),
    "bad_mix": N_("That mix of {tickets} is not allowed."),
    "bad_mix_total": NN_(
        "Draw exactly {expected} {ticket}.", "Draw exactly {expected} {tickets}.", "expected"
    ),
    "mix_unavailable": N_("Not enough {tickets} are left in that pile."),
    "wrong_step": N_("That is not possible right now: finish your current choice first."),
    "game_over": N_("This game is over."),
    "unknown_route": N_("There is no such route."),
    "waiting_for_players": N_("Waiting for the other players to choose their {tickets}."),
    "setup_tickets_first": N_("First choose your {tickets}."),
    "cannot_pass": N_("You still have a move; passing is not allowed."),
    "malformed_action": N_("That action is not understood."),
    "flag_color_not_allowed": N_("You cannot set aside that colour."),
    "player_count": N_("This map is for {min} to {max} players."),
    "bad_option": N_("That option is not available for this map."),
    "no_game": N_("There is no game in this channel. Start one with /ttr new."),
    "game_not_found": N_("That game no longer exists."),
    "link_invalid": N_("This link is not valid: open the board again from Discord."),
    "link_expired": N_("This link has expired: open My board again in Discord."),
    "page_not_found": N_("There is nothing here."),
    "rate_limited": N_("Too many requests: wait a moment, then try again."),
    "streams_full": N_("Too many live boards are open: close one, then try again."),
    "request_too_large": N_("That request is too large."),
    "activity_sign_in_refused": N_(
        "Discord did not confirm who you are in this Activity. Close it and open it again."
    ),
    "activity_unavailable": N_(
        "Discord did not answer the sign-in in time. Close the Activity and try again."
    ),
    "activity_no_game": N_(
        "This channel has no game yet. Start one with /ttr new, then open the Activity again."
    ),
    "channel_busy": N_("This channel already has a game. Finish or cancel it first."),
    "not_in_game": N_("You are not in this game."),
    "already_joined": N_("You have already joined."),
    "game_full": N_("The game is full."),
    "not_host": N_("Only the host can do that."),
    "not_allowed": N_("You are not allowed to do that."),
    "host_cannot_leave": N_("The host cannot leave; cancel the game instead."),
    "substitute_self": N_("You already hold this seat: name another member."),
    "substitute_seated": N_("That member already plays in this game."),
    "seat_offer_expired": N_("This offer has expired: ask for a new one."),
    "seat_offer_stale": N_("This seat has changed since it was offered: nothing was done."),
    "seat_not_timed_out": N_(
        "Seat {seat} is not played by the computer after timeouts: only such a seat can be offered."
    ),
    "no_such_seat": N_("This game has no seat {seat}."),
    "not_enough_players": N_("At least {min} players are needed."),
    "too_many_players": N_("At most {max} players can play."),
    "already_started": N_("The game has already started."),
    "not_started": N_("The game has not started yet."),
    "unknown_city": N_("There is no place called {city} on this board."),
    "no_tickets_to_zoom": N_("You hold no {tickets} yet: name a place to zoom in."),
    "game_quarantined": N_(
        "This game's saved state is damaged, so it was stopped; the server's operator can "
        "check it with `python -m bot verify`. You can start a new game here."
    ),
    "wrong_status": N_("That is not possible at this stage of the game."),
    "stale_version": N_("This button is out of date; open a fresh one."),
    "version_conflict": N_("Someone acted at the same moment; try again."),
    "unknown_map": N_("There is no such map. Maps: {maps}."),
    "bad_turn_time": N_("That turn time is not available. Choose one of: {choices}."),
    "bad_days": N_("Choose between {min} and {max} days."),
    "vacation_limit": N_("You have no vacation days left."),
    "is_ai": N_("That seat is played by the computer."),
    "cannot_undo": N_(
        "That move cannot be taken back: only a claim or a {station} that showed no hidden "
        "card can, and only until the next player acts."
    ),
    "already_resigned": N_("You have already resigned from this game."),
    "bad_ai_level": N_("That AI level is not available. Choose one of: {choices}."),
    "bad_language": N_("That language is not available. Choose one of: {choices}."),
    "not_finished": N_("The game is still running; a rematch can start when it is over."),
    "no_threads_here": N_("A game thread can only be opened in a text channel."),
    # ratings, seasons and server settings
    "channel_not_allowed": N_("Games on this server are opened in {channels}."),
    "not_manager": N_("Only members with the Manage Server permission can do that."),
    "season_empty": N_("Season {season} has no rated game yet, so it goes on."),
    "unknown_season": N_("There is no season {season} on this server (seasons {seasons})."),
    # the coach
    "hints_off": N_(
        "Hints are off in this game (rated games have none; a host or the server can turn"
        " them off)."
    ),
    "hints_rated": N_(
        "A rated game has no hints. Open a casual game (rated: False) to allow them."
    ),
    "hints_off_here": N_(
        "This server allows no hints (a member with Manage Server can change that with"
        " /ttr admin config)."
    ),
    "analysis_busy": N_("This game's analysis is being made right now; it follows shortly."),
    "hint_timeout": N_(
        "The coach is busy right now; ask again in a moment (this hint was not counted)."
    ),
    # privacy: servers that removed the bot, forgetting a player
    "game_paused": N_(
        "This game is paused: its server removed the bot. It goes on if the bot is invited back."
    ),
    "not_your_button": N_("This button belongs to someone else."),
    "forget_open_games": NN_(
        "You still play in game {games}: leave or resign there first (or let it finish), "
        "then ask again.",
        "You still play in games {games}: leave or resign there first (or let them finish), "
        "then ask again.",
        "count",
    ),
    # cogs and menus: wrong input names the choices that exist
    "wrong_channel": N_("This belongs to a game in another channel: {channel}."),
    "unknown_component": N_(
        "This button is not one of this bot's current buttons. Use /ttr hand for a fresh menu."
    ),
    "bad_game_id": N_(
        "This button names a game that cannot exist. Use /ttr hand for a fresh menu."
    ),
    "bad_choice": N_("That choice is not on the menu. Use /ttr hand for a fresh menu."),
    "bad_draw": N_(
        "That card cannot be drawn now. You can draw from: {slots} (face-up slots), deck: {deck}."
    ),
    "bad_draw_source": N_("Draw from one of: {choices}."),
    "bad_route": NN_(
        "That route cannot be claimed now; you can pay for {routes} route. Use the Claim button to see it.",
        "That route cannot be claimed now; you can pay for {routes} routes. Use the Claim button to see them.",
        "routes",
    ),
    "bad_payment": NN_(
        "There is no payment number {given}; there is only {choices} way to pay.",
        "There is no payment number {given}; choose one of the {choices} ways to pay.",
        "choices",
    ),
    "bad_station_city": NN_(
        "You cannot build a {station} there now; you can build in {cities} city.",
        "You cannot build a {station} there now; you can build in {cities} cities.",
        "cities",
    ),
    "bad_ticket_draw": NN_(
        "You cannot draw {tickets} that way now ({choices} way is possible).",
        "You cannot draw {tickets} that way now ({choices} ways are possible).",
        "choices",
    ),
    "bad_keep": N_("Keep between {min} and {max} of the offered {tickets}."),
    "cannot_claim": N_(
        "You cannot claim {route} now: it is taken, blocked, too long for your {pieces}, or your cards cannot pay for it."
    ),
    "cannot_build_station": N_(
        "You cannot build a {station} in {city} now: one stands there already, you have built all "
        "your {stations}, or your cards cannot pay for it."
    ),
    "no_such_payment": N_("Your cards cannot pay for it that way. Possible payments: {choices}."),
    "bad_mix_choice": N_("That mix is not possible. Possible mixes: {choices}."),
    "missing_permissions": NN_(
        "The bot cannot run a game here: it lacks the permission {permissions} in this channel. "
        "Ask an admin to grant it, then try again.",
        "The bot cannot run a game here: it lacks the permissions {permissions} in this channel. "
        "Ask an admin to grant them, then try again.",
        "missing",
    ),
    "bad_interval": N_("Choose a number of at least 1 (you gave {given})."),
    "follow_own_game": N_("You play in this game: its news reach you already."),
    "not_following": N_("You do not follow game {game}."),
    "no_table_role": N_(
        "This server has no role for players looking for a game yet. Someone with Manage Server "
        "names one with /ttr admin config table_role:."
    ),
    "role_not_manageable": N_(
        "The bot cannot give or take the role {role}: it needs the permission Manage Roles, and "
        "its own role must stand above {role}. Ask an admin to fix that."
    ),
    "tournament_not_found": N_("There is no such tournament here."),
    "no_tournament_here": N_(
        "There is no tournament in this channel. Name one with tournament:, or see /ttr tournament list."
    ),
    "tournament_started": N_("This tournament has started: sign-up is closed."),
    "tournament_joined_already": N_("You have already signed up for this tournament."),
    "tournament_not_joined": N_("You are not playing in this tournament."),
    "tournament_over": N_("This tournament is over."),
    "tournament_moved_on": N_("The tournament has moved on meanwhile. Look at the standings."),
    "tournament_bad_name": N_("A tournament needs a name of at most {max} characters."),
    "tournament_bad_format": N_("There is no such format. Formats: {choices}."),
    "tournament_bad_table": N_("The tables of these maps seat {min} to {max} players."),
    "tournament_pairs_only": N_("A round robin is played at tables of two."),
    "tournament_bad_rounds": N_("Only a Swiss tournament takes a number of rounds, at most {max}."),
    "tournament_few_players": N_("A tournament needs at least {min} players."),
}


#: How a yes/no fact of an error reads (``bad_draw``'s ``deck``: may the deck be drawn from).
_YES_NO = (N_("no"), N_("yes"))


def error_text(code: str, words: Words, detail: Mapping[str, Any] | None = None) -> str:
    """The sentence for error ``code`` in ``words``' language, with ``detail`` facts filled in
    (a count picks the sentence's plural form; yes/no facts are words, never ``True``).

    An unknown code gives a generic refusal that names the code (never a traceback).
    """
    entry = ERRORS.get(code)
    if entry is None:
        return words.t("That is not possible right now ({code}).", code=code)
    facts = {
        k: words.t(_YES_NO[v]) if isinstance(v, bool) else v
        for k, v in (detail or {}).items()
        if isinstance(k, str)
    }
    return words.text(entry, **facts)
