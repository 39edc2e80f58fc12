"""The /ttr command group: thin handlers that defer, call the service, format and answer.

Every reply to a person is ephemeral (flag 64); the only public messages are
posted to the game's channel: the lobby, and after every turn ONE message with
the board PNG, a one-line summary, a mention of the next player and the
persistent buttons (see ``_components.py``). Hands, tickets and pending choices
never leave ephemeral replies.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n
from engine import (
    AbandonTunnel,
    Action,
    Cards,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepFlagCard,
    KeepTickets,
    PayTunnel,
    PlayerView,
    PublicView,
    Ruleset,
)
from engine.payment import tunnel_extra_options
from maps.loader import available_maps, load_ruleset
from render import load_layout, render_board_png, render_final_png, render_hand_png

from . import _format as fmt
from ._components import LOBBY_VERBS, TURN_VERBS, buttons_view
from ._views import ChoiceView, SelectView

log = logging.getLogger(__name__)

MAP_CHOICES = [
    app_commands.Choice(name="USA", value="usa"),
    app_commands.Choice(name="Germany", value="germany"),
    app_commands.Choice(name="Nordic Countries", value="nordic"),
    app_commands.Choice(name="Amsterdam", value="amsterdam"),
    app_commands.Choice(name="Paris", value="paris"),
]
TURN_TIMES = {"10m": 600, "1h": 3600, "24h": 86_400, "72h": 259_200}


@dataclass(frozen=True, slots=True)
class Table:
    """What one reader may know of a game right now (read fresh from the service)."""

    game_id: int
    channel_id: int
    status: str
    rules: Ruleset
    names: tuple[str, ...]
    display: tuple[str, ...]
    public: PublicView | None
    mine: PlayerView | None
    seat: int | None
    host_id: int
    deadline_at: float | None = None


class TtrCog(
    commands.GroupCog,
    name="ttr",
    group_name="ttr",
    group_description="Ticket to Ride: asynchronous games in this channel",
):
    """The /ttr commands and the flows the persistent buttons open."""

    def __init__(self, bot: commands.Bot, service: Any) -> None:
        self.bot = bot
        self.service = service
        super().__init__()
        if hasattr(service, "on_turn"):
            service.on_turn = self.clock_moved
            service.on_reminder = self.remind

    # ================================================================ service glue
    async def _table(self, interaction: discord.Interaction, game_id: int) -> Table:
        """Read the game fresh; remember its id and words for the error funnel."""
        table = await self._read_table(game_id, interaction.user.id)
        interaction.extras["game"] = table.game_id
        interaction.extras["meta"] = table.rules.meta
        return table

    async def _read_table(self, game_id: int, user_id: int) -> Table:
        snap = await self.service.views(game_id, user_id)
        game = snap.game
        rules = load_ruleset(game.map_id)
        names = tuple(
            f"<@{seat.user_id}>" if seat.user_id and not seat.is_ai else seat.display_name
            for seat in sorted(snap.seats, key=lambda r: r.seat)
        )
        display = tuple(seat.display_name for seat in sorted(snap.seats, key=lambda r: r.seat))
        return Table(
            game_id=game.id,
            channel_id=game.thread_id or game.channel_id,
            status=game.status,
            rules=rules,
            names=names,
            display=display,
            public=snap.public,
            mine=snap.mine,
            seat=snap.seat,
            host_id=game.host_user_id,
            deadline_at=getattr(game, "deadline_at", None),
        )

    async def _game_here(self, interaction: discord.Interaction) -> int:
        game = await self.service.game_in_channel(interaction.channel_id)
        if game is None:
            raise _CogError("no_game")
        interaction.extras["game"] = game.id
        return game.id

    async def _apply(
        self, interaction: discord.Interaction, game_id: int, make: Callable[[int], Action]
    ) -> Any:
        """Apply ``make(seat)`` for the user; post the public turn message when a turn ended."""
        table = await self._table(interaction, game_id)
        mine = self._need_turn(table)
        outcome = await self.service.act(game_id, interaction.user.id, make(mine.seat))
        await self.after_move(game_id, table.public, outcome)
        return outcome

    # ================================================================ lobby
    async def lobby_new(
        self,
        interaction: discord.Interaction,
        map_id: str,
        turn_seconds: int,
        options: dict[str, Any],
    ) -> None:
        game = await self.service.create(
            guild_id=interaction.guild_id or 0,
            channel_id=interaction.channel_id,
            host_id=interaction.user.id,
            host_name=interaction.user.display_name,
            map_id=map_id,
            options=options,
            turn_seconds=turn_seconds,
        )
        interaction.extras["game"] = game.id
        table = await self._table(interaction, game.id)
        meta = table.rules.meta
        hours = turn_seconds // 3600
        text = i18n.t(
            "lobby_opened",
            None,
            meta=meta,
            host=interaction.user.mention,
            map=i18n.map_text(meta, "name", None),
            turn_time=f"{hours} h" if hours else f"{turn_seconds // 60} min",
            players=", ".join(table.names),
        )
        await self._channel(table.channel_id).send(
            fmt.clip(text),
            view=buttons_view(game.id, LOBBY_VERBS),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await interaction.followup.send(i18n.t("done", interaction.locale), ephemeral=True)

    async def lobby_call(
        self, interaction: discord.Interaction, game_id: int, verb: str, **kw: Any
    ) -> None:
        """leave / add_ai / cancel / resign / vacation: call the service, answer privately, tell the channel."""
        await self._defer(interaction)
        table = await self._table(interaction, game_id)
        user = interaction.user
        locale = interaction.locale
        meta = table.rules.meta
        if verb == "leave":
            await self.service.leave(game_id, user.id)
            public = i18n.t("left", None, meta=meta, user=user.mention, players="{players}")
        elif verb == "add_ai":
            await self.service.add_ai(game_id, user.id)
            public = i18n.t("ai_added", None, meta=meta, players="{players}")
        elif verb == "cancel":
            perms = getattr(user, "guild_permissions", None)
            await self.service.cancel(
                game_id, user.id, moderator=bool(perms and perms.manage_channels)
            )
            public = i18n.t("cancelled", None, meta=meta)
        elif verb == "resign":
            outcome = await self.service.resign(game_id, user.id)
            public = i18n.t("resigned", None, meta=meta, user=user.mention)
            await self.after_move(game_id, table.public, outcome)
        elif verb == "vacation":
            await self.service.vacation(game_id, user.id, days=kw["days"])
            await interaction.followup.send(
                i18n.t("vacation_set", locale, meta=meta, days=kw["days"]), ephemeral=True
            )
            return
        else:
            raise ValueError(verb)
        if "{players}" in public:
            fresh = await self._read_table(game_id, user.id)
            public = public.replace("{players}", ", ".join(fresh.names))
        await self._channel(table.channel_id).send(
            fmt.clip(public), allowed_mentions=discord.AllowedMentions.none()
        )
        await interaction.followup.send(i18n.t("done", locale), ephemeral=True)

    async def flow_join(self, interaction: discord.Interaction, game_id: int) -> None:
        await self._defer(interaction)
        table = await self._table(interaction, game_id)
        await self.service.join(game_id, interaction.user.id, interaction.user.display_name)
        fresh = await self._read_table(game_id, interaction.user.id)
        await self._channel(table.channel_id).send(
            fmt.clip(
                i18n.t(
                    "joined",
                    None,
                    meta=table.rules.meta,
                    user=interaction.user.mention,
                    players=", ".join(fresh.names),
                )
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await interaction.followup.send(i18n.t("done", interaction.locale), ephemeral=True)

    async def flow_start(self, interaction: discord.Interaction, game_id: int) -> None:
        await self._defer(interaction)
        table = await self._table(interaction, game_id)
        outcome = await self.service.start(game_id, interaction.user.id)
        meta = table.rules.meta
        await self._channel(table.channel_id).send(
            i18n.t("started", None, meta=meta, map=i18n.map_text(meta, "name", None)),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await self.post_turn(game_id, list(getattr(outcome, "public_events", None) or ()))
        await interaction.followup.send(i18n.t("done", interaction.locale), ephemeral=True)

    async def show_log(self, interaction: discord.Interaction, game_id: int, count: int) -> None:
        table = await self._table(interaction, game_id)
        events = await self.service.public_log(game_id, count)
        lines = fmt.move_summary(events, table.rules, table.names, interaction.locale)[-count:]
        await interaction.followup.send(
            fmt.clip("\n".join(lines) or i18n.t("log_empty", interaction.locale)),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def show_mygames(self, interaction: discord.Interaction) -> None:
        games = await self.service.games_for_user(interaction.user.id)
        locale = interaction.locale
        lines = []
        for g in games:
            meta = load_ruleset(g.map_id).meta
            lines.append(
                i18n.t(
                    "mygames_line",
                    locale,
                    meta=meta,
                    game=g.id,
                    map=i18n.map_text(meta, "name", locale),
                    channel=f"<#{g.thread_id or g.channel_id}>",
                    status=g.status,
                    turn=i18n.t("your_move", locale) if getattr(g, "your_turn", False) else "",
                )
            )
        await interaction.followup.send(
            fmt.clip("\n".join(lines) or i18n.t("mygames_none", locale)), ephemeral=True
        )

    async def show_stats(self, interaction: discord.Interaction, user: discord.abc.User) -> None:
        st = await self.service.stats(interaction.guild_id or 0, user.id)
        text = i18n.t(
            "stats",
            interaction.locale,
            user=user.mention,
            played=st.games,
            won=st.wins,
            best=getattr(st, "best_score", "-"),
        )
        await interaction.followup.send(
            text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )

    async def show_leaderboard(self, interaction: discord.Interaction) -> None:
        rows = await self.service.leaderboard(interaction.guild_id or 0)
        lines = [
            i18n.t(
                "leaderboard_line",
                interaction.locale,
                rank=n,
                user=f"<@{r.user_id}>",
                won=r.wins,
                played=r.games,
            )
            for n, r in enumerate(rows[:20], 1)
        ]
        await interaction.followup.send(
            fmt.clip("\n".join(lines) or i18n.t("leaderboard_empty", interaction.locale)),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    # ================================================================ helpers
    @staticmethod
    async def _defer(interaction: discord.Interaction) -> None:
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)

    def _channel(self, channel_id: int) -> discord.abc.Messageable:
        return self.bot.get_channel(channel_id) or self.bot.get_partial_messageable(channel_id)  # type: ignore[return-value]

    @staticmethod
    def _need_seat(table: Table) -> PlayerView:
        if table.mine is None or table.seat is None:
            raise _CogError("not_in_game")
        return table.mine

    @staticmethod
    def _need_turn(table: Table) -> PlayerView:
        mine = TtrCog._need_seat(table)
        if table.status != "active" or table.public is None:
            raise _CogError("not_started" if table.status == "lobby" else "game_finished")
        if not mine.to_act:
            raise _CogError("not_your_turn")
        return mine

    async def _board_file(self, table: Table) -> discord.File | None:
        if table.public is None:
            return None
        png = await asyncio.to_thread(
            _render_board, table.rules.map_id, table.public, table.display
        )
        return discord.File(io.BytesIO(png), filename="board.png")

    async def _hand_file(self, table: Table, locale: Any = None) -> discord.File | None:
        if table.mine is None:
            return None
        png = await asyncio.to_thread(_render_hand, table.mine, table.display, i18n.lang_of(locale))
        return discord.File(io.BytesIO(png), filename="hand.png")

    async def _final_file(self, table: Table) -> discord.File | None:
        if table.public is None:
            return None
        png = await asyncio.to_thread(
            _render_final, table.rules.map_id, table.public, table.display
        )
        return discord.File(io.BytesIO(png), filename="final.png")

    # ================================================================ the clock
    async def clock_moved(self, game_id: int, outcome: Any) -> None:
        """The service played a turn on its own (a timeout or resumed AI seats): post the board."""
        if getattr(outcome, "turn_ended", True):
            await self.post_turn(game_id, list(getattr(outcome, "public_events", ()) or ()))

    async def remind(self, reminder: Any) -> None:
        """Half of a turn's time is gone: mention the waiting players in the game's channel (nothing private)."""
        game = reminder.game
        users = [s.user_id for s in reminder.seats if s.user_id]
        if not users:
            return
        meta = load_ruleset(game.map_id).meta
        text = i18n.t(
            "reminder", None, meta=meta, users=", ".join(f"<@{u}>" for u in users), game=game.id
        )
        await self._channel(game.thread_id or game.channel_id).send(
            text, allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in users])
        )

    # ================================================================ public messages
    async def post_turn(self, game_id: int, events: Sequence[Any] = ()) -> None:
        """Post the one public message of a finished turn (or the game's end) in the game's channel."""
        table = await self._read_table(game_id, 0)
        public = table.public
        if public is None:
            return
        meta = table.rules.meta
        locale = None  # public messages: English (the guild may mix languages)
        lines = fmt.move_summary(events, table.rules, table.names, locale)[-3:]
        channel = self._channel(table.channel_id)
        if public.phase == "finished" and public.result is not None:
            lines.append(fmt.score_table(public.result, table.rules, table.names, locale))
            files = [f for f in (await self._final_file(table),) if f is not None]
            await channel.send(
                fmt.clip("\n".join(lines)),
                files=files,
                allowed_mentions=discord.AllowedMentions.none(),
            )
            return
        if public.last_round and any(getattr(e, "kind", "") == "last_round" for e in events):
            lines.append(
                i18n.t(
                    "last_round",
                    locale,
                    meta=meta,
                    user=fmt.player_name(table.names, public.last_round_by),
                )
            )
        if public.phase == "setup":
            lines.append(
                i18n.t(
                    "waiting_setup",
                    locale,
                    meta=meta,
                    users=", ".join(fmt.player_name(table.names, s) for s in public.waiting_for),
                )
            )
        else:
            lines.append(
                i18n.t(
                    "your_turn", locale, meta=meta, user=fmt.player_name(table.names, public.active)
                )
            )
        next_user = self._user_of(table, public.active) if public.phase == "play" else None
        mentions = discord.AllowedMentions(
            users=[discord.Object(next_user)] if next_user else False, everyone=False, roles=False
        )
        files = [f for f in (await self._board_file(table),) if f is not None]
        await channel.send(
            fmt.clip("\n".join(lines)),
            files=files,
            view=buttons_view(game_id, TURN_VERBS, locale),
            allowed_mentions=mentions,
        )

    def _user_of(self, table: Table, seat: int) -> int | None:
        name = fmt.player_name(table.names, seat)
        if name.startswith("<@") and name.endswith(">"):
            return int(name.strip("<@!>"))
        return None

    async def after_move(self, game_id: int, before: PublicView | None, outcome: Any) -> None:
        """Post the public message when a turn ended (or the game started or finished)."""
        table = await self._read_table(game_id, 0)
        after = table.public
        if after is None:
            return
        if before is None or after.turn != before.turn or after.phase != before.phase:
            events = list(
                getattr(outcome, "public_events", None) or getattr(outcome, "events", None) or ()
            )
            await self.post_turn(game_id, events)

    # ================================================================ flows (commands and buttons)
    async def button_clicked(
        self, interaction: discord.Interaction, game_id: int, verb: str
    ) -> None:
        """A persistent button: open the same flow as its command, privately."""
        if verb == "hand":
            await self.flow_hand(interaction, game_id)
        elif verb == "draw":
            await self.flow_draw(interaction, game_id, None)
        elif verb == "claim":
            await self.flow_claim(interaction, game_id, None, None, None)
        elif verb == "tickets":
            await self.flow_tickets(interaction, game_id, None, None)
        elif verb == "board":
            await self.flow_board(interaction, game_id)
        elif verb == "join":
            await self.flow_join(interaction, game_id)
        elif verb == "start":
            await self.flow_start(interaction, game_id)

    async def flow_hand(self, interaction: discord.Interaction, game_id: int) -> None:
        await self._defer(interaction)
        table = await self._table(interaction, game_id)
        mine = self._need_seat(table)
        locale = interaction.locale
        text = fmt.hand_text(mine, table.rules, locale, game_id=game_id)
        prompt, view = self._pending(interaction, table)
        if prompt:
            text += "\n\n" + prompt
        files = [f for f in (await self._hand_file(table, locale),) if f is not None]
        await interaction.followup.send(
            fmt.clip(text), files=files, view=view or discord.utils.MISSING, ephemeral=True
        )

    def _pending(
        self, interaction: discord.Interaction, table: Table
    ) -> tuple[str, discord.ui.View | None]:
        """The pending private decision of the reader with its controls, if any."""
        mine = table.mine
        if mine is None or table.public is None or not mine.to_act:
            return "", None
        locale, meta, rules, public = (
            interaction.locale,
            table.rules.meta,
            table.rules,
            table.public,
        )
        if mine.offer:
            deal = (
                rules.params.initial_tickets
                if public.phase == "setup"
                else rules.params.draw_tickets
            )
            need = min(deal.keep, len(mine.offer))
            return self._keep_view(interaction, table, need)
        if mine.needs_mix:
            return self._mix_view(interaction, table, rules.params.initial_tickets.count)
        if public.step == "second_card":
            return i18n.t("second_card", locale, meta=meta), self._card_view(
                interaction, table, second=True
            )
        if public.step == "tunnel" and public.tunnel is not None:
            tun = public.tunnel
            options = tunnel_extra_options(tun.color, tun.extra, mine.hand)
            view = ChoiceView(
                interaction.user.id,
                [(fmt.payment_text(p, rules, locale), p) for p in options],
                lambda i, p: self._act_private(
                    i,
                    table.game_id,
                    (lambda s: AbandonTunnel(s)) if p is None else (lambda s: PayTunnel(s, p)),
                ),
                game_id=table.game_id,
                meta=meta,
                extra=[(i18n.t("tunnel_abandon", locale), None, discord.ButtonStyle.danger)],
            )
            return i18n.t("tunnel_prompt", locale, meta=meta, extra=tun.extra), view
        if public.step == "flag":
            colors = list(public.flag_colors)
            view = ChoiceView(
                interaction.user.id,
                [(i18n.color_name(c, locale, meta), c) for c in colors],
                lambda i, c: self._act_private(i, table.game_id, lambda s: KeepFlagCard(s, c)),
                game_id=table.game_id,
                meta=meta,
                extra=[(i18n.t("flag_decline", locale), None, discord.ButtonStyle.secondary)],
            )
            return i18n.t("flag_prompt", locale, meta=meta), view
        return "", None

    def _keep_view(
        self, interaction: discord.Interaction, table: Table, need: int
    ) -> tuple[str, discord.ui.View]:
        mine = table.mine
        assert mine is not None
        locale, meta = interaction.locale, table.rules.meta
        options = [(fmt.ticket_text(table.rules, t, locale), t) for t in mine.offer]

        async def keep(i: discord.Interaction, chosen: list[str]) -> None:
            await self._act_private(i, table.game_id, lambda s: KeepTickets(s, tuple(chosen)))

        view = SelectView(
            interaction.user.id,
            options,
            keep,
            confirm_label=i18n.t("keep_button", locale),
            min_values=need,
            max_values=len(options),
            game_id=table.game_id,
            meta=meta,
            preselect=[t for _, t in options],
        )
        lines = [i18n.t("choose_tickets", locale, meta=meta, min=need)] + [
            "• " + label for label, _ in options
        ]
        return "\n".join(lines), view

    def _mix_view(
        self, interaction: discord.Interaction, table: Table, count: int
    ) -> tuple[str, discord.ui.View]:
        locale, meta = interaction.locale, table.rules.meta
        public = table.public
        assert public is not None
        decks = sorted(public.ticket_decks)
        mixes = _mixes(decks, count, public.ticket_decks)
        view = ChoiceView(
            interaction.user.id,
            [(" + ".join(f"{n}× {d}" for d, n in m), m) for m in mixes],
            lambda i, m: self._act_private(i, table.game_id, lambda s: DrawTickets(s, m)),
            game_id=table.game_id,
            meta=meta,
        )
        return i18n.t("tickets_prompt", locale, meta=meta), view

    def _card_view(
        self, interaction: discord.Interaction, table: Table, *, second: bool
    ) -> discord.ui.View:
        public = table.public
        assert public is not None
        locale, meta = interaction.locale, table.rules.meta
        options: list[tuple[str, str]] = []
        if public.deck_size:
            options.append((i18n.t("draw_deck", locale), "deck"))
        for slot, color in enumerate(public.face_up):
            if color is None or (second and color == "locomotive"):
                continue
            options.append((f"{slot + 1}: {i18n.color_name(color, locale, meta)}", str(slot + 1)))
        return ChoiceView(
            interaction.user.id,
            options,
            lambda i, src: self._draw(i, table.game_id, src),
            game_id=table.game_id,
            meta=meta,
        )

    async def _draw(self, interaction: discord.Interaction, game_id: int, source: str) -> None:
        await self._defer(interaction)
        make = (
            (lambda s: DrawBlind(s))
            if source == "deck"
            else (lambda s: DrawFaceUp(s, int(source) - 1))
        )
        await self._act_private(interaction, game_id, make)

    async def _act_private(
        self, interaction: discord.Interaction, game_id: int, make: Callable[[int], Action]
    ) -> None:
        """Apply an action for the clicking user and answer privately with what they got and what is next."""
        await self._defer(interaction)
        before = await self._table(interaction, game_id)
        kind = make(0).kind
        await self._apply(interaction, game_id, make)
        table = await self._table(interaction, game_id)
        locale, meta = interaction.locale, table.rules.meta
        lines: list[str] = []
        if (
            kind in ("draw_blind", "draw_face_up")
            and before.mine is not None
            and table.mine is not None
        ):
            for color, n in table.mine.hand.items():
                if n > before.mine.hand.get(color, 0):
                    lines.append(
                        i18n.t(
                            "drew_card",
                            locale,
                            meta=meta,
                            color=i18n.color_name(color, locale, meta),
                        )
                    )
        elif kind == "keep_tickets" and table.mine is not None:
            lines.append(i18n.t("kept", locale, meta=meta, count=len(table.mine.tickets)))
        prompt, view = self._pending(interaction, table)
        if prompt:
            lines.append(prompt)
        if not lines:
            lines.append(i18n.t("done", locale))
        await interaction.followup.send(
            fmt.clip("\n".join(lines)), view=view or discord.utils.MISSING, ephemeral=True
        )

    async def flow_draw(
        self, interaction: discord.Interaction, game_id: int, source: str | None
    ) -> None:
        await self._defer(interaction)
        table = await self._table(interaction, game_id)
        self._need_turn(table)
        if source is None:
            view = self._card_view(
                interaction,
                table,
                second=table.public is not None and table.public.step == "second_card",
            )
            await interaction.followup.send(
                i18n.t("btn_draw", interaction.locale), view=view, ephemeral=True
            )
            return
        await self._draw(interaction, game_id, source)

    async def flow_claim(
        self,
        interaction: discord.Interaction,
        game_id: int,
        route: str | None,
        color: str | None,
        locomotives: int | None,
    ) -> None:
        await self._defer(interaction)
        table = await self._table(interaction, game_id)
        mine = self._need_turn(table)
        rules, locale, meta = table.rules, interaction.locale, table.rules.meta
        if route is None:
            routes = claimable(rules, mine)
            if not routes:
                await interaction.followup.send(
                    i18n.t("claim_none", locale, meta=meta), ephemeral=True
                )
                return
            options = [(fmt.route_label(rules, r, locale), r) for r in routes[:25]]

            async def picked(i: discord.Interaction, chosen: list[str]) -> None:
                if chosen:
                    await self.flow_claim(i, game_id, chosen[0], None, None)

            view = SelectView(
                interaction.user.id,
                options,
                picked,
                confirm_label=i18n.t("btn_claim", locale),
                game_id=game_id,
                meta=meta,
            )
            await interaction.followup.send(
                i18n.t("claim_choose", locale, meta=meta, route="…"), view=view, ephemeral=True
            )
            return
        r = rules.board.routes.get(route)
        if r is None:
            raise _CogError("unknown_route")
        pays = rules.sensible_payments(r, mine.hand)
        if color:
            pays = [
                p
                for p in pays
                if p.get(color, 0) or (color == "locomotive" and set(p) == {"locomotive"})
            ]
        if locomotives is not None:
            pays = [p for p in pays if p.get("locomotive", 0) == locomotives]
        if not pays:
            raise _CogError("cannot_pay")
        label = fmt.route_label(rules, route, locale)

        async def confirmed(i: discord.Interaction, chosen: Any) -> None:
            payment = chosen if isinstance(chosen, Cards) else pays[int(chosen[0]) if chosen else 0]
            await self._act_private(i, game_id, lambda s: ClaimRoute(s, route, payment))

        if len(pays) == 1:
            view: discord.ui.View = ChoiceView(
                interaction.user.id,
                [(i18n.t("confirm", locale), pays[0])],
                confirmed,
                game_id=game_id,
                meta=meta,
            )
            text = i18n.t(
                "claim_confirm",
                locale,
                meta=meta,
                route=label,
                payment=fmt.payment_text(pays[0], rules, locale),
            )
        else:
            options = [
                (fmt.payment_text(p, rules, locale), str(n)) for n, p in enumerate(pays[:25])
            ]
            view = SelectView(
                interaction.user.id,
                options,
                confirmed,
                confirm_label=i18n.t("confirm", locale),
                cancel_label=i18n.t("cancel", locale),
                game_id=game_id,
                meta=meta,
                preselect=["0"],
            )
            text = i18n.t("claim_choose", locale, meta=meta, route=label)
        await interaction.followup.send(text, view=view, ephemeral=True)

    async def flow_tickets(
        self, interaction: discord.Interaction, game_id: int, short: int | None, long: int | None
    ) -> None:
        await self._defer(interaction)
        table = await self._table(interaction, game_id)
        self._need_turn(table)
        rules, locale, meta = table.rules, interaction.locale, table.rules.meta
        deal = rules.params.draw_tickets
        if getattr(deal, "announce_mix", False):
            if short is not None or long is not None:
                mix = tuple((d, n) for d, n in (("short", short or 0), ("long", long or 0)) if n)
                await self._act_private(interaction, game_id, lambda s: DrawTickets(s, mix))
                return
            prompt, view = self._mix_view(interaction, table, deal.count)
            await interaction.followup.send(prompt, view=view, ephemeral=True)
            return
        view = ChoiceView(
            interaction.user.id,
            [(i18n.t("draw_tickets_button", locale, meta=meta), "go")],
            lambda i, _: self._act_private(i, game_id, lambda s: DrawTickets(s)),
            game_id=game_id,
            meta=meta,
        )
        await interaction.followup.send(
            i18n.t("tickets_prompt", locale, meta=meta), view=view, ephemeral=True
        )

    async def flow_board(self, interaction: discord.Interaction, game_id: int) -> None:
        await self._defer(interaction)
        table = await self._table(interaction, game_id)
        if table.public is None:
            raise _CogError("not_started")
        text = fmt.status_text(
            table.public,
            table.rules,
            table.names,
            interaction.locale,
            game_id=game_id,
            status=table.status,
        )
        files = [f for f in (await self._board_file(table),) if f is not None]
        await interaction.followup.send(
            fmt.clip(text),
            files=files,
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    # ================================================================ slash commands
    @app_commands.command(name="new", description="Open a lobby for a new game in this channel")
    @app_commands.describe(
        map="The map to play", turn_time="Time per turn", tickets="Germany: ticket edition"
    )
    @app_commands.choices(
        map=MAP_CHOICES,
        turn_time=[app_commands.Choice(name=k, value=k) for k in TURN_TIMES],
        tickets=[
            app_commands.Choice(name="2012", value="2012"),
            app_commands.Choice(name="2017", value="2017"),
        ],
    )
    async def new(
        self,
        interaction: discord.Interaction,
        map: str,
        turn_time: str | None = None,
        tickets: str | None = None,
    ) -> None:
        """Open a lobby for a new game in this channel."""
        await self._defer(interaction)
        await self.lobby_new(
            interaction,
            map,
            TURN_TIMES.get(turn_time or "24h", 86_400),
            {"tickets": tickets} if tickets else {},
        )

    @app_commands.command(name="join", description="Join the game in this channel")
    async def join(self, interaction: discord.Interaction) -> None:
        await self.flow_join(interaction, await self._game_here(interaction))

    @app_commands.command(name="leave", description="Leave the lobby in this channel")
    async def leave(self, interaction: discord.Interaction) -> None:
        await self.lobby_call(interaction, await self._game_here(interaction), "leave")

    @app_commands.command(name="add_ai", description="Add a computer player (host)")
    async def add_ai(self, interaction: discord.Interaction) -> None:
        await self.lobby_call(interaction, await self._game_here(interaction), "add_ai")

    @app_commands.command(name="start", description="Start the game (host)")
    async def start(self, interaction: discord.Interaction) -> None:
        await self.flow_start(interaction, await self._game_here(interaction))

    @app_commands.command(name="cancel", description="Cancel the game (host or Manage Channels)")
    async def cancel(self, interaction: discord.Interaction) -> None:
        await self.lobby_call(interaction, await self._game_here(interaction), "cancel")

    @app_commands.command(
        name="hand", description="Show your hand, tickets and pending choice (only you see it)"
    )
    async def hand(self, interaction: discord.Interaction) -> None:
        await self.flow_hand(interaction, await self._game_here(interaction))

    @app_commands.command(name="draw", description="Draw one card")
    @app_commands.describe(source="Deck or face-up slot 1-5")
    @app_commands.choices(
        source=[app_commands.Choice(name=v, value=v) for v in ("deck", "1", "2", "3", "4", "5")]
    )
    async def draw(self, interaction: discord.Interaction, source: str) -> None:
        await self.flow_draw(interaction, await self._game_here(interaction), source)

    @app_commands.command(name="claim", description="Claim a route")
    @app_commands.describe(
        route="The route to claim", color="Colour to pay with", locomotives="Locomotives to use"
    )
    async def claim(
        self,
        interaction: discord.Interaction,
        route: str,
        color: str | None = None,
        locomotives: app_commands.Range[int, 0, 9] | None = None,
    ) -> None:
        await self.flow_claim(
            interaction, await self._game_here(interaction), route, color, locomotives
        )

    @claim.autocomplete("route")
    async def claim_route_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            game_id = await self._game_here(interaction)
            table = await self._read_table(game_id, interaction.user.id)
        except Exception:  # noqa: BLE001 - autocomplete answers quietly
            return []
        if table.mine is None or table.public is None or not table.mine.to_act:
            return []
        needle = current.lower()
        out = []
        for rid in claimable(table.rules, table.mine):
            label = fmt.route_label(table.rules, rid, interaction.locale)
            if needle in label.lower() or needle in rid:
                out.append(app_commands.Choice(name=label[:100], value=rid))
        return out[:25]

    @claim.autocomplete("color")
    async def claim_color_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            table = await self._read_table(await self._game_here(interaction), interaction.user.id)
        except Exception:  # noqa: BLE001
            return []
        if table.mine is None:
            return []
        return [
            app_commands.Choice(
                name=i18n.color_name(c, interaction.locale, table.rules.meta), value=c
            )
            for c, n in sorted(table.mine.hand.items())
            if n and current.lower() in c
        ][:25]

    @app_commands.command(name="tickets", description="Draw destination tickets")
    @app_commands.describe(short="Short tickets (Germany)", long="Long tickets (Germany)")
    async def tickets(
        self,
        interaction: discord.Interaction,
        short: app_commands.Range[int, 0, 4] | None = None,
        long: app_commands.Range[int, 0, 4] | None = None,
    ) -> None:
        await self.flow_tickets(interaction, await self._game_here(interaction), short, long)

    @app_commands.command(name="board", description="Show the board")
    async def board(self, interaction: discord.Interaction) -> None:
        await self.flow_board(interaction, await self._game_here(interaction))

    @app_commands.command(name="status", description="Show the game status")
    async def status(self, interaction: discord.Interaction) -> None:
        await self._defer(interaction)
        table = await self._table(interaction, await self._game_here(interaction))
        if table.public is None:
            text = i18n.t(
                "lobby_players",
                interaction.locale,
                meta=table.rules.meta,
                game=table.game_id,
                map=i18n.map_text(table.rules.meta, "name", interaction.locale),
                players=", ".join(table.names),
            )
        else:
            text = fmt.status_text(
                table.public,
                table.rules,
                table.names,
                interaction.locale,
                game_id=table.game_id,
                status=table.status,
            )
            if table.deadline_at and table.public.phase != "finished":
                text += "\n" + i18n.t(
                    "clock", interaction.locale, when=f"<t:{int(table.deadline_at)}:R>"
                )
        await interaction.followup.send(
            fmt.clip(text), ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )

    @app_commands.command(name="log", description="Show the last moves")
    @app_commands.describe(count="How many moves")
    async def log_(
        self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 30] = 10
    ) -> None:
        await self._defer(interaction)
        await self.show_log(interaction, await self._game_here(interaction), count)

    @app_commands.command(name="rules", description="Show the rules of a map")
    @app_commands.describe(map="The map to play")
    @app_commands.choices(map=MAP_CHOICES)
    async def rules(self, interaction: discord.Interaction, map: str | None = None) -> None:
        await self._defer(interaction)
        map_id = map
        if map_id is None:
            try:
                map_id = (
                    await self._table(interaction, await self._game_here(interaction))
                ).rules.map_id
            except Exception:  # noqa: BLE001 - no game here: the default map
                map_id = "usa"
        meta = load_ruleset(map_id).meta
        text = i18n.map_text(meta, "rules_text", interaction.locale)
        text += _provisional(meta, interaction.locale)
        for n, chunk in enumerate(_chunks(text, 1900)):
            await interaction.followup.send(chunk, ephemeral=True)
            if n >= 4:
                break

    @app_commands.command(name="maps", description="List the maps")
    async def maps(self, interaction: discord.Interaction) -> None:
        await self._defer(interaction)
        lines = []
        for map_id in available_maps():
            meta = load_ruleset(map_id).meta
            lines.append(
                i18n.t(
                    "maps_line",
                    interaction.locale,
                    id=map_id,
                    name=i18n.map_text(meta, "name", interaction.locale),
                    provisional=_provisional(meta, interaction.locale),
                )
            )
        await interaction.followup.send(fmt.clip("\n".join(lines)), ephemeral=True)

    @app_commands.command(name="mygames", description="List your games")
    async def mygames(self, interaction: discord.Interaction) -> None:
        await self._defer(interaction)
        await self.show_mygames(interaction)

    @app_commands.command(name="stats", description="Show a player's statistics")
    @app_commands.describe(user="The player")
    async def stats(
        self, interaction: discord.Interaction, user: discord.User | None = None
    ) -> None:
        await self._defer(interaction)
        await self.show_stats(interaction, user or interaction.user)

    @app_commands.command(name="leaderboard", description="Show the leaderboard")
    async def leaderboard(self, interaction: discord.Interaction) -> None:
        await self._defer(interaction)
        await self.show_leaderboard(interaction)

    @app_commands.command(name="vacation", description="Take a vacation: your turns wait")
    @app_commands.describe(days="Number of days")
    async def vacation(
        self, interaction: discord.Interaction, days: app_commands.Range[int, 1, 30]
    ) -> None:
        await self.lobby_call(
            interaction, await self._game_here(interaction), "vacation", days=days
        )

    @app_commands.command(name="resign", description="Resign: a computer plays your seat")
    async def resign(self, interaction: discord.Interaction) -> None:
        await self.lobby_call(interaction, await self._game_here(interaction), "resign")


class _CogError(Exception):
    """A refusal decided in the cog (before the service is asked), with an i18n code."""

    def __init__(self, code: str, detail: dict[str, Any] | None = None) -> None:
        super().__init__(code)
        self.code = code
        self.detail = detail or {}


def _provisional(meta: dict[str, Any], locale: Any) -> str:
    prov = meta.get("provenance") or {}
    if prov.get("status") == "provisional":
        return i18n.t("provisional", locale, notes=str(prov.get("notes", ""))[:300])
    return ""


def _chunks(text: str, size: int) -> list[str]:
    out, cur = [], ""
    for para in text.split("\n"):
        if len(cur) + len(para) + 1 > size and cur:
            out.append(cur)
            cur = ""
        cur = (cur + "\n" + para) if cur else para[:size]
    if cur:
        out.append(cur)
    return out


def _mixes(
    decks: Sequence[str], count: int, left: dict[str, int]
) -> list[tuple[tuple[str, int], ...]]:
    """Every way to split ``count`` tickets over ``decks`` within what is left."""
    out: list[tuple[tuple[str, int], ...]] = []

    def rec(i: int, rest: int, acc: list[tuple[str, int]]) -> None:
        if i == len(decks):
            if rest == 0:
                out.append(tuple(acc))
            return
        for n in range(min(rest, left.get(decks[i], 0)), -1, -1):
            rec(i + 1, rest - n, acc + ([(decks[i], n)] if n else []))

    rec(0, count, [])
    return out


def claimable(rules: Ruleset, mine: PlayerView) -> list[str]:
    """Routes the reader can pay for now, from their view only (same checks as the engine)."""
    public = mine.public
    owners = public.owners
    out = []
    for rid, route in rules.board.routes.items():
        if rid in owners or route.length > mine.me.pieces:
            continue
        blocked = False
        for sib in rules.board.siblings(rid):
            if sib in owners and (
                owners[sib] == mine.seat
                or public.num_seats < rules.params.double_routes_min_players
            ):
                blocked = True
        if not blocked and rules.sensible_payments(route, mine.hand):
            out.append(rid)
    return out


__all__ = ["TtrCog", "MAP_CHOICES", "TURN_TIMES", "available_maps", "load_ruleset", "LOBBY_VERBS"]


def _render_board(map_id: str, public: PublicView, names: Sequence[str]) -> bytes:
    """Worker-thread body: the board PNG."""
    return render_board_png(load_layout(map_id), public, list(names))


def _render_hand(mine: PlayerView, names: Sequence[str], lang: str) -> bytes:
    """Worker-thread body: the private hand PNG."""
    return render_hand_png(mine, list(names), lang=lang)


def _render_final(map_id: str, public: PublicView, names: Sequence[str]) -> bytes:
    """Worker-thread body: the final board and score table PNG."""
    return render_final_png(load_layout(map_id), public, list(names))
