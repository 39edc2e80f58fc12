-- Version 11 (the same schema as the SQLite file of this number): achievements,
-- each earned once per player and server, with the game and its finish time.

CREATE TABLE achievements (
    guild_id    BIGINT           NOT NULL,
    user_id     BIGINT           NOT NULL,
    achievement TEXT             NOT NULL,
    game_id     BIGINT           NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    earned_at   DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, user_id, achievement)
);

CREATE INDEX achievements_by_game ON achievements (game_id);
CREATE INDEX achievements_by_user ON achievements (user_id);
