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

from bot.discord_app.client import TtrBot
from bot.host.services import Action, Event, GameServicePort, Outcome, ServiceError, TableView
from bot.host.services import events as ev_
from sentences import stories
from sentences import texts as fmt
from sentences.plan import planner_text
from words import Words

from . import _ids as ids
from . import _paid as paid
from . import _prompts as prompts
from ._announce import Announcer, Delivery
from ._base import Base, CogError
from ._components import Btn, components
from ._links import with_my_board
from ._panel_images import PanelImages
from ._publish import Publisher, delivery_note

log = logging.getLogger(__name__)

#: The draw sources ``/ttr draw source:`` accepts.
DRAW_SOURCES = ("deck", "1", "2", "3", "4", "5")


def private_lines(events: Sequence[Event], table: TableView, w: Words) -> list[str]:
    """What the mover got, from their own (unredacted) events: a blind card's colour, tickets kept."""
    out = []
    for ev in events:
        if isinstance(ev, ev_.CardDrawn) and ev.color:
            out.append(stories.card_drawn(ev.color, w))
        elif isinstance(ev, ev_.TicketsKept):
            out.append(w.n("You kept {count} {ticket}.", "You kept {count} {tickets}.", ev.kept))
        elif isinstance(ev, ev_.RouteClaimed):
            out.append(
                w.n(
                    "You claimed {route} for {count} point, paying {cards}.",
                    "You claimed {route} for {count} points, paying {cards}.",
                    ev.points,
                    route=stories.route_label(table.rules, ev.route, w),
                    cards=fmt.payment_text(ev.payment, w),
                )
            )
        elif isinstance(ev, ev_.TunnelAbandoned):
            out.append(w.t("You gave up the tunnel and took your cards back."))
        elif isinstance(ev, ev_.StationBuilt):
            out.append(
                w.t(
                    "You built a {station} in {city}.",
                    city=stories.city(table.rules, ev.city),
                )
            )
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
        self.panel_images = PanelImages(service)

    # ------------------------------------------------------------ moving
    async def act(
        self,
        interaction: discord.Interaction,
        table: TableView,
        action: Action,
        *,
        version: int | None,
    ) -> None:
        """Apply ``action`` for the clicking user, then answer privately: what happened and what
        is next. A click on a panel rewrites that panel (one private message per turn); a click
        on a public message or a command answers with a new private message."""
        await self.acknowledge(interaction)
        w = self.words(interaction, table)
        outcome = await self.service.play.act(
            table.game.id, interaction.user.id, action, expected_version=version
        )
        interaction.extras["committed"] = True
        note = await self.publish(outcome)
        fresh = await self.service.queries.table(table.game.id, interaction.user.id, plans=True)
        seat = table.seat if table.seat is not None else -1
        mine = [
            e for e in outcome.events if e.seat_of == seat and not isinstance(e, ev_.TurnStarted)
        ]
        lines = private_lines(mine, fresh, w)
        if told := delivery_note(note, w):
            lines.append(told)
        prompt, view = prompts.pending(fresh, w)
        going_on = fresh.menu is not None and fresh.menu.step != "turn"
        if going_on and prompt:
            lines.append(prompt)
        else:
            view = None
            if fresh.mine is not None and fresh.game.status == "active":
                if table.public is not None and table.public.phase == "play":
                    lines.append(w.t("Your turn is over."))
                lines.append(w.t("Your {cards}: {list}", list=fmt.cards_line(fresh.mine.hand, w)))
        files = await self.panel_images.after_move(interaction, fresh, w)
        await self.answer(
            interaction, "\n".join(lines or [w.t("Your move was made.")]), view, files=files
        )

    async def publish(self, outcome: Outcome) -> Delivery | None:
        """Post the turn message when a turn ended (or the game ended); None when nothing was posted."""
        if not outcome.turn_ended:
            return None
        return await self.publisher.turn(outcome.game.id, outcome.from_turn)

    async def stale(self, interaction: discord.Interaction, table: TableView) -> None:
        """A click made on an older version (an older panel of this turn, a turn message of
        before): nothing is played; the clicked panel becomes the current one (a public
        message's click gets it as a new private message)."""
        await self.acknowledge(interaction)
        w = self.words(interaction, table)
        prompt, view = prompts.pending(table, w) if table.menu is not None else ("", None)
        text = w.t("This menu is out of date; nothing was done.")
        if prompt:
            text += "\n" + w.t("Here is the current one:") + "\n" + prompt
        offer = self.panel_images.offer_open(table)
        files = [await self.panel_images.offer(interaction, table, w)] if offer else None
        await self.answer(interaction, text, view, files=files)

    # ------------------------------------------------------------ opening menus
    @ids.Hand.game_handler
    async def hand(self, interaction: discord.Interaction, game_id: int) -> None:
        """Private: cards, tickets (text and image) and the pending decision: on a fresh turn the
        turn panel (face-up cards, deck, Claim, {tickets:cap})."""
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
        menu = table.menu
        if menu is not None and menu.step in ("turn", "second_card") and menu.keep is None:
            prompt, view = prompts.panel(table, menu, w, cards=False)
        else:
            prompt, view = prompts.pending(table, w)
        if prompt:
            text += "\n\n" + prompt
        files = [await self.panel_images.hand(interaction, table, w)]
        if menu is not None and menu.keep is not None:
            files.append(await self.panel_images.offer(interaction, table, w))
        view = with_zoom(view, game_id, w)
        view = with_my_board(view, self.bot.settings, game_id, interaction.user.id, w)
        await self.reply(interaction, text, view=view, files=files)

    @ids.Draw.game_handler
    async def open_draw(self, interaction: discord.Interaction, game_id: int) -> None:
        """The turn panel (or the pending decision, when that must come first)."""
        await self.acknowledge(interaction)
        table = await self.read(interaction, game_id)
        self.need_turn(table)
        assert table.menu is not None
        w = self.words(interaction, table)
        if table.menu.step not in ("turn", "second_card"):
            text, view = prompts.pending(table, w)
        elif not (table.menu.draw_deck or table.menu.draw_slots):
            raise CogError("deck_empty")
        else:
            text, view = prompts.panel(table, table.menu, w)
        view = with_my_board(view, self.bot.settings, game_id, interaction.user.id, w)
        await self.answer(interaction, text, view)

    async def draw_now(self, interaction: discord.Interaction, game_id: int, source: str) -> None:
        """``/ttr draw source:``: the deck or face-up slot 1-5, at once."""
        table = await self.read(interaction, game_id)
        self.need_turn(table)
        assert table.menu is not None
        if source not in DRAW_SOURCES:
            raise CogError("bad_draw_source", {"choices": ", ".join(DRAW_SOURCES)})
        action = table.menu.draw(None if source == "deck" else int(source) - 1)
        await self.act(interaction, table, action, version=table.version)

    @ids.Claim.game_handler
    async def open_claim(
        self,
        interaction: discord.Interaction,
        game_id: int,
        route: str | None = None,
        color: str | None = None,
        locomotives: int | None = None,
    ) -> None:
        """The route picker; or (``route`` given) that route claimed at once when one payment
        fits (``color``/``locomotives`` narrow them), else the choice of payments."""
        await self._open_paid(interaction, game_id, route, color, locomotives, paid.CLAIMING)

    @ids.Station.game_handler
    async def open_station(
        self,
        interaction: discord.Interaction,
        game_id: int,
        city: str | None = None,
        color: str | None = None,
        locomotives: int | None = None,
    ) -> None:
        """Europe: the city picker of the next train station; or (``city`` given) the station
        built at once when one payment fits (``color``/``locomotives`` narrow them), else the
        choice of payments (as :meth:`open_claim`)."""
        await self._open_paid(interaction, game_id, city, color, locomotives, paid.BUILDING)

    async def _open_paid(
        self,
        interaction: discord.Interaction,
        game_id: int,
        name: str | None,
        color: str | None,
        locomotives: int | None,
        steps: paid.Steps,
    ) -> None:
        """What a claim and a train station share: on the seat's turn, the ``steps.picker`` when
        nothing is named; else the ``name``d route or city (``steps.named``: raises CogError when
        it cannot be had now) played (``steps.play``) at once when exactly one of its payments
        fits ``color`` (``locomotive``: only locomotives) and ``locomotives``, else the
        ``steps.pay_step`` with those payments. CogError ``no_such_payment`` when none fits."""
        await self.acknowledge(interaction)
        table = await self.read(interaction, game_id)
        self.need_turn(table)
        menu = table.menu
        assert menu is not None
        w = self.words(interaction, table)
        if menu.step != "turn":
            await self.answer(interaction, *prompts.pending(table, w))
            return
        if name is None:
            await self.answer(interaction, *steps.picker(table, menu, w))
            return
        named = steps.named(name, table, menu, w)
        allowed = paid.fitting(named, color, locomotives)
        if not allowed:
            raise CogError(
                "no_such_payment",
                {"choices": "; ".join(fmt.payment_text(p, w) for p in named.payments[:10])},
            )
        if len(allowed) == 1:
            action = steps.play(menu, named.index, allowed[0])
            await self.act(interaction, table, action, version=table.version)
            return
        prompt = steps.pay_step(table, menu, w, named.index, allowed[0], allowed)
        await self.answer(interaction, *prompt)

    @ids.Tickets.game_handler
    async def open_tickets(
        self,
        interaction: discord.Interaction,
        game_id: int,
        short: int | None = None,
        long: int | None = None,
    ) -> None:
        """Draw destination tickets at once (the choice of which to keep follows); Germany: the
        short/long mix first, unless one mix is possible or the command names it."""
        await self.acknowledge(interaction)
        table = await self.read(interaction, game_id)
        self.need_turn(table)
        menu = table.menu
        assert menu is not None
        w = self.words(interaction, table)
        if menu.step not in ("turn", "announce_mix"):
            await self.answer(interaction, *prompts.pending(table, w))
            return
        draws = menu.ticket_draws
        if short is not None or long is not None:
            wanted = tuple((d, n) for d, n in (("short", short or 0), ("long", long or 0)) if n)
            if wanted not in draws:
                raise CogError(
                    "bad_mix_choice",
                    {"choices": "; ".join(fmt.mix_text(m, w) for m in draws) or "-"},
                )
            action = menu.draw_tickets(draws.index(wanted))
            await self.act(interaction, table, action, version=table.version)
            return
        if len(draws) == 1:
            await self.act(interaction, table, menu.draw_tickets(0), version=table.version)
            return
        await self.answer(interaction, *prompts.ticket_draws(table, menu, w))

    # ------------------------------------------------------------ leaving the table
    async def resign(self, interaction: discord.Interaction, game_id: int) -> None:
        """Give up: the computer plays the seat on; the player can no longer win."""
        await self.defer(interaction)
        table = await self.read(interaction, game_id)
        self.need_seat(table)
        outcome = await self.service.play.resign(game_id, interaction.user.id)
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
        await self.service.play.vacation(game_id, interaction.user.id, days=days)
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
