"""Undo by consent: Take back (offered privately after a move that may be taken back), the
public request to the others with Approve and Refuse, and the undo once all approved
(:class:`bot.host.services.TakeBacks`; its kinds are in :mod:`._seat_ids`).

The request's approvals so far travel in its Approve button (each approval rewrites the
request, naming who approved) and the service remembers them too, so two people approving at
the same moment both count; the last approval takes the move back and the turn message is
posted again for the mover. A refusal ends the request: the move stands.
"""

from __future__ import annotations

import discord

from bot.discord_app.client import TtrBot
from bot.host.services import GameServicePort, UndoRequest
from words import Words

from ._announce import Announcer
from ._base import Base
from ._components import Btn, components
from ._play import PlayFlows
from ._prompts import DANGER, SUCCESS
from ._publish import Publisher
from ._seat_ids import UndoAsk, UndoNo, UndoYes


def request_text(request: UndoRequest, w: Words) -> str:
    """The public request: who asks, whom, and who approved so far."""
    asked = " ".join(f"<@{u}>" for u in request.voter_users)
    lines = [
        w.t(
            "{player} asks to take back their last move. {players}: every one of you must "
            "approve; one refusal keeps the move.",
            player=f"<@{request.user_id}>",
            players=asked,
        )
    ]
    if request.approved:
        agreed = " ".join(
            f"<@{u}>"
            for s, u in zip(request.voters, request.voter_users, strict=True)
            if s in request.approved
        )
        lines.append(w.t("Approved so far: {players}", players=agreed))
    return "\n".join(lines)


def votes(request: UndoRequest, w: Words) -> discord.ui.View:
    """Approve (carrying the approvals so far) and Refuse."""
    ok = sum(1 << s for s in request.approved)
    yes = UndoYes(request.game_id, request.version, request.seat, ok)
    no = UndoNo(request.game_id, request.version, request.seat)
    return components(
        [Btn(w.t("Approve"), yes.custom_id, SUCCESS), Btn(w.t("Refuse"), no.custom_id, DANGER)]
    )


class TakeBackFlows(Base):
    """Take back, Approve and Refuse."""

    def __init__(
        self,
        bot: TtrBot,
        service: GameServicePort,
        announcer: Announcer,
        publisher: Publisher,
        play: PlayFlows,
    ) -> None:
        super().__init__(bot, service, announcer)
        self.publisher = publisher
        self.play = play

    @UndoAsk.handler
    async def ask(self, interaction: discord.Interaction, click: UndoAsk) -> None:
        """Take back, under the answer to the move made at ``click.version``: see :meth:`take_back`."""
        await self.take_back(interaction, click.game, click.version)

    async def take_back(
        self, interaction: discord.Interaction, game_id: int, version: int | None = None
    ) -> None:
        """The mover asks to take back their last move (``version``: the game version they saw;
        None: the current one, ``/ttr seat take_back``): the engine must allow it (else its
        refusal, privately); the others are asked in public, or (nobody to ask: only computer
        seats besides the mover) the move is taken back at once."""
        await self.defer(interaction)
        table = await self.read(interaction, game_id)
        self.need_seat(table)
        request = await self.service.undo.ask(
            game_id,
            interaction.user.id,
            expected_version=table.version if version is None else version,
        )
        w = self.words(interaction, table)
        if request.agreed:  # only computer seats besides the mover: they agree
            outcome = await self.service.undo.undo(request)
            interaction.extras["committed"] = True
            await self.play.publish(outcome)
            await self.reply(interaction, w.t("Your last move was taken back: it is your turn."))
            return
        tw = self.table_words(table)
        await self.publisher.notice(
            table, request_text(request, tw), view=votes(request, tw), ping=request.voter_users
        )
        await self.reply(
            interaction,
            w.t("The others were asked: your move is taken back once all of them approve."),
        )

    @UndoYes.handler
    async def approve(self, interaction: discord.Interaction, click: UndoYes) -> None:
        """An approval: the request rewritten with it, or (the last one) the move taken back."""
        table = await self.read(interaction, click.game)
        tw = self.table_words(table)
        request, outcome = await self.service.undo.approve(
            click.game, click.version, click.seat, click.approved, interaction.user.id
        )
        if outcome is None:
            await self.update(interaction, request_text(request, tw), votes(request, tw))
            return
        interaction.extras["committed"] = True
        await self.update(
            interaction,
            tw.t(
                "{player} took their last move back: everyone agreed.",
                player=f"<@{request.user_id}>",
            ),
            None,
        )
        await self.play.publish(outcome)

    @UndoNo.handler
    async def refuse(self, interaction: discord.Interaction, click: UndoNo) -> None:
        """A refusal: the request ends, the move stands."""
        table = await self.read(interaction, click.game)
        request = await self.service.undo.refuse(
            click.game, click.version, click.seat, interaction.user.id
        )
        tw = self.table_words(table)
        await self.update(
            interaction,
            tw.t(
                "{player} refused to let {mover} take their move back: it stands.",
                player=interaction.user.mention,
                mover=f"<@{request.user_id}>",
            ),
            None,
        )


__all__ = ["TakeBackFlows", "request_text", "votes"]
