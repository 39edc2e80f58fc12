"""Clicks as classes: one :class:`discord.ui.DynamicItem` per kind of component, and one for every other id.

Each class's template is its kind's grammar in :mod:`._ids` (named groups:
``game``, ``version`` and the kind's own fields), so discord.py hands a click
to exactly one class, after any restart (as in discord.py's
``examples/views/dynamic_counter.py``). ``from_custom_id`` only keeps the
match; the callback reads the click's fields, loads the game fresh through
the /ttr cog's families and answers. Every error a click raises goes to the
one error funnel (:func:`bot.discord_app.tree.answer_error`), because discord.py only
logs exceptions of component callbacks.

:class:`OtherComponent` takes every id no kind matches: an older release's
menu id is rewritten (:func:`._ids.upgrade`) and answered by its kind's class;
a forged, oversize or unknown id gets a clear private error, never
"interaction failed".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import ClassVar, Self

import discord
from discord.ext import commands

from bot.discord_app.tree import answer_error
from bot.process import metrics

from . import _ids as ids
from ._base import CogError
from ._commands import TtrCog

Item = discord.ui.Item[discord.ui.View]


def ttr_cog(client: discord.Client) -> TtrCog:
    """The /ttr cog of the bot that received a click (RuntimeError when it is not loaded)."""
    cog = client.get_cog(TtrCog.__cog_name__) if isinstance(client, commands.Bot) else None
    if not isinstance(cog, TtrCog):
        raise RuntimeError("the /ttr cog is not loaded")
    return cog


def chosen(values: Sequence[str]) -> tuple[int, ...]:
    """A select's chosen values as indexes (CogError ``bad_choice`` for a forged value)."""
    try:
        return ids.positions(values)
    except ValueError:
        raise CogError("bad_choice", {"reason": "not an index"}) from None


class ClickItem(discord.ui.DynamicItem[Item], template=r"(?!)"):
    """What every kind shares: keep the match, answer through the cog, errors to the funnel.

    A subclass names its kind (``class HandButton(ClickItem, kind=ids.Hand)``: the kind's
    ``TEMPLATE`` is its template) and implements :meth:`answer`.
    """

    kind: ClassVar[type[ids.Click]] = ids.Click

    def __init_subclass__(
        cls, *, kind: type[ids.Click] | None = None, template: str | None = None
    ) -> None:
        super().__init_subclass__(template=template or (kind or ids.Click).TEMPLATE)
        cls.kind = kind or ids.Click

    def __init__(self, item: Item, match: re.Match[str]) -> None:
        super().__init__(item)
        self.match = match

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Item, match: re.Match[str], /
    ) -> Self:
        return cls(item, match)

    async def callback(self, interaction: discord.Interaction) -> None:
        interaction.extras.setdefault("game", self.match.groupdict().get("game") or "-")
        with metrics.interaction_timer("component"):
            try:
                await self.answer(
                    ttr_cog(interaction.client), interaction, self.match, self.values()
                )
            except Exception as exc:  # noqa: BLE001 - one funnel for every component error
                await answer_error(interaction, exc)

    def values(self) -> list[str]:
        """A select's chosen values (empty for a button)."""
        return list(self.item.values) if isinstance(self.item, discord.ui.Select) else []

    @staticmethod
    async def answer(
        cog: TtrCog, interaction: discord.Interaction, match: re.Match[str], values: Sequence[str]
    ) -> None:
        """Answer the click whose id gave ``match`` (``values``: a select's choices)."""
        raise NotImplementedError


# ====================================================================== public buttons
class HandButton(ClickItem, kind=ids.Hand):
    """My hand: cards, tickets and the pending choice, privately."""

    @staticmethod
    async def answer(
        cog: TtrCog, interaction: discord.Interaction, match: re.Match[str], values: Sequence[str]
    ) -> None:
        await cog.play.hand(interaction, ids.Hand.read(match).game)


class DrawButton(ClickItem, kind=ids.Draw):
    """Draw: the card-draw menu."""

    @staticmethod
    async def answer(
        cog: TtrCog, interaction: discord.Interaction, match: re.Match[str], values: Sequence[str]
    ) -> None:
        await cog.play.open_draw(interaction, ids.Draw.read(match).game)


class ClaimButton(ClickItem, kind=ids.Claim):
    """Claim: the route picker."""

    @staticmethod
    async def answer(
        cog: TtrCog, interaction: discord.Interaction, match: re.Match[str], values: Sequence[str]
    ) -> None:
        await cog.play.open_claim(interaction, ids.Claim.read(match).game)


class TicketsButton(ClickItem, kind=ids.Tickets):
    """Tickets: the destination ticket draw."""

    @staticmethod
    async def answer(
        cog: TtrCog, interaction: discord.Interaction, match: re.Match[str], values: Sequence[str]
    ) -> None:
        await cog.play.open_tickets(interaction, ids.Tickets.read(match).game)


class BoardButton(ClickItem, kind=ids.Board):
    """Board: the board image and the status, privately."""

    @staticmethod
    async def answer(
        cog: TtrCog, interaction: discord.Interaction, match: re.Match[str], values: Sequence[str]
    ) -> None:
        await cog.info.board(interaction, ids.Board.read(match).game)


class ZoomButton(ClickItem, kind=ids.Zoom):
    """Zoom: the board around the reader's ticket cities, privately."""

    @staticmethod
    async def answer(
        cog: TtrCog, interaction: discord.Interaction, match: re.Match[str], values: Sequence[str]
    ) -> None:
        await cog.info.board(interaction, ids.Zoom.read(match).game, "tickets")


class LogButton(ClickItem, kind=ids.Log):
    """Moves: the move log since the reader's last turn."""

    @staticmethod
    async def answer(
        cog: TtrCog, interaction: discord.Interaction, match: re.Match[str], values: Sequence[str]
    ) -> None:
        await cog.info.log(interaction, ids.Log.read(match).game, None)


class JoinButton(ClickItem, kind=ids.Join):
    """Join a lobby."""

    @staticmethod
    async def answer(
        cog: TtrCog, interaction: discord.Interaction, match: re.Match[str], values: Sequence[str]
    ) -> None:
        await cog.lobby_flows.join(interaction, ids.Join.read(match).game)


class StartButton(ClickItem, kind=ids.Start):
    """Start the game (the host)."""

    @staticmethod
    async def answer(
        cog: TtrCog, interaction: discord.Interaction, match: re.Match[str], values: Sequence[str]
    ) -> None:
        await cog.lobby_flows.start(interaction, ids.Start.read(match).game)


class RematchButton(ClickItem, kind=ids.Rematch):
    """Rematch: a new lobby with the same map and options."""

    @staticmethod
    async def answer(
        cog: TtrCog, interaction: discord.Interaction, match: re.Match[str], values: Sequence[str]
    ) -> None:
        await cog.lobby_flows.rematch(interaction, ids.Rematch.read(match).game)


class LogPageButton(ClickItem, kind=ids.LogPage):
    """A page of the move log."""

    @staticmethod
    async def answer(
        cog: TtrCog, interaction: discord.Interaction, match: re.Match[str], values: Sequence[str]
    ) -> None:
        click = ids.LogPage.read(match)
        await cog.info.log(interaction, click.game, None, page=(click.first, click.page))


# ====================================================================== private menus
class CardButton(ClickItem, kind=ids.DrawCard):
    """Take a card from the deck or a face-up slot."""

    @staticmethod
    async def answer(
        cog: TtrCog, interaction: discord.Interaction, match: re.Match[str], values: Sequence[str]
    ) -> None:
        await cog.menus.draw_card(interaction, ids.DrawCard.read(match))


class StationButton(ClickItem, kind=ids.Station):
    """Station (Europe): the city picker."""

    @staticmethod
    async def answer(
        cog: TtrCog, interaction: discord.Interaction, match: re.Match[str], values: Sequence[str]
    ) -> None:
        await cog.play.open_station(interaction, ids.Station.read(match).game)


class StationPageButton(ClickItem, kind=ids.StationPage):
    """Another page of the station city picker."""

    @staticmethod
    async def answer(
        cog: TtrCog, interaction: discord.Interaction, match: re.Match[str], values: Sequence[str]
    ) -> None:
        await cog.menus.station_page(interaction, ids.StationPage.read(match))


class StationSelect(ClickItem, kind=ids.StationPick):
    """A city chosen for a train station: its payment step."""

    @staticmethod
    async def answer(
        cog: TtrCog, interaction: discord.Interaction, match: re.Match[str], values: Sequence[str]
    ) -> None:
        await cog.menus.station_pick(interaction, ids.StationPick.read(match), chosen(values))


class ConfirmStationButton(ClickItem, kind=ids.StationConfirm):
    """Build the train station with the chosen payment."""

    @staticmethod
    async def answer(
        cog: TtrCog, interaction: discord.Interaction, match: re.Match[str], values: Sequence[str]
    ) -> None:
        await cog.menus.station_confirm(interaction, ids.StationConfirm.read(match))


class RoutePageButton(ClickItem, kind=ids.RoutePage):
    """Another page of the route picker."""

    @staticmethod
    async def answer(
        cog: TtrCog, interaction: discord.Interaction, match: re.Match[str], values: Sequence[str]
    ) -> None:
        await cog.menus.route_page(interaction, ids.RoutePage.read(match))


class RouteSelect(ClickItem, kind=ids.RoutePick):
    """A route chosen in the route picker: its payment step."""

    @staticmethod
    async def answer(
        cog: TtrCog, interaction: discord.Interaction, match: re.Match[str], values: Sequence[str]
    ) -> None:
        await cog.menus.route_pick(interaction, ids.RoutePick.read(match), chosen(values))


class PaymentSelect(ClickItem, kind=ids.PaymentPick):
    """A payment chosen for a route: the confirm step with it preselected."""

    @staticmethod
    async def answer(
        cog: TtrCog, interaction: discord.Interaction, match: re.Match[str], values: Sequence[str]
    ) -> None:
        await cog.menus.payment_pick(interaction, ids.PaymentPick.read(match), chosen(values))


class ConfirmClaimButton(ClickItem, kind=ids.ClaimConfirm):
    """Claim the route with the chosen payment."""

    @staticmethod
    async def answer(
        cog: TtrCog, interaction: discord.Interaction, match: re.Match[str], values: Sequence[str]
    ) -> None:
        await cog.menus.claim_confirm(interaction, ids.ClaimConfirm.read(match))


class CancelClaimButton(ClickItem, kind=ids.ClaimCancel):
    """Close the claim menu."""

    @staticmethod
    async def answer(
        cog: TtrCog, interaction: discord.Interaction, match: re.Match[str], values: Sequence[str]
    ) -> None:
        await cog.menus.claim_cancel(interaction, ids.ClaimCancel.read(match))


class TicketDrawButton(ClickItem, kind=ids.TicketDraw):
    """Draw destination tickets (Germany: one button per allowed mix)."""

    @staticmethod
    async def answer(
        cog: TtrCog, interaction: discord.Interaction, match: re.Match[str], values: Sequence[str]
    ) -> None:
        await cog.menus.ticket_draw(interaction, ids.TicketDraw.read(match))


class KeepSelect(ClickItem, kind=ids.KeepPick):
    """Tickets chosen in the keep select: the Keep button follows the choice."""

    @staticmethod
    async def answer(
        cog: TtrCog, interaction: discord.Interaction, match: re.Match[str], values: Sequence[str]
    ) -> None:
        await cog.menus.keep_pick(interaction, ids.KeepPick.read(match), chosen(values))


class KeepButton(ClickItem, kind=ids.Keep):
    """Keep the chosen tickets."""

    @staticmethod
    async def answer(
        cog: TtrCog, interaction: discord.Interaction, match: re.Match[str], values: Sequence[str]
    ) -> None:
        await cog.menus.keep(interaction, ids.Keep.read(match))


class TunnelPayButton(ClickItem, kind=ids.TunnelPay):
    """Pay the tunnel's extra cards one way."""

    @staticmethod
    async def answer(
        cog: TtrCog, interaction: discord.Interaction, match: re.Match[str], values: Sequence[str]
    ) -> None:
        await cog.menus.tunnel_pay(interaction, ids.TunnelPay.read(match))


class TunnelGiveUpButton(ClickItem, kind=ids.TunnelGiveUp):
    """Give the tunnel up."""

    @staticmethod
    async def answer(
        cog: TtrCog, interaction: discord.Interaction, match: re.Match[str], values: Sequence[str]
    ) -> None:
        await cog.menus.tunnel_give_up(interaction, ids.TunnelGiveUp.read(match))


class FlagButton(ClickItem, kind=ids.Flag):
    """Paris: a card set aside for a French flag, or none."""

    @staticmethod
    async def answer(
        cog: TtrCog, interaction: discord.Interaction, match: re.Match[str], values: Sequence[str]
    ) -> None:
        await cog.menus.flag(interaction, ids.Flag.read(match))


# ====================================================================== the coach
class HintButton(ClickItem, kind=ids.Hint):
    """A fresh hint."""

    @staticmethod
    async def answer(
        cog: TtrCog, interaction: discord.Interaction, match: re.Match[str], values: Sequence[str]
    ) -> None:
        await cog.coach.hint(interaction, ids.Hint.read(match).game)


class HintDoButton(ClickItem, kind=ids.HintDo):
    """Do it: confirm the hinted move."""

    @staticmethod
    async def answer(
        cog: TtrCog, interaction: discord.Interaction, match: re.Match[str], values: Sequence[str]
    ) -> None:
        await cog.coach.ask(interaction, ids.HintDo.read(match))


class HintConfirmButton(ClickItem, kind=ids.HintConfirm):
    """Play the hinted move."""

    @staticmethod
    async def answer(
        cog: TtrCog, interaction: discord.Interaction, match: re.Match[str], values: Sequence[str]
    ) -> None:
        await cog.coach.confirm(interaction, ids.HintConfirm.read(match))


class HintCancelButton(ClickItem, kind=ids.HintCancel):
    """Do not play the hinted move."""

    @staticmethod
    async def answer(
        cog: TtrCog, interaction: discord.Interaction, match: re.Match[str], values: Sequence[str]
    ) -> None:
        await cog.coach.cancel(interaction, ids.HintCancel.read(match))


# ====================================================================== a player's own data
class ForgetMeButton(ClickItem, kind=ids.ForgetMe):
    """The forgetting buttons of /ttr privacy: what would go, forget me, resign and leave first,
    or keep my data."""

    @staticmethod
    async def answer(
        cog: TtrCog, interaction: discord.Interaction, match: re.Match[str], values: Sequence[str]
    ) -> None:
        await cog.privacy.forget_click(interaction, ids.ForgetMe.read(match))


#: One class per kind of click, in the order of :data:`._ids.KINDS`.
KIND_ITEMS: tuple[type[ClickItem], ...] = (
    HandButton,
    DrawButton,
    ClaimButton,
    TicketsButton,
    BoardButton,
    ZoomButton,
    LogButton,
    JoinButton,
    StartButton,
    RematchButton,
    HintButton,
    CardButton,
    RoutePageButton,
    RouteSelect,
    PaymentSelect,
    ConfirmClaimButton,
    CancelClaimButton,
    StationButton,
    StationPageButton,
    StationSelect,
    ConfirmStationButton,
    TicketDrawButton,
    KeepSelect,
    KeepButton,
    TunnelPayButton,
    TunnelGiveUpButton,
    FlagButton,
    HintDoButton,
    HintConfirmButton,
    HintCancelButton,
    LogPageButton,
    ForgetMeButton,
)

#: Every id that no kind's template takes in full.
OTHER_TEMPLATE = r"(?s)(?!" + ids.any_template() + r"\Z).*"


class OtherComponent(ClickItem, template=OTHER_TEMPLATE):
    """An older release's menu id (answered as today's id by its kind's class), or an id that
    is not ours (BadComponentId: a private ``unknown_component`` / ``bad_game_id`` answer)."""

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            cog = ttr_cog(interaction.client)
            select = isinstance(self.item, discord.ui.Select)
            text = ids.upgrade(self.custom_id, select=select)
            for item in KIND_ITEMS:
                match = re.fullmatch(item.kind.TEMPLATE, text)
                if match is not None:
                    await item.answer(cog, interaction, match, self.values())
                    return
            raise ids.BadComponentId("unknown_component", self.custom_id)
        except Exception as exc:  # noqa: BLE001 - one funnel for every component error
            await answer_error(interaction, exc)


#: What the bot registers (``bot.add_dynamic_items``): every kind, and the one for the rest.
ITEMS: tuple[type[ClickItem], ...] = (*KIND_ITEMS, OtherComponent)
