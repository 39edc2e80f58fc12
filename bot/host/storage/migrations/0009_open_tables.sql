-- Version 9: open tables and followers.
-- * table_settings: a server's "looking for players" role (pinged when a lobby opens, at
--   most once per ping_seconds; last_ping_at the last ping), and how long a lobby nobody
--   joins waits before it expires (expiry_seconds); updated_by who changed them last;
-- * followers: who follows a game without playing (a direct message at its end, and at
--   each turn when each_turn), in their language; they go with the game.

CREATE TABLE table_settings (
    guild_id       INTEGER PRIMARY KEY,
    role_id        INTEGER,  -- NULL: no role, no pings
    ping_seconds   INTEGER NOT NULL DEFAULT 600 CHECK (ping_seconds > 0),
    expiry_seconds INTEGER NOT NULL DEFAULT 86400 CHECK (expiry_seconds > 0),
    last_ping_at   REAL,
    updated_at     REAL    NOT NULL,
    updated_by     INTEGER
);

CREATE TABLE followers (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id     INTEGER NOT NULL,
    each_turn   INTEGER NOT NULL DEFAULT 0 CHECK (each_turn IN (0, 1)),
    language    TEXT    NOT NULL DEFAULT 'en',
    followed_at REAL    NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

CREATE INDEX followers_by_user ON followers (user_id);
CREATE INDEX games_open_lobbies ON games (guild_id, created_at) WHERE status = 'lobby';
