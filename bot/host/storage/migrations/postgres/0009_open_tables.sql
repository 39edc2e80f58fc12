-- Version 9 (the same schema as the SQLite file of this number): a server's
-- "looking for players" role, its ping interval and the expiry of lobbies nobody
-- joins (table_settings), and the followers of a game (followers).

CREATE TABLE table_settings (
    guild_id       BIGINT PRIMARY KEY,
    role_id        BIGINT,
    ping_seconds   INTEGER NOT NULL DEFAULT 600 CHECK (ping_seconds > 0),
    expiry_seconds INTEGER NOT NULL DEFAULT 86400 CHECK (expiry_seconds > 0),
    last_ping_at   DOUBLE PRECISION,
    updated_at     DOUBLE PRECISION NOT NULL,
    updated_by     BIGINT
);

CREATE TABLE followers (
    game_id     BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id     BIGINT  NOT NULL,
    each_turn   BOOLEAN NOT NULL DEFAULT FALSE,
    language    TEXT    NOT NULL DEFAULT 'en',
    followed_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

CREATE INDEX followers_by_user ON followers (user_id);
CREATE INDEX games_open_lobbies ON games (guild_id, created_at) WHERE status = 'lobby';
