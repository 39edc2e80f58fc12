-- Core tables: one row per game, its seats and its append-only action log.
-- Ids from Discord (guild, channel, thread, user, message) are snowflakes and
-- fit a signed 64-bit INTEGER. Times are unix seconds (REAL). JSON columns
-- hold compact UTF-8 JSON text written by bot.storage.

CREATE TABLE games (
    id               INTEGER PRIMARY KEY,
    guild_id         INTEGER NOT NULL,
    channel_id       INTEGER NOT NULL,  -- the channel or thread the game lives in
    thread_id        INTEGER,           -- set when the game runs in a thread
    lobby_message_id INTEGER,
    board_message_id INTEGER,
    host_user_id     INTEGER NOT NULL,
    map_id           TEXT    NOT NULL,
    options          TEXT    NOT NULL DEFAULT '{}',
    status           TEXT    NOT NULL DEFAULT 'lobby'
                     CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
    seed             INTEGER,
    engine_version   TEXT,
    version          INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    snapshot         TEXT,              -- NULL while in the lobby
    created_at       REAL    NOT NULL,
    updated_at       REAL    NOT NULL,
    finished_at      REAL
);

-- At most one open (lobby or active) game per channel.
CREATE UNIQUE INDEX games_one_open_per_channel
    ON games (channel_id) WHERE status IN ('lobby', 'active');

CREATE TABLE seats (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL CHECK (seat >= 0),
    user_id      INTEGER,               -- NULL for an AI seat
    display_name TEXT    NOT NULL,
    color        TEXT,
    is_ai        INTEGER NOT NULL DEFAULT 0 CHECK (is_ai IN (0, 1)),
    ai_kind      TEXT,
    joined_at    REAL    NOT NULL,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id)
);

CREATE INDEX seats_by_user ON seats (user_id);

CREATE TABLE actions (
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq           INTEGER NOT NULL CHECK (seq >= 1),  -- 1-based; games.version after applying
    seat          INTEGER,
    action        TEXT    NOT NULL,
    actor_user_id INTEGER,
    source        TEXT    NOT NULL CHECK (source IN ('player', 'ai', 'timeout')),
    created_at    REAL    NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- The log is append-only and gapless: seq n+1 follows seq n, rows never change,
-- and rows go away only with their game (ON DELETE CASCADE).
CREATE TRIGGER actions_gapless BEFORE INSERT ON actions
WHEN NEW.seq <> (SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE game_id = NEW.game_id)
BEGIN
    SELECT RAISE(ABORT, 'actions: seq must follow the last seq of the game');
END;

CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'actions: the log is append-only');
END;

CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
WHEN EXISTS (SELECT 1 FROM games WHERE id = OLD.game_id)
BEGIN
    SELECT RAISE(ABORT, 'actions: the log is append-only');
END;
