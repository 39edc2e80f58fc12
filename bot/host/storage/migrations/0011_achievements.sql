-- Version 11: achievements, each earned once per player and server.
-- * achievements: who (user_id) earned which achievement (an id of
--   bot.host.achievements.ACHIEVEMENTS) in which server, in which game and when
--   (the game's finish time, so a recompute from the stored games gives the same
--   rows). Deleted with the game, by forgetting the player and by the purge of
--   the server.

CREATE TABLE achievements (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    achievement TEXT    NOT NULL,
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    earned_at   REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id, achievement)
);

CREATE INDEX achievements_by_game ON achievements (game_id);
CREATE INDEX achievements_by_user ON achievements (user_id);
