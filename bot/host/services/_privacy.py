"""Privacy: what is stored about a player, forgetting them, and the servers that removed the bot.

- A player asks what is stored (:meth:`PrivacyOps.user_data`) and to be
  forgotten (:meth:`PrivacyOps.forget_user`): one storage transaction (see
  :meth:`bot.host.storage.Storage.forget_user`); their seat in every game gets an
  anonymous name in the table's language ("Former player 2", the seat's number)
  so the other players' results, statistics and every replay stay intact.
- A server that removes the bot (:meth:`PrivacyOps.guild_removed`): its lobbies
  are cancelled and its running games paused at once; invited back within the
  retention period (:meth:`PrivacyOps.guild_returned`) they resume, their
  clocks moved by the pause; after it (:meth:`PrivacyOps.purge_due`, run by the
  timer loop) everything of the server is deleted.

Nothing here imports discord.
"""

from __future__ import annotations

import logging
from collections.abc import Collection

from bot.host.storage import ForgetReport, GameRow, GuildDeparture, PurgeReport, UserData
from words import words_for

from ._loading import DEFAULT_RETENTION_DAYS
from ._recording import MoveRecorder

log = logging.getLogger(__name__)

__all__ = ["DEFAULT_RETENTION_DAYS", "PrivacyOps", "former_player"]


def former_player(language: str, seat: int) -> str:
    """The anonymous name of a forgotten player's seat, in the table's language: "Former
    player 2" for seat 1 (seat numbers are 0-based, names count from 1)."""
    return words_for(language).t("Former player {number}", number=seat + 1)


class PrivacyOps(MoveRecorder):
    """Privacy operations of :class:`~bot.host.services.GameService`."""

    async def user_data(self, user_id: int) -> UserData:
        """What is stored about ``user_id`` (counts), and the games in which they still play."""
        return await self.storage.user_data(user_id)

    async def forget_user(self, user_id: int) -> ForgetReport:
        """Forget a player: their settings, ratings and rating history go, their seat in every
        game keeps its moves and score under an anonymous name (:func:`former_player`), their id
        leaves every game, and their results keep their places under a random identity, so the
        others' ratings replay exactly. Forgetting twice is harmless (the report is all zeros).

        Raises:
            UserInOpenGames: they still play (a lobby, or a running game whose seat the
                computer does not play): leave, resign or finish there first.
        """
        return await self.storage.forget_user(user_id, former_player)

    # ------------------------------------------------------------ servers
    async def guild_removed(self, guild_id: int) -> GuildDeparture:
        """The server removed the bot: cancel its lobbies and pause its running games at once
        (their timers never fire while paused); its data goes after the retention period."""
        departure = await self.storage.depart_guild(guild_id)
        for game_id in departure.cancelled:
            self._states.pop(game_id, None)
        return departure

    async def guild_returned(self, guild_id: int) -> list[GameRow]:
        """The bot is in the server (again): resume its paused games, their clocks moved on by
        the pause. Returns the resumed games (empty, after one read, for a server that never
        left: this runs for every server when the bot connects)."""
        resumed = await self.storage.return_guild(guild_id)
        if resumed:
            self._wake.set()  # their timers are set again
        return resumed

    async def guilds_present(self, guild_ids: Collection[int]) -> list[GuildDeparture]:
        """The bot connected and is in ``guild_ids``: every server of this process's shards with
        stored games that is not among them removed the bot while it was away, and is treated
        as :meth:`guild_removed` (direct-message games, guild 0, are left alone)."""
        present = set(guild_ids)
        departed = await self.storage.departures()
        gone = [
            guild
            for guild in await self.storage.guild_ids()
            if guild and guild not in present and guild not in departed
            and (self.shards is None or self.shards.owns(guild))
        ]  # fmt: skip
        return [await self.guild_removed(guild) for guild in gone]

    async def purge_guild(self, guild_id: int) -> PurgeReport:
        """Delete everything of a server now (see :meth:`bot.host.storage.Storage.purge_guild`)."""
        report = await self.storage.purge_guild(guild_id)
        if report.anything:
            self._states.clear()  # its games' states go too (cheap: states reload lazily)
        return report

    async def purge_due(self, now: float | None = None) -> list[PurgeReport]:
        """Purge every server of this process's shards that removed the bot at least the
        retention period ago (:attr:`retention_s`). Run by the timer loop; idempotent."""
        now = self.clock() if now is None else now
        due = [
            guild
            for guild, left_at in (await self.storage.departures()).items()
            if left_at + self.retention_s <= now
            and (self.shards is None or self.shards.owns(guild))
        ]
        reports = [await self.purge_guild(guild) for guild in due]
        for report in reports:
            log.info(
                "guild %s: its data was deleted %s days after it removed the bot",
                report.guild_id,
                round(self.retention_s / 86_400, 2),
            )
        return reports
