"""Players: a user's open games and settings (statistics and the leaderboard: :mod:`._ladder`).

All answers are private and in the reader's language.
"""

from __future__ import annotations

import discord

from maps import load_ruleset

from ._base import Base


class PlayerFlows(Base):
    """/ttr player games and /ttr player settings."""

    async def mygames(self, interaction: discord.Interaction) -> None:
        """The user's open games in every server, the ones waiting for them first."""
        await self.defer(interaction)
        w = self.words(interaction)
        lines = []
        for g in await self.service.queries.games_for_user(interaction.user.id):
            meta = load_ruleset(g.map_id).meta
            names = meta.get("name") or {}
            lines.append(
                w.t(
                    "Game {game} on **{map}** in <#{channel}>{turn}",
                    game=g.id,
                    map=str(names.get(w.lang) or names.get("en") or g.map_id),
                    channel=g.thread_id or g.channel_id,
                    turn=" – " + w.t("your move!") if g.your_turn else "",
                )
            )
        await self.reply(interaction, "\n".join(lines) or w.t("You are in no open games."))

    # ------------------------------------------------------------ settings
    async def settings(
        self,
        interaction: discord.Interaction,
        turn_pings: bool | None,
        dm_turns: bool | None,
        high_contrast: bool | None,
        phone_board: bool | None = None,
        confirm_claims: bool | None = None,
    ) -> None:
        """Show, or change, the reader's settings (turn pings, a DM on their turn, high contrast,
        the board drawn for a phone, one more click before a claim)."""
        await self.defer(interaction)
        w = self.words(interaction)
        changes = {
            k: v
            for k, v in (
                ("turn_pings", turn_pings),
                ("dm_turns", dm_turns),
                ("high_contrast", high_contrast),
                ("phone_board", phone_board),
                ("confirm_claims", confirm_claims),
            )
            if v is not None
        }
        if changes:
            now = await self.service.queries.set_user_settings(interaction.user.id, **changes)
            interaction.extras["committed"] = True
        else:
            now = await self.service.queries.user_settings(interaction.user.id)

        def on_off(flag: bool) -> str:
            return w.t("on") if flag else w.t("off")

        lines = [
            w.t("Your settings were saved.") if changes else w.t("Your settings:"),
            w.t("• Turn pings: {state}", state=on_off(now.turn_pings)),
            w.t("• A direct message on your turn: {state}", state=on_off(now.dm_turns)),
            w.t(
                "• High contrast for your private images: {state}", state=on_off(now.high_contrast)
            ),
            w.t("• Your board drawn for a phone: {state}", state=on_off(now.phone_board)),
            w.t(
                "• Confirm each claim with one more click: {state}",
                state=on_off(now.confirm_claims),
            ),
            w.t(
                "Change them with /ttr player settings turn_pings: dm_turns: high_contrast: "
                "phone_board: confirm_claims:."
            ),
        ]
        await self.reply(interaction, "\n".join(lines))
