"""English and German words of the bot: error codes, UI strings, map words, command names.

Only this module turns codes into sentences. ``t(key, locale, **facts)`` picks
the language from a Discord locale (``de`` -> German, anything else ->
English); ``{pieces}``, ``{tickets}``... come from the map's own words
(``rules.meta["words"]``): Waggons, Fuhrwerke, Busse; Zielkarten, Vertragskarten.
"""

from __future__ import annotations

import logging
import string
from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands

log = logging.getLogger(__name__)

LANGS = ("en", "de")

#: Error codes of the engine (IllegalAction, SetupError) and the service.
ERRORS: dict[str, tuple[str, str]] = {
    # engine
    "not_your_turn": ("It is not your turn.", "Du bist nicht am Zug."),
    "route_taken": ("That route is already taken.", "Diese Strecke ist schon belegt."),
    "double_route_locked": (
        "With fewer than {min_players} players only one track of a double route may be used.",
        "Bei weniger als {min_players} Spielern darf nur ein Gleis einer Doppelstrecke belegt werden.",
    ),
    "double_route_own": (
        "You already own the other track of this route.",
        "Dir gehört schon das andere Gleis dieser Strecke.",
    ),
    "cannot_pay": (
        "Those cards cannot pay for this route.",
        "Mit diesen Karten kannst du diese Strecke nicht bezahlen.",
    ),
    "cannot_pay_tunnel": (
        "You cannot pay the tunnel's extra cards.",
        "Du kannst die zusätzlichen Tunnelkarten nicht bezahlen.",
    ),
    "cards_not_in_hand": (
        "You do not hold those cards.",
        "Diese Karten hast du nicht auf der Hand.",
    ),
    "not_enough_pieces": (
        "You have too few {pieces} left for this route.",
        "Du hast zu wenige {pieces} für diese Strecke.",
    ),
    "must_keep_at_least": ("Keep at least {min} {tickets}.", "Behalte mindestens {min} {tickets}."),
    "ticket_not_offered": (
        "Those {tickets} were not offered to you.",
        "Diese {tickets} wurden dir nicht angeboten.",
    ),
    "nothing_to_keep": (
        "You have no {tickets} to choose from.",
        "Du hast keine {tickets} zur Auswahl.",
    ),
    "locomotive_second": (
        "A face-up {wild} cannot be your second card.",
        "Eine offene {wild} darf nicht deine zweite Karte sein.",
    ),
    "bad_slot": (
        "There is no card in that face-up slot.",
        "An dieser Stelle liegt keine offene Karte.",
    ),
    "deck_empty": ("The deck is empty.", "Der Stapel ist leer."),
    "no_tickets_left": ("No {tickets} are left.", "Es sind keine {tickets} mehr übrig."),
    "bad_mix": (
        "That mix of {tickets} is not allowed.",
        "Diese Mischung von {tickets} ist nicht erlaubt.",
    ),
    "bad_mix_total": ("Draw exactly {expected} {tickets}.", "Ziehe genau {expected} {tickets}."),
    "mix_unavailable": (
        "Not enough {tickets} are left in that pile.",
        "In diesem Stapel sind nicht mehr genug {tickets}.",
    ),
    "wrong_step": (
        "That is not possible right now: finish your current choice first.",
        "Das geht gerade nicht: triff zuerst deine offene Entscheidung.",
    ),
    "game_over": ("This game is over.", "Dieses Spiel ist vorbei."),
    "unknown_route": ("There is no such route.", "Diese Strecke gibt es nicht."),
    "unknown_seat": ("You are not in this game.", "Du spielst in diesem Spiel nicht mit."),
    "waiting_for_players": (
        "Waiting for the other players to choose their {tickets}.",
        "Warte, bis die anderen ihre {tickets} gewählt haben.",
    ),
    "setup_tickets_first": ("First choose your {tickets}.", "Wähle zuerst deine {tickets}."),
    "cannot_pass": (
        "You still have a move; passing is not allowed.",
        "Du hast noch einen Zug; passen ist nicht erlaubt.",
    ),
    "malformed_action": ("That action is not understood.", "Diese Aktion ist ungültig."),
    "flag_color_not_allowed": (
        "You cannot set aside that colour.",
        "Diese Farbe kannst du nicht beiseitelegen.",
    ),
    "player_count": (
        "This map is for {min} to {max} players.",
        "Diese Karte ist für {min} bis {max} Spieler.",
    ),
    "bad_option": (
        "That option is not available for this map.",
        "Diese Option gibt es für diese Karte nicht.",
    ),
    # service / storage
    "no_game": (
        "There is no game in this channel. Start one with /ttr new.",
        "In diesem Kanal läuft kein Spiel. Starte eins mit /ttr new.",
    ),
    "game_not_found": ("That game no longer exists.", "Dieses Spiel gibt es nicht mehr."),
    "channel_busy": (
        "This channel already has a game. Finish or cancel it first.",
        "In diesem Kanal läuft schon ein Spiel. Beende oder storniere es zuerst.",
    ),
    "not_in_game": ("You are not in this game.", "Du spielst in diesem Spiel nicht mit."),
    "not_a_player": ("You are not in this game.", "Du spielst in diesem Spiel nicht mit."),
    "already_joined": ("You have already joined.", "Du bist schon dabei."),
    "seat_taken": ("You have already joined.", "Du bist schon dabei."),
    "game_full": ("The game is full.", "Das Spiel ist voll."),
    "lobby_full": ("The game is full.", "Das Spiel ist voll."),
    "not_host": ("Only the host can do that.", "Nur der Gastgeber kann das."),
    "not_allowed": ("You are not allowed to do that.", "Das darfst du nicht."),
    "host_cannot_leave": (
        "The host cannot leave; cancel the game instead.",
        "Der Gastgeber kann nicht gehen; storniere stattdessen das Spiel.",
    ),
    "not_enough_players": (
        "At least {min} players are needed.",
        "Es werden mindestens {min} Spieler gebraucht.",
    ),
    "too_many_players": (
        "At most {max} players can play.",
        "Höchstens {max} Spieler können mitspielen.",
    ),
    "already_started": ("The game has already started.", "Das Spiel hat schon begonnen."),
    "not_started": ("The game has not started yet.", "Das Spiel hat noch nicht begonnen."),
    "not_lobby": ("The game has already started.", "Das Spiel hat schon begonnen."),
    "not_running": ("The game is not running.", "Das Spiel läuft nicht."),
    "game_finished": ("This game is over.", "Dieses Spiel ist vorbei."),
    "wrong_status": (
        "That is not possible at this stage of the game.",
        "Das geht in diesem Spielabschnitt nicht.",
    ),
    "stale": (
        "This button is out of date; open a fresh one.",
        "Dieser Knopf ist veraltet; öffne einen neuen.",
    ),
    "stale_version": (
        "This button is out of date; open a fresh one.",
        "Dieser Knopf ist veraltet; öffne einen neuen.",
    ),
    "version_conflict": (
        "Someone acted at the same moment; try again.",
        "Gleichzeitig hat jemand gehandelt; versuche es erneut.",
    ),
    "unknown_map": ("There is no such map.", "Diese Karte gibt es nicht."),
    "bad_turn_time": ("That turn time is not available.", "Diese Zugzeit gibt es nicht."),
    "bad_days": ("Choose between {min} and {max} days.", "Wähle zwischen {min} und {max} Tagen."),
    "vacation_limit": ("You have no vacation days left.", "Du hast keine Urlaubstage mehr."),
    "is_ai": ("That seat is played by the computer.", "Dieser Platz wird vom Computer gespielt."),
}

#: UI strings.
UI: dict[str, tuple[str, str]] = {
    "nothing_changed": (
        "Something went wrong on our side; nothing was changed. (game {game})",
        "Bei uns ist etwas schiefgelaufen; es wurde nichts geändert. (Spiel {game})",
    ),
    "not_for_you": ("This is not for you.", "Das ist nicht für dich."),
    "not_in_game": ("You are not in this game.", "Du spielst in diesem Spiel nicht mit."),
    "not_your_turn": ("It is not your turn.", "Du bist nicht am Zug."),
    "lobby_opened": (
        "{host} opened a game of **{map}** (turn time {turn_time}). Join with /ttr join or the button. Players: {players}",
        "{host} hat ein Spiel **{map}** eröffnet (Zugzeit {turn_time}). Mitspielen mit /ttr join oder dem Knopf. Spieler: {players}",
    ),
    "lobby_players": (
        "Game {game} on **{map}**. Players: {players}",
        "Spiel {game} auf **{map}**. Spieler: {players}",
    ),
    "joined": ("{user} joined. Players: {players}", "{user} ist dabei. Spieler: {players}"),
    "left": ("{user} left. Players: {players}", "{user} ist gegangen. Spieler: {players}"),
    "ai_added": (
        "A computer player joined. Players: {players}",
        "Ein Computerspieler ist dabei. Spieler: {players}",
    ),
    "cancelled": ("The game was cancelled.", "Das Spiel wurde abgebrochen."),
    "started": (
        "The game on **{map}** has started! Everyone: choose your {tickets} with /ttr hand or the button.",
        "Das Spiel auf **{map}** hat begonnen! Alle: wählt eure {tickets} mit /ttr hand oder dem Knopf.",
    ),
    "your_turn": ("{user}, it is your turn.", "{user}, du bist am Zug."),
    "waiting_setup": (
        "Waiting for {users} to choose {tickets}.",
        "Warte auf {users}: {tickets} wählen.",
    ),
    "last_round": (
        "**Last round!** {user} has 2 or fewer {pieces} left.",
        "**Letzte Runde!** {user} hat höchstens 2 {pieces} übrig.",
    ),
    "game_over": ("**Game over.** Winner: {winners}", "**Spielende.** Gewinner: {winners}"),
    "score_line": (
        "{rank}. {player}: {score} points ({breakdown})",
        "{rank}. {player}: {score} Punkte ({breakdown})",
    ),
    "move_draw_blind": (
        "{player} drew a card from the deck.",
        "{player} hat eine Karte vom Stapel gezogen.",
    ),
    "move_draw_face_up": (
        "{player} took a face-up {color} card.",
        "{player} hat eine offene Karte ({color}) genommen.",
    ),
    "move_claim": (
        "{player} claimed {route} ({length}) for {points} points.",
        "{player} hat {route} ({length}) für {points} Punkte gebaut.",
    ),
    "move_tickets": ("{player} drew {tickets}.", "{player} hat {tickets} gezogen."),
    "move_keep": ("{player} kept {count} {tickets}.", "{player} hat {count} {tickets} behalten."),
    "move_tunnel": ("{player} is building a tunnel.", "{player} baut einen Tunnel."),
    "move_pass": ("{player} passed.", "{player} hat gepasst."),
    "move_other": ("{player} moved.", "{player} hat gezogen."),
    "hand_title": ("Your hand (game {game}, **{map}**)", "Deine Hand (Spiel {game}, **{map}**)"),
    "hand_cards": ("{cards}: {hand}", "{cards}: {hand}"),
    "hand_pieces": ("{pieces} left: {count}", "{pieces} übrig: {count}"),
    "hand_tickets": ("Your {tickets}:", "Deine {tickets}:"),
    "ticket_line": ("{a} – {b} ({points}){done}", "{a} – {b} ({points}){done}"),
    "ticket_done": (" ✅ done", " ✅ erfüllt"),
    "no_tickets": ("none yet", "noch keine"),
    "choose_tickets": (
        "Choose the {tickets} to keep (at least {min}):",
        "Wähle die {tickets}, die du behältst (mindestens {min}):",
    ),
    "keep_button": ("Keep selected", "Auswahl behalten"),
    "kept": ("Kept {count} {tickets}.", "{count} {tickets} behalten."),
    "second_card": ("Take your second card:", "Nimm deine zweite Karte:"),
    "drew_card": ("You drew: **{color}**.", "Du hast gezogen: **{color}**."),
    "draw_deck": ("Deck", "Stapel"),
    "tunnel_prompt": (
        "Tunnel: the revealed cards demand {extra} more card(s). Pay or give up.",
        "Tunnel: die aufgedeckten Karten verlangen {extra} weitere Karte(n). Bezahle oder gib auf.",
    ),
    "tunnel_abandon": ("Give up", "Aufgeben"),
    "flag_prompt": ("Set aside one card for a flag?", "Eine Karte für eine Flagge beiseitelegen?"),
    "flag_decline": ("No flag", "Keine Flagge"),
    "claim_confirm": ("Claim **{route}** paying {payment}?", "**{route}** mit {payment} bauen?"),
    "claim_choose": ("Choose how to pay for **{route}**:", "Wähle, wie du **{route}** bezahlst:"),
    "confirm": ("Confirm", "Bestätigen"),
    "cancel": ("Cancel", "Abbrechen"),
    "cancelled_choice": ("Nothing was done.", "Es wurde nichts getan."),
    "claim_pick_route": (
        "Use /ttr claim and pick a route; you can pay for these now: {routes}",
        "Nutze /ttr claim und wähle eine Strecke; bezahlen kannst du gerade: {routes}",
    ),
    "claim_none": (
        "You cannot pay for any route right now.",
        "Du kannst gerade keine Strecke bezahlen.",
    ),
    "tickets_prompt": ("Draw {tickets}?", "{tickets} ziehen?"),
    "draw_tickets_button": ("Draw {tickets}", "{tickets} ziehen"),
    "done": ("Done.", "Erledigt."),
    "btn_hand": ("My hand", "Meine Hand"),
    "btn_draw": ("Draw", "Ziehen"),
    "btn_claim": ("Claim", "Bauen"),
    "btn_tickets": ("Tickets", "Ziele"),
    "btn_board": ("Board", "Spielplan"),
    "btn_join": ("Join", "Mitspielen"),
    "btn_start": ("Start", "Starten"),
    "status": (
        "Game {game} on **{map}**, {status}. Turn {turn}. {active}",
        "Spiel {game} auf **{map}**, {status}. Zug {turn}. {active}",
    ),
    "status_player": (
        "{player}: {score} points, {pieces_n} {pieces}, {cards_n} cards, {tickets_n} {tickets}",
        "{player}: {score} Punkte, {pieces_n} {pieces}, {cards_n} Karten, {tickets_n} {tickets}",
    ),
    "log_empty": ("No moves yet.", "Noch keine Züge."),
    "maps_line": ("**{name}** (`{id}`){provisional}", "**{name}** (`{id}`){provisional}"),
    "provisional": (" – provisional board: {notes}", " – vorläufiger Spielplan: {notes}"),
    "mygames_none": ("You are in no open games.", "Du spielst in keinem offenen Spiel."),
    "mygames_line": (
        "Game {game} on **{map}** in {channel}: {status}{turn}",
        "Spiel {game} auf **{map}** in {channel}: {status}{turn}",
    ),
    "your_move": (" – your move!", " – du bist dran!"),
    "stats": (
        "{user}: {played} games, {won} won, best score {best}.",
        "{user}: {played} Spiele, {won} gewonnen, beste Punktzahl {best}.",
    ),
    "leaderboard_empty": ("No finished games yet.", "Noch keine beendeten Spiele."),
    "leaderboard_line": (
        "{rank}. {user}: {won} wins in {played} games",
        "{rank}. {user}: {won} Siege in {played} Spielen",
    ),
    "clock": (
        "The turn clock runs out {when}; then the computer plays the turn.",
        "Die Zugzeit endet {when}; dann spielt der Computer den Zug.",
    ),
    "reminder": (
        "{users}: half of your turn time is gone (game {game}). Open /ttr hand to move.",
        "{users}: die Hälfte deiner Zugzeit ist um (Spiel {game}). Öffne /ttr hand für deinen Zug.",
    ),
    "vacation_set": (
        "Vacation set for {days} day(s); your turns wait for you.",
        "Urlaub für {days} Tag(e) eingetragen; deine Züge warten.",
    ),
    "resigned": (
        "{user} resigned; a computer plays their seat.",
        "{user} hat aufgegeben; ein Computer übernimmt den Platz.",
    ),
    "ai_name": ("Computer {n}", "Computer {n}"),
}

COLORS: dict[str, tuple[str, str]] = {
    "pink": ("pink", "pink"),
    "purple": ("purple", "lila"),
    "white": ("white", "weiß"),
    "blue": ("blue", "blau"),
    "yellow": ("yellow", "gelb"),
    "orange": ("orange", "orange"),
    "black": ("black", "schwarz"),
    "red": ("red", "rot"),
    "green": ("green", "grün"),
    "gray": ("gray", "grau"),
    "brown": ("brown", "braun"),
}

DEFAULT_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "pieces": "trains",
        "piece": "train",
        "cards": "cards",
        "wild": "locomotive",
        "wilds": "locomotives",
        "tickets": "tickets",
        "ticket": "ticket",
    },
    "de": {
        "pieces": "Waggons",
        "piece": "Waggon",
        "cards": "Karten",
        "wild": "Lokomotive",
        "wilds": "Lokomotiven",
        "tickets": "Zielkarten",
        "ticket": "Zielkarte",
    },
}


def lang_of(locale: discord.Locale | str | None) -> str:
    """``"de"`` for any German locale, else ``"en"``."""
    value = str(getattr(locale, "value", locale) or "")
    return "de" if value.lower().startswith("de") else "en"


class _Facts(dict):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def words_for(meta: Mapping[str, Any] | None, lang: str) -> dict[str, str]:
    """The map's own words (``rules.meta["words"][lang]``) over the defaults."""
    out = dict(DEFAULT_WORDS[lang])
    if meta:
        out.update((meta.get("words") or {}).get(lang) or {})
    return out


def _render(
    template: str, lang: str, meta: Mapping[str, Any] | None, facts: Mapping[str, Any]
) -> str:
    values = _Facts(words_for(meta, lang))
    values.update(facts)
    return string.Formatter().vformat(template, (), values)


def t(
    key: str,
    locale: discord.Locale | str | None,
    *,
    meta: Mapping[str, Any] | None = None,
    **facts: Any,
) -> str:
    """The UI string ``key`` in the locale's language with the map's words and ``facts`` filled in."""
    lang = lang_of(locale)
    pair = UI.get(key) or ERRORS.get(key)
    if pair is None:
        log.warning("missing message %s", key)
        return key
    return _render(pair[LANGS.index(lang)], lang, meta, facts)


def error_text(
    code: str,
    locale: discord.Locale | str | None,
    *,
    meta: Mapping[str, Any] | None = None,
    detail: Mapping[str, Any] | None = None,
) -> str:
    """The sentence for an engine or service error ``code`` (unknown codes: a generic refusal)."""
    lang = lang_of(locale)
    pair = ERRORS.get(code)
    if pair is None:
        log.warning("no message for error code %s", code)
        pair = ("That is not possible right now ({code}).", "Das geht gerade nicht ({code}).")
        detail = {**(detail or {}), "code": code}
    return _render(pair[LANGS.index(lang)], lang, meta, dict(detail or {}))


def color_name(
    color: str, locale: discord.Locale | str | None, meta: Mapping[str, Any] | None = None
) -> str:
    """A card colour in the locale's language (the wild card by the map's own word)."""
    lang = lang_of(locale)
    if color == "locomotive":
        return words_for(meta, lang)["wild"]
    pair = COLORS.get(color)
    return pair[LANGS.index(lang)] if pair else color


def map_text(meta: Mapping[str, Any], field: str, locale: discord.Locale | str | None) -> str:
    """A per-language map field (``name``, ``rules_text``) in the locale's language (English fallback)."""
    value = meta.get(field) or {}
    if isinstance(value, Mapping):
        return str(value.get(lang_of(locale)) or value.get("en") or "")
    return str(value)


#: German command names and descriptions (keys are the English strings discord.py hands in).
GERMAN: dict[str, str] = {
    "ttr": "ttr",
    "Ticket to Ride: asynchronous games in this channel": "Zug um Zug: Partien in diesem Kanal",
    "Open a lobby for a new game in this channel": "Eröffne ein neues Spiel in diesem Kanal",
    "Join the game in this channel": "Tritt dem Spiel in diesem Kanal bei",
    "Leave the lobby in this channel": "Verlasse die Spielrunde in diesem Kanal",
    "Add a computer player (host)": "Füge einen Computerspieler hinzu (Gastgeber)",
    "Start the game (host)": "Starte das Spiel (Gastgeber)",
    "Cancel the game (host or Manage Channels)": "Brich das Spiel ab (Gastgeber oder Kanäle verwalten)",
    "Show your hand, tickets and pending choice (only you see it)": "Zeige deine Hand, Ziele und offene Wahl (nur für dich)",
    "Draw one card": "Ziehe eine Karte",
    "Claim a route": "Baue eine Strecke",
    "Draw destination tickets": "Ziehe Zielkarten",
    "Show the board": "Zeige den Spielplan",
    "Show the game status": "Zeige den Spielstand",
    "Show the last moves": "Zeige die letzten Züge",
    "Show the rules of a map": "Zeige die Regeln einer Karte",
    "List the maps": "Liste die Karten auf",
    "List your games": "Liste deine Spiele auf",
    "Show a player's statistics": "Zeige die Statistik eines Spielers",
    "Show the leaderboard": "Zeige die Bestenliste",
    "Take a vacation: your turns wait": "Mach Urlaub: deine Züge warten",
    "Resign: a computer plays your seat": "Gib auf: ein Computer übernimmt",
    "map": "karte",
    "The map to play": "Die Karte",
    "turn_time": "zugzeit",
    "Time per turn": "Zeit pro Zug",
    "tickets": "ziele",
    "Germany: ticket edition": "Deutschland: Ausgabe der Zielkarten",
    "source": "quelle",
    "Deck or face-up slot 1-5": "Stapel oder offene Karte 1-5",
    "route": "strecke",
    "The route to claim": "Die Strecke",
    "color": "farbe",
    "Colour to pay with": "Farbe zum Bezahlen",
    "locomotives": "lokomotiven",
    "Locomotives to use": "Einzusetzende Lokomotiven",
    "short": "kurz",
    "long": "lang",
    "Short tickets (Germany)": "Kurze Zielkarten (Deutschland)",
    "Long tickets (Germany)": "Lange Zielkarten (Deutschland)",
    "count": "anzahl",
    "How many moves": "Wie viele Züge",
    "user": "spieler",
    "The player": "Der Spieler",
    "days": "tage",
    "Number of days": "Anzahl Tage",
}


class Translator(app_commands.Translator):
    """German names and descriptions for the /ttr commands (everything else stays English)."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContext,
    ) -> str | None:
        if lang_of(locale) != "de":
            return None
        return GERMAN.get(string.message)
