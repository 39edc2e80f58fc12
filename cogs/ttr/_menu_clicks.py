"""Clicks on private menus: one method per kind (:mod:`._ids`), each answered from a fresh read.

Each method is its kind's handler (``@ids.DrawCard.handler``): :mod:`._clicks`
calls it with the click read from the id (a select's choices in ``chosen``).

Every menu click carries the game version its menu was made at. A click on
an older version changes nothing: it is answered with the current menu
(:meth:`~._play.PlayFlows.stale`: an older panel becomes the current one). A
current click either plays (through :meth:`~._play.PlayFlows.act`, which
rewrites the clicked panel) or shows the menu's next step by updating the
clicked message (a select changed: nothing was played). An index that is not
on the menu is refused by the service's :class:`~bot.host.services.TurnMenu` with
the choices that exist.
"""

from __future__ import annotations

import discord

from bot.discord_app.client import TtrBot
from bot.host.services import GameServicePort, TableView, TurnMenu

from . import _ids as ids
from . import _prompts as prompts
from ._announce import Announcer
from ._base import Base, CogError
from ._play import PlayFlows


class MenuClicks(Base):
    """The private menus' buttons and selects (the card draw, the claim steps, tickets,
    tunnels, French flags); ``play`` makes the moves."""

    def __init__(
        self, bot: TtrBot, service: GameServicePort, announcer: Announcer, play: PlayFlows
    ) -> None:
        super().__init__(bot, service, announcer)
        self.play = play

    async def _current(
        self, interaction: discord.Interaction, click: ids.MenuClick
    ) -> tuple[TableView, TurnMenu] | None:
        """The reader's table and menu when ``click`` was made on the current version; else
        None, after answering with the current menu. A click on the current turn message's
        cards by a seat that may not act now is refused with the reason (not your turn)."""
        table = await self.read(interaction, click.game)
        self.need_seat(table)
        if table.menu is None and click.version == table.version:
            self.need_turn(table)
        if table.menu is None or click.version != table.version:
            await self.play.stale(interaction, table)
            return None
        return table, table.menu

    # ------------------------------------------------------------ cards
    @ids.DrawCard.handler
    async def draw_card(self, interaction: discord.Interaction, click: ids.DrawCard) -> None:
        """Take the card from the deck or the face-up slot of ``click``."""
        if found := await self._current(interaction, click):
            table, menu = found
            await self.play.act(interaction, table, menu.draw(click.slot), version=table.version)

    # ------------------------------------------------------------ claiming a route
    @ids.RoutePage.handler
    async def route_page(self, interaction: discord.Interaction, click: ids.RoutePage) -> None:
        """Show another page of the route picker."""
        if found := await self._current(interaction, click):
            table, menu = found
            w = self.words(interaction, table)
            await self.update(interaction, *prompts.routes(table, menu, w, click.page))

    @ids.RoutePick.handler
    async def route_pick(self, interaction: discord.Interaction, click: ids.RoutePick) -> None:
        """A route was chosen (``click.chosen``: its index): claimed at once when one payment
        fits, else the choice of payments."""
        if found := await self._current(interaction, click):
            table, menu = found
            choice = menu.route(_one(click.chosen))
            if choice.single:
                await self.play.claim(interaction, table, menu, choice.index, 0)
                return
            w = self.words(interaction, table)
            await self.update(interaction, *prompts.payments(table, menu, w, choice.index))

    @ids.PaymentPick.handler
    async def payment_pick(self, interaction: discord.Interaction, click: ids.PaymentPick) -> None:
        """The payment select of older releases: the payment buttons, the chosen one first in
        colour (a button claims)."""
        if found := await self._current(interaction, click):
            table, menu = found
            w = self.words(interaction, table)
            chosen = click.chosen[0] if click.chosen else 0
            await self.update(interaction, *prompts.payments(table, menu, w, click.route, chosen))

    @ids.ClaimConfirm.handler
    async def claim_confirm(
        self, interaction: discord.Interaction, click: ids.ClaimConfirm
    ) -> None:
        """Claim the route paying the chosen way (a player who confirms claims: first Claim it)."""
        if found := await self._current(interaction, click):
            table, menu = found
            await self.play.claim(interaction, table, menu, click.route, click.payment)

    @ids.ClaimSure.handler
    async def claim_sure(self, interaction: discord.Interaction, click: ids.ClaimSure) -> None:
        """Claim it: the one more click of a player who confirms claims; the route is claimed."""
        if found := await self._current(interaction, click):
            table, menu = found
            action = menu.claim(click.route, click.payment)
            await self.play.act(interaction, table, action, version=table.version)

    @ids.ClaimCancel.handler
    async def claim_cancel(self, interaction: discord.Interaction, click: ids.ClaimCancel) -> None:
        """Leave a payment step (also a stale one: nothing is played either way): back to the
        turn panel while that turn's menu is current, so the player can still draw; else the
        message is closed."""
        table = await self.read(interaction, click.game)
        self.need_seat(table)
        w = self.words(interaction, table)
        text, view = w.t("Nothing was done."), None
        menu = table.menu
        if menu is not None and click.version == table.version and menu.step == "turn":
            prompt, view = prompts.panel(table, menu, w)
            text += "\n" + prompt
        await self.update(interaction, text, view)

    # ------------------------------------------------------------ building a train station
    @ids.StationPage.handler
    async def station_page(self, interaction: discord.Interaction, click: ids.StationPage) -> None:
        """Show another page of the station city picker."""
        if found := await self._current(interaction, click):
            table, menu = found
            w = self.words(interaction, table)
            await self.update(interaction, *prompts.stations(table, menu, w, click.page))

    @ids.StationPick.handler
    async def station_pick(self, interaction: discord.Interaction, click: ids.StationPick) -> None:
        """A city was chosen (``click.chosen``: its index): built at once when one payment
        fits (as a route picked from the claim list), else how to pay for the station."""
        if found := await self._current(interaction, click):
            table, menu = found
            choice = menu.station(_one(click.chosen))
            if len(choice.payments) == 1:
                action = menu.build_station(choice.index, 0)
                await self.play.act(interaction, table, action, version=table.version)
                return
            w = self.words(interaction, table)
            await self.update(interaction, *prompts.station_payments(table, menu, w, choice.index))

    @ids.StationConfirm.handler
    async def station_confirm(
        self, interaction: discord.Interaction, click: ids.StationConfirm
    ) -> None:
        """Build the train station paying the chosen way."""
        if found := await self._current(interaction, click):
            table, menu = found
            action = menu.build_station(click.city, click.payment)
            await self.play.act(interaction, table, action, version=table.version)

    # ------------------------------------------------------------ destination tickets
    @ids.TicketDraw.handler
    async def ticket_draw(self, interaction: discord.Interaction, click: ids.TicketDraw) -> None:
        """Draw destination tickets the allowed way of ``click``."""
        if found := await self._current(interaction, click):
            table, menu = found
            action = menu.draw_tickets(click.mix)
            await self.play.act(interaction, table, action, version=table.version)

    @ids.KeepPick.handler
    async def keep_pick(self, interaction: discord.Interaction, click: ids.KeepPick) -> None:
        """Tickets were chosen in the select: the Keep button now names them."""
        if found := await self._current(interaction, click):
            table, menu = found
            w = self.words(interaction, table)
            await self.update(
                interaction, *prompts.keep_tickets(table, menu, w, list(click.chosen))
            )

    @ids.Keep.handler
    async def keep(self, interaction: discord.Interaction, click: ids.Keep) -> None:
        """Keep the tickets named by ``click``."""
        if found := await self._current(interaction, click):
            table, menu = found
            action = menu.keep_tickets(click.tickets)
            await self.play.act(interaction, table, action, version=table.version)

    # ------------------------------------------------------------ tunnels and flags
    @ids.TunnelPay.handler
    async def tunnel_pay(self, interaction: discord.Interaction, click: ids.TunnelPay) -> None:
        """Pay the tunnel's extra cards the way of ``click``."""
        if found := await self._current(interaction, click):
            table, menu = found
            action = menu.pay_tunnel(click.payment)
            await self.play.act(interaction, table, action, version=table.version)

    @ids.TunnelGiveUp.handler
    async def tunnel_give_up(
        self, interaction: discord.Interaction, click: ids.TunnelGiveUp
    ) -> None:
        """Give the tunnel up and take the cards back."""
        if found := await self._current(interaction, click):
            table, menu = found
            await self.play.act(interaction, table, menu.pay_tunnel(None), version=table.version)

    @ids.Flag.handler
    async def flag(self, interaction: discord.Interaction, click: ids.Flag) -> None:
        """Paris: set the chosen card aside for a French flag, or none."""
        if found := await self._current(interaction, click):
            table, menu = found
            if click.card is not None and click.card >= len(menu.flag_colors):
                raise CogError("bad_choice", {"reason": f"no card {click.card}"})
            color = None if click.card is None else menu.flag_colors[click.card]
            await self.play.act(interaction, table, menu.keep_flag(color), version=table.version)


def _one(values: tuple[int, ...]) -> int:
    """The one value a single select sends (CogError ``bad_choice`` without one)."""
    if not values:
        raise CogError("bad_choice", {"reason": "nothing chosen"})
    return values[0]
