"""Private menus: what the player must or may decide now, as text and components.

Every component carries ``(game, version, index)`` in its custom_id
(:mod:`._ids`, answered by :mod:`._clicks`), built from the service's :class:`~bot.services.TurnMenu`,
so a menu works after a restart and a stale one is recognised. Long lists
are paged (a select holds at most 25 options), never cut.
"""

from __future__ import annotations

import discord

from bot import stories
from bot.services import TableView, TurnMenu
from words import Words

from . import _format as fmt
from . import _ids as ids
from ._components import Btn, Pick, button_rows, components

PRIMARY = discord.ButtonStyle.primary
SUCCESS = discord.ButtonStyle.success
DANGER = discord.ButtonStyle.danger
SECONDARY = discord.ButtonStyle.secondary

Prompt = tuple[str, discord.ui.View | None]


def pending(table: TableView, w: Words) -> Prompt:
    """The decision the reader must make now (tickets, second card, tunnel, flag), or their turn's choices."""
    menu = table.menu
    if menu is None:
        return "", None
    if menu.keep is not None:
        return keep_tickets(table, menu, w, chosen=None)
    if menu.step == "announce_mix":
        return ticket_draws(table, menu, w)
    if menu.step == "second_card":
        return draw(table, menu, w)
    if menu.step == "tunnel" and menu.tunnel is not None:
        return tunnel(table, menu, w)
    if menu.step == "flag":
        return flag(table, menu, w)
    return turn_choices(table, menu, w)


def turn_choices(table: TableView, menu: TurnMenu, w: Words) -> Prompt:
    """It is the reader's turn: draw cards, claim a route or draw destination tickets."""
    g = table.game.id
    row = [
        Btn(
            w.t("Draw cards"),
            ids.Draw(g).custom_id,
            PRIMARY,
            disabled=not (menu.draw_deck or menu.draw_slots),
        ),
        Btn(w.t("Claim a route"), ids.Claim(g).custom_id, SUCCESS, disabled=not menu.claims),
        Btn(
            w.t("Draw {tickets}"),
            ids.Tickets(g).custom_id,
            SECONDARY,
            disabled=not menu.ticket_draws,
        ),
    ]
    return w.t("It is your turn: draw cards, claim a route or draw {tickets}."), components(row)


def draw(table: TableView, menu: TurnMenu, w: Words) -> Prompt:
    """Card draw buttons: the deck and each face-up card that may be taken now."""
    g, v = table.game.id, menu.version
    public = table.public
    assert public is not None
    buttons = []
    if menu.draw_deck:
        buttons.append(
            Btn(
                w.n("Deck ({count} card)", "Deck ({count} cards)", public.deck_size),
                ids.DrawCard(g, v).custom_id,
                PRIMARY,
            )
        )
    for slot in menu.draw_slots:
        color = public.face_up[slot]
        buttons.append(Btn(f"{slot + 1}: {w.color(color)}", ids.DrawCard(g, v, slot).custom_id))
    if menu.step == "second_card":
        text = w.t("Take your second card (a face-up {wild} is not allowed now):")
        if not (public.face_up and "locomotive" in public.face_up):
            text = w.t("Take your second card:")
    else:
        text = w.t("Draw a card: from the deck, or one of the face-up cards.")
    return text, components(*button_rows(buttons))


def routes(table: TableView, menu: TurnMenu, w: Words, page: int = 0) -> Prompt:
    """A select of the claimable routes, 25 per page, with page buttons when more fit."""
    g, v = table.game.id, menu.version
    if not menu.claims:
        return w.t("You cannot pay for any route right now."), None
    per = fmt.MAX_OPTIONS
    pages = (len(menu.claims) + per - 1) // per
    page = max(0, min(page, pages - 1))
    shown = menu.claims[page * per : (page + 1) * per]
    options = tuple(
        (stories.route_label(table.rules, c.route, w), str(c.index), False) for c in shown
    )
    rows: list[list[Btn] | Pick] = [
        Pick(ids.RoutePick(g, v, page).custom_id, options, placeholder=w.t("Choose a route"))
    ]
    if pages > 1:
        rows.append(
            [
                Btn("◀", ids.RoutePage(g, v, page - 1).custom_id, disabled=page == 0),
                Btn(
                    w.t("Page {page} of {pages}", page=page + 1, pages=pages),
                    ids.RoutePage(g, v, page).custom_id,
                    disabled=True,
                ),
                Btn("▶", ids.RoutePage(g, v, page + 1).custom_id, disabled=page >= pages - 1),
            ]
        )
    text = w.n(
        "You can claim {count} route now. Choose one (or type its name in /ttr claim):",
        "You can claim {count} routes now. Choose one (or type its name in /ttr claim):",
        len(menu.claims),
    )
    return text, components(*rows)


def payments(
    table: TableView,
    menu: TurnMenu,
    w: Words,
    index: int,
    chosen: int = 0,
    allowed: list[int] | None = None,
) -> Prompt:
    """How to pay for route ``index``: a select of the payments (``chosen`` preselected) and Confirm."""
    g, v = table.game.id, menu.version
    choice = menu.route(index)
    label = stories.route_label(table.rules, choice.route, w)
    positions = allowed if allowed is not None else list(range(len(choice.payments)))
    chosen = chosen if chosen in positions else positions[0]
    confirm = Btn(w.t("Confirm"), ids.ClaimConfirm(g, v, index, chosen).custom_id, SUCCESS)
    cancel = Btn(w.t("Cancel"), ids.ClaimCancel(g, v).custom_id)
    if len(positions) == 1:
        text = w.t(
            "Claim **{route}** paying {cards}?",
            route=label,
            cards=fmt.payment_text(choice.payments[chosen], w),
        )
        return text, components([confirm, cancel])
    options = tuple(
        (fmt.payment_text(choice.payments[p], w), str(p), p == chosen)
        for p in positions[: fmt.MAX_OPTIONS]
    )
    text = w.t("Choose how to pay for **{route}**, then confirm:", route=label)
    if len(positions) > fmt.MAX_OPTIONS:
        text += "\n" + w.n(
            "{count} way to pay is not listed: narrow it with /ttr claim color: locomotives:.",
            "{count} ways to pay are not listed: narrow them with /ttr claim color: locomotives:.",
            len(positions) - fmt.MAX_OPTIONS,
        )
    return text, components(
        Pick(ids.PaymentPick(g, v, index).custom_id, options), [confirm, cancel]
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
    """The offered tickets: a select (all preselected), and Keep with the choice in its custom_id."""
    keep = menu.keep
    assert keep is not None
    g, v = table.game.id, menu.version
    picked = list(range(len(keep.offer))) if chosen is None else sorted(set(chosen))
    options = tuple(
        (fmt.ticket_text(table.rules, t, w), str(i), i in picked) for i, t in enumerate(keep.offer)
    )
    lines = [
        w.n(
            "Choose the {tickets} to keep (at least {count}):",
            "Choose the {tickets} to keep (at least {count}):",
            keep.least,
        )
    ]
    lines += ["• " + label for label, _, _ in options]
    keep_button = Btn(
        w.n("Keep {count} {ticket}", "Keep {count} {tickets}", len(picked)),
        ids.Keep(g, v, tuple(picked)).custom_id,
        SUCCESS,
        disabled=len(picked) < keep.least,
    )
    select = Pick(ids.KeepPick(g, v).custom_id, options, least=keep.least, most=keep.most)
    return "\n".join(lines), components(select, [keep_button])


def tunnel(table: TableView, menu: TurnMenu, w: Words) -> Prompt:
    """The tunnel's three revealed cards, the exact extra cost, and the ways to pay or give up."""
    t = menu.tunnel
    assert t is not None
    g, v = table.game.id, menu.version
    revealed = ", ".join(w.color(c) for c in t.revealed) or w.t("none")
    text = w.n(
        "Tunnel **{route}**: the revealed cards are {revealed}. You must pay {count} more card or give up the tunnel.",
        "Tunnel **{route}**: the revealed cards are {revealed}. You must pay {count} more cards or give up the tunnel.",
        t.extra,
        route=stories.route_label(table.rules, t.route, w),
        revealed=revealed,
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
