-- Version 6: privacy (issue 35).
-- * games.paused_at: a running game of a server that removed the bot is paused
--   (its timers cleared, so they never fire) until the bot is invited back;
-- * guild_departures: when a server removed the bot, so that its data is
--   deleted after the retention period (TTR_GUILD_RETENTION_DAYS);
-- * the action log stays append-only, except that a forgotten user's id may
--   be cleared from it (actor_user_id set to NULL, nothing else changed);
-- * indexes for finding a server's games and the games a user hosted.

ALTER TABLE games ADD COLUMN paused_at REAL;  -- set while the game's server has removed the bot

CREATE TABLE guild_departures (
    guild_id INTEGER PRIMARY KEY,
    left_at  REAL    NOT NULL  -- when the server removed the bot
);

CREATE INDEX games_by_guild ON games (guild_id);
CREATE INDEX games_by_host ON games (host_user_id);

DROP TRIGGER actions_no_update;

CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
WHEN NOT (
    NEW.actor_user_id IS NULL
    AND NEW.game_id = OLD.game_id
    AND NEW.seq = OLD.seq
    AND NEW.seat IS OLD.seat
    AND NEW.action = OLD.action
    AND NEW.source = OLD.source
    AND NEW.created_at = OLD.created_at
)
BEGIN
    SELECT RAISE(ABORT, 'actions: the log is append-only');
END;
