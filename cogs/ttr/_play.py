"""Play: the private hand, drawing cards, claiming routes, destination tickets, tunnels, flags, resigning.

Each click is answered within Discord's 3 s (a select is answered by
updating its message, a move by deferring first). A menu click carries the
version it was made at: a stale one is answered with the current menu and
changes nothing. After a move is committed the player always hears that it
was made, also when the table could not be updated.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord

from bot import send, stories
from bot.client import TtrBot
from bot.services import (
    Action,
    Event,
    GameServicePort,
    Outcome,
    ServiceError,
    TableView,
)
from bot.services import events as ev_
from words import Words

from . import _format as fmt
from . import _ids as ids
from . import _images as images
from . import _prompts as prompts
from ._announce import Announcer, Delivery
from ._base import Base, CogError, display_names
from ._components import Btn, components
from ._plan import planner_text
from ._publish import Publisher, delivery_note

log = logging.getLogger(__name__)

#: The draw sources ``/ttr draw source:`` accepts.
DRAW_SOURCES = ("deck", "1", "2", "3", "4", "5")


def private_lines(events: Sequence[Event], table: TableView, w: Words) -> list[str]:
    """What the mover got, from their own (unredacted) events: a blind card's colour, tickets kept."""
    out = []
    for ev in events:
        if isinstance(ev, ev_.CardDrawn) and ev.color == "locomotive":
            out.append(w.t("You drew a **{wild}**."))
        elif isinstance(ev, ev_.CardDrawn) and ev.color:
            out.append(w.t("You drew a **{color}** card.", color=w.color(ev.color)))
        elif isinstance(ev, ev_.TicketsKept):
            out.append(w.n("You kept {count} {ticket}.", "You kept {count} {tickets}.", ev.kept))
        elif isinstance(ev, ev_.RouteClaimed):
            out.append(
                w.n(
                    "You claimed {route} for {count} point.",
                    "You claimed {route} for {count} points.",
                    ev.points,
                    route=stories.route_label(table.rules, ev.route, w),
                )
            )
        elif isinstance(ev, ev_.TunnelAbandoned):
            out.append(w.t("You gave up the tunnel and took your cards back."))
        elif isinstance(ev, ev_.FlagScored):
            out.append(
                w.n(
                    "You completed a {flag}: +{count} point.",
                    "You completed a {flag}: +{count} points.",
                    ev.points,
                )
            )
    return out


def with_zoom(view: discord.ui.View | None, game_id: int, w: Words) -> discord.ui.View:
    """``view`` (or a new one) with a Zoom button: the board around the reader's tickets, privately
    (left out when the view is already full)."""
    zoom = Btn(w.t("Zoom"), ids.Zoom(game_id).custom_id)
    if view is None:
        return components([zoom])
    try:
        view.add_item(
            discord.ui.Button(label=zoom.label, custom_id=zoom.custom_id, style=zoom.style)
        )
    except ValueError:  # five full rows: the /ttr board region: option still zooms
        pass
    return view


class PlayFlows(Base):
    """The play commands and every private menu click."""

    def __init__(
        self, bot: TtrBot, service: GameServicePort, announcer: Announcer, publisher: Publisher
    ) -> None:
        super().__init__(bot, service, announcer)
        self.publisher = publisher

    # ------------------------------------------------------------ moving
    async def act(
        self,
        interaction: discord.Interaction,
        table: TableView,
        action: Action,
        *,
        version: int | None,
    ) -> None:
        """Apply ``action`` for the clicking user, then answer privately: what happened and what is next."""
        await self.defer(interaction)
        w = self.words(interaction, table)
        outcome = await self.service.act(
            table.game.id, interaction.user.id, action, expected_version=version
        )
        interaction.extras["committed"] = True
        note = await self.publish(outcome)
        fresh = await self.service.table(table.game.id, interaction.user.id)
        seat = table.seat if table.seat is not None else -1
        mine = [
            e for e in outcome.events if e.seat_of == seat and not isinstance(e, ev_.TurnStarted)
        ]
        lines = private_lines(mine, fresh, w) or [w.t("Your move was made.")]
        if note:
            lines.append(delivery_note(note, w))
        prompt, view = prompts.pending(fresh, w)
        if prompt and fresh.menu is not None and fresh.menu.step != "turn":
            lines.append(prompt)
        else:
            view = None
        await self.reply(interaction, "\n".join(lines), view=view)

    async def publish(self, outcome: Outcome) -> Delivery | None:
        """Post the turn message when a turn ended (or the game ended); None when nothing was posted."""
        if not outcome.turn_ended:
            return None
        return await self.publisher.turn(outcome.game.id, outcome.from_turn)

    async def stale(self, interaction: discord.Interaction, table: TableView) -> None:
        """A click on a menu of an older version: show the current one instead (nothing was done)."""
        w = self.words(interaction, table)
        prompt, view = prompts.pending(table, w) if table.menu is not None else ("", None)
        text = w.t("This menu is out of date; nothing was done.")
        if prompt:
            text += "\n" + w.t("Here is the current one:") + "\n" + prompt
        await self.reply(interaction, text, view=view)

    # ------------------------------------------------------------ opening menus
    async def hand(self, interaction: discord.Interaction, game_id: int) -> None:
        """Private: cards, tickets (text and image) and the pending decision."""
        await self.defer(interaction)
        table = await self.read(interaction, game_id, plans=True)
        self.need_seat(table)
        assert table.mine is not None
        w = self.words(interaction, table)
        text = fmt.hand_text(
            table.mine, table.rules, w, game_id=game_id, map_name=self.map_name(table, w)
        )
        if table.plans:
            text += "\n\n" + planner_text(w, table.plans, table.rules.board)
        prompt, view = prompts.pending(table, w)
        if prompt:
            text += "\n\n" + prompt
        settings = await self.service.user_settings(interaction.user.id)
        png = await images.hand_png(
            table.mine,
            display_names(table),
            w.lang,
            high_contrast=settings.high_contrast,
            plans=table.plans,
        )
        view = with_zoom(view, game_id, w)
        await self.reply(interaction, text, view=view, files=[self.png(png, "hand.png")])

    async def open_draw(self, interaction: discord.Interaction, game_id: int) -> None:
        """The card-draw menu (or the pending decision, when that must come first)."""
        await self.defer(interaction)
        table = await self.read(interaction, game_id)
        self.need_turn(table)
        assert table.menu is not None
        w = self.words(interaction, table)
        if table.menu.step not in ("turn", "second_card"):
            text, view = prompts.pending(table, w)
        elif not (table.menu.draw_deck or table.menu.draw_slots):
            raise CogError("deck_empty")
        else:
            text, view = prompts.draw(table, table.menu, w)
        await self.reply(interaction, text, view=view)

    async def draw_now(self, interaction: discord.Interaction, game_id: int, source: str) -> None:
        """``/ttr draw source:``: the deck or face-up slot 1-5, at once."""
        table = await self.read(interaction, game_id)
        self.need_turn(table)
        assert table.menu is not None
        if source not in DRAW_SOURCES:
            raise CogError("bad_draw_source", {"choices": ", ".join(DRAW_SOURCES)})
        action = table.menu.draw(None if source == "deck" else int(source) - 1)
        await self.act(interaction, table, action, version=table.version)

    async def open_claim(
        self,
        interaction: discord.Interaction,
        game_id: int,
        route: str | None = None,
        color: str | None = None,
        locomotives: int | None = None,
    ) -> None:
        """The route picker, or (``route`` given) the payment step for that route."""
        await self.defer(interaction)
        table = await self.read(interaction, game_id)
        self.need_turn(table)
        menu = table.menu
        assert menu is not None
        w = self.words(interaction, table)
        if menu.step != "turn":
            text, view = prompts.pending(table, w)
            await self.reply(interaction, text, view=view)
            return
        if route is None:
            text, view = prompts.routes(table, menu, w)
            await self.reply(interaction, text, view=view)
            return
        choice = next((c for c in menu.claims if c.route == route), None)
        if choice is None:
            raise CogError(
                "cannot_claim",
                {
                    "route": stories.route_label(table.rules, route, w)
                    if route in table.rules.board.routes
                    else send.echo(route)
                },
            )
        allowed = [
            i
            for i, p in enumerate(choice.payments)
            if (
                color is None
                or p.get(color, 0) > 0
                or (color == "locomotive" and set(p) == {"locomotive"})
            )
            and (locomotives is None or p.get("locomotive", 0) == locomotives)
        ]
        if not allowed:
            raise CogError(
                "no_such_payment",
                {"choices": "; ".join(fmt.payment_text(p, w) for p in choice.payments[:10])},
            )
        text, view = prompts.payments(table, menu, w, choice.index, allowed[0], allowed)
        await self.reply(interaction, text, view=view)

    async def open_tickets(
        self,
        interaction: discord.Interaction,
        game_id: int,
        short: int | None = None,
        long: int | None = None,
    ) -> None:
        """The ticket draw (Germany: with its short/long mix; given in the command, it is drawn at once)."""
        await self.defer(interaction)
        table = await self.read(interaction, game_id)
        self.need_turn(table)
        menu = table.menu
        assert menu is not None
        w = self.words(interaction, table)
        if menu.step not in ("turn", "announce_mix"):
            text, view = prompts.pending(table, w)
            await self.reply(interaction, text, view=view)
            return
        if short is not None or long is not None:
            wanted = tuple((d, n) for d, n in (("short", short or 0), ("long", long or 0)) if n)
            if wanted not in menu.ticket_draws:
                raise CogError(
                    "bad_mix_choice",
                    {"choices": "; ".join(fmt.mix_text(m, w) for m in menu.ticket_draws) or "-"},
                )
            await self.act(
                interaction,
                table,
                menu.draw_tickets(menu.ticket_draws.index(wanted)),
                version=table.version,
            )
            return
        text, view = prompts.ticket_draws(table, menu, w)
        await self.reply(interaction, text, view=view)

    # ------------------------------------------------------------ leaving the table
    async def resign(self, interaction: discord.Interaction, game_id: int) -> None:
        """Give up: the computer plays the seat on; the player can no longer win."""
        await self.defer(interaction)
        table = await self.read(interaction, game_id)
        self.need_seat(table)
        outcome = await self.service.resign(game_id, interaction.user.id)
        interaction.extras["committed"] = True
        tw = self.table_words(table)
        await self.publisher.notice(
            table,
            tw.t(
                "{player} resigned; the computer plays their seat to the end.",
                player=interaction.user.mention,
            ),
        )
        note = await self.publish(outcome)
        w = self.words(interaction, table)
        text = w.t(
            "You resigned from game {game}. The computer plays your seat; you cannot win it.",
            game=game_id,
        )
        if note:
            text += "\n" + delivery_note(note, w)
        await self.reply(interaction, text)

    async def vacation(self, interaction: discord.Interaction, game_id: int, days: int) -> None:
        """Pause the player's clock for ``days``."""
        await self.defer(interaction)
        table = await self.read(interaction, game_id)
        await self.service.vacation(game_id, interaction.user.id, days=days)
        interaction.extras["committed"] = True
        w = self.words(interaction, table)
        await self.reply(
            interaction,
            w.n(
                "Vacation set for {count} day: your turns wait for you.",
                "Vacation set for {count} days: your turns wait for you.",
                days,
            ),
        )


__all__ = ["DRAW_SOURCES", "PlayFlows", "ServiceError", "delivery_note", "private_lines"]
