"""Substitutes: a seat offered to another member (``/ttr seat give``, ``/ttr seat offer``) and
the member's Accept or Decline (:mod:`._seat_ids`).

The offer is a public message in the game's channel that mentions the member, with Accept and
Decline; the seat changes hands only when that member accepts in time (the service checks
the offer again: :class:`bot.host.services.Substitutes`). The change is told to the table in
its language ("Anna handed their seat to Ben") and stays in the game's log
(:func:`handover_line`, used by :mod:`._record`).
"""

from __future__ import annotations

import discord

from bot.discord_app.client import TtrBot
from bot.host.services import OFFER_SECONDS, GameServicePort, SeatOffer, TableView
from bot.host.storage import SeatHandover
from words import Words

from ._announce import Announcer
from ._base import Base, CogError
from ._components import Btn, components
from ._prompts import SECONDARY, SUCCESS
from ._publish import Publisher
from ._seat_ids import SeatRefuse, SeatTake


def _who(user_id: int | None, w: Words) -> str:
    """A mention of ``user_id`` (it pings no one: the send funnel allows no mentions by
    default), or "a former player" once that user was forgotten."""
    return f"<@{user_id}>" if user_id else w.t("a former player")


def handover_line(handover: SeatHandover, w: Words) -> str:
    """The log's line of a seat that changed hands: ``<@1> handed their seat to <@2>.``, or for
    a seat the computer played after timeouts ``<@2> took over the seat of <@1>.``"""
    old, new = _who(handover.from_user_id, w), _who(handover.to_user_id, w)
    if handover.reason == "timeout":
        return w.t(
            "{new} took over the seat of {old}, which the computer played after timeouts.",
            new=new,
            old=old,
        )
    return w.t("{old} handed their seat to {new}.", old=old, new=new)


class SeatFlows(Base):
    """/ttr seat give and /ttr seat offer, and the Accept and Decline buttons of an offer."""

    def __init__(
        self, bot: TtrBot, service: GameServicePort, announcer: Announcer, publisher: Publisher
    ) -> None:
        super().__init__(bot, service, announcer)
        self.publisher = publisher

    async def give(
        self, interaction: discord.Interaction, game_id: int, member: discord.abc.User
    ) -> None:
        """The reader offers their seat to ``member``: a public offer with Accept and Decline
        that mentions the member; the seat stays the reader's until the member accepts."""
        await self.defer(interaction)
        table = await self.read(interaction, game_id)
        offer = await self.service.seats.give(game_id, interaction.user.id, member.id)
        tw = self.table_words(table)
        mention = f"<@{member.id}>"
        text = tw.n(
            "{member}: {holder} offers you their seat in game {game}. Accept within {count} "
            "minute to play it on, with its cards and {tickets}.",
            "{member}: {holder} offers you their seat in game {game}. Accept within {count} "
            "minutes to play it on, with its cards and {tickets}.",
            OFFER_SECONDS // 60,
            member=mention,
            holder=interaction.user.mention,
            game=game_id,
        )
        await self._post_offer(table, offer, text, tw)
        w = self.words(interaction, table)
        await self.reply(
            interaction,
            w.t(
                "Your seat was offered to {member}. It stays yours until they accept.",
                member=mention,
            ),
        )

    async def offer(
        self, interaction: discord.Interaction, game_id: int, seat: int, member: discord.abc.User
    ) -> None:
        """The host offers seat ``seat`` (1-based), which the computer plays after its player's
        timeouts, to ``member``: a public offer as :meth:`give`'s."""
        await self.defer(interaction)
        table = await self.read(interaction, game_id)
        offer = await self.service.seats.offer_timed_out(
            game_id, interaction.user.id, seat - 1, member.id
        )
        tw = self.table_words(table)
        mention = f"<@{member.id}>"
        text = tw.n(
            "{member}: the host offers you seat {seat} of game {game}, which the computer plays "
            "since its player ran out of time. Accept within {count} minute to play it on.",
            "{member}: the host offers you seat {seat} of game {game}, which the computer plays "
            "since its player ran out of time. Accept within {count} minutes to play it on.",
            OFFER_SECONDS // 60,
            member=mention,
            seat=seat,
            game=game_id,
        )
        await self._post_offer(table, offer, text, tw)
        w = self.words(interaction, table)
        await self.reply(
            interaction,
            w.t("Seat {seat} was offered to {member}.", seat=seat, member=mention),
        )

    async def _post_offer(self, table: TableView, offer: SeatOffer, text: str, tw: Words) -> None:
        """The public offer, pinging the member, with Accept and Decline."""
        refuse = SeatRefuse(offer.game_id, offer.seat, offer.from_user_id, offer.to_user_id)
        view = components(
            [
                Btn(tw.t("Accept"), SeatTake.of(offer).custom_id, SUCCESS),
                Btn(tw.t("Decline"), refuse.custom_id, SECONDARY),
            ]
        )
        await self.publisher.notice(table, text, view=view, ping=(offer.to_user_id,))

    @SeatTake.handler
    async def take(self, interaction: discord.Interaction, click: SeatTake) -> None:
        """Accept: the clicking member takes the seat (the service refuses anyone else, an
        expired offer and a seat that changed since); the table is told."""
        await self.defer(interaction)
        table = await self.read(interaction, click.game)
        name = getattr(interaction.user, "display_name", None) or interaction.user.name
        _, handover = await self.service.seats.accept(click.offer(), interaction.user.id, name)
        interaction.extras["committed"] = True
        await self.publisher.notice(table, handover_line(handover, self.table_words(table)))
        w = self.words(interaction, table)
        await self.reply(
            interaction,
            w.t(
                "You now play seat {seat} of game {game}: /ttr hand shows your cards and "
                "{tickets}.",
                seat=click.seat + 1,
                game=click.game,
            ),
        )

    @SeatRefuse.handler
    async def refuse(self, interaction: discord.Interaction, click: SeatRefuse) -> None:
        """Decline (the member, or the holder taking the offer back): nothing changes; the
        table is told."""
        if interaction.user.id not in (click.member, click.holder):
            raise CogError("not_your_button")
        await self.defer(interaction)
        table = await self.read(interaction, click.game)
        tw = self.table_words(table)
        member, holder = f"<@{click.member}>", f"<@{click.holder}>"
        await self.publisher.notice(
            table, tw.t("{member} did not take the seat of {holder}.", member=member, holder=holder)
        )
        w = self.words(interaction, table)
        await self.reply(interaction, w.t("Nothing changed: the seat stays as it was."))


__all__ = ["SeatFlows", "handover_line"]
