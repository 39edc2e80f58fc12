"""The privacy notice: what the bot stores about a player, why, for how long, and how to have it
deleted (``/ttr player privacy``, ``python -m bot privacy``, the documentation's docs/privacy.md).

One text in the catalogs, in every language the bot speaks; the English part of docs/privacy.md
is this text (``tests/test_privacy_notice.py`` holds the two equal), so the notice and the
documentation cannot drift apart. It must stay true to what ``bot.host.storage`` keeps: a new
table that holds user data needs its line here (and in forgetting, ``bot/host/storage/_privacy.py``).
"""

from __future__ import annotations

from ._catalog import Words


def privacy_notice(w: Words, retention_days: int) -> str:
    """The privacy notice in ``w``'s language, as Markdown that Discord and GitHub both show
    (bold headings, ``-`` lists); ``retention_days``: how long a server's data is kept after it
    removed the bot (``TTR_GUILD_RETENTION_DAYS``). Well within Discord's 2,000 characters."""
    return "\n".join(
        [
            w.t("**What this bot stores about you, and why**"),
            w.t(
                "- **Your Discord user id** and the name you had when you joined a game, which "
                "the other players of that game see: to give you your seat, to mention you when "
                "it is your turn and to show your hand to you alone."
            ),
            w.t(
                "- **Your moves** in every game, with their time, **your results** (score, rank, "
                "{tickets} completed, achievements) and **your ratings** (per server and season, and each rated "
                "game's change): to replay and check every game, and for /ttr game show, /ttr player "
                "stats and /ttr player leaderboard."
            ),
            w.t(
                "- **Your settings** from /ttr player settings and the games you follow (with "
                "your language), if any: to keep them."
            ),
            w.t("- Your id as who changed a server's settings or started a season, if you did."),
            w.t("- For every game, the ids of its server, channel and messages: to run it there."),
            w.t(
                "The bot reads none of your messages and stores no e-mail address, IP address or "
                "anything else about you."
            ),
            "",
            w.t("**For how long**"),
            w.n(
                "Finished games, results and ratings are kept while the bot is in their server. "
                "When a server removes the bot, its games that have not started are cancelled and "
                "its running games paused at once, and {count} day later everything of that "
                "server is deleted (if the bot is invited back before, its games go on).",
                "Finished games, results and ratings are kept while the bot is in their server. "
                "When a server removes the bot, its games that have not started are cancelled and "
                "its running games paused at once, and {count} days later everything of that "
                "server is deleted (if the bot is invited back before, its games go on).",
                retention_days,
            ),
            "",
            w.t("**How to have it deleted**"),
            w.t(
                "With /ttr player forget_me the bot deletes your settings and ratings and, in "
                'every game, replaces your id and name with "Former player" and a number, so the '
                "other players' results, ratings and replays stay as they were. Leave your games "
                "that have not started and resign from your running ones first, or let it do "
                "that for you."
            ),
            w.t(
                "Messages the bot has already posted in a channel belong to that server: its "
                "moderators can delete them. The bot's operator can also forget you on request."
            ),
        ]
    )
