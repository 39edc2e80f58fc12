"""The coach on Discord: ``/ttr hint`` with its **Do it** button, and the analysis after the game.

A hint is private, in the reader's language, for the player to act. The
answer is deferred at once (Discord's 3 s) and comes when the service's worker
has it (within its 4 s deadline). **Do it** plays the hinted action at once,
through the same path as every move (:meth:`PlayFlows.act`), at the hint's
version only: when the game moved on meanwhile nothing is played, and the
answer says so and offers a fresh hint. Only a risky move asks to confirm first:
a tunnel claim that keeps no spare card, which the hint warned of.

The analysis of a finished game is public, in the table's language: the chart
and the turning points, posted as a reply to the game-over message when the
service has made it (:meth:`CoachFlows.analysed`, the service's
``on_analysis``), and shown by ``/ttr game show id:``.
"""

from __future__ import annotations

import discord

from bot.discord_app.client import TtrBot
from bot.host.services import Action, AnalysisView, GameServicePort, ServiceError, TableView
from sentences import texts as fmt
from sentences.coach import analysis_words, hint_words, risky_confirm_words
from words import Words

from . import _ids as ids
from . import _images as images
from ._announce import Announcer, FileFactory, Post
from ._base import Base, display_names, seat_names
from ._components import Btn, components
from ._play import PlayFlows


class CoachFlows(Base):
    """``/ttr hint``, its buttons, and the analysis after the game."""

    def __init__(
        self, bot: TtrBot, service: GameServicePort, announcer: Announcer, play: PlayFlows
    ) -> None:
        super().__init__(bot, service, announcer)
        self.play = play
        #: games whose analysis this process posted (the queue and the game-over message
        #: may both find it ready; it is posted once)
        self._posted: set[int] = set()

    # ------------------------------------------------------------ hints
    @ids.Hint.game_handler
    async def hint(self, interaction: discord.Interaction, game_id: int) -> None:
        """A suggested move for the player to act, why, and **Do it** (privately)."""
        await self.defer(interaction)
        table = await self.read(interaction, game_id)
        self.need_turn(table)
        answer = await self.service.coach.hint(game_id, interaction.user.id)
        interaction.extras["committed"] = True  # the hint is counted
        w = self.words(interaction, table)
        names = display_names(table)
        text = "\n".join(hint_words(answer.hint, table.rules, w, names, used=answer.used))
        do = ids.HintDo(game_id, answer.version, answer.index)
        view = components([Btn(w.t("Do it"), do.custom_id, discord.ButtonStyle.success)])
        await self.reply(interaction, text, view=view)

    @ids.HintDo.handler
    async def do_it(self, interaction: discord.Interaction, click: ids.HintDo) -> None:
        """Do it was clicked: play the hinted move at once, or first ask when it is risky (a
        tunnel claim with no spare card: :func:`sentences.coach.risky_confirm_words`)."""
        table, w, action = await self._still(interaction, click)
        if action is None:
            return
        public, mine = table.public, table.mine
        text = risky_confirm_words(
            action,
            table.rules,
            w,
            face_up=public.face_up if public is not None else (),
            hand=mine.hand if mine is not None else None,
        )
        if text is None:
            await self._play(interaction, table, w, action, click)
            return
        confirm = ids.HintConfirm(click.game, click.version, click.action)
        cancel = ids.HintCancel(click.game, click.version)
        view = components(
            [
                Btn(w.t("Yes, play it"), confirm.custom_id, discord.ButtonStyle.success),
                Btn(w.t("No"), cancel.custom_id),
            ]
        )
        await self.update(interaction, text, view)

    @ids.HintConfirm.handler
    async def confirm(self, interaction: discord.Interaction, click: ids.HintConfirm) -> None:
        """Play the risky hinted move after all, if the game is still where the hint saw it."""
        table, w, action = await self._still(interaction, click)
        if action is None:
            return
        await self._play(interaction, table, w, action, click)

    async def _play(
        self,
        interaction: discord.Interaction,
        table: TableView,
        w: Words,
        action: Action,
        click: ids.HintDo,
    ) -> None:
        """Play the hinted move, exactly, at the hint's version (a move in between: nothing is
        played and the answer offers a fresh hint)."""
        await self.update(interaction, w.t("Playing the hinted move…"), None)
        try:
            await self.play.act(interaction, table, action, version=click.version)
        except ServiceError as exc:  # someone moved the game on between the two reads
            if exc.code != "stale_version":
                raise
            text, view = self._moved_on(await self.read(interaction, click.game), w)
            await self.reply(interaction, text, view=view)

    async def _still(
        self, interaction: discord.Interaction, click: ids.HintDo
    ) -> tuple[TableView, Words, Action | None]:
        """The reader's table, words and the hinted action while the game is where the hint saw
        it; the action is None after answering that the game moved on."""
        table = await self.read(interaction, click.game)
        self.need_seat(table)
        w = self.words(interaction, table)
        try:
            action = await self.service.coach.hinted(
                click.game, interaction.user.id, version=click.version, index=click.action
            )
        except ServiceError as exc:
            if exc.code != "stale_version":
                raise
            await self.update(interaction, *self._moved_on(table, w))
            return table, w, None
        return table, w, action

    @ids.HintCancel.handler
    async def cancel(self, interaction: discord.Interaction, click: ids.HintCancel) -> None:
        """Do not play the hinted move after all."""
        table = await self.read(interaction, click.game)
        self.need_seat(table)
        await self.update(interaction, self.words(interaction, table).t("Nothing was done."), None)

    @staticmethod
    def _moved_on(table: TableView, w: Words) -> tuple[str, discord.ui.View | None]:
        """The game moved on since the hint: nothing was played; a fresh hint when it is the
        reader's turn again."""
        text = w.t("The game moved on since this hint; nothing was played.")
        if table.menu is None or not table.game.hints_allowed:
            return text, None
        fresh = ids.Hint(table.game.id).custom_id
        return text, components([Btn(w.t("Fresh hint"), fresh, discord.ButtonStyle.primary)])

    # ------------------------------------------------------------ the analysis
    async def analysed(self, view: AnalysisView) -> None:
        """The service made a game's analysis: post it as a reply to the game-over message.

        While the game-over message is not posted yet (an analysis can be quicker than the
        final image) nothing is posted here: the game-over message posts it after itself
        (:meth:`after_final`)."""
        table = await self.service.queries.table(view.game.id, 0)
        final = table.game.board_message_id
        if final is None or view.analysis is None or view.game.id in self._posted:
            return
        self._posted.add(view.game.id)
        w = self.table_words(table)
        text, chart = self.analysis_message(table, view, w)
        post = Post(
            table.game.id,
            table.game.guild_id,
            table.channel_id,
            text,
            w,
            image=chart,
            filename="analysis.png",
            reply_to=final,
        )
        await self.announcer.post(post)

    async def after_final(self, game_id: int) -> None:
        """The game-over message is posted (and remembered): post the analysis now if the
        queue made it before."""
        view = await self.service.analyses.analysis(game_id, queue=False)
        if view.status == "done":
            await self.analysed(view)

    @staticmethod
    def analysis_message(
        table: TableView, view: AnalysisView, w: Words
    ) -> tuple[str, FileFactory | None]:
        """The analysis in ``w``'s language and what draws its chart (None while it is not
        made: the text then says where it stands)."""
        text = fmt.clip("\n".join(analysis_words(view, table.rules, w, seat_names(table))))
        analysis = view.analysis
        if analysis is None:
            return text, None

        async def chart() -> bytes:
            return await images.chance_png(analysis, display_names(table), w.lang)

        return text, chart


__all__ = ["CoachFlows"]
