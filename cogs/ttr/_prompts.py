"""Private menus: what the player must or may decide now, as text and components.

Every component carries ``(game, version, index)`` in its custom_id
(:mod:`._ids`, answered by :mod:`._clicks`), built from the service's :class:`~bot.host.services.TurnMenu`,
so a menu works after a restart and a stale one is recognised. Long lists
are paged (a select holds at most 25 options), never cut.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import discord

from bot.host.services import RouteChoice, StationChoice, TableView, TurnMenu
from sentences import stories
from sentences import texts as fmt
from words import Words

from . import _ids as ids
from ._components import Btn, Pick, button_rows, components

PRIMARY = discord.ButtonStyle.primary
SUCCESS = discord.ButtonStyle.success
DANGER = discord.ButtonStyle.danger
SECONDARY = discord.ButtonStyle.secondary

Prompt = tuple[str, discord.ui.View | None]
#: Payment buttons at most (three rows; the fourth holds Other route and Cancel).
MAX_PAY_BUTTONS = 15


def pending(table: TableView, w: Words) -> Prompt:
    """The decision the reader must make now (tickets, second card, tunnel, flag), or their
    turn's panel."""
    menu = table.menu
    if menu is None:
        return "", None
    if menu.keep is not None:
        return keep_tickets(table, menu, w, chosen=None)
    if menu.step == "announce_mix":
        return ticket_draws(table, menu, w)
    if menu.step == "tunnel" and menu.tunnel is not None:
        return tunnel(table, menu, w)
    if menu.step == "flag":
        return flag(table, menu, w)
    return panel(table, menu, w)


def card_buttons(
    table: TableView, w: Words, version: int, slots: Sequence[int] | None
) -> list[Btn]:
    """The face-up cards as buttons (symbol and name, so they read without colour): the
    ``slots`` that may be taken now, or (None) every slot, an empty one disabled."""
    public = table.public
    assert public is not None
    g = table.game.id
    shown = range(len(public.face_up)) if slots is None else slots
    out = []
    for slot in shown:
        color = public.face_up[slot]
        label = fmt.card_name(color, w) if color else "–"
        out.append(Btn(label, ids.DrawCard(g, version, slot).custom_id, disabled=color is None))
    return out


def deck_button(table: TableView, w: Words, version: int) -> Btn:
    """Take the deck's top card (blind); labelled with the count, or that the discards are
    shuffled for it (:func:`sentences.texts.deck_text`); disabled when deck and discards are
    both empty."""
    public = table.public
    assert public is not None
    return Btn(
        fmt.deck_text(public.deck_size, public.discard_size, w),
        ids.DrawCard(table.game.id, version).custom_id,
        PRIMARY,
        disabled=not (public.deck_size or public.discard_size),
    )


def panel(table: TableView, menu: TurnMenu, w: Words, *, cards: bool = True) -> Prompt:
    """The reader's turn panel, one private message that moves on in place: their cards (with
    ``cards``), the face-up cards and the deck to take now, and on a fresh turn Claim and
    {tickets:cap} under the same names as the turn message's buttons."""
    g, v = table.game.id, menu.version
    public, mine = table.public, table.mine
    assert public is not None
    lines = []
    if menu.step == "second_card":
        barred = "locomotive" in public.face_up and table.rules.params.face_up_wild_restricted
        lines.append(
            w.t("Take your second card (a face-up {wild} is not allowed now):")
            if barred
            else w.t("Take your second card:")
        )
    elif table.rules.params.stations is not None:
        lines.append(
            w.t(
                "**Your turn.** Take two cards, claim a route, draw {tickets} or build a {station}."
            )
        )
    else:
        lines.append(w.t("**Your turn.** Take two cards, claim a route or draw {tickets}."))
    if cards and mine is not None:
        lines.append(w.t("Your {cards}: {list}", list=fmt.cards_line(mine.hand, w)))
    rows: list[list[Btn] | Pick] = []
    face_up = card_buttons(table, w, v, menu.draw_slots)
    if face_up:
        rows.append(face_up)
    actions = [deck_button(table, w, v)] if menu.draw_deck else []
    if menu.step == "turn":
        actions.append(Btn(w.t("Claim"), ids.Claim(g).custom_id, SUCCESS, disabled=not menu.claims))
        actions.append(
            Btn(
                w.t("{tickets:cap}"),
                ids.Tickets(g).custom_id,
                SECONDARY,
                disabled=not menu.ticket_draws,
            )
        )
        if table.rules.params.stations is not None:
            actions.append(
                Btn(
                    w.t("{station:cap}"),
                    ids.Station(g).custom_id,
                    SECONDARY,
                    disabled=not menu.stations,
                )
            )
    if actions:
        rows.append(actions)
    if menu.step == "turn" and (why := station_reason(table, w)):
        lines.append(why)
    return "\n".join(lines), components(*rows) if rows else None


def hand_line(table: TableView, w: Words) -> list[str]:
    """The reader's cards as one line (``Your train cards: 2× ★ Locomotive · ...``), to head a
    private message of their turn so the hand is in view where the move is chosen; none
    for a reader without a seat."""
    if table.mine is None:
        return []
    return [w.t("Your {cards}: {list}", list=fmt.cards_line(table.mine.hand, w))]


def back_button(table: TableView, w: Words) -> Btn:
    """Back to the turn panel (the Draw button's id: the same click opens it), from the claim
    or station list, so a player who opened one can still draw."""
    return Btn(w.t("Back"), ids.Draw(table.game.id).custom_id)


def station_reason(table: TableView, w: Words) -> str | None:
    """Europe: why the reader cannot build a {station} now (none left, or the cards the next
    one costs: ``costs[built]`` of one colour, {wilds} as any; Europe rules digest, "Train
    stations"), or None when they can or the map has no stations."""
    params = table.rules.params.stations
    public = table.public
    if params is None or public is None or table.seat is None:
        return None
    left = fmt.stations_left(table.rules, public, table.seat)
    if left is None or (table.menu is not None and table.menu.stations):
        return None
    if left == 0:
        return w.t("You have no {stations} left.")
    cost = params.costs[min(params.count - left, len(params.costs) - 1)]
    return w.n(
        "The next {station} needs {count} card of one colour ({wilds} count as any).",
        "The next {station} needs {count} cards of one colour ({wilds} count as any).",
        cost,
    )


def _page_row(page_id: Callable[[int], str], page: int, pages: int, w: Words) -> list[Btn]:
    """The ◀ / "Page n of m" / ▶ row of a paged picker; ``page_id(p)`` is page ``p``'s
    custom id (0-based ``page`` of ``pages``)."""
    return [
        Btn("◀", page_id(page - 1), disabled=page == 0),
        Btn(
            w.t("Page {page} of {pages}", page=page + 1, pages=pages), page_id(page), disabled=True
        ),
        Btn("▶", page_id(page + 1), disabled=page >= pages - 1),
    ]


def routes(table: TableView, menu: TurnMenu, w: Words, page: int = 0) -> Prompt:
    """A select of the claimable routes, the ones on the reader's ticket plans first (★) and
    then the longest, 25 per page, with page buttons when more fit, their cards above it and
    Back to the turn panel. Picking a route that can be paid one way only claims it."""
    g, v = table.game.id, menu.version
    if not menu.claims:
        return w.t("You cannot pay for any route right now."), None
    per = fmt.MAX_OPTIONS
    pages = (len(menu.claims) + per - 1) // per
    page = max(0, min(page, pages - 1))
    shown = menu.claims[page * per : (page + 1) * per]
    rules = table.rules
    options = tuple(
        (("★ " if c.planned else "") + fmt.claim_label(rules, c, w), str(c.index), False)
        for c in shown
    )
    notes = tuple(_route_note(table, c, w) for c in shown)
    rows: list[list[Btn] | Pick] = [
        Pick(
            ids.RoutePick(g, v, page).custom_id,
            options,
            placeholder=w.t("Choose a route"),
            descriptions=notes,
        )
    ]
    if pages > 1:
        rows.append(_page_row(lambda p: ids.RoutePage(g, v, p).custom_id, page, pages, w))
    rows.append([back_button(table, w)])
    text = "".join(line + "\n" for line in hand_line(table, w))
    text += w.n(
        "You can claim {count} route now. Choose one (or type its name in /ttr claim):",
        "You can claim {count} routes now. Choose one (or type its name in /ttr claim):",
        len(menu.claims),
    )
    if any(c.planned for c in menu.claims):
        text += "\n" + w.t("★ on the way of one of your {tickets}, listed first; then the longest.")
    return text, components(*rows)


def _route_note(table: TableView, choice: RouteChoice, w: Words) -> str:
    """The second line of a route option: the ticket it serves, then the best payment (and
    how many ways there are), and for a tunnel the cards that payment keeps spare for its
    extra cards."""
    rules = table.rules
    parts = []
    if choice.serves:
        parts.append(w.t("for {ticket}", ticket=fmt.ticket_text(rules, choice.serves[0], w)))
    pay = fmt.payment_text(choice.payments[0], w)
    if choice.single:
        parts.append(w.t("pays {cards}", cards=pay))
    else:
        parts.append(
            w.n(
                "pays {cards} or {count} other way",
                "pays {cards} or {count} other ways",
                len(choice.payments) - 1,
                cards=pay,
            )
        )
    if choice.spares:
        parts.append(spare_note(choice.spares[0], w))
    return " · ".join(parts)


def spare_note(spare: int, w: Words) -> str:
    """``tunnel: 1 spare`` / ``tunnel: no spare card``: what a tunnel payment leaves in the hand
    to pay the extra cards the three revealed cards may ask for."""
    if not spare:
        return w.t("tunnel: no spare card")
    return w.n("tunnel: {count} spare", "tunnel: {count} spare", spare)


def _payment_step(
    table: TableView,
    menu: TurnMenu,
    w: Words,
    labels: Sequence[str],
    confirm: Callable[[int], str],
    other: Btn,
    text: str,
    chosen: int = 0,
    allowed: Sequence[int] | None = None,
) -> Prompt:
    """The payment step of a claim or a train station: one button per allowed payment
    (``labels[p]``, at most ``MAX_PAY_BUTTONS``; ``chosen`` highlighted) whose id is
    ``confirm(p)`` and which plays at once, then ``other`` (back to the picker) and Cancel;
    ``text`` above them."""
    positions = list(allowed) if allowed is not None else list(range(len(labels)))
    chosen = chosen if chosen in positions else positions[0]
    buttons = [
        Btn(labels[p], confirm(p), SUCCESS if p == chosen else SECONDARY)
        for p in positions[:MAX_PAY_BUTTONS]
    ]
    rows: list[list[Btn] | Pick] = list(button_rows(buttons))
    rows.append([other, Btn(w.t("Cancel"), ids.ClaimCancel(table.game.id, menu.version).custom_id)])
    return text, components(*rows)


def payments(
    table: TableView,
    menu: TurnMenu,
    w: Words,
    index: int,
    chosen: int = 0,
    allowed: Sequence[int] | None = None,
) -> Prompt:
    """How to pay for route ``index``: one button per payment (best first: fewest {wilds},
    sets kept together; ``chosen`` highlighted) that claims at once, Other route and Cancel."""
    g, v = table.game.id, menu.version
    choice = menu.route(index)
    differ = choice.tracks_differ
    labels = [
        fmt.payment_text(pay, w)
        + (f" → {stories.track_text(table.rules, choice.track(p), w)}" if differ else "")
        + (f" · {spare_note(choice.spares[p], w)}" if choice.spares else "")
        for p, pay in enumerate(choice.payments)
    ]
    text = w.t(
        "Claim **{route}**: choose how to pay (the first spends the fewest {wilds} and keeps your sets together).",
        route=fmt.claim_label(table.rules, choice, w),
    )
    return _payment_step(
        table,
        menu,
        w,
        labels,
        lambda p: ids.ClaimConfirm(g, v, choice.index, p).custom_id,
        Btn(w.t("Other route"), ids.RoutePage(g, v, 0).custom_id),
        text,
        chosen,
        allowed,
    )


def claim_sure(table: TableView, menu: TurnMenu, w: Words, index: int, payment: int) -> Prompt:
    """The one more click of a player who confirms claims: route ``index`` paid its
    ``payment``-th way, with Claim it and Cancel (nothing is played before Claim it)."""
    g, v = table.game.id, menu.version
    choice = menu.route(index)
    track = choice.track(payment) if choice.tracks_differ else choice.route
    text = w.t(
        "Claim **{route}** paying {cards}?",
        route=stories.route_label(table.rules, track, w),
        cards=fmt.payment_text(choice.payments[payment], w),
    )
    row = [
        Btn(w.t("Claim it"), ids.ClaimSure(g, v, choice.index, payment).custom_id, SUCCESS),
        Btn(w.t("Cancel"), ids.ClaimCancel(g, v).custom_id),
    ]
    return "\n".join([*hand_line(table, w), text]), components(row)


def station_label(table: TableView, choice: StationChoice, w: Words) -> str:
    """``Madrid (2 cards)``: a city where a station can be built, with its cost."""
    return w.n(
        "{city} ({count} card)",
        "{city} ({count} cards)",
        choice.cost,
        city=stories.city(table.rules, choice.city),
    )


def stations(table: TableView, menu: TurnMenu, w: Words, page: int = 0) -> Prompt:
    """Europe: a select of the cities where the reader can build a train station, 25 per page:
    their cards above it, the cities their ticket plan suggests first (★), and Back to the
    turn panel."""
    g, v = table.game.id, menu.version
    if not menu.stations:
        why = station_reason(table, w)
        return w.t("You cannot build a {station} right now.") + (f"\n{why}" if why else ""), None
    per = fmt.MAX_OPTIONS
    pages = (len(menu.stations) + per - 1) // per
    page = max(0, min(page, pages - 1))
    shown = menu.stations[page * per : (page + 1) * per]
    options = tuple(
        (("★ " if c.planned else "") + station_label(table, c, w), str(c.index), False)
        for c in shown
    )
    rows: list[list[Btn] | Pick] = [
        Pick(ids.StationPick(g, v, page).custom_id, options, placeholder=w.t("Choose a city"))
    ]
    if pages > 1:
        rows.append(_page_row(lambda p: ids.StationPage(g, v, p).custom_id, page, pages, w))
    rows.append([back_button(table, w)])
    text = "".join(line + "\n" for line in hand_line(table, w))
    text += w.n(
        "Your next {station} costs {count} card of one colour ({wilds} count as any). "
        "Choose its city (or type it in /ttr station):",
        "Your next {station} costs {count} cards of one colour ({wilds} count as any). "
        "Choose its city (or type it in /ttr station):",
        menu.stations[0].cost,
    )
    if any(c.planned for c in menu.stations):
        text += "\n" + w.t("★ where your ticket plan suggests a {station}, listed first.")
    return text, components(*rows)


def station_payments(
    table: TableView,
    menu: TurnMenu,
    w: Words,
    index: int,
    chosen: int = 0,
    allowed: Sequence[int] | None = None,
) -> Prompt:
    """How to pay for the train station in city ``index``: one button per payment (fewest
    {wilds} first; ``chosen`` highlighted) that builds at once, Other city and Cancel (as a
    claim's payment step, :func:`payments`)."""
    g, v = table.game.id, menu.version
    choice = menu.station(index)
    shown = len(allowed) if allowed is not None else len(choice.payments)
    text = w.t(
        "Build a {station} in **{city}**: choose how to pay (the first spends the fewest {wilds}).",
        city=stories.city(table.rules, choice.city),
    )
    if shown > MAX_PAY_BUTTONS:
        text += "\n" + w.n(
            "{count} way to pay is not listed: narrow it with /ttr station color:.",
            "{count} ways to pay are not listed: narrow them with /ttr station color:.",
            shown - MAX_PAY_BUTTONS,
        )
    return _payment_step(
        table,
        menu,
        w,
        [fmt.payment_text(pay, w) for pay in choice.payments],
        lambda p: ids.StationConfirm(g, v, choice.index, p).custom_id,
        Btn(w.t("Other city"), ids.StationPage(g, v, 0).custom_id),
        text,
        chosen,
        allowed,
    )


def ticket_draws(table: TableView, menu: TurnMenu, w: Words) -> Prompt:
    """Drawing destination tickets: one button, or (Germany) one per allowed short/long mix."""
    g, v = table.game.id, menu.version
    if not menu.ticket_draws:
        return w.t("No {tickets} are left."), None
    buttons = []
    for i, mix in enumerate(menu.ticket_draws):
        if mix:
            label = fmt.mix_text(mix, w)
        else:
            label = w.t("Draw {tickets}")
        buttons.append(Btn(label, ids.TicketDraw(g, v, i).custom_id, PRIMARY))
    if menu.step == "announce_mix" or menu.ticket_draws[0]:
        text = w.t("Choose how many short and long {tickets} to draw:")
    else:
        text = w.t("Draw {tickets}? You keep at least one of them.")
    return text, components(*button_rows(buttons[:25]))


def keep_tickets(table: TableView, menu: TurnMenu, w: Words, chosen: list[int] | None) -> Prompt:
    """The offered tickets, each with what it would still cost given the reader's network: a
    select (all preselected), and Keep with the choice in its custom_id."""
    keep = menu.keep
    assert keep is not None
    g, v = table.game.id, menu.version
    rules = table.rules
    picked = list(range(len(keep.offer))) if chosen is None else sorted(set(chosen))
    plans = {p.ticket: p for p in keep.plans}
    options = tuple(  # numbered as the offer's map numbers them
        (f"{i + 1}. {fmt.ticket_text(rules, t, w)}", str(i), i in picked)
        for i, t in enumerate(keep.offer)
    )
    notes = tuple(fmt.offer_cost(plans[t], w) if t in plans else "" for t in keep.offer)
    costs = [
        f"{label}: {note}" if note else label
        for (label, _, _), note in zip(options, notes, strict=True)
    ]
    lines = [
        w.n(
            "Choose which {tickets} to keep (at least {count}):",
            "Choose which {tickets} to keep (at least {count}):",
            keep.least,
        )
    ]
    lines += costs
    keep_button = Btn(
        w.n("Keep {count} {ticket}", "Keep {count} {tickets}", len(picked)),
        ids.Keep(g, v, tuple(picked)).custom_id,
        SUCCESS,
        disabled=len(picked) < keep.least,
    )
    select = Pick(
        ids.KeepPick(g, v).custom_id,
        options,
        least=keep.least,
        most=keep.most,
        descriptions=notes,
    )
    return "\n".join(lines), components(select, [keep_button])


def tunnel(table: TableView, menu: TurnMenu, w: Words) -> Prompt:
    """The tunnel's three revealed cards with the matches marked, the exact extra cost in its
    colour, and the ways to pay or give up."""
    t = menu.tunnel
    assert t is not None
    g, v = table.game.id, menu.version
    revealed = ", ".join(
        f"**{w.color(c)}**" if c == "locomotive" or c == t.color else w.color(c) for c in t.revealed
    ) or w.t("none")
    route = stories.route_label(table.rules, t.route, w)
    if t.color is None:
        owed = w.n("pay {count} more {wild}", "pay {count} more {wilds}", t.extra)
    else:
        owed = w.n(
            "pay {count} more {color} card or {wild}",
            "pay {count} more {color} cards or {wilds}",
            t.extra,
            color=w.color(t.color),
        )
    text = w.n(
        "Tunnel **{route}**: revealed {revealed}. {count} match: {owed}, or give up the tunnel.",
        "Tunnel **{route}**: revealed {revealed}. {count} match: {owed}, or give up the tunnel.",
        t.extra,
        route=route,
        revealed=revealed,
        owed=owed,
    )
    if not t.payments:
        text += "\n" + w.t("You cannot pay that: give up the tunnel and take your cards back.")
    buttons = [
        Btn(
            w.t("Pay {cards}", cards=fmt.payment_text(p, w)),
            ids.TunnelPay(g, v, i).custom_id,
            SUCCESS,
        )
        for i, p in enumerate(t.payments[:19])
    ]
    buttons.append(Btn(w.t("Give up the tunnel"), ids.TunnelGiveUp(g, v).custom_id, DANGER))
    return text, components(*button_rows(buttons))


def flag(table: TableView, menu: TurnMenu, w: Words) -> Prompt:
    """Paris: set aside one of the played cards for a French flag, or not."""
    g, v = table.game.id, menu.version
    buttons = [
        Btn(w.color(c), ids.Flag(g, v, i).custom_id, PRIMARY)
        for i, c in enumerate(menu.flag_colors)
    ]
    buttons.append(Btn(w.t("No flag card"), ids.Flag(g, v).custom_id))
    return w.t("Set one of the played cards aside for a {flag}?"), components(*button_rows(buttons))
